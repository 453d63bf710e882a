@testable import CertPath
import Testing

/// Reviewer findings on the plain-words output: a policy failure printed a Swift enum
/// (`anyPolicyInMapping(certificateIndex: 1)`), and each summary line repeated the subject it is
/// headed by.
@Suite("Diagnostics wording")
struct DiagnosticsWordingTests {
    @Test("Certificate policy failures in plain words, with the RFC clause", arguments: [
        (PolicyFailure.anyPolicyInMapping(certificateIndex: 1),
         "certificate 1 (counted from the trust anchor) maps a policy from or to anyPolicy, which policyMappings must not do (RFC 5280 6.1.4 (a))"),
        (.explicitPolicyRequired(certificateIndex: 2),
         "an explicit certificate policy is required, and no policy is valid for the path at certificate 2 (counted from the trust anchor) (RFC 5280 6.1.3 (f))"),
        (.noAcceptablePolicy(authoritiesConstrainedPolicySet: .policies([])),
         "an explicit certificate policy is required, and no policy is valid for the path (RFC 5280 6.1.5 (g))"),
        (.noAcceptablePolicy(authoritiesConstrainedPolicySet: .policies(["1.2.3", "1.2.4"])),
         "the path is valid only for certificate policies not acceptable here (1.2.3, 1.2.4); an acceptable one is required (RFC 5280 6.1.5 (g))"),
        (.graphTooLarge(certificateIndex: 3, exceeded: .nodes(10_000)),
         "certificate policy processing stopped at certificate 3 (counted from the trust anchor): the policy graph would exceed 10000 nodes, a resource bound"),
    ])
    func policyFailures(_ failure: PolicyFailure, _ text: String) {
        #expect(Diagnostics.describe(.policyRequired(failure)) == text)
    }

    @Test("With the path known, a policy failure names the certificate it counts to")
    func policyFailureNamesTheCertificate() {
        // Reviewer: "certificate 2 (counted from the trust anchor)" read against a listing that
        // numbers from the end entity pointed at the wrong certificate.
        let attempt = PathAttempt(certificates: [SamplePKI.rsaServer, SamplePKI.rsaIntermediate], anchor: SamplePKI.rsaRoot,
                                  failures: [], policyOutcome: nil, profile: .rfc5280)
        #expect(Diagnostics.describe(.policyRequired(.anyPolicyInMapping(certificateIndex: 1)), in: attempt)
                == "certificate 1 (counted from the trust anchor: \(SamplePKI.rsaIntermediate.subject)) maps a policy from or to "
                    + "anyPolicy, which policyMappings must not do (RFC 5280 6.1.4 (a))")
        #expect(Diagnostics.describe(.policyRequired(.explicitPolicyRequired(certificateIndex: 2)), in: attempt)
                .contains("at certificate 2 (counted from the trust anchor: \(SamplePKI.rsaServer.subject))"))
        // An index outside the path, or a path without an anchor: the number alone.
        #expect(Diagnostics.describe(.policyRequired(.explicitPolicyRequired(certificateIndex: 3)), in: attempt)
                .contains("at certificate 3 (counted from the trust anchor) (RFC"))
    }

    @Test("A summary line names its certificate once")
    func summaryNamesOnce() throws {
        let result = SamplePKI.server(SamplePKI.rsaExpired).evaluate()
        let report = try #require(result.report)
        let lines = report.summary.split(separator: "\n").map(String.init)
        let subject = SamplePKI.rsaExpired.subject.description
        #expect(lines[0] == "\(subject) expired at 2021-01-01T00:00:00Z (validation time 2026-06-01T00:00:00Z)")
        #expect(lines[1] == "  end entity: \(subject): this certificate expired at 2021-01-01T00:00:00Z (validation time 2026-06-01T00:00:00Z)")
        // A failure about another certificate, listed under the path's top, still names it.
        let untrustedRoot = SamplePKI.server(SamplePKI.rsaServer, intermediates: [SamplePKI.rsaIntermediate, SamplePKI.rsaRoot],
                                             anchors: [SamplePKI.certificate("ecdsa/root.pem")]).evaluate()
        let rootLine = try #require(untrustedRoot.report?.summary.split(separator: "\n").last { $0.contains("not a trusted anchor") })
        #expect(rootLine.hasSuffix("the path ends at this root, which is not a trusted anchor"))
        #expect(Diagnostics.describe(.noTrustedAnchor(SamplePKI.rsaRoot))
                == "the path ends at the root \(SamplePKI.rsaRoot.subject), which is not a trusted anchor")
    }

    @Test("An extKeyUsage failure lists 16 purposes and counts the rest (a certificate may carry 40,000)")
    func extendedKeyUsageListIsCapped() throws {
        let purposes = (0..<40).map { OID(dotted: "1.3.6.1.4.1.99999.8.\($0)")! }
        let certificate = try Certificate(derEncoded: CertificateBuilder(extensions: [
            D.ext(KnownOID.extKeyUsage, D.tlv(.sequence, purposes.flatMap(D.oid)))]).der)
        let text = Diagnostics.describe(.extendedKeyUsageForbids(certificate, required: KnownOID.serverAuth, present: purposes))
        #expect(text.contains(purposes[15].description + " and 24 more)"))
        #expect(!text.contains(purposes[16].description))
        #expect(text.hasSuffix("does not allow serverAuth"))
    }
}

@Suite("Diagnostics wording: pins")
struct PinWordingTests {
    // ValidationPolicy.requiredPins holds certificate and key pins alike; the sentence names both
    // (it said "a pinned public key" for a certificate pin too; found by a reviewer).
    @Test func pinMismatchNamesBothPinKinds() {
        #expect(Diagnostics.describe(.pinMismatch) == "no certificate of the path matches a required pin (certificate or public key)")
    }
}
