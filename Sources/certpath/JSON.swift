// JSON output with keys in a fixed, documented order (docs/CLI.md), so output is stable and diffable.

/// A JSON value whose objects keep their keys in insertion order.
enum JSON {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// `.string` or `.null`.
    static func optional(_ text: String?) -> JSON { text.map(JSON.string) ?? .null }
    /// `.int` or `.null`.
    static func optional(_ number: Int?) -> JSON { number.map(JSON.int) ?? .null }
    /// An array of strings.
    static func strings(_ texts: [String]) -> JSON { .array(texts.map(JSON.string)) }

    /// One line, no spaces (JSON lines output).
    var compact: String {
        var out = ""
        write(to: &out, indent: nil, level: 0)
        return out
    }

    /// Indented by two spaces, one member per line.
    var pretty: String {
        var out = ""
        write(to: &out, indent: "  ", level: 0)
        return out
    }

    private func write(to out: inout String, indent: String?, level: Int) {
        func newline(_ level: Int) {
            guard let indent else { return }
            out += "\n" + String(repeating: indent, count: level)
        }
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .string(let value): JSON.quote(value, into: &out)
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                newline(level + 1)
                item.write(to: &out, indent: indent, level: level + 1)
            }
            newline(level)
            out += "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                newline(level + 1)
                JSON.quote(key, into: &out)
                out += indent == nil ? ":" : ": "
                value.write(to: &out, indent: indent, level: level + 1)
            }
            newline(level)
            out += "}"
        }
    }

    /// RFC 8259 7 string escaping; every control character is escaped, so certificate text cannot
    /// break a line of JSON-lines output.
    private static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
