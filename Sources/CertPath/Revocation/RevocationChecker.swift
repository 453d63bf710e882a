// RFC 5280 6.3 CRL processing for the certificates of a path: which CRLs apply, whether each can be
// trusted (6.3.3 (f), (g): its issuer's own path, its signature), and the resulting status.

/// The status RFC 5280 6.3.3 (CRLs) and RFC 6960 (OCSP) arrive at for one certificate.
enum RevocationOutcome: Sendable {
    /// Every reason is covered by usable CRLs and none lists the certificate, or an authentic current
    /// OCSP response says good; no source says revoked. `findings`: the CRLs used for it despite a
    /// departure from the CRL profile that binds their issuer (not under a strict reading).
    case notRevoked(findings: [CRLConformanceFinding])
    /// Revoked at `date` for `reason`, per `source`.
    case revoked(date: UnixTime, reason: RevocationReason, source: RevocationSource)
    /// UNDETERMINED: usable CRLs covered only `coveredReasons`; the rejections say why other CRLs and
    /// OCSP responses were not used.
    case undetermined(coveredReasons: ReasonFlags, crlRejections: [CRLRejection], ocspRejections: [OCSPRejection])

    /// The outcome of an entry of `crl`.
    static func revoked(_ entry: RevokedCertificate, _ crl: CertificateRevocationList) -> RevocationOutcome {
        .revoked(date: entry.revocationDate, reason: entry.effectiveReason, source: RevocationSource(crl))
    }

    /// Whether checking stopped because a budget ran out.
    var ranOutOfBudget: Bool {
        guard case .undetermined(_, let crlRejections, let ocspRejections) = self else { return false }
        return crlRejections.contains { if case .budgetExhausted = $0 { return true }; return false }
            || ocspRejections.contains { if case .budgetExhausted = $0 { return true }; return false }
    }

    /// Whether checking stopped at a limit before the evidence was examined (a budget, or an
    /// examination limit): such a status is a failure in every mode, never an accepted unknown.
    var stoppedEarly: Bool {
        guard case .undetermined(_, let crlRejections, let ocspRejections) = self else { return false }
        return crlRejections.contains { if case .budgetExhausted = $0 { return true }; if case .examinationLimit = $0 { return true }; return false }
            || ocspRejections.contains(where: \.stoppedEarly)
    }
}

/// RFC 5280 6.3 CRL processing for one evaluation (shared by the nested evaluations of CRL issuers'
/// paths), the pipeline's stage after 6.1 (``PathPipeline``) for every certificate of a path that
/// reached a trust anchor: the status RFC 5280 6.1.3 (a)(3) asks for, checked once the path's own
/// validation is done, as Chromium checks revocation.
///
/// For a certificate it processes, per distribution point (its cRLDistributionPoints, then the
/// default point of the certificate issuer), the supplied complete CRLs of the right issuer, newest
/// first, until every reason is covered or the certificate is found listed:
/// 1. the CRL must be free of ``CRLDefect``s, in scope (``CRLScope``), issued by the validation time,
///    and add reasons not yet covered;
/// 2. it must be current (nextUpdate not passed) unless a current delta CRL extends it (``DeltaCRLs``);
///    an out-of-date one is still evidence that a certificate it lists for good (not on
///    certificateHold) is revoked, never that one it does not list is not (RFC 5280 3.3);
/// 3. its issuer's certificate must allow cRLSign (when it has keyUsage), verify the CRL's signature,
///    and validate to the same trust anchor as the path (RFC 5280 6.3.3 (f), (g)). A certificate of
///    the path itself (the anchor, or one above the certificate, same subject and key) is validated by
///    the path being processed; any other certificate named as the CRL issuer — a separate CRL signing
///    key, a key rollover certificate, an indirect CRL issuer — gets its own path, built from the
///    presented certificates to the same anchor and validated in full (RFC 5280 profile, any purpose),
///    revocation included;
/// 4. the delta CRL (signed by the same key) is consulted first, removeFromCRL undoing a hold, then the
///    complete CRL (6.3.3 (i)-(l), ``RevocationState``).
///
/// Choices, each named: a listed certificate is revoked whatever its revocationDate or invalidityDate
/// says about the validation time (a CRL is not a history); a CRL issued after the validation time is
/// not used; the trust anchor's certificate, like any CRL issuer's, must allow cRLSign when it has keyUsage;
/// delta CRLs are used whenever one applies, whether or not a freshestCRL extension points to it.
///
/// CRL conformance (``strictCRLConformance``, set per path by its resolved profile): a complete CRL
/// without cRLNumber or with a critical one (RFC 5280 5.2.3), or without nextUpdate (5.1.2.5), departs
/// from rules that bind its issuer. Read strictly (``CertificateProfile/rfc5280``), it is evidence of
/// revocation only; otherwise it shows good standing too, reported as a ``CRLConformanceFinding``,
/// and one without nextUpdate is current for ``maximumCRLAgeWithoutNextUpdate`` after its thisUpdate.
/// A delta CRL needs its cRLNumber and deltaCRLIndicator under every reading (5.2.4, 6.3.3 (c)).
///
/// A CRL whose issuer's path is being validated is, while that happens, taken as authentic for the
/// certificates of that path (its signature has been verified; it is the CRL that would revoke them):
/// this ends the recursion of a CRL issuer covered by its own indirect CRL (PKITS 4.14.30). Such CRLs
/// are consulted after all others, nesting is limited to ``maximumNesting``, and every signature
/// check spends the evaluation's budget.
final class RevocationChecker {
    /// Most CRL issuer paths validated inside one another.
    static let maximumNesting = 4

