// The bounded loop around the pure evaluation when network fetching is allowed: evaluate, fetch what
// the result lacks, evaluate again with it, until nothing new is learned. The pipeline itself never
// fetches and never waits.

/// One evaluation's fetching: what was asked for, what it cost, what came back.
struct FetchSession {
    let fetching: NetworkFetching
    let budget: Budget
    let clock: @Sendable () -> UnixTime
    let deadline: UnixTime
    private(set) var records: [FetchRecord] = []
    /// The first limit that stopped a wanted fetch.
    private(set) var exhausted: BudgetLimit? = nil
    /// Fetches made (each call of the fetcher).
    private(set) var fetchCount = 0
    /// What was already tried (or refused), never asked again in this evaluation.
    private var tried = Set<Key>()
    /// Certificates (DER) a successful OCSP response was fetched for: their CRLs are not needed.
    var answeredByOCSP = Set<[UInt8]>()

    struct Key: Hashable {
        let purpose: FetchRecord.Purpose
        let url: String
        /// For OCSP, the certificate asked about (one responder URL answers for many).
        let certificate: [UInt8]
    }

    init(_ fetching: NetworkFetching, budget: Budget) {
        self.fetching = fetching
        self.budget = budget
        let clock = fetching.clock ?? { TrustEvaluation.now() }
        self.clock = clock
        self.deadline = UnixTime(secondsSinceEpoch: clock().secondsSinceEpoch + Int64(max(0, budget.fetchTime)))
    }

    /// Fetches what `location` names (for `certificate`) within the budget and returns the body with
    /// the maker of its record (the caller appends it once it has read the body), or records why there
    /// is none. Returns `nil` also when the same thing was already tried.
    mutating func fetch(_ purpose: FetchRecord.Purpose, _ location: AccessLocation, for certificate: Certificate,
                        request makeRequest: (String) -> FetchRequest) -> (body: [UInt8], record: (FetchRecord.Outcome) -> FetchRecord)? {
        let url: String
        switch location {
        case .http(let text): url = text
        case .other(let text): url = text
        }
        let key = Key(purpose: purpose, url: url, certificate: purpose == .ocsp ? certificate.der : [])
        guard tried.insert(key).inserted else { return nil }
        guard case .http = location else {
            records.append(FetchRecord(certificate: certificate, purpose: purpose, url: url, method: "GET", outcome: .unsupportedURL))
            return nil
        }
        let request = makeRequest(url)
        let method: String
        if case .post = request.method { method = "POST" } else { method = "GET" }
        let record = { (outcome: FetchRecord.Outcome) in
            FetchRecord(certificate: certificate, purpose: purpose, url: url, method: method, outcome: outcome)
        }
        if fetchCount >= budget.fetches {
            refuse(record(.budgetExhausted(.fetches)), .fetches)
            return nil
        }
        if clock() >= deadline {
            refuse(record(.budgetExhausted(.fetchTime)), .fetchTime)
            return nil
        }
        fetchCount += 1
        let body: [UInt8]
        do throws(FetchError) {
            body = try fetching.fetcher.fetch(request, deadline: deadline)
        } catch {
            records.append(record(.failed(error)))
            if case .responseTooLarge = error { exhausted = exhausted ?? .fetchResponseBytes }
            if case .timedOut = error, clock() >= deadline { exhausted = exhausted ?? .fetchTime }
            return nil
        }
        guard body.count <= request.maximumResponseBytes else {
            // A fetcher that read past the limit: the body is not used, as if it had stopped.
            records.append(record(.failed(.responseTooLarge(limit: request.maximumResponseBytes))))
            exhausted = exhausted ?? .fetchResponseBytes
            return nil
        }
        return (body, record)
    }

    private mutating func refuse(_ record: FetchRecord, _ limit: BudgetLimit) {
        records.append(record)
        exhausted = exhausted ?? limit
    }

    mutating func append(_ record: FetchRecord) { records.append(record) }
}

extension TrustEvaluation {
    /// ``evaluate()`` with ``networkFetching``: the loop described there.
    func evaluateFetching(_ fetching: NetworkFetching) -> TrustResult {
        var evaluation = self
        evaluation.networkFetching = nil
        var session = FetchSession(fetching, budget: policy.budget)
        var result = evaluation.evaluate()
        // Each round that goes on learned something new, and every fetch is counted: at most
        // Budget.fetches + 1 evaluations.
        while true {
            var learned = false
            if fetching.fetchesIssuers { learned = fetchIssuers(result, &evaluation, &session) || learned }
            if fetching.fetchesRevocation { learned = fetchRevocation(result, &evaluation, &session) || learned }
            guard learned else { break }
            result = evaluation.evaluate()
        }
        return result.with(fetches: session.records, exhausted: session.exhausted)
    }

