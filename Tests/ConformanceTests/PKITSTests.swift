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
