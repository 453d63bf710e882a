/// An ASN.1 OBJECT IDENTIFIER held as its DER contents octets (X.690 8.19).
///
/// Keeping the encoded form makes equality a byte comparison and lets OIDs read from a certificate be
/// kept as zero-copy views of it; ``description`` renders the dotted form (`2.5.29.19`), arcs of any size.
public struct OID: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The contents octets (without tag and length); may be a view into a larger buffer.
    public let encoded: ArraySlice<UInt8>

    /// Wraps contents octets already validated (by ``DERReader/validateObjectIdentifier(_:_:)``).
    @inlinable
    public init(validatedEncoding encoded: ArraySlice<UInt8>) { self.encoded = encoded }

    /// Wraps contents octets already validated (by ``DERReader/validateObjectIdentifier(_:_:)``).
    public init(validatedEncoding encoded: [UInt8]) { self.encoded = encoded[...] }

    /// Validates and wraps contents octets.
    ///
    /// - Returns: `nil` unless they are a valid DER OBJECT IDENTIFIER encoding.
    public init?(encoded: [UInt8]) {
        guard !encoded.isEmpty, encoded.last! & 0x80 == 0 else { return nil }
        var atStart = true
        for byte in encoded {
            if atStart && byte == 0x80 { return nil }
            atStart = byte & 0x80 == 0
        }
        self.encoded = encoded[...]
    }

    /// Parses dotted decimal (`1.2.840.113549.1.1.11`): at least two arcs, the first 0, 1 or 2, the
    /// second below 40 unless the first is 2, each arc below 2^64.
    ///
    /// - Returns: `nil` for any other text.
    public init?(dotted: String) {
        var arcs: [UInt64] = []
        for part in dotted.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  part.count == 1 || part.utf8.first != 0x30, let arc = UInt64(part) else { return nil }
            arcs.append(arc)
        }
        guard arcs.count >= 2, arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40 else { return nil }
        let (first, overflow) = (arcs[0] * 40).addingReportingOverflow(arcs[1])
        guard !overflow else { return nil }
        var bytes: [UInt8] = []
        for arc in [first] + arcs.dropFirst(2) {
            var groups: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                groups.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            bytes.append(contentsOf: groups.reversed())
        }
        self.encoded = bytes[...]
    }

    /// Creates an OID from a dotted literal; traps on an invalid literal (a programming error).
    public init(stringLiteral value: String) {
        guard let oid = OID(dotted: value) else { preconditionFailure("invalid OID literal \(value)") }
        self = oid
    }

    /// The dotted decimal form, exact for arcs of any size.
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
                    parts.append(OID.decimal(group, minus: 80))
                }
            } else {
                parts.append(OID.small(group).map { String($0) } ?? OID.decimal(group, minus: 0))
            }
            group.removeAll(keepingCapacity: true)
        }
        return parts.joined(separator: ".")
    }

    public static func < (lhs: OID, rhs: OID) -> Bool { lhs.encoded.lexicographicallyPrecedes(rhs.encoded) }

    /// Value of base-128 digits if it fits 64 bits.
    private static func small(_ digits: [UInt8]) -> UInt64? {
        var value: UInt64 = 0
        for digit in digits {
            guard value >> 57 == 0 else { return nil }
            value = value << 7 | UInt64(digit)
        }
        return value
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
    public mutating func readOID(_ expected: String) throws(DERError) -> OID {
        let element = try readObjectIdentifier(expected)
        return OID(validatedEncoding: bytes[element.value])
    }
}
