#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CertPath

/// What must hold for every evaluation of a generated ``Scenario`` (FuzzPathBuilding):
///
/// - **Bounded work.** The evaluation returns, spending at most 50 ms of CPU time (measured on the
///   thread, so other processes on the machine do not count; a slow run is repeated once before it
///   counts as a finding) and verifying at most `budget.signatureChecks` signatures (counted by a
///   fresh signature cache, which sees every verification); the reported statistics stay within the
///   budget.
/// - **No trust without a reason.** A trusted result is re-checked independently of the path builder
///   and validator: the path starts at the leaf, uses only presented intermediates, ends at a trust
///   store anchor (or is the leaf itself, trusted as a leaf), contains nothing distrusted (by DER or
///   key), no certificate twice, and respects the length limits; every certificate's signature verifies
///   with its successor's key (``PublicKey`` directly), its issuer name matches the successor's subject,
///   and it is valid at the validation time; every intermediate is a v3 CA whose keyUsage (if any)
///   allows keyCertSign and whose pathLenConstraint holds; no certificate has an unknown critical
///   extension; dNSName constraints hold for plain names and iPAddress constraints for addresses of the
///   same family (the CAs' and the policy's initial ones); for a server purpose the extended key usage
///   allows serverAuth and a subjectAltName matches the reference identifier (HostnameReference; the
///   commonName instead only when there is no subjectAltName and the policy opts into that fallback).
///   With anchor enforcement, the anchor's validity, CA status, keyCertSign, pathLen, name constraints
///   and extended key usage are checked too.
public enum PathInvariants {
    /// The limit on CPU time per evaluation.
    public static let cpuLimitNanoseconds: UInt64 = 50_000_000

    /// A small key cache shared by all evaluations (exercises eviction; keys are the same every run).
    static let keyCache = PublicKeyCache(capacity: 3)

    /// Evaluates `scenario` and checks every invariant; returns the result.
    @discardableResult
    public static func check(_ scenario: Scenario) -> TrustResult {
        let store = TrustStore(scenario.trustEntries)
        let (result, cpu, verifications) = evaluate(scenario, store)
        if cpu > cpuLimitNanoseconds {
            let (_, again, _) = evaluate(scenario, store)
            invariant(again <= cpuLimitNanoseconds,
                      "evaluation took \(cpu / 1000) µs and \(again / 1000) µs of CPU time (limit \(cpuLimitNanoseconds / 1000) µs)\n\(scenario.text)")
        }
        let budget = scenario.policy.budget
        invariant(verifications <= budget.signatureChecks,
                  "\(verifications) signature verifications with a budget of \(budget.signatureChecks)\n\(scenario.text)")
        let spent = result.statistics
        invariant((0...budget.signatureChecks).contains(spent.signatureChecks) && (0...budget.buildSteps).contains(spent.buildSteps)
                  && (0...budget.nameConstraintComparisons).contains(spent.nameConstraintComparisons),
                  "statistics \(spent) outside the budget \(budget)\n\(scenario.text)")

        switch result {
        case .trusted(let path):
            checkTrusted(path, scenario, store)
        case .untrusted(let report):
            _ = Diagnostics.describe(report.primaryFailure)
            _ = report.primaryFailure.code
            for failure in report.failures { _ = Diagnostics.describe(failure); _ = failure.isRecoverable }
        }
        return result
    }

    static func evaluate(_ scenario: Scenario, _ store: TrustStore) -> (TrustResult, UInt64, Int) {
        let signatures = SignatureCache(capacity: 512)
        let evaluation = TrustEvaluation(
            leaf: scenario.leaf, intermediates: scenario.intermediates, trustStore: store, policy: scenario.policy,
            validationTime: scenario.validationTime,
            signatureVerifier: SignatureVerifier(keyCache: keyCache, signatureCache: signatures), collectAllAttempts: scenario.collectAllAttempts)
        let start = threadCPUNanoseconds()
        let result = evaluation.evaluate()
        let cpu = threadCPUNanoseconds() &- start
        let statistics = signatures.statistics
        return (result, cpu, statistics.hits + statistics.misses)
    }

