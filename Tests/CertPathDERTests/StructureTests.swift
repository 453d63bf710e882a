@_spi(Fuzzing) import CertPathDER
import Testing

/// Structure rules: no trailing data inside a structure or after the outermost element; nesting depth.
@Suite("DER structure")
struct StructureTests {
    /// `count` SEQUENCEs nested in each other, the innermost empty: `30 2n-2 30 2n-4 … 30 00` (count ≤ 64).
    static func nestedSequences(_ count: Int) -> [UInt8] {
        precondition(count <= 64)
        var bytes: [UInt8] = []
        for level in 0..<count { bytes += [0x30, UInt8(2 * (count - 1 - level))] }
        return bytes
    }

    /// Descends through nested SEQUENCEs with `nested`, as schema readers do.
    static func descend(_ reader: inout DERReader) throws(DERError) {
        if reader.isAtEnd { return }
        try reader.sequence("level") { inner throws(DERError) in try descend(&inner) }
    }

    @Test("remainingElementCount counts the elements left in the structure from their headers, up to a maximum")
    func remainingElementCount() throws {
        // SEQUENCE { INTEGER 1, OCTET STRING of 130 bytes (long-form length), NULL }
        let contents = hex("02 01 01 04 81 82") + [UInt8](repeating: 0xAB, count: 130) + hex("05 00")
        var reader = DERReader(hex("30 81") + [UInt8(contents.count)] + contents)
        _ = try reader.descend(.sequence, "list")
        #expect(reader.remainingElementCount(atMost: 64) == 3)
        #expect(reader.remainingElementCount(atMost: 2) == 2)
        #expect(reader.remainingElementCount(atMost: 0) == 0)
        // Counting does not move the reader.
        #expect(try reader.readUnsigned("first", as: UInt8.self) == 1)
        #expect(reader.remainingElementCount(atMost: 64) == 2)
        // A header that does not read ends the count at what was counted before it (the reading
        // that follows reports it): contents running past the structure, an indefinite length, a
        // length of five octets, a lone identifier octet.
        for broken in ["04 05 00", "04 80", "04 85 01 02 03 04 05", "05"] {
            let inner = hex("02 01 01 " + broken)
            var list = DERReader(hex("30") + [UInt8(inner.count)] + inner)
            _ = try list.descend(.sequence, "list")
            #expect(list.remainingElementCount(atMost: 64) == 1, "\(broken)")
        }
    }

    @Test("trailing data inside a structure is rejected by nested and finish")
    func trailingInside() throws {
        // SEQUENCE { INTEGER 1, NULL } read by a schema that expects only the INTEGER.
        let bytes = hex("30 05 02 01 01 05 00")
        expectDERError(.trailingData, at: 5) {
            var reader = DERReader(bytes)
            return try reader.sequence("Version") { inner throws(DERError) in try inner.readUnsigned("v", as: UInt8.self) }
        }
        // The same schema reading both elements succeeds.
        var reader = DERReader(bytes)
        let version = try reader.sequence("Version") { inner throws(DERError) in
            let value = try inner.readUnsigned("v", as: UInt8.self)
            try inner.readNull("n")
            return value
        }
        #expect(version == 1)
        #expect(reader.isAtEnd)
        // finish by hand.
        var manual = DERReader(bytes)
        let outer = try manual.read(.sequence, "outer")
        var inner = try manual.contents(of: outer, "outer")
        _ = try inner.readInteger("first")
        expectDERError(.trailingData, at: 5) { try inner.finish("outer") }
        try inner.readNull("second")
        try inner.finish("outer")
        // nestedOptional applies the same rule when the element is present.
        var optional = DERReader(hex("A0 05 02 01 02 02 01 03"))
        expectDERError(.trailingData, at: 5) {
            try optional.nestedOptional(.contextSpecific(0, constructed: true), "[0]") { inner throws(DERError) in
                try inner.readInteger("version")
            }
        }
    }

