/// Verifies certificate signatures (RFC 5280 6.1.3 (a)(1)) through the `Crypto/` layer, with a
/// bounded cache of loaded public keys (keyed by SPKI bytes, so intermediates that recur across
/// evaluations are loaded once) and an optional cache of signature outcomes (repeated chains).
///
/// Both caches are thread-safe; share one verifier (``shared`` by default) across evaluations.
public struct SignatureVerifier: Sendable {
    /// The process-wide verifier: a 1024-entry key cache, no signature cache.
    public static let shared = SignatureVerifier()

    /// Loaded keys by SPKI; `nil` loads every key afresh (the "cold" benchmark setting).
    public let keyCache: PublicKeyCache?
    /// Successful verifications, compared by (algorithm, SPKI, signature, signed bytes); `nil` (default) verifies every time.
    public let signatureCache: SignatureCache?

    /// Creates a verifier with the given caches.
    public init(keyCache: PublicKeyCache? = PublicKeyCache(), signatureCache: SignatureCache? = nil) {
        self.keyCache = keyCache
        self.signatureCache = signatureCache
    }

    /// Verifies `certificate`'s signature over its TBSCertificate with `issuerKey`.
    ///
    /// - Parameters:
    ///   - inheritedDSAParameters: the working public key parameters, for a DSA issuer key without
    ///     its own (RFC 5280 6.1.4 (f)).
    ///   - preloadedKey: `issuerKey` already loaded (a trust anchor's key, loaded with its store),
    ///     used instead of the key cache or a fresh load.
    func verify(_ certificate: Certificate, issuerKey: SubjectPublicKeyInfo, inheritedDSAParameters: DSAParameters?,
                preloadedKey: PublicKey? = nil) -> SignatureOutcome {
        verifySignedData(signature: certificate.signature, unusedBits: certificate.signatureUnusedBits,
                         message: certificate.tbsCertificateBytes, algorithm: certificate.signatureAlgorithm,
                         issuerKey: issuerKey, inheritedDSAParameters: inheritedDSAParameters, preloadedKey: preloadedKey)
    }

    /// Verifies a SIGNED{…} structure (RFC 5280 4.1.1.3, 5.1.1.3): `signature` over `message` with `issuerKey`.
    func verifySignedData(signature: ArraySlice<UInt8>, unusedBits: UInt8, message: ArraySlice<UInt8>,
                          algorithm: SignatureAlgorithm, issuerKey: SubjectPublicKeyInfo,
                          inheritedDSAParameters: DSAParameters?, preloadedKey: PublicKey? = nil) -> SignatureOutcome {
        // Every supported algorithm signs whole bytes: padding bits mean a corrupted signature.
        guard unusedBits == 0 else { return .invalid }
        if case .unsupported = algorithm { return .unsupportedAlgorithm }
        if issuerKey.isRestrictedToRSASSAPSS {
            guard case .rsaPSS = algorithm else { return .unusableKey("the issuer's key is restricted to RSASSA-PSS (RFC 4055 1.2)") }
        }
        // A local function, not a closure value: nothing is allocated to capture the context.
        func load() throws(PublicKeyError) -> PublicKey {
            if issuerKey.key.isDSAWithoutParameters {
                return try PublicKey(issuerKey.key, inheritedDSAParameters: inheritedDSAParameters)
            }
            if let preloadedKey { return preloadedKey }
            if let keyCache { return try keyCache.publicKey(for: issuerKey) }
            return try PublicKey(issuerKey)
        }
        let result: SignatureVerificationResult
        do throws(PublicKeyError) {
            if let signatureCache, !issuerKey.key.isDSAWithoutParameters {
                result = try signatureCache.verify(signature: signature, message: message, algorithm: algorithm, spki: issuerKey, key: load)
            } else {
                result = try load().verify(signature: signature, message: message, algorithm: algorithm)
            }
        } catch {
            return .unusableKey(error.description)
        }
        switch result {
        case .verified: return .valid
        case .invalidSignature, .malformedSignature: return .invalid
        case .unsupportedAlgorithm: return .unsupportedAlgorithm
        case .algorithmKeyMismatch: return .unusableKey("the issuer's \(issuerKey.key.summary) key cannot verify \(algorithm)")
        }
    }
}

extension SubjectPublicKey {
    /// A DSA key whose domain parameters are inherited (absent from its SPKI).
    var isDSAWithoutParameters: Bool {
        if case .dsa(nil, _) = self { return true }
        return false
    }
}
