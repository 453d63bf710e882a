import CertPath
import CertPathTLS
import Foundation
import Testing

/// The Swift examples of README.md and of the landing page, CertPath.md, as compiled code.
@Suite struct ReadmeExamples {
    /// README.md, "Using it from Swift": reads the sample PKI by paths relative to the repository
    /// root, as a reader running it from a checkout would.
    @Test(.enabled(if: Repository.isCurrentDirectory, "run from the repository root (the example reads TestVectors/ by a relative path)"))
    func usingItFromSwift() throws {
        // PEM (or DER) file contents as bytes: here the sample PKI of this repository, read from its root
        let rootPEM = try Array(Data(contentsOf: URL(fileURLWithPath: "TestVectors/sample-pki/rsa/root.pem")))
        let serverChainPEM = try Array(Data(contentsOf: URL(fileURLWithPath: "TestVectors/sample-pki/rsa/server-chain.pem")))
        let root = try PEM.readCertificates(rootPEM).certificates[0]
        let chain = try PEM.readCertificates(serverChainPEM).certificates      // leaf first, as a server sends it
        let evaluation = TrustEvaluation(
            leaf: chain[0], intermediates: Array(chain.dropFirst()),
            trustStore: TrustStore(anchors: [root]),                            // anchors only: just this root
            policy: try .server(hostname: "server.customer1.example"))
        switch evaluation.evaluate() {
        case .trusted(let path):
            print("trusted:", path.chain.map(\.subject))
            for finding in path.findings { print("finding:", finding) }        // RFC 5280 section 4 rules for CAs: reported, not refused
        case .untrusted(let report):
            print(report.summary)                                               // plain words, per certificate
            if let exceptions = report.exceptions {                             // only when every failure is recoverable
                try exceptions.text.write(toFile: "exceptions.txt", atomically: true, encoding: .utf8)
            }
        }

        #expect(evaluation.evaluate().isTrusted)
        #expect(!FileManager.default.fileExists(atPath: "exceptions.txt"), "a trusted chain writes no exceptions")
    }

    /// README.md, "Inside a TLS stack (CertPathTLS)": the verifiers installed on real contexts (no
    /// handshake: `verification(of:)` is then `nil`).
    @Test func insideATLSStack() throws {
        let root = try Repository.certificates("root.pem")[0]
        let clientCtx = try #require(SSL_CTX_new(TLS_client_method()))
        let serverCtx = try #require(SSL_CTX_new(TLS_server_method()))
        let ssl = try #require(SSL_new(clientCtx))
        defer {
            SSL_free(ssl)
            SSL_CTX_free(clientCtx)
            SSL_CTX_free(serverCtx)
        }

        let settings = TLSTrustSettings(trustStore: TrustStore(anchors: [root]))
        TLSVerifier(role: .serverAuthentication(), settings: settings).install(on: clientCtx)   // client: verify the server
        TLSVerifier(role: .clientAuthentication(), settings: settings).install(on: serverCtx)   // server: demand and verify client certificates
        try TLSVerifier.prepareClient(ssl, serverName: ReferenceIdentifier("server.customer1.example"))  // per connection: name, SNI, OCSP request
        // ... SSL_connect(ssl) / SSL_accept(ssl) ...
        if let verification = TLSVerifier.verification(of: ssl) { print(verification.result?.report?.summary ?? "trusted") }

        #expect(TLSVerifier.verification(of: ssl) == nil)
        #expect(SSL_CTX_get_verify_mode(serverCtx) == SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT)
    }

    /// CertPath.md, the landing page's example.
    @Test func landingPage() throws {
        let rootPEM = try Repository.bytes("root.pem"), serverChainPEM = try Repository.bytes("server-chain.pem")

        // rootPEM, serverChainPEM: the bytes of PEM (or DER) files
        let root = try PEM.readCertificates(rootPEM).certificates[0]
        let chain = try PEM.readCertificates(serverChainPEM).certificates
        let evaluation = TrustEvaluation(
            leaf: chain[0], intermediates: Array(chain.dropFirst()),
            trustStore: TrustStore(anchors: [root]),
            policy: try .server(hostname: "server.customer1.example"))
        switch evaluation.evaluate() {
        case .trusted(let path):
            print("trusted:", path.chain.map(\.subject))
        case .untrusted(let report):
            print(report.summary)
        }

        #expect(evaluation.evaluate().isTrusted)
    }
}
