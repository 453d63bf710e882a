import CertPath

/// `certpath exceptions list|remove|prune FILE`: trust exceptions people can manage (issue 33).
///
/// The file is the text form of ``TrustExceptions`` (version 2 written, version 1 read and migrated
/// on the first change). Removing and pruning delete an entry's lines only, so comments and the
/// other entries are kept byte for byte, and their integrity digests stay valid.
enum ExceptionsCommand {
    static let spec = CommandSpec(
        name: "exceptions",
        synopsis: "list FILE [--json] | remove FILE ID... | prune FILE",
        summary: """
            Manages a trust-exceptions file (written by verify/connect --save-exceptions).
            list: every entry with its ID, the certificate's subject, issuer, names and SHA-256, the failures
            it accepts, when it was recorded, the host it is bound to and its expiry; then every entry that
            was rejected because it was edited after it was recorded (its integrity digest no longer
            matches) or is malformed: rejected entries are never applied.
            remove: deletes the entries with these IDs (rejected ones too), keeping comments and other entries.
            prune: deletes the entries whose expiry has passed (now). Nothing else is pruned: whether an
            entry's failure still occurs cannot be known offline.
            A version 1 file is listed as it is and rewritten as version 2 by remove or prune.
            """,
        options: [
            .flag("json", "list: print JSON (schema \"certpath-exceptions\" version 1, see docs/CLI.md)"),
        ],
        positionalName: "ACTION FILE [ID...]",
        positionalCount: 2...1000,
        epilogue: """
            exit status: 0 done (list: no entry rejected); 1 list: some entry rejected; 2 bad usage, an unreadable
            file or one that is not a trust-exceptions file, an unknown ID.

            examples:
              certpath exceptions list exceptions.txt
              certpath exceptions remove exceptions.txt 3f9a1c2b7d4e
              certpath exceptions prune exceptions.txt
            """)

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let action = arguments.positionals[0], path = arguments.positionals[1]
        let ids = Array(arguments.positionals.dropFirst(2))
        switch action {
        case "list":
            guard ids.isEmpty else { throw CLIError("list takes one FILE (unexpected '\(Output.echo(ids[0]))')") }
            return try list(path, json: arguments.has("json"))
        case "remove":
            guard !ids.isEmpty else { throw CLIError("remove needs the IDs of the entries to remove ('certpath exceptions list FILE' shows them)") }
            if arguments.has("json") { throw CLIError("--json goes with list") }
            return try remove(path, ids: ids)
        case "prune":
            guard ids.isEmpty else { throw CLIError("prune takes one FILE (unexpected '\(Output.echo(ids[0]))')") }
            if arguments.has("json") { throw CLIError("--json goes with list") }
            return try prune(path, now: TrustEvaluation.now())
        default:
            throw CLIError("unknown action '\(Output.echo(action))' (actions: list, remove, prune)")
        }
    }

    /// The file's text and what it holds.
    static func read(_ path: String) throws(CLIError) -> (text: String, exceptions: TrustExceptions) {
        let text = try Input.text(path)
        do throws(TrustExceptionsError) {
            return (text, try TrustExceptions(text: text))
        } catch {
            throw CLIError("\(Output.echo(path)): \(error)")
        }
    }

    static func list(_ path: String, json: Bool) throws(CLIError) -> Int32 {
        let (text, exceptions) = try read(path)
        let now = TrustEvaluation.now()
        let version = TrustExceptions.version(of: text) ?? 0
        if json {
            let entries: [JSON] = exceptions.entries.map { entry in
                .object([
                    ("id", .string(entry.id)),
                    ("subject", .optional(entry.subject)),
                    ("issuer", .optional(entry.issuer)),
                    ("names", .strings(entry.names)),
                    ("leafSHA256", .string(entry.leaf.hex)),
                    ("keySHA256", .optional(entry.key?.hex)),
                    ("failures", .array(sorted(entry.failures).map { failure in
                        .object([("code", .string(failure.code)), ("certificateSHA256", .string(failure.certificate.hex)),
                                 ("detail", .optional(failure.detail))])
                    })),
                    ("recorded", .optional(entry.recorded?.description)),
                    ("purpose", .optional(entry.purpose)),
                    ("host", .optional(entry.host?.description)),
                    ("expires", .optional(entry.expires?.description)),
                    ("expired", .bool(entry.expires.map { !(now < $0) } ?? false)),
                ])
            }
            let rejected: [JSON] = exceptions.rejected.map {
                .object([("line", .int($0.line)), ("id", .optional($0.id)), ("reason", .string($0.reason))])
            }
            Output.line(JSON.object([
                ("schema", .string("certpath-exceptions")), ("version", .int(1)), ("file", .string(path)),
                ("formatVersion", .int(version)), ("entries", .array(entries)), ("rejected", .array(rejected)),
            ]).pretty)
        } else {
            let count = exceptions.entries.count
            Output.line("\(Output.safe(Output.echo(path))): trust exceptions, version \(version): \(count) \(count == 1 ? "entry" : "entries")"
                + (exceptions.rejected.isEmpty ? "" : ", \(exceptions.rejected.count) rejected"))
            for entry in exceptions.entries {
                Output.line("")
                Output.line("\(entry.id)  \(Output.safe(entry.subject ?? "(subject not recorded: version 1)"))")
                if let issuer = entry.issuer { Output.line("  issuer:   \(Output.safe(issuer))") }
                if !entry.names.isEmpty { Output.line("  names:    \(Output.safe(entry.names.joined(separator: ", ")))") }
                Output.line("  sha256:   \(entry.leaf.hex)")
                if let key = entry.key { Output.line("  key:      sha256 \(key.hex)") }
                for failure in sorted(entry.failures) {
                    let whose = failure.certificate == entry.leaf ? "this certificate" : "certificate sha256 \(failure.certificate.hex.prefix(16))…"
                    Output.line("  accepts:  \(failure.code)\(failure.detail.map { " for \(Output.safe($0))" } ?? "") (\(whose))")
                }
                Output.line("  recorded: \(entry.recorded?.description ?? "unknown (version 1)")")
                Output.line("  purpose:  \(entry.purpose ?? "server (none recorded: TLS server only)")")
                Output.line("  host:     \(entry.host?.description ?? "any")")
                let expired = entry.expires.map { !(now < $0) } ?? false
                Output.line("  expires:  \(entry.expires.map { $0.description + (expired ? " (expired: 'certpath exceptions prune' removes it)" : "") } ?? "never")")
            }
            for rejected in exceptions.rejected {
                Output.line("")
                Output.line("REJECTED at \(Output.safe(rejected.description))")
            }
        }
        return exceptions.rejected.isEmpty ? ExitStatus.success : ExitStatus.untrusted
    }

    static func remove(_ path: String, ids: [String]) throws(CLIError) -> Int32 {
        let (text, exceptions) = try read(path)
        let file = try OutputFile(path)
        let known = Set(exceptions.entries.map(\.id) + exceptions.rejected.compactMap(\.id))
        for id in ids where !known.contains(id) {
            throw CLIError("\(Output.echo(path)): no entry with ID '\(Output.echo(id))' (see 'certpath exceptions list \(Output.echo(path))')")
        }
        let updated = ExceptionsFile.removing(ids: Set(ids), from: text, exceptions: exceptions)
        try file.write(updated.utf8, what: "the trust exceptions", newFileMode: 0o600)
        for id in ids { Output.line("removed \(id)") }
        if TrustExceptions.version(of: text) == 1 { Output.line("migrated \(Output.safe(Output.echo(path))) from version 1 to version 2") }
        return ExitStatus.success
    }

    static func prune(_ path: String, now: UnixTime) throws(CLIError) -> Int32 {
        let (text, exceptions) = try read(path)
        let file = try OutputFile(path)
        let expired = exceptions.entries.filter { $0.expires.map { !(now < $0) } ?? false }
        guard !expired.isEmpty else {
            Output.line("nothing to prune: no entry has expired")
            return ExitStatus.success
        }
        let updated = ExceptionsFile.removing(ids: Set(expired.map(\.id)), from: text, exceptions: exceptions)
        try file.write(updated.utf8, what: "the trust exceptions", newFileMode: 0o600)
        for entry in expired { Output.line("removed \(entry.id) (expired at \(entry.expires?.description ?? "?"))") }
        return ExitStatus.success
    }

    static func sorted(_ failures: Set<ExceptedFailure>) -> [ExceptedFailure] {
        failures.sorted { ($0.code, $0.certificate.hex, $0.detail ?? "") < ($1.code, $1.certificate.hex, $1.detail ?? "") }
    }
}

