/// Whether an evaluation requires Certificate Transparency, and under which policy
/// (``ValidationPolicy/certificateTransparency``).
///
/// CT is evidence about the end-entity certificate, like OCSP: its SCTs come from the certificate
/// (RFC 6962 3.3 extension), the TLS handshake (``TrustEvaluation/signedCertificateTimestampLists``)
/// and stapled OCSP responses; the logs they name come from the caller's
/// ``TrustEvaluation/certificateTransparencyLogs``. A path that fails the required policy fails
/// with ``ValidationFailure/certificateTransparencyNotCompliant(_:_:)``; a trusted path reports the
/// SCTs that counted (``TrustedPath/certificateTransparency``).
public enum CTRequirement: Hashable, Sendable {
    /// As SecTrust does: Apple's policy (``CTPolicy/apple``) for a path ending at a public Web PKI
    /// anchor (``TrustStore/isPublicWebPKI``, the system anchors) when a log list is given; off for
    /// the caller's own anchors, and off when no log list is given (there is nothing to check SCTs
    /// against: CertPath ships no list). The default.
    case automatic
    /// CT is not examined: no SCT is parsed or verified.
    case off
    /// `policy` is required for every path, whatever its anchor; without a log list every path fails
    /// (``CTRule/noLogList``).
    case required(CTPolicy)
    /// `policy` is required for a path ending at a public Web PKI anchor (when a log list is given),
    /// off for the caller's own anchors: ``automatic`` with another policy.
    case requiredForPublicAnchors(CTPolicy)

    /// Whether some path may need CT: when not, an evaluation sets nothing up for it (CT costs
    /// nothing when off, or automatic without a log list).
    func mayRequire(hasLogList: Bool) -> Bool {
        switch self {
        case .off: return false
        case .required: return true
        case .automatic, .requiredForPublicAnchors: return hasLogList
        }
    }

    /// The policy required for a path to an anchor of this kind, or `nil` when CT is not examined.
    ///
    /// - Parameters:
    ///   - anchorIsPublicWebPKI: whether the path ends at a public (system) anchor.
    ///   - hasLogList: whether the evaluation has a log list.
    public func policy(anchorIsPublicWebPKI: Bool, hasLogList: Bool) -> CTPolicy? {
        switch self {
        case .off: return nil
        case .required(let policy): return policy
        case .automatic: return anchorIsPublicWebPKI && hasLogList ? .apple : nil
        case .requiredForPublicAnchors(let policy): return anchorIsPublicWebPKI && hasLogList ? policy : nil
        }
    }
}

/// A Certificate Transparency policy: how many verified SCTs, from which logs and operators, make a
/// certificate CT-compliant.
///
/// Lifetime is the certificate's validity period. Each policy is the published text as read on
/// 2026-12-07; the rules are typed in ``CTRule``.
public enum CTPolicy: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Apple's Certificate Transparency policy (https://support.apple.com/en-us/103214, read
    /// 2026-12-07; for certificates with notBefore on or after 2021-04-21):
    ///
    /// - Lifetime as RFC 5280 4.1.2.5 defines it, notBefore through notAfter inclusive, in days of
    ///   86,400 seconds, any part of a day counting as one.
    /// - Embedded SCTs: at least one from a log usable at the time of check, and SCTs from distinct
    ///   logs that are qualified, usable or read-only, or retired after the SCT was issued ("once or
    ///   currently approved"): 180 days or less, 2 (at most 1 per operator counts); 181 to 398
    ///   days, 3 (at most 2 per operator count). A longer lifetime has no row: not compliant.
    /// - Or, with SCTs delivered by TLS or OCSP: at least 2 SCTs from distinct logs usable at the
    ///   time of check, one of them delivered by TLS or OCSP.
    ///
    /// Not modelled: Apple's table for certificates issued before 2021-04-21, and its requirement
    /// of an SCT from an RFC 6962 (not static-ct-api) log (both kinds issue RFC 6962 SCTs, and the
    /// v3 list's `tiled_logs` are read as logs).
    case apple
    /// Chrome's Certificate Transparency policy
    /// (https://googlechrome.github.io/CertificateTransparency/ct_policy.html, read 2026-12-07):
    ///
    /// - Lifetime: notAfter − notBefore; more than 180 days (of 86,400 seconds) needs more SCTs.
    /// - Embedded SCTs: at least one from a log qualified, usable or read-only at the time of check;
    ///   SCTs from distinct logs qualified, usable or read-only at the time of check, or retired
    ///   after the SCT was issued: 2 for 180 days or less, 3 for more; from at least 2 distinct
    ///   log operators.
    /// - Or, with SCTs delivered by TLS or OCSP: at least 2 SCTs from distinct logs qualified,
    ///   usable or read-only at the time of check, from at least 2 distinct operators.
    case chromium

    /// `Apple` or `Chromium`.
    public var description: String { self == .apple ? "Apple" : "Chromium" }
}

