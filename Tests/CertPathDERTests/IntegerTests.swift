@_spi(Fuzzing) import CertPathDER
import Testing

/// INTEGER and ENUMERATED (X.690 8.3, 8.4): non-empty, minimal two's complement; unsigned decoding.
@Suite("DER INTEGER")
struct IntegerTests {
    private func integer(_ bytes: [UInt8]) throws(DERError) -> (DERReader, DERElement) {
        var reader = DERReader(bytes)
        let element = try reader.readInteger("test INTEGER")
        try reader.finish("input")
        return (reader, element)
    }

    @Test("an INTEGER with no contents octets is rejected")
    func empty() {
        expectDERError(.emptyInteger, at: 0) { try integer(hex("02 00")) }
        expectDERError(.emptyInteger, at: 2) {
            try DERReader.parse(hex("30 02 02 00"), .sequence, "outer") { reader throws(DERError) in
                try reader.readInteger("inner")
            }
        }
        expectDERError(.emptyInteger, at: 0) { try DERNode.parse(hex("0A 00")) }
    }

    @Test("a positive INTEGER with a redundant leading 0x00 is rejected")
    func nonMinimalPositive() {
        expectDERError(.nonMinimalInteger, at: 0) { try integer(hex("02 02 00 7F")) }
        expectDERError(.nonMinimalInteger, at: 0) { try integer(hex("02 02 00 00")) }
        expectDERError(.nonMinimalInteger, at: 0) { try integer(hex("02 03 00 00 80")) }
        expectDERError(.nonMinimalInteger, at: 2) { try DERNode.parse(hex("30 04 02 02 00 01")) }
        expectDERError(.nonMinimalInteger, at: 0) { try DERNode.parse(hex("0A 02 00 01")) }
    }

    @Test("a negative INTEGER with a redundant leading 0xFF is rejected")
    func nonMinimalNegative() {
        expectDERError(.nonMinimalInteger, at: 0) { try integer(hex("02 02 FF 80")) }
        expectDERError(.nonMinimalInteger, at: 0) { try integer(hex("02 02 FF FF")) }
        expectDERError(.nonMinimalInteger, at: 0) { try integer(hex("02 03 FF FF 00")) }
    }

    @Test("minimal encodings are accepted, including the boundary cases 00 80 and FF 7F")
    func minimalAccepted() throws {
        for text in ["02 01 00", "02 01 7F", "02 01 80", "02 01 FF", "02 02 00 80", "02 02 FF 7F",
                     "02 02 01 00", "02 09 00 FF FF FF FF FF FF FF FF", "02 02 80 00"] {
            let (reader, element) = try integer(hex(text))
            #expect(element.tag == .integer)
            let negative = text.hasPrefix("02 01 8") || text.hasPrefix("02 01 F") || text.hasPrefix("02 02 F")
                || text.hasPrefix("02 02 80")
            #expect(reader.isNegativeInteger(element) == negative, "\(text)")
        }
    }

    @Test("unsigned decoding: negative values rejected")
    func unsignedRejectsNegative() {
        expectDERError(.negativeInteger, at: 0) { try DERReader(hex("02 01 FF")).unsignedIntegerOfOnly(UInt64.self) }
        expectDERError(.negativeInteger, at: 0) { try DERReader(hex("02 01 80")).unsignedIntegerOfOnly(UInt8.self) }
        expectDERError(.negativeInteger, at: 0) { try DERReader(hex("02 02 FF 7F")).unsignedIntegerOfOnly(UInt64.self) }
        var reader = DERReader(hex("02 02 80 00"))
        expectDERError(.negativeInteger, at: 0) { try reader.readUnsigned("pathLen", as: UInt64.self) }
        // Minimality is checked before sign and size.
        expectDERError(.nonMinimalInteger, at: 0) { try DERReader(hex("02 02 FF 80")).unsignedIntegerOfOnly(UInt64.self) }
        expectDERError(.emptyInteger, at: 0) { try DERReader(hex("02 00")).unsignedIntegerOfOnly(UInt64.self) }
    }

