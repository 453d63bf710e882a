// OCSP responses (RFC 6960 4.2): the OCSPResponse envelope and its basic response type, parsed from
// strict DER. Parsing only: whether a response may be believed (its signer, its signature, its
// freshness, its CertID matching a certificate) is for revocation checking to decide.
import CertPathDER

/// Object identifiers of RFC 6960.
public enum OCSPOID {
    /// 1.3.6.1.5.5.7.48.1.1 id-pkix-ocsp-basic: the responseType of a BasicOCSPResponse (RFC 6960 4.2.1).
    public static let basicResponse: OID = "1.3.6.1.5.5.7.48.1.1"
    /// 1.3.6.1.5.5.7.48.1.2 id-pkix-ocsp-nonce: the nonce extension (RFC 6960 4.4.1).
    public static let nonce: OID = "1.3.6.1.5.5.7.48.1.2"
}

/// The responseStatus of an OCSPResponse (RFC 6960 4.2.1, meanings in 2.3), an ENUMERATED.
///
/// Value 4 is not used; it and every value outside the six below are refused when parsing.
public enum OCSPResponseStatus: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// 0: the response has valid confirmations (responseBytes are present).
    case successful = 0
    /// 1: the request did not conform to the OCSP syntax.
    case malformedRequest = 1
    /// 2: the responder reached an inconsistent internal state.
    case internalError = 2
    /// 3: the responder cannot answer now; try later.
    case tryLater = 3
    // 4 is not used.
    /// 5: the responder requires signed requests.
    case sigRequired = 5
    /// 6: the client may not make this query of this responder.
    case unauthorized = 6

    /// The RFC 6960 name (`tryLater`).
    public var description: String {
        switch self {
        case .successful: return "successful"
        case .malformedRequest: return "malformedRequest"
        case .internalError: return "internalError"
        case .tryLater: return "tryLater"
        case .sigRequired: return "sigRequired"
        case .unauthorized: return "unauthorized"
        }
    }

    /// Reads `OCSPResponseStatus ::= ENUMERATED`.
    ///
    /// - Throws: ``DERError``: `.invalidValue` for 4, negative values and values above 6 (RFC 6960
    ///   4.2.1); `.emptyInteger`, `.nonMinimalInteger` and the other DER errors.
    package static func read(_ reader: inout DERReader) throws(DERError) -> (OCSPResponseStatus, DERElement) {
        let element = try reader.read(.enumerated, "OCSPResponseStatus")
        try reader.validateInteger(element, "OCSPResponseStatus")
        guard element.value.count == 1, let status = OCSPResponseStatus(rawValue: reader.bytes[element.value.lowerBound]) else {
            throw DERError(.invalidValue, at: element.offset, expected: "OCSPResponseStatus 0...3, 5 or 6 (RFC 6960 4.2.1)")
        }
        return (status, element)
    }
}

/// An OCSP response (RFC 6960 4.2.1), parsed once from DER and immutable:
///
/// ```
/// OCSPResponse ::= SEQUENCE {
///    responseStatus         OCSPResponseStatus,
///    responseBytes          [0] EXPLICIT ResponseBytes OPTIONAL }
/// ResponseBytes ::= SEQUENCE { responseType OBJECT IDENTIFIER, response OCTET STRING }
/// ```
///
/// Only the basic response type (id-pkix-ocsp-basic, which RFC 6960 4.2.1 requires every client to
/// process) is understood; its contents are ``basicResponse``.
///
/// Decisions, each named:
/// - responseBytes are required when responseStatus is `successful` and refused otherwise: RFC 6960
///   4.2.1 says that for the error statuses "the responseBytes field is not set", and a successful
///   response without them answers nothing. Both are `.invalidValue` errors, so ``basicResponse`` is
///   present exactly when ``responseStatus`` is `successful`.
/// - A responseType other than id-pkix-ocsp-basic is `.unsupported`, not skipped: such a response
///   carries no status CertPath could read.
///
/// Offsets in every error (and the ranges kept) are offsets in ``der``, also inside the response
/// OCTET STRING (it is read in place), except within the certificates of
/// ``OCSPBasicResponse/certificates``, whose errors are re-based onto ``der`` (see there).
public final class OCSPResponse: Hashable, Sendable, CustomStringConvertible {
    /// The complete DER encoding.
    public let der: [UInt8]
    /// responseStatus.
    public let responseStatus: OCSPResponseStatus
    /// The BasicOCSPResponse inside responseBytes: present exactly when ``responseStatus`` is `successful`.
    public let basicResponse: OCSPBasicResponse?

