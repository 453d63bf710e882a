// The checks of the rules table (``ProfileRule``, Base/ProfileRule.swift) that validation runs on a
// certificate at a position of a path: RFC 5280 section 4 and the CA/Browser Forum Baseline
// Requirements. What a certificate alone decides is decided at parse (the reader's rows and each
// row's check, CertPathX509/CertificateRuleChecks.swift) and stored in it; what depends on the
// position (the anchor's authorityKeyIdentifier form) is decided here.

extension Certificate {
    /// Every ``ProfileRule`` this certificate breaks wherever it stands, as rule bits: decided at
    /// parse and stored (CertPathX509's CertificateRuleChecks), read here with one load.
    var profileFindings: UInt64 { fields.findings.rules }
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
