@testable import CertPath
import TestSupport
import Testing

/// Review of the index-keyed signature cache (one entry per index key: lengths, last 16 bytes of
/// signature and SPKI; full comparison on lookup). Asserts that no lookup ever answers for inputs
/// that were not stored, and that the statistics and the CLOCK ring follow an exact reference model.
@Suite("Signature cache review: index keys, eviction, concurrency")
struct SignatureCacheReviewTests {
    typealias Key = SignatureCache.Key

    /// The same bytes at an odd offset inside a larger buffer.
    static func framed(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        let buffer = [0xEE, 0xEF, 0xF0] + bytes + [0xF1]
        return buffer[3..<(3 + bytes.count)]
    }

    @Test("one stored verification answers only for identical inputs: every one-byte or one-field change is a miss")
    func onlyIdenticalInputsHit() {
        let spki = (0..<91).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let signature = (0..<72).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
        let cache = SignatureCache(capacity: 8)
        cache.insert(Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: signature[...], message: message[...]))

        // Same bytes, other buffers, odd offsets: a hit.
        #expect(cache.contains(Key(algorithm: .ecdsa(.sha256), spki: Self.framed(spki), signature: Self.framed(signature), message: Self.framed(message))))
        var misses: [(String, Key)] = []
        for position in [0, 1, 45, 74, 75, 90] {
            var s = spki
            s[position] ^= 0x01
            misses.append(("spki[\(position)]", Key(algorithm: .ecdsa(.sha256), spki: s[...], signature: signature[...], message: message[...])))
        }
        for position in [0, 1, 40, 55, 56, 71] {
            var s = signature
            s[position] ^= 0x80
            misses.append(("signature[\(position)]", Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: s[...], message: message[...])))
        }
        for position in [0, 150, 299] {
            var m = message
            m[position] ^= 0x01
            misses.append(("message[\(position)]", Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: signature[...], message: m[...])))
        }
        for algorithm: SignatureAlgorithm in [.ecdsa(.sha384), .rsaPKCS1v15(.sha256), .rsaPSS(hash: .sha256, saltLength: 32), .ed25519, .dsa(.sha256)] {
            misses.append(("\(algorithm)", Key(algorithm: algorithm, spki: spki[...], signature: signature[...], message: message[...])))
        }
        // Lengths moved between adjacent fields, and a shifted window of the same buffer.
        misses.append(("message one byte shorter", Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: signature[...], message: message.dropLast())))
        misses.append(("message empty", Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: signature[...], message: [])))
        misses.append(("signature empty", Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: [], message: message[...])))
        let wide = [0x00] + signature + [0x00]
        misses.append(("signature window shifted", Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: wide[0..<72], message: message[...])))
        for (name, key) in misses { #expect(!cache.contains(key), "false hit: \(name)") }
        #expect(cache.statistics.hits == 1)
        #expect(cache.statistics.misses == misses.count)
        #expect(cache.statistics.count == 1)
    }

    @Test("inputs shorter than 16 bytes and empty inputs: the zero-padded tails never make distinct inputs equal")
    func shortInputs() {
        let cache = SignatureCache(capacity: 64)
        // Leading zero bytes vanish in a zero-padded tail only together with a length change, which the index key holds.
        let samples: [[UInt8]] = [[], [0], [0, 0], [1], [0, 1], [0, 0, 1], [1, 0], Array(repeating: 0, count: 15), Array(repeating: 0, count: 16), Array(repeating: 0, count: 17)]
        #expect(Set(samples.map { Key(algorithm: .ed25519, spki: $0[...], signature: [], message: []).indexKey }).count == samples.count)
        #expect(Set(samples.map { Key(algorithm: .ed25519, spki: [], signature: $0[...], message: []).indexKey }).count == samples.count)
        for spki in samples { cache.insert(Key(algorithm: .ed25519, spki: spki[...], signature: [9], message: [])) }
        #expect(cache.statistics.count == samples.count)
        for spki in samples {
            #expect(cache.contains(Key(algorithm: .ed25519, spki: Self.framed(spki), signature: [9], message: [])))
            // The same SPKI bytes in the signature field and vice versa are other verifications.
            #expect(!cache.contains(Key(algorithm: .ed25519, spki: [9], signature: spki[...], message: [])))
        }
        // All empty: a key like any other, found only as itself.
        let empty = Key(algorithm: .ed25519, spki: [], signature: [], message: [])
        let emptyCache = SignatureCache(capacity: 1)
        emptyCache.insert(empty)
        #expect(emptyCache.contains(Key(algorithm: .ed25519, spki: [][...], signature: [][...], message: [][...])))
        #expect(!emptyCache.contains(Key(algorithm: .ed448, spki: [], signature: [], message: [])))
        #expect(!emptyCache.contains(Key(algorithm: .ed25519, spki: [], signature: [], message: [0])))
    }

    @Test("messages of 4096 and 4097 bytes, and a whole 32-byte message equal to a large message's digest")
    func messageBoundary() {
        let limit = Key.largestMessageKeptWhole
        #expect(limit == 4096)
        let spki: [UInt8] = [1, 2, 3], signature: [UInt8] = [4, 5, 6]
        let at = [UInt8](repeating: 0x5A, count: limit), over = [UInt8](repeating: 0x5A, count: limit + 1)
        let digest = SHA256Digest(hashing: over)
        let digestBytes = [digest.w0, digest.w1, digest.w2, digest.w3].flatMap { word in (0..<8).reversed().map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
        let cache = SignatureCache(capacity: 8)
        cache.insert(Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: signature[...], message: over[...]))
        cache.insert(Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: signature[...], message: at[...]))
        #expect(cache.statistics.count == 2) // -1 (by digest) and 4096 (whole) are different index keys
        #expect(Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: signature[...], message: over[...]).indexKey.messageCount == -1)
        #expect(cache.contains(Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: signature[...], message: Self.framed(over))))
        #expect(cache.contains(Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: signature[...], message: Self.framed(at))))
        // The digest's 32 bytes as a whole message are not the large message.
        #expect(!cache.contains(Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: signature[...], message: digestBytes[...])))
        // A 4097-byte message differing only in its last byte has another digest: a miss.
        var changed = over
        changed[limit] ^= 1
        #expect(!cache.contains(Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: signature[...], message: changed[...])))
        var changedAt = at
        changedAt[limit - 1] ^= 1
        #expect(!cache.contains(Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: signature[...], message: changedAt[...])))
        #expect(cache.statistics.hits == 2 && cache.statistics.misses == 3)
    }

    @Test("an index key's occupant blocks a colliding verification until it is evicted; evicted entries are not found")
    func occupantAndEviction() {
        func key(head: UInt8, message: UInt8) -> Key {
            var spki = [UInt8](repeating: 0x30, count: 40), signature = [UInt8](repeating: 0x44, count: 40)
            spki[0] = head
            signature[0] = head
            return Key(algorithm: .ecdsa(.sha256), spki: spki[...], signature: signature[...], message: [message, message])
        }
        let first = key(head: 1, message: 1), colliding = key(head: 2, message: 1), sameSignerOtherMessage = key(head: 1, message: 2)
        #expect(first.indexKey == colliding.indexKey && first.indexKey == sameSignerOtherMessage.indexKey)
        let cache = SignatureCache(capacity: 1)
        cache.insert(first)
        cache.insert(colliding)              // blocked: first stored wins
        cache.insert(sameSignerOtherMessage) // blocked too: the message bytes are not in the index key
        #expect(!cache.contains(colliding))
        #expect(!cache.contains(sameSignerOtherMessage))
        #expect(cache.contains(first))
        #expect(cache.statistics == Self.stats(hits: 1, misses: 2, evictions: 0, count: 1))
        // Another index key evicts it (capacity 1; first's bit is set, so the hand clears it once, then evicts).
        let other = Key(algorithm: .ed25519, spki: [7], signature: [7], message: [])
        cache.insert(other)
        #expect(!cache.contains(first))
        #expect(cache.contains(other))
        cache.insert(colliding) // evicts other (its bit was set by the hit: second chance, then out)
        #expect(cache.contains(colliding))
        #expect(!cache.contains(first))
        #expect(!cache.contains(other))
        #expect(cache.statistics == Self.stats(hits: 3, misses: 5, evictions: 2, count: 1))
    }

    static func stats(hits: Int, misses: Int, evictions: Int, count: Int) -> CacheStatistics {
        var s = CacheStatistics()
        (s.hits, s.misses, s.evictions, s.count) = (hits, misses, evictions, count)
        return s
    }

    /// An exact model of the cache: a ring of (index key, full key, reference bit), first stored wins
    /// per index key, CLOCK eviction; full keys compared as plain arrays.
    struct Model {
        struct Entry { var index: SignatureCache.IndexKey; var full: [[UInt8]]; var referenced: Bool }
        let capacity: Int
        var ring: [Entry] = []
        var hand = 0
        var stats = CacheStatistics()

        static func full(_ k: Key) -> [[UInt8]] {
            [Array("\(k.algorithm)".utf8), Array(k.spki), Array(k.signature), Array(k.wholeMessage), k.messageDigest.map { Array("\($0)".utf8) } ?? [0xFF]]
        }

        mutating func contains(_ k: Key) -> Bool {
            let full = Self.full(k)
            guard let i = ring.firstIndex(where: { $0.index == k.indexKey }), ring[i].full == full else {
                stats.misses += 1
                return false
            }
            stats.hits += 1
            ring[i].referenced = true
            return true
        }

        mutating func insert(_ k: Key) {
            guard capacity > 0, !ring.contains(where: { $0.index == k.indexKey }) else { return }
            let entry = Entry(index: k.indexKey, full: Self.full(k), referenced: false)
            if ring.count < capacity {
                ring.append(entry)
            } else {
                while ring[hand].referenced {
                    ring[hand].referenced = false
                    hand = (hand + 1) % capacity
                }
                ring[hand] = entry
                hand = (hand + 1) % capacity
                stats.evictions += 1
            }
            stats.count = ring.count
        }
    }

    /// Keys from a small universe with many index-key collisions: two SPKI tails, two signature
    /// tails, heads that vary, messages of equal length with different bytes, and both message forms.
    static func randomKey(_ rng: inout SplitMix64) -> Key {
        var spki = [UInt8](repeating: UInt8.random(in: 0...1, using: &rng), count: 20)
        spki[0] = UInt8.random(in: 0...2, using: &rng)
        var signature = [UInt8](repeating: UInt8.random(in: 0...1, using: &rng), count: Bool.random(using: &rng) ? 18 : 3)
        signature[0] = UInt8.random(in: 0...2, using: &rng)
        let messageLength = [0, 2, Key.largestMessageKeptWhole + 1].randomElement(using: &rng)!
        var message = [UInt8](repeating: 0x11, count: messageLength)
        if messageLength > 0 { message[messageLength / 2] = UInt8.random(in: 0...1, using: &rng) }
        let algorithm: SignatureAlgorithm = Bool.random(using: &rng) ? .ecdsa(.sha256) : .ed25519
        return Key(algorithm: algorithm, spki: framed(spki), signature: framed(signature), message: message[...])
    }

    @Test("random inserts and lookups at capacities 0-3 and 16 match an exact model: never a false hit, same statistics", arguments: [0, 1, 2, 3, 16])
    func differential(capacity: Int) {
        var rng = SplitMix64(state: 0xC0FFEE &+ UInt64(capacity))
        let universe = (0..<48).map { _ in Self.randomKey(&rng) }
        let cache = SignatureCache(capacity: capacity)
        var model = Model(capacity: capacity)
        var inserted: Set<[[UInt8]]> = []
        for step in 0..<4_000 {
            let key = universe.randomElement(using: &rng)!
            if Int.random(in: 0..<3, using: &rng) == 0 {
                cache.insert(key)
                model.insert(key)
                inserted.insert(Model.full(key))
            } else {
                let found = cache.contains(key)
                #expect(found == model.contains(key), "step \(step): cache and model disagree")
                if found { #expect(inserted.contains(Model.full(key)), "step \(step): false hit") }
            }
            let s = cache.statistics
            #expect(s == model.stats, "step \(step)")
            #expect(s.count <= capacity)
            if s != model.stats { return }
        }
        // Every entry the model holds is found, and nothing else in the universe is.
        for key in universe {
            let held = model.ring.contains { $0.index == key.indexKey && $0.full == Model.full(key) }
            #expect(cache.contains(key) == held)
        }
    }

    @Test("four tasks insert and look up colliding keys on a 3-entry cache: no false hits, every lookup counted")
    func concurrent() async {
        var rng = SplitMix64(state: 42)
        let universe = (0..<64).map { _ in Self.randomKey(&rng) }
        // Keys never inserted (the universe repeats keys: one counts as inserted if an equal key is),
        // many sharing an index key with inserted ones.
        let insertable = Set(universe.indices.filter { $0 % 4 != 3 }.map { Model.full(universe[$0]) })
        let neverInserted = Set(universe.indices.filter { !insertable.contains(Model.full(universe[$0])) })
        #expect(neverInserted.count >= 8)
        #expect(neverInserted.contains { i in universe.indices.contains { !neverInserted.contains($0) && universe[$0].indexKey == universe[i].indexKey } })
        let cache = SignatureCache(capacity: 3)
        let rounds = 2_000
        let falseHits = await withTaskGroup(of: Int.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var rng = SplitMix64(state: UInt64(task) &* 7919)
                    var falseHits = 0
                    for _ in 0..<rounds {
                        let i = Int.random(in: universe.indices, using: &rng)
                        if Bool.random(using: &rng) {
                            if !neverInserted.contains(i) { cache.insert(universe[i]) }
                        } else if cache.contains(universe[i]), neverInserted.contains(i) {
                            falseHits += 1
                        }
                    }
                    return falseHits
                }
            }
            return await group.reduce(0, +)
        }
        #expect(falseHits == 0)
        let s = cache.statistics
        #expect(s.count == 3)
        // Lookups are about half of 8000 operations; hits plus misses counts each exactly once.
        var total = 0
        for task in 0..<4 {
            var rng = SplitMix64(state: UInt64(task) &* 7919)
            for _ in 0..<rounds {
                _ = Int.random(in: universe.indices, using: &rng)
                if !Bool.random(using: &rng) { total += 1 }
            }
        }
        #expect(s.hits + s.misses == total)
    }
}
