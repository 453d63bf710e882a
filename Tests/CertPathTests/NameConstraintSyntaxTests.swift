import Foundation
import Testing
import TestSupport

@testable import CertPath

/// Name-constraint syntax, checked at its root (RFC 5280 4.2.1.10, 6.1.3 (b)(c), 6.1.4 (g)): every
/// subtree of an extension is validated whatever names the certificates below carry
/// (``NameConstraints/firstMalformedSubtree()``), and once an extension has any subtree every name of
/// a form CertPath interprets must be well-formed, even of a form the extension does not constrain.
@Suite("Name constraint syntax")
struct NameConstraintSyntaxTests {
    typealias T = NameConstraintsTests

    static func dns(_ text: String) -> GeneralName { T.dns(text) }
    static func email(_ text: String) -> GeneralName { T.email(text) }
    static func uri(_ text: String) -> GeneralName { T.uri(text) }
    static func ip(_ bytes: [UInt8]) -> GeneralName { T.ip(bytes) }
    static func subtree(_ base: GeneralName) -> GeneralSubtree { GeneralSubtree(base: base) }

    static func check(permit: [GeneralSubtree]? = nil, exclude: [GeneralSubtree]? = nil, subject: Name = T.emptyDN,
                      sans: [GeneralName]?, budget: Int = 1_000) -> NameConstraintsResult {
        var budget = budget
        return NameConstraintsChecker.check(subject: subject, subjectAlternativeNames: sans,
                                            constraints: NameConstraints(permittedSubtrees: permit, excludedSubtrees: exclude),
                                            comparisons: &budget)
    }

    static func violation(_ name: GeneralName, _ source: NameConstraintViolation.Source,
                          _ reason: NameConstraintViolation.Reason) -> NameConstraintsResult {
        .violation(NameConstraintViolation(name: name, source: source, reason: reason))
    }

    /// A violation by a subjectAltName entry.
    static func violation(_ name: GeneralName, _ reason: NameConstraintViolation.Reason) -> NameConstraintsResult {
        violation(name, .subjectAlternativeName, reason)
    }

    /// What a malformed-constraint violation names when the certificate has no name of the subtree's
    /// form: its subject DN, as a directoryName.
    static func malformedForSubject(_ subject: Name, _ subtree: GeneralSubtree) -> NameConstraintsResult {
        violation(.directoryName(subject), .subject, .malformedConstraint(subtree))
    }

    /// As ``malformedForSubject(_:_:)`` for the empty subject the checks here use by default.
    static func malformedForSubject(_ subtree: GeneralSubtree) -> NameConstraintsResult { malformedForSubject(T.emptyDN, subtree) }

    // MARK: 1. Subtree syntax, per form

    struct SubtreeCase: Sendable, CustomTestStringConvertible {
        let base: GeneralName
        let bounds: Bool
        /// `nil`: well-formed; otherwise a phrase the reason contains.
        let malformed: String?
        let why: String
        var testDescription: String { "\(base)\(bounds ? " with bounds" : ""): \(malformed == nil ? "valid" : "malformed") (\(why))" }
    }

    static func v(_ base: GeneralName, _ why: String) -> SubtreeCase { SubtreeCase(base: base, bounds: false, malformed: nil, why: why) }
    static func m(_ base: GeneralName, _ phrase: String, _ why: String, bounds: Bool = false) -> SubtreeCase {
        SubtreeCase(base: base, bounds: bounds, malformed: phrase, why: why)
    }

    static let v4Slash24: [UInt8] = [192, 0, 2, 0, 255, 255, 255, 0]
    static let v6DocPrefix: [UInt8] = [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 12)
        + [0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 12)
    /// 2001:db8::/ffff:0:ffff:: (a mask with a hole).
    static let v6Holed: [UInt8] = [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 12)
        + [0xFF, 0xFF, 0x00, 0x00, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 10)

