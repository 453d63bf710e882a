// The certificate rules of RFC 5280 section 4 and of the CA/Browser Forum Baseline Requirements
// that path validation enforces, as one table: `ProfileRule.table`, one row per ``ProfileRule``
// (the identifiers are CertPathX509's, where parsing records them) naming its clause, whom its MUST binds, whether parsing or validation finds it, what each profile
// does with it and at which positions of a path it applies; the masks validation uses are computed
// from the rows. docs/RULES.md's table is generated from them (CertificateRulesTests fails when it
// differs), and every row has a test that feeds a certificate breaking exactly that rule. The checks
// are Validation/CertificateRules.swift's.
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

extension ProfileRule {
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

    /// The clause the rule comes from (`RFC 5280 4.2.1.9`, `CA/B BR 7.1.4.3`): the table's column.
    public var clause: String { Self.table[Int(rawValue)].clause }

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
    public var addressee: RuleAddressee { Self.table[Int(rawValue)].binds }

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

    // MARK: The table: one row per rule, in declaration order

    /// What a profile does with a rule: fail the path, report a ``ProfileFinding``, or nothing.
    enum Treatment: Hashable, Sendable {
        case fail, finding, off
    }

    /// When a rule is found: recorded while the certificate is parsed, or computed by validation.
    enum Discovery: Hashable, Sendable {
        case parsing, validation
    }

    /// One row of the rules table: the rule, its clause, whom its MUST binds, when it is found, what
    /// each profile does with it (a `.finding` is a row the strict ``CertificateProfile/rfc5280``
    /// reading fails and the profile does not) and the positions of a path it applies at.
    struct Row: Sendable {
        let rule: ProfileRule
        let clause: String
        let binds: RuleAddressee
        let foundBy: Discovery
        let webPKI, interoperable, rfc5280, pathValidation: Treatment
        /// The positions it applies at under every profile…
        let positions: Set<CertificatePosition>
        /// …but the anchor under ``CertificateProfile/webPKI``, where this says (the BRs ask no
        /// authorityKeyIdentifier of a root, 7.1.2.1).
        let webPKIAnchor: Bool

        init(_ rule: ProfileRule, _ clause: String, binds: RuleAddressee, foundBy: Discovery, webPKI: Treatment,
             interoperable: Treatment, rfc5280: Treatment, pathValidation: Treatment, at positions: Set<CertificatePosition>,
             webPKIAnchor: Bool? = nil) {
            self.rule = rule
            self.clause = clause
            self.binds = binds
            self.foundBy = foundBy
            self.webPKI = webPKI
            self.interoperable = interoperable
            self.rfc5280 = rfc5280
            self.pathValidation = pathValidation
            self.positions = positions
            self.webPKIAnchor = webPKIAnchor ?? positions.contains(.anchor)
        }

        /// The column of `profile` (`automatic` reads as ``CertificateProfile/webPKI``, as its masks did).
        func treatment(_ profile: CertificateProfile) -> Treatment {
            switch profile {
            case .webPKI, .automatic: return webPKI
            case .interoperable: return interoperable
            case .rfc5280: return rfc5280
            case .pathValidation: return pathValidation
            }
        }

        /// Whether it applies at `position` under `profile`.
        func applies(at position: CertificatePosition, _ profile: CertificateProfile) -> Bool {
            position == .anchor && profile == .webPKI ? webPKIAnchor : positions.contains(position)
        }
    }

