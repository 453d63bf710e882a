import CertPathDER
import Testing

/// UnixTime: proleptic Gregorian calendar arithmetic, RFC 3339 parsing and rendering.
@Suite("UnixTime")
struct UnixTimeTests {
    private func seconds(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Int64? {
        UnixTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)?.secondsSinceEpoch
    }

    @Test("days from civil across 1970, 1969, 2000-02-29 and the calendar's ends")
    func daysFromCivil() {
        #expect(seconds(1970, 1, 1) == 0)
        #expect(seconds(1970, 1, 1, 0, 0, 1) == 1)
        #expect(seconds(1970, 1, 2) == 86_400)
        #expect(seconds(1969, 12, 31, 23, 59, 59) == -1)
        #expect(seconds(1969, 12, 31) == -86_400)
        #expect(seconds(1969, 1, 1) == -365 * 86_400)
        #expect(seconds(1972, 3, 1) == 68_256_000)  // 730 + 31 + 29 days
        #expect(seconds(2000, 2, 28) == 951_696_000)
        #expect(seconds(2000, 2, 29) == 951_782_400)
        #expect(seconds(2000, 3, 1) == 951_868_800)
        #expect(seconds(1900, 3, 1)! - seconds(1900, 2, 28)! == 86_400)
        #expect(seconds(2024, 3, 1) == 1_709_251_200)
        #expect(seconds(2049, 12, 31, 23, 59, 59) == 2_524_607_999)
        #expect(seconds(1950, 1, 1) == -631_152_000)
        #expect(seconds(9999, 12, 31, 23, 59, 59) == 253_402_300_799)
        #expect(seconds(0, 1, 1) == -62_167_219_200)
        #expect(seconds(0, 2, 29) != nil)  // year 0 is a leap year (divisible by 400)
    }

    @Test("impossible dates and times are nil")
    func invalidFields() {
        #expect(seconds(10_000, 1, 1) == nil)
        #expect(seconds(-1, 12, 31) == nil)
        #expect(seconds(2024, 0, 1) == nil)
        #expect(seconds(2024, 13, 1) == nil)
        #expect(seconds(2024, 1, 0) == nil)
        #expect(seconds(2024, 1, 32) == nil)
        #expect(seconds(2023, 2, 29) == nil)
        #expect(seconds(2100, 2, 29) == nil)
        #expect(seconds(2024, 6, 31) == nil)
        #expect(seconds(2024, 1, 1, 24) == nil)
        #expect(seconds(2024, 1, 1, 0, 60) == nil)
        #expect(seconds(2024, 1, 1, 0, 0, 60) == nil)
        #expect(seconds(2024, 1, 1, -1) == nil)
    }

