/// A limit of the path-building ``Budget``.
public enum BudgetLimit: String, Hashable, Sendable {
    /// ``Budget/signatureChecks``: the number of signature verifications.
    case signatureChecks
    /// ``Budget/signatureCost``: their estimated cost together.
    case signatureCost
    /// ``Budget/failedIssuerCandidates``: a certificate's issuer candidates were not all tried.
    case failedIssuerCandidates
    /// ``Budget/failedSignatureCost``: the estimated cost of the signature checks that failed.
    case failedSignatureCost
    /// ``Budget/buildSteps``: issuer candidates considered.
    case buildSteps
    /// ``Budget/nameConstraintComparisons``.
    case nameConstraintComparisons
    /// A size bound of the valid policy tree (RFC 5280 6.1.3 (d); ``PolicyFailure/graphTooLarge(certificateIndex:exceeded:)``).
    case policyGraph
    /// ``Budget/fetches``: network fetches (``TrustEvaluation/networkFetching``).
    case fetches
    /// ``Budget/fetchResponseBytes``: a fetched response was larger.
    case fetchResponseBytes
    /// ``Budget/fetchTime``: the time for fetching ran out.
    case fetchTime
}

/// The kinds of ``ValidationFailure`` a person may reasonably accept for one server, and a trust
/// exception may record (``ValidationFailure/recoverableKind``); every other failure is fatal.
///
/// The raw value is the failure's ``ValidationFailure/code``, the word the trust exceptions' text
/// form stores (``TrustExceptions``).
public enum RecoverableFailure: String, Hashable, Sendable, CaseIterable {
    /// ``ValidationFailure/expired(_:notAfter:validationTime:)``.
    case expired
    /// ``ValidationFailure/notYetValid(_:notBefore:validationTime:)``.
    case notYetValid
    /// ``ValidationFailure/issuerNotFound(_:)``.
    case issuerNotFound
    /// ``ValidationFailure/selfSignedNotTrusted(_:)``.
    case selfSignedNotTrusted
    /// ``ValidationFailure/noTrustedAnchor(_:)``.
    case noTrustedAnchor
    /// ``ValidationFailure/hostnameMismatch(_:reference:presented:)``.
    case hostnameMismatch
    /// ``ValidationFailure/nameMismatch(_:expected:presented:)``.
    case nameMismatch

    /// Whether an exception's record of this kind names the identifier asked for (the reference
    /// identifier of a host name mismatch, the expected name of a name mismatch): accepting a
    /// mismatch for one name accepts it for no other.
    public var recordsName: Bool { self == .hostnameMismatch || self == .nameMismatch }
}

/// Why a certificate, or a whole evaluation, cannot be trusted. Cases carry their evidence.
///
/// Each failure is either **recoverable** (``isRecoverable``: a person may reasonably accept it for
/// one server — expiry, a name mismatch, an untrusted or self-signed root, a missing intermediate) or
/// **fatal** (bad signatures, malformed input, constraint violations, revocation). Trust exceptions
/// can only cover recoverable failures; ``recoverableKind`` is where that is decided.
///
/// ## Open to new cases
///
/// New standards and new checks add failures, so this enumeration gains cases in minor releases:
/// a `switch` over it needs a `default` clause (or every case and `@unknown default`). What does not
/// change within a major release: an existing case's name, payload and ``code`` (the stable word in
/// JSON output and stored trust exceptions), and the list of recoverable kinds
/// (``RecoverableFailure``): a new case is fatal, since exceptions already stored must not start
/// accepting it. The rule in full: docs/DESIGN-NOTES.md, "Library evolution".
public enum ValidationFailure: Error, Hashable, Sendable {
    // Recoverable.
    /// The certificate's notAfter is before the validation time (RFC 5280 6.1.3 (a)(2)).
    case expired(Certificate, notAfter: UnixTime, validationTime: UnixTime)
    /// The certificate's notBefore is after the validation time (RFC 5280 6.1.3 (a)(2)).
    case notYetValid(Certificate, notBefore: UnixTime, validationTime: UnixTime)
    /// No certificate among the anchors and intermediates has this certificate's issuer as subject
    /// (typically: its issuer's certificate was not presented).
    case issuerNotFound(Certificate)
    /// The end-entity certificate is self-signed and not trusted.
    case selfSignedNotTrusted(Certificate)
    /// The path ends at a self-issued root that is not a trust anchor.
    case noTrustedAnchor(Certificate)
    /// No subjectAltName of the server certificate matches the reference identifier (RFC 6125 6,
    /// RFC 9525 6): `reference` is the name asked for, `presented` the identifiers the certificate
    /// presents, with their types (``PresentedIdentifier/of(_:)``: its subjectAltNames, or its
    /// commonNames when it has none).
    case hostnameMismatch(Certificate, reference: ReferenceIdentifier, presented: [PresentedIdentifier])
    /// A client certificate does not carry an expected name (``ValidationPurpose/clientAuthentication(expectedNames:)``);
    /// `presented` as for ``hostnameMismatch(_:reference:presented:)``.
    case nameMismatch(Certificate, expected: ExpectedName, presented: [PresentedIdentifier])