    /// Seconds after its thisUpdate that a complete CRL without nextUpdate stays current when CRLs are
    /// not read strictly (604,800: seven days, as ``OCSPFreshness/maximumAgeWithoutNextUpdate``
    /// bounds an OCSP response without nextUpdate). RFC 5280 5.1.2.5 makes nextUpdate mandatory for
    /// conforming CRL issuers, and gives no age to a CRL without one; older, such a CRL is out of
    /// date like one whose nextUpdate has passed (evidence of a permanent revocation only).
    static let maximumCRLAgeWithoutNextUpdate: Int64 = 7 * 86_400

    /// Whether the CRLs examined now are read strictly (``CertificateProfile/rfc5280``): a complete
    /// CRL without cRLNumber, with a critical one, or without nextUpdate is then evidence of
    /// revocation only. Set by ``failure(for:above:anchor:context:issuerPaths:strictCRLConformance:findings:)``
    /// for the duration of the call (nested CRL issuer paths and responder statuses inherit it).
    private(set) var strictCRLConformance = true

    let crls: CRLStore
    /// The OCSP responses, by serial number.
    let ocsp: OCSPResponseIndex
    /// When an OCSP response is current.
    let freshness: OCSPFreshness
    let mode: UndeterminedRevocationStatus
    /// The algorithms a CRL's signature may use (the evaluation's).
    let algorithms: AlgorithmProfile
    /// The presented certificates, candidates for CRL issuers and their paths.
    let certificates: [Certificate]

    /// A CRL issuer whose key verified a CRL, with the working DSA parameters of its path.
    struct Signer {
        let certificate: Certificate
        let dsaParameters: DSAParameters?
    }

    private struct StatusKey: Hashable {
        let certificate: ObjectIdentifier
        let chain: [ObjectIdentifier]
        let strictCRLConformance: Bool
    }

    private struct IssuerPathKey: Hashable {
        let crl: ObjectIdentifier
        let signer: ObjectIdentifier
        let anchor: ObjectIdentifier
        let strictCRLConformance: Bool
    }

    private var statusMemo: [StatusKey: RevocationOutcome] = [:]
    private var issuerPathMemo: [IssuerPathKey: Result<Signer, CRLRejection>] = [:]
    /// CRLs whose issuer's path is being validated, with that issuer.
    private(set) var inProgress: [ObjectIdentifier: Signer] = [:]
    /// Responses authenticated (or not) for an issuer under an anchor (RFC 6960 4.2.2.2).
    var responderMemo: [ResponderKey: Result<Certificate, OCSPRejection>] = [:]
    /// Delegated OCSP responders whose own status is being checked.
    var respondersInProgress = Set<ObjectIdentifier>()

    /// A checker of `evidence` under `policy`'s revocation mode and algorithms, or `nil` when nothing
    /// is checked (no CRLs, and an undetermined status does not reject). (A factory rather than a failable initializer: a
    /// class's failable initializer allocates the object before it can fail.)
    static func checking(_ evidence: RevocationEvidence, policy: ValidationPolicy, certificates: [Certificate]) -> RevocationChecker? {
        guard !evidence.isEmpty || policy.undeterminedRevocationStatus == .reject else { return nil }
        return RevocationChecker(evidence: evidence, policy: policy, certificates: certificates)
    }

