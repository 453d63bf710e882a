import CertPath

/// How `verify` and `batch` render a ``TrustResult``: the human report and the JSON object whose
/// schema docs/CLI.md documents ("certpath-verify" version 1).
enum ResultView {
    /// The schema version of `verify --json` and of each `batch` result line.
    static let schemaVersion = 1

    // MARK: - Shared pieces

    /// `TLS server server.customer1.example`, `TLS client`, `any purpose`.
    static func purposeText(_ purpose: ValidationPurpose) -> String {
        switch purpose {
        case .serverAuthentication(let reference): return "TLS server" + (reference.map { " \($0)" } ?? " (no name checked)")
        case .clientAuthentication(let names): return "TLS client" + (names.isEmpty ? "" : " with \(names.map(\.description).joined(separator: ", "))")
        case .extendedKeyUsage(let purposes, let names):
            return purposes.map(ExtendedKeyUsage.name).joined(separator: ", ") + (names.isEmpty ? "" : " with \(names.map(\.description).joined(separator: ", "))")
        case .emailProtection(let mailbox, let use):
            return "S/MIME (emailProtection" + (use == .any ? "" : ", \(use.rawValue)") + ")" + (mailbox.map { " for \($0)" } ?? "")
        case .codeSigning: return "code signing (codeSigning)"
        case .timeStamping: return "time stamping (timeStamping, RFC 3161)"
        case .any: return "any purpose (RFC 5280 path validation only)"
        }
    }

    static func purposeJSON(_ purpose: ValidationPurpose) -> JSON {
        switch purpose {
        case .serverAuthentication(let reference):
            return .object([("kind", .string("server")), ("name", .optional(reference?.description))])
        case .clientAuthentication(let names):
            return .object([("kind", .string("client")), ("expectedNames", .strings(names.map(\.description)))])
        case .extendedKeyUsage(let purposes, let names):
            return .object([("kind", .string("extendedKeyUsage")), ("purposes", .strings(purposes.map(\.description))),
                            ("expectedNames", .strings(names.map(\.description)))])
        case .emailProtection(let mailbox, let use):
            return .object([("kind", .string("smime")), ("use", .string(use.rawValue)), ("mailbox", .optional(mailbox?.description))])
        case .codeSigning:
            return .object([("kind", .string("codeSigning"))])
        case .timeStamping:
            return .object([("kind", .string("timeStamping"))])
        case .any:
            return .object([("kind", .string("any"))])
        }
    }

    /// ``Diagnostics/describe(_:in:)`` in the CLI's terms: the library names the ``Budget`` property
    /// a budget failure ran into and its library default; the fetching time is `--fetch-timeout` here,
    /// with its own default (a reviewer read "Budget.fetchTime, 20 s by default" after `--fetch-timeout 1`).
    static func describe(_ failure: ValidationFailure, in attempt: PathAttempt? = nil) -> String {
        if case .budgetExhausted(.fetchTime) = failure {
            return Diagnostics.budgetMessage(.fetchTime) + " (--fetch-timeout, \(FetchOptions.defaultTimeout) s by default)"
        }
        return attempt.map { Diagnostics.describe(failure, in: $0) } ?? Diagnostics.describe(failure)
    }

    /// One failure: its stable code, class, words and the certificate it is about.
    static func failureJSON(_ failure: ValidationFailure) -> JSON { failureJSON(failure, in: nil) }

    /// ``failureJSON(_:)`` with the message told in the context of `attempt` (``Diagnostics/describe(_:in:)``).
    static func failureJSON(_ failure: ValidationFailure, in attempt: PathAttempt?) -> JSON {
        var members: [(String, JSON)] = [
            ("code", .string(failure.code)),
            ("recoverable", .bool(failure.isRecoverable)),
            ("message", .string(describe(failure, in: attempt))),
            ("certificate", .optional(failure.certificate.map { $0.subject.description })),
            ("certificateSHA256", .optional(failure.certificate.map(CertificateView.fingerprint))),
        ]
        if let revocation = revocationJSON(failure) { members.append(("revocation", revocation)) }
        if let names = namesJSON(failure) { members.append(("names", names)) }
        if case .purposeViolation(_, let rule) = failure {
            members.append(("purposeRule", .object([("code", .string(rule.code)), ("clause", .string(rule.clause))])))
        }
        return .object(members)
    }

