@testable import CertPath
import CertPathDER
import Testing

/// The peer chooses how many SCTs it sends: CT's work must be bounded whatever it sends (review of
/// issue 34: 10,920 SCTs in one OCSP staple were 10,920 signature verifications).
@Suite("Certificate Transparency: bounded work for many SCTs")
struct CTBoundTests {
    @Test("4,000 TLS SCTs (one log's many, another's one repeated, unknown logs): 2 verifications, 64 examined, both logs verified")
    func manySCTsFewVerifications() throws {
        let world = try CTWorld()
        let a = world.makeLog("A1", operator: "A"), b = world.makeLog("B1", operator: "B"), stranger = world.makeLog("X", operator: "X")
        let leaf = try world.leaf(span: 90 * CTWorld.day, scts: [])
        let aSCTs = (0..<20).map { CTWorld.sct(by: a, entry: .x509(leaf), timestamp: world.sctTime - UInt64($0)) }
        let bSCT = CTWorld.sct(by: b, entry: .x509(leaf), timestamp: world.sctTime)
        let unknown = CTWorld.sct(by: stranger, entry: .x509(leaf), timestamp: world.sctTime)
        var all: [SignedCertificateTimestamp] = []
        for i in 0..<1_334 { all += [aSCTs[i % aSCTs.count], bSCT, unknown] }
        let lists = stride(from: 0, to: all.count, by: 400).map {
            SignedCertificateTimestampList(timestamps: Array(all[$0..<min($0 + 400, all.count)])).tlsEncoded
        }
        var verifications = 0
        let report = CertificateTransparency.evaluate(leaf, issuer: world.root.certificate, policy: .chromium, logs: world.list([a, b]),
                                                      tlsSCTLists: lists, ocspResponses: [], validationTime: world.checkTime,
                                                      verifier: .shared, spendVerification: { _, _ in verifications += 1; return true })
        #expect(verifications == 2)
        #expect(report.timestamps.count == CertificateTransparency.maximumSCTsPerSource)
        #expect(report.unexaminedSCTs == all.count - CertificateTransparency.maximumSCTsPerSource)
        #expect(Set(report.timestamps.filter { $0.status == .verified }.compactMap(\.operatorName)) == ["A", "B"])
        #expect(report.timestamps.filter { $0.status == .unknownLog }.count == 21)
    }

    @Test("SCTs of 64 distinct known logs (signed over another certificate: none verifies) spend the evaluation's signature budget: it ends with budgetExhausted")
    func verificationsSpendTheBudget() throws {
        let world = try CTWorld()
        let logs = (0..<64).map { world.makeLog("L\($0)", operator: "O\($0)") }
        let leaf = try world.leaf(span: 90 * CTWorld.day, scts: [])
        let other = try world.leaf(span: 90 * CTWorld.day, scts: [])
        let list = SignedCertificateTimestampList(timestamps: logs.map { CTWorld.sct(by: $0, entry: .x509(other), timestamp: world.sctTime) })
        var evaluation = try world.evaluation(leaf, logs: world.list(logs), requirement: .required(.apple))
        evaluation.policy.budget = Budget(signatureChecks: 10)
        evaluation.signedCertificateTimestampLists = [list.tlsEncoded]
        guard case .untrusted(let report) = evaluation.evaluate() else {
            Issue.record("trusted with 10 signature checks for 64 SCTs")
            return
        }
        #expect(report.primaryFailure == .budgetExhausted(.signatureChecks))
        #expect(report.statistics.signatureChecks <= 10)
    }
}
