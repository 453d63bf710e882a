/// One recoverable failure as a trust exception records it: the failure's code, the certificate it is
/// about (SHA-256 of its DER) and, for name mismatches, the name that was asked for.
///
/// Two failures are "the same" for an exception exactly when these three values are equal: an
/// exception for an expired leaf does not cover a hostname mismatch, nor the same mismatch for
/// another hostname, nor an expired intermediate.
public struct ExceptedFailure: Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure accepted.
    public let kind: RecoverableFailure
    /// SHA-256 of the DER of the certificate concerned.
    public let certificate: SHA256Digest
    /// For `hostnameMismatch`: the reference identifier; for `nameMismatch`: the expected name
    /// (their canonical text, ``ReferenceIdentifier/description``, ``ExpectedName/description``);
    /// `nil` for every other kind (``RecoverableFailure/recordsName``).
    public let detail: String?

    /// The ``ValidationFailure/code`` of the failure accepted (``RecoverableFailure``'s raw value).
    public var code: String { kind.rawValue }

    /// The codes a trust exception may hold: the recoverable failures' (``RecoverableFailure``).
    package static let recoverableCodes = Set(RecoverableFailure.allCases.map(\.rawValue))

    /// The codes whose record carries a ``detail`` (and must): ``RecoverableFailure/recordsName``.
    package static let codesWithDetail = Set(RecoverableFailure.allCases.filter(\.recordsName).map(\.rawValue))

    /// The canonical text of `text` read as the detail of `code`'s failure: a
    /// ``ReferenceIdentifier`` for `hostnameMismatch`, an ``ExpectedName`` (IP address, email address
    /// when it has an `@`, else DNS name) for `nameMismatch`; `nil` when it is neither.
    package static func canonicalName(_ text: String, code: String) -> String? {
        if code == RecoverableFailure.hostnameMismatch.rawValue { return (try? ReferenceIdentifier(text))?.description }
        if let address = IPAddress(text) { return ExpectedName.ipAddress(address).description }
        if text.contains("@") { return (try? RFC822Name(mailbox: text)).map { ExpectedName.email($0).description } }
        return (try? DNSName(text)).map { ExpectedName.dnsName($0).description }
    }

    /// Creates a record directly (used when reading the text form).
    ///
    /// - Returns: `nil` when `detail` is absent for a kind that ``RecoverableFailure/recordsName``,
    ///   present for any other kind, or not the canonical text of the name such a failure records
    ///   (a ``ReferenceIdentifier``'s description for `hostnameMismatch`, an ``ExpectedName``'s for
    ///   `nameMismatch`: `www.example.com`, not `WWW.example.com.`): such a record could never equal
    ///   the record of an observed failure, so the exception holding it would never apply.
    public init?(kind: RecoverableFailure, certificate: SHA256Digest, detail: String?) {
        guard (detail != nil) == kind.recordsName else { return nil }
        if let detail, Self.canonicalName(detail, code: kind.rawValue) != detail { return nil }
        self.kind = kind
        self.certificate = certificate
        self.detail = detail
    }

    /// Creates a record from a failure code (the text form's word).
    ///
    /// - Returns: `nil` when `code` is not a ``RecoverableFailure`` raw value, or as ``init(kind:certificate:detail:)``.
    public init?(code: String, certificate: SHA256Digest, detail: String?) {
        guard let kind = RecoverableFailure(rawValue: code) else { return nil }
        self.init(kind: kind, certificate: certificate, detail: detail)
    }

    /// The record of `failure`, or `nil` when the failure is fatal (it can never be excepted).
    public init?(_ failure: ValidationFailure) {
        guard let kind = failure.recoverableKind, let certificate = failure.certificate else { return nil }
        var detail: String? = nil
        switch failure {
        case .hostnameMismatch(_, let reference, _): detail = reference.description
        case .nameMismatch(_, let expected, _): detail = expected.description
        default: break
        }
        self.init(kind: kind, certificate: SHA256Digest(hashing: certificate.der), detail: detail)
    }

    /// `expired sha256/…` or `hostnameMismatch sha256/… for example.com`.
    public var description: String { "\(code) sha256/\(certificate.hex)\(detail.map { " for \($0)" } ?? "")" }
}

