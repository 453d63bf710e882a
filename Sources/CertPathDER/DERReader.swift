/// A cursor over DER input (X.690 clause 10 and 11) that hands out zero-copy views.
///
/// Every structural DER rule is enforced here, in one place, as elements are read:
/// low-tag-number form only, definite and minimal lengths of at most 4 octets, no element running
/// past its parent, a nesting-depth limit, and (through ``finish(_:)`` and the `nested` helpers)
/// no trailing data. Primitive types are validated by the `read…` methods and by the static
/// decoders in `DERPrimitives.swift`.
///
/// A reader is a value: `bytes` is shared (never copied), `position..<end` is the unread part of
/// the current structure. Offsets in errors and in ``DERElement`` are from the start of `bytes`.
///
/// The `nested` helpers (``nested(_:_:_:)``, ``sequence(_:_:)``, ``within(_:depth:_:)``) enter a
/// structure in place — they narrow this reader, run the body and restore it — so reading a deep
/// structure copies no reader (a copy retains the buffer of `bytes`).
public struct DERReader: Sendable {
    /// The default limit on nesting: X.509 certificates nest about 10 deep; 32 leaves room for
    /// directoryName constraints and CRL entry extensions while bounding recursion on hostile input.
    public static let defaultMaximumDepth = 32

    /// The input the views refer to. Offsets are indices of this slice, so for a reader made from an
    /// `Array` they count from its first byte, and for one made from an `ArraySlice` they are the
    /// slice's own (base-array) indices.
    public let bytes: ArraySlice<UInt8>
    /// Offset of the next unread byte.
    @inlinable
    public var position: Int { cursor }
    @usableFromInline
    var cursor: Int
    /// Offset one past the last byte of the current structure.
    @inlinable
    public var end: Int { limit }
    @usableFromInline
    var limit: Int
    /// Nesting depth of the current structure: 0 for the top level of the input.
    @inlinable
    public var depth: Int { level }
    @usableFromInline
    var level: Int
    /// Maximum nesting depth; entering a structure deeper than this throws ``DERError/Code/depthExceeded``.
    public let maximumDepth: Int

    /// Creates a reader over all of `bytes`, at depth 0.
    ///
    /// - Parameters:
    ///   - bytes: DER input; shared, not copied.
    ///   - maximumDepth: nesting limit (default ``defaultMaximumDepth``).
    @inlinable
    public init(_ bytes: [UInt8], maximumDepth: Int = DERReader.defaultMaximumDepth) {
        self.init(bytes[...], maximumDepth: maximumDepth)
    }

    /// Creates a reader over all of `bytes` (offsets are the slice's indices), at `depth`.
    @inlinable
    public init(_ bytes: ArraySlice<UInt8>, depth: Int = 0, maximumDepth: Int = DERReader.defaultMaximumDepth) {
        self.bytes = bytes
        self.cursor = bytes.startIndex
        self.limit = bytes.endIndex
        self.level = depth
        self.maximumDepth = maximumDepth
    }

    /// Creates a reader over `range` of `bytes` at `depth` (used for contents of an element already read).
    ///
    /// - Precondition: `range` lies within `bytes`.
    @inlinable
    public init(_ bytes: ArraySlice<UInt8>, range: Range<Int>, depth: Int, maximumDepth: Int = DERReader.defaultMaximumDepth) {
        precondition(range.lowerBound >= bytes.startIndex && range.upperBound <= bytes.endIndex, "range outside the buffer")
        self.bytes = bytes
        self.cursor = range.lowerBound
        self.limit = range.upperBound
        self.level = depth
        self.maximumDepth = maximumDepth
    }

    /// Whether every byte of the current structure has been read.
    @inlinable
    public var isAtEnd: Bool { position >= end }

    /// The tag of the next element, or `nil` at the end of the structure. Does not validate it.
    @inlinable @inline(__always)
    public func peekTag() -> DERTag? {
        position < end ? DERTag(rawValue: bytes[position]) : nil
    }

