/// The state variables of RFC 5280 6.1.2 for one prospective certification path, named as there,
/// and the failures found so far.
struct PathValidationState {
    /// (a) valid_policy_tree, with (d) explicit_policy, (e) inhibit_anyPolicy and (f) policy_mapping:
    /// the policy processor holds the four (as a graph, ``PolicyGraph``).
    var validPolicyTree: PolicyProcessor
    /// Whether policy processing still runs (it stops at its first failure).
    var processesPolicies: Bool
    /// (b) permitted_subtrees and (c) excluded_subtrees: every nameConstraints extension in force (the
    /// initial one of 6.1.1 (h), (i), the anchor's, each CA's), a name being checked against each;
    /// checking them all is their intersection and union.
    var nameConstraints: [NameConstraints]
    /// (g) working_public_key_algorithm, (h) working_public_key, (j) working_issuer_name: the
    /// certificate whose key and subject the next certificate must chain to (the anchor first).
    var workingIssuer: Certificate?
    /// (i) working_public_key_parameters: DSA domain parameters a key without its own inherits.
    var workingPublicKeyParameters: DSAParameters?
    /// (k) max_path_length, and the certificate whose pathLenConstraint set it last (for the report).
    var maxPathLength: Int
    var maxPathLengthSource: Certificate?
    /// The 6.1.6 policy outputs, once 6.1.5 has run.
    var policyOutcome: PolicyOutcome?
    /// The policy extensions of the certificate being processed, read once by 6.1.3 for 6.1.4 or
    /// 6.1.5 to use again.
    var currentPolicyFacts: CertificatePolicyFacts?
    /// Every failure found, in processing order.
    var failures: [ValidationFailure] = []
    /// A signature of the path failed (or could not be checked): the path is forged or unusable, so
    /// the rest of 6.1's costly work — further signatures, name constraints, policies — stops, as in
    /// Chromium (issue 30); each certificate's own checks still run, so the report names them.
    var signatureFailed = false
}

/// RFC 5280 section 6.1 path validation of one prospective certification path, a method per step
/// named as the RFC names it: ``initialization(pathLength:anchor:)`` (6.1.2),
/// ``processTrustAnchor(_:state:)`` (RFC 5937 3.2: the anchor's constraints as for a certificate 0),
/// ``basicCertificateProcessing(_:index:isLast:isSelfIssued:state:)`` (6.1.3),
/// ``prepareForNextCertificate(_:index:isSelfIssued:state:)`` (6.1.4), ``wrapUp(_:state:)`` (6.1.5),
/// and beside them the profile's rules (``checkProfile(_:at:state:)``). Every failure is collected
/// (not only the first), so reports and trust exceptions see them all.
///
/// The validator judges the path alone: revocation (6.3) and the purpose come after it, in the
/// pipeline that calls it (``PathPipeline``); it calls nothing above it.
struct PathValidator {
    let policy: ValidationPolicy
    let context: EvaluationContext
    /// The profile the path is validated under (``CertificateProfile/automatic`` resolved).
    let profile: CertificateProfile

    init(policy: ValidationPolicy, context: EvaluationContext, anchorIsPublicWebPKI: Bool) {
        self.policy = policy
        self.context = context
        profile = policy.profile.resolved(anchorIsPublicWebPKI: anchorIsPublicWebPKI)
    }

    /// Validates `path` (end entity first) under `anchor`. With `anchor == nil` the path is partial (the
    /// search found no issuer for its top certificate): everything that does not need the missing
    /// issuer is still checked, and `terminal` says why the path ends there.
    func validate(path: [Certificate], anchor: Certificate?, terminal: ValidationFailure? = nil) -> PathAttempt {
        let n = path.count
        var state = initialization(pathLength: n, anchor: anchor)
        if let terminal { state.failures.append(terminal) }
        // An anchor that is the end entity itself (a trusted self-signed server certificate, path
        // [leaf] under itself) issues nothing: it is judged once, as the end entity.
        if let anchor, !(n == 1 && anchor == path[0]) { processTrustAnchor(anchor, state: &state) }
        // Certificates in RFC order: certificate i (1-based) is `path[n - i]`, certificate 1 being the
        // one the anchor issued.
        for i in 1...n {
            let certificate = path[n - i]
            let isLast = i == n
            // Self-issued matters only for certificates 1..n-1 (6.1.3 (b), (c), (d)(1)(ii); 6.1.4 (h),
            // (l)); the end entity's names are not compared (the comparison is the costly part).
            let isSelfIssued = !isLast && certificate.isSelfIssued
            basicCertificateProcessing(certificate, index: i, isLast: isLast, isSelfIssued: isSelfIssued, state: &state)
            checkProfile(certificate, at: isLast ? .endEntity : .intermediate, state: &state)
            if isLast {
                wrapUp(certificate, state: &state)
            } else {
                prepareForNextCertificate(certificate, index: i, isSelfIssued: isSelfIssued, state: &state)
            }
        }
        return PathAttempt(certificates: path, anchor: anchor, failures: state.failures, policyOutcome: state.policyOutcome,
                           profile: profile)
    }

