import CertPath
import Foundation
import Testing

/// `certpath show` of OCSP responses and `certpath verify --ocsp`, on the responses of
/// TestVectors/ocsp (made by `openssl ocsp`, generate.sh). Those are valid for 7 days from their
/// generation, so validation times are read from the responses themselves.
@Suite struct OCSPCLITests {
    /// `TestVectors/ocsp`, where every command of this suite runs.
    static let folder = CLI.packageRoot.appendingPathComponent("TestVectors/ocsp")

    /// The bytes of a file of TestVectors/ocsp.
    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The parsed response `name` and its basic response.
    static func response(_ name: String) throws -> (OCSPResponse, OCSPBasicResponse) {
        let response = try OCSPResponse(derEncoded: try bytes(name))
        return (response, try #require(response.basicResponse))
    }

    /// The one certificate of a PEM file of TestVectors/ocsp.
    static func certificate(_ name: String) throws -> Certificate {
        try #require(try PEM.readCertificates(try bytes(name)).certificates.first)
    }

    static func hex(_ bytes: some Collection<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// `certpath ARGUMENTS` run in TestVectors/ocsp.
    static func run(_ arguments: [String]) throws -> CLI.Run { try CLI.run(arguments, in: folder) }

    /// An hour after the response's thisUpdate: inside its thisUpdate..nextUpdate window (7 days).
    static func timeInside(_ name: String) throws -> String {
        let (_, basic) = try response(name)
        let single = try #require(basic.responses.first)
        let time = UnixTime(secondsSinceEpoch: single.thisUpdate.secondsSinceEpoch + 3600)
        if let next = single.nextUpdate { #expect(time < next) }
        return time.description
    }

    /// A scratch file holding `bytes`; the caller removes the directory.
    static func scratch(_ name: String, _ bytes: [UInt8]) throws -> (directory: URL, path: String) {
        let directory = try CLI.temporaryDirectory()
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return (directory, url.path)
    }

    /// Every line must appear whole in `text`.
    static func expectLines(_ text: String, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let present = Set(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        for line in lines { #expect(present.contains(line), "missing line: \(line)\n\(text)", sourceLocation: sourceLocation) }
    }

    // MARK: - show

    @Test func showGoodResponse() throws {
        let (_, basic) = try Self.response("resp-good.der")
        let single = try #require(basic.responses.first)
        let expectedID = try #require(OCSPCertID(identifying: try Self.certificate("leaf-good.pem"), issuer: try Self.certificate("ca.pem")))
        let nonce = try #require(basic.nonce)
        let run = try Self.run(["show", "resp-good.der"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.hasPrefix("resp-good.der: OCSP response 1 of 1\n"))
        Self.expectLines(run.stdout, [
            "  response status:     successful (0)",
            "  response type:       basic (id-pkix-ocsp-basic)",
            "  responder ID:        by name: CN=OCSP Test Responder,O=CertPath Tests",
            "  produced at:         \(basic.producedAt)",
            "  signature algorithm: ecdsa-with-SHA256",
            "  responses (1):",
            "    response 1:",
            "      serial:           1001",
            "      hash algorithm:   sha1",
            "      issuer name hash: \(Self.hex(expectedID.issuerNameHash))",
            "      issuer key hash:  \(Self.hex(expectedID.issuerKeyHash))",
            "      status:           good",
            "      this update:      \(single.thisUpdate)",
            "      next update:      \(try #require(single.nextUpdate))",
            "  response extensions:",
            "    nonce (1.3.6.1.5.5.7.48.1.2): \(Self.hex(nonce.value))",
            "  certificates (1):",
            "    certificate 1:",
            "      subject: CN=OCSP Test Responder,O=CertPath Tests",
            "      issuer:  CN=OCSP Test CA,O=CertPath Tests",
            "      serial:  0100",
        ])
        #expect(!run.stdout.contains("defect:"))
    }

    @Test func showGoodResponseJSON() throws {
        let (_, basic) = try Self.response("resp-good.der")
        let single = try #require(basic.responses.first)
        let run = try Self.run(["show", "resp-good.der", "--json"])
        #expect(run.status == 0)
        let json = try run.json()
        #expect(try field(json, "format", as: String.self) == "certpath-show")
        let file = try #require(try field(json, "files", as: [[String: Any]].self).first)
        #expect(try field(file, "file", as: String.self) == "resp-good.der")
        #expect(try field(file, "certificates", as: [Any].self).isEmpty)
        let responses = try field(file, "ocspResponses", as: [[String: Any]].self)
        #expect(responses.count == 1)
        let response = try #require(responses.first)
        #expect(try field(response, "responseStatus", as: String.self) == "successful")
        #expect(try field(response, "responseStatusCode", as: Int.self) == 0)
        let responder = try field(response, "responderID", as: [String: Any].self)
        #expect(try field(responder, "byName", as: String.self) == "CN=OCSP Test Responder,O=CertPath Tests")
        #expect(responder["byKeyHash"] is NSNull)
        #expect(try field(response, "producedAt", as: String.self) == basic.producedAt.description)
        #expect(try field(response, "signatureAlgorithm", as: String.self) == "ecdsa-with-SHA256")
        let entry = try #require(try field(response, "responses", as: [[String: Any]].self).first)
        let certID = try field(entry, "certID", as: [String: Any].self)
        #expect(try field(certID, "hashAlgorithm", as: String.self) == "sha1")
        #expect(try field(certID, "serial", as: String.self) == "1001")
        #expect(try field(certID, "issuerNameHash", as: String.self) == Self.hex(single.certID.issuerNameHash))
        #expect(try field(certID, "issuerKeyHash", as: String.self) == Self.hex(single.certID.issuerKeyHash))
        #expect(try field(entry, "status", as: String.self) == "good")
        #expect(entry["revocationTime"] is NSNull && entry["revocationReason"] is NSNull)
        #expect(try field(entry, "thisUpdate", as: String.self) == single.thisUpdate.description)
        #expect(try field(entry, "nextUpdate", as: String.self) == single.nextUpdate?.description)
        #expect(try field(response, "responsesNotListed", as: Int.self) == 0)
        let ext = try #require(try field(response, "extensions", as: [[String: Any]].self).first)
        #expect(try field(ext, "name", as: String.self) == "nonce")
        #expect(try field(ext, "oid", as: String.self) == "1.3.6.1.5.5.7.48.1.2")
        #expect(try field(ext, "critical", as: Bool.self) == false)
        #expect(try field(try field(ext, "value", as: [String: Any].self), "der", as: String.self) == Self.hex(try #require(basic.nonce).value))
        #expect(try field(response, "defects", as: [Any].self).isEmpty)
        let certificate = try #require(try field(response, "certificates", as: [[String: Any]].self).first)
        #expect(try field(certificate, "subject", as: String.self) == "CN=OCSP Test Responder,O=CertPath Tests")
        #expect(try field(certificate, "issuer", as: String.self) == "CN=OCSP Test CA,O=CertPath Tests")
        #expect(try field(certificate, "serial", as: String.self) == "0100")
        #expect(try field(response, "certificatesNotListed", as: Int.self) == 0)
    }

    @Test func showRevokedResponseWithReason() throws {
        let text = try Self.run(["show", "resp-revoked-keycompromise.der"])
        #expect(text.status == 0)
        Self.expectLines(text.stdout, [
            "      serial:           1002",
            "      status:           revoked at 2025-06-01T00:00:00Z, reason keyCompromise",
        ])
        let json = try Self.run(["show", "--json", "resp-revoked-keycompromise.der"])
        #expect(json.status == 0)
        let file = try #require(try field(try json.json(), "files", as: [[String: Any]].self).first)
        let response = try #require(try field(file, "ocspResponses", as: [[String: Any]].self).first)
        let entry = try #require(try field(response, "responses", as: [[String: Any]].self).first)
        #expect(try field(entry, "status", as: String.self) == "revoked")
        #expect(try field(entry, "revocationTime", as: String.self) == "2025-06-01T00:00:00Z")
        #expect(try field(entry, "revocationReason", as: String.self) == "keyCompromise")
    }

    /// resp-good-sha256.der: a SHA-256 CertID, the responder named by the SHA-1 hash of its key
    /// (RFC 6960 4.2.1 KeyHash), no nonce and no certificates.
    @Test func showResponderByKeyHash() throws {
        let responder = try Self.certificate("responder.pem")
        let keyHash = try #require(HashAlgorithm.sha1.digest(of: responder.subjectPublicKeyInfo.subjectPublicKeyBytes))
        let expectedID = try #require(OCSPCertID(identifying: try Self.certificate("leaf-good.pem"), issuer: try Self.certificate("ca.pem"),
                                                 hashAlgorithm: .sha256))
        let run = try Self.run(["show", "resp-good-sha256.der"])
        #expect(run.status == 0)
        Self.expectLines(run.stdout, [
            "  responder ID:        by key hash: \(Self.hex(keyHash))",
            "      hash algorithm:   sha256",
            "      issuer name hash: \(Self.hex(expectedID.issuerNameHash))",
            "      issuer key hash:  \(Self.hex(expectedID.issuerKeyHash))",
            "      status:           good",
            "  response extensions: none",
            "  certificates:        none",
        ])
        let json = try Self.run(["show", "resp-good-sha256.der", "--json"])
        let file = try #require(try field(try json.json(), "files", as: [[String: Any]].self).first)
        let response = try #require(try field(file, "ocspResponses", as: [[String: Any]].self).first)
        let id = try field(response, "responderID", as: [String: Any].self)
        #expect(id["byName"] is NSNull)
        #expect(try field(id, "byKeyHash", as: String.self) == Self.hex(keyHash))
        #expect(try field(response, "certificates", as: [Any].self).isEmpty)
        #expect(try field(response, "extensions", as: [Any].self).isEmpty)
    }

    /// resp-good-no-next-update.der: a SingleResponse without nextUpdate (RFC 6960 4.2.2.1).
    @Test func showResponseWithoutNextUpdate() throws {
        let (_, basic) = try Self.response("resp-good-no-next-update.der")
        #expect(basic.responses.first?.nextUpdate == nil)
        let run = try Self.run(["show", "resp-good-no-next-update.der"])
        #expect(run.status == 0)
        Self.expectLines(run.stdout, ["      status:           good", "      next update:      none"])
        let json = try Self.run(["show", "resp-good-no-next-update.der", "--json"])
        let file = try #require(try field(try json.json(), "files", as: [[String: Any]].self).first)
        let response = try #require(try field(file, "ocspResponses", as: [[String: Any]].self).first)
        let entry = try #require(try field(response, "responses", as: [[String: Any]].self).first)
        #expect(entry["nextUpdate"] is NSNull)
    }

    /// A non-successful response (RFC 6960 4.2.1: no responseBytes): `30 03 0A 01 03` is tryLater.
    @Test func showNonSuccessfulResponse() throws {
        let (directory, path) = try Self.scratch("try-later.der", [0x30, 0x03, 0x0A, 0x01, 0x03])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.run(["show", path])
        #expect(run.status == 0)
        #expect(run.stdout == """
            \(path): OCSP response 1 of 1
              response status:     tryLater (3)
              response data:       none (RFC 6960 4.2.1: only a successful response carries one)

            """)
        let json = try Self.run(["show", "--json", path])
        let file = try #require(try field(try json.json(), "files", as: [[String: Any]].self).first)
        let response = try #require(try field(file, "ocspResponses", as: [[String: Any]].self).first)
        #expect(try field(response, "responseStatus", as: String.self) == "tryLater")
        #expect(try field(response, "responseStatusCode", as: Int.self) == 3)
        #expect(response["responderID"] is NSNull && response["producedAt"] is NSNull && response["signatureAlgorithm"] is NSNull)
        #expect(try field(response, "responses", as: [Any].self).isEmpty)
    }

    /// A malformed response: the file, the response, the byte offset and the rule; the other files
    /// are still shown, and the status is 2.
    @Test func showMalformedResponse() throws {
        // responseStatus 4 is not used (RFC 6960 4.2.1): the ENUMERATED at byte 2.
        let (directory, path) = try Self.scratch("status-4.der", [0x30, 0x03, 0x0A, 0x01, 0x04])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.run(["show", path, "resp-good.der"])
        #expect(run.status == 2)
        #expect(run.stderr == "certpath show: \(path): OCSP response 1: byte 2: invalidValue "
                + "(expected OCSPResponseStatus 0...3, 5 or 6 (RFC 6960 4.2.1))\n")
        #expect(run.stdout.contains("resp-good.der: OCSP response 1 of 1\n"))

        // A truncated response: the offset the library names.
        let truncated = Array(try Self.bytes("resp-good.der").dropLast())
        let error: DERError
        do throws(DERError) {
            _ = try OCSPResponse(derEncoded: truncated)
            Issue.record("parsed a truncated response")
            return
        } catch let caught {
            error = caught
        }
        let cut = directory.appendingPathComponent("truncated.der")
        try Data(truncated).write(to: cut)
        let truncatedRun = try Self.run(["show", cut.path])
        #expect(truncatedRun.status == 2)
        #expect(truncatedRun.stderr == "certpath show: \(cut.path): OCSP response 1: byte \(error.offset): \(error.code.rawValue) (expected \(error.expected))\n")

        // In PEM, the response's number and its block's line.
        let pem = "a note\n" + PEM.encode([0x30, 0x03, 0x0A, 0x01, 0x04], label: "OCSP RESPONSE")
        let pemURL = directory.appendingPathComponent("status-4.pem")
        try Data(pem.utf8).write(to: pemURL)
        let pemRun = try Self.run(["show", "--json", pemURL.path])
        #expect(pemRun.status == 2)
        #expect(pemRun.stderr == "certpath show: \(pemURL.path): OCSP response 1 (PEM block at line 2): byte 2: invalidValue "
                + "(expected OCSPResponseStatus 0...3, 5 or 6 (RFC 6960 4.2.1))\n")
        let file = try #require(try field(try pemRun.json(), "files", as: [[String: Any]].self).first)
        #expect(try field(file, "error", as: String.self).contains("OCSP response 1 (PEM block at line 2): byte 2: invalidValue"))
    }

    /// A PEM file with a certificate and an OCSP RESPONSE block shows both; the text is skipped.
    @Test func showPEMWithCertificateAndResponse() throws {
        let ca = try String(contentsOf: Self.folder.appendingPathComponent("ca.pem"), encoding: .utf8)
        let pem = "stapled\n" + PEM.encode(try Self.bytes("resp-revoked-keycompromise.der"), label: "OCSP RESPONSE") + ca
        let (directory, path) = try Self.scratch("both.pem", Array(pem.utf8))
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.run(["show", path])
        #expect(run.status == 0)
        Self.expectLines(run.stdout, [
            "\(path): certificate 1 of 1",
            "  subject:             CN=OCSP Test CA,O=CertPath Tests",
            "\(path): OCSP response 1 of 1",
            "      status:           revoked at 2025-06-01T00:00:00Z, reason keyCompromise",
            "\(path): skipped line 1: text",
        ])
        #expect(!run.stdout.contains("OCSP RESPONSE block"))
    }

    // MARK: - verify --ocsp

    @Test func verifyReadsAGoodResponse() throws {
        let at = try Self.timeInside("resp-good.der")
        let run = try Self.run(["verify", "leaf-good.pem", "--anchors", "ca.pem", "--ocsp", "resp-good.der", "--at", at])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("trusted: CN=good.ocsp.test,O=CertPath Tests"))
        #expect(run.stderr.isEmpty)
        // Repeatable, and PEM armoured: the same response as an "OCSP RESPONSE" block.
        let pem = PEM.encode(try Self.bytes("resp-good.der"), label: "OCSP RESPONSE")
        let (directory, path) = try Self.scratch("good.pem", Array(pem.utf8))
        defer { try? FileManager.default.removeItem(at: directory) }
        let twice = try Self.run(["verify", "leaf-good.pem", "--anchors", "ca.pem", "--ocsp", path, "--ocsp=resp-good-sha256.der", "--at", at])
        #expect(twice.status == 0, "\(twice.stdout)\(twice.stderr)")
    }

    @Test func verifyRefusesMalformedResponses() throws {
        let (directory, path) = try Self.scratch("status-4.der", [0x30, 0x03, 0x0A, 0x01, 0x04])
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = ["verify", "leaf-good.pem", "--anchors", "ca.pem", "--ocsp"]
        let malformed = try Self.run(base + [path])
        #expect(malformed.status == 2)
        #expect(malformed.stdout.isEmpty)
        #expect(malformed.stderr == "certpath verify: \(path): OCSP response 1: byte 2: invalidValue "
                + "(expected OCSPResponseStatus 0...3, 5 or 6 (RFC 6960 4.2.1))\n")
        // A file without a response (a certificate file), and one that is missing.
        let none = try Self.run(base + ["ca.pem"])
        #expect(none.status == 2)
        #expect(none.stderr == "certpath verify: ca.pem: no OCSP response found (expected DER or PEM \"OCSP RESPONSE\" blocks)\n")
        let missing = try Self.run(base + ["missing.der"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "certpath verify: missing.der: cannot read: No such file or directory\n")
        // A DER certificate is not an OCSP response either: the rule broken at byte 4.
        let leafDER = try Self.certificate("leaf-good.pem").der
        let certificateFile = directory.appendingPathComponent("leaf.der")
        try Data(leafDER).write(to: certificateFile)
        let certificate = try Self.run(base + [certificateFile.path])
        #expect(certificate.status == 2)
        #expect(certificate.stderr.hasPrefix("certpath verify: \(certificateFile.path): OCSP response 1: byte 4: "))
    }

    /// A DER OCSP response given where a certificate is expected is named as such.
    @Test func responseGivenAsCertificateIsNamed() throws {
        let run = try Self.run(["verify", "resp-good.der", "--anchors", "ca.pem"])
        #expect(run.status == 2)
        #expect(run.stderr == "certpath verify: resp-good.der: is an OCSP response, not a certificate "
                + "(verify takes OCSP responses with --ocsp)\n")
    }

    /// End to end: a valid response saying revoked makes the verdict untrusted, `revoked`.
    @Test func revokedResponseMakesVerifyFail() throws {
        let at = try Self.timeInside("resp-revoked-keycompromise.der")
        let run = try Self.run(["verify", "leaf-revoked.pem", "--anchors", "ca.pem", "--ocsp", "resp-revoked-keycompromise.der",
                                "--at", at, "--json"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let primary = try field(try run.json(), "primaryFailure", as: [String: Any].self)
        #expect(try field(primary, "code", as: String.self) == "revoked")
        let revocation = try field(primary, "revocation", as: [String: Any].self)
        #expect(try field(revocation, "reason", as: String.self) == "keyCompromise")
        #expect(try field(revocation, "date", as: String.self) == "2025-06-01T00:00:00Z")
        let source = try field(revocation, "source", as: [String: Any].self)
        #expect(try field(source, "kind", as: String.self) == "ocsp")
        let responder = try field(source, "responderID", as: [String: Any].self)
        #expect(try field(responder, "byName", as: String.self) == "CN=OCSP Test Responder,O=CertPath Tests")
        let text = try Self.run(["verify", "leaf-revoked.pem", "--anchors", "ca.pem", "--ocsp", "resp-revoked-keycompromise.der", "--at", at])
        #expect(text.status == 1)
        #expect(text.stdout.hasPrefix("untrusted: "))
        #expect(text.stdout.contains("(keyCompromise), per the OCSP response of CN=OCSP Test Responder,O=CertPath Tests produced at "),
                "\(text.stdout)")
    }
}
