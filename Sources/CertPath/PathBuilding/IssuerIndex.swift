/// Issuer candidates for certificates of one evaluation: the trust store's anchors and the presented
/// intermediates, keyed by RFC 5280 7.1 normalized subject name and ranked.
///
/// Ranking (after Chromium's path builder, combining Go's three buckets), by what is known without a
/// signature check:
/// 1. trusted anchors whose key identifier matches or is unknown, then intermediates that match or
///    are unknown, then anchors and intermediates whose key identifier mismatches
///    (the child's authorityKeyIdentifier keyIdentifier against the candidate's subjectKeyIdentifier);
/// 2. within a bucket, key-identifier match before unknown;
/// 3. then non-self-issued before self-issued (a cross-certificate before a root re-issue);
/// 4. then valid at the validation time before not;
/// 5. then intermediates that are CAs (v3, basicConstraints cA: RFC 5280 6.1.4 (k)) before others,
///    and those whose keyUsage allows keyCertSign (6.1.4 (n)) before others;
/// 6. then the cheapest key to verify with first (``SignatureCost``);
/// 7. then newer notBefore first, an anchor before an intermediate of the same certificate;
/// 8. then by the certificates' DER (length, then bytes): a total order, so the candidates of a
///    certificate come in the same order whatever the order the intermediates were presented in
///    (issue 30: a bounded search must not make the verdict depend on that order). A certificate
///    presented twice is one candidate.
struct IssuerIndex {
    struct Candidate {
        let certificate: Certificate
        let isAnchor: Bool
        /// For an anchor: whether its store holds public Web PKI anchors (``TrustStore/isPublicWebPKI``).
        var isPublicWebPKIAnchor = false
    }

    /// Candidates in the order to try them (the first held inline: usually the only one).
    typealias CandidateList = SmallList<Candidate>

    let stores: SmallList<TrustStore>
    /// The intermediates in the order given (without repeats when more than ``scanLimit``; short
    /// lists skip repeats when scanned).
    private let intermediates: [Certificate]
    /// Intermediates by normalized subject, built only for long lists (short ones are scanned,
    /// comparing names directly, which needs no normalized key for identically encoded names).
    private let intermediatesBySubject: [NormalizedName: [Certificate]]?

    /// Lists at most this long are scanned rather than indexed.
    private static let scanLimit = 8

    init(stores: SmallList<TrustStore>, intermediates: [Certificate]) {
        self.stores = stores
        if intermediates.count <= Self.scanLimit {
            // Short lists are kept as given (no copy); a repeated certificate is skipped when scanned.
            self.intermediates = intermediates
            intermediatesBySubject = nil
            return
        }
        var unique: [Certificate] = []
        unique.reserveCapacity(intermediates.count)
        var seen = Set<DERBytesKey>()
        for certificate in intermediates where seen.insert(DERBytesKey(certificate.der[...])).inserted {
            unique.append(certificate)
        }
        self.intermediates = unique
        if unique.count <= Self.scanLimit {
            intermediatesBySubject = nil
        } else {
            var bySubject: [NormalizedName: [Certificate]] = [:]
            for certificate in unique { bySubject[certificate.subject.normalizedKey, default: []].append(certificate) }
            intermediatesBySubject = bySubject
        }
    }

    /// The presented intermediates from which some trust anchor can be reached by names alone: those
    /// whose issuer is the subject of an anchor of a store, and, repeatedly, those whose issuer is the
    /// subject of such an intermediate (RFC 5280 6.1.3 (a)(4): every link of a path chains names,
    /// compared as in RFC 5280 7.1). Any path through an intermediate outside this set ends without
    /// an anchor, whatever the signatures, so ``PathBuilder`` need not verify a signature to know it.
    ///
    /// Computed by a worklist over the intermediates (linear in their number, one name lookup each);
    /// distrusted anchors count as anchors here, which only keeps more candidates.
    ///
    /// - Returns: the identities (`ObjectIdentifier`) of those intermediates.
    func intermediatesReachingAnAnchorByName() -> Set<ObjectIdentifier> {
        var byIssuer: [NormalizedName: [Certificate]] = [:]
        var reached = Set<ObjectIdentifier>()
        var worklist: [Certificate] = []
        for certificate in intermediates {
            if stores.contains(where: { !$0.anchorIndices(named: certificate.issuer).isEmpty }) {
                if reached.insert(ObjectIdentifier(certificate)).inserted { worklist.append(certificate) }
            } else {
                byIssuer[certificate.issuer.normalizedKey, default: []].append(certificate)
            }
        }
        while let certificate = worklist.popLast() {
            for child in byIssuer[certificate.subject.normalizedKey] ?? [] where reached.insert(ObjectIdentifier(child)).inserted {
                worklist.append(child)
            }
        }
        return reached
    }

    /// Whether any store distrusts `certificate` or its key.
    func isDistrusted(_ certificate: Certificate) -> Bool {
        // Stores are read in place, by index: a `for`/`contains` copy of a store would retain its
        // tables, which every evaluation on every thread shares.
        for i in stores.indices where stores[i].isDistrusted(certificate) { return true }
        return false
    }

