import Testing

@testable import CertPath
import CertPathDER

/// Name constraint checking (RFC 5280 4.2.1.10, 6.1.3 (b)(c)): one certificate's names against one
/// nameConstraints extension, per name form, with the reason of every rejection.
@Suite("Name constraints")
struct NameConstraintsTests {
    // MARK: Fixtures

    typealias Source = NameConstraintViolation.Source

    /// What a case expects; turned into a ``NameConstraintsResult``.
    enum Expect: Sendable, CustomStringConvertible {
        case satisfied
        case notPermitted(GeneralName, Source = .subjectAlternativeName)
        case excluded(GeneralName, by: GeneralName, Source = .subjectAlternativeName)
        case unsupported(GeneralName)
        case malformedName(GeneralName, Source = .subjectAlternativeName)
        case noDomainHost(GeneralName)
        case malformedConstraint(GeneralName, constraint: GeneralName, Source = .subjectAlternativeName)

        var result: NameConstraintsResult {
            func violation(_ name: GeneralName, _ source: Source, _ reason: NameConstraintViolation.Reason) -> NameConstraintsResult {
                .violation(NameConstraintViolation(name: name, source: source, reason: reason))
            }
            switch self {
            case .satisfied: return .satisfied
            case .notPermitted(let name, let source): return violation(name, source, .notWithinPermittedSubtrees)
            case .excluded(let name, let base, let source):
                return violation(name, source, .withinExcludedSubtree(GeneralSubtree(base: base)))
            case .unsupported(let name): return violation(name, .subjectAlternativeName, .unsupportedNameForm)
            case .malformedName(let name, let source): return violation(name, source, .malformedName)
            case .noDomainHost(let name): return violation(name, .subjectAlternativeName, .uriWithoutDomainHost)
            case .malformedConstraint(let name, let base, let source):
                return violation(name, source, .malformedConstraint(GeneralSubtree(base: base)))
            }
        }

        var description: String {
            switch result {
            case .satisfied: return "satisfied"
            case .budgetExhausted: return "budget exhausted"
            case .violation(let violation): return "violation: \(violation)"
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let reason: String
        let permitted: [GeneralName]?
        let excluded: [GeneralName]?
        let subject: Name
        let sans: [GeneralName]?
        let commonNames: Bool
        let expect: Expect

        var constraints: NameConstraints {
            NameConstraints(permittedSubtrees: permitted?.map(GeneralSubtree.init(base:)),
                            excludedSubtrees: excluded?.map(GeneralSubtree.init(base:)))
        }

        var testDescription: String { "\(reason) -> \(expect)" }
    }

    static func t(
        _ reason: String, permit: [GeneralName]? = nil, exclude: [GeneralName]? = nil, subject: Name = emptyDN,
        sans: [GeneralName]? = nil, commonNames: Bool = false, _ expect: Expect
    ) -> Case {
        Case(reason: reason, permitted: permit, excluded: exclude, subject: subject, sans: sans,
             commonNames: commonNames, expect: expect)
    }

    static func dns(_ text: String) -> GeneralName { .dNSName(Array(text.utf8)[...]) }
    static func email(_ text: String) -> GeneralName { .rfc822Name(Array(text.utf8)[...]) }
    static func uri(_ text: String) -> GeneralName { .uniformResourceIdentifier(Array(text.utf8)[...]) }
    static func ip(_ bytes: [UInt8]) -> GeneralName { .iPAddress(bytes[...]) }
    static func dir(_ name: Name) -> GeneralName { .directoryName(name) }
    static let otherNameOID: OID = "1.3.6.1.4.1.311.20.2.3"  // Microsoft UPN
    static let otherName = GeneralName.otherName(typeID: otherNameOID, value: [0x0C, 0x01, 0x61][...])

    static let v6Loopback: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    static let v6Full: [UInt8] = [UInt8](repeating: 0xFF, count: 16)
    static let mapped192: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 0, 2, 1]

    /// One attribute of a distinguished name, encoded by ``dn(_:)``.
    struct Attribute: Sendable {
        let type: OID
        let tag: DERTag
        let value: [UInt8]
    }

    static func cn(_ text: String, _ tag: DERTag = .utf8String) -> Attribute { Attribute(type: KnownOID.commonName, tag: tag, value: Array(text.utf8)) }
    static func org(_ text: String, _ tag: DERTag = .utf8String) -> Attribute { Attribute(type: "2.5.4.10", tag: tag, value: Array(text.utf8)) }
    static func unit(_ text: String) -> Attribute { Attribute(type: "2.5.4.11", tag: .utf8String, value: Array(text.utf8)) }
    static func country(_ text: String) -> Attribute { Attribute(type: "2.5.4.6", tag: .printableString, value: Array(text.utf8)) }
    static func mail(_ text: String) -> Attribute { Attribute(type: KnownOID.emailAddress, tag: .ia5String, value: Array(text.utf8)) }
    /// emailAddress as a BMPString (UTF-16BE), which PKCS #9 does not allow.
    static func bmpMail(_ text: String) -> Attribute {
        Attribute(type: KnownOID.emailAddress, tag: .bmpString, value: text.utf8.flatMap { [0, $0] })
    }

