import CertPathDER
import Testing

/// UTCTime and GeneralizedTime in their DER forms (X.690 11.7, 11.8; RFC 5280 4.1.2.5.1, 4.1.2.5.2).
@Suite("DER UTCTime and GeneralizedTime")
struct TimeTests {
    /// Decodes `text` as the contents of a UTCTime (or GeneralizedTime) placed after a NULL, so the
    /// element starts at byte 2 of the input and offsets are checked to be the element's.
    private func time(_ text: String, generalized: Bool = false) throws(DERError) -> UnixTime {
        let contents = ascii(text)
        var reader = DERReader([0x05, 0x00, generalized ? 0x18 : 0x17, UInt8(contents.count)] + contents)
        try reader.readNull("padding")
        let (value, isGeneralized) = try reader.readTime("validity")
        try reader.finish("input")
        #expect(isGeneralized == generalized)
        return value
    }

    private func seconds(_ text: String, generalized: Bool = false) throws -> Int64 {
        try time(text, generalized: generalized).secondsSinceEpoch
    }

    @Test("DER forms YYMMDDHHMMSSZ and YYYYMMDDHHMMSSZ are accepted")
    func derForms() throws {
        #expect(try seconds("700101000000Z") == 0)
        #expect(try seconds("261130103609Z") == 1_796_034_969)
        #expect(try seconds("19700101000000Z", generalized: true) == 0)
        #expect(try seconds("20500101000000Z", generalized: true) == 2_524_608_000)
        #expect(try seconds("99991231235959Z", generalized: true) == 253_402_300_799)
        #expect(try seconds("19491231235959Z", generalized: true) == UnixTime(year: 1949, month: 12, day: 31, hour: 23, minute: 59, second: 59)!.secondsSinceEpoch)
    }

    @Test("UTCTime years pivot at 50: YY < 50 is 20YY, otherwise 19YY")
    func utcTimePivot() throws {
        #expect(try seconds("491231235959Z") == 2_524_607_999)
        #expect(try time("491231235959Z").description == "2049-12-31T23:59:59Z")
        #expect(try seconds("500101000000Z") == -631_152_000)
        #expect(try time("500101000000Z").description == "1950-01-01T00:00:00Z")
        #expect(try time("000101000000Z").description == "2000-01-01T00:00:00Z")
        #expect(try time("991231235959Z").description == "1999-12-31T23:59:59Z")
    }

    @Test("missing seconds rejected")
    func missingSeconds() {
        expectDERError(.invalidTime, at: 2) { try time("4912312359Z") }
        expectDERError(.invalidTime, at: 2) { try time("204912312359Z", generalized: true) }
    }

    @Test("missing or lowercase Z rejected")
    func missingZ() {
        expectDERError(.invalidTime, at: 2) { try time("491231235959") }
        expectDERError(.invalidTime, at: 2) { try time("4912312359590") }
        expectDERError(.invalidTime, at: 2) { try time("491231235959z") }
        expectDERError(.invalidTime, at: 2) { try time("20491231235959", generalized: true) }
        expectDERError(.invalidTime, at: 2) { try time("204912312359590", generalized: true) }
    }

    @Test("time zone offsets rejected, +0000 included")
    func offsets() {
        expectDERError(.invalidTime, at: 2) { try time("4912312359+0000") }
        expectDERError(.invalidTime, at: 2) { try time("491231235959+0000") }
        expectDERError(.invalidTime, at: 2) { try time("491231235959-0100") }
        expectDERError(.invalidTime, at: 2) { try time("20491231235959+0000", generalized: true) }
        expectDERError(.invalidTime, at: 2) { try time("204912312359+0000", generalized: true) }
    }

    @Test("fractional seconds in GeneralizedTime rejected")
    func fractionalSeconds() {
        expectDERError(.invalidTime, at: 2) { try time("20491231235959.5Z", generalized: true) }
        expectDERError(.invalidTime, at: 2) { try time("20491231235959.0Z", generalized: true) }
        expectDERError(.invalidTime, at: 2) { try time("20491231235959,5Z", generalized: true) }
        expectDERError(.invalidTime, at: 2) { try time("204912312359.5Z", generalized: true) }
    }

    @Test("month 00 and 13 rejected")
    func invalidMonth() throws {
        expectDERError(.invalidTime, at: 2) { try time("491331235959Z") }
        expectDERError(.invalidTime, at: 2) { try time("490031235959Z") }
        expectDERError(.invalidTime, at: 2) { try time("20491301000000Z", generalized: true) }
        #expect(try time("491201000000Z").description == "2049-12-01T00:00:00Z")
    }

    @Test("day 00, day 32 and days a month lacks rejected")
    func invalidDay() throws {
        expectDERError(.invalidTime, at: 2) { try time("490132000000Z") }
        expectDERError(.invalidTime, at: 2) { try time("490100000000Z") }
        expectDERError(.invalidTime, at: 2) { try time("490431000000Z") }
        expectDERError(.invalidTime, at: 2) { try time("20491131000000Z", generalized: true) }
        #expect(try time("490131000000Z").description == "2049-01-31T00:00:00Z")
        #expect(try time("490430000000Z").description == "2049-04-30T00:00:00Z")
    }

