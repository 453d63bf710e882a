import CertPath
import Foundation
import Testing

/// `certpath exceptions list|remove|prune` and the recording options of `--save-exceptions` (issue
/// 33, "Trust exceptions people can manage"). The sample time is 2026-06-01, when
/// `server-expired.pem` has expired; it shares its subject with `server.pem`, which has another key.
@Suite struct ExceptionsCLITests {
    static let expired = ["verify", "rsa/server-expired.pem", "--intermediates", "rsa/intermediate.pem", "--anchors", "rsa/root.pem",
                          "--at", CLI.time, "--server", "server.customer1.example"]
    static let selfSigned = ["verify", "rsa/selfsigned-server.pem", "--anchors", "rsa/root.pem", "--at", CLI.time,
                             "--server", "selfsigned.customer1.example"]

    /// A folder with an exceptions file holding the expired server's entry and the self-signed one's.
    static func twoEntries() throws -> (folder: URL, file: String) {
        let folder = try CLI.temporaryDirectory()
        let file = folder.appendingPathComponent("exceptions.txt").path
        #expect(try CLI.run(expired + ["--save-exceptions", file]).status == 1)
        #expect(try CLI.run(selfSigned + ["--save-exceptions", file]).status == 1)
        return (folder, file)
    }

    static func ids(_ file: String) throws -> [String] {
        let json = try CLI.run(["exceptions", "list", file, "--json"]).json()
        return try field(json, "entries", as: [[String: Any]].self).compactMap { $0["id"] as? String }
    }

    @Test func listShowsEachEntryReadably() throws {
        let (folder, file) = try Self.twoEntries()
        defer { try? FileManager.default.removeItem(at: folder) }
        let human = try CLI.run(["exceptions", "list", file])
        #expect(human.status == 0, "\(human.stderr)")
        #expect(human.stdout.hasPrefix("\(file): trust exceptions, version 2: 2 entries\n"), "\(human.stdout)")
        #expect(human.stdout.contains("  CN=server.customer1.example,O=Customer 1\n  issuer:   CN=Example Corp Customer 1 CA R1,"))
        #expect(human.stdout.contains("  names:    DNS:server.customer1.example, IP:192.0.2.10\n"))
        #expect(human.stdout.contains("  accepts:  expired (this certificate)\n"))
        #expect(human.stdout.contains("  accepts:  selfSignedNotTrusted (this certificate)\n"))
        #expect(human.stdout.contains("  purpose:  server\n  host:     any\n  expires:  never\n"))
        let json = try CLI.run(["exceptions", "list", file, "--json"]).json()
        #expect(try field(json, "schema", as: String.self) == "certpath-exceptions")
        let entries = try field(json, "entries", as: [[String: Any]].self)
        #expect(entries.count == 2)
        let leaf = try #require(try CLI.certificates("rsa/server-expired.pem").first)
        #expect(entries[0]["leafSHA256"] as? String == SHA256Digest(hashing: leaf.der).hex)
        #expect((entries[0]["failures"] as? [[String: Any]])?.first?["code"] as? String == "expired")
        #expect(entries[0]["recorded"] is String)
    }

    /// Reviewer finding (high): a self-signed certificate accepted once for `--server` became
    /// trusted for code signing, S/MIME, client and time stamping. The entry records its purpose.
    @Test func anExceptionSavedForAServerDoesNotApplyToOtherPurposes() throws {
        let (folder, file) = try Self.twoEntries()
        defer { try? FileManager.default.removeItem(at: folder) }
        let selfSigned = ["verify", "rsa/selfsigned-server.pem", "--anchors", "rsa/root.pem", "--at", CLI.time, "--exceptions", file]
        #expect(try CLI.run(selfSigned + ["--server", "selfsigned.customer1.example"]).status == 0)
        for purpose in [["--purpose", "code-signing"], ["--purpose", "smime"], ["--client"], ["--purpose", "time-stamping"],
                        ["--purpose", "any"], ["--purpose", "1.3.6.1.5.5.7.3.3"]] {
            let run = try CLI.run(selfSigned + purpose + ["--json"])
            #expect(run.status == 1, "\(purpose)")
            let inapplicable = try field(try run.json(), "inapplicableExceptions", as: [[String: Any]].self)
            #expect(inapplicable.map { $0["reason"] as? String } == ["recordedForOtherPurpose"], "\(purpose)")
        }
        let list = try CLI.run(["exceptions", "list", file])
        #expect(list.stdout.contains("  purpose:  server\n"))
        // Saved for plain path validation (`--purpose any`): applies there, and not to a TLS server.
        let anyFile = folder.appendingPathComponent("any.txt").path
        let base = ["verify", "rsa/selfsigned-server.pem", "--anchors", "rsa/root.pem", "--at", CLI.time]
        let saved = try CLI.run(base + ["--purpose", "any", "--save-exceptions", anyFile])
        #expect(saved.stderr.contains(" for the purpose any to "), "\(saved.stderr)")
        #expect(try CLI.run(base + ["--purpose", "any", "--exceptions", anyFile]).status == 0)
        #expect(try CLI.run(base + ["--server", "selfsigned.customer1.example", "--exceptions", anyFile]).status == 1)
    }

