@testable import CertPath
import CertPathDER
import Testing

/// A CRL that does not conform in a way that leaves its entries' meaning intact (no cRLNumber, or
/// a critical one: RFC 5280 5.2.3; no nextUpdate, 5.1.2.5) is, read strictly (the `.rfc5280`
/// profile), evidence of revocation, not of good standing; under the other profiles it shows good
/// standing too, with a ``CRLConformanceFinding``. A revoked certificate is never trusted, whatever
/// the undetermined-status mode.
@Suite("Revocation evidence from nonconforming CRLs")
struct RevocationEvidenceTests {
    static let leafSerial: [UInt8] = [0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x01]

    /// A CRL by `issuer` listing `serials`, with `extensions` (none: no cRLNumber).
    /// `nextUpdate` as UTCTime (the default is after ``SignedCertificates/time``); `reason`, when
    /// given, a reasonCode entry extension on every entry.
    static func crl(by issuer: SignedCertificates.Issuer, listing serials: [[UInt8]], extensions: [[UInt8]],
                    thisUpdate: String = "291201000000Z", nextUpdate: String? = "300201000000Z",
                    reason: UInt8? = nil) throws -> CertificateRevocationList {
        let entryExtensions = reason.map { D.seq(D.ext(CRLExtensionOID.reasonCode, D.tlv(.enumerated, [$0]))) } ?? []
        let entries = serials.map { D.seq(D.tlv(.integer, $0), D.tlv(.utcTime, Array("260101000000Z".utf8)), entryExtensions) }
        let list = entries.isEmpty ? [] : D.tlv(.sequence, entries.flatMap { $0 })
        let crlExtensions = extensions.isEmpty ? [] : D.ctx(0, constructed: true, D.tlv(.sequence, extensions.flatMap { $0 }))
        let tbs = D.seq(D.int(1), issuer.key.signatureAlgorithm, Array(issuer.certificate.subject.der),
                        D.tlv(.utcTime, Array(thisUpdate.utf8)), nextUpdate.map { D.tlv(.utcTime, Array($0.utf8)) } ?? [], list, crlExtensions)
        return try CertificateRevocationList(derEncoded: D.seq(tbs, issuer.key.signatureAlgorithm, D.bits(issuer.key.sign(tbs))))
    }

    static func evaluate(_ crl: CertificateRevocationList, _ mode: UndeterminedRevocationStatus,
                         _ chain: (leaf: Certificate, intermediate: SignedCertificates.Issuer, root: Certificate),
                         profile: CertificateProfile = .automatic) throws -> TrustResult {
        try evaluate([crl], mode, chain, profile: profile)
    }

    static func evaluate(_ crls: [CertificateRevocationList], _ mode: UndeterminedRevocationStatus,
                         _ chain: (leaf: Certificate, intermediate: SignedCertificates.Issuer, root: Certificate),
                         profile: CertificateProfile) throws -> TrustResult {
        var policy = try ValidationPolicy.server(hostname: "leaf.test")
        policy.undeterminedRevocationStatus = mode
        policy.profile = profile
        return TrustEvaluation(leaf: chain.leaf, intermediates: [chain.intermediate.certificate], trustStore: TrustStore(anchors: [chain.root]),
                               policy: policy, revocationEvidence: RevocationEvidence(crls: CRLStore(crls)),
                               validationTime: SignedCertificates.time, collectAllAttempts: true).evaluate()
    }

    /// Whether CRLs are read strictly under `profile` for the caller's own anchors: exactly when it
    /// resolves to `.rfc5280` (the pipeline's `strictCRLConformance`).
    static func isStrict(_ profile: CertificateProfile) -> Bool { profile.resolved(anchorIsPublicWebPKI: false) == .rfc5280 }

    /// The CRL conformance findings of a trusted result's path (`nil` when not trusted).
    static func findings(_ result: TrustResult) -> [CRLConformanceFinding]? {
        guard case .trusted(let path) = result else { return nil }
        return path.attempts.first(where: \.isValid)?.crlConformanceFindings
    }

