@_spi(Fuzzing) import CertPathDER
import Testing

/// BOOLEAN (X.690 8.2, 11.1) and DEFAULT FALSE (X.690 11.5).
@Suite("DER BOOLEAN")
struct BooleanTests {
    private func boolean(_ bytes: [UInt8]) throws(DERError) -> Bool {
        var reader = DERReader(bytes)
        let value = try reader.readBoolean("test BOOLEAN")
        try reader.finish("input")
        return value
    }

    @Test("only 0x00 and 0xFF, in exactly one octet")
    func onlyZeroAndFF() throws {
        #expect(try boolean(hex("01 01 00")) == false)
        #expect(try boolean(hex("01 01 FF")) == true)
        for bad in ["01 01 01", "01 01 7F", "01 01 80", "01 01 FE"] {
            expectDERError(.invalidBoolean, at: 0) { try boolean(hex(bad)) }
        }
        expectDERError(.invalidBoolean, at: 0) { try boolean(hex("01 00")) }
        expectDERError(.invalidBoolean, at: 0) { try boolean(hex("01 02 FF FF")) }
        expectDERError(.invalidBoolean, at: 0) { try boolean(hex("01 02 00 00")) }
        expectDERError(.invalidBoolean, at: 2) { try DERNode.parse(hex("30 03 01 01 01")) }
    }

    @Test("BOOLEAN DEFAULT FALSE: explicit FALSE rejected, absent means false")
    func defaultFalse() throws {
        expectDERError(.explicitDefault, at: 2) {
            try DERReader.parse(hex("30 03 01 01 00"), .sequence, "Extension") { reader throws(DERError) in
                try reader.readBooleanDefaultFalse("critical")
            }
        }
        let explicitTrue = try DERReader.parse(hex("30 03 01 01 FF"), .sequence, "Extension") { reader throws(DERError) in
            try reader.readBooleanDefaultFalse("critical")
        }
        #expect(explicitTrue == true)
        // Absent before another element: false, and the cursor stays on that element.
        var reader = DERReader(hex("04 00"))
        #expect(try reader.readBooleanDefaultFalse("critical") == false)
        #expect(reader.position == 0)
        // Absent at the end of the structure.
        var empty = DERReader([])
        #expect(try empty.readBooleanDefaultFalse("critical") == false)
        // A present but malformed BOOLEAN is still a BOOLEAN error.
        var bad = DERReader(hex("01 01 01"))
        expectDERError(.invalidBoolean, at: 0) { try bad.readBooleanDefaultFalse("critical") }
    }

    /// Issue 30: TRUE written 0x01 (BER) is refused, not tolerated (Chromium, Go, rustls-webpki and
    /// pyca refuse it too); the error says what DER requires.
    @Test("TRUE written 0x01 is refused with a message naming X.690 11.1")
    func trueAsOneIsRefused() {
        do throws(DERError) {
            _ = try boolean(hex("01 01 01"))
            Issue.record("0x01 read as a BOOLEAN")
        } catch {
            #expect(error.code == .invalidBoolean && error.offset == 0)
            #expect(error.expected == "test BOOLEAN as 0x00 or 0xFF (X.690 11.1)")
        }
    }
}
