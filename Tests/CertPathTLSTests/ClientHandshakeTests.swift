import CLibSSL
import CertPath
import CertPathTLS
import Foundation
import Testing
import TestSupport

/// A Swift client (CertPathTLS verifying the server) against `openssl s_server` on 127.0.0.1,
/// TLS 1.2 and 1.3, with the sample PKI. Every expectation names its case.
@Suite("Swift client against openssl s_server")
struct ClientHandshakeTests {
    /// One server-authentication case: what s_server presents, what the client expects.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let folder: URL
        let certificate: String
        let key: String
        let chain: String?
        let host: String
        /// nil: trusted.
        let failure: String?
        let alert: Int?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "trusted chain", folder: PKI.rsa, certificate: "server.pem", key: "keys/server.key", chain: "intermediate.pem",
             host: "server.customer1.example", failure: nil, alert: nil),
        Case(name: "wrong host name", folder: PKI.rsa, certificate: "server.pem", key: "keys/server.key", chain: "intermediate.pem",
             host: "server.customer2.example", failure: "hostnameMismatch", alert: Alert.badCertificate),
        Case(name: "expired server certificate", folder: PKI.rsa, certificate: "server-expired.pem", key: "keys/server-expired.key",
             chain: "intermediate.pem", host: "server.customer1.example", failure: "expired", alert: Alert.certificateExpired),
        Case(name: "server certificate from another CA", folder: PKI.ecdsa, certificate: "server.pem", key: "keys/server.key",
             chain: "intermediate.pem", host: "server.customer1.example", failure: "issuerNotFound", alert: Alert.unknownCA),
        Case(name: "server certificate without serverAuth", folder: PKI.rsa, certificate: "server-wrong-eku.pem",
             key: "keys/server-wrong-eku.key", chain: "intermediate.pem", host: "server.customer1.example",
             failure: "extendedKeyUsageForbids", alert: Alert.badCertificate),
        Case(name: "server under a sub-CA beyond pathlen 0", folder: PKI.rsa, certificate: "server-under-subca.pem",
             key: "keys/server-under-subca.key", chain: "subca.pem", host: "server.customer1.example",
             failure: "pathLengthExceeded", alert: Alert.badCertificate),
    ]

    static var arguments: [(Case, TLSVersion)] { cases.flatMap { c in TLSVersion.allCases.map { (c, $0) } } }

    @Test("server authentication", arguments: arguments)
    func serverAuthentication(_ c: Case, _ version: TLSVersion) throws {
        let label = "\(c.name) (\(version.rawValue))"
        var serverArguments = ["-cert", PKI.path(c.certificate, in: c.folder), "-key", PKI.path(c.key, in: c.folder), version.opensslFlag,
                               "-naccept", "1"]
        var scratchFiles: [URL] = []
        defer { for file in scratchFiles { try? FileManager.default.removeItem(at: file) } }
        if let chain = c.chain {
            // s_server sends -cert_chain only when the chain file has the whole extra chain.
            var file = PKI.path(chain, in: c.folder)
            if chain == "subca.pem" {
                let combined = FileManager.default.temporaryDirectory.appendingPathComponent("certpath-tls-subca-\(UUID().uuidString).pem")
                let text = try String(contentsOfFile: file, encoding: .utf8) + String(contentsOfFile: PKI.path("intermediate.pem"), encoding: .utf8)
                try text.write(to: combined, atomically: true, encoding: .utf8)
                scratchFiles.append(combined)
                file = combined.path
            }
            serverArguments += ["-cert_chain", file]
        }
        let (server, port) = try OpenSSLProcess.server(serverArguments, label: label)
        let outcome = try swiftClientHandshake(port: port, version: version, host: c.host,
                                               settings: TLSTrustSettings(trustStore: try PKI.rootStore()))
        server.wait(seconds: 5)
        let verification = try #require(outcome.verification, "\(label): the verifier did not run (\(outcome.opensslError))")
        if let failure = c.failure {
            #expect(!outcome.completed, "\(label): the handshake completed despite \(failure)")
            #expect(outcome.primaryCode == failure, "\(label): primary failure \(outcome.primaryCode ?? "none"), expected \(failure)")
            if let alert = c.alert {
                #expect(server.alertNumbers.contains(alert),
                        "\(label): s_server received alerts \(server.alertNumbers), expected \(alert) (\(verification.alertName ?? "-"))")
            }
        } else {
            #expect(outcome.completed, "\(label): handshake failed: \(outcome.opensslError); \(outcome.result?.report?.summary ?? "")")
            #expect(verification.isTrusted, "\(label): untrusted: \(outcome.result?.report?.summary ?? "refused")")
            #expect(verification.presented?.certificates.count == 2, "\(label): the presented chain is not leaf + intermediate")
        }
    }

    @Test("a trust exception is accepted on the next connection for the same certificate, refused for another",
          arguments: TLSVersion.allCases)
    func trustException(_ version: TLSVersion) throws {
        let label = "trust exception (\(version.rawValue))"
        let expired = ["-cert", PKI.path("server-expired.pem"), "-key", PKI.path("keys/server-expired.key"),
                       "-cert_chain", PKI.path("intermediate.pem"), version.opensslFlag, "-naccept", "2"]
        let (server, port) = try OpenSSLProcess.server(expired, label: label)
        var settings = TLSTrustSettings(trustStore: try PKI.rootStore())
        let first = try swiftClientHandshake(port: port, version: version, host: "server.customer1.example", settings: settings)
        #expect(!first.completed && first.primaryCode == "expired", "\(label): first connection: \(first.primaryCode ?? "trusted")")
        let exceptions = try #require(first.result?.report?.exceptions, "\(label): the expired result offers no exception")
        settings.exceptions = try TrustExceptions(text: exceptions.text)

        let second = try swiftClientHandshake(port: port, version: version, host: "server.customer1.example", settings: settings)
        server.wait(seconds: 5)
        #expect(second.completed, "\(label): second connection refused: \(second.primaryCode ?? second.opensslError)")
        if case .trusted(let path)? = second.result {
            #expect(path.isTrustedByException, "\(label): trusted, but not by the exception")
        } else {
            Issue.record("\(label): second connection not trusted")
        }

        // Another certificate (the valid server certificate, reached by a name it lacks) is not covered.
        let other = ["-cert", PKI.path("server.pem"), "-key", PKI.path("keys/server.key"), "-cert_chain", PKI.path("intermediate.pem"),
                     version.opensslFlag, "-naccept", "1"]
        let (otherServer, otherPort) = try OpenSSLProcess.server(other, label: label)
        let third = try swiftClientHandshake(port: otherPort, version: version, host: "server.customer2.example", settings: settings)
        otherServer.wait(seconds: 5)
        #expect(!third.completed && third.primaryCode == "hostnameMismatch",
                "\(label): another certificate: \(third.primaryCode ?? "trusted") (completed: \(third.completed))")
    }

    @Test("stapled OCSP: good", arguments: TLSVersion.allCases)
    func stapledGood(_ version: TLSVersion) throws {
        let label = "stapled OCSP good (\(version.rawValue))"
        // Revocation required for every certificate: the intermediate's response is the caller's
        // evidence, the server's comes only from the staple, so trust proves the staple was used.
        var policy = ValidationPolicy()
        policy.undeterminedRevocationStatus = .reject
        let settings = TLSTrustSettings(trustStore: try PKI.rootStore(), policy: policy,
                                        revocationEvidence: RevocationEvidence(ocspResponses: [try PKI.ocspResponse("intermediate-good.der")]),
                                        validationTime: try PKI.ocspValidationTime())
        let outcome = try stapled("server-good.der", version: version, settings: settings, label: label)
        #expect(outcome.completed, "\(label): handshake failed: \(outcome.primaryCode ?? outcome.opensslError)")
        #expect(outcome.verification?.presented?.stapledOCSPResponse != nil, "\(label): no stapled response seen")
        #expect(outcome.verification?.isTrusted == true, "\(label): \(outcome.result?.report?.summary ?? "refused")")

        // The same without the staple fails: the server's status is undetermined.
        var without = settings
        without.useStapledOCSP = false
        let unstapled = try stapled("server-good.der", version: version, settings: without, label: label)
        #expect(!unstapled.completed && unstapled.primaryCode == "revocationUnknown",
                "\(label): without the staple: \(unstapled.primaryCode ?? "trusted")")

        // Stapling on in the settings but no staple asked for on the connection: the undetermined
        // status is not deferred to a status callback that never runs (TLS 1.2), it fails at once.
        let arguments = ["-cert", PKI.path("server.pem"), "-key", PKI.path("keys/server.key"), "-cert_chain", PKI.path("intermediate.pem"),
                         version.opensslFlag, "-naccept", "1"]
        let (server, port) = try OpenSSLProcess.server(arguments, label: label)
        let context = try makeContext(server: false, version: version)
        defer { SSL_CTX_free(context) }
        TLSVerifier(role: .serverAuthentication(), settings: settings).install(on: context)
        let fd = try Loopback.connect(port: port)
        defer { close(fd) }
        let ssl = try #require(SSL_new(context))
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, fd)
        try TLSVerifier.prepareClient(ssl, serverName: ReferenceIdentifier("server.customer1.example"), requestOCSPStaple: false)
        let completed = SSL_connect(ssl) == 1
        _ = drainErrors()
        server.wait(seconds: 5)
        let code = TLSVerifier.verification(of: ssl)?.result?.primaryFailure?.code
        #expect(!completed && code == "revocationUnknown", "\(label): staple not requested: completed \(completed), \(code ?? "trusted")")
    }

    @Test("stapled OCSP: revoked", arguments: TLSVersion.allCases)
    func stapledRevoked(_ version: TLSVersion) throws {
        let label = "stapled OCSP revoked (\(version.rawValue))"
        let settings = TLSTrustSettings(trustStore: try PKI.rootStore(), validationTime: try PKI.ocspValidationTime())
        let (outcome, server) = try stapledWithServer("server-revoked.der", version: version, settings: settings, label: label)
        #expect(!outcome.completed, "\(label): the handshake completed with a revoked server certificate")
        #expect(outcome.primaryCode == "revoked", "\(label): primary failure \(outcome.primaryCode ?? "none")")
        // TLS 1.3 staples in the Certificate message: the verify callback refuses with certificate_revoked.
        // TLS 1.2 staples in CertificateStatus, after it: the status callback refuses (RFC 6066 8).
        let alert = version == .tls13 ? Alert.certificateRevoked : Alert.badCertificateStatusResponse
        #expect(server.alertNumbers.contains(alert), "\(label): s_server received alerts \(server.alertNumbers), expected \(alert)")
    }

    private func stapled(_ response: String, version: TLSVersion, settings: TLSTrustSettings, label: String) throws -> HandshakeOutcome {
        try stapledWithServer(response, version: version, settings: settings, label: label).0
    }

    private func stapledWithServer(_ response: String, version: TLSVersion, settings: TLSTrustSettings,
                                   label: String) throws -> (HandshakeOutcome, OpenSSLProcess) {
        let arguments = ["-cert", PKI.path("server.pem"), "-key", PKI.path("keys/server.key"), "-cert_chain", PKI.path("intermediate.pem"),
                         "-status_file", PKI.ocsp.appendingPathComponent(response).path, version.opensslFlag, "-naccept", "1"]
        let (server, port) = try OpenSSLProcess.server(arguments, label: label)
        let outcome = try swiftClientHandshake(port: port, version: version, host: "server.customer1.example", settings: settings)
        server.wait(seconds: 5)
        return (outcome, server)
    }
}
