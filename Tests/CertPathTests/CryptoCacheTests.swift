@testable import CertPath
import Testing

@Suite("Crypto: key and signature caches")
struct CryptoCacheTests {
    typealias V = CryptoTestVectors

    @Test("the key cache returns one shared key per SPKI")
    func sharedKey() throws {
        let cache = PublicKeyCache()
        #expect(cache.capacity == 1024)
        let spki = try V.spki("p256")
        let first = try cache.publicKey(for: spki)
        // The same bytes from another buffer find the same entry.
        let again = try cache.publicKey(for: try SubjectPublicKeyInfo(derEncoded: try V.bytes("p256.spki.der")))
        #expect(first === again)
        let other = try cache.publicKey(for: try V.spki("p384"))
        #expect(other !== first)
        let stats = cache.statistics
        #expect(stats.hits == 1)
        #expect(stats.misses == 2)
        #expect(stats.count == 2)
        #expect(stats.evictions == 0)
        cache.removeAll()
        #expect(cache.statistics == CacheStatistics())
        #expect(try cache.publicKey(for: spki) !== first)
    }

    @Test("CLOCK eviction keeps the entry used since the hand passed")
    func clockEviction() throws {
        let cache = PublicKeyCache(capacity: 2)
        let a = try V.spki("p256"), b = try V.spki("p384"), c = try V.spki("p521")
        let keyA = try cache.publicKey(for: a)
        _ = try cache.publicKey(for: b)
        #expect(try cache.publicKey(for: a) === keyA) // A referenced
        _ = try cache.publicKey(for: c)               // hand clears A's bit, evicts B
        #expect(cache.statistics.evictions == 1)
        #expect(cache.statistics.count == 2)
        let hitsBefore = cache.statistics.hits
        #expect(try cache.publicKey(for: a) === keyA)
        #expect(cache.statistics.hits == hitsBefore + 1)
        let missesBefore = cache.statistics.misses
        _ = try cache.publicKey(for: b)
        #expect(cache.statistics.misses == missesBefore + 1)
        #expect(cache.statistics.count == 2)
    }

    @Test("a zero-capacity key cache loads every time and holds nothing")
    func zeroCapacity() throws {
        let cache = PublicKeyCache(capacity: -5)
        #expect(cache.capacity == 0)
        let spki = try V.spki("ed25519")
        let first = try cache.publicKey(for: spki)
        #expect(try cache.publicKey(for: spki) !== first)
        #expect(cache.statistics.count == 0)
        #expect(cache.statistics.misses == 2)
    }

    @Test("keys that fail to load are not cached")
    func failuresNotCached() throws {
        var der = try V.bytes("p256.spki.der")
        der[der.count - 1] ^= 0x01
        let spki = try SubjectPublicKeyInfo(derEncoded: der)
        let cache = PublicKeyCache()
        for _ in 0..<2 {
            #expect(throws: PublicKeyError.invalidKey("P-256 point is not on the curve")) { try cache.publicKey(for: spki) }
        }
        #expect(cache.statistics.count == 0)
        #expect(cache.statistics.misses == 2)
    }

    @Test("the signature cache answers a repeated verification without the key")
    func signatureCacheHit() throws {
        let cache = SignatureCache()
        #expect(cache.capacity == 4096)
        let spki = try V.spki("rsa2048")
        let message = try V.message()[...], signature = try V.bytes("rsa2048-pkcs1-sha256.sig")[...]
        var loads = 0
        let key = try PublicKey(spki)
        func verify(_ signature: ArraySlice<UInt8>, _ message: ArraySlice<UInt8>) throws -> SignatureVerificationResult {
            try cache.verify(signature: signature, message: message, algorithm: .rsaPKCS1v15(.sha256), spki: spki) { () throws(PublicKeyError) in
                loads += 1
                return key
            }
        }
        #expect(try verify(signature, message) == .verified)
        #expect(try verify(signature, message) == .verified)
        #expect(loads == 1)
        #expect(cache.statistics.hits == 1)
        // A failure is not stored: it is verified again (with the key) every time.
        var altered = Array(message)
        altered[0] ^= 1
        #expect(try verify(signature, altered[...]) == .invalidSignature)
        #expect(try verify(signature, altered[...]) == .invalidSignature)
        #expect(loads == 3)
        #expect(cache.statistics.count == 1)
        #expect(!cache.contains(SignatureCache.Key(algorithm: .rsaPKCS1v15(.sha256), spki: spki.der, signature: signature, message: altered[...])))
        #expect(cache.contains(SignatureCache.Key(algorithm: .rsaPKCS1v15(.sha256), spki: spki.der, signature: signature, message: message)))
    }

