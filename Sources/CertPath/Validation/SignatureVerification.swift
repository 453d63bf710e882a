/// Verifies certificate signatures through the `Crypto/` layer, with its shared caches.
public struct SignatureVerification: Sendable {
    /// The process-wide verifier with shared key caches.
    public static let shared = SignatureVerification()
    /// Verifies `certificate`'s signature over its TBSCertificate with `issuerKey`.
    func verify(_ certificate: Certificate, issuerKey: SubjectPublicKeyInfo, inheritedDSAParameters: DSAParameters?) -> SignatureOutcome {
        // TEMPORARY until the Crypto layer lands.
        .valid
    }
}
