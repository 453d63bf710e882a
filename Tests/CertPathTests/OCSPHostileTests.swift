import Testing
import CertPath
import CertPathDER

/// OCSP evidence an attacker can make without any private key that matters — SingleResponses
/// naming a certificate (its CertID is public), certificates copying a responder's name and key —
/// must never hide a genuine revocation, and a limit reached is a failure in every mode, never an
/// accepted unknown. Found by a fresh reviewer (F1: junk SingleResponses ahead of a revoked one;
/// F2: decoy responder certificates ahead of the real one), built here with real signatures.
@Suite("OCSP evidence from an attacker")
struct OCSPHostileTests {
    typealias F = OCSPFixture

    /// A root, a leaf it issued, a delegated responder (OCSPSigning) it issued.
    struct PKI {
        let root: SignedCertificates.Issuer
        let leaf: Certificate
        let responderKey: TestKey
        let responder: Certificate
        let responderSpec: CertificateSpec

        init() throws {
            root = try SignedCertificates.root(.ca("OCSP Hostile Root"))
            leaf = try SignedCertificates.issue(.server("leaf.example"), subjectKey: TestKey(), issuer: root)
            responderKey = TestKey()
            var spec = CertificateSpec(subject: D.cn("OCSP Hostile Responder"), extensions: [
                D.ext(KnownOID.keyUsage, critical: true, D.bits([0x80], unused: 7)),
                D.ext(KnownOID.extKeyUsage, D.seq(D.oid(KnownOID.ocspSigning))),
            ])
            spec.serial = D.int(0x0777)
            responderSpec = spec
            responder = try SignedCertificates.issue(spec, subjectKey: responderKey, issuer: root)
        }

        /// The CertID naming the leaf.
        var certID: [UInt8] {
            let id = OCSPCertID(identifying: leaf, issuer: root.certificate)!
            return D.seq(F.sha1, D.octets(Array(id.issuerNameHash)), D.octets(Array(id.issuerKeyHash)),
                         D.tlv(.integer, Array(leaf.serialNumber)))
        }
    }

    static let thisUpdate = F.generalizedTime("20291231000000Z")
    static let nextUpdate = D.ctx(0, constructed: true, F.generalizedTime("20300107000000Z"))

    /// A response of `singles` with `responderID`, signed by `key` (or with a placeholder signature).
    static func response(_ singles: [[UInt8]], responderID: [UInt8], signedBy key: TestKey?, certificates: [Certificate] = []) throws -> OCSPResponse {
        var fixture = F.Response()
        fixture.responderID = responderID
        fixture.producedAt = thisUpdate
        fixture.responses = singles
        fixture.certificates = certificates.isEmpty ? nil : certificates.map(\.der)
        if let key {
            fixture.signatureAlgorithm = key.signatureAlgorithm
            fixture.signature = D.bits(key.sign(fixture.tbs))
        }
        return try fixture.parse()
    }

    static func byName(_ certificate: Certificate) -> [UInt8] { D.ctx(1, constructed: true, Array(certificate.subject.der)) }

    static func byKey(_ certificate: Certificate) -> [UInt8] {
        D.ctx(2, constructed: true, D.octets(HashAlgorithm.sha1.digest(of: certificate.subjectPublicKeyInfo.subjectPublicKeyBytes)!))
    }

    static func evaluate(_ pki: PKI, _ responses: [OCSPResponse], intermediates: [Certificate] = [],
                         mode: UndeterminedRevocationStatus = .accept) -> (code: String, text: String) {
        let result = TrustEvaluation(leaf: pki.leaf, intermediates: intermediates, trustStore: TrustStore(anchors: [pki.root.certificate]),
                                     policy: ValidationPolicy(undeterminedRevocationStatus: mode),
                                     revocationEvidence: RevocationEvidence(ocspResponses: responses),
                                     validationTime: SignedCertificates.time).evaluate()
        switch result {
        case .trusted: return ("trusted", "")
        case .untrusted(let report): return (report.primaryFailure.code, Diagnostics.describe(report.primaryFailure))
        }
    }

