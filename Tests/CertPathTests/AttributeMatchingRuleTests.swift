import Testing

@testable import CertPath
import CertPathDER

/// Each attribute of a distinguished name is compared by its matching rule (RFC 5280 7.1, RFC 4519),
/// in name chaining (6.1.3 (a)(4)), in directoryName name constraints (4.2.1.10) and in every fast
/// path: DirectoryString values with RFC 4518 case folding and insignificant-space handling
/// (caseIgnoreMatch: commonName, countryName, serialNumber, …), the IA5String values of
/// domainComponent (RFC 4519 2.4, RFC 5280 7.3), emailAddress (RFC 2985, RFC 5280 4.1.2.6) and mail
/// (RFC 4524 2.16) with caseIgnoreIA5Match; an IA5String of any other attribute (a DirectoryString
/// attribute a CA wrote as IA5String, an unknown type) prepared the same way, as Chromium does; and
/// anything else (VisibleString, TeletexString, non-strings) exactly.
@Suite("Attribute matching rules in names (RFC 5280 7.1, RFC 4519)")
struct AttributeMatchingRuleTests {
    static let dc: OID = "0.9.2342.19200300.100.1.25"
    static let mail: OID = "0.9.2342.19200300.100.1.3"
    static let serialNumber: OID = "2.5.4.5"
    static let unknown: OID = "1.3.6.1.4.1.99999.7.1"

    static func dcName(_ labels: String..., cn: String? = nil, tag: DERTag = .ia5String) -> [UInt8] {
        var rdns = labels.map { D.rdn(D.atv(dc, D.tlv(tag, Array($0.utf8)))) }
        if let cn { rdns.append(D.rdn(D.atv(D.commonName, D.utf8(cn)))) }
        return D.tlv(.sequence, rdns.flatMap { $0 })
    }

    static func one(_ type: OID, _ value: [UInt8]) -> [UInt8] { D.name(D.rdn(D.atv(type, value))) }

    static func name(_ der: [UInt8]) throws -> Name { try Name(derEncoded: der) }

    /// `a` and `b` are (or are not) equivalent by `isEquivalent` both ways and by their keys, and the
    /// fast paths (attribute walk, ASCII key, key hash) agree with the general key.
    static func expectEquivalence(_ a: [UInt8], _ b: [UInt8], _ expected: Bool, _ comment: Comment,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let first = try name(a), second = try name(b)
        #expect(first.isEquivalent(to: second) == expected, comment, sourceLocation: sourceLocation)
        #expect(second.isEquivalent(to: first) == expected, comment, sourceLocation: sourceLocation)
        #expect((first.normalizedKey == second.normalizedKey) == expected, comment, sourceLocation: sourceLocation)
        let (general, problems) = NameComparisonFastPathTests.disagreements(first, second)
        #expect(general == expected && problems.isEmpty, "\(comment): \(problems)", sourceLocation: sourceLocation)
        let (_, reverse) = NameComparisonFastPathTests.disagreements(second, first)
        #expect(reverse.isEmpty, "\(comment): \(reverse)", sourceLocation: sourceLocation)
    }

    // MARK: Chaining comparison

    @Test("RFC 4519 2.4 / RFC 5280 7.3: domainComponent is compared case-insensitively")
    func domainComponentIgnoresCase() throws {
        try Self.expectEquivalence(Self.dcName("com", "Example"), Self.dcName("com", "example"), true, "DC=Example vs DC=example")
        try Self.expectEquivalence(Self.dcName("COM", "EXAMPLE", cn: "CA"), Self.dcName("com", "example", cn: "ca"), true,
                                   "every DC and the CN differ in case")
        // caseIgnoreIA5Match handles insignificant spaces as well (RFC 4517 4.2.13, RFC 4518 2.6.1).
        try Self.expectEquivalence(Self.dcName(" Example "), Self.dcName("example"), true, "leading and trailing spaces")
        // The same value as a UTF8String (outside the attribute's syntax) is the same value.
        try Self.expectEquivalence(Self.dcName("Example"), Self.dcName("example", tag: .utf8String), true, "IA5String vs UTF8String")
    }

