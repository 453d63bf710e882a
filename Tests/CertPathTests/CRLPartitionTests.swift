@testable import CertPath
import CertPathDER
import Testing

/// Partitioned CRLs (RFC 5280 5.2.5, 6.3.3 (b)(2)(i)): a CRL whose issuingDistributionPoint names a
/// distribution point speaks only for the certificates whose cRLDistributionPoints name that point
/// (or, for a certificate without cRLDistributionPoints, for the default point named by its issuer).
/// Supplied the wrong partition, a certificate revoked on its own partition must never be trusted
/// where an undetermined status rejects.
@Suite("Partitioned CRLs")
struct CRLPartitionTests {
    static let partitionA = "http://crl.test/partition-a.crl"
    static let partitionB = "http://crl.test/partition-b.crl"

    /// A leaf of "CRL CA" (under "CRL Root") whose cRLDistributionPoints name `point` (none: no extension).
    static func chain(point: CRLFixture.PointName?) throws -> (leaf: Certificate, intermediate: SignedCertificates.Issuer, root: Certificate) {
        let root = try SignedCertificates.root(.ca("CRL Root"))
        let intermediate = try SignedCertificates.intermediate(.ca("CRL CA", pathLength: 0), by: root)
        let extra = point.map { [D.ext(KnownOID.cRLDistributionPoints, D.seq(CRLFixture.distributionPoint($0)))] } ?? []
        let leaf = try SignedCertificates.issue(.server("leaf.test", extra: extra), subjectKey: TestKey(), issuer: intermediate)
        return (leaf, intermediate, root.certificate)
    }

    /// A conforming CRL of `issuer` (cRLNumber, nextUpdate) listing `serials`, with `idp` as its
    /// issuingDistributionPoint (none: a complete CRL for every certificate of the issuer).
    static func crl(by issuer: SignedCertificates.Issuer, idp: CRLFixture.PointName?, listing serials: [[UInt8]]) throws -> CertificateRevocationList {
        let extensions = [D.ext(CRLExtensionOID.cRLNumber, D.int(3))] + (idp.map { [CRLFixture.issuingDistributionPoint($0)] } ?? [])
        return try RevocationEvidenceTests.crl(by: issuer, listing: serials, extensions: extensions)
    }

    static func evaluate(_ crls: [CertificateRevocationList], _ mode: UndeterminedRevocationStatus,
                         _ chain: (leaf: Certificate, intermediate: SignedCertificates.Issuer, root: Certificate)) throws -> TrustResult {
        var policy = try ValidationPolicy.server(hostname: "leaf.test")
        policy.undeterminedRevocationStatus = mode
        return TrustEvaluation(leaf: chain.leaf, intermediates: [chain.intermediate.certificate], trustStore: TrustStore(anchors: [chain.root]),
                               policy: policy, revocationEvidence: RevocationEvidence(crls: CRLStore(crls)),
                               validationTime: SignedCertificates.time).evaluate()
    }

    /// Whether `result` fails `leaf` with revocationUnknown (and is not trusted).
    static func isUnknown(_ result: TrustResult, _ leaf: Certificate) -> Bool {
        guard case .untrusted(let report) = result else { return false }
        return report.failures.contains { if case .revocationUnknown(let certificate, _) = $0 { return certificate == leaf }; return false }
    }

    /// The hostile case: the leaf names partition A, where it is revoked; only partition B's CRL is
    /// supplied, its IDP naming B by URI, by a name relative to the CRL issuer, or by the issuer's own
    /// directory name (the name of the default point, which serves only certificates without
    /// cRLDistributionPoints: RFC 5280 6.3.3, the paragraph after (l)).
    @Test("A leaf revoked on partition A, only partition B's CRL supplied: revocationUnknown where the mode rejects, never trusted",
          arguments: ["uri", "relative", "issuer name"])
    func otherPartitionDoesNotSpeak(_ form: String) throws {
        let chain = try Self.chain(point: .full([CRLFixture.uri(Self.partitionA)]))
        let idpB: CRLFixture.PointName
        switch form {
        case "uri": idpB = .full([CRLFixture.uri(Self.partitionB)])
        case "relative": idpB = .relative("Partition B")
        default: idpB = .full([CRLFixture.directoryName(Array(chain.intermediate.certificate.subject.der))])
        }
        let partitionA = try Self.crl(by: chain.intermediate, idp: .full([CRLFixture.uri(Self.partitionA)]),
                                      listing: [RevocationEvidenceTests.leafSerial])
        let partitionB = try Self.crl(by: chain.intermediate, idp: idpB, listing: [[0x01]])
        for mode in [UndeterminedRevocationStatus.reject, .rejectWhenIssuerHasCRLs] {
            let result = try Self.evaluate([partitionB], mode, chain)
            #expect(!result.isTrusted, "\(form) \(mode)")
            #expect(Self.isUnknown(result, chain.leaf), "\(form) \(mode): \(result)")
            if case .untrusted(let report) = result,
               let reason = report.failures.lazy.compactMap({ failure -> String? in
                   if case .revocationUnknown(let certificate, let evidence) = failure, certificate == chain.leaf { return evidence.description }
                   return nil
               }).first {
                #expect(reason.contains("does not match the certificate's distribution point"), "\(reason)")
            }
            // Its own partition says revoked, whichever other partitions come with it.
            #expect(try Self.evaluate([partitionB, partitionA], mode, chain).primaryFailure?.code == "revoked", "\(form) \(mode)")
        }
    }

    @Test("A CRL without issuingDistributionPoint is complete for its issuer: it covers a leaf whatever its cRLDistributionPoints name")
    func completeCRLCoversEveryPartition() throws {
        let chain = try Self.chain(point: .full([CRLFixture.uri(Self.partitionA)]))
        let silent = try Self.crl(by: chain.intermediate, idp: nil, listing: [[0x01]])
        #expect(try Self.evaluate([silent], .rejectWhenIssuerHasCRLs, chain).isTrusted)
        let listing = try Self.crl(by: chain.intermediate, idp: nil, listing: [RevocationEvidenceTests.leafSerial])
        #expect(try Self.evaluate([listing], .rejectWhenIssuerHasCRLs, chain).primaryFailure?.code == "revoked")
    }

    @Test("A leaf without cRLDistributionPoints: a CRL whose IDP names its issuer (the default point) speaks for it; a partition does not")
    func defaultPoint() throws {
        let chain = try Self.chain(point: nil)
        let issuerName = CRLFixture.directoryName(Array(chain.intermediate.certificate.subject.der))
        let named = try Self.crl(by: chain.intermediate, idp: .full([issuerName]), listing: [[0x01]])
        #expect(try Self.evaluate([named], .rejectWhenIssuerHasCRLs, chain).isTrusted)
        let partition = try Self.crl(by: chain.intermediate, idp: .full([CRLFixture.uri(Self.partitionB)]), listing: [[0x01]])
        #expect(Self.isUnknown(try Self.evaluate([partition], .rejectWhenIssuerHasCRLs, chain), chain.leaf))
    }
}