    /// Ranked issuer candidates for `child`.
    func candidates(for child: Certificate, at time: UnixTime) -> CandidateList {
        let issuer = child.issuer
        var all = CandidateList()
        for s in stores.indices {
            let isPublic = stores[s].isPublicWebPKI
            stores[s].forEachAnchor(named: issuer) { anchor in
                guard !isDistrusted(anchor), !all.contains(where: { $0.certificate.der == anchor.der }) else { return }
                // The same anchor in two stores is one candidate, public Web PKI if EITHER store is:
                // a system anchor is public wherever else it is also listed (the CT requirement,
                // ``CTRequirement/automatic``, must not depend on the stores' order).
                let anywherePublic = isPublic || stores.indices.contains { stores[$0].isPublicWebPKI && stores[$0].isAnchor(anchor) }
                all.append(Candidate(certificate: anchor, isAnchor: true, isPublicWebPKIAnchor: anywherePublic))
            }
        }
        if let intermediatesBySubject {
            for certificate in intermediatesBySubject[issuer.normalizedKey] ?? [] {
                all.append(Candidate(certificate: certificate, isAnchor: false))
            }
        } else {
            // (A certificate as its own candidate: whether it is self-issued, which it remembers.)
            for (position, certificate) in intermediates.enumerated()
            where certificate === child ? child.isSelfIssued : certificate.subject.isEquivalent(to: issuer) {
                let repeated = intermediates[..<position].contains { $0 === certificate || $0.der == certificate.der }
                if !repeated { all.append(Candidate(certificate: certificate, isAnchor: false)) }
            }
        }
        // Distrusted certificates of the stores come last: entering one ends that branch with
        // `distrusted`, so a report says so rather than "issuer not found".
        var distrusted = CandidateList()
        for s in stores.indices {
            for certificate in stores[s].distrustedCertificates(named: issuer)
            where !all.contains(where: { $0.certificate.der == certificate.der })
                && !distrusted.contains(where: { $0.certificate.der == certificate.der }) {
                distrusted.append(Candidate(certificate: certificate, isAnchor: false))
            }
        }
        guard all.count > 1 else { return distrusted.isEmpty ? all : CandidateList(Array(all) + Array(distrusted)) }
        let childKeyID = child.authorityKeyIdentifierKeyID
        let signedBytes = child.tbsCertificateBytes.count
        /// The ranking key, compared field by field, then by the candidates' DER (a total order on
        /// the certificates themselves: never their position in the input, so the search, and what
        /// a bounded search finds, does not depend on the order a peer sent them in).
        struct Rank: Comparable {
            let bucket: Int, cannotVerify: Int, keyID: Int, selfIssued: Int, invalid: Int, notACA: Int, noKeyCertSign: Int, cost: Int
            let newerFirst: Int64, intermediate: Int
            static func < (a: Rank, b: Rank) -> Bool {
                if a.bucket != b.bucket { return a.bucket < b.bucket }
                if a.cannotVerify != b.cannotVerify { return a.cannotVerify < b.cannotVerify }
                if a.keyID != b.keyID { return a.keyID < b.keyID }
                if a.selfIssued != b.selfIssued { return a.selfIssued < b.selfIssued }
                if a.invalid != b.invalid { return a.invalid < b.invalid }
                if a.notACA != b.notACA { return a.notACA < b.notACA }
                if a.noKeyCertSign != b.noKeyCertSign { return a.noKeyCertSign < b.noKeyCertSign }
                if a.cost != b.cost { return a.cost < b.cost }
                if a.newerFirst != b.newerFirst { return a.newerFirst < b.newerFirst }
                return a.intermediate < b.intermediate
            }
        }
        func rank(_ candidate: Candidate) -> Rank {
            let keyID: Int  // 0 match, 1 unknown, 2 mismatch
            if let childKeyID, let candidateKeyID = candidate.certificate.subjectKeyIdentifier {
                keyID = childKeyID == candidateKeyID ? 0 : 2
            } else {
                keyID = 1
            }
            let bucket = keyID == 2 ? 2 : (candidate.isAnchor ? 0 : 1)
            let certificate = candidate.certificate
            let valid = certificate.notBefore <= time && time <= certificate.notAfter
            // What 6.1.4 (k) and (n) will ask of an intermediate, known without a signature check (an
            // anchor's constraints are enforced only when asked: not ranked by them).
            let notACA = !candidate.isAnchor && (certificate.version != .v3 || !certificate.isCertificateAuthority)
            let noKeyCertSign = certificate.keyUsage.map { !$0.contains(.keyCertSign) } ?? false
            // A key that can verify nothing costs the least to try (1 unit): without `cannotVerify` it
            // ranked first, and 100 look-alike issuers with such keys (an RSA exponent above 64 bits)
            // spent the evaluation's 100 signature checks before the real issuer was tried (a reviewer's finding).
            let (cost, cannotVerify) = SignatureCost.assess(certificate.subjectPublicKeyLayout.key, in: certificate.der[...],
                                                            messageLength: signedBytes)
            return Rank(bucket: bucket, cannotVerify: cannotVerify ? 1 : 0, keyID: keyID, selfIssued: certificate.isSelfIssued ? 1 : 0, invalid: valid ? 0 : 1,
                        notACA: notACA ? 1 : 0, noKeyCertSign: noKeyCertSign ? 1 : 0, cost: cost,
                        newerFirst: -certificate.notBefore.secondsSinceEpoch, intermediate: candidate.isAnchor ? 0 : 1)
        }
        var order = all.indices.map { (rank: rank(all[$0]), index: $0) }
        order.sort { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            // Equal ranks: the DER, shorter first, then byte by byte (candidates are distinct
            // certificates, so this decides every tie).
            let x = all[a.index].certificate.der, y = all[b.index].certificate.der
            if x.count != y.count { return x.count < y.count }
            return x.lexicographicallyPrecedes(y)
        }
        return CandidateList(order.map { all[$0.index] } + Array(distrusted))
    }
}
