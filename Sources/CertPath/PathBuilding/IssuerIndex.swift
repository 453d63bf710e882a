/// Issuer candidates for certificates of one evaluation: the trust store's anchors and the presented
/// intermediates, keyed by RFC 5280 7.1 normalized subject name and ranked.
///
/// Ranking (a stable sort, after Chromium's path builder, combining Go's three buckets):
/// 1. trusted anchors whose key identifier matches or is unknown, then intermediates that match or
///    are unknown, then anchors and intermediates whose key identifier mismatches
///    (the child's authorityKeyIdentifier keyIdentifier against the candidate's subjectKeyIdentifier);
/// 2. within a bucket, key-identifier match before unknown;
/// 3. then non-self-issued before self-issued (a cross-certificate before a root re-issue);
/// 4. then valid at the validation time before not;
/// 5. then newer notBefore first.
struct IssuerIndex {
    struct Candidate {
        let certificate: Certificate
        let isAnchor: Bool
    }

    /// The trust stores consulted, in order (caller's, pinned, system).
    let stores: [TrustStore]
    private let intermediatesBySubject: [NormalizedName: [Certificate]]

    init(stores: [TrustStore], intermediates: [Certificate]) {
        self.stores = stores
        var bySubject: [NormalizedName: [Certificate]] = [:]
        var seen = Set<[UInt8]>()
        for certificate in intermediates where seen.insert(certificate.der).inserted {
            bySubject[certificate.subject.normalizedKey, default: []].append(certificate)
        }
        intermediatesBySubject = bySubject
    }

    /// Whether any store distrusts `certificate` or its key.
    func isDistrusted(_ certificate: Certificate) -> Bool {
        stores.contains { $0.isDistrusted(certificate) }
    }

    /// Ranked issuer candidates for `child`.
    func candidates(for child: Certificate, at time: UnixTime) -> [Candidate] {
        let key = child.issuer.normalizedKey
        var all: [Candidate] = []
        var anchorDER = Set<[UInt8]>()
        for store in stores {
            for anchor in store.anchors(named: key) where !isDistrusted(anchor) && anchorDER.insert(anchor.der).inserted {
                all.append(Candidate(certificate: anchor, isAnchor: true))
            }
        }
        all += (intermediatesBySubject[key] ?? []).map { Candidate(certificate: $0, isAnchor: false) }
        // Distrusted certificates of the stores come last: entering one ends that branch with
        // `distrusted`, so a report says so rather than "issuer not found".
        var distrusted: [Candidate] = []
        for candidate in all { anchorDER.insert(candidate.certificate.der) }
        for store in stores {
            for certificate in store.distrustedCertificates(named: key) where anchorDER.insert(certificate.der).inserted {
                distrusted.append(Candidate(certificate: certificate, isAnchor: false))
            }
        }
        guard all.count > 1 else { return all + distrusted }
        let childKeyID = child.authorityKeyIdentifier?.keyIdentifier
        func rank(_ candidate: Candidate) -> (Int, Int, Int, Int, Int64) {
            let keyID: Int  // 0 match, 1 unknown, 2 mismatch
            if let childKeyID, let candidateKeyID = candidate.certificate.subjectKeyIdentifier {
                keyID = childKeyID == candidateKeyID ? 0 : 2
            } else {
                keyID = 1
            }
            let bucket = keyID == 2 ? 2 : (candidate.isAnchor ? 0 : 1)
            let certificate = candidate.certificate
            let valid = certificate.notBefore <= time && time <= certificate.notAfter
            return (bucket, keyID, certificate.isSelfIssued ? 1 : 0, valid ? 0 : 1, -certificate.notBefore.secondsSinceEpoch)
        }
        let ranked = all.enumerated().map { (rank($0.element), $0.offset, $0.element) }
        return ranked.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map(\.2) + distrusted
    }
}
