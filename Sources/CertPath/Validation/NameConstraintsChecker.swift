// Name constraints: RFC 5280 4.2.1.10, 6.1.1 (h)(i), 6.1.3 (b)(c), 6.1.4 (g).
//
// Design. RFC 5280 describes name constraints as state: permitted_subtrees is intersected and
// excluded_subtrees is united with each CA's nameConstraints (6.1.4 (g)), and each certificate's
// names are checked against that state (6.1.3 (b)(c)). Computing intersections of subtrees is
// error-prone, so CertPath, like BoringSSL, Go and rustls-webpki, keeps the list of nameConstraints
// extensions of the CAs above a certificate (plus the user's initial permitted/excluded subtrees of
// 6.1.1 (h)(i), given as one more `NameConstraints` value) and checks each certificate's names
// against EACH extension in turn. A name is within the intersection of permitted sets exactly when
// it is within every one of them, and outside the union of excluded sets exactly when it is outside
// each, so the two formulations accept the same paths.
//
// Names checked (4.2.1.10, 6.1.3 (b)): every subjectAltName entry; the subject DN, as a
// directoryName, when it is not empty; every emailAddress attribute of the subject DN, as an
// rfc822Name (RFC 5280 requires that only for certificates without a subjectAltName; CertPath does
// it always, like OpenSSL, because the address is in the certificate either way); and, only when the
// caller asks (`commonNamesAsDNSNames`, for a policy that opted into the legacy CN fallback of
// hostname matching), every subject commonName that is syntactically a host name, as a dNSName; and
// every SmtpUTF8Mailbox otherName of the subjectAltName as an rfc822Name (RFC 9598 6, below).
// Whether a self-issued certificate's names are checked (6.1.3 (b): not for a self-issued
// certificate other than the last) is the caller's decision.
//
// Within one extension (4.2.1.10, 6.1.3 (b)(c)), in this order:
// 1. An extension without any subtree (only possible through the public initializer) constrains
//    nothing: every certificate satisfies it.
// 2. If ANY subtree of the extension, permitted or excluded, of any form, is malformed
//    (`NameConstraints.firstMalformedSubtree()`: the permitted subtrees in order, then the excluded
//    ones), the check fails with `malformedConstraint` and that subtree, for every certificate,
//    whatever names it carries: a CA whose constraints cannot be read constrains nothing reliably,
//    and a malformed subtree must not wait for a name of its own form to be noticed. The violation
//    names the certificate's first name of the subtree's form (in the order below), or, without one,
//    its subject DN as a directoryName (source `subject`, even when the DN is empty).
// 3. Names are then taken in the order subject DN, subject emailAddress attributes, subject common
//    names (when asked), subjectAltName entries. For a name of form F:
//    - if no subtree has form F, the name is not constrained, but a name of a form CertPath
//      interprets (dNSName, rfc822Name, iPAddress, uniformResourceIdentifier, directoryName, and a
//      subject emailAddress) must still be valid syntax for its form, else `malformedName`. This is
//      Go's reading (it refuses an unparsable rfc822Name, dNSName, URI or IP SAN once a CA above has
//      any constraint): a name CertPath cannot read is one two validators may read as different
//      names, so it is refused as soon as any constraint applies rather than passed unexamined. The
//      syntax is the one each rule below states, except that a URI need only be an RFC 3986 URI
//      (`urn:…` is well-formed; its missing authority matters only under URI subtrees). Forms CertPath
//      does not interpret (otherName, x400Address, ediPartyName, registeredID) are skipped;
//    - if form F is one CertPath does not interpret, the check fails (`unsupportedNameForm`);
//    - if the name is not valid syntax for its form, it fails (`malformedName`; for a URI without a
//      domain host, `uriWithoutDomainHost`);
//    - if the name is within ANY excluded subtree, it fails (`withinExcludedSubtree`), even when it
//      is also permitted: exclusion wins;
//    - if the extension has permitted subtrees of form F and the name is within NONE of them, it
//      fails (`notWithinPermittedSubtrees`). Permitted subtrees of other forms do not restrict form F
//      (4.2.1.10: "Restrictions apply only when the specified name form is present").
//
// Subtree syntax (4.2.1.10), checked by step 2 for every subtree:
// - `minimum` other than 0 or any `maximum`: malformed ("the minimum MUST be zero, and maximum MUST
//   be absent"; the decoder keeps such subtrees, see `GeneralSubtree.hasNonDefaultBounds`);
// - dNSName: empty (every DNS name), or a host name in preferred syntax with one optional trailing
//   dot; a leading period (`.example.com`) or a `*` anywhere is malformed (see below);
// - rfc822Name: empty, a mailbox, a host, or a period and a domain;
// - uniformResourceIdentifier: empty, a host, or a period and a domain (a host name, not a URI:
//   `https://example.com` is malformed);
// - iPAddress: 8 or 32 octets whose mask is a contiguous run of leading one bits (CIDR, RFC 4632);
//   base bits outside the mask are tolerated and ignored (the reasons are at the top of
//   NameConstraints.swift);
// - directoryName: any Name; otherName, x400Address, ediPartyName, registeredID: not interpreted,
//   never malformed by themselves (a name of such a form meets `unsupportedNameForm`).
//
// Rules per form (comparisons of host names ignore ASCII case, RFC 4343):
// - dNSName (4.2.1.10: "any DNS name that can be constructed by simply adding zero or more labels to
//   the left-hand side of the name satisfies the name constraint"): `example.com` matches
//   `example.com` and `a.example.com`, never `badexample.com`. A constraint with a leading period,
//   `.example.com`, is `malformedConstraint`. RFC 5280 gives the leading period a meaning only for
//   rfc822Name and URI constraints; for dNSName its examples are host names ("host.example.com"),
//   and under its rule of adding labels to the left `.example.com` matches no host name at all.
//   The readings of peers agree only by convention, outside the RFC: Go's crypto/x509 reads it as
//   "proper subdomains only" on purpose (its comment says RFC 5280 allows the dot only for URI and
//   email), as do rustls-webpki, mozilla::pkix and Chromium ("RFC 5280 is ambiguous, but this
//   matches the behavior of other platforms"); OpenSSL's (and BoringSSL's) nc_dns has no leading-dot
//   rule, and its suffix comparison, keeping the dot as a character, happens to match proper
//   subdomains too. pyca/cryptography refuses the constraint, as CertPath does; a validator
//   following the RFC's text reads it as matching nothing. An excluded `.example.com` is the
//   danger: "every subdomain" to one validator, "nothing" to another; a permitted one admits names
//   the text's reading refuses. CertPath does not guess and refuses the extension (fail closed:
//   no name under such a CA is accepted, by either reading, that the other would refuse). An empty constraint
//   matches every DNS name. One trailing dot is removed from names and constraints before
//   comparing: `example.com.` is the same host as `example.com`, and CertPath's hostname matching
//   ignores the dot too, so a constraint must see both alike.
//   A presented wildcard `*.example.com` stands for every name `<label>.example.com`: it is within a
//   permitted subtree only when every name it covers is (`*.foo.com` within `foo.com`, but not
//   within `foo.example.com`), and within an excluded subtree when ANY name it covers is (excluded
//   `bar.example.com` rejects `*.example.com`; Go's CVE-2025-61727 was missing this).
//   Syntax: labels of 1–63 octets of letters, digits, `-` and `_`, at most 253 octets; `*` only as
//   the whole left-most label followed by at least one label. Underscores are accepted (they appear
//   in real internal names; they compare like any other character, and hostname matching refuses
//   them separately). Anything else (empty labels, spaces, `%`, `/`, control characters, a partial
//   wildcard `f*.example.com`, a lone `*`, two trailing dots) is `malformedName` when the extension
//   has any subtree (step 3). A constraint with a `*`, a leading period or otherwise invalid syntax is
//   `malformedConstraint`.
// - rfc822Name (4.2.1.10): a constraint is a mailbox (`foo@example.com`: that mailbox only, local
//   part compared octet for octet, domain ignoring case), a host (`example.com`: every mailbox at
//   exactly that host) or a domain (`.example.com`: mailboxes at any subdomain, not at the host
//   itself); an empty constraint matches every mailbox. Every character is literal: `*@example.com`
//   permits only the mailbox `*@example.com`, and `**@example.com` does not permit `*@example.com`
//   (x509-limbo). Presented names and mailbox constraints need exactly one `@`, an RFC 5321
//   Dot-string local part of 1–64 octets and a valid host name without trailing dot; quoted local
//   parts and address literals are not interpreted and so are `malformedName`
//   (`malformedConstraint` in a subtree, e.g. `invalid@invalid@example.com`). A presented name
//   must be a mailbox even when the extension has no rfc822Name subtree (step 3): `a@@b.example`
//   under a dNSName-only extension is `malformedName`.
// - SmtpUTF8Mailbox (otherName 1.3.6.1.5.5.7.8.9, RFC 9598): RFC 9598 6 extends rfc822Name
//   constraints to it: "Strip the Local-part and "@" separator", then compare domains as 4.2.1.10
//   does (a host constraint: the same domain; `.example.com`: a proper subdomain; empty: every
//   mailbox), in A-labels and lower case (RFC 9598 5; the domain is already in A-labels, section 3,
//   and ASCII case is ignored). A mailbox constraint (`foo@example.com`), which RFC 9598 6 says
//   SHOULD NOT be used, reads two ways: it names one ASCII mailbox, never equal to an
//   SmtpUTF8Mailbox (RFC 9598 5), yet section 6 strips its Local-part too. CertPath fails closed: in
//   a permitted subtree it permits no SmtpUTF8Mailbox; in an excluded one it excludes every
//   SmtpUTF8Mailbox at its domain. The name is interpreted, so it must be well-formed as soon as the
//   extension has any subtree (step 3), else `malformedName`: a UTF8String, not empty, without
//   U+FEFF (RFC 9598 3), one `@`, an RFC 6531 Dot-string Local-part of 1–64 octets with at least one
//   non-ASCII character (RFC 9598 3: an all-ASCII Local-part belongs in an rfc822Name), and an ASCII
//   host-name domain. A domain with non-ASCII characters (U-labels, allowed by RFC 8398, forbidden by
//   RFC 9598 3) would need IDNA's ToASCII to be compared with A-label constraints; CertPath has no
//   IDNA implementation and refuses such a name rather than pass it (it could lie inside an excluded
//   subtree, or outside every permitted one). An otherName subtree in the extension still makes an
//   SmtpUTF8Mailbox `unsupportedNameForm` once its rfc822Name constraints are met.
// - iPAddress (4.2.1.10): a subtree is an address and a mask (8 octets for IPv4, 32 for IPv6), the
//   mask a contiguous prefix (a subtree of another length or with a mask such as 255.0.255.0 is
//   `malformedConstraint`, not a decoding error since the type is an OCTET STRING); a presented
//   address (4 or 16 octets) is within it when `address & mask == base & mask`. IPv4
//   subtrees never match IPv6 addresses and IPv6 subtrees never match IPv4 addresses, including
//   IPv4-mapped IPv6 ones (the families are compared as encoded, as in Go and webpki).
// - directoryName (4.2.1.10, 7.1): the subtree's RDN sequence must be a prefix of the name's, RDN by
//   RDN, each pair equal under the RFC 5280 7.1 comparison (``Name/normalizedKey``; identical
//   encodings are equal without normalizing). An empty subtree DN matches every DN. An empty subject
//   DN is not checked (6.1.3 (b)); an empty directoryName in subjectAltName is.
// - uniformResourceIdentifier (4.2.1.10: "the constraint applies to the host part of the name"):
//   the host is taken from the RFC 3986 authority (after `scheme://`, before `/`, `?` or `#`, after
//   any `userinfo@`, before any `:port`). A constraint with a leading dot matches proper subdomains;
//   one without matches exactly that host ("When the constraint does not begin with a period, it
//   specifies a host"; Go reads it as host-or-subdomain, OpenSSL as CertPath does); an empty one
//   matches every URI that has a domain host. A URI without an authority (`urn:…`, `mailto:…`), with
//   an empty host, or whose host is an IP address (`[::1]`, or a last label that is numeric, read as
//   IPv4 by URL parsers) fails with `uriWithoutDomainHost` whenever the extension has any URI subtree,
//   permitted or excluded: 4.2.1.10 says the application "MUST reject the certificate". A URI that
//   is not RFC 3986 syntax (no valid scheme, two `@`, a non-numeric port, a character no component
//   allows, a bad percent-encoding) is `malformedName` whenever the extension has any subtree
//   (step 3); under URI subtrees, so is a host that is not host-name syntax (percent-encoded octets
//   included), which RFC 3986 allows but CertPath does not interpret. Without URI subtrees, a URI
//   needs no authority: `urn:example:a` under a dNSName-only extension is fine.
// - otherName, x400Address, ediPartyName, registeredID: CertPath does not interpret these forms.
//   When an extension has a subtree of one of them (of any otherName type) and the certificate has a
//   name of the same form, the check fails with `unsupportedNameForm` (4.2.1.10: an application
//   that cannot process a constraint on a name form present in the certificate must reject it;
//   x509-limbo `nc-forbids-othername`). A certificate without such a name is unaffected
//   (`nc-forbids-othername-noop`).
//
// Budget: every (name, subtree) pair visited costs one unit of `comparisons` (as in rustls-webpki),
// plus one per 64 bytes of a directoryName subtree of the name's form (its comparison normalizes
// RDN after RDN: see `extraCost(of:)`), so a certificate with many names against many subtrees
// stops with `budgetExhausted` after at most `comparisons` steps instead of running quadratically.
// The caller shares one budget across a whole path evaluation (125,000 by default, `Budget`); each
// comparison reads prepared bytes (PreparedSubtrees.swift): about 7 ns on the reference machine.

