/// Network access allowed for one evaluation (``TrustEvaluation/networkFetching``; off, `nil`, by
/// default): the ``Fetcher`` to use and what it may be used for. Limits are the policy's
/// ``Budget`` (``Budget/fetches``, ``Budget/fetchResponseBytes``, ``Budget/fetchTime``).
///
/// With it, ``TrustEvaluation/evaluate()`` evaluates as without it, then fetches what the result
/// lacks — the issuer of a certificate whose issuer was not found (its id-ad-caIssuers URIs), and
/// revocation evidence for each certificate of the path found (an OCSP response from its id-ad-ocsp
/// URIs; its CRLs from its cRLDistributionPoints when it names no OCSP responder or none answered;
/// nothing for a certificate a current response of ``TrustEvaluation/revocationEvidence`` names) —
/// and evaluates again with it, until nothing new is learned or the budget runs out. What was fetched
/// and what failed is in ``TrustResult/fetches``.
public struct NetworkFetching: Sendable {
    /// The caller's network.
    public var fetcher: any Fetcher
    /// Fetch missing issuers from id-ad-caIssuers URIs (RFC 5280 4.2.2.1); default `true`.
    public var fetchesIssuers: Bool
    /// Fetch OCSP responses (RFC 6960) and CRLs (RFC 5280 4.2.1.13) for the path's certificates;
    /// default `true`. The fetched evidence is judged as evidence the caller gave
    /// (``TrustEvaluation/revocationEvidence``); the policy's ``ValidationPolicy/undeterminedRevocationStatus``
    /// decides what a status still unknown means.
    public var fetchesRevocation: Bool
    /// The clock the time budget is measured by; `nil` (default) means the system clock
    /// (``TrustEvaluation/now()``). Tests give their own.
    public var clock: (@Sendable () -> UnixTime)?

    /// Fetching with `fetcher`, for issuers and revocation unless told otherwise.
    public init(fetcher: any Fetcher, fetchesIssuers: Bool = true, fetchesRevocation: Bool = true,
                clock: (@Sendable () -> UnixTime)? = nil) {
        self.fetcher = fetcher
        self.fetchesIssuers = fetchesIssuers
        self.fetchesRevocation = fetchesRevocation
        self.clock = clock
    }
}
