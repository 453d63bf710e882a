@testable import CertPath
import CertPathDER
import Testing

/// Inputs sized by an attacker must cost time and memory linear in their size (a hostile review
/// built them and measured; each fix is pinned here by its outcome, the time by the benchmark's
/// `hostile/…` scenarios):
/// - a subject of n commonNames and a subjectAltName of n names: the CA/B commonName rule compared
///   every pair (12 s for a 1.8 MB leaf);
/// - a CA mapping one policy to n policies above a leaf of n policies: each leaf policy scanned the
///   mapped list (18.7 s for 3.4 MB), now indexed when a level expects more than 16 policies;
/// - a mesh of same-named intermediates with large subjectAltNames: every path the search
///   validated checked every name's syntax again (40 s for 1.1 MB within the step budget);
/// - thousands of cRLDistributionPoints relative to a large issuer name: a copy of the name per
///   point (5.8 GB for 4.2 MB);
/// - thousands of unknown critical extensions: a failure each, in every report (510 MB of output).
@Suite("Hostile sizes: linear work, same answers")
struct HostileSizeTests {
    static func dnsName(_ text: String) -> [UInt8] { D.tlv(.contextSpecific(2), Array(text.utf8)) }
    static func ipAddress(_ octets: [UInt8]) -> [UInt8] { D.tlv(.contextSpecific(7), octets) }

    static func leaf(commonNames: [String], subjectAltNames: [[UInt8]]) throws -> Certificate {
        var builder = CertificateBuilder()
        builder.subject = D.tlv(.sequence, commonNames.flatMap { D.rdn(D.atv(D.commonName, D.utf8($0))) })
        builder.extensions = [D.ext(KnownOID.subjectAltName, D.tlv(.sequence, subjectAltNames.flatMap { $0 }))]
        return try Certificate(derEncoded: builder.der)
    }

    @Test("CA/B 7.1.4.3: every commonName among the subjectAltNames, with few and with many commonNames",
          arguments: [1, 4, 5, 40])
    func commonNamesAmongSubjectAltNames(count: Int) throws {
        let names = (0..<count).map { "host\($0).example" }
        let sans = names.reversed().map(Self.dnsName) + [Self.ipAddress([192, 0, 2, 7])]
        // Every commonName present: the rule holds, also for an address written as text.
        #expect(PurposeChecks.commonNamesAreSubjectAltNames(try Self.leaf(commonNames: names, subjectAltNames: sans)))
        #expect(PurposeChecks.commonNamesAreSubjectAltNames(try Self.leaf(commonNames: names + ["192.0.2.7"], subjectAltNames: sans)))
        // One commonName missing, differing in case, or an address not listed: the rule fails.
        for stranger in ["other.example", "HOST0.example", "192.0.2.8", "host0.example."] {
            var mixed = names
            mixed.insert(stranger, at: count / 2)
            #expect(!PurposeChecks.commonNamesAreSubjectAltNames(try Self.leaf(commonNames: mixed, subjectAltNames: sans)), "\(stranger)")
        }
        // A wildcard subjectAltName: not applied (x509-limbo's wildcard cases).
        let wildcard = [Self.dnsName("*.example")] + sans
        #expect(PurposeChecks.commonNamesAreSubjectAltNames(try Self.leaf(commonNames: names + ["unrelated.test"], subjectAltNames: wildcard)))
    }