/// How `--save-exceptions` records an entry: `--exception-host`, `--exception-expires`.
struct ExceptionRecording {
    var host: ReferenceIdentifier?
    var expires: UnixTime?

    /// Reads the options; checked before any work.
    ///
    /// - Throws: ``CLIError`` (status 2) for a bad host or time, an expiry not in the future, or
    ///   either option without `--save-exceptions`.
    init(_ arguments: ParsedArguments) throws(CLIError) {
        for name in ["exception-host", "exception-expires"] where arguments.has(name) && !arguments.has("save-exceptions") {
            throw CLIError("--\(name) goes with --save-exceptions")
        }
        if let text = arguments.value("exception-host") {
            do throws(ReferenceIdentifierError) { host = try ReferenceIdentifier(text) } catch {
                throw CLIError("--exception-host '\(Output.echo(text))': not a valid host name or IP address: \(error)")
            }
        }
        if let text = arguments.value("exception-expires") {
            if text.hasSuffix("d"), let days = Int64(text.dropLast()), days > 0, days <= 36_500 {
                expires = UnixTime(secondsSinceEpoch: TrustEvaluation.now().secondsSinceEpoch + days * 86_400)
            } else if let time = UnixTime(rfc3339: text) {
                expires = time
            } else {
                throw CLIError("--exception-expires '\(Output.echo(text))': expected an RFC 3339 time (2027-01-01T00:00:00Z), a date (2027-01-01) "
                    + "or a number of days (30d)")
            }
            // An exception that has already expired would be saved and never apply: refused.
            let now = TrustEvaluation.now()
            if let expires, !(now < expires) {
                throw CLIError("--exception-expires '\(Output.echo(text))': \(expires) is not in the future (now is \(now)); "
                    + "the exception would never apply")
            }
        }
    }
}

