import Foundation
import Testing
import CertPath

/// The Debian ca-certificates bundle, where it exists: every certificate loads (the DER leniencies
/// of docs/RULES.md are what two of them need), and each one, as a public Web PKI anchor, verifies
/// its own signature as a one-certificate path under the default policy.
@Suite struct SystemBundleTests {
    static let bundle = "/etc/ssl/certs/ca-certificates.crt"

    @Test func everyBundleCertificateLoads() throws {
        guard FileManager.default.fileExists(atPath: Self.bundle) else {
            print("SKIPPED Debian bundle: \(Self.bundle) is not present (package ca-certificates)")
            return
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.bundle)))
        let blocks = String(decoding: bytes, as: UTF8.self).components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1
        let store = SystemTrustStore(certificateFile: Self.bundle, certificateDirectory: nil)
        let certificates = try PEM.readCertificates(bytes).certificates
        print("Debian bundle: \(blocks) certificates, \(certificates.count) loaded, \(store.skipped) skipped; leniencies used: "
              + certificates.filter { !$0.encodingLeniencies.isEmpty }
                  .map { "\($0.subject) (\($0.encodingLeniencies.map { "\($0)" }.joined(separator: "; ")))" }.joined(separator: ", "))
        #expect(store.skipped == 0)
        #expect(certificates.count == blocks)
        #expect(store.store.isPublicWebPKI)
        // No root breaks a prose rule parsing records.
        #expect(certificates.filter { !$0.findings.isEmpty }.map(\.subject.description) == [])
        // Each root as the anchor of its own one-certificate path (a self-signed certificate given as
        // an anchor and as the end entity), under RFC 5280 section 6: its signature verifies with its
        // own key and it is valid today. (As the end entity a root would break the end-entity rows of
        // the profiles: a CA as leaf under the Web PKI, serial number 0 for some.)
        var refused: [String] = []
        for root in certificates where root.isSelfIssued {
            let result = TrustEvaluation(leaf: root, trustStore: TrustStore(anchors: [root], isPublicWebPKI: true),
                                         policy: .pathValidation(), validationTime: UnixTime(year: 2026, month: 1, day: 1)).evaluate()
            if case .untrusted(let report) = result, report.primaryFailure.code != "expired" {
                refused.append("\(root.subject): \(Diagnostics.describe(report.primaryFailure))")
            }
        }
        #expect(refused.isEmpty, "\(refused)")
    }
}
