import Foundation
import Testing
import CertPath
@testable import CertPathLimbo

/// The x509-limbo harness's reading of a suite, on hand-made suites (no shared vectors needed): the
/// schema version it implements, and a case whose certificate or CRL strings are not each exactly one
/// parsable object.
@Suite struct LimboHarnessTests {
    static func pem(_ name: String) throws -> String {
        try String(contentsOf: TestData.testVectors.appendingPathComponent("sample-pki/\(name)"), encoding: .utf8)
    }

    /// A case of the sample PKI that succeeds, with `change` applied to its JSON members.
    static func testcase(_ change: (inout [String: Any]) -> Void = { _ in }) throws -> LimboTestcase {
        var members: [String: Any] = [
            "id": "sample::server", "description": "the sample PKI's server chain", "validation_kind": "SERVER",
            "trusted_certs": [try pem("rsa/root.pem")], "untrusted_intermediates": [try pem("rsa/intermediate.pem")],
            "peer_certificate": try pem("rsa/server.pem"), "validation_time": "2026-06-01T00:00:00Z",
            "expected_result": "SUCCESS", "expected_peer_name": ["kind": "DNS", "value": "server.customer1.example"],
        ]
        change(&members)
        return try JSONDecoder().decode(LimboTestcase.self, from: JSONSerialization.data(withJSONObject: members))
    }

    static func suite(_ json: String) throws -> LimboSuite {
        try JSONDecoder().decode(LimboSuite.self, from: Data(json.utf8))
    }

    @Test func onlySchemaVersionOneIsAccepted() throws {
        #expect(LimboSuite.schemaVersion == 1)
        #expect(try Self.suite(#"{"version": 1, "testcases": []}"#).testcases.isEmpty)
        for version in [0, 2, 3, -1] {
            #expect(throws: LimboSuiteError.unsupportedVersion(version)) { try Self.suite(#"{"version": \#(version), "testcases": []}"#) }
        }
        // The version is checked before the cases, which another schema may shape differently.
        #expect(throws: LimboSuiteError.unsupportedVersion(2)) { try Self.suite(#"{"testcases": [{"id": 1}], "version": 2}"#) }
        #expect(LimboSuiteError.unsupportedVersion(2).description
            == "x509-limbo schema version 2 is not supported (this harness implements version 1)")
    }

    @Test func theSampleCaseSucceeds() throws {
        let result = LimboHarness().run(try Self.testcase())
        #expect(result.actual_result == "SUCCESS", "\(result.context ?? "")")
    }

    /// The library's own error for `pem`, as the harness quotes it.
    static func libraryError(_ pem: String) -> String? {
        do {
            _ = try PEM.readCertificates(Array(pem.utf8))
            return nil
        } catch {
            return error.description
        }
    }

    @Test func malformedPeerCertificateSaysWhy() throws {
        let server = try Self.pem("rsa/server.pem")
        var lines = server.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[1] = "!" + lines[1].dropFirst()
        let badBase64 = lines.joined(separator: "\n")
        let der = try PEM.readCertificates(Array(server.utf8)).certificates[0].der
        let truncated = PEM.encode(Array(der.dropLast(10)))
        let pemError = try #require(Self.libraryError(badBase64))
        let derError = try #require(Self.libraryError(truncated))
        #expect(pemError == "PEM line 2: the block's base64 is invalid: a character outside base64 on this line")
        #expect(derError.hasPrefix("certificate 1 (PEM block at line 1): byte "))

        let cases: [(String, String)] = [
            ("junk", #"no PEM "CERTIFICATE" block (found only line 1: text)"#),
            ("", #"no PEM "CERTIFICATE" block (empty)"#),
            (try Self.pem("rsa/keys/server.key"), #"no PEM "CERTIFICATE" block (found only line 1: PRIVATE KEY block)"#),
            (badBase64, pemError),
            (truncated, derError),
            (server + server, "2 certificates where the schema has one"),
        ]
        for (peer, reason) in cases {
            let result = LimboHarness().run(try Self.testcase { $0["peer_certificate"] = peer })
            #expect(result.actual_result == "FAILURE")
            #expect(result.context == "peer certificate is malformed: \(reason)")
        }
    }

    @Test func malformedAnchorIntermediateOrCRLSaysWhichAndWhy() throws {
        let root = try Self.pem("rsa/root.pem"), intermediate = try Self.pem("rsa/intermediate.pem")
        var result = LimboHarness().run(try Self.testcase { $0["trusted_certs"] = [root, "junk"] })
        #expect(result.context == #"trusted certificate 2 is malformed: no PEM "CERTIFICATE" block (found only line 1: text)"#)
        result = LimboHarness().run(try Self.testcase { $0["untrusted_intermediates"] = [intermediate, intermediate + intermediate] })
        #expect(result.context == "untrusted intermediate 2 is malformed: 2 certificates where the schema has one")
        result = LimboHarness().run(try Self.testcase { $0["crls"] = ["junk"] })
        #expect(result.context == #"CRL 1 is malformed: no PEM "X509 CRL" block (found only line 1: text)"#)
        #expect(result.actual_result == "FAILURE")
    }
}