/// Edits of a trust-exceptions file that keep what they do not touch.
enum ExceptionsFile {
    /// The text after adding an entry, and what happened to the earlier entries.
    struct Saved {
        var text: String
        var kept = 0
        var replaced = 0
        var migrated = false
    }

    /// `existing` (or a new file) with `entry` added; an entry for the same certificate, purpose and host is
    /// replaced. A version 2 file keeps its comments, rejected entries and other entries as they
    /// are; a version 1 file is rewritten as version 2.
    ///
    /// - Throws: ``TrustExceptionsError`` when `existing` is not a trust-exceptions text.
    static func adding(_ entry: TrustException, to existing: String?) throws(TrustExceptionsError) -> Saved {
        guard let existing else { return Saved(text: TrustExceptions([entry]).text) }
        let earlier = try TrustExceptions(text: existing)
        let replaced = earlier.entries.filter { $0.leaf == entry.leaf && $0.purpose == entry.purpose && $0.host == entry.host }
        let kept = earlier.entries.count - replaced.count
        var text = removing(ids: Set(replaced.map(\.id)), from: existing, exceptions: earlier)
        let migrated = TrustExceptions.version(of: existing) == 1
        if !text.hasSuffix("\n\n") { text += "\n" }
        text += TrustExceptions.entryText(entry)
        return Saved(text: text, kept: kept, replaced: replaced.count, migrated: migrated)
    }

    /// `text` without the entries whose ID is in `ids` (with one blank line after each, if any). A
    /// version 1 text is rewritten as version 2 without them.
    static func removing(ids: Set<String>, from text: String, exceptions: TrustExceptions) -> String {
        if TrustExceptions.version(of: text) == 1 {
            return TrustExceptions(exceptions.entries.filter { !ids.contains($0.id) }).text
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let spans = TrustExceptions.entrySpans(in: text).filter { $0.id.map(ids.contains) ?? false }
        for span in spans.reversed() {
            var upper = span.lines.upperBound - 1  // 0-based
            if upper + 1 < lines.count - 1, lines[upper + 1].isEmpty { upper += 1 }
            lines.removeSubrange((span.lines.lowerBound - 1)...upper)
        }
        return lines.joined(separator: "\n")
    }
}
