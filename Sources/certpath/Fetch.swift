import CCurlFetch
import CertPath
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `certpath verify --fetch [--fetch-timeout SECONDS]`: network fetching through ``CurlFetcher``,
/// and how its records are shown.
enum FetchOptions {
    /// The option specs, for `verify`'s list.
    static let specs: [OptionSpec] = [
        .flag("fetch", "allow network access for this evaluation: fetch a missing intermediate (AIA caIssuers), OCSP "
              + "responses (AIA OCSP, RFC 6960 A.1) and CRLs (cRLDistributionPoints), http:// URLs only; at most 8 fetches"),
        .value("fetch-timeout", "SECONDS", "with --fetch: the time all fetching may take together, 1-300 (default 10)"),
    ]

    /// The default of `--fetch-timeout`, in seconds.
    static let defaultTimeout = 10

    /// Sets `evaluation.networkFetching` (and the time budget) from `--fetch` and `--fetch-timeout`.
    static func apply(_ arguments: ParsedArguments, to evaluation: inout TrustEvaluation) throws(CLIError) {
        var timeout = defaultTimeout
        if arguments.has("fetch-timeout") {
            guard arguments.has("fetch") else { throw CLIError("--fetch-timeout needs --fetch") }
            timeout = try arguments.wholeNumber("fetch-timeout", in: 1...300, unit: "seconds") ?? timeout
        }
        guard arguments.has("fetch") else { return }
        evaluation.policy.budget.fetchTime = timeout
        let map = getenv("CERTPATH_FETCH_URL_MAP").map { String(cString: $0) } ?? ""
        evaluation.networkFetching = NetworkFetching(fetcher: CurlFetcher(urlMap: try CurlFetcher.parseMap(map)))
    }

    /// One line per fetch record, under `fetches:` (nothing when there were none).
    static func humanLines(_ records: [FetchRecord]) -> [String] {
        guard !records.isEmpty else { return [] }
        return ["fetches (\(records.count)):"] + records.map { record in
            "  \(record.purpose.rawValue) for \(Output.safe(CertificateView.subject(record.certificate))): "
                + Output.safe(String(record.description.drop { $0 != " " }.dropFirst()))
        }
    }

    /// The JSON array of the records: `{"purpose", "url", "method", "certificate", "outcome", "bytes", "detail"}`.
    static func json(_ records: [FetchRecord]) -> JSON {
        .array(records.map { record in
            let (outcome, bytes, detail): (String, Int?, String?)
            switch record.outcome {
            case .fetched(let count, _): (outcome, bytes, detail) = ("fetched", count, nil)
            case .unreadable(let count, let reason): (outcome, bytes, detail) = ("unreadable", count, reason)
            case .failed(let error): (outcome, bytes, detail) = ("failed", nil, error.description)
            case .unsupportedURL: (outcome, bytes, detail) = ("unsupportedURL", nil, nil)
            case .budgetExhausted(let limit): (outcome, bytes, detail) = ("budgetExhausted", nil, limit.rawValue)
            }
            return .object([("purpose", .string(record.purpose.rawValue)), ("url", .string(record.url)), ("method", .string(record.method)),
                            ("certificate", .string(CertificateView.subject(record.certificate))), ("outcome", .string(outcome)),
                            ("bytes", .optional(bytes)), ("detail", .optional(detail))])
        })
    }
}

/// A ``Fetcher`` over libcurl, loaded with `dlopen` on the first fetch (Sources/CCurlFetch): without
/// `--fetch` neither libcurl nor the libraries it links (TLS, Kerberos, LDAP…) are loaded, which keeps
/// `certpath verify` starting as fast as `openssl verify` (Benchmarks/README.md, issue 32). One
/// exchange per hop, no cookies, no cache, `Accept-Encoding: identity`, the body counted as it arrives
/// and the transfer stopped once it passes the limit; redirects (RFC 9110 15.4) are followed here, at
/// most 5, and only to http:// URLs.
///
/// `urlMap` rewrites URL prefixes before fetching (`CERTPATH_FETCH_URL_MAP`, docs/CLI.md): the tests
/// point the placeholder locations of their certificates at servers on free loopback ports.
struct CurlFetcher: Fetcher {
    let urlMap: [(from: String, to: String)]

