/// An instant as whole seconds since 1970-01-01T00:00:00Z (UTC, no leap seconds), as certificate
/// validity (RFC 5280 4.1.2.5) and the validation time of RFC 5280 6.1.1 (b) are expressed.
///
/// Certificates carry whole seconds only, so seconds are the unit throughout CertPath.
@frozen
public struct UnixTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since the Unix epoch; negative before 1970.
    public var secondsSinceEpoch: Int64

    /// Wraps a count of seconds since the Unix epoch.
    @inlinable
    public init(secondsSinceEpoch: Int64) { self.secondsSinceEpoch = secondsSinceEpoch }

    /// Creates the instant for a proleptic Gregorian date and time in UTC.
    ///
    /// - Returns: `nil` for year outside 0...9999, month outside 1...12, a day that month lacks,
    ///   hour above 23, minute or second above 59.
    @inlinable
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (0...9999).contains(year), (1...12).contains(month), day >= 1,
              day <= UnixTime.daysIn(month: month, year: year),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        let days = UnixTime.daysFromCivil(year: year, month: month, day: day)
        secondsSinceEpoch = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The UTC calendar fields of this instant.
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        // Floor division without overflow: `secondsSinceEpoch - 86_399` would trap near `Int64.min`.
        var days = secondsSinceEpoch / 86_400
        var secondsOfDay = Int(secondsSinceEpoch % 86_400)
        if secondsOfDay < 0 {
            days -= 1
            secondsOfDay += 86_400
        }
        let (year, month, day) = UnixTime.civilFromDays(Int(days))
        return (year, month, day, secondsOfDay / 3600, secondsOfDay / 60 % 60, secondsOfDay % 60)
    }

    /// RFC 3339 form in UTC: `2024-03-01T00:00:00Z`.
    public var description: String {
        let c = components
        // The common case written digit by digit into the 20 bytes (string interpolation cost
        // `certpath batch` 3 % of its time, issue 32); other years as before.
        if (0...9999).contains(c.year) {
            return String(unsafeUninitializedCapacity: 20) { out in
                func put(_ value: Int, _ width: Int, at offset: Int) {
                    var value = value
                    for position in stride(from: offset + width - 1, through: offset, by: -1) {
                        out[position] = UInt8(ascii: "0") + UInt8(value % 10)
                        value /= 10
                    }
                }
                put(c.year, 4, at: 0); out[4] = UInt8(ascii: "-"); put(c.month, 2, at: 5); out[7] = UInt8(ascii: "-")
                put(c.day, 2, at: 8); out[10] = UInt8(ascii: "T"); put(c.hour, 2, at: 11); out[13] = UInt8(ascii: ":")
                put(c.minute, 2, at: 14); out[16] = UInt8(ascii: ":"); put(c.second, 2, at: 17); out[19] = UInt8(ascii: "Z")
                return 20
            }
        }
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))Z"
    }

    /// Parses an RFC 3339 timestamp (`2024-03-01T00:00:00Z`, `2024-03-01T01:00:00+01:00`,
    /// fractional seconds truncated, `t`/`z` and a space separator accepted) or a date `2024-03-01`
    /// (midnight UTC).
    ///
    /// - Returns: `nil` when `text` is not of that form or names an impossible date.
    public init?(rfc3339 text: String) {
        let b = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= b.count else { return nil }
            var value = 0
            for index in range {
                let digit = b[index] &- 0x30
                guard digit <= 9 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard b.count >= 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        if b.count == 10 {
            self.init(year: year, month: month, day: day)
            return
        }
        guard b.count >= 20, [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(b[10]),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19) else { return nil }
        var index = 19
        if b[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < b.count, b[index] >= 0x30, b[index] <= 0x39 { index += 1 }
            guard index > fractionStart else { return nil }
        }
        var offset = 0
        guard index < b.count else { return nil }
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == b.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == b.count, b[index + 3] == UInt8(ascii: ":"),
                  let hours = number((index + 1)..<(index + 3)), let minutes = number((index + 4)..<(index + 6)),
                  hours <= 23, minutes <= 59 else { return nil }
            offset = (hours * 60 + minutes) * 60 * (b[index] == UInt8(ascii: "+") ? 1 : -1)
        default:
            return nil
        }
        guard let local = UnixTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
            return nil
        }
        self.init(secondsSinceEpoch: local.secondsSinceEpoch - Int64(offset))
    }

    @inlinable
    public static func < (lhs: UnixTime, rhs: UnixTime) -> Bool { lhs.secondsSinceEpoch < rhs.secondsSinceEpoch }

    @inlinable @inline(__always)
    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    @inlinable @inline(__always)
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    @inlinable @inline(__always)
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of ``daysFromCivil(year:month:day:)``.
    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