    /// Parses a DER OCSPResponse.
    ///
    /// - Parameter der: exactly one OCSPResponse; shared, not copied (but each certificate of the
    ///   basic response is copied into its own array, as ``Certificate`` requires).
    /// - Throws: ``DERError`` naming the byte offset in `der` and the rule broken: DER violations
    ///   (trailing data after the response or inside any structure, a DEFAULT value encoded…);
    ///   `.invalidValue` for a responseStatus of 4 or outside 0...6, responseBytes missing from a
    ///   successful response or present in an unsuccessful one (RFC 6960 4.2.1); `.unsupported` for a
    ///   responseType other than id-pkix-ocsp-basic; the errors of ``OCSPBasicResponse``.
    public init(derEncoded der: [UInt8]) throws(DERError) {
        self.der = der
        var reader = DERReader(der)
        let response = try reader.descend(.sequence, "OCSPResponse")
        let (status, statusElement) = try OCSPResponseStatus.read(&reader)
        responseStatus = status
        if let explicit = try reader.readOptional(.contextSpecific(0, constructed: true), "responseBytes") {
            guard status == .successful else {
                throw DERError(.invalidValue, at: explicit.offset,
                               expected: "no responseBytes when responseStatus is \(status) (RFC 6960 4.2.1)")
            }
            let outer = try reader.descend(into: explicit, "responseBytes")
            let bytes = try reader.descend(.sequence, "ResponseBytes")
            let typeElement = try reader.readObjectIdentifier("responseType")
            guard reader.contentsEqual(typeElement, OCSPOID.basicResponse.encoded) else {
                throw DERError(.unsupported, at: typeElement.offset,
                               expected: "responseType id-pkix-ocsp-basic (RFC 6960 4.2.1), found \(OID(validatedEncoding: der[typeElement.value]))")
            }
            let octets = try reader.readOctetString("ResponseBytes response")
            try reader.ascend(bytes, "ResponseBytes")
            try reader.ascend(outer, "responseBytes")
            basicResponse = try reader.parse(octets.value, .sequence, "BasicOCSPResponse") {
                (r: inout DERReader) throws(DERError) -> OCSPBasicResponse in try OCSPBasicResponse.read(contentsOf: &r)
            }
        } else {
            guard status != .successful else {
                throw DERError(.invalidValue, at: statusElement.offset,
                               expected: "responseBytes when responseStatus is successful (RFC 6960 4.2.1)")
            }
            basicResponse = nil
        }
        try reader.ascend(response, "OCSPResponse")
        try reader.finish("OCSPResponse")
    }

    /// `OCSPResponse(successful, responder: byKey 0f80…, producedAt: …, responses: 1, certificates: 0)`,
    /// or `OCSPResponse(tryLater)`.
    public var description: String {
        guard let basic = basicResponse else { return "OCSPResponse(\(responseStatus))" }
        return "OCSPResponse(\(responseStatus), responder: \(basic.responderID), producedAt: \(basic.producedAt), "
            + "responses: \(basic.responses.count), certificates: \(basic.certificates.count)"
            + "\(basic.defects.isEmpty ? "" : ", defects: \(basic.defects.count)"))"
    }

    public static func == (lhs: OCSPResponse, rhs: OCSPResponse) -> Bool { lhs === rhs || lhs.der == rhs.der }

    public func hash(into hasher: inout Hasher) { hasher.combine(der) }
}

