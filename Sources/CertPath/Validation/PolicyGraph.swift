// The valid_policy_graph of RFC 9618 (section 4.2, replacing RFC 5280 6.1.2 (a)): a DAG with at most
// one node per policy OID per depth, where RFC 5280's valid_policy_tree would repeat a node under
// every parent. Operations are named after the RFC steps that use them; `PolicyProcessor` sequences them.

/// The valid_policy_graph of RFC 9618 section 4.2 (never NULL itself: the processor holds `nil` for
/// a NULL graph once ``isNull`` becomes true).
///
/// Levels are indexed by depth; depth 0 holds the single anyPolicy node. Deleted nodes stay in their
/// level, marked, so parent indices remain stable; a live node only ever has live parents, because
/// a parent is deleted only once it has no live child.
struct ValidPolicyGraph: Sendable {
    /// One node: `valid_policy`, `expected_policy_set` and the indices of its parents one level up
    /// (qualifier_set is not kept: RFC 9618 section 3.3 recommends not returning qualifiers).
    struct Node: Sendable {
        let validPolicy: OID
        /// Deduplicated, in first-appearance order; `[anyPolicy]` for an anyPolicy node.
        var expectedPolicySet: [OID]
        /// Indices into the level above; empty only at depth 0.
        let parents: [Int]
        var isDeleted = false
    }

    private static let anyPolicy = CertificatePolicySet.anyPolicyIdentifier

    private(set) var levels: [[Node]]
    /// `valid_policy` -> index, for the deepest level only (the one 6.1.3 (d) just built and
    /// 6.1.4 (b) then edits).
    private var deepestLevelIndex: [OID: Int]
    /// Nodes and edges created so far, deleted ones included (what the limits bound).
    private(set) var nodeCount: Int
    private(set) var edgeCount: Int
    let limits: PolicyGraphLimits

    /// RFC 9618 section 4.2: the initial graph is one depth-0 node, anyPolicy, expecting {anyPolicy}.
    init(limits: PolicyGraphLimits) {
        let root = Node(validPolicy: Self.anyPolicy, expectedPolicySet: [Self.anyPolicy], parents: [])
        self.levels = [[root]]
        self.deepestLevelIndex = [Self.anyPolicy: 0]
        self.nodeCount = 1
        self.edgeCount = 0
        self.limits = limits
    }

    /// The depth of the deepest level (the number of certificates processed into the graph).
    var depth: Int { levels.count - 1 }

    /// Whether every node has been deleted, i.e. the RFC's valid_policy_graph is NULL.
    var isNull: Bool { levels[0][0].isDeleted }

    // MARK: RFC 5280 6.1.3 (d), as updated by RFC 9618 section 4.3

    /// Adds depth i = `depth + 1` for a certificate whose certificatePolicies extension lists `policies`,
    /// then prunes: RFC 9618 section 4.3, steps (d)(1), (d)(2) and (d)(3).
    ///
    /// - Parameters:
    ///   - policies: the certificate's policy identifiers; anyPolicy among them is ignored here.
    ///   - anyPolicyApplies: whether the certificate asserts anyPolicy and step (d)(2) applies to it
    ///     (`inhibit_anyPolicy > 0`, or `i < n` and the certificate is self-issued).
    /// - Throws: ``PolicyFailure/graphTooLarge(certificateIndex:exceeded:)`` when the limits would be exceeded.
    mutating func addLevel(policies: [OID], anyPolicyApplies: Bool) throws(PolicyFailure) {
        let i = levels.count
        let previous = levels[i - 1]

        // The nodes of depth i-1 by the OIDs of their expected_policy_set ("parent_nodes" of (d)(1)(i)).
        var parentsByExpectedPolicy: [OID: [Int]] = [:]
        var expectedPolicies: [OID] = []  // keys in first-appearance order, for determinism
        var previousAnyPolicyNode: Int? = nil
        for (index, node) in previous.enumerated() where !node.isDeleted {
            if node.validPolicy == Self.anyPolicy { previousAnyPolicyNode = index }
            for policy in node.expectedPolicySet {
                if parentsByExpectedPolicy[policy] == nil { expectedPolicies.append(policy) }
                parentsByExpectedPolicy[policy, default: []].append(index)
            }
        }

        var level: [Node] = []
        var levelIndex: [OID: Int] = [:]

        // (d)(1): each policy P other than anyPolicy.
        for policy in policies where policy != Self.anyPolicy && levelIndex[policy] == nil {
            let parents: [Int]
            if let matching = parentsByExpectedPolicy[policy] {
                parents = matching  // (d)(1)(i): exact match with some expected_policy_set
            } else if let anyPolicyNode = previousAnyPolicyNode {
                parents = [anyPolicyNode]  // (d)(1)(ii): no match, the anyPolicy node of depth i-1
            } else {
                continue
            }
            try reserve(edges: parents.count, certificateIndex: i)
            levelIndex[policy] = level.count
            level.append(Node(validPolicy: policy, expectedPolicySet: [policy], parents: parents))
        }

        // (d)(2): anyPolicy asserted; every expected policy of depth i-1 (anyPolicy included) not yet
        // a valid_policy at depth i gets one node, its parents being the nodes that expect it.
        if anyPolicyApplies {
            for policy in expectedPolicies where levelIndex[policy] == nil {
                let parents = parentsByExpectedPolicy[policy] ?? []
                try reserve(edges: parents.count, certificateIndex: i)
                levelIndex[policy] = level.count
                level.append(Node(validPolicy: policy, expectedPolicySet: [policy], parents: parents))
            }
        }

        levels.append(level)
        deepestLevelIndex = levelIndex
        // (d)(3): delete childless nodes of depth i-1 or less.
        prune(fromDepth: i - 1)
    }

