// Tests of the certificate-policy state machine (RFC 5280 6.1 with the RFC 9618 valid_policy_graph).
//
// The PKITS scenarios of sections 4.8-4.12 are replayed with hand-written facts: the policy
// extensions of each PKITS certificate, transcribed from the certificate files (openssl x509 -text)
// of the cryptography-vectors package. A separate test checks this table's inputs and expectations
// against ../shared/vectors/pkits.json when that manifest is present.

import CertPath
import Foundation
import Testing

// MARK: - Policy identifiers

private let anyPolicy: OID = "2.5.29.32.0"
private let P1: OID = "2.16.840.1.101.3.2.1.48.1"
private let P2: OID = "2.16.840.1.101.3.2.1.48.2"
private let P3: OID = "2.16.840.1.101.3.2.1.48.3"
private let P4: OID = "2.16.840.1.101.3.2.1.48.4"
private let P5: OID = "2.16.840.1.101.3.2.1.48.5"
private let P6: OID = "2.16.840.1.101.3.2.1.48.6"
private let P7: OID = "2.16.840.1.101.3.2.1.48.7"
private let P8: OID = "2.16.840.1.101.3.2.1.48.8"

// MARK: - Helpers

/// The policy facts of one certificate: `policies` (nil = no certificatePolicies extension),
/// `maps` issuerDomainPolicy -> subjectDomainPolicy, and the SkipCerts of requireExplicitPolicy (`rep`),
/// inhibitPolicyMapping (`ipm`) and inhibitAnyPolicy (`iap`).
private func cert(_ policies: [OID]?, maps: [(OID, OID)]? = nil, rep: UInt64? = nil, ipm: UInt64? = nil,
                  iap: UInt64? = nil, selfIssued: Bool = false) -> CertificatePolicyFacts {
    CertificatePolicyFacts(
        policies: policies,
        policyMappings: maps.map { $0.map { .init(issuerDomainPolicy: $0.0, subjectDomainPolicy: $0.1) } },
        requireExplicitPolicy: rep, inhibitPolicyMapping: ipm, inhibitAnyPolicy: iap, isSelfIssued: selfIssued)
}

private func inputs(_ userInitialPolicySet: Set<OID> = [anyPolicy], explicit: Bool = false,
                    mappingInhibit: Bool = false, anyInhibit: Bool = false) -> PolicyValidationInputs {
    PolicyValidationInputs(userInitialPolicySet: userInitialPolicySet, initialPolicyMappingInhibit: mappingInhibit,
                           initialExplicitPolicy: explicit, initialAnyPolicyInhibit: anyInhibit)
}

private func set(_ policies: OID...) -> CertificatePolicySet { .policies(Set(policies)) }

/// Runs the processor step by step (as the path validator will), returning the outcome or failure.
private func runPath(_ path: [CertificatePolicyFacts], _ inputs: PolicyValidationInputs = PolicyValidationInputs(),
                 limits: PolicyGraphLimits = .default) -> Result<PolicyOutcome, PolicyFailure> {
    var processor = PolicyProcessor(pathLength: path.count, inputs: inputs, limits: limits)
    do throws(PolicyFailure) {
        for (offset, facts) in path.enumerated() {
            try processor.processCertificate(facts, index: offset + 1)
            if offset + 1 < path.count { try processor.prepareForNextCertificate(facts) }
        }
        return .success(try processor.wrapUp(path[path.count - 1]))
    } catch {
        return .failure(error)
    }
}

private func outcome(_ result: Result<PolicyOutcome, PolicyFailure>) -> PolicyOutcome? {
    if case .success(let value) = result { return value }
    return nil
}

// MARK: - PKITS certificates (policy extensions only)

/// The policy-related extensions of the PKITS certificates used by sections 4.8-4.12, named after
/// their files (`certs/<Name>.crt`). The trust anchor contributes nothing (the path excludes it).
private enum PKITS {
    static let GoodCACert = cert([P1])
    static let GoodsubCACert = cert([P1], rep: 0)
    static let ValidCertificatePathTest1EE = cert([P1])
    static let NoPoliciesCACert = cert(nil)
    static let AllCertificatesNoPoliciesTest2EE = cert(nil)
    static let PoliciesP2subCACert = cert([P2])
    static let DifferentPoliciesTest3EE = cert([P2])
    static let DifferentPoliciesTest4EE = cert([P2])
    static let PoliciesP2subCA2Cert = cert([P2], rep: 0)
    static let DifferentPoliciesTest5EE = cert([P1])
    static let PoliciesP1234CACert = cert([P1, P2, P3, P4], rep: 0)
    static let PoliciesP1234subCAP123Cert = cert([P1, P2, P3])
    static let PoliciesP1234subsubCAP123P12Cert = cert([P1, P2])
    static let OverlappingPoliciesTest6EE = cert([P1])
    static let PoliciesP123CACert = cert([P1, P2, P3], rep: 0)
    static let PoliciesP123subCAP12Cert = cert([P1, P2])
    static let PoliciesP123subsubCAP12P1Cert = cert([P1])
    static let DifferentPoliciesTest7EE = cert([P2])
    static let PoliciesP12CACert = cert([P1, P2], rep: 0)
    static let PoliciesP12subCAP1Cert = cert([P1])
    static let PoliciesP12subsubCAP1P2Cert = cert([P2])
    static let DifferentPoliciesTest8EE = cert([P2])
    static let PoliciesP123subsubCAP12P2Cert = cert([P2])
    static let PoliciesP123subsubsubCAP12P2P1Cert = cert([P1])
    static let DifferentPoliciesTest9EE = cert([P1])
    static let AllCertificatesSamePoliciesTest10EE = cert([P1, P2])
    static let anyPolicyCACert = cert([anyPolicy], rep: 0)
    static let AllCertificatesanyPolicyTest11EE = cert([anyPolicy])
    static let PoliciesP3CACert = cert([P3], rep: 0)
    static let DifferentPoliciesTest12EE = cert([P4])
    static let AllCertificatesSamePoliciesTest13EE = cert([P1, P2, P3])
    static let AnyPolicyTest14EE = cert([P1])
    static let UserNoticeQualifierTest15EE = cert([P1])
    static let UserNoticeQualifierTest16EE = cert([P1, P2])
    static let UserNoticeQualifierTest17EE = cert([anyPolicy])
    static let UserNoticeQualifierTest18EE = cert([P1, anyPolicy])
    static let UserNoticeQualifierTest19EE = cert([P1])
    static let CPSPointerQualifierTest20EE = cert([P1])

    static func requireExplicitPolicyChain(_ skipCerts: UInt64) -> [CertificatePolicyFacts] {
        [cert([P1], rep: skipCerts), cert([P1]), cert([P1]), cert([P1])]
    }
    static let requireExplicitPolicyEEWithoutPolicies = cert(nil)
    static let ValidrequireExplicitPolicyTest4EE = cert([P1])
    static let requireExplicitPolicy7CACert = cert([P1], rep: 7)
    static let requireExplicitPolicy7subCARE2Cert = cert([P1], rep: 2)
    static let requireExplicitPolicy7subsubCARE2RE4Cert = cert([P1], rep: 4)
    static let requireExplicitPolicy7subsubsubCARE2RE4Cert = cert([P1])
    static let requireExplicitPolicy2CACert = cert([P1], rep: 2)
    static let requireExplicitPolicy2SelfIssuedCACert = cert([P1], selfIssued: true)
    static let requireExplicitPolicy2subCACert = cert([P1])
    static let requireExplicitPolicy2SelfIssuedsubCACert = cert([P1], selfIssued: true)

