@testable import CertPath
import CertPathDER
import Testing

/// The purpose rules that depend on the key and on the strict extended key usage reading, and the
/// depth limit counted in logical intermediates.
@Suite("Purpose rules: TLS key usage by key type, strict extKeyUsage, logical depth")
struct PurposeRulesTests {
    static func eku(_ oids: OID..., critical: Bool? = nil) -> [UInt8] {
        D.ext(KnownOID.extKeyUsage, critical: critical, D.tlv(.sequence, oids.flatMap { D.oid($0) }))
    }

    /// root → intermediate (with `intermediateExtra`) → leaf from `leafSpec` with key `leafKey`.
    static func chain(leafSpec: CertificateSpec, leafKey: TestKey = TestKey(), intermediateExtra: [[UInt8]] = [],
                      rootExtra: [[UInt8]] = []) throws -> (leaf: Certificate, intermediate: Certificate, root: Certificate) {
        let root = try SignedCertificates.root(.ca("Purpose Root", extra: rootExtra))
        let intermediate = try SignedCertificates.intermediate(.ca("Purpose CA", pathLength: 0, extra: intermediateExtra), by: root)
        return (try SignedCertificates.issue(leafSpec, subjectKey: leafKey, issuer: intermediate), intermediate.certificate, root.certificate)
    }

    static func evaluate(_ chain: (leaf: Certificate, intermediate: Certificate, root: Certificate), _ policy: ValidationPolicy) -> TrustResult {
        TrustEvaluation(leaf: chain.leaf, intermediates: [chain.intermediate], trustStore: TrustStore(anchors: [chain.root]),
                        policy: policy, validationTime: SignedCertificates.time).evaluate()
    }

    /// A server certificate for leaf.test whose keyUsage has exactly `bits` (first octet, unused bits).
    static func server(keyUsage: UInt8, unused: UInt8, extra: [[UInt8]] = []) -> CertificateSpec {
        var spec = CertificateSpec.server("leaf.test", extra: extra)
        spec.extensions[0] = D.ext(KnownOID.keyUsage, critical: true, D.bits([keyUsage], unused: unused))
        return spec
    }

    @Test("EC leaf with keyUsage keyAgreement only is a valid TLS server key (TLS 1.2 static ECDH, RFC 4492); an Ed25519 one is not")
    func ecKeyAgreement() throws {
        let server = try ValidationPolicy.server(hostname: "leaf.test")
        let ec = try Self.chain(leafSpec: Self.server(keyUsage: 0x08, unused: 3), leafKey: TestKey(.p256))
        #expect(Self.evaluate(ec, server).isTrusted, "\(Self.evaluate(ec, server).primaryFailure.map(Diagnostics.describe) ?? "")")
        // The same key usage for an Ed25519 key, which cannot agree keys: refused.
        let edwards = try Self.chain(leafSpec: Self.server(keyUsage: 0x08, unused: 3))
        #expect(Self.evaluate(edwards, server).primaryFailure == .keyUsageForbids(edwards.leaf, required: .digitalSignature, present: .keyAgreement))
    }

    @Test("EC client certificate with keyUsage keyAgreement only is accepted (fixed ECDH client authentication)")
    func ecClientKeyAgreement() throws {
        var spec = CertificateSpec(subject: D.cn("client"), extensions: [
            D.ext(KnownOID.keyUsage, critical: true, D.bits([0x08], unused: 3)), Self.eku(KnownOID.clientAuth),
        ])
        spec.extensions.append(D.ext(KnownOID.subjectAltName, D.seq(D.ctx(2, Array("client.test".utf8)))))
        let chain = try Self.chain(leafSpec: spec, leafKey: TestKey(.p256))
        #expect(Self.evaluate(chain, .client()).isTrusted)
    }

    // MARK: Strict extended key usage

    static func strict(_ policy: ValidationPolicy) -> ValidationPolicy {
        var policy = policy
        policy.extendedKeyUsageReading = .strict
        return policy
    }

