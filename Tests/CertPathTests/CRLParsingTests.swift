import Testing

@testable import CertPath
import CertPathDER

/// Builders for CRLs, certificates and their parts as DER, for the CRL test suites. Signatures are
/// placeholders: these inputs exercise parsing and the RFC 5280 6.3 decisions, not signature checks
/// (the PKITS runs cover those end to end).
enum CRLFixture {
    static let sha256WithRSA: [UInt8] = der(.sequence) { $0.appendOID("1.2.840.113549.1.1.11"); $0.append(.null, contents: []) }
    static let ecdsaWithSHA256: [UInt8] = der(.sequence) { $0.appendOID("1.2.840.10045.4.3.2") }

    static func der(_ tag: DERTag, _ body: (inout DERWriter) -> Void) -> [UInt8] {
        var writer = DERWriter()
        writer.append(tag, body)
        return writer.bytes
    }

    static func der(_ tag: DERTag, contents: [UInt8]) -> [UInt8] {
        var writer = DERWriter()
        writer.append(tag, contents: contents)
        return writer.bytes
    }

    static func integer(_ value: Int64) -> [UInt8] {
        var writer = DERWriter()
        writer.appendInteger(value)
        return writer.bytes
    }

    static func utcTime(_ text: String) -> [UInt8] { der(.utcTime, contents: Array(text.utf8)) }
    static func generalizedTime(_ text: String) -> [UInt8] { der(.generalizedTime, contents: Array(text.utf8)) }

    /// A Name of single-attribute RDNs, UTF8String values (`[("2.5.4.10", "Org"), ("2.5.4.3", "CA")]`).
    static func name(_ rdns: [(OID, String)]) -> [UInt8] {
        der(.sequence) { sequence in
            for (type, value) in rdns {
                sequence.append(.set) { set in
                    set.append(.sequence) { atv in
                        atv.appendOID(type)
                        atv.append(.utf8String, contents: Array(value.utf8))
                    }
                }
            }
        }
    }

    /// `O=Test, CN=<cn>`.
    static func name(_ cn: String) -> [UInt8] { name([("2.5.4.10", "Test"), ("2.5.4.3", cn)]) }

    static func parsedName(_ cn: String) -> Name { try! Name(derEncoded: name(cn)) }

    /// One Extension.
    static func ext(_ oid: OID, critical: Bool = false, _ value: [UInt8]) -> [UInt8] {
        der(.sequence) { e in
            e.appendOID(oid)
            if critical { e.appendBoolean(true) }
            e.append(.octetString, contents: value)
        }
    }

    static func crlNumber(_ value: Int64, critical: Bool = false) -> [UInt8] {
        ext(CRLExtensionOID.cRLNumber, critical: critical, integer(value))
    }

    static func deltaIndicator(_ base: Int64) -> [UInt8] {
        ext(CRLExtensionOID.deltaCRLIndicator, critical: true, integer(base))
    }

    static func reasonCode(_ value: UInt8) -> [UInt8] {
        ext(CRLExtensionOID.reasonCode, der(.enumerated, contents: [value]))
    }

    static func directoryName(_ nameDER: [UInt8]) -> [UInt8] {
        der(.contextSpecific(4, constructed: true)) { $0.appendEncoded(nameDER) }
    }

    static func uri(_ text: String) -> [UInt8] { der(.contextSpecific(6), contents: Array(text.utf8)) }

    static func certificateIssuer(_ names: [[UInt8]]) -> [UInt8] {
        ext(CRLExtensionOID.certificateIssuer, critical: true, der(.sequence) { for name in names { $0.appendEncoded(name) } })
    }

    /// Contents of a ReasonFlags BIT STRING (named bit list: no trailing zero bits).
    static func reasonBits(_ flags: ReasonFlags) -> [UInt8] {
        var bits = (0..<9).map { flags.rawValue & (1 << $0) != 0 }
        while bits.last == false { bits.removeLast() }
        var bytes = [UInt8](repeating: 0, count: (bits.count + 7) / 8)
        for (index, bit) in bits.enumerated() where bit { bytes[index / 8] |= 0x80 >> UInt8(index % 8) }
        return [UInt8(bytes.count * 8 - bits.count)] + bytes
    }

    /// A DistributionPointName: `[0] fullName` or `[1] nameRelativeToCRLIssuer` (one `CN=<value>`).
    enum PointName {
        case full([[UInt8]])
        case relative(String)

