import Foundation

/// A root and a server certificate for `must-staple.example` whose TLS feature extension lists
/// status_request (RFC 7633 "must-staple"), made by the openssl CLI in a scratch directory (P-256
/// keys, valid for 30 days from now). The caller removes ``directory``.
public struct MustStapleFiles {
    public let directory: URL
    public var root: String { directory.appendingPathComponent("root.pem").path }
    public var leaf: String { directory.appendingPathComponent("leaf.pem").path }
    public var leafKey: String { directory.appendingPathComponent("leaf.key").path }

    /// What failed while making the files.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("certpath-muststaple-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let rootKey = directory.appendingPathComponent("root.key").path
        let request = directory.appendingPathComponent("leaf.csr").path
        let extensions = directory.appendingPathComponent("leaf.ext")
        try Data("""
            subjectAltName=DNS:must-staple.example
            keyUsage=critical,digitalSignature
            extendedKeyUsage=serverAuth
            tlsfeature=status_request

            """.utf8).write(to: extensions)
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try Self.run(["req", "-x509"] + key + ["-keyout", rootKey, "-out", root, "-subj", "/CN=Must-Staple Test Root", "-days", "30",
                      "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try Self.run(["req", "-new"] + key + ["-keyout", leafKey, "-out", request, "-subj", "/CN=must-staple.example"])
        try Self.run(["x509", "-req", "-in", request, "-CA", root, "-CAkey", rootKey, "-set_serial", "4660", "-days", "30",
                      "-extfile", extensions.path, "-out", leaf])
    }

    static func run(_ arguments: [String]) throws {
        let process = try OpenSSLProcess(arguments, label: "openssl \(arguments[0])")
        process.closeInput()
        guard process.wait(seconds: 20), process.process.terminationStatus == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")) failed: \(process.errors)")
        }
    }
}
