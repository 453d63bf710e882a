/// The identity a client expects its peer to prove: an RFC 6125 *reference identifier*
/// (RFC 6125 1.8 and 6.2.1; RFC 9525), which the validator compares with the *presented
/// identifiers* of the certificate's subjectAltName (RFC 5280 4.2.1.6).
///
/// Only the two identifier types of the Web PKI are modelled: a DNS-ID (a host name) and an IP-ID
/// (an IPv4 or IPv6 address). An IP-ID is matched only against `iPAddress` SAN entries and a
/// DNS-ID only against `dNSName` entries (RFC 9525, CA/Browser Forum Baseline Requirements
/// 7.1.2.7.12): a certificate listing the *text* `192.0.2.1` as a dNSName does not vouch for the
/// address 192.0.2.1.
public enum ReferenceIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// A DNS-ID: a validated host name in lowercase A-label form.
    case dnsName(DNSName)
    /// An IP-ID: an IPv4 (4 octets) or IPv6 (16 octets) address.
    case ipAddress(IPAddress)

    /// Reads a reference identifier from the text a client was asked to connect to
    /// (a URL host without brackets or port, a command-line argument, an SNI name).
    ///
    /// Text that parses as an IP address (strict IPv4 dotted quad, or any RFC 4291 IPv6 form; see
    /// ``IPAddress/init(_:)``) is an IP-ID; everything else must be a valid DNS-ID (see
    /// ``DNSName/init(_:)``).
    ///
    /// - Throws: ``ReferenceIdentifierError`` naming why the text is neither: for example
    ///   `.invalidIPv4Address` for `010.0.0.1`, `.invalidIPv6Address` for `fe80::1%eth0`,
    ///   `.internationalizedNameNeedsALabel` for `bücher.example`.
    public init(_ text: String) throws(ReferenceIdentifierError) {
        if let address = IPAddress(text) {
            self = .ipAddress(address)
        } else {
            self = .dnsName(try DNSName(text))
        }
    }

    /// The identifier's canonical text: the lowercase DNS name, or the address as
    /// ``IPAddress/description`` writes it.
    public var description: String {
        switch self {
        case .dnsName(let name): return name.description
        case .ipAddress(let address): return address.description
        }
    }
}

/// A DNS-ID reference identifier (RFC 6125 6.2.1): a fully qualified host name in the
/// "preferred name syntax" (RFC 1034 3.5, RFC 1123 2.1), held as lowercase ASCII with a single
/// trailing dot removed.
///
/// Accepted: 1 to 127 labels of 1–63 octets each made of letters, digits and hyphens, no label
/// starting or ending with a hyphen, at most 253 octets in all (not counting the one trailing dot
/// allowed on input). Letters are lowercased, so `WWW.Example.TEST.` is stored as
/// `www.example.test`. A-labels (`xn--…`, RFC 5890 2.3.2.1) are accepted as they are and compared
/// as ASCII; their Punycode is not checked.
///
/// Refused, each with its own ``ReferenceIdentifierError``: empty text, underscores (not valid in a
/// host name; CA/Browser Forum BR 7.1.2.7.12 forbids them in dNSName), empty labels (`a..b`,
/// `.a`), `*` (a reference names one host, RFC 6125 6.2.1), control characters including NUL,
/// other ASCII punctuation, text that is an IP address (use ``ReferenceIdentifier`` or
/// ``IPAddress``), text with a colon (a malformed IPv6 address or a `host:port`), and text whose
/// last label is all digits or `0x` hex (a malformed IPv4 address such as `1.2.3` or `0x7f.1`;
/// no top-level domain is numeric, RFC 3696 2).
///
/// **Internationalized names.** CertPath does not implement IDNA (RFC 5891 / UTS 46): it has no
/// Unicode mapping, normalization or Punycode encoder for host names. A name with any non-ASCII
/// character (a U-label such as `bücher.example`) is refused with
/// ``ReferenceIdentifierError/internationalizedNameNeedsALabel``; the caller must convert it to
/// A-labels (`xn--bcher-kva.example`) with an IDNA library first. Certificates carry only A-labels
/// (RFC 5280 7.2), so nothing is lost by comparing in that form.
public struct DNSName: Hashable, Sendable, CustomStringConvertible {
    /// The name as lowercase ASCII octets, without a trailing dot: `www.example.test`.
    public let bytes: [UInt8]

