import CertPath
import Foundation
import Testing

/// CheckingRevocation.md: OCSP responses and CRLs as evidence, and fetching with a fetcher that
/// cannot reach anything.
@Suite struct RevocationExamples {
    @Test func ocspResponses() throws {
        let anchors = TrustStore(anchors: [try Repository.certificates("root.pem")[0]])
        let serverChain = try Repository.certificates("server-chain.pem")
        let ocspDirectory = Repository.samplePKIOCSP

        let responses = try ["server-good.der", "intermediate-good.der"].map { name in
            try OCSPResponse(derEncoded: Array(Data(contentsOf: ocspDirectory.appendingPathComponent(name))))
        }
        var policy = try ValidationPolicy.server(hostname: "server.customer1.example")
        policy.undeterminedRevocationStatus = .reject              // hard fail: every certificate needs a status
        var evaluation = TrustEvaluation(
            leaf: serverChain[0], intermediates: Array(serverChain.dropFirst()), trustStore: anchors,
            policy: policy, revocationEvidence: RevocationEvidence(ocspResponses: responses))

        // The sample responses are current for a while after they were made: validate inside that window.
        evaluation.validationTime = try Repository.ocspTime()
        #expect(evaluation.evaluate().isTrusted)
        var serverOnly = evaluation
        serverOnly.revocationEvidence.ocspResponses.removeLast()
        #expect(serverOnly.evaluate().primaryFailure?.code == "revocationUnknown")

        evaluation.revocationEvidence.ocspResponses[0] = try OCSPResponse(
            derEncoded: Array(Data(contentsOf: ocspDirectory.appendingPathComponent("server-revoked.der"))))
        if case .revoked(_, let date, let reason, let source) = evaluation.evaluate().primaryFailure {
            print("revoked at \(date) (\(reason)), per \(source)")
        }
        guard case .revoked(_, _, let reason, _) = evaluation.evaluate().primaryFailure else {
            throw ExampleError("server-revoked.der did not revoke: \(evaluation.evaluate())")
        }
        #expect(reason == .superseded)
    }

    @Test func crls() throws {
        let folder = Repository.root.appendingPathComponent("TestVectors/ocsp")
        func certificate(_ name: String) throws -> Certificate { try Repository.certificate(at: "TestVectors/ocsp/\(name)") }
        func evaluate(_ crlURL: URL) throws -> TrustResult {
            let crlFile = try PEM.readCRLs(Array(Data(contentsOf: crlURL)))     // PEM "X509 CRL" blocks, or one DER CRL
            let evidence = RevocationEvidence(crls: CRLStore(crlFile.crls))

            var policy = ValidationPolicy()
            policy.undeterminedRevocationStatus = .reject
            return TrustEvaluation(leaf: try certificate("leaf-good.pem"), trustStore: TrustStore(anchors: [try certificate("ca.pem")]),
                                   policy: policy, revocationEvidence: evidence,
                                   validationTime: UnixTime(secondsSinceEpoch: evidence.crls.crls[0].thisUpdate.secondsSinceEpoch + 60)).evaluate()
        }
        #expect(try evaluate(folder.appendingPathComponent("crl-empty.pem")).isTrusted)
        #expect(try evaluate(folder.appendingPathComponent("crl-lists-good.pem")).primaryFailure?.code == "revoked")
    }

    @Test func fetching() throws {
        let leaf = try Repository.certificate(at: "TestVectors/fetch/leaf-good.pem")
        let fetchRoot = try Repository.certificate(at: "TestVectors/fetch/root.pem")

        /// A fetcher for a machine without network: every request fails, and the evaluation decides without it.
        struct OfflineFetcher: Fetcher {
            func fetch(_ request: FetchRequest, deadline: UnixTime) throws(FetchError) -> [UInt8] {
                throw .transport("offline")
            }
        }
        let fetching = TrustEvaluation(leaf: leaf, trustStore: TrustStore(anchors: [fetchRoot]),
                                       networkFetching: NetworkFetching(fetcher: OfflineFetcher()))
        let result = fetching.evaluate()
        for record in result.fetches { print(record) }             // the issuer's URL, and why it failed

        #expect(result.primaryFailure?.code == "issuerNotFound")
        #expect(result.fetches.count == 1 && result.fetches.allSatisfy { !$0.succeeded })
    }
}
