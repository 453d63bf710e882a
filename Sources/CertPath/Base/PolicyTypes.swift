// Values exchanged with the certificate-policy part of RFC 5280 section 6.1 path validation
// (the valid_policy_graph of RFC 9618). The state machine itself is `PolicyProcessor`.

/// The policy inputs of RFC 5280 6.1.1: (c) user-initial-policy-set, (e) initial-policy-mapping-inhibit,
/// (f) initial-explicit-policy and (g) initial-any-policy-inhibit.
///
/// The defaults accept any policy and impose no constraint, as PKITS's default settings do.
public struct PolicyValidationInputs: Sendable, Hashable {
    /// RFC 5280 6.1.1 (c): the policies acceptable to the certificate user.
    ///
    /// A set containing anyPolicy (`2.5.29.32.0`) means "any-policy": RFC 5280 6.1.5 (g) and RFC 9618
    /// then leave the user-constrained-policy-set equal to the authorities-constrained-policy-set,
    /// whatever other identifiers the set also holds. An empty set accepts no policy, so a path is then
    /// valid only while no explicit policy is required.
    public var userInitialPolicySet: Set<OID>
    /// RFC 5280 6.1.1 (e): policy mapping is forbidden from the first certificate on.
    public var initialPolicyMappingInhibit: Bool
    /// RFC 5280 6.1.1 (f): the path must be valid for at least one policy of ``userInitialPolicySet``.
    public var initialExplicitPolicy: Bool
    /// RFC 5280 6.1.1 (g): anyPolicy asserted in a certificate is not honoured (unless self-issued
    /// and not the last certificate).
    public var initialAnyPolicyInhibit: Bool

    /// Creates the inputs; every argument defaults to the unconstrained value (any-policy, `false`).
    public init(
        userInitialPolicySet: Set<OID> = [CertificatePolicySet.anyPolicyIdentifier],
        initialPolicyMappingInhibit: Bool = false,
        initialExplicitPolicy: Bool = false,
        initialAnyPolicyInhibit: Bool = false
    ) {
        self.userInitialPolicySet = userInitialPolicySet
        self.initialPolicyMappingInhibit = initialPolicyMappingInhibit
        self.initialExplicitPolicy = initialExplicitPolicy
        self.initialAnyPolicyInhibit = initialAnyPolicyInhibit
    }
}

/// The decoded policy-related extension values of one certificate, as RFC 5280 6.1.3 and 6.1.4 read them.
///
/// `nil` means the extension is absent; policy qualifiers are not carried (RFC 9618 section 3.3
/// recommends not returning them). The caller decodes the extensions (RFC 5280 4.2.1.4
/// certificatePolicies, 4.2.1.5 policyMappings, 4.2.1.11 policyConstraints, 4.2.1.14 inhibitAnyPolicy);
/// this type only carries their values.
package struct CertificatePolicyFacts: Sendable, Hashable {
    /// One `SEQUENCE { issuerDomainPolicy, subjectDomainPolicy }` of the policyMappings extension
    /// (RFC 5280 4.2.1.5): the issuer's policy `issuerDomainPolicy` is considered equivalent to the
    /// subject's policy `subjectDomainPolicy`.
    package struct PolicyMapping: Sendable, Hashable {
        /// The policy in the issuing CA's domain.
        package var issuerDomainPolicy: OID
        /// The equivalent policy in the subject's domain.
        package var subjectDomainPolicy: OID

        /// Creates one mapping.
        package init(issuerDomainPolicy: OID, subjectDomainPolicy: OID) {
            self.issuerDomainPolicy = issuerDomainPolicy
            self.subjectDomainPolicy = subjectDomainPolicy
        }
    }

    /// The policyIdentifier of each PolicyInformation of the certificatePolicies extension, in
    /// certificate order, anyPolicy included; `nil` when the extension is absent (RFC 5280 6.1.3 (e)).
    /// A repeated identifier is tolerated and counts once.
    package var policies: [OID]?
    /// The policyMappings extension (RFC 5280 4.2.1.5), `nil` when absent. Read only for
    /// certificates 1..<n (RFC 5280 6.1.4 (a), (b)).
    package var policyMappings: [PolicyMapping]?
    /// policyConstraints `requireExplicitPolicy` SkipCerts (RFC 5280 4.2.1.11), `nil` when absent.
    package var requireExplicitPolicy: UInt64?
    /// policyConstraints `inhibitPolicyMapping` SkipCerts (RFC 5280 4.2.1.11), `nil` when absent.
    package var inhibitPolicyMapping: UInt64?
    /// The inhibitAnyPolicy extension's SkipCerts (RFC 5280 4.2.1.14), `nil` when absent.
    package var inhibitAnyPolicy: UInt64?
    /// Whether issuer and subject names match (RFC 5280 6.1: "self-issued"); such a certificate does
    /// not decrement the counters of 6.1.4 (h) and may assert anyPolicy despite `inhibit_anyPolicy`
    /// when it is not the last certificate (6.1.3 (d)(2)).
    package var isSelfIssued: Bool

    /// Creates the facts; every extension defaults to absent and the certificate to not self-issued.
    package init(
        policies: [OID]? = nil,
        policyMappings: [PolicyMapping]? = nil,
        requireExplicitPolicy: UInt64? = nil,
        inhibitPolicyMapping: UInt64? = nil,
        inhibitAnyPolicy: UInt64? = nil,
        isSelfIssued: Bool = false
    ) {
        self.policies = policies
        self.policyMappings = policyMappings
        self.requireExplicitPolicy = requireExplicitPolicy
        self.inhibitPolicyMapping = inhibitPolicyMapping
        self.inhibitAnyPolicy = inhibitAnyPolicy
        self.isSelfIssued = isSelfIssued
    }
}

