import Foundation
import Testing
@testable import CertPath

@Suite("Trust model: anchors, pins, distrust")
struct TrustAnchorTests {
    @Test func anchorsOnlyByDefaultIgnoresOtherRoots() {
        // Anchors only (the default once anchors are set): a chain to a root not in the store fails.
        var evaluation = SamplePKI.server(SamplePKI.rsaServer, anchors: [SamplePKI.oldRoot])
        evaluation.systemAnchors = TrustStore(anchors: [SamplePKI.rsaRoot])
        #expect(evaluation.evaluate().primaryFailure == .issuerNotFound(SamplePKI.rsaIntermediate))
        // Turned off, the system anchors count as well.
        evaluation.anchorsOnly = false
        #expect(evaluation.evaluate().isTrusted)
        // A distrusted entry of the caller's store also wins over the system anchors.
        evaluation.trustStore = TrustStore([TrustEntry(SamplePKI.rsaRoot, kind: .distrusted)])
        #expect(!evaluation.evaluate().isTrusted)
    }

    @Test func intermediateAsOnlyAnchorValidatesItsLeaves() throws {
        // An anchor is a name and a key, whoever issued it (RFC 5280 6.1.1 (d)).
        let result = SamplePKI.server(SamplePKI.rsaServer, intermediates: [], anchors: [SamplePKI.rsaIntermediate]).evaluate()
        guard case .trusted(let path) = result else { Issue.record("untrusted: \(String(describing: result.primaryFailure))"); return }
        #expect(path.anchor == SamplePKI.rsaIntermediate)
        #expect(path.certificates == [SamplePKI.rsaServer])
    }

    @Test func distrustedAnchorIsNeverTrusted() {
        let store = TrustStore([TrustEntry(SamplePKI.rsaRoot, kind: .anchor), TrustEntry(SamplePKI.rsaRoot, kind: .distrusted)])
        let evaluation = TrustEvaluation(leaf: SamplePKI.rsaServer, intermediates: [SamplePKI.rsaIntermediate], trustStore: store,
                                         policy: try! .server(hostname: SamplePKI.hostname), validationTime: SamplePKI.time)
        #expect(!evaluation.evaluate().isTrusted)
    }

    @Test func distrustedIntermediateIsNeverPartOfAPath() {
        let store = TrustStore([TrustEntry(SamplePKI.rsaRoot, kind: .anchor), TrustEntry(SamplePKI.rsaIntermediate, kind: .distrusted)])
        let evaluation = TrustEvaluation(leaf: SamplePKI.rsaServer, intermediates: [SamplePKI.rsaIntermediate], trustStore: store,
                                         policy: try! .server(hostname: SamplePKI.hostname), validationTime: SamplePKI.time)
        let result = evaluation.evaluate()
        #expect(result.primaryFailure == .distrusted(SamplePKI.rsaIntermediate))
    }

    @Test func distrustedLeafWinsOverLeafTrust() {
        let store = TrustStore([TrustEntry(SamplePKI.selfSigned, kind: .anchorOrLeaf), TrustEntry(SamplePKI.selfSigned, kind: .distrusted)])
        let evaluation = TrustEvaluation(leaf: SamplePKI.selfSigned, trustStore: store, policy: ValidationPolicy(), validationTime: SamplePKI.time)
        #expect(evaluation.evaluate().primaryFailure == .distrusted(SamplePKI.selfSigned))
    }

    @Test func leafOnlyEntryTrustsTheLeafButNeverAsIssuer() {
        let store = TrustStore([TrustEntry(SamplePKI.selfSigned, kind: .leaf)])
        let leafEvaluation = TrustEvaluation(leaf: SamplePKI.selfSigned, trustStore: store,
                                             policy: try! .server(hostname: "selfsigned.customer1.example"), validationTime: SamplePKI.time)
        #expect(leafEvaluation.evaluate().isTrusted)
        // The intermediate trusted as a leaf does not make it an anchor for its leaves.
        let issuerStore = TrustStore([TrustEntry(SamplePKI.rsaIntermediate, kind: .leaf)])
        let issued = TrustEvaluation(leaf: SamplePKI.rsaServer, trustStore: issuerStore, policy: try! .server(hostname: SamplePKI.hostname),
                                     validationTime: SamplePKI.time)
        #expect(issued.evaluate().primaryFailure?.code == "issuerNotFound")
    }

    @Test func pinnedSelfSignedServerIsTrustedForThisEvaluation() {
        var evaluation = TrustEvaluation(leaf: SamplePKI.selfSigned, trustStore: .empty,
                                         policy: try! .server(hostname: "selfsigned.customer1.example"), validationTime: SamplePKI.time)
        #expect(evaluation.evaluate().primaryFailure == .selfSignedNotTrusted(SamplePKI.selfSigned))
        evaluation.pins = [Pin(certificate: SamplePKI.selfSigned)]
        #expect(evaluation.evaluate().isTrusted)
        evaluation.pins = [Pin(publicKeyOf: SamplePKI.selfSigned)]
        #expect(evaluation.evaluate().isTrusted)
        // A pin of another certificate changes nothing.
        evaluation.pins = [Pin(certificate: SamplePKI.rsaServer)]
        #expect(evaluation.evaluate().primaryFailure == .selfSignedNotTrusted(SamplePKI.selfSigned))
    }