    static let subtreeCases: [SubtreeCase] = [
        // dNSName (4.2.1.10: "host.example.com").
        v(dns(""), "empty: every DNS name"),
        v(dns("example.com"), "a host name"),
        v(dns("example.com."), "one trailing dot"),
        v(dns("_srv.Example-1.com"), "underscores, hyphens, digits, any case"),
        m(dns(".example.com"), "period", "a leading period: only rfc822Name and URI constraints have that form"),
        m(dns("."), "period", "a lone period"),
        m(dns("*.example.com"), "host name", "a wildcard"),
        m(dns("ex*ample.com"), "host name", "a * inside a label"),
        m(dns("example..com"), "host name", "an empty label"),
        m(dns("example.com.."), "host name", "two trailing dots"),
        m(dns("exa mple.com"), "host name", "a space"),
        m(dns(String(repeating: "a", count: 64) + ".com"), "host name", "a label of 64 octets"),
        // rfc822Name (4.2.1.10: a mailbox, a host, or a domain with a leading period).
        v(email(""), "empty: every mailbox"),
        v(email("a@example.com"), "a mailbox"),
        v(email("example.com"), "a host"),
        v(email(".example.com"), "a domain"),
        m(email("a@@b.example"), "rfc822Name", "two @"),
        m(email("invalid@invalid@example.com"), "rfc822Name", "two @ apart (x509-limbo invalid-email-address)"),
        m(email("@example.com"), "rfc822Name", "an empty local part"),
        m(email("a@"), "rfc822Name", "an empty host"),
        m(email("a@.example.com"), "rfc822Name", "a mailbox host with a leading period"),
        m(email("..example.com"), "rfc822Name", "two leading periods"),
        // uniformResourceIdentifier (4.2.1.10: a host or a domain, not a URI).
        v(uri(""), "empty: every URI with a domain host"),
        v(uri("example.com"), "a host"),
        v(uri(".example.com"), "a domain"),
        m(uri("https://example.com"), "not a URI", "a URI is not a host name"),
        m(uri("example.com/path"), "not a URI", "a path"),
        m(uri("..example.com"), "not a URI", "two leading periods"),
        // iPAddress (4.2.1.10, RFC 4632).
        v(ip(v4Slash24), "192.0.2.0/24"),
        v(ip([0, 0, 0, 0, 0, 0, 0, 0]), "0.0.0.0/0"),
        v(ip([192, 0, 2, 1, 255, 255, 255, 255]), "a /32"),
        v(ip([10, 0, 0, 0, 255, 240, 0, 0]), "a /12: a partial octet of leading ones"),
        v(ip([10, 1, 2, 3, 255, 0, 0, 0]), "base bits outside the mask are tolerated (read as 10.0.0.0/8)"),
        v(ip(v6DocPrefix), "2001:db8::/32"),
        m(ip([10, 0, 0, 0, 255, 0, 255, 0]), "contiguous", "an IPv4 mask with a hole"),
        m(ip([10, 0, 0, 0, 255, 255, 255, 1]), "contiguous", "an IPv4 mask with a trailing one bit"),
        m(ip([10, 0, 0, 0, 0xF4, 0, 0, 0]), "contiguous", "a partial octet that is not leading ones"),
        m(ip(v6Holed), "contiguous", "an IPv6 mask with a hole"),
        m(ip([10, 0, 0, 0]), "8 or 32 octets", "an IPv4 address without mask"),
        m(ip([10, 0, 0, 0, 255]), "8 or 32 octets", "5 octets"),
        m(ip(T.v6Loopback), "8 or 32 octets", "an IPv6 address without mask"),
        m(ip([]), "8 or 32 octets", "no octets"),
        // directoryName: any Name; forms CertPath does not interpret: never malformed by themselves.
        v(.directoryName(T.emptyDN), "an empty DN"),
        v(.directoryName(T.dn([T.country("US")], [T.org("Example")])), "a DN"),
        v(T.otherName, "otherName: not interpreted"),
        v(.x400Address([0x30, 0x00][...]), "x400Address: not interpreted"),
        v(.ediPartyName([0xA5, 0x00][...]), "ediPartyName: not interpreted"),
        v(.registeredID("1.2.3.4"), "registeredID: not interpreted"),
        // GeneralSubtree bounds (4.2.1.10: "the minimum MUST be zero, and maximum MUST be absent").
        m(dns("example.com"), "minimum", "a minimum or maximum", bounds: true),
        m(.directoryName(T.emptyDN), "minimum", "bounds make any form malformed", bounds: true),
        m(dns(".example.com"), "minimum", "bounds are reported before the base's syntax", bounds: true),
    ]