    @Test("Strict EKU: a leaf with serverAuth alone, or with clientAuth, passes")
    func strictAccepts() throws {
        let server = try ValidationPolicy.server(hostname: "leaf.test")
        #expect(Self.evaluate(try Self.chain(leafSpec: .server("leaf.test")), Self.strict(server)).isTrusted)
        var both = CertificateSpec.server("leaf.test")
        both.extensions[1] = Self.eku(KnownOID.serverAuth, KnownOID.clientAuth)
        #expect(Self.evaluate(try Self.chain(leafSpec: both), Self.strict(server)).isTrusted)
    }

    @Test("Strict EKU: each refusal names its row", arguments: [
        ("no extKeyUsage", ProfileRule.extendedKeyUsageMissing, [OID](), false),
        ("anyExtendedKeyUsage beside serverAuth", .extendedKeyUsageAnyPurpose, [KnownOID.serverAuth, KnownOID.anyExtendedKeyUsage], false),
        ("codeSigning beside serverAuth", .extendedKeyUsageIncompatiblePurpose, [KnownOID.serverAuth, KnownOID.codeSigning], false),
        ("emailProtection beside serverAuth", .extendedKeyUsageIncompatiblePurpose, [KnownOID.serverAuth, KnownOID.emailProtection], false),
        ("timeStamping beside serverAuth", .extendedKeyUsageIncompatiblePurpose, [KnownOID.serverAuth, KnownOID.timeStamping], false),
        ("OCSPSigning beside serverAuth", .extendedKeyUsageIncompatiblePurpose, [KnownOID.serverAuth, KnownOID.ocspSigning], false),
        ("precertificate signing beside serverAuth", .extendedKeyUsageIncompatiblePurpose, [KnownOID.serverAuth, KnownOID.precertificateSigning], false),
        ("a critical extKeyUsage", .extendedKeyUsageCritical, [KnownOID.serverAuth], true),
    ] as [(String, ProfileRule, [OID], Bool)])
    func strictRefuses(_ what: String, _ rule: ProfileRule, _ purposes: [OID], _ critical: Bool) throws {
        var spec = CertificateSpec.server("leaf.test")
        if purposes.isEmpty {
            spec.extensions.remove(at: 1)
        } else {
            spec.extensions[1] = D.ext(KnownOID.extKeyUsage, critical: critical ? true : nil, D.tlv(.sequence, purposes.flatMap { D.oid($0) }))
        }
        let chain = try Self.chain(leafSpec: spec)
        let server = try ValidationPolicy.server(hostname: "leaf.test")
        let result = Self.evaluate(chain, Self.strict(server))
        #expect(result.trustResultFailures.contains(.profileViolation(chain.leaf, rule)), "\(result.trustResultFailures.map(Diagnostics.describe))")
        // Not a rule of the default reading.
        #expect(Self.evaluate(chain, server).isTrusted, "\(Self.evaluate(chain, server).primaryFailure.map(Diagnostics.describe) ?? "")")
    }

    @Test("Strict EKU: anyExtendedKeyUsage in the leaf's issuer does not stand for the purpose; a root must not carry extKeyUsage")
    func strictIssuers() throws {
        let server = try ValidationPolicy.server(hostname: "leaf.test")
        let anyIssuer = try Self.chain(leafSpec: .server("leaf.test"), intermediateExtra: [Self.eku(KnownOID.anyExtendedKeyUsage)])
        #expect(Self.evaluate(anyIssuer, Self.strict(server)).trustResultFailures.contains(.profileViolation(anyIssuer.intermediate, .extendedKeyUsageAnyPurpose)))
        #expect(Self.evaluate(anyIssuer, server).isTrusted)
        let rootWithEKU = try Self.chain(leafSpec: .server("leaf.test"), rootExtra: [Self.eku(KnownOID.serverAuth)])
        #expect(Self.evaluate(rootWithEKU, Self.strict(server)).trustResultFailures.contains(.profileViolation(rootWithEKU.root, .extendedKeyUsageInRoot)))
        #expect(Self.evaluate(rootWithEKU, server).isTrusted)
    }

