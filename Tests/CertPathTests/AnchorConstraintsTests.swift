@testable import CertPath
import CertPathDER
import Testing

/// Trust anchor constraints (RFC 5937, Chromium's reading), on by default: a private root's
/// nameConstraints, extKeyUsage, basicConstraints, keyUsage and policy extensions constrain the
/// path, processed as for a certificate 0 above certificate 1, and its validity is checked.
@Suite("Anchor constraints (RFC 5937)")
struct AnchorConstraintsTests {
    static func dns(_ name: String) -> [UInt8] { D.ctx(2, Array(name.utf8)) }
    static let policyA: OID = "1.3.6.1.4.1.99999.70.1"
    static let policyB: OID = "1.3.6.1.4.1.99999.70.2"

    static func policies(_ oids: OID...) -> [UInt8] {
        D.ext(KnownOID.certificatePolicies, D.tlv(.sequence, oids.flatMap { D.seq(D.oid($0)) }))
    }

    /// root (with `rootExtra`) → intermediate (with `intermediateExtra`) → `host` (with `leafExtra`).
    static func chain(rootExtra: [[UInt8]] = [], intermediateExtra: [[UInt8]] = [], leafExtra: [[UInt8]] = [],
                      host: String = "www.customer7.test", rootValidity: [UInt8]? = nil) throws
        -> (leaf: Certificate, intermediate: Certificate, root: Certificate) {
        var rootSpec = CertificateSpec.ca("Private Root", extra: rootExtra)
        if let rootValidity { rootSpec.validity = rootValidity }
        let root = try SignedCertificates.root(rootSpec)
        let intermediate = try SignedCertificates.intermediate(.ca("Customer 7 CA", pathLength: 0, extra: intermediateExtra), by: root)
        let leaf = try SignedCertificates.issue(.server(host, extra: leafExtra), subjectKey: TestKey(), issuer: intermediate)
        return (leaf, intermediate.certificate, root.certificate)
    }

    static func evaluate(_ chain: (leaf: Certificate, intermediate: Certificate, root: Certificate), host: String = "www.customer7.test",
                         _ configure: (inout ValidationPolicy) -> Void = { _ in }) throws -> TrustResult {
        var policy = try ValidationPolicy.server(hostname: host)
        configure(&policy)
        return TrustEvaluation(leaf: chain.leaf, intermediates: [chain.intermediate], trustStore: TrustStore(anchors: [chain.root]),
                               policy: policy, validationTime: SignedCertificates.time).evaluate()
    }

    static let permitCustomer7 = D.ext(KnownOID.nameConstraints, critical: true,
                                       D.seq(D.ctx(0, constructed: true, D.seq(dns("customer7.test")))))

    @Test("A private root's nameConstraints stop a leaf outside them by default (the issue's example), not under nameAndKey")
    func rootNameConstraints() throws {
        let inside = try Self.chain(rootExtra: [Self.permitCustomer7])
        #expect(try Self.evaluate(inside).isTrusted)
        let outside = try Self.chain(rootExtra: [Self.permitCustomer7], host: "evil.example.org")
        let result = try Self.evaluate(outside, host: "evil.example.org")
        guard case .nameConstraintViolation(let certificate, let violation)? = result.primaryFailure else {
            Issue.record("expected a name constraint violation, got \(String(describing: result.primaryFailure))")
            return
        }
        #expect(certificate == outside.leaf && violation.reason == .notWithinPermittedSubtrees)
        // RFC 5280 6.1.1 (d): an anchor as a name and a key only.
        #expect(try Self.evaluate(outside, host: "evil.example.org") { $0.anchorEnforcement = .nameAndKey }.isTrusted)
    }