    private init(evidence: RevocationEvidence, policy: ValidationPolicy, certificates: [Certificate]) {
        crls = evidence.crls
        ocsp = OCSPResponseIndex(evidence.ocspResponses)
        freshness = policy.ocspFreshness
        mode = policy.undeterminedRevocationStatus
        algorithms = policy.algorithms
        self.certificates = certificates
    }

    /// RFC 5280 6.1.3 (a)(3): the failure revocation adds for `certificate`, or `nil`.
    ///
    /// - Parameters:
    ///   - above: the certificates of the path between the anchor and `certificate`, in RFC order
    ///     (the one the anchor issued first); the last is `certificate`'s issuer.
    ///   - anchor: the trust anchor of the path.
    ///   - strictCRLConformance: whether CRLs are read strictly (``strictCRLConformance``): true
    ///     exactly when the path's resolved profile is ``CertificateProfile/rfc5280``.
    ///   - findings: receives, when the status is not revoked, the CRLs that showed it despite a
    ///     departure from the CRL profile (never under a strict reading).
    /// - Returns: ``ValidationFailure/revoked(_:date:reason:source:)`` for a revoked certificate;
    ///   ``ValidationFailure/revocationUnknown(_:evidence:)`` for an undetermined status that
    ///   ``mode`` rejects; `nil` otherwise.
    func failure(for certificate: Certificate, above: ArraySlice<Certificate>, anchor: Certificate,
                 context: EvaluationContext, issuerPaths: any CRLIssuerPathValidation, strictCRLConformance strict: Bool,
                 findings: inout [CRLConformanceFinding]) -> ValidationFailure? {
        let outer = strictCRLConformance
        strictCRLConformance = strict
        defer { strictCRLConformance = outer }
        let outcome = status(of: certificate, above: above, anchor: anchor, context: context, issuerPaths: issuerPaths)
        switch outcome {
        case .notRevoked(let used):
            findings += used
            return nil
        case .revoked(let date, let reason, let source):
            return .revoked(certificate, date: date, reason: reason, source: source)
        case .undetermined(let covered, let crlRejections, let ocspRejections):
            // A status left open because the budget ran out fails in every mode: "undetermined" must
            // mean the evidence did not settle it, never that checking stopped early (else a revoked
            // certificate passes under `.accept` once enough signature work precedes its CRL).
            if let limit = context.exhausted ?? (outcome.ranOutOfBudget ? BudgetLimit.signatureChecks : nil) {
                return .budgetExhausted(limit)
            }
            // So does one left open at an examination limit: a revoking CRL or response behind many
            // others (anyone can make a CRL or a response naming a certificate) must not pass.
            let points = certificate.cRLDistributionPoints?.count ?? 0
            guard leftOpenAtLimit(outcome, distributionPoints: points) || rejectsUndetermined(certificate) else { return nil }
            return .revocationUnknown(certificate, evidence: UndeterminedRevocation(
                coveredReasons: covered, crlRejections: crlRejections, ocspRejections: ocspRejections, distributionPoints: points,
                distributionPointsConsidered: min(points, StatusDistributionPoint.maximumDistributionPoints)))
        }
    }

    /// Whether `outcome` was left open by a limit rather than by the evidence, which fails in every
    /// mode (docs/CLI.md, "Revocation"): a budget or an examination limit, or distribution points
    /// beyond the ``StatusDistributionPoint/maximumDistributionPoints`` processed while CRLs were
    /// supplied (a revoking CRL for the 33rd point passed under `.accept`, a reviewer's finding).
    ///
    /// - Parameter distributionPoints: the number of the certificate's cRLDistributionPoints.
    func leftOpenAtLimit(_ outcome: RevocationOutcome, distributionPoints: Int) -> Bool {
        outcome.stoppedEarly || (!crls.isEmpty && distributionPoints > StatusDistributionPoint.maximumDistributionPoints)
    }

    /// Whether ``mode`` rejects `certificate` when its status is undetermined. Under
    /// ``UndeterminedRevocationStatus/rejectWhenIssuerHasCRLs``, an OCSP response naming its serial
    /// number counts as evidence for its issuer, as a CRL does.
    func rejectsUndetermined(_ certificate: Certificate) -> Bool {
        switch mode {
        case .accept: return false
        case .reject: return true
        case .rejectWhenIssuerHasCRLs:
            if ocsp.names(certificate) { return true }
            let named = (certificate.cRLDistributionPoints ?? []).prefix(StatusDistributionPoint.maximumDistributionPoints).flatMap { $0.cRLIssuer ?? [] }
                .compactMap(StatusDistributionPoint.directoryName)
            return ([certificate.issuer] + named).contains { !crls.crls(issuedBy: $0).isEmpty }
        }
    }