/// A rule of a ``CTPolicy`` a certificate's SCTs did not meet.
public enum CTRule: Hashable, Sendable, CustomStringConvertible {
    /// CT is required but the evaluation has no log list (``TrustEvaluation/certificateTransparencyLogs``).
    case noLogList
    /// Too few SCTs counted toward the lifetime's requirement: `counted` SCTs from distinct logs
    /// (after the per-operator limit `perOperatorLimit`, `nil` for none), `required` needed for a
    /// lifetime of `lifetimeDays` days.
    case tooFewSCTs(required: Int, counted: Int, lifetimeDays: Int, perOperatorLimit: Int?)
    /// No SCT of the kind required comes from a log in one of `states` at the time of check.
    case noSCTFromCurrentLog(states: [CTLogList.State.Kind])
    /// The SCTs that count come from `found` distinct operators; `required` are needed.
    case tooFewOperators(required: Int, found: Int)
    /// Too few SCTs for the TLS/OCSP-delivered alternative: `counted` from distinct logs in the
    /// required states, `required` needed, with at least one delivered by TLS or OCSP (`delivered`
    /// were).
    case tooFewDeliveredSCTs(required: Int, counted: Int, delivered: Int)
    /// The certificate's lifetime, `days`, is beyond the policy's longest row, `maximum`.
    case lifetimeBeyondPolicy(days: Int, maximum: Int)

    /// The rule in words.
    public var description: String {
        switch self {
        case .noLogList:
            return "Certificate Transparency is required but no CT log list was given"
        case .tooFewSCTs(let required, let counted, let days, let limit):
            let cap = limit.map { ", at most \($0) per log operator" } ?? ""
            return "a certificate valid for \(days) days needs \(required) SCTs from distinct approved logs\(cap); \(counted) counted"
        case .noSCTFromCurrentLog(let states):
            return "no verified SCT comes from a log that is \(states.map(\.rawValue).joined(separator: " or ")) at the time of check"
        case .tooFewOperators(let required, let found):
            return "the SCTs that count come from \(found) log operator\(found == 1 ? "" : "s"); \(required) distinct operators are required"
        case .tooFewDeliveredSCTs(let required, let counted, let delivered):
            return "SCTs delivered by TLS or OCSP (\(delivered)) need \(required) SCTs from distinct current logs in all; \(counted) counted"
        case .lifetimeBeyondPolicy(let days, let maximum):
            return "a certificate valid for \(days) days is beyond the policy's longest lifetime (\(maximum) days)"
        }
    }
}

/// One SCT examined for a CT policy: where it came from, which log issued it, whether it verified
/// and whether it counted.
public struct SCTCheck: Hashable, Sendable, CustomStringConvertible {
    /// How an SCT reached the evaluation (RFC 6962 3.3).
    public enum Source: String, Hashable, Sendable, CaseIterable {
        /// The certificate's SCT list extension (precert_entry).
        case embedded
        /// The TLS signed_certificate_timestamp extension (x509_entry).
        case tlsExtension
        /// A stapled OCSP response's SingleResponse extension (x509_entry).
        case ocspResponse
    }

