/// One thing an evaluation fetched, or meant to fetch, and what came of it (``TrustResult/fetches``).
public struct FetchRecord: Hashable, Sendable, CustomStringConvertible {
    /// What a fetch was for.
    public enum Purpose: String, Hashable, Sendable {
        /// The issuer of ``FetchRecord/certificate`` (id-ad-caIssuers, RFC 5280 4.2.2.1).
        case issuer
        /// An OCSP response for ``FetchRecord/certificate`` (id-ad-ocsp; RFC 6960 A.1).
        case ocsp
        /// A CRL covering ``FetchRecord/certificate`` (cRLDistributionPoints, RFC 5280 4.2.1.13).
        case crl
    }

    /// What came of it.
    public enum Outcome: Hashable, Sendable {
        /// Fetched and read: `bytes` long, `items` certificates (issuer), CRLs or one OCSP response.
        case fetched(bytes: Int, items: Int)
        /// Fetched, `bytes` long, but not readable as what was asked for (the reason, with the DER
        /// error's offset); nothing was added.
        case unreadable(bytes: Int, reason: String)
        /// The fetcher failed.
        case failed(FetchError)
        /// Not fetched: the URL is not `http://` (CertPath fetches nothing else).
        case unsupportedURL
        /// Not fetched: this limit of the ``Budget`` had run out.
        case budgetExhausted(BudgetLimit)
    }

    /// The certificate the fetch was for.
    public let certificate: Certificate
    /// Issuer, OCSP or CRL.
    public let purpose: Purpose
    /// The URL as the certificate names it (for OCSP, the responder's, without the GET request).
    public let url: String
    /// `GET` or `POST`.
    public let method: String
    /// What came of it.
    public let outcome: Outcome

    /// Whether something usable was fetched.
    public var succeeded: Bool {
        if case .fetched = outcome { return true }
        return false
    }

    /// `ocsp GET http://ocsp.example/: fetched 1234 bytes`.
    public var description: String {
        let result: String
        switch outcome {
        case .fetched(let bytes, let items):
            result = "fetched \(bytes) bytes" + (purpose == .ocsp ? "" : ", \(items) \(purpose == .issuer ? "certificate" : "CRL")\(items == 1 ? "" : "s")")
        case .unreadable(let bytes, let reason): result = "fetched \(bytes) bytes, unreadable: \(reason)"
        case .failed(let error): result = "failed: \(error)"
        case .unsupportedURL: result = "not fetched: only http:// URLs of printable ASCII without spaces or control characters are fetched"
        case .budgetExhausted(let limit): result = "not fetched: the \(limit.rawValue) limit was reached"
        }
        return "\(purpose.rawValue) \(method) \(url): \(result)"
    }
}
