import Foundation
import Testing

@testable import CertPath

/// A signature cache must not let anyone fill one hash bucket on purpose. An attacker who chooses
/// the signing keys can make any number of valid P-256 signatures ending with the same `s`
/// (TestVectors/signature-cache-flood/README.md); a hash over the signature's tail alone put them
/// all in one bucket, so every lookup there compared against all of them under the cache's lock.
/// Now entries are filed by an index key (lengths, signature tail, SPKI tail) holding one entry
/// each, so crafted inputs that share one occupy one slot, whatever they are.
@Suite("Signature cache: no chosen collisions")
struct SignatureCacheFloodTests {
    static let folder = TestCertificates.testVectors.appendingPathComponent("signature-cache-flood")

    static func hex(_ text: Substring) -> [UInt8] {
        var bytes: [UInt8] = [], index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    @Test("64 valid signatures with one s under 64 chosen keys: all cached, 64 distinct hashes")
    func sameTail() throws {
        let lines = try String(contentsOf: Self.folder.appendingPathComponent("same-s.txt"), encoding: .utf8).split(separator: "\n")
        let message = Self.hex(lines[0])
        let rows = lines.dropFirst().map { line in line.split(separator: " ").map(Self.hex) }
        try #require(rows.count == 64)
        // The premise: every signature ends with the same 32 bytes (s), and all lengths are equal.
        #expect(Set(rows.map { $0[1].suffix(32) }).count == 1)
        #expect(Set(rows.map { $0[0].count }).count == 1 && Set(rows.map { $0[1].count }).count == 1)

        let cache = SignatureCache()
        var hashes = Set<Int>(), indexKeys = Set<SignatureCache.IndexKey>()
        for row in rows {
            let spki = try SubjectPublicKeyInfo(derEncoded: row[0])
            let result = try cache.verify(signature: row[1][...], message: message[...], algorithm: .ecdsa(.sha256), spki: spki) {
                () throws(PublicKeyError) in try PublicKey(spki)
            }
            #expect(result == .verified)
            let key = SignatureCache.Key(algorithm: .ecdsa(.sha256), spki: row[0][...], signature: row[1][...], message: message[...])
            hashes.insert(key.hashValue)
            indexKeys.insert(key.indexKey)
        }
        #expect(cache.statistics.count == 64)
        #expect(hashes.count == 64, "\(64 - hashes.count) chosen collisions")
        // The keys differ, so do their SPKIs' tails: 64 index keys, all cached.
        #expect(indexKeys.count == 64)
        // And no wrong answer: one key's signature is not found under another key.
        #expect(!cache.contains(SignatureCache.Key(algorithm: .ecdsa(.sha256), spki: rows[1][0][...], signature: rows[0][1][...], message: message[...])))
    }

    @Test("16 attacker chains through TrustEvaluation: untrusted, their leaf signatures cached under 16 distinct hashes")
    func attackerChains() throws {
        let certificates = try TestCertificates.all("signature-cache-flood/attacker-chains.pem")
        try #require(certificates.count == 32)
        let cache = SignatureCache()
        let verifier = SignatureVerifier(keyCache: PublicKeyCache(), signatureCache: cache)
        let store = TrustStore(anchors: [try TestCertificates.pb("tls/root.pem")])
        var hashes = Set<Int>(), tails = Set<ArraySlice<UInt8>>()
        for pair in stride(from: 0, to: certificates.count, by: 2) {
            let leaf = certificates[pair], ca = certificates[pair + 1]
            // (RFC 5280 section 6 alone: the leaves lack an authorityKeyIdentifier, a profile rule of the
            // leaf, which refuses them before any signature is checked: issue 30.)
            var policy = try ValidationPolicy.server(hostname: "victim.example")
            policy.profile = .pathValidation
            let result = TrustEvaluation(leaf: leaf, intermediates: [ca], trustStore: store, policy: policy,
                                         validationTime: TestCertificates.validationTime, signatureVerifier: verifier).evaluate()
            guard case .untrusted(let report) = result else {
                Issue.record("an attacker chain was trusted")
                continue
            }
            // (The CAs lack a subjectKeyIdentifier, a Web PKI profile violation that outranks it.)
            #expect(report.failures.contains(.noTrustedAnchor(ca)), "\(report.failures)")
            let key = SignatureCache.Key(algorithm: leaf.signatureAlgorithm, spki: ca.subjectPublicKeyInfo.der,
                                         signature: leaf.signature, message: leaf.tbsCertificateBytes)
            #expect(cache.contains(key), "the leaf's valid signature was not cached")
            hashes.insert(key.hashValue)
            tails.insert(leaf.signature.suffix(32))
        }
        #expect(tails.count == 1)
        #expect(hashes.count == 16, "\(16 - hashes.count) chosen collisions")
    }

    @Test("64 crafted verifications sharing one index key: the first is kept, the others are misses and are not stored")
    func sharedIndexKey() {
        let cache = SignatureCache()
        let message = [UInt8](repeating: 7, count: 100)
        // Same lengths, same last 16 bytes of SPKI and signature; different first bytes.
        func key(_ head: Int) -> SignatureCache.Key {
            var spki = [UInt8](repeating: 0x55, count: 91), signature = [UInt8](repeating: 0x66, count: 72)
            spki[0] = UInt8(head)
            signature[0] = UInt8(head)
            return SignatureCache.Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: signature[...], message: message[...])
        }
        #expect(Set((0..<64).map { key($0).indexKey }).count == 1)
        for head in 0..<64 { cache.insert(key(head)) }
        #expect(cache.statistics.count == 1)
        #expect(cache.contains(key(0)))
        for head in 1..<64 { #expect(!cache.contains(key(head)), "head \(head) answered by another verification's entry") }
        #expect(cache.statistics.hits == 1)
        #expect(cache.statistics.misses == 63)
        // Another algorithm over the same bytes is another verification: a miss too.
        let other = SignatureCache.Key(algorithm: .ecdsa(.sha384), spki: key(0).spki, signature: key(0).signature, message: message[...])
        #expect(!cache.contains(other))
    }
}