/// The outcome of checking one certificate's names against one nameConstraints extension
/// (RFC 5280 6.1.3 (b)(c)).
package enum NameConstraintsResult: Hashable, Sendable {
    /// Every subtree is well-formed, every name of a form CertPath interprets is well-formed, and
    /// every name of a constrained form is within the permitted subtrees of its form (when the
    /// extension has any) and within no excluded subtree.
    case satisfied
    /// A subtree of the extension is malformed (checked first, for every certificate), or a name
    /// violates the constraints: the first one found, in the order subject DN, subject emailAddress
    /// attributes, subject common names (when asked), subjectAltName entries.
    case violation(NameConstraintViolation)
    /// The comparison budget ran out before the check finished; the result is unknown and the path
    /// must be treated as invalid.
    case budgetExhausted
}

/// Checks names against nameConstraints extensions (RFC 5280 4.2.1.10, 6.1.3 (b)(c)); see the
/// comment at the top of this file for every rule.
enum NameConstraintsChecker {
    /// Checks the names of one certificate against one nameConstraints extension (of a CA above it in
    /// the path, or the user's initial permitted/excluded subtrees of 6.1.1 (h)(i)).
    ///
    /// - Parameters:
    ///   - subject: the certificate's subject; checked as a directoryName when not empty, and its
    ///     emailAddress attributes as rfc822Names.
    ///   - subjectAlternativeNames: the subjectAltName entries, or `nil` when the extension is absent.
    ///   - constraints: the extension.
    ///   - commonNamesAsDNSNames: also check each subject commonName that is syntactically a host name
    ///     (or wildcard pattern) as a dNSName; pass `true` when the hostname policy may match the CN.
    ///   - comparisons: the remaining budget of (name, subtree) comparisons, decremented once per pair
    ///     visited and shared across the whole path evaluation.
    /// - Returns: `.satisfied`, the first violation (a malformed subtree before any name), or
    ///   `.budgetExhausted` as soon as the budget is 0 while a comparison remains to be made. Subtree
    ///   syntax and name syntax cost no budget: both are linear (in the extension, in the names).
    static func check(
        subject: Name, subjectAlternativeNames: [GeneralName]?, constraints: NameConstraints,
        commonNamesAsDNSNames: Bool = false, comparisons: inout Int
    ) -> NameConstraintsResult {
        let checker = Checker(constraints)
        guard checker.constrainedForms != 0 else { return .satisfied }
        if let malformed = constraints.firstMalformedSubtree() {
            let reported = reportedName(of: NameConstraintForm(malformed.subtree.base), subject: subject,
                                        subjectAlternativeNames: subjectAlternativeNames, commonNamesAsDNSNames: commonNamesAsDNSNames)
            return .violation(NameConstraintViolation(name: reported.name, source: reported.source,
                                                      reason: .malformedConstraint(malformed.subtree)))
        }
        if checker.constrains(.directoryName), !subject.isEmpty {  // (a Name is always well-formed)
            if let failure = checker.check(.directoryName(subject), .subject, &comparisons) { return failure }
        }
        // emailAddress attributes are names CertPath checks, so they must be well-formed even without
        // rfc822Name subtrees; common names only when asked and dNSNames are constrained.
        let wantsCommonName = commonNamesAsDNSNames && checker.constrains(.dNSName)
        if wantsCommonName || hasEmailAddress(subject) {
            for attribute in subject.attributes {
                if attribute.type == KnownOID.emailAddress {
                    if let failure = checker.checkEmailAttribute(attribute, &comparisons) { return failure }
                } else if wantsCommonName, attribute.type == KnownOID.commonName {
                    if let failure = checker.checkCommonName(attribute, &comparisons) { return failure }
                }
            }
        }
        for name in subjectAlternativeNames ?? [] {
            if let failure = checker.check(name, .subjectAlternativeName, &comparisons) { return failure }
        }
        return .satisfied
    }

