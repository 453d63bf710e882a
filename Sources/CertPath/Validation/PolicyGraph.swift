// The valid_policy_graph of RFC 9618 (section 4.2, replacing RFC 5280 6.1.2 (a)): a DAG with at most
// one node per policy OID per depth, where RFC 5280's valid_policy_tree would repeat a node under
// every parent. Operations are named after the RFC steps that use them; `PolicyProcessor` sequences them.

/// The valid_policy_graph of RFC 9618 section 4.2 (never NULL itself: the processor holds `nil` for
/// a NULL graph once ``isNull`` becomes true).
///
/// Levels are indexed by depth; depth 0 holds the single anyPolicy node. Deleted nodes stay in their
/// level, marked, so parent indices remain stable; a live node only ever has live parents, because
/// a parent is deleted only once it has no live child.
///
/// Real paths make a handful of nodes per level, each with one parent and expecting its own policy:
/// those are stored without arrays of their own, and small levels are searched by scanning; levels
/// above ``PolicyGraphLimits/indexedLevelSize`` nodes get hash indexes, so hostile inputs stay linear.
struct ValidPolicyGraph: Sendable {
    /// One node: `valid_policy`, `expected_policy_set` and the indices of its parents one level up
    /// (qualifier_set is not kept: RFC 9618 section 3.3 recommends not returning qualifiers).
    struct Node: Sendable {
        let validPolicy: OID
        /// `nil` for `[validPolicy]` (what every node expects until a policy mapping changes it);
        /// otherwise deduplicated, in first-appearance order.
        var mappedPolicies: [OID]?
        /// The parent when there is exactly one (every level but 0 has at least one).
        let parent: Int
        /// All parents when there are several; `nil` otherwise.
        let otherParents: [Int]?
        var isDeleted = false

        init(validPolicy: OID, parents: ParentList) {
            self.validPolicy = validPolicy
            self.mappedPolicies = nil
            switch parents {
            case .none: (parent, otherParents) = (-1, nil)
            case .one(let index): (parent, otherParents) = (index, nil)
            case .many(let indices): (parent, otherParents) = (indices[0], indices)
            }
        }

        /// `expected_policy_set`.
        var expectedPolicySet: [OID] { mappedPolicies ?? [validPolicy] }

        /// Whether `policy` is in `expected_policy_set`.
        func expects(_ policy: OID) -> Bool {
            guard let mappedPolicies else { return validPolicy == policy }
            return mappedPolicies.contains(policy)
        }

        /// Calls `body` with each policy of `expected_policy_set`, in order.
        func forEachExpected(_ body: (OID) -> Void) {
            if let mappedPolicies {
                for policy in mappedPolicies { body(policy) }
            } else {
                body(validPolicy)
            }
        }

        /// The number of parent edges.
        var parentCount: Int { otherParents?.count ?? (parent < 0 ? 0 : 1) }

        /// Calls `body` with each parent index.
        func forEachParent(_ body: (Int) -> Void) {
            if let otherParents {
                for index in otherParents { body(index) }
            } else if parent >= 0 {
                body(parent)
            }
        }
    }

    /// Parents of a node being made.
    enum ParentList {
        case none
        case one(Int)
        case many([Int])

        var count: Int {
            switch self {
            case .none: return 0
            case .one: return 1
            case .many(let indices): return indices.count
            }
        }

        mutating func append(_ index: Int) {
            switch self {
            case .none: self = .one(index)
            case .one(let first): self = .many([first, index])
            case .many(var indices):
                self = .none
                indices.append(index)
                self = .many(indices)
            }
        }
    }

    private static let anyPolicy = CertificatePolicySet.anyPolicyIdentifier

    private(set) var levels: [[Node]]
    /// `valid_policy` -> index for the deepest level (the one 6.1.3 (d) just built and 6.1.4 (b)
    /// then edits), kept only when that level is larger than ``PolicyGraphLimits/indexedLevelSize``.
    private var deepestLevelIndex: [OID: Int]?
    /// Nodes and edges created so far, deleted ones included (what the limits bound).
    private(set) var nodeCount: Int
    private(set) var edgeCount: Int
    let limits: PolicyGraphLimits

