import CertPath
import Foundation
import Testing

/// PerformanceAndThreadSafety.md: one store and one verifier shared by threads, a tighter budget,
/// and the statistics of an evaluation.
@Suite struct PerformanceExamples {
    @Test func sharing() throws {
        let root = try Repository.certificates("root.pem")[0]
        let serverChain = try Repository.certificates("server-chain.pem")

        let verifier = SignatureVerifier(signatureCache: SignatureCache())    // one per process
        let store = TrustStore(anchors: [root])                              // one per trust configuration
        let policy = try ValidationPolicy.server(hostname: "server.customer1.example")
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let result = TrustEvaluation(leaf: serverChain[0], intermediates: Array(serverChain.dropFirst()),
                                         trustStore: store, policy: policy, signatureVerifier: verifier).evaluate()
            assert(result.isTrusted)
        }

        var strict = policy
        strict.budget.signatureChecks = 20                     // default 100
        strict.budget.signatureCost = 2_000                    // SignatureCost units; default 5,000

        let statistics = TrustEvaluation(leaf: serverChain[0], intermediates: Array(serverChain.dropFirst()),
                                         trustStore: store, policy: strict, signatureVerifier: verifier).evaluate().statistics
        print(statistics.signatureChecks, statistics.signatureCost, statistics.buildSteps)

        #expect(statistics.signatureChecks == 2 && statistics.signatureCost > 0)
        #expect(verifier.signatureCache?.contains(SignatureCache.Key(
            algorithm: serverChain[0].signatureAlgorithm, spki: serverChain[1].subjectPublicKeyInfo.der,
            signature: serverChain[0].signature, message: serverChain[0].tbsCertificateBytes)) == true)
    }
}