    @Test("a cached success is found only for the same bytes, whoever holds them")
    func signatureCacheComparesBytes() throws {
        let cache = SignatureCache()
        var message = [UInt8](repeating: 7, count: 1_000), signature = [UInt8](repeating: 9, count: 256)
        let spki: [UInt8] = [0x30, 0x03, 0x02, 0x01, 0x01]
        cache.insert(SignatureCache.Key(algorithm: .rsaPKCS1v15(.sha256), spki: spki[...], signature: signature[...], message: message[...]))
        // The cache kept its own copy: changing the caller's buffers changes nothing stored.
        message[500] = 8
        #expect(!cache.contains(SignatureCache.Key(algorithm: .rsaPKCS1v15(.sha256), spki: spki[...], signature: signature[...], message: message[...])))
        message[500] = 7
        #expect(cache.contains(SignatureCache.Key(algorithm: .rsaPKCS1v15(.sha256), spki: spki[...], signature: signature[...], message: message[...])))
        // The same signature tail (what the index key holds) with another head is another key.
        signature[0] = 1
        #expect(!cache.contains(SignatureCache.Key(algorithm: .rsaPKCS1v15(.sha256), spki: spki[...], signature: signature[...], message: message[...])))
        // Slices of larger buffers at other offsets are the same key.
        let framed = [0xAA] + message + [0xBB]
        signature[0] = 9
        #expect(cache.contains(SignatureCache.Key(algorithm: .rsaPKCS1v15(.sha256), spki: spki[...], signature: signature[...], message: framed[1...1_000])))
    }

