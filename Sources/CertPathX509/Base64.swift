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
        guard utf8.count % 4 == 0 else { return nil }
        // Not through unsafeUninitializedCapacity: with capacity 0 it writes the count into the
        // shared empty-array storage, a data race ThreadSanitizer reports under concurrent tests.
        guard !utf8.isEmpty else { return [] }
        var padding = 0
        if utf8.last == UInt8(ascii: "=") { padding = 1 }
        if padding == 1, utf8.count >= 2, utf8[utf8.count - 2] == UInt8(ascii: "=") { padding = 2 }
        let symbols = utf8.count - padding
        var valid = true
        let decoded = [UInt8](unsafeUninitializedCapacity: utf8.count / 4 * 3) { out, initialized in
            utf8.withUnsafeBufferPointer { input in
                var written = 0
                var group: UInt32 = 0
                for i in 0..<input.count {
                    let value: UInt32
                    if i >= symbols {
                        value = 0
                    } else {
                        let v = decodeTable[Int(input[i])]
                        if v == 0xFF { valid = false; break }
                        value = UInt32(v)
                    }
                    group = group << 6 | value
                    if i & 3 == 3 {
                        out[written] = UInt8(group >> 16 & 0xFF)
                        out[written + 1] = UInt8(group >> 8 & 0xFF)
                        out[written + 2] = UInt8(group & 0xFF)
                        written += 3
                        group = 0
                    }
                }
                initialized = written
            }
        }
        guard valid else { return nil }
        guard padding > 0 else { return decoded }
        // The dropped bytes must be zero: otherwise the last symbol carried non-zero unused bits.
        var out = decoded
        for _ in 0..<padding {
            guard out.removeLast() == 0 else { return nil }
        }
        return out
    }

    /// Symbol values by byte, `0xFF` for bytes outside the standard alphabet.
    private static let decodeTable: [UInt8] = (0..<256).map { symbolValue(UInt8($0)).map(UInt8.init) ?? 0xFF }

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

