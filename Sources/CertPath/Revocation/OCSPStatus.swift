// RFC 6960 for the certificates of a path: which supplied OCSP responses name a certificate
// (4.1.1 CertID), whether each can be relied on (4.2.2.2 responder authorization, the signature,
// 4.2.2.1 freshness), and the status they give.

/// What the supplied OCSP responses say about one certificate.
enum OCSPOutcome: Sendable {
    /// An authentic, current response says good (and none says revoked).
    case good(OCSPBasicResponse)
    /// An authentic response says revoked.
    case revoked(OCSPRevokedInfo, OCSPBasicResponse)
    /// No response settles it; `rejections` say why those that name it (or carry no status) could not.
    case undetermined([OCSPRejection])
}

/// The OCSP responses of an evaluation, indexed for lookup by serial number.
struct OCSPResponseIndex: Sendable {
    /// The successful responses, in the caller's order.
    let responses: [OCSPResponse]
    /// For each serial number (its INTEGER contents octets), where the SingleResponses naming it are:
    /// (index in ``responses``, index in its basic response's SingleResponses).
    let bySerial: [[UInt8]: [(response: Int, single: Int)]]
    /// The rejections of responses without a status for any certificate (not successful).
    let unsuccessful: [OCSPRejection]

    init(_ all: [OCSPResponse]) {
        var responses: [OCSPResponse] = []
        var bySerial: [[UInt8]: [(response: Int, single: Int)]] = [:]
        var unsuccessful: [OCSPRejection] = []
        for response in all {
            guard let basic = response.basicResponse else {
                unsuccessful.append(.unsuccessful(response))
                continue
            }
            let index = responses.count
            responses.append(response)
            for (single, entry) in basic.responses.enumerated() {
                bySerial[Array(entry.certID.serialNumber), default: []].append((index, single))
            }
        }
        self.responses = responses
        self.bySerial = bySerial
        self.unsuccessful = unsuccessful
    }

    /// Whether any response names a certificate with `certificate`'s serial number.
    func names(_ certificate: Certificate) -> Bool { bySerial[Array(certificate.serialNumber)] != nil }
}

extension RevocationChecker {
    /// SingleResponses naming one certificate that are examined (authenticated); later ones are not
    /// (a stapled response is the peer's input: each costs a signature check or two).
    static let maximumOCSPResponsesExamined = 16
    /// Certificates matching a response's responderID, and passing the checks that cost nothing,
    /// that are tried as its signer (each costs up to two signature checks and a status check).
    static let maximumResponderCandidates = 4