    /// The status of `certificate` in the path `anchor`, `above`…, `certificate`: RFC 6960 with the
    /// OCSP responses, RFC 5280 6.3.3 with the CRLs. Revoked by either wins (the OCSP responses are
    /// consulted first; when one says revoked the CRLs are not); good from an authentic current
    /// response, or CRLs covering every reason, settle it; otherwise it is undetermined, with the
    /// reasons of both.
    func status(of certificate: Certificate, above: ArraySlice<Certificate>, anchor: Certificate,
                context: EvaluationContext, issuerPaths: any CRLIssuerPathValidation) -> RevocationOutcome {
        let key = StatusKey(certificate: ObjectIdentifier(certificate),
                            chain: [ObjectIdentifier(anchor)] + above.map { ObjectIdentifier($0) }, strictCRLConformance: strictCRLConformance)
        // Results that relied on a CRL taken as authentic while its issuer is validated, or on a
        // responder whose status is being checked, are not kept.
        let memoize = inProgress.isEmpty && respondersInProgress.isEmpty
        if memoize, let known = statusMemo[key] { return known }

        var ocspGood = false
        var ocspRejections: [OCSPRejection] = []
        if !ocsp.responses.isEmpty || !ocsp.unsuccessful.isEmpty {
            switch ocspStatus(of: certificate, issuer: above.last ?? anchor, above: above, anchor: anchor, context: context,
                              issuerPaths: issuerPaths) {
            case .revoked(let info, let basic):
                let outcome = RevocationOutcome.revoked(date: info.revocationTime, reason: info.revocationReason ?? .unspecified,
                                                        source: RevocationSource(basic))
                if memoize && inProgress.isEmpty && respondersInProgress.isEmpty { statusMemo[key] = outcome }
                return outcome
            case .good:
                ocspGood = true
            case .undetermined(let rejections):
                ocspRejections = rejections
            }
        }
        let crlOutcome = crlStatus(of: certificate, above: above, anchor: anchor, context: context, issuerPaths: issuerPaths)
        let outcome: RevocationOutcome
        switch crlOutcome {
        case .undetermined(let covered, let crlRejections, _) where !(ocspGood && !crlOutcome.stoppedEarly):
            outcome = .undetermined(coveredReasons: covered, crlRejections: crlRejections, ocspRejections: ocspRejections)
        case .undetermined:
            outcome = .notRevoked(findings: [])
        case .notRevoked, .revoked:
            outcome = crlOutcome
        }
        if memoize && inProgress.isEmpty && respondersInProgress.isEmpty { statusMemo[key] = outcome }
        return outcome
    }

