// The checks of the rules table's rows (``ProfileRule``; CertPath's Base/ProfileRule.swift has the
// columns) that a certificate alone decides: RFC 5280 section 4 and the CA/Browser Forum Baseline
// Requirements. Each is a small function named after its row; they run once, at the end of parsing,
// over the typed values, and the certificate stores their answer with the rows the reader recorded
// (``ParseFindings/rules``), so a path search that validates many paths through one certificate
// (a mesh of intermediates with large subjectAltNames) scans nothing again. The rows that depend on
// the position in a path (the anchor's authorityKeyIdentifier form) or on the purpose (commonName,
// strict extended key usage) are decided by validation.

/// The checks of the rows of ``ProfileRule`` that a certificate alone decides, in table order.
package enum CertificateRuleChecks {
    /// Every row the certificate breaks wherever it stands: the rows the reader recorded (an
    /// uninterpreted policy qualifier only in a critical certificatePolicies, RFC 5280 4.2.1.4),
    /// then each check's, in table order (``checked``).
    package static func rules(_ fields: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> UInt64 {
        var found = fields.findings.recorded
        let qualifier = ProfileRule.uninterpretedPolicyQualifier.bit
        if found & qualifier != 0 && fields.isCritical(.certificatePolicies) != true { found &= ~qualifier }
        var sink = RuleBits()
        visit(fields, der, &sink)
        return found | sink.bits
    }

    /// The rows the certificate alone decides, in table order (the order ``visit(_:_:_:)`` asks them).
    package static var checked: [ProfileRule] {
        var sink = RuleOrder()
        visit(Certificate.Parsed(), [], &sink)
        return sink.rules
    }

    /// Whether the certificate breaks `rule`: its row's check; `nil` for a row not in ``checked``.
    package static func breaks(_ rule: ProfileRule, _ fields: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool? {
        var sink = OneRule(rule: rule)
        visit(fields, der, &sink)
        return sink.broken
    }

    /// Gives `sink` each row with its check (an autoclosure: evaluated only if the sink asks), in
    /// table order: the one list of the rows this file decides.
    @inline(__always)
    static func visit<Sink: RuleSink>(_ fields: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>, _ sink: inout Sink) {
        sink.row(.emptyIssuer, emptyIssuer(fields, der))
        sink.row(.emptySubject, emptySubject(fields, der))
        sink.row(.basicConstraintsNotCritical, basicConstraintsNotCritical(fields, der))
        sink.row(.missingBasicConstraints, missingBasicConstraints(fields, der))
        sink.row(.keyCertSignWithoutCA, keyCertSignWithoutCA(fields, der))
        sink.row(.missingKeyUsage, missingKeyUsage(fields, der))
        sink.row(.missingAuthorityKeyIdentifier, missingAuthorityKeyIdentifier(fields, der))
        sink.row(.authorityKeyIdentifierWithoutKeyIdentifier, authorityKeyIdentifierWithoutKeyIdentifier(fields, der))
        sink.row(.authorityKeyIdentifierCritical, authorityKeyIdentifierCritical(fields, der))
        sink.row(.missingSubjectKeyIdentifier, missingSubjectKeyIdentifier(fields, der))
        sink.row(.subjectKeyIdentifierCritical, subjectKeyIdentifierCritical(fields, der))
        sink.row(.authorityInformationAccessCritical, authorityInformationAccessCritical(fields, der))
        sink.row(.nameConstraintsInEndEntity, nameConstraintsInEndEntity(fields, der))
        sink.row(.nameConstraintsNotCritical, nameConstraintsNotCritical(fields, der))
        sink.row(.malformedNameConstraints, malformedNameConstraints(fields, der))
        sink.row(.policyConstraintsNotCritical, policyConstraintsNotCritical(fields, der))
        sink.row(.inhibitAnyPolicyNotCritical, inhibitAnyPolicyNotCritical(fields, der))
        sink.row(.policyMappingWithAnyPolicy, policyMappingWithAnyPolicy(fields, der))
        sink.row(.invalidDNSNameInSubjectAltName, invalidDNSNameInSubjectAltName(fields, der))
        sink.row(.invalidRFC822NameInSubjectAltName, invalidRFC822NameInSubjectAltName(fields, der))
        sink.row(.invalidURIInSubjectAltName, invalidURIInSubjectAltName(fields, der))
        sink.row(.invalidSmtpUTF8MailboxInSubjectAltName, invalidSmtpUTF8MailboxInSubjectAltName(fields, der))
        sink.row(.invalidSerialNumber, invalidSerialNumber(fields, der))
        sink.row(.generalizedTimeBefore2050, generalizedTimeBefore2050(fields, der))
        sink.row(.subjectAltNameCriticalWithSubject, subjectAltNameCriticalWithSubject(fields, der))
        sink.row(.notVersion3, notVersion3(fields, der))
        sink.row(.certificateAuthorityAsEndEntity, certificateAuthorityAsEndEntity(fields, der))
        sink.row(.uniqueIdentifierPresent, uniqueIdentifierPresent(fields, der))
    }

    // MARK: What is done with each row

    /// Receives the rows of ``visit(_:_:_:)``.
    protocol RuleSink {
        /// One row and its check.
        mutating func row(_ rule: ProfileRule, _ broken: @autoclosure () -> Bool)
    }

    /// The rows broken, as rule bits (parsing).
    struct RuleBits: RuleSink {
        var bits: UInt64 = 0
        @inline(__always) mutating func row(_ rule: ProfileRule, _ broken: @autoclosure () -> Bool) {
            if broken() { bits |= rule.bit }
        }
    }

    /// The rows in order, unchecked (``checked``).
    struct RuleOrder: RuleSink {
        var rules: [ProfileRule] = []
        mutating func row(_ rule: ProfileRule, _ broken: @autoclosure () -> Bool) { rules.append(rule) }
    }

    /// One row's answer (``breaks(_:_:_:)``).
    struct OneRule: RuleSink {
        let rule: ProfileRule
        var broken: Bool? = nil
        mutating func row(_ rule: ProfileRule, _ broken: @autoclosure () -> Bool) {
            if rule == self.rule { self.broken = broken() }
        }
    }

    // MARK: One check per row (the clause and whom it binds: CertPath's ProfileRule.table)

    /// RFC 5280 4.1.2.4: the issuer field MUST contain a non-empty name.
    static func emptyIssuer(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool { c.layout.issuer.count == 2 }

    /// RFC 5280 4.1.2.6: a CA's subject MUST be non-empty; an end entity with an empty subject MUST
    /// have a critical subjectAltName.
    static func emptySubject(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.layout.subject.count == 2 && (c.isCertificateAuthority || !(c.isCritical(.subjectAltName) ?? false))
    }

    /// RFC 5280 4.2.1.9: a CA's basicConstraints MUST be critical.
    static func basicConstraintsNotCritical(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.isCertificateAuthority && c.isCritical(.basicConstraints) == false
    }

    /// RFC 5280 4.2.1.9: a CA's certificate MUST include basicConstraints (a v3 certificate that is
    /// not a CA by its basicConstraints lacks them).
    static func missingBasicConstraints(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        !c.isCertificateAuthority && c.version == .v3 && c.extensions.basicConstraints == nil
    }

    /// RFC 5280 4.2.1.9: keyCertSign MUST NOT be asserted without cA.
    static func keyCertSignWithoutCA(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        !c.isCertificateAuthority && c.extensions.keyUsage?.contains(.keyCertSign) == true
    }

    /// RFC 5280 4.2.1.3: a CA's certificate MUST include keyUsage.
    static func missingKeyUsage(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.isCertificateAuthority && c.extensions.keyUsage == nil
    }

    /// RFC 5280 4.2.1.1: authorityKeyIdentifier MUST be included, except in a self-signed
    /// certificate (asked of a self-issued one only when it is absent).
    static func missingAuthorityKeyIdentifier(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.isCritical(.authorityKeyIdentifier) == nil && c.version == .v3 && !c.isSelfIssued
    }

    /// RFC 5280 4.2.1.1: authorityKeyIdentifier MUST include keyIdentifier (but in a self-signed certificate).
    static func authorityKeyIdentifierWithoutKeyIdentifier(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.isCritical(.authorityKeyIdentifier) != nil && c.extensions.authorityKeyIdentifier?.keyIdentifier == nil && !c.isSelfIssued
    }

    /// RFC 5280 4.2.1.1: authorityKeyIdentifier MUST be non-critical.
    static func authorityKeyIdentifierCritical(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.isCritical(.authorityKeyIdentifier) == true
    }

    /// RFC 5280 4.2.1.2: a CA's certificate MUST include subjectKeyIdentifier.
    static func missingSubjectKeyIdentifier(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.isCertificateAuthority && c.extensions.subjectKeyIdentifier == nil
    }

    /// RFC 5280 4.2.1.2: subjectKeyIdentifier MUST be non-critical.
    static func subjectKeyIdentifierCritical(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.isCritical(.subjectKeyIdentifier) == true
    }

    /// RFC 5280 4.2.2.1: authorityInfoAccess MUST be non-critical.
    static func authorityInformationAccessCritical(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.isCritical(.authorityInfoAccess) == true
    }

    /// RFC 5280 4.2.1.10: nameConstraints MUST be used only in a CA certificate.
    static func nameConstraintsInEndEntity(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        !c.isCertificateAuthority && c.isCritical(.nameConstraints) != nil
    }

    /// RFC 5280 4.2.1.10: nameConstraints MUST be critical.
    static func nameConstraintsNotCritical(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.isCritical(.nameConstraints) == false
    }

    /// RFC 5280 4.2.1.10: a subtree that is not a well-formed name of its form cannot be applied.
    static func malformedNameConstraints(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.isCritical(.nameConstraints) != nil && c.extensions.nameConstraints?.firstMalformedSubtree() != nil
    }

    /// RFC 5280 4.2.1.11: policyConstraints MUST be critical.
    static func policyConstraintsNotCritical(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.isCritical(.policyConstraints) == false
    }

    /// RFC 5280 4.2.1.14: inhibitAnyPolicy MUST be critical.
    static func inhibitAnyPolicyNotCritical(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.isCritical(.inhibitAnyPolicy) == false
    }

    /// RFC 5280 4.2.1.5, 6.1.4 (a): policies MUST NOT be mapped to or from anyPolicy.
    static func policyMappingWithAnyPolicy(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.extensions.policyMappings?.contains {
            $0.issuerDomainPolicy == KnownOID.anyPolicy || $0.subjectDomainPolicy == KnownOID.anyPolicy
        } == true
    }

    /// RFC 5280 4.2.1.6: a dNSName MUST be in the preferred name syntax.
    static func invalidDNSNameInSubjectAltName(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.extensions.subjectAlternativeNames?.contains { name in
            guard case .dNSName(let value) = name else { return false }
            return DNSNameSyntax.check(value, allowWildcard: true) != nil
        } == true
    }

    /// RFC 5280 4.2.1.6: an rfc822Name MUST be a mailbox (RFC 5322 addr-spec).
    static func invalidRFC822NameInSubjectAltName(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.extensions.subjectAlternativeNames?.contains { name in
            guard case .rfc822Name(let value) = name else { return false }
            return !SubjectAltNameSyntax.isMailbox(value)
        } == true
    }

    /// RFC 5280 4.2.1.6: a uniformResourceIdentifier MUST be an absolute URI.
    static func invalidURIInSubjectAltName(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.extensions.subjectAlternativeNames?.contains { name in
            guard case .uniformResourceIdentifier(let value) = name else { return false }
            return !SubjectAltNameSyntax.isAbsoluteURI(value)
        } == true
    }

    /// RFC 9598 3: an SmtpUTF8Mailbox otherName MUST be a UTF8String mailbox with a non-ASCII
    /// Local-part and an A-label domain.
    static func invalidSmtpUTF8MailboxInSubjectAltName(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.extensions.subjectAlternativeNames?.contains { name in
            guard case .otherName(let typeID, let value) = name else { return false }
            return typeID == KnownOID.smtpUTF8Mailbox && NameConstraintSyntax.splitSmtpUTF8Mailbox(value) == nil
        } == true
    }

    /// RFC 5280 4.1.2.2: the serial number MUST be a positive integer of at most 20 octets.
    static func invalidSerialNumber(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        let serial = der[c.layout.serialNumber]
        let first = serial.first ?? 0
        let octets = first == 0 ? serial.count - 1 : serial.count
        return first & 0x80 != 0 || octets > 20 || serial.allSatisfy { $0 == 0 }
    }

    /// RFC 5280 4.1.2.5: validity dates through 2049 MUST be encoded as UTCTime.
    static func generalizedTimeBefore2050(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        let generalized = c.validityUsesGeneralizedTime
        return (generalized.notBefore && c.notBefore.components.year < 2050) || (generalized.notAfter && c.notAfter.components.year < 2050)
    }

    /// CA/B BR 7.1.2.7.12: subjectAltName MUST NOT be critical when the subject is not empty.
    static func subjectAltNameCriticalWithSubject(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.layout.subject.count != 2 && c.isCritical(.subjectAltName) == true
    }

    /// CA/B BR 7.1.2: certificates MUST be version 3.
    static func notVersion3(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool { c.version != .v3 }

    /// CA/B BR 7.1.2.7.8: a CA certificate is not a subscriber (end-entity) certificate.
    static func certificateAuthorityAsEndEntity(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool { c.isCertificateAuthority }

    /// CA/B BR 7.1.2: issuerUniqueID and subjectUniqueID MUST NOT be present.
    static func uniqueIdentifierPresent(_ c: borrowing Certificate.Parsed, _ der: ArraySlice<UInt8>) -> Bool {
        c.layout.issuerUniqueID != nil || c.layout.subjectUniqueID != nil
    }
}

extension Certificate.Parsed {
    /// Whether basicConstraints asserts cA.
    var isCertificateAuthority: Bool { extensions.basicConstraints?.isCertificateAuthority ?? false }

    /// The criticality of a known extension's first occurrence; `nil` when it is absent.
    @inline(__always)
    func isCritical(_ known: KnownExtension) -> Bool? {
        extensions.presentKnown & known.bit == 0 ? nil : extensions.criticalKnown & known.bit != 0
    }
}

/// Syntax of subjectAltName values beyond dNSName (RFC 5280 4.2.1.6); allocation-free.
package enum SubjectAltNameSyntax {
    /// Whether `value` is a Mailbox (RFC 5321 4.1.2): a Dot-string local part of 1–64 octets, one `@`,
    /// a domain in preferred name syntax. Quoted local parts and address literals are not interpreted.
    package static func isMailbox(_ value: ArraySlice<UInt8>) -> Bool {
        guard let at = value.firstIndex(of: UInt8(ascii: "@")) else { return false }
        let domain = value[(at + 1)...]
        return RFC822Syntax.checkLocalPart(value[..<at]) == nil && DNSNameSyntax.check(domain, allowWildcard: false) == nil
    }

    /// Whether `value` is an absolute URI (RFC 3986 4.3): a scheme (a letter, then letters, digits,
    /// `+`, `-`, `.`), a colon and a non-empty rest of printable ASCII without spaces.
    package static func isAbsoluteURI(_ value: ArraySlice<UInt8>) -> Bool {
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
