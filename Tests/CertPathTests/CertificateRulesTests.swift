@testable import CertPath
import CertPathDER
import CertPathX509
import Foundation
import Testing

/// The rules table (``ProfileRule``, docs/RULES.md), row by row: for each rule a chain whose one
/// certificate breaks exactly that rule (real signatures), checked against every profile. The
/// certificate's table findings are exactly that rule where its profile and position columns say
/// it applies, and nothing where they do not; a full evaluation refuses the path with
/// ``ValidationFailure/profileViolation(_:_:)`` naming the rule exactly where it applies, and
/// trusts it everywhere else.
@Suite("Rules table: one certificate per row")
struct CertificateRulesTests {
    /// One row's test: which certificate breaks the rule and how.
    struct Row: CustomTestStringConvertible, Sendable {
        let rule: ProfileRule
        let position: CertificatePosition
        /// Other rules the change necessarily breaks too (expected exactly where they apply).
        var companions: [ProfileRule] = []
        /// Whether the path is validated for any purpose instead of as the TLS server `leaf.test`
        /// (the change touches what TLS checks).
        var anyPurpose = false
        /// Whether only the table is checked (the change makes the path unbuildable: an empty issuer).
        var tableOnly = false
        let change: @Sendable (inout CertificateSpec) -> Void

        var testDescription: String { "\(rule.name) at the \(position.rawValue) (\(rule.clause))" }
    }

    static func dns(_ name: String) -> [UInt8] { D.ctx(2, Array(name.utf8)) }
    static let leafSAN = D.ext(KnownOID.subjectAltName, D.seq(dns("leaf.test")))

    /// Replaces the extension of `oid` in `spec` (or adds it).
    static func replace(_ spec: inout CertificateSpec, _ oid: OID, with extensions: [UInt8]...) {
        let encoded = D.oid(oid)
        spec.extensions.removeAll { $0.count > 2 + encoded.count && Array($0[2..<(2 + encoded.count)]) == encoded }
        spec.extensions += extensions
    }

