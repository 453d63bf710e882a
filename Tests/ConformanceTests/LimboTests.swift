import Foundation
import Testing
import CertPath
@testable import CertPathLimbo

/// x509-limbo through `../shared/vectors/limbo/limbo.json`: every case runs; the summary (passed,
/// failed, skipped by feature with reason) and every mismatch are printed. The test fails on any
/// false accept and on any case that neither passes nor is skipped for a named reason.
@Suite struct LimboTests {
    @Test func everyLimboCase() throws {
        guard let shared = TestData.sharedVectors else {
            TestData.skip("x509-limbo", because: "../shared/vectors is not present")
            return
        }
        let suite = try LimboSuite.load(shared.appendingPathComponent("limbo/limbo.json"))
        let harness = LimboHarness()
        let results = harness.run(suite)
        print(LimboHarness.summary(results))
        for result in results where result.actual_result == "SKIPPED" {
            print("  skipped \(result.id): \(result.context ?? "")")
        }
        for result in results where LimboHarness.isListedContradiction(result) {
            let entry = LimboHarness.contradictions[result.id]!
            print("  contradicts \(entry.contradicts): \(result.id) expects \(result.expected_result); \(entry.reading)")
        }
        let mismatches = results.filter { !$0.matches && $0.actual_result != "SKIPPED" && !LimboHarness.isListedContradiction($0) }
        for result in mismatches {
            print("  MISMATCH \(result.id): expected \(result.expected_result), got \(result.actual_result): \(result.context ?? "")")
        }
        #expect(results.count == suite.testcases.count)
        #expect(results.filter(\.isFalseAccept).isEmpty, "false accepts: \(results.filter(\.isFalseAccept).map(\.id))")
        #expect(mismatches.isEmpty, "\(mismatches.count) limbo cases neither pass nor are skipped: \(mismatches.map(\.id))")
        // No case is skipped (every feature maps to an option), and a listed contradiction must still be one.
        #expect(results.filter { $0.actual_result == "SKIPPED" }.isEmpty || TestData.publicSuffixListMissing,
                "skipped: \(results.filter { $0.actual_result == "SKIPPED" }.map(\.id))")
        for id in LimboHarness.contradictions.keys {
            if let result = results.first(where: { $0.id == id }) {
                #expect(LimboHarness.isListedContradiction(result), "\(id) is listed as a contradiction but matches")
            }
        }
    }
}

/// The x509-limbo `crl::` cases, each with the exact reason CertPath gives: revocation (RFC 5280 6.3)
/// under the library's default for an undetermined status.
@Suite struct LimboCRLTests {
    static let suite: LimboSuite? = TestData.sharedVectors.flatMap {
        try? LimboSuite.load($0.appendingPathComponent("limbo/limbo.json"))
    }

    /// The expected failure code of each `crl::` case (nil: SUCCESS).
    static let expectations: [String: String?] = [
        "crl::revoked-certificate-with-crl": "revoked",
        "crl::crlnumber-missing": "revocationUnknown",
        "crl::crlnumber-critical": "revocationUnknown",
        "crl::issuer-missing-crlsign": "revocationUnknown",
        "crl::certificate-serial-on-crl-different-issuer": nil,
        "crl::issuer-no-keyusage-extension": nil,
        "crl::issuer-valid-crlsign-and-keycertsign": nil,
    ]

    @Test func everyCRLCaseIsKnown() throws {
        guard let suite = Self.suite else {
            TestData.skip("x509-limbo CRL cases", because: "../shared/vectors/limbo/limbo.json is not present")
            return
        }
        let ids = suite.testcases.filter { $0.crls?.isEmpty == false || $0.id.hasPrefix("crl::") }.map(\.id)
        #expect(Set(ids) == Set(Self.expectations.keys))
    }

    @Test(arguments: expectations.keys.sorted())
    func crlCase(_ id: String) throws {
        guard let suite = Self.suite else { return }
        let testcase = try #require(suite.testcases.first { $0.id == id })
        let expected = Self.expectations[id]!
        #expect(testcase.expected_result == (expected == nil ? "SUCCESS" : "FAILURE"))
        let evaluation = try LimboHarness().makeEvaluation(testcase)
        switch evaluation.evaluate() {
        case .trusted:
            #expect(expected == nil, "\(id): trusted, expected \(expected ?? "")")
        case .untrusted(let report):
            #expect(report.primaryFailure.code == expected, "\(id): \(Diagnostics.describe(report.primaryFailure))")
            print("\(id): \(Diagnostics.describe(report.primaryFailure))")
        }
    }
}
