// Object identifiers CertPath recognises, as their DER contents octets so that OIDs read from a
// certificate are compared without decoding. The dotted forms are in the comments.

/// Object identifiers of RFC 5280, RFC 4055, RFC 5480, RFC 5758, RFC 8410 and the CA/Browser Forum
/// that CertPath decodes, as ``OID`` values.
public enum KnownOID {
    // Extensions (RFC 5280 4.2.1, id-ce = 2.5.29)
    /// 2.5.29.14 subjectKeyIdentifier
    public static let subjectKeyIdentifier: OID = "2.5.29.14"
    /// 2.5.29.15 keyUsage
    public static let keyUsage: OID = "2.5.29.15"
    /// 2.5.29.17 subjectAltName
    public static let subjectAltName: OID = "2.5.29.17"
    /// 2.5.29.18 issuerAltName
    public static let issuerAltName: OID = "2.5.29.18"
    /// 2.5.29.19 basicConstraints
    public static let basicConstraints: OID = "2.5.29.19"
    /// 2.5.29.30 nameConstraints
    public static let nameConstraints: OID = "2.5.29.30"
    /// 2.5.29.31 cRLDistributionPoints
    public static let cRLDistributionPoints: OID = "2.5.29.31"
    /// 2.5.29.32 certificatePolicies
    public static let certificatePolicies: OID = "2.5.29.32"
    /// 2.5.29.32.0 anyPolicy
    public static let anyPolicy: OID = "2.5.29.32.0"
    /// 2.5.29.33 policyMappings
    public static let policyMappings: OID = "2.5.29.33"
    /// 2.5.29.35 authorityKeyIdentifier
    public static let authorityKeyIdentifier: OID = "2.5.29.35"
    /// 2.5.29.36 policyConstraints
    public static let policyConstraints: OID = "2.5.29.36"
    /// 2.5.29.37 extKeyUsage
    public static let extKeyUsage: OID = "2.5.29.37"
    /// 2.5.29.37.0 anyExtendedKeyUsage
    public static let anyExtendedKeyUsage: OID = "2.5.29.37.0"
    /// 2.5.29.46 freshestCRL
    public static let freshestCRL: OID = "2.5.29.46"
    /// 2.5.29.54 inhibitAnyPolicy
    public static let inhibitAnyPolicy: OID = "2.5.29.54"
    /// 1.3.6.1.5.5.7.1.1 authorityInfoAccess
    public static let authorityInfoAccess: OID = "1.3.6.1.5.5.7.1.1"
    /// 1.3.6.1.5.5.7.1.11 subjectInfoAccess
    public static let subjectInfoAccess: OID = "1.3.6.1.5.5.7.1.11"
    /// 1.3.6.1.5.5.7.1.24 id-pe-tlsfeature (RFC 7633)
    public static let tlsFeature: OID = "1.3.6.1.5.5.7.1.24"
    /// 1.3.6.1.5.5.7.48.1.5 id-pkix-ocsp-nocheck (RFC 6960 4.2.2.2.1)
    public static let ocspNoCheck: OID = "1.3.6.1.5.5.7.48.1.5"

    // Extended key usages (RFC 5280 4.2.1.12, id-kp = 1.3.6.1.5.5.7.3)
    /// 1.3.6.1.5.5.7.3.1 id-kp-serverAuth
    public static let serverAuth: OID = "1.3.6.1.5.5.7.3.1"
    /// 1.3.6.1.5.5.7.3.2 id-kp-clientAuth
    public static let clientAuth: OID = "1.3.6.1.5.5.7.3.2"
    /// 1.3.6.1.5.5.7.3.3 id-kp-codeSigning
    public static let codeSigning: OID = "1.3.6.1.5.5.7.3.3"
    /// 1.3.6.1.5.5.7.3.4 id-kp-emailProtection
    public static let emailProtection: OID = "1.3.6.1.5.5.7.3.4"
    /// 1.3.6.1.5.5.7.3.8 id-kp-timeStamping
    public static let timeStamping: OID = "1.3.6.1.5.5.7.3.8"
    /// 1.3.6.1.5.5.7.3.9 id-kp-OCSPSigning
    public static let ocspSigning: OID = "1.3.6.1.5.5.7.3.9"
    /// 1.3.6.1.4.1.11129.2.4.4 Certificate Transparency precertificate signing (RFC 6962 3.1).
    public static let precertificateSigning: OID = "1.3.6.1.4.1.11129.2.4.4"

