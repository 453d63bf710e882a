import Foundation
import Testing
import CertPath
import TestSupport

/// Builders for OCSP responses as DER (RFC 6960 4.2.1); every part is raw DER so a test can break
/// any rule. Signatures are placeholders: these inputs exercise parsing only.
enum OCSPFixture {
    static func generalizedTime(_ text: String) -> [UInt8] { D.tlv(.generalizedTime, Array(text.utf8)) }

    static let sha1: [UInt8] = D.seq(D.oid("1.3.14.3.2.26"), D.null)
    static let sha256: [UInt8] = D.seq(D.oid("2.16.840.1.101.3.4.2.1"))

    static func certID(hash: [UInt8] = sha1, nameHash: [UInt8] = D.octets([UInt8](repeating: 0x11, count: 20)),
                       keyHash: [UInt8] = D.octets([UInt8](repeating: 0x22, count: 20)), serial: [UInt8] = D.int(0x1001)) -> [UInt8] {
        D.seq(hash, nameHash, keyHash, serial)
    }

    static let good: [UInt8] = D.tlv(.contextSpecific(0), [])
    static let unknown: [UInt8] = D.tlv(.contextSpecific(2), [])
    static func revoked(_ time: String = "20240601000000Z", reason: UInt8? = nil) -> [UInt8] {
        D.ctx(1, constructed: true, generalizedTime(time), reason.map { D.ctx(0, constructed: true, D.tlv(.enumerated, [$0])) } ?? [])
    }

    static func single(certID: [UInt8] = certID(), status: [UInt8] = good, thisUpdate: [UInt8] = generalizedTime("20250101000000Z"),
                       nextUpdate: [UInt8]? = D.ctx(0, constructed: true, generalizedTime("20250108000000Z")),
                       extensions: [[UInt8]]? = nil) -> [UInt8] {
        D.seq(certID, status, thisUpdate, nextUpdate ?? [], extensions.map { D.ctx(1, constructed: true, D.seq($0.flatMap { $0 })) } ?? [])
    }

    static let keyHash = [UInt8](repeating: 0x33, count: 20)

    /// An OCSPResponse; responseBytes are included when `status` is 0 unless `responseBytes` says otherwise.
    struct Response {
        var status: UInt8 = 0
        var responseBytes: Bool? = nil
        var responseType: OID = "1.3.6.1.5.5.7.48.1.1"
        var version: [UInt8] = []
        var responderID: [UInt8] = D.ctx(2, constructed: true, D.octets(OCSPFixture.keyHash))
        var producedAt = OCSPFixture.generalizedTime("20250101120000Z")
        var responses: [[UInt8]] = [OCSPFixture.single()]
        var extensions: [[UInt8]]? = nil
        var signatureAlgorithm = D.ecdsaSHA256
        var signature = D.bits([0x5A, 0x5A])
        var certificates: [[UInt8]]? = nil
        /// Bytes after the BasicOCSPResponse, inside the response OCTET STRING.
        var trailingInside: [UInt8] = []
        /// Bytes after the OCSPResponse.
        var trailing: [UInt8] = []

        var tbs: [UInt8] {
            D.seq(version, responderID, producedAt, D.seq(responses.flatMap { $0 }),
                  extensions.map { D.ctx(1, constructed: true, D.seq($0.flatMap { $0 })) } ?? [])
        }
        var basic: [UInt8] {
            D.seq(tbs, signatureAlgorithm, signature, certificates.map { D.ctx(0, constructed: true, D.seq($0.flatMap { $0 })) } ?? [])
        }
        var der: [UInt8] {
            let bytes = (responseBytes ?? (status == 0))
                ? D.ctx(0, constructed: true, D.seq(D.oid(responseType), D.octets(basic + trailingInside))) : []
            return D.seq(D.tlv(.enumerated, [status]), bytes) + trailing
        }

        func parse() throws(DERError) -> OCSPResponse { try OCSPResponse(derEncoded: der) }
    }
}

/// Lowercase hex of a serial number's contents octets without leading zero digits (as pyca prints `hex(n)`).
private func serialHex(_ bytes: ArraySlice<UInt8>) -> String {
    let text = bytes.map { String(format: "%02x", $0) }.joined()
    let trimmed = text.drop { $0 == "0" }
    return trimmed.isEmpty ? "0" : String(trimmed)
}

private func hexString<C: Collection<UInt8>>(_ bytes: C) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

/// RFC 6960 4.2.1: the OCSPResponse, BasicOCSPResponse and SingleResponse syntax, from hand-built DER.
@Suite("OCSP parsing")
struct OCSPParsingTests {
    typealias F = OCSPFixture

    /// Expects `response` to be refused with `code` at `offset` (when given).
    func expectRefused(_ response: F.Response, _ code: DERError.Code, at offset: Int? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        expectRefused(response.der, code, at: offset, sourceLocation: sourceLocation)
    }

