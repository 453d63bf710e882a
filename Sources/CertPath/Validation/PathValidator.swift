/// One attempted certification path and everything found wrong with it.
public struct PathAttempt: Sendable {
    /// The certificates from the end entity up, the trust anchor excluded.
    public let certificates: [Certificate]
    /// The trust anchor ending the path; `nil` when the search stopped before reaching one.
    public let anchor: Certificate?
    /// Every failure found, in processing order.
    public let failures: [ValidationFailure]
    /// The RFC 5280 6.1.6 policy outputs, when policy processing ran to its end.
    public let policyOutcome: PolicyOutcome?
    /// The profile the path was validated under (``CertificateProfile/automatic`` resolved: never
    /// `automatic` itself).
    public let profile: CertificateProfile

    /// Whether nothing is wrong with this path.
    public var isValid: Bool { anchor != nil && failures.isEmpty }

    /// The failures about `certificate` (compared by identity or DER).
    public func failures(of certificate: Certificate) -> [ValidationFailure] {
        failures.filter { $0.certificate == certificate }
    }

    /// The failure of highest ``ValidationFailure/rank`` (the first one among equals).
    public var primaryFailure: ValidationFailure? {
        failures.reduce(nil) { best, next in
            guard let best else { return next }
            return next.rank > best.rank ? next : best
        }
    }
}

/// RFC 5280 section 6.1 path validation of one prospective certification path, with the steps named
/// as in the RFC so that a reviewer can diff them: 6.1.2 initialization, 6.1.3 basic certificate
/// processing, 6.1.4 preparation for the next certificate, 6.1.5 wrap-up; then the profile and purpose
/// checks of the policy. Every failure is collected (not only the first), so reports and trust
/// exceptions see them all.
struct PathValidator {
    let context: EvaluationContext