    /// The name a `malformedConstraint` violation reports: the certificate's first name of `form`, in
    /// the order names are checked (subject DN, emailAddress attributes, common names when asked and
    /// host-name syntax, subjectAltName entries, an SmtpUTF8Mailbox counting as an rfc822Name), else
    /// its subject DN as a directoryName.
    private static func reportedName(
        of form: NameConstraintForm, subject: Name, subjectAlternativeNames: [GeneralName]?, commonNamesAsDNSNames: Bool
    ) -> (name: GeneralName, source: NameConstraintViolation.Source) {
        switch form {
        case .directoryName where !subject.isEmpty:
            return (.directoryName(subject), .subject)
        case .rfc822Name:
            if let attribute = subject.attributes.first(where: { $0.type == KnownOID.emailAddress }) {
                return (.rfc822Name(attribute.value), .subjectEmailAddress)
            }
        case .dNSName where commonNamesAsDNSNames:
            for attribute in subject.attributes where attribute.type == KnownOID.commonName {
                guard let text = attribute.stringValue else { continue }
                let name = GeneralName.dNSName(Array(text.utf8)[...])
                if case .success = ConstrainedName.prepare(name) { return (name, .subjectCommonName) }
            }
        default:
            break
        }
        if let name = subjectAlternativeNames?.first(where: { NameConstraintForm(constraining: $0) == form }) {
            return (name, .subjectAlternativeName)
        }
        return (.directoryName(subject), .subject)
    }

