import Foundation
import Testing
@testable import CertPath

/// A fetcher that serves TestVectors/fetch/served/ at `http://127.0.0.1:1/` and `ocsp` (any bytes) at
/// `http://127.0.0.1:2/`, and logs every request; its behaviour is set per test.
final class MemoryFetcher: Fetcher, @unchecked Sendable {
    private let lock = NSLock()
    private var log: [FetchRequest] = []
    var files: [String: [UInt8]]
    var ocsp: [UInt8]?
    /// Thrown instead of answering.
    var error: FetchError?
    /// Answer with the whole body even past the request's limit (a misbehaving fetcher).
    var ignoresLimit = false
    /// Called on every fetch (a test clock advances here).
    var onFetch: (@Sendable () -> Void)?

    init(files: [String: [UInt8]] = MemoryFetcher.served, ocsp: [UInt8]? = nil) {
        self.files = files
        self.ocsp = ocsp
    }

    static let served: [String: [UInt8]] = {
        var files: [String: [UInt8]] = [:]
        for name in ["intermediate.der", "intermediate.p7c", "intermediate.crl", "root.crl"] {
            files["http://127.0.0.1:1/" + name] = FetchingTests.bytes("served/" + name)
        }
        return files
    }()

    var requests: [FetchRequest] { lock.withLock { log } }

    func fetch(_ request: FetchRequest, deadline: UnixTime) throws(FetchError) -> [UInt8] {
        lock.withLock { log.append(request) }
        onFetch?()
        if let error { throw error }
        let body: [UInt8]
        if request.url.hasPrefix("http://127.0.0.1:2/"), let ocsp {
            body = ocsp
        } else if let file = files[request.url] {
            body = file
        } else {
            throw .httpStatus(404)
        }
        if body.count > request.maximumResponseBytes && !ignoresLimit { throw .responseTooLarge(limit: request.maximumResponseBytes) }
        return body
    }
}

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Int64 = 1_800_000_000
    var now: UnixTime { lock.withLock { UnixTime(secondsSinceEpoch: seconds) } }
    func advance(_ by: Int64) { lock.withLock { seconds += by } }
}