/// The responderID of a basic response (RFC 6960 4.2.1, 4.2.2.3): who signed it.
///
/// ```
/// ResponderID ::= CHOICE { byName [1] Name, byKey [2] KeyHash }
/// KeyHash ::= OCTET STRING -- SHA-1 hash of responder's public key
/// ```
/// (the tags are EXPLICIT: the module's default).
public enum OCSPResponderID: Hashable, Sendable, CustomStringConvertible {
    /// byName: the responder's subject name.
    case byName(Name)
    /// byKey: the SHA-1 hash (20 octets) of the value of the BIT STRING subjectPublicKey in the
    /// responder's certificate (without tag, length and unused-bits octet); a view into the response's DER.
    case byKeyHash(ArraySlice<UInt8>)

    /// `byName CN=…` or `byKey 0f80…` (hex).
    public var description: String {
        switch self {
        case .byName(let name): return "byName \(name)"
        case .byKeyHash(let hash): return "byKey \(Hex.encode(hash))"
        }
    }

    /// Reads the CHOICE.
    ///
    /// - Throws: ``DERError``: `.unexpectedTag` for a tag other than `[1]` or `[2]` (constructed);
    ///   `.invalidValue` for a KeyHash that is not 20 octets; the errors of ``Name`` and DER errors.
    package static func read(_ reader: inout DERReader) throws(DERError) -> OCSPResponderID {
        if reader.peekTag() == .contextSpecific(1, constructed: true) {
            let scope = try reader.descend(.contextSpecific(1, constructed: true), "ResponderID byName")
            let name = try Name.read(&reader, "ResponderID byName")
            try reader.ascend(scope, "ResponderID byName")
            return .byName(name)
        }
        if reader.peekTag() == .contextSpecific(2, constructed: true) {
            let scope = try reader.descend(.contextSpecific(2, constructed: true), "ResponderID byKey")
            let hash = try reader.readOctetString("KeyHash")
            guard hash.value.count == HashAlgorithm.sha1.digestLength else {
                throw DERError(.invalidValue, at: hash.offset,
                               expected: "KeyHash of 20 octets (SHA-1, RFC 6960 4.2.1), found \(hash.value.count)")
            }
            try reader.ascend(scope, "ResponderID byKey")
            return .byKeyHash(reader.bytes[hash.value])
        }
        guard let tag = reader.peekTag() else { throw DERError(.truncated, at: reader.position, expected: "ResponderID") }
        throw DERError(.unexpectedTag, at: reader.position, expected: "ResponderID [1] byName or [2] byKey, found \(tag)")
    }
}

/// Why a basic response that parses must still not be relied on: an extension marked critical that
/// CertPath does not process (RFC 6960 4.4 refers to RFC 5280 4.2: an unrecognized critical
/// extension must not be ignored). Revocation checking refuses such a response with this reason.
public enum OCSPResponseDefect: Hashable, Sendable, CustomStringConvertible {
    /// A critical responseExtension other than the nonce.
    case unrecognizedCriticalResponseExtension(OID)
    /// A critical singleExtension, on the SingleResponse for the certificate with `serialNumber`
    /// (contents octets of its INTEGER). CertPath processes no singleExtension.
    case unrecognizedCriticalSingleExtension(OID, serialNumber: ArraySlice<UInt8>)

    /// The defect in words, with its RFC clause.
    public var description: String {
        switch self {
        case .unrecognizedCriticalResponseExtension(let oid):
            return "the OCSP response has a critical extension CertPath does not process (\(oid); RFC 6960 4.4)"
        case .unrecognizedCriticalSingleExtension(let oid, let serial):
            return "the OCSP response for serial \(Hex.encode(serial)) has a critical extension CertPath does not process (\(oid); RFC 6960 4.4)"
        }
    }
}