    // Fatal.
    /// The certificate does not parse (the DER rule broken and where).
    case malformed(description: String, DERError)
    /// The certificate's signature does not verify with its issuer's public key (RFC 5280 6.1.3 (a)(1)).
    case badSignature(Certificate, issuer: Name)
    /// The signature algorithm is not one CertPath can verify.
    case unsupportedSignatureAlgorithm(Certificate, SignatureAlgorithm)
    /// The issuer's public key cannot be used (unsupported type, invalid encoding, wrong type for
    /// the algorithm, an RSASSA-PSS restriction); `reason` says which.
    case unusablePublicKey(Certificate, reason: UnusableKey)
    /// The signature algorithm is refused by the policy's algorithm profile (SHA-1, …).
    case disallowedSignatureAlgorithm(Certificate, SignatureAlgorithm)
    /// The public key is refused by the policy's key profile (RSA below the minimum, a curve not
    /// allowed, DSA…); `key` says which rule of the profile refuses it.
    case weakKey(Certificate, key: KeyRefusal)
    /// A certificate used as an issuer is not a CA: no basicConstraints cA, or a v1/v2 certificate
    /// (RFC 5280 6.1.4 (k)).
    case notACertificateAuthority(Certificate)
    /// The path has more non-self-issued intermediates than a CA's pathLenConstraint allows
    /// (RFC 5280 6.1.4 (l)); `certificate` is the CA that cannot issue further.
    case pathLengthExceeded(Certificate)
    /// The path is longer than the policy's maximum number of intermediates.
    case maximumDepthExceeded(Certificate, limit: Int)
    /// The certificate's keyUsage does not allow what its position needs (keyCertSign for issuers,
    /// RFC 5280 6.1.4 (n); the TLS key usages for a leaf).
    case keyUsageForbids(Certificate, required: KeyUsage, present: KeyUsage)
    /// The certificate's extKeyUsage does not include the required purpose (or anyExtendedKeyUsage).
    case extendedKeyUsageForbids(Certificate, required: OID, present: [OID])
    /// The end-entity certificate breaks a rule of a non-TLS purpose (S/MIME, code signing, time
    /// stamping: ``ValidationPurpose``); the ``PurposeRule`` names the clause.
    case purposeViolation(Certificate, PurposeRule)
    /// A name of the certificate violates a CA's name constraints (RFC 5280 6.1.3 (b), (c)).
    case nameConstraintViolation(Certificate, NameConstraintViolation)
    /// The certificate policies of the path do not satisfy the policy inputs (RFC 5280 6.1.3 (f), 6.1.5 (g)).
    case policyRequired(PolicyFailure)
    /// The certificate has a critical extension CertPath does not process (RFC 5280 4.2).
    case unknownCriticalExtension(Certificate, OID)
    /// The certificate breaks a rule of the profile in force.
    case profileViolation(Certificate, ProfileRule)
    /// The issuer name of a certificate does not match its issuer's subject (RFC 5280 6.1.3 (a)(4)).
    case issuerNameMismatch(Certificate)
    /// The trust store marks the certificate (or its key) distrusted.
    case distrusted(Certificate)
    /// The certificate has been revoked (RFC 5280 6.3, RFC 6960): at `date` (revocationDate,
    /// revocationTime), for `reason` (the CRL entry's reasonCode, RFC 5280 5.3.1, or the OCSP
    /// revocationReason, RFC 6960 4.2.1; ``RevocationReason/unspecified`` when none is given), per `source`.
    case revoked(Certificate, date: UnixTime, reason: RevocationReason, source: RevocationSource)
    /// The revocation status could not be determined where the policy's
    /// ``ValidationPolicy/undeterminedRevocationStatus`` rejects that (RFC 5280 6.3.3 (k)): `evidence`
    /// says what was tried and why each CRL and OCSP response could not settle it.
    case revocationUnknown(Certificate, evidence: UndeterminedRevocation)
    /// A TLS server certificate requires a stapled OCSP response ("must-staple": the TLS feature
    /// extension lists status_request, RFC 7633 4.3.3 with RFC 6066 8) and the handshake's stapled
    /// responses (``TrustEvaluation/stapledOCSPResponses``) do not settle its status. `requiredBy`
    /// is the certificate whose TLS feature extension lists it: the server certificate, or a CA of
    /// its path (RFC 7633 4.2.2.1); `reason` is why the stapled responses do not settle it (the
    /// evidence, as for ``revocationUnknown(_:evidence:)``), `nil` when the server stapled none. Fatal, as in Firefox: a staple withheld is what must-staple defends against.
    case missingStapledOCSPResponse(Certificate, requiredBy: Certificate, reason: UndeterminedRevocation?)
    /// No certificate of the path matches one of the policy's ``ValidationPolicy/requiredPins`` (a
    /// certificate pin or a public-key pin).
    case pinMismatch
    /// Path building stopped because a limit of its ``Budget`` ran out.
    case budgetExhausted(BudgetLimit)
    /// The caller's additional check refused the path.
    case rejectedByCaller(String)
    /// The end-entity certificate does not meet the required Certificate Transparency policy
    /// (``ValidationPolicy/certificateTransparency``; RFC 6962): the report names every SCT found,
    /// whether it verified, its log and operator, and the rules unmet (``CertificateTransparencyReport/unmetRules``).
    case certificateTransparencyNotCompliant(Certificate, CertificateTransparencyReport)

