// "At most once" rules over lists that an attacker sizes: each extension at most once in a
// certificate (RFC 5280 4.2), each policy OID at most once in certificatePolicies (4.2.1.4).
// Comparing every new entry with all earlier ones is quadratic: a 1 MB certificate of 100,000
// distinct extensions took 9 s to parse that way. Real lists are short, so the first four entries are
// compared one by one without allocating; past them, a hash set keeps the work linear.

import CertPathDER

/// The byte strings seen so far in one list, held as offset ranges of the buffer being read, for
/// rules that allow each value at most once.
///
/// The first four are held inline and compared one by one (no heap allocation); from the fifth
/// on, a `Set` of them all (hashed with the process's random seed, so a chosen list cannot make
/// the hashes collide) makes each insertion O(length).
package struct SeenByteStrings {
    private var first = (0..<0, 0..<0, 0..<0, 0..<0)
    private var count = 0
    /// Every string recorded, once there are more than four.
    private var many: Set<Bytes>? = nil

    /// A byte string as a set element: its address and length in the buffer being read, hashed
    /// and compared as one block of memory (an `ArraySlice` feeds the hasher one element at a time
    /// and retains its storage on each insertion).
    ///
    /// Safe because a ``SeenByteStrings`` lives only while one parse reads one buffer (a local of
    /// the parsing function) and the reader keeps that buffer alive and unchanged meanwhile.
    private struct Bytes: Hashable {
        let start: UnsafeRawPointer
        let count: Int

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes: UnsafeRawBufferPointer(start: start, count: count))
        }

        static func == (a: Bytes, b: Bytes) -> Bool {
            a.count == b.count && UnsafeRawBufferPointer(start: a.start, count: a.count).elementsEqual(UnsafeRawBufferPointer(start: b.start, count: b.count))
        }
    }

    /// The element for `range` of `reader`'s buffer.
    private static func bytes(_ range: Range<Int>, of reader: DERReader) -> Bytes {
        reader.withUnsafeBytes(of: range) { buffer in
            // An empty range may have no address; any non-null address stands for it (never read).
            Bytes(start: UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 8)!), count: buffer.count)
        }
    }

    /// An empty collection.
    package init() {}

    /// Records the bytes at `range` of `reader`'s buffer.
    ///
    /// - Returns: `false` when equal bytes were recorded before (nothing is recorded then).
    /// - Precondition: `range` lies within `reader.bytes`; every range recorded is of the same buffer,
    ///   which outlives this collection.
    package mutating func insert(_ range: Range<Int>, of reader: DERReader) -> Bool {
        // (`many!` mutates the set in place; `if let` would copy it on every insertion.)
        if many != nil { return many!.insert(Self.bytes(range, of: reader)).inserted }
        if count > 0, reader.bytesEqual(first.0, range) { return false }
        if count > 1, reader.bytesEqual(first.1, range) { return false }
        if count > 2, reader.bytesEqual(first.2, range) { return false }
        if count > 3, reader.bytesEqual(first.3, range) { return false }
        switch count {
        case 0: first.0 = range
        case 1: first.1 = range
        case 2: first.2 = range
        case 3: first.3 = range
        default:
            // Room for as many strings as the rest of the structure could hold (each at least 3
            // bytes of encoding), so that the set is not rehashed as it grows.
            var strings = Set<Bytes>(minimumCapacity: 5 + Swift.min((reader.end &- reader.position) / 3, 1 << 20))
            for recorded in [first.0, first.1, first.2, first.3, range] { strings.insert(Self.bytes(recorded, of: reader)) }
            many = strings
        }
        count &+= 1
        return true
    }
}
