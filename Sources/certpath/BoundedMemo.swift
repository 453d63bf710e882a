/// A per-process memo of `batch` (certificates of repeated PEM blocks, certificates' JSON members),
/// bounded by entries and by bytes: what a corpus repeats is a few certificates of a few kilobytes,
/// but a corpus of distinct large ones (lines may be 16 MiB) must not make a memo hold gigabytes (a
/// reviewer's 80 lines of 10 MB reached 2.15 GB when only entries were counted). An entry costing
/// more than ``largestEntry`` bytes is not kept; one that would pass either bound empties the memo first.
struct BoundedMemo<Key: Hashable, Value> {
    /// The costliest entry kept: 128 KiB, far above any real certificate (with its PEM text).
    static var largestEntry: Int { 128 << 10 }
    /// The bytes the entries may cost in all: 16 MiB.
    static var maximumBytes: Int { 16 << 20 }

    private let maximumEntries: Int
    private var entries: [Key: Value] = [:]
    private var bytes = 0

    /// An empty memo of at most `maximumEntries` entries.
    init(maximumEntries: Int) { self.maximumEntries = maximumEntries }

    /// Whether an entry costing `cost` bytes would be kept.
    static func keeps(cost: Int) -> Bool { cost <= largestEntry }

    /// The value kept for `key`, if any.
    subscript(key: Key) -> Value? { entries[key] }

    /// Keeps `value` for `key`, an entry costing `cost` bytes (what it holds that nothing else does).
    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        guard Self.keeps(cost: cost) else { return }
        if entries.count >= maximumEntries || bytes + cost > Self.maximumBytes {
            entries.removeAll()
            bytes = 0
        }
        entries[key] = value
        bytes += cost
    }
}