    @Test func pinStillChecksTheHostname() {
        let evaluation = TrustEvaluation(leaf: SamplePKI.selfSigned, trustStore: .empty, pins: [Pin(certificate: SamplePKI.selfSigned)],
                                         policy: try! .server(hostname: "other.example"), validationTime: SamplePKI.time)
        #expect(evaluation.evaluate().primaryFailure?.code == "hostnameMismatch")
    }

    @Test func requiredKeyPinRefusesPathsWithoutIt() {
        var evaluation = SamplePKI.server(SamplePKI.rsaServer)
        evaluation.policy.requiredPins = [Pin(publicKeyOf: SamplePKI.oldRoot)]
        #expect(evaluation.evaluate().primaryFailure == .pinMismatch)
        evaluation.policy.requiredPins = [Pin(publicKeyOf: SamplePKI.rsaIntermediate)]
        #expect(evaluation.evaluate().isTrusted)
    }

    // One pin concept: the Pin that trusts (TrustEvaluation.pins) also requires
    // (ValidationPolicy.requiredPins), by certificate as well as by key.
    @Test func requiredCertificatePinRefusesPathsWithoutThatCertificate() {
        var evaluation = SamplePKI.server(SamplePKI.rsaServer)
        evaluation.policy.requiredPins = [Pin(certificate: SamplePKI.oldRoot)]
        #expect(evaluation.evaluate().primaryFailure == .pinMismatch)
        evaluation.policy.requiredPins = [Pin(certificate: SamplePKI.oldRoot), Pin(certificate: SamplePKI.rsaRoot)]
        #expect(evaluation.evaluate().isTrusted)
        // A key pin of the anchor's key is not a certificate pin of the anchor: both kinds are read as given.
        evaluation.policy.requiredPins = [Pin(.certificate, SHA256Digest(hashing: SamplePKI.rsaRoot.subjectPublicKeyInfo.der))]
        #expect(evaluation.evaluate().primaryFailure == .pinMismatch)
    }

    // Reviewer finding: the pin requirement was checked only on paths that reached an anchor, so a
    // trust exception for a path that did not (self-signed, missing intermediate) accepted it with a
    // required pin matching nothing, and the report never named the pin. A required pin holds for
    // every path (RFC 7469 2.6: a pinned key must be in the path), and pinMismatch is fatal.
    @Test(arguments: [(SamplePKI.selfSigned, [Certificate]()), (SamplePKI.rsaServer, [])])
    func requiredPinHoldsForPathsWithoutAnAnchor(leaf: Certificate, intermediates: [Certificate]) throws {
        // Without the pin: recoverable, and an exception accepts it.
        let recorded = try #require(SamplePKI.server(leaf, intermediates: intermediates).evaluate().report?.exceptions)
        var excepted = SamplePKI.server(leaf, intermediates: intermediates)
        excepted.exceptions = recorded
        #expect(excepted.evaluate().isTrusted)
        // With a required pin that no certificate of the path matches: pinMismatch, fatal, no exception.
        excepted.policy.requiredPins = [Pin(publicKeyOf: SamplePKI.oldRoot)]
        let result = excepted.evaluate()
        #expect(!result.isTrusted)
        let report = try #require(result.report)
        #expect(report.failures.contains(.pinMismatch), "\(report.failures)")
        #expect(!report.isRecoverable && report.exceptions == nil)
        // The pin of the leaf's own key is in the path: the exception applies again.
        excepted.policy.requiredPins = [Pin(publicKeyOf: leaf)]
        #expect(excepted.evaluate().isTrusted)
    }

    @Test func pinParsingFromBase64() throws {
        let digest = SHA256Digest(hashing: SamplePKI.rsaRoot.subjectPublicKeyInfo.der)
        let pin = try #require(Pin(publicKeySHA256Base64: digest.base64))
        #expect(pin.matches(SamplePKI.rsaRoot))
        #expect(!pin.matches(SamplePKI.oldRoot))
        #expect(Pin(publicKeySHA256Base64: "not base64") == nil)
        #expect(Pin(publicKeySHA256Base64: String(digest.base64.dropLast(2)) + "==") == nil)
    }
}

