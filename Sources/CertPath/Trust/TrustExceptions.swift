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
/// and exactly the recoverable failures its evaluation showed.
public struct TrustException: Hashable, Sendable {
    /// SHA-256 of the end-entity certificate's DER.
    public let leaf: SHA256Digest
    /// The failures accepted for it.
    public let failures: Set<ExceptedFailure>

    /// Creates an exception.
    public init(leaf: SHA256Digest, failures: Set<ExceptedFailure>) {
        self.leaf = leaf
        self.failures = failures
    }

    /// Whether this exception covers an evaluation of `leaf` that failed with `failures`: the same
    /// certificate, and every failure recoverable and among those recorded.
    public func covers(leaf certificate: Certificate, failures observed: [ValidationFailure]) -> Bool {
        guard SHA256Digest(hashing: certificate.der) == leaf else { return false }
        return covers(observed.map(ExceptedFailure.init))
    }

    /// Whether every failure, in the form an exception records (`nil`: one no exception can
    /// record), is among those accepted; `false` for none.
    func covers(_ observed: [ExceptedFailure?]) -> Bool {
        !observed.isEmpty && observed.allSatisfy { $0.map(failures.contains) ?? false }
    }
}

/// Why a trust-exceptions text could not be read.
public struct TrustExceptionsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based line (0 for the document as a whole).
    public let line: Int
    /// What is wrong.
    public let reason: String

    public var description: String { line > 0 ? "trust exceptions, line \(line): \(reason)" : "trust exceptions: \(reason)" }
}

/// A set of trust exceptions with a stable, versioned text form for applications to store.
///
/// Text form, version 1 (ABNF, RFC 5234; every line ends with LF alone, CRLF is an error; hex is
/// lowercase):
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
/// this type writes: escapes (two lower-case hex digits) for exactly the bytes outside the plain set. The checksum
/// detects corruption and naive edits; it is not a signature: store exceptions where an attacker
/// cannot write, as with any trust setting.
public struct TrustExceptions: Hashable, Sendable {
    /// The header line of version 1.
    public static let header = "certpath-trust-exceptions 1"

    /// The exceptions, in order.
    public var entries: [TrustException]

    /// Creates a set of exceptions.
    public init(_ entries: [TrustException] = []) { self.entries = entries }

    /// Whether some entry covers an evaluation of `leaf` that failed with `failures`.
    public func covers(leaf: Certificate, failures: [ValidationFailure]) -> Bool {
        // The leaf and each failure's certificate are hashed once, not once per entry (10,000
        // entries and a 2 MB leaf took 11.5 s; 10,000 entries for that leaf, 23.7 s).
        let digest = SHA256Digest(hashing: leaf.der)
        var observed: [ExceptedFailure?]? = nil
        return entries.contains { entry in
            guard entry.leaf == digest else { return false }
            let list = observed ?? failures.map(ExceptedFailure.init)
            observed = list
            return entry.covers(list)
        }
    }

    /// The version 1 text form.
    public var text: String {
        var body = Self.header + "\n"
        for entry in entries {
            body += "leaf \(entry.leaf.hex)\n"
            for failure in entry.failures.sorted(by: { ($0.code, $0.certificate, $0.detail ?? "") < ($1.code, $1.certificate, $1.detail ?? "") }) {
                body += "failure \(failure.code) \(failure.certificate.hex)\(failure.detail.map { " " + Self.percentEncode($0) } ?? "")\n"
            }
        }
        return body + "checksum \(SHA256Digest(hashing: Array(body.utf8)).hex)\n"
    }