    @Test("A root with an extension repeated is refused under the default anchor checks, whichever copy would constrain (RFC 5280 4.2)")
    func rootRepeatedExtension() throws {
        let permitEvil = D.ext(KnownOID.nameConstraints, critical: true, D.seq(D.ctx(0, constructed: true, D.seq(Self.dns("evil.test")))))
        for extensions in [[permitEvil, Self.permitCustomer7], [Self.permitCustomer7, permitEvil],
                           [D.ext(KnownOID.extKeyUsage, D.seq(D.oid(KnownOID.serverAuth))), D.ext(KnownOID.extKeyUsage, D.seq(D.oid(KnownOID.clientAuth)))]] {
            for host in ["www.customer7.test", "www.evil.test"] {
                let chain = try Self.chain(rootExtra: extensions, host: host)
                guard case .untrusted(let report) = try Self.evaluate(chain, host: host) else {
                    Issue.record("a root with a repeated extension was trusted (\(host))")
                    continue
                }
                #expect(report.failures.contains(ValidationFailure.profileViolation(chain.root, ProfileRule.duplicateExtension)))
                // As a name and a key only, the anchor's extensions are not read.
                let nameAndKey = try Self.evaluate(chain, host: host) { $0.anchorEnforcement = .nameAndKey }
                #expect(nameAndKey.isTrusted)
            }
        }
    }

    @Test("A root's extKeyUsage restricts the path; its validity is checked")
    func rootExtendedKeyUsageAndValidity() throws {
        let clientOnly = try Self.chain(rootExtra: [D.ext(KnownOID.extKeyUsage, D.seq(D.oid(KnownOID.clientAuth)))])
        #expect(try Self.evaluate(clientOnly).primaryFailure?.code == "extendedKeyUsageForbids")
        let expired = try Self.chain(rootValidity: D.seq(D.tlv(.utcTime, Array("200101000000Z".utf8)), D.tlv(.utcTime, Array("250101000000Z".utf8))))
        #expect(try Self.evaluate(expired).primaryFailure?.code == "expired")
        #expect(try Self.evaluate(expired) { $0.anchorEnforcement = AnchorEnforcement(validity: false, constraints: true) }.isTrusted)
    }

    @Test("A root's certificatePolicies is a level of the policy graph: a path asserting only other policies has none valid")
    func rootPolicies() throws {
        let requireExplicit = D.ext(KnownOID.policyConstraints, critical: true, D.seq(D.ctx(0, [0x00])))
        let matching = try Self.chain(rootExtra: [Self.policies(Self.policyA), requireExplicit],
                                      intermediateExtra: [Self.policies(Self.policyA)], leafExtra: [Self.policies(Self.policyA)])
        let trusted = try #require(try Self.evaluate(matching).trustedPath)
        #expect(trusted.policyOutcome?.userConstrainedPolicySet == .policies([Self.policyA]))
        let other = try Self.chain(rootExtra: [Self.policies(Self.policyA), requireExplicit],
                                   intermediateExtra: [Self.policies(Self.policyB)], leafExtra: [Self.policies(Self.policyB)])
        #expect(try Self.evaluate(other).primaryFailure?.code == "policyRequired")
        // Without requireExplicitPolicy nothing requires a policy: the path is valid for none.
        let optional = try Self.chain(rootExtra: [Self.policies(Self.policyA)],
                                      intermediateExtra: [Self.policies(Self.policyB)], leafExtra: [Self.policies(Self.policyB)])
        #expect(try Self.evaluate(optional).isTrusted)
        // Under nameAndKey the root's policies are not read.
        #expect(try Self.evaluate(other) { $0.anchorEnforcement = .nameAndKey }.isTrusted)
    }

    @Test("requireExplicitPolicy in the root counts from certificate 1 (skip counts as Chromium reads them)")
    func rootRequireExplicitPolicySkipCount() throws {
        // requireExplicitPolicy 1: certificate 1 (the intermediate) may go without; from certificate 2
        // on a policy is required. The intermediate asserts none, so the leaf cannot have one valid.
        let skipOne = D.ext(KnownOID.policyConstraints, critical: true, D.seq(D.ctx(0, [0x01])))
        let chain = try Self.chain(rootExtra: [skipOne], leafExtra: [Self.policies(Self.policyA)])
        guard case .policyRequired(let failure)? = try Self.evaluate(chain).primaryFailure else {
            Issue.record("expected policyRequired")
            return
        }
        #expect(failure == .explicitPolicyRequired(certificateIndex: 2))
        // RFC 5280's counting (6.1.4 (h), 6.1.5 (a)): with requireExplicitPolicy k in the root and n
        // certificates below it, a policy is required for the path exactly when k <= n.
        let skipTwo = D.ext(KnownOID.policyConstraints, critical: true, D.seq(D.ctx(0, [0x02])))
        guard case .policyRequired(let atWrapUp)? = try Self.evaluate(try Self.chain(rootExtra: [skipTwo], leafExtra: [Self.policies(Self.policyA)])).primaryFailure else {
            Issue.record("expected policyRequired at wrap-up")
            return
        }
        #expect(atWrapUp == .noAcceptablePolicy(authoritiesConstrainedPolicySet: .policies([])))
        let skipThree = D.ext(KnownOID.policyConstraints, critical: true, D.seq(D.ctx(0, [0x03])))
        #expect(try Self.evaluate(try Self.chain(rootExtra: [skipThree], leafExtra: [Self.policies(Self.policyA)])).isTrusted)
    }

