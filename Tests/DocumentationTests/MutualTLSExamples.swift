import CertPath
import CertPathTLS
import Foundation
import Testing

/// MutualTLS.md: the sample PKI as a private PKI, both ends of the connection, and how failures read.
/// The article's evaluations run at the system clock's time (the sample certificates are valid from
/// 2025 to 2045); the expected failure sentences are checked up to their validation time.
@Suite struct MutualTLSExamples {
    func certificates(_ name: String) throws -> [Certificate] { try Repository.certificates(name) }

    @Test func mutualTLS() throws {
        let root = try certificates("root.pem")[0]                  // Example Corp Root CA R1
        let intermediate = try certificates("intermediate.pem")[0]  // Customer 1 CA R1, pathLenConstraint 0
        let serverChain = try certificates("server-chain.pem")      // server.pem, then intermediate.pem
        let client = try certificates("client.pem")[0]              // CN=Alice, extKeyUsage clientAuth
        let anchors = TrustStore(anchors: [root])                   // the one root; nothing else is trusted

        let serverCheck = TrustEvaluation(
            leaf: serverChain[0], intermediates: Array(serverChain.dropFirst()),
            trustStore: anchors,                                    // anchorsOnly: true, the default
            policy: try .server(hostname: "server.customer1.example"))
        let serverResult = serverCheck.evaluate()
        #expect(serverResult.isTrusted)

        var byAddress = serverCheck
        byAddress.policy = try .server(hostname: "192.0.2.10")
        #expect(byAddress.evaluate().isTrusted)

        let clientCheck = TrustEvaluation(
            leaf: client, intermediates: [intermediate],
            trustStore: anchors,
            policy: .client(expectedNames: [.email(try RFC822Name("alice@customer1.example"))]))
        let clientResult = clientCheck.evaluate()
        #expect(clientResult.isTrusted)

        // Each certificate refused for the other's purpose.
        var serverAsClient = clientCheck
        serverAsClient.leaf = serverChain[0]
        serverAsClient.policy = .client()
        #expect(serverAsClient.evaluate().primaryFailure?.code == "extendedKeyUsageForbids")
        var clientAsServer = serverCheck
        clientAsServer.leaf = client
        clientAsServer.policy = try .server(hostname: "client.customer1.example")
        #expect(clientAsServer.evaluate().primaryFailure?.code == "extendedKeyUsageForbids")

        func explain(_ leaf: Certificate, _ intermediates: [Certificate], host: String) throws -> String {
            let result = TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: anchors,
                                         policy: try .server(hostname: host)).evaluate()
            return result.report?.summary ?? "trusted"
        }
        print(try explain(try certificates("server-expired.pem")[0], [intermediate], host: "server.customer1.example"))

        // The sentences the article quotes (the expired one up to its validation time, which is now here).
        let expired = try explain(try certificates("server-expired.pem")[0], [intermediate], host: "server.customer1.example")
        #expect(expired.hasPrefix("CN=server.customer1.example,O=Customer 1 expired at 2021-01-01T00:00:00Z (validation time "))
        #expect(expired.contains("\n  intermediate: CN=Example Corp Customer 1 CA R1,OU=Customer 1,O=Example Corp,C=US: ok\n"))
        #expect(expired.hasSuffix("\n  trust anchor: CN=Example Corp Root CA R1,O=Example Corp,C=US: ok"))
        let missing = try explain(serverChain[0], [], host: "server.customer1.example")
        #expect(missing.hasPrefix("no certificate for issuer CN=Example Corp Customer 1 CA R1,OU=Customer 1,O=Example Corp,C=US of "
            + "CN=server.customer1.example,O=Customer 1; its issuer's certificate was not presented (a TLS peer must send its intermediates) and is not among the anchors\n"))
        let selfSigned = try explain(try certificates("selfsigned-server.pem")[0], [intermediate], host: "selfsigned.customer1.example")
        #expect(selfSigned.hasPrefix("CN=selfsigned.customer1.example,O=Customer 1 is self-signed and not trusted\n"))
        let otherRoot = TrustEvaluation(leaf: serverChain[0], intermediates: [intermediate, root],
                                        trustStore: TrustStore(anchors: [try certificates("old-root.pem")[0]]),
                                        policy: try .server(hostname: "server.customer1.example")).evaluate()
        #expect(otherRoot.report?.summary.hasPrefix(
            "the path ends at the root CN=Example Corp Root CA R1,O=Example Corp,C=US, which is not a trusted anchor\n") == true)
        let mismatch = try explain(serverChain[0], [intermediate], host: "www.customer2.example")
        #expect(mismatch.hasPrefix(
            "the certificate is not valid for www.customer2.example; it is valid for DNS:server.customer1.example, IP:192.0.2.10\n"))
        #expect([expired, missing, selfSigned, mismatch].allSatisfy { !$0.isEmpty })
        let pathLength = try explain(try certificates("server-under-subca.pem")[0], [intermediate, try certificates("subca.pem")[0]],
                                     host: "server.customer1.example")
        #expect(pathLength.contains("the path has 1 intermediate(s) below CN=Example Corp Customer 1 CA R1,OU=Customer 1,O=Example Corp,C=US, more than its pathLenConstraint of 0 allows"))

        try tls(anchors: anchors)
    }

    /// The CertPathTLS part, on real contexts (no handshake).
    func tls(anchors: TrustStore) throws {
        let clientContext = try #require(SSL_CTX_new(TLS_client_method()))
        let serverContext = try #require(SSL_CTX_new(TLS_server_method()))
        let connection = try #require(SSL_new(clientContext))
        defer {
            SSL_free(connection)
            SSL_CTX_free(clientContext)
            SSL_CTX_free(serverContext)
        }

        let settings = TLSTrustSettings(trustStore: anchors)        // the same anchors, anchors only
        TLSVerifier(role: .serverAuthentication(), settings: settings).install(on: clientContext)
        TLSVerifier(role: .clientAuthentication(), settings: settings).install(on: serverContext)
        try TLSVerifier.prepareClient(connection, serverName: ReferenceIdentifier("server.customer1.example"))

        if let verification = TLSVerifier.verification(of: connection), let report = verification.result?.report {
            print(report.summary)
        }

        // What the installed verifiers decide for the sample chains, without a handshake.
        let presented = TLSPresentedChain(certificates: try certificates("server-chain.pem"))
        #expect(settings.evaluation(of: presented, purpose: .serverAuthentication(try ReferenceIdentifier("server.customer1.example")))
            .evaluate().isTrusted)
    }
}