/// A trust exception (like SecTrustCopyExceptions): one end-entity certificate (SHA-256 of its DER)
/// and exactly the recoverable failures its evaluation showed, with what a person needs to read and
/// manage it: the certificate's subject, issuer, names and key digest, when it was recorded, and
/// optionally the host it is bound to and when it expires.
///
/// Only ``leaf``, ``failures``, ``purpose``, ``host`` and ``expires`` decide whether it applies
/// (``applies(leaf:failures:purpose:at:)``); the descriptive fields are for people and for the note
/// that an exception exists for another certificate of the same name
/// (``InapplicableTrustException/Reason/otherCertificateOfSameName(sameKey:)``).
public struct TrustException: Hashable, Sendable {
    /// SHA-256 of the end-entity certificate's DER.
    public let leaf: SHA256Digest
    /// The failures accepted for it.
    public let failures: Set<ExceptedFailure>
    /// The certificate's subject (RFC 4514 text, ``Name/description``), or `nil` (an exception read
    /// from the version 1 form, which did not record it).
    public var subject: String?
    /// The certificate's issuer (RFC 4514 text), or `nil`.
    public var issuer: String?
    /// The certificate's subjectAltName entries (``GeneralName/description``: `DNS:a.example`,
    /// `IP:192.0.2.1`), in certificate order; empty when it has none or they were not recorded.
    public var names: [String]
    /// SHA-256 of the certificate's subjectPublicKeyInfo DER, or `nil` when not recorded.
    public var key: SHA256Digest?
    /// When the exception was recorded, or `nil` when not recorded (version 1).
    public var recorded: UnixTime?
    /// The purpose the exception was recorded under (``purposeName(of:)``: `server`, `client`,
    /// `smime`, `code-signing`, `time-stamping`, `any`, or the dotted extKeyUsage OIDs joined by
    /// `,`): it applies only to evaluations for that same purpose, as SecTrust's exceptions are per
    /// policy. `nil` (version 1, or a version 2 entry written before purposes were recorded): the
    /// exception applies to TLS server evaluations only (``ValidationPurpose/serverAuthentication(_:)``),
    /// the use such files were made for, and never widens to client, S/MIME, code-signing or
    /// time-stamping trust.
    public var purpose: String?
    /// The host the exception is bound to: it applies only to an evaluation for a TLS server with
    /// this reference identifier (``ValidationPurpose/serverAuthentication(_:)``); `nil`: any.
    public var host: ReferenceIdentifier?
    /// From this time on (compared with the evaluation's validation time) the exception no longer
    /// applies; `nil`: it does not expire.
    public var expires: UnixTime?

    /// Creates an exception from the digest of the leaf and the failures accepted (no descriptive fields).
    public init(leaf: SHA256Digest, failures: Set<ExceptedFailure>) {
        self.leaf = leaf
        self.failures = failures
        self.names = []
    }

    /// Creates an exception for `certificate` accepting `failures`, recording its subject, issuer,
    /// subjectAltName entries and key digest.
    ///
    /// - Parameters:
    ///   - certificate: the end-entity certificate accepted.
    ///   - failures: the failures accepted for it (``UntrustedReport/exceptions`` offers them).
    ///   - recorded: when it is recorded (the CLI passes the current time).
    ///   - purpose: the purpose of the evaluation it accepts (``purpose``); `nil` records none
    ///     (then it applies to TLS server evaluations only).
    ///   - host: the host it is bound to, or `nil` for any.
    ///   - expires: when it stops applying, or `nil` for never.
    public init(certificate: Certificate, failures: Set<ExceptedFailure>, recorded: UnixTime? = nil,
                purpose: ValidationPurpose? = nil, host: ReferenceIdentifier? = nil, expires: UnixTime? = nil) {
        self.init(leaf: SHA256Digest(hashing: certificate.der), failures: failures)
        subject = certificate.subject.description
        issuer = certificate.issuer.description
        names = (certificate.subjectAlternativeNames ?? []).map(\.description)
        key = SHA256Digest(hashing: certificate.subjectPublicKeyInfoDER)
        self.recorded = recorded
        self.purpose = purpose.map(Self.purposeName(of:))
        self.host = host
        self.expires = expires
    }

    /// The name under which an exception for an evaluation of `purpose` is recorded (``purpose``):
    /// `server`, `client`, `smime` (every ``EmailProtectionUse``), `code-signing`, `time-stamping`,
    /// `any`, or for ``ValidationPurpose/extendedKeyUsage(purposes:expectedNames:)`` the dotted OIDs
    /// joined by `,`. The reference identifier and expected names are not part of it: failures that
    /// concern a name record it (``ExceptedFailure/detail``), and ``host`` binds a server's.
    public static func purposeName(of purpose: ValidationPurpose) -> String {
        switch purpose {
        case .serverAuthentication: return "server"
        case .clientAuthentication: return "client"
        case .emailProtection: return "smime"
        case .codeSigning: return "code-signing"
        case .timeStamping: return "time-stamping"
        case .any: return "any"
        case .extendedKeyUsage(let purposes, _): return purposes.map(\.description).joined(separator: ",")
        }
    }

    /// Whether `text` is a name ``purposeName(of:)`` returns (the form a `purpose` line must have).
    static func isPurposeName(_ text: String) -> Bool {
        if ["server", "client", "smime", "code-signing", "time-stamping", "any"].contains(text) { return true }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { part in OID(dotted: String(part)).map { $0.description == part && part.contains(".") } ?? false }
    }

    /// Whether this exception covers an evaluation of `leaf` that failed with `failures`: the same
    /// certificate, and every failure recoverable and among those recorded. Ignores ``purpose``, ``host`` and
    /// ``expires``: ``applies(leaf:failures:purpose:at:)`` honours them.
    public func covers(leaf certificate: Certificate, failures observed: [ValidationFailure]) -> Bool {
        guard SHA256Digest(hashing: certificate.der) == leaf else { return false }
        return covers(observed.map(ExceptedFailure.init))
    }

