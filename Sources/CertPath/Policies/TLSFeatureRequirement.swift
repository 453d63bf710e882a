/// RFC 7633's TLS feature status_request ("must-staple") for a TLS server evaluation whose chain
/// came from a handshake (``TrustEvaluation/stapledOCSPResponses``): the pipeline's check after
/// revocation, for a path that reached a trust anchor.
///
/// What is enforced, and why:
/// - **status_request (5) only.** RFC 7633 4.3.3 binds the client to the features present "in both
///   the client's ClientHello message and the TLS feature extension". The library knows of the
///   handshake only what it is given: that status_request was offered (the responses are not
///   `nil`) and what was stapled. status_request_v2 (17, RFC 6961) is not offered by OpenSSL's
///   client, and other features are not observable here, so they are parsed and shown, not
///   enforced (as Firefox enforces status_request alone).
/// - **Satisfied only by a staple that settles the status.** A stapled response that is stale, not
///   authorized, or about another certificate does not settle the server certificate's status; it
///   fails here whatever ``ValidationPolicy/undeterminedRevocationStatus`` says (otherwise a
///   compromised key plus a withheld or replayed staple passes under `.accept`, the very attack
///   must-staple exists for; RFC 7633 section 1). A response settling it as revoked satisfies the
///   feature and the revocation stage reports the revocation.
/// - **A CA's features constrain the certificates below it (RFC 7633 4.2.2.1).** The RFC gives the
///   issuing CA the MUST ("a certificate that is signed by a Certificate Signing Certificate that
///   contains a TLS feature extension MUST contain a TLS feature extension" with a superset) and lets
///   relying parties reject or ignore it. CertPath enforces what the client can observe: when any
///   certificate of the path — an intermediate, or the anchor's certificate when the policy applies
///   the anchor's constraints (``AnchorEnforcement/constraints``) — lists status_request, the server
///   must staple, as if the server certificate listed it. A server certificate that omits the
///   extension under such a CA is the CA's conformance failure, not a reason to refuse a connection
///   that did staple (Firefox refuses it, mozilla::pkix `CheckTLSFeatures`; a profile row could).
/// - **Fatal.** ``ValidationFailure/missingStapledOCSPResponse(_:requiredBy:reason:)`` is not
///   recoverable: Firefox's `MOZILLA_PKIX_ERROR_REQUIRED_TLS_FEATURE_MISSING` cannot be overridden,
///   and RFC 7633 4.3.3 says the client "MUST NOT treat the certificate as valid".
struct TLSFeatureRequirement {
    /// A revocation checker of the stapled responses alone; `nil` when none was stapled.
    let stapled: RevocationChecker?

    /// The requirement for a handshake that stapled `responses` (empty: none), checked with
    /// `policy`'s algorithms, freshness and revocation mode.
    init(stapled responses: [OCSPResponse], policy: ValidationPolicy, certificates: [Certificate]) {
        stapled = responses.isEmpty ? nil
            : RevocationChecker.checking(RevocationEvidence(ocspResponses: responses), policy: policy, certificates: certificates)
    }

    /// The lowest certificate of `path` (leaf first), then the anchor's when `anchorConstraints`,
    /// whose TLS feature extension lists status_request, or `nil`.
    static func requiringCertificate(path: [Certificate], anchor: Certificate, anchorConstraints: Bool) -> Certificate? {
        if let found = path.first(where: \.requiresStapledOCSPResponse) { return found }
        return anchorConstraints && anchor !== path.last && anchor.requiresStapledOCSPResponse ? anchor : nil
    }

    /// The failure of the path `path` (leaf first) to `anchor` under `policy`, or `nil`: only for
    /// ``ValidationPurpose/serverAuthentication(_:)``.
    func failure(path: [Certificate], anchor: Certificate, policy: ValidationPolicy, context: EvaluationContext,
                 issuerPaths: any CRLIssuerPathValidation) -> ValidationFailure? {
        guard case .serverAuthentication = policy.purpose, let leaf = path.first,
              let requiredBy = Self.requiringCertificate(path: path, anchor: anchor, anchorConstraints: policy.anchorEnforcement.constraints)
        else { return nil }
        // A server certificate that is its own anchor (a pinned self-signed one) has no issuer to answer for it.
        guard leaf !== anchor else { return nil }
        guard let stapled else { return .missingStapledOCSPResponse(leaf, requiredBy: requiredBy, reason: nil) }
        let chain = Array(path.reversed())  // RFC order: the one the anchor issued first; the leaf last
        let outcome = stapled.status(of: leaf, above: chain.dropLast(), anchor: anchor, context: context, issuerPaths: issuerPaths)
        switch outcome {
        case .notRevoked, .revoked:
            return nil
        case .undetermined(let covered, let crlRejections, let ocspRejections):
            return .missingStapledOCSPResponse(leaf, requiredBy: requiredBy,
                                               reason: UndeterminedRevocation(coveredReasons: covered, crlRejections: crlRejections,
                                                                              ocspRejections: ocspRejections))
        }
    }
}
