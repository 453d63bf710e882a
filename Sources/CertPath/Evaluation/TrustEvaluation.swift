#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The entry point: decides whether an end-entity certificate can be trusted for a purpose.
///
/// Give it the end entity, the untrusted intermediates (as a peer sent them, any order), a
/// ``TrustStore``, a ``ValidationPolicy`` (the rules) and, to check revocation, the
/// ``RevocationEvidence``; ``evaluate()`` builds certification paths to the store's anchors and passes
/// each through the pipeline (RFC 5280 6.1 and the profile, then revocation, then the purpose, pins
/// and ``additionalCheck``), then applies trust exceptions, and returns the first valid path or an
/// explained failure. Synchronous, value-typed and safe to run on many threads at once.
///
/// ```swift
/// let store = TrustStore(anchors: [root])
/// let evaluation = TrustEvaluation(leaf: server, intermediates: [intermediate], trustStore: store,
///                                  policy: try .server(hostname: "server.customer1.example"))
/// switch evaluation.evaluate() {
/// case .trusted(let path): print("trusted via", path.anchor.subject)
/// case .untrusted(let report): print(report.summary)
/// }
/// ```
public struct TrustEvaluation: Sendable {
    /// The end-entity certificate.
    public var leaf: Certificate
    /// Untrusted certificates that may complete a path (order does not matter).
    public var intermediates: [Certificate]
    /// Anchors, trusted leaves and distrusted certificates supplied by the caller.
    public var trustStore: TrustStore
    /// Anchors only (SecTrustSetAnchorCertificatesOnly): when `true` (the default), only
    /// ``trustStore`` and ``pins`` are trusted; when `false`, the system anchors
    /// (``SystemTrustStore/shared``) count as well.
    public var anchorsOnly: Bool
    /// Certificates or keys trusted for this evaluation only, as anchors or as the end entity itself
    /// (a pinned self-signed server certificate). A pin never overrides a distrusted entry.
    public var pins: [Pin]
    /// Trust exceptions applied last: an untrusted result whose failures are all recoverable and all
    /// recorded for this exact leaf becomes trusted (``TrustedPath/acceptedFailures``).
    public var exceptions: TrustExceptions?
    /// The system anchors used when ``anchorsOnly`` is `false`; `nil` (default) means
    /// ``SystemTrustStore/shared`` (loaded once per process, on first use).
    public var systemAnchors: TrustStore?
    /// The rules: what the path is validated for and how, and the search's limits.
    public var policy: ValidationPolicy
    /// What is known about revocation (CRLs; RFC 5280 6.3): evidence about this evaluation, not a
    /// rule. Empty (the default): revocation is not checked, unless the policy's
    /// ``ValidationPolicy/undeterminedRevocationStatus`` is ``UndeterminedRevocationStatus/reject``.
    public var revocationEvidence: RevocationEvidence
    /// The OCSP responses the TLS server stapled in the handshake that presented this chain (RFC
    /// 6066 section 8 CertificateStatus, RFC 8446 4.4.2.1), for the TLS feature "must-staple" (RFC
    /// 7633): `nil` (the default) when the chain does not come from a TLS handshake whose ClientHello
    /// offered status_request, and the TLS feature extension is not checked; empty when the server
    /// stapled none (or none that parses).
    ///
    /// Under ``ValidationPurpose/serverAuthentication(_:)``, when the server certificate, or a CA of its
    /// path (RFC 7633 4.2.2.1), lists status_request in its TLS feature extension, a path is trusted
    /// only if these responses settle the server certificate's revocation status (RFC 7633 4.3.3);
    /// otherwise it fails with ``ValidationFailure/missingStapledOCSPResponse(_:requiredBy:reason:)``.
    /// They are revocation evidence too: they need not also be put in ``revocationEvidence``.
    public var stapledOCSPResponses: [OCSPResponse]? = nil
    /// The SignedCertificateTimestampLists the TLS server sent in the handshake that presented this
    /// chain: each the extension_data of a `signed_certificate_timestamp` extension (RFC 6962 3.3.1),
    /// as received. SCTs for the end entity (x509_entry), examined with the certificate's embedded
    /// SCTs and those of ``stapledOCSPResponses`` when the policy requires Certificate Transparency
    /// (``ValidationPolicy/certificateTransparency``). Empty (the default): none.
    public var signedCertificateTimestampLists: [[UInt8]] = []
    /// The Certificate Transparency logs SCTs are checked against (the caller's list: CertPath ships
    /// none). `nil` (the default): CT is not checked under ``CTRequirement/automatic``, and fails
    /// (``CTRule/noLogList``) when ``CTRequirement/required(_:)``.
    public var certificateTransparencyLogs: CTLogList? = nil
    /// The caller's last check on a path that passed everything else; it returns a reason to refuse
    /// the path (``ValidationFailure/rejectedByCaller(_:)``) or `nil`.
    public var additionalCheck: (@Sendable ([Certificate]) -> String?)?
    /// Keep the attempted paths in the result (for `--explain`): the first
    /// ``recordedAttemptsLimit`` in search order, the others counted in
    /// ``EvaluationStatistics/unrecordedAttempts``; off by default.
    public var collectAllAttempts: Bool
    /// The most attempted paths ``collectAllAttempts`` keeps (100): a hostile cross-signed mesh
    /// makes hundreds of thousands within the budget, and each holds its path and failures.
    public static let recordedAttemptsLimit = 100
    /// The validation time (RFC 5280 6.1.1 (b)); `nil` means now.
    public var validationTime: UnixTime?
    /// The signature verifier and its shared caches.
    public var signatureVerifier: SignatureVerifier
    /// Network access for this evaluation (SecTrustSetNetworkFetchAllowed): `nil`, the default, means
    /// none — no ``Fetcher`` is ever called. With it, missing issuers and revocation evidence are
    /// fetched within the policy's ``Budget`` (``NetworkFetching``).
    public var networkFetching: NetworkFetching?