    @Test("firstMalformedSubtree: each form's syntax, in permitted and in excluded subtrees", arguments: subtreeCases)
    func subtreeSyntax(_ testCase: SubtreeCase) {
        let subtree = GeneralSubtree(base: testCase.base, hasNonDefaultBounds: testCase.bounds)
        for excluded in [false, true] {
            let constraints = excluded ? NameConstraints(permittedSubtrees: nil, excludedSubtrees: [subtree])
                                       : NameConstraints(permittedSubtrees: [subtree], excludedSubtrees: nil)
            let found = constraints.firstMalformedSubtree()
            guard let phrase = testCase.malformed else {
                #expect(found == nil, "\(testCase.why)")
                continue
            }
            guard let found else {
                Issue.record("\(testCase.why): expected malformed")
                continue
            }
            #expect(found.subtree == subtree)
            #expect(found.excluded == excluded)
            #expect(found.reason.contains(phrase), "\(found.reason)")
            #expect(found.reason.contains("RFC 5280 4.2.1.10"), "\(found.reason)")
        }
    }

    @Test("firstMalformedSubtree order: permitted subtrees in order, then excluded subtrees in order")
    func subtreeOrder() {
        let goodDNS = Self.subtree(Self.dns("example.com"))
        let badDNS = Self.subtree(Self.dns(".example.com"))
        let badIP = Self.subtree(Self.ip([10, 0, 0, 0, 255, 0, 255, 0]))
        let badMail = Self.subtree(Self.email("a@@b.example"))
        let all = NameConstraints(permittedSubtrees: [goodDNS, badIP, badDNS], excludedSubtrees: [badMail])
        #expect(all.firstMalformedSubtree()?.subtree == badIP)
        #expect(all.firstMalformedSubtree()?.excluded == false)
        let excludedFirst = NameConstraints(permittedSubtrees: [goodDNS], excludedSubtrees: [goodDNS, badMail, badDNS])
        #expect(excludedFirst.firstMalformedSubtree()?.subtree == badMail)
        #expect(excludedFirst.firstMalformedSubtree()?.excluded == true)
        #expect(NameConstraints(permittedSubtrees: [goodDNS], excludedSubtrees: [goodDNS]).firstMalformedSubtree() == nil)
        #expect(NameConstraints(permittedSubtrees: nil, excludedSubtrees: nil).firstMalformedSubtree() == nil)
        // The checker reports the same subtree.
        #expect(Self.check(permit: [goodDNS, badIP, badDNS], exclude: [badMail], sans: [Self.dns("a.example.com")])
                == Self.malformedForSubject(badIP))
    }

    // MARK: 1. The checker refuses a malformed subtree for every certificate

    @Test("A permitted leading-dot dNSName subtree refuses a certificate whose only SAN is an IP address")
    func permittedLeadingDotRefusesIPOnlyCertificate() {
        let leadingDot = Self.subtree(Self.dns(".example.com"))
        #expect(Self.check(permit: [leadingDot], sans: [Self.ip([192, 0, 2, 1])]) == Self.malformedForSubject(leadingDot))
        // Next to a valid iPAddress subtree that permits the address, too.
        #expect(Self.check(permit: [Self.subtree(Self.ip(Self.v4Slash24)), leadingDot], sans: [Self.ip([192, 0, 2, 1])])
                == Self.malformedForSubject(leadingDot))
    }

    @Test("An excluded leading-dot dNSName subtree refuses a certificate whose only SAN is an IP address")
    func excludedLeadingDotRefusesIPOnlyCertificate() {
        let leadingDot = Self.subtree(Self.dns(".example.com"))
        let subject = T.dn([T.cn("device")])
        #expect(Self.check(exclude: [leadingDot], subject: subject, sans: [Self.ip([192, 0, 2, 1])])
                == Self.malformedForSubject(subject, leadingDot))
    }

    @Test("A malformed subtree names the certificate's first name of its form when there is one")
    func malformedSubtreeNamesTheNameOfItsForm() {
        let leadingDot = Self.subtree(Self.dns(".example.com"))
        #expect(Self.check(exclude: [leadingDot], sans: [Self.ip([192, 0, 2, 1]), Self.dns("b.test"), Self.dns("c.test")])
                == Self.violation(Self.dns("b.test"), .malformedConstraint(leadingDot)))
        let badMail = Self.subtree(Self.email("a@@b.example"))
        #expect(Self.check(permit: [badMail], subject: T.dn([T.mail("x@y.test")]), sans: [Self.email("z@y.test")])
                == Self.violation(Self.email("x@y.test"), .subjectEmailAddress, .malformedConstraint(badMail)))
    }

    @Test("A non-contiguous IPv4 mask refuses a certificate with only a dNSName")
    func nonContiguousIPv4Mask() {
        let holed = Self.subtree(Self.ip([10, 0, 0, 0, 255, 0, 255, 0]))
        #expect(Self.check(permit: [holed], sans: [Self.dns("example.com")]) == Self.malformedForSubject(holed))
        #expect(Self.check(exclude: [holed], sans: [Self.ip([10, 0, 0, 1])])
                == Self.violation(Self.ip([10, 0, 0, 1]), .malformedConstraint(holed)))
    }

    @Test("A non-contiguous IPv6 mask refuses a certificate with only an IPv4 address")
    func nonContiguousIPv6Mask() {
        let holed = Self.subtree(Self.ip(Self.v6Holed))
        #expect(Self.check(exclude: [holed], sans: [Self.ip([192, 0, 2, 1])])
                == Self.violation(Self.ip([192, 0, 2, 1]), .malformedConstraint(holed)))
        #expect(Self.check(permit: [holed], sans: [Self.dns("example.com")]) == Self.malformedForSubject(holed))
    }

    @Test("A constraint iPAddress of 4 or 16 octets (no mask) is malformed")
    func wrongLengthConstraintIP() {
        let v4 = Self.subtree(Self.ip([192, 0, 2, 0]))
        #expect(Self.check(permit: [v4], sans: [Self.ip([192, 0, 2, 0])])
                == Self.violation(Self.ip([192, 0, 2, 0]), .malformedConstraint(v4)))
        let v6 = Self.subtree(Self.ip(T.v6Loopback))
        #expect(Self.check(exclude: [v6], sans: [Self.dns("example.com")]) == Self.malformedForSubject(v6))
    }

    /// `NameConstraints` with one permitted subtree `dNSName a.test` followed by `bounds` (the
    /// `minimum [0]` / `maximum [1]` elements), decoded from DER written by hand.
    static func decodedWithBounds(_ bounds: [UInt8]) throws -> NameConstraints {
        let value = D.seq(D.ctx(0, constructed: true, D.seq(D.ctx(2, Array("a.test".utf8)), bounds)))
        return try NameConstraints.decode(Extension(oid: KnownOID.nameConstraints, isCritical: true, value: value[...]))
    }

    @Test("A subtree with minimum 1 decodes and refuses even a name within it")
    func minimumOne() throws {
        let constraints = try Self.decodedWithBounds(D.ctx(0, [0x01]))
        let subtree = try #require(constraints.permittedSubtrees?.first)
        #expect(subtree == GeneralSubtree(base: Self.dns("a.test"), hasNonDefaultBounds: true))
        #expect(subtree != GeneralSubtree(base: Self.dns("a.test")))
        #expect(constraints.firstMalformedSubtree()?.subtree == subtree)
        var budget = 10
        #expect(NameConstraintsChecker.check(subject: T.emptyDN, subjectAlternativeNames: [Self.dns("www.a.test")],
                                             constraints: constraints, comparisons: &budget)
                == Self.violation(Self.dns("www.a.test"), .malformedConstraint(subtree)))
        #expect(budget == 10, "subtree syntax costs no comparison")
    }

    @Test("A subtree with maximum 5 decodes and refuses a certificate with only an IP address")
    func maximumFive() throws {
        let constraints = try Self.decodedWithBounds(D.ctx(1, [0x05]))
        let subtree = try #require(constraints.permittedSubtrees?.first)
        #expect(subtree.hasNonDefaultBounds)
        #expect(subtree.base == Self.dns("a.test"))
        var budget = 10
        #expect(NameConstraintsChecker.check(subject: T.emptyDN, subjectAlternativeNames: [Self.ip([192, 0, 2, 1])],
                                             constraints: constraints, comparisons: &budget)
                == Self.malformedForSubject(subtree))
        // minimum 1 and maximum 5 together; minimum 0 encoded stays a DER error (DEFAULT 0).
        #expect(try Self.decodedWithBounds(D.ctx(0, [0x01]) + D.ctx(1, [0x05])).permittedSubtrees?.first?.hasNonDefaultBounds == true)
        #expect(throws: DERError.self) { try Self.decodedWithBounds(D.ctx(0, [0x00])) }
        #expect(try Self.decodedWithBounds([]).permittedSubtrees?.first?.hasNonDefaultBounds == false)
    }

    @Test("A malformed subtree refuses a certificate with no names at all, and costs no budget")
    func noNamesAtAll() {
        let leadingDot = Self.subtree(Self.dns(".example.com"))
        #expect(Self.check(permit: [leadingDot], sans: nil, budget: 0) == Self.malformedForSubject(leadingDot))
    }

    @Test("Subtrees of forms CertPath does not interpret are never malformed by themselves")
    func uninterpretedSubtrees() {
        let subtrees = [T.otherName, .x400Address([0x30, 0x00][...]), .ediPartyName([0xA5, 0x00][...]), .registeredID("1.2.3.4")]
            .map(Self.subtree)
        #expect(Self.check(exclude: subtrees, sans: [Self.dns("example.com")]) == .satisfied)
        #expect(Self.check(exclude: subtrees, sans: [T.otherName]) == Self.violation(T.otherName, .unsupportedNameForm))
    }

    @Test("The description of a malformed subtree says why")
    func malformedSubtreeDescription() {
        guard case .violation(let violation) = Self.check(permit: [Self.subtree(Self.ip([10, 0, 0, 0, 255, 0, 255, 0]))],
                                                          sans: [Self.dns("example.com")]) else {
            Issue.record("expected a violation")
            return
        }
        #expect(violation.description == "the iPAddress constraint IP:10.0.0.0/255.0.255.0 is malformed: an iPAddress constraint "
                + "mask is a contiguous run of leading one bits (RFC 5280 4.2.1.10, RFC 4632)")
    }

    // MARK: 2. Presented names must be well-formed once any constraint applies

    static let dnsOnly = [subtree(dns("example.com"))]

    @Test("A malformed rfc822Name SAN under a dNSName-only extension is malformedName")
    func malformedEmailUnderDNSOnly() {
        #expect(Self.check(permit: Self.dnsOnly, sans: [Self.dns("a.example.com"), Self.email("a@@b.example")])
                == Self.violation(Self.email("a@@b.example"), .malformedName))
        #expect(Self.check(exclude: Self.dnsOnly, sans: [Self.email("no-at-sign.example")])
                == Self.violation(Self.email("no-at-sign.example"), .malformedName))
        #expect(Self.check(permit: Self.dnsOnly, sans: [Self.email("a@b.example")]) == .satisfied)
    }

    @Test("A urn: URI SAN under a dNSName-only extension is satisfied; URI syntax is RFC 3986")
    func uriUnderDNSOnly() {
        for good in ["urn:example:a", "mailto:a@b.example", "https://example.org/a?b#c", "http://ex%61mple.org/",
                     "http://[2001:db8::1]:8443/", "http://[v1.x]/", "ldap://user:pw@host:389/dc=x", "file:///etc/hosts"] {
            #expect(Self.check(permit: Self.dnsOnly, sans: [Self.uri(good)]) == .satisfied, "\(good)")
        }
        for bad in ["", "no-scheme", "1http://example.org/", "http://a@b@example.org/", "http://example.org:80a/",
                    "http://exa mple.org/", "http://example.org/%zz", "http://[::1/", "http://[example.org]/", "http://example.org/#a#b"] {
            #expect(Self.check(permit: Self.dnsOnly, sans: [Self.uri(bad)]) == Self.violation(Self.uri(bad), .malformedName), "\(bad)")
        }
    }

    @Test("A URI path character RFC 3986 does not allow is malformed under URI subtrees too")
    func uriSyntaxUnderURISubtrees() {
        let uriSubtree = [Self.subtree(Self.uri("example.com"))]
        #expect(Self.check(permit: uriSubtree, sans: [Self.uri("https://example.com/a b")])
                == Self.violation(Self.uri("https://example.com/a b"), .malformedName))
        #expect(Self.check(permit: uriSubtree, sans: [Self.uri("urn:example:a")])
                == Self.violation(Self.uri("urn:example:a"), .uriWithoutDomainHost))
    }

    @Test("A malformed dNSName or iPAddress SAN under an extension of another form is malformedName")
    func malformedOtherForms() {
        let ipOnly = [Self.subtree(Self.ip(Self.v4Slash24))]
        #expect(Self.check(permit: ipOnly, sans: [Self.dns("a..b")]) == Self.violation(Self.dns("a..b"), .malformedName))
        #expect(Self.check(permit: ipOnly, sans: [Self.dns("*.example.com"), Self.ip([192, 0, 2, 9])]) == .satisfied)
        #expect(Self.check(exclude: Self.dnsOnly, sans: [Self.ip([10, 0, 0, 1, 0])])
                == Self.violation(Self.ip([10, 0, 0, 1, 0]), .malformedName))
        #expect(Self.check(exclude: Self.dnsOnly, sans: [.directoryName(T.dn([T.cn("x")]))]) == .satisfied)
        // An extension of otherName subtrees only still constrains a form, so names must be readable.
        #expect(Self.check(exclude: [Self.subtree(T.otherName)], sans: [Self.dns("bad name")])
                == Self.violation(Self.dns("bad name"), .malformedName))
    }

    @Test("Subject emailAddress attributes must be mailboxes once any constraint applies")
    func subjectEmailUnderDNSOnly() {
        let subject = T.dn([T.cn("x")], [T.mail("not a mailbox")])
        #expect(Self.check(permit: Self.dnsOnly, subject: subject, sans: nil)
                == Self.violation(Self.email("not a mailbox"), .subjectEmailAddress, .malformedName))
        let bmp = T.dn([T.bmpMail("a@example.com")])
        #expect(Self.check(permit: Self.dnsOnly, subject: bmp, sans: nil)
                == Self.violation(.rfc822Name(Array("a@example.com".utf8.flatMap { [0, $0] })[...]), .subjectEmailAddress, .malformedName))
        #expect(Self.check(permit: Self.dnsOnly, subject: T.dn([T.mail("a@b.example")]), sans: nil) == .satisfied)
    }

    @Test("Name syntax of unconstrained forms costs no budget; without any subtree nothing is read")
    func wellFormednessCostsNothing() {
        #expect(Self.check(permit: Self.dnsOnly, sans: [Self.email("a@b.example"), Self.uri("urn:x:y")], budget: 0) == .satisfied)
        #expect(Self.check(permit: Self.dnsOnly, sans: [Self.email("a@@b.example")], budget: 0)
                == Self.violation(Self.email("a@@b.example"), .malformedName))
        #expect(Self.check(permit: [], exclude: [], sans: [Self.dns("a..b")]) == .satisfied)
    }

    // MARK: Real encodings

    @Test("cryptography-vectors certificates with a bad iPAddress constraint decode; their subtree is malformed",
          arguments: [("custom/nc_invalid_ip4_netmask.der", "contiguous"), ("custom/nc_invalid_ip_netmask.pem", "contiguous"),
                      ("custom/nc_ip_invalid_length.pem", "8 or 32 octets")])
    func vectorsWithBadIPConstraints(_ path: String, _ phrase: String) throws {
        guard let folder = CryptographyVectors.folder else { return }  // scripts/bootstrap installs them
        let data = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent("x509/" + path).path))
        let certificate = try #require(try PEM.readCertificates([UInt8](data)).certificates.first)
        let constraints = try #require(certificate.nameConstraints)
        let malformed = try #require(constraints.firstMalformedSubtree())
        guard case .iPAddress = malformed.subtree.base else {
            Issue.record("expected an iPAddress subtree, got \(malformed.subtree.base)")
            return
        }
        #expect(malformed.reason.contains(phrase), "\(malformed.reason)")
    }

    // MARK: Through path validation

    @Test("An initial leading-dot exclusion that matches no name refuses the path")
    func malformedInitialSubtreeRefusesThePath() {
        var evaluation = SamplePKI.server(SamplePKI.rsaServer)
        let leadingDot = Self.subtree(Self.dns(".unrelated.example"))
        evaluation.policy.initialNameConstraints = NameConstraints(permittedSubtrees: nil, excludedSubtrees: [leadingDot])
        let failure = evaluation.evaluate().primaryFailure
        guard case .nameConstraintViolation(_, let violation)? = failure else {
            Issue.record("expected nameConstraintViolation, got \(String(describing: failure))")
            return
        }
        #expect(violation.reason == .malformedConstraint(leadingDot))
    }
}