    /// Whether this exception accepts an evaluation of `certificate` for `purpose` at `time` that
    /// failed with `failures`: ``covers(leaf:failures:)``, recorded for that purpose (``purpose``; an
    /// entry without one: TLS server only), not expired (`time` before ``expires``), and, when it is
    /// bound to a host, `purpose` is a TLS server evaluation for that host.
    public func applies(leaf certificate: Certificate, failures observed: [ValidationFailure], purpose: ValidationPurpose,
                        at time: UnixTime) -> Bool {
        isInForce(purpose: purpose, at: time) == nil && covers(leaf: certificate, failures: observed)
    }

    /// Why the purpose, the host binding or the expiry keep this exception from an evaluation for
    /// `purpose` at `time`, or `nil` when they allow it.
    func isInForce(purpose evaluated: ValidationPurpose, at time: UnixTime) -> InapplicableTrustException.Reason? {
        if let expires, !(time < expires) { return .expired }
        // Exceptions are per purpose (as SecTrust's are per policy): one accepted for a TLS server
        // never makes the certificate trusted for signing code or mail. No purpose recorded: TLS server.
        if (purpose ?? "server") != Self.purposeName(of: evaluated) { return .recordedForOtherPurpose }
        if let host {
            guard case .serverAuthentication(let reference) = evaluated, reference == host else { return .boundToOtherHost }
        }
        return nil
    }

    /// Whether every failure, in the form an exception records (`nil`: one no exception can
    /// record), is among those accepted; `false` for none.
    func covers(_ observed: [ExceptedFailure?]) -> Bool {
        !observed.isEmpty && observed.allSatisfy { $0.map(failures.contains) ?? false }
    }

    /// The entry's lines in the version 2 text form, from `exception` to the last field (the
    /// integrity line excluded): the canonical fields the integrity digest covers.
    var fieldLines: [String] {
        var lines = ["exception", "leaf \(leaf.hex)"]
        if let key { lines.append("key \(key.hex)") }
        if let subject { lines.append("subject \(TrustExceptions.escapeValue(subject))") }
        if let issuer { lines.append("issuer \(TrustExceptions.escapeValue(issuer))") }
        for name in names { lines.append("name \(TrustExceptions.escapeValue(name))") }
        for failure in failures.sorted(by: { ($0.code, $0.certificate, $0.detail ?? "") < ($1.code, $1.certificate, $1.detail ?? "") }) {
            lines.append("failure \(failure.code) \(failure.certificate.hex)\(failure.detail.map { " " + TrustExceptions.percentEncode($0) } ?? "")")
        }
        if let recorded { lines.append("recorded \(recorded)") }
        if let purpose { lines.append("purpose \(purpose)") }
        if let host { lines.append("host \(host)") }
        if let expires { lines.append("expires \(expires)") }
        return lines
    }

    /// SHA-256 over the entry's canonical fields (``TrustExceptions/integrityDigest(of:)``): what
    /// its `integrity` line states.
    public var integrity: SHA256Digest { TrustExceptions.integrityDigest(of: fieldLines) }

    /// The entry's identifier: the first 12 hex digits of ``integrity`` (what `certpath exceptions
    /// remove` takes).
    public var id: String { String(integrity.hex.prefix(12)) }
}

/// An exception that exists for an evaluation's leaf, or for a certificate of the same name, but
/// did not apply: the report says why (``UntrustedReport/inapplicableExceptions``).
public struct InapplicableTrustException: Hashable, Sendable {
    /// Why an exception did not apply.
    public enum Reason: Hashable, Sendable {
        /// The exception is for another certificate with the same subject (``TrustException/subject``);
        /// `sameKey` when that certificate has the same key (``TrustException/key``).
        case otherCertificateOfSameName(sameKey: Bool)
        /// The exception for this certificate expired (``TrustException/expires``) before the validation time.
        case expired
        /// The exception for this certificate is bound to another host (``TrustException/host``).
        case boundToOtherHost
        /// The exception for this certificate was recorded for another purpose (``TrustException/purpose``;
        /// one without a purpose applies to TLS server evaluations only).
        case recordedForOtherPurpose
    }

    /// The exception.
    public let exception: TrustException
    /// Why it did not apply.
    public let reason: Reason
}

/// An entry of a version 2 trust-exceptions text that was not accepted, with the reason: it was
/// edited after it was recorded (its integrity digest no longer matches), or is malformed. The
/// other entries are still read (``TrustExceptions/rejected``).
public struct RejectedTrustException: Hashable, Sendable, CustomStringConvertible {
    /// 1-based line of the entry's `exception` line.
    public let line: Int
    /// The identifier the entry's `integrity` line states (its first 12 hex digits), or `nil` when it has none.
    public let id: String?
    /// Why it was rejected.
    public let reason: String

    /// `line 12 (entry 3f9a1c2b7d4e): the integrity check failed …`.
    public var description: String { "line \(line)\(id.map { " (entry \($0))" } ?? ""): \(reason)" }
}