    /// Reads the next element, whatever its tag, enforcing the DER header rules.
    ///
    /// - Parameter expected: what the caller is reading, for error messages (`"Extension"`).
    /// - Returns: the element; the cursor moves past it.
    /// - Throws: ``DERError`` with `.truncated`, `.highTagNumber`, `.indefiniteLength`,
    ///   `.nonMinimalLength` or `.lengthTooLarge`.
    @inlinable
    public mutating func readElement(_ expected: @autoclosure () -> String) throws(DERError) -> DERElement {
        let start = position
        guard start < end else { throw DERError(.truncated, at: start, expected: expected()) }
        let tag = DERTag(rawValue: bytes[start])
        if tag.number == 0x1F { throw DERError(.highTagNumber, at: start, expected: expected()) }
        var cursor = start + 1
        guard cursor < end else { throw DERError(.truncated, at: cursor, expected: "length of \(expected())") }
        let first = bytes[cursor]
        cursor += 1
        var length: Int
        if first < 0x80 {
            length = Int(first)
        } else if first == 0x80 {
            throw DERError(.indefiniteLength, at: cursor - 1, expected: "definite length of \(expected())")
        } else {
            let count = Int(first & 0x7F)
            guard count <= 4 else { throw DERError(.lengthTooLarge, at: cursor - 1, expected: "length of \(expected())") }
            guard end - cursor >= count else { throw DERError(.truncated, at: cursor, expected: "length of \(expected())") }
            guard bytes[cursor] != 0 else {
                throw DERError(.nonMinimalLength, at: cursor - 1, expected: "minimal length of \(expected())")
            }
            length = 0
            for index in cursor..<(cursor + count) { length = (length << 8) | Int(bytes[index]) }
            guard length >= 0x80 else {
                throw DERError(.nonMinimalLength, at: cursor - 1, expected: "short-form length of \(expected())")
            }
            cursor += count
        }
        guard end - cursor >= length else {
            throw DERError(.truncated, at: start, expected: "\(length) bytes of \(expected())")
        }
        self.cursor = cursor + length
        return DERElement(tag: tag, offset: start, value: cursor..<(cursor + length))
    }

    /// Reads the next element and requires its tag to be `tag`.
    ///
    /// - Throws: ``DERError/Code/unexpectedTag`` when another tag is there (the cursor does not move),
    ///   `.truncated` at the end of the structure, and the header errors of ``readElement(_:)``.
    @inlinable @inline(__always)
    public mutating func read(_ tag: DERTag, _ expected: @autoclosure () -> String) throws(DERError) -> DERElement {
        guard let next = peekTag() else { throw DERError(.truncated, at: position, expected: "\(tag) (\(expected()))") }
        guard next == tag else {
            throw DERError(.unexpectedTag, at: position, expected: "\(tag) (\(expected())), found \(next)")
        }
        return try readElement(expected())
    }

    /// Reads the next element if its tag is `tag`; returns `nil` (without moving) otherwise or at the end.
    @inlinable @inline(__always)
    public mutating func readOptional(_ tag: DERTag, _ expected: @autoclosure () -> String) throws(DERError) -> DERElement? {
        guard peekTag() == tag else { return nil }
        return try readElement(expected())
    }

    /// A reader over the contents of `element`, one level deeper.
    ///
    /// - Throws: ``DERError/Code/depthExceeded`` past ``maximumDepth``.
    @inlinable
    public func contents(of element: DERElement, _ expected: @autoclosure () -> String) throws(DERError) -> DERReader {
        guard depth < maximumDepth else { throw DERError(.depthExceeded, at: element.offset, expected: expected()) }
        return DERReader(bytes, range: element.value, depth: depth + 1, maximumDepth: maximumDepth)
    }

    /// Requires the current structure to be fully read.
    ///
    /// - Throws: ``DERError/Code/trailingData`` at the first unread byte.
    @inlinable @inline(__always)
    public func finish(_ expected: @autoclosure () -> String) throws(DERError) {
        guard position >= end else { throw DERError(.trailingData, at: position, expected: "end of \(expected())") }
    }

    /// Reads an element tagged `tag` and runs `body` over its contents, which it must consume entirely.
    ///
    /// `body` receives this reader narrowed to the contents, one level deeper; afterwards the reader
    /// is past the element (also when `body` throws).
    ///
    /// - Returns: what `body` returns.
    /// - Throws: the errors of ``read(_:_:)``, ``contents(of:_:)``, `body`, and `.trailingData`.
    @inlinable @inline(__always)
    public mutating func nested<T>(
        _ tag: DERTag, _ expected: @autoclosure () -> String, _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        let element = try read(tag, expected())
        guard depth < maximumDepth else { throw DERError(.depthExceeded, at: element.offset, expected: expected()) }
        return try within(element.value, depth: depth + 1) { (inner: inout DERReader) throws(DERError) -> T in
            let result = try body(&inner)
            try inner.finish(expected())
            return result
        }
    }

    /// ``contents(of:_:)`` in place: runs `body` with this reader narrowed to the contents of
    /// `element` (an element read earlier from this reader), one level deeper, then restores it.
    /// Unlike ``nested(_:_:_:)`` the contents need not be read to their end.
    ///
    /// - Throws: ``DERError/Code/depthExceeded`` past ``maximumDepth``, and what `body` throws.
    @inlinable @inline(__always)
    public mutating func enter<T>(
        _ element: DERElement, _ expected: @autoclosure () -> String, _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        guard depth < maximumDepth else { throw DERError(.depthExceeded, at: element.offset, expected: expected()) }
        return try within(element.value, depth: depth + 1, body)
    }

