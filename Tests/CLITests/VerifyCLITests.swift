import CertPath
import Foundation
import Testing
import TestSupport

/// `certpath verify` through the built executable: exit statuses, the human report, the JSON schema,
/// the sample PKI manifest, trust exceptions, pins, system anchors and the policy flags.
@Suite struct VerifyCLITests {
    // MARK: - Sample PKI manifest

    struct ManifestCase: Decodable, CustomTestStringConvertible, Sendable {
        let id: String
        let leaf: String
        let intermediates: [String]
        let anchors: [String]
        let purpose: String
        let hostname: String?
        let ip: String?
        let time: String
        let expected: String
        let failure: String?
        var testDescription: String { id }
    }

    struct Manifest: Decodable {
        let format: String
        let cases: [ManifestCase]
    }

    static let manifest: [ManifestCase] = {
        let url = CLI.samplePKI.appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: url), let manifest = try? JSONDecoder().decode(Manifest.self, from: data) else { return [] }
        return manifest.cases
    }()

    static let manifestCases = manifest

    @Test func manifestIsRead() {
        #expect(Self.manifest.count >= 20)
        #expect(Self.manifestCases.count >= 15)
    }

    @Test(arguments: manifestCases) func manifestCaseThroughTheCLI(_ testCase: ManifestCase) throws {
        var arguments = ["verify", testCase.leaf, "--at", testCase.time, "--json"]
        for file in testCase.intermediates { arguments += ["--intermediates", file] }
        for file in testCase.anchors { arguments += ["--anchors", file] }
        if let hostname = testCase.hostname { arguments += ["--server", hostname] }
        if let ip = testCase.ip { arguments += ["--ip", ip] }
        if testCase.purpose == "client" { arguments += ["--client"] }
        let run = try CLI.run(arguments)
        let json = try run.json()
        if testCase.expected == "trusted" {
            #expect(run.status == 0, "\(run.stdout)")
            #expect(try field(json, "status", as: String.self) == "trusted")
            #expect(json["primaryFailure"] is NSNull)
        } else {
            #expect(run.status == 1, "\(run.stdout)")
            #expect(try field(json, "status", as: String.self) == "untrusted")
            let primary = try field(json, "primaryFailure", as: [String: Any].self)
            #expect(try field(primary, "code", as: String.self) == testCase.failure)
        }
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    // MARK: - Revocation

    /// Reviewer finding: a DER CRL given where a certificate is expected was reported as a DER rule
    /// broken at byte 4; it is now named for what it is.
    /// Reviewer finding: a chain file with the intermediate first gave a keyUsage verdict about the
    /// CA, with nothing saying the file's order was the likely cause.
    @Test func chainFileInTheWrongOrderIsPointedOut() throws {
        func text(_ name: String) throws -> String {
            try String(contentsOf: CLI.samplePKI.appendingPathComponent(name), encoding: .utf8)
        }
        let reversed = try text("rsa/intermediate.pem") + text("rsa/server.pem")
        let run = try CLI.run(["verify", "-", "--anchors", "rsa/root.pem", "--server", "server.customer1.example", "--at", "2026-06-01"],
                              input: reversed)
        #expect(run.status == 1)
        #expect(run.stderr == "certpath verify: warning: the first certificate of - is a CA certificate and a later one is not: "
                + "the end entity is taken to be the first (list it first, as a server sends its chain)\n")
        // In the right order: trusted, no warning.
        let right = try CLI.run(["verify", "rsa/server-chain.pem", "--anchors", "rsa/root.pem", "--server", "server.customer1.example",
                                 "--at", "2026-06-01"])
        #expect(right.status == 0 && right.stderr.isEmpty)
    }

    @Test func crlGivenAsCertificateIsNamed() throws {
        guard let vectors = CryptographyVectors.folder else {
            print("SKIPPED crlGivenAsCertificateIsNamed: cryptography-vectors is not installed (run scripts/bootstrap)")
            return
        }
        let pkits = vectors.appendingPathComponent("x509/PKITS_data")
        for command in [["verify", "crls/GoodCACRL.crl", "--anchors", "certs/TrustAnchorRootCertificate.crt"], ["show", "crls/GoodCACRL.crl"]] {
            let run = try CLI.run(command, in: pkits)
            #expect(run.status == 2)
            #expect(run.stderr == "certpath \(command[0]): crls/GoodCACRL.crl: is a CRL (CertificateList), not a certificate "
                    + "(verify takes CRLs with --crl)\n")
        }
        // A DER certificate beside it is read as before.
        #expect(try CLI.run(["show", "certs/GoodCACert.crt"], in: pkits).status == 0)
    }

    /// NIST PKITS 4.4.3 (Invalid Revoked EE Test3) through `--crl`, from the installed cryptography-vectors.
    @Test func revokedEndEntityWithCRLs() throws {
        guard let vectors = CryptographyVectors.folder else {
            print("SKIPPED revokedEndEntityWithCRLs: cryptography-vectors is not installed (run scripts/bootstrap)")
            return
        }
        let pkits = vectors.appendingPathComponent("x509/PKITS_data")
        let base = ["verify", "certs/InvalidRevokedEETest3EE.crt", "--intermediates", "certs/GoodCACert.crt",
                    "--anchors", "certs/TrustAnchorRootCertificate.crt", "--at", "2020-01-01T00:00:00Z", "--profile", "rfc5280", "--json"]
        let withoutCRLs = try CLI.run(base, in: pkits)
        #expect(withoutCRLs.status == 0, "\(withoutCRLs.stdout) \(withoutCRLs.stderr)")
        let revoked = try CLI.run(base + ["--crl", "crls/GoodCACRL.crl", "--crl", "crls/TrustAnchorRootCRL.crl"], in: pkits)
        #expect(revoked.status == 1, "\(revoked.stdout) \(revoked.stderr)")
        let primary = try field(try revoked.json(), "primaryFailure", as: [String: Any].self)
        #expect(try field(primary, "code", as: String.self) == "revoked")
        #expect(try field(primary, "recoverable", as: Bool.self) == false)
    }

    // MARK: - Public suffix list

    /// `*.wild.tls.test` (TestVectors/pathbuilding/tls/wildcard.pem) for `a.wild.tls.test`: trusted,
    /// unless a public suffix list makes `wild.tls.test` a public suffix.
    @Test func publicSuffixListRefusesWildcardsUnderASuffix() throws {
        let scratch = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let tls = CLI.packageRoot.appendingPathComponent("TestVectors/pathbuilding/tls")
        let list = scratch.appendingPathComponent("list.dat"), empty = scratch.appendingPathComponent("empty.dat")
        try Data("// a test list\nwild.tls.test\n".utf8).write(to: list)
        try Data("// comments only\n\n".utf8).write(to: empty)
        let base = ["verify", "wildcard.pem", "--intermediates", "ca.pem", "--anchors", "root.pem",
                    "--server", "a.wild.tls.test", "--at", "2026-06-01"]
        #expect(try CLI.run(base, in: tls).status == 0)
        let refused = try CLI.run(base + ["--public-suffix-list", list.path], in: tls)
        #expect(refused.status == 1)
        #expect(refused.stdout.hasPrefix("untrusted: "), "\(refused.stdout)")
        #expect(refused.stdout.hasPrefix("untrusted: the certificate is not valid for a.wild.tls.test; it is valid for DNS:*.wild.tls.test "
            + "(*.wild.tls.test is a wildcard directly under a public suffix, refused as the public suffix list requires)\n"), "\(refused.stdout)")
        let unusable = try CLI.run(base + ["--public-suffix-list", empty.path], in: tls)
        #expect(unusable.status == 2)
        #expect(unusable.errorLines.last?.hasSuffix("no public suffix rules found (expected the text of public_suffix_list.dat)") == true,
                "\(unusable.stderr)")
    }

    /// Files that are not a public suffix list are refused, not taken as lists with the check
    /// quietly doing nothing: binary or non-UTF-8 files, and text whose lines are mostly not rules.
    @Test func publicSuffixListMustLookLikeOne() throws {
        let scratch = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let tls = CLI.packageRoot.appendingPathComponent("TestVectors/pathbuilding/tls")
        let base = ["verify", "wildcard.pem", "--intermediates", "ca.pem", "--anchors", "root.pem",
                    "--server", "a.wild.tls.test", "--at", "2026-06-01", "--public-suffix-list"]
        let binary = scratch.appendingPathComponent("list.dafsa"), prose = scratch.appendingPathComponent("notes.txt")
        let bom = scratch.appendingPathComponent("bom.dat")
        try Data([0x61, 0x0A, 0x62, 0xFF, 0x63, 0x0A]).write(to: binary)
        try Data("# Notes\n\nThis file - is not a list.\n- item one\n- item two\n- item three\nwords\n".utf8).write(to: prose)
        try Data([0xEF, 0xBB, 0xBF] + Array("wild.tls.test\n".utf8)).write(to: bom)
        var run = try CLI.run(base + [binary.path], in: tls)
        #expect(run.status == 2)
        #expect(run.stderr == "certpath verify: --public-suffix-list \(binary.path): line 2: not UTF-8 text (byte 3)\n")
        run = try CLI.run(base + [prose.path], in: tls)
        #expect(run.status == 2)
        #expect(run.stderr == "certpath verify: --public-suffix-list \(prose.path): 4 lines are not public suffix rules and only 2 are: "
            + "this is not a public suffix list (expected the text of public_suffix_list.dat)\n", "\(run.stderr)")
        // A byte order mark is not part of the first rule.
        run = try CLI.run(base + [bom.path], in: tls)
        #expect(run.status == 1)
        #expect(run.stdout.contains("is a wildcard directly under a public suffix"))
    }

    // MARK: - Human output

    @Test func trustedHumanReport() throws {
        let run = try CLI.run(CLI.trustedServer)
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "trusted: CN=server.customer1.example,O=Customer 1 for TLS server server.customer1.example")
        #expect(lines.contains("path:"))
        #expect(lines.contains("  [0] end entity: CN=server.customer1.example,O=Customer 1"))
        #expect(lines.contains("  [1] intermediate: CN=Example Corp Customer 1 CA R1,OU=Customer 1,O=Example Corp,C=US"))
        #expect(lines.contains("  [2] trust anchor: CN=Example Corp Root CA R1,O=Example Corp,C=US"))
        let leaf = try #require(try CLI.certificates("rsa/server.pem").first)
        let fingerprint = SHA256Digest(hashing: leaf.der).hex
        #expect(lines.contains("      sha256:   \(fingerprint.prefix(16))…"))
        #expect(lines.contains("      validity: 2025-01-01T00:00:00Z to 2045-01-01T00:00:00Z"))
        #expect(lines.contains("      key:      RSA-2048"))
        // The caller's own anchors: the automatic profile resolves to RFC 5280, not the Web PKI's rules.
        #expect(lines.contains("validation time: 2026-06-01T00:00:00Z, profile: interoperable (auto: the caller's anchors)"))
        #expect(!run.stdout.contains("attempts ("))
    }

    @Test func untrustedHumanReportWithExplain() throws {
        let run = try CLI.run(["verify", "rsa/server-expired.pem", "--intermediates", "rsa/intermediate.pem", "--anchors", "rsa/root.pem",
                               "--server", "server.customer1.example", "--at", CLI.time, "--explain"])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "untrusted: CN=server.customer1.example,O=Customer 1 expired at 2021-01-01T00:00:00Z "
            + "(validation time 2026-06-01T00:00:00Z)")
        #expect(lines.contains("path (best attempt, ends at a trust anchor):"))
        #expect(lines.contains("summary:"))
        #expect(lines.contains("  intermediate: CN=Example Corp Customer 1 CA R1,OU=Customer 1,O=Example Corp,C=US: ok"))
        #expect(lines.contains("failure class: recoverable (a trust exception, --save-exceptions, would accept exactly these failures for this certificate)"))
        #expect(lines.contains("attempts (1):"))
        #expect(lines.contains("  attempt 1 (reaches a trust anchor):"))
        #expect(lines.contains { $0.hasPrefix("        expired: CN=server.customer1.example,O=Customer 1 expired at 2021-01-01") })
    }

    /// Reviewer finding: `--anchors server.pem` (the leaf itself as an anchor) said only that the
    /// intermediate was missing; the note says why the anchor does not trust it, and what would.
    @Test func issuedLeafGivenAsAnchorGetsANote() throws {
        let run = try CLI.run(["verify", "rsa/server.pem", "--anchors", "rsa/server.pem", "--server", "server.customer1.example",
                               "--at", CLI.time])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("note: the leaf is itself among the anchors, but an anchor only ends a path above a certificate; "
            + "to trust this one certificate by itself, pin its key (--pin-sha256, docs/CLI.md)"))
        // Not said when the anchors do not hold the leaf.
        let other = try CLI.run(["verify", "rsa/server.pem", "--anchors", "rsa/root.pem", "--server", "server.customer1.example", "--at", CLI.time])
        #expect(!other.stdout.contains("note: the leaf"))
    }

    @Test func missingIntermediateIsExplainedInPlainWords() throws {
        let run = try CLI.run(["verify", "rsa/server.pem", "--anchors", "rsa/root.pem", "--server", "server.customer1.example",
                               "--at", CLI.time])
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("untrusted: no certificate for issuer CN=Example Corp Customer 1 CA R1,OU=Customer 1,O=Example Corp,C=US"
            + " of CN=server.customer1.example,O=Customer 1; its issuer's certificate was not presented"))
        #expect(run.stdout.contains("path (best attempt, no trust anchor reached):"))
    }

    // MARK: - JSON schema

    /// Checks the documented members of a certificate of `chain`.
    func checkCertificate(_ certificate: [String: Any], role: String, _ expected: Certificate) throws {
        #expect(try field(certificate, "role", as: String.self) == role)
        #expect(try field(certificate, "subject", as: String.self) == expected.subject.description)
        #expect(try field(certificate, "issuer", as: String.self) == expected.issuer.description)
        #expect(try field(certificate, "serial", as: String.self) == expected.serialNumberHex)
        #expect(try field(certificate, "notBefore", as: String.self) == expected.notBefore.description)
        #expect(try field(certificate, "notAfter", as: String.self) == expected.notAfter.description)
        #expect(try field(certificate, "publicKey", as: String.self) == expected.subjectPublicKeyInfo.key.summary)
        #expect(try field(certificate, "sha256", as: String.self) == SHA256Digest(hashing: expected.der).hex)
        #expect(try field(certificate, "keyPin", as: String.self) == SHA256Digest(hashing: expected.subjectPublicKeyInfo.der).base64)
        _ = try field(certificate, "failures", as: [Any].self)
    }

    @Test func trustedJSONSchema() throws {
        let run = try CLI.run(CLI.trustedServer + ["--json"])
        #expect(run.status == 0)
        let json = try run.json()
        #expect(try field(json, "format", as: String.self) == "certpath-verify")
        #expect(try field(json, "version", as: Int.self) == 1)
        #expect(try field(json, "status", as: String.self) == "trusted")
        #expect(try field(json, "trusted", as: Bool.self) == true)
        let purpose = try field(json, "purpose", as: [String: Any].self)
        #expect(try field(purpose, "kind", as: String.self) == "server")
        #expect(try field(purpose, "name", as: String.self) == "server.customer1.example")
        #expect(try field(json, "profile", as: String.self) == "auto")
        #expect(try field(json, "appliedProfile", as: String.self) == "interoperable")
        #expect(try field(json, "findings", as: [Any].self).isEmpty, "the sample PKI conforms to RFC 5280 section 4")
        #expect(try field(json, "validationTime", as: String.self) == CLI.time)
        let chain = try field(json, "chain", as: [[String: Any]].self)
        #expect(chain.count == 3)
        if chain.count == 3 {
            try checkCertificate(chain[0], role: "end entity", try #require(try CLI.certificates("rsa/server.pem").first))
            try checkCertificate(chain[1], role: "intermediate", try #require(try CLI.certificates("rsa/intermediate.pem").first))
            try checkCertificate(chain[2], role: "trust anchor", try #require(try CLI.certificates("rsa/root.pem").first))
        }
        #expect(try field(json, "anchorReached", as: Bool.self) == true)
        #expect(json["primaryFailure"] is NSNull)
        #expect(try field(json, "failures", as: [Any].self).isEmpty)
        #expect(try field(json, "trustedByException", as: Bool.self) == false)
        #expect(try field(json, "acceptedFailures", as: [Any].self).isEmpty)
        #expect(try field(json, "exceptionAvailable", as: Bool.self) == false)
        #expect(json["summary"] is NSNull)
        #expect(json["attempts"] == nil, "attempts only with --explain")
    }

    /// Reviewer finding: `--explain` on a cross-signed mesh printed every attempt (648 MB of JSON,
    /// 2.3 GB of memory for 3,540 certificates); the first 100 are listed and the rest counted.
    @Test func explainListsABoundedNumberOfAttempts() throws {
        let mesh = ["verify", "../pathbuilding/full-mesh/leaf.pem", "--intermediates", "../pathbuilding/full-mesh/intermediates.pem",
                    "--anchors", "../pathbuilding/full-mesh/root.pem", "--server", "mesh.test", "--at", CLI.time, "--explain"]
        let json = try CLI.run(mesh + ["--json"]).json()
        #expect(try field(json, "attempts", as: [Any].self).count == 100)
        let notListed = try field(json, "attemptsNotListed", as: Int.self)
        // (Thousands of paths before issue 30; every path validated is now charged to the cost
        // budget, which ends the search after a few hundred.)
        #expect(notListed > 0)
        let human = try CLI.run(mesh)
        #expect(human.status == 1)
        #expect(human.stdout.contains("attempts (the first 100 of \(100 + notListed); the rest are not listed):"))
        #expect(human.stdout.components(separatedBy: "\n  attempt ").count - 1 == 100)
        // Few attempts: all listed, none counted.
        let small = try CLI.run(["verify", "rsa/server-chain.pem", "--anchors", "rsa/root.pem", "--server", "server.customer1.example",
                                 "--at", CLI.time, "--json", "--explain"]).json()
        #expect(try field(small, "attemptsNotListed", as: Int.self) == 0)
    }

    @Test func untrustedJSONSchemaWithAttempts() throws {
        let run = try CLI.run(["verify", "rsa/server-chain.pem", "--anchors", "rsa/root.pem", "--server", "www.customer2.example",
                               "--at", CLI.time, "--json", "--explain"])
        #expect(run.status == 1)
        let json = try run.json()
        #expect(try field(json, "status", as: String.self) == "untrusted")
        #expect(try field(json, "trusted", as: Bool.self) == false)
        let primary = try field(json, "primaryFailure", as: [String: Any].self)
        #expect(try field(primary, "code", as: String.self) == "hostnameMismatch")
        #expect(try field(primary, "recoverable", as: Bool.self) == true)
        #expect(try field(primary, "message", as: String.self)
            == "the certificate is not valid for www.customer2.example; it is valid for DNS:server.customer1.example, IP:192.0.2.10")
        #expect(try field(primary, "certificate", as: String.self) == "CN=server.customer1.example,O=Customer 1")
        // The typed evidence (issue 23): the reference identifier and the presented identifiers, each with its type.
        let names = try field(primary, "names", as: [String: Any].self)
        #expect(try field(names, "reference", as: [String: String].self) == ["type": "dns", "value": "www.customer2.example"])
        #expect(try field(names, "presented", as: [[String: String]].self)
                == [["type": "dns", "value": "server.customer1.example"], ["type": "ip", "value": "192.0.2.10"]])
        let leaf = try #require(try CLI.certificates("rsa/server.pem").first)
        #expect(try field(primary, "certificateSHA256", as: String.self) == SHA256Digest(hashing: leaf.der).hex)
        let failures = try field(json, "failures", as: [[String: Any]].self)
        #expect(failures.map { $0["code"] as? String } == ["hostnameMismatch"])
        let chain = try field(json, "chain", as: [[String: Any]].self)
        #expect(chain.count == 3)
        #expect((chain.first?["failures"] as? [[String: Any]])?.first?["code"] as? String == "hostnameMismatch")
        #expect((chain.last?["failures"] as? [Any])?.isEmpty == true)
        #expect(try field(json, "exceptionAvailable", as: Bool.self) == true)
        #expect(try field(json, "summary", as: String.self).hasPrefix("the certificate is not valid for www.customer2.example"))
        let attempts = try field(json, "attempts", as: [[String: Any]].self)
        #expect(!attempts.isEmpty)
        let attempt = try #require(attempts.first)
        #expect(try field(attempt, "anchorReached", as: Bool.self) == true)
        #expect(try field(attempt, "valid", as: Bool.self) == false)
        #expect(try field(attempt, "chain", as: [[String: Any]].self).count == 3)
        _ = try field(attempt, "pathFailures", as: [Any].self)
    }

    @Test func fatalFailureInJSON() throws {
        let run = try CLI.run(["verify", "rsa/server-bad-signature.pem", "--intermediates", "rsa/intermediate.pem",
                               "--anchors", "rsa/root.pem", "--at", CLI.time, "--json"])
        #expect(run.status == 1)
        let json = try run.json()
        let primary = try field(json, "primaryFailure", as: [String: Any].self)
        #expect(try field(primary, "code", as: String.self) == "badSignature")
        #expect(try field(primary, "recoverable", as: Bool.self) == false)
        #expect(try field(json, "exceptionAvailable", as: Bool.self) == false)
        let purpose = try field(json, "purpose", as: [String: Any].self)
        #expect(try field(purpose, "kind", as: String.self) == "any")
    }

    // MARK: - Chains, anchors, pins

    @Test func leafFileMayHoldTheWholeChain() throws {
        // server-chain.pem is leaf + intermediate: no --intermediates needed.
        let run = try CLI.run(["verify", "rsa/server-chain.pem", "--anchors", "rsa/root.pem", "--ip", "192.0.2.10", "--at", CLI.time])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.hasPrefix("trusted: CN=server.customer1.example,O=Customer 1 for TLS server 192.0.2.10"))
    }

    @Test func systemAnchorsAreTheDefaultWithoutAnchors() throws {
        let root = CLI.samplePKI.appendingPathComponent("rsa/root.pem").path
        let arguments = ["verify", "rsa/server-chain.pem", "--server", "server.customer1.example", "--at", CLI.time]
        // The system store (SSL_CERT_FILE) holds the sample root: trusted without --anchors.
        #expect(try CLI.run(arguments, environment: ["SSL_CERT_FILE": root]).status == 0)
        // With --anchors only the given anchors count.
        let onlyOld = try CLI.run(arguments + ["--anchors", "rsa/old-root.pem", "--json"], environment: ["SSL_CERT_FILE": root])
        #expect(onlyOld.status == 1)
        // --system-anchors adds the system store to them.
        #expect(try CLI.run(arguments + ["--anchors", "rsa/old-root.pem", "--system-anchors"], environment: ["SSL_CERT_FILE": root]).status == 0)
        // An empty system store: untrusted, with a warning on stderr.
        let empty = try CLI.run(arguments)
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("warning: no system anchors found"))
        // Review finding: SSL_CERT_FILE naming nothing, beside a usable SSL_CERT_DIR, was silent.
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: root, toPath: directory.appendingPathComponent("root.pem").path)
        let missingFile = try CLI.run(arguments, environment: ["SSL_CERT_FILE": "/nonexistent", "SSL_CERT_DIR": directory.path])
        #expect(missingFile.status == 0)
        #expect(missingFile.stderr == "certpath verify: warning: SSL_CERT_FILE /nonexistent is missing, not a regular file, unreadable, "
                + "over 64 MiB or without certificates; the system anchors come from SSL_CERT_DIR alone\n")
    }

    func keyPin(_ file: String) throws -> String {
        let certificate = try #require(try CLI.certificates(file).first)
        return SHA256Digest(hashing: certificate.subjectPublicKeyInfo.der).base64
    }

    @Test func pinnedSelfSignedServer() throws {
        let pin = try keyPin("rsa/selfsigned-server.pem")
        let base = ["verify", "rsa/selfsigned-server.pem", "--server", "selfsigned.customer1.example", "--at", CLI.time]
        let pinned = try CLI.run(base + ["--pin-sha256", pin, "--json"])
        #expect(pinned.status == 0, "\(pinned.stdout)")
        let chain = try field(try pinned.json(), "chain", as: [[String: Any]].self)
        #expect(chain.map { $0["role"] as? String } == ["end entity, trusted directly"])
        // The curl spelling of the same pin.
        #expect(try CLI.run(base + ["--pin-sha256", "sha256//" + pin]).status == 0)
        // Without the pin, against the sample root: self-signed and not trusted.
        let unpinned = try CLI.run(base + ["--anchors", "rsa/root.pem", "--json"])
        #expect(unpinned.status == 1)
        #expect((try unpinned.json()["primaryFailure"] as? [String: Any])?["code"] as? String == "selfSignedNotTrusted")
        // The pin does not excuse a name mismatch.
        let otherName = try CLI.run(["verify", "rsa/selfsigned-server.pem", "--server", "other.example", "--at", CLI.time,
                                     "--pin-sha256", pin, "--json"])
        #expect(otherName.status == 1)
        #expect((try otherName.json()["primaryFailure"] as? [String: Any])?["code"] as? String == "hostnameMismatch")
    }

    @Test func pinnedKeyIsRequiredInThePath() throws {
        // The intermediate's key pinned: it becomes the anchor, and the path contains it.
        let intermediatePin = try keyPin("rsa/intermediate.pem")
        let viaPin = try CLI.run(["verify", "rsa/server-chain.pem", "--server", "server.customer1.example", "--at", CLI.time,
                                  "--pin-sha256", intermediatePin, "--json"])
        #expect(viaPin.status == 0, "\(viaPin.stdout)")
        #expect(try field(try viaPin.json(), "chain", as: [[String: Any]].self).last?["role"] as? String == "trust anchor")
        // A pin of a key that is not in the path: pinMismatch even though the root anchors the path.
        let wrongPin = try CLI.run(CLI.trustedServer + ["--pin-sha256", try keyPin("rsa/old-root.pem"), "--json"])
        #expect(wrongPin.status == 1)
        #expect((try wrongPin.json()["primaryFailure"] as? [String: Any])?["code"] as? String == "pinMismatch")
    }

    // MARK: - Trust exceptions

    /// An exception file is read as the bytes its checksum covers: bytes that are not UTF-8 are
    /// refused on their line, not replaced (which would make every checksum mismatch).
    @Test func exceptionsFileMustBeUTF8() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("exceptions.txt")
        let a = String(repeating: "a", count: 64)
        var bytes = Array("certpath-trust-exceptions 1\nleaf \(a)\nfailure hostnameMismatch \(a) x".utf8) + [0xFF] + Array("y\n".utf8)
        bytes += Array("checksum \(SHA256Digest(hashing: bytes).hex)\n".utf8)
        try Data(bytes).write(to: file)
        let run = try CLI.run(["verify", "rsa/server-chain.pem", "--anchors", "rsa/root.pem", "--at", CLI.time,
                               "--server", "server.customer1.example", "--exceptions", file.path])
        #expect(run.status == 2)
        #expect(run.stderr == "certpath verify: \(file.path): line 3: not UTF-8 text (byte \(bytes.firstIndex(of: 0xFF)!))\n", "\(run.stderr)")
    }

    /// Reviewer finding: `--save-exceptions` into a file holding another leaf's exception replaced
    /// it silently. The file's other entries are kept (this leaf's replaced); a file that is not a
    /// trust exceptions file is not overwritten.
    @Test func savingExceptionsKeepsTheFilesOtherEntries() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("exceptions.txt").path
        let expired = ["verify", "rsa/server-expired.pem", "--intermediates", "rsa/intermediate.pem", "--anchors", "rsa/root.pem",
                       "--at", CLI.time, "--server", "server.customer1.example"]
        let selfSigned = ["verify", "rsa/selfsigned-server.pem", "--anchors", "rsa/root.pem", "--at", CLI.time,
                          "--server", "selfsigned.customer1.example"]
        #expect(try CLI.run(expired + ["--save-exceptions", file]).status == 1)
        let second = try CLI.run(selfSigned + ["--save-exceptions", file])
        #expect(second.stderr.hasPrefix("certpath verify: saved trust exception "), "\(second.stderr)")
        #expect(second.stderr.hasSuffix(" for this leaf accepting selfSignedNotTrusted for the purpose server to \(file) (kept the file's 1 other entry)\n"), "\(second.stderr)")
        #expect(try CLI.run(expired + ["--exceptions", file]).status == 0)
        #expect(try CLI.run(selfSigned + ["--exceptions", file]).status == 0)
        // Saving the same leaf again replaces its own entry, and keeps the other.
        #expect(try CLI.run(expired + ["--save-exceptions", file]).stderr
            .hasSuffix("(kept the file's 1 other entry; replaced 1 earlier entry for this certificate, purpose and host)\n"))
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.components(separatedBy: "\nleaf ").count == 3)
        // Not a trust exceptions file: left as it is.
        let other = directory.appendingPathComponent("notes.txt").path
        try "my notes\n".write(toFile: other, atomically: true, encoding: .utf8)
        let refused = try CLI.run(expired + ["--save-exceptions", other])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("certpath verify: nothing saved to \(other): it exists and is not a trust exceptions file"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "my notes\n")
    }

    /// Reviewer finding (data loss): an existing FILE that could not be read as text — a DER
    /// certificate, a binary key store, a file with a NUL byte, one over the 256 MiB limit — was taken
    /// for a new file and replaced. It is kept, and stderr says why nothing was saved.
    @Test func aFileThatCannotBeReadAsExceptionsIsNeverReplaced() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let expired = ["verify", "rsa/server-expired.pem", "--intermediates", "rsa/intermediate.pem", "--anchors", "rsa/root.pem",
                       "--at", CLI.time, "--server", "server.customer1.example"]
        let der = try #require(try CLI.certificates("rsa/intermediate.pem").first).der
        let cases: [(name: String, contents: Data, reason: String)] = [
            ("intermediate.der", Data(der), "line 1: not UTF-8 text (byte 1)"),
            ("nul.txt", Data("certpath-trust-exceptions 2\n\u{0}\n".utf8), "line 2: not UTF-8 text (byte 28)"),
        ]
        for item in cases {
            let file = directory.appendingPathComponent(item.name).path
            try item.contents.write(to: URL(fileURLWithPath: file))
            let run = try CLI.run(expired + ["--save-exceptions", file])
            #expect(run.status == 1)
            #expect(run.stderr == "certpath verify: nothing saved to \(file): it exists and cannot be read as a trust exceptions file "
                + "(\(item.reason)); remove it or choose another file\n", "\(run.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == item.contents, "\(item.name) was changed")
        }
        // Over the size limit (sparse: refused from its size, unread) and kept as it is.
        let large = directory.appendingPathComponent("large.txt").path
        #expect(FileManager.default.createFile(atPath: large, contents: Data("x".utf8)))
        #expect(truncate(large, 300 << 20) == 0)
        let run = try CLI.run(expired + ["--save-exceptions", large])
        #expect(run.stderr == "certpath verify: nothing saved to \(large): it exists and cannot be read as a trust exceptions file "
            + "(cannot read: larger than 256 MiB); remove it or choose another file\n", "\(run.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: large)
        #expect((attributes[.size] as? Int) == 300 << 20)
        #expect(try FileHandle(forReadingFrom: URL(fileURLWithPath: large)).read(upToCount: 1) == Data("x".utf8))
    }

    @Test func exceptionsRoundTrip() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("exceptions.txt").path
        let expired = ["verify", "rsa/server-expired.pem", "--intermediates", "rsa/intermediate.pem", "--anchors", "rsa/root.pem",
                       "--at", CLI.time]

        let first = try CLI.run(expired + ["--server", "server.customer1.example", "--save-exceptions", file])
        #expect(first.status == 1)
        #expect(first.stderr.hasPrefix("certpath verify: saved trust exception "), "\(first.stderr)")
        #expect(first.stderr.hasSuffix(" for this leaf accepting expired for the purpose server to \(file)\n"), "\(first.stderr)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasPrefix("certpath-trust-exceptions 2\n"))
        let leaf = try #require(try CLI.certificates("rsa/server-expired.pem").first)
        #expect(text.contains("failure expired \(SHA256Digest(hashing: leaf.der).hex)\n"))

        // Applied: trusted by the exception, the accepted failure reported.
        let second = try CLI.run(expired + ["--server", "server.customer1.example", "--exceptions", file, "--json"])
        #expect(second.status == 0, "\(second.stdout)")
        let json = try second.json()
        #expect(try field(json, "trustedByException", as: Bool.self) == true)
        #expect(try field(json, "acceptedFailures", as: [[String: Any]].self).map { $0["code"] as? String } == ["expired"])
        let human = try CLI.run(expired + ["--server", "server.customer1.example", "--exceptions", file])
        #expect(human.stdout.hasPrefix("trusted by a trust exception: CN=server.customer1.example,O=Customer 1"))

        // A new failure (another host name) is not covered.
        let otherHost = try CLI.run(expired + ["--server", "www.customer1.example", "--exceptions", file, "--json"])
        #expect(otherHost.status == 1)
        // The verdict names the failure the exception does not accept; the accepted one is listed.
        let otherJSON = try otherHost.json()
        #expect(try field(otherJSON, "primaryFailure", as: [String: Any].self)["code"] as? String == "hostnameMismatch")
        #expect(try field(otherJSON, "acceptedFailures", as: [[String: Any]].self).map { $0["code"] as? String } == ["expired"])
        let otherHuman = try CLI.run(expired + ["--server", "www.customer1.example", "--exceptions", file])
        #expect(otherHuman.stdout.hasPrefix("untrusted: the certificate is not valid for www.customer1.example"), "\(otherHuman.stdout)")
        #expect(otherHuman.stdout.contains("note: the trust exceptions given accept expired, not every failure: the certificate stays untrusted\n"))
        // Nor another certificate with the same defect.
        let otherLeaf = try CLI.run(["verify", "rsa/server-not-yet-valid.pem", "--intermediates", "rsa/intermediate.pem",
                                     "--anchors", "rsa/root.pem", "--at", CLI.time, "--exceptions", file])
        #expect(otherLeaf.status == 1)

        // A tampered entry is not applied, and said so with its line (issue 33: the other entries of
        // the file would still apply).
        let tampered = directory.appendingPathComponent("tampered.txt")
        try text.replacingOccurrences(of: "failure expired", with: "failure notYetValid").write(to: tampered, atomically: true, encoding: .utf8)
        let refused = try CLI.run(expired + ["--exceptions", tampered.path])
        #expect(refused.status == 1)
        #expect(refused.stdout.hasPrefix("untrusted: "))
        #expect(refused.stderr.contains("trust exception at line 8 (entry "), "\(refused.stderr)")
        #expect(refused.stderr.contains("integrity check failed"), "\(refused.stderr)")

        // A file converted to CRLF line ends (an editor, a Windows checkout) is refused as such, not as
        // an unknown format.
        let crlf = directory.appendingPathComponent("crlf.txt")
        try Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: crlf)
        let crlfRun = try CLI.run(expired + ["--exceptions", crlf.path])
        #expect(crlfRun.status == 2)
        #expect(crlfRun.stdout.isEmpty)
        #expect(crlfRun.stderr == "certpath verify: \(crlf.path): trust exceptions, line 1: CRLF line ends are not allowed (the format uses LF only)\n")
    }

    @Test func nothingIsSavedForFatalOrTrustedResults() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("exceptions.txt").path
        let fatal = try CLI.run(["verify", "rsa/server-bad-signature.pem", "--intermediates", "rsa/intermediate.pem",
                                 "--anchors", "rsa/root.pem", "--at", CLI.time, "--save-exceptions", file])
        #expect(fatal.status == 1)
        #expect(fatal.stderr.hasPrefix("certpath verify: nothing saved to \(file): badSignature is a fatal failure; "
            + "trust exceptions can only accept recoverable failures"))
        #expect(!FileManager.default.fileExists(atPath: file))
        let trusted = try CLI.run(CLI.trustedServer + ["--save-exceptions", file])
        #expect(trusted.status == 0)
        #expect(trusted.stderr == "certpath verify: nothing saved to \(file): the result is trusted, so there is nothing to except\n")
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    /// --save-exceptions names a regular file or a new one: a directory, a device, a link to a device or
    /// a missing directory is a usage error before any work (nothing on stdout, exit 2), and never
    /// replaced (reviewer finding: the atomic write renamed a file over /dev/full and said "saved").
    @Test func saveExceptionsRefusesWhatIsNotARegularFile() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let linkToDevice = directory.appendingPathComponent("link-to-null").path
        try FileManager.default.createSymbolicLink(atPath: linkToDevice, withDestinationPath: "/dev/null")
        let expired = ["verify", "rsa/server-expired.pem", "--intermediates", "rsa/intermediate.pem", "--anchors", "rsa/root.pem",
                       "--at", CLI.time, "--server", "server.customer1.example", "--save-exceptions"]
        let cases: [(String, String)] = [
            (directory.path, "\(directory.path): cannot write here: a directory, not a regular file"),
            ("/dev/null", "/dev/null: cannot write here: a device, not a regular file"),
            (linkToDevice, "\(linkToDevice): cannot write here: a device, not a regular file"),
            (directory.appendingPathComponent("missing/x.txt").path,
             "\(directory.appendingPathComponent("missing/x.txt").path): cannot write here: the directory "
                + "\(directory.appendingPathComponent("missing").path) does not exist"),
        ]
        for (path, message) in cases {
            let run = try CLI.run(expired + [path])
            #expect(run.status == 2, "\(path)")
            #expect(run.stdout.isEmpty, "\(path)")
            #expect(run.stderr == "certpath verify: \(message)\n")
        }
        let device = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(device == .typeCharacterSpecial)

        // A link to a regular file is written through: the link stays, its target gets the text.
        // (The target is empty: a file holding something else is not overwritten, see
        // savingExceptionsKeepsTheFilesOtherEntries.)
        let target = directory.appendingPathComponent("target.txt").path
        try Data().write(to: URL(fileURLWithPath: target))
        let link = directory.appendingPathComponent("link.txt").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let saved = try CLI.run(expired + [link])
        #expect(saved.status == 1)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("certpath-trust-exceptions 2\n"))
    }

    // MARK: - Purpose, depth, policy and profile flags

    @Test func clientCertificateWithExpectedNames() throws {
        let base = ["verify", "rsa/client.pem", "--intermediates", "rsa/intermediate.pem", "--anchors", "rsa/root.pem",
                    "--at", CLI.time, "--client", "--profile", "rfc5280", "--json"]  // the profile flag is reported back
        let named = try CLI.run(base + ["--expect-name", "alice@customer1.example", "--expect-name", "client.customer1.example"])
        #expect(named.status == 0, "\(named.stdout)")
        let json = try named.json()
        #expect(try field(json, "profile", as: String.self) == "rfc5280")
        let purpose = try field(json, "purpose", as: [String: Any].self)
        #expect(try field(purpose, "kind", as: String.self) == "client")
        #expect(try field(purpose, "expectedNames", as: [String].self) == ["alice@customer1.example", "client.customer1.example"])
        let other = try CLI.run(base + ["--expect-name", "bob@customer1.example"])
        #expect(other.status == 1)
        #expect((try other.json()["primaryFailure"] as? [String: Any])?["code"] as? String == "nameMismatch")
        // A server certificate is not a client certificate.
        let server = try CLI.run(["verify", "rsa/server-chain.pem", "--anchors", "rsa/root.pem", "--at", CLI.time, "--client",
                                  "--profile", "rfc5280", "--json"])
        #expect((try server.json()["primaryFailure"] as? [String: Any])?["code"] as? String == "extendedKeyUsageForbids")
    }

    @Test func maxDepthLimitsIntermediates() throws {
        let zero = try CLI.run(CLI.trustedServer + ["--max-depth", "0", "--json"])
        #expect(zero.status == 1)
        #expect((try zero.json()["primaryFailure"] as? [String: Any])?["code"] as? String == "maximumDepthExceeded")
        #expect(try CLI.run(CLI.trustedServer + ["--max-depth", "1"]).status == 0)
    }

    @Test func policyInputs() throws {
        // The sample PKI asserts no certificate policy: requiring an explicit policy fails.
        let explicit = try CLI.run(CLI.trustedServer + ["--require-explicit-policy", "--json"])
        #expect(explicit.status == 1)
        #expect((try explicit.json()["primaryFailure"] as? [String: Any])?["code"] as? String == "policyRequired")
        // A user-initial-policy-set alone does not require a policy (RFC 5280 6.1.5 (g)).
        #expect(try CLI.run(CLI.trustedServer + ["--policy", "2.23.140.1.2.1"]).status == 0)
        #expect(try CLI.run(CLI.trustedServer + ["--inhibit-policy-mapping", "--inhibit-any-policy"]).status == 0)
    }

    @Test func crossSignedPathBacktracks() throws {
        let run = try CLI.run(["verify", "rsa/server.pem", "--intermediates", "rsa/intermediate-cross-expired.pem",
                               "--intermediates", "rsa/intermediate.pem", "--anchors", "rsa/old-root.pem", "--anchors", "rsa/root.pem",
                               "--server", "server.customer1.example", "--at", CLI.time, "--explain"])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("  [2] trust anchor: CN=Example Corp Root CA R1,O=Example Corp,C=US"))
    }

    // MARK: - Unreadable certificates among the anchors and intermediates (issue 30)

    /// A CERTIFICATE block whose DER is not a certificate (an INTEGER inside a SEQUENCE).
    static let garbageBlock = "-----BEGIN CERTIFICATE-----\n" + Data([0x30, 0x03, 0x02, 0x01, 0x01]).base64EncodedString()
        + "\n-----END CERTIFICATE-----\n"

    @Test("an unreadable certificate in an anchors bundle is skipped with a warning naming it; the right root still anchors")
    func unreadableAnchorSkipped() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("bundle.pem")
        let root = try String(contentsOf: CLI.samplePKI.appendingPathComponent("rsa/root.pem"), encoding: .utf8)
        try Data((Self.garbageBlock + root).utf8).write(to: bundle)
        let run = try CLI.run(["verify", "rsa/server-chain.pem", "--anchors", bundle.path, "--server", "server.customer1.example",
                               "--at", CLI.time, "--json"])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(try field(try run.json(), "status", as: String.self) == "trusted")
        let warning = try #require(run.errorLines.first { $0.contains("warning: --anchors") }, "\(run.stderr)")
        #expect(warning.hasPrefix("certpath verify: warning: --anchors \(bundle.path): certificate 1 (PEM block at line 1"))
        #expect(warning.contains("is malformed: byte ") && warning.hasSuffix("skipped (a certificate that cannot be read can anchor or complete no path)"))
        // The same bundle as intermediates: the garbage block skipped, the chain still completes.
        let asIntermediates = try CLI.run(["verify", "rsa/server.pem", "--intermediates", "rsa/intermediate.pem", "--intermediates", bundle.path,
                                           "--anchors", "rsa/root.pem", "--server", "server.customer1.example", "--at", CLI.time])
        #expect(asIntermediates.status == 0, "\(asIntermediates.stdout) \(asIntermediates.stderr)")
        #expect(asIntermediates.errorLines.contains { $0.hasPrefix("certpath verify: warning: --intermediates \(bundle.path): certificate 1 ") })
    }

    @Test("an anchors bundle with a block of damaged base64: that block skipped with a warning, the others read")
    func damagedBase64BlockSkipped() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("bundle.pem")
        let root = try String(contentsOf: CLI.samplePKI.appendingPathComponent("rsa/root.pem"), encoding: .utf8)
        try Data(("-----BEGIN CERTIFICATE-----\nMIIB!!!notbase64\n-----END CERTIFICATE-----\n" + root).utf8).write(to: bundle)
        let run = try CLI.run(["verify", "rsa/server-chain.pem", "--anchors", bundle.path, "--server", "server.customer1.example", "--at", CLI.time])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(run.errorLines.contains("certpath verify: warning: --anchors \(bundle.path): a CERTIFICATE block is malformed (line 2: the "
            + "block's base64 is invalid: a character outside base64 on this line); skipped (a certificate that cannot be read can anchor "
            + "or complete no path)"), "\(run.stderr)")
    }

    @Test("an anchors file with no readable certificate, and an unreadable leaf, stay errors (status 2)")
    func nothingReadableIsAnError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let garbage = directory.appendingPathComponent("garbage.pem")
        try Data(Self.garbageBlock.utf8).write(to: garbage)
        let anchors = try CLI.run(["verify", "rsa/server-chain.pem", "--anchors", garbage.path, "--at", CLI.time])
        #expect(anchors.status == 2, "\(anchors.stdout) \(anchors.stderr)")
        #expect(anchors.stderr.contains("certificate 1 (PEM block at line 1"))
        let leaf = try CLI.run(["verify", garbage.path, "--anchors", "rsa/root.pem", "--at", CLI.time])
        #expect(leaf.status == 2, "\(leaf.stdout) \(leaf.stderr)")
    }

    // MARK: - Brainpool curves and ECDSA with NULL parameters (issue 30)

    /// Runs `openssl arguments` in `directory`; `false` when openssl is missing or fails.
    static func openssl(_ arguments: [String], in directory: URL) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test("a chain under a brainpoolP256r1 root made by the openssl CLI: trusted with private anchors, weakKey under --profile webpki")
    func brainpoolChainFromOpenSSL() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("subjectAltName=DNS:bp.test\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n".utf8)
            .write(to: directory.appendingPathComponent("leaf.cnf"))
        let made = Self.openssl(["ecparam", "-name", "brainpoolP256r1", "-genkey", "-noout", "-out", "root.key"], in: directory)
            && Self.openssl(["req", "-x509", "-new", "-key", "root.key", "-subj", "/CN=Brainpool Root", "-days", "3650", "-sha256",
                             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign", "-out", "root.pem"], in: directory)
            && Self.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "leaf.key"], in: directory)
            && Self.openssl(["req", "-new", "-key", "leaf.key", "-subj", "/CN=bp.test", "-out", "leaf.csr"], in: directory)
            && Self.openssl(["x509", "-req", "-in", "leaf.csr", "-CA", "root.pem", "-CAkey", "root.key", "-CAcreateserial", "-days", "365",
                             "-sha256", "-extfile", "leaf.cnf", "-out", "leaf.pem"], in: directory)
        guard made else {
            print("VerifyCLITests: skipped the Brainpool chain: the openssl CLI is missing or cannot make brainpoolP256r1 keys")
            return
        }
        let trusted = try CLI.run(["verify", "leaf.pem", "--anchors", "root.pem", "--server", "bp.test"], in: directory)
        #expect(trusted.status == 0, "\(trusted.stdout) \(trusted.stderr)")
        #expect(trusted.stdout.contains("key:      EC brainpoolP256r1"))
        let webPKI = try CLI.run(["verify", "leaf.pem", "--anchors", "root.pem", "--server", "bp.test", "--profile", "webpki", "--json"], in: directory)
        #expect(webPKI.status == 1, "\(webPKI.stdout) \(webPKI.stderr)")
        let primary = try field(try webPKI.json(), "primaryFailure", as: [String: Any].self)
        #expect(try field(primary, "code", as: String.self) == "weakKey")
        #expect(try field(primary, "message", as: String.self).hasSuffix(
            "the curve brainpoolP256r1 is not allowed in the Web PKI (CA/B BR 6.1.5: P-256, P-384 and P-521 only)"))
    }

    @Test("certpath show warns of ECDSA NULL parameters, a tolerated encoding (cryptography-vectors custom/ecdsa_null_alg.pem)")
    func showWarnsOfECDSANullParameters() throws {
        guard let vectors = CryptographyVectors.folder else {
            print("VerifyCLITests: skipped ecdsa_null_alg.pem: the cryptography_vectors package is not installed")
            return
        }
        let run = try CLI.run(["show", vectors.appendingPathComponent("x509/custom/ecdsa_null_alg.pem").path])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("warning:             tolerated encoding: the ECDSA signature algorithm has NULL parameters, "
            + "which RFC 5758 3.2 says MUST be absent; read as without parameters"))
    }
}
