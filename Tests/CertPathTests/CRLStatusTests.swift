import Foundation
import Testing

@testable import CertPath
import CertPathDER

/// RFC 5280 6.3.3 (c), (i)-(l) and 5.2.4: which entry lists a certificate, how delta CRLs combine with
/// complete CRLs, removeFromCRL and certificateHold, and when the status is final; 6.3 options.
@Suite("CRL status")
struct CRLStatusTests {
    typealias F = CRLFixture

    static let leaf = F.certificate(serial: [0x05])

    func crl(number: Int64, base: Int64? = nil, issuer: [UInt8] = F.name("CA"), entries: [[UInt8]]? = nil,
             extra: [[UInt8]] = [], thisUpdate: String = "200101000000Z", nextUpdate: String? = "300101000000Z") throws -> CertificateRevocationList {
        var crl = F.CRL()
        crl.issuer = issuer
        crl.entries = entries
        crl.thisUpdate = F.utcTime(thisUpdate)
        crl.nextUpdate = nextUpdate.map(F.utcTime)
        crl.extensions = [F.crlNumber(number)] + (base.map { [F.deltaIndicator($0)] } ?? []) + extra
        return try crl.parse()
    }

    static let time = UnixTime(year: 2021, month: 1, day: 1)!

    // MARK: Entries

    @Test("An entry lists a certificate by serial number and by the certificate issuer in force (5.3.3)")
    func entryMatching() throws {
        let other = F.directoryName(F.name("Other CA"))
        let indirect = try crl(number: 1, entries: [
            F.entry(serial: [0x05], extensions: [F.certificateIssuer([other])]),
            F.entry(serial: [0x06]),
            F.entry(serial: [0x07], extensions: [F.certificateIssuer([F.directoryName(F.name("CA"))])]),
        ], extra: [F.issuingDistributionPoint(indirect: true)])
        // Serial 05 is listed for Other CA, not for CA.
        #expect(RevocationState.entry(listing: Self.leaf, in: indirect) == nil)
        let fromOther = F.certificate(issuer: F.name("Other CA"), serial: [0x05])
        #expect(RevocationState.entry(listing: fromOther, in: indirect)?.serialNumber == [0x05][...])
        // 06 inherits Other CA.
        #expect(RevocationState.entry(listing: F.certificate(issuer: F.name("Other CA"), serial: [0x06]), in: indirect) != nil)
        #expect(RevocationState.entry(listing: F.certificate(serial: [0x06]), in: indirect) == nil)
        #expect(RevocationState.entry(listing: F.certificate(serial: [0x07]), in: indirect) != nil)
        // Without certificateIssuer, entries are the CRL issuer's: a same-serial certificate of another issuer is not listed.
        let direct = try crl(number: 1, entries: [F.entry(serial: [0x05])])
        #expect(RevocationState.entry(listing: Self.leaf, in: direct) != nil)
        #expect(RevocationState.entry(listing: fromOther, in: direct) == nil)
    }

    @Test("One serial repeated for 20,000 certificate issuers of an indirect CRL: the right entry is found")
    func repeatedSerial() throws {
        var entries: [[UInt8]] = []
        for index in 0..<20_000 {
            entries.append(F.entry(serial: [0x05], extensions: [F.reasonCode(index == 19_999 ? 9 : 1),
                                                                F.certificateIssuer([F.directoryName(F.name("Issuer \(index)"))])]))
        }
        let indirect = try crl(number: 1, entries: entries, extra: [F.issuingDistributionPoint(indirect: true)])
        #expect(indirect.entries(serialNumber: [0x05][...]).count == 20_000)
        let last = F.certificate(issuer: F.name("ISSUER   19999"), serial: [0x05])
        #expect(RevocationState.entry(listing: last, in: indirect)?.reason == .privilegeWithdrawn)
        #expect(RevocationState.entry(listing: Self.leaf, in: indirect) == nil)
    }