    @Test("Negative controls: different domainComponent values, counts and order do not match")
    func domainComponentDifferences() throws {
        try Self.expectEquivalence(Self.dcName("com", "example"), Self.dcName("com", "exampel"), false, "different label")
        try Self.expectEquivalence(Self.dcName("com", "example"), Self.dcName("com", "example", "www"), false, "one more DC")
        try Self.expectEquivalence(Self.dcName("com", "example"), Self.dcName("example", "com"), false, "order of RDNs")
        try Self.expectEquivalence(Self.dcName("example"), Self.dcName("ex ample"), false, "an inner space is significant")
    }

    @Test("RFC 5280 4.1.2.6 / RFC 2985: emailAddress values are not case-sensitive; mail (RFC 4524) and unstructuredName neither")
    func emailAddressIgnoresCase() throws {
        let email = KnownOID.emailAddress
        try Self.expectEquivalence(Self.one(email, D.ia5("Subscriber@Example.COM")), Self.one(email, D.ia5("subscriber@example.com")),
                                   true, "RFC 5280 4.1.2.6's own example")
        try Self.expectEquivalence(D.name(D.rdn(D.atv(D.commonName, D.utf8("Alice"))), D.rdn(D.atv(email, D.ia5("ALICE@example.com")))),
                                   D.name(D.rdn(D.atv(D.commonName, D.utf8("alice"))), D.rdn(D.atv(email, D.ia5("alice@EXAMPLE.com")))),
                                   true, "CN and emailAddress both differ in case")
        try Self.expectEquivalence(Self.one(Self.mail, D.ia5("Bob@Example.org")), Self.one(Self.mail, D.ia5("bob@example.org")), true,
                                   "mail (0.9.2342.19200300.100.1.3)")
        try Self.expectEquivalence(Self.one("1.2.840.113549.1.9.2", D.ia5("Router-7.Example.net")),
                                   Self.one("1.2.840.113549.1.9.2", D.ia5("router-7.example.NET")), true,
                                   "PKCS #9 unstructuredName (RFC 2985 pkcs9CaseIgnoreMatch)")
        try Self.expectEquivalence(Self.one(email, D.ia5("a@example.com")), Self.one(email, D.ia5("b@example.com")), false,
                                   "a different mailbox")
        // A multi-valued RDN takes the general comparison: the rule applies there too.
        try Self.expectEquivalence(D.name(D.rdn(D.atv(D.commonName, D.utf8("x")), D.atv(email, D.ia5("A@B.test")))),
                                   D.name(D.rdn(D.atv(D.commonName, D.utf8("X")), D.atv(email, D.ia5("a@b.test")))), true,
                                   "multi-valued RDN")
    }

    @Test("RFC 4519 2.2 / 2.31: countryName and serialNumber (PrintableString) match with caseIgnoreMatch")
    func printableStringAttributes() throws {
        try Self.expectEquivalence(Self.one(D.country, D.printable("us")), Self.one(D.country, D.printable("US")), true, "C=us vs C=US")
        try Self.expectEquivalence(Self.one(Self.serialNumber, D.printable("ab 12")), Self.one(Self.serialNumber, D.printable("AB  12")),
                                   true, "serialNumber: case and inner spaces")
        try Self.expectEquivalence(Self.one(Self.serialNumber, D.printable("AB12")), Self.one(Self.serialNumber, D.printable("AB13")),
                                   false, "a different serialNumber")
    }