    /// A Name whose RDNs are the arguments, most significant first; a multi-attribute argument is a
    /// multi-valued RDN (its encodings sorted into DER SET OF order).
    static func dn(_ rdns: [Attribute]...) -> Name {
        var writer = DERWriter()
        writer.append(.sequence) { sequence in
            for rdn in rdns {
                let encodings = rdn.map { attribute -> [UInt8] in
                    var atv = DERWriter()
                    atv.append(.sequence) { fields in
                        fields.appendOID(attribute.type)
                        fields.append(attribute.tag, contents: attribute.value)
                    }
                    return atv.bytes
                }.sorted { $0.lexicographicallyPrecedes($1) }
                sequence.append(.set) { set in for encoding in encodings { set.appendEncoded(encoding) } }
            }
        }
        do {
            return try Name(derEncoded: writer.bytes)
        } catch {
            preconditionFailure("test fixture Name does not parse: \(error)")
        }
    }

    static let emptyDN = dn()

    // MARK: dNSName

    static let dnsCases: [Case] = [
        t("4.2.1.10: zero labels added to the constraint satisfies it",
          permit: [dns("example.com")], sans: [dns("example.com")], .satisfied),
        t("4.2.1.10: one label added on the left satisfies it",
          permit: [dns("example.com")], sans: [dns("a.example.com")], .satisfied),
        t("4.2.1.10: several labels added (x509-limbo permitted-dns-match-more)",
          permit: [dns("example.com")], sans: [dns("foo.bar.example.com")], .satisfied),
        t("labels, not characters: badexample.com is not below example.com",
          permit: [dns("example.com")], sans: [dns("badexample.com")], .notPermitted(dns("badexample.com"))),
        t("a name outside the permitted subtree",
          permit: [dns("example.com")], sans: [dns("example.org")], .notPermitted(dns("example.org"))),
        // A leading-dot dNSName constraint used to be read as Go and webpki read it ("proper
        // subdomains only": a.example.com permitted, example.com not). RFC 5280 4.2.1.10 defines the
        // leading period only for rfc822Name and URI constraints, and validators disagree on it, so
        // the subtree is now malformed whatever the name (NameConstraintSyntaxTests has the rule).
        t("leading dot: malformed, even for a proper subdomain (Go and webpki would permit it)",
          permit: [dns(".example.com")], sans: [dns("a.example.com")],
          .malformedConstraint(dns("a.example.com"), constraint: dns(".example.com"))),
        t("leading dot: malformed for the domain itself (Go and webpki would refuse it as not permitted)",
          permit: [dns(".example.com")], sans: [dns("example.com")],
          .malformedConstraint(dns("example.com"), constraint: dns(".example.com"))),
        t("an empty dNSName constraint matches every DNS name",
          permit: [dns("")], sans: [dns("anything.test")], .satisfied),
        t("RFC 4343: case-insensitive comparison",
          permit: [dns("EXAMPLE.com")], sans: [dns("www.Example.COM")], .satisfied),
        t("one trailing dot on the name is ignored",
          permit: [dns("example.com")], sans: [dns("www.example.com.")], .satisfied),
        t("one trailing dot on the constraint is ignored",
          permit: [dns("example.com.")], sans: [dns("a.example.com")], .satisfied),
        t("an absolute name cannot escape an exclusion",
          exclude: [dns("example.com")], sans: [dns("Example.COM.")], .excluded(dns("Example.COM."), by: dns("example.com"))),
        t("6.1.3 (c): excluded name (x509-limbo excluded-dns-match)",
          exclude: [dns("example.com")], sans: [dns("example.com")], .excluded(dns("example.com"), by: dns("example.com"))),
        t("a name outside the excluded subtree is fine",
          exclude: [dns("example.com")], sans: [dns("notexample.com")], .satisfied),
        t("every SAN is checked (x509-limbo excluded-dns-match-second)",
          exclude: [dns("not-allowed.example.com")], sans: [dns("allowed.example.com"), dns("not-allowed.example.com")],
          .excluded(dns("not-allowed.example.com"), by: dns("not-allowed.example.com"))),
        t("excluded wins over permitted (x509-limbo excluded-match-permitted-and-excluded)",
          permit: [dns("example.com")], exclude: [dns("example.com")], sans: [dns("example.com")],
          .excluded(dns("example.com"), by: dns("example.com"))),
        t("an excluded subtree inside a permitted one",
          permit: [dns("example.com")], exclude: [dns("bad.example.com")], sans: [dns("x.bad.example.com")],
          .excluded(dns("x.bad.example.com"), by: dns("bad.example.com"))),
        // Was satisfied (the domain is not a proper subdomain); an excluded leading-dot dNSName is
        // exactly the subtree two validators read differently, so it is now malformed.
        t("an excluded leading-dot constraint is malformed (it used to let the domain itself through)",
          exclude: [dns(".example.com")], sans: [dns("example.com")],
          .malformedConstraint(dns("example.com"), constraint: dns(".example.com"))),
        t("within any one of several permitted subtrees",
          permit: [dns("foo.com"), dns("bar.com")], sans: [dns("x.bar.com")], .satisfied),
        t("every SAN must be permitted, not just one",
          permit: [dns("foo.com")], sans: [dns("a.foo.com"), dns("evil.com")], .notPermitted(dns("evil.com"))),
        t("empty label is malformed when a dNSName constraint applies",
          permit: [dns("example.com")], sans: [dns("a..example.com")], .malformedName(dns("a..example.com"))),
        t("a space is malformed",
          exclude: [dns("evil.com")], sans: [dns("ex ample.com")], .malformedName(dns("ex ample.com"))),
        t("two trailing dots are malformed",
          permit: [dns("example.com")], sans: [dns("example.com..")], .malformedName(dns("example.com.."))),
        t("underscores are accepted and compared (excluded)",
          exclude: [dns("example.com")], sans: [dns("under_score.example.com")],
          .excluded(dns("under_score.example.com"), by: dns("example.com"))),
        t("underscores are accepted and compared (permitted)",
          permit: [dns("example.com")], sans: [dns("_acme.example.com")], .satisfied),
        t("a partial-label wildcard is malformed",
          exclude: [dns("example.com")], sans: [dns("f*.example.com")], .malformedName(dns("f*.example.com"))),
        t("a lone * is malformed",
          permit: [dns("example.com")], sans: [dns("*")], .malformedName(dns("*"))),
        t("4.2.1.10: an iPAddress constraint does not restrict dNSNames (x509-limbo permitted-different-constraint-type)",
          permit: [ip([192, 0, 2, 0, 255, 255, 255, 0])], sans: [dns("example.com")], .satisfied),
        t("an excluded iPAddress does not restrict dNSNames (x509-limbo excluded-different-constraint-type)",
          exclude: [ip([192, 0, 2, 0, 255, 255, 255, 0])], sans: [dns("example.com")], .satisfied),
        // Was satisfied (only names of a constrained form were read). Once any constraint applies,
        // every name of a form CertPath interprets must be well-formed (Go's reading).
        t("a malformed dNSName is refused when only an iPAddress constraint applies",
          permit: [ip([192, 0, 2, 0, 255, 255, 255, 0])], sans: [dns("a..b")], .malformedName(dns("a..b"))),
        t("a wildcard in a dNSName constraint is malformed",
          permit: [dns("*.example.com")], sans: [dns("a.example.com")],
          .malformedConstraint(dns("a.example.com"), constraint: dns("*.example.com"))),
        t("a lone dot constraint is malformed",
          exclude: [dns(".")], sans: [dns("a.example.com")], .malformedConstraint(dns("a.example.com"), constraint: dns("."))),
        t("a malformed constraint fails even after a matching one",
          permit: [dns("example.com"), dns("bad name")], sans: [dns("a.example.com")],
          .malformedConstraint(dns("a.example.com"), constraint: dns("bad name"))),
        t("the subject CN is not a dNSName by default",
          permit: [dns("example.com")], subject: dn([cn("evil.com")]), sans: nil, .satisfied),
    ]

