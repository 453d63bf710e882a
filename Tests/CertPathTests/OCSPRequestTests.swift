import Foundation
import Testing
import CertPath
import TestSupport

/// Builders for OCSP requests as DER (RFC 6960 4.1.1); every part is raw DER so a test can break any rule.
enum OCSPRequestFixture {
    struct Request {
        var version: [UInt8] = []
        var requestorName: [UInt8] = []
        var requests: [[UInt8]] = [D.seq(OCSPFixture.certID())]
        var extensions: [[UInt8]]? = nil
        var signature: [UInt8] = []
        var trailing: [UInt8] = []

        var tbs: [UInt8] {
            D.seq(version, requestorName, D.seq(requests.flatMap { $0 }),
                  extensions.map { D.ctx(2, constructed: true, D.seq($0.flatMap { $0 })) } ?? [])
        }
        var der: [UInt8] { D.seq(tbs, signature) + trailing }
    }

    static func nonce(_ bytes: [UInt8], critical: Bool = false) -> [UInt8] {
        D.seq(D.oid(OCSPOID.nonce), critical ? [0x01, 0x01, 0xFF] : [], D.octets(D.octets(bytes)))
    }
}

/// RFC 6960 4.1.1: the OCSPRequest syntax, from hand-built DER, and CertPath's own encoding.
@Suite("OCSP requests")
struct OCSPRequestTests {
    typealias F = OCSPRequestFixture

