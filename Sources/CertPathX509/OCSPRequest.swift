// OCSP requests (RFC 6960 4.1): the OCSPRequest a client sends, parsed from strict DER, and the
// unsigned request CertPath's fetching sends (RFC 6960 4.1.2, appendix A.1).
import CertPathDER

/// One certificate asked about in an ``OCSPRequest`` (RFC 6960 4.1.1):
///
/// ```
/// Request ::= SEQUENCE {
///     reqCert                     CertID,
///     singleRequestExtensions     [0] EXPLICIT Extensions OPTIONAL }
/// ```
public struct OCSPSingleRequest: Hashable, Sendable, CustomStringConvertible {
    /// reqCert: the certificate whose status is asked for.
    public let certID: OCSPCertID
    /// singleRequestExtensions in encoded order (empty when absent). CertPath interprets none of them
    /// (RFC 6960 4.4.6 defines the service locator, for a responder acting as a proxy).
    public let extensions: [Extension]

    /// `Request(CertID(sha1, serial 1001))`.
    public var description: String { "Request(\(certID))" }

    /// Reads a Request.
    ///
    /// - Throws: ``DERError``: the errors of ``OCSPCertID``; Extensions errors (`.invalidValue` for an
    ///   empty list, `.duplicate`, `.explicitDefault` for `critical FALSE`); DER errors.
    package static func read(_ reader: inout DERReader) throws(DERError) -> OCSPSingleRequest {
        let scope = try reader.descend(.sequence, "Request")
        let certID = try OCSPCertID.read(&reader)
        var extensions: [Extension] = []
        if let explicit = try reader.readOptional(.contextSpecific(0, constructed: true), "singleRequestExtensions") {
            let inner = try reader.descend(into: explicit, "singleRequestExtensions")
            extensions = try CRLExtensionList.read(&reader, "singleRequestExtensions")
            try reader.ascend(inner, "singleRequestExtensions")
        }
        try reader.ascend(scope, "Request")
        return OCSPSingleRequest(certID: certID, extensions: extensions)
    }
}

/// The optionalSignature of an ``OCSPRequest`` (RFC 6960 4.1.1):
///
/// ```
/// Signature ::= SEQUENCE {
///     signatureAlgorithm      AlgorithmIdentifier,
///     signature               BIT STRING,
///     certs               [0] EXPLICIT SEQUENCE OF Certificate OPTIONAL }
/// ```
///
/// Parsed, never verified: CertPath is a client; a responder decides what a signed request means.
public struct OCSPRequestSignature: Hashable, Sendable {
    /// signatureAlgorithm; an algorithm CertPath does not verify is ``SignatureAlgorithm/unsupported(_:)``.
    public let signatureAlgorithm: SignatureAlgorithm
    /// The signature BIT STRING's bytes (over the DER of tbsRequest, RFC 6960 4.1.2).
    public let signature: ArraySlice<UInt8>
    /// Unused bits of the signature BIT STRING.
    public let signatureUnusedBits: UInt8
    /// certs, in encoded order; empty when absent.
    public let certificates: [Certificate]
}

