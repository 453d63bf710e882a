import Testing
import CertPath
import CertPathDER

/// RFC 7633 (the TLS feature extension, "must-staple") and the extensions CertPath recognizes when
/// critical (RFC 5280 4.2): a processed extension marked critical is not an unknown critical
/// extension; an unprocessed one still rejects the certificate.
@Suite("TLS feature (RFC 7633) and recognized critical extensions")
struct TLSFeatureTests {
    typealias F = OCSPFixture

    static func tlsFeature(_ features: [Int64], critical: Bool = false) -> [UInt8] {
        D.ext(KnownOID.tlsFeature, critical: critical ? true : nil, D.seq(features.flatMap { D.int($0) }))
    }

    /// A self-signed CA carrying `extra`.
    static func root(extra: [[UInt8]]) throws -> Certificate {
        try SignedCertificates.root(.ca("TLS Feature Root", extra: extra)).certificate
    }

    // MARK: Parsing (RFC 7633 section 4: Features ::= SEQUENCE OF INTEGER)

    @Test("status_request and status_request_v2, in encoded order; critical, it is not an unknown critical extension")
    func parsesFeatures() throws {
        let certificate = try Self.root(extra: [Self.tlsFeature([5, 17], critical: true)])
        #expect(certificate.tlsFeatures == [5, 17])
        #expect(certificate.extension(KnownOID.tlsFeature)?.isCritical == true)
        #expect(certificate.unrecognizedCriticalExtensions.isEmpty)
    }

    @Test("an empty SEQUENCE OF is valid ASN.1 (no SIZE constraint) and lists no feature; a repeat is kept as encoded")
    func emptyAndRepeated() throws {
        #expect(try Self.root(extra: [Self.tlsFeature([])]).tlsFeatures == [])
        #expect(try Self.root(extra: [Self.tlsFeature([5, 5])]).tlsFeatures == [5, 5])
    }

    @Test("not a SEQUENCE OF INTEGER, or an INTEGER outside a TLS ExtensionType's 0...65535: the certificate does not parse")
    func strict() throws {
        let malformed: [[UInt8]] = [
            D.ext(KnownOID.tlsFeature, D.seq(D.oid("1.2.3"))),  // an element that is not an INTEGER
            D.ext(KnownOID.tlsFeature, D.int(5)),  // an INTEGER, not a SEQUENCE
            Self.tlsFeature([65536]),  // above uint16
            Self.tlsFeature([-1]),  // negative
            D.ext(KnownOID.tlsFeature, D.seq(D.int(5)) + [0x00]),  // trailing data
        ]
        for value in malformed {
            #expect(throws: DERError.self) { _ = try Self.root(extra: [value]) }
        }
    }

    @Test("id-pkix-ocsp-nocheck is NULL (RFC 6960 4.2.2.2.1): any other value does not parse")
    func noCheckIsNull() throws {
        #expect(try Self.root(extra: [D.ext(KnownOID.ocspNoCheck, critical: true, D.null)]).unrecognizedCriticalExtensions.isEmpty)
        #expect(throws: DERError.self) { _ = try Self.root(extra: [D.ext(KnownOID.ocspNoCheck, D.int(0))]) }
    }

    // MARK: Recognized when critical (RFC 5280 4.2)

    /// A root, a leaf it issued, a delegated responder with OCSPSigning and a critical ocsp-nocheck.
    struct PKI {
        let root: SignedCertificates.Issuer
        let leaf: Certificate
        let responderKey = TestKey()
        let responder: Certificate

        init(leafExtra: [[UInt8]] = [], rootExtra: [[UInt8]] = []) throws {
            root = try SignedCertificates.root(.ca("Must-Staple Root", extra: rootExtra))
            leaf = try SignedCertificates.issue(.server("leaf.example", extra: leafExtra), subjectKey: TestKey(), issuer: root)
            var spec = CertificateSpec(subject: D.cn("Must-Staple Responder"), extensions: [
                D.ext(KnownOID.keyUsage, critical: true, D.bits([0x80], unused: 7)),
                D.ext(KnownOID.extKeyUsage, D.seq(D.oid(KnownOID.ocspSigning))),
                D.ext(KnownOID.ocspNoCheck, critical: true, D.null),
            ])
            spec.serial = D.int(0x0777)
            responder = try SignedCertificates.issue(spec, subjectKey: responderKey, issuer: root)
        }
    }

    static func certID(_ certificate: Certificate, issuer: Certificate) throws -> [UInt8] {
        let id = try #require(OCSPCertID(identifying: certificate, issuer: issuer))
        return D.seq(F.sha1, D.octets(Array(id.issuerNameHash)), D.octets(Array(id.issuerKeyHash)),
                     D.tlv(.integer, Array(certificate.serialNumber)))
    }