    /// Whether `subject` has an emailAddress attribute, without decoding its attributes (most
    /// subjects have none, and this runs for every certificate below a constrained CA).
    private static func hasEmailAddress(_ subject: Name) -> Bool {
        let type = KnownOID.emailAddress.encoded
        var found = false
        let complete = subject.der.withUnsafeBufferPointer { buffer in
            NameWalker.forEachAttribute(buffer) { (_, typeRange, _, _, _) -> Bool in
                found = type.elementsEqual(UnsafeBufferPointer(rebasing: buffer[typeRange]))
                return !found
            }
        }
        return found || !complete  // a structure the walker does not read: decode it to be sure
    }

    /// Units of the budget a comparison with `base` costs beyond the one every pair costs: one per
    /// 64 bytes of a directoryName subtree, whose comparison normalizes RDN after RDN (a pair of
    /// 80-RDN names cost as much as hundreds of host names, and 500 such names against 500 such
    /// subtrees took 8 s within the pair budget). Other forms are bounded by their syntax.
    static func extraCost(of base: GeneralName) -> Int {
        if case .directoryName(let name) = base { return name.der.count / 64 }
        return 0
    }
}

/// The state of one `check` call: the extension's subtrees (all well-formed once names are
/// checked) and which forms they mention.
private struct Checker {
    let permitted: PreparedSubtrees
    let excluded: PreparedSubtrees
    /// Forms with at least one permitted subtree.
    var permittedForms: UInt16 { permitted.forms }
    /// Forms with at least one permitted or excluded subtree.
    let constrainedForms: UInt16

