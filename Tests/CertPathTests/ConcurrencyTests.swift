import CertPath
import Foundation
import Testing

/// Evaluations on several threads at once, sharing one TrustStore and one SignatureVerifier whose key
/// and signature caches are small enough to evict all the time. Every thread must get exactly the
/// single-threaded result of every case. `scripts/test` also runs this suite under ThreadSanitizer.
@Suite("Concurrency")
struct ConcurrencyTests {
    static let samplePKI = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestVectors/sample-pki")

    static func certificate(_ path: String) throws -> Certificate {
        let url = samplePKI.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return try #require(try PEM.readCertificates(Array(data)).certificates.first)
    }

    struct Case: Sendable {
        let name: String
        let leaf: Certificate
        let intermediates: [Certificate]
        let policy: ValidationPolicy
        /// `"trusted"` or the primary failure's code.
        let expected: String
    }

    static func outcome(_ result: TrustResult) -> String {
        switch result {
        case .trusted: return "trusted"
        case .untrusted(let report): return report.primaryFailure.code
        }
    }

    static func cases() throws -> (TrustStore, [Case]) {
        let rsaRoot = try certificate("rsa/root.pem"), ecdsaRoot = try certificate("ecdsa/root.pem")
        let rsaCA = try certificate("rsa/intermediate.pem"), ecdsaCA = try certificate("ecdsa/intermediate.pem")
        let server = try ValidationPolicy.server(hostname: "server.customer1.example")
        // The RFC 5280 profile: the Web PKI profile applies the CA/B rule "commonName among the SANs",
        // which the client certificates (CN=Alice) do not follow.
        let client = ValidationPolicy(purpose: .clientAuthentication(expectedNames: []), profile: .rfc5280)
        let store = TrustStore(anchors: [rsaRoot, ecdsaRoot, try certificate("rsa/old-root.pem")])
        let cases = [
            Case(name: "RSA server", leaf: try certificate("rsa/server.pem"), intermediates: [rsaCA], policy: server, expected: "trusted"),
            Case(name: "ECDSA server", leaf: try certificate("ecdsa/server.pem"), intermediates: [ecdsaCA], policy: server, expected: "trusted"),
            Case(name: "RSA client", leaf: try certificate("rsa/client.pem"), intermediates: [rsaCA], policy: client, expected: "trusted"),
            Case(name: "ECDSA client", leaf: try certificate("ecdsa/client.pem"), intermediates: [ecdsaCA], policy: client, expected: "trusted"),
            Case(name: "RSA bad signature", leaf: try certificate("rsa/server-bad-signature.pem"), intermediates: [rsaCA], policy: server,
                 expected: "badSignature"),
            Case(name: "ECDSA bad signature", leaf: try certificate("ecdsa/server-bad-signature.pem"), intermediates: [ecdsaCA],
                 policy: server, expected: "badSignature"),
            Case(name: "expired", leaf: try certificate("rsa/server-expired.pem"), intermediates: [rsaCA], policy: server, expected: "expired"),
            Case(name: "wrong EKU", leaf: try certificate("rsa/server-wrong-eku.pem"), intermediates: [rsaCA], policy: server,
                 expected: "extendedKeyUsageForbids"),
            Case(name: "missing intermediate", leaf: try certificate("rsa/server.pem"), intermediates: [], policy: server,
                 expected: "issuerNotFound"),
            Case(name: "cross-signed by an expired certificate", leaf: try certificate("rsa/server.pem"),
                 intermediates: [try certificate("rsa/intermediate-cross-expired.pem"), rsaCA], policy: server, expected: "trusted"),
            Case(name: "pathLen", leaf: try certificate("rsa/server-under-subca.pem"), intermediates: [try certificate("rsa/subca.pem"), rsaCA],
                 policy: server, expected: "pathLengthExceeded"),
        ]
        return (store, cases)
    }

    static let time = UnixTime(year: 2026, month: 6, day: 1)!

    /// One thread's findings; each thread writes only its own box, read after all have finished.
    final class Box: @unchecked Sendable {
        var mismatches: [String] = []
    }

    @Test("8 threads evaluate 11 chains 100 times each with a shared trust store, key cache and signature cache")
    func sharedStoreAndCaches() throws {
        let (store, cases) = try Self.cases()
        // Small caches: 4 CA keys compete for 2 key slots, 11 chains for 8 signature slots.
        let verifier = SignatureVerifier(keyCache: PublicKeyCache(capacity: 2), signatureCache: SignatureCache(capacity: 8))

        // The single-threaded answer, which must also be the expected one.
        for testCase in cases {
            let result = TrustEvaluation(leaf: testCase.leaf, intermediates: testCase.intermediates, trustStore: store,
                                         policy: testCase.policy, validationTime: Self.time, signatureVerifier: verifier).evaluate()
            #expect(Self.outcome(result) == testCase.expected, "\(testCase.name)")
        }

        let threadCount = 8, rounds = 100
        let boxes = (0..<threadCount).map { _ in Box() }
        let group = DispatchGroup()
        for thread in 0..<threadCount {
            let worker = Thread {
                for round in 0..<rounds {
                    // Each thread walks the cases in its own order.
                    let testCase = cases[(round * 7 + thread * 3) % cases.count]
                    let result = TrustEvaluation(leaf: testCase.leaf, intermediates: testCase.intermediates, trustStore: store,
                                                 policy: testCase.policy, validationTime: Self.time,
                                                 signatureVerifier: verifier).evaluate()
                    let outcome = Self.outcome(result)
                    if outcome != testCase.expected {
                        boxes[thread].mismatches.append("thread \(thread) round \(round): \(testCase.name): \(outcome)")
                    }
                    if case .trusted(let path) = result, path.certificates.first !== testCase.leaf {
                        boxes[thread].mismatches.append("thread \(thread) round \(round): \(testCase.name): path does not start at the leaf")
                    }
                }
                group.leave()
            }
            group.enter()
            worker.start()
        }
        #expect(group.wait(timeout: .now() + 120) == .success)
        #expect(boxes.flatMap(\.mismatches) == [])

        // Both caches were shared and worked: hits, and evictions from the deliberately small sizes.
        let keys = try #require(verifier.keyCache).statistics
        let signatures = try #require(verifier.signatureCache).statistics
        #expect(keys.hits > 0 && keys.evictions > 0)
        #expect(signatures.hits > 0 && signatures.evictions > 0)
        #expect(keys.count <= 2 && signatures.count <= 8)
    }
}
