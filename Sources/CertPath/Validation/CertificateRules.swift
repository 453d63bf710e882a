// The checks of the rules table (``ProfileRule``, Base/ProfileRule.swift) that validation runs on a
// certificate at a position of a path: RFC 5280 section 4 and the CA/Browser Forum Baseline
// Requirements. Parsing records its rows as it reads (``Certificate``); the rest are computed here,
// once per certificate.

extension Certificate {
    /// Every ``ProfileRule`` this certificate breaks wherever it stands, as rule bits, computed once.
    var profileFindings: UInt64 { memoizedWord { CertificateRules.findings(of: self) } }
}

/// The profile checks of one certificate at one position (the rows of ``ProfileRule`` that
/// validation finds, plus those parsing recorded), filtered by the table's profile and position
/// columns. The strict extended key usage rows and the commonName row are the purpose checks'.
enum CertificateRules {
    /// The rules `certificate` breaks at `position` under `profile` (resolved), in table order.
    static func violations(_ certificate: Certificate, at position: CertificatePosition, profile: CertificateProfile) -> [ProfileRule] {
        let applicable = ProfileRule.mask(profile) & ProfileRule.mask(position, profile)
        var found = certificate.profileFindings & applicable
        let rootRule = ProfileRule.invalidRootAuthorityKeyIdentifier.bit
        if applicable & rootRule != 0 && breaksRootAuthorityKeyIdentifierForm(certificate) { found |= rootRule }
        guard found != 0 else { return [] }
        var rules: [ProfileRule] = []
        for rule in ProfileRule.allCases where found & rule.bit != 0 { rules.append(rule) }
        return rules
    }

    /// The rules `certificate` breaks at `position` that `profile` (resolved) reports as findings
    /// rather than failures (``ProfileRule/isReportedAsFinding(in:at:)``), in table order.
    static func findings(_ certificate: Certificate, at position: CertificatePosition, profile: CertificateProfile) -> [ProfileRule] {
        let found = certificate.profileFindings & ProfileRule.findingMask(profile, position)
        guard found != 0 else { return [] }
        return ProfileRule.allCases.filter { found & $0.bit != 0 }
    }

    /// Every rule of the table `certificate` breaks wherever it stands (what ``Certificate`` keeps,
    /// computed once): the rows parsing recorded, then each validation row's check (``checks``).
    static func findings(of certificate: Certificate) -> UInt64 {
        var found = parseFindings(certificate)
        for (rule, check) in checks where check(certificate) { found |= rule.bit }
        return found
    }

    /// The rows parsing recorded (``Certificate/findings``), as the rule bits the parser stored:
    /// one identifier set, nothing mapped. An uninterpreted policy qualifier counts only in a
    /// critical certificatePolicies (RFC 5280 4.2.1.4: only then a reason to refuse).
    static func parseFindings(_ certificate: Certificate) -> UInt64 {
        var found = certificate.fields.findings.recorded
        let qualifier = ProfileRule.uninterpretedPolicyQualifier.bit
        if found & qualifier != 0 && certificate.isCritical(.certificatePolicies) != true { found &= ~qualifier }
        return found
    }