    func expectRefused(_ der: [UInt8], _ code: DERError.Code, at offset: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let parsed = try OCSPResponse(derEncoded: der)
            Issue.record("expected \(code), parsed \(parsed)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            if let offset { #expect(error.offset == offset, "\(error)", sourceLocation: sourceLocation) }
        }
    }

    // MARK: Accepted

    @Test("A successful basic response: every field (4.2.1)")
    func parsesSuccessful() throws {
        var fixture = F.Response()
        fixture.responses = [
            F.single(),
            F.single(certID: F.certID(hash: F.sha256, nameHash: D.octets([UInt8](repeating: 1, count: 32)),
                                      keyHash: D.octets([UInt8](repeating: 2, count: 32)), serial: D.int(-5)),
                     status: F.revoked(reason: 1), nextUpdate: nil),
            F.single(status: F.revoked("20230101000000Z")),
            F.single(status: F.unknown, extensions: [D.ext("2.5.29.21", D.tlv(.enumerated, [0]))]),
        ]
        fixture.extensions = [D.ext("1.3.6.1.5.5.7.48.1.2", D.octets([9, 9, 9]))]
        let response = try fixture.parse()
        #expect(response.responseStatus == .successful)
        let basic = try #require(response.basicResponse)
        #expect(basic.responderID == .byKeyHash(F.keyHash[...]))
        #expect(basic.producedAt == UnixTime(year: 2025, month: 1, day: 1, hour: 12))
        #expect(basic.signatureAlgorithm == .ecdsa(.sha256))
        #expect(basic.signature == [0x5A, 0x5A][...] && basic.signatureUnusedBits == 0)
        #expect(basic.tbsResponseData.elementsEqual(fixture.tbs))
        #expect(response.der[basic.tbsResponseDataRange].elementsEqual(fixture.tbs))
        #expect(basic.certificates.isEmpty)
        #expect(basic.defects.isEmpty)
        #expect(basic.nonce?.value == D.octets([9, 9, 9])[...])
        #expect(basic.responses.count == 4)

        let first = basic.responses[0]
        #expect(first.certID.hashAlgorithm == .sha1)
        #expect(first.certID.issuerNameHash == [UInt8](repeating: 0x11, count: 20)[...])
        #expect(first.certID.issuerKeyHash == [UInt8](repeating: 0x22, count: 20)[...])
        #expect(first.certID.serialNumber == [0x10, 0x01][...])
        #expect(first.certStatus == .good)
        #expect(first.thisUpdate == UnixTime(year: 2025, month: 1, day: 1))
        #expect(first.nextUpdate == UnixTime(year: 2025, month: 1, day: 8))
        #expect(first.extensions.isEmpty)

        let second = basic.responses[1]
        #expect(second.certID.hashAlgorithm == .sha256 && second.certID.serialNumber == [0xFB][...])
        #expect(second.certStatus == .revoked(OCSPRevokedInfo(revocationTime: UnixTime(year: 2024, month: 6, day: 1)!,
                                                              revocationReason: .keyCompromise)))
        #expect(second.nextUpdate == nil)
        #expect(basic.responses[2].certStatus == .revoked(OCSPRevokedInfo(revocationTime: UnixTime(year: 2023, month: 1, day: 1)!,
                                                                          revocationReason: nil)))
        let fourth = basic.responses[3]
        #expect(fourth.certStatus == .unknown)
        #expect(fourth.extensions.map(\.oid) == ["2.5.29.21"] && fourth.defects.isEmpty)
        #expect(response.description == "OCSPResponse(successful, responder: byKey \(hexString(F.keyHash)), "
                + "producedAt: 2025-01-01T12:00:00Z, responses: 4, certificates: 0)")
        #expect(second.description == "SingleResponse(CertID(sha256, serial fb), revoked (keyCompromise) at 2024-06-01T00:00:00Z, "
                + "thisUpdate: 2025-01-01T00:00:00Z)")
    }

    @Test("responderID byName (4.2.1)")
    func responderByName() throws {
        var fixture = F.Response()
        fixture.responderID = D.ctx(1, constructed: true, D.cn("Responder"))
        let basic = try #require(try fixture.parse().basicResponse)
        guard case .byName(let name) = basic.responderID else {
            Issue.record("expected byName, got \(basic.responderID)")
            return
        }
        #expect(name.values(of: D.commonName) == ["Responder"])
    }

    @Test("Unsuccessful statuses without responseBytes parse, with no basic response (4.2.1)",
          arguments: [(UInt8(1), OCSPResponseStatus.malformedRequest), (2, .internalError), (3, .tryLater), (5, .sigRequired),
                      (6, .unauthorized)])
    func unsuccessful(_ value: UInt8, _ status: OCSPResponseStatus) throws {
        var fixture = F.Response()
        fixture.status = value
        let response = try fixture.parse()
        #expect(response.responseStatus == status)
        #expect(response.basicResponse == nil)
        #expect(response.description == "OCSPResponse(\(status))")
    }

    @Test("An unknown hash algorithm in a CertID is a value, not an error; its hash lengths are not checked (4.1.1)")
    func unknownHashAlgorithm() throws {
        var fixture = F.Response()
        let other: OID = "1.2.3.4.5"
        fixture.responses = [F.single(certID: F.certID(hash: D.seq(D.oid(other), D.int(7)), nameHash: D.octets([1]), keyHash: D.octets([])))]
        let single = try #require(try fixture.parse().basicResponse?.responses.first)
        #expect(single.certID.hashAlgorithm == .unsupported(other))
        #expect(single.certID.hashAlgorithm.hashAlgorithm == nil)
        #expect(single.certID.issuerNameHash == [1][...] && single.certID.issuerKeyHash.isEmpty)
    }

    @Test("An unknown critical response extension parses and is listed as a defect; a critical nonce is understood (4.4)")
    func unknownCriticalResponseExtension() throws {
        var fixture = F.Response()
        let unknown: OID = "1.3.6.1.4.1.99999.1"
        fixture.extensions = [D.ext("1.3.6.1.5.5.7.48.1.2", critical: true, D.octets([1])), D.ext(unknown, critical: true, D.null),
                              D.ext("1.3.6.1.4.1.99999.2", D.null)]
        let basic = try #require(try fixture.parse().basicResponse)
        #expect(basic.extensions.count == 3)
        #expect(basic.extensions[1].oid == unknown && basic.extensions[1].isCritical && basic.extensions[1].value == D.null[...])
        #expect(basic.defects == [.unrecognizedCriticalResponseExtension(unknown)])
        #expect(basic.defects[0].description
                == "the OCSP response has a critical extension CertPath does not process (1.3.6.1.4.1.99999.1; RFC 6960 4.4)")
    }

    @Test("A critical singleExtension parses and is listed as a defect of that SingleResponse and of the response (4.4)")
    func unknownCriticalSingleExtension() throws {
        var fixture = F.Response()
        fixture.extensions = [D.ext("1.3.6.1.4.1.99999.1", critical: true, D.null)]
        fixture.responses = [F.single(), F.single(certID: F.certID(serial: D.int(0x77)), extensions: [D.ext("2.5.29.21", critical: true,
                                                                                                           D.tlv(.enumerated, [1]))])]
        let basic = try #require(try fixture.parse().basicResponse)
        let single = OCSPResponseDefect.unrecognizedCriticalSingleExtension("2.5.29.21", serialNumber: [0x77][...])
        #expect(basic.responses[1].defects == [single])
        #expect(basic.responses[0].defects.isEmpty)
        #expect(basic.defects == [.unrecognizedCriticalResponseExtension("1.3.6.1.4.1.99999.1"), single])
    }

    @Test("certs are parsed as Certificates (4.2.1); an empty certs SEQUENCE parses")
    func certificates() throws {
        let certificate = CRLFixture.certificate(subject: CRLFixture.name("Responder"))
        var fixture = F.Response()
        fixture.certificates = [certificate.der, CRLFixture.certificate().der]
        let basic = try #require(try fixture.parse().basicResponse)
        #expect(basic.certificates.count == 2)
        #expect(basic.certificates[0] == certificate)
        fixture.certificates = []
        #expect(try fixture.parse().basicResponse?.certificates.isEmpty == true)
    }

    // MARK: Refused

    @Test("A malformed certificate in certs: its error, with the offset re-based onto the response's DER")
    func malformedCertificateOffset() throws {
        var bad = CRLFixture.certificate().der
        let version = try D.offset(of: [0xA0, 0x03, 0x02, 0x01, 0x02], in: bad)
        bad[version + 4] = 0x07  // version v8
        let alone: DERError
        do {
            _ = try Certificate(derEncoded: bad)
            Issue.record("the broken certificate parsed")
            return
        } catch { alone = error }
        var fixture = F.Response()
        fixture.certificates = [CRLFixture.certificate().der, bad]
        let start = try D.offset(of: bad, in: fixture.der)
        expectRefused(fixture, alone.code, at: start + alone.offset)
    }

    @Test("An explicitly encoded version v1 is a DER violation (DEFAULT, X.690 11.5)")
    func explicitVersion() throws {
        var fixture = F.Response()
        fixture.version = D.ctx(0, constructed: true, D.int(0))
        expectRefused(fixture, .explicitDefault, at: try D.offset(of: fixture.version, in: fixture.der))
    }

    @Test("A version other than v1 is refused (4.2.2.3)")
    func otherVersion() throws {
        var fixture = F.Response()
        fixture.version = D.ctx(0, constructed: true, D.int(1))
        expectRefused(fixture, .invalidValue, at: try D.offset(of: fixture.version, in: fixture.der) + 2)
    }

    @Test("responseStatus 4 (unused), 7 and a negative value are refused (4.2.1)", arguments: [UInt8(4), 7, 0xFF])
    func badStatus(_ value: UInt8) {
        var fixture = F.Response()
        fixture.status = value
        fixture.responseBytes = false
        expectRefused(fixture, .invalidValue, at: 2)
    }

    @Test("A non-minimal responseStatus is a DER violation")
    func nonMinimalStatus() {
        expectRefused(D.seq(D.tlv(.enumerated, [0x00, 0x06])), .nonMinimalInteger, at: 2)
    }

    @Test("A successful response without responseBytes is refused (4.2.1)")
    func successfulWithoutBytes() {
        var fixture = F.Response()
        fixture.responseBytes = false
        expectRefused(fixture, .invalidValue, at: 2)
    }

    @Test("Decision: an unsuccessful response with responseBytes is refused (4.2.1: the field is not set for errors)")
    // pyca/cryptography 48 reads such a response as its status and ignores the bytes; CertPath refuses
    // it, since RFC 6960 4.2.1 says the field "is not set" for the error statuses and bytes that
    // might be taken for an answer should not travel with a refusal.
    func unsuccessfulWithBytes() throws {
        var fixture = F.Response()
        fixture.status = 3
        fixture.responseBytes = true
        let status = D.tlv(.enumerated, [3])
        expectRefused(fixture, .invalidValue, at: try D.offset(of: status, in: fixture.der) + status.count)  // the [0]
    }

    @Test("A responseType other than id-pkix-ocsp-basic is unsupported (4.2.1)")
    func unknownResponseType() throws {
        var fixture = F.Response()
        fixture.responseType = "1.3.6.1.5.5.7.48.1.50000"
        expectRefused(fixture, .unsupported, at: try D.offset(of: D.oid(fixture.responseType), in: fixture.der))
    }

    @Test("An empty responses SEQUENCE is refused")
    func emptyResponses() throws {
        var fixture = F.Response()
        fixture.responses = []
        let producedAt = try D.offset(of: fixture.producedAt, in: fixture.der)
        expectRefused(fixture, .invalidValue, at: producedAt + fixture.producedAt.count)
    }

    @Test("A byKey KeyHash of 19 octets is refused (4.2.1: SHA-1)")
    func shortKeyHash() throws {
        var fixture = F.Response()
        let hash = D.octets([UInt8](repeating: 0x44, count: 19))
        fixture.responderID = D.ctx(2, constructed: true, hash)
        expectRefused(fixture, .invalidValue, at: try D.offset(of: hash, in: fixture.der))
    }

    @Test("A ResponderID of another tag is refused")
    func otherResponderTag() throws {
        var fixture = F.Response()
        fixture.responderID = D.ctx(3, constructed: true, D.octets(F.keyHash))
        expectRefused(fixture, .unexpectedTag, at: try D.offset(of: fixture.responderID, in: fixture.der))
    }

    @Test("revocationReason 7 (unused) and 11 are refused (RFC 5280 5.3.1)", arguments: [UInt8(7), 11])
    func badRevocationReason(_ value: UInt8) throws {
        var fixture = F.Response()
        fixture.responses = [F.single(status: F.revoked(reason: value))]
        expectRefused(fixture, .invalidValue, at: try D.offset(of: D.tlv(.enumerated, [value]), in: fixture.der))
    }

    @Test("Trailing data after the OCSPResponse, inside the response OCTET STRING, or inside a SingleResponse is refused")
    func trailingData() throws {
        var fixture = F.Response()
        fixture.trailing = [0x05, 0x00]
        expectRefused(fixture, .trailingData, at: fixture.der.count - 2)
        fixture.trailing = []
        fixture.trailingInside = [0x05, 0x00]
        expectRefused(fixture, .trailingData, at: fixture.der.count - 2)
        fixture.trailingInside = []
        let extra = D.ctx(2, constructed: true, D.null)
        fixture.responses = [F.single(), D.seq(F.certID(), F.good, F.generalizedTime("20250101000000Z"), extra)]
        expectRefused(fixture, .trailingData, at: try D.offset(of: extra, in: fixture.der))
    }

    @Test("A CertID hash whose length does not match its algorithm is refused (4.1.1)")
    func hashLengthMismatch() throws {
        var fixture = F.Response()
        let nameHash = D.octets([UInt8](repeating: 0x11, count: 20))
        fixture.responses = [F.single(certID: F.certID(hash: F.sha256, nameHash: nameHash,
                                                       keyHash: D.octets([UInt8](repeating: 0x22, count: 32))))]
        expectRefused(fixture, .invalidValue, at: try D.offset(of: nameHash, in: fixture.der))
    }

    @Test("A known hash algorithm with parameters other than NULL is refused")
    func hashParameters() throws {
        var fixture = F.Response()
        let parameters = D.int(0)
        fixture.responses = [F.single(certID: F.certID(hash: D.seq(D.oid("1.3.14.3.2.26"), parameters)))]
        let hash = try D.offset(of: D.oid("1.3.14.3.2.26"), in: fixture.der)
        expectRefused(fixture, .invalidValue, at: hash + 7)
    }

    @Test("good and unknown are IMPLICIT NULL: contents are refused")
    func statusWithContents() throws {
        var fixture = F.Response()
        let status = D.tlv(.contextSpecific(0), [0x00])
        fixture.responses = [F.single(status: status)]
        expectRefused(fixture, .invalidNull, at: try D.offset(of: F.certID(), in: fixture.der) + F.certID().count)
        fixture.responses = [F.single(status: D.ctx(0, constructed: true))]
        expectRefused(fixture, .unexpectedTag, at: try D.offset(of: F.certID(), in: fixture.der) + F.certID().count)
    }

    @Test("A repeated responseExtension is refused (RFC 5280 4.2)")
    func duplicateExtension() throws {
        var fixture = F.Response()
        let nonce = D.ext("1.3.6.1.5.5.7.48.1.2", D.octets([1]))
        fixture.extensions = [nonce, nonce]
        let first = try D.offset(of: nonce + nonce, in: fixture.der)
        expectRefused(fixture, .duplicate, at: first + nonce.count)
    }

    @Test("producedAt must be GeneralizedTime")
    func producedAtUTCTime() throws {
        var fixture = F.Response()
        fixture.producedAt = D.tlv(.utcTime, Array("250101120000Z".utf8))
        expectRefused(fixture, .unexpectedTag, at: try D.offset(of: fixture.producedAt, in: fixture.der))
    }
}

