import CertPath
import CertPathDER
import Testing

/// A synthetic CT world: logs with P-256 keys made in the test, a root, and leaves whose embedded
/// SCTs are signed over the real precertificate entry (RFC 6962 3.2: the TBSCertificate without the
/// SCT list extension, and the issuer's key hash).
final class CTWorld: @unchecked Sendable {
    struct TestLog {
        let key: TestKey
        let log: CTLogList.Log
        let operatorName: String
    }

    let root: SignedCertificates.Issuer
    let notBefore = UnixTime(year: 2030, month: 1, day: 1)!
    static let day: Int64 = 86_400
    /// Usable since 2029; the validation time is a day after notBefore.
    var checkTime: UnixTime { UnixTime(secondsSinceEpoch: notBefore.secondsSinceEpoch + Self.day) }
    /// The default SCT time: an hour before notBefore, in milliseconds.
    var sctTime: UInt64 { UInt64(notBefore.secondsSinceEpoch - 3600) * 1000 }

    init() throws {
        root = try SignedCertificates.root()
    }

    func makeLog(_ name: String, operator operatorName: String, state: CTLogList.State.Kind = .usable,
                 since: UnixTime = UnixTime(year: 2029, month: 1, day: 1)!) -> TestLog {
        let key = TestKey(.p256)
        return TestLog(key: key, log: CTLogList.Log(description: name, key: key.spki, state: CTLogList.State(state, since: since)),
                       operatorName: operatorName)
    }

    func list(_ logs: [TestLog]) -> CTLogList {
        var operators: [CTLogList.Operator] = []
        for log in logs {
            if let i = operators.firstIndex(where: { $0.name == log.operatorName }) {
                operators[i].logs.append(log.log)
            } else {
                operators.append(CTLogList.Operator(name: log.operatorName, logs: [log.log]))
            }
        }
        return CTLogList(version: "test", operators: operators)
    }

    /// An SCT by `log` over `entry`.
    static func sct(by log: TestLog, entry: CTSignedEntry, timestamp: UInt64) -> SignedCertificateTimestamp {
        let unsigned = SignedCertificateTimestamp(logID: log.log.logID.bytes, timestamp: timestamp, signatureAlgorithm: .ecdsaSHA256, signature: [])
        return SignedCertificateTimestamp(logID: log.log.logID.bytes, timestamp: timestamp, signatureAlgorithm: .ecdsaSHA256,
                                          signature: log.key.sign(entry.signedData(for: unsigned)))
    }

    static func utc(_ time: UnixTime) -> [UInt8] {
        let c = time.components
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return D.tlv(.utcTime, Array("\(two(c.year % 100))\(two(c.month))\(two(c.day))\(two(c.hour))\(two(c.minute))\(two(c.second))Z".utf8))
    }

    /// A server certificate valid for `span` seconds (notAfter − notBefore) with SCTs embedded from
    /// `scts` (log, timestamp in ms; `nil`: ``sctTime``), and the key it was issued for.
    func leaf(span: Int64, scts: [(TestLog, UInt64?)], subjectKey: TestKey = TestKey()) throws -> Certificate {
        var spec = CertificateSpec.server("ct.example")
        spec.validity = D.seq(Self.utc(notBefore), Self.utc(UnixTime(secondsSinceEpoch: notBefore.secondsSinceEpoch + span)))
        let precertificate = try SignedCertificates.issue(spec, subjectKey: subjectKey, issuer: root)
        guard !scts.isEmpty else { return precertificate }
        let entry = CTSignedEntry.precertificate(tbsCertificate: Array(precertificate.tbsCertificateBytes),
                                                 issuerKeyHash: SHA256Digest(hashing: root.certificate.subjectPublicKeyInfo.der))
        let list = SignedCertificateTimestampList(timestamps: scts.map { Self.sct(by: $0.0, entry: entry, timestamp: $0.1 ?? sctTime) })
        spec.extensions.append(D.ext(KnownOID.signedCertificateTimestampList, D.octets(list.tlsEncoded)))
        return try SignedCertificates.issue(spec, subjectKey: subjectKey, issuer: root)
    }