    /// The check of each row validation finds from the certificate alone, in table order: each a
    /// small function named after its row (the anchor's authorityKeyIdentifier form, which depends
    /// on the position, is ``breaksRootAuthorityKeyIdentifierForm(_:)``; the commonName and strict
    /// extended key usage rows are the purpose checks').
    static let checks: [(ProfileRule, @Sendable (Certificate) -> Bool)] = [
        (.emptyIssuer, emptyIssuer), (.emptySubject, emptySubject), (.basicConstraintsNotCritical, basicConstraintsNotCritical),
        (.missingBasicConstraints, missingBasicConstraints), (.keyCertSignWithoutCA, keyCertSignWithoutCA),
        (.missingKeyUsage, missingKeyUsage), (.missingAuthorityKeyIdentifier, missingAuthorityKeyIdentifier),
        (.authorityKeyIdentifierWithoutKeyIdentifier, authorityKeyIdentifierWithoutKeyIdentifier),
        (.authorityKeyIdentifierCritical, authorityKeyIdentifierCritical), (.missingSubjectKeyIdentifier, missingSubjectKeyIdentifier),
        (.subjectKeyIdentifierCritical, subjectKeyIdentifierCritical),
        (.authorityInformationAccessCritical, authorityInformationAccessCritical), (.nameConstraintsInEndEntity, nameConstraintsInEndEntity),
        (.nameConstraintsNotCritical, nameConstraintsNotCritical), (.malformedNameConstraints, malformedNameConstraints),
        (.policyConstraintsNotCritical, policyConstraintsNotCritical), (.inhibitAnyPolicyNotCritical, inhibitAnyPolicyNotCritical),
        (.policyMappingWithAnyPolicy, policyMappingWithAnyPolicy), (.invalidDNSNameInSubjectAltName, invalidDNSNameInSubjectAltName),
        (.invalidRFC822NameInSubjectAltName, invalidRFC822NameInSubjectAltName), (.invalidURIInSubjectAltName, invalidURIInSubjectAltName),
        (.invalidSmtpUTF8MailboxInSubjectAltName, invalidSmtpUTF8MailboxInSubjectAltName), (.invalidSerialNumber, invalidSerialNumber),
        (.generalizedTimeBefore2050, generalizedTimeBefore2050), (.subjectAltNameCriticalWithSubject, subjectAltNameCriticalWithSubject),
        (.notVersion3, notVersion3), (.certificateAuthorityAsEndEntity, certificateAuthorityAsEndEntity),
        (.uniqueIdentifierPresent, uniqueIdentifierPresent),
    ]

    // MARK: One check per row (the clause and whom it binds: ProfileRule.table)

    /// RFC 5280 4.1.2.4: the issuer field MUST contain a non-empty name.
    static func emptyIssuer(_ c: Certificate) -> Bool { c.hasEmptyIssuer }

    /// RFC 5280 4.1.2.6: a CA's subject MUST be non-empty; an end entity with an empty subject MUST
    /// have a critical subjectAltName.
    static func emptySubject(_ c: Certificate) -> Bool {
        c.hasEmptySubject && (c.isCertificateAuthority || !(c.isCritical(.subjectAltName) ?? false))
    }

    /// RFC 5280 4.2.1.9: a CA's basicConstraints MUST be critical.
    static func basicConstraintsNotCritical(_ c: Certificate) -> Bool {
        c.isCertificateAuthority && c.isCritical(.basicConstraints) == false
    }

    /// RFC 5280 4.2.1.9: a CA's certificate MUST include basicConstraints (a v3 certificate that is
    /// not a CA by its basicConstraints lacks them).
    static func missingBasicConstraints(_ c: Certificate) -> Bool {
        !c.isCertificateAuthority && c.version == .v3 && c.basicConstraints == nil
    }

    /// RFC 5280 4.2.1.9: keyCertSign MUST NOT be asserted without cA.
    static func keyCertSignWithoutCA(_ c: Certificate) -> Bool {
        !c.isCertificateAuthority && c.keyUsage?.contains(.keyCertSign) == true
    }

    /// RFC 5280 4.2.1.3: a CA's certificate MUST include keyUsage.
    static func missingKeyUsage(_ c: Certificate) -> Bool { c.isCertificateAuthority && c.keyUsage == nil }

    /// RFC 5280 4.2.1.1: authorityKeyIdentifier MUST be included, except in a self-signed
    /// certificate (asked of a self-issued one only when it is absent: the comparison costs).
    static func missingAuthorityKeyIdentifier(_ c: Certificate) -> Bool {
        c.isCritical(.authorityKeyIdentifier) == nil && c.version == .v3 && !c.isSelfIssued
    }

    /// RFC 5280 4.2.1.1: authorityKeyIdentifier MUST include keyIdentifier (but in a self-signed certificate).
    static func authorityKeyIdentifierWithoutKeyIdentifier(_ c: Certificate) -> Bool {
        c.isCritical(.authorityKeyIdentifier) != nil && c.authorityKeyIdentifierKeyID == nil && !c.isSelfIssued
    }

    /// RFC 5280 4.2.1.1: authorityKeyIdentifier MUST be non-critical.
    static func authorityKeyIdentifierCritical(_ c: Certificate) -> Bool { c.isCritical(.authorityKeyIdentifier) == true }

    /// RFC 5280 4.2.1.2: a CA's certificate MUST include subjectKeyIdentifier.
    static func missingSubjectKeyIdentifier(_ c: Certificate) -> Bool { c.isCertificateAuthority && c.subjectKeyIdentifier == nil }