    /// RFC 6960 for `certificate`, issued by `issuer` (the path's next certificate towards the
    /// anchor, or the anchor): every SingleResponse whose CertID names it (4.1.1), newest evidence
    /// not preferred over older — revoked from any authentic response wins, then good from an
    /// authentic current one.
    ///
    /// For each: no unprocessed critical extension (4.4); current (``OCSPFreshness``: a stale one
    /// may still show a permanent revocation); not unknown; signed by `issuer` itself or by a
    /// responder `issuer` authorized (``authenticateResponse(_:issuer:above:anchor:context:issuerPaths:)``).
    func ocspStatus(of certificate: Certificate, issuer: Certificate, above: ArraySlice<Certificate>, anchor: Certificate,
                    context: EvaluationContext, issuerPaths: any CRLIssuerPathValidation) -> OCSPOutcome {
        var rejections = ocsp.unsuccessful
        guard let entries = ocsp.bySerial[Array(certificate.serialNumber)] else { return .undetermined(rejections) }
        let time = context.validationTime
        // The CertID of this certificate, per hash algorithm, made once.
        var expected: [OCSPHashAlgorithm: OCSPCertID?] = [:]
        var good: OCSPBasicResponse? = nil
        var examined = 0
        // Revoked answers first: revoked wins, so no number of other answers before it (anyone can
        // make a SingleResponse naming a certificate) may keep it from being examined.
        let ordered = entries.filter { saysRevoked(at: $0) } + entries.filter { !saysRevoked(at: $0) }
        for (responseIndex, singleIndex) in ordered {
            let response = ocsp.responses[responseIndex]
            guard let basic = response.basicResponse else { continue }
            let single = basic.responses[singleIndex]
            let algorithm = single.certID.hashAlgorithm
            if algorithm.hashAlgorithm == nil {
                rejections.append(.unsupportedCertIDHash(response, algorithm))
                continue
            }
            if expected[algorithm] == nil {
                expected[algorithm] = .some(OCSPCertID(identifying: certificate, issuer: issuer, hashAlgorithm: algorithm))
            }
            // A response never speaks for a certificate it does not name (same serial, another issuer).
            // (The name hash may also be of the certificate's issuer field, when encoded otherwise.)
            guard let id = expected[algorithm] ?? nil, Self.sameIssuer(single.certID, id)
                || (certificate.issuer.der != issuer.subject.der && single.certID.identifies(certificate, issuer: issuer))
            else { continue }
            if let defect = basic.defects.first ?? single.defects.first {
                rejections.append(.defect(response, defect))
                continue
            }
            if freshness.isNotYetValid(thisUpdate: single.thisUpdate, at: time) {
                rejections.append(.notYetValid(response, single))
                continue
            }
            var staleness: OCSPRejection? = nil
            if freshness.isStale(thisUpdate: single.thisUpdate, nextUpdate: single.nextUpdate, at: time) {
                staleness = single.nextUpdate == nil ? .tooOld(response, single, maximumAge: freshness.maximumAgeWithoutNextUpdate)
                    : .expired(response, single)
            }
            switch single.certStatus {
            case .unknown:
                rejections.append(staleness ?? .unknownToResponder(response, single))
                continue
            case .good:
                if let staleness {
                    rejections.append(staleness)
                    continue
                }
                if good != nil { continue }  // one authentic good response is enough; look on for a revoked one
            case .revoked(let info):
                // A stale response can still show a revocation, not a hold (RFC 5280 3.3).
                if let staleness, info.revocationReason == .certificateHold {
                    rejections.append(staleness)
                    continue
                }
            }
            // Only answers that need authenticating count against the limit (the checks above are free).
            examined += 1
            if examined > Self.maximumOCSPResponsesExamined {
                rejections.append(.examinationLimit(response))
                return .undetermined(rejections)
            }
            switch authenticateResponse(response, issuer: issuer, above: above, anchor: anchor, context: context, issuerPaths: issuerPaths) {
            case .failure(let rejection):
                // An undetermined responder status refuses the responder's good answers, not its
                // revoked ones: the certificate fails either way, and revoked says why.
                if case .revoked(let info) = single.certStatus,
                   case .responderCertificateInvalid(_, _, .revocationUnknown) = rejection { return .revoked(info, basic) }
                rejections.append(rejection)
                if rejection.stoppedEarly { return .undetermined(rejections) }
                continue
            case .success:
                break
            }
            if case .revoked(let info) = single.certStatus { return .revoked(info, basic) }
            good = basic
        }
        if let good { return .good(good) }
        return .undetermined(rejections)
    }

    /// Whether the SingleResponse at `location` says revoked (before it is checked).
    private func saysRevoked(at location: (response: Int, single: Int)) -> Bool {
        guard let basic = ocsp.responses[location.response].basicResponse else { return false }
        if case .revoked = basic.responses[location.single].certStatus { return true }
        return false
    }

    /// Whether `candidate` names the same certificate as `expected` (made for the certificate).
    private static func sameIssuer(_ candidate: OCSPCertID, _ expected: OCSPCertID) -> Bool {
        candidate.issuerKeyHash.elementsEqual(expected.issuerKeyHash) && candidate.issuerNameHash.elementsEqual(expected.issuerNameHash)
    }

