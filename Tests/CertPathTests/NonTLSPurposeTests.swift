import Testing
@testable import CertPath

/// The purposes beyond TLS (``ValidationPurpose/emailProtection(mailbox:use:)``, ``ValidationPurpose/codeSigning``,
/// ``ValidationPurpose/timeStamping``, ``ValidationPurpose/extendedKeyUsage(purposes:expectedNames:)``),
/// each outcome and typed failure written from the clause: RFC 8550 3, 4.4.2, 4.4.4 (S/MIME);
/// RFC 9598 3, 5 (SmtpUTF8Mailbox); RFC 3161 2.3 (time stamping); RFC 5280 4.2.1.12.
@Suite("Purposes beyond TLS: S/MIME, code signing, time stamping")
struct NonTLSPurposeTests {
    // keyUsage BIT STRINGs (RFC 5280 4.2.1.3): digitalSignature (0), keyEncipherment (2), keyAgreement (4).
    static let digitalSignature = D.ext(KnownOID.keyUsage, critical: true, D.bits([0x80], unused: 7))
    static let keyEncipherment = D.ext(KnownOID.keyUsage, critical: true, D.bits([0x20], unused: 5))
    static let keyAgreement = D.ext(KnownOID.keyUsage, critical: true, D.bits([0x08], unused: 3))

    static func eku(_ purposes: [OID], critical: Bool? = nil) -> [UInt8] {
        D.ext(KnownOID.extKeyUsage, critical: critical, D.tlv(.sequence, purposes.flatMap(D.oid)))
    }

    /// subjectAltName with rfc822Names `emails` and SmtpUTF8Mailbox otherNames `mailboxes`.
    static func mailboxes(_ emails: [String], utf8 mailboxes: [String] = []) -> [UInt8] {
        let names = emails.map { D.ctx(1, Array($0.utf8)) }
            + mailboxes.map { D.ctx(0, constructed: true, D.oid(KnownOID.smtpUTF8Mailbox), D.ctx(0, constructed: true, D.utf8($0))) }
        return D.ext(KnownOID.subjectAltName, D.tlv(.sequence, names.flatMap { $0 }))
    }

    /// A root, a CA under it (with `caExtra` extensions) and a leaf under the CA with `extensions`,
    /// evaluated for `purpose`.
    static func evaluate(_ extensions: [[UInt8]], subject: [UInt8] = D.cn("Leaf"), caExtra: [[UInt8]] = [],
                         purpose: ValidationPurpose) throws -> (result: TrustResult, leaf: Certificate, ca: Certificate) {
        let root = try SignedCertificates.root(.ca("Purpose Root"))
        let ca = try SignedCertificates.intermediate(.ca("Purpose CA", extra: caExtra), by: root)
        let leaf = try SignedCertificates.issue(CertificateSpec(subject: subject, extensions: extensions), subjectKey: TestKey(), issuer: ca)
        let result = TrustEvaluation(leaf: leaf, intermediates: [ca.certificate], trustStore: TrustStore(anchors: [root.certificate]),
                                     policy: ValidationPolicy(purpose: purpose), validationTime: SignedCertificates.time).evaluate()
        return (result, leaf, ca.certificate)
    }

    /// The failures of an untrusted result (none for a trusted one).
    static func failures(_ result: TrustResult) -> [ValidationFailure] {
        if case .untrusted(let report) = result { return report.failures }
        return []
    }

    static func mailbox(_ text: String) throws -> RFC822Name { try RFC822Name(mailbox: text) }

    // MARK: S/MIME

