import CertPath
import CertPathDER

/// How `show` and `verify` render a certificate, for people and as JSON (schemas in docs/CLI.md).
/// Both commands use these functions, so a certificate reads the same in either.
enum CertificateView {
    /// SHA-256 of the certificate's DER, lowercase hex (the fingerprint).
    static func fingerprint(_ certificate: Certificate) -> String {
        SHA256Digest(hashing: certificate.der).hex
    }

    /// The first 16 hex digits of the fingerprint and an ellipsis, for path listings.
    static func shortFingerprint(_ certificate: Certificate) -> String {
        String(fingerprint(certificate).prefix(16)) + "…"
    }

    /// The HPKP-style key pin: base64 of SHA-256 of the SubjectPublicKeyInfo (what `--pin-sha256` takes).
    static func keyPin(_ certificate: Certificate) -> String {
        SHA256Digest(hashing: certificate.subjectPublicKeyInfo.der).base64
    }

    /// `notBefore to notAfter`.
    static func validity(_ certificate: Certificate) -> String {
        "\(certificate.notBefore) to \(certificate.notAfter)"
    }

    /// The subject, or a placeholder naming the serial when the subject is empty.
    static func subject(_ certificate: Certificate) -> String {
        certificate.subject.isEmpty ? "(empty subject)" : certificate.subject.description
    }

    // MARK: - Short form (verify's path)

    /// The lines `verify` prints for one certificate of a path (after its role line).
    static func summaryLines(_ certificate: Certificate) -> [String] {
        [
            "issuer:   \(Output.safe(certificate.issuer.description))",
            "validity: \(validity(certificate))",
            "key:      \(keyText(certificate.subjectPublicKeyInfo))",
            "sha256:   \(shortFingerprint(certificate))",
        ]
    }

    /// The short JSON object of a certificate in a path: subject, issuer, serial, validity, key, fingerprints.
    static func summaryJSON(_ certificate: Certificate, role: String) -> [(String, JSON)] {
        [("role", .string(role)), ("", summary(certificate))]
    }

    /// ``summaryJSON(_:role:)``'s members after `role`, spliced. `batch` repeats the same
    /// intermediates and anchors on every line: their members (names as text, two SHA-256) and
    /// the members' JSON text are made once per process (Benchmarks/README.md, issue 32), found
    /// by the certificate object (the same intermediate and anchor objects serve every line, so no
    /// hashing of their DER), else by its DER (a leaf read again).
    private static func summary(_ certificate: Certificate) -> JSON {
        let object = ObjectIdentifier(certificate)
        if let members = summaryMemo.withLock({ $0.byObject[object]?.members }) { return members }
        // A certificate larger than any real one is not kept (nor hashed as a key).
        let cost = certificate.der.count
        guard BoundedMemo<DERKey, JSON>.keeps(cost: cost) else { return .spliced(summaryMembers(certificate)) }
        let key = DERKey(der: certificate.der)
        let members = summaryMemo.withLock({ $0.byDER[key] }) ?? .spliced(summaryMembers(certificate))
        summaryMemo.withLock { memo in
            memo.byDER.insert(members, for: key, cost: cost)
            // The entry holds the certificate, so its identifier is not reused while kept.
            memo.byObject.insert((certificate, members), for: object, cost: cost)
        }
        return members
    }

    /// ``summary(_:)``'s memo: by object (each entry holding its certificate) and by DER, at most 256
    /// each (and the bounds of ``BoundedMemo`` on the DER they hold).
    private struct SummaryMemo {
        var byObject = BoundedMemo<ObjectIdentifier, (certificate: Certificate, members: JSON)>(maximumEntries: 256)
        var byDER = BoundedMemo<DERKey, JSON>(maximumEntries: 256)
    }
    private static let summaryMemo = Locked(SummaryMemo())

