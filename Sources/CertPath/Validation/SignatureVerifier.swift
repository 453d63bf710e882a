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

    /// Verifies `certificate`'s signature over its TBSCertificate with `issuer`'s subject public key.
    /// A verification the signature cache holds is found from the issuer's SPKI bytes, without
    /// decoding its key.
    ///
    /// - Parameters:
    ///   - inheritedDSAParameters: the working public key parameters, for a DSA issuer key without
    ///     its own (RFC 5280 6.1.4 (f)).
    ///   - preloadedKey: `issuer`'s key if already loaded (a trust anchor's key, loaded with its
    ///     store), used instead of the key cache or a fresh load; asked only when a key is needed.
    func verify(_ certificate: Certificate, issuer: Certificate, inheritedDSAParameters: DSAParameters?,
                preloadedKey: () -> PublicKey? = { nil }) -> SignatureOutcome {
        let algorithm = certificate.signatureAlgorithm
        if let refusal = Self.refusal(unusedBits: certificate.signatureUnusedBits, algorithm: algorithm,
                                      keyRestrictedToRSASSAPSS: issuer.layout.subjectPublicKeyInfo.isRestrictedToRSASSAPSS) {
            return refusal
        }
        var missed: SignatureCache.Key? = nil
        if let signatureCache, !issuer.hasDSAKeyWithoutParameters {
            let key = SignatureCache.Key(algorithm: algorithm, spki: issuer.subjectPublicKeyInfoDER,
                                         signature: certificate.signature, message: certificate.tbsCertificateBytes)
            if signatureCache.contains(key) { return .valid }
            missed = key
        }
        return verifyWithKey(signature: certificate.signature, message: certificate.tbsCertificateBytes, algorithm: algorithm,
                             issuerKey: issuer.subjectPublicKeyInfo, inheritedDSAParameters: inheritedDSAParameters,
                             preloadedKey: preloadedKey(), storingSuccessAs: missed)
    }

    /// Verifies a SIGNED{…} structure (RFC 5280 4.1.1.3, 5.1.1.3): `signature` over `message` with `issuerKey`.
    func verifySignedData(signature: ArraySlice<UInt8>, unusedBits: UInt8, message: ArraySlice<UInt8>,
                          algorithm: SignatureAlgorithm, issuerKey: SubjectPublicKeyInfo,
                          inheritedDSAParameters: DSAParameters?, preloadedKey: PublicKey? = nil) -> SignatureOutcome {
        if let refusal = Self.refusal(unusedBits: unusedBits, algorithm: algorithm, keyRestrictedToRSASSAPSS: issuerKey.isRestrictedToRSASSAPSS) {
            return refusal
        }
        var missed: SignatureCache.Key? = nil
        if let signatureCache, !issuerKey.key.isDSAWithoutParameters {
            let key = SignatureCache.Key(algorithm: algorithm, spki: issuerKey.der, signature: signature, message: message)
            if signatureCache.contains(key) { return .valid }
            missed = key
        }
        return verifyWithKey(signature: signature, message: message, algorithm: algorithm, issuerKey: issuerKey,
                             inheritedDSAParameters: inheritedDSAParameters, preloadedKey: preloadedKey, storingSuccessAs: missed)
    }

    /// The outcome decided before any key is needed: padding bits in the signature, an unsupported
    /// algorithm, or a key restricted to RSASSA-PSS given another algorithm; `nil` to go on.
    private static func refusal(unusedBits: UInt8, algorithm: SignatureAlgorithm, keyRestrictedToRSASSAPSS: Bool) -> SignatureOutcome? {
        // Every supported algorithm signs whole bytes: padding bits mean a corrupted signature.
        guard unusedBits == 0 else { return .invalid }
        if case .unsupported = algorithm { return .unsupportedAlgorithm }
        if keyRestrictedToRSASSAPSS {
            guard case .rsaPSS = algorithm else { return .unusableKey("the issuer's key is restricted to RSASSA-PSS (RFC 4055 1.2)") }
        }
        return nil
    }

    /// Loads `issuerKey` (preloaded, from the key cache or afresh) and verifies; a success is stored in
    /// the signature cache as `storingSuccessAs` when given.
    private func verifyWithKey(signature: ArraySlice<UInt8>, message: ArraySlice<UInt8>, algorithm: SignatureAlgorithm,
                               issuerKey: SubjectPublicKeyInfo, inheritedDSAParameters: DSAParameters?, preloadedKey: PublicKey?,
                               storingSuccessAs cacheKey: SignatureCache.Key?) -> SignatureOutcome {
        let result: SignatureVerificationResult
        do throws(PublicKeyError) {
            let key: PublicKey
            if issuerKey.key.isDSAWithoutParameters {
                key = try PublicKey(issuerKey.key, inheritedDSAParameters: inheritedDSAParameters)
            } else if let preloadedKey {
                key = preloadedKey
            } else if let keyCache {
                key = try keyCache.publicKey(for: issuerKey)
            } else {
                key = try PublicKey(issuerKey)
            }
            result = key.verify(signature: signature, message: message, algorithm: algorithm)
        } catch {
            return .unusableKey(error.description)
        }
        if result == .verified, let cacheKey { signatureCache?.insert(cacheKey) }
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
