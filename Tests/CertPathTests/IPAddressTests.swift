import Testing

@testable import CertPath

/// Parsing and formatting of `IPAddress` (RFC 4291 2.2 input forms, RFC 5952 output).
@Suite("IPAddress")
struct IPAddressTests {
    struct ValidCase: Sendable, CustomTestStringConvertible {
        let text: String
        let bytes: [UInt8]
        let canonical: String
        let reason: String
        var testDescription: String { "\(text) — \(reason)" }
    }

    static let v6Loopback: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    static let v6DocPrefix: [UInt8] = [0x20, 0x01, 0x0D, 0xB8]

    static let validCases: [ValidCase] = [
        ValidCase(text: "192.0.2.1", bytes: [192, 0, 2, 1], canonical: "192.0.2.1", reason: "plain dotted quad"),
        ValidCase(text: "0.0.0.0", bytes: [0, 0, 0, 0], canonical: "0.0.0.0", reason: "single zeros are not leading zeros"),
        ValidCase(text: "255.255.255.255", bytes: [255, 255, 255, 255], canonical: "255.255.255.255", reason: "maximum octets"),
        ValidCase(text: "10.0.100.9", bytes: [10, 0, 100, 9], canonical: "10.0.100.9", reason: "zero inside a number is fine"),
        ValidCase(text: "::1", bytes: v6Loopback, canonical: "::1", reason: "loopback, compressed"),
        ValidCase(text: "::", bytes: [UInt8](repeating: 0, count: 16), canonical: "::", reason: "unspecified address"),
        ValidCase(
            text: "0:0:0:0:0:0:0:1", bytes: v6Loopback, canonical: "::1",
            reason: "full form compresses to ::1"),
        ValidCase(
            text: "0000:0000:0000:0000:0000:0000:0000:0001", bytes: v6Loopback, canonical: "::1",
            reason: "four-digit groups with leading zeros"),
        ValidCase(
            text: "2001:DB8::1", bytes: v6DocPrefix + [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
            canonical: "2001:db8::1", reason: "uppercase hex is lowercased"),
        ValidCase(
            text: "2001:0db8:0000:0000:0000:0000:0002:0001",
            bytes: v6DocPrefix + [0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1],
            canonical: "2001:db8::2:1", reason: "RFC 5952 4.1 leading zeros suppressed"),
        ValidCase(
            text: "2001:db8:0:1:1:1:1:1", bytes: v6DocPrefix + [0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1],
            canonical: "2001:db8:0:1:1:1:1:1", reason: "RFC 5952 4.2.2: a single zero group is not compressed"),
        ValidCase(
            text: "2001:0:0:1:0:0:0:1", bytes: [0x20, 0x01, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1],
            canonical: "2001:0:0:1::1", reason: "RFC 5952 4.2.3: the longest zero run is compressed"),
        ValidCase(
            text: "2001:db8:0:0:1:0:0:1", bytes: v6DocPrefix + [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1],
            canonical: "2001:db8::1:0:0:1", reason: "RFC 5952 4.2.3: on a tie the first run is compressed"),
        ValidCase(
            text: "1:2:3:4:5:6:7::", bytes: [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0],
            canonical: "1:2:3:4:5:6:7:0", reason: ":: may stand for a single group on input"),
        ValidCase(
            text: "::2:3:4:5:6:7:8", bytes: [0, 0, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8],
            canonical: "0:2:3:4:5:6:7:8", reason: "leading :: for one group"),
        ValidCase(
            text: "fe80::", bytes: [0xFE, 0x80] + [UInt8](repeating: 0, count: 14), canonical: "fe80::",
            reason: "trailing ::"),
        ValidCase(
            text: "::ffff:192.0.2.1", bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 0, 2, 1],
            canonical: "::ffff:192.0.2.1", reason: "IPv4-mapped, mixed notation kept (RFC 5952 5)"),
        ValidCase(
            text: "::FFFF:c000:0201", bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 0, 2, 1],
            canonical: "::ffff:192.0.2.1", reason: "IPv4-mapped in hex is written in mixed notation"),
        ValidCase(
            text: "0:0:0:0:0:ffff:192.0.2.1", bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 0, 2, 1],
            canonical: "::ffff:192.0.2.1", reason: "full form with embedded IPv4"),
        ValidCase(
            text: "64:ff9b::192.0.2.33", bytes: [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0, 192, 0, 2, 33],
            canonical: "64:ff9b::c000:221", reason: "embedded IPv4 that is not mapped is written in hex"),
        ValidCase(
            text: "::192.0.2.1", bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 192, 0, 2, 1],
            canonical: "::c000:201", reason: "deprecated IPv4-compatible form parses"),
        ValidCase(
            text: "1:2:3:4:5:6:1.2.3.4", bytes: [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 1, 2, 3, 4],
            canonical: "1:2:3:4:5:6:102:304", reason: "six groups plus embedded IPv4 fill 128 bits"),
        ValidCase(
            text: "0:0:1:0:0:0:0:0", bytes: [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            canonical: "0:0:1::", reason: "the longer trailing run wins over the leading run"),
    ]

    @Test("valid addresses parse to the expected octets and format canonically", arguments: validCases)
    func parsesValid(_ testCase: ValidCase) throws {
        let address = try #require(IPAddress(testCase.text))
        #expect(address.bytes == testCase.bytes)
        #expect(address.description == testCase.canonical)
        #expect(address.isIPv4 == (testCase.bytes.count == 4))
        // The canonical text parses back to the same address.
        #expect(IPAddress(testCase.canonical) == address)
    }

    struct InvalidCase: Sendable, CustomTestStringConvertible {
        let text: String
        let reason: String
        var testDescription: String { "\(text.debugDescription) — \(reason)" }
    }

    static let invalidCases: [InvalidCase] = [
        InvalidCase(text: "", reason: "empty"),
        InvalidCase(text: "1.2.3", reason: "IPv4 shorthand with three parts"),
        InvalidCase(text: "1.2.3.4.5", reason: "five parts"),
        InvalidCase(text: "127.1", reason: "inet_aton shorthand"),
        InvalidCase(text: "2130706433", reason: "a single 32-bit number"),
        InvalidCase(text: "0x7f.0.0.1", reason: "hexadecimal part"),
        InvalidCase(text: "0x7f.1", reason: "hexadecimal shorthand"),
        InvalidCase(text: "010.0.0.1", reason: "leading zero (octal in inet_aton)"),
        InvalidCase(text: "00.0.0.1", reason: "two zeros"),
        InvalidCase(text: "256.0.0.1", reason: "octet above 255"),
        InvalidCase(text: "1.2.3.-4", reason: "sign"),
        InvalidCase(text: "+1.2.3.4", reason: "sign"),
        InvalidCase(text: "1.2.3.4.", reason: "trailing dot"),
        InvalidCase(text: ".1.2.3.4", reason: "leading dot"),
        InvalidCase(text: "1..2.3", reason: "empty part"),
        InvalidCase(text: " 1.2.3.4", reason: "whitespace"),
        InvalidCase(text: "1.2.3.4/32", reason: "prefix length"),
        InvalidCase(text: "1.2.3.4:443", reason: "port"),
        InvalidCase(text: "1.2.3.1000", reason: "four-digit octet"),
        InvalidCase(text: "fe80::1%eth0", reason: "zone identifier"),
        InvalidCase(text: "fe80::1%25eth0", reason: "URI-encoded zone identifier"),
        InvalidCase(text: "[::1]", reason: "brackets"),
        InvalidCase(text: "1::2::3", reason: "two ::"),
        InvalidCase(text: ":::", reason: "triple colon"),
        InvalidCase(text: "1:::2", reason: "triple colon inside"),
        InvalidCase(text: "12345::1", reason: "five-digit group"),
        InvalidCase(text: "00001::1", reason: "five digits even with leading zeros"),
        InvalidCase(text: "1:2:3:4:5:6:7", reason: "seven groups without ::"),
        InvalidCase(text: "1:2:3:4:5:6:7:8:9", reason: "nine groups"),
        InvalidCase(text: "1:2:3:4::5:6:7:8", reason: ":: standing for no group"),
        InvalidCase(text: ":1:2:3:4:5:6:7", reason: "lone leading colon"),
        InvalidCase(text: "1:2:3:4:5:6:7:", reason: "lone trailing colon"),
        InvalidCase(text: ":1::", reason: "lone leading colon before ::"),
        InvalidCase(text: "1::2:", reason: "trailing colon after ::"),
        InvalidCase(text: "g::1", reason: "non-hex digit"),
        InvalidCase(text: "::ffff:1.2.3", reason: "embedded IPv4 shorthand"),
        InvalidCase(text: "::ffff:01.2.3.4", reason: "embedded IPv4 leading zero"),
        InvalidCase(text: "::1.2.3.4:1", reason: "embedded IPv4 not last"),
        InvalidCase(text: "1.2.3.4::", reason: "IPv4 before ::"),
        InvalidCase(text: "1:2:3:4:5:6:7:1.2.3.4", reason: "embedded IPv4 after seven groups: 144 bits"),
        InvalidCase(text: "1:2:3:4:5:6:7:8:1.2.3.4", reason: "far too long"),
        InvalidCase(text: "::ffff:1.2.3.4.", reason: "embedded IPv4 with trailing dot"),
        InvalidCase(text: "::1\u{0}", reason: "embedded NUL"),
        InvalidCase(text: "１.２.３.４", reason: "fullwidth digits"),
        InvalidCase(text: String(repeating: "0", count: 100) + "::1", reason: "very long input"),
    ]

    @Test("malformed addresses are refused", arguments: invalidCases)
    func refusesInvalid(_ testCase: InvalidCase) {
        #expect(IPAddress(testCase.text) == nil)
    }

    @Test("init(bytes:) accepts only 4 or 16 octets")
    func byteCounts() throws {
        for count in [0, 1, 3, 5, 8, 15, 17, 32] {
            #expect(IPAddress(bytes: [UInt8](repeating: 1, count: count)) == nil, "count \(count)")
        }
        #expect(IPAddress(bytes: [10, 0, 0, 1])?.description == "10.0.0.1")
        let v4 = try #require(IPAddress(bytes: [192, 0, 2, 1][...]))
        #expect(v4.isIPv4)
        #expect(v4.description == "192.0.2.1")
        let v6 = try #require(IPAddress(bytes: Self.v6Loopback))
        #expect(!v6.isIPv4)
        #expect(!v6.isIPv4Mapped)
        #expect(v6.description == "::1")
    }

    @Test("an IPv4 address is not equal to its IPv4-mapped IPv6 form")
    func mappedIsDistinct() throws {
        let v4 = try #require(IPAddress("192.0.2.1"))
        let mapped = try #require(IPAddress("::ffff:192.0.2.1"))
        #expect(mapped.isIPv4Mapped)
        #expect(!mapped.isIPv4)
        #expect(v4 != mapped)
    }

    @Test("every 16-octet value formats to text that parses back to it")
    func roundTripPseudoRandom() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            var bytes = [UInt8](repeating: 0, count: 16)
            for index in 0..<16 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                // Bias towards zero groups so that compression is exercised.
                let value = UInt8(truncatingIfNeeded: state >> 56)
                bytes[index] = value < 160 ? 0 : value
            }
            let address = try #require(IPAddress(bytes: bytes))
            let text = address.description
            #expect(IPAddress(text) == address, "\(text)")
            #expect(!text.contains(":::"), "\(text)")
        }
    }

    @Test("arbitrary text never crashes the parser, and what parses round-trips")
    func arbitraryText() {
        let alphabet = Array("0123456789abcdefABCDEF:.%[]x ".utf8) + [0, 0xC3, 0xA9]
        var state: UInt64 = 12345
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 59)  // 0...31
            var bytes: [UInt8] = []
            for _ in 0..<length {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if let address = IPAddress(text) {
                #expect(IPAddress(address.description) == address, "\(text)")
            }
        }
    }
}
