// The words of revocation's typed evidence (RFC 5280 6.3, RFC 6960): the revocation layer produces
// rejections and undetermined statuses as values; this layer, above it, says them for people.

extension OCSPRejection: CustomStringConvertible {
    /// The rejection in words: which response, and the RFC 6960 clause it fails.
    public var description: String {
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
        case .responderNestingTooDeep(let response, let responder):
            return "the responder certificate \(responder.subject) of \(Self.name(response)) cannot be relied on: checking its status needs more than \(RevocationChecker.maximumNesting) nested responder statuses"
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

extension OCSPRejection.UnauthorizedResponder: CustomStringConvertible {
    /// Why the responder is not authorized, in words (RFC 6960 4.2.2.2).
    public var description: String {
        switch self {
        case .notIssuedByIssuer: return "it was not issued by the certificate's issuer"
        case .missingOCSPSigning: return "its extKeyUsage does not include OCSPSigning"
        case .vouchesForItself: return "a responder's response cannot show that the responder itself is not revoked"
        case .distrusted: return "it is distrusted"
        }
    }
}

extension CRLRejection: CustomStringConvertible {
    /// The rejection in words: which CRL, and the RFC 5280 clause it fails.
    public var description: String {
        switch self {
        case .defect(let crl, let defect): return "\(Self.name(crl)) is unusable: \(defect)"
        case .nonconforming(let crl, let defect):
            return "\(Self.name(crl)) does not conform (\(defect)): it would show a revocation, but cannot show that a certificate it does not list is good"
        case .outOfScope(let crl, let mismatch): return "\(Self.name(crl)) does not cover it: \(mismatch)"
        case .deltaWithoutCompleteCRL(let crl):
            return "\(Self.name(crl)) is a delta CRL and no complete CRL it could extend was supplied (RFC 5280 5.2.4)"
        case .deltaNotApplicable(let crl, let mismatch): return "\(Self.name(crl)) cannot extend the complete CRL: \(mismatch)"
        case .tooOld(let crl, let maximumAge):
            return "\(Self.name(crl)) has no nextUpdate and was issued more than \(maximumAge / 86_400) days before the validation time (thisUpdate \(crl.thisUpdate)); no current delta CRL extends it"
        case .notYetIssued(let crl): return "\(Self.name(crl)) was issued after the validation time (thisUpdate \(crl.thisUpdate))"
        case .stale(let crl):
            return "\(Self.name(crl)) is out of date (nextUpdate \(crl.nextUpdate.map { "\($0)" } ?? "none")) and no current delta CRL extends it"
        case .disallowedAlgorithm(let crl): return "\(Self.name(crl)) is signed with \(crl.signatureAlgorithm), which the policy does not accept"
        case .noIssuerCertificate(let crl): return "no certificate was supplied for the issuer of \(Self.name(crl))"
        case .issuerCannotSignCRLs(let crl, let issuer):
            return "the keyUsage of \(issuer.subject) does not allow cRLSign, so it cannot issue \(Self.name(crl)) (RFC 5280 6.3.3 (f))"
        case .signature(let crl, let issuer, let outcome):
            switch outcome {
            case .unsupportedAlgorithm: return "\(Self.name(crl)) is signed with \(crl.signatureAlgorithm), which CertPath cannot verify"
            case .unusableKey(let reason): return "the key of \(issuer.subject) cannot verify \(Self.name(crl)): \(reason)"
            default: return "the signature of \(Self.name(crl)) does not verify with the key of \(issuer.subject) (RFC 5280 6.3.3 (g))"
            }
        case .issuerPathInvalid(let crl, let issuer, let failure):
            return "the CRL issuer certificate \(issuer.subject) of \(Self.name(crl)) does not validate to the same trust anchor: \(Diagnostics.describe(failure))"
        case .nestingTooDeep(let crl):
            return "validating the issuer of \(Self.name(crl)) needs more than \(RevocationChecker.maximumNesting) nested CRL issuer paths"
        case .budgetExhausted(let crl): return "the signature check budget ran out while checking \(Self.name(crl))"
        case .examinationLimit(let crl):
            return "\(RevocationChecker.maximumCRLsExaminedPerPoint) CRLs were examined for one distribution point; \(Self.name(crl)) and older ones were not"
        }
    }

    /// `the CRL of C=US, O=…, CN=… (number 0x01)`.
    static func name(_ crl: CertificateRevocationList) -> String {
        "the \(crl.isDeltaCRL ? "delta " : "")CRL of \(crl.issuer)\(crl.crlNumber.map { " (number \($0))" } ?? "")"
    }
}

extension CRLScopeMismatch: CustomStringConvertible {
    /// The mismatch in words, with its clause.
    public var description: String {
        switch self {
        case .issuerMismatch: return "its issuer is not the certificate's issuer (RFC 5280 6.3.3 (b)(1))"
        case .notTheNamedCRLIssuer: return "its issuer is not the cRLIssuer the certificate names (RFC 5280 6.3.3 (b)(1))"
        case .notIndirect: return "the certificate names it as cRLIssuer but it is not an indirect CRL (RFC 5280 6.3.3 (b)(1))"
        case .distributionPointMismatch:
            return "its issuingDistributionPoint does not match the certificate's distribution point (RFC 5280 6.3.3 (b)(2)(i))"
        case .onlyUserCertificates: return "it covers only end-entity certificates (onlyContainsUserCerts, RFC 5280 6.3.3 (b)(2)(ii))"
        case .onlyCACertificates: return "it covers only CA certificates (onlyContainsCACerts, RFC 5280 6.3.3 (b)(2)(iii))"
        case .onlyAttributeCertificates:
            return "it covers only attribute certificates (onlyContainsAttributeCerts, RFC 5280 6.3.3 (b)(2)(iv))"
        }
    }
}

extension DeltaCRLMismatch: CustomStringConvertible {
    /// The mismatch in words, with its clause.
    public var description: String {
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

extension UndeterminedRevocation: CustomStringConvertible {
    /// Why the status is undetermined, in words: the most telling rejections first (at most four),
    /// e.g. `the CRL of CN=CA (number 7) is out of date (nextUpdate …) and no current delta CRL extends it`.
    public var description: String {
        if crlRejections.isEmpty && ocspRejections.isEmpty {
            return (coveredReasons.isEmpty ? "no supplied CRL or OCSP response covers it"
                : "the usable CRLs cover only some revocation reasons (RFC 5280 6.3.3)") + pointsNote
        }
        let ranked = crlRejections.map { ($0.rank, $0.description) } + ocspRejections.map { ($0.rank, $0.description) }
        // Some reasons covered: that is the answer's first cause, then why the rest was not.
        var lines: [String] = coveredReasons.isEmpty ? [] : ["the usable CRLs cover only some revocation reasons (RFC 5280 6.3.3)"]
        for rejection in ranked.enumerated().sorted(by: { ($0.element.0, -$0.offset) > ($1.element.0, -$1.offset) }) {
            let line = rejection.element.1
            if !lines.contains(line) { lines.append(line) }
            if lines.count == 4 { break }
        }
        return lines.joined(separator: "; ") + pointsNote
    }

    /// ` (only the first 20 of its 25 cRLDistributionPoints were considered)`, or empty.
    private var pointsNote: String {
        distributionPoints > distributionPointsConsidered
            ? " (only the first \(distributionPointsConsidered) of its \(distributionPoints) cRLDistributionPoints were considered)" : ""
    }
}

extension CRLConformanceFinding: CustomStringConvertible {
    /// `the CRL of … used for … although …`.
    public var description: String {
        "\(CRLRejection.name(crl)) was used for \(certificate.subject) although \(defects.map(\.description).joined(separator: "; "))"
    }
}
