import CertPath
import CertPathJSON
import CertPathTLS

/// `--ct-log-list FILE [--ct-policy apple|chromium] [--require-ct]` (verify, connect): the
/// Certificate Transparency log list SCTs are checked against, and whether CT is required.
struct CTOptions {
    /// The option specs, for verify's list (connect shares it).
    static let specs: [OptionSpec] = [
        .value("ct-log-list", "FILE",
               "Certificate Transparency log list (the v3 JSON Apple and Google publish): SCTs are verified against its logs "
               + "(RFC 6962); CT is then required for a path ending at a system anchor (Apple's policy), as SecTrust does"),
        .value("ct-policy", "NAME", "with --ct-log-list: the CT policy, apple (default) or chromium"),
        .flag("require-ct", "with --ct-log-list: require Certificate Transparency for every path, your own anchors' too"),
    ]

    /// Reads the options into `evaluation`: its log list and ``ValidationPolicy/certificateTransparency``.
    /// Nothing changes when none is given.
    static func apply(_ arguments: ParsedArguments, to evaluation: inout TrustEvaluation) throws(CLIError) {
        var policy = CTPolicy.apple
        if let name = arguments.value("ct-policy") {
            guard let chosen = CTPolicy(rawValue: name) else { throw CLIError("--ct-policy '\(Output.echo(name))': expected apple or chromium") }
            policy = chosen
        }
        guard let file = arguments.value("ct-log-list") else {
            if arguments.has("require-ct") || arguments.has("ct-policy") {
                throw CLIError("--require-ct and --ct-policy need --ct-log-list FILE: SCTs are checked against the logs it names")
            }
            return
        }
        evaluation.certificateTransparencyLogs = try logList(file)
        evaluation.policy.certificateTransparency = arguments.has("require-ct") ? .required(policy) : .requiredForPublicAnchors(policy)
    }

    /// The log list in `file` (v3 JSON).
    static func logList(_ file: String) throws(CLIError) -> CTLogList {
        let bytes: [UInt8]
        do throws(CLIError) {
            bytes = try Input.read(file)
        } catch {
            throw CLIError("--ct-log-list \(error.message)", status: error.status)  // which option the file was for
        }
        do throws(CTLogListError) {
            return try CTLogList(jsonBytes: bytes)
        } catch {
            throw CLIError("--ct-log-list \(Output.echo(file)): \(error)")
        }
    }
}

/// How the CLI shows Certificate Transparency: the report of an evaluation, the SCTs of a
/// handshake, and each embedded SCT of a certificate (`show`).
enum CTView {
    /// The CT report of `result`: the trusted path's, or the one a CT failure of the best path carries.
    static func report(of result: TrustResult) -> CertificateTransparencyReport? {
        switch result {
        case .trusted(let trusted): return trusted.certificateTransparency
        case .untrusted(let report):
            for failure in report.failures {
                if case .certificateTransparencyNotCompliant(_, let ct) = failure { return ct }
            }
            return nil
        }
    }

    /// Whether the command line asked about CT (a log list given, or CT required): only then is it shown.
    static func isAsked(_ evaluation: TrustEvaluation) -> Bool {
        evaluation.certificateTransparencyLogs != nil || evaluation.policy.certificateTransparency != .automatic
    }

    /// The stable name of an unmet rule (JSON `unmetRules[].rule`).
    static func code(_ rule: CTRule) -> String {
        switch rule {
        case .noLogList: return "noLogList"
        case .tooFewSCTs: return "tooFewSCTs"
        case .noSCTFromCurrentLog: return "noSCTFromCurrentLog"
        case .tooFewOperators: return "tooFewOperators"
        case .tooFewDeliveredSCTs: return "tooFewDeliveredSCTs"
        case .lifetimeBeyondPolicy: return "lifetimeBeyondPolicy"
        }
    }

    /// `verify` / `connect` text: the policy, the verdict, every SCT and every unmet rule.
    static func lines(_ result: TrustResult, _ evaluation: TrustEvaluation) -> [String] {
        guard isAsked(evaluation) else { return [] }
        guard let report = report(of: result) else {
            let why = result.isTrusted ? "CT is required only for a path to a system anchor (--require-ct requires it for yours)"
                : "the path failed before CT was examined"
            return ["certificate transparency: not examined: \(why)"]
        }
        let verdict = report.isCompliant ? "compliant" : "not compliant"
        var lines = ["certificate transparency: \(report.policy) policy, lifetime \(report.lifetimeDays) days: \(verdict) "
            + "(\(report.timestamps.count) SCTs found, \(report.timestamps.filter { $0.status == .verified }.count) verified, "
            + "\(report.counted.count) counted)"]
        for check in report.timestamps { lines.append("  " + Output.safe(check.description)) }
        for problem in report.listProblems { lines.append("  \(problem.source.rawValue) SCT list unreadable: \(problem.error)") }
        if report.ignoredUnknownVersions > 0 { lines.append("  \(report.ignoredUnknownVersions) SCTs of an unknown version ignored (RFC 6962 3.3)") }
        for rule in report.unmetRules { lines.append("  unmet: \(Output.safe(rule.description))") }
        return lines
    }

