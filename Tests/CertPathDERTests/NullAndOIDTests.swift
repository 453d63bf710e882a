@_spi(Fuzzing) import CertPathDER
import Testing

/// NULL (X.690 8.8) and OBJECT IDENTIFIER (X.690 8.19): encodings, dotted form, huge arcs.
@Suite("DER NULL and OBJECT IDENTIFIER")
struct NullAndOIDTests {
    private func oid(_ bytes: [UInt8]) throws(DERError) -> OID {
        var reader = DERReader(bytes)
        let value = try reader.readOID("test OID")
        try reader.finish("input")
        return value
    }

    /// An arc from ITU-T X.667: 2.25 followed by a UUID as one 128-bit integer.
    static let uuidOID = "2.25.329800735698586629295641978511506172918"
    static let uuidEncoding = hex("69 83f09da7ebcfdee0c7a1a7b2c0948cc8f9d776")

    @Test("NULL has no contents")
    func null() throws {
        var reader = DERReader(hex("05 00"))
        try reader.readNull("parameters")
        #expect(reader.isAtEnd)
        var bad = DERReader(hex("05 01 00"))
        expectDERError(.invalidNull, at: 0) { try bad.readNull("parameters") }
        expectDERError(.invalidNull, at: 2) { try DERNode.parse(hex("30 03 05 01 00")) }
    }

    @Test("OBJECT IDENTIFIER encodings: empty, leading 0x80, unterminated last subidentifier")
    func encodings() throws {
        #expect(try oid(hex("06 09 2A 86 48 86 F7 0D 01 01 0B")).description == "1.2.840.113549.1.1.11")
        #expect(try oid(hex("06 03 55 1D 13")) == OID("2.5.29.19"))
        #expect(try oid(hex("06 01 00")).description == "0.0")
        #expect(try oid(hex("06 02 88 37")).description == "2.999")

        expectDERError(.invalidObjectIdentifier, at: 0) { try oid(hex("06 00")) }
        // 0x80 opening a subidentifier (a leading zero group): at that byte.
        expectDERError(.invalidObjectIdentifier, at: 3) { try oid(hex("06 03 2A 80 01")) }
        expectDERError(.invalidObjectIdentifier, at: 2) { try oid(hex("06 02 80 01")) }
        expectDERError(.invalidObjectIdentifier, at: 5) { try oid(hex("06 04 2A 86 48 80")) }
        // Last octet with its high bit set: the subidentifier never ends.
        expectDERError(.invalidObjectIdentifier, at: 3) { try oid(hex("06 02 2A 86")) }
        expectDERError(.invalidObjectIdentifier, at: 2) { try oid(hex("06 01 FF")) }
        expectDERError(.invalidObjectIdentifier, at: 5) { try DERNode.parse(hex("30 04 06 02 55 9D")) }
        // 0x80 inside a subidentifier (not at its start) is a legitimate zero group.
        #expect(try oid(hex("06 03 2A 81 00")).description == "1.2.128")

        #expect(OID(encoded: []) == nil)
        #expect(OID(encoded: hex("2A 80 01")) == nil)
        #expect(OID(encoded: hex("2A 86")) == nil)
        #expect(OID(encoded: hex("80 01")) == nil)
        #expect(OID(encoded: hex("55 1D 13"))?.description == "2.5.29.19")
    }

    @Test("dotted form: parsing, rendering and round trip")
    func dotted() throws {
        let cases: [(String, String)] = [
            ("0.0", "00"), ("0.39", "27"), ("1.0", "28"), ("1.39", "4F"), ("2.0", "50"),
            ("2.5.29.19", "55 1D 13"), ("1.2.840.113549.1.1.11", "2A 86 48 86 F7 0D 01 01 0B"),
            ("2.999", "88 37"), ("1.2.127.128.16383.16384", "2A 7F 81 00 FF 7F 81 80 00"),
            ("1.2.18446744073709551615", "2A 81 FF FF FF FF FF FF FF FF 7F"),
            ("2.18446744073709551535", "81 FF FF FF FF FF FF FF FF 7F"),
        ]
        for (text, encoding) in cases {
            let parsed = try #require(OID(dotted: text), "\(text)")
            #expect(parsed.encoded == ArraySlice(hex(encoding)), "\(text)")
            #expect(parsed.description == text)
            #expect(OID(encoded: hex(encoding)) == parsed)
        }
        #expect(OID("2.5.29.15") < OID("2.5.29.19"))
        #expect(OID("2.5.29.19") != OID("2.5.29.19.0"))
    }

