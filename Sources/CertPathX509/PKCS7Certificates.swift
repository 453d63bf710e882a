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
        try readSignedData(der).certificates
    }

    /// ``read(_:)``, also saying whether the message has signers (a non-empty signerInfos): then it
    /// is a signed message, not a certs-only bundle, and its certificates are an unordered set
    /// (RFC 5652 5.1) in which no one is "the" end entity.
    package static func readSignedData(_ der: [UInt8]) throws(DERError) -> (certificates: [Certificate], hasSigners: Bool) {
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
        let signers = try reader.readAny("SignedData signerInfos")
        try reader.ascend(signed, "SignedData")
        try reader.ascend(explicit, "ContentInfo content")
        try reader.ascend(info, "ContentInfo")
        try reader.finish("ContentInfo")
        return (certificates, !signers.value.isEmpty)
    }
}

extension PEM {
    /// The PEM labels of a certs-only PKCS #7 / CMS message (`.p7b`, `.p7c`): RFC 7468 5 `PKCS7`
    /// (what `openssl crl2pkcs7` writes) and RFC 7468 9 `CMS`.
    public static let pkcs7Labels: Set<String> = ["PKCS7", "CMS"]

    /// ``readCertificates(_:)``, also reading certs-only PKCS #7 / CMS messages (RFC 5652 5.1,
    /// ``PKCS7Certificates``), told apart by their content, not by a file name: one DER
    /// ContentInfo, or PEM blocks labelled as in ``pkcs7Labels`` among the certificate blocks. The
    /// certificates are in file order (a message's own in encoded order).
    ///
    /// - Throws: ``CertificateFileError``: the PEM error; the DER error of the certificate at a given
    ///   position (0-based index in the file, the block's line), where a PKCS #7 block that does not
    ///   parse is the certificate position it would start; for a DER file that is neither a
    ///   certificate nor a certs-only message, the certificate's DER error.
    public static func readCertificatesAndBundles(_ bytes: [UInt8]) throws(CertificateFileError) -> CertificateFile {
        let document: Document
        switch readDEROrPEM(bytes, der: Certificate.init(derEncoded:)) {
        case .der(let certificate): return CertificateFile(certificates: [certificate], skipped: [])
        case .derError(let error):
            // Not a DER certificate: a DER PKCS #7 message (ContentInfo) is the other DER form read.
            if let certificates = try? PKCS7Certificates.read(bytes) { return CertificateFile(certificates: certificates, skipped: []) }
            throw .certificate(index: 0, line: nil, error)
        case .pemError(let error): throw .pem(error)
        case .pem(let decoded): document = decoded
        }
        return try certificateFile(document, readingBundles: true)
    }
}