        var encoded: [UInt8] {
            switch self {
            case .full(let names):
                return CRLFixture.der(.contextSpecific(0, constructed: true)) { for name in names { $0.appendEncoded(name) } }
            case .relative(let cn):
                return CRLFixture.der(.contextSpecific(1, constructed: true)) { set in
                    set.append(.sequence) { atv in
                        atv.appendOID("2.5.4.3")
                        atv.append(.utf8String, contents: Array(cn.utf8))
                    }
                }
            }
        }
    }

    /// One DistributionPoint of a cRLDistributionPoints extension.
    static func distributionPoint(_ name: PointName?, reasons: ReasonFlags? = nil, cRLIssuer: [[UInt8]]? = nil) -> [UInt8] {
        der(.sequence) { point in
            if let name { point.append(.contextSpecific(0, constructed: true)) { $0.appendEncoded(name.encoded) } }
            if let reasons { point.append(.contextSpecific(1), contents: reasonBits(reasons)) }
            if let cRLIssuer { point.append(.contextSpecific(2, constructed: true)) { for name in cRLIssuer { $0.appendEncoded(name) } } }
        }
    }

    /// An issuingDistributionPoint extension.
    static func issuingDistributionPoint(_ name: PointName? = nil, onlyUser: Bool = false, onlyCA: Bool = false,
                                         onlySomeReasons: ReasonFlags? = nil, indirect: Bool = false,
                                         onlyAttribute: Bool = false) -> [UInt8] {
        ext(CRLExtensionOID.issuingDistributionPoint, critical: true, der(.sequence) { idp in
            if let name { idp.append(.contextSpecific(0, constructed: true)) { $0.appendEncoded(name.encoded) } }
            if onlyUser { idp.append(.contextSpecific(1), contents: [0xFF]) }
            if onlyCA { idp.append(.contextSpecific(2), contents: [0xFF]) }
            if let onlySomeReasons { idp.append(.contextSpecific(3), contents: reasonBits(onlySomeReasons)) }
            if indirect { idp.append(.contextSpecific(4), contents: [0xFF]) }
            if onlyAttribute { idp.append(.contextSpecific(5), contents: [0xFF]) }
        })
    }

    /// One revokedCertificates entry.
    static func entry(serial: [UInt8], date: [UInt8] = utcTime("200101000000Z"), extensions: [[UInt8]]? = nil) -> [UInt8] {
        der(.sequence) { entry in
            entry.append(.integer, contents: serial)
            entry.appendEncoded(date)
            if let extensions { entry.append(.sequence) { for ext in extensions { $0.appendEncoded(ext) } } }
        }
    }

    /// A CRL; every field can be replaced by raw DER to break one rule.
    struct CRL {
        var version: [UInt8]? = CRLFixture.integer(1)
        var algorithm = CRLFixture.sha256WithRSA
        var outerAlgorithm: [UInt8]? = nil
        var issuer = CRLFixture.name("CA")
        var thisUpdate = CRLFixture.utcTime("200101000000Z")
        var nextUpdate: [UInt8]? = CRLFixture.utcTime("300101000000Z")
        var entries: [[UInt8]]? = nil
        var extensions: [[UInt8]]? = [CRLFixture.crlNumber(1)]
        var signature: [UInt8] = [0x00, 0x5A, 0x5A]
        var trailing: [UInt8] = []

        var tbs: [UInt8] {
            CRLFixture.der(.sequence) { tbs in
                if let version { tbs.appendEncoded(version) }
                tbs.appendEncoded(algorithm)
                tbs.appendEncoded(issuer)
                tbs.appendEncoded(thisUpdate)
                if let nextUpdate { tbs.appendEncoded(nextUpdate) }
                if let entries { tbs.append(.sequence) { for entry in entries { $0.appendEncoded(entry) } } }
                if let extensions {
                    tbs.append(.contextSpecific(0, constructed: true)) { explicit in
                        explicit.append(.sequence) { for ext in extensions { $0.appendEncoded(ext) } }
                    }
                }
            }
        }

        var der: [UInt8] {
            CRLFixture.der(.sequence) { list in
                list.appendEncoded(tbs)
                list.appendEncoded(outerAlgorithm ?? algorithm)
                list.append(.bitString, contents: signature)
            } + trailing
        }

