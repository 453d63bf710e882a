// A name constraint violation: the evidence of ValidationFailure.nameConstraintViolation (RFC 5280 4.2.1.10, 6.1.3 (b)(c)).

/// Which name of a certificate violated a name constraint, and why (RFC 5280 4.2.1.10, 6.1.3 (b)(c)).
public struct NameConstraintViolation: Hashable, Sendable, CustomStringConvertible {
    /// Where in the certificate the name came from.
    public enum Source: Hashable, Sendable {
        /// The subject DN, checked as a directoryName.
        case subject
        /// An emailAddress attribute (PKCS #9, 1.2.840.113549.1.9.1) of the subject DN, checked as an
        /// rfc822Name.
        case subjectEmailAddress
        /// A commonName of the subject DN, checked as a dNSName because the caller's hostname policy
        /// may match it (legacy CN fallback).
        case subjectCommonName
        /// An entry of the subjectAltName extension (an SmtpUTF8Mailbox otherName, RFC 9598, included).
        case subjectAlternativeName
    }

    /// Why the name is not acceptable.
    public enum Reason: Hashable, Sendable {
        /// The extension has permitted subtrees of the name's form and the name is within none of
        /// them (6.1.3 (b)).
        case notWithinPermittedSubtrees
        /// The name is within this excluded subtree (6.1.3 (c)); for a wildcard dNSName, some name the
        /// wildcard covers is.
        case withinExcludedSubtree(GeneralSubtree)
        /// The extension constrains a name form CertPath does not process (otherName, x400Address,
        /// ediPartyName, registeredID) and the certificate has a name of that form (4.2.1.10).
        case unsupportedNameForm
        /// The name is not valid syntax for its form (a dNSName with an empty label, a mailbox with two
        /// `@`, an iPAddress of the wrong length, a URI that is not RFC 3986 syntax, …), so it cannot be
        /// compared with the constraints. Checked for every name of a form CertPath interprets as soon
        /// as the extension has any subtree, even of another form.
        case malformedName
        /// A uniformResourceIdentifier without an authority, or whose host is an IP address rather than
        /// a domain name, while the extension constrains URIs (4.2.1.10: "MUST reject the certificate").
        case uriWithoutDomainHost
        /// This subtree of the extension cannot be used: it is not valid syntax for its form (an
        /// rfc822Name `invalid@invalid@example.com`, a dNSName with `*` or a leading period, an iPAddress
        /// not of 8 or 32 octets or with a non-contiguous mask) or it has a `minimum` or `maximum`
        /// (the first such subtree: the permitted ones in order, then the excluded ones). Reported for every
        /// certificate checked against the extension, whatever names it has; the violation's `name` is
        /// then the certificate's first name of the subtree's form, or its subject DN (source
        /// `subject`) when it has none.
        case malformedConstraint(GeneralSubtree)
    }

    /// The certificate's name that violates the constraint (a subject emailAddress as an
    /// `rfc822Name`, a common name as a `dNSName`, the subject DN as a `directoryName`).
    public let name: GeneralName
    /// Where the name came from.
    public let source: Source
    /// Why it violates the constraint.
    public let reason: Reason

    /// `DNS:evil.test (subjectAltName) is not within any permitted dNSName subtree`, and so on.
    public var description: String {
        let origin: String
        switch source {
        case .subject: origin = "subject"
        case .subjectEmailAddress: origin = "subject emailAddress"
        case .subjectCommonName: origin = "subject commonName"
        case .subjectAlternativeName: origin = "subjectAltName"
        }
        let what = "\(name) (\(origin))"
        switch reason {
        case .notWithinPermittedSubtrees:
            return "\(what) is not within any permitted \(NameConstraintForm(constraining: name).label) subtree"
        case .withinExcludedSubtree(let subtree):
            return "\(what) is within the excluded subtree \(subtree.base)"
        case .unsupportedNameForm:
            return "\(what) has a name form (\(NameConstraintForm(name).label)) whose name constraints CertPath does not process"
        case .malformedName:
            if NameConstraintForm(constraining: name) != NameConstraintForm(name) {
                return "\(what) is not a well-formed SmtpUTF8Mailbox (RFC 9598 3), so name constraints cannot be checked"
            }
            return "\(what) is not a well-formed \(NameConstraintForm(name).label), so name constraints cannot be checked"
        case .uriWithoutDomainHost:
            return "\(what) has no domain-name host, which URI name constraints require"
        case .malformedConstraint(let subtree):
            let why = subtree.malformation.map { ": \($0)" } ?? ""
            return "the \(NameConstraintForm(subtree.base).label) constraint \(subtree.base) is malformed\(why)"
        }
    }
}

/// The nine GeneralName forms, numbered by their context tags (RFC 5280 4.2.1.6).
enum NameConstraintForm: Int {
    case otherName = 0, rfc822Name, dNSName, x400Address, directoryName, ediPartyName
    case uniformResourceIdentifier, iPAddress, registeredID

    init(_ name: GeneralName) {
        switch name {
        case .otherName: self = .otherName
        case .rfc822Name: self = .rfc822Name
        case .dNSName: self = .dNSName
        case .x400Address: self = .x400Address
        case .directoryName: self = .directoryName
        case .ediPartyName: self = .ediPartyName
        case .uniformResourceIdentifier: self = .uniformResourceIdentifier
        case .iPAddress: self = .iPAddress
        case .registeredID: self = .registeredID
        }
    }

    /// The form whose subtrees constrain `name`: an SmtpUTF8Mailbox otherName is held to rfc822Name
    /// subtrees (RFC 9598 6); any other name to those of its own form.
    init(constraining name: GeneralName) {
        if case .otherName(let typeID, _) = name, typeID == KnownOID.smtpUTF8Mailbox {
            self = .rfc822Name
        } else {
            self.init(name)
        }
    }

    /// A bit for masks of forms.
    var bit: UInt16 { 1 << UInt16(rawValue) }

    /// Whether CertPath compares names of this form with constraints.
    var isSupported: Bool {
        switch self {
        case .rfc822Name, .dNSName, .directoryName, .uniformResourceIdentifier, .iPAddress: return true
        case .otherName, .x400Address, .ediPartyName, .registeredID: return false
        }
    }

    /// The RFC 5280 name of the form.
    var label: String {
        switch self {
        case .otherName: return "otherName"
        case .rfc822Name: return "rfc822Name"
        case .dNSName: return "dNSName"
        case .x400Address: return "x400Address"
        case .directoryName: return "directoryName"
        case .ediPartyName: return "ediPartyName"
        case .uniformResourceIdentifier: return "uniformResourceIdentifier"
        case .iPAddress: return "iPAddress"
        case .registeredID: return "registeredID"
        }
    }
}
