import CertPath

/// How `show` renders an OCSP response (RFC 6960 4.2.1), for people and as JSON (schemas in
/// docs/CLI.md), in the layout of ``CertificateView``.
///
/// A response is untrusted input: text from it (names) goes through `Output.safe` in human output,
/// long hex values are cut there (the JSON has them whole), and the lists a response can make long
/// (SingleResponses, extensions, certificates) are cut at ``listLimit`` entries, with the number
/// not listed.
enum OCSPView {
    /// The most SingleResponses, extensions or certificates listed per response.
    static let listLimit = 100

    /// The most hex digits of a value printed in human output (as for an undecoded certificate extension).
    static let hexLimit = 96

    /// `hex`, or its first ``hexLimit`` digits and `… (N bytes)`.
    static func shortHex(_ bytes: ArraySlice<UInt8>) -> String {
        let hex = Output.hex(bytes)
        return hex.count > hexLimit ? String(hex.prefix(hexLimit)) + "… (\(bytes.count) bytes)" : hex
    }

    /// `nonce` for id-pkix-ocsp-nonce, `unknown` for any other extension.
    static func extensionName(_ ext: Extension) -> String { ext.oid == OCSPOID.nonce ? "nonce" : "unknown" }

    /// `responderID` in words: `by name: CN=…` or `by key hash: 0f80…`.
    static func responder(_ id: OCSPResponderID) -> String {
        switch id {
        case .byName(let name): return "by name: \(Output.safe(name.isEmpty ? "(empty name)" : name.description))"
        case .byKeyHash(let hash): return "by key hash: \(Output.hex(hash))"
        }
    }

    /// certStatus in words: `good`, `unknown`, `revoked at T, reason keyCompromise` (reason only when given).
    static func status(_ status: OCSPCertStatus) -> String {
        switch status {
        case .good: return "good"
        case .unknown: return "unknown"
        case .revoked(let info): return "revoked at \(info.revocationTime)" + (info.revocationReason.map { ", reason \($0)" } ?? "")
        }
    }

    /// `… and N more (not listed)` after a cut list, or nothing.
    private static func notListed(_ count: Int, _ what: String) -> [String] {
        count > listLimit ? ["… and \(count - listLimit) more \(what) not listed"] : []
    }

    /// Extension lines: `nonce (1.3.6.1.5.5.7.48.1.2): 0410…`, `1.2.3 (critical): …`.
    private static func extensionLines(_ extensions: [Extension]) -> [String] {
        extensions.prefix(listLimit).map { ext in
            let name = extensionName(ext) == "unknown" ? ext.oid.description : "\(extensionName(ext)) (\(ext.oid))"
            return "\(name)\(ext.isCritical ? " (critical)" : ""): \(shortHex(ext.value))"
        } + notListed(extensions.count, "extensions")
    }

    /// Every field, one per line, for `show`.
    static func fullLines(_ response: OCSPResponse) -> [String] {
        var lines = ["response status:     \(response.responseStatus) (\(response.responseStatus.rawValue))"]
        guard let basic = response.basicResponse else {
            lines.append("response data:       none (RFC 6960 4.2.1: only a successful response carries one)")
            return lines
        }
        lines += [
            "response type:       basic (id-pkix-ocsp-basic)",
            "responder ID:        \(responder(basic.responderID))",
            "produced at:         \(basic.producedAt)",
            "signature algorithm: \(basic.signatureAlgorithm)",
        ]
        for defect in basic.defects.prefix(listLimit) { lines.append("defect:              \(defect)") }
        lines += notListed(basic.defects.count, "defects")
        lines.append("responses (\(basic.responses.count)):")
        for (index, single) in basic.responses.prefix(listLimit).enumerated() {
            let id = single.certID
            lines += [
                "  response \(index + 1):",
                "    serial:           \(shortHex(id.serialNumber))",
                "    hash algorithm:   \(id.hashAlgorithm)",
                "    issuer name hash: \(shortHex(id.issuerNameHash))",
                "    issuer key hash:  \(shortHex(id.issuerKeyHash))",
                "    status:           \(status(single.certStatus))",
                "    this update:      \(single.thisUpdate)",
                "    next update:      \(single.nextUpdate.map(\.description) ?? "none")",
            ]
            if !single.extensions.isEmpty {
                lines.append("    extensions:")
                lines += extensionLines(single.extensions).map { "      " + $0 }
            }
        }
        lines += notListed(basic.responses.count, "responses").map { "  " + $0 }
        if basic.extensions.isEmpty {
            lines.append("response extensions: none")
        } else {
            lines.append("response extensions:")
            lines += extensionLines(basic.extensions).map { "  " + $0 }
        }
        if basic.certificates.isEmpty {
            lines.append("certificates:        none")
        } else {
            // Brief: `certpath show` of the certificates themselves prints them in full.
            lines.append("certificates (\(basic.certificates.count)):")
            for (index, certificate) in basic.certificates.prefix(listLimit).enumerated() {
                lines += [
                    "  certificate \(index + 1):",
                    "    subject: \(Output.safe(CertificateView.subject(certificate)))",
                    "    issuer:  \(Output.safe(certificate.issuer.isEmpty ? "(empty issuer)" : certificate.issuer.description))",
                    "    serial:  \(certificate.serialNumberHex)",
                ]
            }
            lines += notListed(basic.certificates.count, "certificates").map { "  " + $0 }
        }
        return lines
    }