    func evaluation(_ leaf: Certificate, logs: CTLogList?, requirement: CTRequirement, publicAnchor: Bool = false) throws -> TrustEvaluation {
        var policy = try ValidationPolicy.server(hostname: "ct.example")
        policy.profile = .interoperable
        policy.certificateTransparency = requirement
        var evaluation = TrustEvaluation(leaf: leaf, trustStore: TrustStore(anchors: [root.certificate], isPublicWebPKI: publicAnchor),
                                         policy: policy, validationTime: checkTime)
        evaluation.certificateTransparencyLogs = logs
        return evaluation
    }

    /// The CT report of the failure, or `nil` when the evaluation trusted the path.
    func unmet(_ evaluation: TrustEvaluation, sourceLocation: SourceLocation = #_sourceLocation) -> [CTRule]? {
        switch evaluation.evaluate() {
        case .trusted(let path):
            #expect(path.certificateTransparency?.isCompliant == true, sourceLocation: sourceLocation)
            return nil
        case .untrusted(let report):
            guard case .certificateTransparencyNotCompliant(let c, let ct) = report.primaryFailure else {
                Issue.record("not a CT failure: \(report.primaryFailure)", sourceLocation: sourceLocation)
                return []
            }
            #expect(c == evaluation.leaf, sourceLocation: sourceLocation)
            return ct.unmetRules
        }
    }
}

@Suite("Certificate Transparency policies at their boundaries (Apple 103214, Chrome CT policy)")
struct CTPolicyTests {
    static let day = CTWorld.day

    @Test("Apple, 180 days or less (notBefore through notAfter inclusive): 2 SCTs from distinct logs, at most 1 per operator")
    func apple180() throws {
        let world = try CTWorld()
        let a1 = world.makeLog("A1", operator: "A"), a2 = world.makeLog("A2", operator: "A"), b1 = world.makeLog("B1", operator: "B")
        let logs = world.list([a1, a2, b1])
        // 180 days inclusive: notAfter − notBefore = 180 days − 1 s.
        let span = 180 * Self.day - 1
        #expect(world.unmet(try world.evaluation(try world.leaf(span: span, scts: [(a1, nil), (b1, nil)]), logs: logs, requirement: .required(.apple))) == nil)
        // Two logs of one operator: the second does not count (at most 1 per operator).
        let sameOperator = try world.evaluation(try world.leaf(span: span, scts: [(a1, nil), (a2, nil)]), logs: logs, requirement: .required(.apple))
        #expect(world.unmet(sameOperator) == [.tooFewSCTs(required: 2, counted: 1, lifetimeDays: 180, perOperatorLimit: 1)])
        // Two SCTs from one log count once.
        let sameLog = try world.evaluation(try world.leaf(span: span, scts: [(a1, nil), (a1, world.sctTime - 1)]), logs: logs, requirement: .required(.apple))
        #expect(world.unmet(sameLog) == [.tooFewSCTs(required: 2, counted: 1, lifetimeDays: 180, perOperatorLimit: 1)])
    }