    @Test("dotted form: arcs beyond 64 bits, such as a 2.25 UUID arc")
    func hugeArcs() throws {
        let uuid = try #require(OID(dotted: Self.uuidOID))
        #expect(uuid.encoded == ArraySlice(Self.uuidEncoding))
        #expect(uuid.description == Self.uuidOID)
        let read = try oid([0x06, UInt8(Self.uuidEncoding.count)] + Self.uuidEncoding)
        #expect(read == uuid)
        #expect(read.description == Self.uuidOID)
        // 2^64 as a later arc, and 2^128 as the second arc (first subidentifier 2^128 + 80).
        let beyond = try #require(OID(dotted: "1.2.18446744073709551616"))
        #expect(beyond.encoded == ArraySlice(hex("2A 82 80 80 80 80 80 80 80 80 00")))
        #expect(beyond.description == "1.2.18446744073709551616")
        let second = "2.340282366920938463463374607431768211456"
        let huge = try #require(OID(dotted: second))
        #expect(huge.encoded == ArraySlice(hex("84 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 50")))
        #expect(huge.description == second)
        // 2^64 - 80 + 80 carries out of 64 bits in the first subidentifier.
        let carry = try #require(OID(dotted: "2.18446744073709551536"))
        #expect(carry.encoded == ArraySlice(hex("82 80 80 80 80 80 80 80 80 00")))
        #expect(carry.description == "2.18446744073709551536")
        // A run of 9s whose sum with 80 lengthens the decimal number.
        let nines = "2.99999999999999999999999999"
        #expect(try #require(OID(dotted: nines)).description == nines)
        // Arcs below 2^280 (40 encoded octets) parse and render back; 2^280 and beyond are refused.
        let below = "1942668892225729070919461906823518906642406839052139521251812409738904285205208498175"  // 2^280 - 1
        let limit = "1942668892225729070919461906823518906642406839052139521251812409738904285205208498176"  // 2^280
        #expect(try #require(OID(dotted: "1.2." + below)).description == "1.2." + below)
        #expect(OID(dotted: "1.2." + limit) == nil)
        #expect(try #require(OID(dotted: "2." + String(repeating: "9", count: 84))).encoded.count == 40)
        #expect(OID(dotted: "2." + String(repeating: "9", count: 85)) == nil)
        #expect(OID(dotted: "1.2." + String(repeating: "1", count: 86)) == nil)
    }

    @Test("rendering: decimal up to 40 encoded octets per arc, hexadecimal beyond, in linear time")
    func renderingBound() throws {
        // 2^273 takes exactly 40 base-128 digits: decimal.
        let forty = try #require(OID(encoded: hex("2A 81") + [UInt8](repeating: 0x80, count: 38) + [0x00]))
        #expect(forty.description == "1.2.15177100720513508366558296147058741458143803430094840009779784451085189728165691392")
        #expect(OID(dotted: forty.description) == forty)
        // 2^280 takes 41: hexadecimal.
        let fortyOne = try #require(OID(encoded: hex("2A 81") + [UInt8](repeating: 0x80, count: 39) + [0x00]))
        #expect(fortyOne.description == "1.2.0x1" + String(repeating: "0", count: 70))
        #expect(OID(dotted: fortyOne.description) == nil)
        // As the first subidentifier, 2^280 is 2.(2^280 - 80): the subtraction borrows through every octet.
        let first = try #require(OID(encoded: hex("81") + [UInt8](repeating: 0x80, count: 39) + [0x00, 0x01]))
        #expect(first.description == "2.0x" + String(repeating: "f", count: 68) + "b0.1")
        // A hostile megabyte-long arc renders quickly (all ones: 7,000,007 bits, leading hex digit 7).
        let hostile = try #require(OID(encoded: [0x2A] + [UInt8](repeating: 0xFF, count: 1_000_000) + [0x7F]))
        let text = hostile.description
        #expect(text.hasPrefix("1.2.0x7fff"))
        #expect(text.utf8.count == 4 + 2 + 1_750_002)
    }

    @Test("invalid dotted texts")
    func invalidDotted() {
        for text in ["", "1", "3.1", "1.40", "0.40", "1..2", "1.2.", ".1.2", "01.2", "1.02", "1.2.a", "-1.2",
                     "+1.2", "1.+2", " 1.2", "1.2 ", "1,2", "1.2.3e4", "1.2.٣", "10.1",
                     "1.2." + String(repeating: "9", count: 10_000), "1.2.0x10"] {
            #expect(OID(dotted: text) == nil, "\(text.prefix(40))")
        }
    }
}
