// CertPathFoundation: `Date` conveniences for code that imports Foundation. The CertPath core is
// Foundation-free and keeps time as ``UnixTime`` (whole seconds since 1970-01-01T00:00:00Z, UTC,
// the resolution of X.509's UTCTime and GeneralizedTime, RFC 5280 4.1.2.5); this module only converts.
import CertPath
import Foundation

extension UnixTime {
    /// The whole second of `date` (rounded down, towards the past: 12:00:00.9 is 12:00:00).
    ///
    /// A certificate's validity is inclusive of both notBefore and notAfter (RFC 5280 4.1.2.5), so a
    /// time within the second of notAfter still counts as within the validity period.
    ///
    /// - Returns: `nil` when `date` is not finite or is beyond the range of seconds an `Int64` holds.
    public init?(_ date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, let whole = Int64(exactly: seconds) else { return nil }
        self.init(secondsSinceEpoch: whole)
    }

    /// The time as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: TimeInterval(secondsSinceEpoch)) }
}

extension TrustEvaluation {
    /// ``validationTime`` as a `Date` (SecTrustSetVerifyDate); `nil` means now. Setting a `Date`
    /// keeps its whole second (``UnixTime/init(_:)``). A `Date` no `UnixTime` can hold is clamped
    /// to the first or last second an `Int64` counts, and a not-a-number one to the first: such a
    /// time is outside every certificate's validity, so the evaluation fails rather than using now.
    public var validationDate: Date? {
        get { validationTime?.date }
        set {
            validationTime = newValue.map { date in
                UnixTime(date) ?? UnixTime(secondsSinceEpoch: date.timeIntervalSince1970 > 0 ? .max : .min)
            }
        }
    }
}

extension Certificate {
    /// The start of the validity period (notBefore, RFC 5280 4.1.2.5) as a `Date`.
    public var notBeforeDate: Date { notBefore.date }
    /// The end of the validity period (notAfter, RFC 5280 4.1.2.5, inclusive) as a `Date`.
    public var notAfterDate: Date { notAfter.date }
}