/// Network fetching (NetworkFetching, Budget.fetches/fetchResponseBytes/fetchTime) with an in-memory fetcher
/// over the TestVectors/fetch PKI: what is fetched, when, and what a failure or a limit does.
@Suite("Network fetching")
struct FetchingTests {
    static func bytes(_ file: String) -> [UInt8] {
        (try? [UInt8](Data(contentsOf: TestCertificates.testVectors.appendingPathComponent("fetch/" + file)))) ?? []
    }
    static func certificate(_ file: String) throws -> Certificate { try #require(try TestCertificates.all("fetch/" + file).first) }

    /// After every certificate's notBefore (generate.sh issues them from the day it runs).
    static let time = UnixTime(year: 2030, month: 1, day: 1)!

    static func evaluation(_ leaf: String, intermediates: [String] = [], fetcher: MemoryFetcher?, revocation: Bool = true,
                           budget: Budget = Budget(), clock: TestClock? = nil,
                           mode: UndeterminedRevocationStatus = .rejectWhenIssuerHasCRLs) throws -> TrustEvaluation {
        var policy = try ValidationPolicy.server(hostname: "good.fetch.test")
        policy.purpose = .any
        policy.budget = budget
        policy.undeterminedRevocationStatus = mode
        let fetching = fetcher.map { f in
            NetworkFetching(fetcher: f, fetchesRevocation: revocation, clock: clock.map { c in { @Sendable in c.now } })
        }
        return TrustEvaluation(leaf: try certificate(leaf), intermediates: try intermediates.map(certificate),
                               trustStore: TrustStore(anchors: [try certificate("root.pem")]), policy: policy,
                               validationTime: time, networkFetching: fetching)
    }

    @Test("Fetching off (the default): the fetcher is never called, and the missing issuer stays missing")
    func offByDefault() throws {
        let fetcher = MemoryFetcher()
        var evaluation = try Self.evaluation("leaf-good.pem", fetcher: nil)
        #expect(evaluation.networkFetching == nil)
        let result = evaluation.evaluate()
        #expect(result.primaryFailure?.code == "issuerNotFound" && result.fetches.isEmpty)
        // The same evaluation given a fetcher but fetching nothing.
        evaluation.networkFetching = NetworkFetching(fetcher: fetcher, fetchesIssuers: false, fetchesRevocation: false)
        #expect(evaluation.evaluate().primaryFailure?.code == "issuerNotFound")
        #expect(fetcher.requests.isEmpty)
    }

    @Test("A missing intermediate is fetched from id-ad-caIssuers (DER), once, and the path is trusted")
    func issuerByAIA() throws {
        let fetcher = MemoryFetcher()
        let result = try Self.evaluation("leaf-good.pem", fetcher: fetcher, revocation: false).evaluate()
        #expect(result.isTrusted)
        #expect(fetcher.requests.map(\.description) == ["GET http://127.0.0.1:1/intermediate.der"])
        #expect(result.fetches.map(\.outcome) == [.fetched(bytes: Self.bytes("served/intermediate.der").count, items: 1)])
        #expect(result.fetches.first?.purpose == .issuer && result.fetches.first?.url == "http://127.0.0.1:1/intermediate.der")
    }

    @Test("The issuer served as a certs-only PKCS #7 message (RFC 5280 4.2.2.1) completes the path too")
    func issuerAsPKCS7() throws {
        var files = MemoryFetcher.served
        files["http://127.0.0.1:1/intermediate.der"] = Self.bytes("served/intermediate.p7c")
        let result = try Self.evaluation("leaf-good.pem", fetcher: MemoryFetcher(files: files), revocation: false).evaluate()
        #expect(result.isTrusted)
        let intermediate = try Self.certificate("intermediate.pem")
        #expect(try PKCS7Certificates.read(Self.bytes("served/intermediate.p7c")) == [intermediate])
    }

    @Test("The issuer served as PEM is read too")
    func issuerAsPEM() throws {
        var files = MemoryFetcher.served
        files["http://127.0.0.1:1/intermediate.der"] = Array(PEM.encode(Self.bytes("served/intermediate.der")).utf8)
        let result = try Self.evaluation("leaf-good.pem", fetcher: MemoryFetcher(files: files), revocation: false).evaluate()
        #expect(result.isTrusted)
    }

    @Test("An untrusted result that evidence cannot change (a host name mismatch) fetches no revocation evidence")
    func noRevocationFetchForOtherFailures() throws {
        let fetcher = MemoryFetcher()
        var evaluation = try Self.evaluation("leaf-good.pem", intermediates: ["intermediate.pem"], fetcher: fetcher)
        evaluation.policy.purpose = .serverAuthentication(try ReferenceIdentifier("other.fetch.test"))
        let result = evaluation.evaluate()
        #expect(result.primaryFailure?.code == "hostnameMismatch")
        #expect(fetcher.requests.isEmpty && result.fetches.isEmpty)
    }

    @Test("An unreadable issuer response is recorded with its reason, and nothing is learned")
    func unreadableIssuer() throws {
        var files = MemoryFetcher.served
        files["http://127.0.0.1:1/intermediate.der"] = Array("<html>not here</html>".utf8)
        let result = try Self.evaluation("leaf-good.pem", fetcher: MemoryFetcher(files: files), revocation: false).evaluate()
        #expect(result.primaryFailure?.code == "issuerNotFound")
        guard case .unreadable(let bytes, _)? = result.fetches.first?.outcome else {
            Issue.record("expected an unreadable record, got \(result.fetches)")
            return
        }
        #expect(bytes == 21 && result.fetches.count == 1)
    }

    @Test("A fetcher that throws: the failure is recorded, the verdict is what it is without fetching")
    func throwingFetcher() throws {
        let fetcher = MemoryFetcher()
        fetcher.error = .transport("connection refused")
        let missing = try Self.evaluation("leaf-good.pem", fetcher: fetcher).evaluate()
        #expect(missing.primaryFailure?.code == "issuerNotFound")
        #expect(missing.fetches.map(\.outcome) == [.failed(.transport("connection refused"))])
        // With the intermediate given, revocation fetches fail, and the path is trusted as without
        // evidence (rejectWhenIssuerHasCRLs: only CRLs at hand make a status required).
        let complete = try Self.evaluation("leaf-good.pem", intermediates: ["intermediate.pem"], fetcher: fetcher).evaluate()
        #expect(complete.isTrusted)
        #expect(complete.fetches.allSatisfy { $0.outcome == .failed(.transport("connection refused")) })
        // OCSP for the leaf, then its CRL; the intermediate's CRL.
        #expect(complete.fetches.map { "\($0.purpose) \($0.url)" } == [
            "ocsp http://127.0.0.1:2/", "crl http://127.0.0.1:1/intermediate.crl", "crl http://127.0.0.1:1/root.crl"])
        // Under reject, the missing evidence is an undetermined status, not a verdict of the fetch.
        let strict = try Self.evaluation("leaf-good.pem", intermediates: ["intermediate.pem"], fetcher: fetcher, mode: .reject).evaluate()
        #expect(strict.primaryFailure?.code == "revocationUnknown")
    }

    @Test("CRLs fetched from cRLDistributionPoints find a revoked leaf with no OCSP responder")
    func crlFetched() throws {
        let fetcher = MemoryFetcher()
        let result = try Self.evaluation("leaf-no-ocsp.pem", fetcher: fetcher).evaluate()
        guard case .revoked(let certificate, _, _, _)? = result.primaryFailure else {
            Issue.record("expected revoked, got \(String(describing: result.primaryFailure)); fetches \(result.fetches)")
            return
        }
        let expected = try Self.certificate("leaf-no-ocsp.pem")
        #expect(certificate == expected)
        #expect(fetcher.requests.map(\.url) == ["http://127.0.0.1:1/intermediate.der", "http://127.0.0.1:1/intermediate.crl",
                                                 "http://127.0.0.1:1/root.crl"])
        #expect(result.fetches.allSatisfy { $0.succeeded })
    }

    @Test("A successful OCSP response about another certificate answers nothing: the CRL is fetched and finds the revocation (review F2)")
    func ocspAboutAnotherCertificate() throws {
        // The responder answers every request with the stapled response for leaf-good (serial 2001).
        let fetcher = MemoryFetcher(ocsp: Self.bytes("stapled-good.der"))
        for mode in UndeterminedRevocationStatus.allCases {
            let result = try Self.evaluation("leaf-revoked.pem", intermediates: ["intermediate.pem"], fetcher: fetcher, mode: mode).evaluate()
            #expect(result.primaryFailure?.code == "revoked", "\(mode): \(String(describing: result.primaryFailure)); \(result.fetches)")
        }
        #expect(fetcher.requests.contains { $0.url == "http://127.0.0.1:1/intermediate.crl" })
    }

    @Test("A forged OCSP response naming the leaf leaves its status unsettled: the CRL is fetched in the next round")
    func forgedOCSPThenCRL() throws {
        // leaf-good's response served for leaf-good is genuine; for the check of an unusable one,
        // break its signature: the leaf's status is then undetermined, and its CRL is fetched.
        var forged = Self.bytes("stapled-good.der")
        forged[forged.count - 1] ^= 0x01
        let fetcher = MemoryFetcher(ocsp: forged)
        let result = try Self.evaluation("leaf-good.pem", intermediates: ["intermediate.pem"], fetcher: fetcher, mode: .reject).evaluate()
        #expect(fetcher.requests.contains { $0.url == "http://127.0.0.1:1/intermediate.crl" }, "\(result.fetches)")
    }

    @Test("OCSP: a short request goes by GET, the base64 of the DER OCSPRequest percent-encoded after the responder URL")
    func ocspByGET() throws {
        let fetcher = MemoryFetcher(ocsp: Self.bytes("stapled-good.der"))
        let leaf = try Self.certificate("leaf-good.pem")
        let result = try Self.evaluation("leaf-good.pem", intermediates: ["intermediate.pem"], fetcher: fetcher).evaluate()
        let request = try #require(fetcher.requests.first)
        #expect(request.method == .get && request.url.hasPrefix("http://127.0.0.1:2/") && request.url.utf8.count <= 255)
        let encoded = String(request.url.dropFirst("http://127.0.0.1:2/".count))
        #expect(!encoded.contains("/") && !encoded.contains("+") && !encoded.contains("="))
        let base64 = encoded.replacingOccurrences(of: "%2B", with: "+").replacingOccurrences(of: "%2F", with: "/")
            .replacingOccurrences(of: "%3D", with: "=")
        let der = try #require(Base64.decode(base64))
        let parsed = try OCSPRequest(derEncoded: der)
        let intermediate = try Self.certificate("intermediate.pem")
        #expect(parsed.requests.count == 1 && parsed.requests[0].certID.identifies(leaf, issuer: intermediate))
        #expect(parsed.nonce == nil && parsed.requests[0].certID.hashAlgorithm == .sha1)
        // The response (for this leaf, current) is read and kept as evidence; the leaf's CRL is then not fetched.
        #expect(result.fetches.first?.purpose == .ocsp && result.fetches.first?.succeeded == true, "\(result.fetches)")
        #expect(!result.fetches.contains { $0.purpose == .crl && $0.certificate == leaf })
    }

    @Test("OCSP: a request whose GET URL would exceed 255 bytes goes by POST, application/ocsp-request (RFC 6960 A.1)")
    func ocspByPOST() throws {
        let der = OCSPRequest.encode(certIDs: [try #require(OCSPCertID(identifying: try Self.certificate("leaf-good.pem"),
                                                                        issuer: try Self.certificate("intermediate.pem")))])
        let short = OCSPOverHTTP.request(responder: "http://127.0.0.1:2/", request: der, maximumResponseBytes: 10)
        #expect(short.method == .get && short.maximumResponseBytes == 10)
        let prefix = "http://ocsp.example/" + String(repeating: "p", count: 253 - short.url.utf8.count)
        let atLimit = OCSPOverHTTP.request(responder: prefix, request: der, maximumResponseBytes: 10)
        #expect(atLimit.url.utf8.count == 255 && atLimit.method == .get)
        let over = OCSPOverHTTP.request(responder: prefix + "p", request: der, maximumResponseBytes: 10)
        #expect(over.url == prefix + "p" && over.method == .post(body: der, contentType: "application/ocsp-request"))
        // No slash doubled or missing between the responder URL and the request.
        let noSlash = OCSPOverHTTP.request(responder: "http://127.0.0.1:2", request: der, maximumResponseBytes: 10)
        #expect(noSlash.url == short.url)
    }

    @Test("Only http:// URLs are fetched; others are recorded as not fetched", arguments: [
        ("http://a.example/x", true), ("HTTP://a.example/x", true), ("https://a.example/x", false), ("ldap://a.example/cn=x", false),
        ("http://", false), ("http://a b/", false), ("http://a.example/x\r\nX-Injected: 1", false), ("file:///etc/passwd", false), ("", false)])
    func onlyHTTP(_ uri: String, _ fetched: Bool) throws {
        let location = AccessLocation(Array(uri.utf8)[...])
        if case .http(let url) = location { #expect(fetched && url.lowercased() == uri.lowercased() && url.hasPrefix("http://")) } else { #expect(!fetched) }
        let fetcher = MemoryFetcher()
        var session = FetchSession(NetworkFetching(fetcher: fetcher), budget: Budget())
        let leaf = try Self.certificate("leaf-good.pem")
        _ = session.fetch(.issuer, location, for: leaf) { FetchRequest(url: $0, maximumResponseBytes: 100) }
        #expect(fetcher.requests.count == (fetched ? 1 : 0))
        #expect((session.records.first?.outcome == .unsupportedURL) == !fetched)
        // Refused, the record says what is fetched: a URL that starts http:// but carries a control
        // character must not read as a scheme problem only (a reviewer's friction).
        if !fetched, let record = session.records.first {
            #expect(record.description.hasSuffix("not fetched: only http:// URLs of printable ASCII without spaces or control characters are fetched"))
        }
    }

    @Test("Budget.fetches: no fetch beyond the count; the issuer left unfetched makes the primary failure budgetExhausted(fetches)")
    func fetchCountLimit() throws {
        let fetcher = MemoryFetcher()
        let none = try Self.evaluation("leaf-good.pem", fetcher: fetcher, budget: Budget(fetches: 0)).evaluate()
        #expect(fetcher.requests.isEmpty)
        #expect(none.primaryFailure == .budgetExhausted(.fetches))
        #expect(none.fetches.map(\.outcome) == [.budgetExhausted(.fetches)])
        #expect(Diagnostics.describe(.budgetExhausted(.fetches)).hasSuffix("the number of fetches reached its limit (Budget.fetches, 8 by default)"))
        // One fetch: the issuer; the revocation fetches are refused, and the path is trusted as without them.
        let one = try Self.evaluation("leaf-good.pem", fetcher: fetcher, budget: Budget(fetches: 1)).evaluate()
        #expect(one.isTrusted && fetcher.requests.count == 1)
        #expect(one.fetches.dropFirst().allSatisfy { $0.outcome == .budgetExhausted(.fetches) } && one.fetches.count > 1)
    }

    @Test("Budget.fetchResponseBytes: the limit is passed to the fetcher; a larger body is refused, also from a fetcher that ignores it")
    func responseBytesLimit() throws {
        let size = Self.bytes("served/intermediate.der").count
        for ignoresLimit in [false, true] {
            let fetcher = MemoryFetcher()
            fetcher.ignoresLimit = ignoresLimit
            let result = try Self.evaluation("leaf-good.pem", fetcher: fetcher, budget: Budget(fetchResponseBytes: size - 1)).evaluate()
            #expect(fetcher.requests.map(\.maximumResponseBytes) == [size - 1])
            #expect(result.fetches.map(\.outcome) == [.failed(.responseTooLarge(limit: size - 1))])
            #expect(result.primaryFailure == .budgetExhausted(.fetchResponseBytes))
        }
        let exact = try Self.evaluation("leaf-good.pem", fetcher: MemoryFetcher(), revocation: false,
                                        budget: Budget(fetchResponseBytes: size)).evaluate()
        #expect(exact.isTrusted)
    }

    @Test("Budget.fetchTime: no fetch starts after the deadline; the deadline is given to the fetcher")
    func timeLimit() throws {
        let clock = TestClock()
        let start = clock.now
        let fetcher = MemoryFetcher()
        fetcher.onFetch = { clock.advance(25) }
        let result = try Self.evaluation("leaf-good.pem", fetcher: fetcher, budget: Budget(fetchTime: 20), clock: clock).evaluate()
        // The issuer fetch took 25 s: the path is trusted, and every revocation fetch was refused.
        #expect(result.isTrusted && fetcher.requests.count == 1)
        #expect(result.fetches.dropFirst().allSatisfy { $0.outcome == .budgetExhausted(.fetchTime) } && result.fetches.count > 1)
        _ = start
        let none = try Self.evaluation("leaf-good.pem", fetcher: fetcher, budget: Budget(fetchTime: 0), clock: clock).evaluate()
        #expect(none.primaryFailure == .budgetExhausted(.fetchTime) && fetcher.requests.count == 1)
    }

    @Test("The deadline handed to the fetcher is the start plus Budget.fetchTime")
    func deadline() throws {
        final class DeadlineFetcher: Fetcher, @unchecked Sendable {
            var seen: [UnixTime] = []
            func fetch(_ request: FetchRequest, deadline: UnixTime) throws(FetchError) -> [UInt8] {
                seen.append(deadline)
                throw .timedOut
            }
        }
        let clock = TestClock()
        let fetcher = DeadlineFetcher()
        var evaluation = try Self.evaluation("leaf-good.pem", fetcher: nil, budget: Budget(fetchTime: 7))
        evaluation.networkFetching = NetworkFetching(fetcher: fetcher, clock: { clock.now })
        let result = evaluation.evaluate()
        #expect(fetcher.seen == [UnixTime(secondsSinceEpoch: clock.now.secondsSinceEpoch + 7)])
        // Timed out before the deadline (the clock did not move): a failed fetch, not the time limit.
        #expect(result.primaryFailure?.code == "issuerNotFound" && result.fetches.map(\.outcome) == [.failed(.timedOut)])
    }

    @Test("A stapled response naming the leaf (the caller's evidence) means no OCSP or CRL fetch for it; it decides the status")
    func stapledResponseNotRefetched() throws {
        let fetcher = MemoryFetcher()
        var evaluation = try Self.evaluation("leaf-good.pem", intermediates: ["intermediate.pem"], fetcher: fetcher, mode: .reject)
        evaluation.validationTime = TrustEvaluation.now()  // the stapled response is current from generation on
        evaluation.revocationEvidence.ocspResponses = [try OCSPResponse(derEncoded: Self.bytes("stapled-good.der"))]
        let result = evaluation.evaluate()
        let leaf = try Self.certificate("leaf-good.pem")
        #expect(!result.fetches.contains { $0.certificate == leaf }, "\(result.fetches)")
        // Only the intermediate's CRL is fetched; with it, every status is determined under reject.
        #expect(fetcher.requests.map(\.url) == ["http://127.0.0.1:1/root.crl"])
        #expect(result.isTrusted, "\(String(describing: result.primaryFailure))")
    }

    /// A flake under ThreadSanitizer showed it: the CLI's validation time is taken at its start, the
    /// live responder's thisUpdate at the request, a second later; fetching took the response as
    /// not answering (thisUpdate after the time) and fetched the CRL, while the evaluation takes a
    /// thisUpdate up to OCSPFreshness.clockSkew ahead as current. Both now use the one rule.
    @Test("A stapled response whose thisUpdate is within the clock skew ahead answers for the leaf (no fetch); beyond it, the leaf is fetched for")
    func stapledResponseWithinClockSkew() throws {
        let stapled = try OCSPResponse(derEncoded: Self.bytes("stapled-good.der"))
        let thisUpdate = try #require(stapled.basicResponse?.responses.first?.thisUpdate)
        let leaf = try Self.certificate("leaf-good.pem")
        for (secondsBehind, fetchedForLeaf) in [(Int64(60), false), (Int64(400), true)] {
            let fetcher = MemoryFetcher()
            var evaluation = try Self.evaluation("leaf-good.pem", intermediates: ["intermediate.pem"], fetcher: fetcher, mode: .reject)
            evaluation.validationTime = UnixTime(secondsSinceEpoch: thisUpdate.secondsSinceEpoch - secondsBehind)
            evaluation.revocationEvidence.ocspResponses = [stapled]
            let result = evaluation.evaluate()
            #expect(result.fetches.contains { $0.certificate == leaf } == fetchedForLeaf,
                    "thisUpdate \(secondsBehind) s after the validation time (skew 300 s): \(result.fetches)")
        }
    }

    @Test("Nothing is fetched twice in one evaluation, and the loop ends when nothing new is learned")
    func noRepeats() throws {
        let fetcher = MemoryFetcher()
        let result = try Self.evaluation("leaf-good.pem", fetcher: fetcher).evaluate()
        #expect(result.isTrusted)
        let keys = fetcher.requests.map(\.description)
        #expect(Set(keys).count == keys.count)
        #expect(keys.count <= Budget().fetches)
    }
}
