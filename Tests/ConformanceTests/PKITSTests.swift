import Foundation
import Testing
import CertPath

/// NIST PKITS through `../shared/vectors/pkits.json` and the certificates of `cryptography-vectors`:
/// one test case per run, named by its PKITS number and title, with its initial inputs; the expected
/// result and, where PKITS gives them, the expected policy sets are asserted.
///
/// Every run gets the CRLs its test lists (the manifest's `crls`) and checks revocation with
/// ``UndeterminedRevocationStatus/reject`` ("hard fail"): PKITS supplies a CRL for every CA of every
/// path and expects a certificate without a usable CRL to be invalid (4.4.1 Missing CRL, 4.4.11 stale
/// CRL, 4.7.4 CRL signer without cRLSign, 4.14.x out-of-scope CRLs, 4.15.1 delta CRL without base).
/// Under the library's default (reject only when CRLs were given for the issuer) 4.4.1 would pass,
/// since no CRL of its CA is supplied.
@Suite struct PKITSTests {
    struct Manifest: Decodable {
        let policy_oids: [String: String]
        let tests: [Test]
    }

    struct Test: Decodable {
        let id: String
        let name: String
        let path: [String]
        let additional_certs: [String]
        let crls: [String]
        let openssl_verify_errors: [String]?
        let revocation: Revocation
        let runs: [Run]
    }

    struct Revocation: Decodable { let expected_result_depends_on_revocation: Bool }

    struct Run: Decodable {
        struct Settings: Decodable {
            let user_initial_policy_set: [String]
            let initial_explicit_policy: Bool
            let initial_policy_mapping_inhibit: Bool
            let initial_any_policy_inhibit: Bool
        }
        let subtest: Int?
        let settings: Settings
        let expected: String
        let expected_authorities_constrained_policy_set: [String]?
        let expected_user_constrained_policy_set: [String]?
    }

    /// One PKITS run, named `4.8.1 All Certificates Same Policy Test1 (run 2)`.
    struct Case: CustomTestStringConvertible, Sendable {
        let test: Test
        let run: Run
        let policyOIDs: [String: String]
        var testDescription: String { "\(test.id) \(test.name)\(run.subtest.map { " (run \($0))" } ?? "")" }
    }

    static let manifest: Manifest? = {
        guard let shared = TestData.sharedVectors,
              let data = try? Data(contentsOf: shared.appendingPathComponent("pkits.json")) else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }()

    static let cases: [Case] = (manifest?.tests ?? []).flatMap { test in
        test.runs.map { Case(test: test, run: $0, policyOIDs: manifest!.policy_oids) }
    }

    static let certificatesRoot: URL? = TestData.cryptographyVectors?.appendingPathComponent("x509/PKITS_data")

    /// PKITS certificates are valid from 2010 through 2030 (see the manifest's validity hints).
    static let validationTime = UnixTime(year: 2020, month: 1, day: 1)!

