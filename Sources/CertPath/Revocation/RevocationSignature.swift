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
}