    /// Redirects followed for one request at most.
    static let maximumRedirects = 5

    /// Reads `FROM=TO` pairs separated by spaces; each FROM and TO an http:// URL prefix.
    static func parseMap(_ text: String) throws(CLIError) -> [(from: String, to: String)] {
        var map: [(from: String, to: String)] = []
        for pair in text.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts.allSatisfy({ $0.lowercased().hasPrefix("http://") }) else {
                throw CLIError("CERTPATH_FETCH_URL_MAP '\(Output.echo(String(pair)))': expected FROM=TO, two http:// URL prefixes")
            }
            map.append((parts[0], parts[1]))
        }
        return map
    }

    /// Whether `text` is an http:// URL with a host: the scheme, then an authority that is not empty.
    static func isHTTPURL(_ text: String) -> Bool {
        guard text.lowercased().hasPrefix("http://") else { return false }
        let authority = text.dropFirst(7).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        return !host.isEmpty && !host.hasPrefix(":") && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    func fetch(_ request: FetchRequest, deadline: UnixTime) throws(FetchError) -> [UInt8] {
        var text = request.url
        if let entry = urlMap.first(where: { text.hasPrefix($0.from) }) { text = entry.to + text.dropFirst(entry.from.count) }
        guard Self.isHTTPURL(text) else { throw .unsupportedURL }
        var method = request.method
        for _ in 0...Self.maximumRedirects {
            let remaining = deadline.secondsSinceEpoch - TrustEvaluation.now().secondsSinceEpoch
            guard remaining > 0 else { throw .timedOut }
            var result = certpath_http_result()
            defer { certpath_http_free(&result) }
            let outcome: certpath_http_outcome
            switch method {
            case .get:
                outcome = certpath_http_exchange(text, nil, 0, nil, Int(remaining) * 1000, request.maximumResponseBytes, &result)
            case .post(let body, let contentType):
                outcome = body.withUnsafeBufferPointer { buffer in
                    certpath_http_exchange(text, buffer.baseAddress, buffer.count, contentType, Int(remaining) * 1000,
                                           request.maximumResponseBytes, &result)
                }
            }
            switch outcome {
            case CERTPATH_HTTP_OK: break
            case CERTPATH_HTTP_TOO_LARGE: throw .responseTooLarge(limit: request.maximumResponseBytes)
            case CERTPATH_HTTP_TIMED_OUT: throw .timedOut
            case CERTPATH_HTTP_CODED: throw .contentEncoding(Self.string(&result.detail))
            default: throw .transport(Self.string(&result.detail))
            }
            let status = result.status
            if [301, 302, 303, 307, 308].contains(status) {
                // Only to http://: the Location itself is checked (a relative one stays on this
                // http:// server), then the URL libcurl resolved from it.
                let location = Self.string(&result.location)
                let scheme = location.firstIndex(of: ":").map { location[..<$0].lowercased() }
                let relative = scheme.map { $0.contains("/") || $0.contains("?") || $0.contains("#") } ?? true
                let next = Self.string(&result.redirect_url)
                guard relative || scheme == "http", Self.isHTTPURL(next) else {
                    throw .redirectRefused(String(location.prefix(200)))
                }
                // RFC 9110 15.4.2-4: a POST redirected by 301, 302 or 303 is retried as GET.
                if status != 307 && status != 308 { method = .get }
                text = next
                continue
            }
            guard status == 200 else { throw .httpStatus(Int(status)) }
            guard let body = result.body else { return [] }
            return Array(UnsafeBufferPointer(start: body, count: result.length))
        }
        throw .transport("more than \(Self.maximumRedirects) redirects")
    }

    /// A NUL-terminated C string field of a ``certpath_http_result`` (a fixed-size tuple in Swift).
    private static func string<T>(_ field: inout T) -> String {
        withUnsafeBytes(of: &field) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