/// The OCSP responses of the cryptography-vectors package (x509/ocsp/), each compared with what
/// pyca/cryptography 48 reads from it (`ocsp.load_der_ocsp_response`), and the responses that
/// `openssl ocsp` made for TestVectors/ocsp/ (generate.sh).
@Suite("OCSP vectors")
struct OCSPVectorTests {
    /// What pyca reads from a successful response.
    struct Expected: Sendable {
        enum Responder: Sendable { case name(String), key(String) }
        struct Single: Sendable {
            var serial: String
            var status: String  // good, revoked, unknown
            var reason: RevocationReason? = nil
            var revocationTime: String? = nil
            var hash: OCSPHashAlgorithm = .sha1
            var thisUpdate: String
            var nextUpdate: String?
            var extensions: [OID] = []
        }
        var responder: Responder
        var producedAt: String
        var signatureAlgorithm: SignatureAlgorithm = .rsaPKCS1v15(.sha256)
        var certificates: Int
        var extensions: [OID] = []
        var responses: [Single]
    }

    enum Outcome: Sendable {
        case parsed(Expected)
        case unsuccessful(OCSPResponseStatus)
        /// pyca refuses it too, or (with the reason in the comment of the table) CertPath alone does.
        case refused(DERError.Code, offset: Int)
    }