/// Why a trust-exceptions text could not be read.
public struct TrustExceptionsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based line (0 for the document as a whole).
    public let line: Int
    /// What is wrong.
    public let reason: String

    public var description: String { line > 0 ? "trust exceptions, line \(line): \(reason)" : "trust exceptions: \(reason)" }
}

/// A set of trust exceptions with a stable, versioned text form for applications to store, readable
/// and editable in the small.
///
/// Text form, version 2 (written; ABNF, RFC 5234; every line ends with LF alone, CRLF is an error;
/// hex is lowercase):
/// ```
/// document  = header *( comment / entry )
/// header    = "certpath-trust-exceptions 2" LF
/// comment   = ( "#" *VCHAR-OR-SPACE / "" ) LF           ; anywhere, inside entries too
/// entry     = "exception" LF "leaf " sha256 LF [ "key " sha256 LF ]
///             [ "subject " value LF ] [ "issuer " value LF ] *( "name " value LF )
///             1*( "failure " code " " sha256 [ " " detail ] LF )
///             [ "recorded " time LF ] [ "purpose " purpose LF ] [ "host " reference LF ]
///             [ "expires " time LF ]
///             "integrity " sha256 LF
/// value     = text with "%", control characters and DEL as "%" 2HEXDIG
/// time      = RFC 3339 UTC, seconds, "Z" (2026-12-07T05:16:30Z)
/// purpose   = "server" / "client" / "smime" / "code-signing" / "time-stamping" / "any"
///           / oid *( "," oid )                          ; dotted extKeyUsage OIDs
/// ```
/// `leaf` is the SHA-256 of the certificate's DER, `key` of its subjectPublicKeyInfo; `subject`,
/// `issuer` and `name` (one per subjectAltName entry) describe it; `failure` is as in version 1
/// below; `purpose` is the purpose the exception was recorded under and the only one it applies to
/// (an entry without it, and every version 1 entry, applies to TLS server evaluations only);
/// `host` binds the exception to one TLS server name; `expires` ends it. The fields appear in
/// this order, once each (`name` and `failure` may repeat). `integrity` is the SHA-256 of
/// `"certpath-trust-exceptions 2 entry" LF` followed by the entry's lines from `exception` to the
/// line before `integrity`, each with its LF, comments excluded (``integrityDigest(of:)``); its first
/// 12 hex digits are the entry's ``TrustException/id``. So a comment, a blank line or a deleted entry
/// leaves every other entry valid, while an entry whose fields were edited is rejected alone and
/// reported (``rejected``), never silently applied. The digest detects edits and corruption; it is
/// not a signature (anyone who can write the file can write a valid entry): store exceptions where an
/// attacker cannot write, as with any trust setting.
///
/// Version 1 (read, never written; the next write migrates a file to version 2):
/// ```
/// document = header *entry checksum
/// header   = "certpath-trust-exceptions 1" LF
/// entry    = "leaf " sha256 LF 1*failure
/// failure  = "failure " code " " sha256 LF
///          / "failure " named-code " " sha256 " " detail LF
/// code     = "expired" / "notYetValid" / "issuerNotFound" / "selfSignedNotTrusted" / "noTrustedAnchor"
/// named-code = "hostnameMismatch" / "nameMismatch"
/// detail   = 1*( ALPHA / DIGIT / "." / "-" / "_" / ":" / "@" / "*" / "%" HEXDIG HEXDIG )
/// checksum = "checksum " sha256 LF      ; SHA-256 of every byte before this line
/// sha256   = 64HEXDIG
/// ```
/// The `failure` digest names the certificate the failure is about; `detail` (percent-encoded UTF-8)
/// is the reference identifier of a hostname mismatch or the expected name of a name mismatch: those
/// two codes always carry one and the others never do. A detail is read only in the one encoding
/// this type writes: escapes (two lower-case hex digits) for exactly the bytes outside the plain set.
/// Version 1's checksum covers the whole text: any edit, comment or deletion breaks it.
public struct TrustExceptions: Hashable, Sendable {
    /// The header line of version 2, the form ``text`` writes.
    public static let header = "certpath-trust-exceptions 2"
    /// The header line of version 1 (read only).
    public static let headerVersion1 = "certpath-trust-exceptions 1"

    /// The comment ``text`` writes after the header.
    public static let preamble = """
        # CertPath trust exceptions: each accepts the listed recoverable failures for one certificate.
        # Manage with 'certpath exceptions list|remove|prune FILE'. Lines starting with '#' are
        # comments. Each entry runs from "exception" to "integrity", the SHA-256 of its other lines:
        # an edited entry is rejected and reported, the others still apply. The digest is not a
        # signature: keep this file where only you can write.
        """

    /// The exceptions, in order.
    public var entries: [TrustException]

    /// The entries of the text read that were not accepted (edited after they were recorded, or
    /// malformed), in text order; empty for a value made in code or read without such entries.
    public internal(set) var rejected: [RejectedTrustException] = []

