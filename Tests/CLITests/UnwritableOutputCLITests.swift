import Foundation
import Testing

/// Output that could not be written is not a result (docs/CLI.md, "Exit status"): with standard
/// output on /dev/full (every write fails with ENOSPC) every command exits 2 and says why, instead
/// of 0 beside a cut or empty output.
@Suite("Unwritable standard output: exit status 2")
struct UnwritableOutputCLITests {
    /// Runs `certpath arguments` in the sample PKI with standard output on /dev/full.
    func runIntoFullDevice(_ arguments: [String], input: String = "") throws -> (status: Int32, stderr: String) {
        let scratch = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inURL = scratch.appendingPathComponent("stdin"), errURL = scratch.appendingPathComponent("stderr")
        try Data(input.utf8).write(to: inURL)
        try Data().write(to: errURL)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let stdin = try FileHandle(forReadingFrom: inURL), stderr = try FileHandle(forWritingTo: errURL)
        defer { try? full.close(); try? stdin.close(); try? stderr.close() }
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        process.currentDirectoryURL = CLI.samplePKI
        process.standardInput = stdin
        process.standardOutput = full
        process.standardError = stderr
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    @Test("verify (trusted), show, batch and --version exit 2 naming the write error")
    func everyCommandReportsTheFailedWrite() throws {
        guard FileManager.default.isWritableFile(atPath: "/dev/full") else { return }  // not Linux
        let chain = try String(contentsOf: CLI.samplePKI.appendingPathComponent("rsa/server-chain.pem"), encoding: .utf8)
        let line = String(decoding: try JSONSerialization.data(withJSONObject: ["chain": chain, "name": "server.customer1.example"]),
                          as: UTF8.self)
        let runs: [(arguments: [String], input: String)] = [
            (CLI.trustedServer, ""),
            (["show", "rsa/server.pem"], ""),
            (["batch", "--anchors", "rsa/root.pem", "--at", CLI.time], line + "\n"),
            (["--version"], ""),
        ]
        for run in runs {
            let (status, stderr) = try runIntoFullDevice(run.arguments, input: run.input)
            #expect(status == 2, "\(run.arguments): exit \(status)")
            #expect(stderr.contains("cannot write standard output: No space left on device"), "\(run.arguments): \(stderr)")
        }
    }
}