    @Test("IA5String values of any attribute are prepared (Chromium's NormalizeValue); VisibleString and TeletexString stay exact")
    func otherAttributes() throws {
        try Self.expectEquivalence(Self.one(Self.unknown, D.ia5("Value")), Self.one(Self.unknown, D.ia5("value")), true,
                                   "unknown attribute type, IA5String")
        try Self.expectEquivalence(Self.one(Self.unknown, D.ia5("Value")), Self.one(Self.unknown, D.ia5("Value")), true,
                                   "equal bytes are equal")
        try Self.expectEquivalence(Self.one(D.commonName, D.ia5("CA")), Self.one(D.commonName, D.ia5("ca")), true,
                                   "commonName (DirectoryString) written as IA5String: prepared")
        try Self.expectEquivalence(Self.one(D.organization, D.ia5("Evil  Corp")), Self.one(D.organization, D.utf8("evil corp")), true,
                                   "organizationName as IA5String and as UTF8String: one name")
        try Self.expectEquivalence(Self.one(D.organization, D.ia5("Evil")), Self.one(D.organization, D.utf8("Good")), false,
                                   "different values stay different")
        try Self.expectEquivalence(Self.one(Self.unknown, D.tlv(.octetString, Array("Value".utf8))),
                                   Self.one(Self.unknown, D.tlv(.octetString, Array("value".utf8))), false,
                                   "a non-string value: no rule, compared as encoded")
        // TeletexString (read as ISO 8859-1) and VisibleString are strings too (RFC 5280 7.1; a
        // legacy CA's T61String must neither escape an excluded subtree nor break chaining).
        try Self.expectEquivalence(Self.one(D.organization, D.tlv(.teletexString, Array("Evil Corp".utf8))),
                                   Self.one(D.organization, D.utf8("evil corp")), true, "TeletexString and UTF8String")
        try Self.expectEquivalence(Self.one(D.organization, D.tlv(.teletexString, [0xC9, 0x63, 0x6C, 0x61, 0x69, 0x72])),
                                   Self.one(D.organization, D.utf8("éclair")), true, "TeletexString as ISO 8859-1")
        try Self.expectEquivalence(Self.one(D.organization, D.tlv(.visibleString, Array("Evil".utf8))),
                                   Self.one(D.organization, D.printable("EVIL")), true, "VisibleString and PrintableString")
        // Unknown types' DirectoryString values are still prepared (RFC 5280 7.1 names the string types).
        try Self.expectEquivalence(Self.one(Self.unknown, D.utf8("Value")), Self.one(Self.unknown, D.printable("VALUE")), true,
                                   "unknown attribute type, UTF8String vs PrintableString")
    }

    // MARK: directoryName name constraints

    static func check(permit: [Name]? = nil, exclude: [Name]? = nil, subject: Name, sans: [GeneralName]? = nil) -> NameConstraintsResult {
        var budget = 1_000
        let constraints = NameConstraints(permittedSubtrees: permit?.map { GeneralSubtree(base: .directoryName($0)) },
                                          excludedSubtrees: exclude?.map { GeneralSubtree(base: .directoryName($0)) })
        return NameConstraintsChecker.check(subject: subject, subjectAlternativeNames: sans, constraints: constraints, comparisons: &budget)
    }

