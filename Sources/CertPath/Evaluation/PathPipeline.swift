/// The stages one prospective certification path goes through, in one direction:
///
/// 1. RFC 5280 section 6.1 and the profile's rules (``PathValidator``);
/// 2. revocation, RFC 5280 6.3, for a path that reached a trust anchor (``RevocationChecker``), after
///    6.1 as Chromium orders it; a CRL issuer off the path gets its own path through
///    ``validateIssuerPath(of:intermediates:store:strictCRLConformance:)``, a nested search through this same entry point
///    with the same budget;
/// 3. the purpose (``PurposeChecks``: extKeyUsage, names, TLS keyUsage), the required key pins and the
///    caller's own check.
///
/// ``search(from:index:)`` runs the path builder with this pipeline as its judge. The stages call
/// nothing above them: the builder is given the pipeline, the revocation stage is given the means to
/// validate CRL issuers.
struct PathPipeline: PathJudgement, CRLIssuerPathValidation {
    let policy: ValidationPolicy
    let context: EvaluationContext
    /// RFC 5280 6.3 revocation checking of the evaluation's evidence, nested CRL-issuer paths
    /// included; `nil` when none is checked.
    let revocation: RevocationChecker?
    /// The caller's last check on a path that passed everything else (``TrustEvaluation/additionalCheck``).
    let additionalCheck: (@Sendable ([Certificate]) -> String?)?
    /// Attempts kept for the report (0: none).
    let attemptsKept: Int
    /// How the revocation stage reads CRLs (``RevocationChecker/strictCRLConformance``): `nil`, by the
    /// path's resolved profile (strictly exactly under ``CertificateProfile/rfc5280``); for a CRL
    /// issuer's nested path, the reading of the path whose CRL it vouches for.
    var strictCRLConformance: Bool? = nil
    /// RFC 7633 must-staple, for a chain from a TLS handshake (``TrustEvaluation/stapledOCSPResponses``);
    /// `nil`: not checked (no handshake, or a nested CRL-issuer search).
    var tlsFeatures: TLSFeatureRequirement? = nil
    /// Certificate Transparency's evidence, when the policy does not turn CT off; `nil` also for a
    /// nested CRL-issuer search.
    var certificateTransparency: CTEvidence? = nil

    /// What a search found.
    struct Outcome {
        let trusted: PathAttempt?
        let best: PathAttempt?
        let attempts: [PathAttempt]
        let prunedExplorations: Int
        let skippedCandidates: Int
        let abandonedCandidates: Int
        let unrecordedAttempts: Int
    }

    /// Builds paths from `leaf` through `index` and judges each; the first valid one ends the search.
    func search(from leaf: Certificate, index: IssuerIndex) -> Outcome {
        var builder = PathBuilder(policy: policy, context: context, index: index, judge: self, attemptsKept: attemptsKept)
        builder.run(leaf: leaf)
        return Outcome(trusted: builder.trusted, best: builder.best, attempts: builder.attempts,
                       prunedExplorations: builder.prunedExplorations, skippedCandidates: builder.skippedCandidates,
                       abandonedCandidates: builder.abandonedCandidates, unrecordedAttempts: builder.unrecordedAttempts)
    }

    func judge(_ path: [Certificate], anchor: Certificate?, anchorIsPublicWebPKI: Bool, terminal: ValidationFailure?) -> PathAttempt {
        judge(path, anchor: anchor, anchorIsPublicWebPKI: anchorIsPublicWebPKI, terminal: terminal, leafIsTrustedDirectly: false)
    }

