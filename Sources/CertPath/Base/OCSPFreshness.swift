/// When an OCSP response is current (RFC 6960 4.2.2.1, 2.4): the validation time must lie between
/// its thisUpdate and its nextUpdate, allowing for clocks that disagree.
///
/// - thisUpdate after the validation time plus ``clockSkew``: not yet valid (the responder's clock
///   may run ahead; OpenSSL's `OCSP_check_validity` allows five minutes, as here).
/// - nextUpdate before the validation time: expired (RFC 6960 4.2.2.1: "Responses whose nextUpdate
///   value is earlier than the local system time value SHOULD be considered unreliable").
/// - no nextUpdate (the responder says newer information is always available, RFC 6960 2.4): the
///   response is current for ``maximumAgeWithoutNextUpdate`` after its thisUpdate (seven days, as
///   Chromium bounds a response's age).
///
/// A response that is not current cannot show that a certificate is good; an authentic one that
/// says revoked (other than certificateHold) still does: a revocation is permanent (RFC 5280 3.3),
/// as for an out-of-date CRL.
public struct OCSPFreshness: Hashable, Sendable {
    /// Seconds thisUpdate may lie after the validation time (default 300).
    public var clockSkew: Int64
    /// Seconds after thisUpdate that a response without nextUpdate stays current (default 604,800:
    /// seven days).
    public var maximumAgeWithoutNextUpdate: Int64

    /// Creates the rule; the defaults are the documented ones.
    public init(clockSkew: Int64 = 300, maximumAgeWithoutNextUpdate: Int64 = 7 * 86_400) {
        self.clockSkew = clockSkew
        self.maximumAgeWithoutNextUpdate = maximumAgeWithoutNextUpdate
    }

    /// The defaults.
    public static let `default` = OCSPFreshness()

    /// Whether a SingleResponse of `thisUpdate` is not yet valid at `time`: thisUpdate after it by
    /// more than ``clockSkew``.
    package func isNotYetValid(thisUpdate: UnixTime, at time: UnixTime) -> Bool {
        thisUpdate.secondsSinceEpoch > time.secondsSinceEpoch + clockSkew
    }

    /// Whether a SingleResponse is no longer current at `time`: its nextUpdate is before it, or it
    /// has none and its thisUpdate is older than ``maximumAgeWithoutNextUpdate``.
    package func isStale(thisUpdate: UnixTime, nextUpdate: UnixTime?, at time: UnixTime) -> Bool {
        guard let nextUpdate else { return thisUpdate.secondsSinceEpoch + maximumAgeWithoutNextUpdate < time.secondsSinceEpoch }
        return nextUpdate < time
    }

    /// Whether a SingleResponse is current at `time`: neither not yet valid nor stale.
    package func isCurrent(thisUpdate: UnixTime, nextUpdate: UnixTime?, at time: UnixTime) -> Bool {
        !isNotYetValid(thisUpdate: thisUpdate, at: time) && !isStale(thisUpdate: thisUpdate, nextUpdate: nextUpdate, at: time)
    }
}
