/// What is known about the revocation status of certificates, for one evaluation: evidence, given
/// to ``TrustEvaluation`` beside the rules (``ValidationPolicy`` says what an undetermined status
/// does; this says what is known). RFC 5280 6.3 reads it for every certificate of a path that
/// reached a trust anchor.
public struct RevocationEvidence: Sendable {
    /// Complete and delta CRLs, any issuer (RFC 5280 5, 6.3): a certificate's are found by issuer
    /// name and distribution point.
    public var crls: CRLStore

    /// Evidence of `crls`; empty by default (revocation is then not checked, unless an undetermined
    /// status rejects: ``UndeterminedRevocationStatus/reject``).
    public init(crls: CRLStore = .empty) {
        self.crls = crls
    }

    /// Whether there is no evidence at all.
    public var isEmpty: Bool { crls.isEmpty }
}
