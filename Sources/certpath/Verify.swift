import CertPath
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `certpath verify LEAF... [options]`: builds and validates a certification path for each end entity.
enum VerifyCommand {
    static let spec = CommandSpec(
        name: "verify",
        synopsis: "LEAF [LEAF...] [--intermediates FILE|DIR]... [--anchors FILE|DIR]... [--system-anchors] "
            + "[--server HOST | --ip ADDR | --client | --purpose NAME|OID] [--expect-name NAME]... [--at TIME] [--pin-sha256 B64]... "
            + "[--exceptions FILE] [--save-exceptions FILE] [--crl FILE]... [--ocsp FILE]... [--stapled-ocsp FILE|none] [--max-depth N] [--json] [--explain] "
            + "[--policy OID]... [--require-explicit-policy] [--inhibit-policy-mapping] [--inhibit-any-policy] "
            + "[--revocation MODE] [--crl-conformance HOW] [--profile NAME] [--anchor-checks WHAT] [--algorithms NAME] [--strict-eku] "
            + "[--public-suffix-list FILE] [--fetch [--fetch-timeout SECONDS]] [--ct-log-list FILE [--ct-policy apple|chromium] [--require-ct]]",
        summary: """
            Decides whether the end-entity certificate in LEAF can be trusted: builds certification paths
            to the trust anchors through the given intermediates, validates them (RFC 5280 section 6.1),
            and applies the purpose (TLS server name, TLS client, S/MIME, code signing, time stamping, an
            extKeyUsage OID), the profile, pins and trust exceptions.
            LEAF may hold the whole chain as a server sends it (leaf first; the rest become intermediates);
            several LEAF files are verified one by one, each with its own result, under the same options.
            Certificates are read from PEM, DER and PKCS #7 (.p7b, .p7c; PEM or DER) files, told apart by
            content; --anchors and --intermediates also take a folder (OpenSSL's hashed /etc/ssl/certs).
            '-' (for LEAF or any FILE) reads standard input.
            Without --anchors and without --pin-sha256 the system anchors are used.
            """,
        options: [
            .value("intermediates", "FILE", repeatable: true,
                   "untrusted certificates that may complete a path (any order; FILE may be a folder: every file in it)"),
            .value("anchors", "FILE", repeatable: true,
                   "trust anchors (FILE may be a folder: every file in it, as OpenSSL's hashed /etc/ssl/certs); with --anchors only these are trusted"),
            .flag("system-anchors", "also trust the system anchors (SSL_CERT_FILE, SSL_CERT_DIR, distribution bundle)"),
            .value("server", "HOST", "TLS server: extKeyUsage serverAuth, subjectAltName must match HOST (DNS name or IP)"),
            .value("ip", "ADDR", "TLS server reached by IP address ADDR (matched against iPAddress SANs only)"),
            .flag("client", "TLS client: extKeyUsage clientAuth"),
            .value("expect-name", "NAME", repeatable: true,
                   "with --client or --purpose: a DNS name, IP address or e-mail the certificate must carry (smime: the mailbox)"),
            PurposeOption.spec,
            .value("at", "TIME", "validation time, RFC 3339 (2026-06-01T00:00:00Z) or a date (2026-06-01); default now"),
            .value("pin-sha256", "B64", repeatable: true,
                   "trust the certificate with this key (base64 SHA-256 of its SPKI) and require the key in the path"),
            .value("exceptions", "FILE", "apply the trust exceptions stored in FILE (certpath-trust-exceptions text)"),
            .value("save-exceptions", "FILE", "when untrusted only for recoverable reasons, save the exception to FILE"),
            .value("exception-host", "HOST", "with --save-exceptions: bind the exception to this TLS server name (it applies to no other)"),
            .value("exception-expires", "TIME", "with --save-exceptions: the exception stops applying at TIME (RFC 3339, a date, or N days: 30d)"),
            .value("crl", "FILE", repeatable: true, "certificate revocation lists (PEM or DER) to check the path against (RFC 5280 6.3)"),
            .value("ocsp", "FILE", repeatable: true,
                   "OCSP responses (DER or PEM \"OCSP RESPONSE\") for certificates of the path, as a server staples them (RFC 6960)"),
            .value("stapled-ocsp", "FILE",
                   "the OCSP response(s) the TLS server stapled, or 'none': as --ocsp, and what a server certificate whose TLS "
                   + "feature lists status_request (must-staple, RFC 7633) needs; without it must-staple is not checked"),
            .value("revocation", "MODE",
                   "what an undetermined revocation status does: issuer (default: fail only when CRLs were given for that issuer), "
                   + "require (fail: every certificate needs a usable CRL, as NIST PKITS expects), or accept; a revoked certificate always fails"),
            .value("max-depth", "N", "at most N intermediates between the leaf and its anchor, self-issued ones not counted (0-64)"),
            .flag("json", "print the result as JSON (schema \"certpath-verify\" version 1, see docs/CLI.md)"),
            .flag("explain", "also list every attempted path and each certificate's failures"),
            .value("policy", "OID", repeatable: true, "acceptable certificate policy (RFC 5280 user-initial-policy-set); default any"),
            .flag("require-explicit-policy", "the path must be valid for an acceptable policy (initial-explicit-policy)"),
            .flag("inhibit-policy-mapping", "policy mapping is not allowed (initial-policy-mapping-inhibit)"),
            .flag("inhibit-any-policy", "anyPolicy in certificates is not honoured (initial-any-policy-inhibit)"),
            .value("public-suffix-list", "FILE",
                   "refuse wildcards directly under a public suffix (*.co.uk) listed in FILE, the Public Suffix List "
                   + "format (Debian: /usr/share/publicsuffix/public_suffix_list.dat)"),
        ] + PolicyOptions.specs + FetchOptions.specs + CTOptions.specs,
        positionalName: "LEAF",
        positionalCount: 1...Int.max,
        epilogue: """
            exit status: 0 trusted; 1 untrusted; 2 bad usage, or an unreadable or malformed file
            (with several LEAF files: the worst of theirs).

            examples:
              certpath verify server-chain.pem --anchors root.pem --server server.customer1.example
              certpath verify server.pem --intermediates ca.pem --anchors root.pem --server www.example.com --explain
              certpath verify self-signed.pem --pin-sha256 <key pin from 'certpath show'> --server host.example
              certpath verify a.pem b.p7b --anchors /etc/ssl/certs --purpose smime --expect-name alice@example.com
            """)

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        // Checked before any work: a path that cannot be written is a usage error, nothing on stdout.
        let exceptionsFile = try arguments.value("save-exceptions").map { (path: String) throws(CLIError) in try OutputFile(path) }
        let recording = try ExceptionRecording(arguments)
        if arguments.positionals.count > 1 {
            return try runSeveral(arguments, exceptionsFile: exceptionsFile, recording: recording)
        }
        let evaluation = try makeEvaluation(arguments)
        let result = evaluation.evaluate()
        let explain = arguments.has("explain")
        if arguments.has("json") {
            Output.line(JSON.object(ResultView.json(result, evaluation, explain: explain) + CTView.json(result, evaluation)).pretty)
        } else {
            for line in ResultView.humanLines(result, evaluation, explain: explain, anchorFiles: arguments.all("anchors")) {
                Output.line(line)
            }
            for line in CTView.lines(result, evaluation) { Output.line(line) }
        }
        Output.flush()
        if let exceptionsFile { try saveExceptions(result, to: exceptionsFile, recording: recording, purpose: evaluation.policy.purpose) }
        return result.isTrusted ? ExitStatus.success : ExitStatus.untrusted
    }

    /// Several LEAF files: each is read and verified under the same options (the other inputs are
    /// read once), each gets its own result — in the human report after a `FILE:` heading, in JSON
    /// an array of result objects each with a `file` member — and the exit status is the worst. A
    /// LEAF that cannot be read is reported on standard error (in JSON, a `"status": "error"`
    /// object) and makes the status 2; the other files are still verified.
    static func runSeveral(_ arguments: ParsedArguments, exceptionsFile: OutputFile?,
                           recording: ExceptionRecording) throws(CLIError) -> Int32 {
        var chains: [(file: String, chain: Result<[Certificate], CLIError>)] = []
        for file in arguments.positionals {
            do throws(CLIError) { chains.append((file, .success(try leafChain(file)))) } catch { chains.append((file, .failure(error))) }
        }
        guard let first = chains.first(where: { if case .success = $0.chain { true } else { false } }),
              case .success(let firstChain) = first.chain else {
            if case .failure(let error) = chains[0].chain { throw error }
            return ExitStatus.usage
        }
        // The options' own inputs (intermediates, anchors, CRLs…) are read once, with the first readable leaf.
        let base = try makeEvaluation(arguments, chain: firstChain)
        let shared = Array(base.intermediates.dropFirst(firstChain.count - 1))
        let json = arguments.has("json"), explain = arguments.has("explain")
        var status = ExitStatus.success
        var objects: [JSON] = []
        for (index, (file, chain)) in chains.enumerated() {
            let certificates: [Certificate]
            switch chain {
            case .failure(let error):
                Output.error("certpath verify: \(error.message)")
                if json {
                    objects.append(.object([("file", .string(file)), ("status", .string("error")), ("trusted", .bool(false)),
                                            ("error", .string(error.message))]))
                }
                status = max(status, ExitStatus.usage)
                continue
            case .success(let read): certificates = read
            }
            var evaluation = base
            evaluation.leaf = certificates[0]
            evaluation.intermediates = Array(certificates.dropFirst()) + shared
            let result = evaluation.evaluate()
            if json {
                objects.append(.object([("file", .string(file))] + ResultView.json(result, evaluation, explain: explain)))
            } else {
                if index > 0 { Output.line("") }
                Output.line("\(Output.safe(Output.echo(file))):")
                for line in ResultView.humanLines(result, evaluation, explain: explain, anchorFiles: arguments.all("anchors")) {
                    Output.line("  " + line)
                }
            }
            if let exceptionsFile { try saveExceptions(result, to: exceptionsFile, recording: recording, purpose: evaluation.policy.purpose) }
            status = max(status, result.isTrusted ? ExitStatus.success : ExitStatus.untrusted)
        }
        if json { Output.line(JSON.array(objects).pretty) }
        Output.flush()
        return status
    }

    /// Writes the trust exception of an untrusted result to `path`, or explains on stderr why nothing was saved.
    ///
    /// The entry records the certificate's subject, issuer, names and key, the time now, and the
    /// purpose of the evaluation (the only purpose it will apply to) and the host and expiry of `recording`. A version 2 file keeps its comments and other entries (an
    /// entry for the same certificate, purpose and host is replaced); a version 1 file is migrated to version 2.
    static func saveExceptions(_ result: TrustResult, to file: OutputFile, recording: ExceptionRecording,
                               purpose: ValidationPurpose, command: String = "verify") throws(CLIError) {
        let path = file.path
        switch result {
        case .trusted(let trusted):
            let reason = trusted.isTrustedByException ? "the result is already trusted by a trust exception"
                : "the result is trusted, so there is nothing to except"
            Output.error("certpath \(command): nothing saved to \(Output.echo(path)): \(reason)")
        case .untrusted(let report):
            guard let offered = report.exceptions?.entries.first, let leaf = report.bestAttempt.certificates.first else {
                let fatal = report.failures.first { !$0.isRecoverable } ?? report.primaryFailure
                Output.error("certpath \(command): nothing saved to \(Output.echo(path)): \(fatal.code) is a fatal failure; "
                    + "trust exceptions can only accept recoverable failures (expiry, name mismatch, untrusted or missing issuer)")
                return
            }
            let entry = TrustException(certificate: leaf, failures: offered.failures, recorded: TrustEvaluation.now(),
                                       purpose: purpose, host: recording.host, expires: recording.expires)
            // An existing FILE is kept unless it reads as trust exceptions: one that cannot be read as
            // text (binary, a NUL byte, not UTF-8, over the size limit, unreadable) is not a trust
            // exceptions file either, and is never replaced (a reviewer lost a DER certificate, a
            // PKCS #12 store and a 272 MiB file that way). An empty file is a new one.
            var existing: String? = nil
            var status = stat()
            if FileName.status(path, &status) == 0 {
                do throws(CLIError) {
                    let text = try Input.text(path)
                    if !text.isEmpty { existing = text }
                } catch {
                    Output.error("certpath \(command): nothing saved to \(Output.echo(path)): it exists and cannot be read as a trust "
                        + "exceptions file (\(Self.reason(error, path: path))); remove it or choose another file")
                    return
                }
            }
            let saved: ExceptionsFile.Saved
            do throws(TrustExceptionsError) {
                saved = try ExceptionsFile.adding(entry, to: existing)
            } catch {
                Output.error("certpath \(command): nothing saved to \(Output.echo(path)): it exists and is not a trust exceptions file "
                    + "(\(error)); remove it or choose another file")
                return
            }
            try file.write(saved.text.utf8, what: "the trust exception", newFileMode: 0o600)
            let codes = Set(report.failures.map(\.code)).sorted().joined(separator: ", ")
            var notes: [String] = []
            if saved.kept > 0 { notes.append("kept the file's \(saved.kept) other \(saved.kept == 1 ? "entry" : "entries")") }
            if saved.replaced > 0 { notes.append("replaced \(saved.replaced) earlier \(saved.replaced == 1 ? "entry" : "entries") for this certificate, purpose and host") }
            if saved.migrated { notes.append("migrated the file from version 1 to version 2") }
            let bound = " for the purpose \(entry.purpose ?? "server")" + (entry.host.map { ", bound to \($0)" } ?? "") + (entry.expires.map { ", until \($0)" } ?? "")
            Output.error("certpath \(command): saved trust exception \(entry.id) for this leaf accepting \(codes)\(bound) to \(Output.echo(path))"
                + (notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"))
        }
    }

    /// `error`'s message without the `PATH: ` it starts with.
    private static func reason(_ error: CLIError, path: String) -> String {
        let prefix = Output.echo(path) + ": "
        return error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
    }

    /// The evaluation the command line describes.
    static func makeEvaluation(_ arguments: ParsedArguments) throws(CLIError) -> TrustEvaluation {
        try makeEvaluation(arguments, chain: try leafChain(arguments.positionals[0]))
    }

    /// The certificates of a LEAF file (leaf first), with a warning when they look out of order.
    static func leafChain(_ leafFile: String) throws(CLIError) -> [Certificate] {
        let chain = try Input.leafCertificates(leafFile).certificates
        // A chain file in the wrong order makes its first certificate, a CA, the leaf: the verdict
        // then names that CA's own failures; say what is likely wrong.
        if chain.count > 1, chain[0].isCertificateAuthority, chain.dropFirst().contains(where: { !$0.isCertificateAuthority }) {
            Output.error("certpath verify: warning: the first certificate of \(Output.echo(leafFile)) is a CA certificate and a later "
                         + "one is not: the end entity is taken to be the first (list it first, as a server sends its chain)")
        }
        return chain
    }

    /// The evaluation the command line describes for `chain` (leaf first, the rest intermediates):
    /// the chain of a file (`verify`) or the one a server presented (`connect`).
    static func makeEvaluation(_ arguments: ParsedArguments, chain: [Certificate]) throws(CLIError) -> TrustEvaluation {
        var intermediates = Array(chain.dropFirst())
        // An unreadable certificate among them is skipped with a warning (it can anchor or complete nothing).
        for file in arguments.all("intermediates") {
            intermediates += try Input.certificates(file, skippingUnreadable: "intermediates", command: "verify")
        }
        var anchors: [Certificate] = []
        for file in arguments.all("anchors") { anchors += try Input.certificates(file, skippingUnreadable: "anchors", command: "verify") }
        // One certificate given by several sources (a file, a hashed folder, a bundle repeating it) is one anchor.
        anchors = Input.distinct(anchors)

        var policy = ValidationPolicy()
        try PolicyOptions(arguments).apply(to: &policy)
        policy.purpose = try purpose(arguments)
        try applyPolicyInputs(arguments, to: &policy)
        if let depth = try arguments.wholeNumber("max-depth", in: 0...64, unit: "intermediates") { policy.maximumIntermediates = depth }

        // A key pin both makes the certificate carrying it trusted for this evaluation (as an anchor,
        // or as the end entity itself) and is required in the path.
        var pins: [Pin] = []
        for text in arguments.all("pin-sha256") {
            let base64 = text.hasPrefix("sha256//") ? String(text.dropFirst("sha256//".count)) : text
            guard let pin = Pin(publicKeySHA256Base64: base64) else {
                throw CLIError("--pin-sha256 '\(Output.echo(text))': expected the base64 SHA-256 of a SubjectPublicKeyInfo "
                    + "(44 characters ending in '=', as 'certpath show' prints under 'key pin')")
            }
            pins.append(pin)
            policy.requiredPins.insert(pin)
        }

        var exceptions: TrustExceptions? = nil
        if let file = arguments.value("exceptions") {
            // Decoded strictly: replacing invalid bytes would change what the checksum covers.
            let text = try Input.text(file)
            do throws(TrustExceptionsError) {
                exceptions = try TrustExceptions(text: text)
            } catch {
                throw CLIError("\(Output.echo(file)): \(error)")
            }
            // An entry edited after it was recorded is not applied, and said so (never silently).
            for rejected in exceptions?.rejected ?? [] {
                Output.error("certpath: warning: \(Output.echo(file)): trust exception at \(Output.safe(rejected.description)) "
                    + "(see 'certpath exceptions list \(Output.echo(file))')")
            }
        }

        var crls: [CertificateRevocationList] = []
        for file in arguments.all("crl") {
            let bytes = try Input.read(file)
            let read: [CertificateRevocationList]
            do throws(PEM.CRLFileError) {
                read = try PEM.readCRLs(bytes).crls
            } catch {
                throw CLIError("\(Output.echo(file)): \(error)")
            }
            guard !read.isEmpty else { throw CLIError("\(Output.echo(file)): no CRL found (expected DER or PEM \"X509 CRL\" blocks)") }
            crls += read
        }
        var ocspResponses: [OCSPResponse] = []
        for file in arguments.all("ocsp") { ocspResponses += try Input.ocspResponses(file) }
        let evidence = RevocationEvidence(crls: CRLStore(crls), ocspResponses: ocspResponses)
        let stapled: [OCSPResponse]? = try arguments.value("stapled-ocsp").map { (file: String) throws(CLIError) in
            file == "none" ? [] : try Input.ocspResponses(file)
        }
        var checksServer = false
        if case .serverAuthentication = policy.purpose { checksServer = true }
        if stapled != nil && !checksServer {
            // RFC 7633 asks a TLS client for the staple: without a server purpose nothing is checked.
            Output.error("certpath verify: warning: --stapled-ocsp: must-staple (RFC 7633) is checked only for a TLS server "
                + "(--server or --ip); the responses are used as revocation evidence only")
        }
        if let name = arguments.value("revocation") {
            guard let mode = UndeterminedRevocationStatus(rawValue: name == "require" ? "reject" : name), name != "reject" else {
                throw CLIError("--revocation '\(Output.echo(name))': expected issuer, require or accept")
            }
            policy.undeterminedRevocationStatus = mode
        }

        if let file = arguments.value("public-suffix-list") {
            // The list is about 300 KB; 16 MiB leaves room for any private list and bounds the work.
            let text: String
            do throws(CLIError) {
                text = try Input.text(file, limit: 16 << 20)
            } catch {
                throw CLIError("--public-suffix-list \(error.message)", status: error.status)  // which option the file was for
            }
            let list = PublicSuffixList(text: text)
            guard list.ruleCount > 0 else {
                throw CLIError("--public-suffix-list \(Output.echo(file)): no public suffix rules found (expected the text of public_suffix_list.dat)")
            }
            // Any text has words that read as one-label rules; a list has few lines that are not rules.
            guard list.skippedLineCount <= list.ruleCount else {
                throw CLIError("--public-suffix-list \(Output.echo(file)): \(list.skippedLineCount) lines are not public suffix rules and only "
                    + "\(list.ruleCount) are: this is not a public suffix list (expected the text of public_suffix_list.dat)")
            }
            policy.publicSuffixList = list
        }

        let time: UnixTime
        if let text = arguments.value("at") { time = try Input.time(text, option: "--at") } else { time = TrustEvaluation.now() }

        let useSystemAnchors = arguments.has("system-anchors") || (anchors.isEmpty && pins.isEmpty)
        if useSystemAnchors, let warning = systemAnchorsWarning() { Output.error("certpath verify: " + warning) }
        var evaluation = TrustEvaluation(leaf: chain[0], intermediates: intermediates, trustStore: TrustStore(anchors: anchors),
                                         anchorsOnly: !useSystemAnchors, pins: pins, exceptions: exceptions, policy: policy,
                                         revocationEvidence: evidence, validationTime: time, collectAllAttempts: arguments.has("explain"))
        evaluation.stapledOCSPResponses = stapled
        try FetchOptions.apply(arguments, to: &evaluation)
        try CTOptions.apply(arguments, to: &evaluation)
        return evaluation
    }

    /// The warning when the system anchors are wanted and none were found, saying what was tried.
    static func systemAnchorsWarning() -> String? {
        let system = SystemTrustStore.shared
        // SSL_CERT_FILE naming nothing readable, while SSL_CERT_DIR supplies anchors: say so (the
        // caller meant that file; what is trusted comes from the directory alone).
        if !system.store.entries.isEmpty, let file = getenv("SSL_CERT_FILE").map({ String(cString: $0) }), !file.isEmpty,
           !system.sources.contains(file) {
            return "warning: SSL_CERT_FILE \(Output.safe(Output.echo(file))) is missing, not a regular file, unreadable, over 64 MiB "
                + "or without certificates; the system anchors come from SSL_CERT_DIR alone"
        }
        guard system.store.entries.isEmpty else { return nil }
        let tried: String
        if let first = system.tried.first, system.tried.count == 1 {
            tried = "tried \(Output.safe(Output.echo(first))): missing, not a regular file, unreadable, over 64 MiB or without certificates"
        } else if let first = system.tried.first {
            tried = "tried \(system.tried.count) files, the first \(Output.safe(Output.echo(first))): "
                + "\(system.skipped) missing, not regular files, unreadable, over 64 MiB or not certificates"
        } else {
            tried = "SSL_CERT_FILE and SSL_CERT_DIR name nothing usable and no distribution bundle was found"
        }
        return "warning: no system anchors found (\(tried)); set SSL_CERT_FILE or SSL_CERT_DIR, or use --anchors"
    }

    /// The purpose from `--server`, `--ip`, `--client [--expect-name]...` or `--purpose NAME|OID
    /// [--expect-name]...`; `.any` when none is given.
    static func purpose(_ arguments: ParsedArguments) throws(CLIError) -> ValidationPurpose {
        let given = arguments.order.filter { ["server", "ip", "client", "purpose"].contains($0) }
        if given.count > 1 { throw CLIError("--\(given[0]) and --\(given[1]) cannot be used together: choose one purpose") }
        if arguments.has("expect-name") && !arguments.has("client") && !arguments.has("purpose") {
            throw CLIError("--expect-name needs --client or --purpose")
        }
        if let text = arguments.value("purpose") {
            return try PurposeOption.purpose(text, names: arguments.all("expect-name"), source: "--purpose", nameSource: "--expect-name")
        }
        if let host = arguments.value("server") {
            do throws(ReferenceIdentifierError) {
                return .serverAuthentication(try ReferenceIdentifier(host))
            } catch {
                throw CLIError("--server '\(Output.echo(host))': not a valid host name or IP address: \(error)")
            }
        }
        if let text = arguments.value("ip") {
            guard let address = IPAddress(text) else {
                throw CLIError("--ip '\(Output.echo(text))': not an IPv4 address (192.0.2.1) or IPv6 address (2001:db8::1)")
            }
            return .serverAuthentication(.ipAddress(address))
        }
        if arguments.has("client") {
            var names: [ExpectedName] = []
            for text in arguments.all("expect-name") { names.append(try expectedName(text)) }
            return .clientAuthentication(expectedNames: names)
        }
        return .any
    }

    /// A client's expected name by its shape: an e-mail address when it has `@`, an IP address when it
    /// parses as one, a DNS name otherwise.
    static func expectedName(_ text: String, option: String = "--expect-name") throws(CLIError) -> ExpectedName {
        if text.contains("@") {
            do throws(ReferenceIdentifierError) { return .email(try RFC822Name(text)) } catch {
                throw CLIError("\(option) '\(Output.echo(text))': not a valid e-mail address: \(error)")
            }
        }
        if let address = IPAddress(text) { return .ipAddress(address) }
        do throws(ReferenceIdentifierError) { return .dnsName(try DNSName(text)) } catch {
            throw CLIError("\(option) '\(Output.echo(text))': not a valid DNS name, IP address or e-mail address: \(error)")
        }
    }

    /// `--policy`, `--require-explicit-policy`, `--inhibit-policy-mapping`, `--inhibit-any-policy`:
    /// the RFC 5280 6.1.1 (c), (e), (f), (g) inputs.
    static func applyPolicyInputs(_ arguments: ParsedArguments, to policy: inout ValidationPolicy) throws(CLIError) {
        var inputs = PolicyValidationInputs()
        let oids = arguments.all("policy")
        if !oids.isEmpty {
            var set = Set<OID>()
            for text in oids {
                guard let oid = OID(dotted: text) else {
                    throw CLIError("--policy '\(Output.echo(text))': not a dotted object identifier such as 2.23.140.1.2.1")
                }
                set.insert(oid)
            }
            inputs.userInitialPolicySet = set
        }
        inputs.initialExplicitPolicy = arguments.has("require-explicit-policy")
        inputs.initialPolicyMappingInhibit = arguments.has("inhibit-policy-mapping")
        inputs.initialAnyPolicyInhibit = arguments.has("inhibit-any-policy")
        policy.policyInputs = inputs
    }
}
