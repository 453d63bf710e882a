import Foundation
import Testing
import CertPath

/// The sample PKI of `TestVectors/sample-pki` (issue 4, "the seeds' scenario end to end"): every case
/// of its `manifest.json` through ``TrustEvaluation`` with the case's purpose, reference identifier and
/// time, asserting the expected result and, for untrusted cases, that the primary failure's
/// ``ValidationFailure/code`` is the manifest's `failure`.
@Suite("Sample PKI")
struct SamplePKITests {
    struct Manifest: Decodable {
        let format: String
        let cases: [Case]
    }

    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        let id: String
        let description: String
        let leaf: String
        let intermediates: [String]
        let anchors: [String]
        let purpose: String
        let hostname: String?
        let ip: String?
        let time: String
        let expected: String
        let failure: String?

        var testDescription: String { id }
    }

    static let directory = TestData.testVectors.appendingPathComponent("sample-pki")

    static let manifest: Manifest? = {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("manifest.json")) else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }()

    static let cases: [Case] = manifest?.cases ?? []

    static func certificates(_ file: String) throws -> [Certificate] {
        try PEM.readCertificates(TestData.bytes(directory.appendingPathComponent(file))).certificates
    }

    static func certificate(_ file: String) throws -> Certificate {
        let all = try certificates(file)
        try #require(all.count == 1, "\(file) holds \(all.count) certificates")
        return all[0]
    }

    static func policy(for testCase: Case) throws -> ValidationPolicy {
        switch testCase.purpose {
        case "server":
            guard let reference = testCase.hostname ?? testCase.ip else {
                return ValidationPolicy(purpose: .serverAuthentication(nil))
            }
            return try ValidationPolicy.server(hostname: reference)
        case "client":
            return ValidationPolicy.client()
        default:
            throw ManifestError(reason: "unknown purpose \(testCase.purpose)")
        }
    }

    struct ManifestError: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    @Test("The manifest is read and lists 24 cases with unique ids")
    func manifestIsPresent() throws {
        let manifest = try #require(Self.manifest)
        #expect(manifest.format == "certpath-sample-pki/1")
        #expect(manifest.cases.count == 24)
        #expect(Set(manifest.cases.map(\.id)).count == manifest.cases.count)
        #expect(manifest.cases.allSatisfy { ($0.expected == "trusted") == ($0.failure == nil) })
    }

    @Test(arguments: cases)
    func sampleCase(_ testCase: Case) throws {
        try Self.run(testCase)
    }

    static func run(_ testCase: Case) throws {
        let leaf = try Self.certificate(testCase.leaf)
        let intermediates = try testCase.intermediates.flatMap(Self.certificates)
        let anchors = try testCase.anchors.flatMap(Self.certificates)
        let time = try #require(UnixTime(rfc3339: testCase.time))
        let evaluation = TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: TrustStore(anchors: anchors),
                                         policy: try Self.policy(for: testCase), validationTime: time)
        switch (testCase.expected, evaluation.evaluate()) {
        case ("trusted", .trusted(let path)):
            #expect(path.certificates.first == leaf)
            #expect(path.reachesTrustAnchor && anchors.contains(path.anchor))
        case ("untrusted", .untrusted(let report)):
            #expect(report.primaryFailure.code == testCase.failure,
                    "\(testCase.id): \(Diagnostics.describe(report.primaryFailure)); all: \(report.failures.map(\.code))")
        case (_, .trusted):
            Issue.record("\(testCase.id): expected untrusted (\(testCase.failure ?? "?")), CertPath trusts it")
        case (_, .untrusted(let report)):
            Issue.record("\(testCase.id): expected trusted, untrusted: \(Diagnostics.describe(report.primaryFailure))")
        }
    }

    /// The seeds' scenario in words (issue 4): the server chain validates for its name and not another,
    /// the client certificate is refused as a server and the server certificate as a client, and a
    /// certificate the pathlen:0 intermediate signs as a CA is refused by pathLen. Beyond the codes the
    /// manifest gives, the failures name the right certificate.
    @Test("Seeds' scenario: failures name the right certificate")
    func seedsScenarioEvidence() throws {
        let root = try Self.certificate("rsa/root.pem"), intermediate = try Self.certificate("rsa/intermediate.pem")
        let server = try Self.certificate("rsa/server.pem"), client = try Self.certificate("rsa/client.pem")
        let subCA = try Self.certificate("rsa/subca.pem"), underSubCA = try Self.certificate("rsa/server-under-subca.pem")
        let store = TrustStore(anchors: [root])
        let time = try #require(UnixTime(rfc3339: "2026-06-01T00:00:00Z"))
        func evaluate(_ leaf: Certificate, _ intermediates: [Certificate], _ policy: ValidationPolicy) -> TrustResult {
            TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: store, policy: policy, validationTime: time).evaluate()
        }

        let trusted = evaluate(server, [intermediate], try .server(hostname: "server.customer1.example"))
        guard case .trusted(let path) = trusted else {
            Issue.record("server chain untrusted: \(trusted.primaryFailure.map(Diagnostics.describe) ?? "")")
            return
        }
        #expect(path.chain == [server, intermediate, root])

        let other = evaluate(server, [intermediate], try .server(hostname: "www.customer2.example")).primaryFailure
        guard case .hostnameMismatch(let certificate, let reference, let presented)? = other else {
            Issue.record("expected hostnameMismatch, got \(other.map(Diagnostics.describe) ?? "trusted")")
            return
        }
        #expect(certificate == server)
        #expect(reference == .dnsName(try DNSName("www.customer2.example")))
        #expect(presented == [.dnsName("server.customer1.example"), .ipAddress(try #require(IPAddress("192.0.2.10")))])

        #expect(evaluate(client, [intermediate], try .server(hostname: "client.customer1.example")).primaryFailure
                == .extendedKeyUsageForbids(client, required: KnownOID.serverAuth, present: [KnownOID.clientAuth]))
        #expect(evaluate(server, [intermediate], .client()).primaryFailure
                == .extendedKeyUsageForbids(server, required: KnownOID.clientAuth, present: [KnownOID.serverAuth]))
        #expect(evaluate(underSubCA, [subCA, intermediate], try .server(hostname: "server.customer1.example")).primaryFailure
                == .pathLengthExceeded(intermediate))
    }
}