    // MARK: Wildcard dNSName

    static let wildcardCases: [Case] = [
        t("every name *.foo.com covers is within foo.com (webpki nc-permits-dns-san-pattern)",
          permit: [dns("foo.com")], sans: [dns("*.foo.com")], .satisfied),
        t("*.example.com covers names outside foo.example.com",
          permit: [dns("foo.example.com")], sans: [dns("*.example.com")], .notPermitted(dns("*.example.com"))),
        // The three leading-dot cases below were satisfied, satisfied and excluded under the old
        // "proper subdomains" reading; a leading-dot dNSName subtree is now malformed, wildcard or not.
        t("a wildcard under a leading-dot permitted subtree: the subtree is malformed",
          permit: [dns(".foo.com")], sans: [dns("*.foo.com")],
          .malformedConstraint(dns("*.foo.com"), constraint: dns(".foo.com"))),
        t("a deeper wildcard within the permitted domain",
          permit: [dns("example.com")], sans: [dns("*.sub.example.com")], .satisfied),
        t("CVE-2025-61727: *.example.com could be bar.example.com (x509-limbo nc-forbids-dnsname-wildcard-san)",
          exclude: [dns("bar.example.com")], sans: [dns("*.example.com")], .excluded(dns("*.example.com"), by: dns("bar.example.com"))),
        t("the wildcard covers one label only: a.bar.example.com is out of its reach",
          exclude: [dns("a.bar.example.com")], sans: [dns("*.example.com")], .satisfied),
        t("a wildcard against an excluded leading-dot subtree: the subtree is malformed",
          exclude: [dns(".bar.example.com")], sans: [dns("*.example.com")],
          .malformedConstraint(dns("*.example.com"), constraint: dns(".bar.example.com"))),
        t("every covered name is within the excluded domain",
          exclude: [dns("example.com")], sans: [dns("*.example.com")], .excluded(dns("*.example.com"), by: dns("example.com"))),
        t("a wildcard within an excluded leading-dot subtree: the subtree is malformed",
          exclude: [dns(".example.com")], sans: [dns("*.example.com")],
          .malformedConstraint(dns("*.example.com"), constraint: dns(".example.com"))),
        t("an unrelated exclusion does not touch the wildcard",
          exclude: [dns("other.com")], sans: [dns("*.example.com")], .satisfied),
        t("wildcard against an exclusion, ignoring case",
          exclude: [dns("BAR.example.com")], sans: [dns("*.EXAMPLE.com")], .excluded(dns("*.EXAMPLE.com"), by: dns("BAR.example.com"))),
    ]

    // MARK: rfc822Name