    // MARK: (i)-(l)

    @Test("(j), (l): a complete CRL listing the certificate revokes it; one that does not adds its reasons")
    func completeCRL() throws {
        var state = RevocationState()
        let unlisted = try crl(number: 1, entries: [F.entry(serial: [0x01])])
        state.apply(complete: unlisted, delta: nil, for: Self.leaf, interimReasons: [.keyCompromise])
        #expect(state.reasonsMask == [.keyCompromise] && !state.isFinal)
        let listed = try crl(number: 2, entries: [F.entry(serial: [0x05], extensions: [F.reasonCode(9)])])
        state.apply(complete: listed, delta: nil, for: Self.leaf, interimReasons: ReasonFlags.all.subtracting(.keyCompromise))
        guard case .revoked(let entry, let by) = state.status else {
            Issue.record("expected revoked, got \(state.status)")
            return
        }
        #expect(entry.reason == .privilegeWithdrawn && by === listed && state.isFinal)
    }

    @Test("(i), (k): a delta CRL entry wins; removeFromCRL undoes a certificateHold")
    func deltaEntries() throws {
        let held = try crl(number: 1, entries: [F.entry(serial: [0x05], extensions: [F.reasonCode(6)])])
        let removed = try crl(number: 2, base: 1, entries: [F.entry(serial: [0x05], extensions: [F.reasonCode(8)])])
        var state = RevocationState()
        state.apply(complete: held, delta: removed, for: Self.leaf, interimReasons: .all)
        guard case .unrevoked = state.status else {
            Issue.record("removeFromCRL must undo the hold, got \(state.status)")
            return
        }
        #expect(state.isFinal)

        // The hold alone revokes (certificateHold is a revocation reason).
        var holdOnly = RevocationState()
        holdOnly.apply(complete: held, delta: nil, for: Self.leaf, interimReasons: .all)
        guard case .revoked(let entry, _) = holdOnly.status else {
            Issue.record("expected revoked")
            return
        }
        #expect(entry.reason == .certificateHold)

        // A delta revoking a certificate the complete CRL does not list.
        let clean = try crl(number: 1)
        let compromised = try crl(number: 3, base: 1, entries: [F.entry(serial: [0x05], extensions: [F.reasonCode(1)])])
        var newer = RevocationState()
        newer.apply(complete: clean, delta: compromised, for: Self.leaf, interimReasons: .all)
        guard case .revoked(let deltaEntry, let source) = newer.status else {
            Issue.record("expected revoked by the delta")
            return
        }
        #expect(deltaEntry.reason == .keyCompromise && source === compromised)

        // removeFromCRL for a certificate the complete CRL never listed: not revoked.
        var neverListed = RevocationState()
        neverListed.apply(complete: clean, delta: removed, for: Self.leaf, interimReasons: .all)
        guard case .unrevoked = neverListed.status else {
            Issue.record("expected unrevoked")
            return
        }
    }

    // Reviewer findings (revocation attacker). A CRL that lists one serial twice (for the same
    // issuer) answers by its most severe entry, whatever their order: a revocation other than
    // certificateHold is permanent (RFC 5280 3.3), removeFromCRL belongs in delta CRLs only (5.3.1).
    // It was the first entry: [removeFromCRL, keyCompromise] was trusted, the reverse revoked.
    @Test("A serial listed twice: the most severe entry answers, in either order", arguments: [
        ([8, 1], RevocationReason.keyCompromise), ([1, 8], .keyCompromise), ([8, 6], .certificateHold), ([6, 8], .certificateHold),
        ([6, 1], .keyCompromise), ([1, 6], .keyCompromise), ([8, 0], .unspecified),
    ])
    func duplicateEntries(codes: [UInt8], expected: RevocationReason) throws {
        let listed = try crl(number: 1, entries: codes.map { F.entry(serial: [0x05], extensions: [F.reasonCode($0)]) })
        #expect(RevocationState.entry(listing: Self.leaf, in: listed)?.effectiveReason == expected)
        var state = RevocationState()
        state.apply(complete: listed, delta: nil, for: Self.leaf, interimReasons: .all)
        guard case .revoked(let entry, _) = state.status else {
            Issue.record("expected revoked, got \(state.status)")
            return
        }
        #expect(entry.effectiveReason == expected)
        // An out-of-date CRL still says revoked for a permanent reason, not for a hold.
        let permanent = RevocationState.revocation(of: Self.leaf, in: listed, permanentOnly: true)
        #expect(permanent?.effectiveReason == (expected == .certificateHold ? nil : expected))
    }

