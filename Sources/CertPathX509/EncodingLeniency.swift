/// An encoding that breaks DER but that CertPath reads anyway, because certificates that real trust
/// stores carry and every major validator accepts use it. The list is closed: nothing else is
/// tolerated. `certpath show` prints each as a warning; validation is unaffected (the value read is
/// the one the encoding unambiguously means).
public enum EncodingLeniency: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A keyUsage named bit list with trailing zero bits (X.690 11.2.2 requires them removed).
    /// Example: the Trustwave ECC roots of the Debian ca-certificates bundle ("Trustwave Global ECC
    /// P256 Certification Authority", "… P384 …"), encoded `03 02 01 06` style with a padded last byte.
    case keyUsageTrailingZeroBits = 0
    /// basicConstraints with `cA FALSE` encoded, a DEFAULT value DER omits (X.690 11.5). Chromium
    /// reads it (BoringSSL `pki/parse_certificate.cc` `ParseBasicConstraints`: "there are a lot of
    /// certificates that use the broken encoding"); end-entity certificates of several public
    /// CAs carry it (example: cryptography-vectors `x509/custom/bc_not_critical_ca_false.pem`-style
    /// leaf certificates).
    case explicitCAFalse
    /// An ECDSA signature AlgorithmIdentifier (ecdsa-with-SHA1/224/256/384/512) with NULL parameters,
    /// which RFC 5758 3.2 says MUST be absent. Java 11 (up to at least 11.0.19, `keytool`) and older
    /// Mbed TLS write it; OpenSSL, Go and pyca/cryptography read it, Chromium and rustls-webpki
    /// refuse it. NULL carries nothing: the algorithm read is the same. Both signature fields must
    /// still be the same bytes (RFC 5280 4.1.1.2, ``ProfileRule/signatureAlgorithmMismatch``).
    case ecdsaSignatureNullParameters

    package var bit: UInt8 { 1 &<< rawValue }

    /// The case name (`keyUsageTrailingZeroBits`).
    public var name: String {
        switch self {
        case .keyUsageTrailingZeroBits: return "keyUsageTrailingZeroBits"
        case .explicitCAFalse: return "explicitCAFalse"
        case .ecdsaSignatureNullParameters: return "ecdsaSignatureNullParameters"
        }
    }

    /// The leniency in words, with the DER rule it relaxes.
    public var description: String {
        switch self {
        case .keyUsageTrailingZeroBits:
            return "keyUsage is a named bit list with trailing zero bits (DER, X.690 11.2.2, removes them); read as the bits set"
        case .explicitCAFalse:
            return "basicConstraints encodes cA FALSE, a DEFAULT value DER omits (X.690 11.5); read as not a CA"
        case .ecdsaSignatureNullParameters:
            return "the ECDSA signature algorithm has NULL parameters, which RFC 5758 3.2 says MUST be absent; read as without parameters"
        }
    }
}

/// What parsing found besides the fields: the rows of the rules table (``ProfileRule``) as rule
/// bits, and the ``EncodingLeniency`` bits.
package struct ParseFindings: Sendable {
    /// The rows the reader recorded as it read (a prose rule the encoding shows broken), as rule
    /// bits: ``Certificate/findings``.
    package var recorded: UInt64 = 0
    /// Every row the certificate breaks wherever it stands, as rule bits: ``recorded`` and the
    /// rows ``CertificateRuleChecks`` decides, computed once at the end of parsing (stored, read by
    /// validation on every path attempt without scanning anything again).
    package var rules: UInt64 = 0
    package var leniencies: UInt8 = 0

    package mutating func insert(_ rule: ProfileRule) { recorded |= rule.bit }
    package mutating func insert(_ leniency: EncodingLeniency) { leniencies |= leniency.bit }
    package func contains(_ rule: ProfileRule) -> Bool { recorded & rule.bit != 0 }
}
