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
    /// computed once): parse findings and the checks that depend on the certificate alone.
    static func findings(of certificate: Certificate) -> UInt64 {
        var found: UInt64 = 0
        if certificate.fields.findings.findings != 0 {
            for finding in certificate.findings {
                switch finding {
                case .signatureAlgorithmMismatch: found |= ProfileRule.signatureAlgorithmMismatch.bit
                case .uniqueIdentifierInVersion1: found |= ProfileRule.uniqueIdentifierInVersion1.bit
                case .extensionsBeforeVersion3: found |= ProfileRule.extensionsBeforeVersion3.bit
                case .duplicateExtension: found |= ProfileRule.duplicateExtension.bit
                case .pathLengthConstraintWithoutCA: found |= ProfileRule.pathLengthConstraintWithoutCA.bit
                case .keyUsageWithoutBits: found |= ProfileRule.keyUsageWithoutBits.bit
                case .keyUsageUndefinedBits: found |= ProfileRule.keyUsageUndefinedBits.bit
                case .duplicatePolicyIdentifier: found |= ProfileRule.duplicatePolicyIdentifier.bit
                case .emptyPolicyConstraints: found |= ProfileRule.emptyPolicyConstraints.bit
                case .emptyNameConstraints: found |= ProfileRule.emptyNameConstraints.bit
                case .authorityKeyIdentifierIssuerWithoutSerial: found |= ProfileRule.authorityKeyIdentifierIssuerWithoutSerial.bit
                case .uninterpretedPolicyQualifier:
                    // RFC 5280 4.2.1.4: a reason to refuse only in a critical certificatePolicies.
                    if certificate.isCritical(.certificatePolicies) == true { found |= ProfileRule.uninterpretedPolicyQualifier.bit }
                }
            }
        }
        let isCA = certificate.isCertificateAuthority
        let version3 = certificate.version == .v3

        if certificate.hasEmptyIssuer { found |= ProfileRule.emptyIssuer.bit }
        if certificate.hasEmptySubject {
            let sanCritical = certificate.isCritical(.subjectAltName) ?? false
            if isCA || !sanCritical { found |= ProfileRule.emptySubject.bit }
        } else if certificate.isCritical(.subjectAltName) == true {
            found |= ProfileRule.subjectAltNameCriticalWithSubject.bit
        }
        if isCA {
            if certificate.isCritical(.basicConstraints) == false { found |= ProfileRule.basicConstraintsNotCritical.bit }
            if certificate.keyUsage == nil { found |= ProfileRule.missingKeyUsage.bit }
            if certificate.subjectKeyIdentifier == nil { found |= ProfileRule.missingSubjectKeyIdentifier.bit }
            found |= ProfileRule.certificateAuthorityAsEndEntity.bit
        } else {
            if let keyUsage = certificate.keyUsage, keyUsage.contains(.keyCertSign) { found |= ProfileRule.keyCertSignWithoutCA.bit }
            if certificate.isCritical(.nameConstraints) != nil { found |= ProfileRule.nameConstraintsInEndEntity.bit }
            if version3 && certificate.basicConstraints == nil { found |= ProfileRule.missingBasicConstraints.bit }
        }
        // Whether issuer and subject are one name is asked only where a rule depends on it (the
        // comparison is the costly part, and an end entity is usually not self-issued).
        if let akiCritical = certificate.isCritical(.authorityKeyIdentifier) {
            if akiCritical { found |= ProfileRule.authorityKeyIdentifierCritical.bit }
            if certificate.authorityKeyIdentifierKeyID == nil && !certificate.isSelfIssued {
                found |= ProfileRule.authorityKeyIdentifierWithoutKeyIdentifier.bit
            }
        } else if version3 && !certificate.isSelfIssued {
            found |= ProfileRule.missingAuthorityKeyIdentifier.bit
        }
        if certificate.isCritical(.subjectKeyIdentifier) == true { found |= ProfileRule.subjectKeyIdentifierCritical.bit }
        if certificate.isCritical(.authorityInfoAccess) == true { found |= ProfileRule.authorityInformationAccessCritical.bit }
        if let critical = certificate.isCritical(.nameConstraints) {
            if !critical { found |= ProfileRule.nameConstraintsNotCritical.bit }
            if certificate.nameConstraints?.firstMalformedSubtree() != nil { found |= ProfileRule.malformedNameConstraints.bit }
        }
        if certificate.isCritical(.policyConstraints) == false { found |= ProfileRule.policyConstraintsNotCritical.bit }
        if certificate.isCritical(.inhibitAnyPolicy) == false { found |= ProfileRule.inhibitAnyPolicyNotCritical.bit }
        if let mappings = certificate.policyMappings,
           mappings.contains(where: { $0.issuerDomainPolicy == KnownOID.anyPolicy || $0.subjectDomainPolicy == KnownOID.anyPolicy }) {
            found |= ProfileRule.policyMappingWithAnyPolicy.bit
        }
        var names: UInt64 = 0
        var hasOtherName = false
        _ = certificate.forEachSubjectAlternativeName { tag, contents in
            switch tag {
            case 0: hasOtherName = true
            case 1: if !SubjectAltNameSyntax.isMailbox(certificate.der[contents]) { names |= ProfileRule.invalidRFC822NameInSubjectAltName.bit }
            case 2:
                if DNSNameSyntax.check(certificate.der[contents], allowWildcard: true) != nil {
                    names |= ProfileRule.invalidDNSNameInSubjectAltName.bit
                }
            case 6: if !SubjectAltNameSyntax.isAbsoluteURI(certificate.der[contents]) { names |= ProfileRule.invalidURIInSubjectAltName.bit }
            default: break
            }
            return true
        }
        found |= names
        // SmtpUTF8Mailbox otherNames (RFC 9598 3), read only when the SAN has an otherName at all.
        if hasOtherName, let alternativeNames = certificate.subjectAlternativeNames {
            for case .otherName(let typeID, let value) in alternativeNames
            where typeID == KnownOID.smtpUTF8Mailbox && NameConstraintSyntax.splitSmtpUTF8Mailbox(value) == nil {
                found |= ProfileRule.invalidSmtpUTF8MailboxInSubjectAltName.bit
            }
        }
        let serial = certificate.serialNumber
        let first = serial.first ?? 0
        let octets = first == 0 ? serial.count - 1 : serial.count
        if first & 0x80 != 0 || octets > 20 || serial.allSatisfy({ $0 == 0 }) { found |= ProfileRule.invalidSerialNumber.bit }
        let generalized = certificate.validityUsesGeneralizedTime
        if (generalized.notBefore && certificate.notBefore.components.year < 2050)
            || (generalized.notAfter && certificate.notAfter.components.year < 2050) {
            found |= ProfileRule.generalizedTimeBefore2050.bit
        }
        if !version3 { found |= ProfileRule.notVersion3.bit }
        if certificate.layout.issuerUniqueID != nil || certificate.layout.subjectUniqueID != nil { found |= ProfileRule.uniqueIdentifierPresent.bit }
        return found
    }

    /// CA/B BR 7.1.2.1.3: a self-issued anchor's authorityKeyIdentifier, when present, holds only a
    /// keyIdentifier equal to its subjectKeyIdentifier (when it has one). Asked of anchors only.
    static func breaksRootAuthorityKeyIdentifierForm(_ certificate: Certificate) -> Bool {
        guard certificate.isCritical(.authorityKeyIdentifier) != nil else { return false }
        let keyID = certificate.authorityKeyIdentifierKeyID
        let rootForm = keyID != nil && !certificate.layout.authorityKeyIdentifierHasIssuer
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
