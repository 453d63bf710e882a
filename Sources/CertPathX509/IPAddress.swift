/// An IPv4 or IPv6 address: the value of a subjectAltName `iPAddress` (RFC 5280 4.2.1.6) or of an
/// IP-ID reference identifier (RFC 9525, the successor of RFC 6125, which added IP-IDs).
///
/// The address is held as its network-order octets: 4 for IPv4, 16 for IPv6, exactly as an
/// `iPAddress` GeneralName encodes it. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is an IPv6
/// address of 16 octets and is never equal to the IPv4 address it embeds.
///
/// Text parsing is strict, because a reference identifier typed by a user or taken from a URL must
/// name one address and only one:
/// - IPv4: exactly four decimal octets `0`–`255` separated by dots, with no leading zeros, no sign,
///   no hexadecimal or octal parts and no shorthand (`1.2.3`, `0x7f.1`, `010.0.0.1` and `1.2.3.4.`
///   are all refused; `inet_aton` would read some of them as different addresses).
/// - IPv6: every textual form of RFC 4291 2.2 — full, compressed with one `::`, either letter case,
///   groups of 1 to 4 hexadecimal digits with or without leading zeros, and a strict dotted-quad
///   IPv4 address as the last 32 bits (`::ffff:192.0.2.1`, `64:ff9b::192.0.2.1`). Refused: zone
///   identifiers (`fe80::1%eth0`, RFC 6874 is URI syntax, not an address), brackets (`[::1]`),
///   more than one `::`, groups of more than 4 digits, a wrong number of groups, a `::` standing
///   for no group at all (`1:2:3:4::5:6:7:8`), and a lone leading or trailing `:`.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address in network byte order: 4 octets (IPv4) or 16 octets (IPv6).
    public let bytes: [UInt8]

    /// Creates an address from its network-order octets, as found in an `iPAddress` GeneralName.
    ///
    /// - Parameter bytes: exactly 4 (IPv4) or 16 (IPv6) octets.
    /// - Returns: `nil` for any other count (a name-constraint `iPAddress` of 8 or 32 octets, which
    ///   carries a mask, is not an address).
    public init?<Bytes: Collection>(bytes: Bytes) where Bytes.Element == UInt8 {
        let count = bytes.count
        guard count == 4 || count == 16 else { return nil }
        self.bytes = Array(bytes)
    }

    /// Parses the textual form of an IPv4 address (strict dotted quad) or an IPv6 address
    /// (RFC 4291 2.2, any of its forms).
    ///
    /// - Parameter text: the address, without brackets, port, prefix length or zone identifier.
    /// - Returns: `nil` when `text` is not exactly one address in the accepted syntax (see the type's
    ///   documentation for the rules). Text containing a `:` is read as IPv6, anything else as IPv4.
    public init?(_ text: String) {
        var text = text  // withUTF8 may make a bridged string contiguous
        guard let parsed = text.withUTF8({ IPAddress.parse($0) }) else { return nil }
        self.bytes = parsed
    }

    /// Whether this is an IPv4 address (4 octets). An IPv4-mapped IPv6 address is not IPv4.
    public var isIPv4: Bool { bytes.count == 4 }

    /// Whether this is an IPv4-mapped IPv6 address, `::ffff:0:0/96` (RFC 4291 2.5.5.2).
    public var isIPv4Mapped: Bool {
        guard bytes.count == 16 else { return false }
        for index in 0..<10 where bytes[index] != 0 { return false }
        return bytes[10] == 0xFF && bytes[11] == 0xFF
    }

    /// The canonical text of the address.
    ///
    /// IPv4: dotted decimal without leading zeros (`192.0.2.1`). IPv6: the RFC 5952 section 4 form —
    /// lowercase hexadecimal, leading zeros of each group suppressed, the longest run of two or more
    /// all-zero groups (the first such run on a tie) replaced by `::`, a single zero group never
    /// compressed — and, following RFC 5952 section 5, mixed notation for IPv4-mapped addresses
    /// (`::ffff:192.0.2.1`). Other addresses with an embedded IPv4 part are written in hexadecimal.
    public var description: String {
        if bytes.count == 4 {
            return IPAddress.dottedQuad(bytes[0...3])
        }
        if isIPv4Mapped {
            return "::ffff:" + IPAddress.dottedQuad(bytes[12...15])
        }
        var groups = [UInt16](repeating: 0, count: 8)
        for index in 0..<8 {
            groups[index] = UInt16(bytes[2 * index]) << 8 | UInt16(bytes[2 * index + 1])
        }
        // Longest run of zero groups, at least two long; the first one wins a tie (RFC 5952 4.2.3).
        var bestStart = -1
        var bestLength = 1
        var index = 0
        while index < 8 {
            if groups[index] == 0 {
                var end = index
                while end < 8 && groups[end] == 0 { end += 1 }
                if end - index > bestLength {
                    bestStart = index
                    bestLength = end - index
                }
                index = end
            } else {
                index += 1
            }
        }
        var text = ""
        index = 0
        while index < 8 {
            if index == bestStart {
                text += "::"
                index += bestLength
                continue
            }
            if !text.isEmpty && !text.hasSuffix(":") { text += ":" }
            text += String(groups[index], radix: 16)
            index += 1
        }
        return text
    }

    private static func dottedQuad(_ octets: ArraySlice<UInt8>) -> String {
        var text = ""
        for octet in octets {
            if !text.isEmpty { text += "." }
            text += String(octet)
        }
        return text
    }

    // MARK: Parsing

    private static let colon = UInt8(ascii: ":")
    private static let dot = UInt8(ascii: ".")

    /// Parses `text` as IPv6 when it contains a colon, otherwise as a strict IPv4 dotted quad.
    package static func parse(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard !text.isEmpty, text.count <= 64 else { return nil }  // the longest valid text is 45 bytes
        if text.contains(colon) {
            return parseIPv6(text)
        }
        var octets = [UInt8](repeating: 0, count: 4)
        guard parseIPv4(text, 0..<text.count, into: &octets, at: 0) else { return nil }
        return octets
    }

    /// Strict dotted quad in `text[range]`, written to `output[offset..<offset+4]`.
    private static func parseIPv4(
        _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into output: inout [UInt8], at offset: Int
    ) -> Bool {
        var part = 0
        var value = 0
        var digits = 0
        var leadingZero = false
        for index in range {
            let byte = text[index]
            if byte == dot {
                guard digits > 0, part < 3 else { return false }
                output[offset + part] = UInt8(value)
                part += 1
                value = 0
                digits = 0
                leadingZero = false
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if leadingZero { return false }  // "01": octal in inet_aton, refused here
                if digits == 0 && byte == UInt8(ascii: "0") { leadingZero = true }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                guard value <= 255 else { return false }
            } else {
                return false
            }
        }
        guard digits > 0, part == 3 else { return false }
        output[offset + 3] = UInt8(value)
        return true
    }

    /// RFC 4291 2.2 text forms. Groups before the `::` fill from the front, groups after it from
    /// the back; without `::` there must be exactly eight 16-bit pieces.
    private static func parseIPv6(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let count = text.count
        // Locate the single "::", if any.
        var doubleColon: Int? = nil
        var index = 0
        while index + 1 < count {
            if text[index] == colon && text[index + 1] == colon {
                guard doubleColon == nil else { return nil }  // second "::" (or ":::")
                doubleColon = index
            }
            index += 1
        }
        var head = [UInt8]()  // bytes of the groups before "::" (or all groups)
        var tail = [UInt8]()  // bytes of the groups after "::"
        head.reserveCapacity(16)
        if let doubleColon {
            guard parseGroups(text, 0..<doubleColon, into: &head),
                parseGroups(text, (doubleColon + 2)..<count, into: &tail)
            else { return nil }
            // "::" stands for at least one zero group (RFC 4291 2.2 item 2).
            guard head.count + tail.count <= 14 else { return nil }
            head.append(contentsOf: repeatElement(0, count: 16 - head.count - tail.count))
            head.append(contentsOf: tail)
        } else {
            guard parseGroups(text, 0..<count, into: &head), head.count == 16 else { return nil }
        }
        return head
    }

    /// Parses the colon-separated groups in `text[range]` (possibly empty) and appends their bytes.
    /// The last group may be a dotted-quad IPv4 address (4 bytes) only when `range` ends the whole
    /// text, so an IPv4 part before a `::` is refused.
    private static func parseGroups(
        _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into output: inout [UInt8]
    ) -> Bool {
        if range.isEmpty { return true }
        var start = range.lowerBound
        while true {
            guard output.count < 16 else { return false }
            var end = start
            while end < range.upperBound && text[end] != colon { end += 1 }
            guard end > start else { return false }  // empty group: lone ":" at an edge, or ":::"
            if text[start..<end].contains(dot) {
                // Embedded IPv4: only as the last piece of the whole address.
                guard end == range.upperBound, range.upperBound == text.count, output.count <= 12 else {
                    return false
                }
                var octets = [UInt8](repeating: 0, count: 4)
                guard parseIPv4(text, start..<end, into: &octets, at: 0) else { return false }
                output.append(contentsOf: octets)
                return true
            }
            guard end - start <= 4 else { return false }
            var value = 0
            for position in start..<end {
                guard let digit = Hex.value(ofDigit: text[position]).map(Int.init) else { return false }
                value = value << 4 | digit
            }
            output.append(UInt8(value >> 8))
            output.append(UInt8(value & 0xFF))
            if end == range.upperBound { return true }
            start = end + 1
            guard start < range.upperBound else { return false }  // trailing ":"
        }
    }
}
