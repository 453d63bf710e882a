// The certificate rules of RFC 5280 section 4 and of the CA/Browser Forum Baseline Requirements
// that path validation enforces, as one table: each ``ProfileRule`` is a row naming its clause,
// what it is about, whether parsing or validation finds it, and under which profile and at which
// position of a path it applies. docs/RULES.md is the same table for readers (a test keeps the two
// equal), and every row has a test that feeds a certificate breaking exactly that rule.
//
// Parsing refuses only what is not DER or not the ASN.1 structure (a certificate that cannot be
// read). A rule stated in prose ("MUST be critical", "at least one bit MUST be set", "MUST NOT
// appear more than once") is a row here: the certificate parses, `show` can display it, and
// validation refuses it with ``ValidationFailure/profileViolation(_:_:)`` naming the row.

/// Where a certificate sits in a certification path.
public enum CertificatePosition: String, Hashable, Sendable, CaseIterable {
    /// The end entity (target) certificate.
    case endEntity
    /// A certificate between the trust anchor and the end entity.
    case intermediate
    /// The trust anchor's own certificate, checked only when ``AnchorEnforcement/profile`` is on.
    case anchor

    var isIssuer: Bool { self != .endEntity }
}

/// Whom the MUST of a ``ProfileRule`` addresses (docs/RULES.md, column "binds").
public enum RuleAddressee: String, Hashable, Sendable, CaseIterable {
    /// The relying party: RFC 5280 section 6, or section 4's "MUST reject" / "MUST process". Fails
    /// under every profile.
    case relyingParty = "relying party"
    /// The issuing CA ("conforming CAs MUST", RFC 5280 section 4): a finding under
    /// ``CertificateProfile/interoperable`` and ``CertificateProfile/pathValidation``, a failure
    /// under ``CertificateProfile/rfc5280`` and ``CertificateProfile/webPKI``.
    case certificationAuthority = "CA"
    /// The issuing CA, but a certificate breaking it cannot be read with one meaning (major parsers
    /// refuse it): a failure under every profile (``CertificateProfile/pathValidation``, RFC 5280
    /// section 6 alone, reports some of them as findings: docs/RULES.md).
    case certificationAuthorityUnreadable = "CA (no one meaning)"
    /// A public CA (CA/Browser Forum Baseline Requirements): applied under ``CertificateProfile/webPKI`` only.
    case publicCertificationAuthority = "public CA"
    /// The caller's policy (``ExtendedKeyUsageReading/strict``).
    case policy = "policy"
}

/// A rule of the rules table a certificate of a path breaks and that the path's profile reports
/// without failing the path (``ProfileRule/isReportedAsFinding(in:at:)``): under the interoperable
/// default, RFC 5280 section 4's requirements on conforming CAs.
public struct ProfileFinding: Hashable, Sendable, CustomStringConvertible {
    /// The certificate that breaks the rule.
    public let certificate: Certificate
    /// Where it stands in the path.
    public let position: CertificatePosition
    /// The rule.
    public let rule: ProfileRule

    /// Creates a finding.
    public init(certificate: Certificate, position: CertificatePosition, rule: ProfileRule) {
        self.certificate = certificate
        self.position = position
        self.rule = rule
    }