    /// 6.1.2 Initialization, from the 6.1.1 inputs: the policy inputs, the initial subtrees, the
    /// trust anchor's name and key, and max_path_length n.
    func initialization(pathLength n: Int, anchor: Certificate?) -> PathValidationState {
        PathValidationState(
            // Policies are processed for a path that reached an anchor, until the processing fails.
            validPolicyTree: PolicyProcessor(pathLength: n, inputs: policy.policyInputs), processesPolicies: anchor != nil,
            nameConstraints: policy.initialNameConstraints.map { [$0] } ?? [],
            workingIssuer: anchor,
            // Keys are judged from each certificate's parsed layout, without views into its DER (an
            // anchor's DER is shared by every evaluation on every thread).
            workingPublicKeyParameters: anchor?.dsaKeyParameters,
            maxPathLength: n, maxPathLengthSource: nil, policyOutcome: nil, currentPolicyFacts: nil)
    }

    /// The trust anchor's own checks, as ``AnchorEnforcement`` asks: its key, validity and profile,
    /// and its constraints processed as for a certificate 0 above certificate 1 (RFC 5937 section 3.2,
    /// in Chromium's reading).
    func processTrustAnchor(_ anchor: Certificate, state: inout PathValidationState) {
        if let refusal = policy.algorithms.refusal(ofKeyOf: anchor, under: profile) { state.failures.append(.weakKey(anchor, key: refusal)) }
        let enforcement = policy.anchorEnforcement
        if enforcement.validity { checkValidity(anchor, context.validationTime, &state.failures) }
        if enforcement.profile { checkProfile(anchor, at: .anchor, state: &state) }
        guard enforcement.constraints else { return }
        checkCriticalExtensions(anchor, &state.failures)
        if !enforcement.profile {
            // What the anchor's extensions must be for the constraints to be understood at all (under
            // `profile` the table reports these with the rest). A repeated extension is one of them:
            // which copy constrains would be the reader's choice (RFC 5280 4.2: MUST NOT appear more
            // than once; OpenSSL refuses such a certificate outright).
            for rule in [ProfileRule.malformedNameConstraints, .uninterpretedPolicyQualifier, .duplicateExtension]
            where anchor.profileFindings & rule.bit != 0 {
                state.failures.append(.profileViolation(anchor, rule))
            }
        }
        // basicConstraints: cA, when present, must be TRUE (RFC 5937 leaves an anchor without
        // basicConstraints to be a CA; Chromium, Go and OpenSSL refuse `cA FALSE`).
        if let basicConstraints = anchor.basicConstraints, !basicConstraints.isCertificateAuthority {
            state.failures.append(.notACertificateAuthority(anchor))
        }
        if enforcement.requireBasicConstraints && anchor.version == .v3 && anchor.basicConstraints == nil
            && !(enforcement.profile && ProfileRule.missingBasicConstraints.applies(in: profile, at: .anchor)) {
            state.failures.append(.profileViolation(anchor, .missingBasicConstraints))
        }
        if let usage = anchor.keyUsage, !usage.contains(.keyCertSign) {
            state.failures.append(.keyUsageForbids(anchor, required: .keyCertSign, present: usage))
        }
        if let limit = anchor.basicConstraints?.pathLenConstraint, limit < state.maxPathLength {
            state.maxPathLength = limit
            state.maxPathLengthSource = anchor
        }
        if let nameConstraints = anchor.nameConstraints { state.nameConstraints.append(nameConstraints) }
        if state.processesPolicies && anchor.hasPolicyExtension {
            do throws(PolicyFailure) {
                try state.validPolicyTree.processTrustAnchor(Self.policyFacts(anchor, isSelfIssued: anchor.isSelfIssued))
            } catch {
                policyFailed(error, &state)
            }
        }
    }

