// An optional cache of successful signature verifications: a chain seen again is not verified again.
// Keys are the verification's inputs themselves, compared byte for byte; only successes are kept.
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bounded, thread-safe set of signature verifications known to succeed.
///
/// An entry is a `Key`: the algorithm, the signer's SubjectPublicKeyInfo DER, the signature and
/// the signed message, compared byte for byte (a message longer than
/// `Key.largestMessageKeptWhole` bytes by its SHA-256), so a cached success is only ever returned
/// for exactly the same inputs. Only successes are stored: a failure costs a verification each
/// time, as without the cache, and inputs that fail never evict good entries. Key load errors are
/// thrown and not stored. Bounded to ``capacity`` entries with CLOCK eviction, as
/// ``PublicKeyCache``; an entry keeps its own copy of the inputs (about 1.7 KB for an RSA-2048
/// certificate, at most 4 KB of message plus the SPKI and signature).
///
/// Entries are filed by a short index key — the three lengths, and the last 16 bytes of the
/// signature and of the SPKI — hashed under `Hasher`'s per-process seed, and an index key
/// holds at most one entry (the first stored), whose inputs a lookup then compares whole. However
/// inputs are crafted, no lookup compares against more than that one entry: crafted verifications
/// that share an index key only keep each other out of the cache (each is then verified again, as
/// without a cache). The entry stays until CLOCK evicts it, so a verification whose index key is
/// taken by another is not cached meanwhile; taking an honest verification's index key first needs a
/// valid signature ending with the same 16 bytes as the honest one, under a key whose encoding ends
/// like the honest signer's (about 2^128 work for RSA and ECDSA signatures alike).
public final class SignatureCache: Sendable {
    /// The identity of one verification: algorithm, SPKI DER, signature and message.
    ///
    /// Equality compares every byte (the message by its SHA-256 when longer than
    /// ``largestMessageKeptWhole``). The hash covers the algorithm, the whole SPKI and signature,
    /// and the message's length (or digest), under `Hasher`'s per-process seed. (The cache itself
    /// files keys by a shorter index key; see ``SignatureCache``.)
    package struct Key: Hashable, Sendable {
        /// The longest message a key holds whole, in bytes (4096); longer ones (CRLs) are held
        /// by their SHA-256.
        package static let largestMessageKeptWhole = 4096

        let algorithm: SignatureAlgorithm
        let spki: ArraySlice<UInt8>
        let signature: ArraySlice<UInt8>
        /// The message when held whole, else empty. (Two stored fields, not an enum of the two
        /// forms: a lookup reads them without binding, and so copying, an enum's payload.)
        let wholeMessage: ArraySlice<UInt8>
        /// The message's SHA-256 when it is held by its digest.
        let messageDigest: SHA256Digest?

        /// The key of a verification. It refers to the given bytes without copying them; the
        /// cache keeps its own copy of them when the key is inserted.
        ///
        /// - Parameters:
        ///   - algorithm: the signature algorithm.
        ///   - spki: the DER of the signer's SubjectPublicKeyInfo.
        ///   - signature: the signature bytes.
        ///   - message: the signed bytes.
        package init(algorithm: SignatureAlgorithm, spki: ArraySlice<UInt8>, signature: ArraySlice<UInt8>, message: ArraySlice<UInt8>) {
            let byDigest = message.count > Key.largestMessageKeptWhole
            self.init(algorithm: algorithm, spki: spki, signature: signature, wholeMessage: byDigest ? [] : message,
                      messageDigest: byDigest ? SHA256Digest(hashing: message) : nil)
        }

        private init(algorithm: SignatureAlgorithm, spki: ArraySlice<UInt8>, signature: ArraySlice<UInt8>,
                     wholeMessage: ArraySlice<UInt8>, messageDigest: SHA256Digest?) {
            self.algorithm = algorithm
            self.spki = spki
            self.signature = signature
            self.wholeMessage = wholeMessage
            self.messageDigest = messageDigest
        }

        /// Where the cache files this key: the lengths, and the last 16 bytes of the signature and
        /// of the SPKI (fewer, zero-padded, when shorter).
        var indexKey: IndexKey {
            IndexKey(spkiCount: spki.count, signatureCount: signature.count,
                     messageCount: messageDigest == nil ? wholeMessage.count : -1,
                     spkiTail: IndexKey.tail(spki), signatureTail: IndexKey.tail(signature))
        }

        /// Whether two keys identify the same verification: same algorithm, and the same bytes of
        /// SPKI, signature and message (or message digest).
        package static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.algorithm == rhs.algorithm && same(lhs.signature, rhs.signature) && same(lhs.spki, rhs.spki)
                && lhs.messageDigest == rhs.messageDigest && same(lhs.wholeMessage, rhs.wholeMessage)
        }

