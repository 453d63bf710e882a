import CertPath
import CertPathDER
import Foundation
import Testing

/// Inputs the fuzz targets of `Fuzz/` found (kept in `TestVectors/fuzz/regressions/`, named
/// `<target>-<what>`), each run through the library with the outcome the fix guarantees, plus
/// hand-made certificates covering the whole class of each bug.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestVectors/fuzz/regressions")

    static func input(_ name: String) throws -> [UInt8] {
        let url = directory.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return Array(data)
    }

    /// The DERError `Certificate(derEncoded:)` throws, or `nil` when it parses.
    static func parseError(_ der: [UInt8]) -> DERError? {
        do throws(DERError) {
            _ = try Certificate(derEncoded: der)
            return nil
        } catch {
            return error
        }
    }

    /// Every regression input has a test here (listed by name), so none is kept without being run.
    static let covered: Set<String> = [
        "certificate-constructed-attribute-value.der",
        "certificate-own-anchor-not-a-ca",
        "path-self-anchored-leaf-with-anchor-constraints",
        "path-self-issued-mesh-unbounded-work",
        "scenario-path-self-issued-mesh-unbounded-work.pem",
    ]

    @Test("every input in TestVectors/fuzz/regressions has a regression test")
    func everyInputIsCovered() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { !$0.hasPrefix(".") }
        #expect(Set(names) == Self.covered)
    }

    // MARK: Finding 1 — ANY values were not checked to be DER

    /// FuzzCertificate, seed `custom/name_attribute_unsupported_tag.pem` (cryptography-vectors): an issuer
    /// attribute value `[APPLICATION 9]` constructed, whose contents `PyCA` are not a DER element (0x50 is a
    /// tag, 0x79 a length of 121 bytes that are not there). The parser accepted it because it entered a
    /// constructed ANY value without reading what was inside; every ANY value is now checked to be DER all
    /// the way down (`DERReader.validateTree`).
    @Test("certificate-constructed-attribute-value: a constructed attribute value must hold DER")
    func constructedAttributeValue() throws {
        let error = Self.parseError(try Self.input("certificate-constructed-attribute-value.der"))
        #expect(error?.code == .truncated)
        #expect(error?.offset == 40)
    }

    /// Where a schema says ANY (or keeps a value uninterpreted), the value must still be DER: each case
    /// places one non-DER value there and expects the rule it breaks, at its offset in the certificate.
    struct AnyCase: Sendable, CustomTestStringConvertible {
        let name: String
        let certificate: [UInt8]
        let code: DERError.Code
        /// The byte the error must point at (the offending element's identifier octet).
        let offset: Int
        var testDescription: String { name }
    }

    /// Non-DER values: a constructed element with garbage inside, an INTEGER with a redundant leading
    /// zero, a BOOLEAN that is neither 0x00 nor 0xFF, a constructed OCTET STRING (BER only).
    static let garbageConstructed: [UInt8] = [0x30, 0x02, 0x50, 0x79]
    static let nonMinimalInteger: [UInt8] = [0x02, 0x02, 0x00, 0x01]
    static let badBoolean: [UInt8] = [0x01, 0x01, 0x01]
    static let constructedOctetString: [UInt8] = [0x24, 0x03, 0x04, 0x01, 0x00]

    static let anyCases: [AnyCase] = {
        var cases: [AnyCase] = []
        /// `badValue`'s last occurrence in the certificate (the outer signatureAlgorithm is read before the
        /// TBS), plus `inner` for an error inside it (the element after a constructed header).
        func add(_ name: String, _ code: DERError.Code, _ build: (AnyValueCertificate) -> AnyValueCertificate, badValue: [UInt8],
                 inner: Int = 0) {
            let certificate = build(AnyValueCertificate()).der
            let start = (0...(certificate.count - badValue.count)).last { certificate[$0..<($0 + badValue.count)].elementsEqual(badValue) }!
            cases.append(AnyCase(name: name, certificate: certificate, code: code, offset: start + inner))
        }
        // Issuer attribute values of non-string types.
        add("issuer attribute value, constructed", .truncated, { $0.issuer(attributeValue: garbageConstructed) }, badValue: garbageConstructed,
            inner: 2)
        add("issuer attribute value, INTEGER", .nonMinimalInteger, { $0.issuer(attributeValue: nonMinimalInteger) }, badValue: nonMinimalInteger)
        add("issuer attribute value, constructed OCTET STRING", .unexpectedTag, { $0.issuer(attributeValue: constructedOctetString) },
            badValue: constructedOctetString)
        // subjectAltName forms kept uninterpreted.
        let otherName = [0xA0, 0x0A, 0x06, 0x03, 0x2A, 0x03, 0x04, 0xA0, 0x03] + badBoolean
        add("otherName value", .invalidBoolean, { $0.extension(KnownOID.subjectAltName, sequenceOf: [otherName]) }, badValue: badBoolean)
        let x400 = [0xA3, 0x04] + garbageConstructed
        add("x400Address", .truncated, { $0.extension(KnownOID.subjectAltName, sequenceOf: [x400]) }, badValue: garbageConstructed, inner: 2)
        let edi = [0xA5, 0x04] + nonMinimalInteger
        add("ediPartyName", .nonMinimalInteger, { $0.extension(KnownOID.subjectAltName, sequenceOf: [edi]) }, badValue: nonMinimalInteger)
        // A policy qualifier (id-qt-cps with a non-DER qualifier).
        let cps: [UInt8] = [0x06, 0x08, 0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x02, 0x01]
        let qualifierInfo = [0x30, UInt8(cps.count + badBoolean.count)] + cps + badBoolean
        let policy = [0x30, UInt8(6 + qualifierInfo.count), 0x06, 0x02, 0x2A, 0x03, 0x30, UInt8(qualifierInfo.count)] + qualifierInfo
        add("policy qualifier", .invalidBoolean, { $0.extension(KnownOID.certificatePolicies, sequenceOf: [policy]) }, badValue: badBoolean)
        // The same with a constructed qualifier (the shape of a UserNotice) whose contents are not DER.
        let garbageInfo = [0x30, UInt8(cps.count + garbageConstructed.count)] + cps + garbageConstructed
        let garbagePolicy = [0x30, UInt8(6 + garbageInfo.count), 0x06, 0x02, 0x2A, 0x03, 0x30, UInt8(garbageInfo.count)] + garbageInfo
        add("policy qualifier, constructed", .truncated, { $0.extension(KnownOID.certificatePolicies, sequenceOf: [garbagePolicy]) },
            badValue: garbageConstructed, inner: 2)
        // Parameters of algorithms CertPath does not know.
        add("SPKI parameters of an unknown algorithm", .nonMinimalInteger, { $0.unknownKey(parameters: nonMinimalInteger) },
            badValue: nonMinimalInteger)
        add("signature parameters of an unknown algorithm", .invalidBoolean, { $0.unknownSignatureAlgorithm(parameters: badBoolean) },
            badValue: badBoolean)
        // nameRelativeToCRLIssuer attribute values in a CRL distribution point.
        let atv = [0x30, UInt8(5 + nonMinimalInteger.count), 0x06, 0x03, 0x55, 0x04, 0x03] + nonMinimalInteger
        let point = [0x30, UInt8(4 + atv.count), 0xA0, UInt8(2 + atv.count), 0xA1, UInt8(atv.count)] + atv
        add("CRL distribution point nameRelativeToCRLIssuer", .nonMinimalInteger,
            { $0.extension(KnownOID.cRLDistributionPoints, sequenceOf: [point]) }, badValue: nonMinimalInteger)
        return cases
    }()

    @Test("ANY values must be DER all the way down", arguments: anyCases)
    func anyValuesAreDER(_ testCase: AnyCase) {
        let error = Self.parseError(testCase.certificate)
        #expect(error?.code == testCase.code)
        #expect(error?.offset == testCase.offset)
    }

    @Test("the same certificates with DER values in those places parse")
    func wellFormedAnyValuesParse() {
        let integer: [UInt8] = [0x02, 0x01, 0x01]
        let otherName: [UInt8] = [0xA0, 0x0A, 0x06, 0x03, 0x2A, 0x03, 0x04, 0xA0, 0x03, 0x01, 0x01, 0xFF]
        let certificates = [
            AnyValueCertificate().issuer(attributeValue: [0x30, 0x03] + integer).der,
            AnyValueCertificate().extension(KnownOID.subjectAltName, sequenceOf: [otherName]).der,
            AnyValueCertificate().extension(KnownOID.subjectAltName, sequenceOf: [[0xA3, 0x03] + integer]).der,
            AnyValueCertificate().unknownKey(parameters: integer).der,
            AnyValueCertificate().unknownSignatureAlgorithm(parameters: [0x05, 0x00]).der,
        ]
        for der in certificates { #expect(Self.parseError(der) == nil) }
    }

    /// Documented choice: string alphabets inside ANY values are not checked (a real Belgian eID
    /// certificate has UTF-8 in a VisibleString explicitText); names and IA5String GeneralNames still are.
    @Test("a policy qualifier's VisibleString with UTF-8 is accepted; the same string as a name attribute is not")
    func stringAlphabetsInsideAnyValues() {
        let visible: [UInt8] = [0x1A, 0x02, 0xC3, 0xA0]
        let userNotice: [UInt8] = [0x06, 0x08, 0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x02, 0x02, 0x30, UInt8(visible.count)] + visible
        let qualifierInfo = [0x30, UInt8(userNotice.count)] + userNotice
        let policy = [0x30, UInt8(6 + qualifierInfo.count), 0x06, 0x02, 0x2A, 0x03, 0x30, UInt8(qualifierInfo.count)] + qualifierInfo
        #expect(Self.parseError(AnyValueCertificate().extension(KnownOID.certificatePolicies, sequenceOf: [policy]).der) == nil)
        let error = Self.parseError(AnyValueCertificate().issuer(attributeValue: visible).der)
        #expect(error?.code == .invalidString)
    }
}

