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
    @Test("no staple from the server: the client that asked for one refuses the certificate", arguments: TLSVersion.allCases)
    func noStaple(_ version: TLSVersion) throws {
        let label = "must-staple without a staple (\(version.rawValue))"
        let files = try MustStapleFiles()
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
