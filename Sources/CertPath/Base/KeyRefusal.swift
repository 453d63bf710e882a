/// Why the policy's algorithm profile (``AlgorithmProfile``) refuses a public key: the evidence of
/// ``ValidationFailure/weakKey(_:key:)``. Its description is the Evaluation layer's.
public enum KeyRefusal: Hashable, Sendable {
    /// An RSA modulus of `bits` bits, below the profile's `minimum` (``AlgorithmProfile/minimumRSAModulusBits``;
    /// CA/B BR 6.1.5: at least 2048).
    case rsaModulusTooSmall(bits: Int, minimum: Int)
    /// An RSA modulus of `bits` bits, not a multiple of 8 (``AlgorithmProfile/requireRSAModulusMultipleOf8``;
    /// CA/B BR 6.1.5).
    case rsaModulusNotMultipleOf8(bits: Int)
    /// An EC key on a curve the profile does not allow (``AlgorithmProfile/allowedCurves``).
    case curveNotAllowed(NamedCurve)
    /// An EC key on a Brainpool curve on a path validated under ``CertificateProfile/webPKI``
    /// (CA/B BR 6.1.5: P-256, P-384 and P-521 only).
    case curveNotAllowedInWebPKI(NamedCurve)
    /// An Ed25519 or Ed448 key (RFC 8410) where the profile does not allow EdDSA.
    case eddsaNotAllowed
    /// A DSA key where the profile does not allow DSA.
    case dsaNotAllowed
    /// A key algorithm (RFC 5280 4.1.2.7), or an EC curve (`curve`, RFC 5480 2.1.1), CertPath does not verify with.
    case unsupported(algorithm: OID, curve: OID?)
}
