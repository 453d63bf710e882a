/// A trusted certification path: the outcome of a successful evaluation.
public struct TrustedPath: Sendable {
    /// The certificates from the end entity up, trust anchor excluded.
    public let certificates: [Certificate]
    /// The trust anchor ending the path: for a directly trusted or pinned leaf, the leaf itself. For a
    /// path a trust exception accepted without reaching an anchor (``reachesTrustAnchor`` is `false`:
    /// its ``acceptedFailures`` hold the `issuerNotFound`, `selfSignedNotTrusted` or `noTrustedAnchor`
    /// the user accepted), the path's last certificate, which the exception trusts in an anchor's place.
    public let anchor: Certificate
    /// Whether ``anchor`` is trusted by the trust store, a pin or the system anchors; `false` only for
    /// a path a trust exception accepted without reaching one.
    public let reachesTrustAnchor: Bool
    /// The RFC 5280 6.1.6 policy outputs (authorities- and user-constrained policy sets).
    public let policyOutcome: PolicyOutcome?
    /// The failures a trust exception accepted (empty for a path with no failure).
    public let acceptedFailures: [ValidationFailure]
    /// Every attempted path, when the policy asked to collect them.
    public let attempts: [PathAttempt]
    /// The profile the path was validated under (``CertificateProfile/automatic`` resolved).
    public let profile: CertificateProfile
    /// The CRLs that showed a certificate of the path in good standing although they depart from
    /// RFC 5280 section 5's rules on CRL issuers (``CRLConformance/interoperable``); anchor end first.
    public internal(set) var crlConformanceFindings: [CRLConformanceFinding] = []
    /// The work done.
    public internal(set) var statistics = EvaluationStatistics()
    /// What network fetching fetched or failed to (``TrustResult/fetches``).
    public internal(set) var fetches: [FetchRecord] = []
    /// The Certificate Transparency report of the end entity when the policy required CT for this
    /// path (``ValidationPolicy/certificateTransparency``): each SCT, where it came from, its log and
    /// operator, whether it verified and counted. `nil` when CT was not examined (off, the caller's
    /// own anchors under ``CTRequirement/automatic``, or a directly trusted leaf).
    public internal(set) var certificateTransparency: CertificateTransparencyReport? = nil

    /// The path from the end entity to the anchor, anchor included once (a path that is the
    /// anchor itself, a directly trusted leaf, is not given it twice).
    public var chain: [Certificate] {
        certificates.last == anchor ? certificates : certificates + [anchor]
    }

    /// Whether the path is trusted only because a trust exception accepted its failures.
    public var isTrustedByException: Bool { !acceptedFailures.isEmpty }

    /// What the path's ``profile`` reports without refusing it: under the interoperable default,
    /// each RFC 5280 section 4 rule addressed to CAs that a certificate of the path breaks
    /// (docs/RULES.md). End entity first; empty for a conforming path.
    public var findings: [ProfileFinding] { ProfileFinding.of(path: certificates, profile: profile) }
}

/// One certificate of a report and what is wrong with it (like SecTrustCopyProperties).
public struct CertificateReport: Sendable {
    /// The certificate.
    public let certificate: Certificate
    /// Its place: `end entity`, `intermediate`, `trust anchor`.
    public let role: String
    /// Its failures (empty when nothing is wrong with it).
    public let failures: [ValidationFailure]
}

/// Why an evaluation is untrusted: the primary failure, the best attempted path with the failures
/// of each of its certificates, and optionally every attempt.
///
/// It is the error ``TrustEvaluation/trustedPath()`` throws; its description is ``summary``.
public struct UntrustedReport: Error, Sendable, CustomStringConvertible {
    /// The most specific failure of the best attempt (see ``ValidationFailure/rank``); with trust
    /// exceptions that accept some of the failures, the most specific one they do not accept.
    public internal(set) var primaryFailure: ValidationFailure
    /// The best attempted path.
    public let bestAttempt: PathAttempt
    /// Every attempted path, when the policy asked to collect them.
    public let attempts: [PathAttempt]
    /// The work done.
    public internal(set) var statistics = EvaluationStatistics()
    /// What network fetching fetched or failed to (``TrustResult/fetches``).
    public internal(set) var fetches: [FetchRecord] = []
    /// The failures the evaluation's ``TrustEvaluation/exceptions`` accept, when they accept some
    /// but not all (so the result stays untrusted); otherwise empty.
    public internal(set) var exceptedFailures: [ValidationFailure] = []
    /// The trust exceptions that concern this leaf but did not apply: this certificate's, expired or
    /// bound to another host, and those for another certificate with the same subject (a note that
    /// an exception exists for a different certificate of that name).
    public internal(set) var inapplicableExceptions: [InapplicableTrustException] = []
    /// The purpose evaluated (``ValidationPolicy/purpose``): the one ``exceptions`` records.
    var purpose: ValidationPurpose? = nil