    /// A certificate's DER as a dictionary key, hashed as one block of bytes (`[UInt8]`'s own
    /// hashing feeds the hasher byte by byte, which cost more than the members it saved) and
    /// compared with `memcmp` (`[UInt8]`'s `==` compares byte by byte).
    private struct DERKey: Hashable {
        let der: [UInt8]
        func hash(into hasher: inout Hasher) { der.withUnsafeBytes { hasher.combine(bytes: $0) } }
        static func == (a: DERKey, b: DERKey) -> Bool { Bytes.equal(a.der, b.der) }
    }

    private static func summaryMembers(_ certificate: Certificate) -> [(String, JSON)] {
        [
            ("subject", .string(certificate.subject.description)),
            ("issuer", .string(certificate.issuer.description)),
            ("serial", .string(certificate.serialNumberHex)),
            ("notBefore", .string(certificate.notBefore.description)),
            ("notAfter", .string(certificate.notAfter.description)),
            ("publicKey", .string(certificate.subjectPublicKeyInfo.key.summary)),
            ("sha256", .string(fingerprint(certificate))),
            ("keyPin", .string(keyPin(certificate))),
        ]
    }

    // MARK: - Full form (show)

    /// `RSA-2048`, or `RSA-2048 (RSASSA-PSS only: sha384, MGF1-sha384, salt ≥ 48)` for a restricted key.
    static func keyText(_ key: SubjectPublicKeyInfo) -> String {
        key.key.summary + (pssRestriction(key).map { " (RSASSA-PSS only\($0.isEmpty ? "" : ": " + $0))" } ?? "")
    }

    /// The RSASSA-PSS restriction of an id-RSASSA-PSS key (RFC 4055 3.3): `""` without parameters,
    /// `"sha384, MGF1-sha384, salt ≥ 48"` with them; `nil` for other keys.
    static func pssRestriction(_ key: SubjectPublicKeyInfo) -> String? {
        guard key.isRestrictedToRSASSAPSS else { return nil }
        switch key.rsassaPSSParameters {
        case nil: return ""
        case .rsaPSS(let hash, let salt)?: return "\(hash.rawValue), MGF1-\(hash.rawValue), salt ≥ \(salt)"
        case _?: return "parameters CertPath does not verify (SHA-1 or other)"
        }
    }

    /// `{"hex": "bee0", "bits": 12}` for a unique identifier, `null` when absent.
    static func uniqueID(_ bytes: ArraySlice<UInt8>?, _ bits: Int?) -> JSON {
        guard let bytes, let bits else { return .null }
        return .object([("hex", .string(Output.hex(bytes))), ("bits", .int(bits))])
    }

    /// Every field and extension, one per line, for `show`.
    static func fullLines(_ certificate: Certificate) -> [String] {
        let key = certificate.subjectPublicKeyInfo
        var lines = [
            "subject:             \(Output.safe(subject(certificate)))",
            "issuer:              \(Output.safe(certificate.issuer.isEmpty ? "(empty issuer)" : certificate.issuer.description))",
            "serial:              \(certificate.serialNumberHex)",
            "version:             v\(certificate.version.rawValue)",
            "not before:          \(certificate.notBefore)\(certificate.validityUsesGeneralizedTime.notBefore ? " (GeneralizedTime)" : "")",
            "not after:           \(certificate.notAfter)\(certificate.validityUsesGeneralizedTime.notAfter ? " (GeneralizedTime)" : "")",
            "public key:          \(keyText(key))",
            "key pin (sha256):    \(keyPin(certificate))",
            "signature algorithm: \(certificate.signatureAlgorithm)",
            "sha256 fingerprint:  \(fingerprint(certificate))",
        ]
        if certificate.isSelfIssued { lines.append("self-issued:         yes (issuer = subject)") }
        func uniqueID(_ id: ArraySlice<UInt8>, _ bits: Int) -> String {
            bits == 0 ? "(empty)" : "\(Output.hex(id)) (\(bits) bit\(bits == 1 ? "" : "s"))"
        }
        if let id = certificate.issuerUniqueID, let bits = certificate.issuerUniqueIDBitCount {
            lines.append("issuerUniqueID:      \(uniqueID(id, bits))")
        }
        if let id = certificate.subjectUniqueID, let bits = certificate.subjectUniqueIDBitCount {
            lines.append("subjectUniqueID:     \(uniqueID(id, bits))")
        }
        // What parsing tolerated or recorded: the certificate is shown, and path validation decides
        // (docs/RULES.md).
        for leniency in certificate.encodingLeniencies { lines.append("warning:             tolerated encoding: \(leniency)") }
        for finding in certificate.findings { lines.append("warning:             \(finding.explanation)") }
        let extensions = extensionViews(certificate)
        if extensions.isEmpty {
            lines.append("extensions:          none")
        } else {
            lines.append("extensions:")
            for view in extensions {
                lines.append("  \(view.label)\(view.critical ? " (critical)" : ""):")
                lines += view.text.map { "    " + Output.safe($0) }
            }
        }
        return lines
    }

