import Foundation
import Testing
@testable import CertPath

/// RFC 6960 through ``TrustEvaluation``: which responses speak for a certificate (4.1.1 CertID),
/// who may sign them (4.2.2.2), when they are current (4.2.2.1, ``OCSPFreshness``), and how they
/// combine with CRLs — on the responses `openssl ocsp` made for TestVectors/ocsp (generate.sh) and
/// the sample PKI. Each case asserts the exact failure code and what its reason names.
@Suite("OCSP validation")
struct OCSPValidationTests {
    static func certificate(_ file: String) throws -> Certificate {
        try #require(try TestCertificates.all("ocsp/" + file).first)
    }

    static func response(_ file: String) throws -> OCSPResponse {
        try OCSPResponse(derEncoded: [UInt8](try Data(contentsOf: TestCertificates.testVectors.appendingPathComponent("ocsp/" + file))))
    }

    static func crl(_ file: String) throws -> CertificateRevocationList {
        let bytes = [UInt8](try Data(contentsOf: TestCertificates.testVectors.appendingPathComponent("ocsp/" + file)))
        let crls = try PEM.readCRLs(bytes).crls
        return try #require(crls.first)
    }

    /// A minute after the response's thisUpdate: inside its validity window.
    static func timeInside(_ response: OCSPResponse) throws -> UnixTime {
        let single = try #require(response.basicResponse?.responses.first)
        return UnixTime(secondsSinceEpoch: single.thisUpdate.secondsSinceEpoch + 60)
    }

    /// `leaf` (issued by the test CA) validated to the CA with `responses` (and `crls`) as evidence.
    static func evaluate(_ leafFile: String, responses: [String], crls: [String] = [], intermediates: [String] = [],
                         mode: UndeterminedRevocationStatus = .rejectWhenIssuerHasCRLs, at time: UnixTime? = nil,
                         offset: Int64 = 0) throws -> TrustResult {
        let parsed = try responses.map(Self.response)
        let first = try parsed.first { $0.basicResponse != nil } ?? Self.response("resp-good.der")
        let reference = try time ?? Self.timeInside(first)
        var policy = ValidationPolicy()
        policy.undeterminedRevocationStatus = mode
        return TrustEvaluation(leaf: try certificate(leafFile), intermediates: try intermediates.map(Self.certificate),
                               trustStore: TrustStore(anchors: [try certificate("ca.pem")]), policy: policy,
                               revocationEvidence: RevocationEvidence(crls: CRLStore(try crls.map(Self.crl)), ocspResponses: parsed),
                               validationTime: UnixTime(secondsSinceEpoch: reference.secondsSinceEpoch + offset)).evaluate()
    }

    /// The primary failure's code and its description, or `trusted`.
    static func verdict(_ result: TrustResult) -> (code: String, text: String) {
        switch result {
        case .trusted: return ("trusted", "")
        case .untrusted(let report): return (report.primaryFailure.code, Diagnostics.describe(report.primaryFailure))
        }
    }

    @Test("good, signed by a delegated responder with OCSPSigning: trusted, also when undetermined statuses reject nothing")
    func good() throws {
        #expect(Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good.der"])).code == "trusted")
        #expect(Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good.der"], mode: .accept)).code == "trusted")
    }

    @Test("revoked with reason: revoked, naming the OCSP response; still revoked when undetermined statuses are accepted")
    func revoked() throws {
        for mode in UndeterminedRevocationStatus.allCases {
            let result = try Self.evaluate("leaf-revoked.pem", responses: ["resp-revoked-keycompromise.der"], mode: mode)
            guard case .untrusted(let report) = result,
                  case .revoked(let certificate, let date, let reason, let source) = report.primaryFailure else {
                Issue.record("\(mode): expected revoked, got \(Self.verdict(result))")
                continue
            }
            #expect(certificate == (try Self.certificate("leaf-revoked.pem")))
            #expect(date == UnixTime(year: 2025, month: 6, day: 1))
            #expect(reason == .keyCompromise)
            let responder = try Self.certificate("responder.pem")
            guard case .ocsp(.byName(let name), _) = source else {
                Issue.record("expected an OCSP source, got \(source)")
                continue
            }
            #expect(name == responder.subject)
            #expect(Diagnostics.describe(report.primaryFailure).contains("(keyCompromise), per the OCSP response of "))
        }
    }