@Suite("Trust model: system anchors")
struct SystemAnchorTests {
    static func temporaryFile(_ contents: String) throws -> String {
        let path = NSTemporaryDirectory() + "certpath-bundle-\(UUID().uuidString).pem"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func certificateFileBundleIsLoaded() throws {
        let bundle = PEM.encode(SamplePKI.rsaRoot.der) + "garbage between\n" + PEM.encode(SamplePKI.oldRoot.der)
        let path = try Self.temporaryFile(bundle)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let system = SystemTrustStore(certificateFile: path, certificateDirectory: nil, bundles: [])
        #expect(system.store.entries.map(\.certificate) == [SamplePKI.rsaRoot, SamplePKI.oldRoot])
        #expect(system.sources == [path])
    }

    @Test func certificateDirectoryIsLoadedAndBadFilesCounted() throws {
        let directory = NSTemporaryDirectory() + "certpath-dir-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try PEM.encode(SamplePKI.rsaRoot.der).write(toFile: directory + "/a.pem", atomically: true, encoding: .utf8)
        try Data(SamplePKI.oldRoot.der).write(to: URL(fileURLWithPath: directory + "/b.der"))
        try "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".write(toFile: directory + "/c.pem", atomically: true, encoding: .utf8)
        let system = SystemTrustStore(certificateFile: nil, certificateDirectory: directory, bundles: [])
        #expect(Set(system.store.entries.map(\.certificate)) == [SamplePKI.rsaRoot, SamplePKI.oldRoot])
        #expect(system.skipped == 1)
    }

    /// Only regular files are read: a FIFO (or a device) in the directory or as the file would block
    /// or never end; it is skipped and counted, and the rest still loads.
    @Test func nonRegularFilesAreSkippedWithoutBlocking() throws {
        let directory = NSTemporaryDirectory() + "certpath-fifo-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try PEM.encode(SamplePKI.rsaRoot.der).write(toFile: directory + "/a.pem", atomically: true, encoding: .utf8)
        #expect(mkfifo(directory + "/b.pem", 0o600) == 0)
        let system = SystemTrustStore(certificateFile: directory + "/b.pem", certificateDirectory: directory, bundles: [])
        #expect(system.store.entries.map(\.certificate) == [SamplePKI.rsaRoot])
        #expect(system.skipped == 2)
        #expect(system.tried == [directory + "/b.pem", directory + "/a.pem", directory + "/b.pem"])
        #expect(system.sources == [directory + "/a.pem"])
    }

    @Test func distributionBundleIsTheFallback() throws {
        let path = try Self.temporaryFile(PEM.encode(SamplePKI.rsaRoot.der))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let system = SystemTrustStore(certificateFile: nil, certificateDirectory: nil, bundles: ["/nonexistent/bundle.pem", path])
        #expect(system.store.entries.map(\.certificate) == [SamplePKI.rsaRoot])
        let none = SystemTrustStore(certificateFile: nil, certificateDirectory: nil, bundles: ["/nonexistent/bundle.pem"])
        #expect(none.store.entries.isEmpty)
    }

    @Test("System anchor files are read as certificate files are: text starting with 0 is PEM; broken DER is skipped and counted")
    func systemAnchorFilesStartingWithZero() {
        var skipped = 0
        let text = Array(("0 roots\n" + PEM.encode(SamplePKI.rsaRoot.der)).utf8)
        #expect(SystemTrustStore.certificates(in: text, skipped: &skipped) == [SamplePKI.rsaRoot] && skipped == 0)
        #expect(SystemTrustStore.certificates(in: SamplePKI.rsaRoot.der + [0], skipped: &skipped).isEmpty && skipped == 1)
        #expect(SystemTrustStore.certificates(in: Array("0\n-----BEGIN CERTIFICATE-----\n".utf8), skipped: &skipped).isEmpty && skipped == 2)
    }
}

@Suite("Trust exceptions")
struct TrustExceptionTests {
    static let expiredEvaluation = SamplePKI.server(SamplePKI.rsaExpired)

    // Reviewer finding: with an exception accepting the expiry and a new failure (a wrong host), the
    // verdict still named the expiry, the one failure already accepted, and invited saving another
    // exception. The report names first what the exceptions do not accept, and lists what they do.
    @Test func partiallyCoveringExceptionsNameTheUncoveredFailureFirst() throws {
        let recorded = try #require(Self.expiredEvaluation.evaluate().report?.exceptions)
        var evaluation = SamplePKI.server(SamplePKI.rsaExpired, hostname: "www.customer2.example")
        let plain = try #require(evaluation.evaluate().report)
        #expect(plain.primaryFailure.code == "expired" && plain.exceptedFailures.isEmpty)
        evaluation.exceptions = recorded
        let report = try #require(evaluation.evaluate().report)
        #expect(report.primaryFailure.code == "hostnameMismatch")
        #expect(report.exceptedFailures.map(\.code) == ["expired"])
        #expect(report.failures.count == 2)
        #expect(report.summary.hasPrefix("the certificate is not valid for www.customer2.example"), "\(report.summary)")
        // Exceptions for another leaf accept nothing here: the report is as without them.
        evaluation.exceptions = try #require(SamplePKI.server(SamplePKI.selfSigned).evaluate().report?.exceptions)
        #expect(try #require(evaluation.evaluate().report).primaryFailure.code == "expired")
    }