    @Test("unsigned decoding: values too large for the type rejected")
    func unsignedTooLarge() {
        expectDERError(.integerTooLarge, at: 0) { try DERReader(hex("02 02 01 00")).unsignedIntegerOfOnly(UInt8.self) }
        expectDERError(.integerTooLarge, at: 0) { try DERReader(hex("02 03 00 FF FF")).unsignedIntegerOfOnly(UInt8.self) }
        expectDERError(.integerTooLarge, at: 0) {
            try DERReader(hex("02 09 01 00 00 00 00 00 00 00 00")).unsignedIntegerOfOnly(UInt64.self)
        }
        expectDERError(.integerTooLarge, at: 0) {
            try DERReader(hex("02 0A 00 FF FF FF FF FF FF FF FF FF")).unsignedIntegerOfOnly(UInt64.self)
        }
        expectDERError(.integerTooLarge, at: 4) {
            try DERReader.parse(hex("30 06 05 00 02 02 01 00"), .sequence, "outer") { reader throws(DERError) in
                try reader.readNull("null")
                return try reader.readUnsigned("small", as: UInt8.self)
            }
        }
    }

    @Test("unsigned decoding: zero and the maximum values accepted")
    func unsignedAccepted() throws {
        #expect(try DERReader(hex("02 01 00")).unsignedIntegerOfOnly(UInt8.self) == 0)
        #expect(try DERReader(hex("02 01 00")).unsignedIntegerOfOnly(UInt64.self) == 0)
        #expect(try DERReader(hex("02 01 7F")).unsignedIntegerOfOnly(UInt8.self) == 127)
        #expect(try DERReader(hex("02 02 00 FF")).unsignedIntegerOfOnly(UInt8.self) == UInt8.max)
        #expect(try DERReader(hex("02 03 00 FF FF")).unsignedIntegerOfOnly(UInt16.self) == UInt16.max)
        #expect(try DERReader(hex("02 02 01 00")).unsignedIntegerOfOnly(UInt16.self) == 256)
        #expect(try DERReader(hex("02 08 7F FF FF FF FF FF FF FF")).unsignedIntegerOfOnly(UInt64.self) == UInt64(Int64.max))
        #expect(try DERReader(hex("02 09 00 FF FF FF FF FF FF FF FF")).unsignedIntegerOfOnly(UInt64.self) == UInt64.max)
        #expect(try DERReader(hex("02 09 00 80 00 00 00 00 00 00 01")).unsignedIntegerOfOnly(UInt64.self) == 1 << 63 | 1)
        // ENUMERATED shares the INTEGER rules.
        #expect(try DERReader(hex("0A 01 04")).unsignedIntegerOfOnly(UInt8.self) == 4)
    }

    @Test("DERWriter writes minimal INTEGERs that read back")
    func writerRoundTrip() throws {
        let cases: [(Int64, String)] = [
            (0, "02 01 00"), (127, "02 01 7F"), (128, "02 02 00 80"), (256, "02 02 01 00"),
            (-1, "02 01 FF"), (-128, "02 01 80"), (-129, "02 02 FF 7F"),
            (Int64.max, "02 08 7F FF FF FF FF FF FF FF"), (Int64.min, "02 08 80 00 00 00 00 00 00 00"),
        ]
        for (value, expected) in cases {
            var writer = DERWriter()
            writer.appendInteger(value)
            #expect(writer.bytes == hex(expected), "\(value)")
            _ = try integer(writer.bytes)
        }
    }
}

extension DERReader {
    /// Reads the reader's only element as an unsigned integer of type `T` and requires the input to end there.
    func unsignedIntegerOfOnly<T: FixedWidthInteger & UnsignedInteger>(_ type: T.Type) throws(DERError) -> T {
        var copy = self
        let element = try copy.readElement("test INTEGER")
        try copy.finish("input")
        return try copy.unsignedInteger(element, "test INTEGER", as: T.self)
    }
}