    /// The full JSON object of a certificate (`show --json`).
    static func fullJSON(_ certificate: Certificate) -> JSON {
        let key = certificate.subjectPublicKeyInfo
        return .object([
            ("subject", .string(certificate.subject.description)),
            ("issuer", .string(certificate.issuer.description)),
            ("serial", .string(certificate.serialNumberHex)),
            ("version", .int(certificate.version.rawValue)),
            ("notBefore", .string(certificate.notBefore.description)),
            ("notAfter", .string(certificate.notAfter.description)),
            ("publicKey", .object([
                ("type", .string(key.key.summary)),
                ("bits", .optional(key.key.bitLength)),
                ("rsassaPSSOnly", .bool(key.isRestrictedToRSASSAPSS)),
                ("rsassaPSSParameters", .optional(key.rsassaPSSParameters.map { _ in pssRestriction(key) ?? "" })),
            ])),
            ("keyPin", .string(keyPin(certificate))),
            ("signatureAlgorithm", .string(certificate.signatureAlgorithm.description)),
            ("sha256", .string(fingerprint(certificate))),
            ("selfIssued", .bool(certificate.isSelfIssued)),
            ("issuerUniqueID", uniqueID(certificate.issuerUniqueID, certificate.issuerUniqueIDBitCount)),
            ("subjectUniqueID", uniqueID(certificate.subjectUniqueID, certificate.subjectUniqueIDBitCount)),
            ("extensions", .array(extensionViews(certificate).map { view in
                .object([
                    ("oid", .string(view.oid)),
                    ("name", .string(view.name)),
                    ("critical", .bool(view.critical)),
                    ("value", view.json),
                ])
            })),
            ("warnings", .array(certificate.encodingLeniencies.map { leniency in
                .object([("kind", .string("leniency")), ("code", .string(Self.name(of: leniency))), ("message", .string(leniency.description))])
            } + certificate.findings.map { finding in
                .object([("kind", .string("finding")), ("code", .string(Self.name(of: finding))), ("message", .string(finding.explanation))])
            })),
        ])
    }

    /// The Swift case name of a leniency (`keyUsageTrailingZeroBits`).
    static func name(of leniency: EncodingLeniency) -> String { leniency.name }

    /// The Swift case name of a finding, which is also the name of its rules-table row (docs/RULES.md).
    static func name(of finding: ProfileRule) -> String { finding.name }

    // MARK: - Extensions

    /// One decoded extension: its name, criticality, lines for people and a JSON value.
    struct ExtensionView {
        let name: String
        let oid: String
        let critical: Bool
        /// Whether CertPath decodes the extension (then its name says which it is).
        let decoded: Bool
        let text: [String]
        let json: JSON

        /// The heading in text output: the name of a decoded extension; the OID of any other, with
        /// its name when it has one (`signedCertificateTimestampList (1.3.6.1.4.1.11129.2.4.2)`).
        var label: String { decoded ? name : name == "unknown" ? oid : "\(name) (\(oid))" }
    }