    @Test("S/MIME: the mailbox is an rfc822Name, an SmtpUTF8Mailbox (RFC 9598) or a subject emailAddress (RFC 8550 3)")
    func smimeMailboxMatching() throws {
        let san = Self.mailboxes(["alice@example.com"], utf8: ["用户@xn--fsqu00a.xn--0zwm56d"])
        let extensions = [Self.digitalSignature, Self.eku([KnownOID.emailProtection]), san]
        for text in ["alice@example.com", "alice@EXAMPLE.com", "用户@xn--fsqu00a.xn--0zwm56d", "用户@XN--FSQU00A.xn--0zwm56d"] {
            let run = try Self.evaluate(extensions, purpose: .emailProtection(mailbox: try Self.mailbox(text), use: .signing))
            #expect(run.result.isTrusted, "\(text): \(String(describing: run.result.primaryFailure))")
        }
        // The Local-part compares octet for octet (RFC 5321 2.4; RFC 9598 5 does not transform it).
        for text in ["Alice@example.com", "用戶@xn--fsqu00a.xn--0zwm56d", "bob@example.com"] {
            let expected = try Self.mailbox(text)
            let run = try Self.evaluate(extensions, purpose: .emailProtection(mailbox: expected, use: .signing))
            guard case .nameMismatch(let certificate, .email(let name), let presented)? = run.result.primaryFailure else {
                Issue.record("\(text): expected nameMismatch, got \(String(describing: run.result.primaryFailure))")
                continue
            }
            #expect(certificate == run.leaf && name == expected)
            #expect(presented == [.email("alice@example.com"), .smtpUTF8Mailbox("用户@xn--fsqu00a.xn--0zwm56d")])
        }
        // A legacy certificate: the address in the subject's emailAddress attribute (PKCS #9), no subjectAltName.
        let subject = D.name(D.rdn(D.atv(D.commonName, D.utf8("Alice"))), D.rdn(D.atv(KnownOID.emailAddress, D.ia5("alice@example.com"))))
        let legacy = try Self.evaluate([Self.digitalSignature, Self.eku([KnownOID.emailProtection])], subject: subject,
                                       purpose: .emailProtection(mailbox: try Self.mailbox("alice@example.com"), use: .any))
        #expect(legacy.result.isTrusted, "\(String(describing: legacy.result.primaryFailure))")
    }

    @Test("S/MIME: a mismatch for an internationalized mailbox is recoverable, and its trust exception reads back")
    func smimeMismatchException() throws {
        let extensions = [Self.digitalSignature, Self.eku([KnownOID.emailProtection]), Self.mailboxes([], utf8: ["用户@example.com"])]
        let expected = try Self.mailbox("用戶@example.com")
        let run = try Self.evaluate(extensions, purpose: .emailProtection(mailbox: expected, use: .any))
        guard case .untrusted(let report) = run.result, let exceptions = report.exceptions else {
            Issue.record("expected an untrusted result with an exception, got \(run.result)")
            return
        }
        #expect(report.failures == [.nameMismatch(run.leaf, expected: .email(expected), presented: [.smtpUTF8Mailbox("用户@example.com")])])
        #expect(try TrustExceptions(text: exceptions.text) == exceptions)
    }

    @Test("S/MIME: an SmtpUTF8Mailbox that breaks RFC 9598 3 never matches (U-label domain, all-ASCII Local-part)")
    func smimeMalformedSmtpUTF8Mailbox() throws {
        let extensions = [Self.digitalSignature, Self.eku([KnownOID.emailProtection]),
                          Self.mailboxes([], utf8: ["用户@例子.测试", "alice@example.com"])]
        for text in ["alice@example.com"] {
            let run = try Self.evaluate(extensions, purpose: .emailProtection(mailbox: try Self.mailbox(text), use: .any))
            #expect(run.result.primaryFailure?.code == "nameMismatch")
        }
        // The reference side: a U-label domain is refused (RFC 9598 3 wants A-labels), so is a bad Local-part.
        #expect(throws: ReferenceIdentifierError.internationalizedNameNeedsALabel) { try RFC822Name(mailbox: "用户@例子.测试") }
        #expect(throws: ReferenceIdentifierError.invalidLocalPart(offset: 0)) { try RFC822Name(mailbox: "用户..x@example.com") }
        #expect(try RFC822Name(mailbox: "用户@example.com").isInternationalized)
        #expect(try !RFC822Name(mailbox: "user@example.com").isInternationalized)
        // init(_:) keeps refusing non-ASCII addresses, as documented.
        #expect(throws: ReferenceIdentifierError.internationalizedNameNeedsALabel) { try RFC822Name("用户@example.com") }
    }

