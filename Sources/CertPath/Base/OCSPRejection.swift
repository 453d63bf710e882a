// Why an OCSP response could not settle a certificate's status (RFC 6960 4.2.2.2, 4.2.2.1).

/// Why one OCSP response (or one of its SingleResponses) could not speak for a certificate.
enum OCSPRejection: Error, Sendable, CustomStringConvertible {
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
    /// ``RevocationChecker/maximumOCSPResponsesExamined``; `response` is the first not examined.
    case examinationLimit(OCSPResponse)
    /// More certificates matching the responderID needed trying than
    /// ``RevocationChecker/maximumResponderCandidates``.
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
    enum UnauthorizedResponder: Sendable, CustomStringConvertible {
        /// Its issuer is not the certificate's issuer (name or signature).
        case notIssuedByIssuer
        /// Its extKeyUsage does not include id-kp-OCSPSigning (or it has none).
        case missingOCSPSigning
        /// Its status is being checked with this same response (a responder cannot vouch for itself).
        case vouchesForItself
        /// The evaluation's trust stores distrust it.
        case distrusted

        var description: String {
            switch self {
            case .notIssuedByIssuer: return "it was not issued by the certificate's issuer"
            case .missingOCSPSigning: return "its extKeyUsage does not include OCSPSigning"
            case .vouchesForItself: return "a responder's response cannot show that the responder itself is not revoked"
            case .distrusted: return "it is distrusted"
            }
        }
    }

    /// How telling the rejection is, to pick the one reported first (higher first).
    var rank: Int {
        switch self {
        case .budgetExhausted: return 100
        case .examinationLimit, .responderCandidatesLimit: return 95
        case .responderCertificateInvalid: return 90
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

    var description: String {
        switch self {
        case .unsuccessful(let response):
            return "an OCSP response was not successful (responseStatus \(response.responseStatus), RFC 6960 2.3)"
        case .defect(let response, let defect): return "\(Self.name(response)) is unusable: \(defect)"
        case .unsupportedCertIDHash(let response, let hash):
            return "\(Self.name(response)) identifies certificates with \(hash), which CertPath does not compute"
        case .disallowedAlgorithm(let response):
            return "\(Self.name(response)) is signed with \(response.basicResponse?.signatureAlgorithm.description ?? "?"), which the policy does not accept"
        case .responderNotFound(let response):
            return "no certificate in \(Self.name(response)) or among the presented ones matches its responder (RFC 6960 4.2.2.3)"
        case .unauthorizedResponder(let response, let responder, let why):
            return "\(responder.subject) (serial \(responder.serialNumberHex)) is not authorized to sign \(Self.name(response)): \(why) (RFC 6960 4.2.2.2)"
        case .responderCertificateInvalid(let response, let responder, let failure):
            return "the responder certificate \(responder.subject) of \(Self.name(response)) cannot be relied on: \(Diagnostics.describe(failure))"
        case .signature(let response, let responder, let outcome):
            switch outcome {
            case .unsupportedAlgorithm:
                return "\(Self.name(response)) is signed with \(response.basicResponse?.signatureAlgorithm.description ?? "?"), which CertPath cannot verify"
            case .unusableKey(let reason): return "the key of \(responder.subject) cannot verify \(Self.name(response)): \(reason)"
            default: return "the signature of \(Self.name(response)) does not verify with the key of \(responder.subject) (RFC 6960 4.2.2.2)"
            }
        case .notYetValid(let response, let single):
            return "\(Self.name(response)) is not yet valid (thisUpdate \(single.thisUpdate), after the validation time and the allowed clock skew)"
        case .expired(let response, let single):
            return "\(Self.name(response)) has expired (nextUpdate \(single.nextUpdate.map { "\($0)" } ?? "none"), RFC 6960 4.2.2.1)"
        case .tooOld(let response, let single, let maximumAge):
            return "\(Self.name(response)) has no nextUpdate and its thisUpdate \(single.thisUpdate) is more than \(maximumAge) seconds before the validation time"
        case .unknownToResponder(let response, _):
            return "\(Self.name(response)) says the responder does not know the certificate (status unknown)"
        case .budgetExhausted(let response): return "the signature check budget ran out while checking \(Self.name(response))"
        case .examinationLimit(let response):
            return "\(RevocationChecker.maximumOCSPResponsesExamined) OCSP responses naming the certificate were examined; \(Self.name(response)) and later ones were not"
        case .responderCandidatesLimit(let response):
            return "\(RevocationChecker.maximumResponderCandidates) certificates matching the responder of \(Self.name(response)) were tried as its signer; the others were not"
        }
    }

    /// `the OCSP response of CN=… produced at …` (or `of the responder with key SHA-1 0f80…`).
    static func name(_ response: OCSPResponse) -> String {
        guard let basic = response.basicResponse else { return "the OCSP response (\(response.responseStatus))" }
        return RevocationSource(basic).description
    }
}
