import CertPath
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `certpath verify --fetch [--fetch-timeout SECONDS]`: network fetching through ``URLSessionFetcher``,
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
        if let text = arguments.value("fetch-timeout") {
            guard arguments.has("fetch") else { throw CLIError("--fetch-timeout needs --fetch") }
            guard let seconds = Int(text), (1...300).contains(seconds) else {
                throw CLIError("--fetch-timeout '\(Output.echo(text))': expected a whole number of seconds from 1 to 300")
            }
            timeout = seconds
        }
        guard arguments.has("fetch") else { return }
        evaluation.policy.budget.fetchTime = timeout
        let map = ProcessInfo.processInfo.environment["CERTPATH_FETCH_URL_MAP"] ?? ""
        evaluation.networkFetching = NetworkFetching(fetcher: URLSessionFetcher(urlMap: try URLSessionFetcher.parseMap(map)))
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

/// A ``Fetcher`` over URLSession (FoundationNetworking, libcurl underneath; docs/DESIGN-NOTES.md says
/// why): one ephemeral session per fetch, no cookies, no cache, redirects followed only to http://
/// URLs, the body counted as it arrives and the transfer cancelled once it passes the limit.
///
/// `urlMap` rewrites URL prefixes before fetching (`CERTPATH_FETCH_URL_MAP`, docs/CLI.md): the tests
/// point the placeholder locations of their certificates at servers on free loopback ports.
struct URLSessionFetcher: Fetcher {
    let urlMap: [(from: String, to: String)]

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

    func fetch(_ request: FetchRequest, deadline: UnixTime) throws(FetchError) -> [UInt8] {
        var text = request.url
        if let entry = urlMap.first(where: { text.hasPrefix($0.from) }) { text = entry.to + text.dropFirst(entry.from.count) }
        guard text.lowercased().hasPrefix("http://"), let url = URL(string: text), url.host != nil else { throw .unsupportedURL }
        let remaining = Double(deadline.secondsSinceEpoch - TrustEvaluation.now().secondsSinceEpoch)
        guard remaining > 0 else { throw .timedOut }

        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: remaining)
        if case .post(let body, let contentType) = request.method {
            urlRequest.httpMethod = "POST"
            urlRequest.httpBody = Data(body)
            urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = remaining
        configuration.timeoutIntervalForResource = remaining
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        let transfer = Transfer(limit: request.maximumResponseBytes)
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: nil)
        let task = session.dataTask(with: urlRequest)
        task.resume()
        // A second beyond the deadline for URLSession's own timeout to report first.
        if transfer.done.wait(timeout: .now() + remaining + 1) == .timedOut {
            task.cancel()
            session.invalidateAndCancel()
            throw .timedOut
        }
        session.finishTasksAndInvalidate()
        return try transfer.result()
    }
}

/// One transfer's state, filled by URLSession's delegate callbacks (on its own queue) and read once
/// `done` is signalled.
final class Transfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let limit: Int
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var body: [UInt8] = []
    private var failure: FetchError?

    init(limit: Int) { self.limit = limit }

    func result() throws(FetchError) -> [UInt8] {
        let (body, failure) = lock.withLock { (self.body, self.failure) }
        if let failure { throw failure }
        return body
    }

    private func fail(_ error: FetchError) { lock.withLock { if failure == nil { failure = error } } }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if status != 200 {
            fail(.httpStatus(status))
            completionHandler(.cancel)
        } else if response.expectedContentLength > Int64(limit) {
            fail(.responseTooLarge(limit: limit))
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = lock.withLock { () -> Bool in
            guard failure == nil else { return false }
            guard body.count + data.count <= limit else {
                failure = .responseTooLarge(limit: limit)
                return true
            }
            body.append(contentsOf: data)
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        // Only to http:// (an https: or other target is not followed: the 3xx is then the answer).
        completionHandler(request.url?.scheme?.lowercased() == "http" ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if let error {
            let code = (error as NSError).code
            fail(code == NSURLErrorTimedOut ? .timedOut : .transport(error.localizedDescription))
        }
        done.signal()
    }
}