/// A set of certificate policies as RFC 5280 6.1.5 (g) / RFC 9618 section 4.5 output them: either the
/// special value any-policy or a finite set of policy OIDs (possibly empty).
public enum CertificatePolicySet: Sendable, Hashable, CustomStringConvertible {
    /// The special value any-policy: the valid_policy_graph's last level holds anyPolicy, so every
    /// policy is valid for the path (X.509 12.2 "any-policy"). A set that would list anyPolicy
    /// beside other identifiers is this value.
    case anyPolicy
    /// Exactly these policies (never containing anyPolicy).
    case policies(Set<OID>)

    /// The anyPolicy identifier `2.5.29.32.0` (RFC 5280 4.2.1.4).
    public static let anyPolicyIdentifier: OID = "2.5.29.32.0"

    /// The empty set: no policy is valid for the path.
    public static let empty = CertificatePolicySet.policies([])

    /// Whether `policy` is valid under this set: always for ``anyPolicy``, by membership otherwise.
    public func contains(_ policy: OID) -> Bool {
        switch self {
        case .anyPolicy: return true
        case .policies(let set): return set.contains(policy)
        }
    }

    /// `true` only for the empty finite set.
    public var isEmpty: Bool {
        switch self {
        case .anyPolicy: return false
        case .policies(let set): return set.isEmpty
        }
    }

    /// `any-policy`, or the dotted OIDs sorted and braced (`{2.16.840.1.101.3.2.1.48.1}`).
    public var description: String {
        switch self {
        case .anyPolicy: return "any-policy"
        case .policies(let set): return "{" + set.sorted().map(\.description).joined(separator: ", ") + "}"
        }
    }
}

/// The result of successful policy processing (RFC 5280 6.1.6 as updated by RFC 9618 section 4.6).
public struct PolicyOutcome: Sendable, Hashable {
    /// The authorities-constrained-policy-set (X.509 12.2; RFC 9618 section 4.5, step (g)(4)): the
    /// policies, in the trust anchor's policy domain, that the certificates of the path allow,
    /// before the user-initial-policy-set is applied.
    public var authoritiesConstrainedPolicySet: CertificatePolicySet {
        get { sets.authorities.set }
        set { sets = Sets(authorities: .built(newValue), user: sets.user) }
    }
    /// The user-constrained-policy-set (RFC 9618 section 4.5, step (g)(5)): the authorities-constrained
    /// set intersected with the user-initial-policy-set. This is the set a caller should act on.
    public var userConstrainedPolicySet: CertificatePolicySet {
        get { sets.user.set }
        set { sets = Sets(authorities: sets.authorities, user: .built(newValue)) }
    }
    /// The final `explicit_policy` (after RFC 5280 6.1.5 (a) and (b)); `0` means an explicit policy
    /// was required, so ``userConstrainedPolicySet`` is not empty.
    public var explicitPolicy: Int

    /// A policy set as the outcome holds it: built, or as the distinct policies of the valid
    /// policy graph's deepest level, made a `Set` only when read (most evaluations never read it,
    /// and building it was an allocation and a hash per evaluation).
    enum HeldSet: Sendable {
        case built(CertificatePolicySet)
        case distinctPolicies([OID])

        var set: CertificatePolicySet {
            switch self {
            case .built(let set): return set
            case .distinctPolicies(let policies): return .policies(Set(policies))
            }
        }

        var isEmpty: Bool {
            switch self {
            case .built(let set): return set.isEmpty
            case .distinctPolicies(let policies): return policies.isEmpty
            }
        }
    }

    /// The two sets, in one immutable object: an outcome is copied into every attempt and result,
    /// and a copy then retains one reference (two enums of sets were copied through their metadata).
    private var sets: Sets

    private final class Sets: Sendable {
        let authorities: HeldSet
        let user: HeldSet

        init(authorities: HeldSet, user: HeldSet) {
            self.authorities = authorities
            self.user = user
        }
    }

