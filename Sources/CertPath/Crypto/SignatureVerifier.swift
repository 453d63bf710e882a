/// Verifies certificate signatures (RFC 5280 6.1.3 (a)(1)) through the `Crypto/` layer, with a
/// bounded cache of loaded public keys (keyed by SPKI bytes, so intermediates that recur across
/// evaluations are loaded once) and an optional cache of signature outcomes (repeated chains).
///
/// Both caches are thread-safe; share one verifier (``shared`` by default) across evaluations.
public struct SignatureVerifier: Sendable {
    /// The process-wide verifier: a 1024-entry key cache, no signature cache.
    public static let shared = SignatureVerifier()

    /// Loaded keys by SPKI; `nil` loads every key afresh (the "cold" benchmark setting).
    public var keyCache: PublicKeyCache? { caches.keyCache }
    /// Successful verifications, compared by (algorithm, SPKI, signature, signed bytes); `nil` (default) verifies every time.
    public var signatureCache: SignatureCache? { caches.signatureCache }

    /// Both caches in one object: copying a verifier (every evaluation does) retains one reference.
    private let caches: Caches

    private final class Caches: Sendable {
        let keyCache: PublicKeyCache?
        let signatureCache: SignatureCache?

        init(keyCache: PublicKeyCache?, signatureCache: SignatureCache?) {
            self.keyCache = keyCache
            self.signatureCache = signatureCache
        }
    }

    /// Creates a verifier with the given caches.
    public init(keyCache: PublicKeyCache? = PublicKeyCache(), signatureCache: SignatureCache? = nil) {
        caches = Caches(keyCache: keyCache, signatureCache: signatureCache)
    }

    /// Verifies `certificate`'s signature over its TBSCertificate with `issuer`'s subject public key.
    /// A verification the signature cache holds is found from the issuer's SPKI bytes, without
    /// decoding its key.
    ///
    /// - Parameters:
    ///   - inheritedDSAParameters: the working public key parameters, for a DSA issuer key without
    ///     its own (RFC 5280 6.1.4 (f)).
    ///   - preloadedKey: `issuer`'s key if already loaded (a trust anchor's key, loaded with its
    ///     store), used instead of the key cache or a fresh load; asked only when a key is loaded.
    func verify(_ certificate: Certificate, issuer: Certificate, inheritedDSAParameters: DSAParameters?,
                preloadedKey: () -> PublicKey? = { nil }) -> SignatureOutcome {
        let layout = issuer.subjectPublicKeyLayout
        // Only a key restricted to RSASSA-PSS can refuse; its parameters are read again from its DER
        // (for any other key no view of it is made: an anchor's DER is shared by every thread).
        let keyRefusal = layout.isRestrictedToRSASSAPSS
            ? SubjectPublicKeyInfo.refusal(of: certificate.signatureAlgorithm, restrictedToRSASSAPSS: true,
                                           parameters: layout.rsassaPSSParameters(issuer.der[...]))
            : nil
        return check(signature: certificate.signature, unusedBits: certificate.signatureUnusedBits,
                     message: certificate.tbsCertificateBytes, algorithm: certificate.signatureAlgorithm,
                     spkiDER: issuer.subjectPublicKeyInfoDER, keyRefusal: keyRefusal,
                     inheritsDSAParameters: issuer.hasDSAKeyWithoutParameters, issuerKey: { issuer.subjectPublicKeyInfo },
                     inheritedDSAParameters: inheritedDSAParameters, preloadedKey: preloadedKey)
    }

    /// Verifies a SIGNED{…} structure (RFC 5280 4.1.1.3, 5.1.1.3): `signature` over `message` with `issuerKey`.
    func verifySignedData(signature: ArraySlice<UInt8>, unusedBits: UInt8, message: ArraySlice<UInt8>,
                          algorithm: SignatureAlgorithm, issuerKey: SubjectPublicKeyInfo,
                          inheritedDSAParameters: DSAParameters?, preloadedKey: PublicKey? = nil) -> SignatureOutcome {
        check(signature: signature, unusedBits: unusedBits, message: message, algorithm: algorithm, spkiDER: issuerKey.der,
              keyRefusal: issuerKey.refusal(of: algorithm), inheritsDSAParameters: issuerKey.key.isDSAWithoutParameters,
              issuerKey: { issuerKey }, inheritedDSAParameters: inheritedDSAParameters, preloadedKey: { preloadedKey })
    }