    @Test func exceptionRoundTripThroughText() throws {
        let report = try #require(Self.expiredEvaluation.evaluate().report)
        #expect(report.primaryFailure.code == "expired")
        let exceptions = try #require(report.exceptions)
        let text = exceptions.text
        // Version 2: the header, the preamble comment, then the entry with its descriptive fields.
        #expect(text.hasPrefix("certpath-trust-exceptions 2\n# "))
        #expect(text.contains("\nexception\nleaf \(SHA256Digest(hashing: SamplePKI.rsaExpired.der).hex)\nkey "))
        #expect(text.contains("\nsubject \(SamplePKI.rsaExpired.subject)\n"))
        #expect(text.contains("\nfailure expired \(SHA256Digest(hashing: SamplePKI.rsaExpired.der).hex)\npurpose server\nintegrity "))
        let parsed = try TrustExceptions(text: text)
        #expect(parsed == exceptions)
        var evaluation = Self.expiredEvaluation
        evaluation.exceptions = parsed
        guard case .trusted(let path) = evaluation.evaluate() else { Issue.record("the exception did not apply"); return }
        #expect(path.isTrustedByException)
        #expect(path.acceptedFailures.map(\.code) == ["expired"])
    }

    @Test func exceptionDoesNotLetADifferentCertificateThrough() throws {
        // Impostor: the exception recorded for the expired certificate, presented with another
        // expired certificate (here: an expired certificate from a different leaf, the cross cert path).
        let exceptions = try #require(Self.expiredEvaluation.evaluate().report?.exceptions)
        var other = SamplePKI.server(SamplePKI.selfSigned, intermediates: [], hostname: "selfsigned.customer1.example")
        other.exceptions = exceptions
        #expect(!other.evaluate().isTrusted)
        var notYetValid = SamplePKI.server(SamplePKI.certificate("rsa/server-not-yet-valid.pem"))
        notYetValid.exceptions = exceptions
        #expect(!notYetValid.evaluate().isTrusted)
    }

    @Test func exceptionDoesNotCoverANewHostnameMismatch() throws {
        let exceptions = try #require(Self.expiredEvaluation.evaluate().report?.exceptions)
        var evaluation = SamplePKI.server(SamplePKI.rsaExpired, hostname: "attacker.example")
        evaluation.exceptions = exceptions
        let result = evaluation.evaluate()
        #expect(!result.isTrusted)
        #expect(Set(result.report?.failures.map(\.code) ?? []) == ["expired", "hostnameMismatch"])
        // A hostname-mismatch exception for one name does not cover another name.
        let mismatch = try #require(SamplePKI.server(SamplePKI.rsaServer, hostname: "a.example").evaluate().report?.exceptions)
        var second = SamplePKI.server(SamplePKI.rsaServer, hostname: "b.example")
        second.exceptions = mismatch
        #expect(!second.evaluate().isTrusted)
        second.hostnameForTest("a.example")
        #expect(second.evaluate().isTrusted)
    }

    @Test func fatalFailuresCanNeverBeExcepted() throws {
        let report = try #require(SamplePKI.server(SamplePKI.badSignature).evaluate().report)
        #expect(report.primaryFailure.code == "badSignature")
        #expect(!report.isRecoverable)
        #expect(report.exceptions == nil)
        // Even a hand-written exception naming the fatal code is refused when read.
        let leaf = SHA256Digest(hashing: SamplePKI.badSignature.der).hex
        let body = "certpath-trust-exceptions 1\nleaf \(leaf)\nfailure badSignature \(leaf)\n"
        let text = body + "checksum \(SHA256Digest(hashing: Array(body.utf8)).hex)\n"
        #expect(throws: TrustExceptionsError.self) { try TrustExceptions(text: text) }
        // And an exception for only the recoverable part of a mixed result does not apply.
        let expiredOnly = try #require(Self.expiredEvaluation.evaluate().report?.exceptions)
        var bad = SamplePKI.server(SamplePKI.badSignature)
        bad.exceptions = expiredOnly
        #expect(!bad.evaluate().isTrusted)
    }