    /// The reason of the leaf's revocationUnknown failure, when the result has one.
    static func unknownReason(_ result: TrustResult, _ leaf: Certificate) -> String? {
        guard case .untrusted(let report) = result else { return nil }
        for case .revocationUnknown(let certificate, let evidence) in report.failures where certificate == leaf { return evidence.description }
        return nil
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
            for profile in CertificateProfile.allCases {
                #expect(try Self.evaluate(crl, mode, chain, profile: profile).primaryFailure?.code == "revoked", "\(mode) \(profile)")
            }
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

    @Test("An older authentic CRL revoking the certificate for a permanent reason outweighs a newer one that omits it (RFC 5280 3.3), in either order; a hold does not, nor does a forged CRL",
          arguments: [nil, 1, 6] as [UInt8?])
    func olderPermanentRevocationStands(_ reason: UInt8?) throws {
        let chain = try Self.chain()
        // Both current at the validation time: the older lists the leaf, the newer (a CA's error, or
        // a replayed CRL chosen to hide the entry) does not.
        let older = try Self.crl(by: chain.intermediate, listing: [Self.leafSerial], extensions: [D.ext(CRLExtensionOID.cRLNumber, D.int(7))],
                                 thisUpdate: "291201000000Z", reason: reason)
        let newer = try Self.crl(by: chain.intermediate, listing: [[0x01]], extensions: [D.ext(CRLExtensionOID.cRLNumber, D.int(8))],
                                 thisUpdate: "291210000000Z")
        for order in [[older, newer], [newer, older]] {
            let result = try Self.evaluate(order, .accept, chain, profile: .automatic)
            if reason == 6 {
                #expect(result.isTrusted, "a certificateHold is temporary: the newer CRL releases it")
            } else {
                #expect(result.primaryFailure?.code == "revoked", "\(String(describing: result.primaryFailure))")
            }
        }
        let stranger = try SignedCertificates.intermediate(.ca("CRL CA", pathLength: 0), by: try SignedCertificates.root(.ca("Other Root")))
        let forged = try Self.crl(by: stranger, listing: [Self.leafSerial], extensions: [D.ext(CRLExtensionOID.cRLNumber, D.int(7))],
                                  thisUpdate: "291201000000Z", reason: reason)
        #expect(try Self.evaluate([forged, newer], .accept, chain, profile: .automatic).isTrusted)
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

    @Test("A CRL without cRLNumber (or with a critical one) that does not list the certificate: good with a finding; read strictly (.rfc5280), undetermined as the mode decides",
          arguments: CertificateProfile.allCases)
    func nonconformingSilent(_ profile: CertificateProfile) throws {
        let chain = try Self.chain()
        for (numberExtension, defect) in [([UInt8](), CRLDefect.missingCRLNumber), (Self.criticalNumber, .criticalCRLNumber)] {
            let crl = try Self.crl(by: chain.intermediate, listing: [[0x01]], extensions: numberExtension.isEmpty ? [] : [numberExtension])
            #expect(crl.defects == [defect])
            let result = try Self.evaluate(crl, .rejectWhenIssuerHasCRLs, chain, profile: profile)
            if Self.isStrict(profile) {
                // RFC 5280 5.2.3 read strictly: evidence of revocation only (x509-limbo crl::crlnumber-missing).
                let reason = try #require(Self.unknownReason(result, chain.leaf), "\(profile): \(result)")
                #expect(reason.contains("cannot show that a certificate it does not list is good"), "\(reason)")
                #expect(Self.findings(try Self.evaluate(crl, .accept, chain, profile: profile)) == [], "\(profile)")
            } else {
                // 5.2.3 binds the CRL issuer; 6.3 needs the number only for delta CRLs: good, reported.
                #expect(Self.findings(result) == [CRLConformanceFinding(certificate: chain.leaf, crl: crl, defects: [defect])], "\(profile): \(result)")
            }
        }
    }

    /// Reviewer finding: a CRL without nextUpdate never went out of date (700 days old, it still said
    /// good under `require`). RFC 5280 5.1.2.5: conforming issuers MUST include nextUpdate; without
    /// it nothing says until when the CRL is current. Read strictly (.rfc5280), like a CRL without
    /// cRLNumber, it is evidence of revocation, not of good standing; otherwise it is current for
    /// ``RevocationChecker/maximumCRLAgeWithoutNextUpdate`` (seven days) after its thisUpdate.
    @Test("A CRL without nextUpdate: revoked when it lists the certificate; otherwise good with a finding while under seven days old, else undetermined (strictly: undetermined)",
          arguments: CertificateProfile.allCases)
    func withoutNextUpdate(_ profile: CertificateProfile) throws {
        let chain = try Self.chain()
        #expect(RevocationChecker.maximumCRLAgeWithoutNextUpdate == 7 * 86_400)
        // Issued 31 days before the validation time (2030-01-01), and 6 days before.
        for thisUpdate in ["291201000000Z", "291226000000Z"] {
            let listing = try Self.crl(by: chain.intermediate, listing: [Self.leafSerial], extensions: [Self.number], thisUpdate: thisUpdate, nextUpdate: nil)
            #expect(listing.defects == [.missingNextUpdate])
            for mode in UndeterminedRevocationStatus.allCases {
                #expect(try Self.evaluate(listing, mode, chain, profile: profile).primaryFailure?.code == "revoked", "\(mode) \(profile)")
            }
        }
        let old = try Self.crl(by: chain.intermediate, listing: [[0x01]], extensions: [Self.number], nextUpdate: nil)
        let recent = try Self.crl(by: chain.intermediate, listing: [[0x01]], extensions: [Self.number], thisUpdate: "291226000000Z", nextUpdate: nil)
        for silent in [old, recent] {
            #expect(try Self.evaluate(silent, .accept, chain, profile: profile).isTrusted)
        }
        let oldReason = try #require(Self.unknownReason(try Self.evaluate(old, .rejectWhenIssuerHasCRLs, chain, profile: profile), chain.leaf))
        let recentResult = try Self.evaluate(recent, .rejectWhenIssuerHasCRLs, chain, profile: profile)
        if Self.isStrict(profile) {
            #expect(oldReason.contains("no nextUpdate, so nothing says until when it is current"), "\(oldReason)")
            #expect(Self.unknownReason(recentResult, chain.leaf)?.contains("no nextUpdate") == true, "\(recentResult)")
        } else {
            #expect(oldReason.contains("has no nextUpdate and was issued more than 7 days before the validation time"), "\(oldReason)")
            #expect(Self.findings(recentResult) == [CRLConformanceFinding(certificate: chain.leaf, crl: recent, defects: [.missingNextUpdate])],
                    "\(profile): \(recentResult)")
        }
        // Older than the maximum age: like an out-of-date CRL, it shows a permanent revocation, not a hold.
        let held = try Self.crl(by: chain.intermediate, listing: [Self.leafSerial], extensions: [Self.number], nextUpdate: nil, reason: 6)
        let heldResult = try Self.evaluate(held, .rejectWhenIssuerHasCRLs, chain, profile: profile)
        #expect(Self.isStrict(profile) ? heldResult.primaryFailure?.code == "revoked" : Self.unknownReason(heldResult, chain.leaf) != nil,
                "\(profile): \(heldResult)")
    }