    /// RFC 5280 6.3.3 for `certificate` in the path `anchor`, `above`…, `certificate`, with the CRLs.
    private func crlStatus(of certificate: Certificate, above: ArraySlice<Certificate>, anchor: Certificate,
                           context: EvaluationContext, issuerPaths: any CRLIssuerPathValidation) -> RevocationOutcome {
        if crls.isEmpty { return .undetermined(coveredReasons: [], crlRejections: [], ocspRejections: []) }
        let time = context.validationTime
        var state = RevocationState()
        var rejections: [CRLRejection] = []
        var deltasSeen: [CertificateRevocationList] = []
        var completeInScope: CertificateRevocationList? = nil
        var usedDespiteDepartures: [CRLConformanceFinding] = []
        var outOfScope = Set<ObjectIdentifier>()  // the CRLs reported out of scope at a point
        points: for point in StatusDistributionPoint.points(for: certificate) {
            var examined = 0
            for crl in candidates(for: point, of: certificate) {
                if state.isFinal {
                    if case .revoked = state.status { break points }
                    // Settled as good by newer CRLs: an older authentic CRL of the scope that lists
                    // the certificate for a permanent reason still revokes it. A revocation is never
                    // withdrawn while the certificate is valid (RFC 5280 3.3: an entry MUST NOT be
                    // removed before the certificate expires), so a newer CRL that omits it does not
                    // outweigh it. Only such CRLs are authenticated (a cheap look at the entries first).
                    guard !crl.isDeltaCRL, !crl.defects.contains(where: \.forbidsUse), crl.thisUpdate <= time,
                          RevocationState.revocation(of: certificate, in: crl, permanentOnly: true) != nil,
                          CRLScope.mismatch(crl, covering: certificate, through: point) == nil else { continue }
                    if case .success = authenticate(crl, for: certificate, above: above, anchor: anchor, context: context,
                                                    issuerPaths: issuerPaths) {
                        _ = state.applyRevocationEvidence(crl, for: certificate, permanentOnly: true)
                    }
                    continue
                }
                if crl.isDeltaCRL {
                    deltasSeen.append(crl)
                    continue
                }
                if let defect = crl.defects.first(where: \.forbidsUse) {
                    rejections.append(.defect(crl, defect))
                    continue
                }
                // What remains are departures from rules that bind the CRL issuer (no or a critical
                // cRLNumber, RFC 5280 5.2.3; no nextUpdate, 5.1.2.5). Read strictly, such a CRL can
                // still say revoked, never good; otherwise it is used, and reported.
                let departures = crl.defects
                let nonconformity = strictCRLConformance ? departures.first : nil
                if let mismatch = CRLScope.mismatch(crl, covering: certificate, through: point) {
                    // Reported once, at the first point: the same CRL out of the default point's scope
                    // as well read as a second, contradicting reason (a reviewer's finding).
                    if outOfScope.insert(ObjectIdentifier(crl)).inserted { rejections.append(.outOfScope(crl, mismatch)) }
                    continue
                }
                if completeInScope == nil { completeInScope = crl }
                if crl.thisUpdate > time {
                    rejections.append(.notYetIssued(crl))
                    continue
                }
                // (d), (e): only a CRL that adds reasons is worth authenticating.
                let interim = CRLScope.interimReasons(crl, through: point)
                if interim.isSubset(of: state.reasonsMask) { continue }
                examined += 1
                if examined > Self.maximumCRLsExaminedPerPoint {
                    rejections.append(.examinationLimit(crl))
                    continue points
                }
                // (a): current until nextUpdate; without one (read strictly, such a CRL never says
                // good), for the documented maximum age after thisUpdate.
                let stale: Bool
                let staleness: CRLRejection
                if let nextUpdate = crl.nextUpdate {
                    stale = nextUpdate < time
                    staleness = .stale(crl)
                } else {
                    let maximumAge = Self.maximumCRLAgeWithoutNextUpdate
                    stale = !strictCRLConformance && crl.thisUpdate.secondsSinceEpoch + maximumAge < time.secondsSinceEpoch
                    staleness = .tooOld(crl, maximumAge: maximumAge)
                }
                let sameIssuer = crls.crls(issuedBy: crl.issuer)
                let deltas = DeltaCRLs.applicable(to: crl, among: sameIssuer, at: time)
                // An out-of-date CRL cannot say good, but an authentic one that lists the certificate
                // as revoked still says revoked: a revocation is permanent (RFC 5280 3.3; OpenSSL
                // reports such a certificate revoked). Only then is it worth authenticating.
                if stale && deltas.isEmpty && RevocationState.revocation(of: certificate, in: crl, permanentOnly: true) == nil {
                    rejections.append(staleness)
                    continue
                }
                // (f), (g)
                let signer: Signer
                switch authenticate(crl, for: certificate, above: above, anchor: anchor, context: context, issuerPaths: issuerPaths) {
                case .success(let found): signer = found
                case .failure(let rejection):
                    rejections.append(rejection)
                    if case .budgetExhausted = rejection { break points }
                    continue
                }
                // (c), (h): the newest delta CRL signed with the same key.
                func signedWithTheSameKey(_ candidate: CertificateRevocationList) -> Bool {
                    algorithms.accepts(candidate.signatureAlgorithm)
                        && context.signature(of: candidate, by: signer.certificate, inheritedDSAParameters: signer.dsaParameters) == .valid
                }
                let delta = deltas.first(where: signedWithTheSameKey)
                // An authentic delta CRL of this scope that cannot extend this complete CRL (its base
                // is newer, it is out of date) still says revoked when it lists the certificate for a
                // permanent reason: a revocation is permanent (RFC 5280 3.3), whatever CRL it builds on.
                if let revoking = Self.revokingDelta(of: certificate, scope: crl, among: sameIssuer, except: delta, at: time,
                                                     verifiedBy: signedWithTheSameKey) {
                    _ = state.applyRevocationEvidence(revoking, for: certificate, permanentOnly: true)
                    continue
                }
                if stale && delta == nil {
                    if !state.applyRevocationEvidence(crl, for: certificate, permanentOnly: true) { rejections.append(staleness) }
                    continue
                }
                if let nonconformity {
                    if !state.applyRevocationEvidence(crl, for: certificate) { rejections.append(.nonconforming(crl, nonconformity)) }
                    continue
                }
                // (i)-(l)
                state.apply(complete: crl, delta: delta, for: certificate, interimReasons: interim)
                if !departures.isEmpty {
                    usedDespiteDepartures.append(CRLConformanceFinding(certificate: certificate, crl: crl, defects: departures))
                }
            }
        }

        if case .revoked(let entry, let crl) = state.status {
            return .revoked(entry, crl)
        } else if state.isFinal {
            return .notRevoked(findings: usedDespiteDepartures)
        } else {
            // Delta CRLs that could not help, and why.
            var seenDeltas = Set<ObjectIdentifier>()
            for delta in deltasSeen where seenDeltas.insert(ObjectIdentifier(delta)).inserted {
                guard let complete = completeInScope else {
                    rejections.append(.deltaWithoutCompleteCRL(delta))
                    continue
                }
                if let mismatch = DeltaCRLs.mismatch(delta, complete: complete, at: time) {
                    rejections.append(.deltaNotApplicable(delta, mismatch))
                }
            }
            return .undetermined(coveredReasons: state.reasonsMask, crlRejections: rejections, ocspRejections: [])
        }
    }