    // Public key algorithms (RFC 3279, RFC 4055, RFC 5480, RFC 8410)
    /// 1.2.840.113549.1.1.1 rsaEncryption
    public static let rsaEncryption: OID = "1.2.840.113549.1.1.1"
    /// 1.2.840.113549.1.1.10 id-RSASSA-PSS
    public static let rsassaPSS: OID = "1.2.840.113549.1.1.10"
    /// 1.2.840.113549.1.1.8 id-mgf1
    public static let mgf1: OID = "1.2.840.113549.1.1.8"
    /// 1.2.840.10045.2.1 id-ecPublicKey
    public static let ecPublicKey: OID = "1.2.840.10045.2.1"
    /// 1.3.101.112 id-Ed25519
    public static let ed25519: OID = "1.3.101.112"
    /// 1.3.101.113 id-Ed448
    public static let ed448: OID = "1.3.101.113"
    /// 1.2.840.10040.4.1 id-dsa
    public static let dsa: OID = "1.2.840.10040.4.1"

    // Named curves (RFC 5480 2.1.1.1)
    /// 1.2.840.10045.3.1.7 secp256r1 (P-256)
    public static let secp256r1: OID = "1.2.840.10045.3.1.7"
    /// 1.3.132.0.34 secp384r1 (P-384)
    public static let secp384r1: OID = "1.3.132.0.34"
    /// 1.3.132.0.35 secp521r1 (P-521)
    public static let secp521r1: OID = "1.3.132.0.35"
    /// 1.3.36.3.3.2.8.1.1.7 brainpoolP256r1 (RFC 5639 4.1)
    public static let brainpoolP256r1: OID = "1.3.36.3.3.2.8.1.1.7"
    /// 1.3.36.3.3.2.8.1.1.11 brainpoolP384r1 (RFC 5639 4.1)
    public static let brainpoolP384r1: OID = "1.3.36.3.3.2.8.1.1.11"
    /// 1.3.36.3.3.2.8.1.1.13 brainpoolP512r1 (RFC 5639 4.1)
    public static let brainpoolP512r1: OID = "1.3.36.3.3.2.8.1.1.13"

    // Signature algorithms (RFC 3279, RFC 4055, RFC 5758, RFC 8410)
    /// 1.2.840.113549.1.1.5 sha1WithRSAEncryption
    public static let sha1WithRSAEncryption: OID = "1.2.840.113549.1.1.5"
    /// 1.3.14.3.2.29 sha1WithRSASignature (the OIW alias)
    public static let sha1WithRSASignatureOIW: OID = "1.3.14.3.2.29"
    /// 1.2.840.113549.1.1.14 sha224WithRSAEncryption
    public static let sha224WithRSAEncryption: OID = "1.2.840.113549.1.1.14"
    /// 1.2.840.113549.1.1.11 sha256WithRSAEncryption
    public static let sha256WithRSAEncryption: OID = "1.2.840.113549.1.1.11"
    /// 1.2.840.113549.1.1.12 sha384WithRSAEncryption
    public static let sha384WithRSAEncryption: OID = "1.2.840.113549.1.1.12"
    /// 1.2.840.113549.1.1.13 sha512WithRSAEncryption
    public static let sha512WithRSAEncryption: OID = "1.2.840.113549.1.1.13"
    /// 1.2.840.113549.1.1.4 md5WithRSAEncryption
    public static let md5WithRSAEncryption: OID = "1.2.840.113549.1.1.4"
    /// 1.2.840.113549.1.1.2 md2WithRSAEncryption
    public static let md2WithRSAEncryption: OID = "1.2.840.113549.1.1.2"
    /// 1.2.840.10040.4.3 dsa-with-sha1
    public static let dsaWithSHA1: OID = "1.2.840.10040.4.3"
    /// 2.16.840.1.101.3.4.3.2 dsa-with-sha256
    public static let dsaWithSHA256: OID = "2.16.840.1.101.3.4.3.2"
    /// 1.2.840.10045.4.1 ecdsa-with-SHA1
    public static let ecdsaWithSHA1: OID = "1.2.840.10045.4.1"
    /// 1.2.840.10045.4.3.1 ecdsa-with-SHA224
    public static let ecdsaWithSHA224: OID = "1.2.840.10045.4.3.1"
    /// 1.2.840.10045.4.3.2 ecdsa-with-SHA256
    public static let ecdsaWithSHA256: OID = "1.2.840.10045.4.3.2"
    /// 1.2.840.10045.4.3.3 ecdsa-with-SHA384
    public static let ecdsaWithSHA384: OID = "1.2.840.10045.4.3.3"
    /// 1.2.840.10045.4.3.4 ecdsa-with-SHA512
    public static let ecdsaWithSHA512: OID = "1.2.840.10045.4.3.4"

