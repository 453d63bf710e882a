import CertPath
import CertPathFoundation
import Foundation
import Testing
import TestSupport

/// The real certificates with embedded SCTs of cryptography-vectors, against the CT log list
/// snapshot in ../shared/vectors/ct (its README says which verify: the two SCTs of
/// cryptography-scts.pem, issued by Let's Encrypt X3, with the logs of extra_logs_for_vectors.json;
/// none against log_list.json, whose logs are newer).
@Suite("Certificate Transparency: cryptography-vectors certificates (RFC 6962)")
struct CTVectorTests {
    static let ctFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/vectors/ct").standardized

    static func x509(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Certificate? {
        guard let folder = CryptographyVectors.folder else {
            print("SKIPPED CT vectors: cryptography-vectors is not installed (run scripts/bootstrap)")
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("CT vectors need cryptography-vectors under CI=true", sourceLocation: sourceLocation)
            }
            return nil
        }
        return try PEM.readCertificates(contentsOf: folder.appendingPathComponent("x509/\(name)")).certificates.first
    }

    static func rawVector(_ name: String) throws -> [UInt8]? {
        guard let folder = CryptographyVectors.folder else { return nil }
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent("x509/\(name)")))
    }

    static func logList(_ name: String) throws -> CTLogList {
        try CTLogList(jsonBytes: [UInt8](Data(contentsOf: ctFolder.appendingPathComponent(name))))
    }

    /// A time inside cryptography-scts.pem's validity (2018-09-26 .. 2018-12-25).
    static let checkTime = UnixTime(year: 2018, month: 10, day: 1)!

    @Test("log_list.json reads as the README describes: 37 logs of 6 operators, 3 retired, every log_id the SHA-256 of its key")
    func snapshotReads() throws {
        let list = try Self.logList("log_list.json")
        #expect(list.operators.count == 6)
        let logs = list.operators.flatMap(\.logs)
        #expect(logs.count == 37)
        #expect(logs.filter { $0.state?.kind == .retired }.count == 3)
        #expect(logs.filter { $0.state?.kind == .usable }.count == 34)
        #expect(list.timestamp == UnixTime(rfc3339: "2025-04-15T23:00:00Z"))
        let google = try #require(list.operators.first { $0.name == "Google" })
        #expect(google.logs.count == 8)
    }

    @Test("A log list whose log_id is not the SHA-256 of the key is refused")
    func mismatchedLogIDRefused() throws {
        var text = try String(contentsOf: Self.ctFolder.appendingPathComponent("extra_logs_for_vectors.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "KTxRllTIOWW6qlD8WAfUt2+/WHopctykwwz05UVH9Hg=", with: "b1N2rDHwMRnYmQCkURX/dxUcEdkCwQApBo2yCJo32RM=")
        #expect(throws: CTLogListError.self) { try CTLogList(jsonBytes: Array(text.utf8)) }
    }

    @Test("The precertificate TBS rebuilt from cryptography-scts.pem is cryptography-scts-tbs-precert.der byte for byte (RFC 6962 3.2)")
    func precertificateTBS() throws {
        guard let leaf = try Self.x509("cryptography-scts.pem"), let expected = try Self.rawVector("cryptography-scts-tbs-precert.der") else { return }
        #expect(try leaf.precertificateTBSCertificate() == expected)
    }

    @Test("Both embedded SCTs of cryptography-scts.pem verify with the extra logs (Icarus, Mammoth), none against log_list.json")
    func embeddedSCTsVerify() throws {
        guard let leaf = try Self.x509("cryptography-scts.pem"), let issuer = try Self.x509("letsencryptx3.pem") else { return }
        let list = try #require(try leaf.embeddedSCTList())
        #expect(list.timestamps.count == 2)
        #expect(list.unknownVersions.isEmpty)
        let extra = try Self.logList("extra_logs_for_vectors.json")
        let snapshot = try Self.logList("log_list.json")
        let entry = try CTSignedEntry.precertificate(of: leaf, issuedBy: issuer)
        let names = list.timestamps.map { CertificateTransparency.verify($0, entry: entry, logs: extra, validationTime: Self.checkTime).log?.description }
        #expect(Set(names) == ["Google 'Icarus' log", "Sectigo 'Mammoth' CT log"])
        for sct in list.timestamps {
            #expect(CertificateTransparency.verify(sct, entry: entry, logs: extra, validationTime: Self.checkTime).status == .verified)
            #expect(CertificateTransparency.verify(sct, entry: entry, logs: snapshot, validationTime: Self.checkTime).status == .unknownLog)
            #expect(sct.signatureAlgorithm == .ecdsaSHA256)
            // RFC 6962 3.2: the x509_entry (the whole certificate) is not what the log signed for an embedded SCT.
            #expect(CertificateTransparency.verify(sct, entry: .x509(leaf), logs: extra, validationTime: Self.checkTime).status != .verified)
            // The issuer_key_hash of another key (the leaf's own).
            let wrongIssuer = try CTSignedEntry.precertificate(of: leaf, issuedBy: leaf)
            #expect(CertificateTransparency.verify(sct, entry: wrongIssuer, logs: extra, validationTime: Self.checkTime).status != .verified)
            // RFC 6962 5.2: an SCT from after the validation time.
            let before = UnixTime(secondsSinceEpoch: Int64(sct.timestamp / 1000) - 1)
            #expect(CertificateTransparency.verify(sct, entry: entry, logs: extra, validationTime: before).status == .futureTimestamp)
            // Within the SCT's own second it is not after the validation time.
            let same = UnixTime(secondsSinceEpoch: Int64(sct.timestamp / 1000))
            #expect(CertificateTransparency.verify(sct, entry: entry, logs: extra, validationTime: same).status == .verified)
        }
    }

    /// extra_logs_for_vectors.json with every log usable (it gives no states).
    static func usableExtraLogs() throws -> CTLogList {
        var list = try logList("extra_logs_for_vectors.json")
        for o in list.operators.indices {
            for l in list.operators[o].logs.indices {
                list.operators[o].logs[l].state = CTLogList.State(.usable, since: UnixTime(year: 2017, month: 1, day: 1)!)
            }
        }
        return list
    }

    @Test("cryptography-scts.pem (90 days, 2 SCTs from distinct logs of Google and Sectigo) meets Apple's and Chromium's policy once its logs are usable")
    func vectorCompliance() throws {
        guard let leaf = try Self.x509("cryptography-scts.pem"), let issuer = try Self.x509("letsencryptx3.pem") else { return }
        let logs = try Self.usableExtraLogs()
        for policy in CTPolicy.allCases {
            let report = CertificateTransparency.evaluate(leaf, issuer: issuer, policy: policy, logs: logs, validationTime: Self.checkTime)
            #expect(report.isCompliant, "\(report)")
            #expect(report.counted.count == 2)
            #expect(Set(report.counted.compactMap(\.operatorName)) == ["Google", "Sectigo"])
            #expect(report.lifetimeDays == 91 || report.lifetimeDays == 90)
        }
        // Without states (the extra list as given), the SCTs verify and do not count.
        let stateless = try Self.logList("extra_logs_for_vectors.json")
        let report = CertificateTransparency.evaluate(leaf, issuer: issuer, policy: .apple, logs: stateless, validationTime: Self.checkTime)
        #expect(report.timestamps.allSatisfy { $0.status == .verified && $0.exclusion == .logState(nil) })
        #expect(report.unmetRules == [.tooFewSCTs(required: 2, counted: 0, lifetimeDays: 91, perOperatorLimit: 1),
                                      .noSCTFromCurrentLog(states: [.usable])])
    }

    @Test("Changing any byte of either SCT, or of the list, makes that SCT fail: a parse error or a signature that does not verify")
    func tamperEveryByte() throws {
        guard let leaf = try Self.x509("cryptography-scts.pem"), let issuer = try Self.x509("letsencryptx3.pem") else { return }
        let logs = try Self.usableExtraLogs()
        let entry = try CTSignedEntry.precertificate(of: leaf, issuedBy: issuer)
        let original = try #require(try leaf.embeddedSCTList()).tlsEncoded
        var parseErrors = 0
        for index in original.indices {
            for flip: UInt8 in [0x01, 0x80] {
                var bytes = original
                bytes[index] ^= flip
                let list: SignedCertificateTimestampList
                do { list = try SignedCertificateTimestampList(tlsEncoded: bytes) } catch { parseErrors += 1; continue }
                let verified = list.timestamps.filter {
                    CertificateTransparency.verify($0, entry: entry, logs: logs, validationTime: Self.checkTime).status == .verified
                }
                // Exactly one SCT was touched: at most the other still verifies.
                #expect(verified.count <= 1, "byte \(index) ^ \(flip) left both SCTs verifying")
                #expect(verified.allSatisfy { sct in !bytes.isEmpty && original.indices.contains(index) && sct.encoded != [] })
            }
        }
        #expect(parseErrors > 0)
    }

    @Test("The malformed SCT lists of cryptography-vectors are refused with a typed error naming the byte (as pyca does)")
    func malformedVectors() throws {
        let cases: [(String, SCTListError.Code)] = [
            ("badssl-sct-anonymous-sig.der", .invalidAlgorithm),
            ("badssl-sct-none-hash.der", .invalidAlgorithm),
            ("custom/invalid-sct-length.der", .truncated),  // sct_list announces 242 bytes, 175 follow
        ]
        for (name, code) in cases {
            guard let certificate = try Self.x509(name) else { return }
            #expect {
                _ = try certificate.embeddedSCTList()
            } throws: { error in
                (error as? SCTListError)?.code == code
            }
        }
    }

    @Test("custom/invalid-sct-version.der: the SCT of an unknown version is kept aside and ignored, not an error (RFC 6962 3.3)")
    func unknownVersionVector() throws {
        guard let certificate = try Self.x509("custom/invalid-sct-version.der") else { return }
        let list = try #require(try certificate.embeddedSCTList())
        #expect(list.unknownVersions.count >= 1)
        #expect(list.unknownVersions.allSatisfy { $0.version != 0 })
    }
}
