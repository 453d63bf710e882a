import CertPath
import Foundation
import Testing

/// Every mistake on the command line or in its input gets exit status 2 and one clear line on stderr,
/// naming what is wrong; nothing is printed on stdout.
@Suite struct UsageErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let server = ["verify", "rsa/server.pem", "--intermediates", "rsa/intermediate.pem", "--anchors", "rsa/root.pem"]

    static let cases: [Case] = [
        Case(arguments: ["frobnicate"], message: "certpath: unknown command 'frobnicate' (commands: verify, show, batch, limbo"),
        // `help` with something other than a command is the same mistake as the bare word.
        Case(arguments: ["help", "frob"],
             message: "certpath: unknown command 'frob' (commands: verify, show, batch, limbo, connect, exceptions; see 'certpath --help')\n"),
        Case(arguments: ["--help", "frob"],
             message: "certpath: unknown command 'frob' (commands: verify, show, batch, limbo, connect, exceptions; see 'certpath --help')\n"),
        Case(arguments: ["-h", "--json"],
             message: "certpath: unknown command '--json' (commands: verify, show, batch, limbo, connect, exceptions; see 'certpath --help')\n"),
        Case(arguments: ["help", "verify", "extra"], message: "certpath: unexpected argument 'extra' (see 'certpath --help')\n"),
        Case(arguments: ["--version", "verify"], message: "certpath: unexpected argument 'verify' (see 'certpath --help')\n"),
        Case(arguments: ["verify", "rsa/server.pem", "--bogus"], message: "certpath verify: unknown option '--bogus'"),
        Case(arguments: ["verify", "rsa/server.pem", "--anchor", "rsa/root.pem"],
             message: "certpath verify: unknown option '--anchor'; did you mean '--anchors'?"),
        Case(arguments: ["verify", "rsa/server.pem", "-x"], message: "certpath verify: unknown option '-x' (see 'certpath verify --help')"),
        Case(arguments: ["verify", "rsa/server.pem", "--anchors"], message: "certpath verify: option '--anchors' needs a value (FILE)"),
        Case(arguments: ["verify", "rsa/server.pem", "--anchors", "--json"],
             message: "certpath verify: option '--anchors' needs a value (FILE), found option '--json'"),
        Case(arguments: ["verify", "rsa/server.pem", "--json=yes"], message: "certpath verify: option '--json' takes no value"),
        Case(arguments: server + ["--at", "2026-01-01", "--at", "2026-01-02"], message: "certpath verify: option '--at' given more than once"),
        Case(arguments: ["verify"], message: "certpath verify: missing LEAF (see 'certpath verify --help')"),
        Case(arguments: ["verify", "no-such-file.pem"], message: "certpath verify: no-such-file.pem: cannot read: No such file or directory"),
        // A folder is read file by file (docs/CLI.md); one without any certificate is an error.
        Case(arguments: ["verify", "rsa/server.pem", "--anchors", "rsa/keys"],
             message: "certpath verify: rsa/keys: no certificate found in the folder (none of its"),
        Case(arguments: ["verify", "rsa/server.pem", "--intermediates", "rsa/keys/server.key"],
             message: "certpath verify: rsa/keys/server.key: no certificate found (expected PEM \"CERTIFICATE\" blocks or one DER certificate; found only line 1: PRIVATE KEY block)"),
        Case(arguments: server + ["--at", "yesterday"], message: "certpath verify: --at: bad time 'yesterday': expected RFC 3339"),
        Case(arguments: server + ["--at", "2026-02-30T00:00:00Z"], message: "certpath verify: --at: bad time '2026-02-30T00:00:00Z'"),
        // Leap seconds are refused (docs/CLI.md, Times), with or without an offset.
        Case(arguments: server + ["--at", "2016-12-31T23:59:60Z"], message: "certpath verify: --at: bad time '2016-12-31T23:59:60Z': expected RFC 3339"),
        Case(arguments: server + ["--at", "2017-01-01T00:59:60+01:00"],
             message: "certpath verify: --at: bad time '2017-01-01T00:59:60+01:00': expected RFC 3339"),
        Case(arguments: server + ["--server", "bad_host.example"],
             message: "certpath verify: --server 'bad_host.example': not a valid host name or IP address: underscore"),
        Case(arguments: server + ["--server", "*.customer1.example"],
             message: "certpath verify: --server '*.customer1.example': not a valid host name or IP address"),
        Case(arguments: server + ["--ip", "192.0.2"], message: "certpath verify: --ip '192.0.2': not an IPv4 address"),
        Case(arguments: server + ["--server", "a.example", "--ip", "192.0.2.1"],
             message: "certpath verify: --server and --ip cannot be used together"),
        Case(arguments: server + ["--client", "--server", "a.example"], message: "certpath verify: --client and --server cannot be used together"),
        Case(arguments: server + ["--expect-name", "a.example"], message: "certpath verify: --expect-name needs --client"),
        Case(arguments: server + ["--client", "--expect-name", "a@b@c"], message: "certpath verify: --expect-name 'a@b@c': not a valid e-mail address"),
        Case(arguments: server + ["--pin-sha256", "not-a-pin"], message: "certpath verify: --pin-sha256 'not-a-pin': expected the base64 SHA-256"),
        Case(arguments: server + ["--max-depth", "many"], message: "certpath verify: --max-depth 'many': expected a whole number"),
        Case(arguments: server + ["--max-depth", "65"], message: "certpath verify: --max-depth '65': expected a whole number of intermediates from 0 to 64"),
        Case(arguments: server + ["--profile", "strict"], message: "certpath verify: --profile 'strict': expected auto, webpki, interoperable, rfc5280, path-validation"),
        Case(arguments: server + ["--policy", "2.5.29.x"], message: "certpath verify: --policy '2.5.29.x': not a dotted object identifier"),
        Case(arguments: server + ["--crl", "rsa/server.pem"], message: "certpath verify: rsa/server.pem: no CRL found (expected DER or PEM \"X509 CRL\" blocks)"),
        Case(arguments: server + ["--crl", "missing.crl"], message: "certpath verify: missing.crl: cannot read: No such file or directory"),
        Case(arguments: server + ["--exceptions", "rsa/root.pem"],
             message: "certpath verify: rsa/root.pem: trust exceptions, line 1: expected the header \"certpath-trust-exceptions 2\" or \"certpath-trust-exceptions 1\""),
        Case(arguments: ["show"], message: "certpath show: missing FILE"),
        Case(arguments: ["show", "README.md"], message: "certpath show: README.md: no certificate found"),
        // A newcomer tried `show FILE --anchors`: say what the option is for there, and where validation is.
        Case(arguments: ["show", "rsa/server.pem", "--anchors", "rsa/root.pem"],
             message: "certpath show: show takes --intermediates and --anchors only to check embedded SCTs (with --ct-log-list FILE); "
                 + "to validate a chain against anchors, use `certpath verify`\n"),
        Case(arguments: ["batch", "extra"], message: "certpath batch: unexpected argument 'extra'"),
        Case(arguments: ["batch", "--anchors", "missing.pem"], message: "certpath batch: missing.pem: cannot read: No such file or directory"),
        // Standard input is batch's own input: `--anchors -` consumed it and the run ended with status 0.
        Case(arguments: ["batch", "--anchors", "-"],
             message: "certpath batch: --anchors -: standard input is the JSON lines batch reads; give the anchors in a file\n"),
        Case(arguments: ["batch", "--profile", "x"], message: "certpath batch: --profile 'x': expected auto, webpki, interoperable, rfc5280, path-validation"),
        // A batch line carries no CRLs: how CRLs are read was accepted and did nothing (a reviewer's friction).
        Case(arguments: ["batch", "--anchors", "rsa/root.pem", "--crl-conformance", "strict"],
             message: "certpath batch: unknown option '--crl-conformance' (see 'certpath batch --help')\n"),
        // A whole number is decimal digits alone, without sign or leading zero, and the message names
        // the range (a batch reviewer found `--jobs +2` and `--jobs 02` read as 2). Without --anchors,
        // the option's mistake is still the one line (no system-anchors warning before it).
        Case(arguments: ["batch", "--anchors", "rsa/root.pem", "--jobs", "+2"], message: "certpath batch: --jobs '+2': expected a whole number from 1 to 1024\n"),
        Case(arguments: ["batch", "--anchors", "rsa/root.pem", "--jobs", "02"], message: "certpath batch: --jobs '02': expected a whole number from 1 to 1024\n"),
        Case(arguments: ["batch", "--anchors", "rsa/root.pem", "--jobs", " 2"], message: "certpath batch: --jobs ' 2': expected a whole number from 1 to 1024\n"),
        Case(arguments: ["batch", "--jobs", "0"], message: "certpath batch: --jobs '0': expected a whole number from 1 to 1024\n"),
        Case(arguments: ["batch", "--anchors", "rsa/root.pem", "--first-line", "1152921504606846977"],
             message: "certpath batch: --first-line '1152921504606846977': expected a whole number from 1 to 1152921504606846976\n"),
        Case(arguments: ["batch", "--anchors", "rsa/root.pem", "--first-line", "99999999999999999999"],
             message: "certpath batch: --first-line '99999999999999999999': expected a whole number from 1 to 1152921504606846976\n"),
        Case(arguments: server + ["--max-depth", "-0"], message: "certpath verify: --max-depth '-0': expected a whole number of intermediates from 0 to 64\n"),
        Case(arguments: server + ["--fetch", "--fetch-timeout", "1e2"],
             message: "certpath verify: --fetch-timeout '1e2': expected a whole number of seconds from 1 to 300\n"),
        Case(arguments: ["limbo"], message: "certpath limbo: missing FILE.json"),
        Case(arguments: ["limbo", "missing.json"], message: "certpath limbo: missing.json: cannot read: No such file or directory"),
        Case(arguments: ["limbo", "manifest.json"], message: "certpath limbo: manifest.json: not an x509-limbo suite: missing \"version\""),
        // A reviewer found Foundation's own renderings here (`CocoaError(code: … rawValue: 257)…`,
        // `DecodingError.typeMismatch: … Debug description: …`): what is wrong, and where, in words.
        Case(arguments: ["limbo", "/dev/null"], message: "certpath limbo: /dev/null: not an x509-limbo suite: the file is empty\n"),
        Case(arguments: ["limbo", "rsa/server-chain.pem"], message: "certpath limbo: rsa/server-chain.pem: not an x509-limbo suite: not JSON (RFC 8259)\n"),
        Case(arguments: server + ["--ct-log-list", "manifest.json"],
             message: "certpath verify: --ct-log-list manifest.json: CT log list: not a v3 log list: missing \"operators\" at the top level\n"),
    ]

    @Test(arguments: cases) func usageError(_ testCase: Case) throws {
        let run = try CLI.run(testCase.arguments)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty, "stdout: \(run.stdout)")
        #expect(run.errorLines.count == 1, "stderr: \(run.stderr)")
        #expect(run.stderr.hasPrefix(testCase.message), "stderr: \(run.stderr)")
    }

    /// Reviewer finding: binary input that is not DER-shaped (a SET, 0x31, where a certificate is a
    /// SEQUENCE) was reported as skipped text lines. A binary file is named as one.
    @Test func binaryThatIsNotDERIsNamedAsBinary() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("certpath-binary-\(UUID().uuidString).der")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data([0x31, 0x03, 0x02, 0x01, 0x00, 0xFF, 0x0A, 0x00]).write(to: file)
        let run = try CLI.run(["verify", file.path, "--anchors", "rsa/root.pem"])
        #expect(run.status == 2)
        #expect(run.stderr == "certpath verify: \(file.path): no certificate found (neither PEM text nor a DER certificate: "
                + "the file is binary and starts with byte 0x31, where a DER certificate starts with 0x30, a SEQUENCE)\n")
    }

    @Test func versionIsPrinted() throws {
        let run = try CLI.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout == "certpath 0.1.0\n")
        #expect(run.stderr.isEmpty)
        #expect(try CLI.run(["--help"]).stdout.contains("'certpath --version' prints the version."))
    }

    @Test func helpAloneAndHelpCommandSucceed() throws {
        let overview = try CLI.run(["help"])
        #expect(overview.status == 0)
        #expect(overview.stdout.hasPrefix("usage: certpath <command> [arguments]\n"))
        #expect(overview.stdout == (try CLI.run(["--help"])).stdout)
        let verify = try CLI.run(["help", "verify"])
        #expect(verify.status == 0)
        #expect(verify.stdout.hasPrefix("usage: certpath verify LEAF "))
    }

    // MARK: - Echoed values are bounded

    /// `value` as error messages echo it when longer than 200 Unicode scalars.
    static func truncated(_ value: String) -> String {
        String(value.unicodeScalars.prefix(200)) + "… (\(value.utf8.count) bytes)"
    }

    static let huge = String(repeating: "a", count: 100_000)

    @Test func echoedValueBoundary() throws {
        // At most 200 Unicode scalars: echoed whole.
        let fits = String(repeating: "x", count: 200)
        var run = try CLI.run(Self.server + ["--profile", fits])
        #expect(run.stderr == "certpath verify: --profile '\(fits)': expected auto, webpki, interoperable, rfc5280, path-validation\n")
        // One more: cut to 200, with the whole length in bytes.
        let over = fits + "y"
        run = try CLI.run(Self.server + ["--profile", over])
        #expect(run.stderr == "certpath verify: --profile '\(fits)… (201 bytes)': expected auto, webpki, interoperable, rfc5280, path-validation\n")
        // Counted in Unicode scalars, measured in UTF-8 bytes.
        let accented = String(repeating: "é", count: 300)
        run = try CLI.run(Self.server + ["--profile", accented])
        #expect(run.stderr == "certpath verify: --profile '\(String(repeating: "é", count: 200))… (600 bytes)': expected auto, webpki, interoperable, rfc5280, path-validation\n")
    }

    // The reviewer's input: a 100,000-character host name.
    @Test func hugeHostNameIsTruncated() throws {
        let run = try CLI.run(Self.server + ["--server", Self.huge])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "certpath verify: --server '\(Self.truncated(Self.huge))': not a valid host name or IP address: "
            + "the name is 100000 octets long; a DNS name has at most 253\n")
    }

    /// Arguments with a huge value, shown short in test names.
    struct HugeArguments: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        var testDescription: String {
            arguments.map { $0.replacingOccurrences(of: UsageErrorTests.huge, with: "<100000 × a>") }.joined(separator: " ")
        }
    }

    // Every message that echoes a command-line value bounds it.
    @Test(arguments: [
        [huge], ["help", huge], ["verify", huge], ["verify", "rsa/server.pem", "--" + huge], ["verify", "rsa/server.pem", "-" + huge],
        server + ["--purpose", huge], ["verify", "rsa/server.pem", "--anchors", "--" + huge],
        server + ["--at", huge], server + ["--ip", huge], server + ["--client", "--expect-name", huge],
        server + ["--client", "--expect-name", huge + "@example.com"], server + ["--pin-sha256", huge], server + ["--max-depth", huge],
        server + ["--profile", huge], server + ["--policy", huge], server + ["--exceptions", huge], server + ["--crl", huge],
        server + ["--anchors", huge], server + ["--intermediates", huge], ["show", huge], ["batch", "--anchors", huge],
        ["batch", "--profile", huge], ["limbo", huge],
    ].map(HugeArguments.init))
    func everyEchoedArgumentIsTruncated(_ testCase: HugeArguments) throws {
        let run = try CLI.run(testCase.arguments)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.errorLines.count == 1)
        #expect(run.stderr.utf8.count < 600, "\(run.stderr.utf8.count) bytes")
        #expect(run.stderr.contains("… (100"), "\(run.stderr.prefix(300))")
    }

    @Test func noCommandPrintsTheOverviewAndFails() throws {
        let run = try CLI.run([])
        #expect(run.status == 2)
        #expect(run.stderr.contains("usage: certpath <command> [arguments]"))
        #expect(run.stdout.isEmpty)
    }

    @Test func everyCommandHasHelp() throws {
        let overview = try CLI.run(["--help"])
        #expect(overview.status == 0)
        for command in ["verify", "show", "batch", "limbo"] {
            #expect(overview.stdout.contains("  \(command) "), "overview lacks \(command)")
            let help = try CLI.run([command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.hasPrefix("usage: certpath \(command) "), "\(command) --help: \(help.stdout)")
            #expect(help.stdout.contains("exit status:"))
            #expect(help.stderr.isEmpty)
            #expect(try CLI.run(["help", command]).stdout == help.stdout)
        }
        let verify = try CLI.run(["verify", "-h"]).stdout
        for option in ["--intermediates FILE...", "--anchors FILE...", "--system-anchors", "--server HOST", "--ip ADDR", "--client",
                       "--expect-name NAME...", "--at TIME", "--pin-sha256 B64...", "--exceptions FILE", "--save-exceptions FILE",
                       "--crl FILE...", "--ocsp FILE...", "--max-depth N", "--json", "--explain", "--policy OID...", "--require-explicit-policy",
                       "--inhibit-policy-mapping", "--inhibit-any-policy", "--profile NAME"] {
            #expect(verify.contains(option), "verify --help lacks \(option)")
        }
    }

    @Test func showNamesTheFileOffsetAndRuleOfMalformedDER() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try #require(try CLI.certificates("rsa/server.pem").first)

        // A DER file with one byte after the certificate.
        let trailing = directory.appendingPathComponent("trailing.der")
        try Data(good.der + [0x00]).write(to: trailing)
        let trailingError = try #require(libraryError(good.der + [0x00]))
        #expect(trailingError.code == .trailingData)
        var run = try CLI.run(["show", trailing.path])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "certpath show: \(trailing.path): certificate 1 is malformed: byte \(trailingError.offset): trailingData "
            + "(expected \(trailingError.expected))\n")

        // A PEM file whose second block has a non-minimal serialNumber INTEGER.
        var der = good.der
        let serialOffset = try #require(serialIntegerOffset(der))
        der[serialOffset + 2] = 0x00
        der[serialOffset + 3] = 0x01
        let serialError = try #require(libraryError(der))
        #expect(serialError.code == .nonMinimalInteger)
        #expect(serialError.offset == serialOffset)
        let first = PEM.encode(good.der)
        let secondBlockLine = first.split(separator: "\n").count + 1
        let pem = directory.appendingPathComponent("chain.pem")
        try (first + PEM.encode(der)).write(to: pem, atomically: true, encoding: .utf8)
        run = try CLI.run(["show", pem.path])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("certpath show: \(pem.path): certificate 2 (PEM block at line \(secondBlockLine); "), "\(run.stderr)")
        #expect(run.stderr.contains("is malformed: byte \(serialOffset): nonMinimalInteger (expected \(serialError.expected))"), "\(run.stderr)")

        // Other files are still shown, and the status is still 2.
        run = try CLI.run(["show", "rsa/root.pem", trailing.path])
        #expect(run.status == 2)
        #expect(run.stdout.contains("rsa/root.pem: certificate 1 of 1"))
    }

    /// The library's parse error for `der`, or `nil` when it parses.
    func libraryError(_ der: [UInt8]) -> DERError? {
        do {
            _ = try Certificate(derEncoded: der)
            return nil
        } catch {
            return error
        }
    }

    /// The offset of the serialNumber INTEGER of a v3 RSA-2048 certificate (after the version [0]).
    func serialIntegerOffset(_ der: [UInt8]) -> Int? {
        // Certificate and TBSCertificate SEQUENCE headers (long form, 2 length bytes), then [0] version.
        guard der.count > 20, der[0] == 0x30, der[1] == 0x82, der[4] == 0x30, der[5] == 0x82, der[8] == 0xA0 else { return nil }
        let offset = 8 + 2 + Int(der[9])
        return der[offset] == 0x02 && der[offset + 1] >= 2 && der[offset + 2] & 0x80 == 0 ? offset : nil
    }

    /// Reviewer finding: docs/CLI.md's "unknown command" row did not list `exceptions`. The row
    /// shows exactly what the CLI prints.
    @Test func theDocumentedUnknownCommandMessageIsTheCLIs() throws {
        let printed = try CLI.run(["frob"]).stderr.trimmingCharacters(in: .newlines)
        let manual = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/CLI.md"), encoding: .utf8)
        #expect(manual.contains("| unknown command | `\(printed)`"), "\(printed)")
    }
}