    /// RFC 5280 6.3.3 (f): a CRL signed by a separate CRL signing certificate is authenticated through
    /// that certificate's own path, revocation included; its CRLs are read as the path's are (a
    /// nested strict reading would refuse, under the default, the CRL issuer the path relies on).
    @Test("A separate CRL signer's own status is read like the path's: lenient CRLs for a lenient path, strict for .rfc5280",
          arguments: CertificateProfile.allCases)
    func crlSignerInheritsTheReading(_ profile: CertificateProfile) throws {
        let root = try SignedCertificates.root(.ca("CRL Root"))
        let intermediate = try SignedCertificates.intermediate(.ca("CRL CA", pathLength: 0), by: root)
        let leaf = try SignedCertificates.issue(.server("leaf.test"), subjectKey: TestKey(), issuer: intermediate)
        // Same name as the CA, another key, cRLSign only.
        let signer = try SignedCertificates.intermediate(CertificateSpec(subject: D.cn("CRL CA"), extensions: [
            D.ext(KnownOID.keyUsage, critical: true, D.bits([0x02], unused: 1))]), by: root)
        let rootCRL = try Self.crl(by: root, listing: [[0x01]], extensions: [])  // no cRLNumber
        let leafCRL = try Self.crl(by: signer, listing: [[0x01]], extensions: [Self.number])
        var policy = try ValidationPolicy.server(hostname: "leaf.test")
        policy.undeterminedRevocationStatus = .rejectWhenIssuerHasCRLs
        policy.profile = profile
        let result = TrustEvaluation(leaf: leaf, intermediates: [intermediate.certificate, signer.certificate],
                                     trustStore: TrustStore(anchors: [root.certificate]), policy: policy,
                                     revocationEvidence: RevocationEvidence(crls: CRLStore([rootCRL, leafCRL])),
                                     validationTime: SignedCertificates.time, collectAllAttempts: true).evaluate()
        if Self.isStrict(profile) {
            #expect(Self.unknownReason(result, intermediate.certificate) != nil, "\(result)")
        } else {
            // The intermediate is good by the root's CRL, reported; the leaf by the signer's CRL, whose
            // signer is good by the same root CRL (reported in the signer's own path, not this one).
            #expect(Self.findings(result) == [CRLConformanceFinding(certificate: intermediate.certificate, crl: rootCRL, defects: [.missingCRLNumber])],
                    "\(profile): \(result)")
        }
    }

    /// RFC 5280 5.2.4, 6.3.3 (c): a delta CRL is combined with a complete CRL by their numbers; one
    /// without cRLNumber cannot extend a complete CRL under any profile.
    @Test("A delta CRL without cRLNumber does not extend an out-of-date complete CRL, under every profile", arguments: CertificateProfile.allCases)
    func deltaWithoutNumber(_ profile: CertificateProfile) throws {
        let chain = try Self.chain()
        let complete = try Self.crl(by: chain.intermediate, listing: [[0x01]], extensions: [D.ext(CRLExtensionOID.cRLNumber, D.int(10))],
                                    nextUpdate: "291215000000Z")
        let indicator = D.ext(CRLExtensionOID.deltaCRLIndicator, critical: true, D.int(10))
        let unnumbered = try Self.crl(by: chain.intermediate, listing: [[0x02]], extensions: [indicator])
        #expect(unnumbered.isDeltaCRL && unnumbered.defects == [.missingCRLNumber])
        let reason = try #require(Self.unknownReason(try Self.evaluate([complete, unnumbered], .rejectWhenIssuerHasCRLs, chain, profile: profile),
                                                     chain.leaf), "\(profile)")
        #expect(reason.contains("lacks a usable cRLNumber"), "\(reason)")
        // The same delta CRL with its number extends it.
        let numbered = try Self.crl(by: chain.intermediate, listing: [[0x02]], extensions: [D.ext(CRLExtensionOID.cRLNumber, D.int(11)), indicator])
        #expect(try Self.evaluate([complete, numbered], .rejectWhenIssuerHasCRLs, chain, profile: profile).isTrusted, "\(profile)")
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