    @Test("inhibitAnyPolicy 0 in the root: anyPolicy below it is not honoured")
    func rootInhibitAnyPolicy() throws {
        let inhibit = D.ext(KnownOID.inhibitAnyPolicy, critical: true, D.int(0))
        let requireExplicit = D.ext(KnownOID.policyConstraints, critical: true, D.seq(D.ctx(0, [0x00])))
        let chain = try Self.chain(rootExtra: [inhibit, requireExplicit, Self.policies(KnownOID.anyPolicy)],
                                   intermediateExtra: [Self.policies(KnownOID.anyPolicy)], leafExtra: [Self.policies(Self.policyA)])
        #expect(try Self.evaluate(chain).primaryFailure?.code == "policyRequired")
        let allowed = try Self.chain(rootExtra: [requireExplicit, Self.policies(KnownOID.anyPolicy)],
                                     intermediateExtra: [Self.policies(KnownOID.anyPolicy)], leafExtra: [Self.policies(Self.policyA)])
        #expect(try Self.evaluate(allowed).isTrusted)
    }

    @Test("A root's policyMappings and inhibitPolicyMapping apply below it")
    func rootPolicyMapping() throws {
        // The root maps A to B: the intermediate and leaf assert B, valid as A in the root's domain.
        let mapping = D.ext(KnownOID.policyMappings, D.seq(D.seq(D.oid(Self.policyA), D.oid(Self.policyB))))
        let requireExplicit = D.ext(KnownOID.policyConstraints, critical: true, D.seq(D.ctx(0, [0x00])))
        let mapped = try Self.chain(rootExtra: [Self.policies(Self.policyA), mapping, requireExplicit],
                                    intermediateExtra: [Self.policies(Self.policyB)], leafExtra: [Self.policies(Self.policyB)])
        let trusted = try #require(try Self.evaluate(mapped).trustedPath)
        #expect(trusted.policyOutcome?.authoritiesConstrainedPolicySet == .policies([Self.policyA]))
        // inhibitPolicyMapping 0 in the root: a mapping below it (in the intermediate) is not applied.
        // (The root's own mapping is: 6.1.4 (b) uses policy_mapping before the certificate's own (i).)
        let inhibited = D.ext(KnownOID.policyConstraints, critical: true, D.seq(D.ctx(0, [0x00]), D.ctx(1, [0x00])))
        let intermediateMapping = D.ext(KnownOID.policyMappings, D.seq(D.seq(D.oid(Self.policyA), D.oid(Self.policyB))))
        let refused = try Self.chain(rootExtra: [Self.policies(Self.policyA), inhibited],
                                     intermediateExtra: [Self.policies(Self.policyA), intermediateMapping], leafExtra: [Self.policies(Self.policyB)])
        #expect(try Self.evaluate(refused).primaryFailure?.code == "policyRequired")
        let permitted = try Self.chain(rootExtra: [Self.policies(Self.policyA), requireExplicit],
                                       intermediateExtra: [Self.policies(Self.policyA), intermediateMapping], leafExtra: [Self.policies(Self.policyB)])
        #expect(try Self.evaluate(permitted).isTrusted)
    }