    @Test("February 29 only in leap years: divisible by 4, except centuries not divisible by 400")
    func leapDay() throws {
        expectDERError(.invalidTime, at: 2) { try time("490229000000Z") }
        #expect(try seconds("480229000000Z") == 2_466_547_200)
        #expect(try seconds("000229000000Z") == 951_782_400)
        #expect(try seconds("20000229000000Z", generalized: true) == 951_782_400)
        expectDERError(.invalidTime, at: 2) { try time("19000229000000Z", generalized: true) }
        expectDERError(.invalidTime, at: 2) { try time("21000229000000Z", generalized: true) }
        #expect(try time("24000229000000Z", generalized: true).description == "2400-02-29T00:00:00Z")
        expectDERError(.invalidTime, at: 2) { try time("990229000000Z") }
        #expect(try time("960229000000Z").description == "1996-02-29T00:00:00Z")
    }

    @Test("hour 24, minute 60 and second 60 rejected")
    func invalidTimeOfDay() {
        expectDERError(.invalidTime, at: 2) { try time("491231240000Z") }
        expectDERError(.invalidTime, at: 2) { try time("491231236000Z") }
        expectDERError(.invalidTime, at: 2) { try time("491231235960Z") }
        expectDERError(.invalidTime, at: 2) { try time("20491231240000Z", generalized: true) }
        expectDERError(.invalidTime, at: 2) { try time("20161231235960Z", generalized: true) }
    }

    @Test("non-digit characters rejected")
    func nonDigits() {
        for text in ["49123123595aZ", "4912312359 9Z", " 91231235959Z", "4-1231235959Z", "49/231235959Z",
                     "49123123:959Z", "ZZZZZZZZZZZZZ", "4912312359\u{0}9Z"] {
            expectDERError(.invalidTime, at: 2) { try time(text) }
        }
        for text in ["2049 231235959Z", "+0491231235959Z", "2O491231235959Z", "204A1231235959Z"] {
            expectDERError(.invalidTime, at: 2) { try time(text, generalized: true) }
        }
    }

    @Test("a tag other than UTCTime or GeneralizedTime is an unexpected tag")
    func wrongTag() {
        var reader = DERReader(hex("05 00") + [0x13, 13] + ascii("491231235959Z"))
        expectDERError(.unexpectedTag, at: 2) {
            try reader.readNull("padding")
            return try reader.readTime("notBefore")
        }
    }

    /// The DER time forms one character at a time: the reference the word-at-a-time decoding must match.
    private static func reference(_ contents: [UInt8], generalized: Bool) -> UnixTime? {
        guard contents.count == (generalized ? 15 : 13), contents.last == UInt8(ascii: "Z") else { return nil }
        var digits: [Int] = []
        for byte in contents.dropLast() {
            guard (0x30...0x39).contains(byte) else { return nil }
            digits.append(Int(byte - 0x30))
        }
        var pairs = stride(from: 0, to: digits.count, by: 2).map { digits[$0] * 10 + digits[$0 + 1] }
        let year: Int
        if generalized {
            year = pairs[0] * 100 + pairs[1]
            pairs.removeFirst(2)
        } else {
            year = pairs[0] < 50 ? 2000 + pairs[0] : 1900 + pairs[0]
            pairs.removeFirst()
        }
        return UnixTime(year: year, month: pairs[0], day: pairs[1], hour: pairs[2], minute: pairs[3], second: pairs[4])
    }

    @Test("Every byte at every position of valid UTCTime and GeneralizedTime contents: the same verdict as one digit at a time")
    func everyByteEveryPosition() {
        var rejected = 0
        for (text, generalized) in [("491231235959Z", false), ("20240229120000Z", true)] {
            let valid = ascii(text)
            for position in valid.indices {
                for byte in UInt8.min...UInt8.max {
                    var contents = valid
                    contents[position] = byte
                    let expected = Self.reference(contents, generalized: generalized)
                    let decoded = try? time(String(decoding: contents, as: UTF8.self), generalized: generalized)
                    // Bytes above 0x7F do not survive the String round trip: decode them from bytes.
                    let direct = Self.decodeBytes(contents, generalized: generalized)
                    #expect(direct == expected, "\(text) with byte \(byte) at \(position)")
                    if byte < 0x80 { #expect(decoded == expected, "\(text) with byte \(byte) at \(position)") }
                    if expected == nil { rejected += 1 }
                }
            }
        }
        #expect(rejected > 5_000)
    }

    @Test("Random dates and times, in range and out: the same instant or refusal as one digit at a time")
    func randomFields() {
        var state: UInt64 = 0x7157
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var accepted = 0
        for _ in 0..<5_000 {
            let generalized = next(2) == 0
            let fields = [next(100), next(14), next(33), next(25), next(61), next(61)]
            let text = (generalized ? two(next(100)) : "") + fields.map(two).joined() + "Z"
            let contents = ascii(text)
            let expected = Self.reference(contents, generalized: generalized)
            #expect(Self.decodeBytes(contents, generalized: generalized) == expected, "\(text)")
            if expected != nil { accepted += 1 }
        }
        #expect(accepted > 1_000 && accepted < 5_000)
    }

    /// Decodes contents given as bytes through a reader (UTCTime or GeneralizedTime element).
    private static func decodeBytes(_ contents: [UInt8], generalized: Bool) -> UnixTime? {
        let reader = DERReader([generalized ? 0x18 : 0x17, UInt8(contents.count)] + contents)
        let element = DERElement(tag: generalized ? .generalizedTime : .utcTime, offset: 0, value: 2..<(2 + contents.count))
        return try? reader.time(element, "validity")
    }
}
