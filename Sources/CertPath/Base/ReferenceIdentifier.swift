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
