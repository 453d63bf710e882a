import Foundation
import Testing
import CertPath

/// Runs the built `certpath` executable and finds the test data.
enum CLI {
    /// The package root (three levels above this file).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `TestVectors/sample-pki`.
    static let samplePKI = packageRoot.appendingPathComponent("TestVectors/sample-pki")

    /// `../shared/vectors/limbo/limbo.json`, when present.
    static let limboSuite: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/vectors/limbo/limbo.json")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// The executable: `CERTPATH_EXECUTABLE` when set, else `certpath` next to the test bundle in the
    /// build products directory, else `.build/debug/certpath` under the package root.
    static let executable: URL = {
        if let path = ProcessInfo.processInfo.environment["CERTPATH_EXECUTABLE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var candidates: [URL] = []
        if let bundle = Bundle.main.executableURL { candidates.append(bundle.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        candidates.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        for directory in candidates {
            let url = directory.appendingPathComponent("certpath")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return packageRoot.appendingPathComponent(".build/debug/certpath")
    }()

    /// Whether this process runs under a sanitizer (scripts/test sets these for its ASan and TSan runs).
    static let sanitized = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil
        || ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil

    /// A `certpath` without a sanitizer's runtime, for the tests that bound the process's own memory
    /// (shadow memory and ASan's quarantine make a sanitized process's resident set say nothing of
    /// the bound): `CERTPATH_UNINSTRUMENTED_EXECUTABLE` when set (scripts/test gives its plain debug
    /// build, since it runs the suite under sanitizers only), else ``executable`` when this run is not
    /// sanitized, else `nil`.
    static let uninstrumentedExecutable: URL? = {
        if let path = ProcessInfo.processInfo.environment["CERTPATH_UNINSTRUMENTED_EXECUTABLE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return sanitized ? nil : executable
    }()

    /// What one run produced.
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String

        /// The lines of standard error.
        var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }

        /// Standard output decoded as one JSON object.
        func json() throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
            return try #require(object as? [String: Any], "stdout is not a JSON object: \(stdout)")
        }
    }

    /// Runs `certpath arguments` in `directory` (default: the sample PKI) with `input` on stdin and
    /// extra environment variables. `SSL_CERT_FILE` defaults to an empty file so no test depends on
    /// the machine's trust store.
    static func run(_ arguments: [String], input: String = "", environment: [String: String] = [:],
                    in directory: URL = samplePKI) throws -> Run {
        try run(arguments, inputBytes: Data(input.utf8), environment: environment, in: directory)
    }

    /// ``run(_:input:environment:in:)`` with `input` given as bytes (text that is not UTF-8).
    static func run(_ arguments: [String], inputBytes input: Data, environment: [String: String] = [:],
                    in directory: URL = samplePKI) throws -> Run {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inURL = scratch.appendingPathComponent("stdin"), outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr"), emptyBundle = scratch.appendingPathComponent("empty-bundle.pem")
        try input.write(to: inURL)
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        try Data().write(to: emptyBundle)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["SSL_CERT_FILE"] = emptyBundle.path
        env["SSL_CERT_DIR"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdin = try FileHandle(forReadingFrom: inURL), stdout = try FileHandle(forWritingTo: outURL)
        let stderr = try FileHandle(forWritingTo: errURL)
        defer { try? stdin.close(); try? stdout.close(); try? stderr.close() }
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        process.waitUntilExit()
        return Run(status: process.terminationStatus,
                   stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                   stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// A new empty directory under the system temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("certpath-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The certificates of a sample PKI file (relative to sample-pki).
    static func certificates(_ name: String) throws -> [Certificate] {
        let bytes = [UInt8](try Data(contentsOf: samplePKI.appendingPathComponent(name)))
        return try PEM.readCertificates(bytes).certificates
    }

    /// The validation time used by the sample PKI manifest.
    static let time = "2026-06-01T00:00:00Z"

    /// The arguments of the sample server chain, trusted for its hostname.
    static let trustedServer = ["verify", "rsa/server-chain.pem", "--anchors", "rsa/root.pem",
                                "--server", "server.customer1.example", "--at", time]
}

/// `dictionary[key]` cast to `T`, failing the test with the key's name when absent or of another type.
func field<T>(_ dictionary: [String: Any]?, _ key: String, as type: T.Type = T.self,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
    let value = try #require(dictionary?[key], "missing \"\(key)\"", sourceLocation: sourceLocation)
    return try #require(value as? T, "\"\(key)\" is \(Swift.type(of: value)), expected \(T.self)", sourceLocation: sourceLocation)
}
