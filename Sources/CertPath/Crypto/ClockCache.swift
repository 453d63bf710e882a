// The bounded map behind PublicKeyCache and SignatureCache: CLOCK eviction (second chance), an
// approximation of least-recently-used that costs O(1) per operation and needs no list surgery.

/// Hit, miss and eviction counts of a cache since it was created or last cleared.
public struct CacheStatistics: Hashable, Sendable {
    /// Lookups that found an entry.
    public var hits = 0
    /// Lookups that found nothing.
    public var misses = 0
    /// Entries dropped to make room for new ones.
    public var evictions = 0
    /// Entries held now.
    public var count = 0

    /// Creates zeroed statistics.
    public init() {}
}

/// A map of at most `capacity` entries with CLOCK eviction. Not thread-safe: the public caches keep
/// it inside a `Mutex`.
///
/// Entries sit in a ring of slots; a lookup that hits sets the entry's reference bit. To insert
/// into a full ring, the hand sweeps forward, clearing reference bits, and replaces the first entry
/// whose bit was already clear: an entry used since the hand last passed it gets a second chance.
struct ClockCache<Key: Hashable, Value> {
    private struct Slot {
        var key: Key
        var value: Value
        var referenced: Bool
    }

    /// The most entries kept; 0 disables caching.
    let capacity: Int
    private var slots: [Slot] = []
    private var index: [Key: Int] = [:]
    private var hand = 0
    private(set) var statistics = CacheStatistics()

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The value stored for `key`, marking it recently used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = index[key] else {
            statistics.misses += 1
            return nil
        }
        statistics.hits += 1
        // Written only when it changes: a hot entry's slot is then only read, and its cache line is
        // not pulled from one core to another by every hit.
        if !slots[slot].referenced { slots[slot].referenced = true }
        return slots[slot].value
    }

    /// Whether the entry for `key` passes `matches`, which is given the stored value's address (the
    /// value is read in place, not copied out: a copy would retain its buffers, which every thread
    /// shares); marked recently used if so. An entry failing `matches` counts as a miss and is left
    /// as it was.
    mutating func contains(_ key: Key, where matches: (UnsafePointer<Value>) -> Bool) -> Bool {
        guard let slot = index[key],
              slots.withUnsafeMutableBufferPointer({ buffer in withUnsafePointer(to: &buffer[slot].value, matches) }) else {
            statistics.misses += 1
            return false
        }
        statistics.hits += 1
        if !slots[slot].referenced { slots[slot].referenced = true }
        return true
    }

    /// Stores `value` for `key` unless an entry for an equal key is already there.
    ///
    /// - Returns: the value now stored for the key: the existing one if there was one, else `value`.
    @discardableResult
    mutating func insertIfAbsent(_ value: Value, for key: Key) -> Value {
        if let slot = index[key] { return slots[slot].value }
        guard capacity > 0 else { return value }
        if slots.count < capacity {
            index[key] = slots.count
            slots.append(Slot(key: key, value: value, referenced: false))
        } else {
            while slots[hand].referenced {
                slots[hand].referenced = false
                hand = (hand + 1) % capacity
            }
            index.removeValue(forKey: slots[hand].key)
            slots[hand] = Slot(key: key, value: value, referenced: false)
            index[key] = hand
            hand = (hand + 1) % capacity
            statistics.evictions += 1
        }
        statistics.count = slots.count
        return value
    }

    /// Drops every entry and zeroes the statistics.
    mutating func removeAll() {
        slots.removeAll()
        index.removeAll()
        hand = 0
        statistics = CacheStatistics()
    }
}