    /// Expects `der` refused with `code` at `offset`, and the byte there to be `tag` (the element named).
    func expectRefused(_ der: [UInt8], _ code: DERError.Code, at offset: Int, tag: UInt8,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(der.indices.contains(offset) && der[offset] == tag, "offset \(offset) is not the element meant", sourceLocation: sourceLocation)
        do {
            let request = try OCSPRequest(derEncoded: der)
            Issue.record("expected \(code) at \(offset), parsed \(request)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code && error.offset == offset, "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("A minimal request: one CertID, no version, no extensions, unsigned")
    func minimal() throws {
        let request = try OCSPRequest(derEncoded: F.Request().der)
        #expect(request.requests.count == 1)
        let single = try #require(request.requests.first)
        #expect(single.certID.hashAlgorithm == .sha1)
        #expect(Array(single.certID.serialNumber) == [0x10, 0x01])
        #expect(single.certID.issuerNameHash.elementsEqual([UInt8](repeating: 0x11, count: 20)))
        #expect(single.extensions.isEmpty && request.extensions.isEmpty && request.nonce == nil)
        #expect(request.signature == nil && request.requestorName == nil)
        #expect(request.tbsRequest.first == 0x30 && request.tbsRequest.startIndex == 2)
    }

    @Test("requestorName, a nonce, singleRequestExtensions and a signature with certificates are read")
    func everyField() throws {
        var fixture = F.Request()
        fixture.requestorName = D.ctx(1, constructed: true, D.ctx(2, Array("ocsp.example".utf8)))
        fixture.requests = [D.seq(OCSPFixture.certID(), D.ctx(0, constructed: true, D.seq(D.seq(D.oid("1.3.6.1.5.5.7.48.1.7"),
                                                                                                    D.octets(D.seq()))))),
                            D.seq(OCSPFixture.certID(serial: D.int(7)))]
        fixture.extensions = [F.nonce([1, 2, 3, 4])]
        let certificate = try TestCertificates.all("ocsp/ca.pem")[0]
        fixture.signature = D.ctx(0, constructed: true, D.seq(D.ecdsaSHA256, D.bits([0x5A]), D.ctx(0, constructed: true, D.seq(certificate.der))))
        let request = try OCSPRequest(derEncoded: fixture.der)
        #expect(request.requestorName == .dNSName(Array("ocsp.example".utf8)[...]))
        #expect(request.requests.count == 2)
        #expect(request.requests[0].extensions.map(\.oid) == ["1.3.6.1.5.5.7.48.1.7"])
        #expect(Array(request.requests[1].certID.serialNumber) == [7])
        #expect(Array(try #require(request.nonce).value) == [0x04, 0x04, 1, 2, 3, 4])
        let signature = try #require(request.signature)
        #expect(signature.signatureAlgorithm == .ecdsa(.sha256) && Array(signature.signature) == [0x5A])
        #expect(signature.certificates == [certificate])
    }

    // Layout of F.Request() (69 bytes): OCSPRequest 30 43 | TBSRequest 30 41 at 2 | requestList 30 3F at 4 |
    // Request 30 3D at 6 | CertID 30 3B at 8: hashAlgorithm at 10, issuerNameHash at 21, issuerKeyHash at 43,
    // serialNumber at 65; everything ends at 69.

    @Test("version [0] v1 encoded explicitly: explicitDefault at the [0]")
    func explicitVersion() {
        var fixture = F.Request()
        fixture.version = D.ctx(0, constructed: true, D.int(0))
        expectRefused(fixture.der, .explicitDefault, at: 4, tag: 0xA0)
    }

    @Test("version [0] v2: invalidValue at the INTEGER (RFC 6960 4.1.2 defines v1 only)")
    func otherVersion() {
        var fixture = F.Request()
        fixture.version = D.ctx(0, constructed: true, D.int(1))
        expectRefused(fixture.der, .invalidValue, at: 6, tag: 0x02)
    }

    @Test("An empty requestList: invalidValue at the SEQUENCE")
    func emptyRequestList() {
        var fixture = F.Request()
        fixture.requests = []
        expectRefused(fixture.der, .invalidValue, at: 4, tag: 0x30)
    }

    @Test("An empty requestExtensions SEQUENCE: invalidValue at the SEQUENCE (SIZE (1..MAX))")
    func emptyExtensions() {
        var fixture = F.Request()
        fixture.extensions = []
        // requestList ends at 69: [2] there, its SEQUENCE at 71.
        expectRefused(fixture.der, .invalidValue, at: 71, tag: 0x30)
    }

    @Test("The nonce twice: duplicate at the second Extension")
    func duplicateExtension() {
        var fixture = F.Request()
        let nonce = F.nonce([9, 9])
        fixture.extensions = [nonce, nonce]
        expectRefused(fixture.der, .duplicate, at: 73 + nonce.count, tag: 0x30)  // [2] at 69, SEQUENCE at 71, first at 73
    }

    @Test("critical FALSE encoded: explicitDefault at the BOOLEAN")
    func criticalFalse() {
        var fixture = F.Request()
        fixture.extensions = [D.seq(D.oid(OCSPOID.nonce), [0x01, 0x01, 0x00], D.octets(D.octets([1])))]
        // The Extension at 73, its OID (06 09 …) at 75, the BOOLEAN at 86.
        expectRefused(fixture.der, .explicitDefault, at: 86, tag: 0x01)
    }

    @Test("A CertID hash of the wrong length for SHA-1: invalidValue at the OCTET STRING")
    func shortHash() {
        var fixture = F.Request()
        fixture.requests = [D.seq(OCSPFixture.certID(nameHash: D.octets([1, 2, 3])))]
        // CertID at 8, hashAlgorithm at 10 (11 bytes), issuerNameHash at 21.
        expectRefused(fixture.der, .invalidValue, at: 21, tag: 0x04)
    }

    @Test("A Request with an element other than [0] after the CertID: trailingData in the Request")
    func unknownRequestElement() {
        var fixture = F.Request()
        fixture.requests = [D.seq(OCSPFixture.certID(), D.null)]
        // CertID 8..<69: the NULL at 69.
        expectRefused(fixture.der, .trailingData, at: 69, tag: 0x05)
    }

    @Test("Bytes after the request: trailingData")
    func trailing() {
        var fixture = F.Request()
        fixture.trailing = [0x00]
        expectRefused(fixture.der, .trailingData, at: 69, tag: 0x00)
    }

    @Test("A negative or non-minimal serial number: the DER INTEGER rules")
    func serialNumber() {
        var fixture = F.Request()
        fixture.requests = [D.seq(OCSPFixture.certID(serial: D.tlv(.integer, [0x00, 0x01])))]
        // serialNumber after issuerKeyHash: 21 + 22 + 22 = 65.
        expectRefused(fixture.der, .nonMinimalInteger, at: 65, tag: 0x02)
    }

    @Test("The optionalSignature with a malformed certificate: the error offset is in the request")
    func malformedSignatureCertificate() {
        var fixture = F.Request()
        fixture.signature = D.ctx(0, constructed: true, D.seq(D.ecdsaSHA256, D.bits([0x5A]), D.ctx(0, constructed: true, D.seq(D.seq(D.int(1))))))
        // TBSRequest ends at 69: [0] at 69, Signature at 71, algorithm at 73 (12 bytes), bits at 85 (4), [0] at 89,
        // SEQUENCE OF at 91, Certificate at 93, whose tbsCertificate SEQUENCE is expected at 95 (an INTEGER there).
        let der = fixture.der
        do {
            _ = try OCSPRequest(derEncoded: der)
            Issue.record("parsed a request with a malformed certificate")
        } catch {
            #expect(error.code == .unexpectedTag && error.offset == 95 && der[95] == 0x02, "\(error)")
        }
    }

    // MARK: encoding

    @Test("encode → parse: the CertIDs (SHA-1 and SHA-256) and the nonce come back; no version, no signature")
    func roundTrip() throws {
        let ca = try TestCertificates.all("ocsp/ca.pem")[0]
        let good = try TestCertificates.all("ocsp/leaf-good.pem")[0]
        let revoked = try TestCertificates.all("ocsp/leaf-revoked.pem")[0]
        let ids = [try #require(OCSPCertID(identifying: good, issuer: ca)),
                   try #require(OCSPCertID(identifying: revoked, issuer: ca, hashAlgorithm: .sha256))]
        for nonce in [nil, [UInt8](repeating: 0xA5, count: 16)] {
            let der = OCSPRequest.encode(certIDs: ids, nonce: nonce)
            let request = try OCSPRequest(derEncoded: der)
            #expect(request.requests.map(\.certID) == ids)
            #expect(request.requests[0].certID.identifies(good, issuer: ca) && request.requests[1].certID.identifies(revoked, issuer: ca))
            #expect(request.nonce.map { Array($0.value) } == nonce.map { [0x04, UInt8($0.count)] + $0 })
            #expect(request.nonce?.isCritical != true && request.signature == nil)
        }
    }

    @Test("encode matches openssl ocsp's request for the same certificate (TestVectors/ocsp/req-good-sha256.der has no nonce)")
    func sameAsOpenSSL() throws {
        let ca = try TestCertificates.all("ocsp/ca.pem")[0]
        let good = try TestCertificates.all("ocsp/leaf-good.pem")[0]
        let id = try #require(OCSPCertID(identifying: good, issuer: ca, hashAlgorithm: .sha256))
        let openssl = [UInt8](try Data(contentsOf: TestCertificates.testVectors.appendingPathComponent("ocsp/req-good-sha256.der")))
        #expect(OCSPRequest.encode(certIDs: [id]) == openssl)
    }

    @Test("Every TestVectors/ocsp/req-*.der (openssl ocsp) parses: one Request, a SHA-1 or SHA-256 CertID")
    func everyGenerated() throws {
        let folder = TestCertificates.testVectors.appendingPathComponent("ocsp")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("req-") && $0.hasSuffix(".der") }
        #expect(files.count >= 4)
        for file in files {
            let request = try OCSPRequest(derEncoded: [UInt8](try Data(contentsOf: folder.appendingPathComponent(file))))
            #expect(request.requests.count == 1 && request.signature == nil, "\(file)")
            #expect([.sha1, .sha256].contains(request.requests[0].certID.hashAlgorithm), "\(file)")
        }
    }

    @Test("TestVectors/ocsp/req-*.der (openssl ocsp): each names its leaf and the CA",
          arguments: [("req-good.der", "leaf-good.pem", true), ("req-good-sha256.der", "leaf-good.pem", false),
                      ("req-revoked-keycompromise.der", "leaf-revoked.pem", true), ("req-unknown.der", "leaf-unknown.pem", true)])
    func generated(_ file: String, _ leaf: String, _ hasNonce: Bool) throws {
        let der = [UInt8](try Data(contentsOf: TestCertificates.testVectors.appendingPathComponent("ocsp/" + file)))
        let request = try OCSPRequest(derEncoded: der)
        let ca = try TestCertificates.all("ocsp/ca.pem")[0]
        let certificate = try TestCertificates.all("ocsp/" + leaf)[0]
        #expect(request.requests.count == 1)
        #expect(request.requests[0].certID.identifies(certificate, issuer: ca))
        #expect((request.nonce != nil) == hasNonce && request.extensions.count == (hasNonce ? 1 : 0))
    }
}

/// The OCSP requests of cryptography-vectors (x509/ocsp/*req*.der) read by CertPath and by
/// pyca/cryptography (`ocsp.load_der_ocsp_request`, run through python3 now), compared field by field.
@Suite("OCSP request vectors against pyca")
struct OCSPRequestPycaTests {
    /// Files CertPath reads differently from pyca 48, with the reason. The test fails if one stops differing.
    static let differences: [String: (outcome: Outcome, reason: String)] = [
        "req-invalid-version.der": (.refused(.invalidValue, offset: 6),
            "pyca reads a TBSRequest of version [0] 1 (v2); RFC 6960 4.1.2 defines v1 only, and CertPath does not read an unknown "
            + "syntax as v1 (as for responses)"),
        "req-duplicate-ext.der": (.refused(.duplicate, offset: 122),
            "pyca parses the request and raises only when its extensions are asked for; CertPath refuses the request at the "
            + "second nonce (RFC 5280 4.2: each extension at most once)"),
        "req-multi-sha1.der": (.parsed(requests: 2),
            "pyca's API holds one Request and refuses two ('more than one request'); RFC 6960 4.1.1 allows a SEQUENCE OF, "
            + "and CertPath reads both"),
    ]

    enum Outcome: Equatable { case refused(DERError.Code, offset: Int), parsed(requests: Int) }

    static let script = """
        import sys, json, os
        from cryptography.x509 import ocsp
        out = {}
        for path in sys.argv[1:]:
            name = os.path.basename(path)
            try:
                r = ocsp.load_der_ocsp_request(open(path, 'rb').read())
            except Exception as x:
                out[name] = {"ok": False, "error": str(x)}
                continue
            e = {"ok": True, "serial": format(r.serial_number, 'x'),
                 "nameHash": r.issuer_name_hash.hex(), "keyHash": r.issuer_key_hash.hex()}
            try: e["hash"] = r.hash_algorithm.name
            except Exception as x: e["hash"] = None
            try: e["extensions"] = [[x.oid.dotted_string, x.critical] for x in r.extensions]
            except Exception as x: e["extensions"] = None
            out[name] = e
        print(json.dumps(out))
        """

    struct PycaReading: Decodable {
        let ok: Bool
        let error: String?
        let serial: String?
        let nameHash: String?
        let keyHash: String?
        let hash: String?
        let extensions: [[JSONValue]]?
    }

    enum JSONValue: Decodable, Equatable {
        case string(String), bool(Bool)
        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) { self = .bool(bool) } else { self = .string(try container.decode(String.self)) }
        }
    }

    /// What pyca reads from each file, by name; `nil` (after a skip notice) when python3, pyca or the vectors are missing.
    static func pyca(_ files: [URL]) throws -> [String: PycaReading]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + files.map(\.path)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return try JSONDecoder().decode([String: PycaReading].self, from: data)
    }