    /// Validates and normalizes a host name (see the type's documentation for the rules).
    ///
    /// - Parameter text: the host name, in A-label form, optionally with one trailing dot.
    /// - Throws: ``ReferenceIdentifierError``: `.empty`, `.internationalizedNameNeedsALabel`,
    ///   `.isIPAddress`, `.invalidIPv6Address`, `.nameTooLong`, `.emptyLabel`, `.labelTooLong`,
    ///   `.hyphenAtLabelEdge`, `.underscore`, `.wildcard`, `.controlCharacter`,
    ///   `.invalidCharacter` or `.invalidIPv4Address`. Offsets count UTF-8 bytes of `text`.
    public init(_ text: String) throws(ReferenceIdentifierError) {
        var input = Array(text.utf8)
        guard !input.isEmpty else { throw .empty }
        if input.contains(where: { $0 >= 0x80 }) { throw .internationalizedNameNeedsALabel }
        if IPAddress(text) != nil { throw .isIPAddress }
        if input.contains(UInt8(ascii: ":")) { throw .invalidIPv6Address }
        if input.last == UInt8(ascii: ".") { input.removeLast() }
        guard !input.isEmpty else { throw .empty }
        if let error = DNSNameSyntax.check(input[...], allowWildcard: false) { throw error }
        if DNSNameSyntax.lastLabelIsNumeric(input[...]) { throw .invalidIPv4Address }
        for index in input.indices { input[index] = DNSNameSyntax.lowercased(input[index]) }
        self.bytes = input
    }

    /// The number of labels: 3 for `www.example.test`.
    public var labelCount: Int {
        bytes.reduce(1) { $1 == UInt8(ascii: ".") ? $0 + 1 : $0 }
    }

    /// The lowercase name without a trailing dot.
    public var description: String { String(decoding: bytes, as: UTF8.self) }
}

/// An email address reference identifier for matching subjectAltName `rfc822Name` entries
/// (RFC 5280 4.2.1.6: a Mailbox of RFC 5321 4.1.2), used to check a client certificate
/// (RFC 8550 3 for S/MIME) against the address the caller expects.
///
/// Accepted: `local-part@domain` where the local part is an RFC 5321 *Dot-string* of 1–64 octets
/// (RFC 5322 3.2.3 `atext` atoms separated by single dots) and the domain is a valid ``DNSName``
/// without a trailing dot. Refused (documented limits, not oversights): quoted local parts
/// (`"a b"@example.test`), address literals (`user@[192.0.2.1]`), and non-ASCII addresses
/// (RFC 6531 SMTPUTF8; those appear in certificates as `SmtpUTF8Mailbox` otherNames, RFC 9598).
///
/// The local part is kept exactly as given and compared case-sensitively (RFC 5321 2.4 leaves its
/// interpretation to the destination host); the domain is lowercased.
public struct RFC822Name: Hashable, Sendable, CustomStringConvertible {
    /// The local part, octet for octet as given: `Alice.Smith` of `Alice.Smith@Example.TEST`.
    public let localPart: [UInt8]
    /// The domain, lowercased: `example.test`.
    public let domain: DNSName

    /// Validates an email address (see the type's documentation for the rules).
    ///
    /// - Throws: ``ReferenceIdentifierError``: `.empty`, `.internationalizedNameNeedsALabel`,
    ///   `.missingAtSign` (no `@`, or more than one), `.invalidLocalPart(offset:)`,
    ///   `.localPartTooLong(length:)`, or any error of ``DNSName/init(_:)`` for the domain (with an
    ///   empty last label reported for a trailing dot). Offsets count UTF-8 bytes of `text`.
    public init(_ text: String) throws(ReferenceIdentifierError) {
        let input = Array(text.utf8)
        guard !input.isEmpty else { throw .empty }
        if input.contains(where: { $0 >= 0x80 }) { throw .internationalizedNameNeedsALabel }
        guard let at = input.firstIndex(of: UInt8(ascii: "@")),
            input.lastIndex(of: UInt8(ascii: "@")) == at
        else { throw .missingAtSign }
        if let error = RFC822Syntax.checkLocalPart(input[..<at]) { throw error }
        let domainBytes = input[(at + 1)...]
        if domainBytes.last == UInt8(ascii: ".") { throw .emptyLabel(offset: input.count) }
        let domainText = String(decoding: domainBytes, as: UTF8.self)
        do {
            self.domain = try DNSName(domainText)
        } catch {
            throw error.shifted(by: at + 1)
        }
        self.localPart = Array(input[..<at])
    }