    static let rows: [Row] = [
        Row(rule: .signatureAlgorithmMismatch, position: .endEntity) { $0.innerAlgorithm = D.ecdsaSHA256 },
        Row(rule: .uniqueIdentifierInVersion1, position: .endEntity, companions: [.notVersion3, .uniqueIdentifierPresent], anyPurpose: true) {
            $0.version = []; $0.hasExtensions = false; $0.uniqueIDs = D.ctx(1, [0x00, 0xAB])
        },
        Row(rule: .extensionsBeforeVersion3, position: .endEntity, companions: [.notVersion3]) { $0.version = [] },
        Row(rule: .duplicateExtension, position: .endEntity) { $0.extensions.append(D.ext(KnownOID.extKeyUsage, D.seq(D.oid(KnownOID.serverAuth)))) },
        Row(rule: .pathLengthConstraintWithoutCA, position: .endEntity) { $0.extensions.append(D.ext(KnownOID.basicConstraints, D.seq(D.int(0)))) },
        Row(rule: .keyUsageWithoutBits, position: .endEntity, anyPurpose: true) { replace(&$0, KnownOID.keyUsage, with: D.ext(KnownOID.keyUsage, critical: true, D.bits([]))) },
        Row(rule: .keyUsageUndefinedBits, position: .endEntity) {
            replace(&$0, KnownOID.keyUsage, with: D.ext(KnownOID.keyUsage, critical: true, D.bits([0x80, 0x40], unused: 6)))
        },
        Row(rule: .duplicatePolicyIdentifier, position: .endEntity) {
            $0.extensions.append(D.ext(KnownOID.certificatePolicies, D.seq(D.seq(D.oid("1.2.3")), D.seq(D.oid("1.2.3")))))
        },
        Row(rule: .emptyPolicyConstraints, position: .intermediate) { $0.extensions.append(D.ext(KnownOID.policyConstraints, critical: true, D.seq())) },
        Row(rule: .emptyNameConstraints, position: .intermediate) { $0.extensions.append(D.ext(KnownOID.nameConstraints, critical: true, D.seq())) },
        Row(rule: .authorityKeyIdentifierIssuerWithoutSerial, position: .endEntity) {
            $0.keyIdentifiers = false
            $0.extensions += [D.ext(KnownOID.subjectKeyIdentifier, D.octets([1, 2, 3])),
                              D.ext(KnownOID.authorityKeyIdentifier, D.seq(D.ctx(0, [9]), D.ctx(2, [0x01])))]
        },
        Row(rule: .emptyIssuer, position: .endEntity, tableOnly: true) { $0.issuer = D.seq() },
        Row(rule: .emptySubject, position: .endEntity) { $0.subject = D.seq() },
        Row(rule: .basicConstraintsNotCritical, position: .intermediate) {
            replace(&$0, KnownOID.basicConstraints, with: D.ext(KnownOID.basicConstraints, D.seq(D.bool(true))))
        },
        Row(rule: .missingBasicConstraints, position: .anchor, companions: [.keyCertSignWithoutCA]) {
            replace(&$0, KnownOID.basicConstraints)
        },
        Row(rule: .keyCertSignWithoutCA, position: .endEntity) {
            replace(&$0, KnownOID.keyUsage, with: D.ext(KnownOID.keyUsage, critical: true, D.bits([0x84], unused: 2)))
        },
        Row(rule: .missingKeyUsage, position: .intermediate) { replace(&$0, KnownOID.keyUsage) },
        Row(rule: .missingAuthorityKeyIdentifier, position: .endEntity) {
            $0.keyIdentifiers = false
            $0.extensions.append(D.ext(KnownOID.subjectKeyIdentifier, D.octets([1, 2, 3])))
        },
        Row(rule: .authorityKeyIdentifierWithoutKeyIdentifier, position: .endEntity) {
            $0.keyIdentifiers = false
            $0.extensions += [D.ext(KnownOID.subjectKeyIdentifier, D.octets([1, 2, 3])),
                              D.ext(KnownOID.authorityKeyIdentifier,
                                    D.seq(D.ctx(1, constructed: true, D.ctx(4, constructed: true, D.cn("Test Intermediate"))), D.ctx(2, [0x01])))]
        },
        Row(rule: .authorityKeyIdentifierCritical, position: .endEntity) {
            $0.keyIdentifiers = false
            $0.extensions += [D.ext(KnownOID.subjectKeyIdentifier, D.octets([1, 2, 3])),
                              D.ext(KnownOID.authorityKeyIdentifier, critical: true, D.seq(D.ctx(0, [9])))]
        },
        Row(rule: .missingSubjectKeyIdentifier, position: .intermediate) {
            $0.keyIdentifiers = false
            $0.extensions.append(D.ext(KnownOID.authorityKeyIdentifier, D.seq(D.ctx(0, [9]))))
        },
        Row(rule: .subjectKeyIdentifierCritical, position: .endEntity) {
            $0.keyIdentifiers = false
            $0.extensions += [D.ext(KnownOID.subjectKeyIdentifier, critical: true, D.octets([1, 2, 3])),
                              D.ext(KnownOID.authorityKeyIdentifier, D.seq(D.ctx(0, [9])))]
        },
        Row(rule: .authorityInformationAccessCritical, position: .endEntity) {
            $0.extensions.append(D.ext(KnownOID.authorityInfoAccess, critical: true,
                                       D.seq(D.seq(D.oid("1.3.6.1.5.5.7.48.2"), D.ctx(6, Array("http://ca.test/ca.crt".utf8))))))
        },
        Row(rule: .nameConstraintsInEndEntity, position: .endEntity) {
            $0.extensions.append(D.ext(KnownOID.nameConstraints, critical: true, D.seq(D.ctx(0, constructed: true, D.seq(dns("leaf.test"))))))
        },
        Row(rule: .nameConstraintsNotCritical, position: .intermediate) {
            $0.extensions.append(D.ext(KnownOID.nameConstraints, D.seq(D.ctx(0, constructed: true, D.seq(dns("leaf.test"))))))
        },
        Row(rule: .policyConstraintsNotCritical, position: .intermediate) {
            $0.extensions.append(D.ext(KnownOID.policyConstraints, D.seq(D.ctx(0, [0x05]))))
        },
        Row(rule: .inhibitAnyPolicyNotCritical, position: .intermediate) { $0.extensions.append(D.ext(KnownOID.inhibitAnyPolicy, D.int(5))) },
        Row(rule: .uninterpretedPolicyQualifier, position: .endEntity) {
            $0.extensions.append(D.ext(KnownOID.certificatePolicies, critical: true,
                                       D.seq(D.seq(D.oid(KnownOID.anyPolicy), D.seq(D.seq(D.oid("1.2.3.4"), D.null))))))
        },
        Row(rule: .policyMappingWithAnyPolicy, position: .intermediate) {
            $0.extensions.append(D.ext(KnownOID.policyMappings, critical: true, D.seq(D.seq(D.oid(KnownOID.anyPolicy), D.oid("1.2.3.4")))))
        },
        Row(rule: .invalidDNSNameInSubjectAltName, position: .endEntity) {
            replace(&$0, KnownOID.subjectAltName, with: D.ext(KnownOID.subjectAltName, D.seq(dns("leaf.test"), dns("bad_name.test"))))
        },
        Row(rule: .invalidRFC822NameInSubjectAltName, position: .endEntity) {
            replace(&$0, KnownOID.subjectAltName, with: D.ext(KnownOID.subjectAltName, D.seq(dns("leaf.test"), D.ctx(1, Array("a@@b.test".utf8)))))
        },
        Row(rule: .invalidURIInSubjectAltName, position: .endEntity) {
            replace(&$0, KnownOID.subjectAltName, with: D.ext(KnownOID.subjectAltName, D.seq(dns("leaf.test"), D.ctx(6, Array("leaf.test/path".utf8)))))
        },
        Row(rule: .invalidSmtpUTF8MailboxInSubjectAltName, position: .endEntity) {
            // An all-ASCII Local-part belongs in an rfc822Name (RFC 9598 3).
            let mailbox = D.ctx(0, constructed: true, D.oid(KnownOID.smtpUTF8Mailbox) + D.ctx(0, constructed: true, D.utf8("abc@leaf.test")))
            replace(&$0, KnownOID.subjectAltName, with: D.ext(KnownOID.subjectAltName, D.seq(dns("leaf.test"), mailbox)))
        },
        Row(rule: .invalidSerialNumber, position: .endEntity) { $0.serial = D.int(0) },
        Row(rule: .generalizedTimeBefore2050, position: .endEntity) {
            $0.validity = D.seq(D.tlv(.generalizedTime, Array("20250101000000Z".utf8)), D.tlv(.utcTime, Array("450101000000Z".utf8)))
        },
        Row(rule: .subjectAltNameCriticalWithSubject, position: .endEntity) {
            replace(&$0, KnownOID.subjectAltName, with: D.ext(KnownOID.subjectAltName, critical: true, D.seq(dns("leaf.test"))))
        },
        Row(rule: .notVersion3, position: .endEntity, anyPurpose: true) { $0.version = []; $0.hasExtensions = false },
        Row(rule: .certificateAuthorityAsEndEntity, position: .endEntity) {
            $0.extensions.append(D.ext(KnownOID.basicConstraints, critical: true, D.seq(D.bool(true))))
        },
        Row(rule: .invalidRootAuthorityKeyIdentifier, position: .anchor) {
            $0.keyIdentifiers = false
            $0.extensions += [D.ext(KnownOID.subjectKeyIdentifier, D.octets([1, 2, 3])),
                              D.ext(KnownOID.authorityKeyIdentifier, D.seq(D.ctx(0, [4, 5, 6])))]
        },
        Row(rule: .uniqueIdentifierPresent, position: .endEntity) { $0.uniqueIDs = D.ctx(1, [0x00, 0xAB]) },
    ]

