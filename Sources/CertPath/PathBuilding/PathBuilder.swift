/// Depth-first certification path building from the end entity towards a trust anchor, with
/// backtracking (RFC 4158 ideas, as in Chromium, Go and rustls-webpki).
///
/// - Each certificate's issuer candidates come ranked from ``IssuerIndex``. An anchor candidate ends a
///   prospective path, which ``PathValidator`` validates in full; an intermediate candidate is entered
///   once the child's signature verifies with its key (memoized), unless that would revisit a
///   certificate of the current path (loop key: subject, SPKI and subjectAltName bytes, as RFC 4158
///   5.2) or exceed the length limit.
/// - When a prospective path fails, the next candidate is tried, so a valid path is found when one
///   exists (an intermediate cross-signed by an expired and a valid root validates through the valid one).
/// - Every dead end is recorded as a ``PathAttempt`` with why it ended; the ``Budget`` bounds the
///   whole search, and running out of it stops the search at once.
/// - Of the intermediate candidates of one certificate from which no chain of names leads to an
///   anchor (``IssuerIndex/intermediatesReachingAnAnchorByName()``), only the first is entered (its
///   dead end is the report's diagnosis); the others are skipped without a signature check, since no
///   path through them can end at an anchor. A hundred same-named intermediates that chain to no
///   anchor cost a few signature checks instead of the whole budget. (Names that do lead to an anchor
///   are still searched in full, within the ``Budget``.)
/// - The candidates of a certificate come in an order that depends on the certificates alone, never
///   on the order they were presented in (``IssuerIndex``), and every candidate considered, every
///   signature checked and every path validated is charged to ``Budget/signatureCost``: the search
///   is bounded in time, and the same input in any order gives the same verdict (issue 30). When
///   ``Budget/failedIssuerCandidates`` is set (off by default) and that many presented intermediates
///   named as a certificate's issuer have failed to verify its signature, its remaining intermediate
///   candidates are not tried; anchors always are. A search cut this way ends with
///   ``BudgetLimit/failedIssuerCandidates`` unless a trusted path is found.
/// - A certificate from which no anchor can be reached within `d` more certificates is remembered,
///   and not explored again at a depth that leaves `d` or fewer: whether an anchor is reachable
///   above a certificate does not depend on the path below it, unless the loop check cut a branch
///   there (then nothing is remembered). This keeps cross-signed meshes linear instead of exponential.
///
/// A value, not an object: one search, one owner, no allocation. Generic over how a prospective
/// path is judged (``PathJudgement``: the pipeline's 6.1, revocation and purpose stages), which the
/// caller gives it: the builder searches and ranks, and calls nothing above it.
struct PathBuilder<Judge: PathJudgement> {
    private let context: EvaluationContext
    private let index: IssuerIndex
    private let judge: Judge
    /// How many attempts are kept for the report (0: none; ``TrustEvaluation/collectAllAttempts``).
    private let attemptsKept: Int
    /// ``Budget/failedIssuerCandidates`` of the policy.
    private let failedIssuerCandidates: Int
    /// Most intermediates of any kind: `2 × maximumCountedIntermediates + 1`
    /// (``ValidationPolicy/maximumIntermediates`` says why).
    private let maximumIntermediates: Int
    /// Most intermediates that are not self-issued (``ValidationPolicy/maximumIntermediates``,
    /// counted as RFC 5280 4.2.1.9 counts pathLenConstraint).
    private let maximumCountedIntermediates: Int
    private(set) var trusted: PathAttempt?
    private(set) var best: PathAttempt?
    private(set) var attempts: [PathAttempt] = []
    /// Certificates proven unable to reach an anchor, with the depths searched above them: further
    /// certificates of any kind, and further ones that are not self-issued (a search with no more of
    /// either finds nothing either). Usually one pair; incomparable pairs are all kept.
    private var unreachable: [ObjectIdentifier: [Depth]] = [:]

    /// How many more certificates a search above a certificate may add: in all, and not self-issued.
    private struct Depth {
        var all: Int
        var counted: Int
        func isCovered(by other: Depth) -> Bool { all <= other.all && counted <= other.counted }
    }
    /// Explorations answered from ``unreachable`` (for tests and benchmarks).
    private(set) var prunedExplorations = 0
    /// Candidates skipped because no chain of names leads from them to an anchor.
    private(set) var skippedCandidates = 0
    /// Candidates not tried because ``Budget/failedIssuerCandidates`` of the same certificate had
    /// failed their signature check.
    private(set) var abandonedCandidates = 0
    /// Attempts not kept in ``attempts`` (beyond `attemptsKept`).
    private(set) var unrecordedAttempts = 0
    /// The intermediates from which names lead to an anchor; computed when first needed (only for a
    /// certificate with more than one intermediate candidate).
    private lazy var reachingAnAnchorByName = index.intermediatesReachingAnAnchorByName()