    /// Creates an outcome (for tests and callers assembling results).
    public init(authoritiesConstrainedPolicySet: CertificatePolicySet,
                userConstrainedPolicySet: CertificatePolicySet,
                explicitPolicy: Int) {
        self.init(authorities: .built(authoritiesConstrainedPolicySet), user: .built(userConstrainedPolicySet),
                  explicitPolicy: explicitPolicy)
    }

    init(authorities: HeldSet, user: HeldSet, explicitPolicy: Int) {
        self.sets = Sets(authorities: authorities, user: user)
        self.explicitPolicy = explicitPolicy
    }

    /// Whether both outcomes have the same policy sets and `explicit_policy`.
    public static func == (lhs: PolicyOutcome, rhs: PolicyOutcome) -> Bool {
        lhs.explicitPolicy == rhs.explicitPolicy && lhs.authoritiesConstrainedPolicySet == rhs.authoritiesConstrainedPolicySet
            && lhs.userConstrainedPolicySet == rhs.userConstrainedPolicySet
    }

    /// Feeds the policy sets and `explicit_policy` to `hasher`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(authoritiesConstrainedPolicySet)
        hasher.combine(userConstrainedPolicySet)
        hasher.combine(explicitPolicy)
    }

    /// Whether the path was required to be valid for an explicit policy (X.509's
    /// explicit-policy-indicator): `explicitPolicy == 0`.
    public var isExplicitPolicyRequired: Bool { explicitPolicy == 0 }
}

/// Bounds on the valid_policy_graph, so that crafted policies and mappings cannot exhaust time or memory.
///
/// RFC 9618's graph has at most one node per policy per level, so its nodes grow linearly in the
/// policies and mappings of the path, but the parent edges between two levels can grow with the
/// product of the levels' sizes; both counts are bounded.
/// Counts are cumulative over the whole path: every node and parent edge ever created, including
/// those later pruned. Exceeding a bound fails with ``PolicyFailure/graphTooLarge(certificateIndex:exceeded:)``
/// (RFC 9618 section 3.4.2 recommends rejecting a path whose policy structure reaches a limit).
package struct PolicyGraphLimits: Sendable, Hashable {
    /// The most nodes the graph may hold, the depth-0 anyPolicy node included; default 10,000.
    package var maximumNodes: Int
    /// The most parent edges the graph may hold; default 100,000.
    package var maximumEdges: Int
    /// Levels of the graph with more nodes than this are indexed by hash instead of scanned (an
    /// implementation setting; tests set 0 to run the indexed code on small graphs).
    var indexedLevelSize = 16
    /// Whether the processor may keep the graph as a list of policies while it has that shape
    /// (see ``PolicyProcessor``); tests turn it off to compare with the graph itself.
    var allowsSimpleGraph = true

    /// Creates limits; real paths use a few dozen nodes at most.
    package init(maximumNodes: Int = 10_000, maximumEdges: Int = 100_000) {
        self.maximumNodes = maximumNodes
        self.maximumEdges = maximumEdges
    }

    /// 10,000 nodes and 100,000 edges.
    package static let `default` = PolicyGraphLimits()
}

/// Which bound of `PolicyGraphLimits` a path exceeded, with the bound's value.
public enum PolicyGraphBound: Sendable, Hashable {
    /// `PolicyGraphLimits.maximumNodes` was reached.
    case nodes(Int)
    /// `PolicyGraphLimits.maximumEdges` was reached.
    case edges(Int)
}

/// Why certificate-policy processing rejects a path. `certificateIndex` is the RFC 5280 6.1 index `i`
/// of the offending certificate: 1 for the one issued by the trust anchor, n for the end entity.
public enum PolicyFailure: Error, Sendable, Hashable {
    /// RFC 5280 6.1.3 (f): after certificate `certificateIndex` the valid_policy_graph is NULL
    /// (no policy survives) while `explicit_policy` is 0.
    case explicitPolicyRequired(certificateIndex: Int)
    /// RFC 5280 6.1.5 (g) and its final paragraph, as updated by RFC 9618 section 4.5: at wrap-up
    /// `explicit_policy` is 0 and the user-constrained-policy-set is empty. Carries the
    /// authorities-constrained-policy-set: the policies the path did allow, none of them acceptable
    /// under the user-initial-policy-set (empty when no policy survived at all).
    case noAcceptablePolicy(authoritiesConstrainedPolicySet: CertificatePolicySet)
    /// RFC 5280 6.1.4 (a): the policyMappings extension of certificate `certificateIndex` maps from or
    /// to anyPolicy.
    case anyPolicyInMapping(certificateIndex: Int)
    /// The valid_policy_graph would exceed `PolicyGraphLimits` while processing certificate
    /// `certificateIndex` (a resource bound, not an RFC 5280 verdict).
    case graphTooLarge(certificateIndex: Int, exceeded: PolicyGraphBound)
}
