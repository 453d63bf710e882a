/// Base64 with the standard alphabet and padding (RFC 4648 4), strict on input.
public enum Base64 {
    private static let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    /// Encodes bytes with `=` padding.
    public static func encode<C: Collection<UInt8>>(_ bytes: C) -> String {
        Array(bytes).withUnsafeBytes { encode($0) }
    }

    /// Encodes bytes with `=` padding.
    public static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        let length = (bytes.count + 2) / 3 * 4
        return String(unsafeUninitializedCapacity: length) { out in
            let table = alphabet.utf8Start
            var o = 0
            var i = 0
            while i < bytes.count {
                let remaining = bytes.count - i
                let b0 = UInt32(bytes[i])
                let b1 = remaining > 1 ? UInt32(bytes[i + 1]) : 0
                let b2 = remaining > 2 ? UInt32(bytes[i + 2]) : 0
                let group = b0 << 16 | b1 << 8 | b2
                out[o] = table[Int(group >> 18 & 0x3F)]
                out[o + 1] = table[Int(group >> 12 & 0x3F)]
                out[o + 2] = remaining > 1 ? table[Int(group >> 6 & 0x3F)] : UInt8(ascii: "=")
                out[o + 3] = remaining > 2 ? table[Int(group & 0x3F)] : UInt8(ascii: "=")
                o += 4
                i += 3
            }
            return length
        }
    }

    /// Decodes padded base64.
    ///
    /// - Returns: `nil` unless the text is a multiple of four symbols of the standard alphabet, with
    ///   padding only at the end (at most two `=`) and zero unused bits before it.
    public static func decode(_ text: String) -> [UInt8]? { decode(bytes: Array(text.utf8)) }

    /// Decodes padded base64 given as ASCII bytes (same rules as ``decode(_:)``).
    public static func decode(bytes utf8: [UInt8]) -> [UInt8]? {
        utf8.withUnsafeBufferPointer { decode(symbols: $0) }
    }

    /// ``decode(bytes:)`` over a buffer: four symbols at a time through the table, the validity of a
    /// run of groups checked once (a symbol outside the alphabet has the table's bit 7 set), the last
    /// group apart when it is padded (issue 32: PEM and base64 were 10 % of `certpath batch`).
    package static func decode(symbols input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let count = input.count
        guard count % 4 == 0 else { return nil }
        // Not through unsafeUninitializedCapacity: with capacity 0 it writes the count into the
        // shared empty-array storage, a data race ThreadSanitizer reports under concurrent tests.
        guard count > 0 else { return [] }
        let padding = input[count - 1] != UInt8(ascii: "=") ? 0 : input[count - 2] != UInt8(ascii: "=") ? 1 : 2
        let length = count / 4 * 3 - padding
        var valid = true
        let decoded = [UInt8](unsafeUninitializedCapacity: length) { out, initialized in
            decodeTable.withUnsafeBufferPointer { table in
                let unpaddedEnd = padding == 0 ? count : count - 4
                var i = 0, o = 0
                var invalid: UInt8 = 0
                while i < unpaddedEnd {
                    let a = table[Int(input[i])], b = table[Int(input[i + 1])]
                    let c = table[Int(input[i + 2])], d = table[Int(input[i + 3])]
                    invalid |= a | b | c | d
                    let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    out[o] = UInt8(truncatingIfNeeded: group >> 16)
                    out[o + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    out[o + 2] = UInt8(truncatingIfNeeded: group)
                    i += 4
                    o += 3
                }
                if padding > 0 {
                    // "xx==" or "xxx=": the symbols before the padding, whose unused bits must be
                    // zero (RFC 4648 3.5); `=` before them is outside the table (0xFF), hence refused.
                    let a = table[Int(input[i])], b = table[Int(input[i + 1])]
                    let c = padding == 1 ? table[Int(input[i + 2])] : 0
                    invalid |= a | b | c
                    let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
                    out[o] = UInt8(truncatingIfNeeded: group >> 16)
                    if padding == 1 {
                        out[o + 1] = UInt8(truncatingIfNeeded: group >> 8)
                        if c & 0x03 != 0 { invalid |= 0x80 }
                    } else if b & 0x0F != 0 {
                        invalid |= 0x80
                    }
                    o += 3 - padding
                }
                valid = invalid & 0x80 == 0
                initialized = o
            }
        }
        return valid ? decoded : nil
    }

    /// Symbol values by byte, `0xFF` for bytes outside the standard alphabet.
    static let decodeTable: [UInt8] = (0..<256).map { symbolValue(UInt8($0)).map(UInt8.init) ?? 0xFF }

    private static func symbolValue(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(c - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(c - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}

