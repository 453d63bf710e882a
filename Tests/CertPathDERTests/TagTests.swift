@_spi(Fuzzing) import CertPathDER
import Testing

/// Identifier octets (X.690 8.1.2): low-tag-number form only, exact tags where the schema names one.
@Suite("DER tags")
struct TagTests {
    @Test("tag numbers 0...30 in one octet are accepted; the high-tag-number form is rejected")
    func lowTagsOnly() throws {
        for raw: UInt8 in [0x01, 0x1E, 0x3E, 0x9E, 0xBE, 0x5E, 0xDE] {
            let (_, element) = try readOnly([raw, 0x00])
            #expect(element.tag.rawValue == raw)
            #expect(element.tag.number == raw & 0x1F)
        }
        expectDERError(.highTagNumber, at: 0) { try readOnly(hex("1F 1F 00")) }
        expectDERError(.highTagNumber, at: 0) { try readOnly(hex("3F 81 00 00")) }
        expectDERError(.highTagNumber, at: 0) { try readOnly(hex("BF 1F 00")) }
        expectDERError(.highTagNumber, at: 0) { try readOnly(hex("5F 20 00")) }
        expectDERError(.highTagNumber, at: 0) { try readOnly(hex("FF 20 00")) }
        expectDERError(.highTagNumber, at: 2) { try DERNode.parse(hex("30 03 BF 01 00")) }
        expectDERError(.highTagNumber, at: 0) { try readOnly(hex("1F")) }
    }

    @Test("an unexpected tag is rejected and the cursor does not move")
    func unexpectedTag() throws {
        var reader = DERReader(hex("02 01 05 05 00"))
        expectDERError(.unexpectedTag, at: 0) { try reader.read(.boolean, "flag") }
        #expect(reader.position == 0)
        expectDERError(.unexpectedTag, at: 0) { try reader.sequence("seq") { _ throws(DERError) in 0 } }
        #expect(reader.position == 0)
        #expect(try reader.readOptional(.boolean, "flag") == nil)
        #expect(reader.position == 0)
        #expect(try reader.readUnsigned("version", as: UInt8.self) == 5)
        #expect(reader.position == 3)
        // Context-specific tags differ from universal ones with the same number.
        expectDERError(.unexpectedTag, at: 3) { try reader.read(.contextSpecific(5), "[5]") }
        #expect(reader.position == 3)
        try reader.readNull("null")
        // At the end of the structure a required element is missing: truncated, at the end offset.
        expectDERError(.truncated, at: 5) { try reader.read(.null, "missing") }
        #expect(try reader.readOptional(.null, "absent") == nil)
    }

    @Test("tag descriptions and fields")
    func tagFields() {
        #expect(DERTag.sequence.description == "SEQUENCE")
        #expect(DERTag.sequence.isConstructed)
        #expect(DERTag.contextSpecific(0, constructed: true).rawValue == 0xA0)
        #expect(DERTag.contextSpecific(2).rawValue == 0x82)
        #expect(DERTag.contextSpecific(3, constructed: true).description == "[3] constructed")
        #expect(DERTag(rawValue: 0x10).description == "universal 16")
        #expect(DERTag(rawValue: 0x41).description == "[APPLICATION 1]")
        #expect(DERTag(rawValue: 0xC2).tagClass == .private)
    }
}