    /// `rule: explanation`, e.g. `basicConstraintsNotCritical: a CA certificate's basicConstraints is not critical (RFC 5280 4.2.1.9)`.
    public var description: String { "\(rule.name): \(rule.explanation)" }

}

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

    /// The rule in words, with its clause.
    public var explanation: String {
        switch self {
        case .signatureAlgorithmMismatch: return "signatureAlgorithm differs from tbsCertificate.signature (RFC 5280 4.1.1.2)"
        case .uniqueIdentifierInVersion1: return "a version 1 certificate carries a unique identifier (RFC 5280 4.1.2.8)"
        case .extensionsBeforeVersion3: return "a version 1 or 2 certificate carries extensions (RFC 5280 4.1.2.9)"
        case .duplicateExtension: return "an extension appears more than once (RFC 5280 4.2)"
        case .pathLengthConstraintWithoutCA: return "basicConstraints has a pathLenConstraint but does not assert cA (RFC 5280 4.2.1.9)"
        case .keyUsageWithoutBits: return "the keyUsage extension sets no bit (RFC 5280 4.2.1.3)"
        case .keyUsageUndefinedBits: return "the keyUsage extension sets a bit beyond decipherOnly (RFC 5280 4.2.1.3)"
        case .duplicatePolicyIdentifier: return "a policy OID appears more than once in certificatePolicies (RFC 5280 4.2.1.4)"
        case .emptyPolicyConstraints: return "policyConstraints is an empty sequence (RFC 5280 4.2.1.11)"
        case .emptyNameConstraints: return "nameConstraints has neither permitted nor excluded subtrees (RFC 5280 4.2.1.10)"
        case .authorityKeyIdentifierIssuerWithoutSerial:
            return "authorityKeyIdentifier has only one of authorityCertIssuer and authorityCertSerialNumber (RFC 5280 4.2.1.1)"
        case .emptyIssuer: return "the issuer name is empty (RFC 5280 4.1.2.4)"
        case .emptySubject: return "the subject name is empty without a critical subjectAltName, or empty in a CA (RFC 5280 4.1.2.6)"
        case .basicConstraintsNotCritical: return "a CA certificate's basicConstraints is not critical (RFC 5280 4.2.1.9)"
        case .missingBasicConstraints: return "a CA certificate lacks basicConstraints (RFC 5280 4.2.1.9)"
        case .keyCertSignWithoutCA: return "keyUsage asserts keyCertSign but basicConstraints does not assert cA (RFC 5280 4.2.1.9)"
        case .missingKeyUsage: return "a CA certificate lacks the keyUsage extension (RFC 5280 4.2.1.3)"
        case .missingAuthorityKeyIdentifier: return "the authorityKeyIdentifier extension is missing (RFC 5280 4.2.1.1)"
        case .authorityKeyIdentifierWithoutKeyIdentifier: return "authorityKeyIdentifier has no keyIdentifier (RFC 5280 4.2.1.1)"
        case .authorityKeyIdentifierCritical: return "the authorityKeyIdentifier extension is critical (RFC 5280 4.2.1.1)"
        case .missingSubjectKeyIdentifier: return "a CA certificate lacks subjectKeyIdentifier (RFC 5280 4.2.1.2)"
        case .subjectKeyIdentifierCritical: return "the subjectKeyIdentifier extension is critical (RFC 5280 4.2.1.2)"
        case .authorityInformationAccessCritical: return "the authorityInfoAccess extension is critical (RFC 5280 4.2.2.1)"
        case .nameConstraintsInEndEntity: return "a certificate that is not a CA carries nameConstraints (RFC 5280 4.2.1.10)"
        case .nameConstraintsNotCritical: return "nameConstraints is not critical (RFC 5280 4.2.1.10)"
        case .malformedNameConstraints: return "a nameConstraints subtree is not a well-formed name of its form (RFC 5280 4.2.1.10)"
        case .policyConstraintsNotCritical: return "policyConstraints is not critical (RFC 5280 4.2.1.11)"
        case .inhibitAnyPolicyNotCritical: return "inhibitAnyPolicy is not critical (RFC 5280 4.2.1.14)"
        case .uninterpretedPolicyQualifier:
            return "a critical certificatePolicies has a policy qualifier CertPath cannot interpret (RFC 5280 4.2.1.4: it MUST then be rejected)"
        case .policyMappingWithAnyPolicy: return "policyMappings maps a policy to or from anyPolicy (RFC 5280 4.2.1.5, 6.1.4 (a))"
        case .invalidDNSNameInSubjectAltName: return "a subjectAltName dNSName is not in preferred name syntax (RFC 5280 4.2.1.6)"
        case .invalidRFC822NameInSubjectAltName: return "a subjectAltName rfc822Name is not a mailbox (RFC 5280 4.2.1.6)"
        case .invalidURIInSubjectAltName: return "a subjectAltName uniformResourceIdentifier is not an absolute URI (RFC 5280 4.2.1.6)"
        case .invalidSmtpUTF8MailboxInSubjectAltName:
            return "a subjectAltName SmtpUTF8Mailbox is not a UTF8String mailbox with a non-ASCII Local-part and an A-label domain (RFC 9598 3)"
        case .invalidSerialNumber: return "the serial number is zero, negative or longer than 20 octets (RFC 5280 4.1.2.2)"
        case .generalizedTimeBefore2050: return "a validity date before 2050 is encoded as GeneralizedTime (RFC 5280 4.1.2.5)"
        case .subjectAltNameCriticalWithSubject: return "subjectAltName is critical although the subject is not empty (CA/B BR 7.1.2.7.12)"
        case .notVersion3: return "the certificate is not version 3 (CA/B BR 7.1.2)"
        case .certificateAuthorityAsEndEntity: return "a CA certificate is used as the end entity (CA/B BR 7.1.2.7.8)"
        case .invalidRootAuthorityKeyIdentifier: return "a root's authorityKeyIdentifier is not just its own key identifier (CA/B BR 7.1.2.1.3)"
        case .uniqueIdentifierPresent: return "the certificate carries issuerUniqueID or subjectUniqueID (CA/B BR 7.1.2)"
        case .commonNameNotInSubjectAltName: return "the subject commonName is not one of the subjectAltName values (CA/B BR 7.1.4.3)"
        case .extendedKeyUsageMissing:
            return "extKeyUsage is missing where the strict reading requires it (the end entity, or the CA that issued a client certificate; CA/B BR 7.1.2.7.10)"
        case .extendedKeyUsageAnyPurpose:
            return "extKeyUsage relies on anyExtendedKeyUsage, which the strict reading does not accept (CA/B BR 7.1.2.7.10)"
        case .extendedKeyUsageIncompatiblePurpose:
            return "extKeyUsage lists a purpose not permitted beside TLS authentication (CA/B BR 7.1.2.7.10)"
        case .extendedKeyUsageCritical: return "the end-entity certificate's extKeyUsage is critical (CA/B BR 7.1.2.7.6)"
        case .extendedKeyUsageInRoot: return "a root certificate carries extKeyUsage (CA/B BR 7.1.2.1.2)"
        }
    }

    /// The rule's name, the case name (`basicConstraintsNotCritical`): stable across releases.
    public var name: String { String(describing: self) }

    /// The clause the rule comes from (`RFC 5280 4.2.1.9`, `CA/B BR 7.1.4.3`).
    public var clause: String {
        switch self {
        case .signatureAlgorithmMismatch: return "RFC 5280 4.1.1.2"
        case .uniqueIdentifierInVersion1: return "RFC 5280 4.1.2.8"
        case .extensionsBeforeVersion3: return "RFC 5280 4.1.2.9"
        case .duplicateExtension: return "RFC 5280 4.2"
        case .pathLengthConstraintWithoutCA, .basicConstraintsNotCritical, .missingBasicConstraints, .keyCertSignWithoutCA:
            return "RFC 5280 4.2.1.9"
        case .keyUsageWithoutBits, .keyUsageUndefinedBits, .missingKeyUsage: return "RFC 5280 4.2.1.3"
        case .duplicatePolicyIdentifier, .uninterpretedPolicyQualifier: return "RFC 5280 4.2.1.4"
        case .emptyPolicyConstraints, .policyConstraintsNotCritical: return "RFC 5280 4.2.1.11"
        case .emptyNameConstraints, .nameConstraintsInEndEntity, .nameConstraintsNotCritical, .malformedNameConstraints:
            return "RFC 5280 4.2.1.10"
        case .authorityKeyIdentifierIssuerWithoutSerial, .missingAuthorityKeyIdentifier, .authorityKeyIdentifierWithoutKeyIdentifier,
             .authorityKeyIdentifierCritical:
            return "RFC 5280 4.2.1.1"
        case .emptyIssuer: return "RFC 5280 4.1.2.4"
        case .emptySubject: return "RFC 5280 4.1.2.6"
        case .missingSubjectKeyIdentifier, .subjectKeyIdentifierCritical: return "RFC 5280 4.2.1.2"
        case .authorityInformationAccessCritical: return "RFC 5280 4.2.2.1"
        case .inhibitAnyPolicyNotCritical: return "RFC 5280 4.2.1.14"
        case .policyMappingWithAnyPolicy: return "RFC 5280 4.2.1.5, 6.1.4 (a)"
        case .invalidDNSNameInSubjectAltName, .invalidRFC822NameInSubjectAltName, .invalidURIInSubjectAltName: return "RFC 5280 4.2.1.6"
        case .invalidSmtpUTF8MailboxInSubjectAltName: return "RFC 9598 3"
        case .invalidSerialNumber: return "RFC 5280 4.1.2.2"
        case .generalizedTimeBefore2050: return "RFC 5280 4.1.2.5"
        case .subjectAltNameCriticalWithSubject: return "CA/B BR 7.1.2.7.12"
        case .notVersion3, .uniqueIdentifierPresent: return "CA/B BR 7.1.2"
        case .certificateAuthorityAsEndEntity: return "CA/B BR 7.1.2.7.8"
        case .invalidRootAuthorityKeyIdentifier: return "CA/B BR 7.1.2.1.3"
        case .commonNameNotInSubjectAltName: return "CA/B BR 7.1.4.3"
        case .extendedKeyUsageMissing, .extendedKeyUsageAnyPurpose, .extendedKeyUsageIncompatiblePurpose: return "CA/B BR 7.1.2.7.10"
        case .extendedKeyUsageCritical: return "CA/B BR 7.1.2.7.6"
        case .extendedKeyUsageInRoot: return "CA/B BR 7.1.2.1.2"
        }
    }

    /// Whether parsing records this rule (the certificate's encoding shows it) rather than validation
    /// finding it.
    public var isFoundWhileParsing: Bool { Self.parseFound & bit != 0 }

    /// Which of the three profiles apply the rule (`automatic` never appears: it resolves to one of
    /// them per path). Strict-EKU rows apply under any profile when the policy asks for them.
    public var profiles: Set<CertificateProfile> {
        var set = Set<CertificateProfile>()
        for profile in CertificateProfile.allCases where profile != .automatic && Self.mask(profile) & bit != 0 { set.insert(profile) }
        return set
    }

    /// Whom the rule's MUST addresses: what decides whether the interoperable default fails a path
    /// for it or reports it as a ``ProfileFinding``.
    public var addressee: RuleAddressee {
        if Self.strictExtendedKeyUsageRules & bit != 0 { return .policy }
        if Self.baselineRequirements & bit != 0 { return .publicCertificationAuthority }
        if Self.relyingPartyRules & bit != 0 { return .relyingParty }
        if Self.unreadableRules & bit != 0 { return .certificationAuthorityUnreadable }
        return .certificationAuthority
    }

    /// Whether a path under `profile` (resolved) reports the rule at `position` as a
    /// ``ProfileFinding`` instead of failing: an RFC 5280 section 4 row the strict ``CertificateProfile/rfc5280``
    /// reading applies there and `profile` does not.
    public func isReportedAsFinding(in profile: CertificateProfile, at position: CertificatePosition) -> Bool {
        Self.findingMask(profile, position) & bit != 0
    }

    /// Whether the rule applies to a certificate at `position` under `profile` (resolved: not
    /// `automatic`). The strict extended key usage rows are decided by the policy, not the profile:
    /// `false` here.
    public func applies(in profile: CertificateProfile, at position: CertificatePosition) -> Bool {
        Self.mask(profile) & Self.mask(position, profile) & bit != 0
    }

    /// The positions at which the rule applies under `profile` (resolved).
    public func positions(in profile: CertificateProfile) -> [CertificatePosition] {
        CertificatePosition.allCases.filter { applies(in: profile, at: $0) }
    }

    // MARK: The table's columns as bit masks (one bit per rule, in declaration order)

    /// This rule's bit in the masks below and in ``Certificate``'s recorded findings (the raw value,
    /// the declaration order, is below 63: the memo's top bit marks it known).
    @inline(__always)
    var bit: UInt64 { 1 &<< UInt64(rawValue) }

    static func bits(_ rules: [ProfileRule]) -> UInt64 { rules.reduce(0) { $0 | $1.bit } }

    /// Rules parsing records.
    static let parseFound = bits([
        .signatureAlgorithmMismatch, .uniqueIdentifierInVersion1, .extensionsBeforeVersion3, .duplicateExtension,
        .pathLengthConstraintWithoutCA, .keyUsageWithoutBits, .keyUsageUndefinedBits, .duplicatePolicyIdentifier,
        .emptyPolicyConstraints, .emptyNameConstraints, .authorityKeyIdentifierIssuerWithoutSerial,
    ])

    /// Rules every profile applies: what a certificate cannot mean (its structure is inconsistent)
    /// and what RFC 5280 tells a validator to reject (4.2: a critical extension it cannot process,
    /// which includes a critical certificatePolicies with qualifiers it cannot interpret, 4.2.1.4,
    /// and a nameConstraints it cannot interpret, 4.2.1.10).
    private static let everyProfile = relyingPartyRules | bits([
        .signatureAlgorithmMismatch, .uniqueIdentifierInVersion1, .extensionsBeforeVersion3, .duplicateExtension,
    ])

    /// Rules addressed to the relying party (RFC 5280 section 6 and section 4's "MUST reject" or
    /// "MUST process"): every profile fails them.
    private static let relyingPartyRules = bits([
        .malformedNameConstraints, .uninterpretedPolicyQualifier, .policyMappingWithAnyPolicy,
    ])

    /// Rules section 4 addresses to CAs whose breach leaves a certificate without one meaning, or that
    /// a major parser refuses outright (OpenSSL and Chromium do not read extensions in a version 1
    /// certificate, duplicate extensions, a keyUsage with no bit set, an empty name or policy
    /// constraints, a repeated policy OID; which of two signature algorithms applies is ambiguous):
    /// every profile but ``CertificateProfile/pathValidation`` fails them (PKITS, which that profile
    /// serves, predates some of them), and that one fails those of ``everyProfile``.
    private static let unreadableRules = bits([
        .signatureAlgorithmMismatch, .uniqueIdentifierInVersion1, .extensionsBeforeVersion3, .duplicateExtension,
        .keyUsageWithoutBits, .duplicatePolicyIdentifier, .emptyPolicyConstraints, .emptyNameConstraints,
    ])

    /// The interoperable default's failures: the relying party's obligations and what cannot be read
    /// with one meaning. The rest of section 4 is reported as findings.
    private static let interoperableRules = relyingPartyRules | unreadableRules

    /// The CA/Browser Forum rules (Web PKI only).
    private static let baselineRequirements = bits([
        .subjectAltNameCriticalWithSubject, .notVersion3, .certificateAuthorityAsEndEntity, .invalidRootAuthorityKeyIdentifier,
        .uniqueIdentifierPresent, .commonNameNotInSubjectAltName,
    ])

    /// Strict extended key usage rows (decided by the policy).
    static let strictExtendedKeyUsageRules = bits([
        .extendedKeyUsageMissing, .extendedKeyUsageAnyPurpose, .extendedKeyUsageIncompatiblePurpose, .extendedKeyUsageCritical,
        .extendedKeyUsageInRoot,
    ])

    /// The rules of RFC 5280 section 4 on certificates (both RFC 5280 and the Web PKI profile).
    private static let section4 = ~(everyProfile | baselineRequirements | strictExtendedKeyUsageRules)

    /// The rules `profile` applies.
    @inline(__always)
    static func mask(_ profile: CertificateProfile) -> UInt64 {
        switch profile {
        case .pathValidation: return everyProfile
        case .webPKI, .automatic: return webPKIRules
        case .interoperable: return interoperableRules
        case .rfc5280: return rfc5280Rules
        }
    }

    /// The rules reported as findings at `position` under `profile`: those the strict reading fails
    /// there and `profile` does not.
    @inline(__always)
    static func findingMask(_ profile: CertificateProfile, _ position: CertificatePosition) -> UInt64 {
        // An anchor is trusted by the caller's choice: its conformance is checked only with
        // AnchorEnforcement.full, and what it breaks is not reported otherwise.
        guard position != .anchor else { return 0 }
        return rfc5280Rules & mask(position, .rfc5280) & ~(mask(profile) & mask(position, profile))
    }

    // The Web PKI tolerates a non-critical nameConstraints (BR 7.1.2.10.8: "MAY" be non-critical, for
    // clients that cannot process it).
    private static let webPKIRules = (everyProfile | section4 | baselineRequirements) & ~bits([.nameConstraintsNotCritical])
    private static let rfc5280Rules = everyProfile | section4

    /// The rules that apply at `position` under `profile`.
    @inline(__always)
    static func mask(_ position: CertificatePosition, _ profile: CertificateProfile) -> UInt64 {
        switch position {
        case .endEntity: return endEntityRules
        case .intermediate: return intermediateRules
        case .anchor: return profile == .webPKI ? webPKIAnchorRules : anchorRules
        }
    }

    private static let endEntityRules = ~bits([.missingKeyUsage, .missingBasicConstraints, .invalidRootAuthorityKeyIdentifier,
                                               .malformedNameConstraints, .extendedKeyUsageInRoot])
    private static let intermediateRules = ~bits([
        .certificateAuthorityAsEndEntity, .subjectAltNameCriticalWithSubject, .missingBasicConstraints, .invalidRootAuthorityKeyIdentifier,
        .commonNameNotInSubjectAltName, .extendedKeyUsageMissing, .extendedKeyUsageIncompatiblePurpose, .extendedKeyUsageCritical,
        .extendedKeyUsageInRoot,
    ])
    // A root's serial number and unique identifiers are its own business (real roots have serial 0);
    // a root needs no authorityKeyIdentifier under the BRs (7.1.2.1).
    private static let anchorRules = ~bits([
        .certificateAuthorityAsEndEntity, .subjectAltNameCriticalWithSubject, .invalidSerialNumber, .uniqueIdentifierPresent,
        .commonNameNotInSubjectAltName, .extendedKeyUsageMissing, .extendedKeyUsageAnyPurpose, .extendedKeyUsageIncompatiblePurpose,
        .extendedKeyUsageCritical,
    ])
    private static let webPKIAnchorRules = anchorRules & ~bits([.missingAuthorityKeyIdentifier, .authorityKeyIdentifierWithoutKeyIdentifier])
}
