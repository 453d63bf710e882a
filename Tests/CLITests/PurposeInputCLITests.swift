import Foundation
import Testing
import CertPath

/// `--purpose` beyond TLS (S/MIME, code signing, time stamping, an extKeyUsage OID), `--anchors DIR`
/// (an `openssl rehash`ed folder), PKCS #7 bundles and several leaves, through `verify` and `batch`,
/// on certificates the openssl CLI makes at test time (issue 32).
@Suite("CLI purposes and inputs (openssl-made certificates)")
struct PurposeInputCLITests {
    /// The internationalized mailbox of the S/MIME leaf's SmtpUTF8Mailbox otherName (RFC 9598 3:
    /// a UTF-8 Local-part, the domain in A-labels: 例子.测试).
    static let utf8Mailbox = "用户@xn--fsqu00a.xn--0zwm56d"

    /// A root, an intermediate under it and leaves under the intermediate, made by the openssl CLI in a
    /// scratch folder (P-256 keys, valid for 30 days from now). The caller removes ``directory``.
    struct Files {
        let directory: URL

        /// What each leaf's extension file says (the openssl x509v3 configuration syntax).
        static let leaves: [String: String] = [
            // RFC 8550 3: the mailbox as rfc822Name; RFC 9598: the internationalized one as an
            // SmtpUTF8Mailbox otherName (FORMAT:UTF8 makes openssl take the text as UTF-8).
            "smime": """
                subjectAltName=@names
                extendedKeyUsage=emailProtection
                keyUsage=critical,digitalSignature
                [names]
                email.1=alice@example.com
                otherName.1=1.3.6.1.5.5.7.8.9;FORMAT:UTF8,UTF8:\(PurposeInputCLITests.utf8Mailbox)
                """,
            "tls": "subjectAltName=DNS:www.example.test\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n",
            "codesign": "extendedKeyUsage=codeSigning\nkeyUsage=critical,digitalSignature\n",
            "codesign-keyagreement": "extendedKeyUsage=codeSigning\nkeyUsage=critical,keyAgreement\n",
            "tsa": "extendedKeyUsage=critical,timeStamping\nkeyUsage=critical,digitalSignature\n",
            "tsa-noncritical": "extendedKeyUsage=timeStamping\nkeyUsage=critical,digitalSignature\n",
            "tsa-extra": "extendedKeyUsage=critical,timeStamping,codeSigning\nkeyUsage=critical,digitalSignature\n",
        ]

