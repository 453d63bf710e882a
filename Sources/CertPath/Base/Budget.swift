/// Limits on the work one evaluation may do, so that hostile inputs (meshes of cross-signed CAs,
/// floods of decoy issuers, thousands of name constraints, policy-mapping explosions) end in
/// milliseconds with ``ValidationFailure/budgetExhausted(_:)`` instead of hanging.
///
/// The defaults follow rustls-webpki and Go for counts (100 signature checks, Go's fix for
/// CVE-2018-16875; 200,000 path-building steps, mozilla::pkix; at most 8 certificates in a path
/// below its trust anchor), and bound time: the signature checks together may cost at most 5,000
/// ``SignatureCost`` units (about 5 ms on the reference machine: six P-384 checks, a root and five
/// intermediates), those that fail at most 1,800 (a flood of look-alike issuers), and 125,000
/// name-constraint comparisons (half of rustls-webpki's and Go's 250,000: about 1.5 ms here). No
/// count of candidates cuts the search by default (``failedIssuerCandidates``): candidates are
/// ranked by a total order on the certificates, cheapest keys first, and the costs bound the work,
/// so the verdict does not depend on the order the certificates were presented in (issue 30). The
/// search's own work is charged in the same units (1 a candidate, 2 a certificate of a path
/// validated), so memoized signatures do not make it free. Measured (Benchmarks/README.md, "Order-
/// independent building"): every hostile scenario of at most 101 certificates within 2 ms, and a
/// 130-certificate cross-signed mesh that spends the whole cost allowance within 7 ms
/// (`evaluate/mesh-budget`).
public struct Budget: Hashable, Sendable {
    /// Signature verifications per evaluation (memoized results do not count again).
    public var signatureChecks: Int
    /// The estimated cost of those verifications together, in ``SignatureCost`` units (about one
    /// microsecond each on the reference machine), and of the rest of the search's work in the same
    /// units: 1 for each issuer candidate considered and 2 for each certificate of each prospective
    /// path validated (its anchor included), so the whole evaluation is bounded in time even when
    /// every signature is memoized (issue 30). A verification whose estimate exceeds what is
    /// left is not made and ends the search with ``BudgetLimit/signatureCost``. Every check is
    /// charged, a signature-cache hit included, so the answer does not depend on the cache. CRL
    /// signatures count against ``signatureChecks`` only: CRLs are the caller's evidence, not the
    /// peer's input, and their number is the caller's to bound.
    public var signatureCost: Int
    /// The estimated cost, in ``SignatureCost`` units, of the signature checks that fail (a
    /// candidate issuer whose key does not verify the signature, or cannot be used). A check is made
    /// only while some of it is left, and charged to it when it fails (so at most one check, itself
    /// bounded by ``signatureCost``, goes beyond it; a valid signature over a TBSCertificate larger
    /// than the allowance is still tried); when none is left the search ends with
    /// ``BudgetLimit/failedSignatureCost``. Default 1,800: about 1.8 ms on the
    /// reference machine, so that a flood of look-alike issuers ends within 2 ms whatever their
    /// order (the benchmark's `hostile/decoys-*`), while fifteen same-named Ed25519 or P-256 CAs
    /// tried before the right one (a key rollover without key identifiers) still fit.
    /// Checks that verify are charged to ``signatureCost`` only: a valid chain of slow keys (six
    /// P-384 checks) is bounded there.
    public var failedSignatureCost: Int
    /// Issuer candidates of one certificate whose key does not verify its signature (or cannot be
    /// used) after which its remaining candidates that are presented intermediates are not tried
    /// (trust anchors always are). A search cut this way that finds no trusted path ends with
    /// ``BudgetLimit/failedIssuerCandidates``. Default `Int.max`, no limit: a limit of 4 turned
    /// legitimate chains of five same-named CAs (key rollover, cross-signing) without key
    /// identifiers into ``ValidationFailure/budgetExhausted(_:)``; ``signatureCost`` bounds the work.
    public var failedIssuerCandidates: Int
    /// Issuer candidates considered per evaluation.
    public var buildSteps: Int
    /// Name-constraint subtree comparisons per evaluation.
    public var nameConstraintComparisons: Int
    /// Network fetches per evaluation when fetching is allowed (``TrustEvaluation/networkFetching``):
    /// calls of the ``Fetcher``, issuers, OCSP responses and CRLs together. Default 8: a missing
    /// intermediate and an OCSP response for each certificate of a four-certificate path, or a CRL
    /// where a responder does not answer. A fetch it refuses is recorded as ``BudgetLimit/fetches``.
    public var fetches: Int
    /// The most bytes of one fetched response body (``FetchRequest/maximumResponseBytes``). Default
    /// 4 MiB (4,194,304): certificates and OCSP responses are a few KB, and most CRLs of public CAs
    /// far below this; a larger CRL is not fetched whole (``BudgetLimit/fetchResponseBytes``) and the
    /// status it would have given stays undetermined.
    public var fetchResponseBytes: Int
    /// Seconds all fetching of one evaluation may take together, from its first fetch (the
    /// ``Fetcher``'s deadline). Default 20. A fetch not started in time is recorded as
    /// ``BudgetLimit/fetchTime``.
    public var fetchTime: Int

    /// Creates a budget; every argument has the documented default.
    public init(signatureChecks: Int = 100, signatureCost: Int = 5_000, failedSignatureCost: Int = 1_800, failedIssuerCandidates: Int = .max,
                buildSteps: Int = 200_000, nameConstraintComparisons: Int = 125_000,
                fetches: Int = 8, fetchResponseBytes: Int = 4 << 20, fetchTime: Int = 20) {
        self.signatureChecks = signatureChecks
        self.signatureCost = signatureCost
        self.failedSignatureCost = failedSignatureCost
        self.failedIssuerCandidates = failedIssuerCandidates
        self.buildSteps = buildSteps
        self.nameConstraintComparisons = nameConstraintComparisons
        self.fetches = fetches
        self.fetchResponseBytes = fetchResponseBytes
        self.fetchTime = fetchTime
    }

    /// The defaults.
    public static let `default` = Budget()
}