    /// Validates an S/MIME mailbox: an ASCII address as ``init(_:)`` reads it, or an internationalized
    /// one (RFC 6531) whose local part holds non-ASCII characters, the form a certificate carries as
    /// an SmtpUTF8Mailbox otherName (RFC 9598 3): a Dot-string of `atext` and UTF-8 non-ASCII
    /// characters, 1–64 octets, and an ASCII domain (A-labels: RFC 9598 3 forbids U-labels there).
    /// Used for ``ValidationPurpose/emailProtection(mailbox:use:)``.
    ///
    /// - Throws: ``ReferenceIdentifierError`` as ``init(_:)``; a non-ASCII domain is
    ///   `.internationalizedNameNeedsALabel`, a bad internationalized local part `.invalidLocalPart(offset:)`
    ///   (offset 0) or `.localPartTooLong(length:)`.
    public init(mailbox text: String) throws(ReferenceIdentifierError) {
        let input = Array(text.utf8)
        guard let at = input.firstIndex(of: UInt8(ascii: "@")), input[..<at].contains(where: { $0 >= 0x80 }) else {
            try self.init(text)
            return
        }
        guard input.lastIndex(of: UInt8(ascii: "@")) == at else { throw .missingAtSign }
        let domainBytes = input[(at + 1)...]
        if domainBytes.contains(where: { $0 >= 0x80 }) { throw .internationalizedNameNeedsALabel }
        if at > 64 { throw .localPartTooLong(length: at) }
        // The local part's syntax is the one RFC 9598 3 gives the certificate's value: checked by
        // the same reader, on the text as a UTF8String (tag 12, the length in one or two octets).
        let local = Array(input[..<at])
        let mailbox = local + [UInt8(ascii: "@")] + Array(domainBytes.lowercasedASCII)
        let header: [UInt8] = mailbox.count < 0x80 ? [0x0C, UInt8(mailbox.count)] : [0x0C, 0x81, UInt8(mailbox.count)]
        guard mailbox.count <= 255, NameConstraintSyntax.splitSmtpUTF8Mailbox((header + mailbox)[...]) != nil else {
            if domainBytes.last == UInt8(ascii: ".") { throw .emptyLabel(offset: input.count) }
            do throws(ReferenceIdentifierError) { _ = try DNSName(String(decoding: domainBytes, as: UTF8.self)) } catch {
                throw error.shifted(by: at + 1)
            }
            throw .invalidLocalPart(offset: 0)
        }
        let domain: DNSName
        do throws(ReferenceIdentifierError) {
            domain = try DNSName(String(decoding: domainBytes, as: UTF8.self))
        } catch {
            throw error.shifted(by: at + 1)
        }
        self.init(checkedLocalPart: local, domain: domain)
    }

    /// A mailbox whose parts were validated.
    private init(checkedLocalPart: [UInt8], domain: DNSName) {
        self.localPart = checkedLocalPart
        self.domain = domain
    }

    /// Whether the local part holds non-ASCII characters: such a mailbox is presented as an
    /// SmtpUTF8Mailbox otherName, never as an rfc822Name (RFC 9598 3).
    public var isInternationalized: Bool { localPart.contains(where: { $0 >= 0x80 }) }

    /// `local-part@domain`, with the domain lowercased.
    public var description: String {
        String(decoding: localPart, as: UTF8.self) + "@" + domain.description
    }
}

extension ArraySlice<UInt8> {
    /// The bytes with ASCII letters lowercased.
    fileprivate var lowercasedASCII: [UInt8] {
        map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }
}

