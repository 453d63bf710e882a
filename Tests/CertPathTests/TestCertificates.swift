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

    /// One case of a set's `expectations.txt` (written by the set's generator; format:
    /// `TestVectors/expectations.py`): the verdict and failure codes the tests assert.
    struct Expectation: Sendable, CustomTestStringConvertible {
        let id: String
        let leaf: String
        let intermediates: [String]
        let anchors: [String]
        /// `server:HOSTNAME`, `client`, `any` or `pathValidation`, then `;` options.
        let policy: String
        let verdict: String
        /// ``ValidationFailure/code`` values, the primary failure first; empty when trusted.
        let failureCodes: [String]
        var testDescription: String { id }
    }

    /// The cases of `TestVectors/<set>/expectations.txt`, in file order (empty when unreadable:
    /// ConformanceTests' VectorExpectationsTests fails then).
    static func expectations(_ set: String) -> [Expectation] {
        let url = testVectors.appendingPathComponent(set).appendingPathComponent("expectations.txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        func list(_ column: Substring) -> [String] { column == "-" ? [] : column.split(separator: ",").map(String.init) }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count == 8 else { return nil }
            return Expectation(id: String(columns[0]), leaf: String(columns[1]), intermediates: list(columns[2]),
                               anchors: list(columns[3]), policy: String(columns[4]), verdict: String(columns[6]),
                               failureCodes: list(columns[7]))
        }
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