    init(_ constraints: NameConstraints) {
        // Each subtree's syntax is read here, once per extension and certificate, not once per comparison.
        permitted = PreparedSubtrees(constraints.permittedSubtrees ?? [])
        excluded = PreparedSubtrees(constraints.excludedSubtrees ?? [])
        constrainedForms = permitted.forms | excluded.forms
    }

    func constrains(_ form: NameConstraintForm) -> Bool { constrainedForms & form.bit != 0 }

    /// Checks one name; `nil` when it is acceptable. The extension's subtrees have been validated.
    func check(_ name: GeneralName, _ source: NameConstraintViolation.Source, _ budget: inout Int) -> NameConstraintsResult? {
        let form = NameConstraintForm(constraining: name)
        guard form == NameConstraintForm(name) else {
            // An SmtpUTF8Mailbox: rfc822Name subtrees first (RFC 9598 6), then, as for any otherName,
            // otherName subtrees, which CertPath does not process (4.2.1.10).
            if let failure = check(name, as: form, source, &budget) { return failure }
            guard constrains(.otherName) else { return nil }
            return .violation(NameConstraintViolation(name: name, source: source, reason: .unsupportedNameForm))
        }
        return check(name, as: form, source, &budget)
    }

    /// ``check(_:_:_:)`` against the subtrees of `form`.
    private func check(_ name: GeneralName, as form: NameConstraintForm, _ source: NameConstraintViolation.Source,
                       _ budget: inout Int) -> NameConstraintsResult? {
        func violation(_ reason: NameConstraintViolation.Reason) -> NameConstraintsResult {
            .violation(NameConstraintViolation(name: name, source: source, reason: reason))
        }
        guard constrains(form) else {
            // Not constrained, but a name CertPath interprets must be readable (no budget: no pair).
            return ConstrainedName.isWellFormed(name) ? nil : violation(.malformedName)
        }
        guard form.isSupported else { return violation(.unsupportedNameForm) }
        let presented: ConstrainedName
        switch ConstrainedName.prepare(name) {
        case .success(let prepared): presented = prepared
        case .failure(.malformed): return violation(.malformedName)
        case .failure(.uriWithoutDomainHost): return violation(.uriWithoutDomainHost)
        }
        let bytes = PresentedName(presented)
        switch excluded.scan(bytes, presented, form: form, .excluded, &budget) {
        case .match(let index): return violation(.withinExcludedSubtree(excluded.subtrees[index]))
        case .malformedConstraint(let index): return violation(.malformedConstraint(excluded.subtrees[index]))
        case .budgetExhausted: return .budgetExhausted
        case .noMatch: break
        }
        guard permittedForms & form.bit != 0 else { return nil }
        switch permitted.scan(bytes, presented, form: form, .permitted, &budget) {
        case .match: return nil
        case .malformedConstraint(let index): return violation(.malformedConstraint(permitted.subtrees[index]))
        case .budgetExhausted: return .budgetExhausted
        case .noMatch: break
        }
        return violation(.notWithinPermittedSubtrees)
    }