    // Hash algorithms (RFC 4055 2.1, NIST)
    /// 1.3.14.3.2.26 id-sha1
    public static let sha1: OID = "1.3.14.3.2.26"
    /// 2.16.840.1.101.3.4.2.4 id-sha224
    public static let sha224: OID = "2.16.840.1.101.3.4.2.4"
    /// 2.16.840.1.101.3.4.2.1 id-sha256
    public static let sha256: OID = "2.16.840.1.101.3.4.2.1"
    /// 2.16.840.1.101.3.4.2.2 id-sha384
    public static let sha384: OID = "2.16.840.1.101.3.4.2.2"
    /// 2.16.840.1.101.3.4.2.3 id-sha512
    public static let sha512: OID = "2.16.840.1.101.3.4.2.3"

    // Name attributes (RFC 5280 4.1.2.4, appendix A; RFC 4519)
    /// 2.5.4.3 commonName
    public static let commonName: OID = "2.5.4.3"
    /// 2.5.4.6 countryName
    public static let countryName: OID = "2.5.4.6"
    /// 1.2.840.113549.1.9.1 emailAddress (PKCS #9; RFC 5280 4.1.2.6 legacy e-mail in DN)
    public static let emailAddress: OID = "1.2.840.113549.1.9.1"
    /// 0.9.2342.19200300.100.1.25 domainComponent
    public static let domainComponent: OID = "0.9.2342.19200300.100.1.25"

    // Other name forms (RFC 5280 4.2.1.6 otherName, id-on = 1.3.6.1.5.5.7.8)
    /// 1.3.6.1.5.5.7.8.9 id-on-SmtpUTF8Mailbox: an internationalized mailbox, a UTF8String (RFC 9598 3)
    public static let smtpUTF8Mailbox: OID = "1.3.6.1.5.5.7.8.9"

    // Access methods (RFC 5280 4.2.2.1)
    /// 1.3.6.1.5.5.7.48.1 id-ad-ocsp
    public static let ocsp: OID = "1.3.6.1.5.5.7.48.1"
    /// 1.3.6.1.5.5.7.48.2 id-ad-caIssuers
    public static let caIssuers: OID = "1.3.6.1.5.5.7.48.2"
}

/// The contents octets of an OID of at most 16 octets packed into two words: a trivially copyable
/// key for tables of known OIDs (comparing keys never touches reference-counted storage).
package struct ShortOIDKey: Hashable, Sendable {
    package let count: Int
    package let low: UInt64
    package let high: UInt64

    /// The key of `encoded`, or `nil` when it is longer than 16 octets.
    @inline(__always)
    package init?(_ encoded: UnsafeBufferPointer<UInt8>) {
        guard encoded.count <= 16, let start = encoded.baseAddress else {
            guard encoded.isEmpty else { return nil }
            self.count = 0
            self.low = 0
            self.high = 0
            return
        }
        var low: UInt64 = 0, high: UInt64 = 0
        var index = 0
        while index < encoded.count {
            let byte = UInt64(start[index])
            if index < 8 { low |= byte &<< UInt64(8 &* index) } else { high |= byte &<< UInt64(8 &* (index &- 8)) }
            index &+= 1
        }
        self.count = encoded.count
        self.low = low
        self.high = high
    }
}
