import CertPath
import Foundation
import Testing

/// The expected results the project's own vector sets carry (issue 31): each seeded generator under
/// `TestVectors/<set>/` writes `expectations.txt` next to the certificates it makes (format:
/// `TestVectors/expectations.py`), and every line is evaluated here as written: the verdict and the
/// failure codes (``ValidationFailure/code``; the first one is the primary failure, the others must
/// be among the best attempt's failures). `scripts/check-expectations` fails CI when running a
/// generator again would change its file, so a verdict changes only with its generator.
@Suite struct VectorExpectationsTests {
    /// One line of an expectations file.
    struct Case: CustomTestStringConvertible, Sendable {
        let set: String
        let id: String
        let leaf: String
        let intermediates: [String]
        let anchors: [String]
        let policy: String
        let time: String
        let verdict: String
        let failureCodes: [String]
        var testDescription: String { "\(set)/\(id)" }
    }

    /// The sets whose generators write an expectations file.
    static let sets = ["pss-restricted", "pathbuilding", "private-pki-findings", "policy-values"]

    static func list(_ column: Substring) -> [String] {
        column == "-" ? [] : column.split(separator: ",").map(String.init)
    }

    /// Every case of a set's `expectations.txt`; an unreadable or malformed file is a test failure
    /// (`filesAreWellFormed`), not an empty list.
    static func cases(of set: String) -> [Case] {
        let url = TestData.testVectors.appendingPathComponent(set).appendingPathComponent("expectations.txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count == 8 else { return nil }
            return Case(set: set, id: String(columns[0]), leaf: String(columns[1]), intermediates: list(columns[2]),
                        anchors: list(columns[3]), policy: String(columns[4]), time: String(columns[5]),
                        verdict: String(columns[6]), failureCodes: list(columns[7]))
        }
    }

    static let allCases: [Case] = sets.flatMap(cases(of:))

    /// The case of `set` named `id` (for the sets' own tests, which read their verdicts from the file).
    static func expectation(_ set: String, _ id: String) -> Case? {
        allCases.first { $0.set == set && $0.id == id }
    }

    @Test("Every set has an expectations file of well-formed lines, ids unique", arguments: sets)
    func filesAreWellFormed(_ set: String) throws {
        let url = TestData.testVectors.appendingPathComponent(set).appendingPathComponent("expectations.txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        let cases = Self.cases(of: set)
        #expect(!cases.isEmpty)
        #expect(cases.count == lines.count, "every line has the 8 tab-separated columns")
        #expect(Set(cases.map(\.id)).count == cases.count)
        for testCase in cases {
            #expect(["trusted", "untrusted"].contains(testCase.verdict), "\(testCase.id)")
            #expect((testCase.verdict == "trusted") == testCase.failureCodes.isEmpty, "\(testCase.id)")
        }
    }

    /// `server:HOSTNAME`, `client`, `any` (RFC 5280 6.1 with the default profile, no purpose) or
    /// `pathValidation`, then optionally `;profile=NAME`, `;commonNameFallback` and `;crls=FILE,...`
    /// (the CRL files, relative to the set's folder, returned in that order).
    static func policy(_ text: String) throws -> (policy: ValidationPolicy, crlFiles: [String]) {
        let parts = text.split(separator: ";")
        let kind = String(parts.first ?? "")
        var policy: ValidationPolicy
        var crlFiles: [String] = []
        if kind.hasPrefix("server:") {
            policy = try .server(hostname: String(kind.dropFirst("server:".count)))
        } else if kind == "client" {
            policy = .client()
        } else if kind == "any" {
            policy = ValidationPolicy(purpose: .any)
        } else if kind == "pathValidation" {
            policy = .pathValidation()
        } else {
            throw PolicyError(text: text)
        }
        for option in parts.dropFirst() {
            if option == "commonNameFallback" {
                policy.allowCommonNameFallback = true
            } else if option.hasPrefix("crls=") {
                crlFiles = option.dropFirst("crls=".count).split(separator: ",").map(String.init)
            } else if option.hasPrefix("profile="), let profile = CertificateProfile(rawValue: String(option.dropFirst("profile=".count))) {
                policy.profile = profile
            } else {
                throw PolicyError(text: text)
            }
        }
        return (policy, crlFiles)
    }

    struct PolicyError: Error { let text: String }

    @Test("Each case evaluates to its expected verdict and failures", arguments: allCases)
    func evaluate(_ testCase: Case) throws {
        let folder = TestData.testVectors.appendingPathComponent(testCase.set)
        func load(_ file: String) throws -> [Certificate] {
            try PEM.readCertificates(TestData.bytes(folder.appendingPathComponent(file))).certificates
        }
        let leaf = try #require(try load(testCase.leaf).first)
        let intermediates = try testCase.intermediates.flatMap(load)
        let anchors = try testCase.anchors.flatMap(load)
        let time = try #require(UnixTime(rfc3339: testCase.time))
        let (policy, crlFiles) = try Self.policy(testCase.policy)
        let crls = try crlFiles.flatMap { try PEM.readCRLs(TestData.bytes(folder.appendingPathComponent($0))).crls }
        let result = TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: TrustStore(anchors: anchors),
                                     policy: policy, revocationEvidence: RevocationEvidence(crls: CRLStore(crls)),
                                     validationTime: time).evaluate()
        switch (testCase.verdict, result) {
        case ("trusted", .trusted):
            break
        case ("untrusted", .untrusted(let report)):
            #expect(report.primaryFailure.code == testCase.failureCodes.first,
                    "\(Diagnostics.describe(report.primaryFailure))")
            let codes = Set(report.bestAttempt.failures.map(\.code) + [report.primaryFailure.code])
            for code in testCase.failureCodes.dropFirst() {
                #expect(codes.contains(code), "\(code) is not among \(codes.sorted())")
            }
        case (_, .trusted):
            Issue.record("expected untrusted (\(testCase.failureCodes)), CertPath trusts it")
        case (_, .untrusted(let report)):
            Issue.record("expected trusted, untrusted: \(Diagnostics.describe(report.primaryFailure))")
        }
    }
}