    /// RFC 6960 4.2.2.2: the certificate whose key signed `response` — `issuer` itself, or a
    /// delegated responder: a certificate matching the responderID, issued directly by `issuer`
    /// (name and signature), with id-kp-OCSPSigning in its extKeyUsage, valid at the validation time,
    /// free of critical extensions CertPath does not process, not distrusted, and not revoked: unless
    /// it carries id-pkix-ocsp-nocheck, its own status is checked with the evidence at hand (CRLs,
    /// other responses) and an undetermined status rejects it where the mode rejects undetermined
    /// statuses (for the responder's good answers: ``ocspStatus(of:issuer:above:anchor:context:issuerPaths:)``
    /// still takes its revoked ones). anyExtendedKeyUsage does not authorize a responder (RFC 6960 4.2.2.2 requires the
    /// OCSPSigning purpose itself); keyUsage is not checked (as OpenSSL and Go).
    ///
    /// Signer candidates: `issuer`, then the response's certificates, then the presented ones, each
    /// matching the responderID (byName: equivalent subject; byKey: the SHA-1 of its
    /// subjectPublicKey); at most ``maximumResponderCandidates`` of them that pass the free checks
    /// are verified, and more fails closed.
    func authenticateResponse(_ response: OCSPResponse, issuer: Certificate, above: ArraySlice<Certificate>, anchor: Certificate,
                      context: EvaluationContext, issuerPaths: any CRLIssuerPathValidation) -> Result<Certificate, OCSPRejection> {
        guard let basic = response.basicResponse else { return .failure(.unsuccessful(response)) }
        guard algorithms.accepts(basic.signatureAlgorithm) else { return .failure(.disallowedAlgorithm(response)) }
        let key = ResponderKey(response: ObjectIdentifier(response), issuer: ObjectIdentifier(issuer), anchor: ObjectIdentifier(anchor),
                               strictCRLConformance: strictCRLConformance)
        let memoize = inProgress.isEmpty && respondersInProgress.isEmpty
        if memoize, let known = responderMemo[key] { return known }

        // Every certificate matching the responderID is a candidate (a cheap test); only attempts
        // that cost signature checks are limited, and reaching the limit with candidates left fails
        // closed (``OCSPRejection/stoppedEarly``): decoys copying the responder's name and key must
        // not keep the real responder from being tried.
        var seen = Set<ArraySlice<UInt8>>()
        var candidates: [Certificate] = []
        for candidate in [issuer] + basic.certificates + certificates {
            if Self.matches(basic.responderID, candidate), seen.insert(candidate.der[...]).inserted { candidates.append(candidate) }
        }
        var best: OCSPRejection? = nil
        func note(_ rejection: OCSPRejection) {
            if best == nil || rejection.rank > best!.rank { best = rejection }
        }
        var result: Result<Certificate, OCSPRejection>? = nil
        var attempts = 0
        candidates: for candidate in candidates {
            let isIssuer = candidate.subjectPublicKeyInfo.der == issuer.subjectPublicKeyInfo.der && candidate.subject.isEquivalent(to: issuer.subject)
            if !isIssuer, let refusal = delegationRefusal(candidate, response, issuer: issuer, context: context) {
                note(refusal)
                continue
            }
            attempts += 1
            if attempts > Self.maximumResponderCandidates {
                result = .failure(.responderCandidatesLimit(response))
                break
            }
            switch context.signature(of: response, by: candidate) {
            case .valid: break
            case .budgetExhausted:
                result = .failure(.budgetExhausted(response))
                break candidates
            case let outcome:
                note(.signature(response, candidate, outcome))
                continue
            }
            if !isIssuer {
                // Issued by `issuer`: its signature, then its own revocation status.
                switch context.signature(of: candidate, by: issuer) {
                case .valid: break
                case .budgetExhausted:
                    result = .failure(.budgetExhausted(response))
                    break candidates
                default:
                    note(.unauthorizedResponder(response, candidate, .notIssuedByIssuer))
                    continue
                }
                if let refusal = responderStatusRefusal(candidate, response, above: above, anchor: anchor, context: context,
                                                        issuerPaths: issuerPaths) {
                    if case .budgetExhausted = refusal {
                        result = .failure(refusal)
                        break candidates
                    }
                    note(refusal)
                    continue
                }
            }
            result = .success(candidate)
            break
        }
        let outcome = result ?? .failure(best ?? .responderNotFound(response))
        if memoize && inProgress.isEmpty && respondersInProgress.isEmpty { responderMemo[key] = outcome }
        return outcome
    }

    /// Whether `candidate` is the responder `id` names (RFC 6960 4.2.2.3).
    private static func matches(_ id: OCSPResponderID, _ candidate: Certificate) -> Bool {
        switch id {
        case .byName(let name): return candidate.subject.isEquivalent(to: name)
        case .byKeyHash(let hash): return HashAlgorithm.sha1.digest(of: candidate.subjectPublicKeyInfo.subjectPublicKeyBytes)?.elementsEqual(hash) == true
        }
    }