    @Test("S/MIME: extKeyUsage must allow emailProtection in the leaf and in CAs (RFC 8550 4.4.4, RFC 5280 4.2.1.12)")
    func smimeExtendedKeyUsage() throws {
        let purpose = ValidationPurpose.emailProtection(mailbox: nil, use: .any)
        let server = try Self.evaluate([Self.digitalSignature, Self.eku([KnownOID.serverAuth])], purpose: purpose)
        guard case .extendedKeyUsageForbids(let certificate, let required, let present)? = server.result.primaryFailure else {
            Issue.record("expected extendedKeyUsageForbids, got \(String(describing: server.result.primaryFailure))")
            return
        }
        #expect(certificate == server.leaf && required == KnownOID.emailProtection && present == [KnownOID.serverAuth])
        #expect(try Self.evaluate([Self.digitalSignature, Self.eku([KnownOID.anyExtendedKeyUsage])], purpose: purpose).result.isTrusted)
        #expect(try Self.evaluate([Self.digitalSignature], purpose: purpose).result.isTrusted, "no extKeyUsage: unrestricted")
        let caLimited = try Self.evaluate([Self.digitalSignature, Self.eku([KnownOID.emailProtection])],
                                          caExtra: [Self.eku([KnownOID.serverAuth])], purpose: purpose)
        guard case .extendedKeyUsageForbids(let ca, KnownOID.emailProtection, _)? = caLimited.result.primaryFailure else {
            Issue.record("expected the CA's extendedKeyUsageForbids, got \(String(describing: caLimited.result.primaryFailure))")
            return
        }
        #expect(ca == caLimited.ca)
    }

