import CertPath
import CertPathDER
import Testing

/// Whether CT is required must not depend on the route to trust: a pinned end entity, a pinned
/// public intermediate, and a system anchor also listed among the caller's anchors (review of issue 34).
@Suite("Certificate Transparency on every route to trust")
struct CTRouteTests {
    /// A 90-day server certificate without SCTs issued by `issuer`.
    static func leafWithoutSCTs(_ world: CTWorld, issuer: SignedCertificates.Issuer) throws -> Certificate {
        var spec = CertificateSpec.server("ct.example")
        spec.validity = D.seq(CTWorld.utc(world.notBefore), CTWorld.utc(UnixTime(secondsSinceEpoch: world.notBefore.secondsSinceEpoch + 90 * CTWorld.day)))
        return try SignedCertificates.issue(spec, subjectKey: TestKey(), issuer: issuer)
    }

    static func policy(_ requirement: CTRequirement) throws -> ValidationPolicy {
        var policy = try ValidationPolicy.server(hostname: "ct.example")
        policy.profile = .interoperable
        policy.certificateTransparency = requirement
        return policy
    }

    static let expectedUnmet: CTRule = .tooFewSCTs(required: 2, counted: 0, lifetimeDays: 91, perOperatorLimit: 1)

    @Test("A pinned end entity (trusted directly, no anchor) without SCTs fails .required(.apple): required binds every route")
    func pinnedLeafMeetsRequiredCT() throws {
        let world = try CTWorld()
        let a = world.makeLog("A1", operator: "A"), b = world.makeLog("B1", operator: "B")
        let leaf = try Self.leafWithoutSCTs(world, issuer: world.root)
        var evaluation = TrustEvaluation(leaf: leaf, trustStore: TrustStore(anchors: []), pins: [Pin(publicKeyOf: leaf)],
                                         policy: try Self.policy(.required(.apple)), validationTime: world.checkTime)
        evaluation.certificateTransparencyLogs = world.list([a, b])
        #expect(world.unmet(evaluation)?.first == Self.expectedUnmet)
    }

    @Test("A pinned end entity's embedded SCTs verify with its issuer from the intermediates (RFC 6962 3.2 issuer_key_hash): compliant")
    func pinnedLeafEmbeddedSCTsVerify() throws {
        let world = try CTWorld()
        let a = world.makeLog("A1", operator: "A"), b = world.makeLog("B1", operator: "B")
        let leaf = try world.leaf(span: 90 * CTWorld.day, scts: [(a, nil), (b, nil)])
        var evaluation = TrustEvaluation(leaf: leaf, intermediates: [world.root.certificate], trustStore: TrustStore(anchors: []),
                                         pins: [Pin(publicKeyOf: leaf)], policy: try Self.policy(.required(.apple)),
                                         validationTime: world.checkTime)
        evaluation.certificateTransparencyLogs = world.list([a, b])
        #expect(world.unmet(evaluation) == nil)
    }

    @Test("Pinning a public intermediate does not turn automatic CT off: the chain continues to a system anchor")
    func pinnedPublicIntermediateMeetsAutomaticCT() throws {
        let world = try CTWorld()
        let a = world.makeLog("A1", operator: "A"), b = world.makeLog("B1", operator: "B")
        let intermediate = try SignedCertificates.intermediate(.ca("Public Intermediate"), by: world.root)
        let leaf = try Self.leafWithoutSCTs(world, issuer: intermediate)
        for pins in [[], [Pin(publicKeyOf: intermediate.certificate)]] {
            var evaluation = TrustEvaluation(leaf: leaf, intermediates: [intermediate.certificate], trustStore: TrustStore(anchors: []),
                                             anchorsOnly: false, pins: pins, policy: try Self.policy(.automatic),
                                             validationTime: world.checkTime)
            evaluation.systemAnchors = TrustStore(anchors: [world.root.certificate], isPublicWebPKI: true)
            evaluation.certificateTransparencyLogs = world.list([a, b])
            #expect(world.unmet(evaluation)?.first == Self.expectedUnmet, "pins: \(pins)")
        }
    }

    @Test("A system anchor also among the caller's anchors is public (either store): automatic CT applies in either order")
    func duplicateAnchorIsPublicIfEitherIs() throws {
        let world = try CTWorld()
        let a = world.makeLog("A1", operator: "A"), b = world.makeLog("B1", operator: "B")
        let leaf = try Self.leafWithoutSCTs(world, issuer: world.root)
        var evaluation = TrustEvaluation(leaf: leaf, trustStore: TrustStore(anchors: [world.root.certificate]), anchorsOnly: false,
                                         policy: try Self.policy(.automatic), validationTime: world.checkTime)
        evaluation.systemAnchors = TrustStore(anchors: [world.root.certificate], isPublicWebPKI: true)
        evaluation.certificateTransparencyLogs = world.list([a, b])
        #expect(world.unmet(evaluation)?.first == Self.expectedUnmet)
    }
}
