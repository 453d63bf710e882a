@testable import CertPath
import CertPathDER
import Testing
import TestSupport

/// Issue 30, class 5: the verdict must not depend on the order the intermediates were presented in.
/// The issuer candidates of a certificate are ranked by what is known without a signature check, ties
/// broken by the certificates' DER (a total order), and no count of failed candidates cuts the search
/// (the signature cost budget bounds it): so every shuffle of the same intermediates, repeats
/// included, gives the same verdict, the same path or the same failures.
@Suite("Path building does not depend on the order of the presented certificates")
struct OrderIndependenceTests {
    /// A set of certificates to evaluate in many orders.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let leaf: Certificate
        let intermediates: [Certificate]
        let anchors: [Certificate]
        let policy: ValidationPolicy
        let time: UnixTime
        var testDescription: String { name }
    }

    /// What an evaluation found, in comparable form: trusted with its path (DER), or the primary
    /// failure's code and every failure's code of the best attempt with its path.
    static func outcome(_ result: TrustResult) -> String {
        switch result {
        case .trusted(let path):
            return "trusted " + path.certificates.map { SHA256Digest(hashing: $0.der).bytes.prefix(6).map { String($0) }.joined() }
                .joined(separator: ",")
        case .untrusted(let report):
            return "untrusted \(report.primaryFailure.code) [" + report.failures.map(\.code).joined(separator: ",") + "] "
                + report.bestAttempt.certificates.map { SHA256Digest(hashing: $0.der).bytes.prefix(6).map { String($0) }.joined() }
                .joined(separator: ",")
        }
    }

    static func evaluate(_ c: Case, _ intermediates: [Certificate]) -> TrustResult {
        TrustEvaluation(leaf: c.leaf, intermediates: intermediates, trustStore: TrustStore(anchors: c.anchors), policy: c.policy,
                        validationTime: c.time).evaluate()
    }

    /// Every shuffle (`shuffles` of them, seeded) of the intermediates, and of the intermediates
    /// each given twice, gives the outcome of the order given.
    static func expectOrderIndependent(_ c: Case, shuffles: Int = 24, seed: UInt64 = 30) -> TrustResult {
        let reference = evaluate(c, c.intermediates)
        let expected = outcome(reference)
        var generator = SplitMix64(state: seed)
        for round in 0..<shuffles {
            var order = c.intermediates
            if round % 4 == 3 { order += c.intermediates }  // duplicates: the same certificate presented twice
            order.shuffle(using: &generator)
            let got = outcome(evaluate(c, order))
            #expect(got == expected, "\(c.name), shuffle \(round) (seed \(seed))")
        }
        return reference
    }

    // MARK: The project's multi-intermediate vector sets

    static func pb(_ name: String) -> Certificate { try! TestCertificates.pb(name) }

    static var vectorCases: [Case] {
        let any = ValidationPolicy(purpose: .any)
        let time = TestCertificates.validationTime
        let cross = ["cross/intermediate-by-old-expired.pem", "cross/intermediate-by-new.pem", "cross/intermediate-by-old-valid.pem",
                     "cross/intermediate-by-new-other-ski.pem", "cross/old-root-expired.pem"].map(pb)
        let ranked = ["ranked/ca-expired.pem", "ranked/ca-orphan.pem", "ranked/ca-wrong-key.pem"].map(pb)
        let loop = ["loop/ca-a-by-b.pem", "loop/ca-b-by-a.pem", "loop/ca-a-by-c.pem", "loop/ca-c-by-b.pem"].map(pb)
        let depth = ["depth/ca1.pem", "depth/ca2.pem", "depth/ca3.pem", "depth/root-reissued.pem"].map(pb)
        let tlsCAs = ["tls/ca.pem", "tls/ca-eku-server.pem", "tls/ca-eku-client.pem", "tls/ca-eku-any.pem"].map(pb)
        let server = (try? ValidationPolicy.server(hostname: "www.tls.test")) ?? any
        let samplePolicy = (try? ValidationPolicy.server(hostname: SamplePKI.hostname)) ?? any
        let sampleIntermediates = [SamplePKI.rsaIntermediate, SamplePKI.certificate("rsa/intermediate-cross-expired.pem"),
                                   SamplePKI.certificate("rsa/subca.pem"), SamplePKI.oldRoot]
        return [
            Case(name: "cross: new root", leaf: pb("cross/leaf.pem"), intermediates: cross, anchors: [pb("cross/new-root.pem")], policy: any, time: time),
            Case(name: "cross: old root", leaf: pb("cross/leaf.pem"), intermediates: cross, anchors: [pb("cross/old-root.pem")], policy: any, time: time),
            Case(name: "cross: both roots", leaf: pb("cross/leaf.pem"), intermediates: cross,
                 anchors: [pb("cross/old-root.pem"), pb("cross/new-root.pem")], policy: any, time: time),
            Case(name: "cross: unrelated root", leaf: pb("cross/leaf.pem"), intermediates: cross, anchors: [pb("loop/unrelated-root.pem")],
                 policy: any, time: time),
            Case(name: "ranked: leaf", leaf: pb("ranked/leaf.pem"), intermediates: ranked, anchors: [pb("ranked/root.pem")], policy: any, time: time),
            Case(name: "ranked: expired leaf", leaf: pb("ranked/leaf-expired.pem"), intermediates: ranked, anchors: [pb("ranked/root.pem")],
                 policy: any, time: time),
            Case(name: "loop", leaf: pb("loop/leaf.pem"), intermediates: loop, anchors: [pb("loop/unrelated-root.pem")], policy: any, time: time),
            Case(name: "depth", leaf: pb("depth/leaf.pem"), intermediates: depth, anchors: [pb("depth/root.pem")], policy: any, time: time),
            Case(name: "tls: server under four CAs", leaf: pb("tls/server.pem"), intermediates: tlsCAs, anchors: [pb("tls/root.pem")],
                 policy: server, time: time),
            Case(name: "tls: client leaf for a server", leaf: pb("tls/client.pem"), intermediates: tlsCAs, anchors: [pb("tls/root.pem")],
                 policy: server, time: time),
            Case(name: "sample PKI: server", leaf: SamplePKI.rsaServer, intermediates: sampleIntermediates, anchors: [SamplePKI.rsaRoot],
                 policy: samplePolicy, time: SamplePKI.time),
            Case(name: "sample PKI: server, old root only", leaf: SamplePKI.rsaServer, intermediates: sampleIntermediates,
                 anchors: [SamplePKI.oldRoot], policy: samplePolicy, time: SamplePKI.time),
            Case(name: "sample PKI: server under the sub-CA", leaf: SamplePKI.certificate("rsa/server-under-subca.pem"),
                 intermediates: sampleIntermediates, anchors: [SamplePKI.rsaRoot], policy: samplePolicy, time: SamplePKI.time),
        ]
    }

    @Test("the project's vector sets: every shuffle and repeat of the intermediates gives the same verdict", arguments: vectorCases)
    func vectorSets(_ c: Case) {
        _ = Self.expectOrderIndependent(c)
    }

    // MARK: Generated same-named CAs

    /// `count` CAs named "Rollover CA" with distinct keys, issued by one root, without key identifiers
    /// (so nothing but a signature check tells them apart); the leaf is issued by the one at `signer`.
    static func rollover(count: Int, signer: Int) throws -> Case {
        let root = try SignedCertificates.root(.ca("Rollover Root"))
        var spec = CertificateSpec.ca("Rollover CA")
        spec.keyIdentifiers = false
        let cas = try (0..<count).map { _ in try SignedCertificates.intermediate(spec, by: root) }
        var leafSpec = CertificateSpec.server("www.rollover.test")
        leafSpec.keyIdentifiers = false
        let leaf = try SignedCertificates.issue(leafSpec, subjectKey: TestKey(), issuer: cas[signer])
        var policy = try ValidationPolicy.server(hostname: "www.rollover.test")
        policy.profile = .pathValidation  // (the profile asks for key identifiers: RFC 5280 section 6 alone)
        return Case(name: "\(count) rollover CAs, signer \(signer)", leaf: leaf, intermediates: cas.map(\.certificate),
                    anchors: [root.certificate], policy: policy, time: SignedCertificates.time)
    }

    @Test("five to sixteen same-named CAs without key identifiers: trusted whichever signed the leaf, in every order",
          arguments: [(5, 0), (5, 4), (8, 7), (16, 0), (16, 9), (16, 15)])
    func sameNamedRollover(_ count: Int, _ signer: Int) throws {
        let c = try Self.rollover(count: count, signer: signer)
        let result = Self.expectOrderIndependent(c, shuffles: 12, seed: UInt64(count * 100 + signer))
        guard case .trusted(let path) = result else {
            Issue.record("expected trusted, got \(result)")
            return
        }
        #expect(path.certificates == [c.leaf, c.intermediates[signer]])
        // Every other CA at most once against the leaf, the signer's own certificate once against the root.
        #expect(result.statistics.signatureChecks <= count + 1)
        #expect(result.statistics.abandonedCandidates == 0)
    }

    @Test("cross-signed same-named CAs under two roots, one an anchor: trusted through it in every order")
    func crossSignedSameNamed() throws {
        let anchor = try SignedCertificates.root(.ca("Cross Root A"))
        let other = try SignedCertificates.root(.ca("Cross Root B"))
        let key = TestKey()
        var spec = CertificateSpec.ca("Cross CA")
        spec.keyIdentifiers = false
        // The same key certified by both roots, and four more same-named CAs with other keys by each.
        var cas = [try SignedCertificates.intermediate(spec, by: other, key: key).certificate]
        for root in [other, anchor] {
            for _ in 0..<4 { cas.append(try SignedCertificates.intermediate(spec, by: root).certificate) }
        }
        let viaAnchor = try SignedCertificates.intermediate(spec, by: anchor, key: key)
        cas.append(viaAnchor.certificate)
        var leafSpec = CertificateSpec.server("www.cross.test")
        leafSpec.keyIdentifiers = false
        let leaf = try SignedCertificates.issue(leafSpec, subjectKey: TestKey(), issuer: viaAnchor)
        var policy = try ValidationPolicy.server(hostname: "www.cross.test")
        policy.profile = .pathValidation
        let c = Case(name: "cross-signed", leaf: leaf, intermediates: cas + [other.certificate], anchors: [anchor.certificate],
                     policy: policy, time: SignedCertificates.time)
        let result = Self.expectOrderIndependent(c, shuffles: 16)
        guard case .trusted(let path) = result else {
            Issue.record("expected trusted, got \(result)")
            return
        }
        #expect(path.certificates == [leaf, viaAnchor.certificate])
    }

    @Test("same-named CAs none of which signed the leaf: the same failure in every order")
    func noSignerAmongSameNamed() throws {
        let c = try Self.rollover(count: 9, signer: 0)
        let without = Case(name: "no signer", leaf: c.leaf, intermediates: Array(c.intermediates.dropFirst()), anchors: c.anchors,
                           policy: c.policy, time: c.time)
        let result = Self.expectOrderIndependent(without, shuffles: 12)
        guard case .untrusted(let report) = result else {
            Issue.record("expected untrusted, got \(result)")
            return
        }
        #expect(report.primaryFailure.code == "badSignature")
        #expect(result.statistics.signatureChecks == 8)
    }

    @Test("a certificate presented twice is one candidate: no second check of the same signature")
    func duplicatesAreOneCandidate() throws {
        let c = try Self.rollover(count: 3, signer: 2)
        let once = Self.evaluate(c, c.intermediates)
        let twice = Self.evaluate(c, c.intermediates + c.intermediates.reversed() + c.intermediates)
        #expect(Self.outcome(once) == Self.outcome(twice))
        #expect(once.statistics.signatureChecks == twice.statistics.signatureChecks)
        #expect(once.statistics.buildSteps == twice.statistics.buildSteps)
    }
}
