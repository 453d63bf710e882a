import Testing

@testable import CertPath

/// `"\(failure)"` is the sentence the CLI prints, not an enum dump (issue 33); findings likewise.
@Suite("Failures and findings describe themselves in plain words")
struct FailureDescriptionTests {
    @Test("ValidationFailure's description is Diagnostics.describe")
    func failureDescription() {
        let leaf = SamplePKI.rsaServer
        let time = SamplePKI.time
        for failure: ValidationFailure in [.issuerNotFound(leaf), .expired(leaf, notAfter: leaf.notAfter, validationTime: time),
                                           .profileViolation(leaf, .basicConstraintsNotCritical)] {
            #expect("\(failure)" == Diagnostics.describe(failure))
            #expect(!"\(failure)".contains("issuerNotFound(") && !"\(failure)".contains("Certificate("))
        }
        #expect("\(ValidationFailure.issuerNotFound(leaf))".contains("CN=server.customer1.example"))
    }

    /// A friction a reviewer noted: "the buildSteps limit was reached" gave neither where the limit
    /// is set nor its size. The message cannot know a caller's own Budget, so it names the property
    /// and its default; the policy graph's bound is fixed (its PolicyFailure says it).
    @Test("A budget failure names the Budget property and its default")
    func budgetFailureNamesItsSetting() {
        #expect(Diagnostics.describe(.budgetExhausted(.buildSteps))
            == "path building stopped: the buildSteps limit was reached (Budget.buildSteps, 200000 by default)")
        #expect(Diagnostics.describe(.budgetExhausted(.signatureCost))
            == "path building stopped: the signature verifications' estimated cost reached its limit (Budget.signatureCost, 5000 units by default)")
        #expect(Diagnostics.describe(.budgetExhausted(.fetchTime))
            == "network fetching stopped before it had fetched what the path lacks: its time ran out (Budget.fetchTime, 20 s by default)")
        #expect(Diagnostics.describe(.budgetExhausted(.policyGraph)) == "path building stopped: the policyGraph limit was reached")
        let defaults = Budget.default
        let values: [BudgetLimit: Int] = [
            .signatureChecks: defaults.signatureChecks, .signatureCost: defaults.signatureCost,
            .failedSignatureCost: defaults.failedSignatureCost, .buildSteps: defaults.buildSteps,
            .nameConstraintComparisons: defaults.nameConstraintComparisons, .fetches: defaults.fetches,
            .fetchResponseBytes: defaults.fetchResponseBytes, .fetchTime: defaults.fetchTime,
        ]
        for (limit, value) in values {
            let text = Diagnostics.describe(.budgetExhausted(limit))
            #expect(text.contains("(Budget.\(limit.rawValue), \(value)") && text.hasSuffix(" by default)"), "\(text)")
            #expect(text.split(separator: "(", omittingEmptySubsequences: false).count == 2, "one parenthesis: \(text)")
        }
    }

    @Test("A ProfileFinding reads as its rule and explanation")
    func findingDescription() {
        let finding = ProfileFinding(certificate: SamplePKI.rsaIntermediate, position: .intermediate, rule: .missingKeyUsage)
        #expect("\(finding)" == "missingKeyUsage: a CA certificate lacks the keyUsage extension (RFC 5280 4.2.1.3)")
    }
}

/// Messages that misled a newcomer (issue 33), each said plainly.
@Suite("Diagnostics: what a newcomer needs to read")
struct NewcomerWordingTests {
    @Test("An expected client name against a certificate without subjectAltName: only SAN names are matched")
    func clientNameWithoutSubjectAltName() throws {
        let expected = ExpectedName.dnsName(try DNSName("client-7-app.test"))
        let text = Diagnostics.describe(.nameMismatch(SamplePKI.rsaClient, expected: expected, presented: [.commonName("client-7-app.test")]))
        #expect(text == "the client certificate does not carry client-7-app.test: only subjectAltName names are matched, and it has "
            + "no subjectAltName (its commonName, CN=client-7-app.test, is never matched)", "\(text)")
        let withSAN = Diagnostics.describe(.nameMismatch(SamplePKI.rsaClient, expected: expected, presented: [.dnsName("other.test")]))
        #expect(withSAN == "the client certificate does not carry client-7-app.test; its subjectAltName holds DNS:other.test")
    }

    /// Reviewer finding: `--purpose smime|OID --expect-name` said "the client certificate"; and for
    /// S/MIME, "only subjectAltName names are matched" though the subject emailAddress is (RFC 8550 3).
    @Test("A name mismatch is told in the words of the purpose evaluated")
    func nameMismatchByPurpose() throws {
        let P = NonTLSPurposeTests.self
        let subject = D.name(D.rdn(D.atv(D.commonName, D.utf8("Dave"))), D.rdn(D.atv(KnownOID.emailAddress, D.ia5("dave@example.com"))))
        let smime = try P.evaluate([P.digitalSignature, P.eku([KnownOID.emailProtection])], subject: subject,
                                   purpose: .emailProtection(mailbox: try P.mailbox("DAVE@example.com"), use: .any))
        let report = try #require(smime.result.report)
        let text = Diagnostics.describe(report.primaryFailure, in: report.bestAttempt)
        #expect(text == "the certificate does not carry the mailbox DAVE@example.com: it has no subjectAltName, and its subject "
            + "emailAddress (dave@example.com) does not match either (an rfc822Name subjectAltName and the subject emailAddress are "
            + "matched; the local part is case-sensitive, RFC 5321 2.4, the domain is not)", "\(text)")
        let oid = try P.evaluate([P.digitalSignature, P.eku([KnownOID.codeSigning]), P.mailboxes(["other@example.com"])],
                                 purpose: .extendedKeyUsage(purposes: [KnownOID.codeSigning], expectedNames: [.dnsName(try DNSName("a.example"))]))
        let oidReport = try #require(oid.result.report)
        #expect(Diagnostics.describe(oidReport.primaryFailure, in: oidReport.bestAttempt)
            == "the certificate does not carry a.example; its subjectAltName holds email:other@example.com")
    }

    @Test("A missing issuer is described without assuming a server")
    func missingIssuer() {
        let text = Diagnostics.describe(.issuerNotFound(SamplePKI.rsaServer))
        #expect(text.hasSuffix("its issuer's certificate was not presented (a TLS peer must send its intermediates) and is not among the anchors"))
        #expect(!text.contains("server did not send"))
    }
}
