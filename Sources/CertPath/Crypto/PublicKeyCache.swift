// A bounded, thread-safe cache of loaded public keys keyed by their SubjectPublicKeyInfo DER, so a
// key that recurs (an intermediate seen in many chains) is loaded into libcrypto once.
import CLibCrypto
import Synchronization

/// A bounded, thread-safe cache of ``PublicKey``s keyed by the exact DER bytes of their
/// SubjectPublicKeyInfo (RFC 5280 4.1.2.7), shared by every evaluation that uses it.
///
/// Bounded to ``capacity`` entries with CLOCK eviction (second chance: an entry is dropped only if it
/// was not used since the eviction hand last passed it). Keys that fail to load are not cached: the
/// error is thrown on every lookup. Lookups hash the SPKI bytes with the standard library's seeded
/// hasher, so crafted keys cannot degrade the table; each stored entry holds a private copy of its
/// SPKI bytes, not the certificate they came from.
public final class PublicKeyCache: Sendable {
    private let state: Mutex<ClockCache<DERBytesKey, PublicKey>>

    /// The most keys kept (at least 0; 0 disables caching).
    public let capacity: Int

    /// Creates an empty cache.
    ///
    /// - Parameter capacity: the most keys kept; default 1024. Negative values count as 0, which
    ///   turns caching off (every lookup loads the key).
    public init(capacity: Int = 1024) {
        let cache = ClockCache<DERBytesKey, PublicKey>(capacity: capacity)
        self.capacity = cache.capacity
        self.state = Mutex(cache)
    }

    /// Returns the loaded key for a SubjectPublicKeyInfo, loading and caching it if absent.
    ///
    /// The key is loaded outside the lock; if two threads load the same key at once, both receive
    /// the instance cached first.
    ///
    /// - Throws: ``PublicKeyError`` when the key cannot be loaded (see ``PublicKey``).
    package func publicKey(for spki: SubjectPublicKeyInfo) throws(PublicKeyError) -> PublicKey {
        if let cached = state.withLock({ $0.value(for: DERBytesKey(spki.der)) }) { return cached }
        let loaded = try PublicKey(spki.key)
        let stored = DERBytesKey(ArraySlice(Array(spki.der)))
        return state.withLock { $0.insertIfAbsent(loaded, for: stored) }
    }

    /// Hit, miss and eviction counts, and the number of keys held.
    public var statistics: CacheStatistics {
        state.withLock { $0.statistics }
    }

    /// Drops every key and zeroes the statistics.
    public func removeAll() {
        state.withLock { $0.removeAll() }
    }
}