    @Test("S/MIME: keyUsage must allow the use (RFC 8550 4.4.2): signing needs digitalSignature or nonRepudiation, encryption keyEncipherment or keyAgreement")
    func smimeKeyUsage() throws {
        let eku = Self.eku([KnownOID.emailProtection])
        #expect(try Self.evaluate([Self.digitalSignature, eku], purpose: .emailProtection(mailbox: nil, use: .signing)).result.isTrusted)
        #expect(try Self.evaluate([Self.keyEncipherment, eku], purpose: .emailProtection(mailbox: nil, use: .encryption)).result.isTrusted)
        #expect(try Self.evaluate([Self.keyAgreement, eku], purpose: .emailProtection(mailbox: nil, use: .any)).result.isTrusted)
        let encrypt = try Self.evaluate([Self.digitalSignature, eku], purpose: .emailProtection(mailbox: nil, use: .encryption))
        #expect(encrypt.result.primaryFailure == .purposeViolation(
            encrypt.leaf, .emailProtectionKeyUsage(allowed: [.keyEncipherment, .keyAgreement], present: .digitalSignature)))
        let sign = try Self.evaluate([Self.keyEncipherment, eku], purpose: .emailProtection(mailbox: nil, use: .signing))
        #expect(sign.result.primaryFailure == .purposeViolation(
            sign.leaf, .emailProtectionKeyUsage(allowed: [.digitalSignature, .contentCommitment], present: .keyEncipherment)))
        #expect(PurposeRule.emailProtectionKeyUsage(allowed: [], present: []).clause == "RFC 8550 4.4.2")
    }

    // MARK: Code signing

    @Test("Code signing: extKeyUsage codeSigning, keyUsage digitalSignature (RFC 5280 4.2.1.12)")
    func codeSigning() throws {
        #expect(try Self.evaluate([Self.digitalSignature, Self.eku([KnownOID.codeSigning])], purpose: .codeSigning).result.isTrusted)
        let server = try Self.evaluate([Self.digitalSignature, Self.eku([KnownOID.serverAuth])], purpose: .codeSigning)
        #expect(server.result.primaryFailure == .extendedKeyUsageForbids(server.leaf, required: KnownOID.codeSigning, present: [KnownOID.serverAuth]))
        let agreement = try Self.evaluate([Self.keyAgreement, Self.eku([KnownOID.codeSigning])], purpose: .codeSigning)
        #expect(agreement.result.primaryFailure == .purposeViolation(agreement.leaf, .codeSigningKeyUsage(present: .keyAgreement)))
        #expect(agreement.result.primaryFailure?.code == "purposeViolation")
        // Any extKeyUsage by OID: the generic purpose, without the code-signing keyUsage rule.
        let byOID = try Self.evaluate([Self.keyAgreement, Self.eku([KnownOID.codeSigning])],
                                      purpose: .extendedKeyUsage(purposes: [KnownOID.codeSigning], expectedNames: []))
        #expect(byOID.result.isTrusted)
    }

    // MARK: Time stamping

    @Test("Time stamping: one critical extKeyUsage naming id-kp-timeStamping only (RFC 3161 2.3)")
    func timeStamping() throws {
        let good = try Self.evaluate([Self.digitalSignature, Self.eku([KnownOID.timeStamping], critical: true)], purpose: .timeStamping)
        #expect(good.result.isTrusted, "\(String(describing: good.result.primaryFailure))")

        let nonCritical = try Self.evaluate([Self.digitalSignature, Self.eku([KnownOID.timeStamping])], purpose: .timeStamping)
        #expect(Self.failures(nonCritical.result) == [.purposeViolation(nonCritical.leaf, .timeStampingExtendedKeyUsageNotCritical)])

        let extra = try Self.evaluate([Self.digitalSignature, Self.eku([KnownOID.timeStamping, KnownOID.codeSigning], critical: true)],
                                      purpose: .timeStamping)
        #expect(Self.failures(extra.result) == [.purposeViolation(extra.leaf, .timeStampingExtendedKeyUsageNotSole(
            present: [KnownOID.timeStamping, KnownOID.codeSigning]))])

        // anyExtendedKeyUsage allows the chaining check, not RFC 3161's "only id-kp-timeStamping".
        let any = try Self.evaluate([Self.digitalSignature, Self.eku([KnownOID.timeStamping, KnownOID.anyExtendedKeyUsage], critical: true)],
                                    purpose: .timeStamping)
        #expect(any.result.primaryFailure?.code == "purposeViolation")

        let missing = try Self.evaluate([Self.digitalSignature], purpose: .timeStamping)
        #expect(Self.failures(missing.result) == [.purposeViolation(missing.leaf, .timeStampingExtendedKeyUsageMissing)])

        let other = try Self.evaluate([Self.digitalSignature, Self.eku([KnownOID.codeSigning], critical: true)], purpose: .timeStamping)
        #expect(other.result.primaryFailure == .extendedKeyUsageForbids(other.leaf, required: KnownOID.timeStamping, present: [KnownOID.codeSigning]))

        let keyUsage = try Self.evaluate([Self.keyEncipherment, Self.eku([KnownOID.timeStamping], critical: true)], purpose: .timeStamping)
        #expect(Self.failures(keyUsage.result) == [.purposeViolation(keyUsage.leaf, .timeStampingKeyUsage(present: .keyEncipherment))])

        for rule in [PurposeRule.timeStampingExtendedKeyUsageMissing, .timeStampingExtendedKeyUsageNotCritical,
                     .timeStampingExtendedKeyUsageNotSole(present: [])] {
            #expect(rule.clause == "RFC 3161 2.3")
            #expect(rule.description.hasSuffix("(RFC 3161 2.3)"))
        }
    }

    @Test("The strict extKeyUsage reading (a TLS rule) does not apply to the other purposes")
    func strictReadingIsForTLS() throws {
        let root = try SignedCertificates.root(.ca("Purpose Root"))
        let leaf = try SignedCertificates.issue(CertificateSpec(subject: D.cn("Signer"), extensions: [
            Self.digitalSignature, Self.eku([KnownOID.codeSigning], critical: true)]), subjectKey: TestKey(), issuer: root)
        var policy = ValidationPolicy(purpose: .codeSigning)
        policy.extendedKeyUsageReading = .strict
        let result = TrustEvaluation(leaf: leaf, trustStore: TrustStore(anchors: [root.certificate]), policy: policy,
                                     validationTime: SignedCertificates.time).evaluate()
        #expect(result.isTrusted, "\(String(describing: result.primaryFailure))")
    }
}
