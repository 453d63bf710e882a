import Foundation
import Testing
import CertPath

/// Certificates committed under `TestVectors/` (made by `TestVectors/pathbuilding/generate.py` and
/// `TestVectors/bench/generate.sh`), loaded once per process.
enum TestCertificates {
    /// `TestVectors/` of this package.
    static let testVectors = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestVectors")

    /// Every certificate of a PEM (or DER) file under `TestVectors/`.
    static func all(_ path: String) throws -> [Certificate] {
        let bytes = [UInt8](try Data(contentsOf: testVectors.appendingPathComponent(path)))
        return try PEM.readCertificates(bytes).certificates
    }

    /// The single certificate of a file under `TestVectors/pathbuilding/`.
    static func pb(_ path: String) throws -> Certificate {
        let certificates = try all("pathbuilding/" + path)
        try #require(certificates.count == 1, "\(path) holds \(certificates.count) certificates")
        return certificates[0]
    }

    /// 2026-06-01T00:00:00Z: every generated certificate is valid then, except those made expired
    /// (2020-01-01..2021-01-01).
    static let validationTime = UnixTime(year: 2026, month: 6, day: 1)!
}

extension ValidationFailure {
    /// The failure with its certificate named by subject, for readable expectations.
    var summary: String {
        if let certificate { return "\(code)(\(certificate.subject))" }
        if case .budgetExhausted(let limit) = self { return "budgetExhausted(\(limit.rawValue))" }
        return code
    }
}