    /// What exploring above one certificate found.
    private struct Exploration {
        /// The search is over: a valid path was found, or the budget ran out.
        var done = false
        /// Some anchor was reached in this subtree: its path was validated, successfully or not, and
        /// the anchor's key did not refuse the signature of the certificate below it.
        var reachedAnchor = false
        /// A candidate was skipped by the loop check in this subtree (the result depends on the path below).
        var dependsOnPath = false
    }

    init(policy: ValidationPolicy, context: EvaluationContext, index: IssuerIndex, judge: Judge, attemptsKept: Int) {
        self.context = context
        self.index = index
        self.judge = judge
        self.attemptsKept = attemptsKept
        failedIssuerCandidates = policy.budget.failedIssuerCandidates
        maximumCountedIntermediates = max(0, policy.maximumIntermediates)
        maximumIntermediates = min(maximumCountedIntermediates, Int.max / 4) * 2 + 1
    }

    /// Searches for a valid path from `leaf`. Afterwards ``trusted`` holds the first valid path found,
    /// or ``best`` the most useful failed attempt.
    mutating func run(leaf: Certificate) {
        // One buffer for the whole search: a candidate is pushed before exploring above it and
        // popped after, unless the search is done. (An attempt keeping the path shares the buffer
        // until the next push copies it.)
        var path: [Certificate] = []
        path.reserveCapacity(4)
        path.append(leaf)
        // What no path can fix is decided before any candidate is considered (issue 30).
        if let doomed = judge.doomedEndEntity(path) {
            keep(doomed)
            best = doomed
            return
        }
        _ = extend(&path, counted: 0)
    }

    /// Tries every candidate issuer of the top of `path`, whose intermediates include `counted` that
    /// are not self-issued; `path` is as given when it returns, unless the search is done (`done`),
    /// when it may hold the certificates above.
    private mutating func extend(_ path: inout [Certificate], counted: Int) -> Exploration {
        let current = path[path.count - 1]
        // Further certificates this exploration may still add (anchor excluded).
        let remainingDepth = Depth(all: maximumIntermediates + 1 - path.count, counted: maximumCountedIntermediates - counted)
        if let proven = unreachable[ObjectIdentifier(current)], proven.contains(where: remainingDepth.isCovered) {
            prunedExplorations += 1
            return Exploration()
        }
        var outcome = Exploration()
        var explored = 0
        var enteredOneWithoutAnchor = false
        var failedSignatures = 0
        let candidates = index.candidates(for: current, at: context.validationTime)
        for candidate in candidates {
            guard context.spendBuildStep() else { return Exploration(done: true) }
            let issuer = candidate.certificate
            if candidate.isAnchor {
                explored += 1
                let attempt = judge.judge(path, anchor: issuer, anchorIsPublicWebPKI: candidate.isPublicWebPKIAnchor, terminal: nil)
                if attempt.isValid {
                    // The search ends here: `best` (for reports of failed searches) is not needed.
                    keep(attempt)
                    trusted = attempt
                    return Exploration(done: true, reachedAnchor: true)
                }
                record(attempt)
                if context.exhausted != nil { return Exploration(done: true, reachedAnchor: true) }
                // An anchor whose key does not verify the top certificate's signature is no way up,
                // whatever the path below: it does not count as reached, so the memo of certificates
                // unable to reach an anchor still applies (the check is the validator's, memoized).
                if context.signature(of: current, by: issuer) != .invalid { outcome.reachedAnchor = true }
                continue
            }
            if path.contains(where: { Self.sameLoopKey($0, issuer) }) {
                outcome.dependsOnPath = true
                continue
            }
            explored += 1
            if index.isDistrusted(issuer) {
                record(judge.judge(path + [issuer], anchor: nil, anchorIsPublicWebPKI: false, terminal: .distrusted(issuer)))
                continue
            }
            if candidates.count > 1 && !reachingAnAnchorByName.contains(ObjectIdentifier(issuer)) {
                if enteredOneWithoutAnchor {
                    skippedCandidates += 1
                    continue
                }
                enteredOneWithoutAnchor = true
            }
            // Depth: only intermediates that are not self-issued count against the policy's maximum
            // (RFC 5280 4.2.1.9's counting); every one against the bound of all intermediates.
            let issuerCounts = !issuer.isSelfIssued
            let exceedsPolicyLimit = issuerCounts && counted >= maximumCountedIntermediates
            if exceedsPolicyLimit || path.count > maximumIntermediates {
                // The policy's limit when the issuer counts against it; else the bound of all.
                let limit = exceedsPolicyLimit ? maximumCountedIntermediates : maximumIntermediates
                record(judge.judge(path, anchor: nil, anchorIsPublicWebPKI: false, terminal: .maximumDepthExceeded(issuer, limit: limit)))
                continue
            }
            // The edge's signature, unless the issuer's DSA key inherits parameters only known later.
            if !issuer.hasDSAKeyWithoutParameters {
                if failedSignatures >= failedIssuerCandidates {
                    abandonedCandidates += 1
                    continue
                }
                let terminal: ValidationFailure?
                switch context.signature(of: current, by: issuer) {
                case .valid: terminal = nil
                case .budgetExhausted: return Exploration(done: true)
                case .invalid: terminal = .badSignature(current, issuer: issuer.subject)
                case .unsupportedAlgorithm: terminal = .unsupportedSignatureAlgorithm(current, current.signatureAlgorithm)
                case .unusableKey(let reason): terminal = .unusablePublicKey(current, reason: reason)
                }
                if let terminal {
                    failedSignatures += 1
                    record(judge.judge(path, anchor: nil, anchorIsPublicWebPKI: false, terminal: terminal))
                    continue
                }
            }
            path.append(issuer)
            let above = extend(&path, counted: counted + (issuerCounts ? 1 : 0))
            // A finished search leaves the path as it is: a trusted path shares its buffer, and
            // removing the issuer would copy it.
            if above.done { return above }
            path.removeLast()
            outcome.reachedAnchor = outcome.reachedAnchor || above.reachedAnchor
            outcome.dependsOnPath = outcome.dependsOnPath || above.dependsOnPath
        }
        if explored == 0 { record(deadEnd(path)) }
        if context.exhausted != nil { return Exploration(done: true) }
        if !outcome.reachedAnchor && !outcome.dependsOnPath {
            var proven = unreachable[ObjectIdentifier(current)] ?? []
            proven.removeAll { $0.isCovered(by: remainingDepth) }
            proven.append(remainingDepth)
            unreachable[ObjectIdentifier(current)] = proven
        }
        return outcome
    }

