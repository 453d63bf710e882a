import Foundation
import CertPath

/// The x509-limbo test suite format (C2SP x509-limbo, schema version 1), the part CertPath reads.
public struct LimboSuite: Decodable, Sendable {
    /// The schema version this harness implements: limbo's schema has `"version": {"const": 1}`.
    public static let schemaVersion = 1

    /// Schema version (always ``schemaVersion``: other versions are refused when decoding).
    public let version: Int
    /// The test cases.
    public let testcases: [LimboTestcase]

    private enum CodingKeys: String, CodingKey { case version, testcases }

    /// Decodes a suite, reading `version` first.
    ///
    /// - Throws: ``LimboSuiteError/unsupportedVersion(_:)`` when `version` is not ``schemaVersion``
    ///   (before the test cases are decoded: another schema's cases may not decode at all), or the
    ///   `DecodingError` of a missing or malformed member.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        guard version == Self.schemaVersion else { throw LimboSuiteError.unsupportedVersion(version) }
        testcases = try container.decode([LimboTestcase].self, forKey: .testcases)
    }

    /// Reads a suite from JSON.
    ///
    /// - Throws: the file's read error, ``LimboSuiteError``, or a `DecodingError`.
    public static func load(_ url: URL) throws -> LimboSuite {
        try JSONDecoder().decode(LimboSuite.self, from: Data(contentsOf: url))
    }
}

/// Why a suite that is well-formed JSON cannot be run.
public enum LimboSuiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The suite's `version` is not ``LimboSuite/schemaVersion``.
    case unsupportedVersion(Int)

    /// `x509-limbo schema version 2 is not supported (this harness implements version 1)`.
    public var description: String {
        switch self {
        case .unsupportedVersion(let version):
            return "x509-limbo schema version \(version) is not supported (this harness implements version \(LimboSuite.schemaVersion))"
        }
    }
}

/// One x509-limbo test case.
public struct LimboTestcase: Decodable, Sendable {
    public struct PeerName: Decodable, Sendable {
        public let kind: String
        public let value: String
    }

    public let id: String
    public let conflicts_with: [String]?
    public let features: [String]?
    public let description: String
    public let validation_kind: String
    public let trusted_certs: [String]
    public let untrusted_intermediates: [String]
    public let peer_certificate: String
    public let validation_time: String?
    public let signature_algorithms: [String]?
    public let key_usage: [String]?
    public let extended_key_usage: [String]?
    public let expected_result: String
    public let expected_peer_name: PeerName?
    public let expected_peer_names: [PeerName]?
    public let max_chain_depth: Int?
    public let crls: [String]?
}

/// What the harness did with one case, in x509-limbo's harness result form.
public struct LimboResult: Codable, Sendable {
    /// The case id.
    public let id: String
    /// `SUCCESS`, `FAILURE` or `SKIPPED`.
    public let actual_result: String
    /// Why: the failure, or the skip reason.
    public let context: String?
    /// The case's expected result (not part of limbo's format; kept for summaries).
    public let expected_result: String

    /// Whether the actual result is the expected one (skips never match).
    public var matches: Bool { actual_result == expected_result }
    /// A false accept: the case expects FAILURE and CertPath said SUCCESS.
    public var isFalseAccept: Bool { expected_result == "FAILURE" && actual_result == "SUCCESS" }
}

/// Runs x509-limbo cases through ``TrustEvaluation`` — the same entry point as `certpath verify`.
///
/// Choices, each with a reason printed in skip contexts and documented in the README:
/// - **Profiles.** Cases in the `rfc5280::` namespace run under the strict RFC 5280 profile, every
///   other namespace under the Web PKI profile: limbo's namespaces name the standard a case tests, and
///   its conflicting pairs (`rfc5280::ca-as-leaf` / `webpki::ca-as-leaf`) differ only by that standard.
/// - **Anchors.** Limbo expects trust anchors' own certificates to be checked (expired root, root
///   without basicConstraints…), so the harness enforces anchor validity and constraints (RFC 5937).
/// - **TLS key usage.** The TLS key usage check of the server and client policies is a TLS rule, so it
///   is off for `rfc5280::` cases (which test RFC 5280 path validation, e.g. a CA certificate as leaf).
/// - **Skipped features.** Listed in ``skipReasons``.
/// - **CRLs.** A case's CRLs are checked with the library's default for an undetermined status
///   (reject only when CRLs were supplied for the certificate's issuer); a CRL that does not parse
///   fails the case.
public struct LimboHarness: Sendable {
    /// Optional behaviours CertPath does not implement, with the reason, by limbo feature tag.
    public static let skipReasons: [String: String] = [
        "pedantic-webpki-eku": "documented choice: extKeyUsage follows Go and Chromium (a leaf without extKeyUsage, or with anyExtendedKeyUsage, is accepted; roots' extKeyUsage constrains)",
        "pedantic-serial-number": "documented leniency: RFC 5280 4.1.2.2 asks certificate users to handle non-conforming serial numbers gracefully; CertPath refuses them only under the Web PKI profile",
        "has-policy-constraints": "conflicts with NIST PKITS 4.8-4.12, which require a non-critical policyConstraints to be processed under RFC 5280; CertPath refuses it only under the Web PKI profile",
    ]