    static let letsEncryptGood = Expected.Single(serial: "31c787a7dc90295007bc5f2220b3b527af0", status: "good",
                                                 thisUpdate: "2018-08-30T11:00:00Z", nextUpdate: "2018-09-06T11:00:00Z")
    static let quoVadisRevoked = Expected.Single(serial: "81d8b989e92fae68956dce62a893209a1bc24d3", status: "revoked",
                                                 reason: .superseded, revocationTime: "2018-06-27T12:30:01Z",
                                                 thisUpdate: "2018-09-01T19:48:17Z", nextUpdate: "2018-09-03T19:48:17Z")

    /// Every resp-*.der file and what pyca/cryptography 48 reads from it.
    static let table: [(file: String, outcome: Outcome)] = [
        ("resp-delegate-unknown-cert.der", .parsed(Expected(
            responder: .key("6fff3e73a6f3ec466a420dd897f9ad2fe09ae8a4"), producedAt: "2018-09-01T13:02:10Z", certificates: 1,
            responses: [.init(serial: "6372742e73683fadcfcbaead410f72bee1fd3223", status: "unknown",
                              thisUpdate: "2018-09-01T13:02:10Z", nextUpdate: "2018-09-02T13:02:09Z")]))),
        // pyca parses it and raises UnsupportedAlgorithm only when the signature's hash is asked for;
        // CertPath names the algorithm, md2WithRSAEncryption, and leaves refusing it to verification.
        ("resp-invalid-signature-oid.der", .parsed(Expected(
            responder: .name("Let's Encrypt Authority X3"), producedAt: "2018-08-30T11:15:00Z",
            signatureAlgorithm: .rsaPKCS1v15(.md2), certificates: 0, responses: [letsEncryptGood]))),
        // DIFFERENCE: pyca 48 reads this response, whose ResponseData has version [0] INTEGER 1 (v2).
        // RFC 6960 4.2.2.3: the version "MUST be v1 (value is 0) for this version of the basic response
        // syntax", and no other version is defined: CertPath refuses it (the INTEGER at byte 39) rather
        // than read a syntax it does not know as v1.
        ("resp-invalid-version.der", .refused(.invalidValue, offset: 39)),
        ("resp-responder-key-hash.der", .parsed(Expected(
            responder: .key("0f80611c823161d52f28e78d4638b42ce1c6d9e2"), producedAt: "2018-09-01T13:45:20Z", certificates: 0,
            responses: [.init(serial: "fa0a21e15c20bbe1d68ea8fe7706635", status: "revoked", revocationTime: "2018-09-01T04:11:54Z",
                              thisUpdate: "2018-09-01T13:45:20Z", nextUpdate: "2018-09-08T13:00:20Z")]))),
        // pyca: "UnknownDefinedBy" at ResponseBytes::response; CertPath: the responseType OID.
        ("resp-response-type-unknown-oid.der", .refused(.unsupported, offset: 15)),
        ("resp-revoked-no-next-update.der", .parsed(Expected(
            responder: .name("Cryptography CA"), producedAt: "2018-10-24T00:28:54Z", signatureAlgorithm: .ecdsa(.sha256),
            certificates: 0,
            responses: [.init(serial: "3f20", status: "revoked", revocationTime: "2017-12-27T00:28:54Z",
                              thisUpdate: "2018-10-23T00:28:54Z", nextUpdate: nil)]))),
        ("resp-revoked-reason.der", .parsed(Expected(
            responder: .name("QuoVadis OCSP Authority Signature"), producedAt: "2018-09-01T19:48:17Z", certificates: 1,
            extensions: [OCSPOID.nonce], responses: [quoVadisRevoked]))),
        ("resp-revoked.der", .parsed(Expected(
            responder: .key("0f80611c823161d52f28e78d4638b42ce1c6d9e2"), producedAt: "2018-08-31T17:49:19Z", certificates: 0,
            responses: [.init(serial: "1af1efbdd5eae0952320b24fe6b5568", status: "revoked", revocationTime: "2016-09-02T21:28:48Z",
                              thisUpdate: "2018-08-31T17:49:19Z", nextUpdate: "2018-09-07T17:04:19Z")]))),
        ("resp-sct-extension.der", .parsed(Expected(
            responder: .name("OCSP Responder Server Gold CA 2014 - G22"), producedAt: "2019-11-16T02:30:49Z", certificates: 1,
            extensions: [OCSPOID.nonce],
            responses: [.init(serial: "23bf9a6c2bf9a2f0db5ecb4143caab63ad3871d3", status: "good", thisUpdate: "2019-11-16T02:30:49Z",
                              nextUpdate: "2019-11-19T02:30:49Z", extensions: ["1.3.6.1.4.1.11129.2.4.5"])]))),
        // "sha256" is the signature's hash; the CertID is SHA-1 (as pyca reads it too).
        ("resp-sha256.der", .parsed(Expected(
            responder: .name("Let's Encrypt Authority X3"), producedAt: "2018-08-30T11:15:00Z", certificates: 0,
            responses: [letsEncryptGood]))),
        ("resp-single-extension-reason.der", .parsed(Expected(
            responder: .key("8c6194e09438ed89d8d44e897009d6f95e5fec7d"), producedAt: "2019-11-11T04:27:49Z",
            signatureAlgorithm: .ecdsa(.sha256), certificates: 0,
            responses: [.init(serial: "3f20", status: "good", thisUpdate: "2019-11-10T04:27:49Z", nextUpdate: "2019-11-17T04:27:49Z",
                              extensions: ["2.5.29.21"])]))),
        // pyca: "Successful OCSP response does not contain a BasicResponse"; CertPath: at the status.
        ("resp-successful-no-response-bytes.der", .refused(.invalidValue, offset: 2)),
        ("resp-unauthorized.der", .unsuccessful(.unauthorized)),
        // A non-critical unknown extension (1.3.6.1.5.5.7.48.1.2.200): recorded, not a defect.
        ("resp-unknown-extension.der", .parsed(Expected(
            responder: .name("QuoVadis OCSP Authority Signature"), producedAt: "2018-09-01T19:48:17Z", certificates: 1,
            extensions: ["1.3.6.1.5.5.7.48.1.2.200"], responses: [quoVadisRevoked]))),
        // pyca parses it and raises UnsupportedAlgorithm only when hash_algorithm is asked for;
        // CertPath reads the CertID with hashAlgorithm .unsupported(1.3.14.3.2.26.17).
        ("resp-unknown-hash-alg.der", .parsed(Expected(
            responder: .key("0f80611c823161d52f28e78d4638b42ce1c6d9e2"), producedAt: "2018-09-01T13:45:20Z", certificates: 0,
            responses: [.init(serial: "fa0a21e15c20bbe1d68ea8fe7706635", status: "revoked", revocationTime: "2018-09-01T04:11:54Z",
                              hash: .unsupported("1.3.14.3.2.26.17"), thisUpdate: "2018-09-01T13:45:20Z",
                              nextUpdate: "2018-09-08T13:00:20Z")]))),
        // pyca: "OCSP response has an unknown status code" (7).
        ("resp-unknown-response-status.der", .refused(.invalidValue, offset: 2)),
    ]