    /// The CRLs a distribution point may be served by: those of the CRL issuers it accepts, CRLs
    /// taken as authentic only provisionally last, otherwise newest (thisUpdate, then CRL number)
    /// first.
    private func candidates(for point: StatusDistributionPoint, of certificate: Certificate) -> [CertificateRevocationList] {
        var seen = Set<ObjectIdentifier>()
        var found: [CertificateRevocationList] = []
        for name in point.crlIssuerNames(for: certificate) {
            for crl in crls.crls(issuedBy: name) where seen.insert(ObjectIdentifier(crl)).inserted { found.append(crl) }
        }
        let orders = found.map { crl in
            (inProgress[ObjectIdentifier(crl)] == nil ? 0 : 1, -crl.thisUpdate.secondsSinceEpoch, crl.crlNumber ?? CRLNumber(0))
        }
        // Two CRLs as new as each other (same thisUpdate and number: an issuer's error, RFC 5280
        // 5.2.3 makes numbers unique) are not left to the order the caller gave them in: one that
        // lists the certificate comes first, so the answer is the same in every order and errs
        // towards revoked. (Whether a CRL lists it is found once per CRL, when first needed.)
        var listing: [Int: Bool] = [:]
        func lists(_ index: Int) -> Bool {
            if let known = listing[index] { return known }
            let answer = RevocationState.entry(listing: certificate, in: found[index]) != nil
            listing[index] = answer
            return answer
        }
        let sorted = found.indices.sorted { lhs, rhs in
            let (a, b) = (orders[lhs], orders[rhs])
            if a.0 != b.0 { return a.0 < b.0 }
            if a.1 != b.1 { return a.1 < b.1 }
            if a.2 != b.2 { return a.2 > b.2 }
            let (listsA, listsB) = (lists(lhs), lists(rhs))
            if listsA != listsB { return listsA }
            return lhs < rhs
        }
        return sorted.map { found[$0] }
    }

    /// How many CRLs that pass the cheap checks (not a delta, no defect, in scope, issued by the
    /// validation time, adding reasons) are examined further for one distribution point: looked
    /// through for delta CRLs and authenticated. CRLs whose issuer has no certificate spend no
    /// signature budget, and each examined one looks through its issuer's CRLs and the presented
    /// certificates (40,000 such CRLs took 36 s). Above the signature budget (100 checks), so that
    /// CRLs which must be verified meet that budget first; those refused by the cheap checks
    /// (future or out-of-scope ones anyone could add) do not count.
    static let maximumCRLsExaminedPerPoint = 128

