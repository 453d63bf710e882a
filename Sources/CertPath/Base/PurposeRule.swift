// The rules a purpose other than TLS sets on the end-entity certificate, each with the clause that
// states it (``ValidationFailure/purposeViolation(_:_:)``). The extKeyUsage chaining common to every
// purpose reports ``ValidationFailure/extendedKeyUsageForbids(_:required:present:)`` instead.

/// A rule of a non-TLS ``ValidationPurpose`` that the end-entity certificate breaks, with the clause
/// that states it and whom it binds (the relying party checks it; the CA should not issue such a
/// certificate).
public enum PurposeRule: Hashable, Sendable, CustomStringConvertible {
    /// A time-stamping authority's certificate has no extKeyUsage (RFC 3161 2.3: "The corresponding
    /// certificate MUST contain only one instance of the extended key usage field extension").
    case timeStampingExtendedKeyUsageMissing
    /// A time-stamping authority's extKeyUsage is not critical (RFC 3161 2.3: "This extension MUST
    /// be critical").
    case timeStampingExtendedKeyUsageNotCritical
    /// A time-stamping authority's extKeyUsage names other purposes besides id-kp-timeStamping
    /// (RFC 3161 2.3: "with KeyPurposeID having value id-kp-timeStamping"; the TSA key is used for
    /// nothing else). `present` lists the extension's purposes.
    case timeStampingExtendedKeyUsageNotSole(present: [OID])
    /// An S/MIME certificate's keyUsage allows none of the uses asked for (RFC 8550 4.4.2: a key
    /// that verifies signatures needs digitalSignature or nonRepudiation; one that encrypts keys
    /// needs keyEncipherment (RSA key transport) or keyAgreement (ECDH)). `allowed` is the set of
    /// which one bit would do, `present` the certificate's bits.
    case emailProtectionKeyUsage(allowed: KeyUsage, present: KeyUsage)
    /// A code-signing certificate's keyUsage lacks digitalSignature (RFC 5280 4.2.1.12: id-kp-codeSigning
    /// is consistent with digitalSignature).
    case codeSigningKeyUsage(present: KeyUsage)
    /// A time-stamping certificate's keyUsage has neither digitalSignature nor nonRepudiation
    /// (RFC 5280 4.2.1.12: id-kp-timeStamping is consistent with digitalSignature and/or
    /// nonRepudiation; RFC 3161 2.3: the TSA signs each time-stamp token).
    case timeStampingKeyUsage(present: KeyUsage)

    /// The clause that states the rule: `RFC 3161 2.3`, `RFC 8550 4.4.2`, `RFC 5280 4.2.1.12`.
    public var clause: String {
        switch self {
        case .timeStampingExtendedKeyUsageMissing, .timeStampingExtendedKeyUsageNotCritical, .timeStampingExtendedKeyUsageNotSole:
            return "RFC 3161 2.3"
        case .emailProtectionKeyUsage: return "RFC 8550 4.4.2"
        case .codeSigningKeyUsage, .timeStampingKeyUsage: return "RFC 5280 4.2.1.12"
        }
    }

    /// The case name, stable across releases (JSON output, test manifests).
    public var code: String {
        switch self {
        case .timeStampingExtendedKeyUsageMissing: return "timeStampingExtendedKeyUsageMissing"
        case .timeStampingExtendedKeyUsageNotCritical: return "timeStampingExtendedKeyUsageNotCritical"
        case .timeStampingExtendedKeyUsageNotSole: return "timeStampingExtendedKeyUsageNotSole"
        case .emailProtectionKeyUsage: return "emailProtectionKeyUsage"
        case .codeSigningKeyUsage: return "codeSigningKeyUsage"
        case .timeStampingKeyUsage: return "timeStampingKeyUsage"
        }
    }

    /// A sentence saying what is wrong, ending with the clause in parentheses.
    public var description: String {
        func bits(_ usage: KeyUsage) -> String { usage.isEmpty ? "no bit set" : usage.description }
        let text: String
        switch self {
        case .timeStampingExtendedKeyUsageMissing:
            text = "a time-stamping authority's certificate must carry extKeyUsage id-kp-timeStamping, and it has no extKeyUsage"
        case .timeStampingExtendedKeyUsageNotCritical:
            text = "a time-stamping authority's extKeyUsage must be critical, and it is not"
        case .timeStampingExtendedKeyUsageNotSole(let present):
            let names = present.map(ExtendedKeyUsage.name).joined(separator: ", ")
            text = "a time-stamping authority's extKeyUsage must name id-kp-timeStamping only, and it names \(names)"
        case .emailProtectionKeyUsage(let allowed, let present):
            text = "the keyUsage (\(bits(present))) allows no S/MIME use of the key: one of \(allowed) is needed"
        case .codeSigningKeyUsage(let present):
            text = "the keyUsage (\(bits(present))) of a code-signing certificate must allow digitalSignature"
        case .timeStampingKeyUsage(let present):
            text = "the keyUsage (\(bits(present))) of a time-stamping certificate must allow digitalSignature or contentCommitment (nonRepudiation)"
        }
        return "\(text) (\(clause))"
    }
}

/// What an S/MIME certificate's key is checked for (``ValidationPurpose/emailProtection(mailbox:use:)``;
/// RFC 8550 4.4.2).
public enum EmailProtectionUse: String, Hashable, Sendable, CaseIterable {
    /// Verifying a signed message: keyUsage, when present, must allow digitalSignature or
    /// nonRepudiation (contentCommitment).
    case signing
    /// Encrypting a message to the certificate's owner: keyUsage, when present, must allow
    /// keyEncipherment (RSA key transport) or keyAgreement (ECDH, RFC 5753).
    case encryption
    /// Either use: keyUsage, when present, must allow one of the four bits above.
    case any

    /// The keyUsage bits of which one suffices.
    var allowedKeyUsage: KeyUsage {
        switch self {
        case .signing: return [.digitalSignature, .contentCommitment]
        case .encryption: return [.keyEncipherment, .keyAgreement]
        case .any: return [.digitalSignature, .contentCommitment, .keyEncipherment, .keyAgreement]
        }
    }
}