    /// RFC 5280 4.2.1.2: subjectKeyIdentifier MUST be non-critical.
    static func subjectKeyIdentifierCritical(_ c: Certificate) -> Bool { c.isCritical(.subjectKeyIdentifier) == true }

    /// RFC 5280 4.2.2.1: authorityInfoAccess MUST be non-critical.
    static func authorityInformationAccessCritical(_ c: Certificate) -> Bool { c.isCritical(.authorityInfoAccess) == true }

    /// RFC 5280 4.2.1.10: nameConstraints MUST be used only in a CA certificate.
    static func nameConstraintsInEndEntity(_ c: Certificate) -> Bool {
        !c.isCertificateAuthority && c.isCritical(.nameConstraints) != nil
    }

    /// RFC 5280 4.2.1.10: nameConstraints MUST be critical.
    static func nameConstraintsNotCritical(_ c: Certificate) -> Bool { c.isCritical(.nameConstraints) == false }

    /// RFC 5280 4.2.1.10: a subtree that is not a well-formed name of its form cannot be applied.
    static func malformedNameConstraints(_ c: Certificate) -> Bool {
        c.isCritical(.nameConstraints) != nil && c.nameConstraints?.firstMalformedSubtree() != nil
    }

    /// RFC 5280 4.2.1.11: policyConstraints MUST be critical.
    static func policyConstraintsNotCritical(_ c: Certificate) -> Bool { c.isCritical(.policyConstraints) == false }

    /// RFC 5280 4.2.1.14: inhibitAnyPolicy MUST be critical.
    static func inhibitAnyPolicyNotCritical(_ c: Certificate) -> Bool { c.isCritical(.inhibitAnyPolicy) == false }

    /// RFC 5280 4.2.1.5, 6.1.4 (a): policies MUST NOT be mapped to or from anyPolicy.
    static func policyMappingWithAnyPolicy(_ c: Certificate) -> Bool {
        c.policyMappings?.contains { $0.issuerDomainPolicy == KnownOID.anyPolicy || $0.subjectDomainPolicy == KnownOID.anyPolicy } == true
    }

    /// Whether a subjectAltName entry of context tag `wanted` (RFC 5280 4.2.1.6) does not satisfy
    /// `isValid` (given the entry's contents).
    private static func hasSubjectAltName(_ c: Certificate, tag wanted: Int, notSatisfying isValid: (ArraySlice<UInt8>) -> Bool) -> Bool {
        var found = false
        _ = c.forEachSubjectAlternativeName { tag, contents in
            if tag == wanted && !isValid(c.der[contents]) { found = true }
            return !found
        }
        return found
    }

    /// RFC 5280 4.2.1.6: a dNSName MUST be in the preferred name syntax.
    static func invalidDNSNameInSubjectAltName(_ c: Certificate) -> Bool {
        hasSubjectAltName(c, tag: 2) { DNSNameSyntax.check($0, allowWildcard: true) == nil }
    }

    /// RFC 5280 4.2.1.6: an rfc822Name MUST be a mailbox (RFC 5322 addr-spec).
    static func invalidRFC822NameInSubjectAltName(_ c: Certificate) -> Bool {
        hasSubjectAltName(c, tag: 1, notSatisfying: SubjectAltNameSyntax.isMailbox)
    }

    /// RFC 5280 4.2.1.6: a uniformResourceIdentifier MUST be an absolute URI.
    static func invalidURIInSubjectAltName(_ c: Certificate) -> Bool {
        hasSubjectAltName(c, tag: 6, notSatisfying: SubjectAltNameSyntax.isAbsoluteURI)
    }

    /// RFC 9598 3: an SmtpUTF8Mailbox otherName MUST be a UTF8String mailbox with a non-ASCII
    /// Local-part and an A-label domain (the names are decoded only when there is an otherName at all).
    static func invalidSmtpUTF8MailboxInSubjectAltName(_ c: Certificate) -> Bool {
        guard hasSubjectAltName(c, tag: 0, notSatisfying: { _ in false }), let names = c.subjectAlternativeNames else { return false }
        return names.contains { name in
            guard case .otherName(let typeID, let value) = name else { return false }
            return typeID == KnownOID.smtpUTF8Mailbox && NameConstraintSyntax.splitSmtpUTF8Mailbox(value) == nil
        }
    }

    /// RFC 5280 4.1.2.2: the serial number MUST be a positive integer of at most 20 octets.
    static func invalidSerialNumber(_ c: Certificate) -> Bool {
        let serial = c.serialNumber
        let first = serial.first ?? 0
        let octets = first == 0 ? serial.count - 1 : serial.count
        return first & 0x80 != 0 || octets > 20 || serial.allSatisfy { $0 == 0 }
    }