/// Why text is not a valid reference identifier (RFC 6125 6.2, RFC 1034 3.5, RFC 1123 2.1,
/// RFC 5321 4.1.2). Offsets count UTF-8 bytes from the start of the text given.
public enum ReferenceIdentifierError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is empty (or is only `.`).
    case empty
    /// The name is longer than 253 octets without its trailing dot (RFC 1035 2.3.4).
    case nameTooLong(length: Int)
    /// A label is empty: two dots in a row, a leading dot, or more than one trailing dot.
    /// `offset` is where the empty label starts.
    case emptyLabel(offset: Int)
    /// The label starting at `offset` is longer than 63 octets (RFC 1035 2.3.4).
    case labelTooLong(offset: Int)
    /// The hyphen at `offset` begins or ends a label (RFC 1034 3.5, RFC 5891 4.2.3.1).
    case hyphenAtLabelEdge(offset: Int)
    /// An underscore at `offset`: not allowed in a host name (RFC 1123 2.1; BR 7.1.2.7.12).
    case underscore(offset: Int)
    /// A `*` at `offset`: a reference identifier names one host, never a pattern (RFC 6125 6.2.1).
    case wildcard(offset: Int)
    /// A control character (0x00–0x1F or 0x7F; NUL included) at `offset`.
    case controlCharacter(offset: Int)
    /// An ASCII character at `offset` that has no place in a host name (space, `/`, `[`, `%`, …).
    case invalidCharacter(offset: Int)
    /// The text has non-ASCII characters (a U-label). CertPath does not implement IDNA: convert
    /// the name to A-labels (`xn--…`, RFC 5891) before calling.
    case internationalizedNameNeedsALabel
    /// The text is a valid IP address where a DNS name was required.
    case isIPAddress
    /// The text's last label is all digits or `0x` hex, so it was meant as an IPv4 address, but it
    /// is not a strict dotted quad (`1.2.3`, `010.0.0.1`, `0x7f.0.0.1`, `1.2.3.4.5`).
    case invalidIPv4Address
    /// The text contains a colon but is not a valid IPv6 address (zone id, brackets, port,
    /// a second `::`, a group of more than 4 digits, a wrong number of groups).
    case invalidIPv6Address
    /// An email address without exactly one `@`.
    case missingAtSign
    /// The email local part is not an RFC 5321 Dot-string: the byte at `offset` is not `atext`,
    /// or is a dot at the start, at the end or after another dot, or the local part is empty.
    case invalidLocalPart(offset: Int)
    /// The email local part is longer than 64 octets (RFC 5321 4.5.3.1.1).
    case localPartTooLong(length: Int)

    /// A sentence saying what is wrong.
    public var description: String {
        switch self {
        case .empty:
            return "the name is empty"
        case .nameTooLong(let length):
            return "the name is \(length) octets long; a DNS name has at most 253"
        case .emptyLabel(let offset):
            return "empty label at byte \(offset) (two dots in a row, or a leading or extra trailing dot)"
        case .labelTooLong(let offset):
            return "the label at byte \(offset) is longer than 63 octets"
        case .hyphenAtLabelEdge(let offset):
            return "the hyphen at byte \(offset) starts or ends a label"
        case .underscore(let offset):
            return "underscore at byte \(offset): host names allow only letters, digits and hyphens"
        case .wildcard(let offset):
            return "'*' at byte \(offset): a reference identifier names one host, not a pattern"
        case .controlCharacter(let offset):
            return "control character at byte \(offset)"
        case .invalidCharacter(let offset):
            return "byte \(offset) is not a letter, digit, hyphen or dot"
        case .internationalizedNameNeedsALabel:
            return "the name has non-ASCII characters; convert it to A-labels (xn--...) with IDNA first"
        case .isIPAddress:
            return "the text is an IP address, not a DNS name"
        case .invalidIPv4Address:
            return "the last label is numeric, so this is meant as an IPv4 address, but it is not a strict dotted quad"
        case .invalidIPv6Address:
            return "the text contains ':' but is not a valid IPv6 address (no brackets, zone ids or ports)"
        case .missingAtSign:
            return "an email address needs exactly one '@'"
        case .invalidLocalPart(let offset):
            return "the email local part is not a valid dot-string at byte \(offset)"
        case .localPartTooLong(let length):
            return "the email local part is \(length) octets long; at most 64 are allowed"
        }
    }

    /// The same error with its offset moved by `delta` (for a name checked inside larger text).
    func shifted(by delta: Int) -> ReferenceIdentifierError {
        switch self {
        case .emptyLabel(let offset): return .emptyLabel(offset: offset + delta)
        case .labelTooLong(let offset): return .labelTooLong(offset: offset + delta)
        case .hyphenAtLabelEdge(let offset): return .hyphenAtLabelEdge(offset: offset + delta)
        case .underscore(let offset): return .underscore(offset: offset + delta)
        case .wildcard(let offset): return .wildcard(offset: offset + delta)
        case .controlCharacter(let offset): return .controlCharacter(offset: offset + delta)
        case .invalidCharacter(let offset): return .invalidCharacter(offset: offset + delta)
        case .invalidLocalPart(let offset): return .invalidLocalPart(offset: offset + delta)
        default: return self
        }
    }
}