        func parse() throws(DERError) -> CertificateRevocationList { try CertificateRevocationList(derEncoded: der) }
    }

    /// An Ed25519 SubjectPublicKeyInfo with a placeholder key.
    static let spki: [UInt8] = der(.sequence) { spki in
        spki.append(.sequence) { $0.appendOID("1.3.101.112") }
        spki.append(.bitString, contents: [0] + [UInt8](repeating: 7, count: 32))
    }

    /// A v3 certificate (placeholder signature) with the extensions revocation looks at.
    static func certificate(issuer: [UInt8] = name("CA"), subject: [UInt8] = name("leaf"), serial: [UInt8] = [0x01],
                            isCA: Bool = false, distributionPoints: [[UInt8]]? = nil,
                            issuerAltName: [[UInt8]]? = nil) -> Certificate {
        var extensions: [[UInt8]] = []
        if isCA { extensions.append(ext("2.5.29.19", critical: true, der(.sequence) { $0.appendBoolean(true) })) }
        if let distributionPoints {
            extensions.append(ext("2.5.29.31", der(.sequence) { for point in distributionPoints { $0.appendEncoded(point) } }))
        }
        if let issuerAltName {
            extensions.append(ext("2.5.29.18", der(.sequence) { for name in issuerAltName { $0.appendEncoded(name) } }))
        }
        let tbs = der(.sequence) { tbs in
            tbs.append(.contextSpecific(0, constructed: true)) { $0.appendInteger(2) }
            tbs.append(.integer, contents: serial)
            tbs.appendEncoded(sha256WithRSA)
            tbs.appendEncoded(issuer)
            tbs.append(.sequence) { validity in
                validity.appendEncoded(utcTime("100101000000Z"))
                validity.appendEncoded(utcTime("400101000000Z"))
            }
            tbs.appendEncoded(subject)
            tbs.appendEncoded(spki)
            if !extensions.isEmpty {
                tbs.append(.contextSpecific(3, constructed: true)) { explicit in
                    explicit.append(.sequence) { for ext in extensions { $0.appendEncoded(ext) } }
                }
            }
        }
        let bytes = der(.sequence) { certificate in
            certificate.appendEncoded(tbs)
            certificate.appendEncoded(sha256WithRSA)
            certificate.append(.bitString, contents: [0x00, 0x5A])
        }
        return try! Certificate(derEncoded: bytes)
    }

    /// Offset of the first occurrence of `pattern` in `bytes` after `from`.
    static func offset(of pattern: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int {
        var index = start
        while index + pattern.count <= bytes.count {
            if Array(bytes[index..<(index + pattern.count)]) == pattern { return index }
            index += 1
        }
        preconditionFailure("pattern not found")
    }
}

/// RFC 5280 section 5: X.509 v2 CRL syntax, CRL and entry extensions, and the defects that forbid use.
@Suite("CRL parsing")
struct CRLParsingTests {
    typealias F = CRLFixture

    /// Expects `build` to be refused with `code` at `offset` (when given).
    func expectRefused(_ crl: F.CRL, _ code: DERError.Code, at offset: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let parsed = try crl.parse()
            Issue.record("expected \(code), parsed \(parsed)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            if let offset { #expect(error.offset == offset, "\(error)", sourceLocation: sourceLocation) }
        }
    }

    // MARK: Accepted