    /// Calls `body` with the bytes at offsets `range` of ``bytes``, without copying them.
    ///
    /// - Precondition: `range` lies within ``bytes``.
    @inlinable
    public func withUnsafeBytes<R>(of range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        precondition(range.lowerBound >= bytes.startIndex && range.upperBound <= bytes.endIndex, "range outside the buffer")
        return try bytes.withUnsafeBufferPointer { whole in
            let base = bytes.startIndex
            return try body(UnsafeBufferPointer(rebasing: whole[(range.lowerBound - base)..<(range.upperBound - base)]))
        }
    }

    /// Runs `body` with this reader narrowed to `range` at nesting `depth`, then restores the
    /// reader's end and depth and moves it to `range.upperBound` if that is past where it was
    /// (also when `body` throws). Used to read a structure whose bounds are already known — the
    /// contents of an element read earlier — without copying the reader.
    ///
    /// - Precondition: `range` lies within ``bytes``; `depth` is not above ``maximumDepth``.
    @inlinable @inline(__always)
    public mutating func within<T>(
        _ range: Range<Int>, depth: Int, _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        precondition(range.lowerBound >= bytes.startIndex && range.upperBound <= bytes.endIndex, "range outside the buffer")
        let saved = (cursor: cursor, limit: limit, level: level)
        cursor = range.lowerBound
        limit = range.upperBound
        level = depth
        defer {
            cursor = Swift.max(saved.cursor, range.upperBound)
            limit = saved.limit
            level = saved.level
        }
        return try body(&self)
    }

    /// Reads `range` of ``bytes`` as exactly one element tagged `tag` with nothing after it, running
    /// `body` over its contents, with nesting counted from 0 — what ``parse(_:_:_:maximumDepth:_:)-(ArraySlice<UInt8>,_,_,_,_)``
    /// does over `bytes[range]`, without making a new reader.
    ///
    /// - Throws: ``DERError`` for any rule broken, including `.trailingData` after the element.
    @inlinable
    public mutating func parse<T>(
        _ range: Range<Int>, _ tag: DERTag, _ expected: @autoclosure () -> String,
        _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        try within(range, depth: 0) { (reader: inout DERReader) throws(DERError) -> T in
            let result = try reader.nested(tag, expected(), body)
            try reader.finish(expected())
            return result
        }
    }

    /// ``nested(_:_:_:)`` when the element is present; `nil` without moving when the next tag differs.
    @inlinable @inline(__always)
    public mutating func nestedOptional<T>(
        _ tag: DERTag, _ expected: @autoclosure () -> String, _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T? {
        guard peekTag() == tag else { return nil }
        return try nested(tag, expected(), body)
    }

    /// Reads a SEQUENCE and runs `body` over its contents (see ``nested(_:_:_:)``).
    @inlinable @inline(__always)
    public mutating func sequence<T>(
        _ expected: @autoclosure () -> String, _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        try nested(.sequence, expected(), body)
    }

    /// Reads `bytes` as exactly one element tagged `tag` with nothing after it, running `body` over
    /// its contents.
    ///
    /// - Throws: ``DERError`` for any rule broken, including `.trailingData` after the element.
    @inlinable
    public static func parse<T>(
        _ bytes: ArraySlice<UInt8>, _ tag: DERTag, _ expected: @autoclosure () -> String,
        maximumDepth: Int = DERReader.defaultMaximumDepth,
        _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        var reader = DERReader(bytes, maximumDepth: maximumDepth)
        let result = try reader.nested(tag, expected(), body)
        try reader.finish(expected())
        return result
    }

    /// ``parse(_:_:_:maximumDepth:_:)-(ArraySlice<UInt8>,_,_,_,_)`` over a whole array.
    @inlinable
    public static func parse<T>(
        _ bytes: [UInt8], _ tag: DERTag, _ expected: @autoclosure () -> String,
        maximumDepth: Int = DERReader.defaultMaximumDepth,
        _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        try parse(bytes[...], tag, expected(), maximumDepth: maximumDepth, body)
    }

    /// Calls `body` once per remaining element of the current structure, each read with ``readElement(_:)``.
    @inlinable
    public mutating func forEachElement(
        _ expected: @autoclosure () -> String, _ body: (DERElement) throws(DERError) -> Void
    ) throws(DERError) {
        while !isAtEnd { try body(try readElement(expected())) }
    }

    /// The contents bytes of `element` as a zero-copy slice of ``bytes``.
    @inlinable
    public func slice(_ element: DERElement) -> ArraySlice<UInt8> { bytes[element.value] }
}