    /// The JSON of extensions: `{"oid", "name", "critical", "value": {"der": hex}}`.
    private static func extensionsJSON(_ extensions: [Extension]) -> JSON {
        .array(extensions.map { ext in
            .object([
                ("oid", .string(ext.oid.description)),
                ("name", .string(extensionName(ext))),
                ("critical", .bool(ext.isCritical)),
                ("value", .object([("der", .string(Output.hex(ext.value)))])),
            ])
        })
    }

    /// The full JSON object of a response (`show --json`); members always present, `null` or empty
    /// when the response is not successful.
    static func fullJSON(_ response: OCSPResponse) -> JSON {
        let basic = response.basicResponse
        let responderID: JSON
        switch basic?.responderID {
        case .byName(let name)?: responderID = .object([("byName", .string(name.description)), ("byKeyHash", .null)])
        case .byKeyHash(let hash)?: responderID = .object([("byName", .null), ("byKeyHash", .string(Output.hex(hash)))])
        case nil: responderID = .null
        }
        let responses = basic?.responses ?? [], certificates = basic?.certificates ?? [], extensions = basic?.extensions ?? []
        return .object([
            ("responseStatus", .string(response.responseStatus.description)),
            ("responseStatusCode", .int(Int(response.responseStatus.rawValue))),
            ("responderID", responderID),
            ("producedAt", .optional(basic?.producedAt.description)),
            ("signatureAlgorithm", .optional(basic?.signatureAlgorithm.description)),
            ("responses", .array(responses.prefix(listLimit).map { single in
                let id = single.certID
                var revocationTime: String? = nil, reason: String? = nil, status = "good"
                switch single.certStatus {
                case .good: break
                case .unknown: status = "unknown"
                case .revoked(let info):
                    status = "revoked"
                    revocationTime = info.revocationTime.description
                    reason = info.revocationReason?.description
                }
                return .object([
                    ("certID", .object([
                        ("hashAlgorithm", .string(id.hashAlgorithm.description)),
                        ("issuerNameHash", .string(Output.hex(id.issuerNameHash))),
                        ("issuerKeyHash", .string(Output.hex(id.issuerKeyHash))),
                        ("serial", .string(Output.hex(id.serialNumber))),
                    ])),
                    ("status", .string(status)),
                    ("revocationTime", .optional(revocationTime)),
                    ("revocationReason", .optional(reason)),
                    ("thisUpdate", .string(single.thisUpdate.description)),
                    ("nextUpdate", .optional(single.nextUpdate?.description)),
                    ("extensions", extensionsJSON(single.extensions)),
                ])
            })),
            ("responsesNotListed", .int(max(0, responses.count - listLimit))),
            ("extensions", extensionsJSON(extensions)),
            ("defects", .strings((basic?.defects ?? []).map(\.description))),
            ("certificates", .array(certificates.prefix(listLimit).map { certificate in
                .object([
                    ("subject", .string(certificate.subject.description)),
                    ("issuer", .string(certificate.issuer.description)),
                    ("serial", .string(certificate.serialNumberHex)),
                ])
            })),
            ("certificatesNotListed", .int(max(0, certificates.count - listLimit))),
        ])
    }
}
