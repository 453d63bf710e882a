import CertPath
import CertPathFoundation
import Foundation
import Testing

/// The public API's shapes (issue 23): typed failure evidence, recoverability defined once, the
/// trusted path's anchor, the SecTrust-like spellings and the Foundation overlay.
@Suite("Public API")
struct PublicAPITests {
    // MARK: Typed evidence of a name mismatch

    @Test("A host name mismatch carries the reference identifier and the presented identifiers as values")
    func hostnameMismatchEvidence() throws {
        let result = SamplePKI.server(SamplePKI.rsaServer, hostname: "www.customer2.example").evaluate()
        guard case .hostnameMismatch(let certificate, let reference, let presented)? = result.primaryFailure else {
            Issue.record("expected hostnameMismatch, got \(String(describing: result.primaryFailure))")
            return
        }
        #expect(certificate == SamplePKI.rsaServer)
        #expect(reference == .dnsName(try DNSName("www.customer2.example")))
        #expect(presented == [.dnsName("server.customer1.example"), .ipAddress(try #require(IPAddress("192.0.2.10")))])
        // The diagnostics format those values; they are not the evidence.
        #expect(presented.map(\.description) == ["DNS:server.customer1.example", "IP:192.0.2.10"])
    }

    @Test("Presented identifiers: subjectAltName entries with their types, commonNames only without a subjectAltName")
    func presentedIdentifiers() throws {
        #expect(PresentedIdentifier.of(SamplePKI.rsaClient).allSatisfy { if case .commonName = $0 { false } else { true } })
        #expect(PresentedIdentifier(.dNSName(Array("*.example.test".utf8)[...])) == .dnsName("*.example.test"))
        #expect(PresentedIdentifier(.rfc822Name(Array("a@example.test".utf8)[...])) == .email("a@example.test"))
        #expect(PresentedIdentifier(.iPAddress([192, 0, 2, 1][...])) == .ipAddress(try #require(IPAddress("192.0.2.1"))))
        #expect(PresentedIdentifier(.iPAddress([192, 0, 2][...])) == nil)
        #expect(PresentedIdentifier.commonName("legacy.example").description == "CN=legacy.example")
    }

    // MARK: Recoverable failures, defined once

    /// Every ValidationFailure case, one value each, so that a case added without a decision here
    /// fails the count below.
    static func everyFailure() throws -> [ValidationFailure] {
        let c = SamplePKI.rsaServer
        let t = UnixTime(secondsSinceEpoch: 0)
        return [
            .expired(c, notAfter: t, validationTime: t), .notYetValid(c, notBefore: t, validationTime: t), .issuerNotFound(c),
            .selfSignedNotTrusted(c), .noTrustedAnchor(c),
            .hostnameMismatch(c, reference: try ReferenceIdentifier("a.example"), presented: []),
            .nameMismatch(c, expected: .email(try RFC822Name("a@example.test")), presented: []),
            .malformed(description: "x", DERError(.truncated, at: 0, expected: "x")), .badSignature(c, issuer: c.issuer),
            .unsupportedSignatureAlgorithm(c, c.signatureAlgorithm), .unusablePublicKey(c, reason: .invalid(.invalidKey("x"))),
            .disallowedSignatureAlgorithm(c, c.signatureAlgorithm), .weakKey(c, key: .dsaNotAllowed), .notACertificateAuthority(c),
            .pathLengthExceeded(c), .maximumDepthExceeded(c, limit: 0), .keyUsageForbids(c, required: [], present: []),
            .extendedKeyUsageForbids(c, required: KnownOID.serverAuth, present: []),
            .unknownCriticalExtension(c, KnownOID.serverAuth), .profileViolation(c, .commonNameNotInSubjectAltName),
            .issuerNameMismatch(c), .distrusted(c), .revocationUnknown(c, evidence: UndeterminedRevocation(coveredReasons: [], crlRejections: [])),
            .missingStapledOCSPResponse(c, requiredBy: c, reason: nil), .pinMismatch,
            .budgetExhausted(.buildSteps), .rejectedByCaller("x"),
        ]
    }