    /// Every extension of `certificate`, in encoded order, decoded.
    /// A repeated extension (RFC 5280 4.2: validation refuses the certificate) is shown undecoded,
    /// with its own bytes: the decoded accessors describe the first occurrence, and showing that
    /// value again would hide what the repeat says.
    static func extensionViews(_ certificate: Certificate) -> [ExtensionView] {
        var seen = Set<OID>()
        return certificate.extensions.map { ext in
            let repeated = !seen.insert(ext.oid).inserted
            let known = repeated ? nil : KnownExtension.allCases.first { $0.oid == ext.oid }
            var (text, json) = known.map { decode($0, certificate, ext) } ?? unknown(ext)
            var name = known.map { String(describing: $0) } ?? undecodedNames[ext.oid] ?? "unknown"
            if repeated {
                let first = KnownExtension.allCases.first { $0.oid == ext.oid }.map { String(describing: $0) } ?? name
                name = "\(first) (repeated)"
                text = ["repeated extension (RFC 5280 4.2 allows each extension once): " + (text.first ?? "")]
            }
            return ExtensionView(name: name, oid: ext.oid.description, critical: ext.isCritical, decoded: known != nil,
                                 text: text, json: json)
        }
    }

    /// Names of extensions CertPath recognises by OID but does not decode.
    private static let undecodedNames: [OID: String] = [
        KnownOID.freshestCRL: "freshestCRL", KnownOID.subjectInfoAccess: "subjectInfoAccess",
        "1.3.6.1.4.1.11129.2.4.2": "signedCertificateTimestampList", "1.3.6.1.4.1.11129.2.4.3": "precertificatePoison",
        "2.5.29.9": "subjectDirectoryAttributes",
        "2.5.29.16": "privateKeyUsagePeriod",
    ]

    private static func unknown(_ ext: Extension) -> ([String], JSON) {
        let hex = Output.hex(ext.value)
        let shown = hex.count > 96 ? String(hex.prefix(96)) + "… (\(ext.value.count) bytes)" : hex
        return (["not decoded by CertPath: \(shown)"], .object([("der", .string(hex))]))
    }

    private static func names(_ list: [GeneralName]?) -> [String] { (list ?? []).map(\.description) }

    private static let accessMethods: [OID: String] = ["1.3.6.1.5.5.7.48.1": "OCSP", "1.3.6.1.5.5.7.48.2": "caIssuers"]

    private static let reasonNames: [(ReasonFlags, String)] = [
        (.unused, "unused"), (.keyCompromise, "keyCompromise"), (.cACompromise, "cACompromise"),
        (.affiliationChanged, "affiliationChanged"), (.superseded, "superseded"),
        (.cessationOfOperation, "cessationOfOperation"), (.certificateHold, "certificateHold"),
        (.privilegeWithdrawn, "privilegeWithdrawn"), (.aACompromise, "aACompromise"),
    ]

