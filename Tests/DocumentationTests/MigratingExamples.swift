import CertPath
import CertPathFoundation
import Foundation
import Testing

/// MigratingFromSecTrust.md: the SecTrust flow in CertPath's spelling.
@Suite struct MigratingExamples {
    @Test func secTrustFlow() throws {
        let root = try Repository.certificates("root.pem")[0]
        let chain = try Repository.certificates("server-chain.pem")
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        guard var evaluation = TrustEvaluation(
            chain: chain,                                                     // SecTrustCreateWithCertificates
            trustStore: TrustStore(anchors: [root]),                          // SecTrustSetAnchorCertificates
            anchorsOnly: true,                                                // SecTrustSetAnchorCertificatesOnly
            policy: try .server(hostname: "server.customer1.example"))        // SecPolicyCreateSSL(true, host)
        else { fatalError("an empty chain") }                                // nil only for []
        evaluation.validationDate = Date(timeIntervalSince1970: 1_780_272_000) // SecTrustSetVerifyDate
        do {
            let path = try evaluation.trustedPath()                           // SecTrustEvaluateWithError
            print(path.chain.count, path.anchor.subject)                      // SecTrustCopyCertificateChain
        } catch {
            print(error.primaryFailure.code, error.summary)                   // the CFError, SecTrustCopyResult
        }
        #expect(printed.count == 1 && printed[0].hasPrefix("3 "), "\(printed)")
    }
}
