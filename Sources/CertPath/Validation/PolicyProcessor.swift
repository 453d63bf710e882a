// The certificate-policy state machine of RFC 5280 section 6.1, with the valid_policy_graph of
// RFC 9618 in place of the valid_policy_tree. Method and variable names follow the RFC steps.

/// Certificate-policy processing over one certification path of `n` certificates, trust anchor
/// excluded (RFC 5280 6.1.2 (c)(d)(e)(f), 6.1.3 (d)(e)(f), 6.1.4 (a)(b)(h)(i)(j), 6.1.5 (a)(b)(g), with
/// RFC 9618's valid_policy_graph).
///
/// Drive it in path order, certificate 1 being the one issued by the trust anchor and n the end entity:
///
/// ```swift
/// var processor = PolicyProcessor(pathLength: n, inputs: inputs)
/// for i in 1...n {
///     try processor.processCertificate(facts[i - 1], index: i)          // 6.1.3 (d)(e)(f)
///     if i < n { try processor.prepareForNextCertificate(facts[i - 1]) } // 6.1.4 (a)(b)(h)(i)(j)
/// }
/// let outcome = try processor.wrapUp(facts[n - 1])                      // 6.1.5 (a)(b)(g)
/// ```
///
/// or call ``validate(_:inputs:limits:)``. Calling the steps out of this order, or using a processor
/// after it threw, is a programming error and traps. The graph never holds more than
/// ``PolicyGraphLimits`` allows; each certificate costs one pass over its policies and mappings plus at
/// most one walk over the graph's edges (pruning), so a whole path costs O(n x maximumEdges) at worst.
package struct PolicyProcessor: Sendable {
    /// The number of certificates n in the path, trust anchor excluded (at least 1).
    package let pathLength: Int
    /// The RFC 5280 6.1.1 policy inputs.
    package let inputs: PolicyValidationInputs
    /// The bounds on the valid_policy_graph.
    package let limits: PolicyGraphLimits

    /// RFC 5280 6.1.2 (d) `explicit_policy`: the number of further non-self-issued certificates that
    /// may be processed before a non-NULL valid_policy_graph is required (0: required now).
    package private(set) var explicitPolicy: Int
    /// RFC 5280 6.1.2 (e) `inhibit_anyPolicy`: while positive, an asserted anyPolicy is honoured.
    package private(set) var inhibitAnyPolicy: Int
    /// RFC 5280 6.1.2 (f) `policy_mapping`: while positive, policy mappings are applied.
    package private(set) var policyMapping: Int

    /// RFC 9618 `valid_policy_graph`; `nil` is NULL (RFC 5280 6.1.2 (a) as updated), unless
    /// ``simpleGraph`` stands for it.
    private var validPolicyGraph: ValidPolicyGraph?
    /// The graph while no certificate has asserted anyPolicy or mapped policies: each node then
    /// expects only its own policy and has one parent, so a level is a list of policies — those of
    /// the certificate that the level above also holds (all of them at depth 1, under anyPolicy) —
    /// and the graph is NULL once a level is empty. The common Web PKI path stays in this form;
    /// anything else turns it into the graph by replaying its levels (``promote()``). `nil` once
    /// promoted (or when ``PolicyGraphLimits/allowsSimpleGraph`` is off).
    private var simpleGraph: SimpleGraph?

    private struct SimpleGraph: Sendable {
        /// The policies lists given to the first two levels, held inline (a Web PKI path has two
        /// certificates under its anchor: no allocation)…
        var firstLevels: ([OID]?, [OID]?) = (nil, nil)
        /// …and to the further levels, in order.
        var laterLevels: [[OID]] = []

        var isEmpty: Bool { firstLevels.0 == nil }

        mutating func appendLevel(_ policies: [OID]) {
            if firstLevels.0 == nil {
                firstLevels.0 = policies
            } else if firstLevels.1 == nil {
                firstLevels.1 = policies
            } else {
                laterLevels.append(policies)
            }
        }

        /// The policies lists given to each level, in order (to replay them into a graph).
        var history: [[OID]] { [firstLevels.0, firstLevels.1].compactMap { $0 } + laterLevels }
        /// The valid policies of the deepest level, in creation order.
        var deepest: [OID] = []
        var isNull = false
        /// Lists longer than this take the graph (scans stay short).
        static let maximumPolicies = 64
    }
    /// Nodes and edges created so far, kept after the graph becomes NULL.
    private var graphNodeCount = 1
    private var graphEdgeCount = 0
    private var stage: Stage
    /// The index of the last certificate given to ``processCertificate(_:index:)``, 0 before the first.
    package private(set) var certificateIndex: Int = 0

    private enum Stage: Sendable {
        case expectingCertificate, expectingPreparation, expectingWrapUp, finished, failed
    }

    /// RFC 5280 6.1.2 initialization for a path of `n` certificates.
    ///
    /// `explicit_policy`, `inhibit_anyPolicy` and `policy_mapping` start at 0 when the corresponding
    /// initial input is set and at n+1 otherwise; the graph starts as the single anyPolicy node.
    ///
    /// - Precondition: `n >= 1`.
    package init(pathLength n: Int, inputs: PolicyValidationInputs = PolicyValidationInputs(),
                limits: PolicyGraphLimits = .default) {
        precondition(n >= 1, "a certification path has at least one certificate besides the trust anchor")
        self.pathLength = n
        self.inputs = inputs
        self.limits = limits
        let unconstrained = n == Int.max ? n : n + 1
        self.explicitPolicy = inputs.initialExplicitPolicy ? 0 : unconstrained
        self.inhibitAnyPolicy = inputs.initialAnyPolicyInhibit ? 0 : unconstrained
        self.policyMapping = inputs.initialPolicyMappingInhibit ? 0 : unconstrained
        if limits.allowsSimpleGraph {
            self.simpleGraph = SimpleGraph()
            self.validPolicyGraph = nil
        } else {
            self.validPolicyGraph = ValidPolicyGraph(limits: limits)
        }
        self.stage = .expectingCertificate
    }

    /// Whether the valid_policy_graph is NULL: no policy is valid for the path so far.
    package var isValidPolicyGraphNull: Bool { simpleGraph.map(\.isNull) ?? (validPolicyGraph == nil) }

    /// The nodes created in the valid_policy_graph so far (deleted ones included; the depth-0 node counts).
    package var validPolicyGraphNodeCount: Int {
        simpleGraph != nil ? graphNodeCount : (validPolicyGraph?.nodeCount ?? graphNodeCount)
    }

    /// The parent edges created in the valid_policy_graph so far (deleted ones included).
    package var validPolicyGraphEdgeCount: Int {
        simpleGraph != nil ? graphEdgeCount : (validPolicyGraph?.edgeCount ?? graphEdgeCount)
    }

    /// Adds a level to the simple form (RFC 9618 4.3 (d)(1) for a certificate without anyPolicy:
    /// each listed policy that the level above holds, or every listed policy at depth 1), or
    /// returns `false` when `policies` needs the graph.
    private mutating func addSimpleLevel(_ policies: [OID]) -> Bool {
        let anyPolicy = CertificatePolicySet.anyPolicyIdentifier
        guard policies.count <= SimpleGraph.maximumPolicies, !policies.contains(anyPolicy),
              graphNodeCount + policies.count <= limits.maximumNodes,
              graphEdgeCount + policies.count <= limits.maximumEdges else { return false }
        let atDepthOne = simpleGraph!.isEmpty
        func isKept(_ index: Int) -> Bool {
            let policy = policies[index]
            return !policies[..<index].contains(policy) && (atDepthOne || simpleGraph!.deepest.contains(policy))
        }
        // The level is the certificate's list itself when every policy is kept (the usual case: no
        // copy is made), else the policies kept, in order.
        var level: [OID]
        if policies.indices.allSatisfy(isKept) {
            level = policies
        } else {
            level = []
            for index in policies.indices where isKept(index) { level.append(policies[index]) }
        }
        graphNodeCount += level.count
        graphEdgeCount += level.count
        simpleGraph!.appendLevel(policies)
        simpleGraph!.deepest = level
        // (d)(3): an empty level leaves every node above it childless, down to the root.
        if level.isEmpty { simpleGraph!.isNull = true }
        return true
    }

    /// Replaces the simple form by the graph it stands for, built by replaying its levels.
    private mutating func promote() throws(PolicyFailure) {
        guard let simple = simpleGraph else { return }
        simpleGraph = nil
        guard !simple.isNull else {
            validPolicyGraph = nil
            return
        }
        var graph = ValidPolicyGraph(limits: limits)
        for policies in simple.history {
            try graph.addLevel(policies: policies, anyPolicyApplies: false)
        }
        graphNodeCount = graph.nodeCount
        graphEdgeCount = graph.edgeCount
        validPolicyGraph = graph.isNull ? nil : graph
    }

    // MARK: RFC 5937 3.2: the trust anchor's policy extensions

    /// The trust anchor's certificatePolicies, policyMappings, policyConstraints and
    /// inhibitAnyPolicy, processed as for a certificate 0 above certificate 1 when anchor constraints
    /// are enforced (RFC 5937 section 3.2, in Chromium's reading, which keeps the counts of
    /// policyConstraints and inhibitAnyPolicy rather than folding them into the boolean initial
    /// inputs): with certificatePolicies, a level of the graph holding the anchor's policies (anyPolicy
    /// honoured when `inhibit_anyPolicy > 0` or the anchor is self-issued), then 6.1.3 (f); without
    /// it, nothing (an anchor does not make the graph NULL); then 6.1.4 (a), (b) for its mappings and
    /// (i), (j) for its constraints, but not (h): the anchor is not one of the n certificates, so
    /// SkipCerts values count from certificate 1 (`requireExplicitPolicy 0` in the root requires a
    /// policy from certificate 1 on, `inhibitAnyPolicy 0` ignores anyPolicy from certificate 1 on).
    ///
    /// Call it once, before certificate 1.
    ///
    /// - Throws: ``PolicyFailure/explicitPolicyRequired(certificateIndex:)`` (index 0),
    ///   ``PolicyFailure/anyPolicyInMapping(certificateIndex:)`` (index 0),
    ///   ``PolicyFailure/graphTooLarge(certificateIndex:exceeded:)``.
    package mutating func processTrustAnchor(_ facts: CertificatePolicyFacts) throws(PolicyFailure) {
        precondition(stage == .expectingCertificate && certificateIndex == 0, "processTrustAnchor called after certificate 1")
        stage = .failed
        if let policies = facts.policies {
            if let simple = simpleGraph, !simple.isNull, !addSimpleLevel(policies) {
                try promote()
            }
            if simpleGraph == nil, var graph = takeGraph() {
                let anyPolicyApplies = policies.contains(CertificatePolicySet.anyPolicyIdentifier)
                    && (inhibitAnyPolicy > 0 || facts.isSelfIssued)
                defer { putGraph(graph) }
                try graph.addLevel(policies: policies, anyPolicyApplies: anyPolicyApplies)
            }
            guard explicitPolicy > 0 || !isValidPolicyGraphNull else { throw .explicitPolicyRequired(certificateIndex: 0) }
        }
        try applyPolicyMappings(facts, certificateIndex: 0)
        applyPolicyConstraints(facts)
        stage = .expectingCertificate
    }

    // MARK: RFC 5280 6.1.3 (d)(e)(f)

    /// Basic certificate processing of certificate `i`, policy part: RFC 5280 6.1.3 (d), (e) and (f)
    /// as updated by RFC 9618 section 4.3.
    ///
    /// (d) with a certificatePolicies extension, adds depth i to the graph (honouring anyPolicy when
    /// `inhibit_anyPolicy > 0`, or `i < n` and the certificate is self-issued) and prunes it;
    /// (e) without one, sets the graph to NULL; (f) then requires `explicit_policy > 0` or a non-NULL graph.
    ///
    /// - Parameters:
    ///   - facts: the policy extensions of certificate i.
    ///   - i: its index, 1...n; must be one more than the previous call's.
    /// - Throws: ``PolicyFailure/explicitPolicyRequired(certificateIndex:)`` (step (f)),
    ///   ``PolicyFailure/graphTooLarge(certificateIndex:exceeded:)``.
    package mutating func processCertificate(_ facts: CertificatePolicyFacts, index i: Int) throws(PolicyFailure) {
        precondition(stage == .expectingCertificate && i == certificateIndex + 1 && i <= pathLength,
                     "processCertificate called out of order")
        certificateIndex = i
        stage = .failed

        if let policies = facts.policies {
            // (d): only while the graph is not NULL.
            if let simple = simpleGraph, !simple.isNull, !addSimpleLevel(policies) {
                try promote()
            }
            if simpleGraph == nil, var graph = takeGraph() {
                let assertsAnyPolicy = policies.contains(CertificatePolicySet.anyPolicyIdentifier)
                let anyPolicyApplies = assertsAnyPolicy
                    && (inhibitAnyPolicy > 0 || (i < pathLength && facts.isSelfIssued))
                defer { putGraph(graph) }
                try graph.addLevel(policies: policies, anyPolicyApplies: anyPolicyApplies)
            }
        } else {
            // (e)
            if simpleGraph != nil {
                simpleGraph!.isNull = true
            } else {
                _ = takeGraph()
            }
        }

        // (f)
        guard explicitPolicy > 0 || !isValidPolicyGraphNull else {
            throw .explicitPolicyRequired(certificateIndex: i)
        }
        stage = i < pathLength ? .expectingPreparation : .expectingWrapUp
    }

    // MARK: RFC 5280 6.1.4 (a)(b)(h)(i)(j)

    /// Preparation for certificate i+1, policy part, with the facts of certificate i (i < n):
    /// RFC 5280 6.1.4 (a), (b) as updated by RFC 9618 section 4.4, then (h), (i), (j).
    ///
    /// (a) rejects a mapping from or to anyPolicy; (b) applies the mappings if `policy_mapping > 0`
    /// (else deletes the mapped issuerDomainPolicy nodes), using `policy_mapping` as it stands
    /// before this certificate's own constraints; (h) decrements the three counters unless the
    /// certificate is self-issued; (i) and (j) lower them to this certificate's requireExplicitPolicy,
    /// inhibitPolicyMapping and inhibitAnyPolicy values.
    ///
    /// - Throws: ``PolicyFailure/anyPolicyInMapping(certificateIndex:)`` (step (a)),
    ///   ``PolicyFailure/graphTooLarge(certificateIndex:exceeded:)``.
    package mutating func prepareForNextCertificate(_ facts: CertificatePolicyFacts) throws(PolicyFailure) {
        precondition(stage == .expectingPreparation, "prepareForNextCertificate called out of order")
        stage = .failed
        // (a), (b)
        try applyPolicyMappings(facts, certificateIndex: certificateIndex)
        // (h)
        if !facts.isSelfIssued {
            if explicitPolicy != 0 { explicitPolicy -= 1 }
            if policyMapping != 0 { policyMapping -= 1 }
            if inhibitAnyPolicy != 0 { inhibitAnyPolicy -= 1 }
        }
        // (i), (j)
        applyPolicyConstraints(facts)
        stage = .expectingCertificate
    }

    /// RFC 5280 6.1.4 (a), (b) as updated by RFC 9618 section 4.4, for the certificate at `i`
    /// (0 for the trust anchor).
    private mutating func applyPolicyMappings(_ facts: CertificatePolicyFacts, certificateIndex i: Int) throws(PolicyFailure) {
        guard let mappings = facts.policyMappings else { return }
        let anyPolicy = CertificatePolicySet.anyPolicyIdentifier
        // (a)
        for mapping in mappings
        where mapping.issuerDomainPolicy == anyPolicy || mapping.subjectDomainPolicy == anyPolicy {
            throw .anyPolicyInMapping(certificateIndex: i)
        }
        // (b)
        if !mappings.isEmpty, let simple = simpleGraph, !simple.isNull { try promote() }
        if !mappings.isEmpty, simpleGraph == nil, var graph = takeGraph() {
            defer { putGraph(graph) }
            try graph.applyPolicyMappings(Self.grouped(mappings), policyMappingAllowed: policyMapping > 0)
        }
    }

    /// RFC 5280 6.1.4 (i), (j): the three counters lowered to the certificate's requireExplicitPolicy,
    /// inhibitPolicyMapping and inhibitAnyPolicy values.
    private mutating func applyPolicyConstraints(_ facts: CertificatePolicyFacts) {
        // (i)
        if let requireExplicitPolicy = facts.requireExplicitPolicy {
            explicitPolicy = min(explicitPolicy, Int(clamping: requireExplicitPolicy))
        }
        if let inhibitPolicyMapping = facts.inhibitPolicyMapping {
            policyMapping = min(policyMapping, Int(clamping: inhibitPolicyMapping))
        }
        // (j)
        if let inhibitAnyPolicySkipCerts = facts.inhibitAnyPolicy {
            inhibitAnyPolicy = min(inhibitAnyPolicy, Int(clamping: inhibitAnyPolicySkipCerts))
        }
    }

    // MARK: RFC 5280 6.1.5 (a)(b)(g)

    /// Wrap-up, policy part, with the facts of certificate n: RFC 5280 6.1.5 (a), (b), and (g) with
    /// the final success condition, as updated by RFC 9618 section 4.5.
    ///
    /// (a) decrements `explicit_policy` if not 0 (self-issued or not); (b) sets it to 0 if the
    /// certificate's requireExplicitPolicy is 0; (g) computes the authorities-constrained-policy-set
    /// and the user-constrained-policy-set. The path is acceptable if `explicit_policy > 0` or the
    /// user-constrained-policy-set is not empty.
    ///
    /// - Returns: the policy sets and the final `explicit_policy`.
    /// - Throws: ``PolicyFailure/noAcceptablePolicy(authoritiesConstrainedPolicySet:)``.
    package mutating func wrapUp(_ facts: CertificatePolicyFacts) throws(PolicyFailure) -> PolicyOutcome {
        precondition(stage == .expectingWrapUp, "wrapUp called before the last certificate was processed")
        stage = .failed

        // (a)
        if explicitPolicy != 0 { explicitPolicy -= 1 }
        // (b)
        if facts.requireExplicitPolicy == 0 { explicitPolicy = 0 }

        // (g)
        let authorities: PolicyOutcome.HeldSet
        if let simple = simpleGraph {
            // The live depth-1 nodes (the only ones whose parent is anyPolicy) are those with
            // descendants down to depth n: the deepest level's policies (distinct, never anyPolicy),
            // made a Set only if the outcome is read.
            authorities = simple.isNull ? .built(.empty) : .distinctPolicies(simple.deepest)
        } else {
            authorities = .built(validPolicyGraph?.authoritiesConstrainedPolicySet ?? .empty)
        }
        let user: PolicyOutcome.HeldSet = Self.allowsAnyPolicy(inputs.userInitialPolicySet)
            ? authorities
            : .built(Self.userConstrainedPolicySet(authoritiesConstrainedPolicySet: authorities.set,
                                                   userInitialPolicySet: inputs.userInitialPolicySet))

        guard explicitPolicy > 0 || !user.isEmpty else {
            throw .noAcceptablePolicy(authoritiesConstrainedPolicySet: authorities.set)
        }
        stage = .finished
        return PolicyOutcome(authorities: authorities, user: user, explicitPolicy: explicitPolicy)
    }

    // MARK: Whole path

    /// Runs the three steps over a whole path, `path[0]` being certificate 1 (issued by the trust
    /// anchor) and the last element the end entity.
    ///
    /// - Precondition: `path` is not empty.
    /// - Returns: the policy outcome of ``wrapUp(_:)``.
    /// - Throws: the first ``PolicyFailure`` met.
    package static func validate(_ path: [CertificatePolicyFacts],
                                inputs: PolicyValidationInputs = PolicyValidationInputs(),
                                limits: PolicyGraphLimits = .default) throws(PolicyFailure) -> PolicyOutcome {
        var processor = PolicyProcessor(pathLength: path.count, inputs: inputs, limits: limits)
        for (offset, facts) in path.enumerated() {
            try processor.processCertificate(facts, index: offset + 1)
            if offset + 1 < path.count { try processor.prepareForNextCertificate(facts) }
        }
        return try processor.wrapUp(path[path.count - 1])
    }

    // MARK: Helpers

    /// RFC 9618 section 4.5 step (g)(5)-(6): the user-constrained-policy-set from the
    /// authorities-constrained one. A user-initial-policy-set containing anyPolicy leaves it unchanged;
    /// otherwise it is the intersection, or the whole user-initial-policy-set when the authorities
    /// allow any-policy.
    static func userConstrainedPolicySet(authoritiesConstrainedPolicySet: CertificatePolicySet,
                                         userInitialPolicySet: Set<OID>) -> CertificatePolicySet {
        if allowsAnyPolicy(userInitialPolicySet) { return authoritiesConstrainedPolicySet }
        switch authoritiesConstrainedPolicySet {
        case .anyPolicy: return .policies(userInitialPolicySet)
        case .policies(let policies): return .policies(policies.intersection(userInitialPolicySet))
        }
    }

    /// Whether a user-initial-policy-set holds anyPolicy (any-policy). A set of a few elements is
    /// scanned: comparing is cheaper than hashing the identifier.
    static func allowsAnyPolicy(_ userInitialPolicySet: Set<OID>) -> Bool {
        let anyPolicy = CertificatePolicySet.anyPolicyIdentifier
        return userInitialPolicySet.count <= 4 ? userInitialPolicySet.contains(where: { $0 == anyPolicy })
                                               : userInitialPolicySet.contains(anyPolicy)
    }

    /// Groups a policyMappings extension by issuerDomainPolicy (first-appearance order), with the
    /// deduplicated subjectDomainPolicy values "specified as equivalent" to each (RFC 5280 6.1.4 (b)(1)).
    static func grouped(_ mappings: [CertificatePolicyFacts.PolicyMapping])
        -> [(issuerDomainPolicy: OID, subjectDomainPolicies: [OID])] {
        var groups: [(issuerDomainPolicy: OID, subjectDomainPolicies: [OID])] = []
        var groupIndex: [OID: Int] = [:]
        var seen = Set<CertificatePolicyFacts.PolicyMapping>()
        for mapping in mappings where seen.insert(mapping).inserted {
            if let index = groupIndex[mapping.issuerDomainPolicy] {
                groups[index].subjectDomainPolicies.append(mapping.subjectDomainPolicy)
            } else {
                groupIndex[mapping.issuerDomainPolicy] = groups.count
                groups.append((mapping.issuerDomainPolicy, [mapping.subjectDomainPolicy]))
            }
        }
        return groups
    }

    /// Moves the graph out (so it is mutated in place, not copied); `nil` if NULL.
    private mutating func takeGraph() -> ValidPolicyGraph? {
        guard let graph = validPolicyGraph else { return nil }
        validPolicyGraph = nil
        graphNodeCount = graph.nodeCount
        graphEdgeCount = graph.edgeCount
        return graph
    }

    /// Stores the graph back, as NULL if every node was deleted.
    private mutating func putGraph(_ graph: ValidPolicyGraph) {
        graphNodeCount = graph.nodeCount
        graphEdgeCount = graph.edgeCount
        validPolicyGraph = graph.isNull ? nil : graph
    }
}