    /// Creates an evaluation. With an empty `trustStore` and no pins, pass `anchorsOnly: false` to use
    /// the system anchors.
    public init(leaf: Certificate, intermediates: [Certificate] = [], trustStore: TrustStore, anchorsOnly: Bool = true,
                pins: [Pin] = [], exceptions: TrustExceptions? = nil, policy: ValidationPolicy = ValidationPolicy(),
                revocationEvidence: RevocationEvidence = RevocationEvidence(), validationTime: UnixTime? = nil,
                signatureVerifier: SignatureVerifier = .shared, additionalCheck: (@Sendable ([Certificate]) -> String?)? = nil,
                collectAllAttempts: Bool = false, networkFetching: NetworkFetching? = nil) {
        self.networkFetching = networkFetching
        self.revocationEvidence = revocationEvidence
        self.additionalCheck = additionalCheck
        self.collectAllAttempts = collectAllAttempts
        self.leaf = leaf
        self.intermediates = intermediates
        self.trustStore = trustStore
        self.anchorsOnly = anchorsOnly
        self.pins = pins
        self.exceptions = exceptions
        self.policy = policy
        self.validationTime = validationTime
        self.signatureVerifier = signatureVerifier
    }

    /// Creates an evaluation of a chain as a TLS peer sends it (SecTrustCreateWithCertificates): the
    /// end-entity certificate first, then any certificates that may complete a path, in any order
    /// (RFC 8446 4.4.2). The other settings keep their defaults; set them on the value.
    ///
    /// - Returns: `nil` when `chain` is empty (there is no end entity to evaluate).
    public init?(chain: [Certificate], trustStore: TrustStore, anchorsOnly: Bool = true, policy: ValidationPolicy = ValidationPolicy()) {
        guard let leaf = chain.first else { return nil }
        self.init(leaf: leaf, intermediates: Array(chain.dropFirst()), trustStore: trustStore, anchorsOnly: anchorsOnly, policy: policy)
    }

