/// Where a certificate sits in a certification path.
enum CertificatePosition {
    case endEntity, intermediate, anchor

    var isIssuer: Bool { self != .endEntity }
}

/// The certificate-profile requirements of RFC 5280 section 4 that a validator can check on one
/// certificate, and the stricter CA/Browser Forum rules of the Web PKI profile (``CertificateProfile``).
/// Each finding is a ``ProfileRule`` naming the clause it comes from.
enum ProfileChecks {
    /// The rules `certificate` breaks at `position` under `profile`.
    static func violations(_ certificate: Certificate, at position: CertificatePosition, profile: CertificateProfile) -> [ProfileRule] {
        var found: [ProfileRule] = []
        let bcCritical = certificate.isCritical(.basicConstraints)
        let isCA = certificate.isCertificateAuthority

        // RFC 5280 (both profiles).
        if certificate.hasEmptyIssuer { found.append(.emptyIssuer) }
        if certificate.hasEmptySubject {
            let sanCritical = certificate.isCritical(.subjectAltName) ?? false
            if position.isIssuer || isCA || !sanCritical { found.append(.emptySubject) }
        }
        // RFC 5280 4.2.1.9 asks CAs for a critical basicConstraints, but 6.1 validation does not
        // require it (PKITS 4.6.4 expects a non-critical one to be honoured): it is checked on trust
        // anchors whose constraints are enforced, and on every CA under the Web PKI profile.
        if position.isIssuer, bcCritical == false, position == .anchor || profile == .webPKI {
            found.append(.basicConstraintsNotCritical)
        }
        if let keyUsage = certificate.keyUsage, keyUsage.contains(.keyCertSign), !isCA { found.append(.keyCertSignWithoutCA) }
        if let akiCritical = certificate.isCritical(.authorityKeyIdentifier) {
            if akiCritical { found.append(.authorityKeyIdentifierCritical) }
        } else if certificate.version == .v3 && profile == .rfc5280 && !certificate.isSelfIssued {
            found.append(.missingAuthorityKeyIdentifier)
        }
        if position.isIssuer && certificate.version == .v3 && certificate.subjectKeyIdentifier == nil {
            found.append(.missingSubjectKeyIdentifier)
        }
        if let ncCritical = certificate.isCritical(.nameConstraints) {
            if position == .endEntity && !isCA { found.append(.nameConstraintsInEndEntity) }
            if !ncCritical && profile == .rfc5280 { found.append(.nameConstraintsNotCritical) }
        }
        // RFC 5280 4.2.1.11 asks for a critical policyConstraints; PKITS 4.8-4.12 expect non-critical
        // ones to be processed, so only the Web PKI profile refuses them.
        if profile == .webPKI, certificate.isCritical(.policyConstraints) == false {
            found.append(.policyConstraintsNotCritical)
        }
        let allValid = certificate.memoized(.subjectAltNameDNSNamesAreValid) {
            certificate.forEachSubjectAlternativeName { tag, contents in
                tag != 2 || DNSNameSyntax.check(certificate.der[contents], allowWildcard: true) == nil
            } != false
        }
        if !allValid { found.append(.invalidDNSNameInSubjectAltName) }

        // CA/Browser Forum Baseline Requirements (Web PKI profile only).
        guard profile == .webPKI else { return found }
        if certificate.version != .v3 { found.append(.notVersion3) }
        if position == .endEntity && isCA { found.append(.certificateAuthorityAsEndEntity) }
        if position == .endEntity, !certificate.hasEmptySubject, certificate.isCritical(.subjectAltName) == true {
            found.append(.subjectAltNameCriticalWithSubject)
        }
        let serial = certificate.serialNumber
        let isNegative = (serial.first ?? 0) & 0x80 != 0
        let isZero = serial.allSatisfy { $0 == 0 }
        let octets = serial.first == 0 ? serial.count - 1 : serial.count
        if position != .anchor && (isNegative || isZero || octets > 20) { found.append(.invalidSerialNumber) }
        if (certificate.validityUsesGeneralizedTime.notBefore && certificate.notBefore.components.year < 2050)
            || (certificate.validityUsesGeneralizedTime.notAfter && certificate.notAfter.components.year < 2050) {
            found.append(.generalizedTimeBefore2050)
        }
        if position == .anchor, let aki = certificate.authorityKeyIdentifier, certificate.isSelfIssued {
            let keyMatches = aki.keyIdentifier != nil
                && (certificate.subjectKeyIdentifier == nil || aki.keyIdentifier == certificate.subjectKeyIdentifier)
            if !keyMatches || aki.authorityCertIssuer != nil || aki.authorityCertSerialNumber != nil {
                found.append(.invalidRootAuthorityKeyIdentifier)
            }
        }
        return found
    }
}