    /// ``judge(_:anchor:anchorIsPublicWebPKI:terminal:)``; `leafIsTrustedDirectly`: the path is the
    /// leaf alone, trusted as itself (a `.leaf` or `.anchorOrLeaf` entry, a pin).
    func judge(_ path: [Certificate], anchor: Certificate?, anchorIsPublicWebPKI: Bool, terminal: ValidationFailure?,
               leafIsTrustedDirectly: Bool) -> PathAttempt {
        context.spendPathValidation(certificates: path.count + (anchor == nil ? 0 : 1))
        // 1. RFC 5280 6.1 and the profile.
        let validator = PathValidator(policy: policy, context: context, anchorIsPublicWebPKI: anchor != nil && anchorIsPublicWebPKI)
        let validated = validator.validate(path: path, anchor: anchor, terminal: terminal)
        var failures = validated.failures
        // 3 (first, for the gate below). The purpose.
        let purposeFailures = PurposeChecks.failures(path: path, anchor: anchor, policy: policy, profile: validated.profile,
                                                     leafIsTrustedDirectly: leafIsTrustedDirectly)
        // 2. RFC 5280 6.3 for every certificate of a path that reached an anchor and failed nothing
        // else, or only recoverably: a trust exception may cover an expiry, never a revocation; a
        // path with a fatal failure is untrusted whatever its revocation status (issue 30: no CRL or
        // OCSP work for it). CRLs are read as the policy's CRLConformance says (strictly under the
        // strict profile by default: RFC 5280 5.2.3 and 5.1.2.5 bind the CRL issuer).
        var crlFindings: [CRLConformanceFinding] = []
        if let anchor, let revocation,
           failures.allSatisfy(\.isRecoverable) && purposeFailures.allSatisfy(\.isRecoverable) {
            let chain = Array(path.reversed())  // RFC order: the one the anchor issued first
            let strict = strictCRLConformance ?? policy.crlConformance.isStrict(under: validated.profile)
            for (index, certificate) in chain.enumerated() {
                if let failure = revocation.failure(for: certificate, above: chain[..<index], anchor: anchor, context: context,
                                                    issuerPaths: self, strictCRLConformance: strict, findings: &crlFindings) {
                    failures.append(failure)
                }
            }
        }
        // 2b. RFC 7633 4.3.3: a server certificate that must be stapled, and the handshake's staple.
        if let anchor, let tlsFeatures,
           let failure = tlsFeatures.failure(path: path, anchor: anchor, policy: policy, context: context, issuerPaths: self) {
            failures.append(failure)
        }
        // 2c. RFC 6962 and the CT policy, for the end entity of a path that failed nothing fatally
        // (as revocation: a trust exception must not accept a path that CT would refuse), on every
        // route to trust: a path to an anchor, and a directly trusted end entity (a pinned leaf),
        // which `.required` binds as much as any path. Whether the path ends publicly is decided by
        // where it would end among the anchors: a private anchor (a pinned public intermediate) that
        // itself continues to a public Web PKI anchor does not turn automatic CT off.
        var ctReport: CertificateTransparencyReport? = nil
        if anchor != nil || leafIsTrustedDirectly, let ct = certificateTransparency,
           failures.allSatisfy(\.isRecoverable) && purposeFailures.allSatisfy(\.isRecoverable),
           let ctPolicy = policy.certificateTransparency.policy(
               anchorIsPublicWebPKI: anchorIsPublicWebPKI || anchor.map { continuesToPublicAnchor($0, ct) } ?? false,
               hasLogList: ct.logs != nil) {
            let issuer = path.count > 1 ? path[1] : anchor ?? directIssuer(of: path[0], ct)
            let report = ct.report(for: path[0], issuer: issuer, policy: ctPolicy, context: context)
            ctReport = report
            if !report.isCompliant { failures.append(.certificateTransparencyNotCompliant(path[0], report)) }
        }
        // 3. The purpose, the required pins, the caller's check.
        failures += purposeFailures
        // Required pins hold for every path, one that reached no anchor included: a trust exception
        // may accept a missing issuer, never a path without the pinned certificate or key.
        if !policy.requiredPins.isEmpty, let mismatch = PinRequirement.failure(policy.requiredPins, path: anchor.map { path + [$0] } ?? path) {
            failures.append(mismatch)
        }
        if failures.isEmpty, anchor != nil, let check = additionalCheck, let reason = check(path) {
            failures.append(.rejectedByCaller(reason))
        }
        return PathAttempt(certificates: path, anchor: anchor, failures: failures, policyOutcome: validated.policyOutcome,
                           profile: validated.profile, crlConformanceFindings: crlFindings, certificateTransparency: ctReport,
                           purpose: policy.purpose)
    }

