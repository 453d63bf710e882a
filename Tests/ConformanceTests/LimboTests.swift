import Foundation
import Testing
import CertPath
import CertPathLimbo

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
        let mismatches = results.filter { !$0.matches && $0.actual_result != "SKIPPED" }
        for result in mismatches {
            print("  MISMATCH \(result.id): expected \(result.expected_result), got \(result.actual_result): \(result.context ?? "")")
        }
        #expect(results.count == suite.testcases.count)
        #expect(results.filter(\.isFalseAccept).isEmpty, "false accepts: \(results.filter(\.isFalseAccept).map(\.id))")
        #expect(mismatches.isEmpty, "\(mismatches.count) limbo cases neither pass nor are skipped: \(mismatches.map(\.id))")
    }
}