    /// RFC 5280 4.1.2.5: validity dates through 2049 MUST be encoded as UTCTime.
    static func generalizedTimeBefore2050(_ c: Certificate) -> Bool {
        let generalized = c.validityUsesGeneralizedTime
        return (generalized.notBefore && c.notBefore.components.year < 2050) || (generalized.notAfter && c.notAfter.components.year < 2050)
    }

    /// CA/B BR 7.1.2.7.12: subjectAltName MUST NOT be critical when the subject is not empty.
    static func subjectAltNameCriticalWithSubject(_ c: Certificate) -> Bool {
        !c.hasEmptySubject && c.isCritical(.subjectAltName) == true
    }

    /// CA/B BR 7.1.2: certificates MUST be version 3.
    static func notVersion3(_ c: Certificate) -> Bool { c.version != .v3 }

    /// CA/B BR 7.1.2.7.8: a CA certificate is not a subscriber (end-entity) certificate.
    static func certificateAuthorityAsEndEntity(_ c: Certificate) -> Bool { c.isCertificateAuthority }

    /// CA/B BR 7.1.2: issuerUniqueID and subjectUniqueID MUST NOT be present.
    static func uniqueIdentifierPresent(_ c: Certificate) -> Bool {
        c.layout.issuerUniqueID != nil || c.layout.subjectUniqueID != nil
    }

    /// CA/B BR 7.1.2.1.3: a self-issued anchor's authorityKeyIdentifier, when present, holds only a
    /// keyIdentifier equal to its subjectKeyIdentifier (when it has one). Asked of anchors only.
    static func breaksRootAuthorityKeyIdentifierForm(_ certificate: Certificate) -> Bool {
        guard certificate.isCritical(.authorityKeyIdentifier) != nil else { return false }
        let keyID = certificate.authorityKeyIdentifierKeyID
        let rootForm = keyID != nil && !certificate.authorityKeyIdentifierHasIssuer
            && (certificate.subjectKeyIdentifier == nil || keyID == certificate.subjectKeyIdentifier)
        return !rootForm && certificate.isSelfIssued
    }
}

/// Syntax of subjectAltName values beyond dNSName (RFC 5280 4.2.1.6); allocation-free.
enum SubjectAltNameSyntax {
    /// Whether `value` is a Mailbox (RFC 5321 4.1.2): a Dot-string local part of 1–64 octets, one `@`,
    /// a domain in preferred name syntax. Quoted local parts and address literals are not interpreted.
    static func isMailbox(_ value: ArraySlice<UInt8>) -> Bool {
        guard let at = value.firstIndex(of: UInt8(ascii: "@")) else { return false }
        let domain = value[(at + 1)...]
        return RFC822Syntax.checkLocalPart(value[..<at]) == nil && DNSNameSyntax.check(domain, allowWildcard: false) == nil
    }

    /// Whether `value` is an absolute URI (RFC 3986 4.3): a scheme (a letter, then letters, digits,
    /// `+`, `-`, `.`), a colon and a non-empty rest of printable ASCII without spaces.
    static func isAbsoluteURI(_ value: ArraySlice<UInt8>) -> Bool {
        guard let colon = value.firstIndex(of: UInt8(ascii: ":")), colon > value.startIndex, colon + 1 < value.endIndex else { return false }
        let first = value[value.startIndex] | 0x20
        guard first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") else { return false }
        for byte in value[..<colon] where !(DNSNameSyntax.isLetterOrDigit(byte) || byte == UInt8(ascii: "+")
                                           || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")) {
            return false
        }
        return value[(colon + 1)...].allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}

extension ProfileFinding {
    /// The findings of `path` (end entity first, the anchor excluded) under `profile` (resolved), in
    /// path order and, per certificate, in table order.
    static func of(path: [Certificate], profile: CertificateProfile) -> [ProfileFinding] {
        var findings: [ProfileFinding] = []
        for (index, certificate) in path.enumerated() {
            let position: CertificatePosition = index == 0 ? .endEntity : .intermediate
            for rule in CertificateRules.findings(certificate, at: position, profile: profile) {
                findings.append(ProfileFinding(certificate: certificate, position: position, rule: rule))
            }
        }
        return findings
    }
}