    /// Whether `anchor`, an anchor of a store that is not public Web PKI (a pinned certificate, the
    /// caller's anchor), is itself issued on a path to a public Web PKI anchor of this evaluation:
    /// then a path ending at it would, without it, end publicly, and CT's automatic requirement
    /// (``CTRequirement/policy(anchorIsPublicWebPKI:hasLogList:)``) holds for it. A nested search
    /// (any purpose, no CT, no revocation) from `anchor` through the evaluation's intermediates to the
    /// public stores, on the evaluation's budget; remembered per anchor in `ct`. A path that reaches a
    /// public anchor counts even when it fails validation: a pin narrows trust, it never widens it.
    func continuesToPublicAnchor(_ anchor: Certificate, _ ct: CTEvidence) -> Bool {
        // With no public store consulted nothing continues publicly: decided without a memo (the
        // private PKI's case, where automatic CT must cost nothing: hashing the anchor's DER for the
        // memo was 2.5 % of a P-256 evaluation, `ct/p-256/own-anchor-not-required`).
        guard context.anchorStores.contains(where: \.isPublicWebPKI) else { return false }
        let key = ObjectIdentifier(anchor)  // the store's object: one per anchor for the evaluation
        if let known = ct.continuesPublicly[key] { return known }
        var publicStores = SmallList<TrustStore>()
        for i in context.anchorStores.indices where context.anchorStores[i].isPublicWebPKI {
            if context.anchorStores[i].isAnchor(anchor) { ct.continuesPublicly[key] = true; return true }
            publicStores.append(context.anchorStores[i])
        }
        var result = false
        if !publicStores.isEmpty {
            let rules = ValidationPolicy(purpose: .any, profile: policy.profile, algorithms: policy.algorithms,
                                         anchorEnforcement: policy.anchorEnforcement, maximumIntermediates: policy.maximumIntermediates,
                                         checkTLSKeyUsage: false, budget: policy.budget)
            let nested = PathPipeline(policy: rules, context: context, revocation: nil, additionalCheck: nil, attemptsKept: 0)
            let outcome = nested.search(from: anchor, index: IssuerIndex(stores: publicStores, intermediates: ct.intermediates))
            result = outcome.trusted != nil || outcome.best?.anchor != nil
        }
        ct.continuesPublicly[key] = result
        return result
    }

    /// The issuer of a directly trusted end entity, for its embedded SCTs (RFC 6962 3.2: the
    /// precert_entry's issuer_key_hash): an intermediate, else an anchor, named as its issuer whose
    /// key verifies its signature (budgeted and memoized as every signature); `nil` when none.
    func directIssuer(of leaf: Certificate, _ ct: CTEvidence) -> Certificate? {
        for candidate in ct.intermediates where candidate.subject.normalizedKey == leaf.issuer.normalizedKey {
            if case .valid = context.signature(of: leaf, by: candidate) { return candidate }
        }
        var found: Certificate? = nil
        for i in context.anchorStores.indices where found == nil {
            context.anchorStores[i].forEachAnchor(named: leaf.issuer) { anchor in
                if found == nil, case .valid = context.signature(of: leaf, by: anchor) { found = anchor }
            }
        }
        return found
    }

