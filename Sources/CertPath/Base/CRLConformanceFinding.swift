// The CRL departures from RFC 5280 section 5 that bind the CRL issuer, and what they mean for the
// relying party under each profile.

/// A CRL that showed a certificate's good standing although it departs from the CRL profile in a way
/// that binds its issuer, not the relying party: no cRLNumber or a critical one (RFC 5280 5.2.3:
/// "conforming CRL issuers MUST include"; section 6.3 needs the number only to combine delta CRLs),
/// or no nextUpdate (5.1.2.5: "conforming CRL issuers MUST include"; such a CRL is current for
/// 7 days (`maximumCRLAgeWithoutNextUpdate`, as for OCSP) after its thisUpdate).
///
/// Reported for every profile but ``CertificateProfile/rfc5280``, which reads these departures
/// strictly: there such a CRL is evidence of revocation only, never of good standing. A CRL with a
/// defect that forbids its use (``CRLDefect/forbidsUse``) is never used, and never a finding.
public struct CRLConformanceFinding: Hashable, Sendable {
    /// The certificate whose status the CRL showed.
    public let certificate: Certificate
    /// The complete CRL used.
    public let crl: CertificateRevocationList
    /// Its departures, in the order ``CertificateRevocationList/defects`` lists them: each one of
    /// ``CRLDefect/missingCRLNumber``, ``CRLDefect/criticalCRLNumber``, ``CRLDefect/missingNextUpdate``.
    public let defects: [CRLDefect]
}