    static func threadCPUNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    static func checkTrusted(_ path: TrustedPath, _ scenario: Scenario, _ store: TrustStore) {
        func fail(_ message: String) -> Never { violation("trusted, but \(message)\n\(scenario.text)") }
        let policy = scenario.policy
        let time = scenario.validationTime
        let certificates = path.certificates
        // No trust exceptions are given, so every trusted path ends at an anchor.
        guard path.reachesTrustAnchor, !path.isTrustedByException else { fail("the path has no anchor or rests on an exception") }
        let anchor = path.anchor
        guard let leaf = certificates.first else { fail("the path is empty") }
        if leaf.der != scenario.leaf.der { fail("the path does not start at the leaf") }

        // Trust store membership, computed from the scenario, not from TrustStore.
        var anchorDER = Set<[UInt8]>(), leafTrustDER = Set<[UInt8]>(), distrustedDER = Set<[UInt8]>()
        var distrustedKeys = Set<[UInt8]>()
        for entry in scenario.trustEntries {
            let der = entry.certificate.der
            switch entry.kind {
            case .anchor: anchorDER.insert(der)
            case .anchorOrLeaf: anchorDER.insert(der); leafTrustDER.insert(der)
            case .leaf: leafTrustDER.insert(der)
            case .distrusted: distrustedDER.insert(der); distrustedKeys.insert(Array(entry.certificate.subjectPublicKeyInfo.der))
            }
        }
        func isDistrusted(_ certificate: Certificate) -> Bool {
            distrustedDER.contains(certificate.der) || distrustedKeys.contains(Array(certificate.subjectPublicKeyInfo.der))
        }
        let presented = Set(scenario.intermediates.map(\.der))

        // A leaf trusted by itself (`.leaf` / `.anchorOrLeaf` entry, or an anchor entry that is the leaf
        // itself) is its own anchor, judged as the end entity: no link, no constraints as a CA.
        let leafIsAnchor = certificates.count == 1 && anchor.der == leaf.der
            && (leafTrustDER.contains(leaf.der) || anchorDER.contains(leaf.der))
        if !leafIsAnchor && !anchorDER.contains(anchor.der) {
            fail("the anchor \(anchor.subject) is not a trust store anchor")
        }
        for certificate in certificates + [anchor] where isDistrusted(certificate) {
            fail("\(certificate.subject) is distrusted")
        }
        for certificate in certificates.dropFirst() where !presented.contains(certificate.der) {
            fail("\(certificate.subject) was not presented")
        }
        if Set(certificates.map(\.der)).count != certificates.count { fail("a certificate appears twice") }
        // maximumIntermediates counts intermediates that are not self-issued (RFC 5280 4.2.1.9's
        // counting); all of them are bounded by twice that, plus one.
        let limit = max(0, policy.maximumIntermediates)
        if certificates.dropFirst().filter({ !$0.isSelfIssued }).count > limit {
            fail("more than \(limit) intermediates that are not self-issued")
        }
        if certificates.count - 1 > 2 * limit + 1 { fail("\(certificates.count - 1) intermediates exceed 2 × \(limit) + 1") }

        // Each link, leaf up to the anchor (a leaf trusted as such has no link).
        let chain = leafIsAnchor ? certificates : certificates + [anchor]
        for index in 0..<(chain.count - 1) {
            let child = chain[index], issuer = chain[index + 1]
            if !child.issuer.isEquivalent(to: issuer.subject) { fail("\(child.subject) is not issued by the name \(issuer.subject)") }
            if child.signatureUnusedBits != 0 { fail("\(child.subject) has a padded signature") }
            do throws(PublicKeyError) {
                let key = try PublicKey(issuer.subjectPublicKeyInfo)
                let outcome = key.verify(signature: child.signature, message: child.tbsCertificateBytes, algorithm: child.signatureAlgorithm)
                if outcome != .verified { fail("\(child.subject)'s signature does not verify with \(issuer.subject)'s key: \(outcome)") }
            } catch {
                fail("\(issuer.subject)'s key does not load: \(error)")
            }
        }
        var timed = certificates
        if policy.anchorEnforcement.validity && !leafIsAnchor { timed.append(anchor) }
        for certificate in timed where !(certificate.notBefore <= time && time <= certificate.notAfter) {
            fail("\(certificate.subject) is not valid at \(time)")
        }
        for certificate in certificates where !certificate.unrecognizedCriticalExtensions.isEmpty {
            fail("\(certificate.subject) has an unknown critical extension")
        }

        // Intermediates: CA, keyCertSign, pathLen (counting non-self-issued intermediates below).
        var constrained = Array(certificates.dropFirst())
        if policy.anchorEnforcement.constraints && !leafIsAnchor { constrained.append(anchor) }
        for (offset, ca) in constrained.enumerated() {
            let position = offset + 1
            // RFC 5280 6.1.4 (k) for intermediates; an enforced anchor may be v1 (no extensions) or
            // without basicConstraints (RFC 5937), but not one whose basicConstraints says it is no CA.
            let isAnchor = position == certificates.count
            if isAnchor {
                if let basic = ca.basicConstraints, !basic.isCertificateAuthority { fail("\(ca.subject) is not a CA") }
            } else if ca.version != .v3 || !ca.isCertificateAuthority {
                fail("\(ca.subject) is not a CA")
            }
            if let usage = ca.keyUsage, !usage.contains(.keyCertSign) { fail("\(ca.subject)'s keyUsage forbids keyCertSign") }
            if let limit = ca.basicConstraints?.pathLenConstraint {
                let below = certificates[1..<min(position, certificates.count)].filter { !$0.isSelfIssued }.count
                if below > limit { fail("\(ca.subject) allows \(limit) intermediates below it, the path has \(below)") }
            }
            // Name constraints on the certificates below.
            if let constraints = ca.nameConstraints {
                checkConstraints(constraints, from: "\(ca.subject)", on: certificates[0..<min(position, certificates.count)], leaf, fail)
            }
        }
        // The policy's initial subtrees (RFC 5280 6.1.1 (h)) apply to every certificate of the path.
        if let constraints = policy.initialNameConstraints {
            checkConstraints(constraints, from: "the policy", on: certificates[...], leaf, fail)
        }

        if case .serverAuthentication(let reference) = policy.purpose {
            for certificate in certificates + (policy.anchorEnforcement.constraints && !leafIsAnchor ? [anchor] : []) {
                if let usage = certificate.extendedKeyUsage, !usage.contains(KnownOID.serverAuth) && !usage.containsAnyExtendedKeyUsage {
                    fail("\(certificate.subject)'s extKeyUsage does not allow serverAuth")
                }
            }
            if let reference {
                // Without a subjectAltName, the commonName only when the policy opts into the legacy fallback.
                var names = leaf.subjectAlternativeNames ?? []
                if leaf.subjectAlternativeNames == nil && policy.allowCommonNameFallback {
                    names = leaf.subject.values(of: KnownOID.commonName).map { .dNSName(Array($0.utf8)[...]) }
                }
                let matched = names.contains { name in
                    switch (name, reference) {
                    case (.dNSName(let bytes), .dnsName(let host)): return HostnameReference.dnsMatches(presented: Array(bytes), reference: host.bytes)
                    case (.iPAddress(let bytes), .ipAddress(let address)): return Array(bytes) == address.bytes
                    default: return false
                    }
                }
                if !matched { fail("no subjectAltName of the leaf matches \(reference)") }
            }
        }
    }