    @Test("a message longer than 4096 bytes is held by its SHA-256")
    func signatureCacheLargeMessage() throws {
        let cache = SignatureCache()
        var message = [UInt8](repeating: 3, count: SignatureCache.Key.largestMessageKeptWhole + 1)
        let key = SignatureCache.Key(algorithm: .ecdsa(.sha256), spki: [1], signature: [2], message: message[...])
        #expect(key.messageDigest == SHA256Digest(hashing: message))
        #expect(key.wholeMessage.isEmpty, "a \(message.count)-byte message was kept whole")
        cache.insert(key)
        #expect(cache.contains(SignatureCache.Key(algorithm: .ecdsa(.sha256), spki: [1], signature: [2], message: message[...])))
        message[0] = 4
        #expect(!cache.contains(SignatureCache.Key(algorithm: .ecdsa(.sha256), spki: [1], signature: [2], message: message[...])))
        // At the limit a message is kept whole, and a whole message never equals a digest.
        let whole = SignatureCache.Key(algorithm: .ecdsa(.sha256), spki: [1], signature: [2], message: message.dropLast())
        #expect(whole.messageDigest == nil && whole.wholeMessage.count == SignatureCache.Key.largestMessageKeptWhole,
                "a \(SignatureCache.Key.largestMessageKeptWhole)-byte message was not kept whole")
        #expect(whole != key)
    }

    @Test("the signature cache passes key errors through and does not store them")
    func signatureCacheKeyError() throws {
        let cache = SignatureCache()
        let spki = try V.spki("p256")
        #expect(throws: PublicKeyError.unsupportedKey("test")) {
            try cache.verify(signature: [1], message: [2], algorithm: .ecdsa(.sha256), spki: spki) { () throws(PublicKeyError) -> PublicKey in
                throw .unsupportedKey("test")
            }
        }
        #expect(cache.statistics.count == 0)
        // Unsupported algorithms are answered without asking for the key.
        let result = try cache.verify(signature: [1], message: [2], algorithm: .unsupported("1.2.3.4"), spki: spki) { () throws(PublicKeyError) -> PublicKey in
            throw .unsupportedKey("must not be called")
        }
        #expect(result == .unsupportedAlgorithm)
    }

    @Test("signature cache keys separate every input and field boundary")
    func signatureCacheKeys() {
        typealias K = SignatureCache.Key
        let base = K(algorithm: .ecdsa(.sha256), spki: [1, 2], signature: [3], message: [4])
        #expect(base == K(algorithm: .ecdsa(.sha256), spki: [1, 2], signature: [3], message: [4]))
        let others = [
            K(algorithm: .ecdsa(.sha384), spki: [1, 2], signature: [3], message: [4]),
            K(algorithm: .rsaPKCS1v15(.sha256), spki: [1, 2], signature: [3], message: [4]),
            K(algorithm: .ecdsa(.sha256), spki: [1], signature: [2, 3], message: [4]),
            K(algorithm: .ecdsa(.sha256), spki: [1, 2], signature: [], message: [3, 4]),
            K(algorithm: .ecdsa(.sha256), spki: [1, 2], signature: [3], message: [5]),
            K(algorithm: .rsaPSS(hash: .sha256, saltLength: 32), spki: [1, 2], signature: [3], message: [4]),
        ]
        for other in others { #expect(other != base) }
        #expect(K(algorithm: .rsaPSS(hash: .sha256, saltLength: 32), spki: [], signature: [], message: [])
            != K(algorithm: .rsaPSS(hash: .sha256, saltLength: 20), spki: [], signature: [], message: []))
    }

    @Test("a bounded signature cache evicts")
    func signatureCacheBound() {
        let cache = SignatureCache(capacity: 3)
        for i in 0..<10 {
            cache.insert(SignatureCache.Key(algorithm: .ed25519, spki: [], signature: [UInt8(i)], message: []))
        }
        #expect(cache.statistics.count == 3)
        #expect(cache.statistics.evictions == 7)
        #expect(cache.contains(SignatureCache.Key(algorithm: .ed25519, spki: [], signature: [9], message: [])))
        #expect(!cache.contains(SignatureCache.Key(algorithm: .ed25519, spki: [], signature: [0], message: [])))
    }

    @Test("four tasks verify with one shared key and shared caches")
    func concurrentVerification() async throws {
        let message = try V.message()
        let keys = PublicKeyCache(capacity: 4)
        let signatures = SignatureCache(capacity: 64)
        let cases = V.cases
        let spkis = try cases.map { try V.spki($0.key) }
        let signatureBytes = try cases.map { try V.bytes($0.signature) }
        let sharedRSA = try V.key("rsa2048")
        let rsaSignature = try V.bytes("rsa2048-pkcs1-sha256.sig")

        let failures = await withTaskGroup(of: Int.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var failures = 0
                    for round in 0..<25 {
                        // One key object shared by all tasks, no cache in between.
                        if sharedRSA.verify(signature: rsaSignature, message: message, algorithm: .rsaPKCS1v15(.sha256)) != .verified { failures += 1 }
                        var altered = message
                        altered[(task + round) % altered.count] ^= 0x04
                        if sharedRSA.verify(signature: rsaSignature, message: altered, algorithm: .rsaPKCS1v15(.sha256)) != .invalidSignature { failures += 1 }
                        // Through both caches; the key cache holds 4 of 6 keys, so it also evicts.
                        let i = (task * 5 + round) % cases.count
                        do {
                            let result = try signatures.verify(signature: signatureBytes[i][...], message: message[...], algorithm: cases[i].algorithm, spki: spkis[i]) { () throws(PublicKeyError) in
                                try keys.publicKey(for: spkis[i])
                            }
                            if result != .verified { failures += 1 }
                            let direct = try keys.publicKey(for: spkis[i]).verify(signature: signatureBytes[i], message: altered, algorithm: cases[i].algorithm)
                            if direct != .invalidSignature { failures += 1 }
                        } catch {
                            failures += 1
                        }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        let stats = signatures.statistics
        #expect(stats.hits + stats.misses == 100)
        #expect(stats.count == cases.count)
        #expect(keys.statistics.count <= 4)
    }
}