    static let emailCases: [Case] = [
        t("4.2.1.10: a particular mailbox (x509-limbo nc-permits-email-exact)",
          permit: [email("foo@example.com")], sans: [email("foo@example.com")], .satisfied),
        t("the local part is case-sensitive",
          permit: [email("foo@example.com")], sans: [email("Foo@example.com")], .notPermitted(email("Foo@example.com"))),
        t("the domain of a mailbox is case-insensitive",
          permit: [email("foo@example.com")], sans: [email("foo@EXAMPLE.com")], .satisfied),
        t("another mailbox at the same host",
          permit: [email("foo@example.com")], sans: [email("bar@example.com")], .notPermitted(email("bar@example.com"))),
        t("4.2.1.10: a host constraint permits every mailbox at that host",
          permit: [email("example.com")], sans: [email("anyone@example.com")], .satisfied),
        t("a host constraint does not reach subdomains",
          permit: [email("example.com")], sans: [email("a@sub.example.com")], .notPermitted(email("a@sub.example.com"))),
        t("4.2.1.10: .example.com permits mailboxes in the domain",
          permit: [email(".example.com")], sans: [email("a@sub.example.com")], .satisfied),
        t("4.2.1.10: .example.com does not permit mailboxes at the host example.com",
          permit: [email(".example.com")], sans: [email("a@example.com")], .notPermitted(email("a@example.com"))),
        t("* is a literal character (x509-limbo nc-permits-email-literal-asterisk-exact-match)",
          permit: [email("*@example.com")], sans: [email("*@example.com")], .satisfied),
        t("*@example.com is one mailbox, not a pattern (x509-limbo …-asterisk-rejects-subdomain)",
          permit: [email("*@example.com")], sans: [email("*@subdomain.example.com")],
          .notPermitted(email("*@subdomain.example.com"))),
        t("** is literal (x509-limbo nc-permits-email-literal-double-asterisk)",
          permit: [email("**@example.com")], sans: [email("**@example.com")], .satisfied),
        t("** does not permit * (x509-limbo …-double-asterisk-rejects-single)",
          permit: [email("**@example.com")], sans: [email("*@example.com")], .notPermitted(email("*@example.com"))),
        t("an asterisk inside the local part is literal (x509-limbo …-mid-asterisk)",
          permit: [email("user*@example.com")], sans: [email("user*@example.com")], .satisfied),
        t("user*@ is not a prefix pattern",
          permit: [email("user*@example.com")], sans: [email("user@example.com")], .notPermitted(email("user@example.com"))),
        t("two @ in a constraint (x509-limbo invalid-email-address)",
          permit: [email("invalid@invalid@example.com")], sans: [email("example@example.com")],
          .malformedConstraint(email("example@example.com"), constraint: email("invalid@invalid@example.com"))),
        t("an empty local part in a constraint",
          permit: [email("@example.com")], sans: [email("a@example.com")],
          .malformedConstraint(email("a@example.com"), constraint: email("@example.com"))),
        t("an empty domain in a constraint",
          exclude: [email("foo@")], sans: [email("a@example.com")],
          .malformedConstraint(email("a@example.com"), constraint: email("foo@"))),
        t("a presented mailbox with two @",
          exclude: [email("example.com")], sans: [email("a@b@example.com")], .malformedName(email("a@b@example.com"))),
        t("a quoted local part is not interpreted",
          exclude: [email("example.com")], sans: [email("\"a b\"@example.com")], .malformedName(email("\"a b\"@example.com"))),
        t("a presented mailbox with no @",
          permit: [email("example.com")], sans: [email("example.com")], .malformedName(email("example.com"))),
        t("an excluded domain",
          exclude: [email(".example.com")], sans: [email("x@mail.example.com")],
          .excluded(email("x@mail.example.com"), by: email(".example.com"))),
        t("an rfc822Name constraint does not restrict dNSNames",
          permit: [email("example.com")], sans: [dns("example.org")], .satisfied),
        t("an empty rfc822Name constraint matches every mailbox",
          permit: [email("")], sans: [email("a@x.test")], .satisfied),
        t("4.2.1.10: subject emailAddress checked as rfc822Name (within)",
          permit: [email("example.com")], subject: dn([cn("a")], [mail("a@example.com")]), sans: nil, .satisfied),
        t("4.2.1.10: subject emailAddress checked as rfc822Name (outside)",
          permit: [email("example.com")], subject: dn([cn("a")], [mail("a@evil.com")]), sans: nil,
          .notPermitted(email("a@evil.com"), .subjectEmailAddress)),
        t("subject emailAddress checked even when a subjectAltName is present",
          exclude: [email("evil.com")], subject: dn([mail("a@evil.com")]), sans: [email("a@good.com")],
          .excluded(email("a@evil.com"), by: email("evil.com"), .subjectEmailAddress)),
        t("a subject emailAddress that is not a string CertPath can read as ASCII",
          permit: [email("example.com")], subject: dn([bmpMail("a@example.com")]), sans: nil,
          .malformedName(.rfc822Name(Array("a@example.com".utf8.flatMap { [0, $0] })[...]), .subjectEmailAddress)),
    ]

    // MARK: iPAddress