    @Test("revoked, signed by the CA itself: revoked")
    func revokedByCA() throws {
        let verdict = Self.verdict(try Self.evaluate("leaf-revoked.pem", responses: ["resp-revoked-by-ca.der"], mode: .accept))
        #expect(verdict.code == "revoked")
        #expect(verdict.text.contains("(keyCompromise), per the OCSP response of CN=OCSP Test CA,O=CertPath Tests produced at "))
    }

    @Test("good, signed by the CA itself without certificates: trusted")
    func goodByCA() throws {
        #expect(Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good-by-ca.der"], mode: .reject)).code == "trusted")
    }

    @Test("unknown: revocationUnknown where undetermined statuses reject (a response names it), trusted under accept")
    func unknown() throws {
        let verdict = Self.verdict(try Self.evaluate("leaf-unknown.pem", responses: ["resp-unknown.der"]))
        #expect(verdict.code == "revocationUnknown")
        #expect(verdict.text.contains("does not know the certificate (status unknown)"))
        #expect(Self.verdict(try Self.evaluate("leaf-unknown.pem", responses: ["resp-unknown.der"], mode: .accept)).code == "trusted")
    }

    @Test("expired (nextUpdate passed): a good response no longer settles the status")
    func expired() throws {
        let verdict = Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good.der"], offset: 8 * 86_400))
        #expect(verdict.code == "revocationUnknown")
        #expect(verdict.text.contains("has expired (nextUpdate "))
    }

    @Test("an expired response that says revoked (not on hold) still revokes: a revocation is permanent")
    func expiredRevoked() throws {
        let verdict = Self.verdict(try Self.evaluate("leaf-revoked.pem", responses: ["resp-revoked-keycompromise.der"], mode: .accept,
                                                     offset: 30 * 86_400))
        #expect(verdict.code == "revoked")
    }

    @Test("not yet valid: thisUpdate beyond the validation time plus the 300 s skew; within the skew it counts")
    func notYetValid() throws {
        // (The sample PKI's server is older than its response; the test leaves were made with theirs.)
        let server = SamplePKI.certificate("rsa/server.pem")
        let response = try Self.response("sample-pki/server-good.der")
        let thisUpdate = try #require(response.basicResponse?.responses.first?.thisUpdate)
        func outcome(before seconds: Int64, skew: Int64 = OCSPFreshness.default.clockSkew) -> (code: String, text: String) {
            let policy = ValidationPolicy(undeterminedRevocationStatus: .rejectWhenIssuerHasCRLs, ocspFreshness: OCSPFreshness(clockSkew: skew))
            return Self.verdict(TrustEvaluation(leaf: server, intermediates: [SamplePKI.certificate("rsa/intermediate.pem")],
                                                trustStore: TrustStore(anchors: [SamplePKI.certificate("rsa/root.pem")]), policy: policy,
                                                revocationEvidence: RevocationEvidence(ocspResponses: [response]),
                                                validationTime: UnixTime(secondsSinceEpoch: thisUpdate.secondsSinceEpoch - seconds)).evaluate())
        }
        #expect(outcome(before: 290).code == "trusted")
        #expect(outcome(before: 300).code == "trusted")
        let early = outcome(before: 301)
        #expect(early.code == "revocationUnknown")
        #expect(early.text.contains("is not yet valid (thisUpdate "))
        #expect(outcome(before: 3_600, skew: 7_200).code == "trusted")
        #expect(outcome(before: 1, skew: 0).code == "revocationUnknown")
    }

    @Test("no nextUpdate: current for seven days after thisUpdate, then too old")
    func noNextUpdate() throws {
        #expect(Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good-no-next-update.der"], offset: 86_400)).code == "trusted")
        let verdict = Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good-no-next-update.der"], offset: 8 * 86_400))
        #expect(verdict.code == "revocationUnknown")
        #expect(verdict.text.contains("has no nextUpdate and its thisUpdate"))
    }