    /// For a name mismatch: the name asked for and the presented identifiers, each with its type
    /// (`dns`, `ip`, `email`, `commonName`), from the failure's values.
    static func namesJSON(_ failure: ValidationFailure) -> JSON? {
        let asked: (kind: String, value: String)
        let presented: [PresentedIdentifier]
        switch failure {
        case .hostnameMismatch(_, let reference, let identifiers):
            switch reference {
            case .dnsName(let name): asked = ("dns", name.description)
            case .ipAddress(let address): asked = ("ip", address.description)
            }
            presented = identifiers
        case .nameMismatch(_, let expected, let identifiers):
            switch expected {
            case .dnsName(let name): asked = ("dns", name.description)
            case .ipAddress(let address): asked = ("ip", address.description)
            case .email(let mailbox): asked = ("email", mailbox.description)
            }
            presented = identifiers
        default:
            return nil
        }
        func entry(_ kind: String, _ value: String) -> JSON { .object([("type", .string(kind)), ("value", .string(value))]) }
        let list: [JSON] = presented.map { identifier in
            switch identifier {
            case .dnsName(let name): return entry("dns", name)
            case .ipAddress(let address): return entry("ip", address.description)
            case .email(let mailbox): return entry("email", mailbox)
            case .smtpUTF8Mailbox(let mailbox): return entry("smtpUTF8Mailbox", mailbox)
            case .commonName(let name): return entry("commonName", name)
            }
        }
        return .object([("reference", entry(asked.kind, asked.value)), ("presented", .array(list))])
    }

    /// For a revoked certificate: when, why and per which evidence (CRL or OCSP response).
    static func revocationJSON(_ failure: ValidationFailure) -> JSON? {
        guard case .revoked(_, let date, let reason, let source) = failure else { return nil }
        let evidence: JSON
        switch source {
        case .crl(let issuer, let number, let thisUpdate, let isDelta):
            evidence = .object([("kind", .string(isDelta ? "deltaCRL" : "crl")), ("issuer", .string(issuer.description)),
                                ("crlNumber", .optional(number?.description)), ("thisUpdate", .string(thisUpdate.description))])
        case .ocsp(let responder, let producedAt):
            // The responderID as `certpath show --json` gives it.
            let id: JSON
            switch responder {
            case .byName(let name): id = .object([("byName", .string(name.description)), ("byKeyHash", .null)])
            case .byKeyHash(let hash): id = .object([("byName", .null), ("byKeyHash", .string(Hex.encode(hash)))])
            }
            evidence = .object([("kind", .string("ocsp")), ("responderID", id), ("producedAt", .string(producedAt.description))])
        }
        return .object([("date", .string(date.description)), ("reason", .string(reason.description)), ("source", evidence)])
    }

    /// Whether `certificate` reads as a root: its issuer is its subject and its authorityKeyIdentifier,
    /// when present, names its own key (a self-issued key-rollover certificate names another key).
    /// A self-signed certificate at the top of a path that reached no anchor is a root someone sent
    /// along, not an intermediate.
    static func looksSelfSigned(_ certificate: Certificate) -> Bool {
        guard certificate.isSelfIssued else { return false }
        guard let authorityKeyID = certificate.authorityKeyIdentifierKeyID else { return true }
        return authorityKeyID == certificate.subjectKeyIdentifier
    }