    /// Validates `path` (end entity first) under `anchor`. With `anchor == nil` the path is partial (the
    /// search found no issuer for its top certificate): everything that does not need the missing
    /// issuer is still checked, and `terminal` says why the path ends there. `anchorIsPublicWebPKI`
    /// says whether the anchor comes from a public Web PKI store, which resolves the
    /// ``CertificateProfile/automatic`` profile.
    func validate(path: [Certificate], anchor: Certificate?, anchorIsPublicWebPKI: Bool = false,
                  terminal: ValidationFailure? = nil, leafIsTrustedDirectly: Bool = false) -> PathAttempt {
        let policy = context.policy
        let time = context.validationTime
        let profile = policy.profile.resolved(anchorIsPublicWebPKI: anchor != nil && anchorIsPublicWebPKI)
        var failures: [ValidationFailure] = []
        if let terminal { failures.append(terminal) }

        // 6.1.2 Initialization. Certificates are processed in RFC order: certificate i (1-based) is
        // `path[n - i]`, certificate 1 being issued by the anchor. The path in that order is only
        // materialized for revocation checking, which looks at the certificates above one.
        let n = path.count
        let prospective = anchor != nil && context.revocation != nil ? Array(path.reversed()) : []
        var maxPathLength = n
        var pathLengthSource: Certificate? = nil
        var constraints: [NameConstraints] = policy.initialNameConstraints.map { [$0] } ?? []
        // Policies are processed for a path that reached an anchor, until the processing fails.
        // (A flag beside a plain processor, not an optional one: an optional of this large value
        // was copied and destroyed through its type's metadata at each step.)
        var processesPolicies = anchor != nil
        var policyProcessor = PolicyProcessor(pathLength: n, inputs: policy.policyInputs)
        var policyOutcome: PolicyOutcome? = nil
        var workingIssuer: Certificate? = anchor
        // Keys are judged from each certificate's parsed layout, without making views into its DER
        // (an anchor's DER is shared by every evaluation on every thread).
        var workingDSAParameters: DSAParameters? = anchor?.dsaKeyParameters

        // An anchor that is the end entity itself (a trusted self-signed server certificate, path [leaf]
        // under itself) issues nothing: it is judged once, as the end entity (key, validity, profile and
        // purpose in the loop below), and its constraints as a CA do not apply.
        if let anchor, !(n == 1 && anchor == path[0]) {
            if let refusal = policy.algorithms.refusal(ofKeyOf: anchor) {
                failures.append(.weakKey(anchor, key: refusal))
            }
            let enforcement = policy.anchorEnforcement
            if enforcement.validity { checkValidity(anchor, time, &failures) }
            if enforcement.profile {
                for rule in CertificateRules.violations(anchor, at: .anchor, profile: profile) {
                    failures.append(.profileViolation(anchor, rule))
                }
            }
            if enforcement.constraints {
                // RFC 5937 section 3.2, with Chromium's reading: the anchor's constraints are processed
                // as for a certificate 0 above certificate 1.
                checkCriticalExtensions(anchor, &failures)
                if !enforcement.profile {
                    // What the anchor's extensions must be for the constraints to be understood at all
                    // (under `profile` the table reports these with the rest).
                    for rule in [ProfileRule.malformedNameConstraints, .uninterpretedPolicyQualifier] where anchor.profileFindings & rule.bit != 0 {
                        failures.append(.profileViolation(anchor, rule))
                    }
                }
                // basicConstraints: cA, when present, must be TRUE (RFC 5937 leaves an anchor without
                // basicConstraints to be a CA; Chromium, Go and OpenSSL refuse `cA FALSE`).
                if let basicConstraints = anchor.basicConstraints, !basicConstraints.isCertificateAuthority {
                    failures.append(.notACertificateAuthority(anchor))
                }
                if enforcement.requireBasicConstraints && anchor.version == .v3 && anchor.basicConstraints == nil
                    && !(enforcement.profile && ProfileRule.missingBasicConstraints.applies(in: profile, at: .anchor)) {
                    failures.append(.profileViolation(anchor, .missingBasicConstraints))
                }
                if let usage = anchor.keyUsage, !usage.contains(.keyCertSign) {
                    failures.append(.keyUsageForbids(anchor, required: .keyCertSign, present: usage))
                }
                if let limit = anchor.basicConstraints?.pathLenConstraint, limit < maxPathLength {
                    maxPathLength = limit
                    pathLengthSource = anchor
                }
                if let nameConstraints = anchor.nameConstraints { constraints.append(nameConstraints) }
                if processesPolicies && anchor.hasPolicyExtension {
                    do throws(PolicyFailure) {
                        try policyProcessor.processTrustAnchor(Self.policyFacts(anchor, isSelfIssued: anchor.isSelfIssued))
                    } catch {
                        if case .graphTooLarge = error { context.exhaust(.policyGraph) }
                        failures.append(.policyRequired(error))
                        processesPolicies = false
                    }
                }
            }
        }

        for index in 0..<n {
            let certificate = path[n - 1 - index]
            let i = index + 1
            let isLast = i == n
            // Self-issued matters only for certificates 1..n-1 (6.1.3 (b), (c), (d)(1)(ii); 6.1.4 (h),
            // (l)); the end entity's names are not compared (the comparison is the costly part).
            let isSelfIssued = !isLast && certificate.isSelfIssued

            // 6.1.3 (a)(1): the signature, with the working public key.
            if let issuer = workingIssuer {
                switch context.signature(of: certificate, by: issuer, inheritedDSAParameters: workingDSAParameters) {
                case .valid: break
                case .invalid: failures.append(.badSignature(certificate, issuer: issuer.subject))
                case .unsupportedAlgorithm: failures.append(.unsupportedSignatureAlgorithm(certificate, certificate.signatureAlgorithm))
                case .unusableKey(let reason): failures.append(.unusablePublicKey(certificate, reason: reason))
                case .budgetExhausted: failures.append(.budgetExhausted(context.exhausted ?? .signatureChecks))
                }
                // (a)(4): issuer name chaining.
                if !certificate.issuer.isEquivalent(to: issuer.subject) { failures.append(.issuerNameMismatch(certificate)) }
            }
            if !policy.algorithms.accepts(certificate.signatureAlgorithm) {
                failures.append(.disallowedSignatureAlgorithm(certificate, certificate.signatureAlgorithm))
            }
            // (a)(2): validity at the validation time.
            checkValidity(certificate, time, &failures)
            // (a)(3): revocation status (RFC 5280 6.3), for a path that reached an anchor.
            if let anchor, let revocation = context.revocation,
               let failure = revocation.failure(for: certificate, above: prospective[..<index], anchor: anchor, context: context) {
                failures.append(failure)
            }

            // (b), (c): name constraints, except for self-issued intermediates.
            if !isSelfIssued {  // (never set for the end entity)
                for nameConstraints in constraints {
                    var remaining = context.nameConstraintComparisons
                    let result = NameConstraintsChecker.check(
                        subject: certificate.subject, subjectAlternativeNames: certificate.subjectAlternativeNames,
                        constraints: nameConstraints, comparisons: &remaining)
                    context.nameConstraintComparisons = remaining
                    switch result {
                    case .satisfied: break
                    case .violation(let violation): failures.append(.nameConstraintViolation(certificate, violation))
                    case .budgetExhausted:
                        context.exhaust(.nameConstraintComparisons)
                        failures.append(.budgetExhausted(.nameConstraintComparisons))
                    }
                }
            }

            // (d), (e), (f): certificate policies.
            if processesPolicies {
                let facts = Self.policyFacts(certificate, isSelfIssued: isSelfIssued)
                do throws(PolicyFailure) {
                    try policyProcessor.processCertificate(facts, index: i)
                    if isLast {
                        policyOutcome = try policyProcessor.wrapUp(facts)  // 6.1.5 (a), (b), (g)
                    } else {
                        try policyProcessor.prepareForNextCertificate(facts)  // 6.1.4 (a), (b), (h), (i), (j)
                    }
                } catch {
                    if case .graphTooLarge = error { context.exhaust(.policyGraph) }
                    failures.append(.policyRequired(error))
                    processesPolicies = false
                }
            }

            // Profile requirements (the rules table), the key profile, and critical extensions
            // (6.1.4 (o), 6.1.5 (f)).
            for rule in CertificateRules.violations(certificate, at: isLast ? .endEntity : .intermediate, profile: profile) {
                failures.append(.profileViolation(certificate, rule))
            }
            if let refusal = policy.algorithms.refusal(ofKeyOf: certificate) {
                failures.append(.weakKey(certificate, key: refusal))
            }
            checkCriticalExtensions(certificate, &failures)

            guard !isLast else { break }
            // 6.1.4 Preparation for certificate i+1.
            // (c)–(f): working issuer name and public key (DSA parameters inherited when absent).
            workingIssuer = certificate
            if certificate.hasDSAKey {
                if let parameters = certificate.dsaKeyParameters { workingDSAParameters = parameters }
            } else {
                workingDSAParameters = nil
            }
            // (g): name constraints of this CA apply to everything below it.
            if let nameConstraints = certificate.nameConstraints { constraints.append(nameConstraints) }
            // (k): the certificate must be a CA (v3 with basicConstraints cA).
            if certificate.version != .v3 || !certificate.isCertificateAuthority {
                failures.append(.notACertificateAuthority(certificate))
            }
            // (l): non-self-issued intermediates count against max_path_length.
            if !isSelfIssued {
                if maxPathLength <= 0 {
                    failures.append(.pathLengthExceeded(pathLengthSource ?? certificate))
                } else {
                    maxPathLength -= 1
                }
            }
            // (m): pathLenConstraint.
            if let limit = certificate.basicConstraints?.pathLenConstraint, limit < maxPathLength {
                maxPathLength = limit
                pathLengthSource = certificate
            }
            // (n): keyUsage, when present, must allow keyCertSign.
            if let usage = certificate.keyUsage, !usage.contains(.keyCertSign) {
                failures.append(.keyUsageForbids(certificate, required: .keyCertSign, present: usage))
            }
        }

        // The purpose: extended key usage, names, TLS key usage.
        failures.append(contentsOf: PurposeChecks.failures(path: path, anchor: anchor, policy: policy, profile: profile,
                                                           leafIsTrustedDirectly: leafIsTrustedDirectly))
        if let anchor, !policy.requiredKeyPins.isEmpty, let mismatch = TrustEvaluation.pinFailure(policy, path + [anchor]) {
            failures.append(mismatch)
        }
        if failures.isEmpty, anchor != nil, let check = policy.additionalCheck, let reason = check(path) {
            failures.append(.rejectedByCaller(reason))
        }
        return PathAttempt(certificates: path, anchor: anchor, failures: failures, policyOutcome: policyOutcome, profile: profile)
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
    /// The first ``reportedUnknownCriticalExtensions`` are reported, each a failure (one is enough to
    /// reject; a certificate of 40,000 of them otherwise gave 40,000 failures, repeated in every
    /// report of every attempt: 510 MB of `--explain` output for 1 MB of input).
    private func checkCriticalExtensions(_ certificate: Certificate, _ failures: inout [ValidationFailure]) {
        guard certificate.hasUnrecognizedCriticalExtension else { return }
        var reported = 0
        certificate.forEachExtensionRecord { record in
            guard record.isCritical, record.known == nil else { return true }
            failures.append(.unknownCriticalExtension(certificate, OID(validatedEncoding: certificate.der[record.oid])))
            reported += 1
            return reported < Self.reportedUnknownCriticalExtensions
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
