import CertPath
import Foundation
import Testing

/// MigratingFromSecTrust.md: the SecTrust flow in CertPath's spelling.
@Suite struct MigratingExamples {
    @Test func secTrustFlow() throws {
        let root = try Repository.certificates("root.pem")[0]
        let chain = try Repository.certificates("server-chain.pem")
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        var evaluation = TrustEvaluation(
            leaf: chain[0], intermediates: Array(chain.dropFirst()),          // SecTrustCreateWithCertificates
            trustStore: TrustStore(anchors: [root]),                          // SecTrustSetAnchorCertificates
            anchorsOnly: true,                                                // SecTrustSetAnchorCertificatesOnly
            policy: try .server(hostname: "server.customer1.example"))        // SecPolicyCreateSSL(true, host)
        evaluation.validationTime = UnixTime(rfc3339: "2026-06-01T00:00:00Z") // SecTrustSetVerifyDate
        switch evaluation.evaluate() {                                        // SecTrustEvaluateWithError
        case .trusted(let path):
            let key = try PublicKey(path.chain[0].subjectPublicKeyInfo)       // SecTrustCopyKey
            print(key, path.chain.count)                                      // SecTrustCopyCertificateChain
        case .untrusted(let report):
            print(report.primaryFailure.code, report.summary)                 // the CFError, SecTrustCopyResult
        }

        #expect(printed.count == 1 && printed[0].hasSuffix(" 3"))
    }
}
