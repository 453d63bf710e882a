import Foundation
import Testing
import CertPath

/// Chromium's `verify_certificate_chain` tests (BoringSSL `pki/testdata/verify_certificate_chain_unittest/`)
/// through `../shared/vectors/chromium-pki/verify_certificate_chain/`: every `.test` file is one test,
/// named `folder/file.test`; ``summary()`` prints the counts, each skip with its reason, each mismatch
/// with Chromium's expected errors and CertPath's failures, and notes (below). It fails on any
/// mismatch, not on skips. The data's README gives Chromium's reading of each setting.
///
/// How the settings map to CertPath:
/// - **The chain**: `chain[0]` is the target, the last certificate gets `last_cert_trust`, the ones
///   between are the intermediates. CertPath builds paths instead of verifying the chain as given;
///   with exactly the chain's certificates it builds the chain, except where a note says otherwise:
///   `key-rollover/longrolloverchain` (a shorter path through the rollover certificate), and failing
///   chains whose search stops early (a signature or issuer name that does not chain).
/// - **Trust** (`last_cert_trust`): `TRUSTED_ANCHOR` is an anchor checked as a name and a key; the
///   `_WITH_EXPIRATION` / `_WITH_CONSTRAINTS` variants turn on ``AnchorEnforcement/validity`` /
///   ``AnchorEnforcement/constraints``; `TRUSTED_ANCHOR_WITH_REQUIRE_BASIC_CONSTRAINTS` is
///   `TRUSTED_ANCHOR` (Chromium requires the anchor's basicConstraints only while enforcing its
///   constraints); `TRUSTED_ANCHOR_OR_LEAF`, `TRUSTED_LEAF`, `DISTRUSTED` are the trust kinds of those
///   names; `UNSPECIFIED` leaves the certificate out of the store, among the intermediates. A lone
///   target under `TRUSTED_ANCHOR` is an ``TrustKind/anchor`` entry as well; Chromium never accepts
///   that, CertPath accepts a self-signed one (no test here has one: `target-selfissued` fails its
///   signature).
/// - **Purpose** (`key_purpose`): `ANY_EKU` is ``ValidationPurpose/any``; `SERVER_AUTH` and
///   `CLIENT_AUTH` the TLS purposes without names (Chromium checks none); `_STRICT` adds
///   ``ValidationPolicy/strictExtendedKeyUsage``. The target's keyUsage is not checked (Chromium
///   leaves it to the caller).
/// - **Profile**: ``CertificateProfile/pathValidation`` (RFC 5280 section 6) for every test: Chromium's
///   verifier is section 6 plus a few section 4 checks. ``CertificateProfile/rfc5280`` also refuses
///   chains Chromium accepts for section 4 issuance rules (a non-critical basicConstraints in a CA,
///   GeneralizedTime before 2050); ``profileComparison()`` prints the mismatches of both.
/// - **Algorithms**: RSA keys of at least 1024 bits of any size, ECDSA P-256/384/521, SHA-1 besides
///   SHA-2 and RSASSA-PSS, except under `digest_policy: STRONG` (Chromium's strong digest policy: no SHA-1).
/// - **Settings CertPath cannot express** make the test a skip with the reason: a requirement of
///   basicConstraints in the anchor alone, a trusted leaf that must be self-signed, the strict EKU
///   rules for the target alone, and purposes with rules of their own (MLS, C2PA).
/// - **Policy set**: for a valid chain, the user-constrained policy set must be
///   `expected_user_constrained_policy_set` (absent: empty; any-policy is `2.5.29.32.0`, as Chromium gives it).
@Suite struct ChromiumVerifierTests {
    /// `../shared/vectors/chromium-pki/verify_certificate_chain`, when present.
    static let folder: URL? = TestData.sharedVectors.map {
        $0.appendingPathComponent("chromium-pki/verify_certificate_chain")
    }.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }

    /// The profile every test runs under.
    static let profile = CertificateProfile.pathValidation

    /// One `.test` file.
    struct Case: CustomTestStringConvertible, Sendable, Hashable {
        /// `folder/file.test`.
        let name: String
        var testDescription: String { name }
    }

    /// Every `.test` file, sorted by name.
    static let cases: [Case] = {
        guard let folder else { return [] }
        let manager = FileManager.default
        var names: [String] = []
        for directory in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let files = (try? manager.contentsOfDirectory(atPath: folder.appendingPathComponent(directory).path)) ?? []
            for file in files where file.hasSuffix(".test") { names.append("\(directory)/\(file)") }
        }
        return names.sorted().map(Case.init)
    }()

    // MARK: The .test format

    /// A `.test` file's settings and expectations.
    struct Settings {
        var chain = ""
        var lastCertTrust = ""
        var utcTime = ""
        var keyPurpose = ""
        var digestPolicy: String? = nil
        var expectedUserConstrainedPolicySet: [String]? = nil
        /// The `expected_errors` lines, as written.
        var expectedErrors: [String] = []

        /// Valid exactly when no expected line starts with `ERROR: `.
        var expectsValid: Bool { !expectedErrors.contains { $0.hasPrefix("ERROR: ") } }

        /// Chromium's errors, each with the certificate it is about: `i=1 (CN=Intermediate): Time is after notAfter`.
        var errorSummary: [String] {
            var header: String? = nil
            var lines: [String] = []
            for line in expectedErrors {
                if line.hasPrefix("----- Certificate ") {
                    header = line.dropFirst("----- Certificate ".count).replacingOccurrences(of: " -----", with: "")
                } else if line.hasPrefix("ERROR: ") {
                    lines.append("\(header.map { "\($0): " } ?? "")\(line.dropFirst("ERROR: ".count))")
                }
            }
            return lines
        }

        /// The chain indices (`i=N`) of the certificates Chromium reports an error for.
        var erringCertificates: Set<Int> {
            var current: Int? = nil
            var indices = Set<Int>()
            for line in expectedErrors {
                if line.hasPrefix("----- Certificate i="),
                   let number = Int(line.dropFirst("----- Certificate i=".count).prefix { $0.isNumber }) {
                    current = number
                } else if line.hasPrefix("ERROR: "), let current {
                    indices.insert(current)
                }
            }
            return indices
        }

        /// Parses the text of a `.test` file.
        init(parsing text: String) throws(HarnessError) {
            var inErrors = false
            for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let line = String(rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine)
                if inErrors {
                    if !line.isEmpty { expectedErrors.append(line) }
                    continue
                }
                if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) { continue }
                guard let colon = line.firstIndex(of: ":") else { throw .malformed("line without a key: \(line)") }
                let key = String(line[..<colon])
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                switch key {
                case "chain": chain = value
                case "last_cert_trust": lastCertTrust = value
                case "utc_time": utcTime = value
                case "key_purpose": keyPurpose = value
                case "digest_policy": digestPolicy = value
                case "expected_user_constrained_policy_set":
                    expectedUserConstrainedPolicySet = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                        .filter { !$0.isEmpty }
                case "expected_errors": inErrors = true
                default: throw .malformed("unknown key \(key)")
                }
            }
            guard !chain.isEmpty, !lastCertTrust.isEmpty, !utcTime.isEmpty, !keyPurpose.isEmpty, inErrors else {
                throw .malformed("a required key (chain, last_cert_trust, utc_time, key_purpose, expected_errors) is missing")
            }
        }
    }

    enum HarnessError: Error, CustomStringConvertible {
        /// The `.test` file or its chain cannot be read.
        case malformed(String)
        /// A setting value the harness does not know (a new one in Chromium's suite).
        case unknownSetting(String)

        var description: String {
            switch self {
            case .malformed(let reason): return "the test data is malformed: \(reason)"
            case .unknownSetting(let reason): return "the harness does not know \(reason)"
            }
        }
    }

    // MARK: Settings to CertPath

    /// How the last certificate of the chain is trusted.
    enum LastCertificateTrust {
        case anchor(AnchorEnforcement)
        case entry(TrustKind)
        case untrusted
        case unsupported(String)

        /// Whether the last certificate is trusted as the end entity itself.
        var isLeafTrust: Bool {
            if case .entry(let kind) = self { return kind == .leaf || kind == .anchorOrLeaf }
            return false
        }

        init(_ setting: String) throws(HarnessError) {
            switch setting {
            case "TRUSTED_ANCHOR": self = .anchor(.nameAndKey)
            case "TRUSTED_ANCHOR_WITH_EXPIRATION": self = .anchor(AnchorEnforcement(validity: true, constraints: false))
            case "TRUSTED_ANCHOR_WITH_CONSTRAINTS": self = .anchor(AnchorEnforcement(validity: false, constraints: true))
            case "TRUSTED_ANCHOR_WITH_EXPIRATION_AND_CONSTRAINTS": self = .anchor(AnchorEnforcement(validity: true, constraints: true))
            // Chromium requires basicConstraints only where it enforces the anchor's constraints, so
            // without constraints this is TRUSTED_ANCHOR.
            case "TRUSTED_ANCHOR_WITH_REQUIRE_BASIC_CONSTRAINTS": self = .anchor(.nameAndKey)
            case "TRUSTED_ANCHOR_WITH_CONSTRAINTS_REQUIRE_BASIC_CONSTRAINTS":
                self = .anchor(AnchorEnforcement(validity: false, constraints: true, requireBasicConstraints: true))
            case "TRUSTED_ANCHOR_WITH_EXPIRATION_AND_CONSTRAINTS_REQUIRE_BASIC_CONSTRAINTS":
                self = .anchor(AnchorEnforcement(validity: true, constraints: true, requireBasicConstraints: true))
            case "TRUSTED_ANCHOR_OR_LEAF": self = .entry(.anchorOrLeaf)
            case "TRUSTED_LEAF": self = .entry(.leaf)
            case "TRUSTED_LEAF_REQUIRE_SELF_SIGNED":
                self = .unsupported("\(setting): CertPath has no trust kind requiring a trusted leaf to be self-signed "
                    + "(a .leaf entry is trusted by itself, its signature never checked)")
            case "DISTRUSTED": self = .entry(.distrusted)
            case "UNSPECIFIED": self = .untrusted
            default: throw .unknownSetting("last_cert_trust \(setting)")
            }
        }
    }

    /// The purpose and strictness of a `key_purpose`, or why it is skipped.
    static func purpose(_ setting: String) throws(HarnessError) -> (purpose: ValidationPurpose, reading: ExtendedKeyUsageReading)? {
        switch setting {
        case "ANY_EKU": return (.any, .standard)
        // Chromium checks no host name.
        case "SERVER_AUTH": return (.serverAuthentication(nil), .standard)
        case "CLIENT_AUTH": return (.clientAuthentication(expectedNames: []), .standard)
        case "SERVER_AUTH_STRICT": return (.serverAuthentication(nil), .strict)
        case "CLIENT_AUTH_STRICT": return (.clientAuthentication(expectedNames: []), .strict)
        case "SERVER_AUTH_STRICT_LEAF": return (.serverAuthentication(nil), .strictEndEntity)
        case "CLIENT_AUTH_STRICT_LEAF": return (.clientAuthentication(expectedNames: []), .strictEndEntity)
        case "MLS_CLIENT_AUTH", "C2PA_MANIFEST", "C2PA_TIMESTAMPING": return nil
        default: throw .unknownSetting("key_purpose \(setting)")
        }
    }

    /// Why a `key_purpose` that ``purpose(_:)`` does not map is skipped.
    static func purposeSkipReason(_ setting: String) -> String {
        return "key_purpose \(setting): a purpose with rules of its own (Chromium's \(setting) checks), which CertPath does not implement"
    }

    /// `DEFAULT` (2021-10-05T12:00:00Z) or `YYMMDDHHMMSSZ` (RFC 5280 4.1.2.5.1: YY below 50 is 20YY).
    static func time(_ setting: String) throws(HarnessError) -> UnixTime {
        let text = setting == "DEFAULT" ? "211005120000Z" : setting
        let digits = text.dropLast().compactMap(\.wholeNumberValue)
        guard text.count == 13, text.hasSuffix("Z"), digits.count == 12 else { throw .malformed("utc_time \(setting)") }
        func field(_ index: Int) -> Int { digits[index] * 10 + digits[index + 1] }
        let year = field(0) < 50 ? 2000 + field(0) : 1900 + field(0)
        guard let time = UnixTime(year: year, month: field(2), day: field(4), hour: field(6), minute: field(8), second: field(10)) else {
            throw .malformed("utc_time \(setting)")
        }
        return time
    }

    /// Chromium's algorithms: RSA of at least 1024 bits (any size), ECDSA P-256/384/521, SHA-1 unless
    /// the digest policy is `STRONG`, SHA-2, RSASSA-PSS.
    static func algorithms(digestPolicy: String?) throws(HarnessError) -> AlgorithmProfile {
        var hashes: Set<HashAlgorithm> = [.sha256, .sha384, .sha512]
        switch digestPolicy {
        case nil, "WEAK_ALLOW_SHA1": hashes.insert(.sha1)
        case "STRONG": break
        case let other?: throw .unknownSetting("digest_policy \(other)")
        }
        return AlgorithmProfile(minimumRSAModulusBits: 1024, requireRSAModulusMultipleOf8: false,
                                allowedCurves: [.p256, .p384, .p521], allowEdDSA: false, allowDSA: false, allowedHashes: hashes)
    }

    // MARK: Running a test

    /// What one test came to.
    struct Outcome {
        let name: String
        /// Why it was skipped (nil: it ran).
        var skipped: String? = nil
        /// Chromium's expectation.
        var expectsValid = false
        var expectedErrors: [String] = []
        var erringCertificates: Set<Int> = []
        /// CertPath's verdict and its primary failure in words.
        var trusted = false
        var failure: String? = nil
        /// Index in the chain of the certificate of CertPath's primary failure.
        var failureCertificate: Int? = nil
        /// Every failure of CertPath's best attempt, each with its certificate's chain index.
        var allFailures: [String] = []
        /// A mismatch of the user-constrained policy set (expected, actual).
        var policySetMismatch: (expected: String, actual: String)? = nil
        /// The path CertPath took, when it is not the chain as given.
        var pathDifference: String? = nil
        /// The harness could not run the test (unknown setting, unreadable data).
        var harnessError: String? = nil

        var ran: Bool { skipped == nil }
        var matches: Bool { ran && harnessError == nil && expectsValid == trusted && policySetMismatch == nil }
        var isFalseAccept: Bool { ran && harnessError == nil && !expectsValid && trusted }
    }

    /// Runs one test under `profile`.
    static func run(_ testCase: Case, profile: CertificateProfile = Self.profile) -> Outcome {
        var outcome = Outcome(name: testCase.name)
        guard let folder else {
            outcome.harnessError = "no data folder"
            return outcome
        }
        do {
            let url = folder.appendingPathComponent(testCase.name)
            let settings = try Settings(parsing: String(decoding: TestData.bytes(url), as: UTF8.self))
            outcome.expectsValid = settings.expectsValid
            outcome.expectedErrors = settings.errorSummary
            outcome.erringCertificates = settings.erringCertificates
            try run(settings, chainFolder: url.deletingLastPathComponent(), profile: profile, into: &outcome)
        } catch let error as HarnessError {
            outcome.harnessError = error.description
        } catch {
            outcome.harnessError = "\(error)"
        }
        return outcome
    }

    static func run(_ settings: Settings, chainFolder: URL, profile: CertificateProfile, into outcome: inout Outcome) throws {
        let trust = try LastCertificateTrust(settings.lastCertTrust)
        let purpose = try Self.purpose(settings.keyPurpose)
        let time = try Self.time(settings.utcTime)
        var policy = ValidationPolicy()
        policy.profile = profile
        policy.algorithms = try algorithms(digestPolicy: settings.digestPolicy)
        policy.checkTLSKeyUsage = false
        if case .unsupported(let reason) = trust {
            outcome.skipped = reason
            return
        }
        guard let purpose else {
            outcome.skipped = purposeSkipReason(settings.keyPurpose)
            return
        }
        policy.purpose = purpose.purpose
        policy.extendedKeyUsageReading = purpose.reading

        let bytes = try TestData.bytes(chainFolder.appendingPathComponent(settings.chain))
        let file: PEM.CertificateFile
        do throws(PEM.CertificateFileError) {
            file = try PEM.readCertificates(bytes)
        } catch {
            throw HarnessError.malformed("\(settings.chain): \(error)")
        }
        let chain = file.certificates
        guard let target = chain.first, let last = chain.last else { throw HarnessError.malformed("\(settings.chain) holds no certificate") }
        if chain.count == 1, case .anchor = trust {
            outcome.skipped = Self.loneAnchorReason
            return
        }
        let between = Array(chain.dropFirst().dropLast())

        let store: TrustStore
        var intermediates = between
        switch trust {
        case .anchor(let enforcement):
            store = TrustStore(anchors: [last])
            policy.anchorEnforcement = enforcement
        case .entry(let kind):
            store = TrustStore([TrustEntry(last, kind: kind)])
            policy.anchorEnforcement = .nameAndKey  // Chromium's anchor-or-leaf trust checks the anchor as a name and a key.
            // A distrusted or leaf-only last certificate above the target is still part of the chain.
            if chain.count > 1 && kind != .anchorOrLeaf { intermediates.append(last) }
        case .untrusted:
            store = TrustStore([])
            if chain.count > 1 { intermediates.append(last) }
        case .unsupported:
            return
        }

        let evaluation = TrustEvaluation(leaf: target, intermediates: intermediates, trustStore: store, policy: policy, validationTime: time)
        func index(_ certificate: Certificate?) -> Int? { certificate.flatMap { chain.firstIndex(of: $0) } }
        func describePath(_ certificates: [Certificate]) -> String {
            certificates.map { certificate in index(certificate).map { "i=\($0)" } ?? "(\(certificate.subject))" }.joined(separator: " → ")
        }
        func notePath(_ certificates: [Certificate], reachesAnchor: Bool) {
            // Compare by position: the key-rollover chains hold several different certificates of one name.
            if certificates.map(index) != chain.indices.map(Optional.some) {
                outcome.pathDifference = "CertPath's \(reachesAnchor ? "path" : "best attempt") is \(describePath(certificates))"
                    + "\(reachesAnchor ? "" : ", reaching no anchor"), the chain is i=0 … i=\(chain.count - 1)"
            }
        }
        switch evaluation.evaluate() {
        case .trusted(let path):
            outcome.trusted = true
            notePath(path.chain, reachesAnchor: true)
            if outcome.expectsValid {
                let expected = Set(settings.expectedUserConstrainedPolicySet ?? [])
                let actual = Self.dotted(path.policyOutcome?.userConstrainedPolicySet)
                if expected != actual {
                    outcome.policySetMismatch = (Self.text(expected), Self.text(actual))
                }
            }
        case .untrusted(let report):
            outcome.failure = Diagnostics.describe(report.primaryFailure, in: report.bestAttempt)
            outcome.failureCertificate = index(report.primaryFailure.certificate)
            outcome.allFailures = report.failures.map { failure in
                "\(index(failure.certificate).map { "i=\($0): " } ?? "")\(failure.code): \(Diagnostics.describe(failure, in: report.bestAttempt))"
            }
            let certificates = report.bestAttempt.certificates
            if let anchor = report.bestAttempt.anchor {
                notePath(certificates.last == anchor ? certificates : certificates + [anchor], reachesAnchor: true)
            } else if !(chain.count == 1 && trust.isLeafTrust) {
                // (A lone target trusted as a leaf is validated by itself: no anchor to reach.)
                notePath(certificates, reachesAnchor: false)
            }
        }
    }

    /// A policy set as dotted OIDs (anyPolicy as `2.5.29.32.0`, as Chromium returns it; none: empty).
    static func dotted(_ set: CertificatePolicySet?) -> Set<String> {
        switch set {
        case nil: return []
        case .anyPolicy?: return [CertificatePolicySet.anyPolicyIdentifier.description]
        case .policies(let policies)?: return Set(policies.map(\.description))
        }
    }

    static func text(_ set: Set<String>) -> String { set.isEmpty ? "{}" : "{" + set.sorted().joined(separator: ", ") + "}" }

    /// Why a one-certificate chain under `TRUSTED_ANCHOR` is skipped.
    static let loneAnchorReason = "a lone target under TRUSTED_ANCHOR: CertPath, like OpenSSL, Go and SecTrust, trusts a certificate "
        + "given as an anchor as its own one-certificate path (docs/DESIGN-NOTES.md); Chromium requires TRUSTED_ANCHOR_OR_LEAF for that, "
        + "and CertPath has no trust kind that is an anchor for others but never for itself"

    /// Tests whose expectation CertPath does not share, each with the reading the standard supports.
    /// They are reported apart and do not fail ``summary()``; a listed test that starts matching fails it.
    static let disagreements: [String: String] = [
        "many-names/ok-all-types.test":
            "the intermediate's nameConstraints permits uniformResourceIdentifier subtrees `http://test/N`: RFC 5280 4.2.1.10 makes a URI "
            + "constraint a host or a domain (\"MUST be specified as a fully qualified domain name\"), so the subtree is malformed and "
            + "the extension cannot be applied (CertPath refuses; OpenSSL and Go, which compare the certificate's URI hosts with it, "
            + "refuse as well). Chromium does not implement URI name constraints and ignores them in a non-critical extension.",
    ]

    // MARK: Tests

    @Test(arguments: cases)
    func chromiumTest(_ testCase: Case) {
        let outcome = Self.run(testCase)
        if let reason = outcome.skipped {
            print("SKIPPED chromium \(testCase.name): \(reason)")
            return
        }
        #expect(outcome.harnessError == nil, "\(outcome.harnessError ?? "")")
        if let reading = Self.disagreements[testCase.name] {
            #expect(!outcome.matches, "listed as a disagreement but now matches: \(testCase.name)")
            print("chromium \(testCase.name): disagrees by design: \(reading)")
            return
        }
        #expect(outcome.matches, "\(Self.mismatchLine(outcome))")
    }

    @Test func summary() {
        guard Self.folder != nil else {
            TestData.skip("Chromium verify_certificate_chain", because: "../shared/vectors/chromium-pki/verify_certificate_chain is not present")
            return
        }
        let outcomes = Self.cases.map { Self.run($0) }
        print(Self.summaryLine(outcomes))
        for outcome in outcomes {
            if let reason = outcome.skipped { print("  skipped \(outcome.name): \(reason)") }
        }
        for outcome in outcomes where outcome.ran && !outcome.matches && Self.disagreements[outcome.name] != nil {
            print("  disagrees \(outcome.name): \(Self.disagreements[outcome.name]!)")
        }
        let mismatches = outcomes.filter { $0.ran && !$0.matches && Self.disagreements[$0.name] == nil }
        for outcome in mismatches {
            print("  MISMATCH \(Self.mismatchLine(outcome))")
            for failure in outcome.allFailures { print("    \(failure)") }
        }
        for outcome in outcomes where outcome.ran {
            if let difference = outcome.pathDifference { print("  note \(outcome.name): \(difference)") }
            // Both refuse: say when CertPath's primary failure is about another certificate than Chromium's errors.
            if !outcome.trusted && !outcome.expectsValid, let index = outcome.failureCertificate,
               !outcome.erringCertificates.contains(index) {
                print("  note \(outcome.name): Chromium: \(outcome.expectedErrors.joined(separator: "; ")); "
                    + "CertPath refuses i=\(index) instead: \(outcome.failure ?? "")")
            }
        }
        // CHROMIUM_VERBOSE=1: every test with Chromium's errors and all of CertPath's failures.
        if ProcessInfo.processInfo.environment["CHROMIUM_VERBOSE"] == "1" {
            for outcome in outcomes where outcome.ran {
                print("  \(outcome.name): Chromium \(outcome.expectsValid ? "valid" : outcome.expectedErrors.joined(separator: "; ")); "
                    + "CertPath \(outcome.trusted ? "trusted" : "refuses")")
                for failure in outcome.allFailures { print("    \(failure)") }
            }
        }
        #expect(outcomes.count == 107, "the data holds 107 tests")
        #expect(outcomes.filter(\.isFalseAccept).isEmpty, "false accepts: \(outcomes.filter(\.isFalseAccept).map(\.name))")
        #expect(mismatches.isEmpty, "\(mismatches.count) Chromium tests neither pass nor are skipped: \(mismatches.map(\.name))")
    }

    /// The default for the caller's own anchors (``CertificateProfile/automatic`` resolves to
    /// ``CertificateProfile/interoperable``) must accept what Chromium accepts: Chromium's verifier
    /// does not enforce RFC 5280 section 4's rules addressed to CAs (issue 30, class 11). Same
    /// verdicts as under ``profile`` (section 6 alone), no false accept.
    @Test("Under the interoperable default: no false accept, no mismatch")
    func underTheInteroperableDefault() {
        guard Self.folder != nil else { return }
        let outcomes = Self.cases.map { Self.run($0, profile: .interoperable) }
        print("under profile interoperable: \(Self.summaryLine(outcomes))")
        let mismatches = outcomes.filter { $0.ran && !$0.matches && Self.disagreements[$0.name] == nil }
        for outcome in mismatches { print("  MISMATCH \(Self.mismatchLine(outcome))") }
        #expect(outcomes.filter(\.isFalseAccept).isEmpty, "false accepts: \(outcomes.filter(\.isFalseAccept).map(\.name))")
        #expect(mismatches.isEmpty, "\(mismatches.count) Chromium tests refused under the default: \(mismatches.map(\.name))")
    }

    /// Runs every test under ``CertificateProfile/rfc5280`` instead of ``profile`` and prints its
    /// summary and mismatches (``summary()`` prints those of ``profile``): the evidence for the
    /// choice of profile. Fails on nothing.
    @Test func profileComparison() {
        guard Self.folder != nil else { return }
        let outcomes = Self.cases.map { Self.run($0, profile: .rfc5280) }
        print("under profile rfc5280: \(Self.summaryLine(outcomes))")
        for outcome in outcomes where outcome.ran && !outcome.matches { print("  MISMATCH \(Self.mismatchLine(outcome))") }
    }

    /// `chromium: 107 tests: 100 passed, 0 failed (0 false accepts), 1 disagreeing (listed), 6 skipped`.
    static func summaryLine(_ outcomes: [Outcome]) -> String {
        let skipped = outcomes.filter { !$0.ran }.count
        let passed = outcomes.filter(\.matches).count
        let disagreeing = outcomes.filter { $0.ran && !$0.matches && disagreements[$0.name] != nil }.count
        let failed = outcomes.count - skipped - passed - disagreeing
        let falseAccepts = outcomes.filter(\.isFalseAccept).count
        return "chromium: \(outcomes.count) tests: \(passed) passed, \(failed) failed (\(falseAccepts) false accepts), "
            + "\(disagreeing) disagreeing by design (listed), \(skipped) skipped"
    }

    /// One mismatch: the test, Chromium's expectation and CertPath's result.
    static func mismatchLine(_ outcome: Outcome) -> String {
        if let error = outcome.harnessError { return "\(outcome.name): \(error)" }
        let expected = outcome.expectsValid ? "valid" : "invalid (\(outcome.expectedErrors.joined(separator: "; ")))"
        if let mismatch = outcome.policySetMismatch {
            return "\(outcome.name): valid as expected, but the user-constrained policy set is \(mismatch.actual), expected \(mismatch.expected)"
        }
        let actual = outcome.trusted ? "CertPath trusts it"
            : "CertPath refuses it: \(outcome.failureCertificate.map { "i=\($0): " } ?? "")\(outcome.failure ?? "")"
        return "\(outcome.name): expected \(expected); \(actual)"
    }
}
