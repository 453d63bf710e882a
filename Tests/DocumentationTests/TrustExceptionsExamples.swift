import CertPath
import Foundation
import Testing

/// UsingTrustExceptions.md: record a user's decision for the self-signed sample server, apply it,
/// and see what it does not cover.
@Suite struct TrustExceptionsExamples {
    func certificates(_ name: String) throws -> [Certificate] { try Repository.certificates(name) }

    @Test func trustExceptions() throws {
        let anchors = TrustStore(anchors: [try certificates("root.pem")[0]])
        let intermediate = try certificates("intermediate.pem")[0]
        let exceptionsFile = FileManager.default.temporaryDirectory.appendingPathComponent("certpath-docs-\(UUID().uuidString).exc")
        defer { try? FileManager.default.removeItem(at: exceptionsFile) }

        let selfSigned = try certificates("selfsigned-server.pem")[0]
        let evaluation = TrustEvaluation(leaf: selfSigned, trustStore: anchors,
                                         policy: try .server(hostname: "selfsigned.customer1.example"))
        if case .untrusted(let report) = evaluation.evaluate(), let exceptions = report.exceptions {
            print(report.summary)                           // show the user what is wrong, and ask
            try exceptions.text.write(to: exceptionsFile, atomically: true, encoding: .utf8)
        }

        // The text form the article shows (the digests are those of the committed sample files).
        let text = try String(contentsOf: exceptionsFile, encoding: .utf8)
        let digest = SHA256Digest(hashing: selfSigned.der).hex
        #expect(text.hasPrefix("certpath-trust-exceptions 2\n# "))
        #expect(text.contains("\nexception\nleaf \(digest)\nkey "))
        #expect(text.contains("\nfailure selfSignedNotTrusted \(digest)\npurpose server\nintegrity "))

        var next = evaluation
        next.exceptions = try TrustExceptions(text: String(contentsOf: exceptionsFile, encoding: .utf8))
        if case .trusted(let path) = next.evaluate() {
            print(path.isTrustedByException, path.acceptedFailures.map(\.code))   // true ["selfSignedNotTrusted"]
        }
        guard case .trusted(let path) = next.evaluate() else { throw ExampleError("the exception did not apply") }
        #expect(path.isTrustedByException && path.acceptedFailures.map(\.code) == ["selfSignedNotTrusted"])

        var impostor = next
        impostor.leaf = try certificates("server.pem")[0]          // any other certificate
        print(impostor.evaluate().isTrusted)                       // false: the exception names another leaf
        #expect(!impostor.evaluate().isTrusted)

        var elsewhere = next
        elsewhere.policy = try .server(hostname: "www.customer2.example")
        print(elsewhere.evaluate().isTrusted)                      // false: only selfSignedNotTrusted was accepted
        #expect(!elsewhere.evaluate().isTrusted)
        #expect(Set(elsewhere.evaluate().report?.failures.map(\.code) ?? []) == ["selfSignedNotTrusted", "hostnameMismatch"])

        let forged = TrustEvaluation(leaf: try certificates("server-bad-signature.pem")[0], intermediates: [intermediate],
                                     trustStore: anchors, policy: try .server(hostname: "server.customer1.example"))
        print(forged.evaluate().report?.exceptions == nil)         // true: a bad signature can never be excepted
        #expect(forged.evaluate().report?.exceptions == nil)

        // An entry edited to name a fatal code is rejected (its integrity digest no longer matches),
        // and reported.
        let fatal = try TrustExceptions(text: text.replacingOccurrences(of: "selfSignedNotTrusted", with: "badSignature"))
        #expect(fatal.entries.isEmpty && fatal.rejected.count == 1)
    }

    /// UsingTrustExceptions.md, "Bind an exception to a host, let it expire, and see what did not apply".
    @Test func managingTrustExceptions() throws {
        let anchors = TrustStore(anchors: [try certificates("root.pem")[0]])
        let intermediate = try certificates("intermediate.pem")[0]
        let evaluation = TrustEvaluation(leaf: try certificates("server-expired.pem")[0], intermediates: [intermediate], trustStore: anchors,
                                         policy: try .server(hostname: "server.customer1.example"))
        guard case .untrusted(let first) = evaluation.evaluate(), let exceptions = first.exceptions else {
            throw ExampleError("the expired server offered no exception")
        }

        var entry = exceptions.entries[0]
        entry.recorded = TrustEvaluation.now()
        entry.host = try ReferenceIdentifier("server.customer1.example")   // for this server name only
        entry.expires = UnixTime(rfc3339: "2099-01-01")                     // and not from this date on
        let managed = TrustExceptions([entry])

        var next = evaluation
        next.exceptions = managed
        #expect(next.evaluate().isTrusted)
        #expect(try TrustExceptions(text: managed.text) == managed)

        var impostor = next
        impostor.leaf = try certificates("server.pem")[0]
        impostor.intermediates = []
        if case .untrusted(let report) = impostor.evaluate() {
            for note in report.inapplicableExceptions { print(note.reason) }   // otherCertificateOfSameName(sameKey: false)
        }
        #expect(impostor.evaluate().report?.inapplicableExceptions.map(\.reason) == [.otherCertificateOfSameName(sameKey: false)])

        // The text block of the article: the self-signed server's exception as the library writes it.
        let selfSigned = try certificates("selfsigned-server.pem")[0]
        let offered = TrustEvaluation(leaf: selfSigned, trustStore: anchors, policy: try .server(hostname: "selfsigned.customer1.example"))
            .evaluate().report?.exceptions
        #expect(offered?.text.hasSuffix("integrity a7b066bd0c5b0f6e74a9994638eca9e8cd00e0679b7168aa583e45468dad5329\n") == true)
    }
}
