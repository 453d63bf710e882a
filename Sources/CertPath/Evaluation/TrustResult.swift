/// A trusted certification path: the outcome of a successful evaluation.
public struct TrustedPath: Sendable {
    /// The certificates from the end entity up, trust anchor excluded.
    public let certificates: [Certificate]
    /// The trust anchor ending the path (for a directly trusted leaf: the leaf itself).
    public let anchor: Certificate
    /// The RFC 5280 6.1.6 policy outputs (authorities- and user-constrained policy sets).
    public let policyOutcome: PolicyOutcome?
    /// Every attempted path, when the policy asked to collect them.
    public let attempts: [PathAttempt]

    /// The path from the end entity to the anchor, anchor included (unless the leaf is the anchor).
    public var chain: [Certificate] { certificates.last === anchor ? certificates : certificates + [anchor] }
}

/// Why an evaluation is untrusted: the primary failure, the best attempted path with the failures
/// of each of its certificates (like SecTrustCopyProperties), and optionally every attempt.
public struct UntrustedReport: Sendable {
    /// The most specific failure of the best attempt (see ``ValidationFailure/rank``).
    public let primaryFailure: ValidationFailure
    /// The best attempted path.
    public let bestAttempt: PathAttempt
    /// Every attempted path, when the policy asked to collect them.
    public let attempts: [PathAttempt]

    /// Every failure of the best attempt.
    public var failures: [ValidationFailure] { bestAttempt.failures }

    /// Whether every failure is recoverable (only then may a trust exception cover them).
    public var isRecoverable: Bool { failures.allSatisfy(\.isRecoverable) }
}

/// The outcome of ``TrustEvaluation/evaluate()``.
public enum TrustResult: Sendable {
    case trusted(TrustedPath)
    case untrusted(UntrustedReport)

    /// Whether the result is trusted.
    public var isTrusted: Bool {
        if case .trusted = self { return true }
        return false
    }

    /// The report of an untrusted result.
    public var report: UntrustedReport? {
        if case .untrusted(let report) = self { return report }
        return nil
    }

    /// The primary failure of an untrusted result.
    public var primaryFailure: ValidationFailure? { report?.primaryFailure }
}
