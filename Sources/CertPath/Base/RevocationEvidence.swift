/// What is known about revocation for one evaluation (RFC 5280 6.3, RFC 6960): evidence, apart from
/// the rules (``ValidationPolicy/undeterminedRevocationStatus``) that say what a missing status means.
///
/// ``TrustEvaluation`` checks it after RFC 5280 6.1, for every certificate of a path that reached a
/// trust anchor: CRLs by issuer and distribution point, OCSP responses by CertID. Per certificate,
/// revoked by any authentic source wins; good from an authentic OCSP response, or CRLs covering
/// every reason, settle the status; otherwise it is undetermined.
public struct RevocationEvidence: Sendable {
    /// Complete and delta CRLs, any issuer (RFC 5280 5, 6.3): a certificate's are found by issuer
    /// name and distribution point.
    public var crls: CRLStore
    /// OCSP responses (RFC 6960 4.2), any number, for any certificate of the path: the leaf's
    /// stapled response (RFC 6066 `status_request`), the whole chain's (RFC 6961), or responses
    /// fetched by the caller. A response speaks only for the certificates its CertIDs name, and only
    /// once its signer is authorized (RFC 6960 4.2.2.2) and it is current.
    public var ocspResponses: [OCSPResponse]

    /// Evidence of `crls` and `ocspResponses`; empty by default (revocation is then not checked,
    /// unless an undetermined status rejects: ``UndeterminedRevocationStatus/reject``).
    public init(crls: CRLStore = .empty, ocspResponses: [OCSPResponse] = []) {
        self.crls = crls
        self.ocspResponses = ocspResponses
    }

    /// Whether there is no evidence at all.
    public var isEmpty: Bool { crls.isEmpty && ocspResponses.isEmpty }
}