    @Test func dataIsPresent() {
        if Self.manifest == nil { TestData.skip("PKITS", because: "../shared/vectors/pkits.json is not present") }
        if Self.certificatesRoot == nil { TestData.skip("PKITS", because: "cryptography-vectors is not installed") }
        if Self.manifest != nil { #expect(Self.cases.count == 247) }
    }

    @Test(arguments: cases)
    func pkitsRun(_ testCase: Case) throws {
        guard let root = Self.certificatesRoot else { return }
        func load(_ file: String) throws -> Certificate {
            try Certificate(derEncoded: TestData.bytes(root.appendingPathComponent(file)))
        }
        let test = testCase.test
        let anchor = try load(test.path[0])
        let leaf = try load(test.path[test.path.count - 1])
        let intermediates = try (test.path.dropFirst().dropLast() + test.additional_certs).map(load)
        let settings = testCase.run.settings
        func oid(_ name: String) -> OID { OID(dotted: testCase.policyOIDs[name]!)! }
        let inputs = PolicyValidationInputs(
            userInitialPolicySet: Set(settings.user_initial_policy_set.map(oid)),
            initialPolicyMappingInhibit: settings.initial_policy_mapping_inhibit,
            initialExplicitPolicy: settings.initial_explicit_policy,
            initialAnyPolicyInhibit: settings.initial_any_policy_inhibit)
        // PKITS tests RFC 5280's section 6 algorithm (its certificates follow RFC 3280's section 4:
        // a non-critical policyConstraints, 4.8-4.12; a non-critical basicConstraints, 4.6.4).
        var policy = ValidationPolicy.pathValidation(inputs)
        let evidence = RevocationEvidence(crls: CRLStore(try test.crls.map {
            try CertificateRevocationList(derEncoded: TestData.bytes(root.appendingPathComponent($0)))
        }))
        policy.undeterminedRevocationStatus = .reject
        let evaluation = TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: TrustStore(anchors: [anchor]),
                                         policy: policy, revocationEvidence: evidence, validationTime: Self.validationTime)
        let result = evaluation.evaluate()
        switch (testCase.run.expected, result) {
        case ("valid", .trusted(let path)):
            if let expected = testCase.run.expected_authorities_constrained_policy_set {
                #expect(Self.names(path.policyOutcome?.authoritiesConstrainedPolicySet, testCase.policyOIDs) == Set(expected))
            }
            if let expected = testCase.run.expected_user_constrained_policy_set {
                #expect(Self.names(path.policyOutcome?.userConstrainedPolicySet, testCase.policyOIDs) == Set(expected))
            }
        case ("invalid", .untrusted(let report)):
            // The failure PKITS's description (section 4) gives the run, not only "untrusted".
            let expected = Self.expectedFailure(test)
            #expect(expected.codes.contains(report.primaryFailure.code),
                    "PKITS \(test.id): \(expected.reason); got \(Diagnostics.describe(report.primaryFailure))")
            // A run invalid because of revocation must fail for that reason: revoked where OpenSSL reports
            // X509_V_ERR_CERT_REVOKED, an undetermined status (no usable CRL) otherwise.
            if test.revocation.expected_result_depends_on_revocation {
                let expected = test.openssl_verify_errors == ["X509_V_ERR_CERT_REVOKED"] ? "revoked" : "revocationUnknown"
                #expect(report.primaryFailure.code == expected, "\(Diagnostics.describe(report.primaryFailure))")
            }
        case (_, .trusted):
            Issue.record("expected invalid, CertPath trusts it")
        case (_, .untrusted(let report)):
            Issue.record("expected valid, untrusted: \(Diagnostics.describe(report.primaryFailure)); all: \(report.failures.map(Diagnostics.describe))")
        }
    }

    /// The failure class of an invalid PKITS run (``ValidationFailure/code``), from the PKITS
    /// description (NIST, "Public Key Interoperability Test Suite", section 4): each section tests one
    /// step of RFC 5280 6.1 and says why its invalid paths must be rejected. Runs of a section fail
    /// for the section's reason unless a test's own text says otherwise (the entries by test number).
    static func expectedFailure(_ test: Test) -> (codes: Set<String>, reason: String) {
        if let byTest = failureByTest[test.id] { return byTest }
        let section = test.id.split(separator: ".").prefix(2).joined(separator: ".")
        guard let bySection = failureBySection[section] else {
            return ([], "no expected failure class written down for PKITS section \(section)")
        }
        return bySection
    }

    static let failureBySection: [String: (codes: Set<String>, reason: String)] = [
        // 4.1 Signature Verification: "the signature ... cannot be verified" (RFC 5280 6.1.3 (a)(1)).
        "4.1": (["badSignature"], "4.1: a signature on the path does not verify (6.1.3 (a)(1))"),
        // 4.3 Verifying Name Chaining: an issuer name that matches no subject (6.1.3 (a)(4)): no path.
        "4.3": (["issuerNotFound"], "4.3: the end entity's issuer name matches no certificate's subject (6.1.3 (a)(4))"),
        // 4.4, 4.5, 4.14, 4.15: revocation (6.1.3 (a)(3)): revoked, or no usable CRL ("hard fail", above).
        "4.4": (["revoked", "revocationUnknown"], "4.4: revoked, or its status cannot be determined (6.1.3 (a)(3))"),
        "4.5": (["revoked", "revocationUnknown"], "4.5: revoked, or its status cannot be determined (6.1.3 (a)(3))"),
        "4.14": (["revoked", "revocationUnknown"], "4.14: revoked, or no CRL whose scope covers it (6.1.3 (a)(3), 6.3.3)"),
        "4.15": (["revoked", "revocationUnknown"], "4.15: revoked per the delta CRL, or no usable complete CRL (6.3.3)"),
        // 4.6 Verifying Basic Constraints: an intermediate that is not a CA (6.1.4 (k)), or
        // pathLenConstraint exceeded (6.1.4 (l), (m)).
        "4.6": (["pathLengthExceeded"], "4.6: pathLenConstraint exceeded (6.1.4 (l), (m))"),
        // 4.7 Key Usage: keyCertSign false in an intermediate (6.1.4 (n)); cRLSign false in the CRL
        // issuer, so no usable CRL (6.3.3 (f)) — the entries below.
        "4.7": (["keyUsageForbids"], "4.7: keyCertSign is not set in an intermediate's keyUsage (6.1.4 (n))"),
        // 4.8-4.12: the valid_policy_tree is NULL where explicit policy is required (6.1.5 (g)(iii)).
        "4.8": (["policyRequired"], "4.8: no valid policy where one is required (6.1.5 (g)(iii))"),
        "4.9": (["policyRequired"], "4.9: requireExplicitPolicy and no valid policy (6.1.5 (g)(iii))"),
        "4.10": (["policyRequired"], "4.10: the mapped policies leave no valid policy where one is required (6.1.5 (g)(iii))"),
        "4.11": (["policyRequired"], "4.11: inhibitPolicyMapping leaves no valid policy (6.1.4 (b)(2), 6.1.5 (g)(iii))"),
        "4.12": (["policyRequired"], "4.12: inhibitAnyPolicy leaves no valid policy (6.1.3 (d)(2), 6.1.5 (g)(iii))"),
        // 4.13 Name Constraints: a name outside permittedSubtrees or within excludedSubtrees (6.1.3 (b), (c)).
        "4.13": (["nameConstraintViolation"], "4.13: a name violates the name constraints (6.1.3 (b), (c))"),
        // 4.16 Private Certificate Extensions: an unrecognized critical extension (6.1.4 (o), 6.1.5 (f)).
        "4.16": (["unknownCriticalExtension"], "4.16: an unrecognized critical extension (6.1.5 (f))"),
    ]

    static let failureByTest: [String: (codes: Set<String>, reason: String)] = [
        // 4.2 Validity Periods: "the notBefore date ... is after the current date" / "the notAfter
        // date ... is before the current date" (6.1.3 (a)(2)).
        "4.2.1": (["notYetValid"], "4.2.1: the intermediate's notBefore is in the future (6.1.3 (a)(2))"),
        "4.2.2": (["notYetValid"], "4.2.2: the end entity's notBefore is in the future (6.1.3 (a)(2))"),
        "4.2.5": (["expired"], "4.2.5: the intermediate's notAfter is in the past (6.1.3 (a)(2))"),
        "4.2.6": (["expired"], "4.2.6: the end entity's notAfter is in the past (6.1.3 (a)(2))"),
        "4.2.7": (["expired"], "4.2.7: the end entity's notAfter (UTCTime 50, 1950) is in the past (6.1.3 (a)(2), 4.1.2.5.1)"),
        // 4.5.8: the end entity is signed with the self-issued certificate's CRL-signing key, whose
        // keyUsage lacks keyCertSign (6.1.4 (n)).
        "4.5.8": (["keyUsageForbids"], "4.5.8: the end entity's issuer may sign CRLs only: keyCertSign is not set (6.1.4 (n))"),
        // 4.10.7, 4.10.8: policyMappings maps from or to anyPolicy, which 6.1.4 (a) forbids; CertPath
        // fails the policy processing of such a path.
        "4.10.7": (["policyRequired"], "4.10.7: a policyMappings maps from anyPolicy (6.1.4 (a))"),
        "4.10.8": (["policyRequired"], "4.10.8: a policyMappings maps to anyPolicy (6.1.4 (a))"),
        // 4.6.1-4.6.3: an intermediate without basicConstraints or with cA false (6.1.4 (k)).
        "4.6.1": (["notACertificateAuthority"], "4.6.1: the intermediate has no basicConstraints (6.1.4 (k))"),
        "4.6.2": (["notACertificateAuthority"], "4.6.2: the intermediate's cA is false (6.1.4 (k))"),
        "4.6.3": (["notACertificateAuthority"], "4.6.3: the intermediate's cA is false (6.1.4 (k))"),
        // 4.7.4, 4.7.5: the CA's CRL is signed with a key whose keyUsage lacks cRLSign: no usable CRL.
        "4.7.4": (["revocationUnknown"], "4.7.4: the CRL issuer's keyUsage lacks cRLSign, so no usable CRL (6.3.3 (f))"),
        "4.7.5": (["revocationUnknown"], "4.7.5: the CRL issuer's keyUsage lacks cRLSign, so no usable CRL (6.3.3 (f))"),
    ]

    static func names(_ set: CertificatePolicySet?, _ oids: [String: String]) -> Set<String> {
        guard let set else { return ["<none>"] }
        switch set {
        case .anyPolicy: return ["anyPolicy"]
        case .policies(let policies):
            let byOID = Dictionary(uniqueKeysWithValues: oids.map { ($0.value, $0.key) })
            return Set(policies.map { byOID[$0.description] ?? $0.description })
        }
    }
}