    /// The current time from the system clock.
    public static func now() -> UnixTime {
        WallClock.now()
    }

    /// Builds and validates paths; returns the first valid one or the explained failure, after
    /// pins and trust exceptions. With ``networkFetching``, fetches what the result lacks and
    /// evaluates again (``NetworkFetching``); the result's ``TrustResult/fetches`` says what was fetched.
    public func evaluate() -> TrustResult {
        if let networkFetching { return evaluateFetching(networkFetching) }
        let result = evaluatePaths()
        guard case .untrusted(var report) = result else { return result }
        report.purpose = policy.purpose
        guard let exceptions else { return .untrusted(report) }
        // An exception applies only to an evaluation for the purpose it was recorded under; one bound
        // to a host only for that TLS server name; one with an expiry only before it, at the validation time.
        let purpose = policy.purpose
        let time = validationTime ?? Self.now()
        guard report.isRecoverable, exceptions.covers(leaf: leaf, failures: report.failures, purpose: purpose, at: time) else {
            // Exceptions that concern this leaf or its name but do not apply are named in the report.
            report.inapplicableExceptions = exceptions.inapplicable(to: leaf, purpose: purpose, at: time)
            // Some failures accepted, not all: the report names first what the exceptions do not
            // accept (the accepted failure was the verdict, and read as the cause).
            let excepted = report.failures.filter { exceptions.covers(leaf: leaf, failures: [$0], purpose: purpose, at: time) }
            guard !excepted.isEmpty else { return .untrusted(report) }
            report.exceptedFailures = excepted
            if excepted.contains(report.primaryFailure),
               let uncovered = report.failures.filter({ !excepted.contains($0) }).max(by: { $0.rank < $1.rank }) {
                report.primaryFailure = uncovered
            }
            return .untrusted(report)
        }
        let attempt = report.bestAttempt
        return TrustResult.trusted(TrustedPath(certificates: attempt.certificates, anchor: attempt.anchor ?? attempt.certificates.last ?? leaf,
                                               reachesTrustAnchor: attempt.anchor != nil, policyOutcome: attempt.policyOutcome, acceptedFailures: report.failures,
                                               attempts: report.attempts, profile: attempt.profile,
                                               crlConformanceFindings: attempt.crlConformanceFindings,
                                               certificateTransparency: attempt.certificateTransparency)).with(report.statistics)
    }

    /// Evaluates (``evaluate()``) and returns the trusted path, or throws the report of why there is
    /// none: the spelling of SecTrustEvaluateWithError.
    ///
    /// - Throws: ``UntrustedReport``: the primary failure, each certificate's failures,
    ///   ``UntrustedReport/summary`` in plain words, and the ``UntrustedReport/exceptions`` that would
    ///   accept it when every failure is recoverable.
    public func trustedPath() throws(UntrustedReport) -> TrustedPath {
        switch evaluate() {
        case .trusted(let path): return path
        case .untrusted(let report): throw report
        }
    }

    /// The stores consulted: the caller's, the pinned certificates, and the system's unless anchors only.
    private func stores() -> SmallList<TrustStore> {
        var stores = SmallList(CollectionOfOne(trustStore))
        if !pins.isEmpty {
            let pinned = ([leaf] + intermediates).filter { certificate in pins.contains { $0.matches(certificate) } }
            stores.append(TrustStore(pinned.map { TrustEntry($0, kind: .anchorOrLeaf) }))
        }
        if !anchorsOnly { stores.append(systemAnchors ?? SystemTrustStore.shared.store) }
        return stores
    }

