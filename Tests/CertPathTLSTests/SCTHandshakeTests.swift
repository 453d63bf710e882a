import CLibSSL
import CertPath
import CertPathJSON
import CertPathTLS
import Foundation
import Testing
import TestSupport

/// The server's SCT list from the TLS `signed_certificate_timestamp` extension (RFC 6962 3.3.1)
/// reaches the verify callback byte for byte, in real handshakes with `openssl s_server
/// -serverinfo` serving `TestVectors/ct-test-log/tls-90d-2logs` (SCTs of the CT test logs A1 and
/// B1 over the x509_entry of the leaf).
@Suite("SCTs from the TLS extension against openssl s_server -serverinfo")
struct SCTHandshakeTests {
    static let ctLog = PKI.packageRoot.appendingPathComponent("TestVectors/ct-test-log")
    /// The manifest's validation time: the 90-day leaf is valid then, and the test does not depend on today.
    static let validationTime = UnixTime(secondsSinceEpoch: 1_780_272_000)  // 2026-06-01T00:00:00Z

    /// The serverinfo file OpenSSL sends in `version`: a v1 block only in the TLS 1.2 ServerHello,
    /// a v2 block (context 0x1180) also in the TLS 1.3 leaf CertificateEntry (RFC 8446 4.4.2).
    static func serverinfo(_ version: TLSVersion) -> String {
        ctLog.appendingPathComponent(version == .tls12 ? "tls-90d-2logs.serverinfo.pem" : "tls-90d-2logs.serverinfov2.pem").path
    }

    static func serverArguments(_ version: TLSVersion, serverinfo: String?) -> [String] {
        var arguments = ["-cert", ctLog.appendingPathComponent("tls-90d-2logs.pem").path,
                         "-cert_chain", PKI.path("intermediate.pem", in: PKI.ecdsa),
                         "-key", PKI.path("keys/server.key", in: PKI.ecdsa), version.opensslFlag, "-naccept", "1"]
        if let serverinfo { arguments += ["-serverinfo", serverinfo] }
        return arguments
    }

    static func settings(requestingSCTs: Bool = true) throws -> TLSTrustSettings {
        var settings = TLSTrustSettings(trustStore: TrustStore(anchors: try PKI.certificates("root.pem", in: PKI.ecdsa)),
                                        validationTime: validationTime)
        settings.requestSignedCertificateTimestamps = requestingSCTs
        return settings
    }