    /// The rules table. docs/RULES.md's table is generated from it (CertificateRulesTests), and the
    /// masks below are computed from it; row `i` is the rule whose raw value is `i`. The strict
    /// extended key usage rows (`binds: .policy`) are off under every profile: the policy's
    /// ``ValidationPolicy/strictExtendedKeyUsage`` decides them. `commonNameNotInSubjectAltName` is
    /// checked with the server purpose.
    static let table: [Row] = [
        Row(.signatureAlgorithmMismatch, "RFC 5280 4.1.1.2", binds: .certificationAuthorityUnreadable, foundBy: .parsing,
            webPKI: .fail, interoperable: .fail, rfc5280: .fail, pathValidation: .fail,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.uniqueIdentifierInVersion1, "RFC 5280 4.1.2.8", binds: .certificationAuthorityUnreadable, foundBy: .parsing,
            webPKI: .fail, interoperable: .fail, rfc5280: .fail, pathValidation: .fail,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.extensionsBeforeVersion3, "RFC 5280 4.1.2.9", binds: .certificationAuthorityUnreadable, foundBy: .parsing,
            webPKI: .fail, interoperable: .fail, rfc5280: .fail, pathValidation: .fail,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.duplicateExtension, "RFC 5280 4.2", binds: .certificationAuthorityUnreadable, foundBy: .parsing,
            webPKI: .fail, interoperable: .fail, rfc5280: .fail, pathValidation: .fail,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.pathLengthConstraintWithoutCA, "RFC 5280 4.2.1.9", binds: .certificationAuthority, foundBy: .parsing,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.keyUsageWithoutBits, "RFC 5280 4.2.1.3", binds: .certificationAuthorityUnreadable, foundBy: .parsing,
            webPKI: .fail, interoperable: .fail, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.keyUsageUndefinedBits, "RFC 5280 4.2.1.3", binds: .certificationAuthority, foundBy: .parsing,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.duplicatePolicyIdentifier, "RFC 5280 4.2.1.4", binds: .certificationAuthorityUnreadable, foundBy: .parsing,
            webPKI: .fail, interoperable: .fail, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.emptyPolicyConstraints, "RFC 5280 4.2.1.11", binds: .certificationAuthorityUnreadable, foundBy: .parsing,
            webPKI: .fail, interoperable: .fail, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.emptyNameConstraints, "RFC 5280 4.2.1.10", binds: .certificationAuthorityUnreadable, foundBy: .parsing,
            webPKI: .fail, interoperable: .fail, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.authorityKeyIdentifierIssuerWithoutSerial, "RFC 5280 4.2.1.1", binds: .certificationAuthority, foundBy: .parsing,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.emptyIssuer, "RFC 5280 4.1.2.4", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.emptySubject, "RFC 5280 4.1.2.6", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.basicConstraintsNotCritical, "RFC 5280 4.2.1.9", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.missingBasicConstraints, "RFC 5280 4.2.1.9", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.anchor]),
        Row(.keyCertSignWithoutCA, "RFC 5280 4.2.1.9", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.missingKeyUsage, "RFC 5280 4.2.1.3", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.intermediate, .anchor]),
        Row(.missingAuthorityKeyIdentifier, "RFC 5280 4.2.1.1", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor], webPKIAnchor: false),
        Row(.authorityKeyIdentifierWithoutKeyIdentifier, "RFC 5280 4.2.1.1", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor], webPKIAnchor: false),
        Row(.authorityKeyIdentifierCritical, "RFC 5280 4.2.1.1", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.missingSubjectKeyIdentifier, "RFC 5280 4.2.1.2", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.subjectKeyIdentifierCritical, "RFC 5280 4.2.1.2", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.authorityInformationAccessCritical, "RFC 5280 4.2.2.1", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.nameConstraintsInEndEntity, "RFC 5280 4.2.1.10", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.nameConstraintsNotCritical, "RFC 5280 4.2.1.10", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .finding, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.malformedNameConstraints, "RFC 5280 4.2.1.10", binds: .relyingParty, foundBy: .validation,
            webPKI: .fail, interoperable: .fail, rfc5280: .fail, pathValidation: .fail,
            at: [.intermediate, .anchor]),
        Row(.policyConstraintsNotCritical, "RFC 5280 4.2.1.11", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.inhibitAnyPolicyNotCritical, "RFC 5280 4.2.1.14", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.uninterpretedPolicyQualifier, "RFC 5280 4.2.1.4", binds: .relyingParty, foundBy: .validation,
            webPKI: .fail, interoperable: .fail, rfc5280: .fail, pathValidation: .fail,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.policyMappingWithAnyPolicy, "RFC 5280 4.2.1.5, 6.1.4 (a)", binds: .relyingParty, foundBy: .validation,
            webPKI: .fail, interoperable: .fail, rfc5280: .fail, pathValidation: .fail,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.invalidDNSNameInSubjectAltName, "RFC 5280 4.2.1.6", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.invalidRFC822NameInSubjectAltName, "RFC 5280 4.2.1.6", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.invalidURIInSubjectAltName, "RFC 5280 4.2.1.6", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.invalidSmtpUTF8MailboxInSubjectAltName, "RFC 9598 3", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.invalidSerialNumber, "RFC 5280 4.1.2.2", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate]),
        Row(.generalizedTimeBefore2050, "RFC 5280 4.1.2.5", binds: .certificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .finding, rfc5280: .fail, pathValidation: .finding,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.subjectAltNameCriticalWithSubject, "CA/B BR 7.1.2.7.12", binds: .publicCertificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .off, rfc5280: .off, pathValidation: .off,
            at: [.endEntity]),
        Row(.notVersion3, "CA/B BR 7.1.2", binds: .publicCertificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .off, rfc5280: .off, pathValidation: .off,
            at: [.endEntity, .intermediate, .anchor]),
        Row(.certificateAuthorityAsEndEntity, "CA/B BR 7.1.2.7.8", binds: .publicCertificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .off, rfc5280: .off, pathValidation: .off,
            at: [.endEntity]),
        Row(.invalidRootAuthorityKeyIdentifier, "CA/B BR 7.1.2.1.3", binds: .publicCertificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .off, rfc5280: .off, pathValidation: .off,
            at: [.anchor]),
        Row(.uniqueIdentifierPresent, "CA/B BR 7.1.2", binds: .publicCertificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .off, rfc5280: .off, pathValidation: .off,
            at: [.endEntity, .intermediate]),
        Row(.commonNameNotInSubjectAltName, "CA/B BR 7.1.4.3", binds: .publicCertificationAuthority, foundBy: .validation,
            webPKI: .fail, interoperable: .off, rfc5280: .off, pathValidation: .off,
            at: [.endEntity]),
        Row(.extendedKeyUsageMissing, "CA/B BR 7.1.2.7.10", binds: .policy, foundBy: .validation,
            webPKI: .off, interoperable: .off, rfc5280: .off, pathValidation: .off,
            at: [.endEntity]),
        Row(.extendedKeyUsageAnyPurpose, "CA/B BR 7.1.2.7.10", binds: .policy, foundBy: .validation,
            webPKI: .off, interoperable: .off, rfc5280: .off, pathValidation: .off,
            at: [.endEntity, .intermediate]),
        Row(.extendedKeyUsageIncompatiblePurpose, "CA/B BR 7.1.2.7.10", binds: .policy, foundBy: .validation,
            webPKI: .off, interoperable: .off, rfc5280: .off, pathValidation: .off,
            at: [.endEntity]),
        Row(.extendedKeyUsageCritical, "CA/B BR 7.1.2.7.6", binds: .policy, foundBy: .validation,
            webPKI: .off, interoperable: .off, rfc5280: .off, pathValidation: .off,
            at: [.endEntity]),
        Row(.extendedKeyUsageInRoot, "CA/B BR 7.1.2.1.2", binds: .policy, foundBy: .validation,
            webPKI: .off, interoperable: .off, rfc5280: .off, pathValidation: .off,
            at: [.anchor]),
    ]

    // MARK: The table's columns as bit masks (one bit per rule, in declaration order), computed from it

    static func bits(_ rules: [ProfileRule]) -> UInt64 { rules.reduce(0) { $0 | $1.bit } }

    /// The rules of the rows `include` selects.
    private static func rows(_ include: (Row) -> Bool) -> UInt64 { bits(table.filter(include).map(\.rule)) }

    /// Rules parsing records.
    static let parseFound = rows { $0.foundBy == .parsing }

    /// Strict extended key usage rows (decided by the policy).
    static let strictExtendedKeyUsageRules = rows { $0.binds == .policy }

    private static let webPKIRules = rows { $0.webPKI == .fail }
    private static let interoperableRules = rows { $0.interoperable == .fail }
    private static let rfc5280Rules = rows { $0.rfc5280 == .fail }
    private static let pathValidationRules = rows { $0.pathValidation == .fail }
    private static let webPKIFindings = rows { $0.webPKI == .finding }
    private static let interoperableFindings = rows { $0.interoperable == .finding }
    private static let pathValidationFindings = rows { $0.pathValidation == .finding }

    /// The rules `profile` applies.
    @inline(__always)
    static func mask(_ profile: CertificateProfile) -> UInt64 {
        switch profile {
        case .pathValidation: return pathValidationRules
        case .webPKI, .automatic: return webPKIRules
        case .interoperable: return interoperableRules
        case .rfc5280: return rfc5280Rules
        }
    }

    /// The rules reported as findings at `position` under `profile`: the rows whose column says
    /// `finding` (the strict reading fails them there and `profile` does not).
    @inline(__always)
    static func findingMask(_ profile: CertificateProfile, _ position: CertificatePosition) -> UInt64 {
        // An anchor is trusted by the caller's choice: its conformance is checked only with
        // AnchorEnforcement.full, and what it breaks is not reported otherwise.
        guard position != .anchor else { return 0 }
        let findings: UInt64
        switch profile {
        case .webPKI, .automatic: findings = webPKIFindings
        case .interoperable: findings = interoperableFindings
        case .rfc5280: findings = 0
        case .pathValidation: findings = pathValidationFindings
        }
        return findings & mask(position, .rfc5280)
    }

    /// The rules that apply at `position` under `profile`.
    @inline(__always)
    static func mask(_ position: CertificatePosition, _ profile: CertificateProfile) -> UInt64 {
        switch position {
        case .endEntity: return endEntityRules
        case .intermediate: return intermediateRules
        case .anchor: return profile == .webPKI ? webPKIAnchorRules : anchorRules
        }
    }

    private static let endEntityRules = rows { $0.applies(at: .endEntity, .rfc5280) }
    private static let intermediateRules = rows { $0.applies(at: .intermediate, .rfc5280) }
    private static let anchorRules = rows { $0.applies(at: .anchor, .rfc5280) }
    private static let webPKIAnchorRules = rows { $0.applies(at: .anchor, .webPKI) }
}