    /// `verify` / `connect` JSON member `certificateTransparency`, when CT was asked about (null: not examined).
    static func json(_ result: TrustResult, _ evaluation: TrustEvaluation) -> [(String, JSON)] {
        guard isAsked(evaluation) else { return [] }
        guard let report = report(of: result) else { return [("certificateTransparency", .null)] }
        return [("certificateTransparency", .object([
            ("policy", .string(report.policy.rawValue)),
            ("lifetimeDays", .int(report.lifetimeDays)),
            ("compliant", .bool(report.isCompliant)),
            ("scts", .array(report.timestamps.map(sctJSON))),
            ("counted", .int(report.counted.count)),
            ("unreadableLists", .array(report.listProblems.map {
                .object([("source", .string($0.source.rawValue)), ("error", .string($0.error.description))])
            })),
            ("ignoredUnknownVersions", .int(report.ignoredUnknownVersions)),
            ("unmetRules", .array(report.unmetRules.map { .object([("rule", .string(code($0))), ("description", .string($0.description))]) })),
        ]))]
    }

    static func sctJSON(_ check: SCTCheck) -> JSON {
        .object([
            ("source", .string(check.source.rawValue)),
            ("logID", .string(Base64.encode(check.sct.logID))),
            ("log", .optional(check.log?.description)),
            ("operator", .optional(check.operatorName)),
            ("timestamp", .string(time(check.sct).description)),
            ("status", .string(check.status.code)),
            ("statusText", .string(check.status.description)),
            ("verified", .bool(check.status == .verified)),
            ("counted", .bool(check.counted)),
            ("exclusion", .optional(check.exclusion?.description)),
        ])
    }

    static func time(_ sct: SignedCertificateTimestamp) -> UnixTime {
        UnixTime(secondsSinceEpoch: Int64(clamping: sct.timestamp / 1000))
    }

    /// The log of `sct` by name, else by its base64 log ID.
    static func logName(_ sct: SignedCertificateTimestamp, in logs: CTLogList?) -> String {
        if let id = SHA256Digest(bytes: sct.logID), let (log, op) = logs?.log(id: id) { return "\(log.description) (\(op.name))" }
        return "log \(Base64.encode(sct.logID)) (not in --ct-log-list)"
    }

    // MARK: connect

    /// `connect` text: the SCTs the server sent in the TLS extension (RFC 6962 3.3.1).
    static func handshakeLines(_ presented: TLSPresentedChain, logs: CTLogList?) -> [String] {
        guard let bytes = presented.signedCertificateTimestampList else { return ["signed certificate timestamps (TLS extension): none"] }
        do throws(SCTListError) {
            let list = try SignedCertificateTimestampList(tlsEncoded: bytes)
            var lines = ["signed certificate timestamps (TLS extension): \(list.timestamps.count)"]
            for sct in list.timestamps { lines.append("  \(Output.safe(logName(sct, in: logs))), \(time(sct))") }
            return lines
        } catch {
            return ["signed certificate timestamps (TLS extension): \(bytes.count) bytes, unreadable: \(error)"]
        }
    }

    /// `connect` JSON member `handshakeSCTs`: the TLS extension's SCTs (null: none sent).
    static func handshakeJSON(_ presented: TLSPresentedChain, logs: CTLogList?) -> (String, JSON) {
        guard let bytes = presented.signedCertificateTimestampList else { return ("handshakeSCTs", .null) }
        do throws(SCTListError) {
            let list = try SignedCertificateTimestampList(tlsEncoded: bytes)
            return ("handshakeSCTs", .array(list.timestamps.map { sct in
                let found = SHA256Digest(bytes: sct.logID).flatMap { logs?.log(id: $0) }
                return .object([("logID", .string(Base64.encode(sct.logID))), ("log", .optional(found?.log.description)),
                                ("operator", .optional(found?.operator.name)), ("timestamp", .string(time(sct).description))])
            }))
        } catch {
            return ("handshakeSCTs", .object([("error", .string(error.description))]))
        }
    }