    /// A chain root → intermediate → leaf.test with `change` applied to the certificate at `position`.
    static func chain(changing position: CertificatePosition? = nil, _ change: (inout CertificateSpec) -> Void = { _ in })
        throws -> (leaf: Certificate, intermediate: Certificate, root: Certificate) {
        var rootSpec = CertificateSpec.ca("Test Root")
        var intermediateSpec = CertificateSpec.ca("Test Intermediate", pathLength: 0)
        var leafSpec = CertificateSpec.server("leaf.test")
        switch position {
        case .anchor?: change(&rootSpec)
        case .intermediate?: change(&intermediateSpec)
        case .endEntity?: change(&leafSpec)
        case nil: break
        }
        let root = try SignedCertificates.root(rootSpec)
        let intermediate = try SignedCertificates.intermediate(intermediateSpec, by: root)
        let leaf = try SignedCertificates.issue(leafSpec, subjectKey: TestKey(), issuer: intermediate)
        return (leaf, intermediate.certificate, root.certificate)
    }

    static let profiles: [CertificateProfile] = [.webPKI, .interoperable, .rfc5280, .pathValidation]

    static func evaluate(_ chain: (leaf: Certificate, intermediate: Certificate, root: Certificate), profile: CertificateProfile,
                         anyPurpose: Bool = false) throws -> TrustResult {
        var policy = anyPurpose ? ValidationPolicy() : try ValidationPolicy.server(hostname: "leaf.test")
        policy.profile = profile
        policy.anchorEnforcement = .full
        return TrustEvaluation(leaf: chain.leaf, intermediates: [chain.intermediate], trustStore: TrustStore(anchors: [chain.root]),
                               policy: policy, validationTime: SignedCertificates.time).evaluate()
    }