    @Test("A v2 CRL: fields, extensions and entries (5.1, 5.2, 5.3)")
    func parsesV2() throws {
        var crl = F.CRL()
        crl.entries = [
            F.entry(serial: [0x01], extensions: [F.reasonCode(1)]),
            F.entry(serial: [0xFF, 0x7F], date: F.generalizedTime("20500101000000Z")),
            F.entry(serial: [0x00, 0x80] + [UInt8](repeating: 0x11, count: 20),
                    extensions: [F.ext(CRLExtensionOID.invalidityDate, F.generalizedTime("20191231000000Z")), F.reasonCode(6)]),
        ]
        crl.extensions = [F.crlNumber(1337), F.ext("2.5.29.35", F.der(.sequence) { $0.append(.contextSpecific(0), contents: [1, 2, 3]) })]
        let parsed = try crl.parse()
        #expect(parsed.version == .v2)
        #expect(parsed.signatureAlgorithm == .rsaPKCS1v15(.sha256))
        #expect(parsed.issuer == F.parsedName("CA"))
        #expect(parsed.thisUpdate == UnixTime(year: 2020, month: 1, day: 1))
        #expect(parsed.nextUpdate == UnixTime(year: 2030, month: 1, day: 1))
        #expect(parsed.crlNumber == CRLNumber(1337))
        #expect(parsed.baseCRLNumber == nil && !parsed.isDeltaCRL)
        #expect(parsed.authorityKeyIdentifier?.keyIdentifier == [1, 2, 3][...])
        #expect(parsed.isUsable && parsed.defects.isEmpty)
        #expect(parsed.signature == [0x5A, 0x5A][...] && parsed.signatureUnusedBits == 0)
        #expect(parsed.tbsCertListBytes.elementsEqual(crl.tbs))
        #expect(parsed.revokedCertificates.count == 3)
        let first = parsed.revokedCertificates[0]
        #expect(first.serialNumber == [0x01][...] && first.reason == .keyCompromise && first.certificateIssuer == nil)
        #expect(first.revocationDate == UnixTime(year: 2020, month: 1, day: 1))
        let negative = parsed.revokedCertificates[1]
        #expect(negative.reason == nil && negative.effectiveReason == .unspecified)
        #expect(negative.revocationDate == UnixTime(year: 2050, month: 1, day: 1))
        let long = parsed.revokedCertificates[2]
        #expect(long.reason == .certificateHold && long.invalidityDate == UnixTime(year: 2019, month: 12, day: 31))
        #expect(parsed.entries(serialNumber: [0xFF, 0x7F][...]).map(\.revocationDate) == [negative.revocationDate])
        #expect(parsed.entries(serialNumber: long.serialNumber) == [long])
        #expect(parsed.entries(serialNumber: [0x02][...]).isEmpty)
        #expect(parsed.description == "CRL(issuer: CN=CA,O=Test, thisUpdate: 2020-01-01T00:00:00Z, number: 1337, entries: 3)")
    }

    @Test("A v1 CRL parses but has no cRLNumber, so it is unusable (5.1.2.1, 5.2.3)")
    func parsesV1() throws {
        var crl = F.CRL()
        crl.version = nil
        crl.extensions = nil
        crl.nextUpdate = nil
        crl.entries = [F.entry(serial: [0x05])]
        let parsed = try crl.parse()
        #expect(parsed.version == .v1)
        #expect(parsed.nextUpdate == nil)
        #expect(parsed.defects == [.missingCRLNumber, .missingNextUpdate])
        #expect(!parsed.isUsable)
    }

    @Test("Named leniency: an empty revokedCertificates SEQUENCE means no entries (5.1.2.6)")
    func emptyRevokedCertificates() throws {
        var crl = F.CRL()
        crl.entries = []
        #expect(try crl.parse().revokedCertificates.isEmpty)
    }

    @Test("certificateIssuer stays in force for later entries of an indirect CRL (5.3.3)")
    func certificateIssuerInheritance() throws {
        let other = F.directoryName(F.name("Other CA"))
        var crl = F.CRL()
        crl.extensions = [F.crlNumber(1), F.issuingDistributionPoint(indirect: true)]
        crl.entries = [
            F.entry(serial: [0x01]),
            F.entry(serial: [0x02], extensions: [F.certificateIssuer([other])]),
            F.entry(serial: [0x03]),
            F.entry(serial: [0x01], extensions: [F.certificateIssuer([F.directoryName(F.name("CA"))])]),
        ]
        let parsed = try crl.parse()
        #expect(parsed.isUsable)
        #expect(parsed.issuingDistributionPoint?.indirectCRL == true)
        let issuers = parsed.revokedCertificates.map { $0.certificateIssuer }
        #expect(issuers[0] == nil)
        #expect(issuers[1] == [.directoryName(F.parsedName("Other CA"))])
        #expect(issuers[2] == [.directoryName(F.parsedName("Other CA"))])
        #expect(issuers[3] == [.directoryName(F.parsedName("CA"))])
        // Both entries with serial 01, in order.
        #expect(parsed.entries(serialNumber: [0x01][...]).count == 2)
    }

    @Test("A delta CRL carries its BaseCRLNumber (5.2.4)")
    func deltaCRL() throws {
        var crl = F.CRL()
        crl.extensions = [F.crlNumber(5), F.deltaIndicator(3)]
        let parsed = try crl.parse()
        #expect(parsed.isDeltaCRL && parsed.baseCRLNumber == CRLNumber(3) && parsed.crlNumber == CRLNumber(5))
        #expect(parsed.description.hasSuffix("entries: 0, delta)"))
    }