    /// Creates a set of exceptions.
    public init(_ entries: [TrustException] = []) { self.entries = entries }

    /// Throws naming the first line whose line feed follows a carriage return: the format (both
    /// versions) uses LF line ends only.
    private static func refuseCRLF(_ bytes: [UInt8]) throws(TrustExceptionsError) {
        var lineNumber = 1
        for index in bytes.indices where bytes[index] == 0x0A {
            if index > 0 && bytes[index - 1] == 0x0D {
                throw TrustExceptionsError(line: lineNumber, reason: "CRLF line ends are not allowed (the format uses LF only)")
            }
            lineNumber += 1
        }
    }

    /// The version a trust-exceptions text declares in its header (1 or 2), or `nil` when its first
    /// line is neither header.
    public static func version(of text: String) -> Int? {
        let first = text.prefix { $0 != "\n" }
        if first == header { return 2 }
        if first == headerVersion1 { return 1 }
        return nil
    }

    /// Whether some entry covers an evaluation of `leaf` that failed with `failures`, for a TLS
    /// server of no particular host, now: entries for other purposes, host-bound and expired
    /// entries do not apply (``covers(leaf:failures:purpose:at:)``).
    public func covers(leaf: Certificate, failures: [ValidationFailure]) -> Bool {
        covers(leaf: leaf, failures: failures, purpose: .serverAuthentication(nil), at: WallClock.now())
    }

    /// Whether some entry applies (``TrustException/applies(leaf:failures:purpose:at:)``) to an
    /// evaluation of `leaf` for `purpose` (its reference identifier is the host a bound entry
    /// needs) at the validation time `time` that failed with `failures`.
    public func covers(leaf: Certificate, failures: [ValidationFailure], purpose: ValidationPurpose, at time: UnixTime) -> Bool {
        // The leaf and each failure's certificate are hashed once, not once per entry (10,000
        // entries and a 2 MB leaf took 11.5 s; 10,000 entries for that leaf, 23.7 s).
        let digest = SHA256Digest(hashing: leaf.der)
        var observed: [ExceptedFailure?]? = nil
        return entries.contains { entry in
            guard entry.leaf == digest, entry.isInForce(purpose: purpose, at: time) == nil else { return false }
            let list = observed ?? failures.map(ExceptedFailure.init)
            observed = list
            return entry.covers(list)
        }
    }

    /// The entries that concern `leaf` but do not apply to an evaluation for `purpose` at `time`:
    /// this certificate's expired, recorded for another purpose or bound to another host, and those
    /// for another certificate with the same subject (a reissued certificate, or one impersonating
    /// the excepted one).
    public func inapplicable(to leaf: Certificate, purpose: ValidationPurpose, at time: UnixTime) -> [InapplicableTrustException] {
        let digest = SHA256Digest(hashing: leaf.der)
        var found: [InapplicableTrustException] = []
        var subject: String? = nil
        var key: SHA256Digest? = nil
        for entry in entries {
            if entry.leaf == digest {
                if let reason = entry.isInForce(purpose: purpose, at: time) {
                    found.append(InapplicableTrustException(exception: entry, reason: reason))
                }
                continue
            }
            guard let entrySubject = entry.subject else { continue }
            let leafSubject = subject ?? leaf.subject.description
            subject = leafSubject
            guard entrySubject == leafSubject else { continue }
            let leafKey = key ?? SHA256Digest(hashing: leaf.subjectPublicKeyInfoDER)
            key = leafKey
            found.append(InapplicableTrustException(exception: entry, reason: .otherCertificateOfSameName(sameKey: entry.key == leafKey)))
        }
        return found
    }

    /// The version 2 text form: ``header``, ``preamble``, then each entry (``entryText(_:)``).
    public var text: String {
        var body = Self.header + "\n" + Self.preamble + "\n"
        for entry in entries { body += "\n" + Self.entryText(entry) }
        return body
    }

    /// One entry's lines in the version 2 form, its `integrity` line included.
    public static func entryText(_ entry: TrustException) -> String {
        let lines = entry.fieldLines
        return (lines + ["integrity \(integrityDigest(of: lines).hex)"]).joined(separator: "\n") + "\n"
    }

    /// The integrity digest of an entry's lines (from `exception` to the line before `integrity`,
    /// comments excluded): SHA-256 of `"certpath-trust-exceptions 2 entry\n"` and each line with its LF.
    public static func integrityDigest(of lines: [String]) -> SHA256Digest {
        var bytes = Array("certpath-trust-exceptions 2 entry\n".utf8)
        for line in lines {
            bytes += line.utf8
            bytes.append(0x0A)
        }
        return SHA256Digest(hashing: bytes)
    }

