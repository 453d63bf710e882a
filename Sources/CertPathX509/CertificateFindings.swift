/// A departure from a prose rule of RFC 5280 that parsing notices but does not refuse: the
/// certificate is DER and has the ASN.1 structure of RFC 5280 4.1, so it is read (and `certpath
/// show` can display it), and path validation decides what the rule means for a path (each finding
/// is the row of the same name of ``ProfileRule``, with the profiles that enforce it).
public enum CertificateFinding: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// RFC 5280 4.1.1.2: signatureAlgorithm differs from tbsCertificate.signature.
    case signatureAlgorithmMismatch = 0
    /// RFC 5280 4.1.2.8: a version 1 certificate carries issuerUniqueID or subjectUniqueID.
    case uniqueIdentifierInVersion1
    /// RFC 5280 4.1.2.9: a version 1 or 2 certificate carries extensions.
    case extensionsBeforeVersion3
    /// RFC 5280 4.2: an extension appears more than once (the first one is the one read).
    case duplicateExtension
    /// RFC 5280 4.2.1.9: basicConstraints has pathLenConstraint without cA (the length is ignored).
    case pathLengthConstraintWithoutCA
    /// RFC 5280 4.2.1.3: keyUsage sets no bit.
    case keyUsageWithoutBits
    /// RFC 5280 4.2.1.3: keyUsage sets a bit beyond decipherOnly (8); such bits are ignored.
    case keyUsageUndefinedBits
    /// RFC 5280 4.2.1.4: a policy OID appears more than once in certificatePolicies.
    case duplicatePolicyIdentifier
    /// RFC 5280 4.2.1.11: policyConstraints is an empty sequence.
    case emptyPolicyConstraints
    /// RFC 5280 4.2.1.10: nameConstraints has neither permittedSubtrees nor excludedSubtrees.
    case emptyNameConstraints
    /// RFC 5280 4.2.1.1: authorityKeyIdentifier has only one of authorityCertIssuer and
    /// authorityCertSerialNumber.
    case authorityKeyIdentifierIssuerWithoutSerial
    /// RFC 5280 4.2.1.4: certificatePolicies has a policy qualifier other than id-qt-cps (an IA5String)
    /// and id-qt-unotice (a UserNotice): CertPath does not interpret it (a reason to refuse only when
    /// the extension is critical).
    case uninterpretedPolicyQualifier

    package var bit: UInt16 { 1 &<< UInt16(rawValue) }

    /// The case name (`duplicateExtension`), which is also the name of its ``ProfileRule`` row.
    public var name: String {
        switch self {
        case .signatureAlgorithmMismatch: return "signatureAlgorithmMismatch"
        case .uniqueIdentifierInVersion1: return "uniqueIdentifierInVersion1"
        case .extensionsBeforeVersion3: return "extensionsBeforeVersion3"
        case .duplicateExtension: return "duplicateExtension"
        case .pathLengthConstraintWithoutCA: return "pathLengthConstraintWithoutCA"
        case .keyUsageWithoutBits: return "keyUsageWithoutBits"
        case .keyUsageUndefinedBits: return "keyUsageUndefinedBits"
        case .duplicatePolicyIdentifier: return "duplicatePolicyIdentifier"
        case .emptyPolicyConstraints: return "emptyPolicyConstraints"
        case .emptyNameConstraints: return "emptyNameConstraints"
        case .authorityKeyIdentifierIssuerWithoutSerial: return "authorityKeyIdentifierIssuerWithoutSerial"
        case .uninterpretedPolicyQualifier: return "uninterpretedPolicyQualifier"
        }
    }

    /// The finding in words, with its clause.
    public var description: String {
        switch self {
        case .signatureAlgorithmMismatch: return "signatureAlgorithm differs from tbsCertificate.signature (RFC 5280 4.1.1.2)"
        case .uniqueIdentifierInVersion1: return "a version 1 certificate carries a unique identifier (RFC 5280 4.1.2.8)"
        case .extensionsBeforeVersion3: return "a version 1 or 2 certificate carries extensions (RFC 5280 4.1.2.9)"
        case .duplicateExtension: return "an extension appears more than once; the first is used (RFC 5280 4.2)"
        case .pathLengthConstraintWithoutCA: return "pathLenConstraint without cA (RFC 5280 4.2.1.9)"
        case .keyUsageWithoutBits: return "keyUsage sets no bit (RFC 5280 4.2.1.3)"
        case .keyUsageUndefinedBits: return "keyUsage sets a bit beyond decipherOnly (RFC 5280 4.2.1.3)"
        case .duplicatePolicyIdentifier: return "a policy OID appears twice in certificatePolicies (RFC 5280 4.2.1.4)"
        case .emptyPolicyConstraints: return "policyConstraints is empty (RFC 5280 4.2.1.11)"
        case .emptyNameConstraints: return "nameConstraints has no subtrees (RFC 5280 4.2.1.10)"
        case .authorityKeyIdentifierIssuerWithoutSerial:
            return "authorityKeyIdentifier has only one of authorityCertIssuer and authorityCertSerialNumber (RFC 5280 4.2.1.1)"
        case .uninterpretedPolicyQualifier: return "certificatePolicies has a policy qualifier CertPath does not interpret (RFC 5280 4.2.1.4)"
        }
    }
}

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
    /// still be the same bytes (RFC 5280 4.1.1.2, ``CertificateFinding/signatureAlgorithmMismatch``).
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

/// What parsing found besides the fields: ``CertificateFinding`` and ``EncodingLeniency`` bits.
package struct ParseFindings: Sendable {
    package var findings: UInt16 = 0
    package var leniencies: UInt8 = 0

    package mutating func insert(_ finding: CertificateFinding) { findings |= finding.bit }
    package mutating func insert(_ leniency: EncodingLeniency) { leniencies |= leniency.bit }
    package func contains(_ finding: CertificateFinding) -> Bool { findings & finding.bit != 0 }
}