    static let Mapping1to2CACert = cert([P1], maps: [(P1, P2)], rep: 0)
    static let ValidPolicyMappingTest1EE = cert([P2])
    static let InvalidPolicyMappingTest2EE = cert([P1])
    static let P12Mapping1to3CACert = cert([P1, P2], maps: [(P1, P3)], rep: 0)
    static let P12Mapping1to3subCACert = cert([P2, P5], maps: [(P2, P4), (P5, P7)])
    static let P12Mapping1to3subsubCACert = cert([P3, P4], maps: [(P4, P8)])
    static let ValidPolicyMappingTest3EE = cert([P8])
    static let InvalidPolicyMappingTest4EE = cert([P3])
    static let P1Mapping1to234CACert = cert([P1], maps: [(P1, P2), (P1, P3), (P1, P4)], rep: 0)
    static let P1Mapping1to234subCACert = cert([P2, P4], maps: [(P2, P5), (P4, P6)])
    static let ValidPolicyMappingTest5EE = cert([P6])
    static let ValidPolicyMappingTest6EE = cert([P5])
    static let MappingFromanyPolicyCACert = cert([anyPolicy], maps: [(anyPolicy, P1)], rep: 0)
    static let InvalidMappingFromanyPolicyTest7EE = cert([P1])
    static let MappingToanyPolicyCACert = cert([P1], maps: [(P1, anyPolicy)], rep: 0)
    static let InvalidMappingToanyPolicyTest8EE = cert([anyPolicy])
    static let PanyPolicyMapping1to2CACert = cert([anyPolicy], maps: [(P1, P2)], rep: 0)
    static let ValidPolicyMappingTest9EE = cert([P1])
    static let GoodsubCAPanyPolicyMapping1to2CACert = cert([anyPolicy], maps: [(P1, P2)], rep: 0)
    static let InvalidPolicyMappingTest10EE = cert([P1])
    static let ValidPolicyMappingTest11EE = cert([P2])
    static let ValidPolicyMappingTest12EE = cert([P3, anyPolicy])
    static let P1anyPolicyMapping1to2CACert = cert([P1, anyPolicy], maps: [(P1, P2)], rep: 0)
    static let ValidPolicyMappingTest13EE = cert([P2])
    static let ValidPolicyMappingTest14EE = cert([P1])

    static let inhibitPolicyMapping0CACert = cert([P1], rep: 0, ipm: 0)
    static let inhibitPolicyMapping0subCACert = cert([P1], maps: [(P1, P2)])
    static let InvalidinhibitPolicyMappingTest1EE = cert([P1, P2])
    static let inhibitPolicyMapping1P12CACert = cert([P1, P2], rep: 0, ipm: 1)
    static let inhibitPolicyMapping1P12subCACert = cert([P1, P2], maps: [(P1, P3), (P2, P4)])
    static let ValidinhibitPolicyMappingTest2EE = cert([P3])
    static let inhibitPolicyMapping1P12subsubCACert = cert([P3, P4], maps: [(P3, P5)])
    static let InvalidinhibitPolicyMappingTest3EE = cert([P5])
    static let ValidinhibitPolicyMappingTest4EE = cert([P4])
    static let inhibitPolicyMapping5CACert = cert([P1], rep: 0, ipm: 5)
    static let inhibitPolicyMapping5subCACert = cert([P1], ipm: 1)
    static let inhibitPolicyMapping5subsubCACert = cert([P1])
    static let inhibitPolicyMapping5subsubsubCACert = cert([P1], maps: [(P1, P2)])
    static let InvalidinhibitPolicyMappingTest5EE = cert([P2])
    static let inhibitPolicyMapping1P12subCAIPM5Cert = cert([P1, P2], ipm: 5)
    static let inhibitPolicyMapping1P12subsubCAIPM5Cert = cert([P1, P2], maps: [(P1, P3)])
    static let InvalidinhibitPolicyMappingTest6EE = cert([P3])
    static let inhibitPolicyMapping1P1CACert = cert([P1], rep: 0, ipm: 1)
    static let inhibitPolicyMapping1P1SelfIssuedCACert = cert([P1], selfIssued: true)
    static let inhibitPolicyMapping1P1subCACert = cert([P1], maps: [(P1, P2)])
    static let ValidSelfIssuedinhibitPolicyMappingTest7EE = cert([P2])
    static let inhibitPolicyMapping1P1subsubCACert = cert([P2], maps: [(P2, P3)])
    static let InvalidSelfIssuedinhibitPolicyMappingTest8EE = cert([P3])
    static let InvalidSelfIssuedinhibitPolicyMappingTest9EE = cert([P2])
    static let inhibitPolicyMapping1P1SelfIssuedsubCACert = cert([P2], maps: [(P2, P3)], selfIssued: true)
    static let InvalidSelfIssuedinhibitPolicyMappingTest10EE = cert([P3])
    static let InvalidSelfIssuedinhibitPolicyMappingTest11EE = cert([P2])

    static let inhibitAnyPolicy0CACert = cert([P1], rep: 0, iap: 0)
    static let InvalidinhibitAnyPolicyTest1EE = cert([anyPolicy])
    static let ValidinhibitAnyPolicyTest2EE = cert([anyPolicy, P1])
    static let inhibitAnyPolicy1CACert = cert([P1], rep: 0, iap: 1)
    static let inhibitAnyPolicy1subCA1Cert = cert([anyPolicy])
    static let inhibitAnyPolicyTest3EE = cert([P1])
    static let InvalidinhibitAnyPolicyTest4EE = cert([anyPolicy])
    static let inhibitAnyPolicy5CACert = cert([P1], rep: 0, iap: 5)
    static let inhibitAnyPolicy5subCACert = cert([P1], iap: 1)
    static let inhibitAnyPolicy5subsubCACert = cert([P1])
    static let InvalidinhibitAnyPolicyTest5EE = cert([anyPolicy])
    static let inhibitAnyPolicy1subCAIAP5Cert = cert([P1], iap: 5)
    static let InvalidinhibitAnyPolicyTest6EE = cert([anyPolicy])
    static let inhibitAnyPolicy1SelfIssuedCACert = cert([P1], selfIssued: true)
    static let inhibitAnyPolicy1subCA2Cert = cert([anyPolicy])
    static let ValidSelfIssuedinhibitAnyPolicyTest7EE = cert([P1])
    static let inhibitAnyPolicy1subsubCA2Cert = cert([anyPolicy])
    static let InvalidSelfIssuedinhibitAnyPolicyTest8EE = cert([P1])
    static let inhibitAnyPolicy1SelfIssuedsubCA2Cert = cert([anyPolicy], selfIssued: true)
    static let ValidSelfIssuedinhibitAnyPolicyTest9EE = cert([P1])
    static let InvalidSelfIssuedinhibitAnyPolicyTest10EE = cert([anyPolicy], selfIssued: true)
}

// MARK: - PKITS scenarios

/// What a PKITS run must produce: success with the (authorities-, user-) constrained policy sets, or
/// the exact failure.
enum PolicyExpectation: Sendable {
    case valid(authorities: CertificatePolicySet, user: CertificatePolicySet)
    case invalid(PolicyFailure)
}

/// One run of a PKITS test: the path (trust anchor excluded), the inputs and the expected result.
struct PKITSPolicyRun: Sendable, CustomTestStringConvertible {
    let id: String
    let subtest: Int?
    let path: [CertificatePolicyFacts]
    let inputs: PolicyValidationInputs
    let expected: PolicyExpectation

    var testDescription: String { subtest.map { "\(id) run \($0)" } ?? id }
}

/// A PKITS test with one run under the default settings.
private func pkits(_ id: String, _ path: [CertificatePolicyFacts], _ expected: PolicyExpectation) -> PKITSPolicyRun {
    PKITSPolicyRun(id: id, subtest: nil, path: path, inputs: PolicyValidationInputs(), expected: expected)
}