    /// Checks `constraints` (from `source`) against the dNSName and iPAddress SANs of `certificates`,
    /// skipping self-issued certificates other than the leaf (RFC 5280 6.1.3 (b), (c)).
    static func checkConstraints(_ constraints: NameConstraints, from source: String, on certificates: ArraySlice<Certificate>,
                                 _ leaf: Certificate, _ fail: (String) -> Never) {
        for certificate in certificates where certificate.der == leaf.der || !certificate.isSelfIssued {
            for name in certificate.subjectAlternativeNames ?? [] {
                switch name {
                case .dNSName(let bytes) where !bytes.contains(UInt8(ascii: "*")):
                    checkDNSConstraint(Array(bytes), constraints, certificate, source, fail)
                case .iPAddress(let bytes):
                    checkIPConstraint(Array(bytes), constraints, certificate, source, fail)
                default:
                    continue
                }
            }
        }
    }

    /// RFC 5280 4.2.1.10 for an iPAddress: within a permitted subtree of its own family when there are
    /// any, within no excluded one (address AND mask equals base AND mask). Other families' subtrees are
    /// not compared (readings differ).
    static func checkIPConstraint(_ address: [UInt8], _ constraints: NameConstraints, _ certificate: Certificate, _ source: String,
                                  _ fail: (String) -> Never) {
        func ranges(_ subtrees: [GeneralSubtree]?) -> [[UInt8]] {
            var out: [[UInt8]] = []
            for subtree in subtrees ?? [] {
                if case .iPAddress(let bytes) = subtree.base, bytes.count == 2 * address.count { out.append(Array(bytes)) }
            }
            return out
        }
        func within(_ range: [UInt8]) -> Bool {
            let count = address.count
            return (0..<count).allSatisfy { address[$0] & range[count + $0] == range[$0] & range[count + $0] }
        }
        if ranges(constraints.excludedSubtrees).contains(where: within) {
            fail("\(certificate.subject)'s iPAddress \(hex(address)) is in an excluded subtree of \(source)")
        }
        let permitted = ranges(constraints.permittedSubtrees)
        if !permitted.isEmpty && !permitted.contains(where: within) {
            fail("\(certificate.subject)'s iPAddress \(hex(address)) is outside the permitted subtrees of \(source)")
        }
    }