    /// RFC 9618 section 4.2: the initial graph is one depth-0 node, anyPolicy, expecting {anyPolicy}.
    init(limits: PolicyGraphLimits) {
        self.levels = [[Node(validPolicy: Self.anyPolicy, parents: .none)]]
        self.deepestLevelIndex = nil
        self.nodeCount = 1
        self.edgeCount = 0
        self.limits = limits
    }

    /// The depth of the deepest level (the number of certificates processed into the graph).
    var depth: Int { levels.count - 1 }

    /// Whether every node has been deleted, i.e. the RFC's valid_policy_graph is NULL.
    var isNull: Bool { levels[0][0].isDeleted }

    /// The index of the node for `policy` at the deepest level, if any.
    private func deepestIndex(of policy: OID) -> Int? {
        if let deepestLevelIndex { return deepestLevelIndex[policy] }
        let level = levels[levels.count - 1]
        for index in level.indices where level[index].validPolicy == policy { return index }
        return nil
    }

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

        // The nodes of depth i-1 by the OIDs of their expected_policy_set ("parent_nodes" of
        // (d)(1)(i)): scanned when they expect few policies, hashed when many.
        var parentsByExpectedPolicy: [OID: [Int]]? = nil
        var expectedPolicies: [OID] = []  // keys in first-appearance order, for determinism (large levels)
        var previousAnyPolicyNode: Int? = nil
        for (index, node) in previous.enumerated() where !node.isDeleted && node.validPolicy == Self.anyPolicy {
            previousAnyPolicyNode = index
        }
        // Counted in expected policies, not nodes: one node mapped to n policies, scanned once per
        // policy of an n-policy certificate, was quadratic (18.7 s for 3.4 MB of certificates).
        var expectedPolicyCount = 0
        for node in previous where !node.isDeleted { expectedPolicyCount += node.mappedPolicies?.count ?? 1 }
        if expectedPolicyCount > limits.indexedLevelSize {
            var table: [OID: [Int]] = [:]
            for (index, node) in previous.enumerated() where !node.isDeleted {
                node.forEachExpected { policy in
                    if table[policy] == nil { expectedPolicies.append(policy) }
                    table[policy, default: []].append(index)
                }
            }
            parentsByExpectedPolicy = table
        }
        func parentsExpecting(_ policy: OID) -> ParentList {
            if let parentsByExpectedPolicy {
                guard let indices = parentsByExpectedPolicy[policy] else { return .none }
                return indices.count == 1 ? .one(indices[0]) : .many(indices)
            }
            var parents = ParentList.none
            for (index, node) in previous.enumerated() where !node.isDeleted && node.expects(policy) { parents.append(index) }
            return parents
        }

        var level: [Node] = []
        var levelIndex: [OID: Int]? = nil
        func levelContains(_ policy: OID) -> Bool {
            if let levelIndex { return levelIndex[policy] != nil }
            return level.contains { $0.validPolicy == policy }
        }
        func append(_ node: Node) {
            if levelIndex == nil && level.count >= limits.indexedLevelSize {
                var table: [OID: Int] = [:]
                for (index, existing) in level.enumerated() { table[existing.validPolicy] = index }
                levelIndex = table
            }
            levelIndex?[node.validPolicy] = level.count
            level.append(node)
        }

        // (d)(1): each policy P other than anyPolicy.
        for policy in policies where policy != Self.anyPolicy && !levelContains(policy) {
            var parents = parentsExpecting(policy)  // (d)(1)(i): exact match with some expected_policy_set
            if parents.count == 0 {
                guard let anyPolicyNode = previousAnyPolicyNode else { continue }
                parents = .one(anyPolicyNode)  // (d)(1)(ii): no match, the anyPolicy node of depth i-1
            }
            try reserve(edges: parents.count, certificateIndex: i)
            append(Node(validPolicy: policy, parents: parents))
        }

