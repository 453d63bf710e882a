import Testing

@testable import CertPath
import CertPathDER

/// RFC 9598 6: rfc822Name name constraints apply to SmtpUTF8Mailbox otherNames
/// (1.3.6.1.5.5.7.8.9) of the subjectAltName, by domain: "Strip the Local-part and "@" separator",
/// then compare as RFC 5280 4.2.1.10 does for rfc822Name (host, `.domain`, mailbox forms), in
/// A-labels and lower case (RFC 9598 5). A malformed value (RFC 9598 3) is refused as soon as a
/// constraint applies; rfc822Name behaviour is unchanged.
@Suite("SmtpUTF8Mailbox and rfc822Name name constraints (RFC 9598)")
struct SmtpUTF8MailboxConstraintsTests {
    typealias Expect = NameConstraintsTests.Expect

    /// An SmtpUTF8Mailbox otherName whose value is `value` (a complete encoding).
    static func smtp(value: [UInt8]) -> GeneralName { .otherName(typeID: KnownOID.smtpUTF8Mailbox, value: value[...]) }
    /// An SmtpUTF8Mailbox otherName whose value is the UTF8String `text`.
    static func smtp(_ text: String) -> GeneralName { smtp(value: D.utf8(text)) }
    static func email(_ text: String) -> GeneralName { NameConstraintsTests.email(text) }
    static func dns(_ text: String) -> GeneralName { NameConstraintsTests.dns(text) }
    static let upn = NameConstraintsTests.otherName

    static func t(_ reason: String, permit: [GeneralName]? = nil, exclude: [GeneralName]? = nil, sans: [GeneralName],
                  _ expect: Expect) -> NameConstraintsTests.Case {
        NameConstraintsTests.t(reason, permit: permit, exclude: exclude, sans: sans, expect)
    }