    @Test("Strict EKU for clientAuth: the CA that issued the client certificate must carry extKeyUsage (Chromium's CLIENT_AUTH_STRICT)")
    func strictClientIssuer() throws {
        let spec = CertificateSpec(subject: D.cn("client"), extensions: [
            D.ext(KnownOID.keyUsage, critical: true, D.bits([0x80], unused: 7)), Self.eku(KnownOID.clientAuth),
        ])
        let bare = try Self.chain(leafSpec: spec)
        #expect(Self.evaluate(bare, Self.strict(.client())).trustResultFailures.contains(.profileViolation(bare.intermediate, .extendedKeyUsageMissing)))
        let marked = try Self.chain(leafSpec: spec, intermediateExtra: [Self.eku(KnownOID.clientAuth)])
        #expect(Self.evaluate(marked, Self.strict(.client())).isTrusted)
    }

    // MARK: Depth in logical intermediates

    @Test("maximumIntermediates counts intermediates that are not self-issued (RFC 5280 4.2.1.9's counting)")
    func logicalDepth() throws {
        // root → CA (key 1) → CA re-issued to itself with key 2 (self-issued, a key rollover) → leaf.
        let root = try SignedCertificates.root(.ca("Depth Root"))
        let first = try SignedCertificates.intermediate(.ca("Depth CA"), by: root)
        let rollover = try SignedCertificates.intermediate(.ca("Depth CA"), by: first)
        let leaf = try SignedCertificates.issue(.server("leaf.test"), subjectKey: TestKey(), issuer: rollover)
        #expect(rollover.certificate.isSelfIssued)
        func evaluate(_ limit: Int) throws -> TrustResult {
            var policy = try ValidationPolicy.server(hostname: "leaf.test")
            policy.maximumIntermediates = limit
            return TrustEvaluation(leaf: leaf, intermediates: [rollover.certificate, first.certificate], trustStore: TrustStore(anchors: [root.certificate]),
                                   policy: policy, validationTime: SignedCertificates.time).evaluate()
        }
        // Two intermediates, one of them self-issued: one logical intermediate.
        let one = try evaluate(1)
        #expect(one.isTrusted, "\(one.primaryFailure.map(Diagnostics.describe) ?? "")")
        let none = try evaluate(0)
        guard case .maximumDepthExceeded(_, let limit)? = none.primaryFailure else {
            Issue.record("expected maximumDepthExceeded, got \(String(describing: none.primaryFailure))")
            return
        }
        #expect(limit == 0)
    }

    @Test("Self-issued intermediates are bounded too: 2 × maximumIntermediates + 1 intermediates in all")
    func selfIssuedBound() throws {
        // root → root's name with key 2 → root's name with key 3 → leaf: two intermediates, both
        // self-issued (key rollovers), so none counts against maximumIntermediates.
        let root = try SignedCertificates.root(.ca("Rollover Root"))
        let second = try SignedCertificates.intermediate(.ca("Rollover Root"), by: root)
        let third = try SignedCertificates.intermediate(.ca("Rollover Root"), by: second)
        #expect(second.certificate.isSelfIssued && third.certificate.isSelfIssued)
        func evaluate(_ issuer: SignedCertificates.Issuer, _ intermediates: [Certificate], limit: Int) throws -> TrustResult {
            let leaf = try SignedCertificates.issue(.server("leaf.test"), subjectKey: TestKey(), issuer: issuer)
            var policy = try ValidationPolicy.server(hostname: "leaf.test")
            policy.maximumIntermediates = limit
            return TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: TrustStore(anchors: [root.certificate]),
                                   policy: policy, validationTime: SignedCertificates.time, collectAllAttempts: true).evaluate()
        }
        // Limit 0: one self-issued intermediate fits (2 × 0 + 1), two do not. (Every certificate
        // has the root's name, so the attempts also try the root as each one's issuer: the primary
        // failure is the leaf's signature against the root's key, ranked above depth.)
        let one = try evaluate(second, [second.certificate], limit: 0)
        #expect(one.isTrusted, "\(one.primaryFailure.map(Diagnostics.describe) ?? "")")
        let two = try #require(try evaluate(third, [third.certificate, second.certificate], limit: 0).report)
        #expect(two.attempts.contains { $0.failures.contains(.maximumDepthExceeded(second.certificate, limit: 1)) },
                "\(two.attempts.map { $0.failures.map(\.code) })")
        // Limit 1: up to three intermediates in all.
        #expect(try evaluate(third, [third.certificate, second.certificate], limit: 1).isTrusted)
    }
}