/// Subtest `subtest` of a PKITS test run under several settings.
private func pkits(_ id: String, _ subtest: Int, _ path: [CertificatePolicyFacts], _ inputs: PolicyValidationInputs,
                   _ expected: PolicyExpectation) -> PKITSPolicyRun {
    PKITSPolicyRun(id: id, subtest: subtest, path: path, inputs: inputs, expected: expected)
}

private typealias C = PKITS

/// Every run of PKITS sections 4.8 to 4.12 (86 runs of 63 tests).
let pkitsPolicyRuns: [PKITSPolicyRun] = {
    let p1 = set(P1)
    let none = CertificatePolicySet.empty
    return [
        // 4.8 Certificate Policies
        pkits("4.8.1", 1, [C.GoodCACert, C.ValidCertificatePathTest1EE], inputs([anyPolicy], explicit: true),
              .valid(authorities: p1, user: p1)),
        pkits("4.8.1", 2, [C.GoodCACert, C.ValidCertificatePathTest1EE], inputs([P1], explicit: true),
              .valid(authorities: p1, user: p1)),
        pkits("4.8.1", 3, [C.GoodCACert, C.ValidCertificatePathTest1EE], inputs([P2], explicit: true),
              .invalid(.noAcceptablePolicy(authoritiesConstrainedPolicySet: p1))),
        pkits("4.8.1", 4, [C.GoodCACert, C.ValidCertificatePathTest1EE], inputs([P1, P2], explicit: true),
              .valid(authorities: p1, user: p1)),
        pkits("4.8.2", 1, [C.NoPoliciesCACert, C.AllCertificatesNoPoliciesTest2EE], inputs(),
              .valid(authorities: none, user: none)),
        pkits("4.8.2", 2, [C.NoPoliciesCACert, C.AllCertificatesNoPoliciesTest2EE], inputs(explicit: true),
              .invalid(.explicitPolicyRequired(certificateIndex: 1))),
        pkits("4.8.3", 1, [C.GoodCACert, C.PoliciesP2subCACert, C.DifferentPoliciesTest3EE], inputs(),
              .valid(authorities: none, user: none)),
        pkits("4.8.3", 2, [C.GoodCACert, C.PoliciesP2subCACert, C.DifferentPoliciesTest3EE], inputs(explicit: true),
              .invalid(.explicitPolicyRequired(certificateIndex: 2))),
        pkits("4.8.3", 3, [C.GoodCACert, C.PoliciesP2subCACert, C.DifferentPoliciesTest3EE],
              inputs([P1, P2], explicit: true), .invalid(.explicitPolicyRequired(certificateIndex: 2))),
        pkits("4.8.4", [C.GoodCACert, C.GoodsubCACert, C.DifferentPoliciesTest4EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 3))),
        pkits("4.8.5", [C.GoodCACert, C.PoliciesP2subCA2Cert, C.DifferentPoliciesTest5EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 3))),
        pkits("4.8.6", 1, [C.PoliciesP1234CACert, C.PoliciesP1234subCAP123Cert, C.PoliciesP1234subsubCAP123P12Cert,
                           C.OverlappingPoliciesTest6EE], inputs(), .valid(authorities: p1, user: p1)),
        pkits("4.8.6", 2, [C.PoliciesP1234CACert, C.PoliciesP1234subCAP123Cert, C.PoliciesP1234subsubCAP123P12Cert,
                           C.OverlappingPoliciesTest6EE], inputs([P1]), .valid(authorities: p1, user: p1)),
        pkits("4.8.6", 3, [C.PoliciesP1234CACert, C.PoliciesP1234subCAP123Cert, C.PoliciesP1234subsubCAP123P12Cert,
                           C.OverlappingPoliciesTest6EE], inputs([P2]),
              .invalid(.noAcceptablePolicy(authoritiesConstrainedPolicySet: p1))),
        pkits("4.8.7", [C.PoliciesP123CACert, C.PoliciesP123subCAP12Cert, C.PoliciesP123subsubCAP12P1Cert,
                        C.DifferentPoliciesTest7EE], .invalid(.explicitPolicyRequired(certificateIndex: 4))),
        pkits("4.8.8", [C.PoliciesP12CACert, C.PoliciesP12subCAP1Cert, C.PoliciesP12subsubCAP1P2Cert,
                        C.DifferentPoliciesTest8EE], .invalid(.explicitPolicyRequired(certificateIndex: 3))),
        pkits("4.8.9", [C.PoliciesP123CACert, C.PoliciesP123subCAP12Cert, C.PoliciesP123subsubCAP12P2Cert,
                        C.PoliciesP123subsubsubCAP12P2P1Cert, C.DifferentPoliciesTest9EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 4))),
        pkits("4.8.10", 1, [C.PoliciesP12CACert, C.AllCertificatesSamePoliciesTest10EE], inputs(),
              .valid(authorities: set(P1, P2), user: set(P1, P2))),
        pkits("4.8.10", 2, [C.PoliciesP12CACert, C.AllCertificatesSamePoliciesTest10EE], inputs([P1]),
              .valid(authorities: set(P1, P2), user: p1)),
        pkits("4.8.10", 3, [C.PoliciesP12CACert, C.AllCertificatesSamePoliciesTest10EE], inputs([P2]),
              .valid(authorities: set(P1, P2), user: set(P2))),
        pkits("4.8.11", 1, [C.anyPolicyCACert, C.AllCertificatesanyPolicyTest11EE], inputs(),
              .valid(authorities: .anyPolicy, user: .anyPolicy)),
        pkits("4.8.11", 2, [C.anyPolicyCACert, C.AllCertificatesanyPolicyTest11EE], inputs([P1]),
              .valid(authorities: .anyPolicy, user: p1)),
        pkits("4.8.12", [C.PoliciesP3CACert, C.DifferentPoliciesTest12EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 2))),
        pkits("4.8.13", 1, [C.PoliciesP123CACert, C.AllCertificatesSamePoliciesTest13EE], inputs([P1]),
              .valid(authorities: set(P1, P2, P3), user: p1)),
        pkits("4.8.13", 2, [C.PoliciesP123CACert, C.AllCertificatesSamePoliciesTest13EE], inputs([P2]),
              .valid(authorities: set(P1, P2, P3), user: set(P2))),
        pkits("4.8.13", 3, [C.PoliciesP123CACert, C.AllCertificatesSamePoliciesTest13EE], inputs([P3]),
              .valid(authorities: set(P1, P2, P3), user: set(P3))),
        pkits("4.8.14", 1, [C.anyPolicyCACert, C.AnyPolicyTest14EE], inputs([P1]), .valid(authorities: p1, user: p1)),
        pkits("4.8.14", 2, [C.anyPolicyCACert, C.AnyPolicyTest14EE], inputs([P2]),
              .invalid(.noAcceptablePolicy(authoritiesConstrainedPolicySet: p1))),
        pkits("4.8.15", [C.UserNoticeQualifierTest15EE], .valid(authorities: p1, user: p1)),
        pkits("4.8.16", [C.GoodCACert, C.UserNoticeQualifierTest16EE], .valid(authorities: p1, user: p1)),
        pkits("4.8.17", [C.GoodCACert, C.UserNoticeQualifierTest17EE], .valid(authorities: p1, user: p1)),
        pkits("4.8.18", 1, [C.PoliciesP12CACert, C.UserNoticeQualifierTest18EE], inputs([P1]),
              .valid(authorities: set(P1, P2), user: p1)),
        pkits("4.8.18", 2, [C.PoliciesP12CACert, C.UserNoticeQualifierTest18EE], inputs([P2]),
              .valid(authorities: set(P1, P2), user: set(P2))),
        pkits("4.8.19", [C.UserNoticeQualifierTest19EE], .valid(authorities: p1, user: p1)),
        pkits("4.8.20", [C.GoodCACert, C.CPSPointerQualifierTest20EE], .valid(authorities: p1, user: p1)),

        // 4.9 Require Explicit Policy
        pkits("4.9.1", C.requireExplicitPolicyChain(10) + [C.requireExplicitPolicyEEWithoutPolicies],
              .valid(authorities: none, user: none)),
        pkits("4.9.2", C.requireExplicitPolicyChain(5) + [C.requireExplicitPolicyEEWithoutPolicies],
              .valid(authorities: none, user: none)),
        pkits("4.9.3", C.requireExplicitPolicyChain(4) + [C.requireExplicitPolicyEEWithoutPolicies],
              .invalid(.noAcceptablePolicy(authoritiesConstrainedPolicySet: none))),
        pkits("4.9.4", C.requireExplicitPolicyChain(0) + [C.ValidrequireExplicitPolicyTest4EE],
              .valid(authorities: p1, user: p1)),
        pkits("4.9.5", [C.requireExplicitPolicy7CACert, C.requireExplicitPolicy7subCARE2Cert,
                        C.requireExplicitPolicy7subsubCARE2RE4Cert, C.requireExplicitPolicy7subsubsubCARE2RE4Cert,
                        C.requireExplicitPolicyEEWithoutPolicies],
              .invalid(.explicitPolicyRequired(certificateIndex: 5))),
        pkits("4.9.6", [C.requireExplicitPolicy2CACert, C.requireExplicitPolicy2SelfIssuedCACert,
                        C.requireExplicitPolicyEEWithoutPolicies], .valid(authorities: none, user: none)),
        pkits("4.9.7", [C.requireExplicitPolicy2CACert, C.requireExplicitPolicy2SelfIssuedCACert,
                        C.requireExplicitPolicy2subCACert, C.requireExplicitPolicyEEWithoutPolicies],
              .invalid(.noAcceptablePolicy(authoritiesConstrainedPolicySet: none))),
        pkits("4.9.8", [C.requireExplicitPolicy2CACert, C.requireExplicitPolicy2SelfIssuedCACert,
                        C.requireExplicitPolicy2subCACert, C.requireExplicitPolicy2SelfIssuedsubCACert,
                        C.requireExplicitPolicyEEWithoutPolicies],
              .invalid(.noAcceptablePolicy(authoritiesConstrainedPolicySet: none))),

        // 4.10 Policy Mappings
        pkits("4.10.1", 1, [C.Mapping1to2CACert, C.ValidPolicyMappingTest1EE], inputs([P1]),
              .valid(authorities: p1, user: p1)),
        pkits("4.10.1", 2, [C.Mapping1to2CACert, C.ValidPolicyMappingTest1EE], inputs([P2]),
              .invalid(.noAcceptablePolicy(authoritiesConstrainedPolicySet: p1))),
        pkits("4.10.1", 3, [C.Mapping1to2CACert, C.ValidPolicyMappingTest1EE], inputs(mappingInhibit: true),
              .invalid(.explicitPolicyRequired(certificateIndex: 2))),
        pkits("4.10.2", 1, [C.Mapping1to2CACert, C.InvalidPolicyMappingTest2EE], inputs(),
              .invalid(.explicitPolicyRequired(certificateIndex: 2))),
        pkits("4.10.2", 2, [C.Mapping1to2CACert, C.InvalidPolicyMappingTest2EE], inputs(mappingInhibit: true),
              .invalid(.explicitPolicyRequired(certificateIndex: 2))),
        pkits("4.10.3", 1, [C.P12Mapping1to3CACert, C.P12Mapping1to3subCACert, C.P12Mapping1to3subsubCACert,
                            C.ValidPolicyMappingTest3EE], inputs([P1]),
              .invalid(.noAcceptablePolicy(authoritiesConstrainedPolicySet: set(P2)))),
        pkits("4.10.3", 2, [C.P12Mapping1to3CACert, C.P12Mapping1to3subCACert, C.P12Mapping1to3subsubCACert,
                            C.ValidPolicyMappingTest3EE], inputs([P2]), .valid(authorities: set(P2), user: set(P2))),
        pkits("4.10.4", [C.P12Mapping1to3CACert, C.P12Mapping1to3subCACert, C.P12Mapping1to3subsubCACert,
                         C.InvalidPolicyMappingTest4EE], .invalid(.explicitPolicyRequired(certificateIndex: 4))),
        pkits("4.10.5", 1, [C.P1Mapping1to234CACert, C.P1Mapping1to234subCACert, C.ValidPolicyMappingTest5EE],
              inputs([P1]), .valid(authorities: p1, user: p1)),
        pkits("4.10.5", 2, [C.P1Mapping1to234CACert, C.P1Mapping1to234subCACert, C.ValidPolicyMappingTest5EE],
              inputs([P6]), .invalid(.noAcceptablePolicy(authoritiesConstrainedPolicySet: p1))),
        pkits("4.10.6", 1, [C.P1Mapping1to234CACert, C.P1Mapping1to234subCACert, C.ValidPolicyMappingTest6EE],
              inputs([P1]), .valid(authorities: p1, user: p1)),
        pkits("4.10.6", 2, [C.P1Mapping1to234CACert, C.P1Mapping1to234subCACert, C.ValidPolicyMappingTest6EE],
              inputs([P6]), .invalid(.noAcceptablePolicy(authoritiesConstrainedPolicySet: p1))),
        pkits("4.10.7", [C.MappingFromanyPolicyCACert, C.InvalidMappingFromanyPolicyTest7EE],
              .invalid(.anyPolicyInMapping(certificateIndex: 1))),
        pkits("4.10.8", [C.MappingToanyPolicyCACert, C.InvalidMappingToanyPolicyTest8EE],
              .invalid(.anyPolicyInMapping(certificateIndex: 1))),
        pkits("4.10.9", [C.PanyPolicyMapping1to2CACert, C.ValidPolicyMappingTest9EE], .valid(authorities: p1, user: p1)),
        pkits("4.10.10", [C.GoodCACert, C.GoodsubCAPanyPolicyMapping1to2CACert, C.InvalidPolicyMappingTest10EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 3))),
        pkits("4.10.11", [C.GoodCACert, C.GoodsubCAPanyPolicyMapping1to2CACert, C.ValidPolicyMappingTest11EE],
              .valid(authorities: p1, user: p1)),
        pkits("4.10.12", 1, [C.P12Mapping1to3CACert, C.ValidPolicyMappingTest12EE], inputs([P1]),
              .valid(authorities: set(P1, P2), user: p1)),
        pkits("4.10.12", 2, [C.P12Mapping1to3CACert, C.ValidPolicyMappingTest12EE], inputs([P2]),
              .valid(authorities: set(P1, P2), user: set(P2))),
        pkits("4.10.13", [C.P1anyPolicyMapping1to2CACert, C.ValidPolicyMappingTest13EE],
              .valid(authorities: p1, user: p1)),
        pkits("4.10.14", [C.P1anyPolicyMapping1to2CACert, C.ValidPolicyMappingTest14EE],
              .valid(authorities: p1, user: p1)),

        // 4.11 Inhibit Policy Mapping
        pkits("4.11.1", [C.inhibitPolicyMapping0CACert, C.inhibitPolicyMapping0subCACert,
                         C.InvalidinhibitPolicyMappingTest1EE], .invalid(.explicitPolicyRequired(certificateIndex: 3))),
        pkits("4.11.2", [C.inhibitPolicyMapping1P12CACert, C.inhibitPolicyMapping1P12subCACert,
                         C.ValidinhibitPolicyMappingTest2EE], .valid(authorities: p1, user: p1)),
        pkits("4.11.3", [C.inhibitPolicyMapping1P12CACert, C.inhibitPolicyMapping1P12subCACert,
                         C.inhibitPolicyMapping1P12subsubCACert, C.InvalidinhibitPolicyMappingTest3EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 4))),
        pkits("4.11.4", [C.inhibitPolicyMapping1P12CACert, C.inhibitPolicyMapping1P12subCACert,
                         C.inhibitPolicyMapping1P12subsubCACert, C.ValidinhibitPolicyMappingTest4EE],
              .valid(authorities: set(P2), user: set(P2))),
        pkits("4.11.5", [C.inhibitPolicyMapping5CACert, C.inhibitPolicyMapping5subCACert,
                         C.inhibitPolicyMapping5subsubCACert, C.inhibitPolicyMapping5subsubsubCACert,
                         C.InvalidinhibitPolicyMappingTest5EE], .invalid(.explicitPolicyRequired(certificateIndex: 5))),
        pkits("4.11.6", [C.inhibitPolicyMapping1P12CACert, C.inhibitPolicyMapping1P12subCAIPM5Cert,
                         C.inhibitPolicyMapping1P12subsubCAIPM5Cert, C.InvalidinhibitPolicyMappingTest6EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 4))),
        pkits("4.11.7", [C.inhibitPolicyMapping1P1CACert, C.inhibitPolicyMapping1P1SelfIssuedCACert,
                         C.inhibitPolicyMapping1P1subCACert, C.ValidSelfIssuedinhibitPolicyMappingTest7EE],
              .valid(authorities: p1, user: p1)),
        pkits("4.11.8", [C.inhibitPolicyMapping1P1CACert, C.inhibitPolicyMapping1P1SelfIssuedCACert,
                         C.inhibitPolicyMapping1P1subCACert, C.inhibitPolicyMapping1P1subsubCACert,
                         C.InvalidSelfIssuedinhibitPolicyMappingTest8EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 5))),
        pkits("4.11.9", [C.inhibitPolicyMapping1P1CACert, C.inhibitPolicyMapping1P1SelfIssuedCACert,
                         C.inhibitPolicyMapping1P1subCACert, C.inhibitPolicyMapping1P1subsubCACert,
                         C.InvalidSelfIssuedinhibitPolicyMappingTest9EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 5))),
        pkits("4.11.10", [C.inhibitPolicyMapping1P1CACert, C.inhibitPolicyMapping1P1SelfIssuedCACert,
                          C.inhibitPolicyMapping1P1subCACert, C.inhibitPolicyMapping1P1SelfIssuedsubCACert,
                          C.InvalidSelfIssuedinhibitPolicyMappingTest10EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 5))),
        pkits("4.11.11", [C.inhibitPolicyMapping1P1CACert, C.inhibitPolicyMapping1P1SelfIssuedCACert,
                          C.inhibitPolicyMapping1P1subCACert, C.inhibitPolicyMapping1P1SelfIssuedsubCACert,
                          C.InvalidSelfIssuedinhibitPolicyMappingTest11EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 5))),

        // 4.12 Inhibit Any Policy
        pkits("4.12.1", [C.inhibitAnyPolicy0CACert, C.InvalidinhibitAnyPolicyTest1EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 2))),
        pkits("4.12.2", [C.inhibitAnyPolicy0CACert, C.ValidinhibitAnyPolicyTest2EE], .valid(authorities: p1, user: p1)),
        pkits("4.12.3", 1, [C.inhibitAnyPolicy1CACert, C.inhibitAnyPolicy1subCA1Cert, C.inhibitAnyPolicyTest3EE],
              inputs(), .valid(authorities: p1, user: p1)),
        pkits("4.12.3", 2, [C.inhibitAnyPolicy1CACert, C.inhibitAnyPolicy1subCA1Cert, C.inhibitAnyPolicyTest3EE],
              inputs(anyInhibit: true), .invalid(.explicitPolicyRequired(certificateIndex: 2))),
        pkits("4.12.4", [C.inhibitAnyPolicy1CACert, C.inhibitAnyPolicy1subCA1Cert, C.InvalidinhibitAnyPolicyTest4EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 3))),
        pkits("4.12.5", [C.inhibitAnyPolicy5CACert, C.inhibitAnyPolicy5subCACert, C.inhibitAnyPolicy5subsubCACert,
                         C.InvalidinhibitAnyPolicyTest5EE], .invalid(.explicitPolicyRequired(certificateIndex: 4))),
        pkits("4.12.6", [C.inhibitAnyPolicy1CACert, C.inhibitAnyPolicy1subCAIAP5Cert, C.InvalidinhibitAnyPolicyTest6EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 3))),
        pkits("4.12.7", [C.inhibitAnyPolicy1CACert, C.inhibitAnyPolicy1SelfIssuedCACert, C.inhibitAnyPolicy1subCA2Cert,
                         C.ValidSelfIssuedinhibitAnyPolicyTest7EE], .valid(authorities: p1, user: p1)),
        pkits("4.12.8", [C.inhibitAnyPolicy1CACert, C.inhibitAnyPolicy1SelfIssuedCACert, C.inhibitAnyPolicy1subCA2Cert,
                         C.inhibitAnyPolicy1subsubCA2Cert, C.InvalidSelfIssuedinhibitAnyPolicyTest8EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 4))),
        pkits("4.12.9", [C.inhibitAnyPolicy1CACert, C.inhibitAnyPolicy1SelfIssuedCACert, C.inhibitAnyPolicy1subCA2Cert,
                         C.inhibitAnyPolicy1SelfIssuedsubCA2Cert, C.ValidSelfIssuedinhibitAnyPolicyTest9EE],
              .valid(authorities: p1, user: p1)),
        pkits("4.12.10", [C.inhibitAnyPolicy1CACert, C.inhibitAnyPolicy1SelfIssuedCACert, C.inhibitAnyPolicy1subCA2Cert,
                          C.InvalidSelfIssuedinhibitAnyPolicyTest10EE],
              .invalid(.explicitPolicyRequired(certificateIndex: 4))),
    ]
}()

