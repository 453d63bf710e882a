// Delta CRLs (RFC 5280 5.2.4, 6.3.3 (c), (h), (i)): which delta CRL may be combined with a complete CRL.

enum DeltaCRLs {
    /// Why `delta` cannot be combined with `complete` at `time`; `nil` when it can (RFC 5280 5.2.4,
    /// 6.3.3 (c)). The signature check with the complete CRL's key ((h)) is the caller's.
    static func mismatch(_ delta: CertificateRevocationList, complete: CertificateRevocationList, at time: UnixTime) -> DeltaCRLMismatch? {
        guard let base = delta.baseCRLNumber else { return .notADeltaCRL }
        guard delta.isUsable, let deltaNumber = delta.crlNumber, let completeNumber = complete.crlNumber else { return .unusable }
        guard delta.issuer.isEquivalent(to: complete.issuer) else { return .issuerMismatch }
        guard delta.issuingDistributionPoint == complete.issuingDistributionPoint else { return .scopeMismatch }
        if let completeKey = complete.authorityKeyIdentifier, delta.authorityKeyIdentifier != completeKey {
            return .authorityKeyMismatch
        }
        guard completeNumber >= base else { return .completeCRLTooOld(complete: completeNumber, base: base) }
        guard deltaNumber > completeNumber else { return .notNewer }
        guard delta.thisUpdate <= time, delta.nextUpdate.map({ time <= $0 }) ?? true else { return .notCurrent }
        return nil
    }

    /// The delta CRLs among `candidates` that may be combined with `complete` at `time`, newest (highest
    /// CRL number) first.
    static func applicable(to complete: CertificateRevocationList, among candidates: [CertificateRevocationList],
                           at time: UnixTime) -> [CertificateRevocationList] {
        candidates.filter { $0.isDeltaCRL && mismatch($0, complete: complete, at: time) == nil }
            .sorted { ($0.crlNumber ?? CRLNumber(0)) > ($1.crlNumber ?? CRLNumber(0)) }
    }
}
