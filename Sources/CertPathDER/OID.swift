/// An ASN.1 OBJECT IDENTIFIER held as its DER contents octets (X.690 8.19).
///
/// Keeping the encoded form makes equality a byte comparison and lets OIDs read from a certificate be
/// kept as zero-copy views of it; ``description`` renders the dotted form (`2.5.29.19`), arcs of any size.
public struct OID: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The contents octets (without tag and length); may be a view into a larger buffer.
    public let encoded: ArraySlice<UInt8>

    /// Wraps contents octets already validated (by `DERReader.validateObjectIdentifier(_:_:)`).
    @inlinable
    public init(validatedEncoding encoded: ArraySlice<UInt8>) { self.encoded = encoded }

    /// Wraps contents octets already validated (by `DERReader.validateObjectIdentifier(_:_:)`).
    public init(validatedEncoding encoded: [UInt8]) { self.encoded = encoded[...] }

    /// Validates and wraps contents octets.
    ///
    /// - Returns: `nil` unless they are a valid DER OBJECT IDENTIFIER encoding.
    public init?(encoded: [UInt8]) {
        // The rule is DERReader's (X.690 8.19.2), applied to these octets as an element's contents.
        let contents = DERElement(tag: .objectIdentifier, offset: 0, value: 0..<encoded.count)
        guard (try? DERReader(encoded).validateObjectIdentifier(contents, "OBJECT IDENTIFIER")) != nil else { return nil }
        self.encoded = encoded[...]
    }

    /// Parses dotted decimal (`1.2.840.113549.1.1.11`, `2.25.329800735698586629295641978511506172918`):
    /// at least two arcs, the first 0, 1 or 2, the second below 40 unless the first is 2, digits only,
    /// without leading zeros. Arcs beyond 64 bits (such as X.667 UUID arcs) are accepted up to 40
    /// encoded octets (2^280), the size ``description`` renders in decimal. Encodes per X.690 8.19.
    ///
    /// - Returns: `nil` for any other text.
    public init?(dotted: String) {
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        for part in parts {
            guard !part.isEmpty, part.utf8.count <= OID.maximumDottedArcDigits,
                  part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  part.utf8.count == 1 || part.utf8.first != 0x30 else { return nil }
        }
        guard let first = UInt64(parts[0]), first <= 2 else { return nil }
        if first < 2 {
            guard let second = UInt64(parts[1]), second < 40 else { return nil }
        }
        var bytes: [UInt8] = []
        // The first subidentifier packs two arcs: 40 * X + Y (X.690 8.19.4).
        guard OID.appendSubidentifier(parts[1], plus: first * 40, to: &bytes) else { return nil }
        for part in parts.dropFirst(2) {
            guard OID.appendSubidentifier(part, plus: 0, to: &bytes) else { return nil }
        }
        self.encoded = bytes[...]
    }

    /// Creates an OID from a dotted literal; traps on an invalid literal (a programming error).
    public init(stringLiteral value: String) {
        guard let oid = OID(dotted: value) else { preconditionFailure("invalid OID literal \(value)") }
        self = oid
    }

    /// The dotted decimal form, exact for arcs of any size.
    ///
    /// An arc longer than 40 encoded octets (280 bits; no registered OID comes close) is written in
    /// hexadecimal, `0x…`, so that rendering a hostile OID stays linear in its length; such text is not
    /// accepted by ``init(dotted:)``. Every arc that ``init(dotted:)`` accepts is rendered in decimal.
    public var description: String {
        var parts: [String] = []
        var group: [UInt8] = []
        for byte in encoded {
            group.append(byte & 0x7F)
            guard byte & 0x80 == 0 else { continue }
            if parts.isEmpty {
                // The first subidentifier packs two arcs: 40 * X + Y (X.690 8.19.4).
                if let value = OID.small(group) {
                    let first = min(value / 40, 2)
                    parts.append(String(first))
                    parts.append(String(value - first * 40))
                } else {
                    parts.append("2")
                    parts.append(OID.large(group, minus: 80))
                }
            } else {
                parts.append(OID.small(group).map { String($0) } ?? OID.large(group, minus: 0))
            }
            group.removeAll(keepingCapacity: true)
        }
        return parts.joined(separator: ".")
    }

    public static func < (lhs: OID, rhs: OID) -> Bool { lhs.encoded.lexicographicallyPrecedes(rhs.encoded) }

    /// Equal when the contents octets are (compared in bulk, not element by element).
    @inlinable
    public static func == (lhs: OID, rhs: OID) -> Bool {
        guard lhs.encoded.count == rhs.encoded.count else { return false }
        return lhs.encoded.withUnsafeBufferPointer { a in
            rhs.encoded.withUnsafeBufferPointer { b in
                for index in 0..<a.count where a[index] != b[index] { return false }
                return true
            }
        }
    }

    /// Hashes the length and the contents octets (the octets in one call).
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(encoded.count)
        encoded.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Value of base-128 digits if it fits 64 bits.
    private static func small(_ digits: [UInt8]) -> UInt64? {
        var value: UInt64 = 0
        for digit in digits {
            guard value >> 57 == 0 else { return nil }
            value = value << 7 | UInt64(digit)
        }
        return value
    }

    /// Longest arc, in base-128 digits, that ``description`` renders in decimal (quadratic in its length)
    /// and ``init(dotted:)`` accepts.
    private static let maximumDecimalArcOctets = 40
    /// Longest decimal text ``init(dotted:)`` converts: 10^85 > 2^280, beyond any arc of 40 octets.
    private static let maximumDottedArcDigits = 85

    /// Appends the base-128 encoding of the decimal arc `digits` plus `addend` (X.690 8.19.2).
    /// `digits` are ASCII digits, at most ``maximumDottedArcDigits`` of them.
    ///
    /// - Returns: `false` (appending nothing) when the encoding would exceed ``maximumDecimalArcOctets``.
    private static func appendSubidentifier(_ digits: Substring, plus addend: UInt64, to bytes: inout [UInt8]) -> Bool {
        var groups: [UInt8] = []  // least significant first
        if let small = UInt64(digits), case let (value, overflow) = small.addingReportingOverflow(addend), !overflow {
            var rest = value
            repeat {
                groups.append(UInt8(rest & 0x7F))
                rest >>= 7
            } while rest > 0
        } else {
            // Beyond 64 bits: schoolbook division of the decimal digits by 128. Three leading zeros leave
            // room for the carry of adding `addend` (at most 80).
            var number = [0, 0, 0] + digits.utf8.map { Int($0 - 0x30) }
            var carry = Int(addend)
            var index = number.count - 1
            while carry > 0 {
                let sum = number[index] + carry
                number[index] = sum % 10
                carry = sum / 10
                index -= 1
            }
            while !number.isEmpty {
                var remainder = 0
                var quotient: [Int] = []
                for digit in number {
                    let value = remainder * 10 + digit
                    if !quotient.isEmpty || value >= 128 { quotient.append(value / 128) }
                    remainder = value % 128
                }
                groups.append(UInt8(remainder))
                number = quotient
            }
        }
        guard groups.count <= maximumDecimalArcOctets else { return false }
        for index in groups.indices.reversed() { bytes.append(index == 0 ? groups[index] : groups[index] | 0x80) }
        return true
    }

    /// Text of an arc beyond 64 bits: decimal up to ``maximumDecimalArcOctets``, hexadecimal beyond.
    private static func large(_ digits: [UInt8], minus subtrahend: Int) -> String {
        digits.count <= maximumDecimalArcOctets ? decimal(digits, minus: subtrahend) : hexadecimal(digits, minus: subtrahend)
    }

    /// `0x…` text of base-128 digits minus `subtrahend` (0...127), in time linear in their number.
    private static func hexadecimal(_ digits: [UInt8], minus subtrahend: Int) -> String {
        var octets: [UInt8] = []  // base 256, least significant first
        octets.reserveCapacity(digits.count)
        var accumulator = 0, bits = 0
        for digit in digits.reversed() {
            accumulator |= Int(digit) << bits
            bits += 7
            while bits >= 8 {
                octets.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                bits -= 8
            }
        }
        if bits > 0 { octets.append(UInt8(accumulator)) }
        var borrow = subtrahend
        for index in octets.indices where borrow > 0 {
            let value = Int(octets[index]) - borrow
            octets[index] = UInt8((value + 256) & 0xFF)
            borrow = value < 0 ? 1 : 0
        }
        while octets.count > 1 && octets.last == 0 { octets.removeLast() }
        let hexDigits = Array("0123456789abcdef".utf8)
        var text = Array("0x".utf8)
        for (position, octet) in octets.reversed().enumerated() {
            if position > 0 || octet >= 0x10 { text.append(hexDigits[Int(octet >> 4)]) }
            text.append(hexDigits[Int(octet & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Decimal text of base-128 digits minus `subtrahend`, for arcs beyond 64 bits.
    private static func decimal(_ digits: [UInt8], minus subtrahend: Int) -> String {
        var decimal: [Int] = [0]  // little-endian decimal digits
        for digit in digits {
            var carry = Int(digit)
            for index in decimal.indices {
                let value = decimal[index] * 128 + carry
                decimal[index] = value % 10
                carry = value / 10
            }
            while carry > 0 {
                decimal.append(carry % 10)
                carry /= 10
            }
        }
        var borrow = subtrahend
        var index = 0
        while borrow > 0 && index < decimal.count {
            let value = decimal[index] - borrow % 10
            borrow /= 10
            if value < 0 {
                decimal[index] = value + 10
                borrow += 1
            } else {
                decimal[index] = value
            }
            index += 1
        }
        while decimal.count > 1 && decimal.last == 0 { decimal.removeLast() }
        return String(decimal.reversed().map { Character(Unicode.Scalar(UInt8(48 + $0))) })
    }
}

extension DERReader {
    /// Reads an OBJECT IDENTIFIER as an ``OID`` viewing the reader's buffer (no copy).
    @inlinable
    package mutating func readOID(_ expected: @autoclosure () -> String) throws(DERError) -> OID {
        let element = try readObjectIdentifier(expected())
        return OID(validatedEncoding: bytes[element.value])
    }
}