    /// The certificates of a path with their roles: end entity first, trust anchor last.
    static func roles(certificates: [Certificate], anchor: Certificate?) -> [(Certificate, String)] {
        var list: [(Certificate, String)] = []
        for (index, certificate) in certificates.enumerated() {
            if index == 0 && anchor == certificate && certificates.count == 1 {
                list.append((certificate, "end entity, trusted directly"))
            } else {
                let isUntrustedRoot = index > 0 && index == certificates.count - 1 && anchor == nil && looksSelfSigned(certificate)
                list.append((certificate, index == 0 ? "end entity" : isUntrustedRoot ? "root (self-signed, not a trust anchor)" : "intermediate"))
            }
        }
        if let anchor, !certificates.contains(anchor) { list.append((anchor, "trust anchor")) }
        return list
    }

    /// A path as a JSON array of certificates, each with the failures about it.
    static func chainJSON(_ path: [(Certificate, String)], failures: [ValidationFailure]) -> JSON {
        .array(path.map { certificate, role in
            .object(CertificateView.summaryJSON(certificate, role: role)
                + [("failures", .array(failures.filter { $0.certificate == certificate }.map(failureJSON)))])
        })
    }

    static func attemptJSON(_ attempt: PathAttempt) -> JSON {
        .object([
            ("anchorReached", .bool(attempt.anchor != nil)),
            ("valid", .bool(attempt.isValid)),
            ("chain", chainJSON(roles(certificates: attempt.certificates, anchor: attempt.anchor), failures: attempt.failures)),
            ("pathFailures", .array(attempt.failures.filter { $0.certificate == nil }.map(failureJSON))),
        ])
    }

    /// The profile the result's path was validated under (the best attempt's for an untrusted one).
    static func appliedProfile(_ result: TrustResult) -> CertificateProfile {
        switch result {
        case .trusted(let path): return path.profile
        case .untrusted(let report): return report.bestAttempt.profile
        }
    }

    /// What the applied profile reported without refusing the path (``ProfileFinding``).
    static func findings(_ result: TrustResult) -> [ProfileFinding] {
        switch result {
        case .trusted(let path): return path.findings
        case .untrusted(let report): return report.findings
        }
    }

    /// The CRLs used for good standing despite a departure from RFC 5280 section 5 (``CRLConformanceFinding``).
    static func crlFindings(_ result: TrustResult) -> [CRLConformanceFinding] {
        switch result {
        case .trusted(let path): return path.crlConformanceFindings
        case .untrusted(let report): return report.bestAttempt.crlConformanceFindings
        }
    }

    // MARK: - JSON

    /// `{"rule", "clause", "binds", "position", "subject", "explanation"}`.
    static func findingJSON(_ finding: ProfileFinding) -> JSON {
        .object([
            ("rule", .string(finding.rule.name)),
            ("clause", .string(finding.rule.clause)),
            ("binds", .string(finding.rule.addressee.rawValue)),
            ("position", .string(finding.position.rawValue)),
            ("subject", .string(CertificateView.subject(finding.certificate))),
            ("explanation", .string(finding.rule.explanation)),
        ])
    }