    static let cases: [NameConstraintsTests.Case] = [
        // Host form (4.2.1.10: "all mail addresses on a particular host").
        t("RFC 9598 6: a host constraint permits a mailbox at that host",
          permit: [email("example.com")], sans: [smtp("用户@example.com")], .satisfied),
        t("RFC 9598 5: the domain is compared in lower case",
          permit: [email("Example.COM")], sans: [smtp("用户@EXAMPLE.com")], .satisfied),
        t("a host constraint does not permit another domain",
          permit: [email("example.com")], sans: [smtp("用户@evil.example")], .notPermitted(smtp("用户@evil.example"))),
        t("a host constraint does not permit a subdomain",
          permit: [email("example.com")], sans: [smtp("用户@mail.example.com")], .notPermitted(smtp("用户@mail.example.com"))),
        t("an excluded host excludes a mailbox at it",
          exclude: [email("example.com")], sans: [smtp("用户@example.com")], .excluded(smtp("用户@example.com"), by: email("example.com"))),
        t("an excluded host cannot be bypassed by case",
          exclude: [email("example.com")], sans: [smtp("用户@ExAmPlE.cOm")], .excluded(smtp("用户@ExAmPlE.cOm"), by: email("example.com"))),
        t("an excluded host leaves other domains alone",
          exclude: [email("example.com")], sans: [smtp("用户@other.test")], .satisfied),
        // Domain form (a leading period: "any host in that domain").
        t("RFC 9598 6: a .domain constraint permits mailboxes at its subdomains",
          permit: [email(".example.com")], sans: [smtp("用户@mail.example.com")], .satisfied),
        t("a .domain constraint does not permit the domain itself",
          permit: [email(".example.com")], sans: [smtp("用户@example.com")], .notPermitted(smtp("用户@example.com"))),
        t("an excluded .domain excludes its subdomains",
          exclude: [email(".example.com")], sans: [smtp("用户@a.b.example.com")],
          .excluded(smtp("用户@a.b.example.com"), by: email(".example.com"))),
        t("labels, not characters: badexample.com is not in .example.com",
          exclude: [email(".example.com")], sans: [smtp("用户@badexample.com")], .satisfied),
        // Mailbox form: fail closed where RFC 9598 5 and 6 differ.
        t("a mailbox constraint permits no SmtpUTF8Mailbox (RFC 9598 5: never equal to an rfc822Name)",
          permit: [email("foo@example.com")], sans: [smtp("用户@example.com")], .notPermitted(smtp("用户@example.com"))),
        t("an excluded mailbox excludes every SmtpUTF8Mailbox at its domain (RFC 9598 6 strips the Local-part)",
          exclude: [email("foo@example.com")], sans: [smtp("用户@example.com")],
          .excluded(smtp("用户@example.com"), by: email("foo@example.com"))),
        t("an excluded mailbox leaves other domains alone",
          exclude: [email("foo@example.com")], sans: [smtp("用户@other.test")], .satisfied),
        // RFC 9598 6's figure: host constraints, ASCII and A-label.
        t("RFC 9598 figure (1): permitted elementary.school.example.com",
          permit: [email("elementary.school.example.com")], sans: [email("student@elementary.school.example.com"),
                                                                  smtp("学生@elementary.school.example.com")], .satisfied),
        t("RFC 9598 figure (2): permitted xn--pss25c.example.com (an A-label)",
          permit: [email("xn--pss25c.example.com")], sans: [email("student@xn--pss25c.example.com"),
                                                           smtp("医生@xn--pss25c.example.com")], .satisfied),
        // Empty constraint; other forms.
        t("an empty rfc822Name constraint matches every mailbox",
          permit: [email("")], sans: [smtp("用户@anything.test")], .satisfied),
        t("4.2.1.10: dNSName constraints do not restrict mailboxes",
          permit: [dns("example.com")], sans: [dns("www.example.com"), smtp("用户@evil.test")], .satisfied),
        t("the permitted rfc822Name subtrees bind SmtpUTF8Mailbox and rfc822Name alike",
          permit: [email("example.com")], sans: [email("a@example.com"), smtp("用户@evil.test")], .notPermitted(smtp("用户@evil.test"))),
        t("an otherName subtree still meets a well-formed SmtpUTF8Mailbox (not processed)",
          permit: [email("example.com")], exclude: [upn], sans: [smtp("用户@example.com")], .unsupported(smtp("用户@example.com"))),
        t("other otherName types are not mailboxes: a UPN under rfc822Name constraints is unaffected",
          permit: [email("example.com")], sans: [upn], .satisfied),
        t("a malformed rfc822Name subtree is reported against the first mailbox, an SmtpUTF8Mailbox included",
          permit: [email("a@@example.com")], sans: [dns("www.example.com"), smtp("用户@example.com")],
          .malformedConstraint(smtp("用户@example.com"), constraint: email("a@@example.com"))),
        // ASCII-only behaviour unchanged.
        t("rfc822Name mailbox constraint still permits its mailbox",
          permit: [email("foo@example.com")], sans: [email("foo@example.com")], .satisfied),
        t("rfc822Name host constraint still refuses another host",
          permit: [email("example.com")], sans: [email("a@evil.test")], .notPermitted(email("a@evil.test"))),
        // Malformed values (RFC 9598 3), refused under any constraint.
        t("RFC 9598 3: an all-ASCII Local-part belongs in an rfc822Name",
          permit: [email("example.com")], sans: [smtp("user@example.com")], .malformedName(smtp("user@example.com"))),
        t("RFC 9598 3: a U-label domain cannot be compared without IDNA: refused under a permitted subtree",
          permit: [email("example.com")], sans: [smtp("用户@bücher.example")], .malformedName(smtp("用户@bücher.example"))),
        t("… and under an excluded one (it could be inside it)",
          exclude: [email("xn--bcher-kva.example")], sans: [smtp("用户@bücher.example")], .malformedName(smtp("用户@bücher.example"))),
        t("a malformed SmtpUTF8Mailbox is refused once any constraint applies (dNSName only here)",
          permit: [dns("example.com")], sans: [dns("www.example.com"), smtp("user@example.com")], .malformedName(smtp("user@example.com"))),
        t("RFC 9598 3: SIZE (1..MAX): empty",
          permit: [email("example.com")], sans: [smtp("")], .malformedName(smtp(""))),
        t("RFC 9598 3: a UTF8String, not an IA5String",
          permit: [email("example.com")], sans: [smtp(value: D.ia5("user@example.com"))], .malformedName(smtp(value: D.ia5("user@example.com")))),
        t("RFC 9598 3: no Byte-Order-Mark",
          permit: [email("example.com")], sans: [smtp("\u{FEFF}用户@example.com")], .malformedName(smtp("\u{FEFF}用户@example.com"))),
        t("no @", permit: [email("example.com")], sans: [smtp("用户example.com")], .malformedName(smtp("用户example.com"))),
        t("two @", permit: [email("example.com")], sans: [smtp("用户@x@example.com")], .malformedName(smtp("用户@x@example.com"))),
        t("an empty domain", permit: [email("example.com")], sans: [smtp("用户@")], .malformedName(smtp("用户@"))),
        t("a Dot-string does not start with a dot",
          permit: [email("example.com")], sans: [smtp(".用户@example.com")], .malformedName(smtp(".用户@example.com"))),
        t("a Dot-string has no two dots in a row",
          permit: [email("example.com")], sans: [smtp("用..户@example.com")], .malformedName(smtp("用..户@example.com"))),
        t("a quoted Local-part is not interpreted",
          permit: [email("example.com")], sans: [smtp("\"用 户\"@example.com")], .malformedName(smtp("\"用 户\"@example.com"))),
        t("a Local-part over 64 octets",
          permit: [email("example.com")], sans: [smtp(String(repeating: "é", count: 33) + "@example.com")],
          .malformedName(smtp(String(repeating: "é", count: 33) + "@example.com"))),
    ]

