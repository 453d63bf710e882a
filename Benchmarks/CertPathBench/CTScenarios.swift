// Certificate Transparency scenarios (issue 34): the evaluation of a P-256 chain whose leaf embeds
// SCTs (TestVectors/ct-test-log), with CT off and with a CT policy required. CT must cost at most
// one signature verification per SCT (the log's ECDSA P-256 or RSA-2048 signature, RFC 6962 3.2;
// the log keys come from the warm key cache), and nothing when it is off.
import CertPath
import Foundation

extension Benchmark {
    /// The CT test logs' chains and their log list, read from TestVectors/ct-test-log.
    struct CTInputs {
        let rootDER: [UInt8]
        let intermediateDER: [UInt8]
        /// embedded-180d-2logs: SCTs from the P-256 logs A1 and B1.
        let twoECDSALeafDER: [UInt8]
        /// embedded-398d-3logs: SCTs from A1 and B1 (P-256) and A2 (RSA-2048).
        let threeLogsLeafDER: [UInt8]
        let logs: CTLogList

        init(root: URL) throws {
            let folder = root.appendingPathComponent("TestVectors/ct-test-log")
            func der(_ url: URL) throws -> [UInt8] {
                try PEM.readCertificates([UInt8](try Data(contentsOf: url))).certificates[0].der
            }
            rootDER = try der(root.appendingPathComponent("TestVectors/sample-pki/ecdsa/root.pem"))
            intermediateDER = try der(root.appendingPathComponent("TestVectors/sample-pki/ecdsa/intermediate.pem"))
            twoECDSALeafDER = try der(folder.appendingPathComponent("embedded-180d-2logs.pem"))
            threeLogsLeafDER = try der(folder.appendingPathComponent("embedded-398d-3logs.pem"))
            // The v3 list read by hand (the benchmark does not link CertPathFoundation's reader): every
            // log usable since its state's timestamp.
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("log_list.json"))) as! [String: Any]
            var operators: [CTLogList.Operator] = []
            for op in json["operators"] as! [[String: Any]] {
                let logs = (op["logs"] as! [[String: Any]]).map { log -> CTLogList.Log in
                    let since = ((log["state"] as! [String: Any])["usable"] as! [String: Any])["timestamp"] as! String
                    return CTLogList.Log(description: log["description"] as! String,
                                         key: [UInt8](Data(base64Encoded: log["key"] as! String)!),
                                         state: CTLogList.State(.usable, since: UnixTime(rfc3339: since)!))
                }
                operators.append(CTLogList.Operator(name: op["name"] as! String, logs: logs))
            }
            logs = CTLogList(operators: operators)
        }
    }

    /// Parse leaf and intermediate, evaluate for the server name with `requirement` and the test logs.
    static func evaluateCT(leaf leafDER: [UInt8], _ inputs: CTInputs, store: TrustStore, policy: ValidationPolicy,
                           verifier: SignatureVerifier) -> TrustResult {
        let leaf = try! Certificate(derEncoded: leafDER)
        let intermediate = try! Certificate(derEncoded: inputs.intermediateDER)
        var evaluation = TrustEvaluation(leaf: leaf, intermediates: [intermediate], trustStore: store, policy: policy,
                                         validationTime: validationTime, signatureVerifier: verifier)
        evaluation.certificateTransparencyLogs = inputs.logs
        return evaluation.evaluate()
    }

    func certificateTransparency() throws {
        let names = ["ct/p-256/off", "ct/p-256/own-anchor-not-required", "ct/p-256/required-2-ecdsa-scts",
                     "ct/p-256/required-3-scts", "ct/sct-ecdsa-verify"]
        guard names.contains(where: selected) else { return }
        let inputs = try CTInputs(root: inputs.root)
        let root = try Certificate(derEncoded: inputs.rootDER)
        let intermediate = try Certificate(derEncoded: inputs.intermediateDER)
        let store = TrustStore(anchors: [root])
        let verifier = SignatureVerifier(keyCache: PublicKeyCache())
        let floor = SignatureFloor([(try Certificate(derEncoded: inputs.twoECDSALeafDER), intermediate), (intermediate, root)])

        // One log signature over the precert_entry, through CertPath's primitives: the unit CT may add per SCT.
        let leaf = try Certificate(derEncoded: inputs.twoECDSALeafDER)
        let sct = try leaf.embeddedSCTList()!.timestamps[0]
        let signed = try CTSignedEntry.precertificate(of: leaf, issuedBy: intermediate).signedData(for: sct)
        let logKey = try PublicKey(SubjectPublicKeyInfo(derEncoded: inputs.logs.log(id: SHA256Digest(bytes: sct.logID)!)!.log.key))
        let algorithm = sct.signatureAlgorithm.algorithm!
        guard case .verified = logKey.verify(signature: sct.signature, message: signed, algorithm: algorithm) else {
            fatalError("ct/sct-ecdsa-verify: the SCT does not verify")
        }
        let unit = Harness.measure(settings) { consume(logKey.verify(signature: sct.signature, message: signed, algorithm: algorithm)) }
        let unitMedian = Statistics(unit.microseconds).median
        if selected("ct/sct-ecdsa-verify") {
            record(Result(name: "ct/sct-ecdsa-verify", operation: "one SCT's P-256 signature over its precert_entry (PublicKey.verify)",
                          iterations: unit.iterations, microseconds: Statistics(unit.microseconds), operationsPerSecond: 1e6 / unitMedian,
                          allocationsPerOperation: unit.allocationsPerOperation, floor: nil, floorMicroseconds: nil, ratioToFloor: nil,
                          throughputRatio: nil, target: nil, targetMet: nil))
        }

        func policy(_ requirement: CTRequirement) throws -> ValidationPolicy {
            var policy = try ValidationPolicy.server(hostname: "server.customer1.example")
            policy.certificateTransparency = requirement
            return policy
        }
        // name, operation, leaf, requirement, CT-examined, SCT verifications it may add (each ≤ one ECDSA verification)
        let variants: [(String, String, [UInt8], CTRequirement, Bool, Int)] = [
            ("ct/p-256/off", "CT off (.off), leaf with 2 embedded SCTs", inputs.twoECDSALeafDER, .off, false, 0),
            ("ct/p-256/own-anchor-not-required", "default .automatic with a log list, the caller's anchor: CT not examined",
             inputs.twoECDSALeafDER, .automatic, false, 0),
            ("ct/p-256/required-2-ecdsa-scts", ".required(.chromium): 2 embedded SCTs (P-256 logs) verified and counted",
             inputs.twoECDSALeafDER, .required(.chromium), true, 2),
            ("ct/p-256/required-3-scts", ".required(.apple): 3 embedded SCTs (2 P-256 logs, 1 RSA-2048 log)",
             inputs.threeLogsLeafDER, .required(.apple), true, 3),
        ]
        let offPolicy = try policy(.off)
        let offLeaf = inputs.twoECDSALeafDER
        let off = { consume(Self.evaluateCT(leaf: offLeaf, inputs, store: store, policy: offPolicy, verifier: verifier)) }
        for (name, operation, leafDER, requirement, examined, scts) in variants {
            guard selected(name) else { continue }
            let policy = try policy(requirement)
            let first = Self.evaluateCT(leaf: leafDER, inputs, store: store, policy: policy, verifier: verifier)
            guard case .trusted(let trusted) = first else { fatalError("\(name): not trusted: \(first)") }
            guard (trusted.certificateTransparency != nil) == examined else { fatalError("\(name): CT examined \(!examined), expected \(examined)") }
            let body = { consume(Self.evaluateCT(leaf: leafDER, inputs, store: store, policy: policy, verifier: verifier)) }
            // `off` against the signature floor; every other variant against `off` itself, in alternating
            // runs (the same machine load), so the difference is what CT adds.
            let isOff = name == "ct/p-256/off"
            let (timed, reference) = isOff ? Harness.measurePaired(settings, body, floor: { consume(floor.run()) })
                : Harness.measurePaired(settings, body, floor: off)
            let median = Statistics(timed.microseconds).median
            let referenceMedian = Statistics(reference.microseconds).median
            let added = median - referenceMedian
            let target: String, met: Bool
            if isOff {
                target = "≤ 1.05 × floor"
                met = median / referenceMedian <= 1.05
            } else if scts == 0 {
                target = "adds ≤ 2 % over off (\(Report.micros(added)) µs)"
                met = added <= 0.02 * referenceMedian
            } else {
                // One P-256 verification per SCT (+10 %); an RSA-2048 log's verification costs less.
                target = "adds ≤ \(scts) × SCT verify + 10 % (\(Report.micros(added)) µs = \(Report.format(added / unitMedian, 2)) × verify)"
                met = added <= Double(scts) * unitMedian * 1.10
            }
            record(Result(name: name, operation: "parse leaf + intermediate, evaluate (\(operation)), warm key cache",
                          iterations: timed.iterations, microseconds: Statistics(timed.microseconds), operationsPerSecond: 1e6 / median,
                          allocationsPerOperation: timed.allocationsPerOperation, floor: isOff ? "floor/ct-p-256" : "ct/p-256/off",
                          floorMicroseconds: referenceMedian, ratioToFloor: median / referenceMedian, throughputRatio: nil,
                          target: target, targetMet: met))
        }
    }
}