    @Test("issuingDistributionPoint fields (5.2.5)")
    func issuingDistributionPoint() throws {
        var crl = F.CRL()
        crl.extensions = [F.crlNumber(1), F.issuingDistributionPoint(.full([F.uri("http://crl.example/ca.crl")]), onlyUser: true,
                                                                     onlySomeReasons: [.keyCompromise, .cACompromise])]
        let idp = try #require(try crl.parse().issuingDistributionPoint)
        #expect(idp.distributionPoint == .fullName([.uniformResourceIdentifier(Array("http://crl.example/ca.crl".utf8)[...])]))
        #expect(idp.onlyContainsUserCerts && !idp.onlyContainsCACerts && !idp.indirectCRL && !idp.onlyContainsAttributeCerts)
        #expect(idp.onlySomeReasons == [.keyCompromise, .cACompromise])
    }

    @Test("A 20-octet CRL number is accepted and compares numerically (5.2.3)")
    func crlNumbers() throws {
        var crl = F.CRL()
        let twenty = [UInt8](repeating: 0x7F, count: 20)
        crl.extensions = [F.ext(CRLExtensionOID.cRLNumber, F.der(.integer, contents: twenty))]
        #expect(try crl.parse().crlNumber == CRLNumber(bigEndian: twenty))
        #expect(CRLNumber(bigEndian: [0, 0, 1]) == CRLNumber(1))
        #expect(CRLNumber(255) < CRLNumber(256) && CRLNumber(0) < CRLNumber(1) && !(CRLNumber(7) < CRLNumber(7)))
        #expect(CRLNumber(bigEndian: [1] + [UInt8](repeating: 0, count: 8)) > CRLNumber(UInt64.max))
        #expect(CRLNumber(1337).description == "1337" && CRLNumber(0).description == "0")
        #expect(CRLNumber(bigEndian: [1] + [UInt8](repeating: 0, count: 8)).description == "0x01" + String(repeating: "00", count: 8))
    }

    // MARK: Refused: structure (5.1)

    @Test("version present must be v2 (5.1.2.1)")
    func versionMustBeV2() {
        for value: Int64 in [0, 2] {
            var crl = F.CRL()
            crl.version = F.integer(value)
            expectRefused(crl, .invalidValue, at: F.offset(of: F.integer(value), in: crl.der))
        }
    }

    @Test("signatureAlgorithm must equal tbsCertList.signature (5.1.1.2)")
    func algorithmsMustMatch() {
        var crl = F.CRL()
        crl.outerAlgorithm = F.ecdsaWithSHA256
        let der = crl.der
        expectRefused(crl, .invalidValue, at: F.offset(of: F.ecdsaWithSHA256, in: der))
    }

    @Test("Extensions and entry extensions need a v2 CRL (5.1.2.1)")
    func extensionsNeedV2() {
        var crl = F.CRL()
        crl.version = nil
        // The [0] crlExtensions wrapper: two short headers before the cRLNumber extension.
        expectRefused(crl, .invalidValue, at: F.offset(of: F.crlNumber(1), in: crl.der) - 4)

        var entries = F.CRL()
        entries.version = nil
        entries.extensions = nil
        entries.entries = [F.entry(serial: [0x01], extensions: [F.reasonCode(1)])]
        let reason = F.der(.sequence) { $0.appendEncoded(F.reasonCode(1)) }
        expectRefused(entries, .invalidValue, at: F.offset(of: reason, in: entries.der))
    }

    @Test("Trailing data, truncation and bad times are refused")
    func structure() {
        var trailing = F.CRL()
        trailing.trailing = [0x00]
        expectRefused(trailing, .trailingData, at: trailing.der.count - 1)

        let whole = F.CRL().der
        #expect(throws: DERError.self) { try CertificateRevocationList(derEncoded: Array(whole.dropLast())) }
        do {
            _ = try CertificateRevocationList(derEncoded: Array(whole.dropLast()))
        } catch {
            #expect(error.code == .truncated && error.offset == 0)
        }

        var fraction = F.CRL()
        fraction.nextUpdate = F.generalizedTime("20300101000000.5Z")
        expectRefused(fraction, .invalidTime)

        var badDate = F.CRL()
        badDate.entries = [F.entry(serial: [0x01], date: F.utcTime("201301000000Z"))]
        expectRefused(badDate, .invalidTime)

        var nonMinimalSerial = F.CRL()
        nonMinimalSerial.entries = [F.entry(serial: [0x00, 0x01])]
        expectRefused(nonMinimalSerial, .nonMinimalInteger)

        var emptyExtensions = F.CRL()
        emptyExtensions.extensions = []
        expectRefused(emptyExtensions, .invalidValue)
    }

