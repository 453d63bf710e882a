import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Reviewer finding: a FIFO given by name hung every file option (opening a FIFO for reading
/// waits for a writer, POSIX open(2)). Every file the CLI reads is opened with O_NONBLOCK, cleared
/// after the open: a FIFO without a writer is an explained error at once; process substitution
/// (`<(cat file)`, a pipe with a writer) still works.
@Suite struct FIFOInputCLITests {
    /// `certpath ARGUMENTS` under bash in the sample PKI folder, ended after 20 s (status 124: it hung).
    static func run(_ command: String, certpath: URL = CLI.executable) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["20", "/usr/bin/bash", "-c", "\"$CERTPATH\" " + command]
        process.environment = ["CERTPATH": certpath.path, "PATH": "/usr/bin:/bin"]
        process.currentDirectoryURL = CLI.samplePKI
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func aFIFOWithoutAWriterIsAnErrorForEveryFileOption() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("f").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let verify = "verify rsa/server.pem --intermediates rsa/intermediate.pem --anchors rsa/root.pem --server server.customer1.example"
        for command in ["verify \(fifo) --anchors rsa/root.pem", "verify rsa/server.pem --anchors \(fifo)",
                        "verify rsa/server.pem --anchors rsa/root.pem --intermediates \(fifo)",
                        "\(verify) --crl \(fifo)", "\(verify) --ocsp \(fifo)", "\(verify) --exceptions \(fifo)",
                        "show \(fifo)", "exceptions list \(fifo)"] {
            let run = try Self.run(command)
            #expect(run.status == 2, "\(command): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("\(fifo): cannot read: it is a FIFO and no process was writing to it (nothing to read)"),
                    "\(command): \(run.stderr)")
        }
    }

    /// The options whose file is not a certificate file name the option with the file (a reviewer's
    /// finding: a FIFO given to --ct-log-list or --public-suffix-list was reported by file name alone).
    @Test func listOptionsNameTheOptionTheyRead() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("f").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for option in ["--ct-log-list", "--public-suffix-list"] {
            let run = try Self.run("verify rsa/server.pem --anchors rsa/root.pem \(option) \(fifo)")
            #expect(run.status == 2, "\(option): \(run.status) \(run.stderr)")
            #expect(run.stderr == "certpath verify: \(option) \(fifo): cannot read: it is a FIFO and no process was writing to it (nothing to read)\n",
                    "\(option): \(run.stderr)")
        }
    }

    /// A regular file over the 256 MiB limit is refused from its size, unread: under a 64 MiB data
    /// limit (`ulimit -d`), a sparse 300 MiB file gets the explained refusal; read first, it would
    /// have ended the process for want of memory (a reviewer found `show` of a large input reaching
    /// 277 MB before its refusal). The limit is applied to an uninstrumented `certpath`
    /// (``CLI/uninstrumentedExecutable``: a sanitizer's runtime reserves more than the limit for
    /// itself); in a sanitized run given none, only the message is checked.
    @Test func aFileOverTheLimitIsRefusedUnread() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("large.der").path
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        #expect(truncate(file, 300 << 20) == 0)
        let run: (status: Int32, stderr: String)
        if let certpath = CLI.uninstrumentedExecutable {
            run = try Self.run("--version >/dev/null; ulimit -d 65536; \"$CERTPATH\" show \(file)", certpath: certpath)
        } else {
            run = try Self.run("show \(file)")
        }
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr == "certpath show: \(file): cannot read: larger than 256 MiB\n")
    }

    @Test func processSubstitutionStillWorks() throws {
        let run = try Self.run("verify <(cat rsa/server.pem) --intermediates <(cat rsa/intermediate.pem) --anchors <(cat rsa/root.pem) "
            + "--server server.customer1.example --at 2026-06-01T00:00:00Z")
        #expect(run.status == 0, "\(run.stderr)")
    }
}