    /// A public suffix list for the `pedantic-public-suffix-wildcard` cases (Debian's `publicsuffix`
    /// package), or `nil` when not installed (then those cases are skipped).
    public let publicSuffixList: PublicSuffixList?

    /// Creates a harness; `publicSuffixListPath` defaults to Debian's location.
    public init(publicSuffixListPath: String = "/usr/share/publicsuffix/public_suffix_list.dat") {
        if let text = try? String(contentsOfFile: publicSuffixListPath, encoding: .utf8) {
            publicSuffixList = PublicSuffixList(text: text)
        } else {
            publicSuffixList = nil
        }
    }

    /// The reason `testcase` is skipped, or `nil` when it runs.
    public func skipReason(_ testcase: LimboTestcase) -> String? {
        for feature in testcase.features ?? [] {
            if let reason = Self.skipReasons[feature], !reason.isEmpty { return "feature \(feature): \(reason)" }
            if feature == "pedantic-public-suffix-wildcard" && publicSuffixList == nil {
                return "feature \(feature): no public suffix list installed (Debian package publicsuffix)"
            }
        }
        return nil
    }

    /// Runs one case.
    public func run(_ testcase: LimboTestcase) -> LimboResult {
        func result(_ actual: String, _ context: String?) -> LimboResult {
            LimboResult(id: testcase.id, actual_result: actual, context: context, expected_result: testcase.expected_result)
        }
        if let reason = skipReason(testcase) { return result("SKIPPED", reason) }
        do {
            let evaluation = try makeEvaluation(testcase)
            switch evaluation.evaluate() {
            case .trusted(let path):
                return result("SUCCESS", "trusted via \(path.anchor.map { $0.subject.description } ?? "a trust exception")")
            case .untrusted(let report):
                return result("FAILURE", Diagnostics.describe(report.primaryFailure))
            }
        } catch let error as HarnessError {
            switch error {
            case .unsupported(let reason): return result("SKIPPED", reason)
            case .rejected(let reason): return result("FAILURE", reason)
            }
        } catch {
            return result("FAILURE", "\(error)")
        }
    }

    enum HarnessError: Error {
        case unsupported(String)
        case rejected(String)
    }

    /// The certificate of one PEM string of a case (`what` names it in messages: `peer certificate`,
    /// `trusted certificate 2`). The schema gives each string exactly one certificate.
    ///
    /// - Throws: ``HarnessError/rejected(_:)`` `WHAT is malformed: REASON`: the PEM error or the DER
    ///   error (with its byte offset and rule), no `CERTIFICATE` block (and what was found instead),
    ///   or more than one certificate.
    static func certificate(_ pem: String, _ what: String) throws(HarnessError) -> Certificate {
        let file: PEM.CertificateFile
        do throws(PEM.CertificateFileError) {
            file = try PEM.readCertificates(Array(pem.utf8))
        } catch {
            throw .rejected("\(what) is malformed: \(error)")
        }
        guard file.certificates.count == 1 else {
            if file.certificates.isEmpty {
                throw .rejected("\(what) is malformed: no PEM \"CERTIFICATE\" block (\(found(file.skipped)))")
            }
            throw .rejected("\(what) is malformed: \(file.certificates.count) certificates where the schema has one")
        }
        return file.certificates[0]
    }

    /// `empty` or `found only line 1: text, lines 3-4: PRIVATE KEY block`.
    static func found(_ skipped: [PEM.Skipped]) -> String {
        skipped.isEmpty ? "empty" : "found only \(skipped.map(\.description).joined(separator: ", "))"
    }