    /// The members of a verify result object (batch adds its line number in front).
    static func json(_ result: TrustResult, _ evaluation: TrustEvaluation, explain: Bool) -> [(String, JSON)] {
        var members: [(String, JSON)] = [
            ("format", .string("certpath-verify")),
            ("version", .int(schemaVersion)),
            ("status", .string(result.isTrusted ? "trusted" : "untrusted")),
            ("trusted", .bool(result.isTrusted)),
            ("purpose", purposeJSON(evaluation.policy.purpose)),
            ("profile", .string(evaluation.policy.profile.rawValue)),
            ("appliedProfile", .string(appliedProfile(result).rawValue)),
            ("validationTime", .optional(evaluation.validationTime?.description)),
        ]
        let attempts: [PathAttempt]
        switch result {
        case .trusted(let path):
            members += [
                ("chain", chainJSON(roles(certificates: path.certificates, anchor: path.reachesTrustAnchor ? path.anchor : nil), failures: path.acceptedFailures)),
                ("anchorReached", .bool(path.reachesTrustAnchor)),
                ("primaryFailure", .null),
                ("failures", .array([])),
                ("trustedByException", .bool(path.isTrustedByException)),
                ("acceptedFailures", .array(path.acceptedFailures.map(failureJSON))),
                ("exceptionAvailable", .bool(false)),
                ("inapplicableExceptions", .array([])),
                ("summary", .null),
            ]
            attempts = path.attempts
        case .untrusted(let report):
            let attempt = report.bestAttempt
            members += [
                ("chain", chainJSON(roles(certificates: attempt.certificates, anchor: attempt.anchor), failures: attempt.failures)),
                ("anchorReached", .bool(attempt.anchor != nil)),
                ("primaryFailure", failureJSON(report.primaryFailure, in: report.bestAttempt)),
                ("failures", .array(report.failures.map { failureJSON($0, in: report.bestAttempt) })),
                ("trustedByException", .bool(false)),
                ("acceptedFailures", .array(report.exceptedFailures.map { failureJSON($0, in: report.bestAttempt) })),
                ("exceptionAvailable", .bool(report.exceptions != nil)),
                ("inapplicableExceptions", .array(report.inapplicableExceptions.map { inapplicable in
                    .object([("id", .string(inapplicable.exception.id)), ("reason", .string(inapplicableCode(inapplicable.reason))),
                             ("subject", .optional(inapplicable.exception.subject)), ("leafSHA256", .string(inapplicable.exception.leaf.hex)),
                             ("text", .string(inapplicableText(inapplicable)))])
                })),
                ("summary", .string(report.summary)),
            ]
            attempts = report.attempts
        }
        members.append(("findings", .array(findings(result).map(findingJSON))))
        members.append(("crlFindings", .array(crlFindings(result).map { finding in
            .object([("certificate", .string(CertificateView.subject(finding.certificate))),
                     ("crlIssuer", .string(finding.crl.issuer.description)),
                     ("defects", .array(finding.defects.map { .string($0.description) })),
                     ("explanation", .string(finding.description))])
        })))
        if !result.fetches.isEmpty { members.append(("fetches", FetchOptions.json(result.fetches))) }
        if explain {
            members.append(("attempts", .array(attempts.map(attemptJSON))))
            members.append(("attemptsNotListed", .int(result.statistics.unrecordedAttempts)))
        }
        return members
    }

    // MARK: - Human

    /// The human report: verdict line, path, failure summary, and with `explain` every attempt.
    /// The anchors in use, in one line (issue 33: the anchors were never named): the `--anchors` files
    /// with the count of certificates read, the system anchors with their sources, and pins.
    static func anchorsLine(_ evaluation: TrustEvaluation, anchorFiles: [String]) -> String {
        var parts: [String] = []
        let own = evaluation.trustStore.entries.count
        if own > 0 || !anchorFiles.isEmpty {
            let files = anchorFiles.isEmpty ? "" : " from " + anchorFiles.map(Output.safe).joined(separator: ", ")
            parts.append("\(own) certificate\(own == 1 ? "" : "s")\(files)")
        }
        if !evaluation.anchorsOnly {
            let system = SystemTrustStore.shared
            let shown = system.sources.prefix(2).map(Output.safe).joined(separator: ", ")
            let sources = system.sources.isEmpty ? "none found"
                : shown + (system.sources.count > 2 ? " and \(system.sources.count - 2) more files" : "")
            parts.append("the system anchors (\(system.store.entries.count) from \(sources))")
        }
        if !evaluation.pins.isEmpty { parts.append("\(evaluation.pins.count) pin\(evaluation.pins.count == 1 ? "" : "s")") }
        return "anchors: " + (parts.isEmpty ? "none" : parts.joined(separator: "; "))
    }