    @Test("recoverableKind decides recoverability; its raw value is the failure's code; the exceptions' codes derive from it")
    func recoverabilityDefinedOnce() throws {
        let failures = try Self.everyFailure()
        let recoverable = failures.filter(\.isRecoverable)
        #expect(recoverable.compactMap(\.recoverableKind) == RecoverableFailure.allCases)
        for failure in failures {
            #expect(failure.isRecoverable == (failure.recoverableKind != nil))
            if let kind = failure.recoverableKind { #expect(kind.rawValue == failure.code) }
            #expect((ExceptedFailure(failure) != nil) == failure.isRecoverable, "\(failure.code)")
        }
        #expect(ExceptedFailure.recoverableCodes == Set(recoverable.map(\.code)))
        #expect(ExceptedFailure.codesWithDetail == ["hostnameMismatch", "nameMismatch"])
        // The detail an exception records is the canonical text of the name asked for.
        let mismatch = ValidationFailure.hostnameMismatch(SamplePKI.rsaServer, reference: try ReferenceIdentifier("WWW.Example.TEST."),
                                                          presented: [])
        #expect(ExceptedFailure(mismatch)?.detail == "www.example.test")
        #expect(ExceptedFailure(mismatch)?.kind == .hostnameMismatch)
    }

    /// The evolution rule (docs/DESIGN-NOTES.md): callers switch over ValidationFailure with
    /// `@unknown default`, which compiles without a warning today (the zero-warning build checks it).
    @Test("A switch over ValidationFailure with @unknown default")
    func unknownDefault() throws {
        func word(_ failure: ValidationFailure) -> String {
            switch failure {
            case .expired: return "expired"
            case .hostnameMismatch(_, let reference, _): return "not \(reference)"
            default: return failure.code
            }
        }
        func strict(_ kind: RecoverableFailure) -> String {
            switch kind {
            case .expired, .notYetValid: return "time"
            case .issuerNotFound, .selfSignedNotTrusted, .noTrustedAnchor: return "anchor"
            case .hostnameMismatch, .nameMismatch: return "name"
            @unknown default: return "other"
            }
        }
        #expect(word(.pinMismatch) == "pinMismatch")
        #expect(strict(.nameMismatch) == "name")
    }

    // MARK: The trusted path

    @Test("A trusted path's anchor: the trust anchor, or for an exception that reached none, the last certificate")
    func anchorIsNotOptional() throws {
        let trusted = try #require(SamplePKI.server(SamplePKI.rsaServer).evaluate().trustedPath)
        #expect(trusted.anchor == SamplePKI.rsaRoot && trusted.reachesTrustAnchor)
        #expect(trusted.chain == [SamplePKI.rsaServer, SamplePKI.rsaIntermediate, SamplePKI.rsaRoot])

        // The self-signed server: no anchor; the user accepts selfSignedNotTrusted.
        var evaluation = SamplePKI.server(SamplePKI.selfSigned, intermediates: [], hostname: "selfsigned.customer1.example")
        let report = try #require(evaluation.evaluate().report)
        #expect(report.primaryFailure == .selfSignedNotTrusted(SamplePKI.selfSigned))
        #expect(report.exceptions != nil)
        evaluation.exceptions = report.exceptions
        let excepted = try #require(evaluation.evaluate().trustedPath)
        #expect(excepted.anchor == SamplePKI.selfSigned && !excepted.reachesTrustAnchor && excepted.isTrustedByException)
        #expect(excepted.chain == [SamplePKI.selfSigned])
    }

    // MARK: SecTrust-like spellings

    @Test("init?(chain:) takes the chain as a peer sends it, leaf first; an empty chain is no evaluation")
    func chainInitializer() throws {
        let chain = [SamplePKI.rsaServer, SamplePKI.rsaIntermediate]
        var evaluation = try #require(TrustEvaluation(chain: chain, trustStore: TrustStore(anchors: [SamplePKI.rsaRoot]),
                                                      policy: try .server(hostname: SamplePKI.hostname)))
        #expect(evaluation.leaf == SamplePKI.rsaServer && evaluation.intermediates == [SamplePKI.rsaIntermediate])
        evaluation.validationTime = SamplePKI.time
        #expect(evaluation.evaluate().isTrusted)
        #expect(TrustEvaluation(chain: [], trustStore: .empty) == nil)
    }

    @Test("trustedPath() returns the path or throws the UntrustedReport (SecTrustEvaluateWithError)")
    func trustedPathThrows() throws {
        let path = try SamplePKI.server(SamplePKI.rsaServer).trustedPath()
        #expect(path.anchor == SamplePKI.rsaRoot)
        let expired = SamplePKI.server(SamplePKI.rsaExpired)
        #expect {
            _ = try expired.trustedPath()
        } throws: { error in
            guard let report = error as? UntrustedReport else { return false }
            return report.primaryFailure.code == "expired" && "\(report)" == report.summary
        }
        do {
            _ = try expired.trustedPath()
            Issue.record("expected a throw")
        } catch {
            // Typed throws: `error` is an UntrustedReport, no cast needed.
            #expect(error.exceptions != nil)
        }
    }

    // MARK: The Foundation overlay

    @Test("Date conversions: whole seconds, rounded towards the past; out-of-range dates fail closed")
    func dateOverlay() throws {
        let time = try #require(UnixTime(rfc3339: "2026-06-01T12:00:00Z"))
        #expect(time.date == Date(timeIntervalSince1970: 1_780_315_200))
        #expect(UnixTime(Date(timeIntervalSince1970: 1_780_315_200.9)) == time)
        #expect(UnixTime(Date(timeIntervalSince1970: -0.5)) == UnixTime(secondsSinceEpoch: -1))
        #expect(UnixTime(Date(timeIntervalSince1970: .infinity)) == nil)
        #expect(UnixTime(Date(timeIntervalSince1970: .nan)) == nil)
        #expect(SamplePKI.rsaServer.notAfterDate == SamplePKI.rsaServer.notAfter.date)

        var evaluation = SamplePKI.server(SamplePKI.rsaServer)
        evaluation.validationDate = SamplePKI.time.date
        #expect(evaluation.validationTime == SamplePKI.time && evaluation.evaluate().isTrusted)
        evaluation.validationDate = Date(timeIntervalSince1970: .infinity)
        #expect(evaluation.validationTime == UnixTime(secondsSinceEpoch: .max))
        #expect(evaluation.evaluate().primaryFailure?.code == "expired")
        evaluation.validationDate = nil
        #expect(evaluation.validationTime == nil)
    }
}