    /// Whether the SCT's signature verified (RFC 6962 3.2, 5.2).
    public enum Status: Hashable, Sendable, CustomStringConvertible {
        /// The log's signature over the certificate verifies.
        case verified
        /// The log list has no log with the SCT's LogID.
        case unknownLog
        /// Its timestamp is after the validation time.
        case futureTimestamp
        /// Its algorithm is not ECDSA or RSA with SHA-256 (RFC 6962 2.1.4), or not the log key's.
        case unsupportedAlgorithm
        /// The log's key could not be loaded (the reason).
        case unusableLogKey(String)
        /// The signed data could not be built (the reason: no issuer for an embedded SCT, a TBS
        /// that does not re-encode).
        case unverifiable(String)
        /// The signature does not verify.
        case invalidSignature(SignatureVerificationResult)

        /// A stable identifier of the case, for machine-readable output: `verified`, `unknownLog`,
        /// `futureTimestamp`, `unsupportedAlgorithm`, `unusableLogKey`, `unverifiable`, `invalidSignature`.
        public var code: String {
            switch self {
            case .verified: return "verified"
            case .unknownLog: return "unknownLog"
            case .futureTimestamp: return "futureTimestamp"
            case .unsupportedAlgorithm: return "unsupportedAlgorithm"
            case .unusableLogKey: return "unusableLogKey"
            case .unverifiable: return "unverifiable"
            case .invalidSignature: return "invalidSignature"
            }
        }

        /// The status in words.
        public var description: String {
            switch self {
            case .verified: return "verified"
            case .unknownLog: return "log not in the log list"
            case .futureTimestamp: return "timestamp after the validation time"
            case .unsupportedAlgorithm: return "unsupported signature algorithm"
            case .unusableLogKey(let why): return "log key unusable: \(why)"
            case .unverifiable(let why): return "not verifiable: \(why)"
            case .invalidSignature(let result): return "signature does not verify (\(result))"
            }
        }
    }

    /// Why a verified SCT did not count toward the policy.
    public enum Exclusion: Hashable, Sendable, CustomStringConvertible {
        /// Its log's state does not count (pending, rejected, or no state).
        case logState(CTLogList.State.Kind?)
        /// Its log retired at or before the SCT's timestamp.
        case retiredBeforeTimestamp(UnixTime)
        /// Another SCT from the same log already counted.
        case duplicateLog
        /// Its operator already has the most SCTs that count.
        case operatorLimit
        /// The TLS/OCSP-delivered rule applied, which counts only logs current at the time of check.
        case notCurrent
        /// It belongs to the other rule than the one applied: a TLS- or OCSP-delivered SCT when the
        /// embedded rule was applied (met, or neither rule met), an embedded one it did not need.
        case otherRuleApplied

        /// The reason in words.
        public var description: String {
            switch self {
            case .logState(let kind): return "log state \(kind?.rawValue ?? "unknown") does not count"
            case .retiredBeforeTimestamp(let when): return "log retired at \(when), before the SCT"
            case .duplicateLog: return "another SCT from the same log counted"
            case .operatorLimit: return "the operator's limit was reached"
            case .notCurrent: return "the log is not current at the time of check"
            case .otherRuleApplied: return "the SCTs were counted under the policy's other rule"
            }
        }
    }

    /// The SCT.
    public let sct: SignedCertificateTimestamp
    /// Where it came from.
    public let source: Source
    /// The log that issued it, when the log list knows it.
    public let log: CTLogList.Log?
    /// The log's operator's name, when known.
    public let operatorName: String?
    /// Whether its signature verified.
    public let status: Status
    /// Whether it counted toward the policy (only verified SCTs can).
    public internal(set) var counted: Bool = false
    /// Why a verified SCT did not count; `nil` when it counted or did not verify.
    public internal(set) var exclusion: Exclusion? = nil