    /// Where each entry of a version 2 text lies (1-based lines, from `exception` to `integrity` or
    /// to its last field line when it has none), with the identifier its `integrity` line states: what
    /// `certpath exceptions remove` and `prune` delete, leaving comments and other entries as they are.
    package static func entrySpans(in text: String) -> [(id: String?, lines: ClosedRange<Int>)] {
        guard version(of: text) == 2 else { return [] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var spans: [(id: String?, lines: ClosedRange<Int>)] = []
        var start: Int? = nil
        var last = 0
        for (index, line) in lines.enumerated() {
            let number = index + 1
            if line == "exception" {
                if let open = start { spans.append((nil, open...last)) }
                start = number
                last = number
            } else if let open = start, line.hasPrefix("integrity ") {
                let stated = line.dropFirst("integrity ".count)
                spans.append((stated.count == 64 ? String(stated.prefix(12)) : nil, open...number))
                start = nil
            } else if start != nil, !line.isEmpty, !line.hasPrefix("#") {
                last = number
            }
        }
        if let open = start { spans.append((nil, open...last)) }
        return spans
    }

    /// Reads the text form, version 2 or version 1 (by its header).
    ///
    /// In version 2 an entry that was edited after it was recorded (its integrity digest does not
    /// match), has no integrity line or is malformed is not applied and is listed in ``rejected``;
    /// the other entries are read.
    ///
    /// - Throws: ``TrustExceptionsError`` naming the line: a CR before a line feed, a text not ending
    ///   with a line feed, and a line outside any entry that is not a comment (version 2); for a text
    ///   without the version 2 header, what reading version 1 throws (an empty text, a wrong header
    ///   or version, an unknown line, a bad digest, failure or detail, a missing or wrong checksum).
    public init(text: String) throws(TrustExceptionsError) {
        let bytes = Array(text.utf8)
        try Self.refuseCRLF(bytes)  // both versions use LF only
        guard Self.version(of: text) == 2 else {
            try self.init(version1Text: text)
            return
        }
        guard bytes.last == 0x0A else { throw TrustExceptionsError(line: 0, reason: "the text must end with a line feed") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        var entries: [TrustException] = []
        var rejected: [RejectedTrustException] = []
        var block: (start: Int, lines: [(number: Int, text: String)])? = nil
        for index in 1..<lines.count {
            let line = lines[index], number = index + 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line == "exception" {
                if let open = block {
                    rejected.append(RejectedTrustException(line: open.start, id: nil,
                                                           reason: "the entry has no integrity line (another entry begins at line \(number)); not applied"))
                }
                block = (number, [(number, line)])
                continue
            }
            guard var current = block else {
                throw TrustExceptionsError(line: number, reason: "unknown line outside an entry (an entry begins with \"exception\", a comment with \"#\")")
            }
            guard line.hasPrefix("integrity ") else {
                current.lines.append((number, line))
                block = current
                continue
            }
            block = nil
            guard let stated = Self.digest(String(line.dropFirst("integrity ".count))) else {
                rejected.append(RejectedTrustException(line: current.start, id: nil,
                                                       reason: "line \(number) must be \"integrity <sha256 hex>\"; not applied"))
                continue
            }
            let id = String(stated.hex.prefix(12))
            guard Self.integrityDigest(of: current.lines.map(\.text)) == stated else {
                rejected.append(RejectedTrustException(line: current.start, id: id,
                                                       reason: "integrity check failed: the entry was changed after it was recorded; not applied"))
                continue
            }
            do throws(TrustExceptionsError) {
                entries.append(try Self.entry(from: current.lines))
            } catch {
                rejected.append(RejectedTrustException(line: error.line, id: id, reason: error.reason + "; not applied"))
            }
        }
        if let open = block {
            rejected.append(RejectedTrustException(line: open.start, id: nil, reason: "the entry has no integrity line (the text ends inside it); not applied"))
        }
        self.init(entries)
        self.rejected = rejected
    }

    /// One version 2 entry from its lines (comments removed), whose integrity digest matched.
    private static func entry(from lines: [(number: Int, text: String)]) throws(TrustExceptionsError) -> TrustException {
        var leaf: SHA256Digest? = nil, key: SHA256Digest? = nil
        var subject: String? = nil, issuer: String? = nil, names: [String] = []
        var failures = Set<ExceptedFailure>()
        var recorded: UnixTime? = nil, host: ReferenceIdentifier? = nil, expires: UnixTime? = nil, purpose: String? = nil
        for (number, text) in lines.dropFirst() {
            guard let space = text.firstIndex(of: " ") else { throw TrustExceptionsError(line: number, reason: "expected \"<field> <value>\"") }
            let field = String(text[..<space]), value = String(text[text.index(after: space)...])
            func bad(_ what: String) -> TrustExceptionsError { TrustExceptionsError(line: number, reason: "\(field): \(what)") }
            func time() throws(TrustExceptionsError) -> UnixTime {
                guard let parsed = UnixTime(rfc3339: value), parsed.description == value else {
                    throw bad("expected an RFC 3339 UTC time such as 2026-12-07T05:16:30Z")
                }
                return parsed
            }
            switch field {
            case "leaf", "key":
                guard let parsed = digest(value) else { throw bad("the digest must be 64 lowercase hex digits") }
                if field == "leaf" { leaf = parsed } else { key = parsed }
            case "subject", "issuer", "name":
                guard let parsed = unescapeValue(value) else { throw bad("invalid escape (only %, control characters and DEL are escaped, as %XX)") }
                if field == "subject" { subject = parsed } else if field == "issuer" { issuer = parsed } else { names.append(parsed) }
            case "failure":
                failures.insert(try failure(value.split(separator: " ", omittingEmptySubsequences: false).map(String.init), line: number))
            case "recorded": recorded = try time()
            case "expires": expires = try time()
            case "purpose":
                guard TrustException.isPurposeName(value) else {
                    throw bad("expected server, client, smime, code-signing, time-stamping, any or dotted extKeyUsage OIDs joined by \",\"")
                }
                purpose = value
            case "host":
                guard let parsed = try? ReferenceIdentifier(value), parsed.description == value else {
                    throw bad("not a host name or IP address in canonical form")
                }
                host = parsed
            default:
                throw TrustExceptionsError(line: number, reason: "unknown field \(QuotedText.quoted(field))")
            }
        }
        guard let leaf else { throw TrustExceptionsError(line: lines[0].number, reason: "the entry has no leaf line") }
        guard !failures.isEmpty else { throw TrustExceptionsError(line: lines[0].number, reason: "the entry accepts no failure") }
        var entry = TrustException(leaf: leaf, failures: failures)
        entry.key = key
        entry.subject = subject
        entry.issuer = issuer
        entry.names = names
        entry.recorded = recorded
        entry.purpose = purpose
        entry.host = host
        entry.expires = expires
        // One text per entry, the form this type writes: the listed identifier is the stated one.
        guard entry.fieldLines == lines.map(\.text) else {
            throw TrustExceptionsError(line: lines[0].number, reason: "the entry is not in canonical form (fields repeated, out of order or not as written)")
        }
        return entry
    }

    /// Escapes a descriptive value: `%`, control characters and DEL as `%XX` (lower-case hex).
    static func escapeValue(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "%" {
                out += "%" + Hex.encode([UInt8(scalar.value)])
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The inverse of ``escapeValue(_:)``, accepting only its output.
    static func unescapeValue(_ text: String) -> String? {
        var out = ""
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "%" else {
                out.unicodeScalars.append(scalar)
                continue
            }
            guard let high = scalars.next(), let low = scalars.next(), high.isASCII, low.isASCII,
                  let h = Hex.value(ofDigit: UInt8(high.value)), let l = Hex.value(ofDigit: UInt8(low.value)) else { return nil }
            out.unicodeScalars.append(Unicode.Scalar(h << 4 | l))
        }
        return escapeValue(out) == text ? out : nil
    }

    /// A `failure` line's words after `failure` (code, certificate digest, optional detail).
    private static func failure(_ words: [String], line number: Int) throws(TrustExceptionsError) -> ExceptedFailure {
        guard words.count == 2 || words.count == 3 else {
            throw TrustExceptionsError(line: number, reason: "expected \"failure <code> <sha256 hex> [detail]\"")
        }
        let code = words[0]
        guard ExceptedFailure.recoverableCodes.contains(code) else {
            throw TrustExceptionsError(line: number, reason: "\(QuotedText.quoted(code)) is not a recoverable failure code (only "
                + "\(RecoverableFailure.allCases.map(\.rawValue).joined(separator: ", ")) can be excepted; fatal failures never)")
        }
        guard let certificate = Self.digest(words[1]) else {
            throw TrustExceptionsError(line: number, reason: "the certificate digest must be 64 lowercase hex digits")
        }
        let takesDetail = ExceptedFailure.codesWithDetail.contains(code)
        if words.count == 3 && !takesDetail {
            throw TrustExceptionsError(line: number, reason: "failure kind \"\(code)\" takes no detail "
                + "(only \(ExceptedFailure.codesWithDetail.sorted().joined(separator: " and ")) carry one)")
        }
        if words.count == 2 && takesDetail {
            let what = code == "hostnameMismatch" ? "the reference identifier" : "the expected name"
            throw TrustExceptionsError(line: number, reason: "failure kind \"\(code)\" needs a detail (\(what))")
        }
        var detail: String? = nil
        if words.count == 3 {
            guard let decoded = Self.percentDecode(words[2]) else {
                throw TrustExceptionsError(line: number, reason: "invalid detail \(QuotedText.quoted(words[2]))")
            }
            // One text per detail, as written: an escape of a plain character or upper-case
            // hex is not what this format writes.
            guard Self.percentEncode(decoded) == words[2] else {
                throw TrustExceptionsError(line: number, reason: "detail \(QuotedText.quoted(words[2])) is not canonically encoded "
                    + "(expected \(QuotedText.quoted(Self.percentEncode(decoded))))")
            }
            // The detail is the name as an observed failure records it (its canonical text), or
            // the record could never equal one and the exception would silently never apply.
            guard let canonical = ExceptedFailure.canonicalName(decoded, code: code), canonical == decoded else {
                let what = code == "hostnameMismatch" ? "reference identifier" : "expected name"
                let expected = ExceptedFailure.canonicalName(decoded, code: code).map { " (expected \(QuotedText.quoted(Self.percentEncode($0))))" }
                throw TrustExceptionsError(line: number, reason: "detail \(QuotedText.quoted(words[2])) is not a canonical \(what)"
                    + (expected ?? ": it could never match a failure"))
            }
            detail = decoded
        }
        guard let failure = ExceptedFailure(code: code, certificate: certificate, detail: detail) else {
            throw TrustExceptionsError(line: number, reason: "failure \(QuotedText.quoted(code)) cannot be excepted")  // not reached: checked above
        }
        return failure
    }

    /// Reads the version 1 text form (``headerVersion1``).
    ///
    /// - Throws: ``TrustExceptionsError`` naming the line: a CR before a line feed (CRLF line ends are
    ///   refused, not converted: the checksum covers the exact bytes), a wrong header or version, an
    ///   unknown line, a digest that is not 64 lowercase hex digits, a fatal or unknown failure code, a
    ///   bad detail (not percent-encoded canonically, or not the canonical text of a reference identifier
    ///   or expected name), a detail on a code that takes none or none on a code that needs one
    ///   (``RecoverableFailure/recordsName``), an entry without failures (the line of its `leaf`
    ///   line), a missing or wrong checksum, text after the checksum.
    private init(version1Text text: String) throws(TrustExceptionsError) {
        let bytes = Array(text.utf8)  // line ends already checked (``init(text:)``)
        guard !bytes.isEmpty else { throw TrustExceptionsError(line: 0, reason: "the text is empty (expected the header \"\(Self.header)\")") }
        guard bytes.last == 0x0A else { throw TrustExceptionsError(line: 0, reason: "the text must end with a line feed") }
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            lines.append(bytes[start..<index])
            start = index + 1
        }
        func string(_ slice: ArraySlice<UInt8>) -> String { String(decoding: slice, as: UTF8.self) }
        guard let first = lines.first, string(first) == Self.headerVersion1 else {
            throw TrustExceptionsError(line: 1, reason: "expected the header \"\(Self.header)\" or \"\(Self.headerVersion1)\" (unknown format or version)")
        }
        guard lines.count >= 2 else { throw TrustExceptionsError(line: 0, reason: "missing checksum line") }
        let checksumLine = lines[lines.count - 1]
        let checksumWords = string(checksumLine).split(separator: " ", omittingEmptySubsequences: false)
        guard checksumWords.count == 2, checksumWords[0] == "checksum", let stated = Self.digest(String(checksumWords[1])) else {
            throw TrustExceptionsError(line: lines.count, reason: "the last line must be \"checksum <sha256 hex>\"")
        }
        let covered = Array(bytes[0..<checksumLine.startIndex])
        guard SHA256Digest(hashing: covered) == stated else {
            throw TrustExceptionsError(line: lines.count, reason: "checksum mismatch: the text was modified or corrupted")
        }
        var entries: [TrustException] = []
        // The entry being read: its leaf digest and the line of its `leaf` line (errors about the
        // entry as a whole name that line).
        var leaf: (digest: SHA256Digest, line: Int)? = nil
        var failures = Set<ExceptedFailure>()
        func close() throws(TrustExceptionsError) {
            guard let current = leaf else { return }
            guard !failures.isEmpty else { throw TrustExceptionsError(line: current.line, reason: "a leaf entry without failures") }
            entries.append(TrustException(leaf: current.digest, failures: failures))
            failures = []
        }
        for index in 1..<(lines.count - 1) {
            let number = index + 1
            let words = string(lines[index]).split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            switch words.first {
            case "leaf":
                guard words.count == 2, let digest = Self.digest(words[1]) else {
                    throw TrustExceptionsError(line: number, reason: "expected \"leaf <sha256 hex>\"")
                }
                try close()
                leaf = (digest, number)
            case "failure":
                guard leaf != nil else { throw TrustExceptionsError(line: number, reason: "a failure before any leaf line") }
                failures.insert(try Self.failure(Array(words.dropFirst()), line: number))
            default:
                throw TrustExceptionsError(line: number, reason: "unknown line")
            }
        }
        try close()
        self.entries = entries
    }

    private static func digest(_ text: String) -> SHA256Digest? {
        guard text.utf8.count == 64, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else { return nil }
        return SHA256Digest(hex: text)
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: ":"),
             UInt8(ascii: "@"), UInt8(ascii: "*"):
            return true
        default:
            return false
        }
    }

    static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if isPlain(byte) { out.unicodeScalars.append(Unicode.Scalar(byte)) } else { out += "%" + Hex.encode([byte]) }
        }
        return out
    }

    static func percentDecode(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                // "%" HEXDIG HEXDIG, nothing else (no sign, as integer parsing would take).
                guard index + 2 < bytes.count, let high = Hex.value(ofDigit: bytes[index + 1]), let low = Hex.value(ofDigit: bytes[index + 2]) else {
                    return nil
                }
                out.append(high << 4 | low)
                index += 3
            } else {
                guard isPlain(byte) else { return nil }
                out.append(byte)
                index += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }
}
