/// The top-level object of one `certpath batch` line (RFC 8259), read straight from its UTF-8 bytes.
///
/// Replaces `JSONSerialization` (one `NSDictionary` of bridged strings per line, and one more parse per
/// member name for the duplicate check), which cost more than the chain's two signature checks
/// (Benchmarks/README.md, "batch at the floor"). The whole line is checked against RFC 8259's
/// grammar; only the top-level members are kept, string values decoded to UTF-8 bytes, every other
/// value (nested objects included) checked and skipped without recursion, so a deeply nested line
/// cannot exhaust the stack.
struct BatchLine {
    /// A top-level member's value, as far as `batch` needs to know it.
    enum Value {
        /// A string, its escapes decoded, as UTF-8 bytes.
        case string([UInt8])
        /// An array; each item's bytes when it is a string, `nil` when it is not.
        case array([[UInt8]?])
        /// `null`.
        case null
        /// A number, `true`, `false` or an object.
        case other
    }

    /// Why a line is not one object of RFC 8259 JSON.
    enum Failure: Error {
        /// Not JSON at all (a syntax error anywhere in the line, a lone surrogate escape, a control
        /// character in a string): `offset` is the byte, from 0, where reading stopped (the escape's
        /// backslash for a bad escape), the line's length when it ends inside a value.
        case syntax(offset: Int)
        /// JSON, but not an object.
        case notAnObject
    }

    /// A syntax error of the reader, given its offset by ``init(_:)``.
    private struct SyntaxError: Error {}

    /// The members in line order, names decoded (escapes included).
    private(set) var members: [(name: String, value: Value)] = []
    /// The first name given twice at the top level (RFC 8259 4: names SHOULD be unique), if any.
    private(set) var repeatedName: String?

    /// The value of the member `name`, or `nil` when absent.
    subscript(name: String) -> Value? {
        members.first { $0.name == name }?.value
    }

    /// U+FEFF in UTF-8, which a line may start with (RFC 8259 8.1 lets a parser ignore it).
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Reads the line `bytes` (valid UTF-8; a byte order mark at its start is ignored, RFC 8259 8.1).
    ///
    /// - Throws: ``Failure/syntax(offset:)`` when the bytes are not one JSON value with only whitespace around it,
    ///   ``Failure/notAnObject`` when they are an array; a top-level string, number or literal is a
    ///   syntax error, as for `JSONSerialization` without `.fragmentsAllowed`.
    init(_ bytes: [UInt8]) throws(Failure) {
        var reader = Reader(bytes: bytes)
        let isObject: Bool
        do throws(SyntaxError) {
            isObject = try read(&reader)
        } catch {
            throw .syntax(offset: reader.index)
        }
        guard isObject else { throw .notAnObject }
    }

    /// Reads the whole line from `reader`, keeping the top-level members; `false` for a top-level array.
    private mutating func read(_ reader: inout Reader) throws(SyntaxError) -> Bool {
        let bytes = reader.bytes
        var seenNames = Set<String>()
        // A byte order mark before the text is ignored (RFC 8259 8.1 allows it; an editor saving
        // UTF-8 may add one to the first line, and `cat` keeps it at the start of a later one).
        if bytes.starts(with: Self.byteOrderMark) { reader.index = Self.byteOrderMark.count }
        reader.skipWhitespace()
        switch reader.peek {
        case UInt8(ascii: "{"): break
        case UInt8(ascii: "["):
            try reader.skipValue()
            reader.skipWhitespace()
            guard reader.atEnd else { throw SyntaxError() }
            return false
        default: throw SyntaxError()
        }
        reader.index += 1
        reader.skipWhitespace()
        if reader.peek == UInt8(ascii: "}") {
            reader.index += 1
        } else {
            while true {
                reader.skipWhitespace()
                guard reader.peek == UInt8(ascii: "\"") else { throw SyntaxError() }
                let name = String(decoding: try reader.string(), as: UTF8.self)
                reader.skipWhitespace()
                guard reader.peek == UInt8(ascii: ":") else { throw SyntaxError() }
                reader.index += 1
                reader.skipWhitespace()
                let value = try reader.memberValue()
                // A set, not a scan of the members: a line of n members costs O(n), not O(n²) (a
                // reviewer's 40,000-member line took 50 s).
                if repeatedName == nil, !seenNames.insert(name).inserted { repeatedName = name }
                members.append((name, value))
                reader.skipWhitespace()
                if reader.peek == UInt8(ascii: ",") {
                    reader.index += 1
                    continue
                }
                guard reader.peek == UInt8(ascii: "}") else { throw SyntaxError() }
                reader.index += 1
                break
            }
        }
        reader.skipWhitespace()
        guard reader.atEnd else { throw SyntaxError() }
        return true
    }

