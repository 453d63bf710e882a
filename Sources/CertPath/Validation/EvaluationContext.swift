/// Mutable state of one evaluation: the validation time, the remaining ``Budget`` and memoized
/// signature results. Created per `evaluate()`, never shared between threads.
final class EvaluationContext {
    let policy: ValidationPolicy
    let validationTime: UnixTime
    let crypto: SignatureVerifier
    private(set) var remaining: Budget
    /// The limit that ran out, which stops the search.
    private(set) var exhausted: BudgetLimit?
    /// The first signature results, scanned (an evaluation usually checks two or three)…
    private var recentSignatures: [(key: SignatureKey, outcome: SignatureOutcome)] = []
    /// …and the rest, hashed.
    private var signatureMemo: [SignatureKey: SignatureOutcome] = [:]
    private static let scannedSignatures = 16
    /// The anchors' loaded keys of the stores consulted (see ``TrustStore``).
    var anchorKeys: [AnchorKeys] = []

    struct SignatureKey: Hashable {
        let child: ObjectIdentifier
        let issuer: ObjectIdentifier
    }

    init(policy: ValidationPolicy, validationTime: UnixTime, crypto: SignatureVerifier) {
        self.policy = policy
        self.validationTime = validationTime
        self.crypto = crypto
        remaining = policy.budget
    }

    /// Spends one build step; `false` (and the search stops) when none is left.
    func spendBuildStep() -> Bool {
        guard exhausted == nil else { return false }
        guard remaining.buildSteps > 0 else {
            exhausted = .buildSteps
            return false
        }
        remaining.buildSteps -= 1
        return true
    }

    /// The name-constraint comparison allowance, shared across the evaluation.
    var nameConstraintComparisons: Int {
        get { remaining.nameConstraintComparisons }
        set { remaining.nameConstraintComparisons = newValue }
    }

    /// Marks a limit as exhausted.
    func exhaust(_ limit: BudgetLimit) {
        if exhausted == nil { exhausted = limit }
    }

    /// Whether `child`'s signature verifies with `issuer`'s key (memoized; a fresh check spends one
    /// signature check of the budget). `inheritedDSAParameters` are the working public key
    /// parameters (RFC 5280 6.1.4 (f)) when the issuer's DSA key has none.
    func signature(of child: Certificate, by issuer: Certificate, inheritedDSAParameters: DSAParameters? = nil) -> SignatureOutcome {
        let key = SignatureKey(child: ObjectIdentifier(child), issuer: ObjectIdentifier(issuer))
        for entry in recentSignatures where entry.key == key { return entry.outcome }
        if !signatureMemo.isEmpty, let known = signatureMemo[key] { return known }
        guard remaining.signatureChecks > 0 else {
            exhaust(.signatureChecks)
            return .budgetExhausted
        }
        remaining.signatureChecks -= 1
        var preloaded: PublicKey? = nil
        for keys in anchorKeys {
            if let key = keys.key(for: issuer) {
                preloaded = key
                break
            }
        }
        let outcome = crypto.verify(child, issuerKey: issuer.subjectPublicKeyInfo, inheritedDSAParameters: inheritedDSAParameters,
                                    preloadedKey: preloaded)
        if recentSignatures.count < Self.scannedSignatures {
            if recentSignatures.isEmpty { recentSignatures.reserveCapacity(4) }
            recentSignatures.append((key, outcome))
        } else {
            signatureMemo[key] = outcome
        }
        return outcome
    }
}

/// The result of checking one certificate's signature with one issuer key.
enum SignatureOutcome: Hashable, Sendable {
    case valid
    case invalid
    case unsupportedAlgorithm
    case unusableKey(String)
    case budgetExhausted
}