/// Host-name syntax shared by reference and presented identifiers; allocation-free.
enum DNSNameSyntax {
    static let dot = UInt8(ascii: ".")
    static let hyphen = UInt8(ascii: "-")
    static let star = UInt8(ascii: "*")

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    @inline(__always)
    static func isLetterOrDigit(_ byte: UInt8) -> Bool { HostNameCharacters.isLetterOrDigit(byte) }

    /// Checks `name` (no trailing dot expected: one would be an empty last label) against the
    /// preferred name syntax. With `allowWildcard`, a left-most label that is exactly `*` is
    /// accepted. Returns the first violation, with offsets relative to `name.startIndex`.
    static func check(_ name: ArraySlice<UInt8>, allowWildcard: Bool) -> ReferenceIdentifierError? {
        name.withUnsafeBufferPointer { check($0, allowWildcard: allowWildcard) }
    }

    /// ``check(_:allowWildcard:)`` over the bytes in place (no bounds-checked slice access per byte).
    private static func check(_ name: UnsafeBufferPointer<UInt8>, allowWildcard: Bool) -> ReferenceIdentifierError? {
        if name.isEmpty { return .empty }
        if name.count > 253 { return .nameTooLong(length: name.count) }
        var labelStart = 0
        var index = 0
        while index < name.count {
            let byte = name[index]
            if byte == dot {
                if index == labelStart { return .emptyLabel(offset: labelStart) }
                if name[index - 1] == hyphen { return .hyphenAtLabelEdge(offset: index - 1) }
                labelStart = index + 1
            } else if isLetterOrDigit(byte) {
                // fine
            } else if byte == hyphen {
                if index == labelStart { return .hyphenAtLabelEdge(offset: index) }
            } else if byte >= 0x80 {
                return .internationalizedNameNeedsALabel
            } else if byte < 0x20 || byte == 0x7F {
                return .controlCharacter(offset: index)
            } else if byte == UInt8(ascii: "_") {
                return .underscore(offset: index)
            } else if byte == star {
                let wholeLeftMostLabel = index == 0 && (index + 1 == name.count || name[index + 1] == dot)
                if !(allowWildcard && wholeLeftMostLabel) { return .wildcard(offset: index) }
            } else {
                return .invalidCharacter(offset: index)
            }
            if index - labelStart >= 63 { return .labelTooLong(offset: labelStart) }
            index += 1
        }
        if labelStart == name.count { return .emptyLabel(offset: labelStart) }
        if name[name.count - 1] == hyphen { return .hyphenAtLabelEdge(offset: name.count - 1) }
        return nil
    }

    /// Whether the last label is all decimal digits, or `0x`/`0X` followed by hex digits: the
    /// labels a URL parser (WHATWG "ends in a number") would read as an IPv4 address.
    static func lastLabelIsNumeric(_ name: ArraySlice<UInt8>) -> Bool {
        let start = (name.lastIndex(of: dot).map { $0 + 1 }) ?? name.startIndex
        let label = name[start...]
        guard !label.isEmpty else { return false }
        if label.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return true }
        guard label.count >= 2, label[start] == UInt8(ascii: "0"), label[start + 1] | 0x20 == UInt8(ascii: "x")
        else { return false }
        return label.dropFirst(2).allSatisfy { byte in
            let lower = byte | 0x20
            return (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f"))
        }
    }
}

/// RFC 5321 4.1.2 Dot-string local parts; allocation-free.
enum RFC822Syntax {
    /// The first violation of the Dot-string rules in `local`, offsets relative to its start.
    static func checkLocalPart(_ local: ArraySlice<UInt8>) -> ReferenceIdentifierError? {
        if let offset = HostNameCharacters.firstDotStringViolation(local) { return .invalidLocalPart(offset: offset) }
        if local.count > 64 { return .localPartTooLong(length: local.count) }
        return nil
    }
}
