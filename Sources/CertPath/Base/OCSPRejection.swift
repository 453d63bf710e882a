// Why an OCSP response could not settle a certificate's status (RFC 6960 4.2.2.2, 4.2.2.1).

/// Why one OCSP response (or one of its SingleResponses) could not speak for a certificate (RFC 6960
/// 3.2, 4.2.2): typed evidence of ``UndeterminedRevocation``, put in words by its description.
public enum OCSPRejection: Error, Hashable, Sendable {
    /// responseStatus is not successful (RFC 6960 4.2.1: malformedRequest, internalError, tryLater,
    /// sigRequired, unauthorized): the response carries no status for any certificate.
    case unsuccessful(OCSPResponse)
    /// The response, or its SingleResponse for the certificate, has an extension marked critical
    /// that CertPath does not process (RFC 6960 4.4, RFC 5280 4.2).
    case defect(OCSPResponse, OCSPResponseDefect)
    /// The SingleResponse names the certificate's serial number with a CertID hash algorithm CertPath
    /// does not compute, so it cannot be matched (RFC 6960 4.1.1).
    case unsupportedCertIDHash(OCSPResponse, OCSPHashAlgorithm)
    /// The response's signature algorithm is refused by the policy's algorithm profile.
    case disallowedAlgorithm(OCSPResponse)
    /// No certificate (the issuer, the response's certificates, the presented ones) matches the
    /// responderID (RFC 6960 4.2.2.3).
    case responderNotFound(OCSPResponse)
    /// The certificate matching the responderID is neither the certificate's issuer nor a
    /// responder the issuer authorized (RFC 6960 4.2.2.2).
    case unauthorizedResponder(OCSPResponse, Certificate, UnauthorizedResponder)
    /// The delegated responder's certificate is authorized but not valid at the validation time,
    /// or revoked, or its status is undetermined where that rejects.
    case responderCertificateInvalid(OCSPResponse, Certificate, ValidationFailure)
    /// Checking the delegated responder's own status needed more nested responder statuses than
    /// the revocation checker's `maximumNesting` (a responder vouched for by another responder's response…).
    case responderNestingTooDeep(OCSPResponse, Certificate)
    /// The signature does not verify with the responder's key (RFC 6960 4.2.2.2; 3.2 (2)).
    case signature(OCSPResponse, Certificate, SignatureOutcome)
    /// thisUpdate is after the validation time plus the clock skew (RFC 6960 3.2 (5), 4.2.2.1).
    case notYetValid(OCSPResponse, OCSPSingleResponse)
    /// nextUpdate is before the validation time (RFC 6960 4.2.2.1, 3.2 (5)).
    case expired(OCSPResponse, OCSPSingleResponse)
    /// No nextUpdate and thisUpdate older than the maximum age (``OCSPFreshness``).
    case tooOld(OCSPResponse, OCSPSingleResponse, maximumAge: Int64)
    /// The responder does not know the certificate (certStatus unknown, RFC 6960 2.2).
    case unknownToResponder(OCSPResponse, OCSPSingleResponse)
    /// The signature-check budget ran out while the response was being authenticated.
    case budgetExhausted(OCSPResponse)
    /// More SingleResponses naming the certificate needed authenticating than
    /// the revocation checker's `maximumOCSPResponsesExamined`; `response` is the first not examined.
    case examinationLimit(OCSPResponse)
    /// More certificates matching the responderID needed trying than
    /// the revocation checker's `maximumResponderCandidates`.
    case responderCandidatesLimit(OCSPResponse)

    /// Whether checking stopped before the evidence was examined (a limit, not the evidence): such
    /// a status fails in every mode, as a budget exhausted does.
    var stoppedEarly: Bool {
        switch self {
        case .budgetExhausted, .examinationLimit, .responderCandidatesLimit: return true
        default: return false
        }
    }

    /// Why a responder is not authorized (RFC 6960 4.2.2.2).
    public enum UnauthorizedResponder: Hashable, Sendable {
        /// Its issuer is not the certificate's issuer (name or signature).
        case notIssuedByIssuer
        /// Its extKeyUsage does not include id-kp-OCSPSigning (or it has none).
        case missingOCSPSigning
        /// Its status is being checked with this same response (a responder cannot vouch for itself).
        case vouchesForItself
        /// The evaluation's trust stores distrust it.
        case distrusted
    }

    /// How telling the rejection is, to pick the one reported first (higher first).
    var rank: Int {
        switch self {
        case .budgetExhausted: return 100
        case .examinationLimit, .responderCandidatesLimit: return 95
        case .responderCertificateInvalid, .responderNestingTooDeep: return 90
        case .signature: return 88
        case .unauthorizedResponder: return 86
        case .defect: return 80
        case .expired, .tooOld: return 72
        case .notYetValid: return 66
        case .unknownToResponder: return 64
        case .disallowedAlgorithm: return 60
        case .responderNotFound: return 52
        case .unsupportedCertIDHash: return 35
        case .unsuccessful: return 32
        }
    }
}
