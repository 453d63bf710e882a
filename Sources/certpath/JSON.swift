// JSON output with keys in a fixed, documented order (docs/CLI.md), so output is stable and diffable.

/// A JSON value whose objects keep their keys in insertion order.
enum JSON {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])
    /// Members written into the enclosing object in place of this member, whose name is not
    /// written: `members`, with their compact text `compact` (`"a":"x","b":"y"`, no braces) made
    /// once, so what `batch` repeats on every line (a certificate's summary) is copied, not
    /// written again (issue 32). Outside an object it is written as the object of `members`.
    case spliced(members: [(String, JSON)], compact: [UInt8])

    /// Whether this is a ``spliced(members:compact:)`` of no members (which writes nothing).
    private var isEmptySplice: Bool {
        if case .spliced(let members, _) = self { return members.isEmpty }
        return false
    }

    /// ``spliced(members:compact:)`` of `members`.
    static func spliced(_ members: [(String, JSON)]) -> JSON {
        var compact: [UInt8] = []
        JSON.object(members).write(to: &compact, indent: nil, level: 0)
        return .spliced(members: members, compact: Array(compact.dropFirst().dropLast()))
    }

    /// `.string` or `.null`.
    static func optional(_ text: String?) -> JSON { text.map(JSON.string) ?? .null }
    /// `.int` or `.null`.
    static func optional(_ number: Int?) -> JSON { number.map(JSON.int) ?? .null }
    /// An array of strings.
    static func strings(_ texts: [String]) -> JSON { .array(texts.map(JSON.string)) }

    /// One line, no spaces (JSON lines output).
    var compact: String {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(to: &out, indent: nil, level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Indented by two spaces, one member per line.
    var pretty: String {
        var out: [UInt8] = []
        write(to: &out, indent: "  ", level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes the UTF-8 of the value to `out` (bytes, not a String: appending to a String scalar by
    /// scalar cost `batch` more than the chain's signature checks, Benchmarks/README.md).
    private func write(to out: inout [UInt8], indent: String?, level: Int) {
        func newline(_ level: Int) {
            guard let indent else { return }
            out.append(0x0A)
            for _ in 0..<level { out.append(contentsOf: indent.utf8) }
        }
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): out.append(contentsOf: String(value).utf8)
        case .string(let value): JSON.quote(value, into: &out)
        case .array(let items):
            guard !items.isEmpty else {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(level + 1)
                item.write(to: &out, indent: indent, level: level + 1)
            }
            newline(level)
            out.append(UInt8(ascii: "]"))
        case .spliced(let members, _):
            JSON.object(members).write(to: &out, indent: indent, level: level)
        case .object(let members):
            guard members.contains(where: { !$0.1.isEmptySplice }) else {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            var first = true
            func member(_ key: String, _ value: JSON) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                newline(level + 1)
                JSON.quote(key, into: &out)
                out.append(UInt8(ascii: ":"))
                if indent != nil { out.append(0x20) }
                value.write(to: &out, indent: indent, level: level + 1)
            }
            for (key, value) in members {
                guard case .spliced(let inner, let compact) = value else {
                    member(key, value)
                    continue
                }
                guard !inner.isEmpty else { continue }
                if indent == nil {
                    if !first { out.append(UInt8(ascii: ",")) }
                    first = false
                    out.append(contentsOf: compact)
                } else {
                    for (innerKey, innerValue) in inner { member(innerKey, innerValue) }
                }
            }
            newline(level)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The lowercase hex digit of `value` (0-15).
    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x61 + value - 10 }

    /// RFC 8259 7 string escaping; every control character is escaped (and U+2028, U+2029), so
    /// certificate text cannot break a line of JSON-lines output. Works on the UTF-8 bytes, copying
    /// runs that need no escape at once: the escaped characters are ASCII, or U+2028/U+2029
    /// (E2 80 A8/A9), which no other character's encoding contains.
    private static func quote(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var start = 0, index = 0
            while index < bytes.count {
                let byte = bytes[index]
                // Everything but these is copied as is, in runs.
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
                        || (byte == 0xE2 && index + 2 < bytes.count && bytes[index + 1] == 0x80
                            && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)) else {
                    index += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                switch byte {
                case 0xE2:
                    out.append(contentsOf: (bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                    index += 2
                case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
                case 0x0A: out.append(contentsOf: "\\n".utf8)
                case 0x0D: out.append(contentsOf: "\\r".utf8)
                case 0x09: out.append(contentsOf: "\\t".utf8)
                default:
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(hexDigit(byte >> 4))
                    out.append(hexDigit(byte & 0x0F))
                }
                index += 1
                start = index
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
