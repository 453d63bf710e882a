import CertPath
import Foundation
import Testing
import TestSupport

/// `certpath verify/show/connect` with Certificate Transparency, on the CT test logs' chains of the
/// sample PKI (TestVectors/ct-test-log, its manifest's validation time and verdicts).
@Suite struct CTCLITests {
    static let folder = CLI.packageRoot.appendingPathComponent("TestVectors/ct-test-log")
    static let time = "2026-06-01T00:00:00Z"

    /// `certpath verify CASE-chain.pem` for the server name at the manifest's time, with the test log list.
    static func verify(_ name: String, _ extra: [String]) throws -> CLI.Run {
        try CLI.run(["verify", "\(name)-chain.pem", "--anchors", "../sample-pki/ecdsa/root.pem", "--server", "server.customer1.example",
                     "--at", time, "--ct-log-list", "log_list.json"] + extra, in: folder)
    }

    static func ct(_ run: CLI.Run) throws -> [String: Any] {
        try field(try run.json(), "certificateTransparency", as: [String: Any].self)
    }

    /// Both policies: 3 SCTs from 3 logs of 2 operators meet 181-398 days (Apple counts at most 2 per operator).
    @Test(arguments: ["apple", "chromium"]) func compliantChainPassesWithRequireCT(_ policy: String) throws {
        let run = try Self.verify("embedded-398d-3logs", ["--require-ct", "--ct-policy", policy, "--json"])
        #expect(run.status == 0, "\(policy): exit \(run.status): \(run.stdout) \(run.stderr)")
        let ct = try Self.ct(run)
        #expect(try field(ct, "compliant", as: Bool.self))
        #expect(try field(ct, "policy", as: String.self) == policy)
        #expect(try field(ct, "lifetimeDays", as: Int.self) == 398)
        let scts = try field(ct, "scts", as: [[String: Any]].self)
        #expect(scts.count == 3)
        #expect(scts.allSatisfy { $0["verified"] as? Bool == true && $0["counted"] as? Bool == true && $0["source"] as? String == "embedded" })
        #expect(Set(scts.compactMap { $0["log"] as? String })
                == ["CertPath Test Log A1 (P-256)", "CertPath Test Log A2 (RSA-2048)", "CertPath Test Log B1 (P-256)"])
    }

    @Test func compliantChainInText() throws {
        let run = try Self.verify("embedded-180d-2logs", ["--require-ct"])
        #expect(run.status == 0, "exit \(run.status): \(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("certificate transparency: Apple policy, lifetime 180 days: compliant (2 SCTs found, 2 verified, 2 counted)"),
                "\(run.stdout)")
    }

    /// Too few: a 398-day certificate needs 3 SCTs; it has 2.
    @Test(arguments: ["apple", "chromium"]) func tooFewSCTsFailsNamingTheRule(_ policy: String) throws {
        let run = try Self.verify("embedded-398d-2logs", ["--require-ct", "--ct-policy", policy, "--json"])
        #expect(run.status == 1, "\(policy): exit \(run.status)")
        let primary = try field(try run.json(), "primaryFailure", as: [String: Any].self)
        #expect(try field(primary, "code", as: String.self) == "certificateTransparencyNotCompliant")
        let rules = try field(try Self.ct(run), "unmetRules", as: [[String: Any]].self)
        #expect(rules.contains { $0["rule"] as? String == "tooFewSCTs" }, "\(policy): \(rules)")
    }

    /// One operator: Chromium wants 2 distinct operators; Apple counts 1 SCT per operator at 180 days.
    @Test func oneOperatorFailsUnderBothPolicies() throws {
        let chromium = try Self.verify("embedded-180d-one-operator", ["--require-ct", "--ct-policy", "chromium", "--json"])
        #expect(chromium.status == 1)
        let chromiumRules = try field(try Self.ct(chromium), "unmetRules", as: [[String: Any]].self)
        #expect(chromiumRules.contains { $0["rule"] as? String == "tooFewOperators" }, "\(chromiumRules)")
        let apple = try Self.verify("embedded-180d-one-operator", ["--require-ct", "--ct-policy", "apple"])
        #expect(apple.status == 1)
        #expect(apple.stdout.contains("unmet: a certificate valid for 180 days needs 2 SCTs from distinct approved logs, at most 1 per log operator; 1 counted"),
                "\(apple.stdout)")
    }

    /// Without --require-ct the caller's own anchor needs no CT (as SecTrust), and the report says so.
    @Test func ownAnchorWithoutRequireCT() throws {
        let run = try Self.verify("embedded-398d-2logs", [])
        #expect(run.status == 0, "exit \(run.status): \(run.stdout)")
        #expect(run.stdout.contains("certificate transparency: not examined"), "\(run.stdout)")
    }

    @Test func requireCTWithoutALogListIsAUsageError() throws {
        let run = try CLI.run(["verify", "embedded-398d-3logs-chain.pem", "--anchors", "../sample-pki/ecdsa/root.pem", "--require-ct"],
                              in: Self.folder)
        #expect(run.status == 2)
        #expect(run.stderr.contains("--ct-log-list"), "\(run.stderr)")
    }

    @Test func showNamesEachLogAndVerifies() throws {
        let run = try CLI.run(["show", "embedded-398d-3logs.pem", "--ct-log-list", "log_list.json",
                               "--intermediates", "../sample-pki/ecdsa/intermediate.pem"], in: Self.folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("SCT 1: CertPath Test Log A1 (P-256) (CertPath Test Operator A), 2026-05-01T00:10:00Z: verified"), "\(run.stdout)")
        #expect(run.stdout.contains("SCT 2: CertPath Test Log A2 (RSA-2048) (CertPath Test Operator A), 2026-05-01T00:11:00Z: verified"))
        #expect(run.stdout.contains("SCT 3: CertPath Test Log B1 (P-256) (CertPath Test Operator B), 2026-05-01T00:12:00Z: verified"))
        let json = try CLI.run(["show", "embedded-398d-3logs.pem", "--ct-log-list", "log_list.json",
                                "--intermediates", "../sample-pki/ecdsa/intermediate.pem", "--json"], in: Self.folder).json()
        let file = try #require(try field(json, "files", as: [[String: Any]].self).first)
        let ct = try #require(try field(file, "certificateTransparency", as: [[String: Any]].self).first)
        let scts = try field(ct, "scts", as: [[String: Any]].self)
        #expect(scts.count == 3 && scts.allSatisfy { $0["verified"] as? Bool == true })
        // The status is a stable code; the words are beside it.
        #expect(scts.allSatisfy { $0["status"] as? String == "verified" && $0["statusText"] as? String == "verified" })
    }

    @Test func showWithoutTheIssuerSaysSo() throws {
        let run = try CLI.run(["show", "embedded-398d-3logs.pem", "--ct-log-list", "log_list.json"], in: Self.folder)
        #expect(run.status == 0)
        #expect(run.stdout.contains("issuer not found: give it with --intermediates or --anchors"), "\(run.stdout)")
        #expect(run.stdout.contains("not checked (no issuer)"))
    }

    /// connect: the SCTs of the TLS extension (openssl s_server -serverinfo) are shown and make the
    /// 90-day leaf, which has none embedded, compliant.
    @Test func connectShowsAndUsesTheHandshakeSCTs() throws {
        let (server, port) = try OpenSSLProcess.server(
            ["-cert", Self.folder.appendingPathComponent("tls-90d-2logs.pem").path,
             "-cert_chain", CLI.samplePKI.appendingPathComponent("ecdsa/intermediate.pem").path,
             "-key", CLI.samplePKI.appendingPathComponent("ecdsa/keys/server.key").path,
             "-serverinfo", Self.folder.appendingPathComponent("tls-90d-2logs.serverinfov2.pem").path, "-naccept", "1"],
            label: "connect with SCTs")
        defer { server.stop() }
        let run = try CLI.run(["connect", "127.0.0.1:\(port)", "--server", "server.customer1.example", "--anchors", "../sample-pki/ecdsa/root.pem",
                               "--at", Self.time, "--timeout", "10", "--ct-log-list", "log_list.json", "--require-ct", "--ct-policy", "chromium"],
                              in: Self.folder)
        #expect(run.status == 0, "exit \(run.status): \(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("signed certificate timestamps (TLS extension): 2"), "\(run.stdout)")
        #expect(run.stdout.contains("  CertPath Test Log A1 (P-256) (CertPath Test Operator A), 2026-05-01T00:10:00Z"))
        #expect(run.stdout.contains("certificate transparency: Chromium policy, lifetime 90 days: compliant (2 SCTs found, 2 verified, 2 counted)"))
    }
}
