// An optional cache of signature verification outcomes, keyed by a SHA-256 over the length-prefixed
// algorithm, SPKI, signature and message, so a chain seen again is not verified again.
import Synchronization

/// A bounded, thread-safe cache of signature verification outcomes.
///
/// An entry is keyed by a ``Key``: the SHA-256 of the length-prefixed algorithm, SubjectPublicKeyInfo
/// DER, signature and signed message, so a cached outcome is only ever returned for exactly the
/// same inputs. Every outcome is stored, failures included (they are as deterministic as
/// successes); key load errors are thrown and not stored. Bounded to ``capacity`` entries with
/// CLOCK eviction, as ``PublicKeyCache``.
public final class SignatureCache: Sendable {
    /// The identity of one verification: SHA-256 over
    /// `"CertPath signature cache v1"`, then, each preceded by its length as a 64-bit big-endian
    /// integer, an encoding of the algorithm (kind, hash, PSS salt length), the SPKI DER, the
    /// signature and the message.
    public struct Key: Hashable, Sendable {
        /// The SHA-256 value identifying the inputs.
        public let digest: SHA256Digest

        /// Computes the key of a verification.
        ///
        /// - Parameters:
        ///   - algorithm: the signature algorithm.
        ///   - spki: the DER of the signer's SubjectPublicKeyInfo.
        ///   - signature: the signature bytes.
        ///   - message: the signed bytes.
        public init(algorithm: SignatureAlgorithm, spki: ArraySlice<UInt8>, signature: ArraySlice<UInt8>, message: ArraySlice<UInt8>) {
            var hasher = SHA256Hasher()
            let label: StaticString = "CertPath signature cache v1"
            hasher.update(UnsafeRawBufferPointer(start: label.utf8Start, count: label.utf8CodeUnitCount))
            let encoded = Key.encode(algorithm)
            hasher.update(UInt64(encoded.count))
            hasher.update(encoded[...])
            hasher.update(UInt64(spki.count))
            hasher.update(spki)
            hasher.update(UInt64(signature.count))
            hasher.update(signature)
            hasher.update(UInt64(message.count))
            hasher.update(message)
            digest = hasher.finalize()
        }

        /// A stable byte encoding of an algorithm: a kind byte, a hash byte, the PSS salt length as
        /// four big-endian bytes, or the OID contents of an unsupported algorithm.
        private static func encode(_ algorithm: SignatureAlgorithm) -> [UInt8] {
            func code(_ hash: HashAlgorithm) -> UInt8 {
                switch hash {
                case .md2: return 1
                case .md5: return 2
                case .sha1: return 3
                case .sha224: return 4
                case .sha256: return 5
                case .sha384: return 6
                case .sha512: return 7
                }
            }
            switch algorithm {
            case .rsaPKCS1v15(let hash): return [1, code(hash)]
            case .rsaPSS(let hash, let salt):
                let s = UInt32(truncatingIfNeeded: salt)
                return [2, code(hash), UInt8(s >> 24), UInt8(s >> 16 & 0xFF), UInt8(s >> 8 & 0xFF), UInt8(s & 0xFF), salt < 0 ? 1 : 0]
            case .ecdsa(let hash): return [3, code(hash)]
            case .ed25519: return [4]
            case .ed448: return [5]
            case .unsupported(let oid): return [6] + oid.encoded
            case .dsa(let hash): return [7, code(hash)]
            }
        }
    }

    private let state: Mutex<ClockCache<Key, SignatureVerificationResult>>

    /// The most outcomes kept (at least 0; 0 disables caching).
    public let capacity: Int

    /// Creates an empty cache.
    ///
    /// - Parameter capacity: the most outcomes kept; default 4096 (about 100 bytes each). Negative
    ///   values count as 0, which turns caching off.
    public init(capacity: Int = 4096) {
        let cache = ClockCache<Key, SignatureVerificationResult>(capacity: capacity)
        self.capacity = cache.capacity
        self.state = Mutex(cache)
    }

    /// The cached outcome for `key`, if any.
    public func result(for key: Key) -> SignatureVerificationResult? {
        state.withLock { $0.value(for: key) }
    }

    /// Stores an outcome (an existing entry for the key is kept).
    public func insert(_ result: SignatureVerificationResult, for key: Key) {
        state.withLock { _ = $0.insertIfAbsent(result, for: key) }
    }

    /// Verifies a signature, answering from the cache when the same verification was done before.
    ///
    /// On a miss the key is obtained from `key` (for example `{ try keyCache.publicKey(for: spki) }`
    /// or a preloaded anchor key), the signature verified with
    /// ``PublicKey``'s `verify(signature:message:algorithm:)` and the outcome stored.
    /// ``SignatureAlgorithm/unsupported(_:)`` is answered at once, without hashing or caching.
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
        if case .unsupported = algorithm { return .unsupportedAlgorithm }
        let cacheKey = Key(algorithm: algorithm, spki: spki.der, signature: signature, message: message)
        if let cached = result(for: cacheKey) { return cached }
        let outcome = try key().verify(signature: signature, message: message, algorithm: algorithm)
        insert(outcome, for: cacheKey)
        return outcome
    }

    /// Hit, miss and eviction counts, and the number of outcomes held.
    public var statistics: CacheStatistics {
        state.withLock { $0.statistics }
    }

    /// Drops every outcome and zeroes the statistics.
    public func removeAll() {
        state.withLock { $0.removeAll() }
    }
}