    /// A trust exception that concerns the leaf but did not apply, in words (issue 33: a certificate
    /// with the name of an excepted one but another key is reported with a note).
    static func inapplicableText(_ inapplicable: InapplicableTrustException) -> String {
        let exception = inapplicable.exception
        let recorded = exception.recorded.map { ", recorded \($0)" } ?? ""
        switch inapplicable.reason {
        case .otherCertificateOfSameName(let sameKey):
            return "a trust exception (\(exception.id)\(recorded)) exists for a different certificate of that name, "
                + "\(exception.subject ?? "?") (sha256 \(exception.leaf.hex.prefix(16))…, \(sameKey ? "the same key" : "another key")); "
                + "it does not apply to this certificate"
        case .expired:
            return "the trust exception \(exception.id) for this certificate expired at \(exception.expires.map(\.description) ?? "?"); "
                + "it no longer applies (certpath exceptions prune removes it)"
        case .boundToOtherHost:
            return "the trust exception \(exception.id) for this certificate is bound to the host \(exception.host.map(\.description) ?? "?"); "
                + "it does not apply to this evaluation"
        case .recordedForOtherPurpose:
            return "the trust exception \(exception.id) for this certificate was recorded for the purpose \(exception.purpose ?? "server (TLS server; no purpose recorded)"); "
                + "it does not apply to an evaluation for another purpose"
        }
    }

    /// `otherCertificateOfSameName`, `expired`, `boundToOtherHost`, `recordedForOtherPurpose` (JSON).
    static func inapplicableCode(_ reason: InapplicableTrustException.Reason) -> String {
        switch reason {
        case .otherCertificateOfSameName: return "otherCertificateOfSameName"
        case .expired: return "expired"
        case .boundToOtherHost: return "boundToOtherHost"
        case .recordedForOtherPurpose: return "recordedForOtherPurpose"
        }
    }