    /// Creates a record (the evaluation makes them; public for tests and tools).
    public init(sct: SignedCertificateTimestamp, source: Source, log: CTLogList.Log?, operatorName: String?, status: Status,
                counted: Bool = false, exclusion: Exclusion? = nil) {
        self.sct = sct
        self.source = source
        self.log = log
        self.operatorName = operatorName
        self.status = status
        self.counted = counted
        self.exclusion = exclusion
    }

    /// `embedded SCT from Google 'Argon2025h1' log (Google), 2025-01-01T00:00:00Z: verified, counted`.
    public var description: String {
        let from = log.map { "\($0.description) (\(operatorName ?? "?"))" } ?? "unknown log \(Hex.encode(sct.logID[...]))"
        let when = UnixTime(secondsSinceEpoch: Int64(clamping: sct.timestamp / 1000))
        let counting = counted ? ", counted" : exclusion.map { ", not counted: \($0)" } ?? ""
        return "\(source.rawValue) SCT from \(from), \(when): \(status)\(counting)"
    }
}

/// A list of SCTs that could not be read.
public struct SCTListProblem: Hashable, Sendable {
    /// Where the list came from.
    public let source: SCTCheck.Source
    /// Why it could not be read.
    public let error: SCTListError

    /// Creates a record.
    public init(source: SCTCheck.Source, error: SCTListError) {
        self.source = source
        self.error = error
    }
}

/// What Certificate Transparency found for a path's end-entity certificate under a ``CTPolicy``.
public struct CertificateTransparencyReport: Hashable, Sendable, CustomStringConvertible {
    /// The policy applied.
    public let policy: CTPolicy
    /// The certificate's lifetime in days, as the policy measures it.
    public let lifetimeDays: Int
    /// Every v1 SCT found, embedded first, then TLS, then OCSP, in list order.
    public let timestamps: [SCTCheck]
    /// SCT lists that could not be read (their SCTs are not in ``timestamps``).
    public let listProblems: [SCTListProblem]
    /// How many SCTs of an unknown version were ignored (RFC 6962 3.3).
    public let ignoredUnknownVersions: Int
    /// The rules not met; empty when the certificate is compliant.
    public let unmetRules: [CTRule]
    /// How many SCTs were not examined because their source (the embedded list, the TLS lists, the
    /// OCSP responses) held more than ``CertificateTransparency/maximumSCTsPerSource``: they are
    /// neither verified nor counted (a bound on the peer's work, not an RFC 6962 rule).
    public var unexaminedSCTs = 0

    /// Whether the SCTs meet the policy.
    public var isCompliant: Bool { unmetRules.isEmpty }
    /// The SCTs that counted toward the policy.
    public var counted: [SCTCheck] { timestamps.filter(\.counted) }

    /// Creates a report (the evaluation makes them).
    public init(policy: CTPolicy, lifetimeDays: Int, timestamps: [SCTCheck], listProblems: [SCTListProblem] = [],
                ignoredUnknownVersions: Int = 0, unmetRules: [CTRule]) {
        self.policy = policy
        self.lifetimeDays = lifetimeDays
        self.timestamps = timestamps
        self.listProblems = listProblems
        self.ignoredUnknownVersions = ignoredUnknownVersions
        self.unmetRules = unmetRules
    }

    /// A summary: the policy, how many SCTs were found, verified and counted, the unmet rules.
    public var description: String {
        let verified = timestamps.filter { $0.status == .verified }.count
        var text = "\(policy) CT policy: \(timestamps.count) SCT\(timestamps.count == 1 ? "" : "s") found, \(verified) verified, \(counted.count) counted"
        if unexaminedSCTs > 0 { text += " (\(unexaminedSCTs) more not examined)" }
        for problem in listProblems { text += "; \(problem.source.rawValue) SCT list unreadable: \(problem.error)" }
        if !unmetRules.isEmpty { text += "; " + unmetRules.map(\.description).joined(separator: "; ") }
        return text
    }
}