/// An OCSP request (RFC 6960 4.1.1), parsed once from DER and immutable:
///
/// ```
/// OCSPRequest ::= SEQUENCE {
///     tbsRequest                  TBSRequest,
///     optionalSignature   [0]     EXPLICIT Signature OPTIONAL }
/// TBSRequest ::= SEQUENCE {
///     version             [0]     EXPLICIT Version DEFAULT v1,
///     requestorName       [1]     EXPLICIT GeneralName OPTIONAL,
///     requestList                 SEQUENCE OF Request,
///     requestExtensions   [2]     EXPLICIT Extensions OPTIONAL }
/// ```
///
/// Decisions, each named (as for ``OCSPResponse``):
/// - An explicitly encoded version v1 is `.explicitDefault` (X.690 11.5); any other version is
///   `.invalidValue`: RFC 6960 4.1.2 defines only v1, and a syntax CertPath does not know is not read
///   as v1.
/// - An empty requestList is `.invalidValue`: the ASN.1 sets no size, but a request asks about "one
///   or more certificates" (RFC 6960 4.1.2).
/// - Extensions follow RFC 5280 4.1 (non-empty, each OID once, `critical FALSE` never encoded).
///
/// Offsets in every error (and every slice kept) are offsets in ``der``, except within the
/// certificates of ``signature``, whose errors are re-based onto ``der``.
public final class OCSPRequest: Hashable, Sendable, CustomStringConvertible {
    /// The complete DER encoding.
    public let der: [UInt8]
    /// The complete DER of tbsRequest: what ``signature`` signs (RFC 6960 4.1.2).
    public let tbsRequest: ArraySlice<UInt8>
    /// requestorName; `nil` when absent (it is required only in a signed request, RFC 6960 4.1.2).
    public let requestorName: GeneralName?
    /// requestList, in encoded order; at least one.
    public let requests: [OCSPSingleRequest]
    /// requestExtensions in encoded order (empty when absent).
    public let extensions: [Extension]
    /// optionalSignature; `nil` for an unsigned request.
    public let signature: OCSPRequestSignature?

    /// The nonce extension (RFC 6960 4.4.1, RFC 8954), when present; its extnValue undecoded.
    public var nonce: Extension? { extensions.first { $0.oid == OCSPOID.nonce } }

    /// Parses a DER OCSPRequest.
    ///
    /// - Parameter der: exactly one OCSPRequest.
    /// - Throws: ``DERError`` naming the byte offset in `der` and the rule broken: `.explicitDefault`
    ///   for an encoded version v1, `.invalidValue` for another version or an empty requestList; the
    ///   errors of ``OCSPSingleRequest``, ``GeneralName``, ``SignatureAlgorithm`` and ``Certificate``;
    ///   Extensions errors; DER errors (trailing data after the request or inside any structure…).
    public init(derEncoded der: [UInt8]) throws(DERError) {
        self.der = der
        var reader = DERReader(der)
        let request = try reader.descend(.sequence, "OCSPRequest")
        let tbsElement = try reader.read(.sequence, "TBSRequest")
        let tbs = try reader.descend(into: tbsElement, "TBSRequest")
        if let explicit = try reader.readOptional(.contextSpecific(0, constructed: true), "TBSRequest version") {
            let scope = try reader.descend(into: explicit, "TBSRequest version")
            let version = try reader.readInteger("TBSRequest version")
            try reader.ascend(scope, "TBSRequest version")
            if version.value.count == 1 && reader.bytes[version.value.lowerBound] == 0 {
                throw DERError(.explicitDefault, at: explicit.offset, expected: "TBSRequest version v1 omitted (DEFAULT v1, X.690 11.5)")
            }
            throw DERError(.invalidValue, at: version.offset, expected: "TBSRequest version v1 (RFC 6960 4.1.2)")
        }
        var requestorName: GeneralName? = nil
        if let explicit = try reader.readOptional(.contextSpecific(1, constructed: true), "requestorName") {
            let scope = try reader.descend(into: explicit, "requestorName")
            requestorName = try GeneralName.read(&reader, .name, "requestorName")
            try reader.ascend(scope, "requestorName")
        }
        let list = try reader.read(.sequence, "requestList")
        let listScope = try reader.descend(into: list, "requestList")
        guard !reader.isAtEnd else {
            throw DERError(.invalidValue, at: list.offset, expected: "at least one Request in requestList (RFC 6960 4.1.2)")
        }
        var requests: [OCSPSingleRequest] = []
        while !reader.isAtEnd { requests.append(try OCSPSingleRequest.read(&reader)) }
        try reader.ascend(listScope, "requestList")
        var extensions: [Extension] = []
        if let explicit = try reader.readOptional(.contextSpecific(2, constructed: true), "requestExtensions") {
            let scope = try reader.descend(into: explicit, "requestExtensions")
            extensions = try CRLExtensionList.read(&reader, "requestExtensions")
            try reader.ascend(scope, "requestExtensions")
        }
        try reader.ascend(tbs, "TBSRequest")

        var signature: OCSPRequestSignature? = nil
        if let explicit = try reader.readOptional(.contextSpecific(0, constructed: true), "optionalSignature") {
            let outer = try reader.descend(into: explicit, "optionalSignature")
            let scope = try reader.descend(.sequence, "Signature")
            let algorithm = try SignatureAlgorithm.read(&reader, "Signature signatureAlgorithm")
            let bits = try reader.readBitString("Signature signature")
            let certificates = try Certificate.readOptionalCerts(&reader)
            try reader.ascend(scope, "Signature")
            try reader.ascend(outer, "optionalSignature")
            signature = OCSPRequestSignature(signatureAlgorithm: algorithm, signature: reader.bytes[bits.bytes],
                                             signatureUnusedBits: bits.unusedBits, certificates: certificates)
        }
        try reader.ascend(request, "OCSPRequest")
        try reader.finish("OCSPRequest")
        self.tbsRequest = reader.bytes[tbsElement.encoded]
        self.requestorName = requestorName
        self.requests = requests
        self.extensions = extensions
        self.signature = signature
    }

