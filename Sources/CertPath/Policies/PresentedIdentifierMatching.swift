/// Matching of presented identifiers — the raw contents of subjectAltName GeneralNames
/// (RFC 5280 4.2.1.6) — against reference identifiers (RFC 6125 section 6, as revised by RFC 9525).
///
/// The functions take the GeneralName's contents octets as a slice of the certificate buffer
/// (the IA5String bytes of a `dNSName` or `rfc822Name`, the OCTET STRING bytes of an `iPAddress`)
/// and neither allocate nor throw: a presented identifier that is malformed simply never matches.
/// This keeps one bad SAN entry from failing a certificate whose other entries are fine; whether
/// a malformed SAN should fail the certificate outright is the certificate parser's decision.
///
/// Rules, with the choices this implementation makes where the RFCs leave room:
/// - **DNS-ID** (RFC 6125 6.4.1): ASCII letters compared case-insensitively, everything else
///   octet for octet; A-labels are compared as ASCII (RFC 6125 6.4.2), so `XN--BCHER-KVA.test`
///   matches `xn--bcher-kva.test`.
/// - **Trailing dot**: one trailing dot on the presented name is ignored, so the absolute name
///   `example.test.` matches `example.test` (the reference's dot is removed by ``DNSName``). Both
///   forms name the same host; Go and browsers treat them alike. Two trailing dots never match.
/// - **Syntax of presented names** (CA/Browser Forum BR 7.1.2.7.12, RFC 1034 3.5): letters,
///   digits and hyphens in labels of 1–63 octets not starting or ending with a hyphen, at most 253
///   octets. A presented name with an underscore, an empty label, a NUL or other control
///   character, any other punctuation, or a non-ASCII octet never matches.
/// - **Wildcards** (RFC 6125 6.4.3, RFC 9525, BR 3.2.2.6): `*` only as the whole left-most
///   label; it stands for exactly one non-empty label of the reference. Partial-label wildcards
///   (`f*.example.test`, `*oo.example.test`, `xn--*.example.test`), wildcards in other positions,
///   and `**` never match. The wildcard must be followed by at least two labels (`*.test` and `*`
///   never match). The label the wildcard covers may be an A-label: `*.example.test` matches
///   `xn--bcher-kva.example.test`, as in Go and rustls-webpki — RFC 6125 6.4.3 only forbids
///   wildcards *within* an A-label, which is the partial-label rule above.
/// - **Public suffixes**: when ``Options/publicSuffixList`` is set, a wildcard whose remainder is a
///   public suffix (`*.com`, `*.co.uk`, and with the list's PRIVATE section `*.s3.amazonaws.com`)
///   never matches. CertPath ships no list; without one this check is off.
/// - **IP-ID** (RFC 9525; RFC 5280 4.2.1.6): octet equality of 4 or 16 octets, never a
///   wildcard, never against a dNSName.
@_spi(Fuzzing) public enum PresentedIdentifierMatching {
    /// Options for DNS-ID matching.
    public struct Options: Sendable {
        /// The Public Suffix List used to refuse wildcards that would cover a whole registry
        /// (`*.co.uk`); `nil` (the default) turns that check off.
        ///
        /// CertPath ships no list: load Mozilla's `public_suffix_list.dat` yourself (the Debian
        /// package `publicsuffix` installs it at `/usr/share/publicsuffix/public_suffix_list.dat`)
        /// and pass it to ``PublicSuffixList/init(text:sections:)``.
        public var publicSuffixList: PublicSuffixList?

        /// Creates options.
        ///
        /// - Parameter publicSuffixList: see ``publicSuffixList``; `nil` disables the check.
        public init(publicSuffixList: PublicSuffixList? = nil) {
            self.publicSuffixList = publicSuffixList
        }

        /// No public-suffix check.
        public static let `default` = Options()
    }

    // MARK: DNS-ID