    @Test("components invert the construction, before and after the epoch")
    func components() throws {
        let samples: [(Int, Int, Int, Int, Int, Int)] = [
            (1970, 1, 1, 0, 0, 0), (1969, 12, 31, 23, 59, 59), (2000, 2, 29, 12, 34, 56), (1900, 3, 1, 0, 0, 0),
            (0, 1, 1, 0, 0, 0), (9999, 12, 31, 23, 59, 59), (1600, 2, 29, 1, 2, 3), (2049, 12, 31, 23, 59, 59),
        ]
        for sample in samples {
            let time = try #require(UnixTime(year: sample.0, month: sample.1, day: sample.2,
                                             hour: sample.3, minute: sample.4, second: sample.5))
            let c = time.components
            #expect(c.year == sample.0 && c.month == sample.1 && c.day == sample.2, "\(sample)")
            #expect(c.hour == sample.3 && c.minute == sample.4 && c.second == sample.5, "\(sample)")
        }
        // Every day for eight years around 2000 maps back to itself.
        for day in Int64(10_950)...Int64(13_880) {
            let c = UnixTime(secondsSinceEpoch: day * 86_400 + 3_661).components
            #expect(UnixTime(year: c.year, month: c.month, day: c.day, hour: c.hour, minute: c.minute, second: c.second)?
                .secondsSinceEpoch == day * 86_400 + 3_661)
        }
    }

    @Test("description is RFC 3339 in UTC")
    func description() {
        #expect(UnixTime(secondsSinceEpoch: 0).description == "1970-01-01T00:00:00Z")
        #expect(UnixTime(secondsSinceEpoch: -1).description == "1969-12-31T23:59:59Z")
        #expect(UnixTime(secondsSinceEpoch: 951_782_400).description == "2000-02-29T00:00:00Z")
        #expect(UnixTime(secondsSinceEpoch: 253_402_300_799).description == "9999-12-31T23:59:59Z")
        #expect(UnixTime(secondsSinceEpoch: -62_167_219_200).description == "0000-01-01T00:00:00Z")
        #expect(UnixTime(year: 5, month: 6, day: 7, hour: 8, minute: 9, second: 1)?.description == "0005-06-07T08:09:01Z")
    }

    @Test("extreme second counts render without trapping")
    func extremes() {
        let minimum = UnixTime(secondsSinceEpoch: .min).components
        // Int64.min = -106751991167301 days + 30592 s: 08:29:52.
        #expect(minimum.hour == 8 && minimum.minute == 29 && minimum.second == 52)
        let maximum = UnixTime(secondsSinceEpoch: .max).components
        // Int64.max = 106751991167300 days + 55807 s: 15:30:07.
        #expect(maximum.hour == 15 && maximum.minute == 30 && maximum.second == 7)
        #expect(UnixTime(secondsSinceEpoch: .max).description.hasSuffix("T15:30:07Z"))
        #expect(UnixTime(secondsSinceEpoch: .min).description.hasSuffix("T08:29:52Z"))
        #expect(UnixTime(secondsSinceEpoch: .min + 1) > UnixTime(secondsSinceEpoch: .min))
    }

    @Test("RFC 3339 accepted forms")
    func rfc3339Accepted() {
        let midnight = UnixTime(secondsSinceEpoch: 1_709_251_200)
        for text in ["2024-03-01T00:00:00Z", "2024-03-01t00:00:00z", "2024-03-01 00:00:00Z", "2024-03-01",
                     "2024-03-01T01:00:00+01:00", "2024-02-29T23:00:00-01:00", "2024-03-01T05:30:00+05:30",
                     "2024-03-01T00:00:00.999Z", "2024-03-01T00:00:00.0Z", "2024-03-01T01:00:00.5+01:00",
                     "2024-03-01T00:00:00+00:00", "2024-03-01T00:00:00-00:00"] {
            #expect(UnixTime(rfc3339: text) == midnight, "\(text)")
        }
        #expect(UnixTime(rfc3339: "1969-12-31T23:59:59Z")?.secondsSinceEpoch == -1)
        #expect(UnixTime(rfc3339: "9999-12-31T23:59:59Z")?.secondsSinceEpoch == 253_402_300_799)
        #expect(UnixTime(rfc3339: "2000-02-29")?.secondsSinceEpoch == 951_782_400)
        // The description parses back.
        for value: Int64 in [0, -1, 951_782_400, 253_402_300_799, -62_167_219_200, 1_796_034_969] {
            let time = UnixTime(secondsSinceEpoch: value)
            #expect(UnixTime(rfc3339: time.description) == time)
        }
    }

    @Test("RFC 3339 rejected forms")
    func rfc3339Rejected() {
        for text in ["", "2024", "2024-3-01", "2024-03-1", "2024/03/01", "24-03-01", "2024-03-01X", "2024-03-01T",
                     "2024-03-01T00:00Z", "2024-03-01T00:00:00", "2024-03-01T00:00:00+0100", "2024-03-01T00:00:00+01",
                     "2024-03-01T00:00:00.Z", "2024-03-01T00:00:00.", "2024-03-01T00:00:00Zjunk",
                     "2024-03-01T00:00:00+01:00junk", "2024-03-01X00:00:00Z", "2024-03-01T00-00-00Z",
                     "2024-02-30", "2023-02-29", "1900-02-29", "2024-13-01", "2024-00-01", "2024-01-00",
                     "2024-03-01T24:00:00Z", "2024-03-01T00:60:00Z", "2024-03-01T00:00:60Z",
                     "2024-03-01T00:00:00+24:00", "2024-03-01T00:00:00+01:60", "2024-03-01T00:00:00 Z",
                     "+024-03-01", "2024-03-01T0a:00:00Z", "abcd-ef-gh", "2024-03-01T00:00:00UTC",
                     "2024-03-01T00:00:00.5", "２０２４-03-01"] {
            #expect(UnixTime(rfc3339: text) == nil, "\(text)")
        }
    }
}