        // (d)(2): anyPolicy asserted; every expected policy of depth i-1 (anyPolicy included) not yet
        // a valid_policy at depth i gets one node, its parents being the nodes that expect it.
        if anyPolicyApplies {
            if parentsByExpectedPolicy == nil {
                // First-appearance order over the live nodes of depth i-1.
                for (index, node) in previous.enumerated() where !node.isDeleted {
                    var failure: PolicyFailure? = nil
                    node.forEachExpected { policy in
                        guard failure == nil else { return }
                        let seenBefore = previous[..<index].contains { !$0.isDeleted && $0.expects(policy) }
                        guard !seenBefore, !levelContains(policy) else { return }
                        let parents = parentsExpecting(policy)
                        do throws(PolicyFailure) {
                            try reserve(edges: parents.count, certificateIndex: i)
                        } catch {
                            failure = error
                            return
                        }
                        append(Node(validPolicy: policy, parents: parents))
                    }
                    if let failure { throw failure }
                }
            } else {
                for policy in expectedPolicies where !levelContains(policy) {
                    let parents = parentsExpecting(policy)
                    try reserve(edges: parents.count, certificateIndex: i)
                    append(Node(validPolicy: policy, parents: parents))
                }
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
                if let index = deepestIndex(of: issuerDomainPolicy), !levels[i][index].isDeleted {
                    // (b)(1): the node of depth i for ID-P now expects the mapped policies.
                    levels[i][index].mappedPolicies = subjectDomainPolicies
                } else if let anyPolicyNode = deepestIndex(of: Self.anyPolicy), !levels[i][anyPolicyNode].isDeleted {
                    // (b)(1)(i)-(iii): no ID-P node but an anyPolicy node at depth i: a new ID-P node,
                    // child of the anyPolicy node of depth i-1 (the anyPolicy node's only parent).
                    let parent = levels[i][anyPolicyNode].parent
                    try reserve(edges: 1, certificateIndex: i)
                    if deepestLevelIndex == nil && levels[i].count >= limits.indexedLevelSize {
                        var table: [OID: Int] = [:]
                        for (index, existing) in levels[i].enumerated() { table[existing.validPolicy] = index }
                        deepestLevelIndex = table
                    }
                    deepestLevelIndex?[issuerDomainPolicy] = levels[i].count
                    var node = Node(validPolicy: issuerDomainPolicy, parents: .one(parent))
                    node.mappedPolicies = subjectDomainPolicies
                    levels[i].append(node)
                }
            }
        } else {
            // (b)(2)(i): delete the node of depth i for each ID-P; (b)(2)(ii): prune above it.
            var deletedAny = false
            for (issuerDomainPolicy, _) in mappings {
                if let index = deepestIndex(of: issuerDomainPolicy), !levels[i][index].isDeleted {
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
        if let anyPolicyNode = deepestIndex(of: Self.anyPolicy), !levels[depth][anyPolicyNode].isDeleted {
            return .anyPolicy
        }
        var policies = Set<OID>()
        for depth in levels.indices.dropFirst() {
            for node in levels[depth] where !node.isDeleted && node.validPolicy != Self.anyPolicy {
                if node.parentCount == 1, levels[depth - 1][node.parent].validPolicy == Self.anyPolicy {
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
            let count = levels[current].count
            var deletedAny = false
            if count <= 64 {
                var hasChild: UInt64 = 0
                for child in levels[current + 1] where !child.isDeleted {
                    child.forEachParent { hasChild |= 1 << UInt64($0) }
                }
                for index in 0..<count where !levels[current][index].isDeleted && hasChild & (1 << UInt64(index)) == 0 {
                    levels[current][index].isDeleted = true
                    deletedAny = true
                }
            } else {
                var hasChild = [Bool](repeating: false, count: count)
                for child in levels[current + 1] where !child.isDeleted {
                    child.forEachParent { hasChild[$0] = true }
                }
                for index in 0..<count where !levels[current][index].isDeleted && !hasChild[index] {
                    levels[current][index].isDeleted = true
                    deletedAny = true
                }
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