    /// The attempt for a path whose top has no usable issuer candidate.
    private func deadEnd(_ path: [Certificate]) -> PathAttempt {
        let top = path[path.count - 1]
        let terminal: ValidationFailure
        if top.isSelfIssued && context.signature(of: top, by: top) == .valid {
            terminal = path.count == 1 ? .selfSignedNotTrusted(top) : .noTrustedAnchor(top)
        } else {
            terminal = .issuerNotFound(top)
        }
        return judge.judge(path, anchor: nil, anchorIsPublicWebPKI: false, terminal: terminal)
    }

    private mutating func record(_ attempt: PathAttempt) {
        keep(attempt)
        if let current = best, Self.score(current) >= Self.score(attempt) { return }
        best = attempt
    }

    /// Adds `attempt` to ``attempts`` when they are kept, up to `attemptsKept` (then counts it).
    private mutating func keep(_ attempt: PathAttempt) {
        guard attemptsKept > 0 else { return }
        if attempts.count < attemptsKept {
            attempts.append(attempt)
        } else {
            unrecordedAttempts += 1
        }
    }

    /// Attempt ordering for reports (higher is better): paths ending at an anchor first, then fewer
    /// fatal failures, then fewer failures; the first found wins ties.
    static func score(_ attempt: PathAttempt) -> (Int, Int, Int) {
        (attempt.anchor == nil ? 0 : 1,
         -attempt.failures.filter { !$0.isRecoverable }.count,
         -attempt.failures.count)
    }

    /// RFC 4158 5.2 loop detection key: same subject, same public key and same subjectAltName.
    static func sameLoopKey(_ a: Certificate, _ b: Certificate) -> Bool {
        a === b || a.hasSameLoopKey(as: b)
    }
}

/// How the search judges a prospective path: the whole pipeline for one candidate (RFC 5280 6.1,
/// revocation, purpose), or, with `anchor == nil`, a partial path whose top has no usable issuer
/// (`terminal` says why), still checked for everything that does not need the issuer.
protocol PathJudgement {
    func judge(_ path: [Certificate], anchor: Certificate?, anchorIsPublicWebPKI: Bool, terminal: ValidationFailure?) -> PathAttempt
    /// The end entity `path[0]` (`path` is `[leaf]`) judged alone when it has a fatal failure that
    /// every path would have, so that no search can succeed; else `nil` (the search runs).
    func doomedEndEntity(_ path: [Certificate]) -> PathAttempt?
}