@Suite("Policy graph: PKITS 4.8-4.12")
struct PKITSPolicyTests {
    @Test("PKITS run", arguments: pkitsPolicyRuns)
    func pkitsRun(_ run: PKITSPolicyRun) {
        let result = runPath(run.path, run.inputs)
        switch (run.expected, result) {
        case (.valid(let authorities, let user), .success(let outcome)):
            #expect(outcome.authoritiesConstrainedPolicySet == authorities)
            #expect(outcome.userConstrainedPolicySet == user)
        case (.invalid(let expectedFailure), .failure(let failure)):
            #expect(failure == expectedFailure)
        case (.valid, .failure(let failure)):
            Issue.record("expected a valid path, got \(failure)")
        case (.invalid(let expectedFailure), .success(let outcome)):
            Issue.record("expected \(expectedFailure), got a valid path with \(outcome)")
        }
        // The one-call driver agrees with the step-by-step one.
        let whole = Result { () throws(PolicyFailure) in
            try PolicyProcessor.validate(run.path, inputs: run.inputs)
        }
        #expect(whole == result)
    }

    @Test("The table covers every run of PKITS 4.8-4.12 exactly once")
    func coverage() {
        #expect(pkitsPolicyRuns.count == 86)
        let keys = pkitsPolicyRuns.map { "\($0.id)/\($0.subtest ?? 0)" }
        #expect(Set(keys).count == keys.count)
        #expect(Set(pkitsPolicyRuns.map(\.id)).count == 63)
    }