    // RFC 5280 5.3.1: removeFromCRL says a certificate "was removed from hold" (or expired); only a
    // hold is temporary (3.3). A delta's removeFromCRL therefore releases a certificateHold of the
    // complete CRL, never a permanent revocation (the literal 6.3.3 (i)-(k) would: this errs towards
    // revoked, as the rest of revocation checking does).
    @Test("A delta's removeFromCRL does not release a permanent revocation of the complete CRL")
    func removeFromCRLReleasesOnlyAHold() throws {
        let compromised = try crl(number: 1, entries: [F.entry(serial: [0x05], extensions: [F.reasonCode(1)])])
        let removed = try crl(number: 2, base: 1, entries: [F.entry(serial: [0x05], extensions: [F.reasonCode(8)])])
        var state = RevocationState()
        state.apply(complete: compromised, delta: removed, for: Self.leaf, interimReasons: .all)
        guard case .revoked(let entry, let source) = state.status else {
            Issue.record("expected revoked, got \(state.status)")
            return
        }
        #expect(entry.effectiveReason == .keyCompromise && source === compromised)
    }

    // RFC 5280 6.3.2 (a): all-reasons is the eight substantive reasons (keyCompromise … aACompromise);
    // bit 0 (unused) is none. onlySomeReasons naming those eight covers every reason. It was
    // undetermined: `all` included bit 0, so no scope short of all nine bits was ever final.
    @Test("onlySomeReasons naming the eight substantive reasons, or two CRLs splitting them, is all-reasons")
    func allReasonsAreTheEightSubstantiveOnes() throws {
        #expect(ReasonFlags.all.rawValue == 0x1FE)
        #expect(!ReasonFlags.all.contains(.unused))
        let eight: ReasonFlags = [.keyCompromise, .cACompromise, .affiliationChanged, .superseded, .cessationOfOperation,
                                  .certificateHold, .privilegeWithdrawn, .aACompromise]
        #expect(eight == .all)
        var state = RevocationState()
        state.apply(complete: try crl(number: 1), delta: nil, for: Self.leaf, interimReasons: eight)
        #expect(state.isFinal)
        var split = RevocationState()
        split.apply(complete: try crl(number: 1), delta: nil, for: Self.leaf, interimReasons: [.keyCompromise, .cACompromise, .superseded])
        #expect(!split.isFinal)
        split.apply(complete: try crl(number: 2), delta: nil, for: Self.leaf,
                    interimReasons: [.affiliationChanged, .cessationOfOperation, .certificateHold, .privilegeWithdrawn, .aACompromise])
        #expect(split.isFinal)
        // The unused bit alone covers nothing.
        var unusedOnly = RevocationState()
        unusedOnly.apply(complete: try crl(number: 1), delta: nil, for: Self.leaf, interimReasons: [.unused])
        #expect(!unusedOnly.isFinal)
    }

    // MARK: Delta CRLs (5.2.4, 6.3.3 (c))

