import CLibSSL
import CertPath
import CertPathTLS
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Found by a fresh reviewer of issue 22, each kept as the input that showed it: a server verifying
/// clients refused every resumption (no session ID context); the TLS 1.2 staple refusal reported an
/// alert that was not the one sent.
@Suite(.serialized) struct TLSReviewRegressionTests {
    /// A Swift server (client authentication) that accepts one connection from a shell pipeline.
    func serve(_ context: OpaquePointer, listener: Int32) -> (Bool, TLSPeerVerification?, String, Bool) {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return (false, nil, "no connection", false) }
        defer { close(fd) }
        Loopback.setTimeouts(fd, seconds: 5)
        let ssl = SSL_new(context)!
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, fd)
        let completed = SSL_accept(ssl) == 1
        var buffer = [UInt8](repeating: 0, count: 100)
        let read = SSL_read(ssl, &buffer, 100)
        let data = read > 0 ? String(decoding: buffer.prefix(Int(read)), as: UTF8.self) : "<read \(read)>"
        let reused = SSL_session_reused(ssl) == 1
        if completed { SSL_shutdown(ssl) }
        return (completed, TLSVerifier.verification(of: ssl), data + " " + drainErrors(), reused)
    }

    func shell(_ command: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    @Test("TLS 1.3 server: a client with a wrong-EKU certificate gets no application data through", arguments: TLSVersion.allCases)
    func noAppData(_ version: TLSVersion) throws {
        let context = try makeContext(server: true, version: version, chain: PKI.path("server-chain.pem"), key: PKI.path("keys/server.key"))
        defer { SSL_CTX_free(context) }
        TLSVerifier(role: .clientAuthentication(), settings: TLSTrustSettings(trustStore: try PKI.rootStore())).install(on: context)
        let (listener, port) = try Loopback.listen()
        defer { close(listener) }
        let client = try shell("(printf SECRET; sleep 1) | openssl s_client -connect 127.0.0.1:\(port) \(version.opensslFlag) -cert \(PKI.path("server.pem")) -key \(PKI.path("keys/server.key")) -cert_chain \(PKI.path("intermediate.pem"))")
        let (completed, verification, data, _) = serve(context, listener: listener)
        kill(client.processIdentifier, SIGKILL); client.waitUntilExit()
        #expect(!completed)
        #expect(!data.contains("SECRET"))
        #expect(verification?.result?.primaryFailure?.code != nil)
    }

    @Test("server with client authentication: a client resuming its session is accepted (the session was verified when made)",
          arguments: TLSVersion.allCases)
    func resumption(_ version: TLSVersion) throws {
        let context = try makeContext(server: true, version: version, chain: PKI.path("server-chain.pem"), key: PKI.path("keys/server.key"))
        defer { SSL_CTX_free(context) }
        TLSVerifier(role: .clientAuthentication(), settings: TLSTrustSettings(trustStore: try PKI.rootStore())).install(on: context)
        let (listener, port) = try Loopback.listen()
        defer { close(listener) }
        let sess = FileManager.default.temporaryDirectory.appendingPathComponent("review-sess-\(UUID().uuidString)").path
        defer { unlink(sess) }
        let base = "openssl s_client -connect 127.0.0.1:\(port) \(version.opensslFlag) -cert \(PKI.path("client.pem")) -key \(PKI.path("keys/client.key")) -cert_chain \(PKI.path("intermediate.pem"))"
        let first = try shell("(printf ONE; sleep 1) | \(base) -sess_out \(sess)")
        let one = serve(context, listener: listener)
        kill(first.processIdentifier, SIGKILL); first.waitUntilExit()
        let second = try shell("(printf TWO; sleep 1) | \(base) -sess_in \(sess)")
        let two = serve(context, listener: listener)
        kill(second.processIdentifier, SIGKILL); second.waitUntilExit()
        #expect(one.0 && one.1?.isTrusted == true, "\(version): the first handshake: \(one.2)")
        #expect(two.0, "\(version): a good client resuming its session is refused: \(two.2)")
        #expect(two.2.hasPrefix("TWO"), "\(version): \(two.2)")
        // A resumed session runs no evaluation; a full handshake does.
        #expect(two.3 ? two.1 == nil : two.1?.isTrusted == true, "\(version): reused \(two.3)")
    }

    @Test("TLS 1.2 client, revocation required: an unrelated or missing staple fails with bad_certificate_status_response, and says so",
          arguments: ["intermediate-good.der", nil] as [String?])
    func unrelatedStaple(_ file: String?) throws {
        var policy = ValidationPolicy()
        policy.undeterminedRevocationStatus = .reject
        let settings = TLSTrustSettings(trustStore: try PKI.rootStore(), policy: policy,
                                        revocationEvidence: RevocationEvidence(ocspResponses: [try PKI.ocspResponse("intermediate-good.der")]),
                                        validationTime: try PKI.ocspValidationTime())
        var arguments = ["-cert", PKI.path("server.pem"), "-key", PKI.path("keys/server.key"), "-cert_chain", PKI.path("intermediate.pem"), "-tls1_2", "-naccept", "1"]
        if let file { arguments += ["-status_file", PKI.ocsp.appendingPathComponent(file).path] }
        let (server, port) = try OpenSSLProcess.server(arguments, label: "review")
        let outcome = try swiftClientHandshake(port: port, version: .tls12, host: "server.customer1.example", settings: settings)
        server.wait(seconds: 5)
        #expect(!outcome.completed, "\(outcome.testDescription)")
        #expect(outcome.verification?.isTrusted == false)
        #expect(outcome.verification?.alertName == "bad_certificate_status_response", "\(outcome.testDescription)")
        #expect(server.alertNumbers.contains(113), "\(server.alertNumbers)")
    }
}
