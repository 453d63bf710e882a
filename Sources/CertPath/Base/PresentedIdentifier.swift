/// A presented identifier (RFC 6125 1.8): a name a certificate presents, with its type, as a name
/// mismatch reports it (``ValidationFailure/hostnameMismatch(_:reference:presented:)``,
/// ``ValidationFailure/nameMismatch(_:expected:presented:)``).
///
/// The type is part of the evidence: a `dNSName` holding the text of an IP address is not an IP
/// address and never matches one (RFC 9525 6.2), and a subject commonName is listed only for a
/// certificate without a subjectAltName, where it is never matched unless the policy opts into the
/// legacy fallback (``ValidationPolicy/allowCommonNameFallback``, RFC 6125 6.4.4).
public enum PresentedIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// A subjectAltName `dNSName` (RFC 5280 4.2.1.6), as its IA5String text, unvalidated: it may be a
    /// wildcard (`*.example.test`) or a name that could never match.
    case dnsName(String)
    /// A subjectAltName `iPAddress` of 4 or 16 octets.
    case ipAddress(IPAddress)
    /// A subjectAltName `rfc822Name` (a mailbox), as its IA5String text.
    case email(String)
    /// A subjectAltName SmtpUTF8Mailbox otherName (an internationalized mailbox, RFC 9598 3), as its
    /// UTF8String text.
    case smtpUTF8Mailbox(String)
    /// A subject commonName (RFC 5280 4.1.2.6), listed only when the certificate has no subjectAltName.
    case commonName(String)

    /// The presented identifier a subjectAltName entry is: a `dNSName`, an `iPAddress`, an
    /// `rfc822Name` or an SmtpUTF8Mailbox otherName whose value is a UTF8String; `nil` for the other
    /// name forms (not identifiers a peer is matched by) and for an `iPAddress` whose length is
    /// neither 4 nor 16 octets.
    public init?(_ name: GeneralName) {
        switch name {
        case .dNSName(let bytes): self = .dnsName(String(decoding: bytes, as: UTF8.self))
        case .rfc822Name(let bytes): self = .email(String(decoding: bytes, as: UTF8.self))
        case .iPAddress(let bytes):
            guard let address = IPAddress(bytes: bytes) else { return nil }
            self = .ipAddress(address)
        case .otherName(let type, let value):
            guard type == KnownOID.smtpUTF8Mailbox, let text = GeneralName.utf8StringText(value) else { return nil }
            self = .smtpUTF8Mailbox(text)
        default: return nil
        }
    }

    /// The presented identifiers of `certificate`: its subjectAltName `dNSName`, `iPAddress` and
    /// `rfc822Name` entries (and SmtpUTF8Mailbox otherNames) in certificate order, or each subject commonName when it has no
    /// subjectAltName (``init(_:)`` says which entries are left out).
    public static func of(_ certificate: Certificate) -> [PresentedIdentifier] {
        guard let names = certificate.subjectAlternativeNames else {
            return certificate.subject.values(of: KnownOID.commonName).map(PresentedIdentifier.commonName)
        }
        return names.compactMap(PresentedIdentifier.init)
    }

    /// The identifier with its type as OpenSSL prints subjectAltNames: `DNS:name`, `IP:address`
    /// (IPv6 in RFC 5952 form), `email:mailbox`, `othername:SmtpUTF8Mailbox:mailbox`, or `CN=name`.
    public var description: String {
        switch self {
        case .dnsName(let name): return "DNS:" + name
        case .ipAddress(let address): return "IP:\(address)"
        case .email(let mailbox): return "email:" + mailbox
        case .smtpUTF8Mailbox(let mailbox): return "othername:SmtpUTF8Mailbox:" + mailbox
        case .commonName(let name): return "CN=" + name
        }
    }
}