    /// 6.1.3 Basic certificate processing of certificate `i`: (a)(1) the signature with the working
    /// public key, (a)(2) validity, (a)(4) issuer name chaining, (b)–(c) name constraints, (d)–(f)
    /// certificate policies. ((a)(3), revocation, is the pipeline's stage after 6.1: ``PathPipeline``.)
    func basicCertificateProcessing(_ certificate: Certificate, index i: Int, isLast: Bool, isSelfIssued: Bool,
                                    state: inout PathValidationState) {
        // (a)(1): the signature, with the working public key (none after a signature failed).
        if let issuer = state.workingIssuer {
            if !state.signatureFailed {
                let outcome = context.signature(of: certificate, by: issuer, inheritedDSAParameters: state.workingPublicKeyParameters)
                switch outcome {
                case .valid: break
                case .invalid: state.failures.append(.badSignature(certificate, issuer: issuer.subject))
                case .unsupportedAlgorithm: state.failures.append(.unsupportedSignatureAlgorithm(certificate, certificate.signatureAlgorithm))
                case .unusableKey(let reason): state.failures.append(.unusablePublicKey(certificate, reason: reason))
                case .budgetExhausted: state.failures.append(.budgetExhausted(context.exhausted ?? .signatureChecks))
                }
                if outcome != .valid {
                    state.signatureFailed = true
                    state.processesPolicies = false
                }
            }
            // (a)(4): issuer name chaining.
            if !certificate.issuer.isEquivalent(to: issuer.subject) { state.failures.append(.issuerNameMismatch(certificate)) }
        }
        if !policy.algorithms.accepts(certificate.signatureAlgorithm) {
            state.failures.append(.disallowedSignatureAlgorithm(certificate, certificate.signatureAlgorithm))
        }
        // (a)(2): validity at the validation time.
        checkValidity(certificate, context.validationTime, &state.failures)

        // (b), (c): name constraints, except for self-issued intermediates (and after a signature failed).
        if !isSelfIssued && !state.signatureFailed {  // (isSelfIssued never set for the end entity)
            // The names parsing decoded (a stored value: nothing is read again per path attempt).
            let subjectAlternativeNames = certificate.subjectAlternativeNames
            // A leaf's commonName is a host name when the legacy fallback may match it (the option on,
            // no subjectAltName): then DNS subtrees constrain it, or a constrained CA could issue for
            // any host by leaving the subjectAltName out (OpenSSL's NAME_CONSTRAINTS_check_CN).
            let commonNamesAsDNSNames = isLast && policy.allowCommonNameFallback && subjectAlternativeNames == nil
            for nameConstraints in state.nameConstraints {
                var remaining = context.nameConstraintComparisons
                let result = NameConstraintsChecker.check(
                    subject: certificate.subject, subjectAlternativeNames: subjectAlternativeNames,
                    constraints: nameConstraints, commonNamesAsDNSNames: commonNamesAsDNSNames, comparisons: &remaining)
                context.nameConstraintComparisons = remaining
                switch result {
                case .satisfied: break
                case .violation(let violation): state.failures.append(.nameConstraintViolation(certificate, violation))
                case .budgetExhausted:
                    context.exhaust(.nameConstraintComparisons)
                    state.failures.append(.budgetExhausted(.nameConstraintComparisons))
                }
            }
        }

        // (d), (e), (f): certificate policies.
        if state.processesPolicies {
            let facts = Self.policyFacts(certificate, isSelfIssued: isSelfIssued)
            state.currentPolicyFacts = facts
            do throws(PolicyFailure) {
                try state.validPolicyTree.processCertificate(facts, index: i)
            } catch {
                policyFailed(error, &state)
            }
        }
    }

    /// 6.1.4 Preparation for certificate i+1: (a), (b), (h)–(j) the policy variables; (c)–(f) the
    /// working issuer name and public key (DSA parameters inherited when absent); (g) name
    /// constraints; (k) basicConstraints; (l), (m) max_path_length; (n) keyUsage; (o) critical
    /// extensions (in ``checkProfile(_:at:state:)``'s critical-extension check).
    func prepareForNextCertificate(_ certificate: Certificate, index i: Int, isSelfIssued: Bool, state: inout PathValidationState) {
        // (a), (b), (h), (i), (j): policy mappings and the skip counts.
        if state.processesPolicies {
            do throws(PolicyFailure) {
                let facts = state.currentPolicyFacts ?? Self.policyFacts(certificate, isSelfIssued: isSelfIssued)
                try state.validPolicyTree.prepareForNextCertificate(facts)
            } catch {
                policyFailed(error, &state)
            }
        }
        // (c)–(f): working issuer name and public key.
        state.workingIssuer = certificate
        if certificate.hasDSAKey {
            if let parameters = certificate.dsaKeyParameters { state.workingPublicKeyParameters = parameters }
        } else {
            state.workingPublicKeyParameters = nil
        }
        // (g): name constraints of this CA apply to everything below it.
        if let nameConstraints = certificate.nameConstraints { state.nameConstraints.append(nameConstraints) }
        // (k): the certificate must be a CA (v3 with basicConstraints cA).
        if certificate.version != .v3 || !certificate.isCertificateAuthority {
            state.failures.append(.notACertificateAuthority(certificate))
        }
        // (l): non-self-issued intermediates count against max_path_length.
        if !isSelfIssued {
            if state.maxPathLength <= 0 {
                state.failures.append(.pathLengthExceeded(state.maxPathLengthSource ?? certificate))
            } else {
                state.maxPathLength -= 1
            }
        }
        // (m): pathLenConstraint.
        if let limit = certificate.basicConstraints?.pathLenConstraint, limit < state.maxPathLength {
            state.maxPathLength = limit
            state.maxPathLengthSource = certificate
        }
        // (n): keyUsage, when present, must allow keyCertSign.
        if let usage = certificate.keyUsage, !usage.contains(.keyCertSign) {
            state.failures.append(.keyUsageForbids(certificate, required: .keyCertSign, present: usage))
        }
    }

