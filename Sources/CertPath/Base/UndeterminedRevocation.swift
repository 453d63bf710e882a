// The typed evidence of an undetermined revocation status: what was tried and why each source could
// not settle it (RFC 5280 6.3.3 for CRLs, RFC 6960 3.2 and 4.2.2 for OCSP). Revocation produces it;
// the words are its description's (Evaluation/RevocationDescriptions.swift).

/// Why the revocation status of a certificate is undetermined: no set of usable CRLs covers every
/// reason (RFC 5280 6.3.3 (k)) and no authentic, current OCSP response settles it (RFC 6960 3.2):
/// the reasons the usable CRLs did cover, and why each CRL and OCSP response examined was not used.
/// ``ValidationFailure/revocationUnknown(_:evidence:)`` carries it.
public struct UndeterminedRevocation: Hashable, Sendable {
    /// The revocation reasons the usable CRLs covered (RFC 5280 6.3.3 (j)); empty when none did.
    public let coveredReasons: ReasonFlags
    /// Why each CRL examined was not used, in the order examined.
    public let crlRejections: [CRLRejection]
    /// Why each OCSP response examined was not used, in the order examined.
    public let ocspRejections: [OCSPRejection]
    /// The number of cRLDistributionPoints the certificate lists (RFC 5280 4.2.1.13).
    public let distributionPoints: Int
    /// How many of them were considered: all, or the first `maximumDistributionPoints` (32).
    public let distributionPointsConsidered: Int

    /// Creates the evidence; the distribution point counts default to 0 (none listed).
    public init(coveredReasons: ReasonFlags, crlRejections: [CRLRejection], ocspRejections: [OCSPRejection] = [],
                distributionPoints: Int = 0, distributionPointsConsidered: Int = 0) {
        self.coveredReasons = coveredReasons
        self.crlRejections = crlRejections
        self.ocspRejections = ocspRejections
        self.distributionPoints = distributionPoints
        self.distributionPointsConsidered = distributionPointsConsidered
    }
}

/// Why one CRL could not settle a certificate's revocation status (RFC 5280 6.3.3): typed evidence of
/// ``UndeterminedRevocation``, put in words by its description.
public enum CRLRejection: Error, Hashable, Sendable {
    /// RFC 5280 forbids using the CRL at all.
    case defect(CertificateRevocationList, CRLDefect)
    /// The CRL does not conform (``CRLDefect/forbidsUse`` false) and does not list the certificate:
    /// it could show a revocation, but cannot show good standing.
    case nonconforming(CertificateRevocationList, CRLDefect)
    /// The CRL's scope does not include the certificate.
    case outOfScope(CertificateRevocationList, CRLScopeMismatch)
    /// A delta CRL with no complete CRL in scope to extend (RFC 5280 5.2.4).
    case deltaWithoutCompleteCRL(CertificateRevocationList)
    /// A delta CRL that cannot extend the complete CRL in scope (RFC 5280 5.2.4, 6.3.3 (c)).
    case deltaNotApplicable(CertificateRevocationList, DeltaCRLMismatch)
    /// thisUpdate is after the validation time.
    case notYetIssued(CertificateRevocationList)
    /// nextUpdate is before the validation time and no current delta CRL extends it (RFC 5280 6.3.3 (a)).
    case stale(CertificateRevocationList)
    /// No nextUpdate, and thisUpdate more than `maximumAge` seconds before the validation time
    /// (the revocation checker's `maximumCRLAgeWithoutNextUpdate`), with no current delta CRL extending it.
    case tooOld(CertificateRevocationList, maximumAge: Int64)
    /// Its signature algorithm is refused by the policy's algorithm profile.
    case disallowedAlgorithm(CertificateRevocationList)
    /// No certificate names the CRL issuer as its subject (RFC 5280 6.3.3 (f)).
    case noIssuerCertificate(CertificateRevocationList)
    /// The CRL issuer's certificate has a keyUsage without cRLSign (RFC 5280 6.3.3 (f)).
    case issuerCannotSignCRLs(CertificateRevocationList, Certificate)
    /// The signature does not verify with the candidate issuer's key (RFC 5280 6.3.3 (g)).
    case signature(CertificateRevocationList, Certificate, SignatureOutcome)
    /// The CRL issuer's certificate does not validate to the same trust anchor (RFC 5280 6.3.3 (f)).
    case issuerPathInvalid(CertificateRevocationList, Certificate, ValidationFailure)
    /// Validating the CRL issuer needed more nested CRL issuer paths than allowed.
    case nestingTooDeep(CertificateRevocationList)
    /// The signature-check budget ran out.
    case budgetExhausted(CertificateRevocationList)
    /// More CRLs than the revocation checker's `maximumCRLsExaminedPerPoint` reached the costly steps
    /// for one distribution point; `crl` is the first not examined.
    case examinationLimit(CertificateRevocationList)

    /// How telling the rejection is, to pick the one reported first (higher first).
    var rank: Int {
        switch self {
        case .budgetExhausted: return 100
        case .examinationLimit: return 95
        case .issuerPathInvalid: return 90
        case .signature: return 85
        case .issuerCannotSignCRLs: return 80
        case .defect: return 75
        case .nonconforming: return 74
        case .stale, .tooOld: return 70
        case .notYetIssued: return 65
        case .disallowedAlgorithm: return 60
        case .nestingTooDeep: return 55
        case .noIssuerCertificate: return 50
        case .deltaNotApplicable: return 45
        case .deltaWithoutCompleteCRL: return 40
        case .outOfScope: return 30
        }
    }
}

/// Why a complete CRL's scope does not cover a certificate through a distribution point (RFC 5280 6.3.3 (b)).
public enum CRLScopeMismatch: Hashable, Sendable {
    /// (b)(1): the distribution point names no cRLIssuer and the CRL issuer is not the certificate issuer.
    case issuerMismatch
    /// (b)(1): the CRL issuer is not among the distribution point's cRLIssuer names.
    case notTheNamedCRLIssuer
    /// (b)(1): the distribution point names a cRLIssuer but the CRL does not assert indirectCRL.
    case notIndirect
    /// (b)(2)(i): no name of the CRL's issuing distribution point matches the certificate's distribution point.
    case distributionPointMismatch
    /// (b)(2)(ii): the CRL covers only end-entity certificates and the certificate is a CA.
    case onlyUserCertificates
    /// (b)(2)(iii): the CRL covers only CA certificates and the certificate is not a CA.
    case onlyCACertificates
    /// (b)(2)(iv): the CRL covers only attribute certificates.
    case onlyAttributeCertificates
}

/// Why a delta CRL cannot be combined with a complete CRL.
public enum DeltaCRLMismatch: Hashable, Sendable {
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
}
