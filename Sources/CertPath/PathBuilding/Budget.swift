/// Limits on the work one evaluation may do, so that hostile inputs (meshes of cross-signed CAs,
/// thousands of name constraints, policy-mapping explosions) end in milliseconds with
/// ``ValidationFailure/budgetExhausted(_:)`` instead of hanging.
///
/// The defaults follow rustls-webpki and Go: 100 signature checks (Go's fix for CVE-2018-16875),
/// 200,000 path-building steps (mozilla::pkix), 250,000 name-constraint comparisons, at most 8
/// certificates in a path below its trust anchor.
public struct Budget: Hashable, Sendable {
    /// Signature verifications per evaluation (memoized results do not count again).
    public var signatureChecks: Int
    /// Issuer candidates considered per evaluation.
    public var buildSteps: Int
    /// Name-constraint subtree comparisons per evaluation.
    public var nameConstraintComparisons: Int
    /// Most certificates in a certification path, trust anchor excluded (leaf included).
    public var maximumPathLength: Int

    /// Creates a budget; every argument has the documented default.
    public init(signatureChecks: Int = 100, buildSteps: Int = 200_000, nameConstraintComparisons: Int = 250_000,
                maximumPathLength: Int = 8) {
        self.signatureChecks = signatureChecks
        self.buildSteps = buildSteps
        self.nameConstraintComparisons = nameConstraintComparisons
        self.maximumPathLength = maximumPathLength
    }

    /// The defaults.
    public static let `default` = Budget()
}