    static let ipCases: [Case] = [
        t("4.2.1.10: address within 192.0.2.0/24 (x509-limbo permitted-ipv4-match)",
          permit: [ip([192, 0, 2, 0, 255, 255, 255, 0])], sans: [ip([192, 0, 2, 1])], .satisfied),
        t("address outside 192.0.2.0/24 (x509-limbo permitted-ip-mismatch)",
          permit: [ip([192, 0, 2, 0, 255, 255, 255, 0])], sans: [ip([192, 0, 3, 1])], .notPermitted(ip([192, 0, 3, 1]))),
        t("excluded 192.0.2.0/24 (x509-limbo excluded-ipv4-match)",
          exclude: [ip([192, 0, 2, 0, 255, 255, 255, 0])], sans: [ip([192, 0, 2, 200])],
          .excluded(ip([192, 0, 2, 200]), by: ip([192, 0, 2, 0, 255, 255, 255, 0]))),
        t("permitted ::1/128 (x509-limbo permitted-ipv6-match)",
          permit: [ip(v6Loopback + v6Full)], sans: [ip(v6Loopback)], .satisfied),
        t("excluded ::1/128 (x509-limbo excluded-ipv6-match)",
          exclude: [ip(v6Loopback + v6Full)], sans: [ip(v6Loopback)], .excluded(ip(v6Loopback), by: ip(v6Loopback + v6Full))),
        t("an IPv4 subtree never matches an IPv4-mapped IPv6 address",
          permit: [ip([192, 0, 2, 0, 255, 255, 255, 0])], sans: [ip(mapped192)], .notPermitted(ip(mapped192))),
        t("0.0.0.0/0 permits every IPv4 address",
          permit: [ip([0, 0, 0, 0, 0, 0, 0, 0])], sans: [ip([203, 0, 113, 9])], .satisfied),
        t("2001:db8::/32 permits 2001:db8:1::1",
          permit: [ip([0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 12) + [0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 12))],
          sans: [ip([0x20, 0x01, 0x0D, 0xB8, 0, 1] + [UInt8](repeating: 0, count: 9) + [1])], .satisfied),
        t("an excluded IPv4 range does not touch IPv6 addresses",
          exclude: [ip([0, 0, 0, 0, 0, 0, 0, 0])], sans: [ip(v6Loopback)], .satisfied),
        t("host bits of the base are masked off: 10.1.2.3/8 permits 10.9.9.9",
          permit: [ip([10, 1, 2, 3, 255, 0, 0, 0])], sans: [ip([10, 9, 9, 9])], .satisfied),
        t("a constraint of 5 octets is malformed",
          permit: [ip([10, 0, 0, 0, 255])], sans: [ip([10, 0, 0, 1])],
          .malformedConstraint(ip([10, 0, 0, 1]), constraint: ip([10, 0, 0, 0, 255]))),
        t("a presented address of 5 octets is malformed",
          permit: [ip([10, 0, 0, 0, 255, 0, 0, 0])], sans: [ip([10, 0, 0, 1, 0])], .malformedName(ip([10, 0, 0, 1, 0]))),
    ]

    // MARK: directoryName

    static let usExample = dn([country("US")], [org("Example")])

    static let directoryCases: [Case] = [
        t("4.2.1.10: the constraint is a prefix of the subject",
          permit: [dir(usExample)], subject: dn([country("US")], [org("Example")], [cn("leaf")]), sans: nil, .satisfied),
        t("a different RDN in the prefix",
          permit: [dir(usExample)], subject: dn([country("US")], [org("Other")], [cn("leaf")]), sans: nil,
          .notPermitted(dir(dn([country("US")], [org("Other")], [cn("leaf")])), .subject)),
        t("a subject shorter than the constraint",
          permit: [dir(usExample)], subject: dn([country("US")]), sans: nil, .notPermitted(dir(dn([country("US")])), .subject)),
        t("a subjectAltName directoryName within the subtree (x509-limbo permitted-dn-match)",
          permit: [dir(dn([cn("foo")]))], sans: [dir(dn([cn("foo")]))], .satisfied),
        t("the subject must be within too (x509-limbo permitted-dn-match-subject-san-mismatch)",
          permit: [dir(dn([cn("foo")]))], subject: dn([cn("bar")]), sans: [dir(dn([cn("foo")]))],
          .notPermitted(dir(dn([cn("bar")])), .subject)),
        t("an excluded subject (x509-limbo excluded-dn-match-sub-mismatch)",
          exclude: [dir(dn([cn("foo")]))], subject: dn([cn("foo")]), sans: [dns("example.com")],
          .excluded(dir(dn([cn("foo")])), by: dir(dn([cn("foo")])), .subject)),
        t("an excluded subjectAltName directoryName (x509-limbo excluded-dn-match)",
          exclude: [dir(dn([cn("foo")]))], sans: [dir(dn([cn("foo")]))],
          .excluded(dir(dn([cn("foo")])), by: dir(dn([cn("foo")])))),
        t("7.1: PrintableString and UTF8String compared after case folding and space handling",
          permit: [dir(dn([org("Example Corp")]))], subject: dn([org("  EXAMPLE   corp ", .printableString)], [cn("x")]),
          sans: nil, .satisfied),
        t("a multi-valued RDN is not equal to one of its attributes",
          permit: [dir(usExample)], subject: dn([country("US")], [org("Example"), unit("x")]), sans: nil,
          .notPermitted(dir(dn([country("US")], [org("Example"), unit("x")])), .subject)),
        t("a multi-valued RDN equals the same set",
          permit: [dir(dn([org("Example"), unit("x")]))], subject: dn([unit("X"), org("example")], [cn("y")]), sans: nil,
          .satisfied),
        t("an empty directoryName constraint permits every DN",
          permit: [dir(emptyDN)], subject: dn([cn("anything")]), sans: nil, .satisfied),
        t("6.1.3 (b): an empty subject is not checked",
          permit: [dir(dn([cn("foo")]))], subject: emptyDN, sans: [dns("example.com")], .satisfied),
        t("IA5String values are prepared like DirectoryString ones (Chromium's reading)",
          permit: [dir(dn([org("Example", .ia5String)]))], subject: dn([org("example", .utf8String)]), sans: nil, .satisfied),
        t("VisibleString values are compared exactly (7.1: other string types as encoded)",
          permit: [dir(dn([org("Example", .visibleString)]))], subject: dn([org("example", .visibleString)]), sans: nil,
          .notPermitted(dir(dn([org("example", .visibleString)])), .subject)),
    ]