    // MARK: Refused: extensions (5.2, 5.3)

    @Test("critical FALSE is never encoded, and an extension appears once (X.690 11.5, RFC 5280 5.2)")
    func extensionListRules() {
        var explicitFalse = F.CRL()
        let falseCritical = F.der(.sequence) { e in
            e.appendOID(CRLExtensionOID.cRLNumber)
            e.appendBoolean(false)
            e.append(.octetString, contents: F.integer(1))
        }
        explicitFalse.extensions = [falseCritical]
        expectRefused(explicitFalse, .explicitDefault, at: F.offset(of: [0x01, 0x01, 0x00], in: explicitFalse.der))

        var duplicate = F.CRL()
        duplicate.extensions = [F.crlNumber(1), F.crlNumber(2)]
        expectRefused(duplicate, .duplicate, at: F.offset(of: F.crlNumber(2), in: duplicate.der))

        var duplicateInEntry = F.CRL()
        duplicateInEntry.entries = [F.entry(serial: [0x01], extensions: [F.reasonCode(1), F.reasonCode(1)])]
        let der = duplicateInEntry.der
        expectRefused(duplicateInEntry, .duplicate, at: F.offset(of: F.reasonCode(1), in: der, from: F.offset(of: F.reasonCode(1), in: der) + 1))

        // Many distinct extensions stay linear and parse.
        var many = F.CRL()
        many.extensions = [F.crlNumber(1)] + (0..<500).map { F.ext(OID(dotted: "1.3.6.1.4.1.99999.\($0)")!, [0x05, 0x00]) }
        #expect((try? many.parse())?.extensions.count == 501)
    }

    @Test("cRLNumber is a non-negative INTEGER of at most 20 octets (5.2.3)")
    func crlNumberSyntax() {
        var negative = F.CRL()
        negative.extensions = [F.crlNumber(-1)]
        expectRefused(negative, .negativeInteger)

        var long = F.CRL()
        long.extensions = [F.ext(CRLExtensionOID.cRLNumber, F.der(.integer, contents: [UInt8](repeating: 0x7F, count: 21)))]
        expectRefused(long, .integerTooLarge)

        var notInteger = F.CRL()
        notInteger.extensions = [F.ext(CRLExtensionOID.cRLNumber, F.der(.octetString, contents: [1]))]
        expectRefused(notInteger, .unexpectedTag)

        var baseNegative = F.CRL()
        baseNegative.extensions = [F.crlNumber(2), F.ext(CRLExtensionOID.deltaCRLIndicator, critical: true, F.integer(-5))]
        expectRefused(baseNegative, .negativeInteger)
    }

    @Test("reasonCode is an ENUMERATED 0-6 or 8-10 (5.3.1)")
    func reasonCodeSyntax() throws {
        for value: UInt8 in [7, 11, 0x7F] {
            var crl = F.CRL()
            crl.entries = [F.entry(serial: [0x01], extensions: [F.reasonCode(value)])]
            expectRefused(crl, .invalidValue)
        }
        var asInteger = F.CRL()
        asInteger.entries = [F.entry(serial: [0x01], extensions: [F.ext(CRLExtensionOID.reasonCode, F.integer(1))])]
        expectRefused(asInteger, .unexpectedTag)
        var negative = F.CRL()
        negative.entries = [F.entry(serial: [0x01], extensions: [F.ext(CRLExtensionOID.reasonCode, F.der(.enumerated, contents: [0xFF]))])]
        expectRefused(negative, .invalidValue)
        for reason in RevocationReason.allCases {
            var crl = F.CRL()
            crl.entries = [F.entry(serial: [0x01], extensions: [F.reasonCode(reason.rawValue)])]
            #expect(try crl.parse().revokedCertificates[0].reason == reason)
        }
    }

