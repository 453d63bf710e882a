import CertPath

/// What CertPath is given, besides the peer's chain, to decide whether a TLS peer can be trusted:
/// the fields of a ``TrustEvaluation`` that do not come from the connection.
/// The server's SCT list from the TLS extension, when one was asked for and sent, is passed as
/// ``TrustEvaluation/signedCertificateTimestampLists`` with ``certificateTransparencyLogs``.
///
/// The leaf and intermediates come from the peer's Certificate message; the purpose of
/// ``policy`` is replaced by the verifier's role (``TLSVerifier/Role``); the stapled OCSP response,
/// when the peer sends one and ``useStapledOCSP`` is set, is added to ``revocationEvidence``, and a
/// client that asked for one passes what was stapled as ``TrustEvaluation/stapledOCSPResponses``
/// (RFC 7633 "must-staple").
/// Everything else is passed to ``TrustEvaluation`` as given.
///
/// ```swift
/// var settings = TLSTrustSettings(trustStore: TrustStore(anchors: [root]))   // anchors only
/// settings.exceptions = try TrustExceptions(text: saved)                       // optional
/// ```
public struct TLSTrustSettings: Sendable {
    /// Anchors, trusted leaves and distrusted certificates (``TrustEvaluation/trustStore``).
    public var trustStore: TrustStore
    /// Only ``trustStore`` and ``pins`` are trusted when `true` (the default); `false` adds the system anchors.
    public var anchorsOnly: Bool
    /// The system anchors used when ``anchorsOnly`` is `false`; `nil` means ``SystemTrustStore/shared``.
    public var systemAnchors: TrustStore?
    /// Certificates or keys trusted for each evaluation (``TrustEvaluation/pins``).
    public var pins: [Pin]
    /// Trust exceptions applied last (``TrustEvaluation/exceptions``).
    public var exceptions: TrustExceptions?
    /// The rules; its ``ValidationPolicy/purpose`` is set by the verifier's role.
    public var policy: ValidationPolicy
    /// CRLs and OCSP responses the caller already has; a stapled response is added to them.
    public var revocationEvidence: RevocationEvidence
    /// Ask for (client side: `SSL_set_tlsext_status_type`, RFC 6066 section 8) and use the peer's
    /// stapled OCSP response as revocation evidence (default `true`).
    public var useStapledOCSP: Bool
    /// The validation time (RFC 5280 6.1.1 (b)); `nil` (the default) means the time of each handshake.
    public var validationTime: UnixTime?
    /// The signature verifier and its caches, shared by every handshake.
    public var signatureVerifier: SignatureVerifier
    /// The caller's last check on a path that passed everything else (``TrustEvaluation/additionalCheck``).
    public var additionalCheck: (@Sendable ([Certificate]) -> String?)?
    /// Keep every attempted path in the result, for diagnostics (``TrustEvaluation/collectAllAttempts``).
    public var collectAllAttempts: Bool
    /// Client side: ask the server for its SCTs in the ClientHello (the empty `signed_certificate_timestamp`
    /// extension, RFC 6962 3.3.1) and give the list it sends to the evaluation (default `true`, as
    /// browsers do; ``TLSSignedCertificateTimestamps``). Whether SCTs are required is the policy's business.
    public var requestSignedCertificateTimestamps = true
    /// The Certificate Transparency logs SCTs are checked against (``TrustEvaluation/certificateTransparencyLogs``);
    /// whether CT is required is ``ValidationPolicy/certificateTransparency`` of ``policy``. `nil` (the default): none.
    public var certificateTransparencyLogs: CTLogList?

    /// Settings with the given trust store and the defaults of ``TrustEvaluation``.
    public init(trustStore: TrustStore, anchorsOnly: Bool = true, systemAnchors: TrustStore? = nil, pins: [Pin] = [],
                exceptions: TrustExceptions? = nil, policy: ValidationPolicy = ValidationPolicy(),
                revocationEvidence: RevocationEvidence = RevocationEvidence(), useStapledOCSP: Bool = true,
                validationTime: UnixTime? = nil, signatureVerifier: SignatureVerifier = .shared,
                additionalCheck: (@Sendable ([Certificate]) -> String?)? = nil, collectAllAttempts: Bool = false) {
        self.trustStore = trustStore
        self.anchorsOnly = anchorsOnly
        self.systemAnchors = systemAnchors
        self.pins = pins
        self.exceptions = exceptions
        self.policy = policy
        self.revocationEvidence = revocationEvidence
        self.useStapledOCSP = useStapledOCSP
        self.validationTime = validationTime
        self.signatureVerifier = signatureVerifier
        self.additionalCheck = additionalCheck
        self.collectAllAttempts = collectAllAttempts
    }

    /// The evaluation of a presented chain (leaf first) for `purpose`, with `stapled` added to the evidence.
    public func evaluation(of presented: TLSPresentedChain, purpose: ValidationPurpose) -> TrustEvaluation {
        var policy = policy
        policy.purpose = purpose
        var evidence = revocationEvidence
        if useStapledOCSP, let stapled = presented.stapledOCSPResponse { evidence.ocspResponses.append(stapled) }
        var evaluation = TrustEvaluation(leaf: presented.leaf, intermediates: presented.intermediates, trustStore: trustStore,
                                         anchorsOnly: anchorsOnly, pins: pins, exceptions: exceptions, policy: policy,
                                         revocationEvidence: evidence, validationTime: validationTime,
                                         signatureVerifier: signatureVerifier, additionalCheck: additionalCheck,
                                         collectAllAttempts: collectAllAttempts)
        evaluation.systemAnchors = systemAnchors
        // RFC 6962 3.3.1: the SCTs the server sent in the handshake are evidence for its end entity.
        if let list = presented.signedCertificateTimestampList { evaluation.signedCertificateTimestampLists = [list] }
        evaluation.certificateTransparencyLogs = certificateTransparencyLogs
        if useStapledOCSP { evaluation.stapledOCSPResponses = presented.stapledOCSPResponses }
        return evaluation
    }
}