    /// The cryptography-vectors x509/ocsp folder, or `nil` after a skip notice (a failure under `CI=true`).
    static func folder(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) -> URL? {
        guard let folder = CryptographyVectors.folder else {
            print("SKIPPED \(what): cryptography-vectors is not installed (run scripts/bootstrap)")
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("\(what) needs cryptography-vectors under CI=true", sourceLocation: sourceLocation)
            }
            return nil
        }
        return folder.appendingPathComponent("x509/ocsp")
    }

    static func read(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    @Test("The table covers every resp-*.der file of cryptography-vectors")
    func tableIsComplete() throws {
        guard let folder = Self.folder("OCSP vectors") else { return }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("resp-") && $0.hasSuffix(".der") }.sorted()
        #expect(files == Self.table.map(\.file).sorted())
    }

    @Test("Each cryptography-vectors response reads as pyca reads it, or is refused where pyca refuses it",
          arguments: table.indices)
    func vector(_ index: Int) throws {
        let (file, outcome) = Self.table[index]
        guard let folder = Self.folder("OCSP vector \(file)") else { return }
        let der = try Self.read(folder.appendingPathComponent(file))
        switch outcome {
        case .refused(let code, let offset):
            do {
                let parsed = try OCSPResponse(derEncoded: der)
                Issue.record("\(file): expected \(code) at \(offset), parsed \(parsed)")
            } catch {
                #expect(error.code == code && error.offset == offset, "\(file): \(error)")
            }
        case .unsuccessful(let status):
            let response = try OCSPResponse(derEncoded: der)
            #expect(response.responseStatus == status && response.basicResponse == nil, "\(file)")
        case .parsed(let expected):
            let response = try OCSPResponse(derEncoded: der)
            try Self.check(response, expected, file)
        }
    }

    static func check(_ response: OCSPResponse, _ expected: Expected, _ file: String,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(response.responseStatus == .successful, "\(file)", sourceLocation: sourceLocation)
        let basic = try #require(response.basicResponse, sourceLocation: sourceLocation)
        switch (expected.responder, basic.responderID) {
        case (.name(let cn), .byName(let name)):
            #expect(name.values(of: D.commonName) == [cn], "\(file)", sourceLocation: sourceLocation)
        case (.key(let hash), .byKeyHash(let bytes)):
            #expect(hexString(bytes) == hash, "\(file)", sourceLocation: sourceLocation)
        default:
            Issue.record("\(file): expected responder \(expected.responder), got \(basic.responderID)", sourceLocation: sourceLocation)
        }
        #expect(basic.producedAt.description == expected.producedAt, "\(file)", sourceLocation: sourceLocation)
        #expect(basic.signatureAlgorithm == expected.signatureAlgorithm, "\(file)", sourceLocation: sourceLocation)
        #expect(basic.certificates.count == expected.certificates, "\(file)", sourceLocation: sourceLocation)
        #expect(basic.extensions.map(\.oid) == expected.extensions, "\(file)", sourceLocation: sourceLocation)
        #expect(basic.extensions.allSatisfy { !$0.isCritical } && basic.defects.isEmpty, "\(file)", sourceLocation: sourceLocation)
        #expect(response.der[basic.tbsResponseDataRange].first == 0x30, "\(file)", sourceLocation: sourceLocation)
        #expect(basic.responses.count == expected.responses.count, "\(file)", sourceLocation: sourceLocation)
        for (single, want) in zip(basic.responses, expected.responses) {
            #expect(serialHex(single.certID.serialNumber) == want.serial, "\(file)", sourceLocation: sourceLocation)
            #expect(single.certID.hashAlgorithm == want.hash, "\(file)", sourceLocation: sourceLocation)
            if let length = want.hash.hashAlgorithm?.digestLength {
                #expect(single.certID.issuerNameHash.count == length && single.certID.issuerKeyHash.count == length,
                        "\(file)", sourceLocation: sourceLocation)
            }
            #expect(single.thisUpdate.description == want.thisUpdate, "\(file)", sourceLocation: sourceLocation)
            #expect(single.nextUpdate?.description == want.nextUpdate, "\(file)", sourceLocation: sourceLocation)
            #expect(single.extensions.map(\.oid) == want.extensions, "\(file)", sourceLocation: sourceLocation)
            switch single.certStatus {
            case .good: #expect(want.status == "good", "\(file)", sourceLocation: sourceLocation)
            case .unknown: #expect(want.status == "unknown", "\(file)", sourceLocation: sourceLocation)
            case .revoked(let info):
                #expect(want.status == "revoked", "\(file)", sourceLocation: sourceLocation)
                #expect(info.revocationReason == want.reason, "\(file)", sourceLocation: sourceLocation)
                #expect(info.revocationTime.description == want.revocationTime, "\(file)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("ocsp-army.deps.mil-resp.der: 20 SingleResponses, four revoked, one with cessationOfOperation (as pyca reads it)")
    func army() throws {
        guard let folder = Self.folder("OCSP vector ocsp-army.deps.mil-resp.der") else { return }
        let response = try OCSPResponse(derEncoded: try Self.read(folder.appendingPathComponent("ocsp-army.deps.mil-resp.der")))
        let revoked: [String: (String, RevocationReason?)] = [
            "3919f": ("2018-05-30T20:23:18Z", nil), "391a0": ("2019-10-21T14:49:22Z", nil),
            "391a1": ("2018-10-31T13:33:50Z", nil), "391ae": ("2018-05-30T14:01:39Z", .cessationOfOperation),
        ]
        let singles = (0x3919F...0x391B2).map { value -> Expected.Single in
            let serial = String(value, radix: 16)
            if let (time, reason) = revoked[serial] {
                return .init(serial: serial, status: "revoked", reason: reason, revocationTime: time,
                             thisUpdate: "2020-02-22T00:00:00Z", nextUpdate: "2020-02-29T01:00:00Z")
            }
            return .init(serial: serial, status: "good", thisUpdate: "2020-02-22T00:00:00Z", nextUpdate: "2020-02-29T01:00:00Z")
        }
        #expect(singles.count == 20)
        try Self.check(response, Expected(responder: .key("eb85741201571c8e51820bc0a2cf7fd04ffcd0b7"), producedAt: "2020-02-22T11:38:11Z",
                                          certificates: 1, responses: singles), "ocsp-army.deps.mil-resp.der")
    }

    // MARK: openssl ocsp (TestVectors/ocsp/generate.sh)

    static func generated(_ file: String) throws -> [UInt8] {
        try read(TestCertificates.testVectors.appendingPathComponent("ocsp/" + file))
    }

    static func generatedCertificate(_ file: String) throws -> Certificate {
        try #require(try TestCertificates.all("ocsp/" + file).first)
    }

    @Test("openssl ocsp responses: status, reason, CertID hash and serial, responder ID, nonce, certs",
          arguments: [("resp-good.der", "leaf-good.pem", "good", OCSPHashAlgorithm.sha1, true),
                      ("resp-revoked-keycompromise.der", "leaf-revoked.pem", "revoked", .sha1, true),
                      ("resp-unknown.der", "leaf-unknown.pem", "unknown", .sha1, true),
                      ("resp-good-sha256.der", "leaf-good.pem", "good", .sha256, false)])
    func generatedResponse(_ file: String, _ leafFile: String, _ status: String, _ hash: OCSPHashAlgorithm, _ byName: Bool) throws {
        let response = try OCSPResponse(derEncoded: try Self.generated(file))
        let ca = try Self.generatedCertificate("ca.pem")
        let responder = try Self.generatedCertificate("responder.pem")
        let leaf = try Self.generatedCertificate(leafFile)
        #expect(response.responseStatus == .successful)
        let basic = try #require(response.basicResponse)
        #expect(basic.signatureAlgorithm == .ecdsa(.sha256))
        #expect(basic.defects.isEmpty)
        if byName {
            #expect(basic.responderID == .byName(responder.subject))
            #expect(basic.certificates == [responder])
            #expect(basic.nonce != nil && basic.extensions.count == 1)  // openssl ocsp sends a nonce; the responder echoes it
        } else {
            guard case .byKeyHash(let keyHash) = basic.responderID else {
                Issue.record("expected byKey, got \(basic.responderID)")
                return
            }
            #expect(keyHash.count == 20)
            #expect(basic.certificates.isEmpty && basic.extensions.isEmpty)
        }
        let single = try #require(basic.responses.first)
        #expect(basic.responses.count == 1)
        #expect(single.certID.hashAlgorithm == hash)
        #expect(single.certID.serialNumber == leaf.serialNumber)
        let function = try #require(hash.hashAlgorithm)
        let nameHash = try #require(function.digest(of: ca.subject.der))
        #expect(single.certID.issuerNameHash.elementsEqual(nameHash))
        #expect(single.thisUpdate <= basic.producedAt)
        let next = try #require(single.nextUpdate)
        #expect(next.secondsSinceEpoch - single.thisUpdate.secondsSinceEpoch == 7 * 86_400)  // -ndays 7
        switch (status, single.certStatus) {
        case ("good", .good), ("unknown", .unknown): break
        case ("revoked", .revoked(let info)):
            #expect(info.revocationReason == .keyCompromise)
            #expect(info.revocationTime == UnixTime(year: 2025, month: 6, day: 1))
        default: Issue.record("\(file): expected \(status), got \(single.certStatus)")
        }
    }
}
