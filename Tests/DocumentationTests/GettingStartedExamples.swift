import CertPath
import Foundation
import Testing

/// GettingStarted.md, in order: one flow from reading the files to reading the answer.
@Suite struct GettingStartedExamples {
    @Test(.enabled(if: Repository.isCurrentDirectory, "run from the repository root (the example reads TestVectors/ by a relative path)"))
    func gettingStarted() throws {
        let directory = URL(fileURLWithPath: "TestVectors/sample-pki/rsa")   // the repository's sample PKI
        func certificates(_ name: String) throws -> [Certificate] {
            try PEM.readCertificates(Array(Data(contentsOf: directory.appendingPathComponent(name)))).certificates
        }
        let root = try certificates("root.pem")[0]
        let chain = try certificates("server-chain.pem")          // leaf first, as a TLS server sends it

        #expect(chain.count == 2)

        let evaluation = TrustEvaluation(
            leaf: chain[0], intermediates: Array(chain.dropFirst()),
            trustStore: TrustStore(anchors: [root]),
            policy: try .server(hostname: "server.customer1.example"))
        let result = evaluation.evaluate()

        switch result {
        case .trusted(let path):
            for certificate in path.chain { print(certificate.subject) }   // leaf, intermediate, root
        case .untrusted(let report):
            print(report.primaryFailure.code)                               // "expired", "hostnameMismatch"…
            print(report.summary)                                           // plain words, per certificate
        }

        guard case .trusted(let path) = result else { throw ExampleError("the sample chain is not trusted: \(result)") }
        #expect(path.chain.map(\.subject.description) == [
            "CN=server.customer1.example,O=Customer 1",
            "CN=Example Corp Customer 1 CA R1,OU=Customer 1,O=Example Corp,C=US",
            "CN=Example Corp Root CA R1,O=Example Corp,C=US",
        ])

        var later = evaluation
        later.validationTime = UnixTime(rfc3339: "2046-01-01T00:00:00Z")
        print(later.evaluate().primaryFailure?.code ?? "trusted")         // "expired": the server's notAfter is 2045

        #expect(later.evaluate().primaryFailure?.code == "expired")
    }
}