    @Test("a signature that does not verify: the response is not used")
    func badSignature() throws {
        let verdict = Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good-bad-signature.der"]))
        #expect(verdict.code == "revocationUnknown")
        #expect(verdict.text.contains("does not verify with the key of CN=OCSP Test Responder,O=CertPath Tests"))
        // Under accept the certificate passes, but the forged response did not say good: under reject it fails.
        #expect(Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good-bad-signature.der"], mode: .reject)).code
                == "revocationUnknown")
    }

    @Test("a delegated responder of another CA (the wrong key): not authorized")
    func otherCA() throws {
        let verdict = Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good-other-ca.der"]))
        #expect(verdict.code == "revocationUnknown")
        #expect(verdict.text.contains("is not authorized to sign"))
        #expect(verdict.text.contains("it was not issued by the certificate's issuer"))
    }

    @Test("a delegated responder without OCSPSigning: not authorized")
    func noOCSPSigning() throws {
        let verdict = Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good-no-ocsp-signing.der"]))
        #expect(verdict.code == "revocationUnknown")
        #expect(verdict.text.contains("its extKeyUsage does not include OCSPSigning (RFC 6960 4.2.2.2)"))
    }

    @Test("the delegated responder's own status: ocsp-nocheck needs none; otherwise an undetermined one rejects under reject")
    func responderStatus() throws {
        #expect(Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good-nocheck.der"], mode: .reject)).code == "trusted")
        let verdict = Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good.der"], mode: .reject))
        #expect(verdict.code == "revocationUnknown")
        #expect(verdict.text.contains("the responder certificate CN=OCSP Test Responder,O=CertPath Tests of the OCSP response"))
        // A CRL of the CA that does not list the responder settles the responder's status.
        #expect(Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good.der"], crls: ["crl-empty.pem"], mode: .reject)).code
                == "trusted")
    }

    @Test("a revoked delegated responder: its responses are not used")
    func revokedResponder() throws {
        let verdict = Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good-revoked-responder.der", "resp-responder-revoked.der"]))
        #expect(verdict.code == "revocationUnknown")
        #expect(verdict.text.contains("cannot be relied on:"))
        #expect(verdict.text.contains("was revoked at"))
        // Without the evidence of its revocation, and undetermined statuses accepted, the response counts.
        #expect(Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good-revoked-responder.der"], mode: .accept)).code
                == "trusted")
    }

    @Test("a SHA-256 CertID with a byKey responderID and no certificates: the responder is found among the presented ones")
    func sha256ByKey() throws {
        #expect(Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good-sha256.der"], intermediates: ["responder.pem"])).code
                == "trusted")
        let verdict = Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good-sha256.der"]))
        #expect(verdict.code == "revocationUnknown")
        #expect(verdict.text.contains("or among the presented ones matches its responder"))
    }

    @Test("a response for another certificate never speaks for this one")
    func otherCertificate() throws {
        let revoked = try Self.response("resp-revoked-keycompromise.der")
        // leaf-good with only leaf-revoked's response: not revoked, and its status not settled.
        let verdict = Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-revoked-keycompromise.der"], mode: .reject,
                                                     at: try Self.timeInside(revoked)))
        #expect(verdict.code == "revocationUnknown")
        #expect(verdict.text.contains("no supplied CRL or OCSP response covers it"))
        // Same serial number, another issuer: the CertID's issuer hashes do not match.
        let single = try #require(revoked.basicResponse?.responses.first)
        #expect(single.certID.identifies(try Self.certificate("leaf-revoked.pem"), issuer: try Self.certificate("ca.pem")))
        #expect(!single.certID.identifies(try Self.certificate("leaf-revoked.pem"), issuer: try Self.certificate("other-ca.pem")))
        #expect(!single.certID.identifies(try Self.certificate("leaf-good.pem"), issuer: try Self.certificate("ca.pem")))
    }

    @Test("non-successful response statuses carry no status: undetermined, each named", arguments: [
        (UInt8(1), "malformedRequest"), (2, "internalError"), (3, "tryLater"), (5, "sigRequired"), (6, "unauthorized"),
    ])
    func unsuccessful(_ status: UInt8, _ name: String) throws {
        let response = try OCSPResponse(derEncoded: [0x30, 0x03, 0x0A, 0x01, status])
        let good = try Self.response("resp-good-by-ca.der")
        let evaluation = TrustEvaluation(leaf: try Self.certificate("leaf-good.pem"), trustStore: TrustStore(anchors: [try Self.certificate("ca.pem")]),
                                         policy: ValidationPolicy(undeterminedRevocationStatus: .reject),
                                         revocationEvidence: RevocationEvidence(ocspResponses: [response]),
                                         validationTime: try Self.timeInside(good))
        let verdict = Self.verdict(evaluation.evaluate())
        #expect(verdict.code == "revocationUnknown")
        #expect(verdict.text.contains("an OCSP response was not successful (responseStatus \(name)"))
        // Beside a good response, it changes nothing.
        var both = evaluation
        both.revocationEvidence.ocspResponses.append(good)
        #expect(Self.verdict(both.evaluate()).code == "trusted")
    }

    @Test("with CRLs: revoked by either source wins; good from OCSP settles the status without CRLs")
    func combination() throws {
        // OCSP good, CRL lists it: revoked per the CRL.
        let result = try Self.evaluate("leaf-good.pem", responses: ["resp-good.der"], crls: ["crl-lists-good.pem"], mode: .accept)
        guard case .untrusted(let report) = result, case .revoked(_, _, let reason, let source) = report.primaryFailure else {
            Issue.record("expected revoked, got \(Self.verdict(result))")
            return
        }
        #expect(reason == .keyCompromise)
        guard case .crl(let issuer, _, _, false) = source else {
            Issue.record("expected a CRL source, got \(source)")
            return
        }
        #expect(issuer == (try Self.certificate("ca.pem")).subject)
        // OCSP revoked, CRL silent: revoked per OCSP.
        let verdict = Self.verdict(try Self.evaluate("leaf-revoked.pem", responses: ["resp-revoked-keycompromise.der"], crls: ["crl-empty.pem"]))
        #expect(verdict.code == "revoked" && verdict.text.contains("per the OCSP response"))
        // Good from OCSP under hard fail, no CRL: determined.
        #expect(Self.verdict(try Self.evaluate("leaf-good.pem", responses: ["resp-good-nocheck.der"], mode: .reject)).code == "trusted")
    }

    @Test("the sample PKI: responses for the server and the intermediate (multi-stapling, RFC 6961) settle the whole path")
    func samplePKI() throws {
        let root = SamplePKI.certificate("rsa/root.pem")
        let intermediate = SamplePKI.certificate("rsa/intermediate.pem")
        let server = SamplePKI.certificate("rsa/server.pem")
        func evaluate(_ files: [String], mode: UndeterminedRevocationStatus = .reject) throws -> TrustResult {
            let responses = try files.map { try Self.response("sample-pki/" + $0) }
            var policy = try ValidationPolicy.server(hostname: "server.customer1.example")
            policy.undeterminedRevocationStatus = mode
            return TrustEvaluation(leaf: server, intermediates: [intermediate], trustStore: TrustStore(anchors: [root]), policy: policy,
                                   revocationEvidence: RevocationEvidence(ocspResponses: responses),
                                   validationTime: try Self.timeInside(responses[0])).evaluate()
        }
        #expect(Self.verdict(try evaluate(["server-good.der", "intermediate-good.der"])).code == "trusted")
        let serverOnly = Self.verdict(try evaluate(["server-good.der"]))
        #expect(serverOnly.code == "revocationUnknown")
        #expect(serverOnly.text.contains("Customer 1 CA R1"))  // the intermediate's status is the one missing
        let revoked = Self.verdict(try evaluate(["server-revoked.der", "intermediate-good.der"], mode: .accept))
        #expect(revoked.code == "revoked")
        #expect(revoked.text.contains("(superseded), per the OCSP response"))
    }

    @Test("no evidence: the revocation stage is not built (OCSP off costs nothing); any response builds it")
    func offByDefault() throws {
        let evaluation = TrustEvaluation(leaf: try Self.certificate("leaf-good.pem"), trustStore: TrustStore(anchors: [try Self.certificate("ca.pem")]))
        #expect(evaluation.revocationEvidence.isEmpty)
        #expect(RevocationChecker.checking(evaluation.revocationEvidence, policy: evaluation.policy, certificates: []) == nil)
        let unsuccessful = RevocationEvidence(ocspResponses: [try OCSPResponse(derEncoded: [0x30, 0x03, 0x0A, 0x01, 0x03])])
        #expect(RevocationChecker.checking(unsuccessful, policy: evaluation.policy, certificates: []) != nil)
        #expect(Self.verdict(evaluation.evaluate()).code == "trusted")
    }
}