    @Test("Table: SmtpUTF8Mailbox against rfc822Name constraints", arguments: cases)
    func table(_ testCase: NameConstraintsTests.Case) {
        var budget = 1_000
        let result = NameConstraintsChecker.check(subject: testCase.subject, subjectAlternativeNames: testCase.sans,
                                                  constraints: testCase.constraints, comparisons: &budget)
        #expect(result == testCase.expect.result, "\(testCase.reason)")
    }

    @Test("The syntax accepts what RFC 9598 3 describes: non-ASCII Local-part with ASCII atext and dots, LDH domain")
    func wellFormedValues() {
        for text in ["用户@example.com", "jörg.müller@example.com", "x.用户+tag@a-b.example", "δοκιμή@xn--hxajbheg2az3al.xn--jxalpdlp"] {
            #expect(NameConstraintSyntax.splitSmtpUTF8Mailbox(D.utf8(text)[...]) != nil, "\(text)")
        }
    }

    @Test("The violation names the mailbox and the rfc822Name form that binds it")
    func description() {
        let name = Self.smtp("用户@evil.example")
        let violation = NameConstraintViolation(name: name, source: .subjectAlternativeName, reason: .notWithinPermittedSubtrees)
        #expect(violation.description == "othername:SmtpUTF8Mailbox:用户@evil.example (subjectAltName) is not within any permitted rfc822Name subtree")
        let malformed = NameConstraintViolation(name: Self.smtp("user@example.com"), source: .subjectAlternativeName, reason: .malformedName)
        #expect(malformed.description.contains("is not a well-formed SmtpUTF8Mailbox (RFC 9598 3)"))
    }

    /// A CA permitting rfc822Name `example.com` and a leaf with SAN dNSName `www.example.com` and `mailboxes`.
    static func evaluate(_ mailboxes: [String]) throws -> (result: TrustResult, leaf: Certificate) {
        let root = try SignedCertificates.root(.ca("SMTPUTF8 Root"))
        let permit = D.ext(KnownOID.nameConstraints, critical: true,
                           D.seq(D.ctx(0, constructed: true, D.seq(D.ctx(1, Array("example.com".utf8))))))
        let ca = try SignedCertificates.intermediate(.ca("Mail CA", pathLength: 0, extra: [permit]), by: root)
        let otherNames = mailboxes.map {
            D.ctx(0, constructed: true, D.oid(KnownOID.smtpUTF8Mailbox), D.ctx(0, constructed: true, D.utf8($0)))
        }
        var spec = CertificateSpec.server("www.example.com")
        spec.extensions[2] = D.ext(KnownOID.subjectAltName, D.tlv(.sequence, D.ctx(2, Array("www.example.com".utf8)) + otherNames.flatMap { $0 }))
        let leaf = try SignedCertificates.issue(spec, subjectKey: TestKey(), issuer: ca)
        let result = TrustEvaluation(leaf: leaf, intermediates: [ca.certificate], trustStore: TrustStore(anchors: [root.certificate]),
                                     policy: try ValidationPolicy.server(hostname: "www.example.com"),
                                     validationTime: SignedCertificates.time).evaluate()
        return (result, leaf)
    }

    @Test("Whole path: a CA's rfc822Name constraint stops an SmtpUTF8Mailbox outside it, and a malformed one")
    func wholePath() throws {
        #expect(try Self.evaluate(["用户@example.com"]).result.isTrusted)
        for (mailbox, reason) in [("用户@evil.example", NameConstraintViolation.Reason.notWithinPermittedSubtrees),
                                  ("user@example.com", .malformedName)] {
            let run = try Self.evaluate([mailbox])
            guard case .nameConstraintViolation(let certificate, let violation)? = run.result.primaryFailure else {
                Issue.record("expected a name constraint violation for \(mailbox), got \(String(describing: run.result.primaryFailure))")
                continue
            }
            #expect(certificate == run.leaf && violation.reason == reason && violation.name == Self.smtp(mailbox)
                    && violation.source == .subjectAlternativeName)
        }
    }
}
