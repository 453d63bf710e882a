import CertPath
import CertPathDER
import Testing

/// What CT's reports say (review of issue 34, F7).
@Suite("Certificate Transparency: report wording and stable status codes")
struct CTMessageTests {
    @Test("A CT report's summary (the untrusted headline) names each unreadable SCT list's error, not only '0 SCTs found'")
    func summaryNamesTheListError() throws {
        let error = SCTListError(.lengthMismatch, at: 122, expected: "the list's declared length")
        let report = CertificateTransparencyReport(policy: .apple, lifetimeDays: 90, timestamps: [],
                                                   listProblems: [SCTListProblem(source: .embedded, error: error)],
                                                   unmetRules: [.tooFewSCTs(required: 2, counted: 0, lifetimeDays: 90, perOperatorLimit: 1)])
        #expect(report.description.contains("embedded SCT list unreadable: SCT list: lengthMismatch at byte 122"), "\(report.description)")
    }

    @Test("Each SCT status has a stable code for machine-readable output")
    func statusCodes() {
        let statuses: [SCTCheck.Status] = [.verified, .unknownLog, .futureTimestamp, .unsupportedAlgorithm, .unusableLogKey("x"),
                                           .unverifiable("x"), .invalidSignature(.invalidSignature)]
        #expect(statuses.map(\.code) == ["verified", "unknownLog", "futureTimestamp", "unsupportedAlgorithm", "unusableLogKey",
                                         "unverifiable", "invalidSignature"])
    }
}

@Suite("Certificate Transparency: TLS-delivered SCTs only (review of issue 34, F6)")
struct CTDeliveredOnlyTests {
    @Test("Chromium, no embedded SCT, 2 TLS SCTs of one operator: only the delivered rule's failure (1 operator), both SCTs counted")
    func deliveredOnlyOneOperator() throws {
        let world = try CTWorld()
        let a1 = world.makeLog("A1", operator: "A"), a2 = world.makeLog("A2", operator: "A")
        let leaf = try world.leaf(span: 90 * CTWorld.day, scts: [])
        let list = SignedCertificateTimestampList(timestamps: [a1, a2].map { CTWorld.sct(by: $0, entry: .x509(leaf), timestamp: world.sctTime) })
        let report = CertificateTransparency.evaluate(leaf, issuer: world.root.certificate, policy: .chromium, logs: world.list([a1, a2]),
                                                      tlsSCTLists: [list.tlsEncoded], validationTime: world.checkTime)
        #expect(report.unmetRules == [.tooFewOperators(required: 2, found: 1)])
        #expect(report.counted.count == 2)
        #expect(report.timestamps.allSatisfy { $0.exclusion == nil })
    }
}
