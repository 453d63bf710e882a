/// What an evaluation asks a ``Fetcher`` for: one HTTP exchange (RFC 9110), bounded.
public struct FetchRequest: Hashable, Sendable, CustomStringConvertible {
    /// How the resource is asked for.
    public enum Method: Hashable, Sendable {
        /// HTTP GET of ``FetchRequest/url``: issuer certificates and CRLs (RFC 5280 4.2.2.1,
        /// 4.2.1.13), and OCSP requests small enough to go in the URL (RFC 6960 A.1).
        case get
        /// HTTP POST of `body` with the header `Content-Type: contentType`: an OCSP request
        /// (`application/ocsp-request`, RFC 6960 A.1) too long for a GET URL.
        case post(body: [UInt8], contentType: String)
    }

    /// An absolute `http://` URL, printable ASCII, as the certificate names it (an OCSP GET URL has the
    /// request appended). CertPath never asks for another scheme.
    public let url: String
    /// GET or POST.
    public let method: Method
    /// The most response-body bytes the evaluation accepts (``Budget/fetchResponseBytes``): a fetcher
    /// must stop reading once more arrive, and throw ``FetchError/responseTooLarge(limit:)``.
    public let maximumResponseBytes: Int

    /// A request; CertPath makes them, a test's fetcher may too.
    public init(url: String, method: Method = .get, maximumResponseBytes: Int) {
        self.url = url
        self.method = method
        self.maximumResponseBytes = maximumResponseBytes
    }

    /// `GET http://…` or `POST http://… (83 bytes, application/ocsp-request)`.
    public var description: String {
        switch method {
        case .get: return "GET \(url)"
        case .post(let body, let type): return "POST \(url) (\(body.count) bytes, \(type))"
        }
    }
}

/// Why a ``Fetcher`` brought nothing back. A failed fetch is never a trust decision: the evidence or
/// the issuer it was for is simply missing, and the evaluation decides as it would without it.
public enum FetchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The URL is not one the fetcher will use (not `http://`, or not a URL).
    case unsupportedURL
    /// The server answered with an HTTP status other than 200 (RFC 9110 15).
    case httpStatus(Int)
    /// The response body would exceed ``FetchRequest/maximumResponseBytes`` (the limit, in bytes).
    case responseTooLarge(limit: Int)
    /// The deadline passed before the response was complete.
    case timedOut
    /// The exchange failed otherwise: no connection, a reset, a malformed HTTP response… (the
    /// fetcher's words).
    case transport(String)

    /// `HTTP status 404`, `timed out`…
    public var description: String {
        switch self {
        case .unsupportedURL: return "unsupported URL"
        case .httpStatus(let status): return "HTTP status \(status)"
        case .responseTooLarge(let limit): return "response larger than \(limit) bytes"
        case .timedOut: return "timed out"
        case .transport(let reason): return "transport error: \(reason)"
        }
    }
}

/// The network, as the caller provides it: one synchronous HTTP exchange per call (Apple's
/// SecTrustSetNetworkFetchAllowed is the model; CertPath itself opens no socket).
///
/// An evaluation calls it only when ``TrustEvaluation/networkFetching`` is set, from the thread that
/// called ``TrustEvaluation/evaluate()``, one request at a time, at most ``Budget/fetches`` times, and
/// only for `http://` URLs found in the certificates it is building a path for (authorityInfoAccess
/// id-ad-caIssuers and id-ad-ocsp, RFC 5280 4.2.2.1; cRLDistributionPoints, 4.2.1.13). A fetcher may
/// be shared by many evaluations on many threads.
public protocol Fetcher: Sendable {
    /// Performs `request` and returns the response body of an HTTP 200 response.
    ///
    /// - Parameters:
    ///   - request: the URL, method and body, and the most bytes to accept.
    ///   - deadline: when the evaluation stops waiting, in whole seconds since the Unix epoch (UTC); the
    ///     fetcher must return or throw by then (``FetchError/timedOut``).
    /// - Returns: the body, at most `request.maximumResponseBytes` bytes (content codings removed).
    /// - Throws: ``FetchError``: `.unsupportedURL`, `.httpStatus` for a status other than 200,
    ///   `.responseTooLarge` as soon as the body would exceed the limit (read no further), `.timedOut`,
    ///   `.transport`.
    func fetch(_ request: FetchRequest, deadline: UnixTime) throws(FetchError) -> [UInt8]
}