        /// Feeds the algorithm, the SPKI and signature bytes and the message length (or digest) to `hasher`.
        package func hash(into hasher: inout Hasher) {
            hasher.combine(algorithm)
            hasher.combine(spki.count)
            spki.withUnsafeBytes { hasher.combine(bytes: $0) }
            hasher.combine(signature.count)
            signature.withUnsafeBytes { hasher.combine(bytes: $0) }
            if let messageDigest { hasher.combine(messageDigest) } else { hasher.combine(wholeMessage.count) }
        }

        private static func same(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
            guard a.count == b.count else { return false }
            return a.withUnsafeBytes { x in
                b.withUnsafeBytes { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
            }
        }
    }

    /// The short key entries are filed by (see ``SignatureCache``): the three lengths and the last
    /// 16 bytes of the signature and of the SPKI. Plain words (copying one retains nothing), and
    /// short: hashing it does not grow with the key size.
    struct IndexKey: Hashable, Sendable {
        let spkiCount: Int
        let signatureCount: Int
        /// The message's length, -1 for a message held by its digest.
        let messageCount: Int
        let spkiTail: SIMD2<UInt64>
        let signatureTail: SIMD2<UInt64>

        /// The last 16 bytes of `bytes` (all of them, zero-padded at the front, when fewer).
        static func tail(_ bytes: ArraySlice<UInt8>) -> SIMD2<UInt64> {
            var tail = SIMD2<UInt64>()
            withUnsafeMutableBytes(of: &tail) { destination in
                bytes.withUnsafeBytes { source in
                    let count = min(16, source.count)
                    guard count > 0 else { return }
                    (destination.baseAddress! + (16 - count)).copyMemory(from: source.baseAddress! + (source.count - count), byteCount: count)
                }
            }
            return tail
        }
    }

    /// A verification as the cache keeps it: its own copy of the bytes, in one block, which a
    /// lookup compares in place through plain pointers (reading the stored value's array fields
    /// would retain them, and every thread shares them).
    struct Stored: @unchecked Sendable {  // its bytes are written once, in init, and only read after
        let algorithm: SignatureAlgorithm
        let messageDigest: SHA256Digest?
        let spki: UnsafeRawBufferPointer
        let signature: UnsafeRawBufferPointer
        let wholeMessage: UnsafeRawBufferPointer
        /// Owns the block the three buffers point into.
        let block: Block

        /// A block of bytes freed with its last reference.
        final class Block: @unchecked Sendable {
            let base: UnsafeMutableRawPointer
            init(byteCount: Int) { base = .allocate(byteCount: max(1, byteCount), alignment: 1) }
            deinit { base.deallocate() }
        }

        /// A copy of `key`'s bytes.
        init(_ key: Key) {
            let parts = [key.spki, key.signature, key.wholeMessage]
            block = Block(byteCount: parts.reduce(0) { $0 + $1.count })
            var buffers: [UnsafeRawBufferPointer] = []
            var offset = 0
            for part in parts {
                let destination = block.base + offset
                part.withUnsafeBytes { source in
                    if let from = source.baseAddress { destination.copyMemory(from: from, byteCount: source.count) }
                }
                buffers.append(UnsafeRawBufferPointer(start: destination, count: part.count))
                offset += part.count
            }
            algorithm = key.algorithm
            messageDigest = key.messageDigest
            (spki, signature, wholeMessage) = (buffers[0], buffers[1], buffers[2])
        }

        /// Whether `key` is the verification stored at `stored` (read in place: only plain fields).
        static func matches(_ stored: UnsafePointer<Stored>, _ key: Key) -> Bool {
            func same(_ a: UnsafeRawBufferPointer, _ b: ArraySlice<UInt8>) -> Bool {
                guard a.count == b.count else { return false }
                return b.withUnsafeBytes { y in a.count == 0 || memcmp(a.baseAddress!, y.baseAddress!, a.count) == 0 }
            }
            return stored.pointee.algorithm == key.algorithm && same(stored.pointee.signature, key.signature)
                && same(stored.pointee.spki, key.spki) && stored.pointee.messageDigest == key.messageDigest
                && same(stored.pointee.wholeMessage, key.wholeMessage)
        }
    }

