#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's time of day, in whole seconds (the validation time of RFC 5280 6.1.1 (c) when the
/// caller gives none); every layer that needs "now" reads it here.
enum WallClock {
    /// Now, in whole seconds since 1970-01-01T00:00:00Z (POSIX `time`).
    static func now() -> UnixTime {
        UnixTime(secondsSinceEpoch: Int64(time(nil)))
    }
}