    // MARK: RFC 5280 6.1.4 (b), as updated by RFC 9618 section 4.4

    /// Applies a policyMappings extension to the deepest level, depth i: RFC 9618 section 4.4 step (b).
    ///
    /// - Parameters:
    ///   - mappings: each issuerDomainPolicy ID-P with the subjectDomainPolicy values mapped from it,
    ///     in extension order, neither side anyPolicy (6.1.4 (a) was checked before).
    ///   - policyMappingAllowed: whether `policy_mapping > 0` (step (b)(1)) or not (step (b)(2)).
    /// - Throws: ``PolicyFailure/graphTooLarge(certificateIndex:exceeded:)`` when the limits would be exceeded.
    mutating func applyPolicyMappings(_ mappings: [(issuerDomainPolicy: OID, subjectDomainPolicies: [OID])],
                                      policyMappingAllowed: Bool) throws(PolicyFailure) {
        let i = depth
        if policyMappingAllowed {
            for (issuerDomainPolicy, subjectDomainPolicies) in mappings {
                if let index = deepestLevelIndex[issuerDomainPolicy], !levels[i][index].isDeleted {
                    // (b)(1): the node of depth i for ID-P now expects the mapped policies.
                    levels[i][index].expectedPolicySet = subjectDomainPolicies
                } else if let anyPolicyNode = deepestLevelIndex[Self.anyPolicy], !levels[i][anyPolicyNode].isDeleted {
                    // (b)(1)(i)-(iii): no ID-P node but an anyPolicy node at depth i: a new ID-P node,
                    // child of the anyPolicy node of depth i-1 (the anyPolicy node's only parent).
                    let parent = levels[i][anyPolicyNode].parents[0]
                    try reserve(edges: 1, certificateIndex: i)
                    deepestLevelIndex[issuerDomainPolicy] = levels[i].count
                    levels[i].append(Node(validPolicy: issuerDomainPolicy,
                                          expectedPolicySet: subjectDomainPolicies, parents: [parent]))
                }
            }
        } else {
            // (b)(2)(i): delete the node of depth i for each ID-P; (b)(2)(ii): prune above it.
            var deletedAny = false
            for (issuerDomainPolicy, _) in mappings {
                if let index = deepestLevelIndex[issuerDomainPolicy], !levels[i][index].isDeleted {
                    levels[i][index].isDeleted = true
                    deletedAny = true
                }
            }
            if deletedAny { prune(fromDepth: i - 1) }
        }
    }

    // MARK: RFC 5280 6.1.5 (g), as updated by RFC 9618 section 4.5

    /// The authorities-constrained-policy-set of RFC 9618 section 4.5 step (g)(1)-(4): the valid_policy
    /// of every live non-anyPolicy node whose only parent is an anyPolicy node, plus anyPolicy when the
    /// deepest level holds it (then the whole set is any-policy).
    ///
    /// Meaningful once the last certificate has been processed: pruning then guarantees every live
    /// node lies on a path from depth 0 to depth n.
    var authoritiesConstrainedPolicySet: CertificatePolicySet {
        guard !isNull else { return .empty }
        if let anyPolicyNode = deepestLevelIndex[Self.anyPolicy], !levels[depth][anyPolicyNode].isDeleted {
            return .anyPolicy
        }
        var policies = Set<OID>()
        for depth in levels.indices.dropFirst() {
            for node in levels[depth] where !node.isDeleted && node.validPolicy != Self.anyPolicy {
                if node.parents.count == 1, levels[depth - 1][node.parents[0]].validPolicy == Self.anyPolicy {
                    policies.insert(node.validPolicy)
                }
            }
        }
        return .policies(policies)
    }

    // MARK: Helpers

    /// Deletes nodes without live children, from `depth` up to depth 0 (the "repeat until no node of
    /// depth i-1 or less lacks children" of 6.1.3 (d)(3) and 6.1.4 (b)(2)(ii)).
    ///
    /// Stops at the first depth where nothing is deleted: every node above it already had a live
    /// child after the previous pruning, and nothing below it changed.
    private mutating func prune(fromDepth depth: Int) {
        var current = depth
        while current >= 0 {
            var hasChild = [Bool](repeating: false, count: levels[current].count)
            for child in levels[current + 1] where !child.isDeleted {
                for parent in child.parents { hasChild[parent] = true }
            }
            var deletedAny = false
            for index in levels[current].indices where !levels[current][index].isDeleted && !hasChild[index] {
                levels[current][index].isDeleted = true
                deletedAny = true
            }
            guard deletedAny else { return }
            current -= 1
        }
    }

    /// Accounts for one new node with `edges` parent edges, or throws if that breaks a limit.
    private mutating func reserve(edges: Int, certificateIndex: Int) throws(PolicyFailure) {
        guard nodeCount < limits.maximumNodes else {
            throw .graphTooLarge(certificateIndex: certificateIndex, exceeded: .nodes(limits.maximumNodes))
        }
        guard edges <= limits.maximumEdges - edgeCount else {
            throw .graphTooLarge(certificateIndex: certificateIndex, exceeded: .edges(limits.maximumEdges))
        }
        nodeCount += 1
        edgeCount += edges
    }
}