    /// Checks this file's transcription (inputs, verdicts, policy sets) against the shared PKITS manifest.
    @Test("The table agrees with ../shared/vectors/pkits.json")
    func agreesWithManifest() throws {
        let manifestURL = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/vectors/pkits.json")
        guard let data = try? Data(contentsOf: manifestURL) else {
            print("PolicyGraphTests: skipped the PKITS manifest cross-check: \(manifestURL.path) not found")
            return
        }
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let policyNames = try #require(manifest["policy_oids"] as? [String: String])
        let tests = try #require(manifest["tests"] as? [[String: Any]])
        let oidName = Dictionary(uniqueKeysWithValues: policyNames.map { (OID(dotted: $0.value)!, $0.key) })

        func names(of set: Set<OID>) -> [String] { set.map { oidName[$0] ?? $0.description }.sorted() }
        func names(of set: CertificatePolicySet) -> [String] {
            switch set {
            case .anyPolicy: return ["anyPolicy"]
            case .policies(let policies): return names(of: policies)
            }
        }

        var checked = 0
        for run in pkitsPolicyRuns {
            let test = try #require(tests.first { $0["id"] as? String == run.id }, "\(run.id) not in manifest")
            let runs = try #require(test["runs"] as? [[String: Any]])
            let entry = try #require(runs.first { ($0["subtest"] as? Int) == run.subtest }, "\(run.testDescription)")
            let settings = try #require(entry["settings"] as? [String: Any])
            #expect((settings["user_initial_policy_set"] as? [String])?.sorted()
                    == names(of: run.inputs.userInitialPolicySet), "\(run.testDescription)")
            #expect(settings["initial_explicit_policy"] as? Bool == run.inputs.initialExplicitPolicy)
            #expect(settings["initial_policy_mapping_inhibit"] as? Bool == run.inputs.initialPolicyMappingInhibit)
            #expect(settings["initial_any_policy_inhibit"] as? Bool == run.inputs.initialAnyPolicyInhibit)

            let expectedAuthorities = (entry["expected_authorities_constrained_policy_set"] as? [String])?.sorted()
            let expectedUser = (entry["expected_user_constrained_policy_set"] as? [String])?.sorted()
            switch run.expected {
            case .valid(let authorities, let user):
                #expect(entry["expected"] as? String == "valid", "\(run.testDescription)")
                if let expectedAuthorities { #expect(names(of: authorities) == expectedAuthorities, "\(run.testDescription)") }
                if let expectedUser { #expect(names(of: user) == expectedUser, "\(run.testDescription)") }
            case .invalid(let failure):
                #expect(entry["expected"] as? String == "invalid", "\(run.testDescription)")
                if let expectedUser { #expect(expectedUser.isEmpty, "\(run.testDescription)") }
                if let expectedAuthorities {
                    switch failure {
                    case .noAcceptablePolicy(let authorities):
                        #expect(names(of: authorities) == expectedAuthorities, "\(run.testDescription)")
                    case .explicitPolicyRequired, .anyPolicyInMapping, .graphTooLarge:
                        // Failing before wrap-up: no policy survived (the graph is NULL).
                        #expect(expectedAuthorities.isEmpty, "\(run.testDescription)")
                    }
                }
            }
            checked += 1
        }
        #expect(checked == 86)
    }
}

// MARK: - Unit tests of individual rules

@Suite("Policy graph: anyPolicy")
struct AnyPolicyTests {
    @Test("A policy under an asserted anyPolicy is authorities-constrained (6.1.3 (d)(1)(ii))")
    func policyBelowAnyPolicy() {
        let result = runPath([cert([anyPolicy]), cert([P1])])
        #expect(outcome(result) == PolicyOutcome(authoritiesConstrainedPolicySet: set(P1),
                                                 userConstrainedPolicySet: set(P1), explicitPolicy: 1))
    }

