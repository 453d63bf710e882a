import CertPath
import Testing

/// The version 2 trust-exceptions text (issue 33, "Trust exceptions people can manage"): readable
/// entries, comments, an integrity digest per entry, host binding, expiry, and the note that an
/// exception exists for another certificate of the same name. The sample PKI's `server-expired.pem`
/// (expired at the sample time, 2026-06-01) and `server.pem` share the subject
/// `O=Customer 1, CN=server.customer1.example` and have different keys.
@Suite struct TrustExceptionsFileTests {
    static let expired = SamplePKI.rsaExpired
    static let recordedAt = UnixTime(rfc3339: "2026-05-31T12:00:00Z")!

    /// The exception the evaluation of `server-expired.pem` offers, recorded with `host` and `expires`.
    static func expiredException(host: String? = nil, expires: String? = nil) throws -> TrustException {
        let offered = try #require(SamplePKI.server(expired).evaluate().report?.exceptions?.entries.first)
        let entry = TrustException(certificate: expired, failures: offered.failures, recorded: recordedAt,
                                   host: try host.map(ReferenceIdentifier.init), expires: expires.flatMap(UnixTime.init(rfc3339:)))
        #expect(entry.names == offered.names)
        return entry
    }

    /// The self-signed server's exception (selfSignedNotTrusted), a second entry for the same file.
    static func selfSignedException() throws -> TrustException {
        let offered = try #require(SamplePKI.server(SamplePKI.selfSigned, intermediates: [], hostname: "selfsigned.customer1.example")
            .evaluate().report?.exceptions?.entries.first)
        return TrustException(certificate: SamplePKI.selfSigned, failures: offered.failures, recorded: recordedAt)
    }

    @Test func anEntryCarriesWhatAPersonNeedsToReadIt() throws {
        let entry = try Self.expiredException(host: "server.customer1.example", expires: "2026-07-01T00:00:00Z")
        let text = TrustExceptions([entry]).text
        let digest = SHA256Digest(hashing: Self.expired.der).hex
        let block = """
            exception
            leaf \(digest)
            key \(try #require(entry.key).hex)
            subject CN=server.customer1.example,O=Customer 1
            issuer \(Self.expired.issuer)
            name DNS:server.customer1.example
            name IP:192.0.2.10
            failure expired \(digest)
            recorded 2026-05-31T12:00:00Z
            host server.customer1.example
            expires 2026-07-01T00:00:00Z
            integrity \(entry.integrity.hex)

            """
        #expect(text.hasSuffix("\n" + block), "\(text)")
        #expect(entry.id == String(entry.integrity.hex.prefix(12)))
        let read = try TrustExceptions(text: text)
        #expect(read.entries == [entry] && read.rejected.isEmpty)
    }

    @Test func commentsBlankLinesAndADeletedEntryKeepTheOthersValid() throws {
        let first = try Self.expiredException(), second = try Self.selfSignedException()
        let text = TrustExceptions([first, second]).text
        // A comment inside the first entry, one at the end, and the second entry deleted by hand.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let leafLine = try #require(lines.firstIndex(of: "leaf \(first.leaf.hex)"))
        lines.insert("# accepted on the phone with Customer 1, ticket 4711", at: leafLine + 1)
        let secondStart = try #require(lines.lastIndex(of: "exception"))
        lines.removeSubrange(secondStart...(secondStart + TrustExceptions.entryText(second).split(separator: "\n").count - 1))
        let edited = lines.joined(separator: "\n") + "# the end\n\n"
        let read = try TrustExceptions(text: edited)
        #expect(read.entries == [first])
        #expect(read.rejected.isEmpty)
    }

    @Test func anEditedEntryIsRejectedAloneAndReported() throws {
        let first = try Self.expiredException(), second = try Self.selfSignedException()
        let text = TrustExceptions([first, second]).text
        // Widen the first entry: accept notYetValid too. Its digest no longer matches.
        let edited = text.replacingOccurrences(of: "failure expired \(first.leaf.hex)\n",
                                               with: "failure expired \(first.leaf.hex)\nfailure notYetValid \(first.leaf.hex)\n")
        let read = try TrustExceptions(text: edited)
        #expect(read.entries == [second])
        let rejected = try #require(read.rejected.first)
        #expect(read.rejected.count == 1)
        #expect(rejected.id == first.id)
        #expect(rejected.line == (edited.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(of: "exception") ?? -1) + 1)
        #expect(rejected.reason.contains("integrity check failed"))
        // Not applied: the expired server stays untrusted.
        var evaluation = SamplePKI.server(Self.expired)
        evaluation.exceptions = read
        #expect(evaluation.evaluate().report?.primaryFailure.code == "expired")
    }

    @Test func aSwappedCertificateHashIsRejected() throws {
        // The hostile edit: the entry's leaf (and failure) digest replaced by another certificate's,
        // the valid server's, to carry the accepted failures over to it.
        let first = try Self.expiredException()
        let other = SHA256Digest(hashing: SamplePKI.rsaServer.der).hex
        let swapped = TrustExceptions([first]).text.replacingOccurrences(of: first.leaf.hex, with: other)
        let read = try TrustExceptions(text: swapped)
        #expect(read.entries.isEmpty)
        #expect(read.rejected.map(\.id) == [first.id])
        // Integrity lines exchanged between two entries: both are rejected.
        let second = try Self.selfSignedException()
        let text = TrustExceptions([first, second]).text
        let exchanged = text.replacingOccurrences(of: "integrity \(first.integrity.hex)", with: "integrity X")
            .replacingOccurrences(of: "integrity \(second.integrity.hex)", with: "integrity \(first.integrity.hex)")
            .replacingOccurrences(of: "integrity X", with: "integrity \(second.integrity.hex)")
        let both = try TrustExceptions(text: exchanged)
        #expect(both.entries.isEmpty && both.rejected.count == 2)
    }

    @Test func anEntryWithoutItsIntegrityLineIsRejected() throws {
        let first = try Self.expiredException()
        let truncated = String(TrustExceptions([first]).text.split(separator: "\n").dropLast().joined(separator: "\n")) + "\n"
        let read = try TrustExceptions(text: truncated)
        #expect(read.entries.isEmpty)
        #expect(read.rejected.first?.reason.contains("no integrity line") == true)
        // A stray line outside any entry is a syntax error of the document.
        #expect(throws: TrustExceptionsError.self) { try TrustExceptions(text: TrustExceptions.header + "\nleaf 00\n") }
    }

    @Test func anExpiredExceptionNoLongerApplies() throws {
        let exceptions = TrustExceptions([try Self.expiredException(expires: "2026-07-01T00:00:00Z")])
        var evaluation = SamplePKI.server(Self.expired)
        evaluation.exceptions = exceptions
        #expect(evaluation.evaluate().isTrusted)  // at 2026-06-01, before the expiry
        evaluation.validationTime = UnixTime(rfc3339: "2026-07-01T00:00:00Z")
        let report = try #require(evaluation.evaluate().report)
        #expect(report.primaryFailure.code == "expired")
        #expect(report.inapplicableExceptions.map(\.reason) == [.expired])
    }

    @Test func aHostBoundExceptionAppliesOnlyToThatHost() throws {
        let exceptions = TrustExceptions([try Self.expiredException(host: "server.customer1.example")])
        var evaluation = SamplePKI.server(Self.expired)
        evaluation.exceptions = exceptions
        #expect(evaluation.evaluate().isTrusted)
        // The certificate is also valid for 192.0.2.10, and fails only `expired` there: the exception
        // bound to server.customer1.example still does not apply.
        var other = SamplePKI.server(Self.expired, hostname: "192.0.2.10")
        other.exceptions = exceptions
        let report = try #require(other.evaluate().report)
        #expect(report.failures.map(\.code) == ["expired"])
        #expect(report.inapplicableExceptions.map(\.reason) == [.boundToOtherHost])
        // Nor to an evaluation for no host (a TLS client purpose).
        #expect(!exceptions.covers(leaf: Self.expired, failures: report.failures))
    }

    /// Reviewer finding (high): an exception saved for a TLS server applied to every purpose. An
    /// entry applies only to evaluations of the purpose it records (SecTrust's exceptions are per
    /// policy); an entry without one (version 1, or written before purposes) to TLS server only.
    @Test func anExceptionAppliesOnlyToThePurposeItWasRecordedFor() throws {
        let offered = try #require(SamplePKI.server(Self.expired).evaluate().report?.exceptions?.entries.first)
        let server = TrustException(certificate: Self.expired, failures: offered.failures, recorded: Self.recordedAt,
                                    purpose: .serverAuthentication(nil))
        #expect(server.purpose == "server")
        #expect(TrustExceptions.entryText(server).contains("\npurpose server\n"))
        // The purpose is covered by the integrity digest: changing it by hand rejects the entry.
        let text = TrustExceptions([server]).text
        let widened = try TrustExceptions(text: text.replacingOccurrences(of: "\npurpose server\n", with: "\npurpose code-signing\n"))
        #expect(widened.entries.isEmpty)
        #expect(widened.rejected.first?.reason.hasPrefix("integrity check failed") == true)
        let failures = try #require(SamplePKI.server(Self.expired).evaluate().report?.failures)
        let time = UnixTime(rfc3339: "2026-06-01T00:00:00Z")!
        let unrecorded = TrustException(certificate: Self.expired, failures: offered.failures, recorded: Self.recordedAt)
        #expect(unrecorded.purpose == nil)
        for entry in [server, unrecorded] {
            let exceptions = TrustExceptions([try TrustExceptions(text: TrustExceptions([entry]).text).entries[0]])
            #expect(exceptions.covers(leaf: Self.expired, failures: failures, purpose: .serverAuthentication(nil), at: time))
            for other: ValidationPurpose in [.codeSigning, .timeStamping, .any, .clientAuthentication(expectedNames: []),
                                             .emailProtection(mailbox: nil, use: .any)] {
                #expect(!exceptions.covers(leaf: Self.expired, failures: failures, purpose: other, at: time), "\(other)")
                #expect(exceptions.inapplicable(to: Self.expired, purpose: other, at: time).map(\.reason) == [.recordedForOtherPurpose])
            }
        }
        // Recorded for code signing: applies to code signing, not to a TLS server.
        let codeSigning = TrustException(certificate: Self.expired, failures: offered.failures, purpose: .codeSigning)
        #expect(TrustExceptions([codeSigning]).covers(leaf: Self.expired, failures: failures, purpose: .codeSigning, at: time))
        #expect(!TrustExceptions([codeSigning]).covers(leaf: Self.expired, failures: failures, purpose: .serverAuthentication(nil), at: time))
    }

    @Test func anotherCertificateOfTheSameNameIsReportedWithANote() throws {
        var evaluation = SamplePKI.server(SamplePKI.rsaServer, intermediates: [])  // issuerNotFound
        evaluation.exceptions = TrustExceptions([try Self.expiredException()])
        let report = try #require(evaluation.evaluate().report)
        #expect(report.primaryFailure.code == "issuerNotFound")
        let note = try #require(report.inapplicableExceptions.first)
        #expect(note.reason == .otherCertificateOfSameName(sameKey: false))
        #expect(note.exception.leaf == SHA256Digest(hashing: Self.expired.der))
    }

    @Test func version1IsReadAndMigratesToVersion2() throws {
        let leaf = SHA256Digest(hashing: Self.expired.der).hex
        let body = TrustExceptions.headerVersion1 + "\nleaf \(leaf)\nfailure expired \(leaf)\n"
        let version1 = body + "checksum \(SHA256Digest(hashing: Array(body.utf8)).hex)\n"
        #expect(TrustExceptions.version(of: version1) == 1)
        let read = try TrustExceptions(text: version1)
        var evaluation = SamplePKI.server(Self.expired)
        evaluation.exceptions = read
        #expect(evaluation.evaluate().isTrusted)
        let migrated = read.text
        #expect(TrustExceptions.version(of: migrated) == 2)
        #expect(try TrustExceptions(text: migrated) == read)
    }

    @Test func descriptiveValuesAreEscapedAndReadBack() throws {
        var entry = try Self.expiredException()
        entry.subject = "CN=a%b\nfake line"
        let text = TrustExceptions([entry]).text
        #expect(text.contains("subject CN=a%25b%0afake line\n"))
        #expect(try TrustExceptions(text: text).entries == [entry])
    }
}