    /// A response about `certificate` (issued by `issuer`) with `status`, signed by `key` as `signer`.
    static func response(_ certificate: Certificate, issuer: Certificate, status: [UInt8] = F.good,
                         signer: Certificate, key: TestKey, certificates: [Certificate] = []) throws -> OCSPResponse {
        try OCSPHostileTests.response([F.single(certID: try certID(certificate, issuer: issuer), status: status,
                                                thisUpdate: OCSPHostileTests.thisUpdate, nextUpdate: OCSPHostileTests.nextUpdate)],
                                      responderID: OCSPHostileTests.byName(signer), signedBy: key, certificates: certificates)
    }

    @Test("a delegated responder with a critical ocsp-nocheck: not refused as a path's leaf, and its responses count under reject")
    func criticalNoCheck() throws {
        let pki = try PKI()
        let alone = TrustEvaluation(leaf: pki.responder, trustStore: TrustStore(anchors: [pki.root.certificate]),
                                    policy: ValidationPolicy(purpose: .extendedKeyUsage(purposes: [KnownOID.ocspSigning], expectedNames: [])),
                                    validationTime: SignedCertificates.time).evaluate()
        #expect(alone.isTrusted, "\(alone.primaryFailure.map(Diagnostics.describe) ?? "")")
        let good = try Self.response(pki.leaf, issuer: pki.root.certificate, signer: pki.responder, key: pki.responderKey,
                                     certificates: [pki.responder])
        let result = TrustEvaluation(leaf: pki.leaf, trustStore: TrustStore(anchors: [pki.root.certificate]),
                                     policy: ValidationPolicy(undeterminedRevocationStatus: .reject),
                                     revocationEvidence: RevocationEvidence(ocspResponses: [good]),
                                     validationTime: SignedCertificates.time).evaluate()
        #expect(result.isTrusted, "\(result.primaryFailure.map(Diagnostics.describe) ?? "")")
    }

