@testable import CertPath
import CertPathDER
import Testing

/// A CRL that does not conform in a way that leaves its entries' meaning intact (no cRLNumber, or
/// a critical one: RFC 5280 5.2.3) is evidence of revocation, not of good standing; a revoked
/// certificate is never trusted, whatever the undetermined-status mode.
@Suite("Revocation evidence from nonconforming CRLs")
struct RevocationEvidenceTests {
    static let leafSerial: [UInt8] = [0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x01]

    /// A CRL by `issuer` listing `serials`, with `extensions` (none: no cRLNumber).
    /// `nextUpdate` as UTCTime (the default is after ``SignedCertificates/time``); `reason`, when
    /// given, a reasonCode entry extension on every entry.
    static func crl(by issuer: SignedCertificates.Issuer, listing serials: [[UInt8]], extensions: [[UInt8]],
                    nextUpdate: String? = "300201000000Z", reason: UInt8? = nil) throws -> CertificateRevocationList {
        let entryExtensions = reason.map { D.seq(D.ext(CRLExtensionOID.reasonCode, D.tlv(.enumerated, [$0]))) } ?? []
        let entries = serials.map { D.seq(D.tlv(.integer, $0), D.tlv(.utcTime, Array("260101000000Z".utf8)), entryExtensions) }
        let list = entries.isEmpty ? [] : D.tlv(.sequence, entries.flatMap { $0 })
        let crlExtensions = extensions.isEmpty ? [] : D.ctx(0, constructed: true, D.tlv(.sequence, extensions.flatMap { $0 }))
        let tbs = D.seq(D.int(1), issuer.key.signatureAlgorithm, Array(issuer.certificate.subject.der),
                        D.tlv(.utcTime, Array("291201000000Z".utf8)), nextUpdate.map { D.tlv(.utcTime, Array($0.utf8)) } ?? [], list, crlExtensions)
        return try CertificateRevocationList(derEncoded: D.seq(tbs, issuer.key.signatureAlgorithm, D.bits(issuer.key.sign(tbs))))
    }

    static func evaluate(_ crl: CertificateRevocationList, _ mode: UndeterminedRevocationStatus,
                         _ chain: (leaf: Certificate, intermediate: SignedCertificates.Issuer, root: Certificate)) throws -> TrustResult {
        var policy = try ValidationPolicy.server(hostname: "leaf.test")
        policy.undeterminedRevocationStatus = mode
        return TrustEvaluation(leaf: chain.leaf, intermediates: [chain.intermediate.certificate], trustStore: TrustStore(anchors: [chain.root]),
                               policy: policy, revocationEvidence: RevocationEvidence(crls: CRLStore([crl])),
                               validationTime: SignedCertificates.time).evaluate()
    }

    static func chain() throws -> (leaf: Certificate, intermediate: SignedCertificates.Issuer, root: Certificate) {
        let root = try SignedCertificates.root(.ca("CRL Root"))
        let intermediate = try SignedCertificates.intermediate(.ca("CRL CA", pathLength: 0), by: root)
        let leaf = try SignedCertificates.issue(.server("leaf.test"), subjectKey: TestKey(), issuer: intermediate)
        #expect(Array(leaf.serialNumber) == leafSerial)
        return (leaf, intermediate, root.certificate)
    }

    static let number = D.ext(CRLExtensionOID.cRLNumber, D.int(7))
    static let criticalNumber = D.ext(CRLExtensionOID.cRLNumber, critical: true, D.int(7))

    @Test("A CRL without cRLNumber (or with a critical one) that lists the certificate: revoked, in every mode",
          arguments: [[UInt8](), criticalNumber])
    func nonconformingListsTheCertificate(_ numberExtension: [UInt8]) throws {
        let chain = try Self.chain()
        let crl = try Self.crl(by: chain.intermediate, listing: [Self.leafSerial], extensions: numberExtension.isEmpty ? [] : [numberExtension])
        #expect(!crl.isUsable && crl.defects.allSatisfy { !$0.forbidsUse })
        for mode in UndeterminedRevocationStatus.allCases {
            #expect(try Self.evaluate(crl, mode, chain).primaryFailure?.code == "revoked", "\(mode)")
        }
    }

    @Test("An authentic out-of-date CRL that lists the certificate: revoked in every mode (RFC 5280 3.3: revocation is permanent)",
          arguments: [nil, 1, 0] as [UInt8?])
    func staleListsTheCertificate(_ reason: UInt8?) throws {
        let chain = try Self.chain()
        let crl = try Self.crl(by: chain.intermediate, listing: [Self.leafSerial], extensions: [Self.number], nextUpdate: "291215000000Z", reason: reason)
        for mode in UndeterminedRevocationStatus.allCases {
            #expect(try Self.evaluate(crl, mode, chain).primaryFailure?.code == "revoked", "\(mode)")
        }
    }