    /// RFC 5280 6.3.3 (f), (g): the certificate whose key verifies `crl` and whose path validates to
    /// `anchor`, or why there is none.
    private func authenticate(_ crl: CertificateRevocationList, for certificate: Certificate, above: ArraySlice<Certificate>,
                              anchor: Certificate, context: EvaluationContext,
                              issuerPaths: any CRLIssuerPathValidation) -> Result<Signer, CRLRejection> {
        guard algorithms.accepts(crl.signatureAlgorithm) else { return .failure(.disallowedAlgorithm(crl)) }
        if let pending = inProgress[ObjectIdentifier(crl)] { return .success(pending) }

        // Certificates of this path, closest issuer first, then the anchor.
        let chain = [anchor] + Array(above)
        var inPath: [(certificate: Certificate, index: Int)] = []
        for index in chain.indices.reversed() where chain[index].subject.isEquivalent(to: crl.issuer) {
            inPath.append((chain[index], index))
        }
        // Other presented certificates named as the CRL issuer, with a key the path does not vouch for;
        // those whose subject key identifier matches the CRL's authority key identifier first.
        var others: [Certificate] = []
        var seen = Set<[UInt8]>()
        for candidate in certificates where candidate.subject.isEquivalent(to: crl.issuer) && seen.insert(candidate.der).inserted {
            let vouched = chain.contains {
                $0.subjectPublicKeyInfo.der == candidate.subjectPublicKeyInfo.der && $0.subject.isEquivalent(to: candidate.subject)
            }
            if !vouched { others.append(candidate) }
        }
        if let keyID = crl.authorityKeyIdentifier?.keyIdentifier {
            others = others.filter { $0.subjectKeyIdentifier == keyID } + others.filter { $0.subjectKeyIdentifier != keyID }
        }
        guard !inPath.isEmpty || !others.isEmpty else { return .failure(.noIssuerCertificate(crl)) }

        var best: CRLRejection? = nil
        func note(_ rejection: CRLRejection) {
            if best == nil || rejection.rank > best!.rank { best = rejection }
        }
        for (candidate, index) in inPath {
            if let usage = candidate.keyUsage, !usage.contains(.cRLSign) {
                note(.issuerCannotSignCRLs(crl, candidate))
                continue
            }
            let parameters = Self.workingDSAParameters(chain[...index])
            switch context.signature(of: crl, by: candidate, inheritedDSAParameters: parameters) {
            case .valid: return .success(Signer(certificate: candidate, dsaParameters: parameters))
            case .budgetExhausted: return .failure(.budgetExhausted(crl))
            case let outcome: note(.signature(crl, candidate, outcome))
            }
        }
        for candidate in others {
            if let usage = candidate.keyUsage, !usage.contains(.cRLSign) {
                note(.issuerCannotSignCRLs(crl, candidate))
                continue
            }
            // The signature first (cheaper than a path), unless the key's DSA parameters come from the path.
            if !candidate.subjectPublicKeyInfo.key.isDSAWithoutParameters {
                switch context.signature(of: crl, by: candidate) {
                case .valid: break
                case .budgetExhausted: return .failure(.budgetExhausted(crl))
                case let outcome:
                    note(.signature(crl, candidate, outcome))
                    continue
                }
            }
            switch issuerPath(of: crl, signer: candidate, above: above, anchor: anchor, context: context, issuerPaths: issuerPaths) {
            case .success(let signer):
                if candidate.subjectPublicKeyInfo.key.isDSAWithoutParameters {
                    let outcome = context.signature(of: crl, by: candidate, inheritedDSAParameters: signer.dsaParameters)
                    guard outcome == .valid else {
                        if outcome == .budgetExhausted { return .failure(.budgetExhausted(crl)) }
                        note(.signature(crl, candidate, outcome))
                        continue
                    }
                }
                return .success(signer)
            case .failure(let rejection):
                if case .budgetExhausted = rejection { return .failure(rejection) }
                note(rejection)
            }
        }
        return .failure(best ?? .noIssuerCertificate(crl))
    }