    @Test("invalidityDate is a GeneralizedTime; certificateIssuer is non-empty GeneralNames (5.3.2, 5.3.3)")
    func entryExtensionSyntax() {
        var utc = F.CRL()
        utc.entries = [F.entry(serial: [0x01], extensions: [F.ext(CRLExtensionOID.invalidityDate, F.utcTime("200101000000Z"))])]
        expectRefused(utc, .unexpectedTag)

        var emptyIssuer = F.CRL()
        emptyIssuer.extensions = [F.crlNumber(1), F.issuingDistributionPoint(indirect: true)]
        emptyIssuer.entries = [F.entry(serial: [0x01], extensions: [F.certificateIssuer([])])]
        expectRefused(emptyIssuer, .invalidValue)
    }

    @Test("issuingDistributionPoint: not empty, at most one onlyContains…, no explicit FALSE (5.2.5)")
    func issuingDistributionPointSyntax() {
        var empty = F.CRL()
        empty.extensions = [F.crlNumber(1), F.issuingDistributionPoint()]
        expectRefused(empty, .invalidValue)

        var two = F.CRL()
        two.extensions = [F.crlNumber(1), F.issuingDistributionPoint(onlyUser: true, onlyCA: true)]
        expectRefused(two, .invalidValue)

        var userAndAttributes = F.CRL()
        userAndAttributes.extensions = [F.crlNumber(1), F.issuingDistributionPoint(onlyUser: true, onlyAttribute: true)]
        expectRefused(userAndAttributes, .invalidValue)

        var explicitFalse = F.CRL()
        explicitFalse.extensions = [F.crlNumber(1), F.ext(CRLExtensionOID.issuingDistributionPoint, critical: true,
                                                          F.der(.sequence) { $0.append(.contextSpecific(4), contents: [0x00]) })]
        expectRefused(explicitFalse, .explicitDefault)

        var badReasons = F.CRL()
        badReasons.extensions = [F.crlNumber(1), F.ext(CRLExtensionOID.issuingDistributionPoint, critical: true,
                                                       F.der(.sequence) { $0.append(.contextSpecific(3), contents: [0x00, 0x40, 0x00]) })]
        expectRefused(badReasons, .invalidBitString)
    }

    // MARK: Parsed but unusable (5.2, 5.3)

    @Test("Defects: unknown critical extensions, cRLNumber missing or critical, certificateIssuer outside an indirect CRL")
    func defects() throws {
        var unknownCritical = F.CRL()
        unknownCritical.extensions = [F.crlNumber(1), F.ext("1.3.6.1.4.1.99999.1", critical: true, [0x05, 0x00])]
        #expect(try unknownCritical.parse().defects == [.unrecognizedCriticalExtension("1.3.6.1.4.1.99999.1")])

        var unknownNonCritical = F.CRL()
        unknownNonCritical.extensions = [F.crlNumber(1), F.ext("1.3.6.1.4.1.99999.1", [0x05, 0x00])]
        unknownNonCritical.entries = [F.entry(serial: [0x01], extensions: [F.ext("1.3.6.1.4.1.99999.2", [0x05, 0x00])])]
        #expect(try unknownNonCritical.parse().isUsable)

        var unknownEntry = F.CRL()
        unknownEntry.entries = [F.entry(serial: [0x01]), F.entry(serial: [0x2A], extensions: [F.ext("1.3.6.1.4.1.99999.2", critical: true, [0x05, 0x00])])]
        #expect(try unknownEntry.parse().defects == [.unrecognizedCriticalEntryExtension("1.3.6.1.4.1.99999.2", serialNumber: [0x2A][...])])

        var missing = F.CRL()
        missing.extensions = [F.ext("2.5.29.35", F.der(.sequence) { $0.append(.contextSpecific(0), contents: [1]) })]
        #expect(try missing.parse().defects == [.missingCRLNumber])

        var critical = F.CRL()
        critical.extensions = [F.crlNumber(1, critical: true)]
        #expect(try critical.parse().defects == [.criticalCRLNumber])

        var direct = F.CRL()
        direct.entries = [F.entry(serial: [0x01], extensions: [F.certificateIssuer([F.directoryName(F.name("Other"))])])]
        let directDefects = try direct.parse().defects
        #expect(directDefects == [.certificateIssuerInDirectCRL], "\(directDefects)")

        #expect(CRLDefect.criticalCRLNumber.description == "the CRL's cRLNumber extension is critical (RFC 5280 5.2.3)")
        #expect(CRLDefect.unrecognizedCriticalEntryExtension("1.2.3", serialNumber: [0x2A][...]).description
                == "the CRL entry for serial 2a has a critical extension CertPath does not process (1.2.3; RFC 5280 5.3)")
    }