    static func hex<C: Collection<UInt8>>(_ bytes: C) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("Every request of cryptography-vectors reads as pyca 48 reads it, or differs for the listed reason")
    func differential() throws {
        guard let folder = CryptographyVectors.folder?.appendingPathComponent("x509/ocsp") else {
            print("SKIPPED OCSP request differential: cryptography-vectors is not installed (run scripts/bootstrap)")
            if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("needs cryptography-vectors under CI=true") }
            return
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.contains("req") && $0.hasSuffix(".der") }.sorted().map { folder.appendingPathComponent($0) }
        #expect(files.count >= 11)
        guard let readings = try Self.pyca(files) else {
            Issue.record("python3 with cryptography could not read the vectors (run scripts/bootstrap)")
            return
        }
        for url in files {
            let file = url.lastPathComponent
            let der = [UInt8](try Data(contentsOf: url))
            let pyca = try #require(readings[file], "\(file): no pyca reading")
            let ours: Result<OCSPRequest, DERError>
            do throws(DERError) { ours = .success(try OCSPRequest(derEncoded: der)) } catch { ours = .failure(error) }
            if let (outcome, reason) = Self.differences[file] {
                switch (outcome, ours) {
                case (.refused(let code, let offset), .failure(let error)):
                    #expect(error.code == code && error.offset == offset, "\(file): \(error)")
                    #expect(pyca.ok && (pyca.extensions == nil || file == "req-invalid-version.der"), "\(file) no longer differs: \(reason)")
                case (.parsed(let count), .success(let request)):
                    #expect(request.requests.count == count, "\(file)")
                    #expect(!pyca.ok, "\(file) no longer differs: \(reason)")
                default:
                    Issue.record("\(file): expected \(outcome) (\(reason)), got \(ours)")
                }
                continue
            }
            guard case .success(let request) = ours else {
                Issue.record("\(file): CertPath refuses (\(ours)) what pyca reads (\(pyca))")
                continue
            }
            #expect(pyca.ok, "\(file): pyca refuses (\(pyca.error ?? "")) what CertPath reads")
            guard pyca.ok, let single = request.requests.first else { continue }
            #expect(request.requests.count == 1, "\(file)")
            let serial = Self.hex(single.certID.serialNumber).drop { $0 == "0" }
            #expect(String(serial.isEmpty ? "0" : serial) == pyca.serial, "\(file)")
            #expect(Self.hex(single.certID.issuerNameHash) == pyca.nameHash, "\(file)")
            #expect(Self.hex(single.certID.issuerKeyHash) == pyca.keyHash, "\(file)")
            // pyca raises UnsupportedAlgorithm for a hash it does not know (req-invalid-hash-alg.der, an
            // arc under 1.3.6.1.4.1.37476): CertPath reads it as .unsupported, with its OID.
            if let name = pyca.hash {
                #expect(single.certID.hashAlgorithm.hashAlgorithm?.rawValue == name, "\(file)")
            } else {
                guard case .unsupported = single.certID.hashAlgorithm else {
                    Issue.record("\(file): pyca does not know the hash, CertPath reads \(single.certID.hashAlgorithm)")
                    continue
                }
            }
            let extensions = request.extensions.map { [JSONValue.string($0.oid.description), .bool($0.isCritical)] }
            #expect(extensions == pyca.extensions, "\(file)")
        }
    }
}