/// Builds a minimal v3 certificate (P-256 key, ecdsa-with-SHA256, dummy signature: only parsing is
/// tested) with one part replaced by the bytes a test needs.
struct AnyValueCertificate {
    var issuerAttributeValue: [UInt8] = [0x0C, 0x04] + Array("Test".utf8)
    var extensions: [[UInt8]] = []
    var spkiAlgorithm: [UInt8] = [0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
                                  0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
    var signatureAlgorithm: [UInt8] = [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]

    func issuer(attributeValue: [UInt8]) -> AnyValueCertificate {
        var copy = self
        copy.issuerAttributeValue = attributeValue
        return copy
    }

    /// Adds a non-critical extension whose value is `SEQUENCE { elements... }`.
    func `extension`(_ oid: OID, sequenceOf elements: [[UInt8]]) -> AnyValueCertificate {
        var value = DERWriter()
        value.append(.sequence) { s in for element in elements { s.appendEncoded(element) } }
        var ext = DERWriter()
        ext.append(.sequence) { e in
            e.appendOID(oid)
            e.append(.octetString, contents: value.bytes)
        }
        var copy = self
        copy.extensions.append(ext.bytes)
        return copy
    }

    /// An AlgorithmIdentifier: `oid` followed by `parameters` (already encoded).
    static func algorithmIdentifier(_ oid: OID, parameters: [UInt8]) -> [UInt8] {
        var algorithm = DERWriter()
        algorithm.append(.sequence) { a in
            a.appendOID(oid)
            a.appendEncoded(parameters)
        }
        return algorithm.bytes
    }

    /// An SPKI of an unknown algorithm (1.2.3.4) with `parameters`.
    func unknownKey(parameters: [UInt8]) -> AnyValueCertificate {
        var copy = self
        copy.spkiAlgorithm = Self.algorithmIdentifier("1.2.3.4", parameters: parameters)
        return copy
    }

    /// An unknown signature algorithm (1.2.3.5) with `parameters`, inside and outside.
    func unknownSignatureAlgorithm(parameters: [UInt8]) -> AnyValueCertificate {
        var copy = self
        copy.signatureAlgorithm = Self.algorithmIdentifier("1.2.3.5", parameters: parameters)
        return copy
    }

    var der: [UInt8] {
        let point: [UInt8] = [0x04] + [UInt8](repeating: 0x11, count: 64)
        var w = DERWriter()
        w.append(.sequence) { c in
            c.append(.sequence) { t in
                t.append(.contextSpecific(0, constructed: true)) { $0.appendInteger(2) }
                t.appendInteger(1)
                t.appendEncoded(signatureAlgorithm)
                t.append(.sequence) { n in
                    n.append(.set) { s in
                        s.append(.sequence) { a in
                            a.appendOID(KnownOID.commonName)
                            a.appendEncoded(issuerAttributeValue)
                        }
                    }
                }
                t.append(.sequence) { v in
                    v.append(.utcTime, contents: Array("240101000000Z".utf8))
                    v.append(.utcTime, contents: Array("260101000000Z".utf8))
                }
                t.append(.sequence) { n in
                    n.append(.set) { s in
                        s.append(.sequence) { a in
                            a.appendOID(KnownOID.commonName)
                            a.append(.utf8String, contents: Array("Subject".utf8))
                        }
                    }
                }
                t.append(.sequence) { k in
                    k.appendEncoded(spkiAlgorithm)
                    k.append(.bitString, contents: [0] + point)
                }
                if !extensions.isEmpty {
                    t.append(.contextSpecific(3, constructed: true)) { x in
                        x.append(.sequence) { list in for ext in extensions { list.appendEncoded(ext) } }
                    }
                }
            }
            c.appendEncoded(signatureAlgorithm)
            c.append(.bitString, contents: [0, 0x30, 0x00])
        }
        return w.bytes
    }
}

// MARK: Findings 2 and 3 — a leaf that is its own trust anchor (the fuzz checker's reading, not the library's)

/// FuzzCertificate and FuzzPathBuilding reported trusted results that their independent re-check
/// (`PathInvariants`) refused: a certificate registered as a trust anchor and presented as the leaf,
/// with anchor constraints enforced (`AnchorEnforcement.full`). The library was right: a one-certificate
/// path whose leaf is the anchor is judged as the end entity (RFC 5280 6.1: n = 1, no certificate is
/// judged as a CA), so basicConstraints cA FALSE and a keyUsage without keyCertSign are what it should
/// carry. The re-check now reads it the same way; these tests pin the library's answer.
@Suite("Fuzz regressions: a leaf that is its own anchor")
struct LeafAsOwnAnchorRegressionTests {
    /// certificate-own-anchor-not-a-ca: cA FALSE (critical), keyUsage digitalSignature keyEncipherment,
    /// self-signed, valid 2025-04-08 to 2026-04-08, trusted as its own anchor.
    @Test("certificate-own-anchor-not-a-ca: an end entity trusted as its own anchor is not judged as a CA")
    func ownAnchorNotACA() throws {
        let certificate = try Certificate(derEncoded: try FuzzRegressionTests.input("certificate-own-anchor-not-a-ca"))
        #expect(certificate.basicConstraints?.isCertificateAuthority == false)
        for enforcement in [AnchorEnforcement.nameAndKey, .rfc5937, .full] {
            var policy = ValidationPolicy()
            policy.purpose = .any
            policy.profile = .rfc5280
            policy.anchorEnforcement = enforcement
            let result = TrustEvaluation(leaf: certificate, intermediates: [], trustStore: TrustStore(anchors: [certificate]),
                                         policy: policy, validationTime: UnixTime(year: 2025, month: 10, day: 1)!).evaluate()
            guard case .trusted(let path) = result else {
                Issue.record("\(enforcement): expected trusted, got \(result)")
                continue
            }
            #expect(path.certificates == [certificate])
        }
    }