    /// The kind of a recoverable failure, `nil` for a fatal one: the one place that decides which
    /// failures are recoverable (``isRecoverable``, trust exceptions, ``UntrustedReport/exceptions``
    /// and the exceptions' text form all read it). A case added later is fatal unless it is listed here.
    public var recoverableKind: RecoverableFailure? {
        switch self {
        case .expired: return .expired
        case .notYetValid: return .notYetValid
        case .issuerNotFound: return .issuerNotFound
        case .selfSignedNotTrusted: return .selfSignedNotTrusted
        case .noTrustedAnchor: return .noTrustedAnchor
        case .hostnameMismatch: return .hostnameMismatch
        case .nameMismatch: return .nameMismatch
        default: return nil
        }
    }

    /// Whether a person could reasonably accept this failure for one server (see the type's doc):
    /// whether it has a ``recoverableKind``.
    public var isRecoverable: Bool { recoverableKind != nil }

    /// The certificate the failure is about, when it is about one.
    public var certificate: Certificate? {
        switch self {
        case .expired(let c, _, _), .notYetValid(let c, _, _), .issuerNotFound(let c), .selfSignedNotTrusted(let c),
             .noTrustedAnchor(let c), .hostnameMismatch(let c, _, _), .nameMismatch(let c, _, _), .badSignature(let c, _),
             .unsupportedSignatureAlgorithm(let c, _), .unusablePublicKey(let c, _), .disallowedSignatureAlgorithm(let c, _),
             .weakKey(let c, _), .notACertificateAuthority(let c), .pathLengthExceeded(let c), .maximumDepthExceeded(let c, _),
             .keyUsageForbids(let c, _, _), .extendedKeyUsageForbids(let c, _, _), .purposeViolation(let c, _), .nameConstraintViolation(let c, _),
             .unknownCriticalExtension(let c, _), .profileViolation(let c, _), .issuerNameMismatch(let c), .distrusted(let c),
             .revoked(let c, _, _, _), .revocationUnknown(let c, _), .missingStapledOCSPResponse(let c, _, _),
             .certificateTransparencyNotCompliant(let c, _):
            return c
        case .malformed, .policyRequired, .pinMismatch, .budgetExhausted, .rejectedByCaller:
            return nil
        }
    }

