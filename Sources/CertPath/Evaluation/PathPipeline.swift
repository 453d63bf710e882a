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
        // 1. RFC 5280 6.1 and the profile.
        let validator = PathValidator(policy: policy, context: context, anchorIsPublicWebPKI: anchor != nil && anchorIsPublicWebPKI)
        let validated = validator.validate(path: path, anchor: anchor, terminal: terminal)
        var failures = validated.failures
        // 2. RFC 5280 6.3 for every certificate of a path that reached an anchor, whatever else is
        // wrong with it: a trust exception may cover an expiry, never a revocation. CRLs are read
        // as the policy's CRLConformance says (strictly under the strict profile by default: RFC 5280
        // 5.2.3 and 5.1.2.5 bind the CRL issuer).
        var crlFindings: [CRLConformanceFinding] = []
        if let anchor, let revocation = context.revocation {
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
        // 3. The purpose, the required pins, the caller's check.
        failures += PurposeChecks.failures(path: path, anchor: anchor, policy: policy, profile: validated.profile,
                                           leafIsTrustedDirectly: leafIsTrustedDirectly)
        // Required pins hold for every path, one that reached no anchor included: a trust exception
        // may accept a missing issuer, never a path without the pinned certificate or key.
        if !policy.requiredPins.isEmpty, let mismatch = PinRequirement.failure(policy.requiredPins, path: anchor.map { path + [$0] } ?? path) {
            failures.append(mismatch)
        }
        if failures.isEmpty, anchor != nil, let check = additionalCheck, let reason = check(path) {
            failures.append(.rejectedByCaller(reason))
        }
        return PathAttempt(certificates: path, anchor: anchor, failures: failures, policyOutcome: validated.policyOutcome,
                           profile: validated.profile, crlConformanceFindings: crlFindings)
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
        let nested = PathPipeline(policy: rules, context: context, additionalCheck: nil, attemptsKept: 0,
                                  strictCRLConformance: strictCRLConformance)
        let outcome = nested.search(from: signer, index: IssuerIndex(stores: SmallList(CollectionOfOne(store)), intermediates: intermediates))
        return (outcome.trusted, outcome.best)
    }
}
