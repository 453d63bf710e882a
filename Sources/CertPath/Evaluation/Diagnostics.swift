/// Plain-words explanations of failures and reports, for people (the CLI, logs, UI).
///
/// The text is for reading, not parsing: switch on ``ValidationFailure`` (or its ``ValidationFailure/code``)
/// in code.
public enum Diagnostics {
    /// One failure in plain words, naming the certificate and the evidence.
    public static func describe(_ failure: ValidationFailure) -> String {
        describe(failure, listedUnder: nil, in: nil)
    }

    /// ``describe(_:)`` for a failure of `attempt`, told with what the path shows: an issuer "not
    /// found" whose name is that of a certificate already in the path is said to be a loop (the
    /// certificates sent for it were there, but only lead back into the path, RFC 4158 5.2).
    public static func describe(_ failure: ValidationFailure, in attempt: PathAttempt) -> String {
        describe(failure, listedUnder: nil, in: attempt)
    }

    /// ``describe(_:in:)``, or, for a line already headed by `certificate`, calling it "this
    /// certificate" instead of repeating its subject.
    static func describe(_ failure: ValidationFailure, listedUnder certificate: Certificate?, in attempt: PathAttempt?) -> String {
        func name(_ c: Certificate) -> String {
            // Same DER, not the same object: a thread's copy of a store names equal certificates.
            if let certificate, c == certificate { return "this certificate" }
            return c.subject.isEmpty ? "the certificate with serial \(c.serialNumberHex)" : c.subject.description
        }
        switch failure {
        case .expired(let c, let notAfter, let time):
            return "\(name(c)) expired at \(notAfter) (validation time \(time))"
        case .notYetValid(let c, let notBefore, let time):
            return "\(name(c)) is not valid before \(notBefore) (validation time \(time))"
        case .issuerNotFound(let c):
            if let attempt, attempt.certificates.contains(where: { $0 !== c && $0.subject.isEquivalent(to: c.issuer) }) {
                return "no certificate for issuer \(c.issuer) of \(name(c)) leads further: every one with that name is already in "
                    + "this path (the certificates sent only form a loop), and the issuer is not among the anchors"
            }
            return "no certificate for issuer \(c.issuer) of \(name(c)); its issuer's certificate was not presented (a TLS peer must send its intermediates) and is not among the anchors"
        case .selfSignedNotTrusted(let c):
            return "\(name(c)) is self-signed and not trusted"
        case .noTrustedAnchor(let c):
            if let certificate, c == certificate { return "the path ends at this root, which is not a trusted anchor" }
            return "the path ends at the root \(name(c)), which is not a trusted anchor"
        case .hostnameMismatch(_, let reference, let presented):
            let names = presented.isEmpty ? "no DNS or IP names" : listed(presented.map(\.description))
            // The reference is an IP address whose text a dNSName carries: say why that is no match.
            let textualIP = if case .ipAddress = reference { presented.contains(.dnsName(reference.description)) } else { false }
            // Wildcards that look like a match and are not, and why: one that covers the reference by
            // every other rule was refused by the public suffix list; one with a single label after it
            // (`*.internal`) never matches (no wildcard over a whole top-level domain:
            // PresentedIdentifierMatching). Say so, rather than leave "valid for *.x" looking like a match.
            var underSuffix: String? = nil
            var singleLabelWildcard: String? = nil
            if case .dnsName(let name) = reference {
                let labels = name.description.split(separator: ".", omittingEmptySubsequences: false)
                for case .dnsName(let entry) in presented where entry.hasPrefix("*.") {
                    let rest = entry.dropFirst(2)
                    if underSuffix == nil, PresentedIdentifierMatching.matches(presentedDNSName: Array(entry.utf8)[...], reference: name) {
                        underSuffix = String(rest)
                    } else if singleLabelWildcard == nil, !rest.contains("."), labels.count == 2, labels[1].lowercased() == rest.lowercased() {
                        singleLabelWildcard = entry
                    }
                }
            }
            // Without a subjectAltName the commonNames are listed, but never matched: say so.
            let commonNamesOnly = !presented.isEmpty && presented.allSatisfy { if case .commonName = $0 { true } else { false } }
            let validFor = commonNamesOnly ? "it has no subjectAltName, and its commonName (\(names)) is never matched (RFC 6125 6.4.4)"
                : "it is valid for \(names)"
            return "the certificate is not valid for \(reference); \(validFor)"
                + (textualIP ? " (an IP address matches only IP entries, never a DNS name holding its text)" : "")
                + (underSuffix.map { " (*.\($0) is a wildcard directly under a public suffix, refused as the public suffix list requires)" } ?? "")
                + (singleLabelWildcard.map { " (\($0) matches no name: a wildcard needs at least two labels after it, so that it never covers a whole top-level domain)" } ?? "")
        case .nameMismatch(let c, let expected, let presented):
            // Told by the purpose evaluated: a TLS client's names, an S/MIME mailbox (RFC 8550 3), or
            // the names another extKeyUsage purpose expects. Without a recorded purpose, a client's.
            var carrier = "the client certificate does not carry \(expected)"
            switch attempt?.purpose {
            case .emailProtection(let mailbox?, _):
                carrier = "the certificate does not carry the mailbox \(mailbox)"
                // RFC 8550 3: the subject emailAddress is matched too (for an ASCII mailbox), even
                // when an rfc822Name is present; its local part is case-sensitive (RFC 5321 2.4).
                let addresses = mailbox.isInternationalized ? [] : c.subject.values(of: KnownOID.emailAddress)
                let sans = presented.filter { if case .commonName = $0 { false } else { true } }
                let inSAN = c.subjectAlternativeNames == nil ? "it has no subjectAltName" : sans.isEmpty
                    ? "its subjectAltName holds no name of this kind" : "its subjectAltName holds \(listed(sans.map(\.description)))"
                let inSubject = addresses.isEmpty ? "its subject has no emailAddress"
                    : "its subject emailAddress (\(listed(addresses))) does not match either"
                return "\(carrier): \(inSAN), and \(inSubject) (an rfc822Name subjectAltName and the subject emailAddress are "
                    + "matched; the local part is case-sensitive, RFC 5321 2.4, the domain is not)"
            case .emailProtection(nil, _), .extendedKeyUsage, .serverAuthentication, .codeSigning, .timeStamping, .any:
                carrier = "the certificate does not carry \(expected)"
            case .clientAuthentication, nil:
                break
            }
            // Only subjectAltName names are matched: a certificate without one carries nothing that can
            // match, whatever its commonName says.
            let commonNamesOnly = presented.allSatisfy { if case .commonName = $0 { true } else { false } }
            if commonNamesOnly {
                let cn = presented.isEmpty ? "" : " (its commonName, \(listed(presented.map(\.description))), is never matched)"
                return "\(carrier): only subjectAltName names are matched, and it has no subjectAltName\(cn)"
            }
            return "\(carrier); its subjectAltName holds \(listed(presented.map(\.description)))"
        case .malformed(let description, let error):
            return "\(description) is malformed: \(error)"
        case .badSignature(let c, let issuer):
            return "the signature of \(name(c)) does not verify with the key of \(issuer)"
        case .unsupportedSignatureAlgorithm(let c, let algorithm):
            return "\(name(c)) is signed with \(algorithm), which CertPath cannot verify"
        case .unusablePublicKey(let c, let reason):
            return "the issuer key for \(name(c)) cannot be used: \(reason)"
        case .disallowedSignatureAlgorithm(let c, let algorithm):
            return "\(name(c)) is signed with \(algorithm), which the policy does not accept"
        case .weakKey(let c, let reason):
            return "the key of \(name(c)) is not accepted: \(reason)"
        case .notACertificateAuthority(let c):
            return "\(name(c)) issues certificates but is not a CA (basicConstraints cA is not asserted, or it is not v3)"
        case .pathLengthExceeded(let c):
            // The numbers, when the path is known: the limit, and the non-self-issued intermediates
            // below the certificate that set it (RFC 5280 6.1.4 (l), (m)).
            let limit = c.basicConstraints?.pathLenConstraint
            if let limit, let attempt {
                let above = attempt.certificates.firstIndex(where: { $0 === c || $0 == c }) ?? attempt.certificates.count
                let below = attempt.certificates[min(1, above)..<above].filter { !$0.isSelfIssued }.count
                return "the path has \(below) intermediate(s) below \(name(c)), more than its pathLenConstraint of \(limit) allows"
            }
            return "the path has more intermediates below \(name(c)) than its pathLenConstraint"
                + (limit.map { " of \($0)" } ?? "") + " allows"
        case .maximumDepthExceeded(let c, let limit):
            return "reaching an anchor through \(name(c)) needs more than \(limit) intermediate(s)"
        case .keyUsageForbids(let c, let required, let present):
            return "the keyUsage of \(name(c)) (\(present.isEmpty ? "no bit set" : present.description)) does not allow \(required)"
        case .extendedKeyUsageForbids(let c, let required, let present):
            let listed = Self.listed(present.map(ExtendedKeyUsage.name))
            return "the extKeyUsage of \(name(c)) (\(listed)) does not allow \(ExtendedKeyUsage.name(of: required))"
        case .purposeViolation(let c, let rule):
            return "\(name(c)) cannot be used for the purpose: \(rule)"
        case .nameConstraintViolation(let c, let violation):
            return "a name of \(name(c)) violates its issuers' name constraints: \(violation)"
        case .policyRequired(let failure):
            return describe(failure, in: attempt)
        case .unknownCriticalExtension(let c, let oid):
            return "\(name(c)) has a critical extension CertPath does not process (\(oid))"
        case .profileViolation(let c, let rule):
            return "\(name(c)) is not a conforming certificate: \(rule.explanation)"
        case .issuerNameMismatch(let c):
            return "the issuer name of \(name(c)) does not match its issuer's subject"
        case .distrusted(let c):
            return "\(name(c)) is distrusted"
        case .revoked(let c, let date, let reason, let source):
            return "\(name(c)) was revoked at \(date) (\(reason)), per \(source)"
        case .revocationUnknown(let c, let evidence):
            return "the revocation status of \(name(c)) is unknown: \(evidence)"
        case .missingStapledOCSPResponse(let c, let requiredBy, let reason):
            let whose = requiredBy == c ? "its TLS feature extension" : "the TLS feature extension of \(name(requiredBy)), a CA of its path,"
            let problem = reason.map { "the OCSP response the server stapled does not settle its status: \($0)" }
                ?? "the server stapled no OCSP response in the TLS handshake"
            return "\(name(c)) requires a stapled OCSP response (must-staple: \(whose) lists status_request, RFC 7633), and \(problem)"
        case .pinMismatch:
            return "no certificate of the path matches a required pin (certificate or public key)"
        case .budgetExhausted(let limit):
            return budgetMessage(limit) + budgetSetting(limit)
        case .rejectedByCaller(let reason):
            return "refused by the application: \(reason)"
        case .certificateTransparencyNotCompliant(let c, let report):
            return "\(name(c)) does not meet the \(report.description)"
        }
    }

