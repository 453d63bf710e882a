import CertPath

/// `certpath show FILE... [--json]`: every certificate of every file, readably.
enum ShowCommand {
    static let spec = CommandSpec(
        name: "show",
        synopsis: "FILE... [--json] [--ct-log-list FILE [--intermediates FILE]... [--anchors FILE]...]",
        summary: """
            Prints every certificate of each FILE (PEM with any number of CERTIFICATE blocks, or one DER
            certificate): subject, issuer, serial, version, validity, public key and its pin, signature
            algorithm, SHA-256 fingerprint and every extension decoded. OCSP responses (one DER response,
            or PEM OCSP RESPONSE blocks) are printed too: status, responder, producedAt, each certificate
            status, extensions and included certificates. Text and other blocks are reported as skipped.
            """,
        options: [.flag("json", "print one JSON document (schema \"certpath-show\" version 1, see docs/CLI.md)"),
                  .value("ct-log-list", "FILE", "name each embedded SCT's log and verify it (RFC 6962) against this CT log list (v3 JSON)"),
                  .value("intermediates", "FILE", repeatable: true, "with --ct-log-list: issuers of the files' certificates, for their SCTs"),
                  .value("anchors", "FILE", repeatable: true, "with --ct-log-list: as --intermediates")],
        positionalName: "FILE",
        positionalCount: 1...Int.max,
        epilogue: """
            exit status: 0 every file read; 2 bad usage, or a file unreadable, malformed (the message names
            the file, the certificate, the byte offset and the DER rule broken) or without certificates.
            The other files are still shown.
            """)

    static func run(_ arguments: ParsedArguments) -> Int32 {
        let json = arguments.has("json")
        var status = ExitStatus.success
        var documents: [JSON] = []
        let ct: CTView.ShowContext?
        do throws(CLIError) { ct = try CTView.ShowContext(arguments) } catch {
            Output.error("certpath show: \(Output.safe(error.message))")
            return ExitStatus.usage
        }
        for (fileIndex, path) in arguments.positionals.enumerated() {
            let file: Input.ShownFile
            do throws(CLIError) {
                file = try Input.shownFile(path)
            } catch {
                Output.error("certpath show: \(Output.safe(error.message))")
                status = ExitStatus.usage
                documents.append(.object([("file", .string(path)), ("error", .string(error.message))]))
                continue
            }
            if json {
                documents.append(.object([
                    ("file", .string(path)),
                    ("certificates", .array(file.certificates.map(CertificateView.fullJSON))),
                    ("ocspResponses", .array(file.ocspResponses.map(OCSPView.fullJSON))),
                    ("skipped", .strings(file.skipped.map(\.description))),
                ] + (ct.map { ct in [("certificateTransparency", JSON.array(file.certificates.map { ct.json($0, in: file.certificates) }))] } ?? [])))
                continue
            }
            if fileIndex > 0 { Output.line("") }
            for (index, certificate) in file.certificates.enumerated() {
                if index > 0 { Output.line("") }
                Output.line("\(Output.safe(Output.echo(path))): certificate \(index + 1) of \(file.certificates.count)")
                for line in CertificateView.fullLines(certificate) { Output.line(Output.clipped("  " + line)) }
                for line in ct?.lines(certificate, in: file.certificates) ?? [] { Output.line(Output.clipped("  " + line)) }
            }
            for (index, response) in file.ocspResponses.enumerated() {
                if index > 0 || !file.certificates.isEmpty { Output.line("") }
                Output.line("\(Output.safe(Output.echo(path))): OCSP response \(index + 1) of \(file.ocspResponses.count)")
                for line in OCSPView.fullLines(response) { Output.line(Output.clipped("  " + line)) }
            }
            for skipped in file.skipped { Output.line("\(Output.safe(Output.echo(path))): skipped \(Output.safe(skipped.description))") }
        }
        if json {
            Output.line(JSON.object([("format", .string("certpath-show")), ("version", .int(1)), ("files", .array(documents))]).pretty)
        }
        return status
    }
}