    /// path-self-anchored-leaf-with-anchor-constraints: the class of the finding with real signatures. A
    /// self-signed TLS server certificate (no basicConstraints cA, keyUsage digitalSignature) registered
    /// as an anchor, every anchor check on: trusted as a one-certificate path, for the server purpose.
    /// An issued leaf registered as `.anchor` is not (the kind vouches for what it issues, RFC 5280
    /// 6.1.1 (d)); `.anchorOrLeaf` vouches for it as the end entity too.
    @Test("path-self-anchored-leaf-with-anchor-constraints: a self-signed leaf registered as an anchor is trusted by itself")
    func selfSignedLeafAsAnchor() throws {
        var policy = try ValidationPolicy.server(hostname: "www.customer7.test")
        policy.anchorEnforcement = .full
        func evaluate(_ leaf: Certificate, _ entry: TrustEntry, intermediates: [Certificate] = []) -> TrustResult {
            TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: TrustStore([entry]), policy: policy,
                            validationTime: SignedCertificates.time).evaluate()
        }
        let selfSigned = try SignedCertificates.root(.server("www.customer7.test")).certificate
        let anchored = evaluate(selfSigned, TrustEntry(selfSigned, kind: .anchor))
        guard case .trusted(let path) = anchored else {
            Issue.record("a self-signed leaf registered as an anchor: expected trusted, got \(anchored)")
            return
        }
        #expect(path.certificates == [selfSigned])
        // Judged once, as the end entity: one expiry, not one as the anchor and one as the leaf.
        let expired = try SignedCertificates.root(.server("www.customer7.test")).certificate
        let late = TrustEvaluation(leaf: expired, trustStore: TrustStore([TrustEntry(expired, kind: .anchor)]), policy: policy,
                                   validationTime: UnixTime(year: 2046, month: 1, day: 1)!).evaluate()
        guard case .untrusted(let lateReport) = late else {
            Issue.record("expected an expired self-signed leaf to be untrusted")
            return
        }
        #expect(lateReport.bestAttempt.failures.map(\.code) == ["expired"])