    // MARK: Files

    @Test("PEM files: X509 CRL blocks are read, other blocks reported as skipped; DER is read directly")
    func pemFiles() throws {
        let crl = F.CRL().der
        let text = "comment\n" + PEM.encode(crl, label: "X509 CRL") + PEM.encode([0x30, 0x00], label: "CERTIFICATE")
        let file = try PEM.readCRLs(Array(text.utf8))
        #expect(file.crls.map(\.der) == [crl])
        #expect(file.skipped.map(\.kind) == ["text", "CERTIFICATE block"])
        #expect(try PEM.readCRLs(crl).crls.count == 1)
        var broken = F.CRL()
        broken.trailing = [0]
        let bad = PEM.encode(broken.der, label: "X509 CRL")
        #expect(throws: PEM.CRLFileError.crl(index: 0, line: 1, DERError(.trailingData, at: broken.der.count - 1, expected: "end of CertificateList"))) {
            try PEM.readCRLs(Array(bad.utf8))
        }
        let store: CRLStore = [try CertificateRevocationList(derEncoded: crl), try CertificateRevocationList(derEncoded: crl)]
        #expect(store.crls.count == 1)
        #expect(store.crls(issuedBy: F.parsedName("CA")).count == 1)
        #expect(store.crls(issuedBy: F.parsedName("Other")).isEmpty && !store.isEmpty && CRLStore.empty.isEmpty)
    }

    // MARK: Hostile input

    @Test("Every truncation is refused and every single-byte mutation parses or throws, never crashes")
    func mutations() throws {
        var crl = F.CRL()
        crl.extensions = [F.crlNumber(3), F.issuingDistributionPoint(.relative("CRL1"), onlySomeReasons: [.keyCompromise], indirect: true),
                          F.ext("2.5.29.35", F.der(.sequence) { $0.append(.contextSpecific(0), contents: [1, 2]) })]
        crl.entries = [F.entry(serial: [0x01], extensions: [F.reasonCode(1), F.certificateIssuer([F.directoryName(F.name("X"))])]),
                       F.entry(serial: [0x02], extensions: [F.ext(CRLExtensionOID.invalidityDate, F.generalizedTime("20200101000000Z"))])]
        let der = crl.der
        #expect(try CertificateRevocationList(derEncoded: der).revokedCertificates.count == 2)
        for length in 0..<der.count {
            #expect(throws: DERError.self) { try CertificateRevocationList(derEncoded: Array(der.prefix(length))) }
        }
        var parsed = 0
        for index in der.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var mutated = der
                mutated[index] ^= flip
                if let crl = try? CertificateRevocationList(derEncoded: mutated) {
                    parsed += 1
                    _ = crl.entries(serialNumber: [0x01][...])
                    _ = crl.description
                }
            }
        }
        #expect(parsed > 0)
    }

    // MARK: Scale

    @Test("10^5 entries parse, and every serial is found through the hash index")
    func largeCRL() throws {
        var crl = F.CRL()
        func serial(_ index: Int) -> [UInt8] {
            [0x01, UInt8(truncatingIfNeeded: index >> 16), UInt8(truncatingIfNeeded: index >> 8), UInt8(truncatingIfNeeded: index)]
        }
        let keyCompromise = [F.reasonCode(1)]
        crl.entries = (0..<100_000).map { (index: Int) -> [UInt8] in
            F.entry(serial: serial(index), extensions: index % 2 == 0 ? keyCompromise : nil)
        }
        // Timing belongs to the benchmark; this checks the work is done right at that size.
        let list = try CertificateRevocationList(derEncoded: crl.der)
        #expect(list.revokedCertificates.count == 100_000)
        var found = 0, compromised = 0
        for index in 0..<150_000 {
            let entries = list.entries(serialNumber: serial(index)[...])
            found += entries.count
            compromised += entries.filter { $0.reason == .keyCompromise }.count
        }
        #expect(found == 100_000 && compromised == 50_000)
    }
}
