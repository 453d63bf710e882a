import CertPath
import CertPathTLS
import Foundation
import Testing
import TestSupport

/// RFC 7633 must-staple through a real handshake: `openssl s_server` presents a certificate whose TLS
/// feature extension lists status_request and staples nothing; the Swift client, which asked for a
/// staple, refuses it with ``ValidationFailure/missingStapledOCSPResponse(_:requiredBy:reason:)``
/// (TLS 1.3 in the verify callback; TLS 1.2 in the status callback, once CertificateStatus is known
/// to be absent). A client that did not ask for a staple has nothing to enforce (RFC 7633 4.3.3).
@Suite("Must-staple against openssl s_server")
struct MustStapleHandshakeTests {
    /// A root and a must-staple server certificate for `must-staple.example`, made by the openssl CLI.
    struct Files {
        let directory: URL
        var root: String { directory.appendingPathComponent("root.pem").path }
        var leaf: String { directory.appendingPathComponent("leaf.pem").path }
        var leafKey: String { directory.appendingPathComponent("leaf.key").path }

        init() throws {
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
                throw HarnessError("openssl \(arguments.joined(separator: " ")) failed: \(process.errors)")
            }
        }
    }

    @Test("no staple from the server: the client that asked for one refuses the certificate", arguments: TLSVersion.allCases)
    func noStaple(_ version: TLSVersion) throws {
        let label = "must-staple without a staple (\(version.rawValue))"
        let files = try Files()
        defer { try? FileManager.default.removeItem(at: files.directory) }
        let leaf = try #require(try PEM.readCertificates(Array(Data(contentsOf: URL(fileURLWithPath: files.leaf)))).certificates.first)
        #expect(leaf.tlsFeatures == [5])
        let settings = TLSTrustSettings(trustStore: TrustStore(anchors: try PEM.readCertificates(Array(Data(contentsOf: URL(fileURLWithPath: files.root)))).certificates))
        let arguments = ["-cert", files.leaf, "-key", files.leafKey, version.opensslFlag, "-naccept", "1"]

        let (server, port) = try OpenSSLProcess.server(arguments, label: label)
        let outcome = try swiftClientHandshake(port: port, version: version, host: "must-staple.example", settings: settings)
        server.wait(seconds: 5)
        #expect(!outcome.completed, "\(label): the handshake completed")
        #expect(outcome.primaryCode == "missingStapledOCSPResponse", "\(label): \(outcome.primaryCode ?? "trusted")")

        // A client that does not ask for a staple: status_request is not in its ClientHello.
        var without = settings
        without.useStapledOCSP = false
        let (plainServer, plainPort) = try OpenSSLProcess.server(arguments, label: label)
        let plain = try swiftClientHandshake(port: plainPort, version: version, host: "must-staple.example", settings: without)
        plainServer.wait(seconds: 5)
        #expect(plain.completed && plain.verification?.isTrusted == true, "\(label): without asking: \(plain.primaryCode ?? "trusted")")
    }
}
