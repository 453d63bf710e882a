import Foundation
import Testing

/// Issue 32: what `certpath` loads at start-up, and `batch`'s own RFC 8259 line reader and `--at`.
@Suite struct StartupAndBatchReaderCLITests {
    /// The shared libraries the dynamic loader loaded for one run (glibc's `LD_DEBUG=libs` trace on
    /// standard error), by file name.
    func loadedLibraries(_ arguments: [String], environment: [String: String] = [:],
                         in directory: URL = CLI.samplePKI) throws -> (run: CLI.Run, libraries: Set<String>) {
        var environment = environment
        environment["LD_DEBUG"] = "libs"
        let run = try CLI.run(arguments, environment: environment, in: directory)
        let libraries = run.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "calling init: ") else { return nil }
            return line[range.upperBound...].split(separator: "/").last.map(String.init)
        }
        return (run, Set(libraries))
    }

    /// Without `--fetch`, neither libcurl nor what it links is ever loaded (issue 32: FoundationNetworking
    /// brought libcurl, GnuTLS, Kerberos and LDAP into every process); Foundation's ICU data neither.
    @Test func verifyWithoutFetchLoadsNoHTTPClient() throws {
        let (run, libraries) = try loadedLibraries(CLI.trustedServer)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(libraries.contains { $0.hasPrefix("libcrypto") }, "\(libraries.sorted())")
        for unwanted in ["libcurl", "libgnutls", "libkrb5", "libldap", "libFoundationNetworking", "libicu", "lib_FoundationICU",
                         "libFoundation.so", "libFoundationInternationalization"] {
            #expect(!libraries.contains { $0.hasPrefix(unwanted) }, "\(unwanted) loaded: \(libraries.sorted())")
        }
    }

    /// With `--fetch`, libcurl is opened on the first fetch (here against a closed port: the fetch
    /// fails and is recorded, as before).
    @Test func fetchOpensLibcurlOnFirstUse() throws {
        let (run, libraries) = try loadedLibraries(
            ["verify", "leaf-good.pem", "--anchors", "root.pem", "--server", "good.fetch.test", "--json", "--fetch", "--fetch-timeout", "5"],
            environment: ["CERTPATH_FETCH_URL_MAP": "http://127.0.0.1:1/=http://127.0.0.1:9/ http://127.0.0.1:2/=http://127.0.0.1:9/"],
            in: CLI.packageRoot.appendingPathComponent("TestVectors/fetch"))
        #expect(run.status == 1)
        #expect(libraries.contains { $0.hasPrefix("libcurl") }, "\(libraries.sorted())")
        let fetches = try #require(try run.json()["fetches"] as? [[String: Any]])
        #expect(fetches.first?["outcome"] as? String == "failed")
        #expect((fetches.first?["detail"] as? String)?.hasPrefix("transport error: ") == true, "\(fetches)")
    }

    func batch(_ lines: [String], _ options: [String] = []) throws -> (run: CLI.Run, output: [[String: Any]]) {
        let run = try CLI.run(["batch", "--anchors", "rsa/root.pem"] + options, input: lines.joined(separator: "\n") + "\n")
        let output = try run.stdout.split(separator: "\n").map { text in
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }
        return (run, output)
    }

    func chainLiteral() throws -> String {
        let pem = try String(contentsOf: CLI.samplePKI.appendingPathComponent("rsa/server-chain.pem"), encoding: .utf8)
        return String(decoding: try JSONSerialization.data(withJSONObject: [pem]), as: UTF8.self).dropFirst().dropLast().description
    }

    /// RFC 8259 7: every escape form decodes (`\/`, `\u002d`, a surrogate pair); a lone surrogate or an
    /// unescaped control character is not JSON; 8.1/2: a top-level array is not an object; values
    /// of unknown members are checked to the end (a nested structure, numbers) before they are refused.
    @Test func lineReaderFollowsRFC8259() throws {
        let chain = try chainLiteral()
        // "-----BEGIN" spelled with \u002d; JSONSerialization already wrote the slashes of base64 as \/.
        #expect(chain.contains("\\/"))
        let escaped = chain.replacingOccurrences(of: "-----BEGIN", with: "\\u002d----BEGIN")
        let loneSurrogate = "{\"chain\": \(chain), \"name\": \"\\ud800\"}"
        let controlCharacter = "{\"chain\": \(chain), \"name\": \"a\u{01}b\"}"
        let leadingZero = "{\"chain\": \(chain), \"extra\": {\"a\": [01]}}"
        let trailingText = " {\"chain\": \(chain)} x"
        let (run, output) = try batch([
            "{\"chain\": \(escaped), \"name\": \"server.customer1.example\", \"time\": \"\(CLI.time)\"}",
            loneSurrogate,
            controlCharacter,
            "[{\"chain\": \(chain)}]",
            "{\"chain\": \(chain), \"extra\": {\"a\": [1, -2.5e3, true, false, null, {\"b\": []}]}}",
            leadingZero,
            "{\"chain\": \(chain), \"name\": \"\\ud83d\\ude00.example\"}",
            trailingText,
        ])
        #expect(run.status == 1)
        #expect(output.map { $0["status"] as? String } == ["trusted", "error", "error", "error", "error", "error", "error", "error"])
        let errors = output.dropFirst().map { $0["error"] as? String ?? "" }
        // Each syntax error names the byte (from 0) where reading stopped: a bad escape at its backslash.
        func at(_ rest: String, of line: String) -> String { "not valid JSON at byte \(line.utf8.count - rest.utf8.count)" }
        #expect(errors.prefix(5) == [at("\\ud800\"}", of: loneSurrogate), at("\u{01}b\"}", of: controlCharacter),
                                     "expected a JSON object with a \"chain\" member",
                                     "unknown member \"extra\" (expected chain, name, time, purpose)", at("1]}}", of: leadingZero)])
        // The surrogate pair decoded to U+1F600 (then refused as a host name).
        #expect(errors.count == 7 && errors[5].hasPrefix("\"name\" '😀.example': "), "\(errors)")
        #expect(errors.last == at("x", of: trailingText))
    }

    /// A line that ends inside a value says so, with the line's length.
    @Test func aLineEndingInsideAValueSaysSo() throws {
        let (_, output) = try batch(["{\"chain\": \"abc", "{\"chain\": [\"a\",", "{\"chain\": \"a\\", "{\"chain\": tr",
                                     "{\"chain\": \"\\u00", "{\"chain\": tx", "{\"chain\": \"\\u0g\""])
        #expect(output.map { $0["error"] as? String } == [
            "not valid JSON: the line ends at byte 14, inside a value", "not valid JSON: the line ends at byte 15, inside a value",
            "not valid JSON: the line ends at byte 13, inside a value", "not valid JSON: the line ends at byte 12, inside a value",
            "not valid JSON: the line ends at byte 15, inside a value",
            // A wrong literal at its start, a bad escape at its backslash.
            "not valid JSON at byte 10", "not valid JSON at byte 11",
        ])
    }

    /// RFC 8259 8.1: a byte order mark before a line's JSON is ignored (an editor saving UTF-8 adds
    /// one to the first line; `cat` of two such files puts one at the start of a later line). A NUL
    /// byte in UTF-8 text is U+0000 unescaped, which JSON allows nowhere (RFC 8259 7): the line is
    /// not JSON, not "not UTF-8" as a batch reviewer found it reported (UTF-16 stays "not UTF-8").
    @Test func byteOrderMarkIsIgnoredAndANULByteIsNotJSON() throws {
        let chain = try chainLiteral()
        let trusted = "{\"chain\": \(chain), \"name\": \"server.customer1.example\", \"time\": \"\(CLI.time)\"}"
        let nulInName = "{\"chain\": \(chain), \"name\": \"a\u{0}b\"}", nulAfter = "{\"chain\": \(chain)}\u{0}"
        let (run, output) = try batch([
            "\u{FEFF}" + trusted,
            trusted,
            "\u{FEFF}",
            nulInName,
            nulAfter,
            "\u{FEFF}\u{FEFF}" + trusted,
        ])
        #expect(run.status == 1)
        #expect(output.map { $0["status"] as? String } == ["trusted", "trusted", "error", "error", "error", "error"])
        func nul(_ rest: String, of line: String) -> String {
            "not valid JSON at byte \(line.utf8.count - rest.utf8.count): a NUL byte (U+0000 is written \\u0000 in a string, RFC 8259 7)"
        }
        // A line that is only a byte order mark is an empty line, as one without it is.
        // The second byte order mark is not ignored: reading stops after the first one's three bytes.
        #expect(output.dropFirst(2).map { $0["error"] as? String } == ["empty line", nul("\u{0}b\"}", of: nulInName), nul("\u{0}", of: nulAfter),
                                                                          "not valid JSON at byte 3"])
    }

    /// `--at` is the validation time of lines without `time` (one instant for a run split over processes),
    /// `--first-line` the number of the first line.
    @Test func batchAtAndFirstLine() throws {
        let chain = try chainLiteral()
        let (run, output) = try batch(["{\"chain\": \(chain), \"name\": \"server.customer1.example\"}",
                                       "{\"chain\": \(chain), \"name\": \"server.customer1.example\", \"time\": \"2050-01-01\"}"],
                                      ["--at", "2030-01-02T03:04:05Z"])
        #expect(run.status == 1)
        #expect(output.map { $0["validationTime"] as? String } == ["2030-01-02T03:04:05Z", "2050-01-01T00:00:00Z"])
        #expect((output.last?["primaryFailure"] as? [String: Any])?["code"] as? String == "expired")
        // --first-line: a partition of a larger corpus keeps the corpus's line numbers.
        let (_, numbered) = try batch(["{\"chain\": \(chain)}", "not json"], ["--first-line", "1001"])
        #expect(numbered.map { $0["line"] as? Int } == [1001, 1002])
        let zero = try CLI.run(["batch", "--anchors", "rsa/root.pem", "--first-line", "0"])
        #expect(zero.status == 2 && zero.stderr.contains("--first-line '0': expected a whole number from 1"), "\(zero.stderr)")
        let bad = try CLI.run(["batch", "--anchors", "rsa/root.pem", "--at", "soon"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--at: bad time 'soon'"), "\(bad.stderr)")
    }

    /// The intermediates a corpus repeats are read once per run (by their PEM block's text); a block
    /// that differs by one character is read afresh, and its error is the full reader's, naming the
    /// block's line; text around the blocks leaves the line to the full reader, as before.
    @Test func repeatedIntermediatesAreReadOnceAndErrorsStayExact() throws {
        let pem = try String(contentsOf: CLI.samplePKI.appendingPathComponent("rsa/server-chain.pem"), encoding: .utf8)
        var blocks = pem.components(separatedBy: "-----END CERTIFICATE-----")
        let second = blocks[1]
        let beginLine = try #require(second.range(of: "BEGIN"))
        let body = try #require(second.range(of: "\n", range: beginLine.upperBound..<second.endIndex))
        let target = second.index(body.upperBound, offsetBy: 69)
        blocks[1] = second.replacingCharacters(in: target...target, with: second[target] == "A" ? "B" : "A")
        let corrupted = blocks.joined(separator: "-----END CERTIFICATE-----")
        func line(_ chain: String) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: ["chain": chain, "name": "server.customer1.example", "time": CLI.time]),
                   as: UTF8.self)
        }
        let (run, output) = try batch([try line(pem), try line(corrupted), try line(pem), try line(pem + "trailing text\n")])
        #expect(run.status == 1)
        #expect(output.map { $0["status"] as? String } == ["trusted", "error", "trusted", "trusted"])
        #expect((output[1]["error"] as? String)?.hasPrefix("\"chain\": certificate 2 (PEM block at line 24; ") == true, "\(output[1])")
    }

    /// Reviewer finding: the duplicate-member check scanned the members read so far, so a line of n
    /// members cost O(n²) (40,000 members: 50 s). RFC 8259 4 leaves duplicate names to the reader;
    /// a set makes the line linear. 60,000 members would take minutes before the fix.
    @Test func manyMembersOnALineCostLinearTime() throws {
        let members = (0..<60_000).map { "\"k\($0)\": 1" }.joined(separator: ", ")
        let (run, output) = try batch(["{\(members)}", "{\"a\": 1, \"a\": 2}"])
        #expect(run.status == 1)
        #expect(output.map { $0["status"] as? String } == ["error", "error"])
        #expect((output[1]["error"] as? String)?.contains("\"a\"") == true, "\(output[1])")
    }

    /// Reviewer finding: the fast path for repeated PEM blocks accepted a block glued to the END line
    /// (`-----END CERTIFICATE----------BEGIN CERTIFICATE-----`), which `verify` and OpenSSL refuse:
    /// RFC 7468 3 puts a line end after each boundary line. The line now goes to the full reader
    /// and gets its error, as `verify` does.
    @Test func aBlockGluedToTheEndLineIsRefusedAsVerifyRefusesIt() throws {
        let pem = try String(contentsOf: CLI.samplePKI.appendingPathComponent("rsa/server-chain.pem"), encoding: .utf8)
        let end = try #require(pem.range(of: "-----END CERTIFICATE-----"))
        let glued = String(pem[..<end.upperBound]) + String(pem[end.upperBound...]).drop { $0 == "\n" || $0 == "\r" }
        let line = String(decoding: try JSONSerialization.data(withJSONObject: ["chain": glued, "name": "server.customer1.example",
                                                                                 "time": CLI.time]), as: UTF8.self)
        let (run, output) = try batch([line])
        #expect(run.status == 1)
        #expect(output.first?["status"] as? String == "error", "\(output)")
        #expect((output.first?["error"] as? String)?.contains("END label") == true, "\(output)")
    }
}
