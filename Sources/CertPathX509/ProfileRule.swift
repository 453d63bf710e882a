// The identifiers of the rules table (RFC 5280 section 4, the CA/Browser Forum Baseline
// Requirements): declared here, in the lowest layer that records them, so that the parser records
// its findings as rows of the table (``Certificate/findings``). The table's columns (clause,
// whom the MUST binds, per-profile treatment, positions) are CertPath's, Base/ProfileRule.swift.

/// A rule of a certificate profile that a certificate breaks: the RFC 5280 section 4 requirements
/// on conforming CAs that a relying party can check, the CA/Browser Forum Baseline Requirements of
/// the Web PKI profile, and the few processing rules every profile applies. ``clause`` names the
/// source, ``applies(in:at:)`` the table's profile and position columns.
public enum ProfileRule: UInt8, Hashable, Sendable, CaseIterable {
    // Found while parsing: the certificate is read, the rule is recorded (``Certificate``).
    /// RFC 5280 4.1.1.2: signatureAlgorithm MUST be the same algorithm identifier as tbsCertificate.signature.
    case signatureAlgorithmMismatch
    /// RFC 5280 4.1.2.8: unique identifiers appear only in version 2 or 3 certificates.
    case uniqueIdentifierInVersion1
    /// RFC 5280 4.1.2.9: extensions appear only in version 3 certificates.
    case extensionsBeforeVersion3
    /// RFC 5280 4.2: a certificate MUST NOT include more than one instance of an extension.
    case duplicateExtension
    /// RFC 5280 4.2.1.9: pathLenConstraint MUST NOT be present unless cA is asserted.
    case pathLengthConstraintWithoutCA
    /// RFC 5280 4.2.1.3: when keyUsage appears, at least one bit MUST be set.
    case keyUsageWithoutBits
    /// RFC 5280 4.2.1.3: keyUsage names bits 0 (digitalSignature) to 8 (decipherOnly) only.
    case keyUsageUndefinedBits
    /// RFC 5280 4.2.1.4: a policy OID MUST NOT appear more than once in certificatePolicies.
    case duplicatePolicyIdentifier
    /// RFC 5280 4.2.1.11: policyConstraints MUST NOT be an empty sequence.
    case emptyPolicyConstraints
    /// RFC 5280 4.2.1.10: nameConstraints MUST NOT be an empty sequence.
    case emptyNameConstraints
    /// RFC 5280 4.2.1.1 (ASN.1 module): authorityCertIssuer and authorityCertSerialNumber MUST both
    /// be present or both be absent.
    case authorityKeyIdentifierIssuerWithoutSerial

