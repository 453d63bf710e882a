import Testing
@testable import CertPath
import CertPathDER
import TestSupport

/// The valid_policy_graph scans small levels and indexes large ones by hash, and the processor keeps
/// it as a list of policies while no anyPolicy or mapping is seen; all must give the same results. Random policy paths (policies, anyPolicy, mappings, constraints, self-issued
/// certificates, all four inputs) are run with the default threshold and with every level indexed,
/// and must give the same outcome or failure and the same node and edge counts.
@Suite("Policy graph: scanned and indexed levels agree")
struct PolicyGraphIndexingTests {

    static let pool: [OID] = (1...6).map { OID(dotted: "1.3.6.1.4.1.99999.9.\($0)")! }
    static let anyPolicy = CertificatePolicySet.anyPolicyIdentifier

    static func randomPath(_ g: inout SplitMix64) -> (path: [CertificatePolicyFacts], inputs: PolicyValidationInputs) {
        let length = 1 + g.below(5)
        var path: [CertificatePolicyFacts] = []
        for _ in 0..<length {
            var facts = CertificatePolicyFacts(isSelfIssued: g.chance(20))
            if !g.chance(15) {
                var policies: [OID] = []
                for _ in 0..<g.below(5) { policies.append(pool[g.below(pool.count)]) }
                if g.chance(20) { policies.append(anyPolicy) }
                facts.policies = policies
            }
            if g.chance(25) {
                var mappings: [CertificatePolicyFacts.PolicyMapping] = []
                for _ in 0..<(1 + g.below(4)) {
                    mappings.append(.init(issuerDomainPolicy: pool[g.below(pool.count)], subjectDomainPolicy: pool[g.below(pool.count)]))
                }
                facts.policyMappings = mappings
            }
            if g.chance(15) { facts.requireExplicitPolicy = UInt64(g.below(3)) }
            if g.chance(15) { facts.inhibitPolicyMapping = UInt64(g.below(3)) }
            if g.chance(15) { facts.inhibitAnyPolicy = UInt64(g.below(3)) }
            path.append(facts)
        }
        var user: Set<OID> = [anyPolicy]
        if g.chance(30) { user = Set((0..<g.below(3)).map { _ in pool[g.below(pool.count)] }) }
        let inputs = PolicyValidationInputs(userInitialPolicySet: user, initialPolicyMappingInhibit: g.chance(20),
                                            initialExplicitPolicy: g.chance(30), initialAnyPolicyInhibit: g.chance(20))
        return (path, inputs)
    }

    struct Run: Equatable {
        let result: Result<PolicyOutcome, PolicyFailure>
        let nodes: Int
        let edges: Int
    }

    static func run(_ path: [CertificatePolicyFacts], _ inputs: PolicyValidationInputs, indexedLevelSize: Int,
                    simple: Bool = false) -> Run {
        var limits = PolicyGraphLimits.default
        limits.indexedLevelSize = indexedLevelSize
        limits.allowsSimpleGraph = simple
        var processor = PolicyProcessor(pathLength: path.count, inputs: inputs, limits: limits)
        do throws(PolicyFailure) {
            for (offset, facts) in path.enumerated() {
                try processor.processCertificate(facts, index: offset + 1)
                if offset + 1 < path.count { try processor.prepareForNextCertificate(facts) }
            }
            let outcome = try processor.wrapUp(path[path.count - 1])
            return Run(result: .success(outcome), nodes: processor.validPolicyGraphNodeCount, edges: processor.validPolicyGraphEdgeCount)
        } catch {
            return Run(result: .failure(error), nodes: processor.validPolicyGraphNodeCount, edges: processor.validPolicyGraphEdgeCount)
        }
    }

    @Test("20,000 random paths: same outcome, failure and graph size with every level indexed, and with the simple form")
    func randomPathsAgree() {
        var generator = SplitMix64(state: 0x5EED)
        var differing: [Int] = []
        var valid = 0
        for index in 0..<20_000 {
            let (path, inputs) = Self.randomPath(&generator)
            let scanned = Self.run(path, inputs, indexedLevelSize: 16)
            let indexed = Self.run(path, inputs, indexedLevelSize: 0)
            let simple = Self.run(path, inputs, indexedLevelSize: 16, simple: true)
            if scanned != indexed || simple != scanned { differing.append(index) }
            if case .success = scanned.result { valid += 1 }
        }
        #expect(differing.isEmpty, "paths \(differing.prefix(5)) differ")
        // Both outcomes occur, so the comparison covers valid and refused paths.
        #expect(valid > 1_000 && valid < 19_000, "\(valid) valid paths")
    }
}
