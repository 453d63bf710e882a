// Delta CRLs (RFC 5280 5.2.4, 6.3.3 (c), (h), (i)): which delta CRL may be combined with a complete CRL.

/// Why a delta CRL cannot be combined with a complete CRL.
enum DeltaCRLMismatch: Hashable, Sendable, CustomStringConvertible {
    /// It has no deltaCRLIndicator.
    case notADeltaCRL
    /// RFC 5280 6.3.3 (c)(1): its issuer is not the complete CRL's issuer.
    case issuerMismatch
    /// RFC 5280 6.3.3 (c)(2): its issuingDistributionPoint differs from the complete CRL's (or only one has one).
    case scopeMismatch
    /// RFC 5280 6.3.3 (c)(3): its authorityKeyIdentifier differs from the complete CRL's.
    case authorityKeyMismatch
    /// RFC 5280 5.2.4: the complete CRL's number is below the delta CRL's BaseCRLNumber.
    case completeCRLTooOld(complete: CRLNumber, base: CRLNumber)
    /// RFC 5280 5.2.4: the delta CRL is not newer than the complete CRL (its number is not greater).
    case notNewer
    /// One of the two has no cRLNumber, or the delta CRL has a defect.
    case unusable
    /// Its nextUpdate is before the validation time, or its thisUpdate after it.
    case notCurrent

    var description: String {
        switch self {
        case .notADeltaCRL: return "it is not a delta CRL"
        case .issuerMismatch: return "its issuer differs from the complete CRL's (RFC 5280 6.3.3 (c)(1))"
        case .scopeMismatch: return "its issuingDistributionPoint differs from the complete CRL's (RFC 5280 6.3.3 (c)(2))"
        case .authorityKeyMismatch: return "its authorityKeyIdentifier differs from the complete CRL's (RFC 5280 6.3.3 (c)(3))"
        case .completeCRLTooOld(let complete, let base):
            return "it extends base CRL number \(base), newer than the complete CRL's \(complete) (RFC 5280 5.2.4)"
        case .notNewer: return "its CRL number is not greater than the complete CRL's (RFC 5280 5.2.4)"
        case .unusable: return "it or the complete CRL lacks a usable cRLNumber (RFC 5280 5.2.3)"
        case .notCurrent: return "it is not current at the validation time"
        }
    }
}

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
