// RFC 6960 4.1.1: the CertID that identifies a certificate, made and compared with libcrypto's digests.

extension OCSPCertID {
    /// The CertID that names `certificate`, issued by `issuer` (RFC 6960 4.1.1): the hash of the
    /// issuer's distinguished name (its subject field's DER), the hash of its subjectPublicKey BIT
    /// STRING value, and the certificate's serial number.
    ///
    /// - Returns: `nil` for an ``OCSPHashAlgorithm/unsupported(_:)`` algorithm.
    public init?(identifying certificate: Certificate, issuer: Certificate, hashAlgorithm: OCSPHashAlgorithm = .sha1) {
        guard let hash = hashAlgorithm.hashAlgorithm, let nameHash = hash.digest(of: issuer.subject.der),
              let keyHash = hash.digest(of: issuer.subjectPublicKeyInfo.subjectPublicKeyBytes) else { return nil }
        self.init(hashAlgorithm: hashAlgorithm, issuerNameHash: nameHash[...], issuerKeyHash: keyHash[...],
                  serialNumber: certificate.serialNumber)
    }

    /// Whether this CertID names `certificate` issued by `issuer` (RFC 6960 4.1.1): same serial
    /// number, and the hashes of the issuer's name and key made with ``hashAlgorithm``. The name hash
    /// may be of the issuer's subject or of the certificate's issuer field (the same name, possibly
    /// encoded differently). A CertID with an unsupported hash algorithm matches nothing.
    public func identifies(_ certificate: Certificate, issuer: Certificate) -> Bool {
        guard serialNumber.elementsEqual(certificate.serialNumber), let hash = hashAlgorithm.hashAlgorithm,
              let keyHash = hash.digest(of: issuer.subjectPublicKeyInfo.subjectPublicKeyBytes),
              keyHash.elementsEqual(issuerKeyHash) else { return false }
        if let nameHash = hash.digest(of: issuer.subject.der), nameHash.elementsEqual(issuerNameHash) { return true }
        return certificate.issuer.der != issuer.subject.der
            && hash.digest(of: certificate.issuer.der).map { $0.elementsEqual(issuerNameHash) } == true
    }
}