    static func humanLines(_ result: TrustResult, _ evaluation: TrustEvaluation, explain: Bool, anchorFiles: [String] = []) -> [String] {
        let purpose = purposeText(evaluation.policy.purpose)
        var lines: [String] = []
        let attempts: [PathAttempt]
        switch result {
        case .trusted(let path):
            let leaf = path.certificates.first.map(CertificateView.subject) ?? "?"
            if path.isTrustedByException {
                lines.append("trusted by a trust exception: \(Output.safe(leaf)) for \(purpose)")
                lines.append("accepted failures:")
                lines += path.acceptedFailures.map { "  \($0.code): \(Output.safe(describe($0)))" }
            } else {
                lines.append("trusted: \(Output.safe(leaf)) for \(purpose)")
            }
            lines.append("path:")
            lines += pathLines(roles(certificates: path.certificates, anchor: path.reachesTrustAnchor ? path.anchor : nil))
            attempts = path.attempts
        case .untrusted(let report):
            lines.append("untrusted: \(Output.safe(describe(report.primaryFailure, in: report.bestAttempt)))")
            let attempt = report.bestAttempt
            lines.append("path (best attempt, \(attempt.anchor == nil ? "no trust anchor reached" : "ends at a trust anchor")):")
            lines += pathLines(roles(certificates: attempt.certificates, anchor: attempt.anchor))
            // The report's summary: its first line is the verdict above, then one line per certificate.
            lines.append("summary:")
            lines += report.summary.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map { Output.safe(String($0)) }
            // An issued leaf given as an anchor: anchors end paths above a leaf (RFC 5280 6.1: the
            // trust anchor is not part of the path), so it is not trusted by itself; say what does that.
            let leaf = evaluation.leaf
            if !leaf.isSelfIssued, evaluation.trustStore.entries.contains(where: { $0.kind == .anchor && $0.certificate == leaf }) {
                lines.append("note: the leaf is itself among the anchors, but an anchor only ends a path above a certificate; "
                    + "to trust this one certificate by itself, pin its key (--pin-sha256, docs/CLI.md)")
            }
            if !report.exceptedFailures.isEmpty {
                let codes = report.exceptedFailures.map(\.code).joined(separator: ", ")
                lines.append("note: the trust exceptions given accept \(codes), not every failure: the certificate stays untrusted")
            }
            lines += report.inapplicableExceptions.map { "note: " + Output.safe(inapplicableText($0)) }
            if case .issuerNotFound = report.primaryFailure {
                lines.append("hint: give the issuing CA's certificate with --intermediates FILE, or --fetch to fetch it from the leaf's "
                    + "authorityInfoAccess (caIssuers)")
            }
            let recoverable = report.isRecoverable && report.exceptions != nil
            // What accepting would mean, said plainly: without an anchor, it trusts a certificate
            // nobody vouches for; it is the user's decision, not the next step.
            let unanchored = report.failures.contains {
                switch $0 {
                case .issuerNotFound, .selfSignedNotTrusted, .noTrustedAnchor: return true
                default: return false
                }
            }
            lines.append("failure class: " + (!recoverable ? "fatal (can never be excepted)"
                : unanchored ? "recoverable (a trust exception, --save-exceptions, would trust this certificate although no anchor vouches for it)"
                : "recoverable (a trust exception, --save-exceptions, would accept exactly these failures for this certificate)"))
            attempts = report.attempts
        }
        let applied = appliedProfile(result)
        let reachedAnchor = result.trustedPath?.reachesTrustAnchor ?? (result.report?.bestAttempt.anchor != nil)
        let vouching = applied == .webPKI ? "a system anchor" : reachedAnchor ? "the caller's anchors" : "no anchor reached"
        let profileText = evaluation.policy.profile == .automatic ? "\(applied.rawValue) (auto: \(vouching))"
            : applied.rawValue
        let findings = findings(result)
        if !findings.isEmpty {
            lines.append("findings (rules RFC 5280 section 4 addresses to the issuing CA: reported, not refused, under \(applied.rawValue); "
                + "--profile rfc5280 refuses them):")
            lines += findings.map {
                "  \($0.position == .endEntity ? "end entity" : "intermediate") \(Output.safe(CertificateView.subject($0.certificate))): "
                    + "\($0.rule.name): \(Output.safe($0.rule.explanation))"
            }
        }
        let crlFindings = crlFindings(result)
        if !crlFindings.isEmpty {
            lines.append("CRL findings (departures from RFC 5280 section 5 that bind the CRL issuer: used, not refused; "
                + "--crl-conformance strict refuses them):")
            lines += crlFindings.map { "  \(Output.safe($0.description))" }
        }
        lines += FetchOptions.humanLines(result.fetches)
        lines.append(anchorsLine(evaluation, anchorFiles: anchorFiles))
        lines.append("validation time: \(evaluation.validationTime?.description ?? "now"), profile: \(profileText)")
        if explain {
            let unlisted = result.statistics.unrecordedAttempts
            lines.append(unlisted == 0 ? "attempts (\(attempts.count)):"
                         : "attempts (the first \(attempts.count) of \(attempts.count + unlisted); the rest are not listed):")
            if attempts.isEmpty { lines.append("  none recorded") }
            for (number, attempt) in attempts.enumerated() {
                let ending = attempt.isValid ? "valid" : attempt.anchor == nil ? "no trust anchor reached" : "reaches a trust anchor"
                lines.append("  attempt \(number + 1) (\(ending)):")
                for (index, (certificate, role)) in roles(certificates: attempt.certificates, anchor: attempt.anchor).enumerated() {
                    lines.append("    [\(index)] \(role): \(Output.safe(CertificateView.subject(certificate)))")
                    let failures = attempt.failures.filter { $0.certificate == certificate }
                    if failures.isEmpty { lines.append("        ok") }
                    lines += failures.map { "        \($0.code): \(Output.safe(describe($0, in: attempt)))" }
                }
                lines += attempt.failures.filter { $0.certificate == nil }.map {
                    "    path: \($0.code): \(Output.safe(describe($0, in: attempt)))"
                }
            }
        }
        return lines.map(Output.clipped)
    }

    /// `[i] role: subject` then the certificate's summary lines, indented.
    static func pathLines(_ path: [(Certificate, String)]) -> [String] {
        var lines: [String] = []
        for (index, (certificate, role)) in path.enumerated() {
            lines.append("  [\(index)] \(role): \(Output.safe(CertificateView.subject(certificate)))")
            lines += CertificateView.summaryLines(certificate).map { "      " + $0 }
        }
        return lines
    }
}
