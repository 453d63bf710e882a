@testable import CertPath
import Testing

/// A self-issued certificate among the presented intermediates is its own issuer candidate, refused
/// by the loop check (RFC 4158 5.2). A reviewer showed that skipping it as a candidate (tried as a
/// speed-up) changed results: one build step fewer (a tight budget then ends differently), and the
/// certificate memoized as unable to reach an anchor, so a second route to it was pruned — the best
/// attempt, the attempts listed and, through a trust exception recorded from the report, the trust
/// decision changed. These pin the results.
@Suite("Path building: self-issued certificates among the intermediates")
struct SelfIssuedCandidateTests {
    static func vector(_ file: String) throws -> Certificate {
        try TestCertificates.all("pathbuilding/self-issued-memo/" + file)[0]
    }

    @Test("The server's own untrusted root among the intermediates: a two-step budget runs out")
    func budgetCountsTheSelfCandidate() throws {
        var policy = try ValidationPolicy.server(hostname: SamplePKI.hostname)
        policy.budget.buildSteps = 2
        let evaluation = TrustEvaluation(leaf: SamplePKI.rsaServer, intermediates: [SamplePKI.rsaIntermediate, SamplePKI.rsaRoot],
                                         trustStore: TrustStore(anchors: [SamplePKI.certificate("ecdsa/root.pem")]),
                                         policy: policy, validationTime: SamplePKI.time)
        #expect(evaluation.evaluate().primaryFailure == .budgetExhausted(.buildSteps))
        policy.budget.buildSteps = 200_000
        var roomy = evaluation
        roomy.policy = policy
        #expect(roomy.evaluate().primaryFailure == .noTrustedAnchor(SamplePKI.rsaRoot))
    }

    /// Leaf ← Mid (A1: expired, ranked first by key identifier; A2: valid) ← X (self-signed "Top",
    /// sent by the server); the store's "Top" anchor has another key.
    static func evaluation(collectAll: Bool) throws -> TrustEvaluation {
        let policy = try ValidationPolicy.server(hostname: "leaf.review.test")
        return TrustEvaluation(leaf: try vector("leaf.pem"),
                               intermediates: [try vector("a1-expired.pem"), try vector("a2-noski.pem"), try vector("x-root.pem")],
                               trustStore: TrustStore(anchors: [try vector("t-anchor.pem")]),
                               policy: policy, validationTime: TestCertificates.validationTime, collectAllAttempts: collectAll)
    }

    @Test("A self-issued certificate reached by a second route is explored again: best attempt and attempts")
    func secondRouteExplored() throws {
        let x = try Self.vector("x-root.pem"), a2 = try Self.vector("a2-noski.pem")
        for collectAll in [false, true] {
            let result = try Self.evaluation(collectAll: collectAll).evaluate()
            let report = try #require(result.report)
            #expect(report.bestAttempt.certificates.map(\.subject.description)
                    == ["CN=leaf.review.test,O=CertPath Review", "CN=Review Mid,O=CertPath Review", "CN=Review Top,O=CertPath Review"])
            #expect(report.bestAttempt.certificates.last == x && report.bestAttempt.certificates[1] == a2)
            #expect(report.primaryFailure == .badSignature(x, issuer: x.subject))
            if collectAll { #expect(report.attempts.count == 4) }
        }
    }

    @Test("The exception a user recorded for the server's own root still applies")
    func exceptionFromTheReportApplies() throws {
        let leaf = try Self.vector("leaf.pem"), x = try Self.vector("x-root.pem")
        var evaluation = try Self.evaluation(collectAll: false)
        evaluation.anchorsOnly = false
        // The anchor's key is distrusted by another store: X is a dead end, "not a trusted anchor".
        evaluation.systemAnchors = TrustStore([TrustEntry(try Self.vector("z-distrusted-kt.pem"), kind: .distrusted)])
        let report = try #require(evaluation.evaluate().report)
        #expect(report.primaryFailure == .noTrustedAnchor(x))
        let excepted = try #require(ExceptedFailure(.noTrustedAnchor(x)))
        evaluation.exceptions = TrustExceptions([TrustException(leaf: SHA256Digest(hashing: leaf.der), failures: [excepted])])
        guard case .trusted(let path) = evaluation.evaluate() else {
            Issue.record("the exception for noTrustedAnchor(X) no longer applies")
            return
        }
        #expect(path.acceptedFailures == [.noTrustedAnchor(x)])
    }
}
