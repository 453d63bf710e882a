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
        let context = EvaluationContext(budget: .default, validationTime: SignedCertificates.time, crypto: .shared, revocation: nil)
        let pipeline = PathPipeline(policy: policy, context: context, additionalCheck: nil, attemptsKept: 0)
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