    @Test("A policy mapped to many policies, under a leaf of many policies: the mapped one is the valid policy")
    func wideMapping() {
        let issuerPolicy = OID(dotted: "1.3.6.1.4.1.99999.7.1")!
        let mapped = (0..<60).map { OID(dotted: "1.3.6.1.4.1.99999.8.\($0)")! }
        let others = (0..<60).map { OID(dotted: "1.3.6.1.4.1.99999.9.\($0)")! }
        var ca = CertificatePolicyFacts(isSelfIssued: false)
        ca.policies = [issuerPolicy]
        ca.policyMappings = mapped.map { .init(issuerDomainPolicy: issuerPolicy, subjectDomainPolicy: $0) }
        var leaf = CertificatePolicyFacts(isSelfIssued: false)
        leaf.policies = others + [mapped[41]]
        let inputs = PolicyValidationInputs(userInitialPolicySet: [CertificatePolicySet.anyPolicyIdentifier], initialPolicyMappingInhibit: false,
                                            initialExplicitPolicy: true, initialAnyPolicyInhibit: false)
        let run = PolicyGraphIndexingTests.run([ca, leaf], inputs, indexedLevelSize: 16)
        // The scanned form (no level indexed) gives the same answer.
        #expect(run == PolicyGraphIndexingTests.run([ca, leaf], inputs, indexedLevelSize: .max))
        guard case .success(let outcome) = run.result else {
            Issue.record("refused: \(run.result)")
            return
        }
        // The leaf's mapped[41] is the CA's policy in the CA's domain (RFC 9618 6.1.5 (g)).
        #expect(outcome.authoritiesConstrainedPolicySet == .policies([issuerPolicy]))
        #expect(run.nodes == 3)
        // Without the mapped policy, no policy is valid and an explicit policy is required: refused.
        leaf.policies = others
        let refused = PolicyGraphIndexingTests.run([ca, leaf], inputs, indexedLevelSize: 16)
        #expect(refused == PolicyGraphIndexingTests.run([ca, leaf], inputs, indexedLevelSize: .max))
        if case .success(let outcome) = refused.result { Issue.record("accepted: \(outcome)") }
    }

    @Test("A fact a higher layer computes about a certificate is computed once, and the answer kept")
    func memoizedFact() throws {
        let valid = try Self.leaf(commonNames: ["a.example"], subjectAltNames: [Self.dnsName("a.example")])
        let invalid = try Self.leaf(commonNames: ["a.example"], subjectAltNames: [Self.dnsName("a..example")])
        for (certificate, expected) in [(valid, true), (invalid, false)] {
            for _ in 0..<3 {
                let rules = ProfileChecks.violations(certificate, at: .endEntity, profile: .webPKI)
                #expect(rules.contains(.invalidDNSNameInSubjectAltName) == !expected)
            }
            var computed = 0
            #expect(certificate.memoized(.subjectAltNameDNSNamesAreValid) { computed += 1; return !expected } == expected)
            #expect(computed == 0)
        }
    }

    @Test("At most 32 cRLDistributionPoints are processed, in order, then the default point")
    func distributionPointCap() {
        let certificate = CRLFixture.certificate(distributionPoints: (0..<40).map { CRLFixture.distributionPoint(.relative("CRL\($0)")) })
        let points = StatusDistributionPoint.points(for: certificate)
        #expect(points.count == StatusDistributionPoint.maximumDistributionPoints + 1)
        #expect(points.last?.isDefault == true && points.dropLast().allSatisfy { !$0.isDefault })
        let last = try? Name(derEncoded: CRLFixture.name([("2.5.4.10", "Test"), ("2.5.4.3", "CA"), ("2.5.4.3", "CRL31")]))
        #expect(points[31].names == [.directoryName(last!)])
    }

    @Test("Unknown critical extensions: the first four of a certificate are reported, in order")
    func unknownCriticalReported() throws {
        let unknown = (0..<10).map { OID(dotted: "1.3.6.1.4.1.99999.5.\($0)")! }
        var anchor = CertificateBuilder()
        anchor.subject = anchor.issuer
        anchor.extensions = [D.ext(KnownOID.basicConstraints, critical: true, D.seq(D.bool(true)))]
        var leaf = CertificateBuilder()
        leaf.extensions = [D.ext(KnownOID.subjectAltName, D.seq(Self.dnsName("model.test")))]
            + unknown.map { D.ext($0, critical: true, D.null) }
        let evaluation = TrustEvaluation(leaf: try Certificate(derEncoded: leaf.der),
                                         trustStore: TrustStore(anchors: [try Certificate(derEncoded: anchor.der)]),
                                         policy: ValidationPolicy(profile: .rfc5280), validationTime: UnixTime(secondsSinceEpoch: 1_780_000_000))
        guard case .untrusted(let report) = evaluation.evaluate() else {
            Issue.record("trusted")
            return
        }
        let reported = report.bestAttempt.failures.compactMap { failure -> OID? in
            if case .unknownCriticalExtension(_, let oid) = failure { return oid }
            return nil
        }
        #expect(reported == Array(unknown.prefix(4)))
        #expect(report.bestAttempt.anchor != nil)
    }
}
