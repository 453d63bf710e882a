@testable import CertPath
import CertPathDER
import CertPathX509
import Foundation
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
        // A wildcard subjectAltName changes nothing: the commonName must still be a copy of a value
        // (`*.example` copied as `*.example`; a name the wildcard covers is not a copy).
        let wildcard = [Self.dnsName("*.example")] + sans
        #expect(!PurposeChecks.commonNamesAreSubjectAltNames(try Self.leaf(commonNames: names + ["unrelated.test"], subjectAltNames: wildcard)))
        #expect(!PurposeChecks.commonNamesAreSubjectAltNames(try Self.leaf(commonNames: names + ["a.example"], subjectAltNames: wildcard)))
        #expect(PurposeChecks.commonNamesAreSubjectAltNames(try Self.leaf(commonNames: names + ["*.example"], subjectAltNames: wildcard)))
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
        #expect(refused.result == .failure(.explicitPolicyRequired(certificateIndex: 2)), "\(refused.result)")
    }

    @Test("A large subjectAltName is checked against the rules table once per certificate, not once per path attempt")
    func subjectAltNameRowsNotRescannedPerAttempt() throws {
        // RFC 5280 4.2.1.6: every dNSName in preferred name syntax. A mesh of same-named
        // intermediates makes the search validate many paths through each certificate; the rows'
        // answer must not cost a scan of the names per path. Bound: 1,000 path attempts' profile
        // checks of a 40,000-name leaf cost less than parsing it once (a scan per attempt would cost
        // about a thousand parses' worth of scanning).
        let names = (0..<40_000).map { Self.dnsName("host\($0).example") }
        for (last, breaks) in [(Self.dnsName("a.example"), false), (Self.dnsName("a..example"), true)] {
            var builder = CertificateBuilder()
            builder.subject = D.tlv(.sequence, D.rdn(D.atv(D.commonName, D.utf8("a.example"))))
            builder.extensions = [D.ext(KnownOID.subjectAltName, D.tlv(.sequence, (names + [last]).flatMap { $0 }))]
            let der = builder.der
            let clock = ContinuousClock()
            var certificate: Certificate?
            let parse = try clock.measure { certificate = try Certificate(derEncoded: der) }
            let leaf = try #require(certificate)
            var answers = Set<Bool>()
            let attempts = clock.measure {
                for _ in 0..<1_000 {
                    answers.insert(CertificateRules.violations(leaf, at: .endEntity, profile: .webPKI).contains(.invalidDNSNameInSubjectAltName))
                }
            }
            #expect(answers == [breaks])
            #expect(attempts < parse, "1,000 attempts \(attempts), one parse \(parse)")
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
        // The leaf's own fatal failures are decided before any path is built (issue 30): the report
        // is the leaf's alone.
        #expect(report.bestAttempt.certificates.count == 1 && report.bestAttempt.anchor == nil)
    }

    // MARK: Revocation

    typealias F = CRLFixture

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    @Test("An indirect CRL repeating a serial under shared certificateIssuer lists: the entry for the certificate's issuer is found")
    func repeatedSerialUnderSharedLists() throws {
        let strangers = (0..<20).map { F.directoryName(F.name("Stranger \($0)")) }
        let certificate = F.certificate(serial: [0x42])
        func crl(_ entries: [[UInt8]]) throws -> CertificateRevocationList {
            var crl = F.CRL()
            crl.entries = entries
            crl.extensions = [F.crlNumber(1), F.issuingDistributionPoint(indirect: true)]
            return try crl.parse()
        }
        // Twenty entries under one list of strangers (the first sets it, the others inherit it).
        let underStrangers = [F.entry(serial: [0x42], extensions: [F.certificateIssuer(strangers)])]
            + (1..<20).map { _ in F.entry(serial: [0x42]) }
        #expect(RevocationState.entry(listing: certificate, in: try crl(underStrangers)) == nil)
        // Then a new list naming the certificate's issuer (CA, spelled in another case), inherited by one more entry.
        let caList = F.certificateIssuer(strangers.prefix(3) + [F.directoryName(F.name("ca"))])
        let named = try crl(underStrangers + [F.entry(serial: [0x42], extensions: [caList]), F.entry(serial: [0x42])])
        let found = try #require(RevocationState.entry(listing: certificate, in: named))
        #expect(found.certificateIssuer?.count == 4)
        // Another serial is never listed.
        #expect(RevocationState.entry(listing: F.certificate(serial: [0x43]), in: named) == nil)
    }

    @Test("Names of an issuing distribution point against a point's names: by keys when the point has many, same answers",
          arguments: [2, 5, 12])
    func matchesAnyOfLongLists(count: Int) throws {
        let uris = (0..<count).map { GeneralName.uniformResourceIdentifier(Array("http://crl.example/\($0).crl".utf8)[...]) }
        let directories = (0..<count).map { GeneralName.directoryName(F.parsedName("Point \($0)")) }
        let names = uris + directories
        let point = StatusDistributionPoint(names: names, reasons: nil, cRLIssuer: nil, isDefault: false)
        // A directory name equal under RFC 5280 7.1 (case), an exact URI, and strangers.
        let caseVariant = GeneralName.directoryName(F.parsedName("POINT \(count - 1)"))
        let strangers = (0..<count).map { GeneralName.uniformResourceIdentifier(Array("http://other.example/\($0)".utf8)[...]) }
        #expect(point.matchesAny(of: strangers + [caseVariant]))
        #expect(point.matchesAny(of: strangers + [uris[count / 2]]))
        #expect(!point.matchesAny(of: strangers))
        #expect(!point.matchesAny(of: strangers + [.uniformResourceIdentifier(Array("HTTP://crl.example/0.crl".utf8)[...])]))
        // The pairwise answer, for comparison, over every single name.
        for name in names + strangers + [caseVariant] {
            #expect(point.matchesAny(of: [name]) == names.contains { CRLScope.matches(name, $0) })
        }
    }

    @Test("A distribution point naming many cRLIssuers: each CRL issuer is looked up by its RFC 5280 7.1 key",
          arguments: [3, 5, 20])
    func manyCRLIssuers(count: Int) {
        let names = (0..<count).map { F.directoryName(F.name("Signer \($0)")) }
        let certificate = F.certificate(distributionPoints: [F.distributionPoint(.full([F.uri("http://crl.example/")]), cRLIssuer: names)])
        let point = StatusDistributionPoint.points(for: certificate)[0]
        #expect(point.namesCRLIssuer(F.parsedName("SIGNER \(count - 1)")))
        #expect(point.namesCRLIssuer(F.parsedName("Signer 0")))
        #expect(!point.namesCRLIssuer(F.parsedName("Signer \(count)")))
        #expect(!StatusDistributionPoint.points(for: certificate)[1].namesCRLIssuer(F.parsedName("Signer 0")))  // the default point
    }

    /// The revoking CRL of the sample PKI's server certificate (TestVectors/policy-values).
    static func revokingCRL() throws -> CertificateRevocationList {
        let url = TestCertificates.testVectors.appendingPathComponent("policy-values/revoked-server.crl.pem")
        return try #require(try PEM.readCRLs([UInt8](try Data(contentsOf: url))).crls.first)
    }

    @Test("CRLs anyone could add — issued after the validation time, by the same name — do not hide the revoking one",
          arguments: [64, 200])
    func futureCRLsDoNotHideRevocation(count: Int) throws {
        let revoking = try Self.revokingCRL()
        let future = try (0..<count).map { index -> CertificateRevocationList in
            var crl = F.CRL()
            crl.issuer = Array(revoking.issuer.der)
            crl.thisUpdate = F.utcTime("3001010000" + Self.twoDigits(index % 60) + "Z")
            crl.extensions = [F.crlNumber(Int64(1000 + index))]
            return try crl.parse()
        }
        var evaluation = SamplePKI.server(SamplePKI.rsaServer)
        evaluation.revocationEvidence = RevocationEvidence(crls: CRLStore(future + [revoking]))
        #expect(evaluation.evaluate().primaryFailure?.code == "revoked")
    }

    /// The reasons of the `revocationUnknown` failures of the RFC 5280 6.3 stage for `leaf` (issued by
    /// the fixture's CA, itself the anchor) with `crls` and an undetermined status rejected. The stage
    /// is called directly: the fixture's signatures are placeholders, and the pipeline examines
    /// revocation only for a path with no fatal failure (issue 30).
    static func revocationUnknownReasons(_ leaf: Certificate, crls: [CertificateRevocationList],
                                         mode: UndeterminedRevocationStatus = .reject) -> [String] {
        var policy = ValidationPolicy(profile: .rfc5280)
        policy.undeterminedRevocationStatus = mode
        let anchor = F.certificate(issuer: F.name("CA"), subject: F.name("CA"), isCA: true)
        let context = EvaluationContext(budget: policy.budget, validationTime: UnixTime(rfc3339: "2026-06-01T00:00:00Z")!, crypto: .shared)
        let pipeline = PathPipeline(policy: policy, context: context,
                                    revocation: RevocationChecker.checking(RevocationEvidence(crls: CRLStore(crls)), policy: policy,
                                                                           certificates: []),
                                    additionalCheck: nil, attemptsKept: 0)
        var findings: [CRLConformanceFinding] = []
        guard let failure = pipeline.revocation?.failure(for: leaf, above: [][...], anchor: anchor, context: context, issuerPaths: pipeline,
                                                        strictCRLConformance: policy.crlConformance.isStrict(under: .rfc5280),
                                                        findings: &findings),
              case .revocationUnknown(_, let evidence) = failure else { return [] }
        return [evidence.description]
    }

    @Test("Past 128 examined CRLs for one point (here CRLs of a CRL issuer with no certificate) the rest are not examined, and the report says so")
    func examinationLimit() throws {
        let signer = F.name("Signer")
        let certificate = F.certificate(distributionPoints: [F.distributionPoint(.full([F.uri("http://crl.example/")]), cRLIssuer: [F.directoryName(signer)])])
        let crls = try (0..<140).map { index -> CertificateRevocationList in
            var crl = F.CRL()
            crl.issuer = signer
            crl.thisUpdate = F.utcTime("200101" + Self.twoDigits(index / 60) + Self.twoDigits(index % 60) + "00Z")
            crl.extensions = [F.crlNumber(Int64(index + 1)), F.issuingDistributionPoint(indirect: true)]
            return try crl.parse()
        }
        // A status left open at the limit is a failure in every mode: a revoking CRL could be behind
        // the others (accept included: the limit is not evidence).
        for mode in UndeterminedRevocationStatus.allCases {
            let unknown = Self.revocationUnknownReasons(certificate, crls: crls, mode: mode)
            #expect(unknown.count == 1, "\(mode)")
            #expect(unknown.first?.contains("128 CRLs were examined for one distribution point") == true, "\(mode): \(unknown)")
        }
    }

    @Test("""
        An undetermined status of a certificate with more than 32 distribution points, CRLs supplied, says only 32 were \
        considered and fails in every mode: the limit is not evidence (a CRL for a point left out may revoke it)
        """)
    func distributionPointCapExplained() throws {
        let certificate = F.certificate(distributionPoints: (0..<40).map { F.distributionPoint(.full([F.uri("http://crl.example/\($0).crl")])) })
        var crl = F.CRL()
        crl.extensions = [F.crlNumber(1), F.issuingDistributionPoint(.full([F.uri("http://crl.example/39.crl")]))]
        for mode in UndeterminedRevocationStatus.allCases {
            let reasons = Self.revocationUnknownReasons(certificate, crls: [try crl.parse()], mode: mode)
            #expect(reasons.count == 1, "\(mode)")
            #expect(reasons.first?.hasSuffix("(only the first 32 of its 40 cRLDistributionPoints were considered)") == true, "\(mode): \(reasons)")
        }
        // At the limit, every point is processed: an undetermined status is the mode's to decide.
        let atLimit = F.certificate(distributionPoints: (0..<32).map { F.distributionPoint(.full([F.uri("http://crl.example/\($0).crl")])) })
        #expect(Self.revocationUnknownReasons(atLimit, crls: [try crl.parse()], mode: .accept).isEmpty)
    }

    // MARK: Name constraints

    @Test("A directoryName subtree costs one budget unit per pair plus one per 64 bytes; other forms one")
    func directoryNameCost() throws {
        // A subtree of 20 RDNs (about 700 bytes) and a name under it.
        let rdns = (0..<20).map { D.rdn(D.atv(D.organizationalUnit, D.utf8("Organizational unit number \($0)"))) }
        let subtreeName = try Name(derEncoded: D.tlv(.sequence, rdns.flatMap { $0 }))
        let name = try Name(derEncoded: D.tlv(.sequence, (rdns + [D.rdn(D.atv(D.commonName, D.utf8("leaf")))]).flatMap { $0 }))
        let extra = subtreeName.der.count / 64
        #expect(extra >= 10)
        #expect(NameConstraintsChecker.extraCost(of: .directoryName(subtreeName)) == extra)
        #expect(NameConstraintsChecker.extraCost(of: .dNSName(Array("example.com".utf8)[...])) == 0)
        let constraints = NameConstraints(permittedSubtrees: [GeneralSubtree(base: .directoryName(subtreeName))], excludedSubtrees: nil)
        // Enough budget: satisfied, and 1 + extra units spent.
        var budget = 1 + extra
        #expect(NameConstraintsChecker.check(subject: name, subjectAlternativeNames: nil, constraints: constraints, comparisons: &budget) == .satisfied)
        #expect(budget == 0)
        // One unit short: the check stops before comparing.
        budget = extra
        #expect(NameConstraintsChecker.check(subject: name, subjectAlternativeNames: nil, constraints: constraints, comparisons: &budget) == .budgetExhausted)
    }

    // MARK: PEM

    @Test("PEM after 100,000 lines: lines are counted, not held (a file of line feeds cost 33 bytes per byte)")
    func manyLinesBeforeABlock() throws {
        let block = "-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END CERTIFICATE-----"
        let text = Array((String(repeating: "\n", count: 50_000) + "some text\r\n" + String(repeating: "\n", count: 49_999) + block).utf8)
        let document = try PEM.decode(text)
        #expect(document.blocks.map(\.line) == [100_001])
        #expect(document.blocks.first?.der == [0x30, 0x03, 0x02, 0x01, 0x01])
        #expect(document.skipped.map(\.lines) == [50_001...50_001])
        // With a byte-order mark, a final line feed, and a mismatched END named by its line.
        let marked = try PEM.decode([0xEF, 0xBB, 0xBF] + Array((block + "\n").utf8))
        #expect(marked.blocks.map(\.line) == [1] && marked.skipped.isEmpty)
        do throws(PEM.Error) {
            _ = try PEM.decode(Array("\n\n-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END X509 CRL-----".utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.line == 5)
            #expect(error.reason == "END label \"X509 CRL\" does not match BEGIN \"CERTIFICATE\" of line 3", "\(error)")
        }
    }
}