    /// 6.1.5 Wrap-up procedure for the end entity: (a), (b), (g) the policy outputs ((c)–(e) the
    /// working key is not needed further; (f) critical extensions in ``checkProfile(_:at:state:)``).
    func wrapUp(_ certificate: Certificate, state: inout PathValidationState) {
        guard state.processesPolicies else { return }
        do throws(PolicyFailure) {
            let facts = state.currentPolicyFacts ?? Self.policyFacts(certificate, isSelfIssued: false)
            state.policyOutcome = try state.validPolicyTree.wrapUp(facts)
        } catch {
            policyFailed(error, &state)
        }
    }

    /// The profile's rules (the rules table, docs/RULES.md) for `certificate` at `position`, the key's
    /// strength (the algorithm profile), and the critical extensions it does not process (RFC 5280
    /// 4.2; 6.1.4 (o), 6.1.5 (f)). The trust anchor's critical extensions are
    /// ``processTrustAnchor(_:state:)``'s.
    func checkProfile(_ certificate: Certificate, at position: CertificatePosition, state: inout PathValidationState) {
        for rule in CertificateRules.violations(certificate, at: position, profile: profile) {
            state.failures.append(.profileViolation(certificate, rule))
        }
        guard position != .anchor else { return }
        if let refusal = policy.algorithms.refusal(ofKeyOf: certificate, under: profile) {
            state.failures.append(.weakKey(certificate, key: refusal))
        }
        checkCriticalExtensions(certificate, &state.failures)
    }

    /// A policy failure ends policy processing; a graph beyond its bounds ends the search (a budget).
    private func policyFailed(_ error: PolicyFailure, _ state: inout PathValidationState) {
        if case .graphTooLarge = error { context.exhaust(.policyGraph) }
        state.failures.append(.policyRequired(error))
        state.processesPolicies = false
    }

    private func checkValidity(_ certificate: Certificate, _ time: UnixTime, _ failures: inout [ValidationFailure]) {
        if time < certificate.notBefore {
            failures.append(.notYetValid(certificate, notBefore: certificate.notBefore, validationTime: time))
        }
        if time > certificate.notAfter {
            failures.append(.expired(certificate, notAfter: certificate.notAfter, validationTime: time))
        }
    }

    /// RFC 5280 4.2: a critical extension the validator does not process rejects the certificate.
    /// What CertPath processes is one list, ``KnownExtension`` (ocsp-nocheck and the TLS feature
    /// included); any other critical extension is one of these.
    /// The first ``reportedUnknownCriticalExtensions`` are reported, each a failure (one is enough to
    /// reject; a certificate of 40,000 of them otherwise gave 40,000 failures, repeated in every
    /// report of every attempt: 510 MB of `--explain` output for 1 MB of input).
    private func checkCriticalExtensions(_ certificate: Certificate, _ failures: inout [ValidationFailure]) {
        guard certificate.hasUnrecognizedCriticalExtension else { return }
        for oid in certificate.unrecognizedCriticalExtensionOIDs.prefix(Self.reportedUnknownCriticalExtensions) {
            failures.append(.unknownCriticalExtension(certificate, OID(validatedEncoding: certificate.der[oid])))
        }
    }

    /// How many unknown critical extensions of one certificate are reported.
    static let reportedUnknownCriticalExtensions = 4

    /// The policy-related extension values of a certificate (RFC 5280 6.1.3, 6.1.4 inputs).
    static func policyFacts(_ certificate: Certificate, isSelfIssued: Bool) -> CertificatePolicyFacts {
        CertificatePolicyFacts(
            policies: certificate.policyIdentifiers,
            policyMappings: certificate.policyMappings?.map {
                CertificatePolicyFacts.PolicyMapping(issuerDomainPolicy: $0.issuerDomainPolicy, subjectDomainPolicy: $0.subjectDomainPolicy)
            },
            requireExplicitPolicy: certificate.policyConstraints?.requireExplicitPolicy.map(UInt64.init),
            inhibitPolicyMapping: certificate.policyConstraints?.inhibitPolicyMapping.map(UInt64.init),
            inhibitAnyPolicy: certificate.inhibitAnyPolicy.map(UInt64.init),
            isSelfIssued: isSelfIssued)
    }
}