    // MARK: uniformResourceIdentifier

    static let uriCases: [Case] = [
        t("4.2.1.10: .example.com permits hosts below it",
          permit: [uri(".example.com")], sans: [uri("https://www.example.com/path")], .satisfied),
        t("4.2.1.10: .example.com is not satisfied by example.com",
          permit: [uri(".example.com")], sans: [uri("https://example.com/")], .notPermitted(uri("https://example.com/"))),
        t("4.2.1.10: a constraint without a dot specifies a host; port ignored",
          permit: [uri("example.com")], sans: [uri("https://example.com:8443/x")], .satisfied),
        t("a host constraint does not permit subdomains (RFC 5280; Go differs)",
          permit: [uri("example.com")], sans: [uri("https://www.example.com/")], .notPermitted(uri("https://www.example.com/"))),
        t("userinfo, query and fragment skipped; host case-insensitive",
          permit: [uri("example.com")], sans: [uri("https://user@EXAMPLE.com?q#f")], .satisfied),
        t("4.2.1.10: a URI without an authority is rejected",
          permit: [uri("example.com")], sans: [uri("urn:example:com")], .noDomainHost(uri("urn:example:com"))),
        t("4.2.1.10: rejected under an excluded URI constraint too",
          exclude: [uri(".evil.com")], sans: [uri("mailto:a@example.com")], .noDomainHost(uri("mailto:a@example.com"))),
        t("4.2.1.10: an IPv4 host is rejected",
          permit: [uri("example.com")], sans: [uri("http://192.0.2.1/")], .noDomainHost(uri("http://192.0.2.1/"))),
        t("4.2.1.10: an IP-literal host is rejected",
          permit: [uri("example.com")], sans: [uri("http://[::1]/")], .noDomainHost(uri("http://[::1]/"))),
        t("an empty host is rejected",
          permit: [uri("example.com")], sans: [uri("file:///etc/passwd")], .noDomainHost(uri("file:///etc/passwd"))),
        t("two @ in the authority is malformed",
          permit: [uri("example.com")], sans: [uri("http://a@b@example.com/")], .malformedName(uri("http://a@b@example.com/"))),
        t("a non-numeric port is malformed",
          permit: [uri("example.com")], sans: [uri("http://example.com:80a/")], .malformedName(uri("http://example.com:80a/"))),
        t("a scheme must start with a letter",
          permit: [uri("example.com")], sans: [uri("1http://example.com/")], .malformedName(uri("1http://example.com/"))),
        t("percent-encoded host octets are not interpreted",
          exclude: [uri("example.com")], sans: [uri("http://ex%61mple.com/")], .malformedName(uri("http://ex%61mple.com/"))),
        t("a trailing dot on the host cannot escape an exclusion",
          exclude: [uri(".example.com")], sans: [uri("https://a.example.com./")],
          .excluded(uri("https://a.example.com./"), by: uri(".example.com"))),
        t("a full URI is not a valid URI constraint",
          permit: [uri("https://example.com")], sans: [uri("https://example.com/")],
          .malformedConstraint(uri("https://example.com/"), constraint: uri("https://example.com"))),
        t("a URI constraint does not restrict dNSNames",
          permit: [uri("example.com")], sans: [dns("other.test")], .satisfied),
    ]

    // MARK: Forms CertPath does not process

    static let unsupportedCases: [Case] = [
        t("4.2.1.10: an otherName constraint with an otherName present (x509-limbo nc-forbids-othername)",
          exclude: [otherName], sans: [dns("example.com"), otherName], .unsupported(otherName)),
        t("no otherName in the certificate: nothing to check (x509-limbo nc-forbids-othername-noop)",
          permit: [dns("example.com")], exclude: [otherName], sans: [dns("example.com")], .satisfied),
        t("registeredID constraint with a registeredID present",
          permit: [.registeredID("1.2.3.4")], sans: [.registeredID("1.2.3.4")], .unsupported(.registeredID("1.2.3.4"))),
        t("x400Address constraint and no x400Address",
          permit: [.x400Address([0x30, 0x00][...])], sans: [dns("example.com")], .satisfied),
        t("ediPartyName constraint with an ediPartyName present",
          exclude: [.ediPartyName([0xA5, 0x00][...])], sans: [.ediPartyName([0xA5, 0x02, 0x80, 0x00][...])],
          .unsupported(.ediPartyName([0xA5, 0x02, 0x80, 0x00][...]))),
        t("an otherName SAN with constraints of other forms only is unaffected",
          permit: [dns("example.com")], sans: [dns("a.example.com"), otherName], .satisfied),
    ]

    // MARK: Legacy common names

