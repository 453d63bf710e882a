@_spi(Fuzzing) import CertPathDER
import Testing

/// Character string alphabets (X.680 41; RFC 5280 4.1.2.4 DirectoryString, 4.2.1.6 IA5String).
@Suite("DER character strings")
struct StringTests {
    private func decode(_ bytes: [UInt8], _ tag: DERTag) -> String? {
        DERString.decode(bytes[...], tag: tag)
    }

    @Test("PrintableString: letters, digits, space and ' ( ) + , - . / : = ? only")
    func printableString() {
        let alphabet = "ABCXYZ abcxyz 0123456789 '()+,-./:=?"
        #expect(decode(ascii(alphabet), .printableString) == alphabet)
        #expect(decode([], .printableString) == "")
        for bad in ["*", "@", "&", "_", "!", "\"", "#", ";", "<", "[", "~", "\t", "\u{0}"] {
            #expect(decode(ascii("ab" + bad), .printableString) == nil, "\(bad.unicodeScalars.first!.value)")
        }
        #expect(decode([0x41, 0xC3, 0xA9], .printableString) == nil)
        // Every byte outside the table is rejected, and only those.
        let allowed = Set(ascii("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '()+,-./:=?"))
        for byte in UInt8.min...UInt8.max {
            #expect(DERString.isPrintable(byte) == allowed.contains(byte), "\(byte)")
        }
        // Inside a tree the whole element is blamed.
        expectDERError(.invalidString, at: 2) { try DERNode.parse(hex("30 04 13 02 41 2A")) }
    }

    @Test("IA5String: 0x00...0x7F only")
    func ia5String() {
        #expect(decode(ascii("user@example.com"), .ia5String) == "user@example.com")
        #expect(decode([0x00, 0x7F], .ia5String) == "\u{0}\u{7F}")
        #expect(decode([0x41, 0x80], .ia5String) == nil)
        #expect(decode([0xFF], .ia5String) == nil)
        #expect(decode([0xC3, 0xA9], .ia5String) == nil)
        expectDERError(.invalidString, at: 0) { try DERNode.parse(hex("16 01 80")) }
    }

    @Test("VisibleString and NumericString alphabets")
    func visibleAndNumeric() {
        #expect(decode(ascii(" ~Az"), .visibleString) == " ~Az")
        #expect(decode([0x1F], .visibleString) == nil)
        #expect(decode([0x7F], .visibleString) == nil)
        #expect(decode(ascii("0123 456"), .numericString) == "0123 456")
        #expect(decode(ascii("12a"), .numericString) == nil)
        #expect(decode(ascii("1-2"), .numericString) == nil)
    }

    @Test("UTF8String: well-formed UTF-8 only")
    func utf8String() {
        #expect(decode(hex("43 C3 A9 E2 82 AC F0 9F 98 80"), .utf8String) == "Cé€😀")
        for bad in ["C3", "80", "C0 AF", "C1 81", "E0 80 AF", "ED A0 80", "ED BF BF", "F4 90 80 80", "F8 88 80 80 80", "FF",
                    "E2 82", "41 F0 9F 98"] {
            #expect(decode(hex(bad), .utf8String) == nil, "\(bad)")
        }
        expectDERError(.invalidString, at: 2) { try DERNode.parse(hex("30 03 0C 01 C3")) }
    }

    @Test("BMPString: UCS-2 big-endian, even length, no surrogates")
    func bmpString() {
        #expect(decode(hex("00 41 00 E9 20 AC FF FD"), .bmpString) == "Aé€\u{FFFD}")
        #expect(decode([], .bmpString) == "")
        #expect(decode(hex("00 41 00"), .bmpString) == nil)
        #expect(decode(hex("00"), .bmpString) == nil)
        // A surrogate pair is UTF-16, not UCS-2; lone surrogates too.
        #expect(decode(hex("D8 3D DE 00"), .bmpString) == nil)
        #expect(decode(hex("DC 00"), .bmpString) == nil)
        #expect(decode(hex("00 41 D8 00"), .bmpString) == nil)
        expectDERError(.invalidString, at: 0) { try DERNode.parse(hex("1E 03 00 41 00")) }
    }

    @Test("UniversalString: UCS-4 big-endian scalars, length a multiple of 4")
    func universalString() {
        #expect(decode(hex("00 00 00 41 00 01 F6 00"), .universalString) == "A😀")
        #expect(decode(hex("00 00 00 41 00"), .universalString) == nil)
        #expect(decode(hex("00 00 D8 00"), .universalString) == nil)
        #expect(decode(hex("00 11 00 00"), .universalString) == nil)
        #expect(decode(hex("FF FF FF FF"), .universalString) == nil)
        expectDERError(.invalidString, at: 0) { try DERNode.parse(hex("1C 02 00 41")) }
    }

    @Test("TeletexString is read as ISO 8859-1 (Latin-1), every byte a character")
    func teletexString() {
        #expect(decode(hex("48 E9 6C 6C 6F"), .teletexString) == "Héllo")
        #expect(decode(hex("A9 FF"), .teletexString) == "©ÿ")
        let all = [UInt8](0...255)
        #expect(decode(all, .teletexString)?.unicodeScalars.map(\.value) == all.map(UInt32.init))
    }

    @Test("non-string tags are not decoded")
    func nonStringTags() {
        #expect(decode(ascii("abc"), .octetString) == nil)
        #expect(decode(ascii("abc"), .contextSpecific(2)) == nil)
        #expect(!DERString.isStringType(.octetString))
        #expect(!DERString.isStringType(.utcTime))
        for tag: DERTag in [.utf8String, .printableString, .ia5String, .visibleString, .numericString, .teletexString,
                            .bmpString, .universalString] {
            #expect(DERString.isStringType(tag))
        }
    }

    @Test("Every byte, alone and at each position of strings of 1 to 24 bytes: the alphabets as defined")
    func everyByteEveryPosition() {
        let printable = Set(ascii("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '()+,-./:=?"))
        let rules: [(DERTag, (UInt8) -> Bool)] = [
            (.printableString, { printable.contains($0) }),
            (.ia5String, { $0 < 0x80 }),
            (.visibleString, { $0 >= 0x20 && $0 <= 0x7E }),
            (.numericString, { $0 == 0x20 || (0x30...0x39).contains($0) }),
            (.utf8String, { $0 < 0x80 }),  // a lone byte is valid UTF-8 exactly when it is ASCII
        ]
        var rejected = 0
        for (tag, allowed) in rules {
            for byte in UInt8.min...UInt8.max {
                // Checked a word at a time with overlapping tails: put the byte everywhere.
                for count in 1...24 {
                    for position in Set([0, count / 2, count - 1]) {
                        var bytes = [UInt8](repeating: 0x31, count: count)  // "1": in every alphabet
                        bytes[position] = byte
                        let valid = bytes.withUnsafeBufferPointer { DERString.isValid($0, tag: tag) }
                        #expect(valid == allowed(byte), "\(tag) byte \(byte) at \(position) of \(count)")
                        if !valid { rejected += 1 }
                    }
                }
            }
        }
        #expect(rejected > 10_000)
    }

    @Test("decoding honours slice bounds")
    func sliceBounds() {
        let buffer = hex("FF 00 41 00 42 FF")
        #expect(DERString.decode(buffer[1..<5], tag: .bmpString) == "AB")
        #expect(DERString.decode(buffer[2..<5], tag: .bmpString) == nil)
        #expect(DERString.decode(buffer[1..<5], tag: .ia5String) == "\u{0}A\u{0}B")
    }
}