        let root = try SignedCertificates.root()
        let issued = try SignedCertificates.issue(.server("www.customer7.test"), subjectKey: TestKey(), issuer: root)
        guard case .untrusted(let report) = evaluate(issued, TrustEntry(issued, kind: .anchor), intermediates: [root.certificate]) else {
            Issue.record("an issued leaf registered as .anchor only: expected untrusted")
            return
        }
        #expect(report.primaryFailure == .noTrustedAnchor(root.certificate))
        guard case .trusted(let direct) = evaluate(issued, TrustEntry(issued, kind: .anchorOrLeaf)) else {
            Issue.record("an issued leaf registered as .anchorOrLeaf: expected trusted")
            return
        }
        #expect(direct.certificates == [issued])
    }

    // MARK: Finding — work outside signatures was not counted (issue 30)

    /// path-self-issued-mesh-unbounded-work (FuzzPathBuilding; `scenario-…pem`: its scenario as `scripts/fuzz
    /// show-path` prints it): a leaf with an unknown critical extension and four self-issued CAs
    /// named alike (three of them also anchors), all of one key. Every signature was memoized after
    /// the first few, so the cost budget saw nothing while the builder validated hundreds of paths
    /// through the same-named CAs, each failing on the leaf: 60 ms of CPU per evaluation in the
    /// instrumented build, ending at the 263 build steps of the scenario's budget. Now the leaf's own
    /// fatal failures are decided before any path is built (no step, no signature), and every
    /// candidate considered and path validated is charged to ``Budget/signatureCost``.
    @Test("path-self-issued-mesh-unbounded-work: the doomed leaf is refused before path building")
    func selfIssuedMeshDoomedLeaf() throws {
        let text = try FuzzRegressionTests.input("scenario-path-self-issued-mesh-unbounded-work.pem")
        let blocks = try PEM.decode(text).blocks
        let certificates = try blocks.map { try Certificate(derEncoded: $0.der) }
        #expect(certificates.count == 5)
        let leaf = certificates[0]
        let intermediates = certificates.dropFirst().map { $0 }
        let anchors = zip(blocks, certificates).filter { $0.0.label.contains("intermediateAndAnchor") }.map(\.1)
        #expect(anchors.count == 3)
        var policy = try ValidationPolicy.server(hostname: "www.example.com")
        policy.profile = .webPKI
        policy.anchorEnforcement = .full
        policy.maximumIntermediates = 6
        policy.budget = Budget(signatureChecks: 32, buildSteps: 263, nameConstraintComparisons: 543)
        let result = TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: TrustStore(anchors: anchors), policy: policy,
                                     validationTime: UnixTime(year: 2025, month: 6, day: 1)!).evaluate()
        guard case .untrusted(let report) = result else {
            Issue.record("expected untrusted, got \(result)")
            return
        }
        #expect(report.primaryFailure.code == "unknownCriticalExtension")
        #expect(report.bestAttempt.certificates == [leaf])
        #expect(result.statistics.signatureChecks == 0)
        #expect(result.statistics.buildSteps == 0)
    }

    /// The class of the finding with real signatures and a path-dependent failure: a root, seven
    /// re-issues of it (same name, same key, each its own subjectAltName: self-issued, each signature valid), a CA without
    /// basicConstraints under it and a leaf under that CA. Every ordering of the re-issues is a path
    /// to the anchor (about 13,700), every one failing at the CA, and the signatures are a dozen,
    /// memoized. The search is bounded by the cost budget counting its steps and validations.
    @Test("same-key self-issued re-issues: the search ends within the cost budget, in counted work")
    func selfIssuedMeshIsBounded() throws {
        let key = TestKey()
        let root = try SignedCertificates.root(.ca("Mesh Root"), key: key)
        let reissues = try (1...7).map { i -> Certificate in
            // (A subjectAltName of its own: RFC 4158's loop key would make re-issues alike one certificate.)
            var spec = CertificateSpec.ca("Mesh Root", extra: [D.ext(KnownOID.subjectAltName, D.seq(D.ctx(2, Array("r\(i).mesh.test".utf8))))])
            spec.serial = D.tlv(.integer, [0x11, UInt8(i)])
            return try SignedCertificates.root(spec, key: key).certificate
        }
        var caSpec = CertificateSpec(subject: D.cn("Not A CA"), extensions: [D.ext(KnownOID.keyUsage, critical: true, D.bits([0x06], unused: 1))])
        caSpec.keyIdentifiers = true
        let ca = try SignedCertificates.intermediate(caSpec, by: root)
        let leaf = try SignedCertificates.issue(.server("www.mesh.test"), subjectKey: TestKey(), issuer: ca)
        var policy = ValidationPolicy(purpose: .any)
        policy.profile = .pathValidation
        let result = TrustEvaluation(leaf: leaf, intermediates: reissues + [ca.certificate], trustStore: TrustStore(anchors: [root.certificate]),
                                     policy: policy, validationTime: SignedCertificates.time).evaluate()
        guard case .untrusted(let report) = result else {
            Issue.record("expected untrusted, got \(result)")
            return
        }
        #expect(report.primaryFailure == .budgetExhausted(.signatureCost))
        #expect(report.bestAttempt.failures.contains(.notACertificateAuthority(ca.certificate)))
        // Counted work: the whole allowance and at most one path's validation more (2 units for each
        // of at most 17 certificates); a few hundred steps, a dozen signatures.
        #expect(result.statistics.signatureCost <= Budget.default.signatureCost)
        #expect(result.statistics.buildSteps < 2_000)
        #expect(result.statistics.signatureChecks <= 12)
        // The first path alone, without the re-issues: notACertificateAuthority, in a few units.
        let plain = TrustEvaluation(leaf: leaf, intermediates: [ca.certificate], trustStore: TrustStore(anchors: [root.certificate]),
                                    policy: policy, validationTime: SignedCertificates.time).evaluate()
        #expect(plain.primaryFailure == .notACertificateAuthority(ca.certificate))
        #expect(plain.statistics.signatureCost < 300)
    }
}
