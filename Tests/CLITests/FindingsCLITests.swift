import Foundation
import Testing

/// The interoperable default for the caller's own anchors (issue 30, class 11): a private PKI whose
/// certificates break only rules RFC 5280 section 4 addresses to the issuing CA is trusted, each
/// broken rule reported as a finding (text and JSON); the strict `--profile rfc5280` refuses it.
/// Data: TestVectors/private-pki-findings (generate.sh says what each certificate breaks).
@Suite("certpath verify: findings under the interoperable default")
struct FindingsCLITests {
    static let folder = CLI.packageRoot.appendingPathComponent("TestVectors/private-pki-findings")
    static let arguments = ["verify", "server.pem", "--intermediates", "intermediate.pem", "--anchors", "root.pem",
                            "--server", "api.findings.test", "--at", "2027-06-01T00:00:00Z"]
    /// What generate.sh makes each certificate break: (position, subject, rule).
    static let expected: Set<String> = [
        "endEntity CN=api.findings.test missingAuthorityKeyIdentifier",
        "intermediate CN=Findings Customer CA basicConstraintsNotCritical",
        "intermediate CN=Findings Customer CA missingKeyUsage",
        "intermediate CN=Findings Customer CA missingAuthorityKeyIdentifier",
        "intermediate CN=Findings Customer CA missingSubjectKeyIdentifier",
    ]

    @Test("Trusted by default, every CA-side rule listed as a finding")
    func trustedWithFindings() throws {
        let run = try CLI.run(Self.arguments, in: Self.folder)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("trusted: CN=api.findings.test"))
        #expect(run.stdout.contains("profile: interoperable (auto: the caller's anchors)"))
        #expect(run.stdout.contains("  intermediate CN=Findings Customer CA: basicConstraintsNotCritical: "
            + "a CA certificate's basicConstraints is not critical (RFC 5280 4.2.1.9)"))
        #expect(run.stdout.contains("  end entity CN=api.findings.test: missingAuthorityKeyIdentifier: "))
    }

    @Test("JSON: findings with rule, clause, whom it binds, position and subject")
    func jsonFindings() throws {
        let run = try CLI.run(Self.arguments + ["--json"], in: Self.folder)
        #expect(run.status == 0)
        let json = try run.json()
        #expect(try field(json, "appliedProfile", as: String.self) == "interoperable")
        let findings = try field(json, "findings", as: [[String: Any]].self)
        let described = Set(try findings.map {
            "\(try field($0, "position", as: String.self)) \(try field($0, "subject", as: String.self)) \(try field($0, "rule", as: String.self))"
        })
        #expect(described == Self.expected)
        for finding in findings {
            #expect(try field(finding, "binds", as: String.self) == "CA")
            #expect(try field(finding, "clause", as: String.self).hasPrefix("RFC 5280 4."))
        }
    }

    @Test("--profile rfc5280 refuses the same chain for the first CA-side rule")
    func strictRefuses() throws {
        let run = try CLI.run(Self.arguments + ["--profile", "rfc5280", "--json"], in: Self.folder)
        #expect(run.status == 1)
        let json = try run.json()
        let primary = try field(json, "primaryFailure", as: [String: Any].self)
        #expect(try field(primary, "code", as: String.self) == "profileViolation")
        #expect(try field(json, "findings", as: [Any].self).isEmpty, "rfc5280 fails these rules rather than reporting them")
    }
}