    /// Fetches the issuers the best attempt of an untrusted result did not find (id-ad-caIssuers);
    /// returns whether a certificate not known before was added to the intermediates.
    private func fetchIssuers(_ result: TrustResult, _ evaluation: inout TrustEvaluation, _ session: inout FetchSession) -> Bool {
        guard let report = result.report else { return false }
        var learned = false
        for case .issuerNotFound(let certificate) in report.failures {
            locations: for location in AccessLocation.authorityInformationAccess(certificate, KnownOID.caIssuers) {
                let maximum = policy.budget.fetchResponseBytes
                guard let (body, record) = session.fetch(.issuer, location, for: certificate, request: {
                    FetchRequest(url: $0, method: .get, maximumResponseBytes: maximum)
                }) else { continue }
                switch Self.readIssuerCertificates(body) {
                case .success(let certificates):
                    session.append(record(.fetched(bytes: body.count, items: certificates.count)))
                    let known = Set(evaluation.intermediates.map(\.der) + [evaluation.leaf.der])
                    let new = certificates.prefix(16).filter { !known.contains($0.der) }
                    evaluation.intermediates += new
                    if !new.isEmpty { learned = true }
                    if !certificates.isEmpty { break locations }
                case .failure(let reason):
                    session.append(record(.unreadable(bytes: body.count, reason: reason)))
                }
            }
        }
        return learned
    }

    /// The certificates read from an issuer response, or why there are none.
    enum IssuerResponse {
        case success([Certificate])
        case failure(String)
    }

    /// What an id-ad-caIssuers URL serves (RFC 5280 4.2.2.1): one DER certificate, or a certs-only
    /// CMS message (application/pkcs7-mime); PEM is read too, since servers serve it.
    static func readIssuerCertificates(_ body: [UInt8]) -> IssuerResponse {
        var problems: [String] = []
        if body.first == 0x30 {
            do throws(DERError) {
                return .success([try Certificate(derEncoded: body)])
            } catch {
                problems.append("not a DER certificate (\(error))")
            }
            do throws(DERError) {
                return .success(try PKCS7Certificates.read(body))
            } catch {
                problems.append("not a certs-only PKCS #7 message (\(error))")
            }
        }
        do throws(PEM.CertificateFileError) {
            let certificates = try PEM.readCertificates(body).certificates
            if !certificates.isEmpty { return .success(certificates) }
            return .failure(problems.isEmpty ? "no certificate (expected DER, PEM or certs-only PKCS #7)" : problems.joined(separator: "; "))
        } catch {
            return .failure(problems.isEmpty ? "not a certificate: \(error)" : problems.joined(separator: "; "))
        }
    }

    /// Fetches revocation evidence for each certificate of the path a result found (trusted, or the
    /// best attempt when it reached an anchor and failed only for undetermined revocation statuses:
    /// evidence cannot change another verdict): an OCSP response from the id-ad-ocsp URLs, else the
    /// CRLs of the distribution points. Returns whether evidence was added.
    private func fetchRevocation(_ result: TrustResult, _ evaluation: inout TrustEvaluation, _ session: inout FetchSession) -> Bool {
        let path: [Certificate]
        let anchor: Certificate?
        switch result {
        case .trusted(let trusted): (path, anchor) = (trusted.certificates, trusted.reachesTrustAnchor ? trusted.anchor : nil)
        case .untrusted(let report):
            // Only when evidence could change the verdict: every failure an undetermined status.
            guard report.failures.allSatisfy({ if case .revocationUnknown = $0 { return true } else { return false } }) else { return false }
            (path, anchor) = (report.bestAttempt.certificates, report.bestAttempt.anchor)
        }
        guard let anchor, anchor !== path.first || path.count > 1 else { return false }
        // Certificates whose status the evidence so far left undetermined: whatever OCSP response
        // seemed to answer for them (a stapled or fetched one that proved unusable: forged, not
        // authorized), their CRLs are fetched.
        var unsettled = Set<[UInt8]>()
        for case .revocationUnknown(let certificate, _) in result.report?.failures ?? [] { unsettled.insert(certificate.der) }
        let time = validationTime ?? Self.now()
        let maximum = policy.budget.fetchResponseBytes
        var learned = false
        for (index, certificate) in path.enumerated() where certificate !== anchor {
            let issuer = index + 1 < path.count ? path[index + 1] : anchor
            var answered = !unsettled.contains(certificate.der)
                && (session.answeredByOCSP.contains(certificate.der) || suppliedResponse(names: certificate, issuer: issuer, at: time))
            if !answered, let certID = OCSPCertID(identifying: certificate, issuer: issuer) {
                let request = OCSPRequest.encode(certIDs: [certID])
                for location in AccessLocation.authorityInformationAccess(certificate, KnownOID.ocsp) where !answered {
                    guard let (body, record) = session.fetch(.ocsp, location, for: certificate, request: {
                        OCSPOverHTTP.request(responder: $0, request: request, maximumResponseBytes: maximum)
                    }) else { continue }
                    do throws(DERError) {
                        let response = try OCSPResponse(derEncoded: body)
                        session.append(record(.fetched(bytes: body.count, items: 1)))
                        evaluation.revocationEvidence.ocspResponses.append(response)
                        learned = true
                        // Answered only by a response that names this certificate with a status, now
                        // (a successful response about another certificate answers nothing).
                        answered = Self.answers(response, for: certificate, issuer: issuer, at: time, freshness: policy.ocspFreshness)
                        if answered { session.answeredByOCSP.insert(certificate.der) }
                    } catch {
                        session.append(record(.unreadable(bytes: body.count, reason: "not an OCSP response: \(error)")))
                    }
                }
            }
            guard !answered else { continue }
            var crls: [CertificateRevocationList] = []
            for point in AccessLocation.crlDistributionPoints(certificate) {
                for location in point {
                    guard let (body, record) = session.fetch(.crl, location, for: certificate, request: {
                        FetchRequest(url: $0, method: .get, maximumResponseBytes: maximum)
                    }) else { continue }
                    do throws(PEM.CRLFileError) {
                        let read = try PEM.readCRLs(body).crls
                        guard !read.isEmpty else {
                            session.append(record(.unreadable(bytes: body.count, reason: "no CRL (expected DER or PEM \"X509 CRL\")")))
                            continue
                        }
                        session.append(record(.fetched(bytes: body.count, items: read.count)))
                        crls += read.prefix(4)
                        break
                    } catch {
                        session.append(record(.unreadable(bytes: body.count, reason: "not a CRL: \(error)")))
                    }
                }
            }
            if !crls.isEmpty {
                evaluation.revocationEvidence.crls = CRLStore(evaluation.revocationEvidence.crls.crls + crls)
                learned = true
            }
        }
        return learned
    }
}

