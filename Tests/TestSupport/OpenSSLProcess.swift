import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A running `openssl` process (s_server or s_client) whose output goes to files (no pipe to fill),
/// with its standard input held open until ``closeInput()``; killed when stopped or deinitialized.
public final class OpenSSLProcess {
    public let process = Process()
    let input = Pipe()
    let scratch: URL
    let label: String

    public init(_ arguments: [String], label: String) throws {
        self.label = label
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("certpath-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try Data().write(to: scratch.appendingPathComponent("out"))
        try Data().write(to: scratch.appendingPathComponent("err"))
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: scratch.appendingPathComponent("out"))
        process.standardError = try FileHandle(forWritingTo: scratch.appendingPathComponent("err"))
        try process.run()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: scratch)
    }

    public var output: String { (try? String(contentsOf: scratch.appendingPathComponent("out"), encoding: .utf8)) ?? "" }
    public var errors: String { (try? String(contentsOf: scratch.appendingPathComponent("err"), encoding: .utf8)) ?? "" }

    public func closeInput() { try? input.fileHandleForWriting.close() }

    /// Ends the process: SIGKILL, because a child started from a test thread inherits that thread's
    /// signal mask, in which SIGTERM (`Process.terminate()`) is blocked; an s_server that never got
    /// its connection would otherwise outlive the test and keep the test process waiting.
    public func stop() {
        closeInput()
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Waits up to `seconds` for the process to end; terminates it if it has not.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let ended = !process.isRunning
        stop()
        return ended
    }

    /// `openssl s_server` on 127.0.0.1 with a free port (`-accept 127.0.0.1:0`); returns once it
    /// printed `ACCEPT 127.0.0.1:PORT`, within 10 s.
    public static func server(_ arguments: [String], label: String) throws -> (OpenSSLProcess, UInt16) {
        let server = try OpenSSLProcess(["s_server", "-accept", "127.0.0.1:0"] + arguments, label: label)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let line = server.output.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT ") }),
               let port = line.split(separator: ":").last.flatMap({ UInt16($0) }) {
                return (server, port)
            }
            if !server.process.isRunning { break }
            usleep(20_000)
        }
        let errors = server.errors
        server.stop()
        throw OpenSSLProcessError("\(label): openssl s_server did not start: \(errors)")
    }

    /// The alert numbers ("SSL alert number N") in this process's error output.
    public var alertNumbers: [Int] {
        errors.components(separatedBy: "SSL alert number ").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
    }
}

/// An `openssl` process did not start as expected.
public struct OpenSSLProcessError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