    /// What running out of `limit` stopped (ValidationFailure.budgetExhausted), without where the
    /// limit is set: the CLI names its own option for the fetching time.
    package static func budgetMessage(_ limit: BudgetLimit) -> String {
        switch limit {
        case .failedIssuerCandidates:
            return "path building gave up on a certificate's issuers: several presented certificates with its issuer's name "
                + "did not verify its signature and the others were not tried"
        case .signatureCost:
            return "path building stopped: the signature verifications' estimated cost reached its limit"
        case .failedSignatureCost:
            return "path building stopped: presented issuer candidates whose keys did not verify the signatures, a flood of "
                + "look-alike issuers, spent the failedSignatureCost limit"
        case .signatureChecks, .buildSteps, .nameConstraintComparisons, .policyGraph:
            return "path building stopped: the \(limit.rawValue) limit was reached"
        case .fetches:
            return "network fetching stopped before it had fetched what the path lacks: the number of fetches reached its limit"
        case .fetchResponseBytes:
            return "network fetching could not use a response: it was larger than the limit"
        case .fetchTime:
            return "network fetching stopped before it had fetched what the path lacks: its time ran out"
        }
    }

    /// Where `limit` is set and its default, as ` (Budget.buildSteps, 200000 by default)`: a message
    /// cannot know a caller's own ``Budget``; the policy graph's bound is fixed and its failure says it.
    static func budgetSetting(_ limit: BudgetLimit) -> String {
        let defaults = Budget.default
        let value: String
        switch limit {
        case .signatureChecks: value = "\(defaults.signatureChecks)"
        case .signatureCost: value = "\(defaults.signatureCost) units"
        case .failedSignatureCost: value = "\(defaults.failedSignatureCost) units"
        case .failedIssuerCandidates: return " (Budget.failedIssuerCandidates, set by the caller: there is no limit by default)"
        case .buildSteps: value = "\(defaults.buildSteps)"
        case .nameConstraintComparisons: value = "\(defaults.nameConstraintComparisons)"
        case .policyGraph: return ""
        case .fetches: value = "\(defaults.fetches)"
        case .fetchResponseBytes: value = "\(defaults.fetchResponseBytes) bytes"
        case .fetchTime: value = "\(defaults.fetchTime) s"
        }
        return " (Budget.\(limit.rawValue), \(value) by default)"
    }

