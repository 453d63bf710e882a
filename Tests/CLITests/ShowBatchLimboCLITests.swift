import CertPath
import CertPathLimbo
import Foundation
import TestSupport
import Testing

/// `certpath show`: every field and extension, in text and JSON, consistent with `verify`.
@Suite struct ShowCLITests {
    /// Review finding: a repeated extension was shown with the first occurrence's value (the second
    /// basicConstraints of `two_basic_constraints.pem` is `cA TRUE, pathLenConstraint 0`, shown as the
    /// first's `cA TRUE`). A repeat is now shown undecoded, with its own bytes.
    @Test func repeatedExtensionShowsItsOwnBytes() throws {
        guard let vectors = CryptographyVectors.folder else {
            print("SKIPPED ShowCLITests.repeatedExtensionShowsItsOwnBytes: cryptography-vectors is not installed")
            return
        }
        let file = vectors.appendingPathComponent("x509/custom/two_basic_constraints.pem").path
        let run = try CLI.run(["show", file])
        #expect(run.status == 0)
        #expect(run.stdout.contains("""
                basicConstraints (critical):
                  cA: TRUE
                basicConstraints (repeated) (2.5.29.19) (critical):
                  repeated extension (RFC 5280 4.2 allows each extension once): not decoded by CertPath: 30060101ff020100
            """), "\(run.stdout)")
    }

    @Test func humanOutputShowsEveryField() throws {
        let run = try CLI.run(["show", "rsa/server-chain.pem"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let leaf = try #require(try CLI.certificates("rsa/server.pem").first)
        let text = run.stdout
        for line in [
            "rsa/server-chain.pem: certificate 1 of 2",
            "rsa/server-chain.pem: certificate 2 of 2",
            "  subject:             CN=server.customer1.example,O=Customer 1",
            "  issuer:              CN=Example Corp Customer 1 CA R1,OU=Customer 1,O=Example Corp,C=US",
            "  serial:              \(leaf.serialNumberHex)",
            "  version:             v3",
            "  not before:          2025-01-01T00:00:00Z",
            "  not after:           2045-01-01T00:00:00Z",
            "  public key:          RSA-2048",
            "  key pin (sha256):    \(SHA256Digest(hashing: leaf.subjectPublicKeyInfo.der).base64)",
            "  signature algorithm: sha256WithRSAEncryption",
            "  sha256 fingerprint:  \(SHA256Digest(hashing: leaf.der).hex)",
            "    basicConstraints (critical):", "      cA: FALSE", "      cA: TRUE, pathLenConstraint: 0",
            "    keyUsage (critical):", "      digitalSignature, keyEncipherment", "      keyCertSign, cRLSign",
            "    extKeyUsage:", "      serverAuth",
            "    subjectAltName:", "      DNS:server.customer1.example", "      IP:192.0.2.10",
            "    subjectKeyIdentifier:", "    authorityKeyIdentifier:",
        ] {
            #expect(text.contains(line + "\n"), "missing line: \(line)")
        }
    }

    /// docs/CLI.md: extensions CertPath does not decode are shown by OID, with their name when
    /// they have one. The benchmark leaf carries the SCT list; a copy has that OID changed to one
    /// nobody names (the signature no longer verifies: `show` does not check it).
    /// Reviewer finding: `-` was a file name, so a script could not pipe a chain in.
    @Test func dashReadsStandardInput() throws {
        let chain = try String(contentsOf: CLI.samplePKI.appendingPathComponent("rsa/server-chain.pem"), encoding: .utf8)
        let shown = try CLI.run(["show", "-"], input: chain)
        #expect(shown.status == 0 && shown.stderr.isEmpty)
        #expect(shown.stdout.hasPrefix("-: certificate 1 of 2") && shown.stdout.contains("subject:             CN=server.customer1.example"))
        let verified = try CLI.run(["verify", "-", "--anchors", "rsa/root.pem", "--server", "server.customer1.example",
                                    "--at", "2026-06-01"], input: chain)
        #expect(verified.status == 0 && verified.stdout.hasPrefix("trusted: CN=server.customer1.example"))
        // Empty standard input: the usual "no certificate found", status 2.
        let empty = try CLI.run(["show", "-"])
        #expect(empty.status == 2 && empty.stderr.contains("-: no certificate found"))
    }

    @Test func undecodedExtensionsShowTheirOID() throws {
        let leaf = Array(try Data(contentsOf: CLI.packageRoot.appendingPathComponent("TestVectors/bench/rsa/leaf.der")))
        let sct: [UInt8] = [0x06, 0x0A, 0x2B, 0x06, 0x01, 0x04, 0x01, 0xD6, 0x79, 0x02, 0x04, 0x02]
        let start = try #require((0...(leaf.count - sct.count)).first { leaf[$0..<($0 + sct.count)].elementsEqual(sct) })
        var unknown = leaf
        unknown[start + sct.count - 1] = 0x09
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let named = directory.appendingPathComponent("named.der"), unnamed = directory.appendingPathComponent("unnamed.der")
        try Data(leaf).write(to: named)
        try Data(unknown).write(to: unnamed)
        let shown = try CLI.run(["show", named.path, unnamed.path])
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("\n    signedCertificateTimestampList (1.3.6.1.4.1.11129.2.4.2):\n"), "\(shown.stdout)")
        #expect(shown.stdout.contains("\n    1.3.6.1.4.1.11129.2.4.9:\n"), "\(shown.stdout)")
        #expect(!shown.stdout.contains("    unknown"))
        #expect(shown.stdout.contains("\n    subjectAltName:\n"))
    }

    @Test func jsonOutputAndConsistencyWithVerify() throws {
        let run = try CLI.run(["show", "--json", "rsa/server-chain.pem", "ecdsa/root.pem"])
        #expect(run.status == 0)
        let json = try run.json()
        #expect(try field(json, "format", as: String.self) == "certpath-show")
        #expect(try field(json, "version", as: Int.self) == 1)
        let files = try field(json, "files", as: [[String: Any]].self)
        #expect(files.count == 2)
        let chain = try field(files.first, "certificates", as: [[String: Any]].self)
        #expect(chain.count == 2)
        #expect(try field(files.first, "file", as: String.self) == "rsa/server-chain.pem")
        #expect(try field(files.first, "skipped", as: [String].self).isEmpty)
        let leaf = try #require(chain.first)
        #expect(try field(leaf, "subject", as: String.self) == "CN=server.customer1.example,O=Customer 1")
        #expect(leaf["issuerUniqueID"] is NSNull && leaf["subjectUniqueID"] is NSNull)
        #expect((leaf["publicKey"] as? [String: Any])?["rsassaPSSParameters"] is NSNull)
        #expect(try field(leaf, "version", as: Int.self) == 3)
        #expect(try field(leaf, "signatureAlgorithm", as: String.self) == "sha256WithRSAEncryption")
        #expect(try field(leaf, "selfIssued", as: Bool.self) == false)
        let key = try field(leaf, "publicKey", as: [String: Any].self)
        #expect(try field(key, "type", as: String.self) == "RSA-2048")
        #expect(try field(key, "bits", as: Int.self) == 2048)
        #expect(try field(key, "rsassaPSSOnly", as: Bool.self) == false)
        let extensions = try field(leaf, "extensions", as: [[String: Any]].self)
        #expect(extensions.map { $0["name"] as? String }
            == ["basicConstraints", "keyUsage", "extKeyUsage", "subjectAltName", "subjectKeyIdentifier", "authorityKeyIdentifier"])
        let san = try #require(extensions.first { $0["name"] as? String == "subjectAltName" })
        #expect(try field(san, "oid", as: String.self) == "2.5.29.17")
        #expect(try field(san, "critical", as: Bool.self) == false)
        #expect(try field(try field(san, "value", as: [String: Any].self), "names", as: [String].self)
            == ["DNS:server.customer1.example", "IP:192.0.2.10"])
        let basic = try #require(extensions.first { $0["name"] as? String == "basicConstraints" })
        #expect(try field(try field(basic, "value", as: [String: Any].self), "cA", as: Bool.self) == false)
        let ecdsaRoot = try field(files.last, "certificates", as: [[String: Any]].self)
        #expect(try field(try field(ecdsaRoot.first, "publicKey", as: [String: Any].self), "type", as: String.self) == "EC P-256")
        #expect(try field(ecdsaRoot.first, "selfIssued", as: Bool.self) == true)

        // The same fingerprint, key pin and names as verify reports.
        let verify = try CLI.run(CLI.trustedServer + ["--json"])
        let verified = try #require(try field(try verify.json(), "chain", as: [[String: Any]].self).first)
        #expect(verified["sha256"] as? String == leaf["sha256"] as? String)
        #expect(verified["keyPin"] as? String == leaf["keyPin"] as? String)
        #expect(leaf["keyPin"] as? String == SHA256Digest(hashing: try #require(try CLI.certificates("rsa/server.pem").first).subjectPublicKeyInfo.der).base64)
        #expect(verified["subject"] as? String == leaf["subject"] as? String)
        #expect(verified["serial"] as? String == leaf["serial"] as? String)
    }

    @Test func controlCharactersFromCertificatesAreEscaped() throws {
        // The sample server with "server" in its subject CN (a UTF8String) replaced by ESC [ 2 J BEL LF:
        // still well formed, the signature no longer verifies.
        var der = try #require(try CLI.certificates("rsa/server.pem").first).der
        let name = Array("server.customer1.example".utf8)
        let start = try #require((0...(der.count - name.count)).first { der[$0..<($0 + name.count)].elementsEqual(name) })
        der.replaceSubrange(start..<(start + 6), with: [0x1B, 0x5B, 0x32, 0x4A, 0x07, 0x0A])
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("escape.der")
        try Data(der).write(to: file)

        let show = try CLI.run(["show", file.path])
        #expect(show.status == 0)
        #expect(show.stdout.contains("  subject:             CN=\\x1b[2J\\x07\\x0a.customer1.example,O=Customer 1\n"), "\(show.stdout)")
        #expect(!show.stdout.contains("\u{1B}"))
        let json = try CLI.run(["show", "--json", file.path])
        let certificate = try #require(try field(try json.json(), "files", as: [[String: Any]].self).first?["certificates"] as? [[String: Any]])
        #expect(certificate.first?["subject"] as? String == "CN=\u{1B}[2J\u{07}\n.customer1.example,O=Customer 1")
        let verify = try CLI.run(["verify", file.path, "--intermediates", "rsa/intermediate.pem", "--anchors", "rsa/root.pem",
                                  "--at", CLI.time])
        #expect(verify.status == 1)
        #expect(verify.stdout.hasPrefix("untrusted: the signature of CN=\\x1b[2J\\x07\\x0a.customer1.example,O=Customer 1 does not verify"))
        #expect(!verify.stdout.contains("\u{1B}") && !verify.stdout.contains("\u{07}"))
    }

    @Test func skippedTextIsReported() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("annotated.pem")
        let pem = try String(contentsOf: CLI.samplePKI.appendingPathComponent("rsa/root.pem"), encoding: .utf8)
        try ("subject=Example Corp Root CA R1\n" + pem).write(to: file, atomically: true, encoding: .utf8)
        let run = try CLI.run(["show", file.path])
        #expect(run.status == 0)
        #expect(run.stdout.contains("\(file.path): skipped line 1: text\n"))
    }

    // Text between blocks is one skipped run, blank lines included; a file with nothing but such
    // things lists the first ten and counts the rest; file names are escaped like certificate text.
    @Test func skippedThingsAreBounded() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let paragraphs = directory.appendingPathComponent("paragraphs.pem")
        try String(repeating: "x\n\n", count: 10_000).write(to: paragraphs, atomically: true, encoding: .utf8)
        var run = try CLI.run(["show", paragraphs.path])
        #expect(run.status == 2)
        #expect(run.stderr == "certpath show: \(paragraphs.path): no certificate found (expected PEM \"CERTIFICATE\" blocks or one DER "
            + "certificate; found only lines 1-19999: text)\n")
        let blocks = directory.appendingPathComponent("blocks.pem")
        try String(repeating: "-----BEGIN X-----\n-----END X-----\n", count: 25).write(to: blocks, atomically: true, encoding: .utf8)
        run = try CLI.run(["show", blocks.path])
        #expect(run.status == 2)
        #expect(run.stderr.hasSuffix("found only line 1: X block, line 3: X block, line 5: X block, line 7: X block, line 9: X block, "
            + "line 11: X block, line 13: X block, line 15: X block, line 17: X block, line 19: X block and 15 more)\n"), "\(run.stderr)")
        let escaped = directory.appendingPathComponent("name\u{1B}]0;title\u{07}\u{202E}\u{2028}\u{FEFF}.pem")
        try FileManager.default.copyItem(at: CLI.samplePKI.appendingPathComponent("rsa/root.pem"), to: escaped)
        run = try CLI.run(["show", escaped.path])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("\(directory.path)/name\\x1b]0;title\\x07\\u{202e}\\u{2028}\\u{feff}.pem: certificate 1 of 1\n"),
                "\(run.stdout.prefix(200))")
        #expect(!run.stdout.contains("\u{1B}") && !run.stdout.contains("\u{202E}") && !run.stdout.contains("\u{2028}"))
    }
}

/// `certpath batch`: JSON lines in, one result per line out, in input order.
@Suite struct BatchCLITests {
    func pem(_ name: String) throws -> String {
        try String(contentsOf: CLI.samplePKI.appendingPathComponent(name), encoding: .utf8)
    }

    func base64(_ name: String) throws -> String {
        Base64.encode(try #require(try CLI.certificates(name).first).der)
    }

    func line(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// `certpath batch --anchors <anchors>` over `lines` (one input line each), and its parsed output lines.
    func batch(_ lines: [String], anchors: String = "rsa/root.pem") throws -> (run: CLI.Run, output: [[String: Any]]) {
        let run = try CLI.run(["batch", "--anchors", anchors], input: lines.joined(separator: "\n") + "\n")
        return (run, try results(run))
    }

    func results(_ run: CLI.Run) throws -> [[String: Any]] {
        try run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { text in
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
        }
    }

    /// RFC 8259 8.1: lines must be UTF-8. A UTF-16 line (which the JSON parser would take) must not
    /// slip past the duplicate-member rule: before, its last "name" silently won.
    @Test func linesMustBeUTF8() throws {
        let object = "{\"chain\":\(try json(try pem("rsa/server-chain.pem"))),"
            + "\"name\":\"evil.example\",\"name\":\"server.customer1.example\",\"time\":\"2026-06-01T00:00:00Z\"}"
        // UTF-16LE: each ASCII character followed by a NUL byte (valid UTF-8, so it passes as a String).
        var utf16: [UInt8] = []
        for unit in object.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let input = String(decoding: utf16, as: UTF8.self) + "\n" + object + "\n"
        let run = try CLI.run(["batch", "--anchors", "rsa/root.pem"], input: input)
        let lines = try results(run)
        #expect(lines.count == 2)
        #expect(lines.first?["error"] as? String == "not UTF-8 text (RFC 8259 8.1; UTF-16 or UTF-32?)")
        #expect(lines.last?["error"] as? String == "duplicate member \"name\"")
    }

    /// A byte that is not UTF-8 is named by its offset in the line (a reviewer's friction: no position);
    /// an overlong encoding and a lone continuation byte are not UTF-8 either (RFC 3629 3).
    @Test func notUTF8NamesTheByte() throws {
        var input = Data("{\"chain\": \"".utf8) + Data([0xFF]) + Data("\"}\n".utf8)
        input += Data("{\"name\": \"é".utf8) + Data([0xC0, 0xAF]) + Data("\"}\n".utf8)
        input += Data("{\"name\": \"".utf8) + Data([0x80]) + Data("\"}\n".utf8)
        let run = try CLI.run(["batch", "--anchors", "rsa/root.pem"], inputBytes: input)
        #expect(try results(run).map { $0["error"] as? String } == [
            "not UTF-8 text at byte 11 (RFC 8259 8.1)", "not UTF-8 text at byte 12 (RFC 8259 8.1)", "not UTF-8 text at byte 10 (RFC 8259 8.1)",
        ])
    }

    @Test func threeLinesWithABadOne() throws {
        let (run, output) = try batch([
            try line(["chain": try pem("rsa/server-chain.pem"), "name": "server.customer1.example", "time": CLI.time]),
            "{\"chain\": not json",
            try line(["chain": [try base64("rsa/server-expired.pem"), try base64("rsa/intermediate.pem")],
                      "name": "server.customer1.example", "time": CLI.time, "purpose": "server"]),
        ])
        #expect(run.status == 1)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(output.count == 3)
        guard output.count == 3 else { return }
        #expect(output.map { $0["line"] as? Int } == [1, 2, 3])
        #expect(output.map { $0["status"] as? String } == ["trusted", "error", "untrusted"])
        #expect(output[0]["format"] as? String == "certpath-verify")
        #expect(output[0]["version"] as? Int == 1)
        #expect((output[0]["chain"] as? [Any])?.count == 3)
        #expect(output[1]["error"] as? String == "not valid JSON at byte 10")  // `{"chain": ` is 10 bytes
        #expect(output[1]["trusted"] as? Bool == false)
        #expect((output[2]["primaryFailure"] as? [String: Any])?["code"] as? String == "expired")
    }

    @Test func orderIsPreservedAcrossChunksAndWorkers() throws {
        // 300 lines (more than one chunk on small machines) alternating trusted, untrusted and bad lines.
        let good = try line(["chain": try pem("rsa/server-chain.pem"), "name": "server.customer1.example", "time": CLI.time])
        let mismatch = try line(["chain": try pem("rsa/server-chain.pem"), "name": "www.customer2.example", "time": CLI.time])
        let variants: [(String, String)] = [
            (good, "trusted"), (mismatch, "untrusted"), ("[1, 2]", "error"), ("", "error"),
            (try line(["chain": "AAAA"]), "error"), (try line(["chain": try pem("rsa/server-chain.pem"), "time": "soon"]), "error"),
            (try line(["chain": try pem("rsa/client.pem"), "purpose": "client", "name": "alice@customer1.example"]), "untrusted"),
            (try line(["chain": try pem("rsa/server-chain.pem"), "purpose": "mail"]), "error"),
        ]
        var input = ""
        var expected: [String] = []
        for index in 0..<300 {
            let (text, status) = variants[index % variants.count]
            input += text + "\n"
            expected.append(status)
        }
        let run = try CLI.run(["batch", "--anchors", "rsa/root.pem"], input: input)
        #expect(run.status == 1)
        let output = try results(run)
        #expect(output.map { $0["line"] as? Int } == Array(1...300))
        #expect(output.map { $0["status"] as? String ?? "?" } == expected)
        let errors = Set(output.compactMap { $0["error"] as? String })
        #expect(errors == ["expected a JSON object with a \"chain\" member", "empty line",
                           "\"chain\" is base64 but not of a DER certificate",
                           "\"time\": bad time 'soon': expected RFC 3339 such as 2026-06-01T00:00:00Z or 2026-06-01T02:00:00+02:00, or a date such as 2026-06-01",
                           "\"purpose\" 'mail': expected server, client, smime, smime-sign, smime-encrypt, code-signing, time-stamping, any, or a dotted extKeyUsage OID such as 1.3.6.1.5.5.7.3.9"])
    }

    /// A repeated member is an error, not "the last one wins" (reviewer finding: a second "name"
    /// silently replaced the first), also when an escape spells the same name.
    @Test func duplicateMembersAreErrors() throws {
        let chainText = try json(try pem("rsa/server-chain.pem"))
        let (_, output) = try batch([
            "{\"chain\": \(chainText), \"name\": \"server.customer1.example\", \"name\": \"evil.example\"}",
            "{\"chain\": \(chainText), \"time\": \"\(CLI.time)\", \"ti\\u006de\": \"2099-01-01\"}",
            "{\"chain\": \(chainText), \"purpose\": {\"name\": 1, \"name\": 2}}",
            "{\"chain\": \(chainText), \"name\": \"server.customer1.example\", \"time\": \"\(CLI.time)\"}",
        ])
        #expect(output.map { $0["status"] as? String } == ["error", "error", "error", "trusted"])
        #expect(output.map { $0["error"] as? String } == ["duplicate member \"name\"", "duplicate member \"time\"",
                                                          "\"purpose\" must be a purpose name such as \"server\" or \"smime\", or an OID", nil])
    }

    /// Reviewer finding: `"name": null` counted as absent, so the line was checked for any purpose
    /// and came back trusted (exit 0). A null member is now an error, like any other wrong type.
    @Test func nullMembersAreErrors() throws {
        let chainText = try json(try pem("rsa/server-chain.pem"))
        let (run, output) = try batch([
            "{\"chain\": \(chainText), \"name\": null}",
            "{\"chain\": \(chainText), \"name\": \"server.customer1.example\", \"purpose\": null}",
            "{\"chain\": \(chainText), \"name\": \"server.customer1.example\", \"time\": null}",
            "{\"chain\": null}",
        ])
        #expect(run.status == 1)
        #expect(output.map { $0["status"] as? String } == ["error", "error", "error", "error"])
        #expect(output.map { $0["trusted"] as? Bool } == [false, false, false, false])
        #expect(output.prefix(3).map { $0["error"] as? String } == [
            "\"name\" is null: give a string, or leave the member out",
            "\"purpose\" is null: give a purpose name such as \"server\" or \"smime\", or an OID, or leave the member out",
            "\"time\" is null: give an RFC 3339 string, or leave the member out"])
        #expect(output.last?["error"] as? String == "\"chain\" must be PEM text, a base64 DER string or an array of base64 DER strings")
    }

    /// A JSON string literal of `text`.
    private func json(_ text: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast().description
    }

    @Test func allTrustedExitsZero() throws {
        let (run, output) = try batch([try line(["chain": try pem("ecdsa/server-chain.pem"), "name": "192.0.2.10", "time": CLI.time])],
                                      anchors: "ecdsa/root.pem")
        #expect(run.status == 0)
        #expect(output.count == 1)
        #expect((output.first?["purpose"] as? [String: Any])?["name"] as? String == "192.0.2.10")
    }

    @Test func hugeValuesInLinesAreTruncatedInErrors() throws {
        let huge = String(repeating: "a", count: 100_000)
        let cut = UsageErrorTests.truncated(huge)
        let chain = try pem("rsa/server-chain.pem")
        let (run, output) = try batch([
            try line(["chain": chain, "name": huge]), try line(["chain": chain, "purpose": huge]),
            try line(["chain": chain, "time": huge]), try line(["chain": chain, huge: 1]),
            try line(["chain": chain, "purpose": "client", "name": huge]),
        ])
        #expect(run.status == 1)
        let errors = output.map { $0["error"] as? String ?? "" }
        #expect(errors == [
            "\"name\" '\(cut)': not a valid host name or IP address: the name is 100000 octets long; a DNS name has at most 253",
            "\"purpose\" '\(cut)': expected server, client, smime, smime-sign, smime-encrypt, code-signing, time-stamping, any, or a dotted extKeyUsage OID such as 1.3.6.1.5.5.7.3.9",
            "\"time\": bad time '\(cut)': expected RFC 3339 such as 2026-06-01T00:00:00Z or 2026-06-01T02:00:00+02:00, or a date such as 2026-06-01",
            "unknown member \"\(cut)\" (expected chain, name, time, purpose)",
            "\"name\" '\(cut)': not a valid DNS name, IP address or e-mail address: the name is 100000 octets long; a DNS name has at most 253",
        ])
    }

    @Test func emptyInputGivesNoOutput() throws {
        let run = try CLI.run(["batch", "--anchors", "rsa/root.pem"])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
    }
}

/// `certpath limbo` prints the same summary line as the library harness the test suite uses.
@Suite struct LimboCLITests {
    @Test func summaryMatchesTheLibrary() throws {
        guard let suiteURL = CLI.limboSuite else {
            print("SKIPPED LimboCLITests.summaryMatchesTheLibrary: ../shared/vectors/limbo/limbo.json is not present")
            return
        }
        let prefixes = ["rfc5280::validity::", "pathlen::", "crl::"]
        let suite = try LimboSuite.load(suiteURL)
        let expected = LimboHarness.summary(LimboHarness().run(suite, including: prefixes))
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("results.json")
        var arguments = ["limbo", suiteURL.path, "--output", output.path]
        for prefix in prefixes { arguments += ["--include", prefix] }
        let run = try CLI.run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == expected + "\n")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        #expect(results["version"] as? Int == 1)
        #expect(results["harness"] as? String == "certpath")
        let entries = try #require(results["results"] as? [[String: Any]])
        let selected = suite.testcases.filter { testcase in prefixes.contains { testcase.id.hasPrefix($0) } }
        #expect(entries.map { $0["id"] as? String } == selected.map(\.id))
        #expect(entries.allSatisfy { ["SUCCESS", "FAILURE", "SKIPPED"].contains($0["actual_result"] as? String ?? "") })

        let none = try CLI.run(["limbo", suiteURL.path, "--include", "no-such-namespace::"])
        #expect(none.status == 2)
        #expect(none.stderr == "certpath limbo: --include: no case id starts with 'no-such-namespace::'\n")
    }

    /// A listed contradiction is reported on stderr and does not fail the run (exit 0); the summary counts it.
    @Test func listedContradictionsDoNotFailTheRun() throws {
        guard let suiteURL = CLI.limboSuite else {
            print("SKIPPED LimboCLITests.listedContradictionsDoNotFailTheRun: ../shared/vectors/limbo/limbo.json is not present")
            return
        }
        let id = try #require(LimboHarness.contradictions.keys.sorted().first)
        let run = try CLI.run(["limbo", suiteURL.path, "--include", id])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("contradiction \(id): expected SUCCESS, got FAILURE; it contradicts "))
        #expect(run.stdout == "limbo: 1 cases: 0 passed, 0 failed (0 false accepts), 1 contradicting another case (listed), 0 skipped\n")
    }

    /// A one-case suite of schema `version`, its peer certificate `peer`, expected to succeed.
    static func suite(version: Int, peer: String, id: String = "sample::peer") throws -> Data {
        let root = try String(contentsOf: CLI.samplePKI.appendingPathComponent("rsa/root.pem"), encoding: .utf8)
        let testcase: [String: Any] = [
            "id": id, "description": "", "validation_kind": "SERVER", "trusted_certs": [root],
            "untrusted_intermediates": [], "peer_certificate": peer, "expected_result": "SUCCESS",
        ]
        return try JSONSerialization.data(withJSONObject: ["version": version, "testcases": [testcase]])
    }

    @Test func onlySchemaVersionOneIsRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for version in [2, 0] {
            let file = directory.appendingPathComponent("v\(version).json")
            try Self.suite(version: version, peer: "junk").write(to: file)
            let run = try CLI.run(["limbo", file.path])
            #expect(run.status == 2)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr == "certpath limbo: \(file.path): x509-limbo schema version \(version) is not supported "
                + "(this harness implements version 1)\n")
        }
    }

    /// Review finding: an `expected_result` of `MAYBE` ran as a mismatch and a bad `validation_time`
    /// made the case SKIPPED; both are a malformed suite (status 2).
    @Test func schemaValuesAreChecked() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try JSONSerialization.jsonObject(with: try Self.suite(version: 1, peer: "junk")) as! [String: Any]
        var testcase = (good["testcases"] as! [[String: Any]])[0]
        for (key, value, reason) in [("expected_result", "MAYBE", "expected_result must be SUCCESS or FAILURE"),
                                     ("validation_time", "yesterday", "validation_time is not an RFC 3339 time")] {
            testcase[key] = value
            let file = directory.appendingPathComponent("\(key).json")
            try JSONSerialization.data(withJSONObject: ["version": 1, "testcases": [testcase]]).write(to: file)
            let run = try CLI.run(["limbo", file.path])
            #expect(run.status == 2)
            #expect(run.stderr == "certpath limbo: \(file.path): test case sample::peer: \(reason)\n")
            testcase = (good["testcases"] as! [[String: Any]])[0]
        }
    }

    @Test func hugeIncludeAndOutputAreTruncated() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("suite.json")
        try Self.suite(version: 1, peer: "junk").write(to: file)
        let huge = String(repeating: "a", count: 100_000)
        var run = try CLI.run(["limbo", file.path, "--include", huge])
        #expect(run.status == 2)
        #expect(run.stderr == "certpath limbo: --include: no case id starts with '\(UsageErrorTests.truncated(huge))'\n")
        run = try CLI.run(["limbo", file.path, "--output", huge])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("certpath limbo: \(UsageErrorTests.truncated(huge)): cannot write the results: "), "\(run.stderr.prefix(300))")
        #expect(run.stderr.utf8.count < 600)
    }

    @Test func mismatchLinesAreSafeAndBounded() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("suite.json")
        let id = "x\u{1B}[2J" + String(repeating: "i", count: 300)
        try Self.suite(version: 1, peer: "junk", id: id).write(to: file)
        let run = try CLI.run(["limbo", file.path])
        #expect(run.status == 1)
        #expect(run.stderr == "mismatch x\\x1b[2J\(String(repeating: "i", count: 195))… (305 bytes): expected SUCCESS, got FAILURE: "
            + "peer certificate is malformed: no PEM \"CERTIFICATE\" block (found only line 1: text)\n")
    }

    @Test func malformedPeerCertificateIsReportedAsSuch() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("junk.json")
        try Self.suite(version: 1, peer: "junk").write(to: file)
        let run = try CLI.run(["limbo", file.path])
        #expect(run.status == 1)
        #expect(run.stdout == "limbo: 1 cases: 0 passed, 1 failed (0 false accepts), 0 contradicting another case (listed), 0 skipped\n")
        #expect(run.stderr == "mismatch sample::peer: expected SUCCESS, got FAILURE: "
            + "peer certificate is malformed: no PEM \"CERTIFICATE\" block (found only line 1: text)\n")
    }
}