        init() throws {
            directory = try CLI.temporaryDirectory()
            let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
            try Self.openssl(["req", "-x509"] + key + ["-keyout", "root.key", "-out", "root.pem", "-subj", "/CN=Purpose Test Root",
                             "-days", "30", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
                             in: directory)
            try Data("basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n".utf8)
                .write(to: directory.appendingPathComponent("ca.ext"))
            try Self.openssl(["req", "-new"] + key + ["-keyout", "inter.key", "-out", "inter.csr", "-subj", "/CN=Purpose Test CA"], in: directory)
            try Self.openssl(["x509", "-req", "-in", "inter.csr", "-CA", "root.pem", "-CAkey", "root.key", "-set_serial", "2",
                              "-days", "30", "-extfile", "ca.ext", "-out", "inter.pem"], in: directory)
            try Self.openssl(["req", "-new"] + key + ["-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=Purpose Test Leaf"], in: directory)
            for (serial, (name, extensions)) in Self.leaves.sorted(by: { $0.key < $1.key }).enumerated() {
                try Data(extensions.utf8).write(to: directory.appendingPathComponent("\(name).ext"))
                try Self.openssl(["x509", "-req", "-in", "leaf.csr", "-CA", "inter.pem", "-CAkey", "inter.key", "-set_serial", "\(100 + serial)",
                                  "-days", "30", "-extfile", "\(name).ext", "-out", "\(name).pem"], in: directory)
            }
        }

        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        func remove() { try? FileManager.default.removeItem(at: directory) }

        /// Runs `openssl arguments` in `directory`, throwing with its standard error when it fails.
        static func openssl(_ arguments: [String], in directory: URL) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["openssl"] + arguments
            process.currentDirectoryURL = directory
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw CLIFailure("openssl \(arguments.joined(separator: " ")) failed: \(message)")
            }
        }
    }

    struct CLIFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// `verify LEAF --intermediates inter.pem --anchors root.pem ARGUMENTS --json` in the files' folder.
    static func verify(_ files: Files, _ leaf: String, _ arguments: [String]) throws -> (CLI.Run, [String: Any]) {
        let run = try CLI.run(["verify", leaf, "--intermediates", "inter.pem", "--anchors", "root.pem", "--json"] + arguments,
                              in: files.directory)
        return (run, try run.json())
    }

    /// The failure codes of a verify JSON object, and the `purposeRule` codes and clauses.
    static func codes(_ object: [String: Any]) -> [String] {
        ((object["failures"] as? [[String: Any]]) ?? []).map { $0["code"] as? String ?? "?" }
    }

    static func purposeRules(_ object: [String: Any]) -> [String] {
        ((object["failures"] as? [[String: Any]]) ?? []).compactMap { failure in
            (failure["purposeRule"] as? [String: Any]).map { "\($0["code"] ?? "?") (\($0["clause"] ?? "?"))" }
        }
    }

    @Test("--purpose smime: the mailbox is matched against rfc822Name and SmtpUTF8Mailbox (RFC 8550 3, RFC 9598 5)")
    func smimeMailboxes() throws {
        let files = try Files()
        defer { files.remove() }
        let (ascii, asciiJSON) = try Self.verify(files, "smime.pem", ["--purpose", "smime", "--expect-name", "alice@example.com"])
        #expect(ascii.status == 0, "\(ascii.stdout)")
        let purpose = try field(asciiJSON, "purpose", as: [String: Any].self)
        #expect(purpose["kind"] as? String == "smime")
        #expect(purpose["mailbox"] as? String == "alice@example.com")

        let (utf8, _) = try Self.verify(files, "smime.pem", ["--purpose", "smime", "--expect-name", Self.utf8Mailbox])
        #expect(utf8.status == 0, "\(utf8.stdout)")
        // RFC 9598 5: the domain compares ignoring ASCII case; the Local-part octet for octet.
        let (upper, _) = try Self.verify(files, "smime.pem", ["--purpose", "smime", "--expect-name", "用户@XN--FSQU00A.xn--0zwm56d"])
        #expect(upper.status == 0, "\(upper.stdout)")
        let (other, otherJSON) = try Self.verify(files, "smime.pem", ["--purpose", "smime", "--expect-name", "用戶@xn--fsqu00a.xn--0zwm56d"])
        #expect(other.status == 1)
        #expect(Self.codes(otherJSON) == ["nameMismatch"])
        let (bob, bobJSON) = try Self.verify(files, "smime.pem", ["--purpose", "smime", "--expect-name", "bob@example.com"])
        #expect(bob.status == 1)
        #expect(Self.codes(bobJSON) == ["nameMismatch"])
        let names = try field(try field(bobJSON, "primaryFailure", as: [String: Any].self), "names", as: [String: Any].self)
        let presented = try field(names, "presented", as: [[String: Any]].self).map { "\($0["type"] ?? "?"):\($0["value"] ?? "?")" }
        #expect(presented == ["email:alice@example.com", "smtpUTF8Mailbox:\(Self.utf8Mailbox)"])

        // RFC 8550 4.4.4: a certificate whose extKeyUsage does not name emailProtection is refused.
        let (tls, tlsJSON) = try Self.verify(files, "tls.pem", ["--purpose", "smime"])
        #expect(tls.status == 1)
        #expect(Self.codes(tlsJSON) == ["extendedKeyUsageForbids"])
        // RFC 8550 4.4.2: a key with digitalSignature only cannot encrypt (keyEncipherment or keyAgreement).
        let (encrypt, encryptJSON) = try Self.verify(files, "smime.pem", ["--purpose", "smime-encrypt"])
        #expect(encrypt.status == 1)
        #expect(Self.purposeRules(encryptJSON) == ["emailProtectionKeyUsage (RFC 8550 4.4.2)"])
        let (sign, _) = try Self.verify(files, "smime.pem", ["--purpose", "smime-sign"])
        #expect(sign.status == 0)
        // A U-label domain is not an RFC 9598 mailbox: refused as a usage error, not matched.
        let ulabel = try CLI.run(["verify", "smime.pem", "--anchors", "root.pem", "--purpose", "smime", "--expect-name", "用户@例子.测试"],
                                 in: files.directory)
        #expect(ulabel.status == 2)
        #expect(ulabel.stderr.contains("not a valid mailbox"))
    }

    @Test("--purpose code-signing and an extKeyUsage OID: codeSigning chained, keyUsage digitalSignature (RFC 5280 4.2.1.12)")
    func codeSigning() throws {
        let files = try Files()
        defer { files.remove() }
        let (signed, signedJSON) = try Self.verify(files, "codesign.pem", ["--purpose", "code-signing"])
        #expect(signed.status == 0, "\(signed.stdout)")
        #expect((signedJSON["purpose"] as? [String: Any])?["kind"] as? String == "codeSigning")
        let (tls, tlsJSON) = try Self.verify(files, "tls.pem", ["--purpose", "code-signing"])
        #expect(tls.status == 1)
        #expect(Self.codes(tlsJSON) == ["extendedKeyUsageForbids"])
        let (agreement, agreementJSON) = try Self.verify(files, "codesign-keyagreement.pem", ["--purpose", "code-signing"])
        #expect(agreement.status == 1)
        #expect(Self.purposeRules(agreementJSON) == ["codeSigningKeyUsage (RFC 5280 4.2.1.12)"])

        let (byOID, _) = try Self.verify(files, "codesign.pem", ["--purpose", "1.3.6.1.5.5.7.3.3"])
        #expect(byOID.status == 0)
        let (ocsp, ocspJSON) = try Self.verify(files, "codesign.pem", ["--purpose", "1.3.6.1.5.5.7.3.9"])
        #expect(ocsp.status == 1)
        #expect(Self.codes(ocspJSON) == ["extendedKeyUsageForbids"])
        let bad = try CLI.run(["verify", "codesign.pem", "--anchors", "root.pem", "--purpose", "signing"], in: files.directory)
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("certpath verify: --purpose 'signing': expected server, client, smime"))
        let both = try CLI.run(["verify", "codesign.pem", "--anchors", "root.pem", "--purpose", "code-signing", "--server", "a.example"],
                               in: files.directory)
        #expect(both.status == 2)
        #expect(both.stderr.hasPrefix("certpath verify: --purpose and --server cannot be used together"))
    }

    @Test("--purpose time-stamping: a critical extKeyUsage naming only id-kp-timeStamping (RFC 3161 2.3)")
    func timeStamping() throws {
        let files = try Files()
        defer { files.remove() }
        let (tsa, _) = try Self.verify(files, "tsa.pem", ["--purpose", "time-stamping"])
        #expect(tsa.status == 0, "\(tsa.stdout)")
        let (nonCritical, nonCriticalJSON) = try Self.verify(files, "tsa-noncritical.pem", ["--purpose", "time-stamping"])
        #expect(nonCritical.status == 1)
        #expect(Self.purposeRules(nonCriticalJSON) == ["timeStampingExtendedKeyUsageNotCritical (RFC 3161 2.3)"])
        let (extra, extraJSON) = try Self.verify(files, "tsa-extra.pem", ["--purpose", "time-stamping"])
        #expect(extra.status == 1)
        #expect(Self.purposeRules(extraJSON) == ["timeStampingExtendedKeyUsageNotSole (RFC 3161 2.3)"])
        let (codesign, codesignJSON) = try Self.verify(files, "codesign.pem", ["--purpose", "time-stamping"])
        #expect(codesign.status == 1)
        #expect(Self.codes(codesignJSON).contains("extendedKeyUsageForbids"))
        // The human report names the clause.
        let human = try CLI.run(["verify", "tsa-noncritical.pem", "--intermediates", "inter.pem", "--anchors", "root.pem",
                                 "--purpose", "time-stamping"], in: files.directory)
        #expect(human.stdout.contains("must be critical, and it is not (RFC 3161 2.3)"), "\(human.stdout)")
    }

    @Test("--anchors and --intermediates take a folder: an openssl rehash'ed one, non-certificate files skipped with a warning")
    func anchorFolders() throws {
        let files = try Files()
        defer { files.remove() }
        let manager = FileManager.default
        let anchors = files.directory.appendingPathComponent("anchors"), cas = files.directory.appendingPathComponent("cas")
        try manager.createDirectory(at: anchors, withIntermediateDirectories: false)
        try manager.createDirectory(at: cas, withIntermediateDirectories: false)
        try manager.copyItem(atPath: files.path("root.pem"), toPath: anchors.appendingPathComponent("root.pem").path)
        try Data("not a certificate\n".utf8).write(to: anchors.appendingPathComponent("README.txt"))
        try Files.openssl(["rehash", "anchors"], in: files.directory)
        let hashed = try manager.contentsOfDirectory(atPath: anchors.path).filter { $0.hasSuffix(".0") }
        #expect(hashed.count == 1, "openssl rehash made \(hashed)")
        try manager.copyItem(atPath: files.path("inter.pem"), toPath: cas.appendingPathComponent("inter.crt").path)

        let run = try CLI.run(["verify", "smime.pem", "--intermediates", "cas", "--anchors", "anchors", "--purpose", "smime"],
                              in: files.directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        // The README is skipped with a warning; root.pem and its <hash>.0 link are one file, read once.
        #expect(run.errorLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("certpath verify: warning: --anchors "))
        #expect(run.stderr.contains("README.txt: no certificate found"))
        // Only the hashed link: the same anchor.
        try manager.removeItem(at: anchors.appendingPathComponent("root.pem"))
        let linkOnly = try CLI.run(["verify", "smime.pem", "--intermediates", "cas", "--anchors", "anchors"], in: files.directory)
        #expect(linkOnly.status == 2, "a dangling link anchors nothing, and the README holds no certificate")
        #expect(linkOnly.stderr.contains("no certificate found in the folder"))

        let empty = files.directory.appendingPathComponent("empty")
        try manager.createDirectory(at: empty, withIntermediateDirectories: false)
        let none = try CLI.run(["verify", "smime.pem", "--anchors", "empty"], in: files.directory)
        #expect(none.status == 2)
        #expect(none.stderr.hasPrefix("certpath verify: empty: no certificate found in the folder"))
    }

    @Test("PKCS #7 bundles (openssl crl2pkcs7, PEM and DER) as LEAF, --intermediates and --anchors")
    func pkcs7Bundles() throws {
        let files = try Files()
        defer { files.remove() }
        try Files.openssl(["crl2pkcs7", "-nocrl", "-certfile", "smime.pem", "-out", "smime.p7b"], in: files.directory)
        try Files.openssl(["crl2pkcs7", "-nocrl", "-certfile", "inter.pem", "-outform", "DER", "-out", "inter.p7c"], in: files.directory)
        try Files.openssl(["crl2pkcs7", "-nocrl", "-certfile", "root.pem", "-out", "root.p7b"], in: files.directory)
        let text = try String(contentsOfFile: files.path("smime.p7b"), encoding: .utf8)
        #expect(text.hasPrefix("-----BEGIN PKCS7-----"))

        let run = try CLI.run(["verify", "smime.p7b", "--intermediates", "inter.p7c", "--anchors", "root.p7b", "--purpose", "smime",
                               "--expect-name", Self.utf8Mailbox, "--json"], in: files.directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let chain = try field(try run.json(), "chain", as: [[String: Any]].self)
        #expect(chain.map { $0["subject"] as? String ?? "?" } == ["CN=Purpose Test Leaf", "CN=Purpose Test CA", "CN=Purpose Test Root"])
    }

    @Test("several LEAF files: a result each, the exit status of the worst")
    func severalLeaves() throws {
        let files = try Files()
        defer { files.remove() }
        let json = try CLI.run(["verify", "smime.pem", "tls.pem", "--intermediates", "inter.pem", "--anchors", "root.pem",
                                "--purpose", "smime", "--json"], in: files.directory)
        #expect(json.status == 1)
        let results = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(results.map { $0["file"] as? String ?? "?" } == ["smime.pem", "tls.pem"])
        #expect(results.map { $0["trusted"] as? Bool ?? true } == [true, false])

        let trusted = try CLI.run(["verify", "tsa.pem", "codesign.pem", "--intermediates", "inter.pem", "--anchors", "root.pem"],
                                  in: files.directory)
        #expect(trusted.status == 0)
        #expect(trusted.stdout.hasPrefix("tsa.pem:\n  trusted: "))
        #expect(trusted.stdout.contains("\n\ncodesign.pem:\n  trusted: "))

        let missing = try CLI.run(["verify", "tsa.pem", "missing.pem", "--intermediates", "inter.pem", "--anchors", "root.pem", "--json"],
                                  in: files.directory)
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("certpath verify: missing.pem: cannot read"))
        let partial = try #require(try JSONSerialization.jsonObject(with: Data(missing.stdout.utf8)) as? [[String: Any]])
        #expect(partial.map { $0["status"] as? String ?? "?" } == ["trusted", "error"])
    }

    @Test("batch: the new purposes per line and with --purpose, PKCS #7 chains, --anchors DIR")
    func batch() throws {
        let files = try Files()
        defer { files.remove() }
        try Files.openssl(["crl2pkcs7", "-nocrl", "-certfile", "smime.pem", "-certfile", "inter.pem", "-outform", "DER", "-out", "chain.p7c"],
                          in: files.directory)
        func der(_ name: String) throws -> String {
            let pem = try String(contentsOfFile: files.path(name), encoding: .utf8)
            return pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        }
        func line(_ members: [String: Any]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: members), as: UTF8.self)
        }
        let bundle = try Data(contentsOf: URL(fileURLWithPath: files.path("chain.p7c"))).base64EncodedString()
        let anchors = files.directory.appendingPathComponent("anchors")
        try FileManager.default.createDirectory(at: anchors, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: files.path("root.pem"), toPath: anchors.appendingPathComponent("root.pem").path)
        let input = try [
            line(["chain": [der("smime.pem"), der("inter.pem")], "purpose": "smime", "name": Self.utf8Mailbox]),
            line(["chain": bundle, "purpose": "smime-sign", "name": "alice@example.com"]),
            line(["chain": [der("tsa-noncritical.pem"), der("inter.pem")], "purpose": "time-stamping"]),
            line(["chain": [der("codesign.pem"), der("inter.pem")], "purpose": "1.3.6.1.5.5.7.3.3"]),
            line(["chain": [der("codesign.pem"), der("inter.pem")]]),
        ].joined(separator: "\n") + "\n"
        let run = try CLI.run(["batch", "--anchors", "anchors", "--purpose", "code-signing"], input: input, in: files.directory)
        #expect(run.status == 1, "\(run.stderr)")
        let results = try run.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(results.map { $0["status"] as? String ?? "?" } == ["trusted", "trusted", "untrusted", "trusted", "trusted"])
        #expect(Self.purposeRules(results[2]) == ["timeStampingExtendedKeyUsageNotCritical (RFC 3161 2.3)"])
        // The line without "purpose" takes --purpose.
        #expect((results[4]["purpose"] as? [String: Any])?["kind"] as? String == "codeSigning")
    }
}