    @Test("an unknown critical extension still rejects the certificate; a critical TLS feature does not")
    func unknownCriticalStillRefused() throws {
        let unknown: OID = "1.3.6.1.4.1.55555.1"
        let refused = try PKI(leafExtra: [D.ext(unknown, critical: true, D.null)])
        let result = TrustEvaluation(leaf: refused.leaf, trustStore: TrustStore(anchors: [refused.root.certificate]),
                                     validationTime: SignedCertificates.time).evaluate()
        #expect(result.primaryFailure == .unknownCriticalExtension(refused.leaf, unknown))
        let feature = try PKI(leafExtra: [Self.tlsFeature([5], critical: true)])
        #expect(TrustEvaluation(leaf: feature.leaf, trustStore: TrustStore(anchors: [feature.root.certificate]),
                                validationTime: SignedCertificates.time).evaluate().isTrusted)
    }

    // MARK: Must-staple (RFC 7633 4.3.3)

    static func evaluate(_ pki: PKI, stapled: [OCSPResponse]?, purpose: ValidationPurpose? = nil,
                         mode: UndeterminedRevocationStatus = .accept, intermediates: [Certificate] = [], leaf: Certificate? = nil,
                         at time: UnixTime = SignedCertificates.time) throws -> TrustResult {
        var policy = try ValidationPolicy.server(hostname: "leaf.example")
        if let purpose { policy.purpose = purpose }
        policy.undeterminedRevocationStatus = mode
        var evaluation = TrustEvaluation(leaf: leaf ?? pki.leaf, intermediates: intermediates, trustStore: TrustStore(anchors: [pki.root.certificate]),
                                         policy: policy, validationTime: time)
        evaluation.stapledOCSPResponses = stapled
        return evaluation.evaluate()
    }

    @Test("a must-staple server certificate without a staple: missingStapledOCSPResponse, fatal, naming what is missing")
    func noStaple() throws {
        let pki = try PKI(leafExtra: [Self.tlsFeature([5])])
        let result = try Self.evaluate(pki, stapled: [])
        #expect(result.primaryFailure == .missingStapledOCSPResponse(pki.leaf, requiredBy: pki.leaf, reason: nil))
        let report = try #require(result.report)
        #expect(!report.isRecoverable)
        #expect(report.primaryFailure.code == "missingStapledOCSPResponse")
        let text = Diagnostics.describe(report.primaryFailure)
        #expect(text.contains("requires a stapled OCSP response (must-staple: its TLS feature extension lists status_request"), "\(text)")
        #expect(text.contains("the server stapled no OCSP response"), "\(text)")
        // Under every revocation mode.
        for mode in UndeterminedRevocationStatus.allCases {
            #expect(try Self.evaluate(pki, stapled: [], mode: mode).primaryFailure?.code == "missingStapledOCSPResponse")
        }
    }

    @Test("with a good stapled response from the issuer: trusted; from a delegated responder: trusted")
    func goodStaple() throws {
        let pki = try PKI(leafExtra: [Self.tlsFeature([5])])
        let byIssuer = try Self.response(pki.leaf, issuer: pki.root.certificate, signer: pki.root.certificate, key: pki.root.key)
        let result = try Self.evaluate(pki, stapled: [byIssuer])
        #expect(result.isTrusted, "\(result.primaryFailure.map(Diagnostics.describe) ?? "")")
        let delegated = try Self.response(pki.leaf, issuer: pki.root.certificate, signer: pki.responder, key: pki.responderKey,
                                          certificates: [pki.responder])
        #expect(try Self.evaluate(pki, stapled: [delegated], mode: .reject).isTrusted)
    }

    @Test("a staple that does not settle the status (out of date, about another certificate) fails even under accept")
    func unusableStaple() throws {
        let pki = try PKI(leafExtra: [Self.tlsFeature([5])])
        let good = try Self.response(pki.leaf, issuer: pki.root.certificate, signer: pki.root.certificate, key: pki.root.key)
        let late = try Self.evaluate(pki, stapled: [good], at: UnixTime(year: 2030, month: 2, day: 1)!)
        guard case .missingStapledOCSPResponse(let leaf, let requiredBy, let reason?) = late.primaryFailure else {
            Issue.record("expected missingStapledOCSPResponse with a reason, got \(String(describing: late.primaryFailure))")
            return
        }
        #expect(leaf == pki.leaf && requiredBy == pki.leaf)
        #expect(reason.ocspRejections.contains { if case .expired = $0 { return true }; return false }, "\(reason)")
        var spec = CertificateSpec.server("other.example")
        spec.serial = D.int(0x0999)
        let other = try SignedCertificates.issue(spec, subjectKey: TestKey(), issuer: pki.root)
        let aboutOther = try Self.response(other, issuer: pki.root.certificate, signer: pki.root.certificate, key: pki.root.key)
        #expect(try Self.evaluate(pki, stapled: [aboutOther]).primaryFailure?.code == "missingStapledOCSPResponse")
    }

    @Test("a stapled revoked response: revoked (the staple was there; the revocation is the failure)")
    func revokedStaple() throws {
        let pki = try PKI(leafExtra: [Self.tlsFeature([5])])
        let revoked = try Self.response(pki.leaf, issuer: pki.root.certificate, status: F.revoked(), signer: pki.root.certificate,
                                        key: pki.root.key)
        let result = try Self.evaluate(pki, stapled: [revoked])
        #expect(result.primaryFailure?.code == "revoked")
        #expect(result.report?.failures.contains { $0.code == "missingStapledOCSPResponse" } == false)
    }

    @Test("not a TLS server evaluation, not from a handshake, or no status_request listed: unaffected")
    func notApplied() throws {
        let pki = try PKI(leafExtra: [Self.tlsFeature([5])])
        #expect(try Self.evaluate(pki, stapled: nil).isTrusted)
        #expect(try Self.evaluate(pki, stapled: [], purpose: .any).isTrusted)
        #expect(try Self.evaluate(pki, stapled: [], purpose: .extendedKeyUsage(purposes: [KnownOID.serverAuth], expectedNames: [])).isTrusted)
        // status_request_v2 (17) alone: OpenSSL's client does not offer it (RFC 7633 4.3.3: features in both).
        #expect(try Self.evaluate(try PKI(leafExtra: [Self.tlsFeature([17])]), stapled: []).isTrusted)
        #expect(try Self.evaluate(try PKI(), stapled: []).isTrusted)
    }

    @Test("RFC 7633 4.2.2.1: a CA listing status_request requires the staple of the server certificates below it")
    func inheritedFromCA() throws {
        let pki = try PKI()
        let intermediate = try SignedCertificates.intermediate(.ca("Must-Staple CA", extra: [Self.tlsFeature([5])]), by: pki.root)
        let leaf = try SignedCertificates.issue(.server("leaf.example"), subjectKey: TestKey(), issuer: intermediate)
        let result = try Self.evaluate(pki, stapled: [], intermediates: [intermediate.certificate], leaf: leaf)
        #expect(result.primaryFailure == .missingStapledOCSPResponse(leaf, requiredBy: intermediate.certificate, reason: nil))
        let text = Diagnostics.describe(try #require(result.primaryFailure))
        #expect(text.contains("the TLS feature extension of CN=Must-Staple CA, a CA of its path,"), "\(text)")
        let good = try Self.response(leaf, issuer: intermediate.certificate, signer: intermediate.certificate, key: intermediate.key)
        #expect(try Self.evaluate(pki, stapled: [good], intermediates: [intermediate.certificate], leaf: leaf).isTrusted)
        // The anchor's own TLS feature, with its constraints applied (the default, RFC 5937).
        let rooted = try PKI(rootExtra: [Self.tlsFeature([5])])
        #expect(try Self.evaluate(rooted, stapled: []).primaryFailure
                == .missingStapledOCSPResponse(rooted.leaf, requiredBy: rooted.root.certificate, reason: nil))
    }
}