    /// The one verification path. In order: what is decided before any key is needed (padding
    /// bits, an unsupported algorithm, `keyRefusal`: RFC 4055 restrictions of the issuer's key), the
    /// signature cache by SPKI bytes, then the key (preloaded, from the key cache or built from
    /// `issuerKey`, made only then) and the check; a success is stored in the signature cache.
    /// A DSA key inheriting its parameters depends on the path above it and bypasses both caches.
    private func check(signature: ArraySlice<UInt8>, unusedBits: UInt8, message: ArraySlice<UInt8>, algorithm: SignatureAlgorithm,
                       spkiDER: ArraySlice<UInt8>, keyRefusal: RSASSAPSSRefusal?, inheritsDSAParameters: Bool,
                       issuerKey: () -> SubjectPublicKeyInfo, inheritedDSAParameters: DSAParameters?,
                       preloadedKey: () -> PublicKey?) -> SignatureOutcome {
        // Every supported algorithm signs whole bytes: padding bits mean a corrupted signature.
        guard unusedBits == 0 else { return .invalid }
        if case .unsupported = algorithm { return .unsupportedAlgorithm }
        if let keyRefusal { return .unusableKey(.rsassaPSSRestriction(keyRefusal)) }
        // A local function, not a closure value: nothing is allocated to capture the context.
        func load() throws(PublicKeyError) -> PublicKey {
            if inheritsDSAParameters { return try PublicKey(issuerKey().key, inheritedDSAParameters: inheritedDSAParameters) }
            if let key = preloadedKey() { return key }
            if let keyCache { return try keyCache.publicKey(for: issuerKey()) }
            return try PublicKey(issuerKey())
        }
        let result: SignatureVerificationResult
        do throws(PublicKeyError) {
            if let signatureCache, !inheritsDSAParameters {
                result = try signatureCache.verify(signature: signature, message: message, algorithm: algorithm, spkiDER: spkiDER, key: load)
            } else {
                result = try load().verify(signature: signature, message: message, algorithm: algorithm)
            }
        } catch {
            return .unusableKey(.invalid(error))
        }
        switch result {
        case .verified: return .valid
        case .invalidSignature, .malformedSignature: return .invalid
        case .unsupportedAlgorithm: return .unsupportedAlgorithm
        case .algorithmKeyMismatch: return .unusableKey(.algorithmMismatch(key: issuerKey().key, algorithm: algorithm))
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

/// The result of checking one signature (of a certificate, CRL or OCSP response) with one key
/// (RFC 5280 6.1.3 (a)(1), 6.3.3 (g); RFC 6960 4.2.2.2).
public enum SignatureOutcome: Hashable, Sendable {
    /// The signature verifies.
    case valid
    /// The signature does not verify with the key.
    case invalid
    /// The signature algorithm is not one CertPath verifies.
    case unsupportedAlgorithm
    /// The key cannot be used for the algorithm; the payload says why.
    case unusableKey(UnusableKey)
    /// The signature-check budget ran out before the check.
    case budgetExhausted
}

/// Why an issuer's public key cannot verify a signature (``ValidationFailure/unusablePublicKey(_:reason:)``,
/// RFC 5280 6.1.3 (a)(1)); its description is the Evaluation layer's.
public enum UnusableKey: Hashable, Sendable {
    /// The key is restricted to RSASSA-PSS (RFC 4055 1.2, 3.1: id-RSASSA-PSS with parameters) and
    /// the signature's algorithm or parameters are not the ones it allows; the payload is the
    /// restriction broken.
    case rsassaPSSRestriction(RSASSAPSSRefusal)
    /// The key cannot be loaded: an unsupported type or size, invalid components, a libcrypto failure.
    case invalid(PublicKeyError)
    /// The key's type does not fit the signature algorithm (an EC key for an RSA signature…).
    case algorithmMismatch(key: SubjectPublicKey, algorithm: SignatureAlgorithm)
}