    /// RFC 5280 6.3.3 (f): a path from `signer` to `anchor`, built from the presented certificates
    /// and validated in full (RFC 5280 profile, any purpose, the policy's algorithms, anchor
    /// enforcement, revocation and remaining budget), with `crl` taken as authentic meanwhile.
    /// A signer or a certificate of its path that the evaluation's trust stores distrust (by
    /// certificate or by key) cannot vouch for a CRL.
    private func issuerPath(of crl: CertificateRevocationList, signer: Certificate, above: ArraySlice<Certificate>,
                            anchor: Certificate, context: EvaluationContext,
                            issuerPaths: any CRLIssuerPathValidation) -> Result<Signer, CRLRejection> {
        guard inProgress.count < Self.maximumNesting else { return .failure(.nestingTooDeep(crl)) }
        let key = IssuerPathKey(crl: ObjectIdentifier(crl), signer: ObjectIdentifier(signer), anchor: ObjectIdentifier(anchor),
                                strictCRLConformance: strictCRLConformance)
        let memoize = inProgress.isEmpty
        if memoize, let known = issuerPathMemo[key] { return known }

        // The path's anchor is the only anchor; what the evaluation's stores distrust (certificates
        // and keys) stays distrusted on the way to it.
        let distrusted = context.anchorStores.flatMap { $0.entries.filter { $0.kind == .distrusted } }
        let store = distrusted.isEmpty ? TrustStore(anchors: [anchor]) : TrustStore([TrustEntry(anchor, kind: .anchor)] + distrusted)
        let result: Result<Signer, CRLRejection>
        if store.isDistrusted(signer) {
            result = .failure(.issuerPathInvalid(crl, signer, .distrusted(signer)))
        } else {
            inProgress[ObjectIdentifier(crl)] = Signer(certificate: signer, dsaParameters: nil)
            let found = issuerPaths.validateIssuerPath(of: signer, intermediates: certificates + Array(above), store: store,
                                                       strictCRLConformance: strictCRLConformance)
            inProgress[ObjectIdentifier(crl)] = nil
            if let path = found.trusted {
                let chain = [anchor] + path.certificates.reversed()
                result = .success(Signer(certificate: signer, dsaParameters: Self.workingDSAParameters(chain[...])))
            } else if context.exhausted != nil {
                result = .failure(.budgetExhausted(crl))
            } else {
                result = .failure(.issuerPathInvalid(crl, signer, found.best?.primaryFailure ?? .issuerNotFound(signer)))
            }
        }
        if memoize { issuerPathMemo[key] = result }
        return result
    }

    /// The working public key parameters at the end of `chain` (anchor first), RFC 5280 6.1.4 (f):
    /// the last DSA parameters seen, inherited by DSA keys without their own; `nil` after a non-DSA key.
    static func workingDSAParameters(_ chain: ArraySlice<Certificate>) -> DSAParameters? {
        var parameters: DSAParameters? = nil
        for certificate in chain {
            if case .dsa(let own, _) = certificate.subjectPublicKeyInfo.key {
                if let own { parameters = own }
            } else {
                parameters = nil
            }
        }
        return parameters
    }

    /// The first delta CRL among `candidates` (other than `except`) of `scope`'s issuer and scope, issued
    /// by `time`, that lists `certificate` for a permanent reason and that `verified` accepts (its
    /// signature by the complete CRL's signer: checked last, only for such a delta); applied as
    /// evidence of revocation by the caller. Not combined with a complete CRL: no number order or
    /// currency is asked of it (RFC 5280 5.2.4 governs combining; a revocation is permanent, 3.3).
    static func revokingDelta(of certificate: Certificate, scope: CertificateRevocationList,
                              among candidates: [CertificateRevocationList], except: CertificateRevocationList?, at time: UnixTime,
                              verifiedBy verified: (CertificateRevocationList) -> Bool) -> CertificateRevocationList? {
        candidates.first { candidate in
            candidate.isDeltaCRL && candidate !== except && candidate.defects.allSatisfy({ !$0.forbidsUse })
                && candidate.issuer.isEquivalent(to: scope.issuer)
                && candidate.issuingDistributionPoint == scope.issuingDistributionPoint
                && candidate.thisUpdate <= time
                && RevocationState.revocation(of: certificate, in: candidate, permanentOnly: true) != nil
                && verified(candidate)
        }
    }
}

/// Builds and validates the certification path of a CRL issuer that is not on the path being
/// checked (RFC 5280 6.3.3 (f)): the pipeline gives this to the revocation stage, and runs the
/// issuer's path as a nested evaluation with the same budget (so revocation calls nothing above it).
protocol CRLIssuerPathValidation {
    /// The search from `signer` to the anchor of `store` through `intermediates`: the trusted path,
    /// or the best failed attempt. `strictCRLConformance`: how the CRLs of that path are read (the
    /// reading of the path whose CRL the signer vouches for, ``RevocationChecker/strictCRLConformance``).
    func validateIssuerPath(of signer: Certificate, intermediates: [Certificate], store: TrustStore, strictCRLConformance: Bool)
        -> (trusted: PathAttempt?, best: PathAttempt?)
}