    static let commonNameCases: [Case] = [
        t("with the CN fallback, a host-name CN is checked as a dNSName",
          permit: [dns("example.com")], subject: dn([cn("evil.com")]), sans: nil, commonNames: true,
          .notPermitted(dns("evil.com"), .subjectCommonName)),
        t("a CN that is not a host name is skipped",
          permit: [dns("example.com")], subject: dn([cn("Jane Doe")]), sans: nil, commonNames: true, .satisfied),
        t("a wildcard CN against an exclusion",
          exclude: [dns("bar.example.com")], subject: dn([cn("*.example.com")]), sans: nil, commonNames: true,
          .excluded(dns("*.example.com"), by: dns("bar.example.com"), .subjectCommonName)),
        t("a permitted host-name CN",
          permit: [dns("example.com")], subject: dn([cn("www.example.com", .printableString)]), sans: nil, commonNames: true,
          .satisfied),
    ]

    static let allCases = dnsCases + wildcardCases + emailCases + ipCases + directoryCases + uriCases
        + unsupportedCases + commonNameCases

    // MARK: Tests

    @Test("Table: one certificate's names against one extension", arguments: allCases)
    func table(_ testCase: Case) {
        var budget = 1_000
        let result = NameConstraintsChecker.check(
            subject: testCase.subject, subjectAlternativeNames: testCase.sans, constraints: testCase.constraints,
            commonNamesAsDNSNames: testCase.commonNames, comparisons: &budget)
        #expect(result == testCase.expect.result, "\(testCase.reason)")
        #expect(budget < 1_000 || testCase.expect.isWithoutComparison, "a comparison was counted")
    }

    @Test("The table covers every rule with enough cases")
    func tableSize() {
        #expect(Self.allCases.count >= 60)
    }