    @Test("trailing data after the outermost element is rejected by DERReader.parse and DERNode.parse")
    func trailingAfterOutermost() throws {
        let parsed = try DERReader.parse(hex("30 03 02 01 07"), .sequence, "outer") { reader throws(DERError) in
            try reader.readUnsigned("seven", as: UInt8.self)
        }
        #expect(parsed == 7)
        expectDERError(.trailingData, at: 5) {
            try DERReader.parse(hex("30 03 02 01 07 00"), .sequence, "outer") { reader throws(DERError) in
                try reader.readUnsigned("seven", as: UInt8.self)
            }
        }
        expectDERError(.trailingData, at: 5) {
            try DERReader.parse(hex("30 03 02 01 07 30 00"), .sequence, "outer") { reader throws(DERError) in
                try reader.readUnsigned("seven", as: UInt8.self)
            }
        }
        expectDERError(.trailingData, at: 2) { try DERNode.parse(hex("05 00 00")) }
        expectDERError(.unexpectedTag, at: 0) {
            try DERReader.parse(hex("31 00"), .sequence, "outer") { _ throws(DERError) in 0 }
        }
        expectDERError(.truncated, at: 0) {
            try DERReader.parse([], .sequence, "outer") { _ throws(DERError) in 0 }
        }
        expectDERError(.trailingData, at: 0) { try DERReader(hex("00")).finish("nothing") }
    }

    @Test("nesting depth: accepted at the limit, depthExceeded one level beyond")
    func depthLimit() throws {
        for limit in [1, 4, 10, 32] {
            #expect(throws: Never.self) { try DERNode.parse(Self.nestedSequences(limit), maximumDepth: limit) }
            expectDERError(.depthExceeded, at: 2 * limit) {
                try DERNode.parse(Self.nestedSequences(limit + 1), maximumDepth: limit)
            }
            #expect(throws: Never.self) {
                var reader = DERReader(Self.nestedSequences(limit), maximumDepth: limit)
                try Self.descend(&reader)
            }
            expectDERError(.depthExceeded, at: 2 * limit) {
                var reader = DERReader(Self.nestedSequences(limit + 1), maximumDepth: limit)
                try Self.descend(&reader)
            }
        }
        // The default limit.
        #expect(DERReader.defaultMaximumDepth == 32)
        #expect(throws: Never.self) { try DERNode.parse(Self.nestedSequences(32)) }
        expectDERError(.depthExceeded, at: 64) { try DERNode.parse(Self.nestedSequences(33)) }
        // With a limit of 0 no structure may be entered at all.
        expectDERError(.depthExceeded, at: 0) { try DERNode.parse(hex("30 00"), maximumDepth: 0) }
        #expect(throws: Never.self) { try DERNode.parse(hex("05 00"), maximumDepth: 0) }
    }

    @Test("hostile nesting far beyond the limit fails fast without exhausting the stack")
    func deepHostileNesting() {
        // 2,000 SEQUENCEs, each holding only the next, with minimal (mostly long-form) lengths.
        var bytes: [UInt8] = []
        for _ in 0..<2_000 {
            var writer = DERWriter()
            writer.append(.sequence, contents: bytes)
            bytes = writer.bytes
        }
        let offset = DERNodeOffsets.offsetOfLevel(32, in: bytes)
        #expect(offset > 64)
        expectDERError(.depthExceeded, at: offset) { try DERNode.parse(bytes) }
        expectDERError(.depthExceeded, at: offset) {
            var reader = DERReader(bytes)
            try Self.descend(&reader)
        }
    }
}

/// Offsets of nested single-child SEQUENCEs.
enum DERNodeOffsets {
    /// Offset of the SEQUENCE at nesting `level` (0 = outermost) in `bytes`, a chain of SEQUENCEs each
    /// holding only the next.
    static func offsetOfLevel(_ level: Int, in bytes: [UInt8]) -> Int {
        var offset = 0
        for _ in 0..<level {
            let first = bytes[offset + 1]
            offset += 2 + (first < 0x80 ? 0 : Int(first & 0x7F))
        }
        return offset
    }
}