    private func evaluatePaths() -> TrustResult {
        var evidence = revocationEvidence
        for response in stapledOCSPResponses ?? [] where !evidence.ocspResponses.contains(where: { $0 === response || $0.der == response.der }) {
            evidence.ocspResponses.append(response)
        }
        let stores = stores()
        let context = EvaluationContext(budget: policy.budget, validationTime: validationTime ?? Self.now(), crypto: signatureVerifier,
                                        anchorStores: stores)
        var pipeline = PathPipeline(policy: policy, context: context,
                                    revocation: RevocationChecker.checking(evidence, policy: policy, certificates: intermediates),
                                    additionalCheck: additionalCheck,
                                    attemptsKept: collectAllAttempts ? Self.recordedAttemptsLimit : 0)
        if let stapled = stapledOCSPResponses, case .serverAuthentication = policy.purpose {
            pipeline.tlsFeatures = TLSFeatureRequirement(stapled: stapled, policy: policy, certificates: intermediates)
        }
        if policy.certificateTransparency.mayRequire(hasLogList: certificateTransparencyLogs != nil) {
            pipeline.certificateTransparency = CTEvidence(logs: certificateTransparencyLogs, tlsSCTLists: signedCertificateTimestampLists,
                                                          ocspResponses: stapledOCSPResponses ?? [], intermediates: intermediates)
        }

        if stores.contains(where: { $0.isDistrusted(leaf) }) {
            let attempt = pipeline.judge([leaf], anchor: nil, anchorIsPublicWebPKI: false, terminal: .distrusted(leaf))
            return .untrusted(UntrustedReport(primaryFailure: .distrusted(leaf), bestAttempt: attempt, attempts: [attempt]))
        }
        // A directly trusted end entity (pinned certificate): its own validity, profile and purpose
        // are checked; it needs no issuer. When they fail, paths are still built (the leaf may also
        // chain to an anchor), and the direct attempt is the report's when none is trusted.
        var directAttempt: PathAttempt? = nil
        if stores.contains(where: { $0.trustsAsLeaf(leaf) }) {
            let attempt = pipeline.judge([leaf], anchor: nil, anchorIsPublicWebPKI: false, terminal: nil, leafIsTrustedDirectly: true)
            if attempt.failures.isEmpty {  // (the required pins included: the pipeline checks them on every path)
                return .trusted(TrustedPath(certificates: [leaf], anchor: leaf, reachesTrustAnchor: true, policyOutcome: nil, acceptedFailures: [],
                                            attempts: collectAllAttempts ? [attempt] : [], profile: attempt.profile,
                                            crlConformanceFindings: attempt.crlConformanceFindings,
                                            certificateTransparency: attempt.certificateTransparency))
            }
            directAttempt = attempt
        }

        let search = pipeline.search(from: leaf, index: IssuerIndex(stores: stores, intermediates: intermediates))
        let statistics = context.statistics(prunedExplorations: search.prunedExplorations, skippedCandidates: search.skippedCandidates,
                                            abandonedCandidates: search.abandonedCandidates, unrecordedAttempts: search.unrecordedAttempts)
        if let trusted = search.trusted, let anchor = trusted.anchor {
            return TrustResult.trusted(TrustedPath(certificates: trusted.certificates, anchor: anchor, reachesTrustAnchor: true, policyOutcome: trusted.policyOutcome,
                                                   acceptedFailures: [], attempts: search.attempts, profile: trusted.profile,
                                                   crlConformanceFindings: trusted.crlConformanceFindings,
                                                   certificateTransparency: trusted.certificateTransparency)).with(statistics)
        }
        let direct = directAttempt
        let best = direct ?? search.best ?? pipeline.judge([leaf], anchor: nil, anchorIsPublicWebPKI: false, terminal: .issuerNotFound(leaf))
        var primary = best.primaryFailure ?? .issuerNotFound(leaf)
        if let limit = context.exhausted {
            primary = .budgetExhausted(limit)
        } else if search.abandonedCandidates > 0 {
            // Not every candidate was tried: the search's answer is that it stopped, not what the
            // candidates it tried lacked.
            primary = .budgetExhausted(.failedIssuerCandidates)
        }
        return TrustResult.untrusted(UntrustedReport(primaryFailure: primary, bestAttempt: best, attempts: search.attempts)).with(statistics)
    }
}