    /// Reviewer finding: rewriting an exceptions file (temporary file renamed over it) gave it the
    /// umask's permissions, so a 0600 file became 0644. A new file is 0600; an existing one keeps its mode.
    @Test func savingAndEditingKeepTheFilesPermissions() throws {
        let (folder, file) = try Self.twoEntries()
        defer { try? FileManager.default.removeItem(at: folder) }
        func mode() throws -> Int { try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) }
        #expect(try mode() == 0o600)  // created by --save-exceptions
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file)
        #expect(try CLI.run(Self.expired + ["--save-exceptions", file]).status == 1)
        #expect(try mode() == 0o640)
        let ids = try Self.ids(file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        #expect(try CLI.run(["exceptions", "remove", file, ids[0]]).status == 0)
        #expect(try mode() == 0o600)
        // Saving again (replacing this leaf's entry) keeps an unusual mode too.
        try FileManager.default.setAttributes([.posixPermissions: 0o604], ofItemAtPath: file)
        #expect(try CLI.run(Self.expired + ["--save-exceptions", file]).status == 1)
        #expect(try mode() == 0o604)
    }

    @Test func anEditedEntryIsReportedAndTheOtherStillApplies() throws {
        let (folder, file) = try Self.twoEntries()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The hostile edit: the expired server's entry widened to accept notYetValid too; a comment added.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "\nfailure expired ", with: "\n# edited by hand\nfailure notYetValid ")
        try edited.write(toFile: file, atomically: true, encoding: .utf8)
        let list = try CLI.run(["exceptions", "list", file])
        #expect(list.status == 1)
        #expect(list.stdout.contains("2 entries") == false && list.stdout.contains("1 entry, 1 rejected"), "\(list.stdout)")
        #expect(list.stdout.contains("REJECTED at line 8 (entry "), "\(list.stdout)")
        #expect(list.stdout.contains("integrity check failed"))
        // verify warns, and does not apply it; the untouched entry still applies.
        let refused = try CLI.run(Self.expired + ["--exceptions", file])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("certpath: warning: \(file): trust exception at line 8"), "\(refused.stderr)")
        #expect(try CLI.run(Self.selfSigned + ["--exceptions", file]).status == 0)
    }

    @Test func removeDeletesOneEntryAndKeepsCommentsAndTheRest() throws {
        let (folder, file) = try Self.twoEntries()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try String(contentsOfFile: file, encoding: .utf8) + "# my own note\n"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let ids = try Self.ids(file)
        #expect(ids.count == 2)
        let removed = try CLI.run(["exceptions", "remove", file, ids[0]])
        #expect(removed.status == 0 && removed.stdout == "removed \(ids[0])\n", "\(removed.stderr)")
        let after = try String(contentsOfFile: file, encoding: .utf8)
        #expect(after.hasSuffix("# my own note\n"))
        #expect(try Self.ids(file) == [ids[1]])
        #expect(try CLI.run(Self.expired + ["--exceptions", file]).status == 1)
        #expect(try CLI.run(Self.selfSigned + ["--exceptions", file]).status == 0)
        // An unknown ID changes nothing.
        let unknown = try CLI.run(["exceptions", "remove", file, "000000000000"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no entry with ID '000000000000'"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == after)
    }

    @Test func pruneRemovesExpiredEntriesOnly() throws {
        let (folder, file) = try Self.twoEntries()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try CLI.run(["exceptions", "prune", file]).stdout == "nothing to prune: no entry has expired\n")
        // An entry that expired yesterday (made with the library: the CLI records from now on).
        let leaf = try #require(try CLI.certificates("rsa/server-not-yet-valid.pem").first)
        let failure = try #require(ExceptedFailure(kind: .notYetValid, certificate: SHA256Digest(hashing: leaf.der), detail: nil))
        let yesterday = UnixTime(secondsSinceEpoch: TrustEvaluation.now().secondsSinceEpoch - 86_400)
        let entry = TrustException(certificate: leaf, failures: [failure], recorded: yesterday, expires: yesterday)
        try (try String(contentsOfFile: file, encoding: .utf8) + "\n" + TrustExceptions.entryText(entry))
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try Self.ids(file).count == 3)
        #expect(try CLI.run(["exceptions", "list", file]).stdout.contains("(expired: 'certpath exceptions prune' removes it)"))
        let pruned = try CLI.run(["exceptions", "prune", file])
        #expect(pruned.stdout == "removed \(entry.id) (expired at \(yesterday))\n", "\(pruned.stdout)")
        #expect(try Self.ids(file).count == 2)
    }

    @Test func hostBindingAndExpiryAreRecordedAndHonoured() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("exceptions.txt").path
        let saved = try CLI.run(Self.expired + ["--save-exceptions", file, "--exception-host", "server.customer1.example",
                                                "--exception-expires", "2099-01-01"])
        #expect(saved.stderr.contains(", bound to server.customer1.example, until 2099-01-01T00:00:00Z to "), "\(saved.stderr)")
        #expect(try CLI.run(Self.expired + ["--exceptions", file]).status == 0)
        // The same certificate reached as 192.0.2.10 (it carries that address too): bound elsewhere.
        let other = try CLI.run(["verify", "rsa/server-expired.pem", "--intermediates", "rsa/intermediate.pem", "--anchors", "rsa/root.pem",
                                 "--at", CLI.time, "--ip", "192.0.2.10", "--exceptions", file])
        #expect(other.status == 1)
        #expect(other.stdout.contains("note: the trust exception "), "\(other.stdout)")
        #expect(other.stdout.contains("is bound to the host server.customer1.example; it does not apply to this evaluation"))
        // Past its expiry (validation time after 2099-01-01) it no longer applies.
        let late = try CLI.run(["verify", "rsa/server-expired.pem", "--intermediates", "rsa/intermediate.pem", "--anchors", "rsa/root.pem",
                                "--at", "2099-01-02", "--server", "server.customer1.example", "--exceptions", file])
        #expect(late.status == 1)
        #expect(late.stdout.contains("expired at 2099-01-01T00:00:00Z; it no longer applies"), "\(late.stdout)")
        // The options need --save-exceptions, and a valid value.
        #expect(try CLI.run(Self.expired + ["--exception-host", "a.example"]).stderr
            == "certpath verify: --exception-host goes with --save-exceptions\n")
        #expect(try CLI.run(Self.expired + ["--save-exceptions", file, "--exception-expires", "soon"]).status == 2)
        // Reviewer finding: an expiry in the past saved an exception that could never apply. Refused, nothing written.
        let before = try String(contentsOfFile: file, encoding: .utf8)
        let past = try CLI.run(Self.expired + ["--save-exceptions", file, "--exception-expires", "2020-01-01"])
        #expect(past.status == 2)
        #expect(past.stderr.hasPrefix("certpath verify: --exception-expires '2020-01-01': 2020-01-01T00:00:00Z is not in the future (now is "), "\(past.stderr)")
        #expect(past.stdout.isEmpty)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
    }

    @Test func aCertificateWithTheSameNameButAnotherKeyGetsANote() throws {
        let (folder, file) = try Self.twoEntries()
        defer { try? FileManager.default.removeItem(at: folder) }
        // server.pem: the expired one's subject, another key; without its intermediate (issuerNotFound).
        let run = try CLI.run(["verify", "rsa/server.pem", "--anchors", "rsa/root.pem", "--at", CLI.time,
                               "--server", "server.customer1.example", "--exceptions", file])
        #expect(run.status == 1)
        #expect(run.stdout.contains("exists for a different certificate of that name, CN=server.customer1.example,O=Customer 1"), "\(run.stdout)")
        #expect(run.stdout.contains("another key); it does not apply to this certificate"))
        let json = try CLI.run(["verify", "rsa/server.pem", "--anchors", "rsa/root.pem", "--at", CLI.time,
                                "--server", "server.customer1.example", "--exceptions", file, "--json"]).json()
        let notes = try field(json, "inapplicableExceptions", as: [[String: Any]].self)
        #expect(notes.map { $0["reason"] as? String } == ["otherCertificateOfSameName"])
    }

    @Test func aVersion1FileIsListedAndMigratedOnTheFirstChange() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("exceptions.txt").path
        let leaf = SHA256Digest(hashing: try #require(try CLI.certificates("rsa/server-expired.pem").first).der).hex
        let body = "certpath-trust-exceptions 1\nleaf \(leaf)\nfailure expired \(leaf)\n"
        try (body + "checksum \(SHA256Digest(hashing: Array(body.utf8)).hex)\n").write(toFile: file, atomically: true, encoding: .utf8)
        let list = try CLI.run(["exceptions", "list", file])
        #expect(list.stdout.contains("version 1: 1 entry") && list.stdout.contains("recorded: unknown (version 1)"), "\(list.stdout)")
        #expect(try CLI.run(Self.expired + ["--exceptions", file]).status == 0)
        let saved = try CLI.run(Self.selfSigned + ["--save-exceptions", file])
        #expect(saved.stderr.contains("migrated the file from version 1 to version 2"), "\(saved.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("certpath-trust-exceptions 2\n"))
        #expect(try CLI.run(Self.expired + ["--exceptions", file]).status == 0)
        #expect(try CLI.run(Self.selfSigned + ["--exceptions", file]).status == 0)
    }
}