extension TrustEvaluation {
    /// Whether the caller's own evidence (a stapled response) has a successful OCSP response with a
    /// SingleResponse for `certificate` (its CertID, RFC 6960 4.1.1) current at `time` under the
    /// policy's ``OCSPFreshness`` (the rule the evaluation applies). Such a certificate is not fetched for: stapling
    /// exists so that the client does not ask the CA (RFC 6066 8), and the response is judged as
    /// evidence like any other (if it proves unusable, the revocation mode decides, as without fetching).
    func suppliedResponse(names certificate: Certificate, issuer: Certificate, at time: UnixTime) -> Bool {
        revocationEvidence.ocspResponses.contains { Self.answers($0, for: certificate, issuer: issuer, at: time, freshness: policy.ocspFreshness) }
    }

    /// Whether `response` is successful and has a SingleResponse naming `certificate` (its CertID,
    /// RFC 6960 4.1.1) with a status other than unknown, current at `time` under `freshness`
    /// (the evaluation's own rule, clock skew included: a response the evaluation takes as current
    /// must not send fetching after a CRL). Whether it can be believed is the evaluation's to
    /// decide; this only says whether fetching more for the certificate could be worth it.
    static func answers(_ response: OCSPResponse, for certificate: Certificate, issuer: Certificate, at time: UnixTime,
                        freshness: OCSPFreshness) -> Bool {
        response.basicResponse?.responses.contains { single in
            single.certStatus != .unknown && single.certID.identifies(certificate, issuer: issuer)
                && freshness.isCurrent(thisUpdate: single.thisUpdate, nextUpdate: single.nextUpdate, at: time)
        } ?? false
    }
}

extension TrustResult {
    /// What network fetching fetched, or meant to and could not, in order (empty when fetching was
    /// off: ``TrustEvaluation/networkFetching``).
    public var fetches: [FetchRecord] {
        switch self {
        case .trusted(let path): return path.fetches
        case .untrusted(let report): return report.fetches
        }
    }

    /// The same result with `fetches` attached. When fetching stopped at a limit of the budget and
    /// the result is untrusted for what a fetch might have brought (an issuer not found, an unknown
    /// revocation status), the primary failure is ``ValidationFailure/budgetExhausted(_:)``, as when
    /// path building stops: the answer is that the search stopped.
    func with(fetches: [FetchRecord], exhausted: BudgetLimit?) -> TrustResult {
        switch self {
        case .trusted(var path):
            path.fetches = fetches
            return .trusted(path)
        case .untrusted(var report):
            report.fetches = fetches
            if let exhausted {
                switch report.primaryFailure {
                case .issuerNotFound, .revocationUnknown:
                    var replaced = UntrustedReport(primaryFailure: .budgetExhausted(exhausted), bestAttempt: report.bestAttempt,
                                                   attempts: report.attempts)
                    replaced.statistics = report.statistics
                    replaced.fetches = fetches
                    replaced.purpose = report.purpose
                    report = replaced
                default:
                    break
                }
            }
            return .untrusted(report)
        }
    }
}
