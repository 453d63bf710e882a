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
/// An entry is a ``Key``: the algorithm, the signer's SubjectPublicKeyInfo DER, the signature and
/// the signed message, compared byte for byte (a message longer than
/// ``Key/largestMessageKeptWhole`` bytes by its SHA-256), so a cached success is only ever returned
/// for exactly the same inputs. Only successes are stored: a failure costs a verification each
/// time, as without the cache, and inputs that fail never evict good entries. Key load errors are thrown and not stored. Bounded to ``capacity`` entries with CLOCK
/// eviction, as ``PublicKeyCache``; an entry keeps its own copy of the inputs (about 1.7 KB for
/// an RSA-2048 certificate, at most 4 KB of message plus the SPKI and signature).
public final class SignatureCache: Sendable {
    /// The identity of one verification: algorithm, SPKI DER, signature and message.
    ///
    /// Equality compares every byte (the message by its SHA-256 when longer than
    /// ``largestMessageKeptWhole``). The hash covers the algorithm, the whole SPKI and signature,
    /// and the message's length (or digest), under `Hasher`'s per-process seed, so nobody can
    /// choose inputs whose hashes collide. The message's bytes are left out of the hash (they are
    /// the bulk of the input): stored entries can only share a hash through equal SPKI and
    /// signature, and as only successes are stored, that is a signature valid under one key for
    /// several messages, of which there are only a few (one digest for RSA; for ECDSA, at most the
    /// four points whose x-coordinate reduces to r). No bucket can be filled on purpose.
    public struct Key: Hashable, Sendable {
        /// The longest message a key holds whole, in bytes (4096); longer ones (CRLs) are held
        /// by their SHA-256.
        public static let largestMessageKeptWhole = 4096

        /// A message, whole or by its SHA-256.
        enum Message: Hashable, Sendable {
            case whole(ArraySlice<UInt8>)
            case sha256(SHA256Digest)
        }

        let algorithm: SignatureAlgorithm
        let spki: ArraySlice<UInt8>
        let signature: ArraySlice<UInt8>
        let message: Message

        /// The key of a verification. It refers to the given bytes without copying them; the
        /// cache copies a key before keeping it.
        ///
        /// - Parameters:
        ///   - algorithm: the signature algorithm.
        ///   - spki: the DER of the signer's SubjectPublicKeyInfo.
        ///   - signature: the signature bytes.
        ///   - message: the signed bytes.
        public init(algorithm: SignatureAlgorithm, spki: ArraySlice<UInt8>, signature: ArraySlice<UInt8>, message: ArraySlice<UInt8>) {
            self.algorithm = algorithm
            self.spki = spki
            self.signature = signature
            self.message = message.count > Key.largestMessageKeptWhole ? .sha256(SHA256Digest(hashing: message)) : .whole(message)
        }

        private init(algorithm: SignatureAlgorithm, spki: ArraySlice<UInt8>, signature: ArraySlice<UInt8>, message: Message) {
            self.algorithm = algorithm
            self.spki = spki
            self.signature = signature
            self.message = message
        }

        /// The same key over its own compact copies of the bytes, which keeps no caller's buffer alive.
        func owned() -> Key {
            func copy(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> { Array(bytes)[...] }
            let message: Message
            switch self.message {
            case .whole(let bytes): message = .whole(copy(bytes))
            case .sha256: message = self.message
            }
            return Key(algorithm: algorithm, spki: copy(spki), signature: copy(signature), message: message)
        }

        /// Whether two keys identify the same verification: same algorithm, and the same bytes of
        /// SPKI, signature and message (or message digest).
        public static func == (lhs: Key, rhs: Key) -> Bool {
            guard lhs.algorithm == rhs.algorithm, same(lhs.signature, rhs.signature), same(lhs.spki, rhs.spki) else { return false }
            switch (lhs.message, rhs.message) {
            case (.whole(let a), .whole(let b)): return same(a, b)
            case (.sha256(let a), .sha256(let b)): return a == b
            default: return false
            }
        }

        /// Feeds the algorithm, the SPKI and signature bytes and the message length (or digest) to `hasher`.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(algorithm)
            hasher.combine(spki.count)
            spki.withUnsafeBytes { hasher.combine(bytes: $0) }
            hasher.combine(signature.count)
            signature.withUnsafeBytes { hasher.combine(bytes: $0) }
            switch message {
            case .whole(let bytes): hasher.combine(bytes.count)
            case .sha256(let digest): hasher.combine(digest)
            }
        }

        private static func same(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
            guard a.count == b.count else { return false }
            return a.withUnsafeBytes { x in
                b.withUnsafeBytes { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
            }
        }
    }

    private let state: Mutex<ClockCache<Key, Void>>

    /// The most verifications kept (at least 0; 0 disables caching).
    public let capacity: Int

    /// Creates an empty cache.
    ///
    /// - Parameter capacity: the most verifications kept; default 4096. Negative values count as
    ///   0, which turns caching off.
    public init(capacity: Int = 4096) {
        let cache = ClockCache<Key, Void>(capacity: capacity)
        self.capacity = cache.capacity
        self.state = Mutex(cache)
    }

    /// Whether the verification identified by `key` is known to succeed (a lookup: counts a hit or a miss).
    public func contains(_ key: Key) -> Bool {
        state.withLock { $0.value(for: key) != nil }
    }

    /// Records that the verification identified by `key` succeeded (a copy of its bytes is kept).
    /// The caller must have verified it: the cache believes what it is told.
    public func insert(_ key: Key) {
        let owned = key.owned()
        state.withLock { $0.insertIfAbsent((), for: owned) }
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
    public func verify(
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