    @Test("An out-of-date CRL listing the certificate on certificateHold, or not listing it, or forged: not evidence of revocation")
    func staleHoldOrSilentOrForged() throws {
        let chain = try Self.chain()
        let hold = try Self.crl(by: chain.intermediate, listing: [Self.leafSerial], extensions: [Self.number], nextUpdate: "291215000000Z", reason: 6)
        let silent = try Self.crl(by: chain.intermediate, listing: [[0x01]], extensions: [Self.number], nextUpdate: "291215000000Z")
        let stranger = try SignedCertificates.intermediate(.ca("CRL CA", pathLength: 0), by: try SignedCertificates.root(.ca("Other Root")))
        let forged = try Self.crl(by: stranger, listing: [Self.leafSerial], extensions: [Self.number], nextUpdate: "291215000000Z")
        for crl in [hold, silent, forged] {
            #expect(try Self.evaluate(crl, .accept, chain).isTrusted)
            guard case .revocationUnknown(let certificate, _)? = try Self.evaluate(crl, .rejectWhenIssuerHasCRLs, chain).primaryFailure else {
                Issue.record("expected revocationUnknown")
                continue
            }
            #expect(certificate == chain.leaf)
        }
    }

    @Test("A CRL without cRLNumber that does not list the certificate cannot show it good: undetermined, as the mode decides")
    func nonconformingSilent() throws {
        let chain = try Self.chain()
        let crl = try Self.crl(by: chain.intermediate, listing: [[0x01]], extensions: [])
        guard case .revocationUnknown(let certificate, let reason)? = try Self.evaluate(crl, .rejectWhenIssuerHasCRLs, chain).primaryFailure else {
            Issue.record("expected revocationUnknown")
            return
        }
        #expect(certificate == chain.leaf)
        #expect(reason.contains("cannot show that a certificate it does not list is good"), "\(reason)")
        #expect(try Self.evaluate(crl, .accept, chain).isTrusted)
    }

    /// Reviewer finding: a CRL without nextUpdate never went out of date (700 days old, it still said
    /// good under `require`). RFC 5280 5.1.2.5: conforming issuers MUST include nextUpdate; without
    /// it nothing says until when the CRL is current. Like a CRL without cRLNumber, it is evidence of
    /// revocation, not of good standing.
    @Test("A CRL without nextUpdate: revoked when it lists the certificate; otherwise undetermined, as the mode decides")
    func withoutNextUpdate() throws {
        let chain = try Self.chain()
        let listing = try Self.crl(by: chain.intermediate, listing: [Self.leafSerial], extensions: [Self.number], nextUpdate: nil)
        #expect(listing.defects == [.missingNextUpdate])
        for mode in UndeterminedRevocationStatus.allCases {
            #expect(try Self.evaluate(listing, mode, chain).primaryFailure?.code == "revoked", "\(mode)")
        }
        let silent = try Self.crl(by: chain.intermediate, listing: [[0x01]], extensions: [Self.number], nextUpdate: nil)
        guard case .revocationUnknown(let certificate, let reason)? = try Self.evaluate(silent, .rejectWhenIssuerHasCRLs, chain).primaryFailure else {
            Issue.record("expected revocationUnknown")
            return
        }
        #expect(certificate == chain.leaf)
        #expect(reason.contains("no nextUpdate"), "\(reason)")
        #expect(try Self.evaluate(silent, .accept, chain).isTrusted)
    }