    /// The evaluation a case describes.
    func makeEvaluation(_ testcase: LimboTestcase) throws -> TrustEvaluation {
        func certificates(_ pems: [String], _ what: String) throws(HarnessError) -> [Certificate] {
            var all: [Certificate] = []
            for (index, pem) in pems.enumerated() { all.append(try Self.certificate(pem, "\(what) \(index + 1)")) }
            return all
        }
        let leaf = try Self.certificate(testcase.peer_certificate, "peer certificate")
        let anchors = try certificates(testcase.trusted_certs, "trusted certificate")
        let intermediates = try certificates(testcase.untrusted_intermediates, "untrusted intermediate")
        var crls: [CertificateRevocationList] = []
        for (index, pem) in (testcase.crls ?? []).enumerated() {
            let file: PEM.CRLFile
            do throws(PEM.CRLFileError) {
                file = try PEM.readCRLs(Array(pem.utf8))
            } catch {
                throw HarnessError.rejected("CRL \(index + 1) is malformed: \(error)")
            }
            guard file.crls.count == 1 else {
                if file.crls.isEmpty {
                    throw HarnessError.rejected("CRL \(index + 1) is malformed: no PEM \"X509 CRL\" block (\(Self.found(file.skipped)))")
                }
                throw HarnessError.rejected("CRL \(index + 1) is malformed: \(file.crls.count) CRLs where the schema has one")
            }
            crls += file.crls
        }

        var policy = ValidationPolicy()
        policy.profile = testcase.id.hasPrefix("rfc5280::") ? .rfc5280 : .webPKI
        // The TLS key usage check is a TLS rule (RFC 8446 4.4.2.2), not an RFC 5280 one.
        policy.checkTLSKeyUsage = policy.profile == .webPKI
        policy.anchorEnforcement = .full
        policy.maximumIntermediates = testcase.max_chain_depth
        policy.publicSuffixList = publicSuffixList
        policy.crls = CRLStore(crls)
        for usage in testcase.key_usage ?? [] {
            guard let bit = KeyUsage.names.first(where: { $0.1 == usage })?.0 else {
                throw HarnessError.unsupported("unknown key usage \(usage)")
            }
            policy.requiredLeafKeyUsage.insert(bit)
        }
        if let algorithms = testcase.signature_algorithms, !algorithms.isEmpty {
            throw HarnessError.unsupported("signature_algorithms constraints are not supported by the harness")
        }
        let ekus = testcase.extended_key_usage ?? []
        switch testcase.validation_kind {
        case "SERVER":
            guard ekus.allSatisfy({ $0 == "serverAuth" }) else {
                throw HarnessError.unsupported("SERVER validation with extended key usages \(ekus)")
            }
            var reference: ReferenceIdentifier? = nil
            if let peer = testcase.expected_peer_name {
                do {
                    reference = try ReferenceIdentifier(peer.value)
                } catch {
                    throw HarnessError.rejected("expected peer name \(peer.value) is not a valid reference identifier: \(error)")
                }
            }
            policy.purpose = .serverAuthentication(reference)
        case "CLIENT":
            guard ekus.allSatisfy({ $0 == "clientAuth" }) else {
                throw HarnessError.unsupported("CLIENT validation with extended key usages \(ekus)")
            }
            var names: [ExpectedName] = []
            for peer in testcase.expected_peer_names ?? [] {
                do {
                    switch peer.kind {
                    case "DNS": names.append(.dnsName(try DNSName(peer.value)))
                    case "IP":
                        guard let address = IPAddress(peer.value) else { throw HarnessError.rejected("bad IP \(peer.value)") }
                        names.append(.ipAddress(address))
                    case "RFC822": names.append(.email(try RFC822Name(peer.value)))
                    default: throw HarnessError.unsupported("peer name kind \(peer.kind)")
                    }
                } catch let error as HarnessError {
                    throw error
                } catch {
                    throw HarnessError.rejected("expected peer name \(peer.value) is invalid: \(error)")
                }
            }
            policy.purpose = .clientAuthentication(expectedNames: names)
        default:
            throw HarnessError.unsupported("validation kind \(testcase.validation_kind)")
        }
        var time: UnixTime? = nil
        if let text = testcase.validation_time {
            guard let parsed = UnixTime(rfc3339: text) else { throw HarnessError.unsupported("validation time \(text)") }
            time = parsed
        }
        return TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: TrustStore(anchors: anchors),
                               policy: policy, validationTime: time)
    }

    /// Runs every case whose id starts with one of `prefixes` (all when empty).
    public func run(_ suite: LimboSuite, including prefixes: [String] = []) -> [LimboResult] {
        suite.testcases.filter { testcase in prefixes.isEmpty || prefixes.contains { testcase.id.hasPrefix($0) } }.map(run)
    }

    /// `limbo: 157 cases: 149 passed, 0 failed (0 false accepts), 8 skipped`.
    public static func summary(_ results: [LimboResult]) -> String {
        let skipped = results.filter { $0.actual_result == "SKIPPED" }.count
        let passed = results.filter(\.matches).count
        let failed = results.count - skipped - passed
        let falseAccepts = results.filter(\.isFalseAccept).count
        return "limbo: \(results.count) cases: \(passed) passed, \(failed) failed (\(falseAccepts) false accepts), \(skipped) skipped"
    }

    /// The results in x509-limbo's harness result format.
    public static func resultsJSON(_ results: [LimboResult]) throws -> Data {
        struct Output: Encodable {
            let version = 1
            let harness = "certpath"
            let results: [Entry]
            struct Entry: Encodable { let id: String; let actual_result: String; let context: String? }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(Output(results: results.map { .init(id: $0.id, actual_result: $0.actual_result, context: $0.context) }))
    }
}
