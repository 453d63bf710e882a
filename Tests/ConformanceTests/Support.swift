import Foundation
import Testing
import CertPath
import TestSupport

/// Locations of test data: the package's own `TestVectors/`, the shared conformance data in
/// `../shared/vectors` and the installed `cryptography-vectors` PyPI package.
enum TestData {
    /// The package root (three levels above this file).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `TestVectors/` of this package.
    static let testVectors = packageRoot.appendingPathComponent("TestVectors")

    /// `../shared/vectors`, when present.
    static let sharedVectors: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/vectors")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// The `cryptography_vectors` package folder (``CryptographyVectors/folder``).
    static var cryptographyVectors: URL? { CryptographyVectors.folder }

    /// Bytes of a file.
    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// Whether the public suffix list x509-limbo's `pedantic-public-suffix-wildcard` cases need
    /// (Debian's `publicsuffix`, installed by bootstrap) is missing.
    static var publicSuffixListMissing: Bool {
        !FileManager.default.fileExists(atPath: "/usr/share/publicsuffix/public_suffix_list.dat")
    }

    /// Prints a clearly visible skip notice (Swift Testing has no skip-with-reason for data-driven
    /// suites); under `CI=true` a missing suite is a failure, not a skip.
    static func skip(_ what: String, because reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        print("SKIPPED \(what): \(reason)")
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("\(what) is required under CI=true: \(reason)", sourceLocation: sourceLocation)
        }
    }
}

/// Signed decimal text of a two's complement big-endian integer.
func signedDecimal(_ bytes: ArraySlice<UInt8>) -> String {
    var magnitude = Array(bytes)
    let negative = (magnitude.first ?? 0) & 0x80 != 0
    if negative {
        // Two's complement negation: invert, add one.
        for index in magnitude.indices { magnitude[index] = ~magnitude[index] }
        var index = magnitude.count - 1
        while index >= 0 {
            let (sum, overflow) = magnitude[index].addingReportingOverflow(1)
            magnitude[index] = sum
            if !overflow { break }
            index -= 1
        }
    }
    var digits: [UInt8] = []
    while magnitude.contains(where: { $0 != 0 }) {
        var remainder = 0
        for index in magnitude.indices {
            let value = remainder * 256 + Int(magnitude[index])
            magnitude[index] = UInt8(value / 10)
            remainder = value % 10
        }
        digits.append(UInt8(remainder))
    }
    if digits.isEmpty { return "0" }
    return (negative ? "-" : "") + String(digits.reversed().map { Character(String($0)) })
}

/// Lowercase hex.
func hex<C: Collection<UInt8>>(_ bytes: C) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