    /// Whether a subjectAltName `dNSName` matches a DNS-ID reference identifier (RFC 6125 6.4).
    ///
    /// - Parameters:
    ///   - presentedDNSName: the IA5String contents octets of the `dNSName`, unmodified: a name or
    ///     a wildcard pattern `*.example.test`, optionally with one trailing dot.
    ///   - reference: the host name the client expected.
    ///   - options: see ``Options``.
    /// - Returns: `true` when the presented name is syntactically valid and equals the reference
    ///   ignoring ASCII case and one trailing dot, or is a valid wildcard covering exactly the
    ///   reference's left-most label (see the type's documentation for every rule).
    public static func matches(
        presentedDNSName: ArraySlice<UInt8>, reference: DNSName, options: Options = .default
    ) -> Bool {
        var presented = presentedDNSName
        // dropLast, not removeLast: mutating a shared slice would copy the certificate buffer.
        if presented.last == DNSNameSyntax.dot { presented = presented.dropLast() }
        let referenceBytes = reference.bytes
        if presented.first != DNSNameSyntax.star {
            // No syntax check needed: a name equal to the (valid) reference but for the case of
            // its letters is valid, and any other name does not match.
            return equalIgnoringASCIICase(presented, referenceBytes[...])
        }
        guard DNSNameSyntax.check(presented, allowWildcard: true) == nil else { return false }
        // "*." + remainder; the syntax check guarantees the "." after a leading "*" when more follows.
        guard presented.count >= 2 else { return false }  // "*" alone
        let remainder = presented.dropFirst(2)
        // At least two labels after the wildcard (RFC 9525 and the BR: no "*.tld").
        guard remainder.contains(DNSNameSyntax.dot) else { return false }
        // The reference must be exactly "<one label>." + remainder.
        guard referenceBytes.count > remainder.count + 1 else { return false }
        let labelEnd = referenceBytes.count - remainder.count - 1
        guard referenceBytes[labelEnd] == DNSNameSyntax.dot,
            !referenceBytes[..<labelEnd].contains(DNSNameSyntax.dot),
            equalIgnoringASCIICase(remainder, referenceBytes[(labelEnd + 1)...])
        else { return false }
        if let list = options.publicSuffixList, list.isPublicSuffix(dottedName: remainder) {
            return false
        }
        return true
    }

    /// Whether a subjectAltName `dNSName` matches a reference identifier: the DNS-ID rules of
    /// `matches(presentedDNSName:reference:options:)` taking a ``DNSName`` for a DNS-ID, and `false` for
    /// an IP-ID (an address is never vouched for by a dNSName, even one spelling it: RFC 9525,
    /// BR 7.1.2.7.12).
    public static func matches(
        presentedDNSName: ArraySlice<UInt8>, reference: ReferenceIdentifier, options: Options = .default
    ) -> Bool {
        guard case .dnsName(let name) = reference else { return false }
        return matches(presentedDNSName: presentedDNSName, reference: name, options: options)
    }

    // MARK: IP-ID

    /// Whether a subjectAltName `iPAddress` matches an IP-ID reference identifier
    /// (RFC 9525; RFC 5280 4.2.1.6).
    ///
    /// - Parameters:
    ///   - presentedIPAddress: the OCTET STRING contents of the `iPAddress`: 4 or 16 octets.
    ///   - reference: the address the client expected.
    /// - Returns: `true` only when the octets are identical. There is no cross-family matching:
    ///   an IPv4 reference `192.0.2.1` does not match an IPv4-mapped IPv6 SAN `::ffff:192.0.2.1`
    ///   (16 octets), nor the reverse — the certificate must list the address in the family the
    ///   client connects with, as Go, rustls-webpki and BoringSSL also require. Any other length
    ///   (such as an 8- or 32-octet name-constraint form) never matches.
    public static func matches(presentedIPAddress: ArraySlice<UInt8>, reference: IPAddress) -> Bool {
        let expected = reference.bytes
        guard presentedIPAddress.count == expected.count else { return false }
        var index = presentedIPAddress.startIndex
        for byte in expected {
            guard presentedIPAddress[index] == byte else { return false }
            index += 1
        }
        return true
    }