    /// Why `candidate`, not `issuer` itself, cannot be a delegated responder for `issuer`, from what
    /// it says of itself (no signature checked yet), or `nil`.
    private func delegationRefusal(_ candidate: Certificate, _ response: OCSPResponse, issuer: Certificate,
                                   context: EvaluationContext) -> OCSPRejection? {
        guard candidate.issuer.isEquivalent(to: issuer.subject) else {
            return .unauthorizedResponder(response, candidate, .notIssuedByIssuer)
        }
        guard candidate.extendedKeyUsage?.contains(KnownOID.ocspSigning) == true else {
            return .unauthorizedResponder(response, candidate, .missingOCSPSigning)
        }
        if respondersInProgress.contains(ObjectIdentifier(candidate)) {
            return .unauthorizedResponder(response, candidate, .vouchesForItself)
        }
        if context.anchorStores.contains(where: { $0.isDistrusted(candidate) }) {
            return .unauthorizedResponder(response, candidate, .distrusted)
        }
        let time = context.validationTime
        if candidate.notAfter < time {
            return .responderCertificateInvalid(response, candidate, .expired(candidate, notAfter: candidate.notAfter, validationTime: time))
        }
        if candidate.notBefore > time {
            return .responderCertificateInvalid(response, candidate, .notYetValid(candidate, notBefore: candidate.notBefore, validationTime: time))
        }
        // id-pkix-ocsp-nocheck is a recognized extension (``KnownExtension/ocspNoCheck``): a critical one is not listed here.
        if let unprocessed = candidate.unrecognizedCriticalExtensions.first {
            return .responderCertificateInvalid(response, candidate, .unknownCriticalExtension(candidate, unprocessed.oid))
        }
        if !algorithms.accepts(candidate.signatureAlgorithm) {
            return .responderCertificateInvalid(response, candidate, .disallowedSignatureAlgorithm(candidate, candidate.signatureAlgorithm))
        }
        if let weak = algorithms.refusal(ofKeyOf: candidate) {
            return .responderCertificateInvalid(response, candidate, .weakKey(candidate, key: weak))
        }
        return nil
    }

    /// The delegated responder's own revocation status (RFC 6960 4.2.2.2.1): not checked with
    /// id-pkix-ocsp-nocheck; otherwise revoked refuses it, and undetermined does where the mode
    /// rejects an undetermined status. Responses signed by the responder are not used for it.
    private func responderStatusRefusal(_ responder: Certificate, _ response: OCSPResponse, above: ArraySlice<Certificate>,
                                        anchor: Certificate, context: EvaluationContext,
                                        issuerPaths: any CRLIssuerPathValidation) -> OCSPRejection? {
        if responder.hasOCSPNoCheck { return nil }
        guard respondersInProgress.count < Self.maximumNesting else {
            return .responderNestingTooDeep(response, responder)
        }
        respondersInProgress.insert(ObjectIdentifier(responder))
        let status = status(of: responder, above: above, anchor: anchor, context: context, issuerPaths: issuerPaths)
        respondersInProgress.remove(ObjectIdentifier(responder))
        switch status {
        case .notRevoked:
            return nil
        case .revoked(let date, let reason, let source):
            return .responderCertificateInvalid(response, responder, .revoked(responder, date: date, reason: reason, source: source))
        case .undetermined(let covered, let crlRejections, let ocspRejections):
            if context.exhausted != nil || status.ranOutOfBudget { return .budgetExhausted(response) }
            if leftOpenAtLimit(status, distributionPoints: responder.cRLDistributionPoints?.count ?? 0) { return .examinationLimit(response) }
            guard rejectsUndetermined(responder) else { return nil }
            return .responderCertificateInvalid(response, responder, .revocationUnknown(
                responder, evidence: UndeterminedRevocation(coveredReasons: covered, crlRejections: crlRejections, ocspRejections: ocspRejections)))
        }
    }
}

/// A response authenticated for an issuer, under an anchor.
struct ResponderKey: Hashable {
    let response: ObjectIdentifier
    let issuer: ObjectIdentifier
    let anchor: ObjectIdentifier
    /// How the CRLs of a delegated responder's own status were read (``RevocationChecker/strictCRLConformance``).
    let strictCRLConformance: Bool
}