/// A BasicOCSPResponse (RFC 6960 4.2.1), the contents of an ``OCSPResponse``'s responseBytes when the
/// responseType is id-pkix-ocsp-basic:
///
/// ```
/// BasicOCSPResponse ::= SEQUENCE {
///    tbsResponseData      ResponseData,
///    signatureAlgorithm   AlgorithmIdentifier,
///    signature            BIT STRING,
///    certs            [0] EXPLICIT SEQUENCE OF Certificate OPTIONAL }
/// ResponseData ::= SEQUENCE {
///    version              [0] EXPLICIT Version DEFAULT v1,
///    responderID              ResponderID,
///    producedAt               GeneralizedTime,
///    responses                SEQUENCE OF SingleResponse,
///    responseExtensions   [1] EXPLICIT Extensions OPTIONAL }
/// ```
///
/// Every view (``tbsResponseData``, ``signature``, names, hashes, extension values) is a slice of the
/// enclosing ``OCSPResponse/der``, its indices offsets there.
public struct OCSPBasicResponse: Hashable, Sendable {
    /// The complete DER of tbsResponseData: what ``signature`` signs (RFC 6960 4.2.1).
    public let tbsResponseData: ArraySlice<UInt8>
    /// responderID.
    public let responderID: OCSPResponderID
    /// producedAt: when the responder signed the response (RFC 6960 4.2.2.1), whole seconds, UTC.
    public let producedAt: UnixTime
    /// responses, in encoded order; at least one.
    public let responses: [OCSPSingleResponse]
    /// responseExtensions in encoded order (empty when absent).
    public let extensions: [Extension]
    /// signatureAlgorithm, with the parameter rules of ``SignatureAlgorithm``; an algorithm CertPath
    /// does not verify is ``SignatureAlgorithm/unsupported(_:)``, not an error.
    public let signatureAlgorithm: SignatureAlgorithm
    /// The signature BIT STRING's bytes.
    public let signature: ArraySlice<UInt8>
    /// Unused bits of the signature BIT STRING (non-zero makes the signature invalid, not the response malformed).
    public let signatureUnusedBits: UInt8
    /// certs: the certificates the responder sent to help verify the signature (RFC 6960 4.2.1), in
    /// encoded order; empty when absent.
    public let certificates: [Certificate]
    /// Unrecognized critical extensions, response-level first, then each SingleResponse's in order
    /// (``OCSPSingleResponse/defects``); empty for a response CertPath can rely on.
    public let defects: [OCSPResponseDefect]

    /// Offsets of ``tbsResponseData`` in ``OCSPResponse/der``.
    public var tbsResponseDataRange: Range<Int> { tbsResponseData.indices }

    /// The nonce extension (RFC 6960 4.4.1), when present. Its extnValue is kept whole, undecoded:
    /// a client compares it byte for byte with the extnValue of the nonce it sent.
    public var nonce: Extension? { extensions.first { $0.oid == OCSPOID.nonce } }

    /// The extension with `oid`, if present.
    public func `extension`(_ oid: OID) -> Extension? { extensions.first { $0.oid == oid } }