    /// The DER of an unsigned OCSPRequest (RFC 6960 4.1.1) asking about `certIDs`, with no version
    /// (DEFAULT v1), no requestorName, no singleRequestExtensions, and a nonce extension (RFC 6960
    /// 4.4.1, non-critical) when `nonce` is given: its extnValue is the DER OCTET STRING of `nonce`
    /// (RFC 8954 2.1 asks for 1 to 32 octets; the length is the caller's choice).
    ///
    /// - Parameter certIDs: the certificates asked about, at least one for a request a responder
    ///   accepts (an empty list encodes, and ``init(derEncoded:)`` refuses it).
    /// - Returns: DER that ``init(derEncoded:)`` reads back with the same CertIDs and nonce.
    public static func encode(certIDs: [OCSPCertID], nonce: [UInt8]? = nil) -> [UInt8] {
        var writer = DERWriter()
        writer.append(.sequence) { request in
            request.append(.sequence) { tbs in
                tbs.append(.sequence) { list in
                    for certID in certIDs {
                        list.append(.sequence) { single in single.appendEncoded(encode(certID)) }
                    }
                }
                if let nonce {
                    tbs.append(.contextSpecific(2, constructed: true)) { explicit in
                        explicit.append(.sequence) { extensions in
                            extensions.append(.sequence) { ext in
                                ext.appendOID(OCSPOID.nonce)
                                var value = DERWriter()
                                value.append(.octetString, contents: nonce)
                                ext.append(.octetString, contents: value.bytes)
                            }
                        }
                    }
                }
            }
        }
        return writer.bytes
    }

    /// The DER of a CertID (RFC 6960 4.1.1): hashAlgorithm with NULL parameters for the known
    /// algorithms (RFC 5754 2 allows NULL or absent; NULL is what OpenSSL and most responders send).
    static func encode(_ certID: OCSPCertID) -> [UInt8] {
        var writer = DERWriter()
        writer.append(.sequence) { id in
            id.append(.sequence) { algorithm in
                algorithm.appendOID(certID.hashAlgorithm.oid)
                if case .unsupported = certID.hashAlgorithm {} else { algorithm.append(.null, contents: []) }
            }
            id.append(.octetString, contents: Array(certID.issuerNameHash))
            id.append(.octetString, contents: Array(certID.issuerKeyHash))
            id.append(.integer, contents: certID.serialNumber.isEmpty ? [0] : Array(certID.serialNumber))
        }
        return writer.bytes
    }

    /// `OCSPRequest(requests: 1, nonce)`.
    public var description: String {
        "OCSPRequest(requests: \(requests.count)\(nonce == nil ? "" : ", nonce")\(signature == nil ? "" : ", signed"))"
    }

    public static func == (lhs: OCSPRequest, rhs: OCSPRequest) -> Bool { lhs === rhs || lhs.der == rhs.der }

    public func hash(into hasher: inout Hasher) { hasher.combine(der) }
}