    /// A cursor over the line's bytes.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index >= bytes.count }
        /// The byte at the cursor, 0 at the end (never valid where a token is expected).
        var peek: UInt8 { index < bytes.count ? bytes[index] : 0 }

        /// RFC 8259 2: space, tab, LF, CR.
        mutating func skipWhitespace() {
            while index < bytes.count {
                let byte = bytes[index]
                guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
                index += 1
            }
        }

        /// A top-level member's value: strings and arrays of strings kept, the rest checked and skipped.
        mutating func memberValue() throws(SyntaxError) -> Value {
            switch peek {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "n"):
                try literal("null")
                return .null
            case UInt8(ascii: "["):
                index += 1
                var items: [[UInt8]?] = []
                skipWhitespace()
                if peek == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                }
                while true {
                    skipWhitespace()
                    if peek == UInt8(ascii: "\"") {
                        items.append(try string())
                    } else {
                        try skipValue()
                        items.append(nil)
                    }
                    skipWhitespace()
                    if peek == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    guard peek == UInt8(ascii: "]") else { throw SyntaxError() }
                    index += 1
                    return .array(items)
                }
            default:
                try skipValue()
                return .other
            }
        }

        /// `true`, `false` or `null` spelled exactly.
        mutating func literal(_ word: StaticString) throws(SyntaxError) {
            let count = word.utf8CodeUnitCount
            // A wrong spelling is reported at the literal's start; the line ending inside a right one, at its end.
            for offset in 0..<min(count, bytes.count - index) where bytes[index + offset] != word.utf8Start[offset] {
                throw SyntaxError()
            }
            guard index + count <= bytes.count else {
                index = bytes.count
                throw SyntaxError()
            }
            index += count
        }

        /// Any value (RFC 8259 3), checked and skipped; containers with an explicit stack, no recursion.
        mutating func skipValue() throws(SyntaxError) {
            var open: [UInt8] = []  // the closing bracket each open container expects
            while true {
                skipWhitespace()
                switch peek {
                case UInt8(ascii: "{"):
                    index += 1
                    skipWhitespace()
                    if peek == UInt8(ascii: "}") {
                        index += 1
                    } else {
                        open.append(UInt8(ascii: "}"))
                        try memberName()
                        continue
                    }
                case UInt8(ascii: "["):
                    index += 1
                    skipWhitespace()
                    if peek == UInt8(ascii: "]") {
                        index += 1
                    } else {
                        open.append(UInt8(ascii: "]"))
                        continue
                    }
                case UInt8(ascii: "\""): _ = try string()
                case UInt8(ascii: "t"): try literal("true")
                case UInt8(ascii: "f"): try literal("false")
                case UInt8(ascii: "n"): try literal("null")
                default: try number()
                }
                // After a complete value: close containers, or go on to the next item.
                while let closing = open.last {
                    skipWhitespace()
                    if peek == UInt8(ascii: ",") {
                        index += 1
                        if closing == UInt8(ascii: "}") { try memberName() }
                        break
                    }
                    guard peek == closing else { throw SyntaxError() }
                    index += 1
                    open.removeLast()
                }
                if open.isEmpty { return }
            }
        }

        /// `"name" :` inside a skipped object.
        mutating func memberName() throws(SyntaxError) {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw SyntaxError() }
            _ = try string()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw SyntaxError() }
            index += 1
        }

        /// RFC 8259 6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        mutating func number() throws(SyntaxError) {
            func digits() throws(SyntaxError) -> Int {
                let start = index
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                guard index > start else { throw SyntaxError() }
                return index - start
            }
            if peek == UInt8(ascii: "-") { index += 1 }
            if peek == UInt8(ascii: "0") {
                index += 1
            } else {
                _ = try digits()
            }
            if peek == UInt8(ascii: ".") {
                index += 1
                _ = try digits()
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                index += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
                _ = try digits()
            }
        }

        /// RFC 8259 7: a string at the cursor, its escapes decoded; a control character, a bad escape or
        /// a lone surrogate (`\ud800` not followed by a low surrogate escape) is a syntax error.
        mutating func string() throws(SyntaxError) -> [UInt8] {
            index += 1  // the opening quote
            var out: [UInt8] = []
            while true {
                // A run up to the next quote, backslash or control character, copied at once and
                // scanned without bounds checks (a PEM chain is kilobytes with a `\n` every 64).
                let start = index
                index = bytes.withUnsafeBufferPointer { buffer in
                    var position = start
                    // Eight bytes at a time while none of them stops the run (a byte below 0x20, a
                    // quote or a backslash; the usual bit tricks, exact for "is there one"); the
                    // word holding one is then read byte by byte below.
                    if let base = UnsafeRawPointer(buffer.baseAddress) {
                        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
                        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
                        while position + 8 <= buffer.count {
                            let word = base.loadUnaligned(fromByteOffset: position, as: UInt64.self)
                            if (word &- ones &* 0x20) & ~word & highs != 0 || hasZeroByte(word ^ (ones &* 0x22))
                                || hasZeroByte(word ^ (ones &* 0x5C)) { break }
                            position += 8
                        }
                    }
                    while position < buffer.count {
                        let byte = buffer[position]
                        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                        position += 1
                    }
                    return position
                }
                guard index < bytes.count else { throw SyntaxError() }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    if out.isEmpty {
                        out = Array(bytes[start..<index])
                    } else {
                        out.append(contentsOf: bytes[start..<index])
                    }
                    index += 1
                    return out
                }
                guard byte == UInt8(ascii: "\\") else { throw SyntaxError() }  // a control character
                if out.isEmpty { out.reserveCapacity(bytes.count - start) }
                out.append(contentsOf: bytes[start..<index])
                let backslash = index
                do throws(SyntaxError) {
                    try escape(into: &out)
                } catch {
                    // A bad escape is reported at its backslash; one the line ends inside, at the end.
                    if index < bytes.count { index = backslash }
                    throw error
                }
            }
        }

        /// The escape after the backslash at the cursor (RFC 8259 7), decoded and appended to `out`.
        private mutating func escape(into out: inout [UInt8]) throws(SyntaxError) {
            index += 1
            guard index < bytes.count else { throw SyntaxError() }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var value = try hex4()
                if (0xD800...0xDBFF).contains(value) {
                    guard peek == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else { throw SyntaxError() }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw SyntaxError() }
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(value) {
                    throw SyntaxError()
                }
                guard let scalar = Unicode.Scalar(value) else { throw SyntaxError() }
                out.append(contentsOf: UTF8.encode(scalar)!)
            default: throw SyntaxError()
            }
        }

        /// Four hex digits of a `\u` escape.
        mutating func hex4() throws(SyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard index < bytes.count else { throw SyntaxError() }  // the line ends inside the escape
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x41 + 10
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: throw SyntaxError()
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }
    }
}
