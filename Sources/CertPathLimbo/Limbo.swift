import FoundationEssentials
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
        // What the schema constrains beyond JSON types: a case that breaks it is a malformed suite,
        // not a case to skip or to count as a mismatch.
        for testcase in testcases {
            guard ["SUCCESS", "FAILURE"].contains(testcase.expected_result) else {
                throw LimboSuiteError.malformedTestcase(id: testcase.id, reason: "expected_result must be SUCCESS or FAILURE")
            }
            if let time = testcase.validation_time, UnixTime(rfc3339: time) == nil {
                throw LimboSuiteError.malformedTestcase(id: testcase.id, reason: "validation_time is not an RFC 3339 time")
            }
        }
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
    /// A test case breaks the schema: an `expected_result` other than SUCCESS or FAILURE, a
    /// `validation_time` that is not RFC 3339.
    case malformedTestcase(id: String, reason: String)

    /// `x509-limbo schema version 2 is not supported (this harness implements version 1)`.
    public var description: String {
        switch self {
        case .unsupportedVersion(let version):
            return "x509-limbo schema version \(version) is not supported (this harness implements version \(LimboSuite.schemaVersion))"
        case .malformedTestcase(let id, let reason):
            return "test case \(id): \(reason)"
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
/// - **Profiles.** Each namespace runs under the profile of the standard it tests
///   (``namespaceProfiles``, with the reason for each): limbo's namespaces name that standard, and
///   its conflicting pairs (`rfc5280::ca-as-leaf` / `webpki::ca-as-leaf`) differ only by it.
/// - **Anchors.** Limbo expects trust anchors' own certificates to be checked (an expired root, a
///   root without basicConstraints, a root's non-critical basicConstraints…), so the harness enforces
///   anchor validity, constraints and profile (``AnchorEnforcement/full``).
/// - **TLS key usage.** The TLS key usage check of the server and client policies is a TLS rule, so it
///   is on only under the Web PKI profile (RFC 5280 itself lets a CA certificate be the leaf).
/// - **Features** are readings the case asks for, each mapped to the option that implements it:
///   `pedantic-webpki-eku` turns on ``ExtendedKeyUsageReading/strict``,
///   `pedantic-public-suffix-wildcard` supplies the public suffix list (Debian's `publicsuffix`, which
///   bootstrap installs; without it the case is skipped and says so). No feature is skipped.
/// - **Constraints of a case**: `key_usage` is required of the leaf's keyUsage, `extended_key_usage`
///   beyond the validation kind's own purpose makes the purpose ``ValidationPurpose/extendedKeyUsage(purposes:expectedNames:)``,
///   `signature_algorithms` restricts the signature algorithms of the path's certificates (the
///   policy's caller check), `max_chain_depth` is ``ValidationPolicy/maximumIntermediates``.
/// - **CRL conformance** is read strictly (``CRLConformance/strict``): limbo holds them to RFC 5280 section
///   5's CRL profile, a CRL without cRLNumber showing no good standing (`crl::crlnumber-missing`).
/// - **CRLs.** A case's CRLs are checked with the library's default for an undetermined status
///   (reject only when CRLs were supplied for the certificate's issuer); a CRL that does not parse
///   fails the case.
public struct LimboHarness: Sendable {
    /// The profile of each namespace (by id prefix, first match), with the reason; other ids run
    /// under ``CertificateProfile/rfc5280``.
    public static let namespaceProfiles: [(prefix: String, profile: CertificateProfile, reason: String)] = [
        ("rfc5280::", .rfc5280, "tests RFC 5280: section 4's requirements on certificates and section 6's algorithm"),
        ("webpki::", .webPKI, "tests the CA/Browser Forum Baseline Requirements for the Web PKI"),
        ("online::", .webPKI, "real Web PKI chains"),
        ("cve::", .webPKI, "independent recreations of path validation CVEs, built for CA/B Forum conformance"),
        ("crl::", .pathValidation,
         "tests RFC 5280 6.3 CRL processing, a section 6 algorithm; limbo notes (crl::issuer-no-keyusage-extension) that section 4's issuance rules do not bind it"),
        ("pathlen::", .rfc5280, "tests RFC 5280 4.2.1.9 and 6.1.4 (l), (m)"),
        ("pathological::", .rfc5280, "tests path building (RFC 4158) over RFC 5280 validation"),
        ("bettertls::", .rfc5280,
         "Netflix BetterTLS tests RFC 5280 name constraints and path building; its certificates are not Web PKI subscriber certificates"),
        ("invalid::", .rfc5280, "malformed inputs, judged under RFC 5280"),
    ]

    /// The profile a case runs under, and why.
    public static func profile(for id: String) -> (profile: CertificateProfile, reason: String) {
        for entry in namespaceProfiles where id.hasPrefix(entry.prefix) { return (entry.profile, entry.reason) }
        return (.rfc5280, "a namespace without a profile of its own: RFC 5280")
    }

    /// Cases whose expectation contradicts another case of the suite under one rule, each with that
    /// case and the reading the standard supports. CertPath follows the standard, so these cases
    /// do not match; ``summary(_:)`` counts them apart, and a listed case that starts matching is a
    /// mismatch (the list must stay true). The suite's default leaf has commonName `example.com`,
    /// which is not among the subjectAltNames of these cases, while `webpki::cn::*` requires the
    /// commonName to be one of them.
    public static let contradictions: [String: (contradicts: String, reading: String)] = [
        "webpki::san::leftmost-wildcard-san": ("webpki::cn::not-in-san",
            "CA/B BR 7.1.4.3: a commonName MUST be a character-for-character copy of a subjectAltName value; CN=example.com "
            + "is not a copy of DNS:*.example.com (a wildcard value is copied as the wildcard, `*.example.com`)"),
        "webpki::nc::nc-permits-dns-san-pattern": ("webpki::cn::not-in-san",
            "CA/B BR 7.1.4.3, as for webpki::san::leftmost-wildcard-san: CN=example.com is not among the subjectAltName values "
            + "(DNS:*.example.com)"),
    ]

    /// Reasons for skipping a case by feature tag: none (every feature maps to an option). Kept for
    /// the CLI's listing.
    public static let skipReasons: [String: String] = [:]

    /// A public suffix list for the `pedantic-public-suffix-wildcard` cases (Debian's `publicsuffix`
    /// package), or `nil` when not installed (then those cases are skipped).
    public let publicSuffixList: PublicSuffixList?

    /// Creates a harness; `publicSuffixListPath` defaults to Debian's location.
    public init(publicSuffixListPath: String = "/usr/share/publicsuffix/public_suffix_list.dat") {
        if let text = try? String(contentsOfFile: publicSuffixListPath, encoding: .utf8) {
            // The pedantic reading the feature names: both sections (`*.s3.amazonaws.com` refused).
            publicSuffixList = PublicSuffixList(text: text, sections: .all)
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
                return result("SUCCESS", path.reachesTrustAnchor ? "trusted via \(path.anchor.subject)" : "trusted via a trust exception")
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
        policy.profile = Self.profile(for: testcase.id).profile
        // The TLS key usage check is a TLS rule (RFC 8446 4.4.2.2), not an RFC 5280 one.
        policy.checkTLSKeyUsage = policy.profile == .webPKI
        policy.anchorEnforcement = .full
        // CRLs are held to RFC 5280 section 5's CRL profile (crl::crlnumber-missing expects a CRL
        // without cRLNumber to show nothing good): the strict reading, whatever the profile.
        policy.crlConformance = .strict
        if let depth = testcase.max_chain_depth { policy.maximumIntermediates = depth }
        policy.publicSuffixList = publicSuffixList
        if (testcase.features ?? []).contains("pedantic-webpki-eku") { policy.extendedKeyUsageReading = .strict }
        let evidence = RevocationEvidence(crls: CRLStore(crls))
        for usage in testcase.key_usage ?? [] {
            guard let bit = KeyUsage.names.first(where: { $0.1 == usage })?.0 else {
                throw HarnessError.rejected("unknown key usage \(usage) in the case")
            }
            policy.requiredLeafKeyUsage.insert(bit)
        }
        var additionalCheck: (@Sendable ([Certificate]) -> String?)? = nil
        if let names = testcase.signature_algorithms, !names.isEmpty {
            let allowed = names.compactMap(Self.signatureAlgorithm)
            additionalCheck = { path in
                for certificate in path where !allowed.contains(where: { Self.matches($0, certificate.signatureAlgorithm) }) {
                    return "\(certificate.subject) is signed with \(certificate.signatureAlgorithm), not one of the case's signature algorithms (\(names.joined(separator: ", ")))"
                }
                return nil
            }
        }
        var ekus: [OID] = []
        for name in testcase.extended_key_usage ?? [] {
            guard let oid = Self.extendedKeyUsages[name] ?? OID(dotted: name) else {
                throw HarnessError.rejected("unknown extended key usage \(name) in the case")
            }
            ekus.append(oid)
        }
        switch testcase.validation_kind {
        case "SERVER":
            var reference: ReferenceIdentifier? = nil
            if let peer = testcase.expected_peer_name {
                do {
                    reference = try ReferenceIdentifier(peer.value)
                } catch {
                    throw HarnessError.rejected("expected peer name \(peer.value) is not a valid reference identifier: \(error)")
                }
            }
            if ekus.allSatisfy({ $0 == KnownOID.serverAuth }) {
                policy.purpose = .serverAuthentication(reference)
            } else {
                let names: [ExpectedName]
                switch reference {
                case .dnsName(let name)?: names = [.dnsName(name)]
                case .ipAddress(let address)?: names = [.ipAddress(address)]
                case nil: names = []
                }
                policy.purpose = .extendedKeyUsage(purposes: ekus, expectedNames: names)
            }
        case "CLIENT":
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
            policy.purpose = ekus.allSatisfy({ $0 == KnownOID.clientAuth })
                ? .clientAuthentication(expectedNames: names) : .extendedKeyUsage(purposes: ekus, expectedNames: names)
        default:
            throw HarnessError.unsupported("validation kind \(testcase.validation_kind)")
        }
        var time: UnixTime? = nil
        if let text = testcase.validation_time {
            guard let parsed = UnixTime(rfc3339: text) else { throw HarnessError.unsupported("validation time \(text)") }
            time = parsed
        }
        return TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: TrustStore(anchors: anchors),
                               policy: policy, revocationEvidence: evidence, validationTime: time, additionalCheck: additionalCheck)
    }

    /// limbo's names of the RFC 5280 extended key usages.
    static let extendedKeyUsages: [String: OID] = [
        "anyExtendedKeyUsage": KnownOID.anyExtendedKeyUsage, "serverAuth": KnownOID.serverAuth, "clientAuth": KnownOID.clientAuth,
        "codeSigning": KnownOID.codeSigning, "emailProtection": KnownOID.emailProtection, "timeStamping": KnownOID.timeStamping,
        "OCSPSigning": KnownOID.ocspSigning,
    ]

    /// A signature algorithm of limbo's list, as CertPath names it (`nil` for one CertPath does not
    /// verify: such a case cannot accept a certificate signed with it anyway).
    static func signatureAlgorithm(_ name: String) -> (family: String, hash: HashAlgorithm?)? {
        let hashes: [String: HashAlgorithm] = ["MD5": .md5, "SHA1": .sha1, "SHA224": .sha224, "SHA256": .sha256, "SHA384": .sha384, "SHA512": .sha512]
        switch name {
        case "RSASSA_PSS": return ("rsaPSS", nil)
        case "ED25519": return ("ed25519", nil)
        case "ED448": return ("ed448", nil)
        default:
            for (prefix, family) in [("RSA_WITH_", "rsa"), ("ECDSA_WITH_", "ecdsa"), ("DSA_WITH_", "dsa")] where name.hasPrefix(prefix) {
                guard let hash = hashes[String(name.dropFirst(prefix.count))] else { return nil }
                return (family, hash)
            }
            return nil
        }
    }

    /// Whether `algorithm` is the one limbo's entry names.
    static func matches(_ entry: (family: String, hash: HashAlgorithm?), _ algorithm: SignatureAlgorithm) -> Bool {
        switch algorithm {
        case .rsaPKCS1v15(let hash): return entry.family == "rsa" && entry.hash == hash
        case .ecdsa(let hash): return entry.family == "ecdsa" && entry.hash == hash
        case .dsa(let hash): return entry.family == "dsa" && entry.hash == hash
        case .rsaPSS: return entry.family == "rsaPSS"
        case .ed25519: return entry.family == "ed25519"
        case .ed448: return entry.family == "ed448"
        case .unsupported: return false
        }
    }

    /// Runs every case whose id starts with one of `prefixes` (all when empty).
    public func run(_ suite: LimboSuite, including prefixes: [String] = []) -> [LimboResult] {
        suite.testcases.filter { testcase in prefixes.isEmpty || prefixes.contains { testcase.id.hasPrefix($0) } }.map(run)
    }

    /// Whether `result` is a listed contradiction that still does not match (see ``contradictions``).
    public static func isListedContradiction(_ result: LimboResult) -> Bool {
        !result.matches && result.actual_result != "SKIPPED" && contradictions[result.id] != nil
    }

    /// `limbo: 157 cases: 155 passed, 0 failed (0 false accepts), 2 contradicting another case (listed), 0 skipped`.
    public static func summary(_ results: [LimboResult]) -> String {
        let skipped = results.filter { $0.actual_result == "SKIPPED" }.count
        let passed = results.filter(\.matches).count
        let contradicting = results.filter(isListedContradiction).count
        let failed = results.count - skipped - passed - contradicting
        let falseAccepts = results.filter(\.isFalseAccept).count
        return "limbo: \(results.count) cases: \(passed) passed, \(failed) failed (\(falseAccepts) false accepts), "
            + "\(contradicting) contradicting another case (listed), \(skipped) skipped"
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
