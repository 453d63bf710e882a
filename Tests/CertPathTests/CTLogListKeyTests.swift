import CertPath
import CertPathDER
import CertPathFoundation
import Foundation
import Testing

/// The log list reader refuses what RFC 6962 rules out for a log, and what would make operator
/// credit ambiguous (review of issue 34).
@Suite("CT log list: log keys (RFC 6962 2.1.4) and unique log IDs")
struct CTLogListKeyTests {
    /// A v3 log list of `operators` (name, keys of its logs).
    static func json(_ operators: [(String, [[UInt8]])]) -> [UInt8] {
        let ops = operators.map { name, keys in
            let logs = keys.enumerated().map { i, key in
                #"{"description":"\#(name) log \#(i)","log_id":"\#(Data(SHA256Digest(hashing: key).bytes).base64EncodedString())","#
                    + #""key":"\#(Data(key).base64EncodedString())","url":"https://ct.example/","mmd":86400}"#
            }
            return #"{"name":"\#(name)","email":[],"logs":[\#(logs.joined(separator: ","))]}"#
        }
        return Array(#"{"version":"1","operators":[\#(ops.joined(separator: ","))]}"#.utf8)
    }

    static let p384 = D.seq(D.seq(D.oid(KnownOID.ecPublicKey), D.oid(KnownOID.secp384r1)), D.bits([0x04] + [UInt8](repeating: 7, count: 96)))
    /// An RSA key of `bits` bits (the modulus' top bit set), exponent 65537.
    static func rsa(bits: Int) -> [UInt8] {
        let modulus: [UInt8] = [0x00, 0xC1] + [UInt8](repeating: 0x35, count: bits / 8 - 1)
        return D.seq(D.seq(D.oid(KnownOID.rsaEncryption), D.tlv(.null, [])),
                     D.bits(D.seq(D.tlv(.integer, modulus), D.tlv(.integer, [0x01, 0x00, 0x01]))))
    }

    func refusal(_ bytes: [UInt8]) -> CTLogListError.Kind? {
        do throws(CTLogListError) {
            _ = try CTLogList(jsonBytes: bytes)
            return nil
        } catch {
            return error.kind
        }
    }

    @Test("P-256 and RSA 2048 log keys are read; P-384, RSA 1024, Ed25519 and garbage are refused naming the log and key")
    func logKeys() throws {
        let p256 = TestKey(.p256).spki
        #expect(refusal(Self.json([("A", [p256, Self.rsa(bits: 2048)])])) == nil)
        #expect(refusal(Self.json([("A", [p256, Self.p384])])) == .unacceptableLogKey(log: "A: A log 1", key: "P-384"))
        #expect(refusal(Self.json([("A", [Self.rsa(bits: 1024)])])) == .unacceptableLogKey(log: "A: A log 0", key: "RSA 1024 bits"))
        #expect(refusal(Self.json([("A", [TestKey(.ed25519).spki])])) == .unacceptableLogKey(log: "A: A log 0", key: "Ed25519"))
        #expect(refusal(Self.json([("A", [[0x30, 0x03, 0x02, 0x01, 0x00]])])) == .unacceptableLogKey(log: "A: A log 0", key: "not a SubjectPublicKeyInfo"))
    }

    @Test("The same log_id under two operators (or twice under one) is refused: which operator it counts for would be ambiguous")
    func duplicateLogID() throws {
        let key = TestKey(.p256).spki
        #expect(refusal(Self.json([("A", [key]), ("B", [key])])) == .duplicateLogID(log: "B: B log 0", operators: ["A", "B"]))
        #expect(refusal(Self.json([("A", [key, key])])) == .duplicateLogID(log: "A: A log 1", operators: ["A", "A"]))
    }
}
