@_spi(Fuzzing) import CertPathDER
import Testing

/// BIT STRING (X.690 8.6, 11.2): unused-bits octet 0...7, zero when empty, zero padding, named bit lists.
@Suite("DER BIT STRING")
struct BitStringTests {
    private func bits(_ bytes: [UInt8], namedBits: Bool = false) throws(DERError) -> DERBitString {
        var reader = DERReader(bytes)
        let value = try reader.readBitString("test BIT STRING", namedBits: namedBits)
        try reader.finish("input")
        return value
    }

    @Test("valid BIT STRINGs")
    func valid() throws {
        let empty = try bits(hex("03 01 00"))
        #expect(empty.bytes == 3..<3)
        #expect(empty.bitCount == 0)
        let whole = try bits(hex("03 03 00 AB CD"))
        #expect(whole.bytes == 3..<5)
        #expect(whole.unusedBits == 0)
        #expect(whole.bitCount == 16)
        let nine = try bits(hex("03 03 07 FF 80"))
        #expect(nine.bitCount == 9)
        #expect(nine.unusedBits == 7)
    }

    @Test("no contents at all (missing unused-bits octet)")
    func emptyContents() {
        expectDERError(.invalidBitString, at: 0) { try bits(hex("03 00")) }
        expectDERError(.invalidBitString, at: 2) { try DERNode.parse(hex("30 02 03 00")) }
    }

    @Test("unused-bits octet above 7")
    func unusedBitsAboveSeven() {
        expectDERError(.invalidBitString, at: 2) { try bits(hex("03 02 08 00")) }
        expectDERError(.invalidBitString, at: 2) { try bits(hex("03 02 FF 00")) }
    }

    @Test("non-zero unused bits with no bit bytes")
    func unusedBitsWithoutData() {
        expectDERError(.invalidBitString, at: 2) { try bits(hex("03 01 01")) }
        expectDERError(.invalidBitString, at: 2) { try bits(hex("03 01 07")) }
    }

    @Test("padding bits must be zero")
    func nonZeroPadding() throws {
        expectDERError(.invalidBitString, at: 3) { try bits(hex("03 02 01 01")) }
        expectDERError(.invalidBitString, at: 4) { try bits(hex("03 03 07 FF 81")) }
        expectDERError(.invalidBitString, at: 4) { try bits(hex("03 03 04 00 08")) }
        #expect(try bits(hex("03 03 04 00 10")).bitCount == 12)
    }

    @Test("named bit list: no trailing zero bits")
    func namedBitList() throws {
        // keyUsage digitalSignature only: one bit, 7 unused.
        #expect(try bits(hex("03 02 07 80"), namedBits: true).bitCount == 1)
        // digitalSignature + keyEncipherment (bits 0 and 2): 101, 5 unused.
        #expect(try bits(hex("03 02 05 A0"), namedBits: true).bitCount == 3)
        // keyCertSign + cRLSign (bits 5 and 6): 0000011, 1 unused.
        #expect(try bits(hex("03 02 01 06"), namedBits: true).bitCount == 7)
        // decipherOnly (bit 8): second byte.
        #expect(try bits(hex("03 03 07 00 80"), namedBits: true).bitCount == 9)
        // The empty list.
        #expect(try bits(hex("03 01 00"), namedBits: true).bitCount == 0)
        // Same bits with one trailing zero bit counted: valid as a plain BIT STRING, not as a named bit list.
        #expect(try bits(hex("03 02 04 A0")).bitCount == 4)
        expectDERError(.invalidBitString, at: 3) { try bits(hex("03 02 04 A0"), namedBits: true) }
        expectDERError(.invalidBitString, at: 3) { try bits(hex("03 02 00 80"), namedBits: true) }
        expectDERError(.invalidBitString, at: 4) { try bits(hex("03 03 00 80 00"), namedBits: true) }
        expectDERError(.invalidBitString, at: 4) { try bits(hex("03 03 07 80 00"), namedBits: true) }
        expectDERError(.invalidBitString, at: 3) { try bits(hex("03 02 00 00"), namedBits: true) }
    }
}