    @Test("A conforming chain breaks no rule, at any position, under any profile, and is trusted")
    func conformingChain() throws {
        let chain = try Self.chain()
        for profile in Self.profiles {
            #expect(CertificateRules.violations(chain.leaf, at: .endEntity, profile: profile) == [])
            #expect(CertificateRules.violations(chain.intermediate, at: .intermediate, profile: profile) == [])
            #expect(CertificateRules.violations(chain.root, at: .anchor, profile: profile) == [])
            let result = try Self.evaluate(chain, profile: profile)
            #expect(result.isTrusted, "\(profile): \(result.primaryFailure.map(Diagnostics.describe) ?? "")")
        }
    }

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let chain = try Self.chain(changing: row.position, row.change)
        let certificate: Certificate
        switch row.position {
        case .endEntity: certificate = chain.leaf
        case .intermediate: certificate = chain.intermediate
        case .anchor: certificate = chain.root
        }
        for profile in Self.profiles {
            let expected = ([row.rule] + row.companions).filter { $0.applies(in: profile, at: row.position) }
            let found = CertificateRules.violations(certificate, at: row.position, profile: profile)
            #expect(Set(found) == Set(expected), "\(profile): found \(found), expected \(expected)")
            guard !row.tableOnly else { continue }
            let result = try Self.evaluate(chain, profile: profile, anyPurpose: row.anyPurpose)
            let violations = Set(result.trustResultFailures.compactMap { failure -> ProfileRule? in
                if case .profileViolation(let c, let rule) = failure, c == certificate { return rule }
                return nil
            })
            #expect(violations == Set(expected), "\(profile): \(result.trustResultFailures.map(Diagnostics.describe))")
            // Where the profile reports the rule instead, the result lists it as a finding.
            let findings = result.trustedPath?.findings ?? result.report?.findings ?? []
            let reported = row.position != .anchor && row.rule.isReportedAsFinding(in: profile, at: row.position)
            #expect(findings.contains(ProfileFinding(certificate: certificate, position: row.position, rule: row.rule)) == reported,
                    "\(profile): findings \(findings)")
            if expected.isEmpty {
                // Nothing else refuses the path, except what the change breaks beyond the table
                // (a malformed name constraint also fails the names below it).
                #expect(result.isTrusted, "\(profile): \(result.primaryFailure.map(Diagnostics.describe) ?? "")")
            }
        }
    }

    @Test("malformedNameConstraints: refused under every profile, the CA and each certificate below it")
    func malformedNameConstraints() throws {
        let chain = try Self.chain(changing: .intermediate) {
            $0.extensions.append(D.ext(KnownOID.nameConstraints, critical: true, D.seq(D.ctx(0, constructed: true, D.seq(Self.dns(".leaf.test"))))))
        }
        for profile in Self.profiles {
            #expect(CertificateRules.violations(chain.intermediate, at: .intermediate, profile: profile) == [.malformedNameConstraints])
            let failures = try Self.evaluate(chain, profile: profile).trustResultFailures
            #expect(failures.contains(.profileViolation(chain.intermediate, .malformedNameConstraints)))
            #expect(failures.contains { if case .nameConstraintViolation(let c, let v) = $0 { return c == chain.leaf && v.reason == .malformedConstraint(GeneralSubtree(base: .dNSName(Array(".leaf.test".utf8)[...]))) }; return false })
        }
    }

    @Test("commonNameNotInSubjectAltName: a server's commonName must be a subjectAltName value, under the Web PKI profile only")
    func commonNameRule() throws {
        let chain = try Self.chain(changing: .endEntity) { $0.subject = D.cn("API server") }
        for profile in Self.profiles {
            let result = try Self.evaluate(chain, profile: profile)
            if profile == .webPKI {
                #expect(result.primaryFailure == .profileViolation(chain.leaf, .commonNameNotInSubjectAltName))
            } else {
                #expect(result.isTrusted, "\(profile): \(result.primaryFailure.map(Diagnostics.describe) ?? "")")
            }
        }
        // Automatic: the caller's anchors are a private PKI, held to the interoperable profile (no commonName rule).
        #expect(try Self.evaluate(chain, profile: .automatic).isTrusted)
    }

    @Test("Every row is tested here (rows table, or a dedicated test for the purpose and strict extended key usage rows)")
    func everyRowCovered() {
        let dedicated: Set<ProfileRule> = [.malformedNameConstraints, .commonNameNotInSubjectAltName, .extendedKeyUsageMissing,
                                           .extendedKeyUsageAnyPurpose, .extendedKeyUsageIncompatiblePurpose, .extendedKeyUsageCritical,
                                           .extendedKeyUsageInRoot]
        let covered = Set(Self.rows.map(\.rule)).union(dedicated)
        #expect(Set(ProfileRule.allCases).subtracting(covered).isEmpty, "untested rows: \(Set(ProfileRule.allCases).subtracting(covered))")
    }

    @Test("docs/RULES.md is the table: its rules section is generated from ProfileRule, row for row, in order")
    func documentedTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = root.appendingPathComponent("docs/RULES.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let generated = RulesTableDocument.table()
        guard let range = RulesTableDocument.tableRange(in: text) else {
            Issue.record("docs/RULES.md has no line starting \(RulesTableDocument.header)")
            return
        }
        if ProcessInfo.processInfo.environment["CERTPATH_WRITE_RULES"] == "1" {
            try text.replacingCharacters(in: range, with: generated).write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let documented = String(text[range])
        #expect(documented == generated, """
            docs/RULES.md's table differs from ProfileRule's rows; regenerate it with \
            CERTPATH_WRITE_RULES=1 swift test --skip-build --filter CertificateRulesTests/documentedTable
            first differing line: \(RulesTableDocument.firstDifference(documented, generated) ?? "(none)")
            """)
    }

    @Test("The rules table has one row per rule, in declaration order, and a finding exactly where the strict reading fails and the profile does not")
    func tableRows() {
        #expect(ProfileRule.table.map(\.rule) == ProfileRule.allCases)
        for row in ProfileRule.table {
            for profile in [CertificateProfile.webPKI, .interoperable, .pathValidation] {
                #expect((row.treatment(profile) == .finding) == (row.rfc5280 == .fail && row.treatment(profile) != .fail), "\(row.rule) \(profile)")
            }
            #expect(row.rfc5280 != .finding, "\(row.rule)")
        }
    }

    @Test("Every row validation finds from the certificate alone has one check, in table order")
    func oneCheckPerRow() throws {
        let checked = CertificateRuleChecks.checked
        // Decided elsewhere: the anchor's AKI form (by position), commonName and strict EKU (purpose
        // checks), and a policy qualifier parsing recorded (critical certificatePolicies only).
        let elsewhere: Set<ProfileRule> = [.invalidRootAuthorityKeyIdentifier, .commonNameNotInSubjectAltName, .extendedKeyUsageMissing,
                                           .extendedKeyUsageAnyPurpose, .extendedKeyUsageIncompatiblePurpose, .extendedKeyUsageCritical,
                                           .extendedKeyUsageInRoot, .uninterpretedPolicyQualifier]
        let validationRows = ProfileRule.table.filter { $0.foundBy == .validation && !elsewhere.contains($0.rule) }.map(\.rule)
        #expect(checked == validationRows)
        // Each listed row reaches its own check (a row missing from the dispatch answers nil).
        let leaf = try #require(try TestCertificates.all("sample-pki/rsa/server.pem").first)
        for rule in checked { #expect(CertificateRuleChecks.breaks(rule, leaf.fields, leaf.der[...]) != nil, "\(rule)") }
        for rule in ProfileRule.allCases where !checked.contains(rule) {
            #expect(CertificateRuleChecks.breaks(rule, leaf.fields, leaf.der[...]) == nil, "\(rule)")
        }
    }

    @Test("The generator finds the table and reports a changed row")
    func generatorDetectsDifference() throws {
        let generated = RulesTableDocument.table()
        let page = "intro\n\n" + generated + "\n\nafter\n"
        let range = try #require(RulesTableDocument.tableRange(in: page))
        #expect(String(page[range]) == generated)
        let stale = page.replacingOccurrences(of: "| `duplicateExtension` | RFC 5280 4.2 |", with: "| `duplicateExtension` | RFC 5280 4.1 |")
        let staleRange = try #require(RulesTableDocument.tableRange(in: stale))
        #expect(RulesTableDocument.firstDifference(String(stale[staleRange]), generated)?.contains("duplicateExtension") == true)
    }
}

/// The Markdown rows of docs/RULES.md, as the table says them: the generator of the page's rules
/// section (``table()``), which `documentedTable` compares with the page and rewrites on request.
enum RulesTableDocument {
    static let header = "| rule | clause | binds | found by | webpki | interoperable | rfc5280 | path-validation |"

    /// The rules section: header, separator, one row per ``ProfileRule`` in declaration order.
    static func table() -> String {
        ([header, "|---|---|---|---|---|---|---|---|"] + ProfileRule.allCases.map(line)).joined(separator: "\n")
    }

    /// The range of the table in `page`: from its header line through the last table line after it.
    static func tableRange(in page: String) -> Range<String.Index>? {
        guard let start = page.range(of: header + "\n")?.lowerBound else { return nil }
        var end = start
        var cursor = start
        while cursor < page.endIndex, page[cursor] == "|" {
            let lineEnd = page[cursor...].firstIndex(of: "\n") ?? page.endIndex
            end = lineEnd
            cursor = lineEnd < page.endIndex ? page.index(after: lineEnd) : page.endIndex
        }
        return start..<end
    }

    /// The first line of `documented` that differs from `generated`'s, or its first missing line.
    static func firstDifference(_ documented: String, _ generated: String) -> String? {
        let a = documented.split(separator: "\n", omittingEmptySubsequences: false), b = generated.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(a.count, b.count) where i >= a.count || i >= b.count || a[i] != b[i] {
            return i < a.count ? "docs: \(a[i]) / generated: \(i < b.count ? String(b[i]) : "(nothing)")" : "missing: \(b[i])"
        }
        return nil
    }

    static func line(_ rule: ProfileRule) -> String {
        func positions(_ list: [CertificatePosition]) -> String {
            if list.count == CertificatePosition.allCases.count { return "all" }
            return list.map { $0 == .endEntity ? "EE" : ($0 == .intermediate ? "CA" : "anchor") }.joined(separator: ", ")
        }
        func cell(_ profile: CertificateProfile) -> String {
            if ProfileRule.strictExtendedKeyUsageRules & rule.bit != 0 { return "strict EKU" }
            if rule == .commonNameNotInSubjectAltName { return profile == .webPKI ? "server" : "–" }
            let fails = rule.positions(in: profile)
            let reported = CertificatePosition.allCases.filter { rule.isReportedAsFinding(in: profile, at: $0) }
            switch (fails.isEmpty, reported.isEmpty) {
            case (true, true): return "–"
            case (false, true): return positions(fails)
            case (true, false): return "finding"
            case (false, false): return "\(positions(fails)); finding \(positions(reported))"
            }
        }
        let found = rule.isFoundWhileParsing ? "parsing" : "validation"
        return "| `\(rule.name)` | \(rule.clause) | \(rule.addressee.rawValue) | \(found) | \(cell(.webPKI)) | \(cell(.interoperable)) "
            + "| \(cell(.rfc5280)) | \(cell(.pathValidation)) |"
    }
}

extension TrustResult {
    /// Every failure of the result's path (the best attempt's when untrusted).
    var trustResultFailures: [ValidationFailure] {
        switch self {
        case .trusted(let path): return path.acceptedFailures
        case .untrusted(let report): return report.failures
        }
    }
}