    /// Each index key's one entry: the verification filed there.
    private let state: Mutex<ClockCache<IndexKey, Stored>>

    /// The most verifications kept (at least 0; 0 disables caching).
    public let capacity: Int

    /// Creates an empty cache.
    ///
    /// - Parameter capacity: the most verifications kept; default 4096. Negative values count as
    ///   0, which turns caching off.
    public init(capacity: Int = 4096) {
        let cache = ClockCache<IndexKey, Stored>(capacity: capacity)
        self.capacity = cache.capacity
        self.state = Mutex(cache)
    }

    /// Whether the verification identified by `key` is known to succeed (a lookup: counts a hit or a miss).
    package func contains(_ key: Key) -> Bool {
        let indexKey = key.indexKey
        return state.withLock { $0.contains(indexKey, where: { stored in Stored.matches(stored, key) }) }
    }

    /// Records that the verification identified by `key` succeeded (a copy of its bytes is kept),
    /// unless its index key already holds an entry (see ``SignatureCache``).
    /// The caller must have verified it: the cache believes what it is told.
    package func insert(_ key: Key) {
        let stored = Stored(key)
        let indexKey = key.indexKey
        _ = state.withLock { $0.insertIfAbsent(stored, for: indexKey) }
    }

    /// Verifies a signature, answering ``SignatureVerificationResult/verified`` at once when the
    /// same verification succeeded before.
    ///
    /// On a miss the key is obtained from `key` (for example `{ try keyCache.publicKey(for: spki) }`
    /// or a preloaded anchor key), the signature verified with
    /// ``PublicKey``'s `verify(signature:message:algorithm:)` and a success stored.
    /// ``SignatureAlgorithm/unsupported(_:)`` is answered at once, without a lookup, and so is an
    /// algorithm the key's RFC 4055 restrictions forbid
    /// (``SignatureVerificationResult/algorithmKeyMismatch``).
    ///
    /// - Parameters:
    ///   - signature: the signature bytes.
    ///   - message: the signed bytes.
    ///   - algorithm: the signature algorithm.
    ///   - spki: the signer's SubjectPublicKeyInfo (its DER is part of the cache key).
    ///   - key: supplies the signer's loaded key; called only on a miss. It must be the key of `spki`.
    /// - Throws: the ``PublicKeyError`` thrown by `key`.
    package func verify(
        signature: ArraySlice<UInt8>, message: ArraySlice<UInt8>, algorithm: SignatureAlgorithm,
        spki: SubjectPublicKeyInfo, key: () throws(PublicKeyError) -> PublicKey
    ) throws(PublicKeyError) -> SignatureVerificationResult {
        // The key's RFC 4055 restrictions come first: an id-RSASSA-PSS key verifies only RSASSA-PSS
        // signatures matching its parameters, whatever key `key` supplies or the cache holds.
        if spki.refusal(of: algorithm) != nil { return .algorithmKeyMismatch }
        return try verify(signature: signature, message: message, algorithm: algorithm, spkiDER: spki.der, key: key)
    }

    /// ``verify(signature:message:algorithm:spki:key:)`` with the SPKI as its DER bytes (the key
    /// need not be decoded for a hit); the caller has applied the key's RFC 4055 restrictions.
    func verify(
        signature: ArraySlice<UInt8>, message: ArraySlice<UInt8>, algorithm: SignatureAlgorithm,
        spkiDER: ArraySlice<UInt8>, key: () throws(PublicKeyError) -> PublicKey
    ) throws(PublicKeyError) -> SignatureVerificationResult {
        if case .unsupported = algorithm { return .unsupportedAlgorithm }
        let cacheKey = Key(algorithm: algorithm, spki: spkiDER, signature: signature, message: message)
        if contains(cacheKey) { return .verified }
        let outcome = try key().verify(signature: signature, message: message, algorithm: algorithm)
        if outcome == .verified { insert(cacheKey) }
        return outcome
    }

    /// Hit, miss and eviction counts, and the number of verifications held.
    public var statistics: CacheStatistics {
        state.withLock { $0.statistics }
    }

    /// Drops every entry and zeroes the statistics.
    public func removeAll() {
        state.withLock { $0.removeAll() }
    }
}