    @Test("A root with cA FALSE is not an anchor for others; one without basicConstraints is (RFC 5937), unless the profile is checked")
    func rootBasicConstraints() throws {
        let notCA = D.ext(KnownOID.basicConstraints, critical: true, D.seq())
        var spec = CertificateSpec.ca("Private Root")
        spec.extensions = [notCA, D.ext(KnownOID.keyUsage, critical: true, D.bits([0x06], unused: 1))]
        let root = try SignedCertificates.root(spec)
        let intermediate = try SignedCertificates.intermediate(.ca("Customer 7 CA", pathLength: 0), by: root)
        let leaf = try SignedCertificates.issue(.server("www.customer7.test"), subjectKey: TestKey(), issuer: intermediate)
        let result = try Self.evaluate((leaf, intermediate.certificate, root.certificate))
        #expect(result.trustResultFailures.contains(.notACertificateAuthority(root.certificate)))
    }

    @Test("A self-signed leaf given as an anchor is judged as the end entity, not as a CA")
    func anchorThatIsTheLeaf() throws {
        let key = TestKey()
        let leaf = try SignedCertificates.issue(.server("self.test"), subjectKey: key)
        let result = TrustEvaluation(leaf: leaf, trustStore: TrustStore(anchors: [leaf]), policy: try .server(hostname: "self.test"),
                                     validationTime: SignedCertificates.time).evaluate()
        #expect(result.isTrusted, "\(result.primaryFailure.map(Diagnostics.describe) ?? "")")
    }

    /// Differential campaign, families `profiles | … | name=mismatch@root`, `name=rdn_order@root`: an
    /// anchor that is not self-issued (a cross-signed root, an intermediate trusted directly) without
    /// authorityKeyIdentifier passes `.full` anchor checks under webPKI (BR 7.1.2.1: a root's is
    /// optional; x509-limbo `cve::cve-2024-0567`) and fails them under rfc5280 (4.2.1.1 read
    /// pedantically; x509-limbo `rfc5280::aki::cross-signed-root-missing-aki`). Below the anchor the
    /// rows apply under both.
    @Test("Under .full anchor checks a cross-signed anchor without authorityKeyIdentifier: webPKI accepts, rfc5280 refuses")
    func anchorAuthorityKeyIdentifier() throws {
        let root = try SignedCertificates.root()
        var anchorSpec = CertificateSpec.ca("Customer 7 CA", pathLength: 0)
        anchorSpec.keyIdentifiers = false
        anchorSpec.extensions.insert(D.ext(KnownOID.subjectKeyIdentifier, D.octets([7, 7, 7, 7])), at: 0)
        let anchor = try SignedCertificates.intermediate(anchorSpec, by: root)
        var leafSpec = CertificateSpec.server("www.customer7.test")
        leafSpec.keyIdentifiers = false
        leafSpec.extensions.insert(D.ext(KnownOID.authorityKeyIdentifier, D.seq(D.ctx(0, [7, 7, 7, 7]))), at: 0)
        let leaf = try SignedCertificates.issue(leafSpec, subjectKey: TestKey(), issuer: anchor)
        for profile in [CertificateProfile.webPKI, .rfc5280] {
            var policy = try ValidationPolicy.server(hostname: "www.customer7.test")
            policy.profile = profile
            policy.anchorEnforcement = .full
            let result = TrustEvaluation(leaf: leaf, trustStore: TrustStore(anchors: [anchor.certificate]), policy: policy,
                                         validationTime: SignedCertificates.time).evaluate()
            let refused = result.trustResultFailures.contains(.profileViolation(anchor.certificate, .missingAuthorityKeyIdentifier))
            #expect(refused == (profile == .rfc5280), "\(profile): \(result.primaryFailure.map(Diagnostics.describe) ?? "trusted")")
            #expect(result.isTrusted == (profile == .webPKI))
            // The same certificate below an anchor needs the extension under both (4.2.1.1).
            let below = TrustEvaluation(leaf: leaf, intermediates: [anchor.certificate], trustStore: TrustStore(anchors: [root.certificate]),
                                        policy: policy, validationTime: SignedCertificates.time).evaluate()
            #expect(below.trustResultFailures.contains(.profileViolation(anchor.certificate, .missingAuthorityKeyIdentifier)),
                    "\(profile): \(below.primaryFailure.map(Diagnostics.describe) ?? "trusted")")
        }
    }
}
