// The certificates of a "certs-only" PKCS #7 / CMS SignedData (RFC 5652 5.1; RFC 5280 4.2.2.1 names
// it for id-ad-caIssuers: "a BER or DER encoded 'certs-only' CMS message", media type
// application/pkcs7-mime), read with the strict DER reader.
import CertPathDER

/// Reads the certificates out of a certs-only CMS SignedData (RFC 5652 5.1):
///
/// ```
/// ContentInfo ::= SEQUENCE { contentType ContentType, content [0] EXPLICIT ANY DEFINED BY contentType }
/// SignedData ::= SEQUENCE {
///     version CMSVersion,
///     digestAlgorithms DigestAlgorithmIdentifiers,      -- SET OF
///     encapContentInfo EncapsulatedContentInfo,
///     certificates [0] IMPLICIT CertificateSet OPTIONAL,
///     crls [1] IMPLICIT RevocationInfoChoices OPTIONAL,
///     signerInfos SignerInfos }                         -- SET OF
/// ```
///
/// Choices: only DER is read (RFC 5280 4.2.2.1 allows BER; a BER message is refused with its error);
/// the CertificateSet's other choices (extendedCertificate, attribute certificates, other) are
/// checked to be DER and skipped; the order of the SET OF certificates is not checked (it carries no
/// meaning here); nothing is verified (a certs-only message has no signers).
public enum PKCS7Certificates {
    /// 1.2.840.113549.1.7.2 id-signedData.
    public static let signedData: OID = "1.2.840.113549.1.7.2"

    /// The certificates of a certs-only SignedData, in encoded order.
    ///
    /// - Throws: ``DERError`` naming the byte offset in `der`: `.unsupported` for a contentType other
    ///   than id-signedData; the errors of ``Certificate`` (offsets re-based onto `der`); DER errors.
    public static func read(_ der: [UInt8]) throws(DERError) -> [Certificate] {
        var reader = DERReader(der)
        let info = try reader.descend(.sequence, "ContentInfo")
        let type = try reader.readObjectIdentifier("ContentInfo contentType")
        guard reader.contentsEqual(type, signedData.encoded) else {
            throw DERError(.unsupported, at: type.offset, expected: "contentType id-signedData (RFC 5652 5.1)")
        }
        let explicit = try reader.descend(.contextSpecific(0, constructed: true), "ContentInfo content")
        let signed = try reader.descend(.sequence, "SignedData")
        _ = try reader.readInteger("SignedData version")
        _ = try reader.readAny("SignedData digestAlgorithms")
        _ = try reader.readAny("SignedData encapContentInfo")
        var certificates: [Certificate] = []
        if let set = try reader.readOptional(.contextSpecific(0, constructed: true), "SignedData certificates") {
            let scope = try reader.descend(into: set, "SignedData certificates")
            while !reader.isAtEnd {
                guard reader.peekTag() == .sequence else {
                    _ = try reader.readAny("CertificateChoices other than certificate")
                    continue
                }
                let element = try reader.read(.sequence, "Certificate")
                do throws(DERError) {
                    certificates.append(try Certificate(derEncoded: Array(reader.bytes[element.encoded])))
                } catch {
                    throw DERError(error.code, at: error.offset + element.offset, expected: error.expected)
                }
            }
            try reader.ascend(scope, "SignedData certificates")
        }
        if reader.peekTag() == .contextSpecific(1, constructed: true) { _ = try reader.readAny("SignedData crls") }
        _ = try reader.readAny("SignedData signerInfos")
        try reader.ascend(signed, "SignedData")
        try reader.ascend(explicit, "ContentInfo content")
        try reader.ascend(info, "ContentInfo")
        try reader.finish("ContentInfo")
        return certificates
    }
}