    @Test("A delta CRL extends a complete CRL of the same issuer and scope whose number is at least its base")
    func deltaMatching() throws {
        let complete = try crl(number: 2)
        #expect(DeltaCRLs.mismatch(try crl(number: 3, base: 1), complete: complete, at: Self.time) == nil)
        #expect(DeltaCRLs.mismatch(try crl(number: 3, base: 2), complete: complete, at: Self.time) == nil)
        #expect(DeltaCRLs.mismatch(try crl(number: 4, base: 3), complete: complete, at: Self.time)
                == .completeCRLTooOld(complete: CRLNumber(2), base: CRLNumber(3)))
        #expect(DeltaCRLs.mismatch(try crl(number: 2, base: 1), complete: complete, at: Self.time) == .notNewer)
        #expect(DeltaCRLs.mismatch(try crl(number: 3), complete: complete, at: Self.time) == .notADeltaCRL)
        #expect(DeltaCRLs.mismatch(try crl(number: 3, base: 1, issuer: F.name("Other")), complete: complete, at: Self.time) == .issuerMismatch)
        #expect(DeltaCRLs.mismatch(try crl(number: 3, base: 1, extra: [F.issuingDistributionPoint(onlyUser: true)]),
                                   complete: complete, at: Self.time) == .scopeMismatch)
        let keyed = try crl(number: 2, extra: [F.ext("2.5.29.35", F.der(.sequence) { $0.append(.contextSpecific(0), contents: [1]) })])
        #expect(DeltaCRLs.mismatch(try crl(number: 3, base: 1), complete: keyed, at: Self.time) == .authorityKeyMismatch)
        #expect(DeltaCRLs.mismatch(try crl(number: 3, base: 1, nextUpdate: "201201000000Z"), complete: complete, at: Self.time) == .notCurrent)
        #expect(DeltaCRLs.mismatch(try crl(number: 3, base: 1, thisUpdate: "220101000000Z"), complete: complete, at: Self.time) == .notCurrent)
        let unusable = try crl(number: 3, base: 1, extra: [F.ext("1.3.6.1.4.1.99999.1", critical: true, [0x05, 0x00])])
        #expect(DeltaCRLs.mismatch(unusable, complete: complete, at: Self.time) == .unusable)
    }

    @Test("The applicable delta CRLs come newest first; complete CRLs and mismatches are left out")
    func applicableDeltas() throws {
        let complete = try crl(number: 2)
        let d3 = try crl(number: 3, base: 2), d5 = try crl(number: 5, base: 1), d9 = try crl(number: 9, base: 4)
        let applicable = DeltaCRLs.applicable(to: complete, among: [d3, complete, d9, d5], at: Self.time)
        #expect(applicable.map { $0.crlNumber } == [CRLNumber(5), CRLNumber(3)])
    }

    // MARK: Conflicting CRLs

    /// Two CRLs of one issuer with the same number and dates, one listing the server certificate and
    /// one empty (TestVectors/policy-values): revoked in either order, never decided by the order.
    @Test("Two CRLs as new as each other that disagree: revoked whatever the order")
    func sameNumberConflict() throws {
        func read(_ name: String) throws -> CertificateRevocationList {
            let bytes = [UInt8](try Data(contentsOf: TestCertificates.testVectors.appendingPathComponent("policy-values/" + name)))
            return try #require(try PEM.readCRLs(bytes).crls.first)
        }
        let revoked = try read("revoked-server.crl.pem"), empty = try read("empty-same-number.crl.pem")
        #expect(revoked.crlNumber == empty.crlNumber && revoked.thisUpdate == empty.thisUpdate)
        // The verdicts are the set's expectations.txt (its generate.py): revoked, in both orders.
        let expected = TestCertificates.expectations("policy-values")
        for (id, order) in [("revoked-then-empty", [revoked, empty]), ("empty-then-revoked", [empty, revoked])] {
            let expectation = try #require(expected.first { $0.id == id })
            var evaluation = SamplePKI.server(SamplePKI.rsaServer)
            evaluation.revocationEvidence = RevocationEvidence(crls: CRLStore(order))
            #expect(evaluation.evaluate().primaryFailure?.code == expectation.failureCodes.first,
                    "order: \(order.map { $0.entries(serialNumber: SamplePKI.rsaServer.serialNumber).count })")
        }
    }

    // MARK: Options

    @Test("Undetermined status: the default rejects only when CRLs were supplied for the issuer (or a named cRLIssuer)")
    func undeterminedOptions() throws {
        let caCRL = try crl(number: 1)
        let signerCRL = try crl(number: 1, issuer: F.name("CRL Signer"), extra: [F.issuingDistributionPoint(indirect: true)])
        func checker(_ crls: [CertificateRevocationList], _ mode: UndeterminedRevocationStatus) -> RevocationChecker? {
            var policy = ValidationPolicy()
            policy.undeterminedRevocationStatus = mode
            return RevocationChecker.checking(RevocationEvidence(crls: CRLStore(crls)), policy: policy, certificates: [])
        }
        let other = F.certificate(issuer: F.name("Other CA"))
        let viaSigner = F.certificate(issuer: F.name("Other CA"),
                                      distributionPoints: [F.distributionPoint(nil, cRLIssuer: [F.directoryName(F.name("CRL Signer"))])])
        let byDefault = try #require(checker([caCRL, signerCRL], .rejectWhenIssuerHasCRLs))
        #expect(byDefault.rejectsUndetermined(Self.leaf))
        #expect(!byDefault.rejectsUndetermined(other))
        #expect(byDefault.rejectsUndetermined(viaSigner))
        #expect(try #require(checker([caCRL], .reject)).rejectsUndetermined(other))
        #expect(!(try #require(checker([caCRL], .accept)).rejectsUndetermined(Self.leaf)))
        // No CRLs: no revocation checking, unless undetermined must reject (then every certificate fails).
        #expect(checker([], .rejectWhenIssuerHasCRLs) == nil)
        #expect(checker([], .accept) == nil)
        #expect(checker([], .reject) != nil)
    }

    @Test("Undetermined explanations name the most telling reasons first")
    func explanations() throws {
        let stale = try crl(number: 1, nextUpdate: "200201000000Z")
        let delta = try crl(number: 2, base: 5)
        let text = UndeterminedRevocation(coveredReasons: [], crlRejections: [.deltaWithoutCompleteCRL(delta), .stale(stale)]).description
        #expect(text == "the CRL of CN=CA,O=Test (number 1) is out of date (nextUpdate 2020-02-01T00:00:00Z) and no current delta CRL extends it; "
                + "the delta CRL of CN=CA,O=Test (number 2) is a delta CRL and no complete CRL it could extend was supplied (RFC 5280 5.2.4)")
        let notApplicable = UndeterminedRevocation(coveredReasons: [], crlRejections: [.deltaNotApplicable(delta, .completeCRLTooOld(complete: CRLNumber(1), base: CRLNumber(5)))]).description
        #expect(notApplicable == "the delta CRL of CN=CA,O=Test (number 2) cannot extend the complete CRL: "
                + "it extends base CRL number 5, newer than the complete CRL's 1 (RFC 5280 5.2.4)")
        #expect(UndeterminedRevocation(coveredReasons: [], crlRejections: []).description == "no supplied CRL or OCSP response covers it")
        #expect(UndeterminedRevocation(coveredReasons: [.keyCompromise], crlRejections: []).description == "the usable CRLs cover only some revocation reasons (RFC 5280 6.3.3)")
        // With rejections too, partial coverage comes first (it said only a rejection, which read as
        // the whole cause: "does not match the certificate's distribution point").
        #expect(UndeterminedRevocation(coveredReasons: [.keyCompromise], crlRejections: [.deltaWithoutCompleteCRL(delta)]).description
                == "the usable CRLs cover only some revocation reasons (RFC 5280 6.3.3); "
                + UndeterminedRevocation(coveredReasons: [], crlRejections: [.deltaWithoutCompleteCRL(delta)]).description)
    }
}