    // Found by validation.
    /// RFC 5280 4.1.2.4: the issuer field MUST contain a non-empty name.
    case emptyIssuer
    /// RFC 5280 4.1.2.6: a CA's subject MUST be non-empty; an end entity with an empty subject MUST
    /// have a critical subjectAltName.
    case emptySubject
    /// RFC 5280 4.2.1.9: CA certificates MUST mark basicConstraints critical.
    case basicConstraintsNotCritical
    /// RFC 5280 4.2.1.9: CA certificates MUST include basicConstraints (checked on trust anchors:
    /// an intermediate without it is not a CA, RFC 5280 6.1.4 (k)).
    case missingBasicConstraints
    /// RFC 5280 4.2.1.9: keyCertSign MUST NOT be asserted when cA is not.
    case keyCertSignWithoutCA
    /// RFC 5280 4.2.1.3: a certificate whose key verifies certificates or CRLs MUST include keyUsage.
    case missingKeyUsage
    /// RFC 5280 4.2.1.1: authorityKeyIdentifier MUST be present except in self-signed certificates.
    case missingAuthorityKeyIdentifier
    /// RFC 5280 4.2.1.1: authorityKeyIdentifier MUST include keyIdentifier.
    case authorityKeyIdentifierWithoutKeyIdentifier
    /// RFC 5280 4.2.1.1: authorityKeyIdentifier MUST be non-critical.
    case authorityKeyIdentifierCritical
    /// RFC 5280 4.2.1.2: CA certificates MUST include subjectKeyIdentifier.
    case missingSubjectKeyIdentifier
    /// RFC 5280 4.2.1.2: subjectKeyIdentifier MUST be non-critical.
    case subjectKeyIdentifierCritical
    /// RFC 5280 4.2.2.1: authorityInfoAccess MUST be non-critical.
    case authorityInformationAccessCritical
    /// RFC 5280 4.2.1.10: nameConstraints MUST be used only in CA certificates.
    case nameConstraintsInEndEntity
    /// RFC 5280 4.2.1.10: nameConstraints MUST be critical (RFC 5280 profile; the Web PKI tolerates it).
    case nameConstraintsNotCritical
    /// RFC 5280 4.2.1.10: every subtree of nameConstraints is a well-formed name of its form (a
    /// dNSName without a leading period, a contiguous iPAddress mask, minimum 0, no maximum…).
    case malformedNameConstraints
    /// RFC 5280 4.2.1.11: policyConstraints MUST be critical.
    case policyConstraintsNotCritical
    /// RFC 5280 4.2.1.14: inhibitAnyPolicy MUST be critical.
    case inhibitAnyPolicyNotCritical
    /// RFC 5280 4.2.1.4: a critical certificatePolicies whose qualifiers the validator cannot
    /// interpret (any but id-qt-cps and id-qt-unotice) MUST be rejected.
    case uninterpretedPolicyQualifier
    /// RFC 5280 4.2.1.5 and 6.1.4 (a): anyPolicy appears as an issuerDomainPolicy or a
    /// subjectDomainPolicy of policyMappings (policies MUST NOT be mapped to or from anyPolicy; the
    /// relying party verifies it, 6.1.4 (a)).
    case policyMappingWithAnyPolicy
    /// RFC 5280 4.2.1.6: a dNSName MUST be in the preferred name syntax (letters, digits, hyphens).
    case invalidDNSNameInSubjectAltName
    /// RFC 5280 4.2.1.6: an rfc822Name MUST be a Mailbox (RFC 5321 4.1.2).
    case invalidRFC822NameInSubjectAltName
    /// RFC 5280 4.2.1.6: a uniformResourceIdentifier MUST be an absolute URI with a scheme (RFC 3986).
    case invalidURIInSubjectAltName
    /// RFC 9598 3: an SmtpUTF8Mailbox otherName MUST be a UTF8String RFC 6531 Mailbox whose
    /// Local-part has a non-ASCII character and whose domain is in A-labels.
    case invalidSmtpUTF8MailboxInSubjectAltName
    /// RFC 5280 4.1.2.2 / CA/B BR 7.1.2.7: the serial number MUST be positive and at most 20 octets
    /// (end entities and intermediates: long-lived roots with serial 0 are in real trust stores).
    case invalidSerialNumber
    /// RFC 5280 4.1.2.5: validity dates through 2049 MUST be UTCTime.
    case generalizedTimeBefore2050
    /// CA/B BR 7.1.2.7.12: subjectAltName MUST NOT be critical when the subject is non-empty.
    case subjectAltNameCriticalWithSubject
    /// CA/B BR 7.1.2: certificates MUST be version 3.
    case notVersion3
    /// CA/B BR 7.1.2.7.8: a subscriber certificate MUST NOT be a CA (cA TRUE in the end-entity position).
    case certificateAuthorityAsEndEntity
    /// CA/B BR 7.1.2.1.3: a root's authorityKeyIdentifier, when present, MUST hold only a keyIdentifier
    /// equal to its subjectKeyIdentifier.
    case invalidRootAuthorityKeyIdentifier
    /// CA/B BR 7.1.2 (7.1.2.1.1 and the subordinate and subscriber profiles): issuerUniqueID and
    /// subjectUniqueID MUST NOT be present.
    case uniqueIdentifierPresent
    /// CA/B BR 7.1.4.3: a TLS server certificate's commonName, if present, MUST be one of its subjectAltName values.
    case commonNameNotInSubjectAltName

    // Strict extended key usage (``ExtendedKeyUsageReading/strict``: CA/B BR 7.1.2.7.10,
    // 7.1.2.1.2, and Chromium's `*_STRICT` key purposes).
    /// The end entity has no extKeyUsage (BR 7.1.2.7.10: MUST be present), or, for clientAuth, the
    /// intermediate that issued it has none (Chromium's `CLIENT_AUTH_STRICT`).
    case extendedKeyUsageMissing
    /// extKeyUsage lists anyExtendedKeyUsage (BR 7.1.2.7.10: MUST NOT), or it is the only way a CA
    /// directly above the end entity allows the purpose (Chromium strict).
    case extendedKeyUsageAnyPurpose
    /// The end entity's extKeyUsage also lists a purpose the BR forbid beside TLS (codeSigning,
    /// emailProtection, timeStamping, OCSPSigning, precertificate signing: BR 7.1.2.7.10).
    case extendedKeyUsageIncompatiblePurpose
    /// The end entity's extKeyUsage is critical (BR 7.1.2.7.6: MUST NOT be).
    case extendedKeyUsageCritical
    /// A root carries extKeyUsage (BR 7.1.2.1.2: MUST NOT).
    case extendedKeyUsageInRoot


    /// This rule's bit in the rule words (``Certificate``'s findings and the table's masks): one bit
    /// per rule, in declaration order (fewer than 64 rules).
    @inline(__always)
    package var bit: UInt64 { 1 &<< UInt64(rawValue) }

    /// The rule's name, the case name (`basicConstraintsNotCritical`): stable across releases.
    public var name: String { String(describing: self) }
}