    /// Reads the text form.
    ///
    /// - Throws: ``TrustExceptionsError`` naming the line: a CR before a line feed (CRLF line ends are
    ///   refused, not converted: the checksum covers the exact bytes), a wrong header or version, an
    ///   unknown line, a digest that is not 64 lowercase hex digits, a fatal or unknown failure code, a
    ///   bad detail (not percent-encoded canonically, or not the canonical text of a reference identifier
    ///   or expected name), a detail on a code that takes none or none on a code that needs one
    ///   (``RecoverableFailure/recordsName``), an entry without failures (the line of its `leaf`
    ///   line), a missing or wrong checksum, text after the checksum.
    public init(text: String) throws(TrustExceptionsError) {
        let bytes = Array(text.utf8)
        var lineNumber = 1
        for index in bytes.indices where bytes[index] == 0x0A {
            if index > 0 && bytes[index - 1] == 0x0D {
                throw TrustExceptionsError(line: lineNumber, reason: "CRLF line ends are not allowed (the format uses LF only)")
            }
            lineNumber += 1
        }
        guard !bytes.isEmpty else { throw TrustExceptionsError(line: 0, reason: "the text is empty (expected the header \"\(Self.header)\")") }
        guard bytes.last == 0x0A else { throw TrustExceptionsError(line: 0, reason: "the text must end with a line feed") }
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            lines.append(bytes[start..<index])
            start = index + 1
        }
        func string(_ slice: ArraySlice<UInt8>) -> String { String(decoding: slice, as: UTF8.self) }
        guard let first = lines.first, string(first) == Self.header else {
            throw TrustExceptionsError(line: 1, reason: "expected the header \"\(Self.header)\" (unknown format or version)")
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
                guard words.count == 3 || words.count == 4 else {
                    throw TrustExceptionsError(line: number, reason: "expected \"failure <code> <sha256 hex> [detail]\"")
                }
                let code = words[1]
                guard ExceptedFailure.recoverableCodes.contains(code) else {
                    throw TrustExceptionsError(line: number, reason: "\(QuotedText.quoted(code)) is not a recoverable failure code (only "
                        + "\(RecoverableFailure.allCases.map(\.rawValue).joined(separator: ", ")) can be excepted; fatal failures never)")
                }
                guard let certificate = Self.digest(words[2]) else {
                    throw TrustExceptionsError(line: number, reason: "the certificate digest must be 64 lowercase hex digits")
                }
                let takesDetail = ExceptedFailure.codesWithDetail.contains(code)
                if words.count == 4 && !takesDetail {
                    throw TrustExceptionsError(line: number, reason: "failure kind \"\(code)\" takes no detail "
                        + "(only \(ExceptedFailure.codesWithDetail.sorted().joined(separator: " and ")) carry one)")
                }
                if words.count == 3 && takesDetail {
                    let what = code == "hostnameMismatch" ? "the reference identifier" : "the expected name"
                    throw TrustExceptionsError(line: number, reason: "failure kind \"\(code)\" needs a detail (\(what))")
                }
                var detail: String? = nil
                if words.count == 4 {
                    guard let decoded = Self.percentDecode(words[3]) else {
                        throw TrustExceptionsError(line: number, reason: "invalid detail \(QuotedText.quoted(words[3]))")
                    }
                    // One text per detail, as written: an escape of a plain character or upper-case
                    // hex is not what this format writes.
                    guard Self.percentEncode(decoded) == words[3] else {
                        throw TrustExceptionsError(line: number, reason: "detail \(QuotedText.quoted(words[3])) is not canonically encoded "
                            + "(expected \(QuotedText.quoted(Self.percentEncode(decoded))))")
                    }
                    // The detail is the name as an observed failure records it (its canonical text), or
                    // the record could never equal one and the exception would silently never apply.
                    guard let canonical = ExceptedFailure.canonicalName(decoded, code: code), canonical == decoded else {
                        let what = code == "hostnameMismatch" ? "reference identifier" : "expected name"
                        let expected = ExceptedFailure.canonicalName(decoded, code: code).map { " (expected \(QuotedText.quoted(Self.percentEncode($0))))" }
                        throw TrustExceptionsError(line: number, reason: "detail \(QuotedText.quoted(words[3])) is not a canonical \(what)"
                            + (expected ?? ": it could never match a failure"))
                    }
                    detail = decoded
                }
                guard let failure = ExceptedFailure(code: code, certificate: certificate, detail: detail) else {
                    throw TrustExceptionsError(line: number, reason: "failure \(QuotedText.quoted(code)) cannot be excepted")  // not reached: checked above
                }
                failures.insert(failure)
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