    /// The case name, stable across releases: used in JSON output, trust exceptions and test manifests.
    public var code: String {
        switch self {
        case .expired: return "expired"
        case .notYetValid: return "notYetValid"
        case .issuerNotFound: return "issuerNotFound"
        case .selfSignedNotTrusted: return "selfSignedNotTrusted"
        case .noTrustedAnchor: return "noTrustedAnchor"
        case .hostnameMismatch: return "hostnameMismatch"
        case .nameMismatch: return "nameMismatch"
        case .malformed: return "malformed"
        case .badSignature: return "badSignature"
        case .unsupportedSignatureAlgorithm: return "unsupportedSignatureAlgorithm"
        case .unusablePublicKey: return "unusablePublicKey"
        case .disallowedSignatureAlgorithm: return "disallowedSignatureAlgorithm"
        case .weakKey: return "weakKey"
        case .notACertificateAuthority: return "notACertificateAuthority"
        case .pathLengthExceeded: return "pathLengthExceeded"
        case .maximumDepthExceeded: return "maximumDepthExceeded"
        case .keyUsageForbids: return "keyUsageForbids"
        case .extendedKeyUsageForbids: return "extendedKeyUsageForbids"
        case .purposeViolation: return "purposeViolation"
        case .nameConstraintViolation: return "nameConstraintViolation"
        case .policyRequired: return "policyRequired"
        case .unknownCriticalExtension: return "unknownCriticalExtension"
        case .profileViolation: return "profileViolation"
        case .issuerNameMismatch: return "issuerNameMismatch"
        case .distrusted: return "distrusted"
        case .revoked: return "revoked"
        case .revocationUnknown: return "revocationUnknown"
        case .missingStapledOCSPResponse: return "missingStapledOCSPResponse"
        case .pinMismatch: return "pinMismatch"
        case .budgetExhausted: return "budgetExhausted"
        case .rejectedByCaller: return "rejectedByCaller"
        case .certificateTransparencyNotCompliant: return "certificateTransparencyNotCompliant"
        }
    }

    /// Specificity rank used to pick the primary failure (higher wins; documented in the README):
    /// limits of the search first, then fatal failures from the most to the least telling, then the
    /// recoverable ones, "issuer not found" last.
    public var rank: Int {
        switch self {
        case .budgetExhausted: return 1000
        case .malformed: return 950
        case .revoked: return 900
        case .distrusted: return 890
        case .badSignature: return 880
        case .pinMismatch: return 870
        case .nameConstraintViolation: return 860
        case .policyRequired: return 850
        case .extendedKeyUsageForbids: return 840
        case .purposeViolation: return 835
        case .keyUsageForbids: return 830
        case .notACertificateAuthority: return 820
        case .pathLengthExceeded: return 810
        case .maximumDepthExceeded: return 805
        case .unknownCriticalExtension: return 800
        case .profileViolation: return 790
        case .disallowedSignatureAlgorithm: return 780
        case .weakKey: return 770
        case .unsupportedSignatureAlgorithm: return 760
        case .unusablePublicKey: return 750
        case .issuerNameMismatch: return 740
        case .missingStapledOCSPResponse: return 735
        case .certificateTransparencyNotCompliant: return 732
        case .revocationUnknown: return 730
        case .rejectedByCaller: return 720
        case .expired: return 400
        case .notYetValid: return 390
        case .hostnameMismatch: return 380
        case .nameMismatch: return 370
        case .selfSignedNotTrusted: return 360
        case .noTrustedAnchor: return 350
        case .issuerNotFound: return 100
        }
    }
}