    /// Whether a subjectAltName `iPAddress` matches a reference identifier: the octet equality of
    /// `matches(presentedIPAddress:reference:)` taking an ``IPAddress`` for an IP-ID, and `false` for a
    /// DNS-ID (RFC 9525).
    public static func matches(presentedIPAddress: ArraySlice<UInt8>, reference: ReferenceIdentifier) -> Bool {
        guard case .ipAddress(let address) = reference else { return false }
        return matches(presentedIPAddress: presentedIPAddress, reference: address)
    }

    // MARK: Email

    /// Whether a subjectAltName `rfc822Name` matches an email reference identifier
    /// (RFC 5280 4.2.1.6, 7.5; RFC 8550 3).
    ///
    /// - Parameters:
    ///   - presentedRFC822Name: the IA5String contents octets of the `rfc822Name`.
    ///   - reference: the address the caller expected.
    /// - Returns: `true` when the presented value is a well-formed mailbox (a Dot-string local
    ///   part of 1–64 octets, one `@`, and a valid host name with no trailing dot and no wildcard;
    ///   see ``RFC822Name``) whose local part equals the reference's octet for octet
    ///   (case-sensitive) and whose domain equals the reference's ignoring ASCII case. A malformed
    ///   presented value (quoted local part, address literal, non-ASCII, NUL, two `@`) never matches.
    public static func matches(presentedRFC822Name: ArraySlice<UInt8>, reference: RFC822Name) -> Bool {
        guard let at = presentedRFC822Name.firstIndex(of: UInt8(ascii: "@")) else { return false }
        let local = presentedRFC822Name[..<at]
        let domain = presentedRFC822Name[(at + 1)...]
        guard RFC822Syntax.checkLocalPart(local) == nil,
            DNSNameSyntax.check(domain, allowWildcard: false) == nil  // also refuses a second "@"
        else { return false }
        guard local.elementsEqual(reference.localPart) else { return false }
        return equalIgnoringASCIICase(domain, reference.domain.bytes[...])
    }

    /// Whether a subjectAltName SmtpUTF8Mailbox otherName matches an email reference identifier
    /// (RFC 9598 5; RFC 8550 3 for S/MIME).
    ///
    /// - Parameters:
    ///   - presentedSmtpUTF8Mailbox: the complete encoding of the otherName's value (the UTF8String).
    ///   - reference: the address the caller expected.
    /// - Returns: `true` when the value is a well-formed SmtpUTF8Mailbox (RFC 9598 3: a UTF8String, a
    ///   Local-part with a non-ASCII character, an ASCII domain) whose Local-part equals the
    ///   reference's octet for octet and whose domain equals the reference's ignoring ASCII case
    ///   (RFC 9598 5: the domain is compared in A-label form, case-insensitively; the Local-part is
    ///   not transformed). An all-ASCII reference never matches one: such an address belongs in an
    ///   rfc822Name.
    public static func matches(presentedSmtpUTF8Mailbox: ArraySlice<UInt8>, reference: RFC822Name) -> Bool {
        guard let (local, domain) = NameConstraintSyntax.splitSmtpUTF8Mailbox(presentedSmtpUTF8Mailbox) else { return false }
        guard local.elementsEqual(reference.localPart) else { return false }
        return equalIgnoringASCIICase(domain, reference.domain.bytes[...])
    }

    // MARK: Helpers

    /// ASCII case-insensitive equality; `reference` is already lowercase.
    @inline(__always)
    static func equalIgnoringASCIICase(_ presented: ArraySlice<UInt8>, _ reference: ArraySlice<UInt8>) -> Bool {
        guard presented.count == reference.count else { return false }
        var other = reference.startIndex
        for byte in presented {
            guard DNSNameSyntax.lowercased(byte) == reference[other] else { return false }
            other += 1
        }
        return true
    }
}