    /// RFC 5280 4.2.1.10 for a plain dNSName: within a permitted dNSName subtree when there are any,
    /// within no excluded one. A constraint matches the name itself and every name below it; an empty
    /// constraint matches everything. Leading-dot constraints are skipped (their reading differs).
    static func checkDNSConstraint(_ name: [UInt8], _ constraints: NameConstraints, _ certificate: Certificate, _ source: String,
                                   _ fail: (String) -> Never) {
        var host = name.map(HostnameReference.lower)
        if host.last == UInt8(ascii: ".") { host.removeLast() }
        func within(_ constraint: [UInt8]) -> Bool {
            let base = constraint.map(HostnameReference.lower)
            if base.isEmpty { return true }
            if host == base { return true }
            return host.count > base.count && host.suffix(base.count).elementsEqual(base) && host[host.count - base.count - 1] == UInt8(ascii: ".")
        }
        func dnsBases(_ subtrees: [GeneralSubtree]?) -> [[UInt8]]? {
            guard let subtrees else { return nil }
            var bases: [[UInt8]] = []
            for subtree in subtrees { if case .dNSName(let bytes) = subtree.base { bases.append(Array(bytes)) } }
            return bases
        }
        let text = String(decoding: name, as: UTF8.self)
        if let excluded = dnsBases(constraints.excludedSubtrees) {
            for base in excluded where base.first != UInt8(ascii: ".") && within(base) {
                fail("\(certificate.subject)'s dNSName \(text) is in \(source)'s excluded subtree \(String(decoding: base, as: UTF8.self))")
            }
        }
        if let permitted = dnsBases(constraints.permittedSubtrees), !permitted.isEmpty,
           permitted.allSatisfy({ $0.first != UInt8(ascii: ".") }), !permitted.contains(where: within) {
            fail("\(certificate.subject)'s dNSName \(text) is outside \(source)'s permitted dNSName subtrees")
        }
    }
}