    @Test("anyPolicy down to the last level gives any-policy; the user set then becomes the user's")
    func anyPolicyThroughout() {
        let path = [cert([anyPolicy]), cert([anyPolicy]), cert([anyPolicy])]
        let unconstrained = outcome(runPath(path))
        #expect(unconstrained?.authoritiesConstrainedPolicySet == .anyPolicy)
        #expect(unconstrained?.userConstrainedPolicySet == .anyPolicy)
        #expect(unconstrained?.userConstrainedPolicySet.contains(P7) == true)

        let constrained = outcome(runPath(path, inputs([P1, P2], explicit: true)))
        #expect(constrained?.authoritiesConstrainedPolicySet == .anyPolicy)
        #expect(constrained?.userConstrainedPolicySet == set(P1, P2))
        #expect(constrained?.explicitPolicy == 0)
    }

    @Test("anyPolicy in the last level subsumes the explicit policies beside it")
    func anyPolicyBesideExplicitPolicies() {
        let result = outcome(runPath([cert([P1, anyPolicy]), cert([P1, anyPolicy])]))
        #expect(result?.authoritiesConstrainedPolicySet == .anyPolicy)
    }

    @Test("A last level without anyPolicy lists only the policies whose parent is anyPolicy")
    func explicitPolicyBesideAnyPolicyAbove() {
        // Depth 1: P1 and anyPolicy, both children of the root; depth 2: P1 (parent P1) and P2 (parent anyPolicy).
        let result = outcome(runPath([cert([P1, anyPolicy]), cert([P1, P2])]))
        #expect(result?.authoritiesConstrainedPolicySet == set(P1, P2))
    }

    @Test("A user-initial-policy-set containing anyPolicy is any-policy, whatever else it lists")
    func userSetWithAnyPolicy() {
        let result = outcome(runPath([cert([P1, P2])], inputs([anyPolicy, P3])))
        #expect(result?.userConstrainedPolicySet == set(P1, P2))
    }

    @Test("An empty user-initial-policy-set accepts nothing: fine until an explicit policy is required")
    func emptyUserSet() {
        #expect(outcome(runPath([cert([P1])], inputs([])))?.userConstrainedPolicySet == .empty)
        #expect(runPath([cert([P1])], inputs([], explicit: true))
                == .failure(.noAcceptablePolicy(authoritiesConstrainedPolicySet: set(P1))))
    }

    @Test("Repeated policy identifiers in one certificate make one node")
    func duplicatePolicies() throws {
        var processor = PolicyProcessor(pathLength: 1)
        try processor.processCertificate(cert([P1, P1, anyPolicy, anyPolicy]), index: 1)
        #expect(processor.validPolicyGraphNodeCount == 3)  // root, P1, anyPolicy
        let result = try processor.wrapUp(cert([P1, P1, anyPolicy, anyPolicy]))
        #expect(result.authoritiesConstrainedPolicySet == .anyPolicy)
    }

    @Test("A present but empty certificatePolicies list leaves no policy, unlike anyPolicy")
    func emptyPolicyList() {
        #expect(runPath([cert([])], inputs(explicit: true)) == .failure(.explicitPolicyRequired(certificateIndex: 1)))
    }
}

@Suite("Policy graph: inhibitAnyPolicy")
struct InhibitAnyPolicyTests {
    /// certificate 1 has inhibitAnyPolicy `skipCerts` and requireExplicitPolicy 0; certificates 2-4
    /// assert only anyPolicy; the end entity asserts P1.
    @Test("SkipCerts k lets the next k non-self-issued certificates use anyPolicy (6.1.4 (j), 6.1.3 (d)(2))",
          arguments: [(UInt64(0), 2), (1, 3), (2, 4)])
    func skipCerts(skipCerts: UInt64, failingCertificate: Int) {
        let path = [cert([P1], rep: 0, iap: skipCerts), cert([anyPolicy]), cert([anyPolicy]), cert([anyPolicy]),
                    cert([P1])]
        #expect(runPath(path) == .failure(.explicitPolicyRequired(certificateIndex: failingCertificate)))
    }

    @Test("SkipCerts covering the path lets anyPolicy through", arguments: [UInt64(3), 4, .max])
    func skipCertsLargeEnough(skipCerts: UInt64) {
        let path = [cert([P1], rep: 0, iap: skipCerts), cert([anyPolicy]), cert([anyPolicy]), cert([anyPolicy]),
                    cert([P1])]
        #expect(outcome(runPath(path))?.userConstrainedPolicySet == set(P1))
    }