    /// Checks a subject emailAddress attribute as an rfc822Name. Its value should be an IA5String
    /// (PKCS #9); UTF8String, PrintableString and VisibleString values are read as their octets (the
    /// mailbox syntax then refuses anything non-ASCII); other types are `malformedName`.
    func checkEmailAttribute(_ attribute: AttributeTypeAndValue, _ budget: inout Int) -> NameConstraintsResult? {
        let name = GeneralName.rfc822Name(attribute.value)
        switch attribute.valueTag {
        case .ia5String, .utf8String, .printableString, .visibleString:
            return check(name, .subjectEmailAddress, &budget)
        default:
            return .violation(NameConstraintViolation(name: name, source: .subjectEmailAddress, reason: .malformedName))
        }
    }

    /// Checks a subject commonName as a dNSName when its text is a host name or wildcard pattern;
    /// other common names ("Jane Doe") cannot be matched as host names and are skipped.
    func checkCommonName(_ attribute: AttributeTypeAndValue, _ budget: inout Int) -> NameConstraintsResult? {
        guard let text = attribute.stringValue else { return nil }
        let bytes = Array(text.utf8)[...]
        guard case .success = ConstrainedName.prepare(.dNSName(bytes)) else { return nil }
        return check(.dNSName(bytes), .subjectCommonName, &budget)
    }
}