    @Test("the SCT list the server sends is in the presented chain of the verify callback", arguments: TLSVersion.allCases)
    func sctListReachesTheVerifier(_ version: TLSVersion) throws {
        let label = "tls-90d-2logs (\(version.rawValue))"
        let expected = Array(try Data(contentsOf: Self.ctLog.appendingPathComponent("tls-90d-2logs.sctlist")))
        let (server, port) = try OpenSSLProcess.server(Self.serverArguments(version, serverinfo: Self.serverinfo(version)), label: label)
        let outcome = try swiftClientHandshake(port: port, version: version, host: "server.customer1.example", settings: try Self.settings())
        server.wait(seconds: 5)
        #expect(outcome.completed, "\(label): handshake failed: \(outcome.opensslError)")
        let presented = try #require(outcome.verification?.presented, "\(label): the verifier did not run")
        #expect(presented.signedCertificateTimestampList == expected,
                "\(label): the verifier saw \(presented.signedCertificateTimestampList?.count ?? -1) bytes of SCT list, the server sent \(expected.count)")
    }

    @Test("a server without SCTs: no list", arguments: TLSVersion.allCases)
    func noSCTsFromTheServer(_ version: TLSVersion) throws {
        let label = "no serverinfo (\(version.rawValue))"
        let (server, port) = try OpenSSLProcess.server(Self.serverArguments(version, serverinfo: nil), label: label)
        let outcome = try swiftClientHandshake(port: port, version: version, host: "server.customer1.example", settings: try Self.settings())
        server.wait(seconds: 5)
        #expect(outcome.completed, "\(label): handshake failed: \(outcome.opensslError)")
        let presented = try #require(outcome.verification?.presented, "\(label): the verifier did not run")
        #expect(presented.signedCertificateTimestampList == nil, "\(label): an SCT list appeared from nowhere")
    }

    @Test("a client that does not ask gets no list: the server sends the extension only when asked (RFC 6962 3.3.1)",
          arguments: TLSVersion.allCases)
    func notRequested(_ version: TLSVersion) throws {
        let label = "not requested (\(version.rawValue))"
        let (server, port) = try OpenSSLProcess.server(Self.serverArguments(version, serverinfo: Self.serverinfo(version)), label: label)
        let outcome = try swiftClientHandshake(port: port, version: version, host: "server.customer1.example",
                                               settings: try Self.settings(requestingSCTs: false))
        server.wait(seconds: 5)
        #expect(outcome.completed, "\(label): handshake failed: \(outcome.opensslError)")
        let presented = try #require(outcome.verification?.presented, "\(label): the verifier did not run")
        #expect(presented.signedCertificateTimestampList == nil, "\(label): SCTs arrived without the ClientHello asking")
    }

    static func testLogs() throws -> CTLogList {
        try CTLogList(jsonBytes: Array(Data(contentsOf: ctLog.appendingPathComponent("log_list.json"))))
    }

    /// The 90-day leaf has no embedded SCTs; the two SCTs of the TLS extension, from logs A1 and B1 of
    /// two operators, meet Apple's alternative (2 SCTs from current logs, one delivered by TLS) and
    /// Chromium's (2 from distinct current logs of 2 operators).
    @Test("CT required: the handshake's SCTs make the server compliant", arguments: [CTPolicy.apple, .chromium], TLSVersion.allCases)
    func compliantThroughTheHandshake(_ policy: CTPolicy, _ version: TLSVersion) throws {
        let label = "\(policy) (\(version.rawValue))"
        var settings = try Self.settings()
        settings.policy.certificateTransparency = .required(policy)
        settings.certificateTransparencyLogs = try Self.testLogs()
        let (server, port) = try OpenSSLProcess.server(Self.serverArguments(version, serverinfo: Self.serverinfo(version)), label: label)
        let outcome = try swiftClientHandshake(port: port, version: version, host: "server.customer1.example", settings: settings)
        server.wait(seconds: 5)
        #expect(outcome.completed, "\(label): handshake failed: \(outcome.opensslError); \(outcome.result?.report?.summary ?? "")")
        guard case .trusted(let trusted)? = outcome.result else { Issue.record("\(label): not trusted"); return }
        let report = try #require(trusted.certificateTransparency, "\(label): no CT report in the trusted result")
        #expect(report.counted.count == 2 && report.counted.allSatisfy { $0.source == .tlsExtension && $0.status == .verified },
                "\(label): \(report)")
    }

    /// Without the request the server sends nothing, the leaf has no embedded SCTs: not compliant, refused.
    @Test("CT required, SCTs not asked for: certificateTransparencyNotCompliant fails the handshake", arguments: TLSVersion.allCases)
    func notCompliantWithoutTheHandshakeSCTs(_ version: TLSVersion) throws {
        let label = "not requested, CT required (\(version.rawValue))"
        var settings = try Self.settings(requestingSCTs: false)
        settings.policy.certificateTransparency = .required(.chromium)
        settings.certificateTransparencyLogs = try Self.testLogs()
        let (server, port) = try OpenSSLProcess.server(Self.serverArguments(version, serverinfo: Self.serverinfo(version)), label: label)
        let outcome = try swiftClientHandshake(port: port, version: version, host: "server.customer1.example", settings: settings)
        server.wait(seconds: 5)
        #expect(!outcome.completed, "\(label): the handshake completed without SCTs")
        guard case .certificateTransparencyNotCompliant(_, let report)? = outcome.result?.primaryFailure else {
            Issue.record("\(label): primary failure \(outcome.primaryCode ?? "none"), expected certificateTransparencyNotCompliant")
            return
        }
        #expect(report.timestamps.isEmpty, "\(label): \(report)")
        #expect(!report.unmetRules.isEmpty, "\(label): no rule named")
    }

    /// The embedded SCTs of a chain served without serverinfo: verified over the precertificate TBS
    /// with the key hash of the intermediate the server presented (RFC 6962 3.2).
    @Test("CT required: embedded SCTs of the presented chain make the server compliant", arguments: TLSVersion.allCases)
    func compliantThroughEmbeddedSCTs(_ version: TLSVersion) throws {
        let label = "embedded-180d-2logs (\(version.rawValue))"
        var settings = try Self.settings()
        settings.policy.certificateTransparency = .required(.chromium)
        settings.certificateTransparencyLogs = try Self.testLogs()
        let arguments = ["-cert", Self.ctLog.appendingPathComponent("embedded-180d-2logs.pem").path,
                         "-cert_chain", PKI.path("intermediate.pem", in: PKI.ecdsa),
                         "-key", PKI.path("keys/server.key", in: PKI.ecdsa), version.opensslFlag, "-naccept", "1"]
        let (server, port) = try OpenSSLProcess.server(arguments, label: label)
        let outcome = try swiftClientHandshake(port: port, version: version, host: "server.customer1.example", settings: settings)
        server.wait(seconds: 5)
        #expect(outcome.completed, "\(label): handshake failed: \(outcome.opensslError); \(outcome.result?.report?.summary ?? "")")
        guard case .trusted(let trusted)? = outcome.result else { Issue.record("\(label): not trusted"); return }
        let report = try #require(trusted.certificateTransparency, "\(label): no CT report")
        #expect(outcome.verification?.presented?.signedCertificateTimestampList == nil, "\(label): the server sent no TLS SCTs")
        #expect(report.counted.count == 2 && report.counted.allSatisfy { $0.source == .embedded }, "\(label): \(report)")
    }

    /// A server whose TLS SCT list has one signature byte changed: that SCT does not verify, one
    /// current log is left, and the 90-day leaf (nothing embedded) is not compliant.
    @Test("CT required: a tampered SCT from the TLS extension does not count", arguments: TLSVersion.allCases)
    func tamperedHandshakeSCT(_ version: TLSVersion) throws {
        let label = "tampered TLS SCT (\(version.rawValue))"
        var list = Array(try Data(contentsOf: Self.ctLog.appendingPathComponent("tls-90d-2logs.sctlist")))
        list[list.count - 1] ^= 0x01  // the last byte of the last SCT's signature
        // SERVERINFOV2: context 0x1180 (ClientHello, TLS 1.2 ServerHello, TLS 1.3 Certificate), type 18, length, list.
        let block: [UInt8] = [0, 0, 0x11, 0x80, 0, 18, UInt8(list.count >> 8), UInt8(list.count & 0xff)] + list
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("certpath-sct-tampered-\(UUID().uuidString).pem")
        defer { try? FileManager.default.removeItem(at: file) }
        let base64 = Data(block).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        try "-----BEGIN SERVERINFOV2 FOR signed_certificate_timestamp-----\n\(base64)\n-----END SERVERINFOV2 FOR signed_certificate_timestamp-----\n"
            .write(to: file, atomically: true, encoding: .utf8)
        var settings = try Self.settings()
        settings.policy.certificateTransparency = .required(.chromium)
        settings.certificateTransparencyLogs = try Self.testLogs()
        let (server, port) = try OpenSSLProcess.server(Self.serverArguments(version, serverinfo: file.path), label: label)
        let outcome = try swiftClientHandshake(port: port, version: version, host: "server.customer1.example", settings: settings)
        server.wait(seconds: 5)
        #expect(!outcome.completed, "\(label): the handshake completed")
        #expect(outcome.verification?.presented?.signedCertificateTimestampList == list, "\(label): the list did not arrive as sent")
        guard case .certificateTransparencyNotCompliant(_, let report)? = outcome.result?.primaryFailure else {
            Issue.record("\(label): primary failure \(outcome.primaryCode ?? "none"), expected certificateTransparencyNotCompliant")
            return
        }
        #expect(report.timestamps.count == 2, "\(label): \(report)")
        #expect(report.timestamps.filter { $0.status == .verified }.count == 1, "\(label): \(report)")
        #expect(report.counted.count <= 1 && !report.unmetRules.isEmpty, "\(label): \(report)")
    }

    @Test("request(on:) is idempotent, and refused where OpenSSL's own CT validation owns the extension")
    func requestOnAContext() throws {
        let context = try #require(SSL_CTX_new(TLS_client_method()))
        defer { SSL_CTX_free(context) }
        #expect(TLSSignedCertificateTimestamps.request(on: context))
        #expect(TLSSignedCertificateTimestamps.request(on: context), "a second request on the same context must succeed")
        #expect(SSL_CTX_enable_ct(context, Int32(SSL_CT_VALIDATION_PERMISSIVE)) == 0,
                "OpenSSL let its CT validation take over a context whose type 18 is a custom extension")
        _ = drainErrors()
        let ctContext = try #require(SSL_CTX_new(TLS_client_method()))
        defer { SSL_CTX_free(ctContext) }
        #expect(SSL_CTX_enable_ct(ctContext, Int32(SSL_CT_VALIDATION_PERMISSIVE)) == 1)
        #expect(!TLSSignedCertificateTimestamps.request(on: ctContext), "OpenSSL lets CT validation and a custom type 18 coexist")
    }
}
