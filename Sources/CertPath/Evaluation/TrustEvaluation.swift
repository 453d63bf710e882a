#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The entry point: decides whether an end-entity certificate can be trusted for a purpose.
///
/// Give it the end entity, the untrusted intermediates (as a peer sent them, any order), a
/// ``TrustStore`` and a ``ValidationPolicy``; ``evaluate()`` builds certification paths to the store's
/// anchors (``PathBuilder``), validates each per RFC 5280 section 6.1 (``PathValidator``), applies the
/// policy's purpose, profile and algorithm checks, and returns the first valid path or an explained
/// failure. Synchronous, value-typed and safe to run on many threads at once.
///
/// ```swift
/// let store = TrustStore(anchors: [root])
/// let evaluation = TrustEvaluation(leaf: server, intermediates: [intermediate], trustStore: store,
///                                  policy: try .server(hostname: "server.customer1.example"))
/// switch evaluation.evaluate() {
/// case .trusted(let path): print("trusted via", path.anchor.subject)
/// case .untrusted(let report): print(report.primaryFailure)
/// }
/// ```
public struct TrustEvaluation: Sendable {
    /// The end-entity certificate.
    public var leaf: Certificate
    /// Untrusted certificates that may complete a path (order does not matter).
    public var intermediates: [Certificate]
    /// Anchors, trusted leaves and distrusted certificates.
    public var trustStore: TrustStore
    /// What the path is validated for and how.
    public var policy: ValidationPolicy
    /// The validation time (RFC 5280 6.1.1 (b)); `nil` means now.
    public var validationTime: UnixTime?
    /// The signature verifier and its shared caches.
    public var signatureVerification: SignatureVerifier

    /// Creates an evaluation.
    public init(leaf: Certificate, intermediates: [Certificate] = [], trustStore: TrustStore,
                policy: ValidationPolicy = ValidationPolicy(), validationTime: UnixTime? = nil,
                signatureVerification: SignatureVerifier = .shared) {
        self.leaf = leaf
        self.intermediates = intermediates
        self.trustStore = trustStore
        self.policy = policy
        self.validationTime = validationTime
        self.signatureVerification = signatureVerification
    }

    /// The current time from the system clock.
    public static func now() -> UnixTime {
        UnixTime(secondsSinceEpoch: Int64(time(nil)))
    }

    /// Builds and validates paths; returns the first valid one or the explained failure.
    public func evaluate() -> TrustResult {
        let context = EvaluationContext(policy: policy, validationTime: validationTime ?? Self.now(), crypto: signatureVerification)
        let validator = PathValidator(context: context)

        if trustStore.isDistrusted(leaf) {
            let attempt = validator.validate(path: [leaf], anchor: nil, terminal: .distrusted(leaf))
            return .untrusted(UntrustedReport(primaryFailure: .distrusted(leaf), bestAttempt: attempt, attempts: [attempt]))
        }
        if trustStore.trustsAsLeaf(leaf) {
            // A directly trusted end entity (pinned certificate): its own validity, profile and purpose
            // are checked; it needs no issuer.
            let attempt = validator.validate(path: [leaf], anchor: nil)
            if attempt.failures.isEmpty {
                return .trusted(TrustedPath(certificates: [leaf], anchor: leaf, policyOutcome: nil,
                                            attempts: policy.collectAllAttempts ? [attempt] : []))
            }
        }

        let builder = PathBuilder(context: context, index: IssuerIndex(store: trustStore, intermediates: intermediates))
        builder.run(leaf: leaf)
        if let trusted = builder.trusted, let anchor = trusted.anchor {
            return .trusted(TrustedPath(certificates: trusted.certificates, anchor: anchor, policyOutcome: trusted.policyOutcome,
                                        attempts: builder.attempts))
        }
        let best = builder.best ?? validator.validate(path: [leaf], anchor: nil, terminal: .issuerNotFound(leaf))
        var primary = best.primaryFailure ?? .issuerNotFound(leaf)
        if let limit = context.exhausted { primary = .budgetExhausted(limit) }
        return .untrusted(UntrustedReport(primaryFailure: primary, bestAttempt: best, attempts: builder.attempts))
    }
}