    @Test("Apple, 181 to 398 days: 3 SCTs, at most 2 per operator; one second more than 180 days is 181 days")
    func apple181to398() throws {
        let world = try CTWorld()
        let a1 = world.makeLog("A1", operator: "A"), a2 = world.makeLog("A2", operator: "A"), a3 = world.makeLog("A3", operator: "A")
        let b1 = world.makeLog("B1", operator: "B")
        let logs = world.list([a1, a2, a3, b1])
        let span181 = 180 * Self.day  // inclusive: 180 days and 1 second, so 181 days
        #expect(world.unmet(try world.evaluation(try world.leaf(span: span181, scts: [(a1, nil), (b1, nil)]), logs: logs, requirement: .required(.apple)))
            == [.tooFewSCTs(required: 3, counted: 2, lifetimeDays: 181, perOperatorLimit: 2)])
        #expect(world.unmet(try world.evaluation(try world.leaf(span: span181, scts: [(a1, nil), (a2, nil), (b1, nil)]), logs: logs,
                                                 requirement: .required(.apple))) == nil)
        // Three logs of one operator: 2 count.
        #expect(world.unmet(try world.evaluation(try world.leaf(span: span181, scts: [(a1, nil), (a2, nil), (a3, nil)]), logs: logs,
                                                 requirement: .required(.apple)))
            == [.tooFewSCTs(required: 3, counted: 2, lifetimeDays: 181, perOperatorLimit: 2)])
        let span398 = 398 * Self.day - 1
        #expect(world.unmet(try world.evaluation(try world.leaf(span: span398, scts: [(a1, nil), (a2, nil), (b1, nil)]), logs: logs,
                                                 requirement: .required(.apple))) == nil)
        // 399 days: beyond Apple's table.
        let unmet399 = world.unmet(try world.evaluation(try world.leaf(span: 398 * Self.day, scts: [(a1, nil), (a2, nil), (b1, nil)]), logs: logs,
                                                        requirement: .required(.apple)))
        #expect(unmet399 == [.lifetimeBeyondPolicy(days: 399, maximum: 398)])
    }

    @Test("Apple: at least one SCT from a log usable at the time of check; read-only and qualified logs count for the rest")
    func appleUsableAtCheck() throws {
        let world = try CTWorld()
        let r = world.makeLog("R", operator: "A", state: .readonly), q = world.makeLog("Q", operator: "B", state: .qualified)
        let u = world.makeLog("U", operator: "C")
        let logs = world.list([r, q, u])
        let span = (90 * Self.day - 1)
        #expect(world.unmet(try world.evaluation(try world.leaf(span: span, scts: [(r, nil), (q, nil)]), logs: logs, requirement: .required(.apple)))
            == [.noSCTFromCurrentLog(states: [.usable])])
        #expect(world.unmet(try world.evaluation(try world.leaf(span: span, scts: [(r, nil), (u, nil)]), logs: logs, requirement: .required(.apple))) == nil)
        // Chromium: qualified and read-only logs are current.
        #expect(world.unmet(try world.evaluation(try world.leaf(span: span, scts: [(r, nil), (q, nil)]), logs: logs, requirement: .required(.chromium))) == nil)
    }

    @Test("A retired log's SCT counts only when issued before the retirement (to the millisecond); pending and rejected logs never count")
    func retiredLogTiming() throws {
        let world = try CTWorld()
        let retiredAt = UnixTime(secondsSinceEpoch: world.notBefore.secondsSinceEpoch - 60)
        let old = world.makeLog("Old", operator: "B", state: .retired, since: retiredAt)
        let u = world.makeLog("U", operator: "A")
        let p = world.makeLog("P", operator: "C", state: .pending), x = world.makeLog("X", operator: "D", state: .rejected)
        let logs = world.list([old, u, p, x])
        let retiredMs = UInt64(retiredAt.secondsSinceEpoch) * 1000
        let span = (90 * Self.day - 1)
        for policy in CTPolicy.allCases {
            #expect(world.unmet(try world.evaluation(try world.leaf(span: span, scts: [(u, nil), (old, retiredMs - 1)]), logs: logs,
                                                     requirement: .required(policy))) == nil)
            let atRetirement = world.unmet(try world.evaluation(try world.leaf(span: span, scts: [(u, nil), (old, retiredMs)]), logs: logs,
                                                                requirement: .required(policy)))
            let limit: Int? = policy == .apple ? 1 : nil
            var expected: [CTRule] = [.tooFewSCTs(required: 2, counted: 1, lifetimeDays: 90, perOperatorLimit: limit)]
            if policy == .chromium { expected.append(.tooFewOperators(required: 2, found: 1)) }
            #expect(atRetirement == expected)
            #expect(world.unmet(try world.evaluation(try world.leaf(span: span, scts: [(u, nil), (p, nil), (x, nil)]), logs: logs,
                                                     requirement: .required(policy))) == expected)
        }
        // The report says why each did not count.
        let leaf = try world.leaf(span: span, scts: [(u, nil), (old, retiredMs), (p, nil)])
        let report = CertificateTransparency.evaluate(leaf, issuer: world.root.certificate, policy: .apple, logs: logs, validationTime: world.checkTime)
        #expect(report.timestamps.map(\.exclusion) == [nil, .retiredBeforeTimestamp(retiredAt), .logState(.pending)])
        #expect(report.timestamps.map(\.counted) == [true, false, false])
    }

    @Test("Chromium: more than 180 days (notAfter − notBefore) needs 3 SCTs; SCTs from at least 2 operators")
    func chromiumRows() throws {
        let world = try CTWorld()
        let a1 = world.makeLog("A1", operator: "A"), a2 = world.makeLog("A2", operator: "A"), b1 = world.makeLog("B1", operator: "B")
        let logs = world.list([a1, a2, b1])
        #expect(world.unmet(try world.evaluation(try world.leaf(span: 180 * Self.day, scts: [(a1, nil), (b1, nil)]), logs: logs,
                                                 requirement: .required(.chromium))) == nil)
        #expect(world.unmet(try world.evaluation(try world.leaf(span: 180 * Self.day + 1, scts: [(a1, nil), (b1, nil)]), logs: logs,
                                                 requirement: .required(.chromium)))
            == [.tooFewSCTs(required: 3, counted: 2, lifetimeDays: 181, perOperatorLimit: nil)])
        #expect(world.unmet(try world.evaluation(try world.leaf(span: 180 * Self.day + 1, scts: [(a1, nil), (a2, nil), (b1, nil)]), logs: logs,
                                                 requirement: .required(.chromium))) == nil)
        #expect(world.unmet(try world.evaluation(try world.leaf(span: (90 * Self.day - 1), scts: [(a1, nil), (a2, nil)]), logs: logs,
                                                 requirement: .required(.chromium))) == [.tooFewOperators(required: 2, found: 1)])
    }

    @Test("SCTs delivered by TLS (x509_entry): 2 from distinct current logs, one of them delivered")
    func tlsDelivered() throws {
        let world = try CTWorld()
        let a1 = world.makeLog("A1", operator: "A"), b1 = world.makeLog("B1", operator: "B")
        let logs = world.list([a1, b1])
        let leaf = try world.leaf(span: (90 * Self.day - 1), scts: [])
        func tlsList(_ by: [CTWorld.TestLog]) -> [UInt8] {
            SignedCertificateTimestampList(timestamps: by.map { CTWorld.sct(by: $0, entry: .x509(leaf), timestamp: world.sctTime) }).tlsEncoded
        }
        for policy in CTPolicy.allCases {
            var evaluation = try world.evaluation(leaf, logs: logs, requirement: .required(policy))
            evaluation.signedCertificateTimestampLists = [tlsList([a1, b1])]
            #expect(world.unmet(evaluation) == nil)
            guard case .trusted(let path) = evaluation.evaluate() else { Issue.record("not trusted"); continue }
            #expect(path.certificateTransparency?.counted.map(\.source) == [.tlsExtension, .tlsExtension])
            evaluation.signedCertificateTimestampLists = [tlsList([a1])]
            let unmet = try #require(world.unmet(evaluation))
            #expect(unmet.contains(.tooFewDeliveredSCTs(required: 2, counted: 1, delivered: 1)))
        }
    }

    @Test("Requirement: automatic examines CT only for public anchors with a log list; off never; required without a list fails (noLogList)")
    func requirements() throws {
        let world = try CTWorld()
        let a1 = world.makeLog("A1", operator: "A")
        let logs = world.list([a1])
        let bare = try world.leaf(span: (90 * Self.day - 1), scts: [])
        // The caller's own anchor: not examined.
        guard case .trusted(let own) = try world.evaluation(bare, logs: logs, requirement: .automatic).evaluate() else {
            Issue.record("own anchor not trusted"); return
        }
        #expect(own.certificateTransparency == nil)
        // A public anchor with a list: Apple's policy.
        #expect(world.unmet(try world.evaluation(bare, logs: logs, requirement: .automatic, publicAnchor: true))
            == [.tooFewSCTs(required: 2, counted: 0, lifetimeDays: 90, perOperatorLimit: 1), .noSCTFromCurrentLog(states: [.usable])])
        // A public anchor without a list: nothing to check against.
        #expect(try world.evaluation(bare, logs: nil, requirement: .automatic, publicAnchor: true).evaluate().isTrusted)
        guard case .trusted(let off) = try world.evaluation(bare, logs: logs, requirement: .off, publicAnchor: true).evaluate() else {
            Issue.record("off not trusted"); return
        }
        #expect(off.certificateTransparency == nil)
        #expect(world.unmet(try world.evaluation(bare, logs: nil, requirement: .required(.chromium))) == [.noLogList])
    }

    @Test("A tampered embedded SCT does not verify, and the failure names it, its log and operator")
    func tamperedSyntheticSCT() throws {
        let world = try CTWorld()
        let a1 = world.makeLog("A1", operator: "A"), b1 = world.makeLog("B1", operator: "B")
        let logs = world.list([a1, b1])
        let good = try world.leaf(span: (90 * Self.day - 1), scts: [(a1, nil), (b1, nil)])
        // The same SCTs in another certificate of the same issuer (another key): the precertificate differs.
        let list = try #require(try good.embeddedSCTList())
        var spec = CertificateSpec.server("ct.example")
        spec.validity = D.seq(CTWorld.utc(world.notBefore), CTWorld.utc(UnixTime(secondsSinceEpoch: world.notBefore.secondsSinceEpoch + (90 * Self.day - 1))))
        spec.extensions.append(D.ext(KnownOID.signedCertificateTimestampList, D.octets(list.tlsEncoded)))
        let other = try SignedCertificates.issue(spec, subjectKey: TestKey(), issuer: world.root)
        let result = try world.evaluation(other, logs: logs, requirement: .required(.apple)).evaluate()
        guard case .certificateTransparencyNotCompliant(_, let report) = result.primaryFailure else { Issue.record("\(result)"); return }
        #expect(report.timestamps.map(\.status) == [.invalidSignature(.invalidSignature), .invalidSignature(.invalidSignature)])
        #expect(report.timestamps.map(\.operatorName) == ["A", "B"])
        #expect(report.timestamps.map { $0.log?.description } == ["A1", "B1"])
        #expect(result.primaryFailure?.isRecoverable == false)
        #expect(result.primaryFailure?.code == "certificateTransparencyNotCompliant")
    }

    @Test("A malformed embedded SCT list: nothing is read when CT is off; under a required policy the report names the list's error")
    func malformedListOffAndRequired() throws {
        let world = try CTWorld()
        let a1 = world.makeLog("A1", operator: "A")
        var spec = CertificateSpec.server("ct.example")
        spec.validity = D.seq(CTWorld.utc(world.notBefore), CTWorld.utc(UnixTime(secondsSinceEpoch: world.notBefore.secondsSinceEpoch + 90 * Self.day)))
        spec.extensions.append(D.ext(KnownOID.signedCertificateTimestampList, D.octets([0, 5, 0, 0])))
        let leaf = try SignedCertificates.issue(spec, subjectKey: TestKey(), issuer: world.root)
        guard case .trusted(let off) = try world.evaluation(leaf, logs: world.list([a1]), requirement: .off).evaluate() else {
            Issue.record("off: not trusted"); return
        }
        #expect(off.certificateTransparency == nil)
        let result = try world.evaluation(leaf, logs: world.list([a1]), requirement: .required(.apple)).evaluate()
        guard case .certificateTransparencyNotCompliant(_, let report) = result.primaryFailure else { Issue.record("\(result)"); return }
        #expect(report.listProblems == [SCTListProblem(source: .embedded, error: SCTListError(.truncated, at: 4, expected: "5 bytes of sct_list"))])
        #expect(report.timestamps.isEmpty)
    }

    @Test("CT costs one key lookup and verification per SCT from a known log, and nothing when off or automatic without a list")
    func costPerSCT() throws {
        let world = try CTWorld()
        let a1 = world.makeLog("A1", operator: "A"), b1 = world.makeLog("B1", operator: "B"), unknown = world.makeLog("Z", operator: "Z")
        let logs = world.list([a1, b1])
        let leaf = try world.leaf(span: 90 * Self.day - 1, scts: [(a1, nil), (b1, nil), (unknown, nil)])
        func lookups(_ requirement: CTRequirement, logs: CTLogList?) throws -> (Int, Bool) {
            var evaluation = try world.evaluation(leaf, logs: logs, requirement: requirement)
            let cache = PublicKeyCache()
            evaluation.signatureVerifier = SignatureVerifier(keyCache: cache, signatureCache: nil)
            let trusted = evaluation.evaluate().isTrusted
            return (cache.statistics.hits + cache.statistics.misses, trusted)
        }
        let (off, offTrusted) = try lookups(.off, logs: logs)
        let (automatic, automaticTrusted) = try lookups(.automatic, logs: nil)
        let (required, requiredTrusted) = try lookups(.required(.apple), logs: logs)
        #expect(offTrusted && automaticTrusted && requiredTrusted)
        #expect(automatic == off)
        #expect(required == off + 2)  // the SCT of the unknown log costs nothing
    }

    @Test("SCTs in a stapled OCSP response's SingleResponse extension (1.3.6.1.4.1.11129.2.4.5) count as delivered SCTs (x509_entry)")
    func ocspDelivered() throws {
        let world = try CTWorld()
        let a1 = world.makeLog("A1", operator: "A"), b1 = world.makeLog("B1", operator: "B")
        let logs = world.list([a1, b1])
        let leaf = try world.leaf(span: 90 * Self.day - 1, scts: [])
        let list = SignedCertificateTimestampList(timestamps: [a1, b1].map { CTWorld.sct(by: $0, entry: .x509(leaf), timestamp: world.sctTime) })
        let id = try #require(OCSPCertID(identifying: leaf, issuer: world.root.certificate))
        let certID = D.seq(OCSPFixture.sha1, D.octets(Array(id.issuerNameHash)), D.octets(Array(id.issuerKeyHash)), D.tlv(.integer, Array(leaf.serialNumber)))
        let single = D.seq(certID, OCSPFixture.good, OCSPHostileTests.thisUpdate, OCSPHostileTests.nextUpdate,
                           D.ctx(1, constructed: true, D.seq(D.ext(KnownOID.ocspSignedCertificateTimestampList, D.octets(list.tlsEncoded)))))
        let response = try OCSPHostileTests.response([single], responderID: OCSPHostileTests.byName(world.root.certificate), signedBy: world.root.key)
        #expect(try response.basicResponse?.responses.first?.embeddedSCTList() == list)
        var evaluation = try world.evaluation(leaf, logs: logs, requirement: .required(.apple))
        evaluation.stapledOCSPResponses = [response]
        guard case .trusted(let path) = evaluation.evaluate() else { Issue.record("\(evaluation.evaluate())"); return }
        #expect(path.certificateTransparency?.counted.map(\.source) == [.ocspResponse, .ocspResponse])
    }
}