    @Test("F1: sixteen forged good answers ahead of a genuine revoked one: revoked, in either order, under accept")
    func junkAheadOfRevoked() throws {
        let pki = try PKI()
        let junk = try Self.response([[UInt8]](repeating: F.single(certID: pki.certID, status: F.good, thisUpdate: Self.thisUpdate,
                                                                    nextUpdate: Self.nextUpdate), count: 16),
                                     responderID: Self.byName(pki.responder), signedBy: TestKey(), certificates: [pki.responder])
        let revoked = try Self.response([F.single(certID: pki.certID, status: F.revoked("20291201000000Z", reason: 1), thisUpdate: Self.thisUpdate,
                                                  nextUpdate: Self.nextUpdate)],
                                        responderID: Self.byName(pki.root.certificate), signedBy: pki.root.key)
        #expect(Self.evaluate(pki, [revoked]).code == "revoked")
        #expect(Self.evaluate(pki, [junk, revoked]).code == "revoked")
        #expect(Self.evaluate(pki, [revoked, junk]).code == "revoked")
        // The forged answers alone are not good evidence: under hard fail the status is unknown.
        let alone = Self.evaluate(pki, [junk], mode: .reject)
        #expect(alone.code == "revocationUnknown")
        #expect(alone.text.contains("does not verify with the key of CN=OCSP Hostile Responder"))
    }

    @Test("more forged revoked answers than are examined: a failure in every mode, accept included, never trusted")
    func examinationLimitFailsClosed() throws {
        let pki = try PKI()
        let forged = try Self.response([[UInt8]](repeating: F.single(certID: pki.certID, status: F.revoked(), thisUpdate: Self.thisUpdate,
                                                                      nextUpdate: Self.nextUpdate), count: 17),
                                       responderID: Self.byName(pki.root.certificate), signedBy: TestKey())
        let good = try Self.response([F.single(certID: pki.certID, status: F.good, thisUpdate: Self.thisUpdate, nextUpdate: Self.nextUpdate)],
                                     responderID: Self.byName(pki.root.certificate), signedBy: pki.root.key)
        #expect(Self.evaluate(pki, [good]).code == "trusted")
        for mode in UndeterminedRevocationStatus.allCases {
            let verdict = Self.evaluate(pki, [forged, good], mode: mode)
            #expect(verdict.code == "revocationUnknown", "\(mode)")
            #expect(verdict.text.contains("16 OCSP responses naming the certificate were examined"), "\(mode): \(verdict.text)")
        }
    }

    /// A certificate with the responder's subject, key and OCSPSigning, signed by an attacker's root.
    static func decoy(_ pki: PKI, serial: Int64) throws -> Certificate {
        let attacker = try SignedCertificates.root(.ca("OCSP Hostile Root"))  // same name as the real root, another key
        var spec = pki.responderSpec
        spec.serial = D.int(serial)
        spec.keyIdentifiers = false
        return try SignedCertificates.issue(spec, subjectKey: pki.responderKey, issuer: attacker)
    }

    @Test("F2: decoys copying the responder's name and key, presented ahead of it: never trusted; behind it: revoked")
    func decoysAheadOfResponder() throws {
        let pki = try PKI()
        let decoys = try (1...5).map { try Self.decoy(pki, serial: 0x1000 + Int64($0)) }
        for responderID in [Self.byKey(pki.responder), Self.byName(pki.responder)] {
            let revoked = try Self.response([F.single(certID: pki.certID, status: F.revoked(), thisUpdate: Self.thisUpdate, nextUpdate: Self.nextUpdate)],
                                            responderID: responderID, signedBy: pki.responderKey)
            #expect(Self.evaluate(pki, [revoked], intermediates: [pki.responder] + decoys).code == "revoked")
            let hidden = Self.evaluate(pki, [revoked], intermediates: decoys + [pki.responder])
            #expect(hidden.code == "revocationUnknown")
            #expect(hidden.text.contains("4 certificates matching the responder of the OCSP response"), "\(hidden.text)")
            // Fewer decoys than the limit: the real responder is reached.
            #expect(Self.evaluate(pki, [revoked], intermediates: Array(decoys.prefix(3)) + [pki.responder]).code == "revoked")
        }
        // The decoy itself is named with its serial number.
        let good = try Self.response([F.single(certID: pki.certID, status: F.good, thisUpdate: Self.thisUpdate, nextUpdate: Self.nextUpdate)],
                                     responderID: Self.byName(pki.responder), signedBy: pki.responderKey)
        let verdict = Self.evaluate(pki, [good], intermediates: [decoys[0]], mode: .reject)
        #expect(verdict.code == "revocationUnknown")
        #expect(verdict.text.contains("(serial 1001) is not authorized to sign"), "\(verdict.text)")
    }
}