    @Test("initial-any-policy-inhibit: anyPolicy is ignored, except in a self-issued certificate before the last")
    func initialInhibitAndSelfIssued() {
        let anyInhibit = inputs(anyInhibit: true)
        // Not honoured: the graph becomes NULL at certificate 1 (no explicit policy required: valid, no policy).
        #expect(outcome(runPath([cert([anyPolicy]), cert([P1])], anyInhibit))?.authoritiesConstrainedPolicySet == .empty)
        // Self-issued and not last: honoured.
        #expect(outcome(runPath([cert([anyPolicy], selfIssued: true), cert([P1])], anyInhibit))?
                    .authoritiesConstrainedPolicySet == set(P1))
        // Self-issued but last: not honoured.
        #expect(runPath([cert([P1]), cert([anyPolicy], rep: 0, selfIssued: true)], anyInhibit)
                == .failure(.noAcceptablePolicy(authoritiesConstrainedPolicySet: .empty)))
    }

    @Test("A self-issued certificate does not decrement inhibit_anyPolicy (6.1.4 (h))")
    func selfIssuedDoesNotDecrement() throws {
        var processor = PolicyProcessor(pathLength: 4)
        try processor.processCertificate(cert([P1], iap: 1), index: 1)
        try processor.prepareForNextCertificate(cert([P1], iap: 1))
        #expect(processor.inhibitAnyPolicy == 1)
        try processor.processCertificate(cert([P1], selfIssued: true), index: 2)
        try processor.prepareForNextCertificate(cert([P1], selfIssued: true))
        #expect(processor.inhibitAnyPolicy == 1)
        try processor.processCertificate(cert([anyPolicy]), index: 3)
        try processor.prepareForNextCertificate(cert([anyPolicy]))
        #expect(processor.inhibitAnyPolicy == 0)
    }
}

@Suite("Policy graph: policy mapping")
struct PolicyMappingTests {
    @Test("A certificate's own inhibitPolicyMapping 0 does not stop its own mappings (6.1.4 (b) before (i))")
    func mappingAppliedBeforeConstraint() {
        let path = [cert([P1], maps: [(P1, P2)], rep: 0, ipm: 0), cert([P2])]
        #expect(outcome(runPath(path))?.userConstrainedPolicySet == set(P1))
    }

    @Test("inhibitPolicyMapping SkipCerts k allows mappings in the next k certificates only",
          arguments: [(UInt64(0), false), (1, true)])
    func inhibitPolicyMappingSkipCerts(skipCerts: UInt64, mappingAllowed: Bool) {
        // Certificate 2 maps P1 to P2; the end entity asserts P2.
        let path = [cert([P1], rep: 0, ipm: skipCerts), cert([P1], maps: [(P1, P2)]), cert([P2])]
        let expected: Result<PolicyOutcome, PolicyFailure> = mappingAllowed
            ? .success(PolicyOutcome(authoritiesConstrainedPolicySet: set(P1), userConstrainedPolicySet: set(P1),
                                     explicitPolicy: 0))
            : .failure(.explicitPolicyRequired(certificateIndex: 3))
        #expect(runPath(path) == expected)
    }

    @Test("initial-policy-mapping-inhibit deletes only the mapped issuerDomainPolicy (6.1.4 (b)(2))")
    func initialMappingInhibitDeletesMappedPolicy() {
        let path = [cert([P1, P3], maps: [(P1, P2)]), cert([P1, P2, P3])]
        #expect(outcome(runPath(path))?.authoritiesConstrainedPolicySet == set(P1, P3))
        #expect(outcome(runPath(path, inputs(mappingInhibit: true)))?.authoritiesConstrainedPolicySet == set(P3))
    }

    @Test("A mapping of a policy only covered by anyPolicy creates it under anyPolicy (6.1.4 (b)(1))")
    func mappingUnderAnyPolicy() {
        let path = [cert([anyPolicy], maps: [(P1, P2)]), cert([P2])]
        // Mapped: the end entity's P2 descends from P1, so the anchor's domain sees P1.
        #expect(outcome(runPath(path))?.authoritiesConstrainedPolicySet == set(P1))
        // Mapping inhibited: P2 descends from anyPolicy directly.
        #expect(outcome(runPath(path, inputs(mappingInhibit: true)))?.authoritiesConstrainedPolicySet == set(P2))
    }

    @Test("One issuerDomainPolicy mapped to several policies, duplicates included")
    func oneToMany() {
        let path = [cert([P1], maps: [(P1, P2), (P1, P3), (P1, P2)]), cert([P3])]
        #expect(outcome(runPath(path))?.authoritiesConstrainedPolicySet == set(P1))
    }

    @Test("A mapping from or to anyPolicy is rejected (6.1.4 (a))",
          arguments: [(anyPolicy, P1), (P1, anyPolicy), (anyPolicy, anyPolicy)])
    func anyPolicyInMapping(issuer: OID, subject: OID) {
        let mapping = [(P2, P3), (issuer, subject)]
        #expect(runPath([cert([P1]), cert([P1], maps: mapping), cert([P1])])
                == .failure(.anyPolicyInMapping(certificateIndex: 2)))
        // Checked even when the graph is already NULL and mapping is inhibited.
        #expect(runPath([cert(nil, maps: mapping), cert([P1])], inputs(mappingInhibit: true))
                == .failure(.anyPolicyInMapping(certificateIndex: 1)))
    }

    @Test("The last certificate's mappings are not examined (6.1.4 applies to certificates 1 to n-1)")
    func endEntityMappingsIgnored() {
        let result = runPath([cert([P1]), cert([P1], maps: [(P1, anyPolicy)])])
        #expect(outcome(result)?.userConstrainedPolicySet == set(P1))
    }
}

@Suite("Policy graph: explicit policy")
struct ExplicitPolicyTests {
    @Test("6.1.2 initialization: counters start at n+1, or 0 when the initial input says so")
    func initialization() {
        let free = PolicyProcessor(pathLength: 3)
        #expect((free.explicitPolicy, free.inhibitAnyPolicy, free.policyMapping) == (4, 4, 4))
        let constrained = PolicyProcessor(pathLength: 3, inputs: inputs(explicit: true, mappingInhibit: true,
                                                                        anyInhibit: true))
        #expect((constrained.explicitPolicy, constrained.inhibitAnyPolicy, constrained.policyMapping) == (0, 0, 0))
    }

    @Test("6.1.4 (h)(i): decrement unless self-issued, then lower to requireExplicitPolicy")
    func counters() throws {
        var processor = PolicyProcessor(pathLength: 4)
        try processor.processCertificate(cert([P1], rep: 2, ipm: .max), index: 1)
        try processor.prepareForNextCertificate(cert([P1], rep: 2, ipm: .max))
        #expect((processor.explicitPolicy, processor.policyMapping) == (2, 4))
        try processor.processCertificate(cert([P1], selfIssued: true), index: 2)
        try processor.prepareForNextCertificate(cert([P1], selfIssued: true))
        #expect((processor.explicitPolicy, processor.policyMapping) == (2, 4))
        try processor.processCertificate(cert([P1]), index: 3)
        try processor.prepareForNextCertificate(cert([P1]))
        #expect((processor.explicitPolicy, processor.policyMapping) == (1, 3))
    }

