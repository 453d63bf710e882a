/// What a certificate whose revocation status cannot be determined does to its path (RFC 5280 6.3.3
/// leaves the status UNDETERMINED when no usable CRL covers every reason; what then happens is the
/// relying party's choice).
///
/// A status is undetermined when no supplied CRL is in scope for the certificate (RFC 5280 6.3.3 (b)),
/// or every CRL in scope is unusable: stale (nextUpdate before the validation time with no usable
/// delta CRL), not yet issued, with a critical extension CertPath does not process, without a
/// non-critical cRLNumber, not signed by a certificate that validates to the same trust anchor with
/// cRLSign allowed, or covering only some reasons.
public enum UndeterminedRevocationStatus: String, Hashable, Sendable, CaseIterable {
    /// Reject a certificate with undetermined status only when CRLs were supplied for its issuer —
    /// a CRL whose issuer is the certificate's issuer, or a CRL issuer its cRLDistributionPoints name —
    /// and none of them settles its status: a stale, forged or unusable CRL is never ignored, while a
    /// certificate of an issuer the caller gave no CRLs for is accepted (the default).
    case rejectWhenIssuerHasCRLs = "issuer"
    /// Reject every certificate whose status is undetermined ("hard fail"; NIST PKITS 4.4.1 expects a
    /// certificate without any CRL to be invalid). With no CRLs at all, every path fails.
    case reject = "reject"
    /// Never reject for an undetermined status ("soft fail"): only a revoked certificate fails.
    case accept = "accept"
}

/// How a complete CRL that departs from the rules RFC 5280 section 5 places on CRL issuers is read:
/// one without cRLNumber or with a critical one (5.2.3), or without nextUpdate (5.1.2.5). These MUSTs
/// bind the CRL issuer; section 6.3 needs the number only to combine delta CRLs.
public enum CRLConformance: String, Hashable, Sendable, CaseIterable {
    /// ``strict`` for a path validated under ``CertificateProfile/rfc5280``, ``interoperable`` under
    /// every other profile (the default).
    case automatic = "auto"
    /// Such a CRL is evidence that a certificate it lists is revoked, never that one it does not list
    /// is good (that status stays undetermined).
    case strict = "strict"
    /// Such a CRL also shows good standing, reported as a ``CRLConformanceFinding``; without
    /// nextUpdate it is current for 7 days (`maximumCRLAgeWithoutNextUpdate`, as for OCSP) after its
    /// thisUpdate (as Chromium, OpenSSL and Go read it).
    case interoperable = "interoperable"

    /// Whether CRLs are read strictly on a path validated under `profile` (resolved).
    public func isStrict(under profile: CertificateProfile) -> Bool {
        switch self {
        case .automatic: return profile == .rfc5280
        case .strict: return true
        case .interoperable: return false
        }
    }
}
