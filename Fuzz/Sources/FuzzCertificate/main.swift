// FuzzCertificate: Certificate(derEncoded:) either throws a DERError pointing inside the input, or
// yields a certificate whose own der re-parses identically (field by field), which is DER all the way
// down, and whose accessors, key loading and self-signature check never trap (CertificateInvariants).
// An accepted certificate is then evaluated as its own trust anchor (the last input byte picks the
// purpose and profile), so path validation, name constraints and policy processing also meet hostile
// extension values: the evaluation must stay within its budget and a trusted result must pass
// PathInvariants' independent re-check. A certificate trusted under the strict rfc5280 profile is
// trusted under the interoperable default too (its failures are a subset: issue 30, class 11).
import CertPath
import FuzzSupport

let hostname = try! ReferenceIdentifier("www.example.com")

runFuzzer { bytes in
    guard let certificate = CertificateInvariants.parse(bytes) else { return }
    var policy = ValidationPolicy()
    let choice = bytes.last ?? 0
    switch choice & 0x03 {
    case 0: policy.purpose = .serverAuthentication(hostname)
    case 1: policy.purpose = .clientAuthentication(expectedNames: [])
    default: policy.purpose = .any
    }
    policy.profile = choice & 0x04 == 0 ? .webPKI : (choice & 0x10 == 0 ? .rfc5280 : .interoperable)
    policy.anchorEnforcement = choice & 0x08 == 0 ? .nameAndKey : .full
    policy.budget = Budget(signatureChecks: 8, buildSteps: 64, nameConstraintComparisons: 4096)
    policy.maximumIntermediates = 1
    let scenario = Scenario(certificates: [(certificate, .anchor)], intermediates: [],
                            trustEntries: [TrustEntry(certificate, kind: .anchor)], policy: policy,
                            validationTime: ScenarioGenerator.validationTime, summary: ["certificate as its own anchor"])
    let result = PathInvariants.check(scenario)
    if policy.profile == .rfc5280, result.isTrusted {
        var interoperable = scenario
        interoperable.policy.profile = .interoperable
        invariant(PathInvariants.check(interoperable).isTrusted,
                  "trusted under rfc5280 but not under interoperable, whose failures are a subset\n\(scenario.text)")
    }
}
