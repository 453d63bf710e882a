@testable import CertPath
import CertPathDER
import Testing

/// Issue 30, class 6: what no path can fix — the end entity's own extKeyUsage, keyUsage for the
/// purpose, profile rules — is decided before any path is built, so a doomed leaf behind a flood of
/// issuers costs no signature check; the report names the leaf's failures as a path's report does.
/// A host name mismatch is recoverable (a trust exception may accept it): the search still runs, so
/// the report holds every failure of the best path.
@Suite("Doomed end entities are refused before path building")
struct DoomedLeafTests {
    /// root → "Issuing CA" → a leaf of `spec`, plus 99 same-named decoys (DecoyFloodTests' flood).
    static func chain(_ spec: CertificateSpec, decoys: Int = 99)
        throws -> (leaf: Certificate, real: Certificate, decoys: [Certificate], root: Certificate) {
        let root = try SignedCertificates.root()
        let real = try SignedCertificates.intermediate(.ca("Issuing CA"), by: root)
        var leafSpec = spec
        leafSpec.keyIdentifiers = false
        let leaf = try SignedCertificates.issue(leafSpec, subjectKey: TestKey(), issuer: real)
        let decoyList = try (0..<decoys).map { _ in try SignedCertificates.intermediate(.ca("Issuing CA"), by: root).certificate }
        return (leaf, real.certificate, decoyList, root.certificate)
    }

    static func evaluate(_ leaf: Certificate, _ intermediates: [Certificate], root: Certificate, hostname: String = "www.doomed.test")
        throws -> TrustResult {
        var policy = try ValidationPolicy.server(hostname: hostname)
        policy.profile = .pathValidation
        return TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: TrustStore(anchors: [root]), policy: policy,
                               validationTime: SignedCertificates.time).evaluate()
    }

    /// A server certificate for www.doomed.test with these extensions instead of the usual ones.
    static func leafSpec(keyUsage: [UInt8] = [0x80], unused: UInt8 = 7, extendedKeyUsage: OID = KnownOID.serverAuth,
                         extra: [[UInt8]] = []) -> CertificateSpec {
        CertificateSpec(subject: D.cn("www.doomed.test"), extensions: [
            D.ext(KnownOID.keyUsage, critical: true, D.bits(keyUsage, unused: unused)),
            D.ext(KnownOID.extKeyUsage, D.seq(D.oid(extendedKeyUsage))),
            D.ext(KnownOID.subjectAltName, D.seq(D.ctx(2, Array("www.doomed.test".utf8)))),
        ] + extra)
    }

    /// The doomed leaf behind 99 decoys and the real issuer: refused with `code`, no signature
    /// checked, no candidate considered; the leaf's failures are those of the path through the real
    /// issuer (judged by the pipeline as the search would judge it).
    func expectDoomed(_ spec: CertificateSpec, code: String) throws {
        let chain = try Self.chain(spec)
        let result = try Self.evaluate(chain.leaf, chain.decoys + [chain.real], root: chain.root)
        guard case .untrusted(let report) = result else {
            Issue.record("expected untrusted, got \(result)")
            return
        }
        #expect(report.primaryFailure.code == code)
        #expect(result.statistics.signatureChecks == 0)
        #expect(result.statistics.buildSteps == 0)
        // The full path, judged as the search judges it: the same failures of the leaf.
        var policy = try ValidationPolicy.server(hostname: "www.doomed.test")
        policy.profile = .pathValidation
        let context = EvaluationContext(budget: .default, validationTime: SignedCertificates.time, crypto: .shared)
        let pipeline = PathPipeline(policy: policy, context: context, revocation: nil, additionalCheck: nil, attemptsKept: 0)
        let full = pipeline.judge([chain.leaf, chain.real], anchor: chain.root, anchorIsPublicWebPKI: false, terminal: nil)
        #expect(report.bestAttempt.failures(of: chain.leaf) == full.failures(of: chain.leaf))
        #expect(report.primaryFailure == full.primaryFailure)
        #expect(!report.isRecoverable)
    }

    @Test("extKeyUsage without serverAuth: extendedKeyUsageForbids before any signature check")
    func extendedKeyUsage() throws {
        try expectDoomed(Self.leafSpec(extendedKeyUsage: KnownOID.clientAuth), code: "extendedKeyUsageForbids")
    }

    @Test("keyUsage without a TLS use of the key (keyCertSign only): keyUsageForbids before any signature check")
    func keyUsageForThePurpose() throws {
        try expectDoomed(Self.leafSpec(keyUsage: [0x04], unused: 2), code: "keyUsageForbids")
    }

    @Test("an unknown critical extension in the leaf: unknownCriticalExtension before any signature check")
    func unknownCriticalExtension() throws {
        let unknown = D.ext("1.3.6.1.4.1.55555.30.1" as OID, critical: true, D.tlv(.null, []))
        try expectDoomed(Self.leafSpec(extra: [unknown]), code: "unknownCriticalExtension")
    }

    @Test("a host name mismatch is recoverable: the search runs and the report names every failure of the best path")
    func hostnameMismatchStillSearches() throws {
        let chain = try Self.chain(Self.leafSpec(), decoys: 3)
        let result = try Self.evaluate(chain.leaf, chain.decoys + [chain.real], root: chain.root, hostname: "other.doomed.test")
        guard case .untrusted(let report) = result else {
            Issue.record("expected untrusted, got \(result)")
            return
        }
        #expect(report.primaryFailure.code == "hostnameMismatch")
        #expect(report.bestAttempt.anchor == chain.root)
        #expect(report.failures.map(\.code) == ["hostnameMismatch"])
        #expect(report.isRecoverable)
    }

    @Test("a good leaf is not refused early: trusted through the real issuer")
    func goodLeaf() throws {
        let chain = try Self.chain(Self.leafSpec(), decoys: 3)
        let result = try Self.evaluate(chain.leaf, chain.decoys + [chain.real], root: chain.root)
        guard case .trusted(let path) = result else {
            Issue.record("expected trusted, got \(result)")
            return
        }
        #expect(path.certificates == [chain.leaf, chain.real])
    }
}