    @Test("6.1.5 (a): the last certificate decrements explicit_policy even when self-issued")
    func lastSelfIssuedDecrements() {
        #expect(runPath([cert([P1], rep: 1), cert(nil, selfIssued: true)])
                == .failure(.noAcceptablePolicy(authoritiesConstrainedPolicySet: .empty)))
        // requireExplicitPolicy 2 leaves explicit_policy 2 for certificate 2, which wrap-up brings to 1.
        #expect(outcome(runPath([cert([P1], rep: 2), cert(nil, selfIssued: true)]))?.explicitPolicy == 1)
    }

    @Test("6.1.3 (f) fails at the first certificate leaving no policy while explicit_policy is 0")
    func failsMidPath() {
        #expect(runPath([cert([P1], rep: 1), cert([P1]), cert(nil)])
                == .failure(.explicitPolicyRequired(certificateIndex: 3)))
    }

    @Test("6.1.5 (b): requireExplicitPolicy 0 in the end entity requires an acceptable policy")
    func endEntityRequiresExplicitPolicy() {
        #expect(runPath([cert([P1]), cert([P1], rep: 0)], inputs([P2]))
                == .failure(.noAcceptablePolicy(authoritiesConstrainedPolicySet: set(P1))))
        let accepted = outcome(runPath([cert([P1]), cert([P1], rep: 0)], inputs([P1])))
        #expect(accepted == PolicyOutcome(authoritiesConstrainedPolicySet: set(P1), userConstrainedPolicySet: set(P1),
                                          explicitPolicy: 0))
        #expect(accepted?.isExplicitPolicyRequired == true)
    }

    @Test("Without constraints the final explicit_policy is n+1 minus n decrements")
    func unconstrainedExplicitPolicy() {
        let result = outcome(runPath([cert([P1]), cert([P1]), cert([P1])]))
        #expect(result?.explicitPolicy == 1)
        #expect(result?.isExplicitPolicyRequired == false)
    }
}

// MARK: - Bounds (RFC 9618 section 3.1)

/// A path of `depth` certificates, each asserting `width` policies and (all but the last) mapping
/// every one of them to every one: RFC 5280's tree would have width^depth leaves.
private func cartesianMappingPath(width: Int, depth: Int) -> [CertificatePolicyFacts] {
    let policies = (1...width).map { OID(dotted: "1.3.6.1.4.1.99999.1.\($0)")! }
    let mappings = policies.flatMap { issuer in policies.map { (issuer, $0) } }
    return (1...depth).map { level in cert(policies, maps: level < depth ? mappings : nil) }
}

@Suite("Policy graph: bounds")
struct PolicyGraphBoundsTests {
    @Test("10 policies x 10 levels, every policy mapped to every policy: linear graph, correct sets",
          .timeLimit(.minutes(1)))
    func cartesianMappingsStaySmall() throws {
        let path = cartesianMappingPath(width: 10, depth: 10)
        var processor = PolicyProcessor(pathLength: path.count, inputs: inputs(explicit: true))
        for (offset, facts) in path.enumerated() {
            try processor.processCertificate(facts, index: offset + 1)
            if offset + 1 < path.count { try processor.prepareForNextCertificate(facts) }
        }
        // One node per policy per level (the tree would have 10^10 leaves), 10 x 10 edges between levels.
        #expect(processor.validPolicyGraphNodeCount == 1 + 10 * 10)
        #expect(processor.validPolicyGraphEdgeCount == 10 + 9 * 100)
        let result = try processor.wrapUp(path[path.count - 1])
        #expect(result.authoritiesConstrainedPolicySet == .policies(Set(path[0].policies ?? [])))
        #expect(result.userConstrainedPolicySet == result.authoritiesConstrainedPolicySet)
    }

    @Test("Wide Cartesian mappings hit the edge limit instead of running away", .timeLimit(.minutes(1)))
    func edgeLimit() {
        // 200 policies: 200 edges into level 1, then 40,000 per level; level 4 would pass 100,000.
        let path = cartesianMappingPath(width: 200, depth: 6)
        #expect(runPath(path) == .failure(.graphTooLarge(certificateIndex: 4, exceeded: .edges(100_000))))
    }

    @Test("A certificate asserting 20,000 policies under anyPolicy hits the node limit", .timeLimit(.minutes(1)))
    func nodeLimit() {
        let many = (1...20_000).map { OID(dotted: "1.3.6.1.4.1.99999.2.\($0)")! }
        #expect(runPath([cert([anyPolicy]), cert(many)])
                == .failure(.graphTooLarge(certificateIndex: 2, exceeded: .nodes(10_000))))
    }

    @Test("Limits are options: PKITS 4.8.6 needs 11 nodes")
    func customLimits() {
        let path = [PKITS.PoliciesP1234CACert, PKITS.PoliciesP1234subCAP123Cert,
                    PKITS.PoliciesP1234subsubCAP123P12Cert, PKITS.OverlappingPoliciesTest6EE]
        #expect(runPath(path, limits: PolicyGraphLimits(maximumNodes: 10))
                == .failure(.graphTooLarge(certificateIndex: 4, exceeded: .nodes(10))))
        #expect(outcome(runPath(path, limits: PolicyGraphLimits(maximumNodes: 11)))?.userConstrainedPolicySet
                == set(P1))
        #expect(runPath(path, limits: PolicyGraphLimits(maximumEdges: 9))
                == .failure(.graphTooLarge(certificateIndex: 4, exceeded: .edges(9))))
    }

    @Test("Mappings of absent policies cost no nodes")
    func mappingsOfAbsentPolicies() throws {
        let absent = (1...5_000).map { (OID(dotted: "1.3.6.1.4.1.99999.3.\($0)")!, P2) }
        var processor = PolicyProcessor(pathLength: 2)
        try processor.processCertificate(cert([P1], maps: absent), index: 1)
        try processor.prepareForNextCertificate(cert([P1], maps: absent))
        #expect(processor.validPolicyGraphNodeCount == 2)
    }
}

// MARK: - Outcome held by the simple graph

/// A path in the simple graph's form keeps its deepest level as a list and makes the policy sets
/// only when they are read; the outcome must read, compare and hash as if they had been built.
@Suite("Policy outcome: sets made when read")
struct PolicyOutcomeHeldSetTests {
    @Test("a simple-graph outcome reads, compares and hashes like one built from sets")
    func simpleGraphOutcome() throws {
        let outcome = try PolicyProcessor.validate([cert([P1, P2, P1]), cert([P2, P1, P3])], inputs: inputs())
        let built = PolicyOutcome(authoritiesConstrainedPolicySet: set(P1, P2), userConstrainedPolicySet: set(P1, P2),
                                  explicitPolicy: outcome.explicitPolicy)
        #expect(outcome.authoritiesConstrainedPolicySet == set(P1, P2))
        #expect(outcome.userConstrainedPolicySet == set(P1, P2))
        #expect(outcome == built)
        #expect(outcome.hashValue == built.hashValue)
        // A user-initial-policy-set without anyPolicy: the intersection, built at once.
        let constrained = try PolicyProcessor.validate([cert([P1, P2]), cert([P2, P1])], inputs: inputs([P2, P3]))
        #expect(constrained.authoritiesConstrainedPolicySet == set(P1, P2))
        #expect(constrained.userConstrainedPolicySet == set(P2))
        // Setting a set replaces what was held.
        var changed = outcome
        changed.userConstrainedPolicySet = set(P3)
        #expect(changed.userConstrainedPolicySet == set(P3))
        #expect(changed.authoritiesConstrainedPolicySet == set(P1, P2))
        #expect(changed != outcome)
    }

    @Test("an explicit policy required: an empty level fails at 6.1.3 (f), an empty intersection at wrap-up")
    func emptyLevelRequiredPolicy() {
        #expect(throws: PolicyFailure.explicitPolicyRequired(certificateIndex: 2)) {
            try PolicyProcessor.validate([cert([P1]), cert([P2])], inputs: inputs(explicit: true))
        }
        #expect(throws: PolicyFailure.noAcceptablePolicy(authoritiesConstrainedPolicySet: set(P1))) {
            try PolicyProcessor.validate([cert([P1]), cert([P1])], inputs: inputs([P2], explicit: true))
        }
    }
}
