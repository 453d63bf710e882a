extension SignatureVerifier {
    /// Verifies `crl`'s signature over its TBSCertList with `issuerKey` (RFC 5280 6.3.3 (g), (h)),
    /// through the same key and signature caches as certificate signatures.
    ///
    /// - Parameter inheritedDSAParameters: the working public key parameters of the CRL issuer's path,
    ///   for a DSA key without its own (RFC 5280 6.1.4 (f)).
    func verify(_ crl: CertificateRevocationList, issuerKey: SubjectPublicKeyInfo, inheritedDSAParameters: DSAParameters?) -> SignatureOutcome {
        verifySignedData(signature: crl.signature, unusedBits: crl.signatureUnusedBits, message: crl.tbsCertListBytes,
                         algorithm: crl.signatureAlgorithm, issuerKey: issuerKey, inheritedDSAParameters: inheritedDSAParameters)
    }

    /// Verifies a SIGNED{…} structure (RFC 5280 4.1.1.3 / 5.1.1.3): `signature` over `message` with `issuerKey`.
    private func verifySignedData(signature: ArraySlice<UInt8>, unusedBits: UInt8, message: ArraySlice<UInt8>,
                                  algorithm: SignatureAlgorithm, issuerKey: SubjectPublicKeyInfo,
                                  inheritedDSAParameters: DSAParameters?) -> SignatureOutcome {
        // Every supported algorithm signs whole bytes: padding bits mean a corrupted signature.
        guard unusedBits == 0 else { return .invalid }
        if case .unsupported = algorithm { return .unsupportedAlgorithm }
        if issuerKey.isRestrictedToRSASSAPSS {
            guard case .rsaPSS = algorithm else { return .unusableKey("the issuer's key is restricted to RSASSA-PSS (RFC 4055 1.2)") }
        }
        let load: () throws(PublicKeyError) -> PublicKey
        if case .dsa(nil, _) = issuerKey.key {
            load = { () throws(PublicKeyError) in try PublicKey(issuerKey.key, inheritedDSAParameters: inheritedDSAParameters) }
        } else if let keyCache {
            load = { () throws(PublicKeyError) in try keyCache.publicKey(for: issuerKey) }
        } else {
            load = { () throws(PublicKeyError) in try PublicKey(issuerKey) }
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