/// Issue 30, class 6: no costly work on a path that is already lost — 6.1 stops checking signatures,
/// name constraints and policies after a path's first signature failure (as Chromium does), and
/// revocation (RFC 5280 6.3) is examined only for a path with no fatal failure.
@Suite("No costly work on a path already lost")
struct LostPathWorkTests {
    @Test("an intermediate whose signature the anchor's key refuses: its name constraints are not processed below it")
    func nameConstraintsStopAtTheFirstSignatureFailure() throws {
        let root = try SignedCertificates.root(.ca("Lost Root"))
        let impostor = try SignedCertificates.root(.ca("Lost Root"))  // same name, another key: the anchor
        let permitted = D.seq(D.ctx(0, constructed: true, D.seq(D.ctx(2, Array("allowed.test".utf8)))))
        let ca = try SignedCertificates.intermediate(.ca("Constrained CA", extra: [D.ext(KnownOID.nameConstraints, critical: true, permitted)]),
                                                     by: root)
        let leaf = try SignedCertificates.issue(.server("www.other.test"), subjectKey: TestKey(), issuer: ca)
        var policy = ValidationPolicy(purpose: .any)
        policy.profile = .pathValidation
        let result = TrustEvaluation(leaf: leaf, intermediates: [ca.certificate], trustStore: TrustStore(anchors: [impostor.certificate]),
                                     policy: policy, validationTime: SignedCertificates.time).evaluate()
        guard case .untrusted(let report) = result else {
            Issue.record("expected untrusted, got \(result)")
            return
        }
        #expect(report.primaryFailure == .badSignature(ca.certificate, issuer: impostor.certificate.subject))
        #expect(!report.failures.contains { $0.code == "nameConstraintViolation" })
        // Under the real root the same leaf violates the constraint (the check itself is in place).
        let real = TrustEvaluation(leaf: leaf, intermediates: [ca.certificate], trustStore: TrustStore(anchors: [root.certificate]),
                                   policy: policy, validationTime: SignedCertificates.time).evaluate()
        #expect(real.primaryFailure?.code == "nameConstraintViolation")
    }

    @Test("a path with a fatal failure: no revocation status is examined for it")
    func noRevocationForAForgedPath() throws {
        typealias F = CRLFixture
        // Placeholder signatures: the leaf's signature fails under the anchor (fatal).
        let leaf = F.certificate(distributionPoints: [F.distributionPoint(.full([F.uri("http://crl.example/ca.crl")]))])
        let anchor = F.certificate(issuer: F.name("CA"), subject: F.name("CA"), isCA: true)
        var crl = F.CRL()
        crl.extensions = [F.crlNumber(1)]
        var policy = ValidationPolicy(profile: .pathValidation)
        policy.undeterminedRevocationStatus = .reject
        let result = TrustEvaluation(leaf: leaf, trustStore: TrustStore(anchors: [anchor]), policy: policy,
                                     revocationEvidence: RevocationEvidence(crls: CRLStore([try crl.parse()])),
                                     validationTime: UnixTime(rfc3339: "2026-06-01T00:00:00Z")!).evaluate()
        guard case .untrusted(let report) = result else {
            Issue.record("expected untrusted, got \(result)")
            return
        }
        #expect(report.failures.contains { $0.code == "badSignature" || $0.code == "unusablePublicKey" })
        #expect(!report.failures.contains { $0.code == "revocationUnknown" || $0.code == "revoked" })
        // One signature check (the leaf's), none of the CRL.
        #expect(result.statistics.signatureChecks == 1)
    }
}