    /// The most names a message lists; a certificate may carry a hundred thousand.
    static let listedNamesLimit = 16

    /// `names` joined with commas, the first ``listedNamesLimit`` of them and how many more.
    static func listed(_ names: [String]) -> String {
        guard names.count > listedNamesLimit else { return names.joined(separator: ", ") }
        return names.prefix(listedNamesLimit).joined(separator: ", ") + " and \(names.count - listedNamesLimit) more"
    }

    /// Plain words for a certificate-policy failure (RFC 5280 6.1.3 (d)–(f), 6.1.4 (a), 6.1.5 (g);
    /// certificates numbered as in RFC 5280 6.1: 1 is the one the trust anchor issued).
    static func describe(_ failure: PolicyFailure, in attempt: PathAttempt? = nil) -> String {
        /// "certificate 2 (counted from the trust anchor)", with its subject when the path is known
        /// (certificate i is `certificates[n - i]`: they are listed from the end entity up).
        func certificate(_ i: Int) -> String {
            if i == 0 { return "the trust anchor (its constraints processed as certificate 0, RFC 5937)" }
            guard let attempt, attempt.anchor != nil, (1...attempt.certificates.count).contains(i) else {
                return "certificate \(i) (counted from the trust anchor)"
            }
            return "certificate \(i) (counted from the trust anchor: \(attempt.certificates[attempt.certificates.count - i].subject))"
        }
        switch failure {
        case .explicitPolicyRequired(let i):
            return "an explicit certificate policy is required, and no policy is valid for the path at \(certificate(i)) "
                + "(RFC 5280 6.1.3 (f))"
        case .noAcceptablePolicy(let allowed):
            switch allowed {
            case .anyPolicy:
                return "an explicit certificate policy is required, and no policy is acceptable here (the initial policy set "
                    + "is empty; RFC 5280 6.1.5 (g))"
            case .policies([]):
                return "an explicit certificate policy is required, and no policy is valid for the path (RFC 5280 6.1.5 (g))"
            case .policies(let policies):
                return "the path is valid only for certificate policies not acceptable here (\(policies.map(\.description).sorted().joined(separator: ", "))); "
                    + "an acceptable one is required (RFC 5280 6.1.5 (g))"
            }
        case .anyPolicyInMapping(let i):
            return "\(certificate(i)) maps a policy from or to anyPolicy, which policyMappings must not do (RFC 5280 6.1.4 (a))"
        case .graphTooLarge(let i, let bound):
            let what: String
            switch bound {
            case .nodes(let limit): what = "\(limit) nodes"
            case .edges(let limit): what = "\(limit) edges"
            }
            return "certificate policy processing stopped at \(certificate(i)): the policy graph would exceed \(what), "
                + "a resource bound"
        }
    }
}
