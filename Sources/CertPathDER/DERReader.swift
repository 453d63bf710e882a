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
///
/// ## Storage and memory safety
///
/// The reader reads the input through a pointer to the storage of ``bytes`` (`base`: the address of
/// offset 0, so the byte at offset `i` is `base[i]`), not through `ArraySlice` subscripts, which
/// would check every access against the slice's bounds a second time and load its header. This is
/// memory-safe for any input because:
///
/// - the pointer's target stays valid and unchanged for the reader's whole life: ``bytes`` is a
///   stored property, a strong reference to the array storage the pointer points into (an
///   `ArraySlice` always has native contiguous storage, and `withUnsafeBufferPointer` on it hands
///   out that storage itself, not a temporary copy). Nothing writes through that reference, and any
///   other owner that mutates the array copies it first (copy on write: the storage is not
///   uniquely referenced while a reader holds it). Every dereference happens inside a method of
///   the reader, while `self`, and so ``bytes``, is alive.
/// - every access is in bounds: the reader keeps `bytes.startIndex <= position <= end <=
///   bytes.endIndex` (established by the initializers, kept by ``readElement(_:)``, which reads
///   only below `end` and moves the cursor only within it, and by ``within(_:depth:_:)``, which
///   traps on a range outside ``bytes``), and each read of a byte at offset `i` is preceded by a
///   check that `position <= i < end`. Methods that take an element or a range from the caller
///   (``boolean(_:_:)``, ``time(_:_:)``, ``withUnsafeBytes(of:_:)``…) trap, like an out-of-bounds
///   subscript would, when it lies outside ``bytes``, so a fabricated ``DERElement`` cannot reach
///   outside the buffer either.
@usableFromInline package struct DERReader: @unchecked Sendable {  // `base` points into the immutable storage of `bytes`
    /// The default limit on nesting: X.509 certificates nest about 10 deep; 32 leaves room for
    /// directoryName constraints and CRL entry extensions while bounding recursion on hostile input.
    @usableFromInline package static let defaultMaximumDepth = 32

    /// The input the views refer to. Offsets are indices of this slice, so for a reader made from an
    /// `Array` they count from its first byte, and for one made from an `ArraySlice` they are the
    /// slice's own (base-array) indices.
    @usableFromInline package let bytes: ArraySlice<UInt8>
    /// The address of offset 0 of ``bytes`` (the byte at offset `i` is `base[i]`); see "Storage and
    /// memory safety" above. Read only at offsets checked to lie within `position..<end` or ``bytes``.
    @usableFromInline
    let base: UnsafePointer<UInt8>
    /// `bytes.startIndex` and `bytes.endIndex`, kept as plain integers for the bounds checks.
    @usableFromInline
    let bufferStart: Int
    @usableFromInline
    let bufferEnd: Int
    /// Offset of the next unread byte.
    @inlinable
    package var position: Int { cursor }
    @usableFromInline
    var cursor: Int
    /// Offset one past the last byte of the current structure.
    @inlinable
    package var end: Int { limit }
    @usableFromInline
    var limit: Int
    /// Nesting depth of the current structure: 0 for the top level of the input.
    @inlinable
    package var depth: Int { level }
    @usableFromInline
    var level: Int
    /// Maximum nesting depth; entering a structure deeper than this throws ``DERError/Code/depthExceeded``.
    @usableFromInline package let maximumDepth: Int

    /// Creates a reader over all of `bytes`, at depth 0.
    ///
    /// - Parameters:
    ///   - bytes: DER input; shared, not copied.
    ///   - maximumDepth: nesting limit (default ``defaultMaximumDepth``).
    @inlinable
    package init(_ bytes: [UInt8], maximumDepth: Int = DERReader.defaultMaximumDepth) {
        self.init(bytes[...], maximumDepth: maximumDepth)
    }

    /// Creates a reader over all of `bytes` (offsets are the slice's indices), at `depth`.
    @inlinable
    package init(_ bytes: ArraySlice<UInt8>, depth: Int = 0, maximumDepth: Int = DERReader.defaultMaximumDepth) {
        self.bytes = bytes
        self.base = DERReader.baseAddress(of: bytes)
        self.bufferStart = bytes.startIndex
        self.bufferEnd = bytes.endIndex
        self.cursor = bytes.startIndex
        self.limit = bytes.endIndex
        self.level = depth
        self.maximumDepth = maximumDepth
    }

    /// Creates a reader over `range` of `bytes` at `depth` (used for contents of an element already read).
    ///
    /// - Precondition: `range` lies within `bytes`.
    @inlinable
    package init(_ bytes: ArraySlice<UInt8>, range: Range<Int>, depth: Int, maximumDepth: Int = DERReader.defaultMaximumDepth) {
        precondition(range.lowerBound >= bytes.startIndex && range.upperBound <= bytes.endIndex, "range outside the buffer")
        self.bytes = bytes
        self.base = DERReader.baseAddress(of: bytes)
        self.bufferStart = bytes.startIndex
        self.bufferEnd = bytes.endIndex
        self.cursor = range.lowerBound
        self.limit = range.upperBound
        self.level = depth
        self.maximumDepth = maximumDepth
    }

    /// The address of offset 0 of `bytes`: its first element's address minus its start index
    /// (the address of element 0 of the array it is a slice of). `ArraySlice` storage is always
    /// native and contiguous, so this is the storage `bytes` keeps alive, not a temporary copy.
    @inlinable
    static func baseAddress(of bytes: ArraySlice<UInt8>) -> UnsafePointer<UInt8> {
        bytes.withUnsafeBufferPointer { buffer in
            // An empty buffer may have no address; nothing is ever read through it then.
            (buffer.baseAddress ?? DERReader.placeholder) - bytes.startIndex
        }
    }

    /// An address for readers over empty input (never dereferenced: such a reader has no offset to read).
    @usableFromInline
    static var placeholder: UnsafePointer<UInt8> { UnsafePointer(bitPattern: MemoryLayout<UInt64>.alignment)! }

    /// Traps unless `range` lies within ``bytes``: what guards every access at offsets a caller
    /// supplies (an element of this reader always passes).
    @inlinable @inline(__always)
    func requireWithinBuffer(_ range: Range<Int>) {
        requireWithinBuffer(range.lowerBound, range.upperBound)
    }

    /// Traps unless `lower...upper` (`lower <= upper`) lies within ``bytes``.
    @inlinable @inline(__always)
    func requireWithinBuffer(_ lower: Int, _ upper: Int) {
        precondition(lower >= bufferStart && lower <= upper && upper <= bufferEnd, "range outside the buffer")
    }

    /// Whether every byte of the current structure has been read.
    @inlinable
    package var isAtEnd: Bool { position >= end }

    /// The tag of the next element, or `nil` at the end of the structure. Does not validate it.
    @inlinable @inline(__always)
    package func peekTag() -> DERTag? {
        cursor < limit ? DERTag(rawValue: base[cursor]) : nil
    }

    /// Reads the next element, whatever its tag, enforcing the DER header rules.
    ///
    /// - Parameter expected: what the caller is reading, for error messages (`"Extension"`).
    /// - Returns: the element; the cursor moves past it.
    /// - Throws: ``DERError`` with `.truncated`, `.highTagNumber`, `.indefiniteLength`,
    ///   `.nonMinimalLength` or `.lengthTooLarge`.
    @inlinable @inline(__always)
    package mutating func readElement(_ expected: @autoclosure () -> String) throws(DERError) -> DERElement {
        guard _fastPath(cursor < limit) else { throw DERReader.headerError(.truncatedTag, at: cursor, length: 0, expected) }
        return try readElement(identifier: base[cursor], expected)
    }

    /// The DER header rules (X.690 8.1.2, 8.1.3, 10.1), in one place: reads the element at the
    /// cursor (below ``end``), whose identifier octet is `tag`. Low tag numbers only; definite
    /// lengths of at most 4 octets in the fewest octets, the short form below 128; contents within
    /// the current structure. When the caller compared `tag` with a constant, the tag rule folds away.
    ///
    /// Inlined: a call per element (some 100 in a certificate) cost more than the larger code.
    /// Broken rules are marked unlikely, so that their code goes out of the way of the reading.
    @inlinable @inline(__always)
    mutating func readElement(identifier tag: UInt8, _ expected: () -> String) throws(DERError) -> DERElement {
        let start = cursor
        // Every broken rule leaves this block with `problem` and `offset` set, for one throw below.
        var problem = HeaderProblem.highTagNumber
        var offset = start
        var length = 0
        decode: do {
            guard _fastPath(tag & 0x1F != 0x1F) else { break decode }
            var index = start &+ 1
            offset = index
            problem = .truncatedLength
            guard _fastPath(index < limit) else { break decode }
            let first = base[index]
            index &+= 1
            length = Int(first)
            if first >= 0x80 {
                // Long form: 1 to 4 length octets, the first not zero, for a length of at least 128.
                let count = Int(first & 0x7F)
                problem = count == 0 ? .indefiniteLength : .lengthTooLarge
                guard _fastPath(count != 0 && count <= 4) else { break decode }
                offset = index
                problem = .truncatedLength
                guard _fastPath(limit &- index >= count) else { break decode }
                offset = index &- 1
                problem = .leadingZeroLength
                guard _fastPath(base[index] != 0) else { break decode }
                length = 0  // at most 4 octets: no overflow
                let lengthEnd = index &+ count
                while index < lengthEnd {
                    length = length &<< 8 | Int(base[index])
                    index &+= 1
                }
                problem = .shortLengthInLongForm
                guard _fastPath(length >= 0x80) else { break decode }
            }
            offset = start
            problem = .truncatedContents
            guard _fastPath(limit &- index >= length) else { break decode }
            cursor = index &+ length
            return DERElement(tag: DERTag(rawValue: tag), offset: start, value: Range(uncheckedBounds: (index, cursor)))
        }
        throw DERReader.headerError(problem, at: offset, length: length, expected)
    }

    /// Which header rule ``readElement(_:)`` found broken.
    @usableFromInline
    enum HeaderProblem {
        case truncatedTag, highTagNumber, truncatedLength, indefiniteLength, lengthTooLarge
        case leadingZeroLength, shortLengthInLongForm, truncatedContents
    }

    /// The error ``readElement(_:)`` throws for `problem` at `offset` (`length`: the contents length
    /// read, for `.truncatedContents`).
    @usableFromInline @inline(never)
    static func headerError(_ problem: HeaderProblem, at offset: Int, length: Int, _ expected: () -> String) -> DERError {
        switch problem {
        case .truncatedTag: return DERError(.truncated, at: offset, expected: expected())
        case .highTagNumber: return DERError(.highTagNumber, at: offset, expected: expected())
        case .truncatedLength: return DERError(.truncated, at: offset, expected: "length of \(expected())")
        case .indefiniteLength: return DERError(.indefiniteLength, at: offset, expected: "definite length of \(expected())")
        case .lengthTooLarge: return DERError(.lengthTooLarge, at: offset, expected: "length of \(expected())")
        case .leadingZeroLength: return DERError(.nonMinimalLength, at: offset, expected: "minimal length of \(expected())")
        case .shortLengthInLongForm: return DERError(.nonMinimalLength, at: offset, expected: "short-form length of \(expected())")
        case .truncatedContents: return DERError(.truncated, at: offset, expected: "\(length) bytes of \(expected())")
        }
    }

    /// Reads the next element and requires its tag to be `tag`.
    ///
    /// - Throws: ``DERError/Code/unexpectedTag`` when another tag is there (the cursor does not move),
    ///   `.truncated` at the end of the structure, and the header errors of ``readElement(_:)``.
    @inlinable @inline(__always)
    package mutating func read(_ tag: DERTag, _ expected: @autoclosure () -> String) throws(DERError) -> DERElement {
        guard _fastPath(cursor < limit && base[cursor] == tag.rawValue) else { throw tagError(tag, expected) }
        return try readElement(identifier: tag.rawValue, expected)
    }

    /// The error ``read(_:_:)`` throws when the next element is missing or has another tag.
    @usableFromInline @inline(never)
    func tagError(_ tag: DERTag, _ expected: () -> String) -> DERError {
        guard let next = peekTag() else { return DERError(.truncated, at: position, expected: "\(tag) (\(expected()))") }
        return DERError(.unexpectedTag, at: position, expected: "\(tag) (\(expected())), found \(next)")
    }

    /// Reads the next element if its tag is `tag`; returns `nil` (without moving) otherwise or at the end.
    @inlinable @inline(__always)
    package mutating func readOptional(_ tag: DERTag, _ expected: @autoclosure () -> String) throws(DERError) -> DERElement? {
        guard cursor < limit, base[cursor] == tag.rawValue else { return nil }
        return try readElement(identifier: tag.rawValue, expected)
    }

    /// A reader over the contents of `element`, one level deeper.
    ///
    /// - Throws: ``DERError/Code/depthExceeded`` past ``maximumDepth``.
    @inlinable
    package func contents(of element: DERElement, _ expected: @autoclosure () -> String) throws(DERError) -> DERReader {
        guard _fastPath(depth < maximumDepth) else { throw DERReader.failure(.depthExceeded, at: element.offset) { expected() } }
        requireWithinBuffer(element.value)
        return DERReader(sharing: self, range: element.value, depth: depth + 1)
    }

    /// A reader over `range` of `reader`'s buffer at `depth`, sharing its storage and address.
    ///
    /// - Precondition: `range` lies within the buffer (checked by the caller).
    @inlinable @inline(__always)
    init(sharing reader: DERReader, range: Range<Int>, depth: Int) {
        self.bytes = reader.bytes
        self.base = reader.base
        self.bufferStart = reader.bufferStart
        self.bufferEnd = reader.bufferEnd
        self.cursor = range.lowerBound
        self.limit = range.upperBound
        self.level = depth
        self.maximumDepth = reader.maximumDepth
    }

    /// Requires the current structure to be fully read.
    ///
    /// - Throws: ``DERError/Code/trailingData`` at the first unread byte.
    @inlinable @inline(__always)
    package func finish(_ expected: @autoclosure () -> String) throws(DERError) {
        guard _fastPath(position >= end) else { throw DERReader.failure(.trailingData, at: position) { "end of \(expected())" } }
    }

    /// Reads an element tagged `tag` and runs `body` over its contents, which it must consume entirely.
    ///
    /// `body` receives this reader narrowed to the contents, one level deeper; afterwards the reader
    /// is past the element (also when `body` throws).
    ///
    /// - Returns: what `body` returns.
    /// - Throws: the errors of ``read(_:_:)``, ``contents(of:_:)``, `body`, and `.trailingData`.
    @inlinable @inline(__always)
    package mutating func nested<T>(
        _ tag: DERTag, _ expected: @autoclosure () -> String, _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        let element = try read(tag, expected())
        guard _fastPath(depth < maximumDepth) else { throw DERReader.failure(.depthExceeded, at: element.offset) { expected() } }
        // An element this reader just read lies within its buffer: no bounds check needed.
        return try narrowed(to: element.value, depth: depth + 1) { (inner: inout DERReader) throws(DERError) -> T in
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
    package mutating func enter<T>(
        _ element: DERElement, _ expected: @autoclosure () -> String, _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        guard _fastPath(depth < maximumDepth) else { throw DERReader.failure(.depthExceeded, at: element.offset) { expected() } }
        return try within(element.value, depth: depth + 1, body)
    }

    /// Where reading resumes after a structure entered with ``descend(into:_:)`` or
    /// ``descend(_:_:)``: the offset past the element and the enclosing structure's end and depth.
    @frozen
    @usableFromInline package struct Scope: Sendable {
        @usableFromInline let resume: Int
        @usableFromInline let limit: Int
        @usableFromInline let level: Int

        @inlinable
        init(resume: Int, limit: Int, level: Int) {
            self.resume = resume
            self.limit = limit
            self.level = level
        }
    }

    /// Enters `element` (an element read earlier from this reader) without a closure: narrows this
    /// reader to its contents, one level deeper, and returns what ``ascend(_:_:)`` needs to come back.
    /// What ``enter(_:_:_:)`` does, for code that reads a structure in one function.
    ///
    /// If an error is thrown before ``ascend(_:_:)``, the reader stays inside the element; callers
    /// that stop at the first error (every parser here) never read it again.
    ///
    /// - Throws: ``DERError/Code/depthExceeded`` past ``maximumDepth``.
    @inlinable @inline(__always)
    package mutating func descend(into element: DERElement, _ expected: @autoclosure () -> String) throws(DERError) -> Scope {
        guard _fastPath(level < maximumDepth) else { throw DERReader.failure(.depthExceeded, at: element.offset) { expected() } }
        requireWithinBuffer(element.value)
        return narrow(to: element.value, resume: Swift.max(cursor, element.value.upperBound))
    }

    /// Reads an element tagged `tag` and enters it (``read(_:_:)`` then ``descend(into:_:)``): the
    /// closure-free form of ``nested(_:_:_:)``, ended by ``ascend(_:_:)``.
    ///
    /// - Throws: the errors of ``read(_:_:)`` and ``DERError/Code/depthExceeded``.
    @inlinable @inline(__always)
    package mutating func descend(_ tag: DERTag, _ expected: @autoclosure () -> String) throws(DERError) -> Scope {
        let element = try read(tag, expected())
        guard _fastPath(level < maximumDepth) else { throw DERReader.failure(.depthExceeded, at: element.offset) { expected() } }
        return narrow(to: element.value, resume: cursor)  // an element just read lies within the buffer
    }

    /// ``within(_:depth:_:)`` without a closure: narrows this reader to `range` at nesting `depth`
    /// (a structure whose bounds are already known, such as an extnValue read as a document of its
    /// own), until ``ascend(_:)`` or ``ascend(_:_:)``.
    ///
    /// - Precondition: `range` lies within ``bytes``; `depth` is not above ``maximumDepth``.
    @inlinable @inline(__always)
    package mutating func descend(to range: Range<Int>, depth: Int) -> Scope {
        requireWithinBuffer(range)
        precondition(depth <= maximumDepth, "depth above the maximum")
        let scope = narrow(to: range, resume: Swift.max(cursor, range.upperBound))
        level = depth
        return scope
    }

    /// Narrows to `range` (within the current structure or checked to lie within ``bytes``), one
    /// level deeper; the scope returned resumes at `resume` (past the element).
    @inlinable @inline(__always)
    mutating func narrow(to range: Range<Int>, resume: Int) -> Scope {
        let scope = Scope(resume: resume, limit: limit, level: level)
        cursor = range.lowerBound
        limit = range.upperBound
        level &+= 1
        return scope
    }

    /// Requires the structure entered with `scope` to be read to its end, then returns to the
    /// enclosing structure, past the element.
    ///
    /// - Throws: ``DERError/Code/trailingData`` at the first unread byte.
    @inlinable @inline(__always)
    package mutating func ascend(_ scope: Scope, _ expected: @autoclosure () -> String) throws(DERError) {
        try finish(expected())
        ascend(scope)
    }

    /// Returns to the enclosing structure of `scope`, past the element, whether or not its contents
    /// were read to their end (as ``enter(_:_:_:)`` does).
    ///
    /// - Precondition: `scope` comes from this reader (checked: its offsets lie within ``bytes``).
    @inlinable @inline(__always)
    package mutating func ascend(_ scope: Scope) {
        // Each offset on its own: after a structure read with ``descend(to:depth:)`` from a range
        // past the enclosing end, the reader resumes past that end (and reads nothing more there).
        precondition(scope.resume >= bufferStart && scope.resume <= bufferEnd && scope.limit >= bufferStart
                     && scope.limit <= bufferEnd, "scope outside the buffer")
        cursor = scope.resume
        limit = scope.limit
        level = scope.level
    }

    /// Calls `body` with the bytes at offsets `range` of ``bytes``, without copying them.
    ///
    /// - Precondition: `range` lies within ``bytes``.
    @inlinable @inline(__always)
    package func withUnsafeBytes<R>(of range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        requireWithinBuffer(range)
        return try body(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// The byte at `offset`, which the caller has checked lies within `position..<end` or within
    /// ``bytes`` (``requireWithinBuffer(_:)``).
    @inlinable @inline(__always)
    func byte(at offset: Int) -> UInt8 { base[offset] }

    /// How many elements the rest of the current structure holds, counted from their headers alone
    /// and at most `maximum`: a capacity for the list about to be decoded from them, so that it is
    /// allocated once. Nothing is validated and the cursor does not move; counting stops (returning
    /// what it counted) at a header that does not read, which the reading that follows reports.
    ///
    /// - Complexity: O(min(elements, `maximum`)).
    @inlinable
    package func remainingElementCount(atMost maximum: Int) -> Int {
        var count = 0
        var index = cursor
        while count < maximum, limit &- index >= 2 {
            var length = Int(base[index &+ 1])
            index &+= 2
            if length >= 0x80 {
                let octets = length & 0x7F
                guard octets >= 1, octets <= 4, limit &- index >= octets else { break }
                length = 0
                for _ in 0..<octets {
                    length = length &<< 8 | Int(base[index])
                    index &+= 1
                }
            }
            guard limit &- index >= length else { break }
            index &+= length
            count &+= 1
        }
        return count
    }

    /// Runs `body` with this reader narrowed to `range` at nesting `depth`, then restores the
    /// reader's end and depth and moves it to `range.upperBound` if that is past where it was
    /// (also when `body` throws). Used to read a structure whose bounds are already known — the
    /// contents of an element read earlier — without copying the reader.
    ///
    /// - Precondition: `range` lies within ``bytes``; `depth` is not above ``maximumDepth``.
    @inlinable @inline(__always)
    package mutating func within<T>(
        _ range: Range<Int>, depth: Int, _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        requireWithinBuffer(range)
        return try narrowed(to: range, depth: depth, body)
    }

    /// ``within(_:depth:_:)`` for a range known to lie within ``bytes`` (an element this reader read).
    @inlinable @inline(__always)
    mutating func narrowed<T>(
        to range: Range<Int>, depth: Int, _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
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
    package mutating func parse<T>(
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
    package mutating func nestedOptional<T>(
        _ tag: DERTag, _ expected: @autoclosure () -> String, _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T? {
        guard peekTag() == tag else { return nil }
        return try nested(tag, expected(), body)
    }

    /// Reads a SEQUENCE and runs `body` over its contents (see ``nested(_:_:_:)``).
    @inlinable @inline(__always)
    package mutating func sequence<T>(
        _ expected: @autoclosure () -> String, _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        try nested(.sequence, expected(), body)
    }

    /// Reads `bytes` as exactly one element tagged `tag` with nothing after it, running `body` over
    /// its contents.
    ///
    /// - Throws: ``DERError`` for any rule broken, including `.trailingData` after the element.
    @inlinable
    package static func parse<T>(
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
    package static func parse<T>(
        _ bytes: [UInt8], _ tag: DERTag, _ expected: @autoclosure () -> String,
        maximumDepth: Int = DERReader.defaultMaximumDepth,
        _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        try parse(bytes[...], tag, expected(), maximumDepth: maximumDepth, body)
    }

    /// Calls `body` once per remaining element of the current structure, each read with ``readElement(_:)``.
    @inlinable
    package mutating func forEachElement(
        _ expected: @autoclosure () -> String, _ body: (DERElement) throws(DERError) -> Void
    ) throws(DERError) {
        while !isAtEnd { try body(try readElement(expected())) }
    }

    /// The contents bytes of `element` as a zero-copy slice of ``bytes``.
    @inlinable
    package func slice(_ element: DERElement) -> ArraySlice<UInt8> { bytes[element.value] }
}