    @Test("4.2.1.10 with 7.1: a permitted directoryName DC=example matches a subject DC=EXAMPLE")
    func permittedDirectoryNameIgnoresDCCase() throws {
        let subtree = try Self.name(Self.dcName("com", "example"))
        let subject = try Self.name(Self.dcName("COM", "EXAMPLE", cn: "leaf"))
        #expect(Self.check(permit: [subtree], subject: subject) == .satisfied)
        // In a subjectAltName directoryName too.
        #expect(Self.check(permit: [subtree], subject: try Self.name(D.name()), sans: [.directoryName(subject)]) == .satisfied)
        // Negative control: another domain is outside.
        let other = try Self.name(Self.dcName("com", "exampel", cn: "leaf"))
        #expect(Self.check(permit: [subtree], subject: other)
                == .violation(NameConstraintViolation(name: .directoryName(other), source: .subject, reason: .notWithinPermittedSubtrees)))
    }

    @Test("4.2.1.10 with 7.1: an excluded directoryName O=Evil cannot be bypassed by the string type or by characters RFC 4518 maps to nothing")
    func excludedDirectoryNameIgnoresStringType() throws {
        let subtree = try Self.name(D.name(D.rdn(D.atv(D.organization, D.utf8("Evil")))))
        for value in [D.ia5("Evil"), D.ia5("EVIL"), D.printable("evil"), D.tlv(.teletexString, Array("Evil".utf8)),
                      D.tlv(.visibleString, Array("eViL".utf8)), D.utf8("Ev\u{00AD}il"), D.utf8("Evil\u{200B}"),
                      D.utf8("E\u{FE0F}vil"), D.ia5("Ev\u{7F}il"), D.utf8("\u{FF25}\u{FF56}\u{FF49}\u{FF4C}"),
                      D.utf8("Evil\u{3000}")] {
            let subject = try Self.name(D.name(D.rdn(D.atv(D.organization, value)), D.rdn(D.atv(D.commonName, D.utf8("leaf")))))
            #expect(Self.check(exclude: [subtree], subject: subject)
                    == .violation(NameConstraintViolation(name: .directoryName(subject), source: .subject,
                                                          reason: .withinExcludedSubtree(GeneralSubtree(base: .directoryName(subtree))))),
                    "\(subject)")
        }
        #expect(Self.check(exclude: [subtree], subject: try Self.name(D.name(D.rdn(D.atv(D.organization, D.ia5("Good")))))) == .satisfied)
    }

    @Test("4.2.1.10 with 7.1: an excluded directoryName DC=example cannot be bypassed by writing DC=EXAMPLE")
    func excludedDirectoryNameIgnoresDCCase() throws {
        let subtree = try Self.name(Self.dcName("com", "example"))
        for variant in [Self.dcName("COM", "EXAMPLE", cn: "leaf"), Self.dcName("Com", "eXample", cn: "leaf"),
                        Self.dcName("com", "Example", cn: "leaf", tag: .utf8String)] {
            let subject = try Self.name(variant)
            #expect(Self.check(exclude: [subtree], subject: subject)
                    == .violation(NameConstraintViolation(name: .directoryName(subject), source: .subject,
                                                          reason: .withinExcludedSubtree(GeneralSubtree(base: .directoryName(subtree))))),
                    "\(subject)")
            let san = GeneralName.directoryName(subject)
            #expect(Self.check(exclude: [subtree], subject: try Self.name(D.cn("leaf")), sans: [san])
                    == .violation(NameConstraintViolation(name: san, source: .subjectAlternativeName,
                                                          reason: .withinExcludedSubtree(GeneralSubtree(base: .directoryName(subtree))))))
        }
        // Negative control: a different domain is not excluded.
        #expect(Self.check(exclude: [subtree], subject: try Self.name(Self.dcName("com", "examples", cn: "leaf"))) == .satisfied)
    }

    @Test("4.2.1.10 with 4.1.2.6: an excluded directoryName emailAddress cannot be bypassed by case")
    func excludedDirectoryNameIgnoresEmailCase() throws {
        let subtree = try Self.name(Self.one(KnownOID.emailAddress, D.ia5("evil@example.com")))
        let subject = try Self.name(D.name(D.rdn(D.atv(KnownOID.emailAddress, D.ia5("EVIL@Example.COM"))), D.rdn(D.atv(D.commonName, D.utf8("x")))))
        #expect(Self.check(exclude: [subtree], subject: subject)
                == .violation(NameConstraintViolation(name: .directoryName(subject), source: .subject,
                                                      reason: .withinExcludedSubtree(GeneralSubtree(base: .directoryName(subtree))))))
        let other = try Self.name(D.name(D.rdn(D.atv(KnownOID.emailAddress, D.ia5("good@example.com"))), D.rdn(D.atv(D.commonName, D.utf8("x")))))
        #expect(Self.check(exclude: [subtree], subject: other) == .satisfied)
    }

    // MARK: Whole paths

    /// root → issuing CA (subject `caSubject`) → leaf whose issuer field is `leafIssuer`, signed by the CA.
    static func evaluate(caSubject: [UInt8], leafIssuer: [UInt8], caExtra: [[UInt8]] = [], leafSubject: [UInt8]? = nil) throws
        -> (result: TrustResult, leaf: Certificate) {
        let root = try SignedCertificates.root(.ca("Attribute Rules Root"))
        var caSpec = CertificateSpec.ca("unused", pathLength: 0, extra: caExtra)
        caSpec.subject = caSubject
        let ca = try SignedCertificates.intermediate(caSpec, by: root)
        var leafSpec = CertificateSpec.server("www.example.com")
        leafSpec.issuer = leafIssuer
        if let leafSubject { leafSpec.subject = leafSubject }
        let leaf = try SignedCertificates.issue(leafSpec, subjectKey: TestKey(), issuer: ca)
        let policy = try ValidationPolicy.server(hostname: "www.example.com")
        let result = TrustEvaluation(leaf: leaf, intermediates: [ca.certificate], trustStore: TrustStore(anchors: [root.certificate]),
                                     policy: policy, validationTime: SignedCertificates.time).evaluate()
        return (result, leaf)
    }

    @Test("6.1.3 (a)(4): a leaf whose issuer differs from its CA's subject only in DC case chains and is trusted")
    func pathChainsAcrossDCCase() throws {
        let trusted = try Self.evaluate(caSubject: Self.dcName("com", "Example", cn: "Issuing CA"),
                                        leafIssuer: Self.dcName("com", "example", cn: "Issuing CA"))
        #expect(trusted.result.isTrusted, "\(String(describing: trusted.result.primaryFailure))")
        let email = try Self.evaluate(
            caSubject: D.name(D.rdn(D.atv(KnownOID.emailAddress, D.ia5("PKI@Example.com"))), D.rdn(D.atv(D.commonName, D.utf8("Mail CA")))),
            leafIssuer: D.name(D.rdn(D.atv(KnownOID.emailAddress, D.ia5("pki@example.COM"))), D.rdn(D.atv(D.commonName, D.utf8("Mail CA")))))
        #expect(email.result.isTrusted, "\(String(describing: email.result.primaryFailure))")
        // Negative control: a different DC does not chain, signature or not.
        let broken = try Self.evaluate(caSubject: Self.dcName("com", "Example", cn: "Issuing CA"),
                                       leafIssuer: Self.dcName("com", "exampel", cn: "Issuing CA"))
        #expect(!broken.result.isTrusted)
    }

    @Test("A CA's excluded directoryName DC=example stops a leaf whose subject says DC=EXAMPLE (whole path)")
    func pathExcludedDirectoryName() throws {
        let excluded = D.ext(KnownOID.nameConstraints, critical: true,
                             D.seq(D.ctx(1, constructed: true, D.seq(D.ctx(4, constructed: true, Self.dcName("com", "example"))))))
        let ca = Self.dcName("org", "issuer", cn: "Issuing CA")
        let run = try Self.evaluate(caSubject: ca, leafIssuer: ca, caExtra: [excluded],
                                    leafSubject: Self.dcName("COM", "EXAMPLE", cn: "www.example.com"))
        guard case .nameConstraintViolation(let certificate, let violation)? = run.result.primaryFailure else {
            Issue.record("expected a name constraint violation, got \(String(describing: run.result.primaryFailure))")
            return
        }
        #expect(certificate == run.leaf && violation.source == .subject)
        guard case .withinExcludedSubtree = violation.reason else {
            Issue.record("expected withinExcludedSubtree, got \(violation.reason)")
            return
        }
        let allowed = try Self.evaluate(caSubject: ca, leafIssuer: ca, caExtra: [excluded],
                                        leafSubject: Self.dcName("com", "example2", cn: "www.example.com"))
        #expect(allowed.result.isTrusted, "\(String(describing: allowed.result.primaryFailure))")
    }
}
