// Where a certificate says its issuer, its OCSP responder and its CRLs are (RFC 5280 4.2.2.1,
// 4.2.1.13): the URIs CertPath may fetch.

/// A URI a certificate names, sorted into what CertPath fetches and what it does not.
enum AccessLocation: Hashable {
    /// An `http://` URL (scheme case-insensitive), printable ASCII without spaces.
    case http(String)
    /// Anything else (https:, ldap:, file:, a malformed URI): recorded, never fetched. AIA and CRL
    /// locations are plain HTTP by convention (RFC 5280 4.2.2.1 and 4.2.1.13 name HTTP and LDAP; the
    /// CA/Browser Forum Baseline Requirements 7.1.2 require http URLs), and what they serve is signed.
    case other(String)

    /// The most URIs of one kind considered per certificate: a certificate may list thousands.
    static let perCertificateLimit = 4

    /// The location a uniformResourceIdentifier names.
    init(_ bytes: ArraySlice<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        let printable = !bytes.isEmpty && bytes.allSatisfy { (0x21...0x7E).contains($0) }
        let lower = text.lowercased()
        if printable && lower.hasPrefix("http://") && text.utf8.count > "http://".utf8.count {
            self = .http("http://" + text.dropFirst("http://".count))
        } else {
            self = .other(text)
        }
    }

    /// The URIs of `certificate`'s authorityInfoAccess with `method` (id-ad-caIssuers or id-ad-ocsp),
    /// in order, at most ``perCertificateLimit``.
    static func authorityInformationAccess(_ certificate: Certificate, _ method: OID) -> [AccessLocation] {
        var locations: [AccessLocation] = []
        for description in certificate.authorityInformationAccess ?? [] where description.accessMethod == method {
            if case .uniformResourceIdentifier(let bytes) = description.accessLocation { locations.append(AccessLocation(bytes)) }
            if locations.count == perCertificateLimit { break }
        }
        return locations
    }

    /// The URIs of each distribution point's fullName (RFC 5280 4.2.1.13), a list per point, at most
    /// ``perCertificateLimit`` points and URIs per point. A point named relative to its CRL issuer has no URI.
    static func crlDistributionPoints(_ certificate: Certificate) -> [[AccessLocation]] {
        var points: [[AccessLocation]] = []
        for point in (certificate.cRLDistributionPoints ?? []).prefix(perCertificateLimit) {
            guard case .fullName(let names)? = point.name else { continue }
            var uris: [AccessLocation] = []
            for case .uniformResourceIdentifier(let bytes) in names.prefix(16) {
                uris.append(AccessLocation(bytes))
                if uris.count == perCertificateLimit { break }
            }
            if !uris.isEmpty { points.append(uris) }
        }
        return points
    }
}