    /// Reviewer finding: a delta CRL signed by the CA that lists the certificate as revoked was
    /// discarded when it could not be combined with the complete CRL at hand (its base, CRL 99, is
    /// newer than the complete CRL, 10: RFC 5280 5.2.4), and the complete CRL said good. An authentic
    /// statement of a permanent revocation stays one (3.3), whatever CRL it builds on; a forged one,
    /// or one on hold, is not evidence.
    @Test("A delta CRL that cannot extend the complete CRL at hand still revokes, when authentic and permanent")
    func unmatchedDeltaRevokes() throws {
        let chain = try Self.chain()
        let complete = try Self.crl(by: chain.intermediate, listing: [[0x01]], extensions: [D.ext(CRLExtensionOID.cRLNumber, D.int(10))])
        func delta(by issuer: SignedCertificates.Issuer, reason: UInt8?) throws -> CertificateRevocationList {
            try Self.crl(by: issuer, listing: [Self.leafSerial], extensions: [
                D.ext(CRLExtensionOID.cRLNumber, D.int(100)), D.ext(CRLExtensionOID.deltaCRLIndicator, critical: true, D.int(99))], reason: reason)
        }
        func evaluate(_ crls: [CertificateRevocationList], _ mode: UndeterminedRevocationStatus) throws -> TrustResult {
            var policy = try ValidationPolicy.server(hostname: "leaf.test")
            policy.undeterminedRevocationStatus = mode
            return TrustEvaluation(leaf: chain.leaf, intermediates: [chain.intermediate.certificate], trustStore: TrustStore(anchors: [chain.root]),
                                   policy: policy, revocationEvidence: RevocationEvidence(crls: CRLStore(crls)),
                                   validationTime: SignedCertificates.time).evaluate()
        }
        let compromised = try delta(by: chain.intermediate, reason: 1)
        #expect(compromised.isDeltaCRL)
        for mode in UndeterminedRevocationStatus.allCases {
            #expect(try evaluate([complete, compromised], mode).primaryFailure?.code == "revoked", "\(mode)")
        }
        // On hold (temporary), or signed by a same-name stranger: the complete CRL's good stands.
        let held = try delta(by: chain.intermediate, reason: 6)
        let stranger = try SignedCertificates.intermediate(.ca("CRL CA", pathLength: 0), by: try SignedCertificates.root(.ca("Other Root")))
        let forged = try delta(by: stranger, reason: 1)
        for other in [held, forged] {
            #expect(try evaluate([complete, other], .rejectWhenIssuerHasCRLs).isTrusted)
        }
    }

    /// Review finding: with `.accept`, a revoked leaf was trusted when the signature budget ran out
    /// before its CRL's signature was checked (a P-384 chain with CRLs was enough under the cost
    /// budget). A status left open by the budget now fails in every mode.
    @Test("The budget running out during revocation checking fails the path in every mode, .accept included")
    func budgetDuringRevocationFailsClosed() throws {
        let chain = try Self.chain()
        let crl = try Self.crl(by: chain.intermediate, listing: [Self.leafSerial], extensions: [Self.number])
        for mode in UndeterminedRevocationStatus.allCases {
            var policy = try ValidationPolicy.server(hostname: "leaf.test")
            policy.undeterminedRevocationStatus = mode
            // Two checks for the path (leaf by CA, CA by root); none left for the CRL.
            policy.budget.signatureChecks = 2
            let evidence = RevocationEvidence(crls: CRLStore([crl]))
            let result = TrustEvaluation(leaf: chain.leaf, intermediates: [chain.intermediate.certificate],
                                         trustStore: TrustStore(anchors: [chain.root]), policy: policy, revocationEvidence: evidence,
                                         validationTime: SignedCertificates.time).evaluate()
            #expect(!result.isTrusted, "\(mode)")
            #expect(result.primaryFailure == .budgetExhausted(.signatureChecks), "\(mode)")
            policy.budget.signatureChecks = 3
            let enough = TrustEvaluation(leaf: chain.leaf, intermediates: [chain.intermediate.certificate],
                                         trustStore: TrustStore(anchors: [chain.root]), policy: policy, revocationEvidence: evidence,
                                         validationTime: SignedCertificates.time).evaluate()
            #expect(enough.primaryFailure?.code == "revoked", "\(mode)")
        }
    }

    @Test("A conforming CRL that does not list the certificate: good")
    func conformingSilent() throws {
        let chain = try Self.chain()
        let crl = try Self.crl(by: chain.intermediate, listing: [[0x01]], extensions: [Self.number])
        #expect(crl.isUsable)
        #expect(try Self.evaluate(crl, .reject, chain).primaryFailure?.code == "revocationUnknown")  // the intermediate has no CRL
        #expect(try Self.evaluate(crl, .rejectWhenIssuerHasCRLs, chain).isTrusted)
    }

    @Test("A CRL with an unrecognized critical extension is not used at all (RFC 5280 5.2), even to say revoked")
    func unusable() throws {
        let chain = try Self.chain()
        let crl = try Self.crl(by: chain.intermediate, listing: [Self.leafSerial],
                               extensions: [Self.number, D.ext("1.3.6.1.4.1.99999.5", critical: true, D.null)])
        #expect(crl.defects.contains { $0.forbidsUse })
        #expect(try Self.evaluate(crl, .rejectWhenIssuerHasCRLs, chain).primaryFailure?.code == "revocationUnknown")
    }
}