    @Test(arguments: [
        ("", 0, "the text is empty (expected the header \"certpath-trust-exceptions 2\")"),
        ("certpath-trust-exceptions 1", 0, "end with a line feed"),
        ("certpath-trust-exceptions 2\nchecksum 00\n", 2, "unknown line outside an entry"),
        ("certpath-trust-exceptions 3\n", 1, "header"),
        ("certpath-trust-exceptions 1\n", 0, "missing checksum"),
        ("certpath-trust-exceptions 1\nchecksum 1234\n", 2, "checksum <sha256 hex>"),
    ])
    func malformedTextIsRejected(text: String, line: Int, reason: String) {
        do {
            _ = try TrustExceptions(text: text)
            Issue.record("accepted \(text.debugDescription)")
        } catch {
            #expect(error.line == line)
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test func tamperedTextIsRejected() throws {
        // Version 1: its checksum covers the whole text.
        let text = Self.signed(Self.header + "leaf \(Self.a)\nfailure expired \(Self.a)\n")
        // Change one digit of the leaf digest: the checksum no longer matches.
        var bytes = Array(text.utf8)
        let index = text.utf8.count - 80
        bytes[index] = bytes[index] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        do {
            _ = try TrustExceptions(text: String(decoding: bytes, as: UTF8.self))
            Issue.record("tampered text accepted")
        } catch {
            #expect(error.reason.contains("checksum mismatch"))
        }
        // Lines that are not part of the grammar are refused even with a correct checksum.
        let body = "certpath-trust-exceptions 1\nleaf \(String(repeating: "a", count: 64))\nfailure expired \(String(repeating: "b", count: 64))\nextra line\n"
        let forged = body + "checksum \(SHA256Digest(hashing: Array(body.utf8)).hex)\n"
        do {
            _ = try TrustExceptions(text: forged)
            Issue.record("unknown line accepted")
        } catch {
            #expect(error.line == 4)
            #expect(error.reason == "unknown line")
        }
    }

    /// `body` followed by its correct checksum line, so only the defect under test is wrong.
    static func signed(_ body: String) -> String {
        body + "checksum \(SHA256Digest(hashing: Array(body.utf8)).hex)\n"
    }

    static let header = "certpath-trust-exceptions 1\n"
    static let a = String(repeating: "a", count: 64), b = String(repeating: "b", count: 64), c = String(repeating: "c", count: 64)

    /// Reads `text`, which must fail; the error.
    static func error(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> TrustExceptionsError? {
        do {
            _ = try TrustExceptions(text: text)
            Issue.record("accepted \(text.debugDescription)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    // An entry without failures is reported at its own `leaf` line, wherever the entry closes: at the
    // checksum line, at the next leaf line, after a complete entry.
    @Test(arguments: [
        ("leaf \(a)\n", 2),
        ("leaf \(a)\nleaf \(a)\nfailure expired \(a)\n", 2),
        ("leaf \(a)\nleaf \(b)\nfailure expired \(b)\n", 2),
        ("leaf \(a)\nfailure expired \(a)\nleaf \(b)\nleaf \(c)\nfailure expired \(c)\n", 4),
        ("leaf \(a)\nfailure expired \(a)\nfailure notYetValid \(a)\nleaf \(b)\n", 5),
    ])
    func entryWithoutFailuresIsReportedAtItsLeafLine(body: String, line: Int) throws {
        let error = try #require(Self.error(Self.signed(Self.header + body)))
        #expect(error.line == line)
        #expect(error.reason == "a leaf entry without failures")
    }

    // Exactly hostnameMismatch and nameMismatch carry a detail: the record of an observed failure has
    // one for those codes and none for the others.
    @Test func codesWithDetailAreThoseWhoseFailuresRecordOne() throws {
        let leaf = SamplePKI.rsaServer
        let time = UnixTime(secondsSinceEpoch: 0)
        let failures: [ValidationFailure] = [
            .expired(leaf, notAfter: time, validationTime: time), .notYetValid(leaf, notBefore: time, validationTime: time),
            .issuerNotFound(leaf), .selfSignedNotTrusted(leaf), .noTrustedAnchor(leaf),
            .hostnameMismatch(leaf, reference: .dnsName(try DNSName("a.example")), presented: []),
            .nameMismatch(leaf, expected: .dnsName(try DNSName("b.example")), presented: []),
        ]
        #expect(Set(failures.map(\.code)) == ExceptedFailure.recoverableCodes)
        for failure in failures {
            let record = try #require(ExceptedFailure(failure))
            #expect((record.detail != nil) == ExceptedFailure.codesWithDetail.contains(failure.code), "\(failure.code)")
        }
        #expect(ExceptedFailure.codesWithDetail == ["hostnameMismatch", "nameMismatch"])
    }

    // A detail on a code that takes none, or none on a code that needs one, would make an exception
    // that never applies: both are refused, when read and when built.
    @Test(arguments: ExceptedFailure.recoverableCodes.sorted())
    func detailPresenceMustMatchTheFailureKind(code: String) throws {
        let digest = try #require(SHA256Digest(hex: Self.a))
        let takesDetail = ExceptedFailure.codesWithDetail.contains(code)
        #expect((ExceptedFailure(code: code, certificate: digest, detail: "extra.example") != nil) == takesDetail)
        #expect((ExceptedFailure(code: code, certificate: digest, detail: nil) != nil) == !takesDetail)

        let withDetail = Self.signed(Self.header + "leaf \(Self.a)\nfailure \(code) \(Self.a) extra.example\n")
        let withoutDetail = Self.signed(Self.header + "leaf \(Self.a)\nfailure \(code) \(Self.a)\n")
        let accepted = try TrustExceptions(text: takesDetail ? withDetail : withoutDetail)
        #expect(accepted.entries.first?.failures.first?.detail == (takesDetail ? "extra.example" : nil))
        let error = try #require(Self.error(takesDetail ? withoutDetail : withDetail))
        #expect(error.line == 3)
        if takesDetail {
            let what = code == "hostnameMismatch" ? "the reference identifier" : "the expected name"
            #expect(error.reason == "failure kind \"\(code)\" needs a detail (\(what))")
        } else {
            #expect(error.reason == "failure kind \"\(code)\" takes no detail (only hostnameMismatch and nameMismatch carry one)")
        }
    }

    // A detail is the canonical text of the name an observed failure records, or the exception could
    // never apply: refused when read (hand-edited or forged text with a correct checksum) and when
    // built. Found by a reviewer: `*`, upper case, a trailing dot and `xn--*` loaded and never matched.
    @Test(arguments: [
        ("hostnameMismatch", "*", "detail \"*\" is not a canonical reference identifier: it could never match a failure"),
        ("hostnameMismatch", "xn--*", "detail \"xn--*\" is not a canonical reference identifier: it could never match a failure"),
        ("hostnameMismatch", "WWW.customer2.example",
         "detail \"WWW.customer2.example\" is not a canonical reference identifier (expected \"www.customer2.example\")"),
        ("hostnameMismatch", "www.customer2.example.",
         "detail \"www.customer2.example.\" is not a canonical reference identifier (expected \"www.customer2.example\")"),
        ("hostnameMismatch", "2001:DB8::1", "detail \"2001:DB8::1\" is not a canonical reference identifier (expected \"2001:db8::1\")"),
        ("nameMismatch", "Client.Example", "detail \"Client.Example\" is not a canonical expected name (expected \"client.example\")"),
        ("nameMismatch", "a b", "detail \"a%20b\" is not a canonical expected name: it could never match a failure"),
    ])
    func nonCanonicalDetailsAreRefused(code: String, detail: String, reason: String) throws {
        let encoded = detail.replacingOccurrences(of: " ", with: "%20")
        let error = try #require(Self.error(Self.signed(Self.header + "leaf \(Self.a)\nfailure \(code) \(Self.a) \(encoded)\n")))
        #expect(error.line == 3)
        #expect(error.reason == reason)
        let kind = try #require(RecoverableFailure(rawValue: code))
        #expect(ExceptedFailure(kind: kind, certificate: try #require(SHA256Digest(hex: Self.a)), detail: detail) == nil)
    }

    // The other direction: every name an observed failure records is canonical, so requiring
    // canonical details never makes a recoverable failure un-exceptable.
    @Test(arguments: ["WWW.Example.COM.", "xn--caf-dma.example", "192.0.2.1", "2001:DB8:0:0::1", "::ffff:10.0.0.1"])
    func observedHostnameMismatchesAreAlwaysRecordable(reference text: String) throws {
        let reference = try ReferenceIdentifier(text)
        let record = try #require(ExceptedFailure(.hostnameMismatch(SamplePKI.rsaServer, reference: reference, presented: [])))
        #expect(record.detail == reference.description)
    }

    @Test(arguments: [ExpectedName.dnsName(try! DNSName("Client.Example.")), .ipAddress(IPAddress("2001:db8::5")!),
                      .email(try! RFC822Name("Alice.Smith@Example.COM")), .email(try! RFC822Name("a%b@example.com"))])
    func observedNameMismatchesAreAlwaysRecordable(expected: ExpectedName) throws {
        let record = try #require(ExceptedFailure(.nameMismatch(SamplePKI.rsaServer, expected: expected, presented: [])))
        #expect(record.detail == expected.description)
        let exceptions = TrustExceptions([TrustException(leaf: SHA256Digest(hashing: SamplePKI.rsaServer.der), failures: [record])])
        #expect(try TrustExceptions(text: exceptions.text) == exceptions)
    }

    @Test func unknownAndFatalCodesSayWhichCodesCanBeExcepted() throws {
        for code in ["frobnicated", "badSignature"] {
            let error = try #require(Self.error(Self.signed(Self.header + "leaf \(Self.a)\nfailure \(code) \(Self.a)\n")))
            #expect(error.reason == "\"\(code)\" is not a recoverable failure code (only expired, notYetValid, issuerNotFound, "
                    + "selfSignedNotTrusted, noTrustedAnchor, hostnameMismatch, nameMismatch can be excepted; fatal failures never)")
        }
    }

    // CRLF line ends are refused at the first line that has one, even when the checksum was computed
    // over the CRLF bytes: the format is LF only and the checksum covers exact bytes.
    @Test func crlfLineEndsAreRefusedWithTheirLine() throws {
        let exceptions = try #require(Self.expiredEvaluation.evaluate().report?.exceptions)
        let crlf = exceptions.text.replacingOccurrences(of: "\n", with: "\r\n")
        var error = try #require(Self.error(crlf))
        #expect(error.line == 1)
        #expect(error.reason == "CRLF line ends are not allowed (the format uses LF only)")
        #expect(error.description == "trust exceptions, line 1: CRLF line ends are not allowed (the format uses LF only)")
        // Only the third line, checksum over those bytes.
        error = try #require(Self.error(Self.signed(Self.header + "leaf \(Self.a)\nfailure expired \(Self.a)\r\n")))
        #expect(error.line == 3)
        #expect(error.reason == "CRLF line ends are not allowed (the format uses LF only)")
        // Only the checksum line.
        let lf = exceptions.text
        error = try #require(Self.error(String(lf.dropLast()) + "\r\n"))
        #expect(error.line == lf.split(separator: "\n", omittingEmptySubsequences: false).count - 1)
        #expect(error.reason == "CRLF line ends are not allowed (the format uses LF only)")
        // A CR not before a line feed is not a line end: that line is simply malformed.
        error = try #require(Self.error(Self.signed(Self.header + "leaf \(Self.a)\nfailure hostnameMismatch \(Self.a) x\ry\n")))
        #expect(error.line == 3)
        #expect(error.reason == "invalid detail \"x\ry\"")
    }

    // A detail has one encoding, the one the format writes: escapes only for bytes outside the
    // plain set, two lower-case hex digits each.
    @Test func detailsMustBeCanonicallyEncoded() throws {
        func reason(_ detail: String) -> String? {
            Self.error(Self.signed(Self.header + "leaf \(Self.a)\nfailure hostnameMismatch \(Self.a) \(detail)\n"))?.reason
        }
        #expect(reason("%41.example") == "detail \"%41.example\" is not canonically encoded (expected \"A.example\")")
        #expect(reason("caf%C3%A9.example") == "detail \"caf%C3%A9.example\" is not canonically encoded (expected \"caf%c3%a9.example\")")
        #expect(reason("a%2ab") == "detail \"a%2ab\" is not canonically encoded (expected \"a*b\")")
        // Not an escape at all: "%" must be followed by two hex digits, without a sign.
        #expect(reason("a%+bb@example.com") == "invalid detail \"a%+bb@example.com\"")
        #expect(reason("a%-0b") == "invalid detail \"a%-0b\"")
        // The canonical forms of canonical names are read back (an escape is needed only in an email
        // address's local part: a reference identifier is A-labels or an IP address).
        for detail in ["a%25b@example.com", "www.example", "192.0.2.1"] {
            let exceptions = try TrustExceptions(text: Self.signed(Self.header + "leaf \(Self.a)\nfailure nameMismatch \(Self.a) \(detail)\n"))
            #expect(exceptions.text.contains(" \(detail)\n"))
        }
    }

    // Words of the text quoted in a message are bounded, whatever their length.
    @Test func quotedWordsAreTruncated() throws {
        let long = String(repeating: "x", count: 100_000)
        var error = try #require(Self.error(Self.signed(Self.header + "leaf \(Self.a)\nfailure \(long) \(Self.a)\n")))
        #expect(error.reason == "\"\(String(repeating: "x", count: 64))…\" (100000 bytes) is not a recoverable failure code (only expired, "
                + "notYetValid, issuerNotFound, selfSignedNotTrusted, noTrustedAnchor, hostnameMismatch, nameMismatch can be excepted; fatal failures never)")
        error = try #require(Self.error(Self.signed(Self.header + "leaf \(Self.a)\nfailure hostnameMismatch \(Self.a) \(long)/\n")))
        #expect(error.reason == "invalid detail \"\(String(repeating: "x", count: 64))…\" (100001 bytes)")
    }

    @Test func detailsArePercentEncoded() throws {
        let leaf = SHA256Digest(hashing: SamplePKI.rsaServer.der)
        let failure = try #require(ExceptedFailure(code: "nameMismatch", certificate: leaf, detail: "a%b@example.com"))
        let exceptions = TrustExceptions([TrustException(leaf: leaf, failures: [failure])])
        #expect(exceptions.text.contains("nameMismatch \(leaf.hex) a%25b@example.com\n"))
        #expect(try TrustExceptions(text: exceptions.text) == exceptions)
    }
}

@Suite("Diagnostics")
struct DiagnosticsTests {
    @Test func missingIntermediateSummary() throws {
        let report = try #require(SamplePKI.server(SamplePKI.rsaServer, intermediates: []).evaluate().report)
        #expect(report.primaryFailure == .issuerNotFound(SamplePKI.rsaServer))
        #expect(report.primaryFailure.isRecoverable)
        let text = Diagnostics.describe(report.primaryFailure)
        #expect(text.hasPrefix("no certificate for issuer \(SamplePKI.rsaServer.issuer) of"))
        #expect(text.contains("its issuer's certificate was not presented"))
    }

    @Test func expiredSummaryNamesTheDates() throws {
        let report = try #require(SamplePKI.server(SamplePKI.rsaExpired).evaluate().report)
        let text = Diagnostics.describe(report.primaryFailure)
        #expect(text == "\(SamplePKI.rsaExpired.subject) expired at 2021-01-01T00:00:00Z (validation time 2026-06-01T00:00:00Z)")
        #expect(report.primaryFailure.isRecoverable)
    }

    @Test func selfSignedSummary() throws {
        let report = try #require(SamplePKI.server(SamplePKI.selfSigned, intermediates: [], hostname: "selfsigned.customer1.example").evaluate().report)
        #expect(Diagnostics.describe(report.primaryFailure) == "\(SamplePKI.selfSigned.subject) is self-signed and not trusted")
        #expect(report.primaryFailure.isRecoverable)
    }

    @Test func noTrustedAnchorSummary() throws {
        let report = try #require(SamplePKI.server(SamplePKI.rsaServer, intermediates: [SamplePKI.rsaIntermediate, SamplePKI.rsaRoot],
                                                   anchors: [SamplePKI.oldRoot]).evaluate().report)
        #expect(report.primaryFailure == .noTrustedAnchor(SamplePKI.rsaRoot))
        #expect(Diagnostics.describe(report.primaryFailure) == "the path ends at the root \(SamplePKI.rsaRoot.subject), which is not a trusted anchor")
        #expect(report.primaryFailure.isRecoverable)
    }

    @Test func nameMismatchSummaryListsTheNamesCarried() throws {
        let report = try #require(SamplePKI.server(SamplePKI.rsaServer, hostname: "www.customer2.example").evaluate().report)
        #expect(Diagnostics.describe(report.primaryFailure)
                == "the certificate is not valid for www.customer2.example; it is valid for DNS:server.customer1.example, IP:192.0.2.10")
        #expect(report.primaryFailure.isRecoverable)
    }

    @Test func fatalFailuresAreNotRecoverable() throws {
        let report = try #require(SamplePKI.server(SamplePKI.badSignature).evaluate().report)
        #expect(!report.primaryFailure.isRecoverable)
        let wrongEKU = try #require(SamplePKI.server(SamplePKI.rsaClient).evaluate().report)
        #expect(wrongEKU.primaryFailure.code == "extendedKeyUsageForbids")
        #expect(!wrongEKU.primaryFailure.isRecoverable)
    }

    @Test func perCertificateReportCoversEveryCertificate() throws {
        let report = try #require(SamplePKI.server(SamplePKI.rsaExpired, hostname: "other.example").evaluate().report)
        let reports = report.certificateReports
        #expect(reports.map(\.role) == ["end entity", "intermediate", "trust anchor"])
        #expect(Set(reports[0].failures.map(\.code)) == ["expired", "hostnameMismatch"])
        #expect(reports[1].failures.isEmpty)
        #expect(report.summary.split(separator: "\n").count == 4)
    }
}

extension TrustEvaluation {
    /// Test helper: change the reference hostname of a server policy.
    mutating func hostnameForTest(_ hostname: String) {
        policy.purpose = .serverAuthentication(try! ReferenceIdentifier(hostname))
    }
}

@Suite("RFC 5280 6.1.1 (h), (i): initial permitted and excluded subtrees")
struct InitialNameConstraintsTests {
    static func dns(_ text: String) -> GeneralSubtree { GeneralSubtree(base: .dNSName(Array(text.utf8)[...])) }

