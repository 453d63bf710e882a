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