    /// Every failure of the best attempt.
    public var failures: [ValidationFailure] { bestAttempt.failures }

    /// What the best attempt's profile reports without failing it (``PathAttempt/findings``).
    public var findings: [ProfileFinding] { bestAttempt.findings }

    /// Whether every failure is recoverable (only then may a trust exception cover them).
    public var isRecoverable: Bool { primaryFailure.isRecoverable && failures.allSatisfy(\.isRecoverable) }

    /// Each certificate of the best attempted path, end entity first, anchor last, with its failures.
    public var certificateReports: [CertificateReport] {
        var reports: [CertificateReport] = []
        for (index, certificate) in bestAttempt.certificates.enumerated() {
            reports.append(CertificateReport(certificate: certificate, role: index == 0 ? "end entity" : "intermediate",
                                             failures: bestAttempt.failures(of: certificate)))
        }
        if let anchor = bestAttempt.anchor {
            reports.append(CertificateReport(certificate: anchor, role: "trust anchor", failures: bestAttempt.failures(of: anchor)))
        }
        return reports
    }

    /// Failures not about one certificate (policy, budget, pins).
    public var pathFailures: [ValidationFailure] { failures.filter { $0.certificate == nil } }

    /// The trust exception that would accept exactly this outcome, for the purpose evaluated (it
    /// applies to no other, ``TrustException/purpose``), or `nil` when some failure is fatal (bad
    /// signature, malformed, constraint violation, revoked…), which can never be excepted.
    public var exceptions: TrustExceptions? {
        guard isRecoverable, let leaf = bestAttempt.certificates.first else { return nil }
        let recorded = Set(failures.compactMap(ExceptedFailure.init))
        guard !recorded.isEmpty else { return nil }
        return TrustExceptions([TrustException(certificate: leaf, failures: recorded, purpose: purpose)])
    }

    /// ``summary``.
    public var description: String { summary }

    /// A summary in plain words: the primary failure, then each certificate with its failures.
    public var summary: String {
        var lines = [Diagnostics.describe(primaryFailure, in: bestAttempt)]
        for report in certificateReports {
            let status = report.failures.isEmpty ? "ok"
                : report.failures.map { Diagnostics.describe($0, listedUnder: report.certificate, in: bestAttempt) }.joined(separator: "; ")
            lines.append("  \(report.role): \(report.certificate.subject): \(status)")
        }
        for failure in pathFailures where failure != primaryFailure { lines.append("  path: \(Diagnostics.describe(failure, in: bestAttempt))") }
        return lines.joined(separator: "\n")
    }
}

/// The outcome of ``TrustEvaluation/evaluate()``.
public enum TrustResult: Sendable {
    /// A path from the leaf to a trust anchor passed every check (or a trust exception accepted its
    /// failures: ``TrustedPath/isTrustedByException``).
    case trusted(TrustedPath)
    /// No path passed: the report names the primary failure and the best attempt's failures, per
    /// certificate.
    case untrusted(UntrustedReport)

    /// Whether the result is trusted.
    public var isTrusted: Bool {
        if case .trusted = self { return true }
        return false
    }

    /// The path of a trusted result.
    public var trustedPath: TrustedPath? {
        if case .trusted(let path) = self { return path }
        return nil
    }

    /// The report of an untrusted result.
    public var report: UntrustedReport? {
        if case .untrusted(let report) = self { return report }
        return nil
    }

    /// The primary failure of an untrusted result.
    public var primaryFailure: ValidationFailure? { report?.primaryFailure }

    /// The work the evaluation did.
    public var statistics: EvaluationStatistics {
        switch self {
        case .trusted(let path): return path.statistics
        case .untrusted(let report): return report.statistics
        }
    }

    /// The same result with `statistics` attached.
    func with(_ statistics: EvaluationStatistics) -> TrustResult {
        switch self {
        case .trusted(var path):
            path.statistics = statistics
            return .trusted(path)
        case .untrusted(var report):
            report.statistics = statistics
            return .untrusted(report)
        }
    }
}
