import CertPathFoundation
import Foundation
import Testing

@testable import CertPath

/// CertPathFoundation's conveniences (issue 33): certificates from a file URL, and an async
/// evaluation that runs off the cooperative pool.
@Suite("CertPathFoundation: files and async evaluation")
struct FoundationConveniencesTests {
    @Test("PEM.readCertificates(contentsOf:) reads a chain file in order, says what a file of no certificate held; a missing file throws the file system's error")
    func readsAFile() throws {
        let url = SamplePKI.root.appendingPathComponent("rsa/server-chain.pem")
        let chain = try PEM.readCertificates(contentsOf: url).certificates
        #expect(chain == [SamplePKI.rsaServer, SamplePKI.rsaIntermediate])
        #expect(throws: CocoaError.self) { try PEM.readCertificates(contentsOf: url.appendingPathExtension("missing")) }
        let notCertificates = SamplePKI.root.appendingPathComponent("rsa/keys/server.key")
        let key = try PEM.readCertificates(contentsOf: notCertificates)
        #expect(key.certificates.isEmpty && key.skipped.map(\.kind) == ["PRIVATE KEY block"], "\(key.skipped)")
    }

    @Test("evaluateAsync() and trustedPathAsync() give evaluate()'s answer")
    func asyncEvaluation() async throws {
        let trusted = SamplePKI.server(SamplePKI.rsaServer)
        let path = try await trusted.trustedPathAsync()
        #expect(path.chain == [SamplePKI.rsaServer, SamplePKI.rsaIntermediate, SamplePKI.rsaRoot])
        let missing = SamplePKI.server(SamplePKI.rsaServer, intermediates: [])
        let result = await missing.evaluateAsync()
        #expect(result.primaryFailure == .issuerNotFound(SamplePKI.rsaServer))
        do {
            _ = try await missing.trustedPathAsync()
            Issue.record("expected the untrusted report")
        } catch {
            #expect(error.primaryFailure == .issuerNotFound(SamplePKI.rsaServer))
        }
    }
}
