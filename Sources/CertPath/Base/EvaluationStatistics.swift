/// The work one evaluation did, against its ``Budget``.
public struct EvaluationStatistics: Hashable, Sendable {
    /// Signature verifications performed (memoized answers not counted).
    public var signatureChecks = 0
    /// Their estimated cost together, in ``SignatureCost`` units (``Budget/signatureCost``).
    public var signatureCost = 0
    /// Issuer candidates considered.
    public var buildSteps = 0
    /// Name-constraint subtree comparisons.
    public var nameConstraintComparisons = 0
    /// Explorations skipped because the certificate was already proven unable to reach an anchor.
    public var prunedExplorations = 0
    /// Issuer candidates not entered because no chain of names leads from them to a trust anchor
    /// (after the first such candidate of a certificate, which is entered for the diagnosis).
    public var skippedCandidates = 0
    /// Issuer candidates not tried because ``Budget/failedIssuerCandidates`` candidates of the same
    /// certificate had failed to verify its signature.
    public var abandonedCandidates = 0
    /// Attempted paths not kept because ``TrustEvaluation/recordedAttemptsLimit`` were already
    /// (with ``TrustEvaluation/collectAllAttempts``).
    public var unrecordedAttempts = 0

    /// No work.
    public init() {}
}