    /// Decodes a known extension from the certificate's parsed fields (parsing already validated it).
    private static func decode(_ known: KnownExtension, _ c: Certificate, _ ext: Extension) -> ([String], JSON) {
        switch known {
        case .basicConstraints:
            let value = c.basicConstraints
            let isCA = value?.isCertificateAuthority ?? false
            let length = value?.pathLenConstraint
            return (["cA: \(isCA ? "TRUE" : "FALSE")" + (length.map { ", pathLenConstraint: \($0)" } ?? "")],
                    .object([("cA", .bool(isCA)), ("pathLenConstraint", .optional(length))]))
        case .keyUsage:
            let usages = KeyUsage.names.filter { (c.keyUsage ?? []).contains($0.0) }.map(\.1)
            return ([usages.joined(separator: ", ")], .object([("usages", .strings(usages))]))
        case .extKeyUsage:
            let usages = (c.extendedKeyUsage?.usages ?? []).map(ExtendedKeyUsage.name(of:))
            return ([usages.joined(separator: ", ")], .object([("usages", .strings(usages))]))
        case .subjectAltName:
            let list = names(c.subjectAlternativeNames)
            return (list, .object([("names", .strings(list))]))
        case .issuerAltName:
            let list = names(c.issuerAlternativeNames)
            return (list, .object([("names", .strings(list))]))
        case .nameConstraints:
            let permitted = c.nameConstraints?.permittedSubtrees.map { $0.map(\.base.description) }
            let excluded = c.nameConstraints?.excludedSubtrees.map { $0.map(\.base.description) }
            var lines: [String] = []
            if let permitted { lines += ["permitted:"] + permitted.map { "  " + $0 } }
            if let excluded { lines += ["excluded:"] + excluded.map { "  " + $0 } }
            return (lines, .object([("permitted", permitted.map(JSON.strings) ?? .null),
                                    ("excluded", excluded.map(JSON.strings) ?? .null)]))
        case .authorityKeyIdentifier:
            let aki = c.authorityKeyIdentifier
            let keyID = aki?.keyIdentifier.map { Output.hex($0, separator: ":") }
            let issuer = aki?.authorityCertIssuer.map { names($0) }
            let serial = aki?.authorityCertSerialNumber.map { Output.hex($0) }
            var lines: [String] = []
            if let keyID { lines.append("keyIdentifier: \(keyID)") }
            if let issuer { lines.append("authorityCertIssuer: \(issuer.joined(separator: ", "))") }
            if let serial { lines.append("authorityCertSerialNumber: \(serial)") }
            return (lines, .object([("keyIdentifier", .optional(keyID)), ("authorityCertIssuer", issuer.map(JSON.strings) ?? .null),
                                    ("authorityCertSerialNumber", .optional(serial))]))
        case .subjectKeyIdentifier:
            let keyID = Output.hex(c.subjectKeyIdentifier ?? [], separator: ":")
            return (["keyIdentifier: \(keyID)"], .object([("keyIdentifier", .string(keyID))]))
        case .certificatePolicies:
            var lines: [String] = []
            var entries: [JSON] = []
            for policy in c.certificatePolicies ?? [] {
                let qualifiers = policy.policyQualifiers.map(policyQualifiers) ?? []
                let name = policy.policyIdentifier == KnownOID.anyPolicy ? " (anyPolicy)" : ""
                lines.append("\(policy.policyIdentifier)\(name)")
                lines += qualifiers.map { "  " + $0 }
                entries.append(.object([("oid", .string(policy.policyIdentifier.description)), ("qualifiers", .strings(qualifiers))]))
            }
            return (lines, .object([("policies", .array(entries))]))
        case .policyMappings:
            let mappings = c.policyMappings ?? []
            return (mappings.map { "\($0.issuerDomainPolicy) -> \($0.subjectDomainPolicy)" },
                    .object([("mappings", .array(mappings.map {
                        .object([("issuerDomainPolicy", .string($0.issuerDomainPolicy.description)),
                                 ("subjectDomainPolicy", .string($0.subjectDomainPolicy.description))])
                    }))]))
        case .policyConstraints:
            let require = c.policyConstraints?.requireExplicitPolicy
            let inhibit = c.policyConstraints?.inhibitPolicyMapping
            var lines: [String] = []
            if let require { lines.append("requireExplicitPolicy: \(require)") }
            if let inhibit { lines.append("inhibitPolicyMapping: \(inhibit)") }
            return (lines, .object([("requireExplicitPolicy", .optional(require)), ("inhibitPolicyMapping", .optional(inhibit))]))
        case .inhibitAnyPolicy:
            let skip = c.inhibitAnyPolicy ?? 0
            return (["skipCerts: \(skip)"], .object([("skipCerts", .int(skip))]))
        case .cRLDistributionPoints:
            var lines: [String] = []
            var points: [JSON] = []
            for point in c.cRLDistributionPoints ?? [] {
                var members: [(String, JSON)] = []
                switch point.name {
                case .fullName(let list):
                    lines += list.map { "fullName: \($0)" }
                    members.append(("fullName", .strings(list.map(\.description))))
                case .nameRelativeToCRLIssuer(let attributes):
                    let text = attributes.map { "\($0.type)=\($0.stringValue ?? "#" + Output.hex($0.encodedValue))" }.joined(separator: "+")
                    lines.append("nameRelativeToCRLIssuer: \(text)")
                    members.append(("nameRelativeToCRLIssuer", .string(text)))
                case nil:
                    break
                }
                if let reasons = point.reasons {
                    let list = reasonNames.filter { reasons.contains($0.0) }.map(\.1)
                    lines.append("reasons: \(list.joined(separator: ", "))")
                    members.append(("reasons", .strings(list)))
                }
                if let issuer = point.cRLIssuer {
                    lines.append("cRLIssuer: \(names(issuer).joined(separator: ", "))")
                    members.append(("cRLIssuer", .strings(names(issuer))))
                }
                points.append(.object(members))
            }
            return (lines, .object([("distributionPoints", .array(points))]))
        case .authorityInfoAccess:
            let descriptions = c.authorityInformationAccess ?? []
            let method = { (oid: OID) in accessMethods[oid] ?? oid.description }
            return (descriptions.map { "\(method($0.accessMethod)): \($0.accessLocation)" },
                    .object([("accessDescriptions", .array(descriptions.map {
                        .object([("method", .string(method($0.accessMethod))), ("location", .string($0.accessLocation.description))])
                    }))]))
        case .ocspNoCheck:
            return (["NULL: this OCSP responder's own revocation status is not checked (RFC 6960 4.2.2.2.1)"], .object([]))
        case .tlsFeature:
            let features = c.tlsFeatures ?? []
            let names = features.map { tlsFeatureNames[$0] ?? String($0) }
            return ([names.isEmpty ? "(no features)" : names.joined(separator: ", ")],
                    .object([("features", .array(features.map { .int(Int($0)) }))]))
        }
    }

    /// The TLS ExtensionTypes a TLS feature extension usually lists (RFC 7633), by name and number.
    private static let tlsFeatureNames: [UInt16: String] = [5: "status_request (5, must-staple)", 17: "status_request_v2 (17)"]

    /// The policy qualifiers in words: `CPS: <uri>`, `user notice: <text>`, or the qualifier's OID.
    /// Qualifiers were checked for structure when the certificate was parsed; anything unexpected
    /// here is shown by OID rather than refused.
    private static func policyQualifiers(_ encoded: ArraySlice<UInt8>) -> [String] {
        var out: [String] = []
        do throws(DERError) {
            try DERReader.parse(encoded, .sequence, "policyQualifiers") { (list: inout DERReader) throws(DERError) in
                while !list.isAtEnd {
                    try list.sequence("PolicyQualifierInfo") { (q: inout DERReader) throws(DERError) in
                        let id = try q.readOID("policyQualifierId")
                        let value = try q.readElement("qualifier")
                        switch id.description {
                        case "1.3.6.1.5.5.7.2.1":
                            out.append("CPS: \(DERString.decode(q.slice(value), tag: value.tag) ?? "(not a string)")")
                        case "1.3.6.1.5.5.7.2.2":
                            out.append("user notice: \(userNotice(q, value))")
                        default:
                            out.append("qualifier \(id)")
                        }
                    }
                }
            }
        } catch {
            out.append("(qualifiers not decoded: \(error))")
        }
        return out
    }

    /// The explicitText of a UserNotice (RFC 5280 4.2.1.4), or a note that it only has a noticeRef.
    private static func userNotice(_ reader: DERReader, _ element: DERElement) -> String {
        guard element.tag == .sequence, var notice = try? reader.contents(of: element, "UserNotice") else { return "(not decoded)" }
        var text: String? = nil
        var hasReference = false
        while !notice.isAtEnd, let item = try? notice.readElement("UserNotice") {
            if item.tag == .sequence { hasReference = true } else { text = DERString.decode(notice.slice(item), tag: item.tag) }
        }
        return text.map { "\"\($0)\"" } ?? (hasReference ? "(noticeRef only)" : "(empty)")
    }
}