    /// The fatal failures of the end entity that every path has, whatever its issuers (issue 30):
    /// its own profile rules, key and critical extensions (the validator's checks of the end entity,
    /// RFC 5280 4.2, 6.1.5 (f)) and its purpose (extKeyUsage, keyUsage for the purpose: RFC 5280
    /// 4.2.1.3, 4.2.1.12), under every profile a path could be validated under. When there are any,
    /// no path can be trusted and no trust exception can accept one (they are not recoverable), so
    /// the search need not run: the attempt returned names them as a path's report would. Failures
    /// a trust exception may accept (a host name) are not decided here: the report of the search
    /// names every failure of the best path, which an exception must record.
    ///
    /// - Parameter path: `[leaf]` (the builder's buffer: no array is made for the check).
    /// - Returns: the leaf alone, judged with no issuer, when it has such failures; else `nil`.
    func doomedEndEntity(_ path: [Certificate]) -> PathAttempt? {
        let leaf = path[0]
        let anchorStores = context.anchorStores
        /// Whether the leaf has such a failure under the profile for these anchors (no allocation
        /// when it has none: this runs before every search).
        func isDoomed(anchorIsPublicWebPKI: Bool) -> Bool {
            let profile = policy.profile.resolved(anchorIsPublicWebPKI: anchorIsPublicWebPKI)
            // The validator's own checks of the end entity (``PathValidator/checkProfile(_:at:state:)``,
            // its signature algorithm): every one of them fatal.
            if !CertificateRules.violations(leaf, at: .endEntity, profile: profile).isEmpty || leaf.hasUnrecognizedCriticalExtension
                || policy.algorithms.refusal(ofKeyOf: leaf, under: profile) != nil || !policy.algorithms.accepts(leaf.signatureAlgorithm) {
                return true
            }
            // (leafIsTrustedDirectly: the lenient reading, whose leaf failures every path has.)
            return PurposeChecks.failures(path: path, anchor: nil, policy: policy, profile: profile, leafIsTrustedDirectly: true)
                .contains { !$0.isRecoverable && $0.certificate == leaf }
        }
        var publicStores = false, privateStores = false
        for i in anchorStores.indices {
            if anchorStores[i].isPublicWebPKI { publicStores = true } else { privateStores = true }
        }
        // Under the profile of the stores' anchors; when public and private stores resolve to two
        // profiles, under both.
        guard isDoomed(anchorIsPublicWebPKI: publicStores && !privateStores) else { return nil }
        if publicStores && privateStores && policy.profile.resolved(anchorIsPublicWebPKI: true) != policy.profile.resolved(anchorIsPublicWebPKI: false) {
            guard isDoomed(anchorIsPublicWebPKI: true) else { return nil }
        }
        // The report: the leaf judged as a path without its issuer (every failure of its own).
        return judge(path, anchor: nil, anchorIsPublicWebPKI: publicStores && !privateStores, terminal: nil)
    }

    /// A CRL issuer's path (RFC 5280 6.3.3 (f)): a nested search under the rules for CRL issuers —
    /// any purpose, no pins or caller check, the evaluation's profile when it asks for ``CertificateProfile/rfc5280``
    /// or ``CertificateProfile/pathValidation``, else ``CertificateProfile/interoperable`` (a CRL
    /// signer is not a TLS certificate: the CA/B Forum's rules do not fit it), the evaluation's
    /// algorithms, anchor checks, budget and revocation mode — with this evaluation's context, so its
    /// work spends the same budget.
    func validateIssuerPath(of signer: Certificate, intermediates: [Certificate], store: TrustStore, strictCRLConformance: Bool)
        -> (trusted: PathAttempt?, best: PathAttempt?) {
        let profile: CertificateProfile = policy.profile == .pathValidation || policy.profile == .rfc5280 ? policy.profile : .interoperable
        let rules = ValidationPolicy(purpose: .any, profile: profile,
                                     algorithms: policy.algorithms, anchorEnforcement: policy.anchorEnforcement,
                                     maximumIntermediates: policy.maximumIntermediates, checkTLSKeyUsage: false,
                                     budget: policy.budget, undeterminedRevocationStatus: policy.undeterminedRevocationStatus,
                                     ocspFreshness: policy.ocspFreshness)
        let nested = PathPipeline(policy: rules, context: context, revocation: revocation, additionalCheck: nil, attemptsKept: 0,
                                  strictCRLConformance: strictCRLConformance)
        let outcome = nested.search(from: signer, index: IssuerIndex(stores: SmallList(CollectionOfOne(store)), intermediates: intermediates))
        return (outcome.trusted, outcome.best)
    }
}
