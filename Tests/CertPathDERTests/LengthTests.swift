@_spi(Fuzzing) import CertPathDER
import Testing

/// Length octets (X.690 8.1.3, 10.1): definite, minimal, at most 4 octets, within the parent.
@Suite("DER lengths")
struct LengthTests {
    @Test("short form for lengths below 128")
    func shortForm() throws {
        let (_, empty) = try readOnly(hex("04 00"))
        #expect(empty.value == 2..<2)
        let (_, full) = try readOnly([0x04, 0x7F] + [UInt8](repeating: 0xAB, count: 127))
        #expect(full.tag == .octetString)
        #expect(full.offset == 0)
        #expect(full.value == 2..<129)
        #expect(full.encoded == 0..<129)
    }

    @Test("long form accepted for lengths of 128 and above, in the fewest octets")
    func longForm() throws {
        let (_, one) = try readOnly([0x04, 0x81, 0x80] + [UInt8](repeating: 0, count: 128))
        #expect(one.value == 3..<131)
        let (_, two) = try readOnly([0x04, 0x82, 0x01, 0x00] + [UInt8](repeating: 0, count: 256))
        #expect(two.value == 4..<260)
        let (_, three) = try readOnly([0x04, 0x83, 0x01, 0x00, 0x00] + [UInt8](repeating: 0, count: 65_536))
        #expect(three.value == 5..<65_541)
        // A 4-octet length is a legal header: what fails here is only the missing contents.
        expectDERError(.truncated, at: 0) { try readOnly(hex("04 84 01 00 00 00 00")) }
    }

    @Test("long form with a leading zero octet is not minimal")
    func leadingZeroOctet() {
        expectDERError(.nonMinimalLength, at: 1) { try readOnly(hex("04 82 00 80") + [UInt8](repeating: 0, count: 128)) }
        expectDERError(.nonMinimalLength, at: 1) { try readOnly(hex("04 81 00")) }
        expectDERError(.nonMinimalLength, at: 1) { try readOnly(hex("04 84 00 00 01 00") + [UInt8](repeating: 0, count: 256)) }
        // Offsets are from the start of the input, not of the enclosing structure.
        expectDERError(.nonMinimalLength, at: 5) {
            try DERReader.parse(hex("30 06 05 00 04 82 00 01 00"), .sequence, "outer") { reader throws(DERError) in
                try reader.readNull("first")
                return try reader.readOctetString("second")
            }
        }
    }

    @Test("long form for a length below 128 is not minimal")
    func longFormForShortLength() {
        expectDERError(.nonMinimalLength, at: 1) { try readOnly(hex("04 81 7F") + [UInt8](repeating: 0, count: 127)) }
        expectDERError(.nonMinimalLength, at: 1) { try readOnly(hex("04 81 01 00")) }
    }

    @Test("length fields of 5 octets or more, and the reserved 0xFF, are too large")
    func lengthTooLarge() {
        expectDERError(.lengthTooLarge, at: 1) { try readOnly(hex("04 85 01 00 00 00 00")) }
        expectDERError(.lengthTooLarge, at: 1) { try readOnly(hex("04 88 00 00 00 00 00 00 00 01 00")) }
        expectDERError(.lengthTooLarge, at: 1) { try readOnly(hex("04 FF")) }
        expectDERError(.lengthTooLarge, at: 1) { try readOnly(hex("04 FF") + [UInt8](repeating: 0xFF, count: 200)) }
    }

    @Test("indefinite length 0x80 is rejected")
    func indefiniteLength() {
        expectDERError(.indefiniteLength, at: 1) { try readOnly(hex("30 80 02 01 01 00 00")) }
        expectDERError(.indefiniteLength, at: 3) {
            try DERReader.parse(hex("30 04 30 80 00 00"), .sequence, "outer") { reader throws(DERError) in
                try reader.readElement("inner")
            }
        }
    }

    @Test("truncated header, length octets or contents")
    func truncated() {
        // No identifier octet at all.
        expectDERError(.truncated, at: 0) { try readOnly([]) }
        // Identifier without a length octet.
        expectDERError(.truncated, at: 1) { try readOnly(hex("04")) }
        // Long form announcing 2 length octets, only 1 present.
        expectDERError(.truncated, at: 2) { try readOnly(hex("04 82 01")) }
        expectDERError(.truncated, at: 2) { try readOnly(hex("04 81")) }
        // Contents shorter than the length: reported at the element's identifier octet.
        expectDERError(.truncated, at: 0) { try readOnly(hex("04 03 00 00")) }
        expectDERError(.truncated, at: 0) { try readOnly([0x04, 0x81, 0x80] + [UInt8](repeating: 0, count: 127)) }
        // A valid element, then a second one cut short.
        var reader = DERReader(hex("05 00 02 02 01"))
        #expect(throws: Never.self) { try reader.readNull("first") }
        expectDERError(.truncated, at: 2) { try reader.readElement("second") }
    }

    @Test("an element may not run past its parent, even when the buffer has the bytes")
    func elementLongerThanParent() {
        // SEQUENCE of length 3 holds `04 02 00`; the OCTET STRING claims 2 bytes but its parent ends after 1.
        let bytes = hex("30 03 04 02 00 00")
        expectDERError(.truncated, at: 2) {
            var reader = DERReader(bytes)
            let outer = try reader.read(.sequence, "outer")
            var inner = try reader.contents(of: outer, "outer")
            return try inner.readOctetString("inner")
        }
        expectDERError(.truncated, at: 2) { try DERNode.parse(bytes) }
        // The same bytes with a correct parent length are fine.
        #expect(throws: Never.self) { try DERNode.parse(hex("30 04 04 02 00 00")) }
    }
}