    /// Reads a BasicOCSPResponse's contents (the reader is inside its SEQUENCE).
    ///
    /// Choices: an explicitly encoded version v1 is `.explicitDefault` (X.690 11.5), any other version
    /// `.invalidValue` (RFC 6960 4.2.2.3: "MUST be v1"); an empty responses SEQUENCE is `.invalidValue`
    /// (the ASN.1 sets no size, but a response answers each certificate of a request, 4.2.2.3, and a
    /// request names at least one); an empty certs SEQUENCE parses.
    ///
    /// A certificate is parsed from its own copy of its bytes (``Certificate`` keeps offsets into its
    /// own array); an error in it is re-based so that its offset, like every other, is in the
    /// response's DER.
    ///
    /// - Throws: ``DERError``: the errors above; `.invalidValue` for a KeyHash not of 20 octets; the
    ///   errors of ``OCSPSingleResponse``, ``SignatureAlgorithm``, ``Name`` and ``Certificate``;
    ///   `.invalidValue`, `.duplicate`, `.explicitDefault` for Extensions (RFC 5280 4.1: non-empty,
    ///   each OID once, `critical FALSE` not encoded); `.invalidTime` for a producedAt not
    ///   `YYYYMMDDHHMMSSZ`; DER errors.
    package static func read(contentsOf reader: inout DERReader) throws(DERError) -> OCSPBasicResponse {
        let tbsElement = try reader.read(.sequence, "ResponseData")
        let data = try reader.descend(into: tbsElement, "ResponseData")
        if let explicit = try reader.readOptional(.contextSpecific(0, constructed: true), "ResponseData version") {
            let scope = try reader.descend(into: explicit, "ResponseData version")
            let version = try reader.readInteger("ResponseData version")
            try reader.ascend(scope, "ResponseData version")
            if version.value.count == 1 && reader.bytes[version.value.lowerBound] == 0 {
                throw DERError(.explicitDefault, at: explicit.offset, expected: "ResponseData version v1 omitted (DEFAULT v1, X.690 11.5)")
            }
            throw DERError(.invalidValue, at: version.offset, expected: "ResponseData version v1 (RFC 6960 4.2.2.3)")
        }
        let responderID = try OCSPResponderID.read(&reader)
        let producedAtElement = try reader.read(.generalizedTime, "producedAt")
        let producedAt = try reader.time(producedAtElement, "producedAt")
        let list = try reader.read(.sequence, "responses")
        let listScope = try reader.descend(into: list, "responses")
        guard !reader.isAtEnd else {
            throw DERError(.invalidValue, at: list.offset, expected: "at least one SingleResponse in responses (RFC 6960 4.2.2.3)")
        }
        var responses: [OCSPSingleResponse] = []
        while !reader.isAtEnd { responses.append(try OCSPSingleResponse.read(&reader)) }
        try reader.ascend(listScope, "responses")
        var extensions: [Extension] = []
        if let explicit = try reader.readOptional(.contextSpecific(1, constructed: true), "responseExtensions") {
            let scope = try reader.descend(into: explicit, "responseExtensions")
            extensions = try CRLExtensionList.read(&reader, "responseExtensions")
            try reader.ascend(scope, "responseExtensions")
        }
        try reader.ascend(data, "ResponseData")

        let signatureAlgorithm = try SignatureAlgorithm.read(&reader, "BasicOCSPResponse signatureAlgorithm")
        let signatureBits = try reader.readBitString("BasicOCSPResponse signature")
        let certificates = try Certificate.readOptionalCerts(&reader)

        var defects: [OCSPResponseDefect] = []
        for ext in extensions where ext.isCritical && ext.oid != OCSPOID.nonce {
            defects.append(.unrecognizedCriticalResponseExtension(ext.oid))
        }
        for response in responses { defects.append(contentsOf: response.defects) }
        return OCSPBasicResponse(tbsResponseData: reader.bytes[tbsElement.encoded], responderID: responderID, producedAt: producedAt,
                                 responses: responses, extensions: extensions, signatureAlgorithm: signatureAlgorithm,
                                 signature: reader.bytes[signatureBits.bytes], signatureUnusedBits: signatureBits.unusedBits,
                                 certificates: certificates, defects: defects)
    }
}

extension Certificate {
    /// `certs [0] EXPLICIT SEQUENCE OF Certificate OPTIONAL`, as BasicOCSPResponse (RFC 6960 4.2.1)
    /// and an OCSPRequest's Signature (4.1.1) carry them: each parsed strictly, a certificate's DER
    /// error re-based onto the whole input. Empty when absent.
    ///
    /// - Throws: ``DERError``: the structure's, or the first malformed certificate's (its offset in
    ///   the enclosing input).
    package static func readOptionalCerts(_ reader: inout DERReader) throws(DERError) -> [Certificate] {
        guard let explicit = try reader.readOptional(.contextSpecific(0, constructed: true), "certs") else { return [] }
        var certificates: [Certificate] = []
        let scope = try reader.descend(into: explicit, "certs")
        let sequence = try reader.descend(.sequence, "certs")
        while !reader.isAtEnd {
            let element = try reader.read(.sequence, "Certificate")
            do throws(DERError) {
                certificates.append(try Certificate(derEncoded: Array(reader.bytes[element.encoded])))
            } catch {
                throw DERError(error.code, at: error.offset + element.offset, expected: error.expected)
            }
        }
        try reader.ascend(sequence, "certs")
        try reader.ascend(scope, "certs")
        return certificates
    }
}