    // MARK: show

    /// What `show --ct-log-list` checks embedded SCTs with: the list and the candidate issuers.
    struct ShowContext {
        let logs: CTLogList
        let issuers: [Certificate]
        let time: UnixTime

        /// From `show`'s options; `nil` without --ct-log-list.
        init?(_ arguments: ParsedArguments) throws(CLIError) {
            guard let file = arguments.value("ct-log-list") else {
                if !arguments.all("intermediates").isEmpty || !arguments.all("anchors").isEmpty {
                    throw CLIError("show takes --intermediates and --anchors only to check embedded SCTs (with --ct-log-list FILE); "
                                   + "to validate a chain against anchors, use `certpath verify`")
                }
                return nil
            }
            logs = try CTOptions.logList(file)
            var issuers: [Certificate] = []
            for file in arguments.all("intermediates") + arguments.all("anchors") {
                issuers += try Input.certificates(file, skippingUnreadable: "intermediates", command: "show")
            }
            self.issuers = issuers
            time = TrustEvaluation.now()
        }

        /// The issuer of `certificate` among the file's certificates and the given ones (by name).
        func issuer(of certificate: Certificate, in file: [Certificate]) -> Certificate? {
            (file + issuers).first { $0.subject == certificate.issuer && $0 != certificate }
        }

        /// Each embedded SCT of `certificate`: its log, time and whether it verifies (RFC 6962 3.2).
        func checks(_ certificate: Certificate, in file: [Certificate])
            -> (issuer: Certificate?, scts: [(SignedCertificateTimestamp, String, SCTCheck.Status?)], error: String?, ignored: Int) {
            let list: SignedCertificateTimestampList
            do throws(SCTListError) {
                guard let found = try certificate.embeddedSCTList() else { return (nil, [], nil, 0) }
                list = found
            } catch {
                return (nil, [], error.description, 0)
            }
            let issuer = issuer(of: certificate, in: file)
            var entry: CTSignedEntry? = nil
            if let issuer { entry = try? CTSignedEntry.precertificate(of: certificate, issuedBy: issuer) }
            let scts = list.timestamps.map { sct -> (SignedCertificateTimestamp, String, SCTCheck.Status?) in
                let status = entry.map { CertificateTransparency.verify(sct, entry: $0, logs: logs, validationTime: time).status }
                return (sct, CTView.logName(sct, in: logs), status)
            }
            return (issuer, scts, nil, list.unknownVersions.count)
        }

        /// `show` text for `certificate` (nothing when it carries no SCT list).
        func lines(_ certificate: Certificate, in file: [Certificate]) -> [String] {
            let (issuer, scts, error, ignored) = checks(certificate, in: file)
            if let error { return ["embedded SCTs: unreadable: \(error)"] }
            guard !scts.isEmpty || ignored > 0 else { return [] }
            var lines = ["embedded SCTs (checked against --ct-log-list"
                + (issuer.map { ", issuer \(Output.safe($0.subject.description))" } ?? "; issuer not found: give it with --intermediates or --anchors") + "):"]
            for (index, (sct, log, status)) in scts.enumerated() {
                lines.append("  SCT \(index + 1): \(Output.safe(log)), \(CTView.time(sct)): \(status.map(\.description) ?? "not checked (no issuer)")")
            }
            // RFC 6962 3.3: an SCT of an unknown version is ignored; say so rather than renumber silently.
            if ignored > 0 { lines.append("  \(ignored) ignored (unknown version, RFC 6962 3.3)") }
            return lines
        }

        /// `show` JSON for `certificate`: `null` when it carries no SCT list.
        func json(_ certificate: Certificate, in file: [Certificate]) -> JSON {
            let (issuer, scts, error, ignored) = checks(certificate, in: file)
            if let error { return .object([("error", .string(error))]) }
            guard !scts.isEmpty || ignored > 0 else { return .null }
            return .object([
                ("issuer", .optional(issuer?.subject.description)),
                ("ignoredUnknownVersions", .int(ignored)),
                ("scts", .array(scts.map { sct, _, status in
                    let found = SHA256Digest(bytes: sct.logID).flatMap { logs.log(id: $0) }
                    return .object([("logID", .string(Base64.encode(sct.logID))), ("log", .optional(found?.log.description)),
                                    ("operator", .optional(found?.operator.name)), ("timestamp", .string(CTView.time(sct).description)),
                                    ("status", .optional(status?.code)), ("statusText", .optional(status?.description)), ("verified", .bool(status == .verified))])
                })),
            ])
        }
    }
}
