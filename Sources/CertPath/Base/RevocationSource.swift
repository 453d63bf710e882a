/// The evidence that showed a certificate revoked: which CRL or which OCSP response
/// (``ValidationFailure/revoked(_:date:reason:source:)``).
public enum RevocationSource: Hashable, Sendable, CustomStringConvertible {
    /// An entry of a CRL (RFC 5280 5.3): the CRL's issuer, cRLNumber, thisUpdate and whether it is
    /// a delta CRL.
    case crl(issuer: Name, crlNumber: CRLNumber?, thisUpdate: UnixTime, isDelta: Bool)
    /// A SingleResponse of an OCSP response (RFC 6960 4.2.1): its responder and producedAt.
    case ocsp(responder: OCSPResponderID, producedAt: UnixTime)

    /// `the CRL of CN=… (number 0x05) issued at …` or `the OCSP response of CN=… produced at …`.
    public var description: String {
        switch self {
        case .crl(let issuer, let number, let thisUpdate, let isDelta):
            return "the \(isDelta ? "delta " : "")CRL of \(issuer)\(number.map { " (number \($0))" } ?? "") issued at \(thisUpdate)"
        case .ocsp(.byName(let name), let producedAt):
            return "the OCSP response of \(name) produced at \(producedAt)"
        case .ocsp(.byKeyHash(let hash), let producedAt):
            return "the OCSP response of the responder with key SHA-1 \(Hex.encode(hash)) produced at \(producedAt)"
        }
    }

    /// The source of an entry of `crl`.
    init(_ crl: CertificateRevocationList) {
        self = .crl(issuer: crl.issuer, crlNumber: crl.crlNumber, thisUpdate: crl.thisUpdate, isDelta: crl.isDeltaCRL)
    }

    /// The source of a SingleResponse of `response`.
    init(_ response: OCSPBasicResponse) {
        self = .ocsp(responder: response.responderID, producedAt: response.producedAt)
    }
}