    @Test func permittedSubtreeAdmitsThePath() {
        var evaluation = SamplePKI.server(SamplePKI.rsaServer)
        evaluation.policy.initialNameConstraints = NameConstraints(permittedSubtrees: [Self.dns("customer1.example")], excludedSubtrees: nil)
        #expect(evaluation.evaluate().isTrusted)
    }

    @Test func permittedSubtreeElsewhereRefusesThePath() {
        var evaluation = SamplePKI.server(SamplePKI.rsaServer)
        evaluation.policy.initialNameConstraints = NameConstraints(permittedSubtrees: [Self.dns("customer2.example")], excludedSubtrees: nil)
        let failure = evaluation.evaluate().primaryFailure
        guard case .nameConstraintViolation(let certificate, let violation)? = failure else {
            Issue.record("expected nameConstraintViolation, got \(String(describing: failure))")
            return
        }
        #expect(certificate == SamplePKI.rsaServer)
        #expect(violation.reason == .notWithinPermittedSubtrees)
    }

    @Test func excludedSubtreeRefusesThePath() {
        var evaluation = SamplePKI.server(SamplePKI.rsaServer)
        evaluation.policy.initialNameConstraints = NameConstraints(permittedSubtrees: nil, excludedSubtrees: [Self.dns("server.customer1.example")])
        let failure = evaluation.evaluate().primaryFailure
        guard case .nameConstraintViolation(_, let violation)? = failure, case .withinExcludedSubtree = violation.reason else {
            Issue.record("expected an excluded-subtree violation, got \(String(describing: failure))")
            return
        }
    }
}