    @Test("RFC 5280 6.1.4 (g): constraints of two CAs each apply (x509-limbo restrictive-permits-…-narrows)")
    func constraintsOfSeveralCAsIntersect() {
        let upper = NameConstraints(permittedSubtrees: [GeneralSubtree(base: Self.dns("foo.example.com")),
                                                        GeneralSubtree(base: Self.dns("bar.example.com"))],
                                    excludedSubtrees: nil)
        let lower = NameConstraints(permittedSubtrees: [GeneralSubtree(base: Self.dns("foo.example.com"))], excludedSubtrees: nil)
        var budget = 100
        let san = [Self.dns("bar.example.com")]
        #expect(NameConstraintsChecker.check(subject: Self.emptyDN, subjectAlternativeNames: san, constraints: upper,
                                             comparisons: &budget) == .satisfied)
        let result = NameConstraintsChecker.check(subject: Self.emptyDN, subjectAlternativeNames: san, constraints: lower,
                                                  comparisons: &budget)
        #expect(result == .violation(NameConstraintViolation(name: Self.dns("bar.example.com"), source: .subjectAlternativeName,
                                                             reason: .notWithinPermittedSubtrees)))
    }

    @Test("Constraints and names decoded from DER through the certificate parsers")
    func fromDER() throws {
        var writer = DERWriter()
        writer.append(.sequence) { constraints in
            constraints.append(.contextSpecific(0, constructed: true)) { permitted in
                permitted.append(.sequence) { $0.append(.contextSpecific(2), contents: Array("example.com".utf8)) }
                permitted.append(.sequence) { $0.append(.contextSpecific(7), contents: [192, 0, 2, 0, 255, 255, 255, 0]) }
            }
            constraints.append(.contextSpecific(1, constructed: true)) { excluded in
                excluded.append(.sequence) { $0.append(.contextSpecific(2), contents: Array("bad.example.com".utf8)) }
            }
        }
        let constraints = try NameConstraints.decode(
            Extension(oid: KnownOID.nameConstraints, isCritical: true, value: writer.bytes[...]))

        func sans(_ names: [(UInt8, [UInt8])]) throws -> [GeneralName] {
            var san = DERWriter()
            san.append(.sequence) { sequence in
                for (tag, contents) in names { sequence.append(.contextSpecific(tag), contents: contents) }
            }
            return try AlternativeNames.decode(
                Extension(oid: KnownOID.subjectAltName, isCritical: false, value: san.bytes[...]), "subjectAltName")
        }

        var budget = 100
        let good = try sans([(2, Array("www.example.com".utf8)), (7, [192, 0, 2, 7])])
        #expect(NameConstraintsChecker.check(subject: Self.emptyDN, subjectAlternativeNames: good, constraints: constraints,
                                             comparisons: &budget) == .satisfied)
        let bad = try sans([(2, Array("www.example.com".utf8)), (2, Array("x.bad.example.com".utf8))])
        let result = NameConstraintsChecker.check(subject: Self.emptyDN, subjectAlternativeNames: bad, constraints: constraints,
                                                  comparisons: &budget)
        guard case .violation(let violation) = result else {
            Issue.record("expected a violation, got \(result)")
            return
        }
        #expect(violation.name == Self.dns("x.bad.example.com"))
        #expect(violation.reason == .withinExcludedSubtree(GeneralSubtree(base: Self.dns("bad.example.com"))))
        #expect(violation.description == "DNS:x.bad.example.com (subjectAltName) is within the excluded subtree DNS:bad.example.com")
        let outsideIP = try sans([(7, [198, 51, 100, 1])])
        #expect(NameConstraintsChecker.check(subject: Self.emptyDN, subjectAlternativeNames: outsideIP, constraints: constraints,
                                             comparisons: &budget)
                == .violation(NameConstraintViolation(name: Self.ip([198, 51, 100, 1]), source: .subjectAlternativeName,
                                                      reason: .notWithinPermittedSubtrees)))
    }

    // MARK: Budget

    @Test("1,000 SANs against 1,000 subtrees stop at the comparison budget")
    func budgetStopsQuadraticWork() {
        let subtrees = (0..<1_000).map { GeneralSubtree(base: Self.dns("n\($0).example.com")) }
        let constraints = NameConstraints(permittedSubtrees: subtrees, excludedSubtrees: nil)
        let names = (0..<1_000).map { Self.dns("host\($0).example.org") }
        var budget = 250_000
        var result = NameConstraintsChecker.check(subject: Self.emptyDN, subjectAlternativeNames: names,
                                                  constraints: constraints, comparisons: &budget)
        // The first SAN visits all 1,000 subtrees and is not permitted: that alone stops the check.
        #expect(result == .violation(NameConstraintViolation(name: Self.dns("host0.example.org"), source: .subjectAlternativeName,
                                                             reason: .notWithinPermittedSubtrees)))
        #expect(budget == 249_000)

        // Every SAN permitted by the last subtree: 1,000 × 1,000 comparisons needed, 250,000 allowed.
        let permittedLast = (0..<1_000).map { Self.dns("host\($0).n999.example.com") }
        budget = 250_000
        // Bounded by the budget, not by time (timing belongs to the benchmark): exactly 250,000 comparisons.
        result = NameConstraintsChecker.check(subject: Self.emptyDN, subjectAlternativeNames: permittedLast,
                                              constraints: constraints, comparisons: &budget)
        #expect(result == .budgetExhausted)
        #expect(budget == 0)
    }

    @Test("Each (name, subtree) pair visited costs one comparison, excluded and permitted, any form")
    func budgetAccounting() {
        let constraints = NameConstraints(
            permittedSubtrees: [GeneralSubtree(base: Self.dns("a.test")), GeneralSubtree(base: Self.ip([10, 0, 0, 0, 255, 0, 0, 0])),
                                GeneralSubtree(base: Self.dns("b.test"))],
            excludedSubtrees: [GeneralSubtree(base: Self.dns("c.test"))])
        let sans = [Self.dns("x.b.test")]
        // 1 excluded + 3 permitted (the iPAddress subtree is visited too).
        var budget = 4
        #expect(NameConstraintsChecker.check(subject: Self.emptyDN, subjectAlternativeNames: sans, constraints: constraints,
                                             comparisons: &budget) == .satisfied)
        #expect(budget == 0)
        budget = 3
        #expect(NameConstraintsChecker.check(subject: Self.emptyDN, subjectAlternativeNames: sans, constraints: constraints,
                                             comparisons: &budget) == .budgetExhausted)
        budget = 0
        #expect(NameConstraintsChecker.check(subject: Self.emptyDN, subjectAlternativeNames: sans, constraints: constraints,
                                             comparisons: &budget) == .budgetExhausted)
        // Names of forms the extension does not constrain cost nothing.
        budget = 0
        let unconstrained = [Self.email("a@b.test"), Self.uri("https://b.test/")]
        #expect(NameConstraintsChecker.check(subject: Self.dn([Self.cn("subject")]), subjectAlternativeNames: unconstrained,
                                             constraints: constraints, comparisons: &budget) == .satisfied)
    }

    @Test("Hostile inputs do not crash: long names, many labels, odd bytes")
    func hostileInputs() {
        let long = String(repeating: "a.", count: 2_000) + "example.com"
        let cases: [(GeneralName, NameConstraintViolation.Reason)] = [
            (Self.dns(long), .malformedName),  // over 253 octets
            (Self.dns("*." + String(repeating: "a", count: 64) + ".example.com"), .malformedName),  // label over 63
            (.dNSName([0x61, 0x00, 0x2E, 0x63][...]), .malformedName),
            (Self.dns(".example.com"), .malformedName),
            (Self.dns(""), .malformedName),
        ]
        let constraints = NameConstraints(permittedSubtrees: [GeneralSubtree(base: Self.dns("example.com"))], excludedSubtrees: nil)
        for (name, reason) in cases {
            var budget = 10
            let result = NameConstraintsChecker.check(subject: Self.emptyDN, subjectAlternativeNames: [name],
                                                      constraints: constraints, comparisons: &budget)
            #expect(result == .violation(NameConstraintViolation(name: name, source: .subjectAlternativeName, reason: reason)))
        }
        for text in ["", ":", "a:", "a://", "a://@", "a://[", "a://:", "http://h:1:2/", "a://@@"] {
            var budget = 10
            let uriConstraints = NameConstraints(permittedSubtrees: [GeneralSubtree(base: Self.uri("h"))], excludedSubtrees: nil)
            let result = NameConstraintsChecker.check(subject: Self.emptyDN, subjectAlternativeNames: [Self.uri(text)],
                                                      constraints: uriConstraints, comparisons: &budget)
            #expect(result != .satisfied, "\(text)")
        }
    }
}

extension NameConstraintsTests.Expect {
    /// Cases decided before any subtree is compared (unsupported forms, malformed names or
    /// constraints, forms not constrained at all, empty subjects with no SAN).
    var isWithoutComparison: Bool {
        switch self {
        case .unsupported, .malformedName, .noDomainHost, .malformedConstraint, .satisfied: return true
        case .notPermitted, .excluded: return false
        }
    }
}
