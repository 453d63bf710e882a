import Testing
import CertPath
import CertPathDER

/// DER building blocks for certificates made in the tests (signatures are filler: parsing does not verify them).
enum D {
    static func tlv(_ tag: DERTag, _ contents: [UInt8]) -> [UInt8] {
        var writer = DERWriter()
        writer.append(tag, contents: contents)
        return writer.bytes
    }
    static func seq(_ parts: [UInt8]...) -> [UInt8] { tlv(.sequence, parts.flatMap { $0 }) }
    static func set(_ parts: [UInt8]...) -> [UInt8] { tlv(.set, parts.flatMap { $0 }) }
    /// Context-specific `[n]`, primitive or constructed.
    static func ctx(_ number: UInt8, constructed: Bool = false, _ parts: [UInt8]...) -> [UInt8] {
        tlv(.contextSpecific(number, constructed: constructed), parts.flatMap { $0 })
    }
    static func oid(_ oid: OID) -> [UInt8] { tlv(.objectIdentifier, Array(oid.encoded)) }
    static func int(_ value: Int64) -> [UInt8] {
        var writer = DERWriter()
        writer.appendInteger(value)
        return writer.bytes
    }
    static func bool(_ value: Bool) -> [UInt8] { tlv(.boolean, [value ? 0xFF : 0x00]) }
    static let null: [UInt8] = [0x05, 0x00]
    static func octets(_ bytes: [UInt8]) -> [UInt8] { tlv(.octetString, bytes) }
    static func bits(_ bytes: [UInt8], unused: UInt8 = 0) -> [UInt8] { tlv(.bitString, [unused] + bytes) }
    static func utf8(_ text: String) -> [UInt8] { tlv(.utf8String, Array(text.utf8)) }
    static func printable(_ text: String) -> [UInt8] { tlv(.printableString, Array(text.utf8)) }
    static func ia5(_ text: String) -> [UInt8] { tlv(.ia5String, Array(text.utf8)) }

    static func atv(_ type: OID, _ value: [UInt8]) -> [UInt8] { seq(oid(type), value) }
    /// A RelativeDistinguishedName with its attributes in DER SET OF order.
    static func rdn(_ attributes: [UInt8]...) -> [UInt8] {
        tlv(.set, attributes.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 })
    }
    static func name(_ rdns: [UInt8]...) -> [UInt8] { tlv(.sequence, rdns.flatMap { $0 }) }
    static func cn(_ text: String) -> [UInt8] { name(rdn(atv(commonName, utf8(text)))) }

    static let commonName: OID = "2.5.4.3"
    static let organization: OID = "2.5.4.10"
    static let organizationalUnit: OID = "2.5.4.11"
    static let country: OID = "2.5.4.6"

    /// `Extension ::= SEQUENCE { extnID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }`;
    /// `critical: false` encodes the default explicitly (invalid DER), `nil` omits it.
    static func ext(_ oid: OID, critical: Bool? = nil, _ value: [UInt8]) -> [UInt8] {
        seq(D.oid(oid), critical.map(bool) ?? [], octets(value))
    }

    static let ecdsaSHA256 = seq(oid("1.2.840.10045.4.3.2"))
    static let ecdsaSHA384 = seq(oid("1.2.840.10045.4.3.3"))
    static let rsaSHA256WithNull = seq(oid("1.2.840.113549.1.1.11"), null)
    static let rsaSHA256WithoutNull = seq(oid("1.2.840.113549.1.1.11"))
    static let p256SPKI = seq(seq(oid(KnownOID.ecPublicKey), oid(KnownOID.secp256r1)), bits([0x04] + [UInt8](repeating: 0x11, count: 64)))
    static let utcValidity = seq(tlv(.utcTime, Array("250101000000Z".utf8)), tlv(.utcTime, Array("450101000000Z".utf8)))

    /// Position of the single occurrence of `needle` in `bytes`.
    static func offset(of needle: [UInt8], in bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        var found: [Int] = []
        if needle.count <= bytes.count {
            for start in 0...(bytes.count - needle.count) where bytes[start..<(start + needle.count)].elementsEqual(needle) {
                found.append(start)
            }
        }
        try #require(found.count == 1, "\(found.count) occurrences", sourceLocation: sourceLocation)
        return found[0]
    }
}

/// A certificate assembled from parts; every part is raw DER so a test can break any rule.
struct CertificateBuilder {
    /// The `[0] EXPLICIT Version` element, or empty for an omitted (v1) version.
    var version: [UInt8] = D.ctx(0, constructed: true, D.int(2))
    var serial: [UInt8] = D.int(0x0102)
    var innerAlgorithm: [UInt8] = D.ecdsaSHA256
    var outerAlgorithm: [UInt8]? = nil
    var issuer: [UInt8] = D.cn("Model Test CA")
    var validity: [UInt8] = D.utcValidity
    var subject: [UInt8] = D.cn("model.test")
    var spki: [UInt8] = D.p256SPKI
    var uniqueIDs: [UInt8] = []
    /// Extension encodings; `nil` omits `[3] extensions`.
    var extensions: [[UInt8]]? = nil

    var tbs: [UInt8] {
        let extensionField = extensions.map { D.ctx(3, constructed: true, D.tlv(.sequence, $0.flatMap { $0 })) } ?? []
        return D.seq(version, serial, innerAlgorithm, issuer, validity, subject, spki, uniqueIDs, extensionField)
    }

    var der: [UInt8] { D.seq(tbs, outerAlgorithm ?? innerAlgorithm, D.bits([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01])) }

    static func withExtensions(_ extensions: [UInt8]...) -> CertificateBuilder {
        var builder = CertificateBuilder()
        builder.extensions = extensions
        return builder
    }
}

/// Expects `body` to throw a ``DERError`` with `code` (and, when given, at `offset`).
func expectDERError(_ code: DERError.Code, at offset: Int?, sourceLocation: SourceLocation = #_sourceLocation,
                    _ body: () throws(DERError) -> Void) {
    do throws(DERError) {
        try body()
        Issue.record("parsed; expected \(code)\(offset.map { " at \($0)" } ?? "")", sourceLocation: sourceLocation)
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        if let offset { #expect(error.offset == offset, "\(error)", sourceLocation: sourceLocation) }
    }
}

/// Expects `der` not to parse as a certificate, with `code` at `offset`.
func expectRejected(_ der: [UInt8], _ code: DERError.Code, at offset: Int?, sourceLocation: SourceLocation = #_sourceLocation) {
    expectDERError(code, at: offset, sourceLocation: sourceLocation) { () throws(DERError) in _ = try Certificate(derEncoded: der) }
}

/// Expects `der` to parse with exactly `findings` recorded (a prose rule of RFC 5280 broken, not a
/// reason to refuse reading it) and `leniencies` used; returns the certificate.
@discardableResult
func expectFindings(_ der: [UInt8], _ findings: [ProfileRule], leniencies: [EncodingLeniency] = [],
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> Certificate {
    let certificate = try Certificate(derEncoded: der)
    #expect(certificate.findings == findings, sourceLocation: sourceLocation)
    #expect(certificate.encodingLeniencies == leniencies, sourceLocation: sourceLocation)
    return certificate
}

/// The X.509 certificate model (issue 2): version rules, signature algorithm agreement, extensions,
/// GeneralName forms, names (RFC 4514 rendering, RFC 5280 7.1 comparison), PEM, extension decoding
/// with its rejection rules, and DSA / RSASSA-PSS keys. Certificates are built here from DER.
@Suite("Certificate model")
struct CertificateModelTests {
    // MARK: Version (RFC 5280 4.1.2.1)

    @Test("A minimal v3 certificate parses into its fields")
    func minimalV3() throws {
        let builder = CertificateBuilder.withExtensions(D.ext(KnownOID.subjectKeyIdentifier, D.octets([1, 2, 3])))
        let certificate = try Certificate(derEncoded: builder.der)
        #expect(certificate.version == .v3)
        #expect(Array(certificate.serialNumber) == [0x01, 0x02])
        #expect(certificate.serialNumberHex == "0102")
        #expect(certificate.signatureAlgorithm == .ecdsa(.sha256))
        #expect(certificate.issuer.description == "CN=Model Test CA")
        #expect(certificate.subject.description == "CN=model.test")
        #expect(certificate.notBefore == UnixTime(year: 2025, month: 1, day: 1))
        #expect(certificate.notAfter == UnixTime(year: 2045, month: 1, day: 1))
        #expect(certificate.validityUsesGeneralizedTime == (false, false))
        #expect(certificate.subjectPublicKeyInfo.key.summary == "EC P-256")
        #expect(certificate.subjectKeyIdentifier.map(Array.init) == [1, 2, 3])
        #expect(Array(certificate.tbsCertificateBytes) == builder.tbs)
        #expect(certificate.der == builder.der)
        #expect(certificate.extensions.count == 1)
        #expect(!certificate.isSelfIssued)
    }

    @Test("v1 (version omitted) without extensions parses")
    func v1() throws {
        var builder = CertificateBuilder()
        builder.version = []
        builder.extensions = nil
        let certificate = try Certificate(derEncoded: builder.der)
        #expect(certificate.version == .v1)
        #expect(certificate.extensions.isEmpty)
    }

    @Test("v1 with extensions: read, extensionsBeforeVersion3 recorded (RFC 5280 4.1.2.9 prose, not structure)")
    func v1WithExtensions() throws {
        var builder = CertificateBuilder.withExtensions(D.ext(KnownOID.subjectKeyIdentifier, D.octets([1])))
        builder.version = []
        let certificate = try expectFindings(builder.der, [.extensionsBeforeVersion3])
        #expect(certificate.version == .v1)
        #expect(certificate.subjectKeyIdentifier.map(Array.init) == [1])
    }

    @Test("v2 with extensions: read, extensionsBeforeVersion3 recorded")
    func v2WithExtensions() throws {
        var builder = CertificateBuilder.withExtensions(D.ext(KnownOID.subjectKeyIdentifier, D.octets([1])))
        builder.version = D.ctx(0, constructed: true, D.int(1))
        try expectFindings(builder.der, [.extensionsBeforeVersion3])
    }

    @Test("Explicit v1 (version 0 encoded): explicitDefault at [0]")
    func explicitV1() throws {
        var builder = CertificateBuilder()
        builder.version = D.ctx(0, constructed: true, D.int(0))
        builder.extensions = nil
        let der = builder.der
        expectRejected(der, .explicitDefault, at: try D.offset(of: [0xA0, 0x03, 0x02, 0x01, 0x00], in: der))
    }

    @Test("Version 4 (INTEGER 3): invalidValue")
    func unknownVersion() throws {
        var builder = CertificateBuilder()
        builder.version = D.ctx(0, constructed: true, D.int(3))
        let der = builder.der
        expectRejected(der, .invalidValue, at: try D.offset(of: [0xA0, 0x03, 0x02, 0x01, 0x03], in: der))
    }

    @Test("Unique identifiers: kept in v2, recorded in v1 (uniqueIdentifierInVersion1)")
    func uniqueIdentifiers() throws {
        var builder = CertificateBuilder()
        builder.version = D.ctx(0, constructed: true, D.int(1))
        builder.extensions = nil
        // A constructed [1] or [2] (a BIT STRING in a form DER forbids) is named as such, not
        // reported as trailing data (reviewer).
        for (constructed, offsetOf): ([UInt8], UInt8) in [(D.ctx(1, constructed: true, [0x03, 0x02, 0x00, 0xAB]), 0xA1),
                                         (D.ctx(1, [0x00, 0xAB]) + D.ctx(2, constructed: true, [0x03, 0x02, 0x00, 0xCD]), 0xA2)] {
            builder.uniqueIDs = constructed
            let der = builder.der
            expectRejected(der, .invalidBitString, at: try D.offset(of: [offsetOf, 0x04], in: der))
        }
        builder.uniqueIDs = D.ctx(1, [0x00, 0xAB]) + D.ctx(2, [0x00, 0xCD])
        let v2 = try Certificate(derEncoded: builder.der)
        #expect(v2.version == .v2)
        #expect(v2.issuerUniqueID.map(Array.init) == [0xAB])
        #expect(v2.subjectUniqueID.map(Array.init) == [0xCD])
        #expect(v2.issuerUniqueIDBitCount == 8 && v2.subjectUniqueIDBitCount == 8)
        // A 12-bit identifier (4 unused bits, zero as DER requires): its length is not a whole number of octets.
        builder.uniqueIDs = D.ctx(1, [0x00, 0xDE, 0xAD]) + D.ctx(2, [0x04, 0xBE, 0xE0])
        let twelve = try Certificate(derEncoded: builder.der)
        #expect(twelve.issuerUniqueIDBitCount == 16 && twelve.subjectUniqueIDBitCount == 12)
        #expect(twelve.subjectUniqueID.map(Array.init) == [0xBE, 0xE0])
        builder.uniqueIDs = D.ctx(1, [0x00, 0xAB]) + D.ctx(2, [0x00, 0xCD])

        builder.version = []
        let v1 = try expectFindings(builder.der, [.uniqueIdentifierInVersion1])
        #expect(v1.issuerUniqueID.map(Array.init) == [0xAB])
    }

    // MARK: Signature algorithm (RFC 5280 4.1.1.2)

    @Test("Inner and outer signature algorithms that differ byte for byte: read, recorded (RFC 5280 4.1.1.2)",
          arguments: [(D.ecdsaSHA256, D.ecdsaSHA384), (D.rsaSHA256WithNull, D.rsaSHA256WithoutNull), (D.rsaSHA256WithoutNull, D.rsaSHA256WithNull)])
    func algorithmMismatch(_ inner: [UInt8], _ outer: [UInt8]) throws {
        var builder = CertificateBuilder()
        builder.innerAlgorithm = inner
        builder.outerAlgorithm = outer
        let certificate = try expectFindings(builder.der, [.signatureAlgorithmMismatch])
        // The outer algorithm is the one the signature is checked with.
        #expect(try Certificate(derEncoded: CertificateBuilder(innerAlgorithm: outer, outerAlgorithm: outer).der).signatureAlgorithm
                == certificate.signatureAlgorithm)
    }

    @Test("An inner algorithm identifier that is not DER is still a parse error, before the mismatch")
    func algorithmMismatchMalformedInner() throws {
        var builder = CertificateBuilder()
        builder.innerAlgorithm = D.seq(D.tlv(.objectIdentifier, [0x80, 0x01]))
        let der = builder.der
        #expect(throws: DERError.self) { try Certificate(derEncoded: der) }
    }

    /// Issue 30, class 10: ECDSA with NULL parameters (RFC 5758 3.2: MUST be absent), written by Java 11
    /// and older Mbed TLS, read by OpenSSL, Go and pyca/cryptography: a named tolerated encoding.
    static let ecdsaSHA256WithNull = D.seq(D.oid(KnownOID.ecdsaWithSHA256), D.null)

    @Test("ECDSA with NULL parameters in both fields: read as ECDSA, reported as a tolerated encoding")
    func ecdsaNullParameters() throws {
        var builder = CertificateBuilder()
        builder.innerAlgorithm = Self.ecdsaSHA256WithNull
        let certificate = try expectFindings(builder.der, [], leniencies: [.ecdsaSignatureNullParameters])
        #expect(certificate.signatureAlgorithm == .ecdsa(.sha256))
        #expect(EncodingLeniency.ecdsaSignatureNullParameters.description.contains("RFC 5758 3.2"))
        for oid in [KnownOID.ecdsaWithSHA1, KnownOID.ecdsaWithSHA224, KnownOID.ecdsaWithSHA384, KnownOID.ecdsaWithSHA512] {
            builder.innerAlgorithm = D.seq(D.oid(oid), D.null)
            try expectFindings(builder.der, [], leniencies: [.ecdsaSignatureNullParameters])
        }
    }

    @Test("ECDSA with NULL parameters in one field only is a mismatch (RFC 5280 4.1.1.2; OpenSSL and Go agree)")
    func ecdsaNullParametersMismatch() throws {
        // Inner NULL, outer absent: the outer field read as DER; the fields differ.
        try expectFindings(CertificateBuilder(innerAlgorithm: Self.ecdsaSHA256WithNull, outerAlgorithm: D.ecdsaSHA256).der,
                           [.signatureAlgorithmMismatch])
        try expectFindings(CertificateBuilder(innerAlgorithm: D.ecdsaSHA256, outerAlgorithm: Self.ecdsaSHA256WithNull).der,
                           [.signatureAlgorithmMismatch], leniencies: [.ecdsaSignatureNullParameters])
    }

    @Test("Parameters other than NULL for ECDSA, and NULL for EdDSA and DSA, are still refused")
    func otherParametersRefused() throws {
        for algorithm in [D.seq(D.oid(KnownOID.ecdsaWithSHA256), D.int(0)), D.seq(D.oid(KnownOID.ecdsaWithSHA256), D.null, D.null),
                          D.seq(D.oid(KnownOID.ed25519), D.null), D.seq(D.oid(KnownOID.dsaWithSHA256), D.null)] {
            var builder = CertificateBuilder()
            builder.innerAlgorithm = algorithm
            expectRejected(builder.der, .invalidValue, at: nil)
        }
    }

    @Test("Identical algorithms, with or without NULL parameters for PKCS #1, parse")
    func algorithmAgreement() throws {
        for algorithm in [D.rsaSHA256WithNull, D.rsaSHA256WithoutNull] {
            var builder = CertificateBuilder()
            builder.innerAlgorithm = algorithm
            let certificate = try Certificate(derEncoded: builder.der)
            #expect(certificate.signatureAlgorithm == .rsaPKCS1v15(.sha256))
            #expect(Array(certificate.signatureAlgorithmDER) == algorithm)
        }
    }

    // MARK: Serial number, validity encodings, PSS signature algorithm

    @Test("Serial numbers: negative, zero and 21-octet serials parse (RFC 5280 4.1.2.2 'handle gracefully')",
          arguments: [(D.int(-1), "ff"), (D.int(0), "00"), (D.tlv(.integer, [0x01] + [UInt8](repeating: 0, count: 20)), "01" + String(repeating: "00", count: 20))])
    func serialNumbers(_ serial: [UInt8], _ hex: String) throws {
        var builder = CertificateBuilder()
        builder.serial = serial
        #expect(try Certificate(derEncoded: builder.der).serialNumberHex == hex)
    }

    @Test("Non-minimal serial number: nonMinimalInteger")
    func nonMinimalSerial() throws {
        var builder = CertificateBuilder()
        builder.serial = D.tlv(.integer, [0x00, 0x01])
        let der = builder.der
        expectRejected(der, .nonMinimalInteger, at: try D.offset(of: [0x02, 0x02, 0x00, 0x01], in: der))
    }

    @Test("Validity: UTCTime years 50-99 are 1950-1999; GeneralizedTime is flagged")
    func validityEncodings() throws {
        var builder = CertificateBuilder()
        builder.validity = D.seq(D.tlv(.utcTime, Array("500101000000Z".utf8)), D.tlv(.generalizedTime, Array("20491231235959Z".utf8)))
        let certificate = try Certificate(derEncoded: builder.der)
        #expect(certificate.notBefore == UnixTime(year: 1950, month: 1, day: 1))
        #expect(certificate.notAfter == UnixTime(year: 2049, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(certificate.validityUsesGeneralizedTime == (false, true))

        builder.validity = D.seq(D.tlv(.utcTime, Array("2501010000Z".utf8)), D.tlv(.utcTime, Array("450101000000Z".utf8)))
        let der = builder.der
        expectRejected(der, .invalidTime, at: try D.offset(of: [0x17, 0x0B], in: der))
    }

    @Test("RSASSA-PSS signature algorithm with SHA-256, MGF1-SHA-256 and a 32-byte salt")
    func pssSignatureAlgorithm() throws {
        var builder = CertificateBuilder()
        builder.innerAlgorithm = D.seq(D.oid(KnownOID.rsassaPSS), Self.pssParameters)
        #expect(try Certificate(derEncoded: builder.der).signatureAlgorithm == .rsaPSS(hash: .sha256, saltLength: 32))
    }

    @Test("RSASSA-PSS signature algorithm without parameters: invalidValue at the AlgorithmIdentifier (RFC 4055 3.1)")
    func pssSignatureAlgorithmWithoutParameters() throws {
        var builder = CertificateBuilder()
        builder.innerAlgorithm = D.seq(D.oid(KnownOID.rsassaPSS))
        let der = builder.der
        // The outer signatureAlgorithm (after the TBSCertificate) is read first.
        let tbs = builder.tbs
        let outer = try D.offset(of: tbs, in: der) + tbs.count
        expectRejected(der, .invalidValue, at: outer)
    }

    @Test("Unknown signature algorithms parse as unsupported")
    func unknownSignatureAlgorithm() throws {
        var builder = CertificateBuilder()
        builder.innerAlgorithm = D.seq(D.oid("1.2.643.7.1.1.3.2"))
        #expect(try Certificate(derEncoded: builder.der).signatureAlgorithm == .unsupported("1.2.643.7.1.1.3.2"))
    }

    // MARK: Extensions (RFC 5280 4.2)

    @Test("Duplicate extension: read, the first one kept, duplicateExtension recorded (RFC 5280 4.2)")
    func duplicateExtension() throws {
        let first = D.ext(KnownOID.subjectKeyIdentifier, D.octets([1]))
        let second = D.ext(KnownOID.subjectKeyIdentifier, D.octets([2]))
        let certificate = try expectFindings(CertificateBuilder.withExtensions(first, second).der, [.duplicateExtension])
        #expect(certificate.subjectKeyIdentifier.map(Array.init) == [1])
        #expect(certificate.extensions.count == 2)
    }

    @Test("A repeated known extension is validated like the first: a malformed repeat is a parse error")
    func duplicateExtensionValidated() throws {
        let first = D.ext(KnownOID.keyUsage, D.bits([0x80], unused: 7))
        let second = D.ext(KnownOID.keyUsage, D.octets([0x80]))
        let der = CertificateBuilder.withExtensions(first, second).der
        #expect(throws: DERError.self) { try Certificate(derEncoded: der) }
    }

    @Test("Duplicate unknown extension: recorded as well")
    func duplicateUnknownExtension() throws {
        let first = D.ext("1.3.6.1.4.1.99999.1", D.null)
        let second = D.ext("1.3.6.1.4.1.99999.1", D.int(1))
        try expectFindings(CertificateBuilder.withExtensions(first, second).der, [.duplicateExtension])
    }

    @Test("critical FALSE encoded: explicitDefault at the BOOLEAN")
    func criticalFalse() throws {
        let ext = D.ext(KnownOID.subjectKeyIdentifier, critical: false, D.octets([1]))
        let der = CertificateBuilder.withExtensions(ext).der
        expectRejected(der, .explicitDefault, at: try D.offset(of: ext, in: der) + 2 + D.oid(KnownOID.subjectKeyIdentifier).count)
    }

    @Test("Empty Extensions SEQUENCE: invalidValue")
    func emptyExtensions() throws {
        var builder = CertificateBuilder()
        builder.extensions = []
        let der = builder.der
        expectRejected(der, .invalidValue, at: try D.offset(of: [0xA3, 0x02, 0x30, 0x00], in: der) + 2)
    }

    @Test("Unknown extensions are kept with their criticality")
    func unknownExtensions() throws {
        let der = CertificateBuilder.withExtensions(D.ext("1.3.6.1.4.1.99999.1", critical: true, D.null),
                                                    D.ext("1.3.6.1.4.1.99999.2", D.int(7))).der
        let certificate = try Certificate(derEncoded: der)
        #expect(certificate.extensions.map(\.oid) == ["1.3.6.1.4.1.99999.1", "1.3.6.1.4.1.99999.2"])
        #expect(certificate.extensions.map(\.isCritical) == [true, false])
        #expect(certificate.unrecognizedCriticalExtensions.map(\.oid) == ["1.3.6.1.4.1.99999.1"])
        #expect(certificate.extension("1.3.6.1.4.1.99999.2").map { Array($0.value) } == D.int(7))
    }

    // MARK: GeneralName (RFC 5280 4.2.1.6)

    static let upn: OID = "1.3.6.1.4.1.311.20.2.3"

    @Test("Every GeneralName form in subjectAltName; otherName, x400Address and ediPartyName kept raw")
    func everyGeneralNameForm() throws {
        let otherNameValue = D.utf8("alice@corp.test")
        let x400 = D.ctx(3, constructed: true, D.seq(D.printable("x400")))
        let directory = D.name(D.rdn(D.atv(D.country, D.printable("US"))), D.rdn(D.atv(D.commonName, D.utf8("Dir"))))
        let edi = D.ctx(5, constructed: true, D.ctx(1, constructed: true, D.utf8("party")))
        let names = D.seq(
            D.ctx(0, constructed: true, D.oid(Self.upn), D.ctx(0, constructed: true, otherNameValue)),
            D.ctx(1, Array("alice@mail.test".utf8)),
            D.ctx(2, Array("www.model.test".utf8)),
            x400,
            D.ctx(4, constructed: true, directory),
            edi,
            D.ctx(6, Array("https://model.test/x".utf8)),
            D.ctx(7, [192, 0, 2, 1]),
            D.ctx(7, [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [1]),
            D.ctx(8, Array(OID("1.2.3.4").encoded)))
        let certificate = try Certificate(derEncoded: CertificateBuilder.withExtensions(D.ext(KnownOID.subjectAltName, names)).der)
        let sans = try #require(certificate.subjectAlternativeNames)
        let expected: [GeneralName] = [
            .otherName(typeID: Self.upn, value: otherNameValue[...]),
            .rfc822Name(Array("alice@mail.test".utf8)[...]),
            .dNSName(Array("www.model.test".utf8)[...]),
            .x400Address(x400[...]),
            .directoryName(try Name(derEncoded: directory)),
            .ediPartyName(edi[...]),
            .uniformResourceIdentifier(Array("https://model.test/x".utf8)[...]),
            .iPAddress([192, 0, 2, 1][...]),
            .iPAddress(([0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [1])[...]),
            .registeredID("1.2.3.4"),
        ]
        #expect(sans == expected)
        #expect(sans.map(\.description) == [
            "othername:1.3.6.1.4.1.311.20.2.3", "email:alice@mail.test", "DNS:www.model.test", "X400Name:<unsupported>",
            "DirName:CN=Dir,C=US", "EdiPartyName:<unsupported>", "URI:https://model.test/x", "IP:192.0.2.1", "IP:2001:db8::1",
            "RID:1.2.3.4",
        ])
    }

    @Test("subjectAltName iPAddress must be 4 or 16 octets", arguments: [0, 3, 5, 8, 15, 17, 32])
    func sanIPAddressLength(_ length: Int) throws {
        let element = D.ctx(7, [UInt8](repeating: 7, count: length))
        let der = CertificateBuilder.withExtensions(D.ext(KnownOID.subjectAltName, D.seq(element))).der
        expectRejected(der, .invalidValue, at: try D.offset(of: element, in: der))
    }

    @Test("GeneralName rejections", arguments: [
        ("empty GeneralNames", D.seq(), DERError.Code.invalidValue, 0),
        ("dNSName with a non-ASCII byte", D.seq(D.ctx(2, [0x61, 0x80])), .invalidString, 2),
        ("tag [9]", D.seq(D.ctx(9, [0x00])), .unexpectedTag, 2),
        ("constructed dNSName", D.seq(D.ctx(2, constructed: true, D.ia5("a"))), .unexpectedTag, 2),
        ("primitive directoryName", D.seq(D.ctx(4, [0x30, 0x00])), .unexpectedTag, 2),
        ("registeredID with a non-minimal arc", D.seq(D.ctx(8, [0x2A, 0x80, 0x01])), .invalidObjectIdentifier, 5),
    ] as [(String, [UInt8], DERError.Code, Int)])
    func generalNameRejections(_ what: String, _ value: [UInt8], _ code: DERError.Code, _ offsetInValue: Int) throws {
        let ext = D.ext(KnownOID.subjectAltName, value)
        let der = CertificateBuilder.withExtensions(ext).der
        expectRejected(der, code, at: try D.offset(of: value, in: der) + offsetInValue)
    }

    // MARK: Names: RFC 4514 rendering

    static func name(_ der: [UInt8]) throws -> Name { try Name(derEncoded: der) }

    @Test("RFC 4514: RDNs most significant last, multi-valued RDNs joined by +, short type names")
    func rfc4514Order() throws {
        let name = try Self.name(D.name(
            D.rdn(D.atv(D.country, D.printable("US"))),
            D.rdn(D.atv(D.organization, D.utf8("Example"))),
            D.rdn(D.atv(D.organizationalUnit, D.utf8("cd")), D.atv(D.commonName, D.utf8("ab"))),
            D.rdn(D.atv("0.9.2342.19200300.100.1.25", D.ia5("test"))),
            D.rdn(D.atv("0.9.2342.19200300.100.1.1", D.utf8("u1"))),
            D.rdn(D.atv("2.5.4.7", D.utf8("Town")), D.atv("2.5.4.8", D.utf8("Land")), D.atv("2.5.4.9", D.utf8("Road")))))
        #expect(name.description == "L=Town+ST=Land+STREET=Road,UID=u1,DC=test,CN=ab+OU=cd,O=Example,C=US")
        #expect(name.relativeDistinguishedNames.map(\.attributes.count) == [1, 1, 2, 1, 1, 3])
        #expect(name.values(of: D.commonName) == ["ab"])
    }

    @Test("RFC 4514 escaping", arguments: [
        (#"a,b+c"d\e<f>g;h"#, #"a\,b\+c\"d\\e\<f\>g\;h"#),
        ("#hash", "\\#hash"),
        ("mid#hash", "mid#hash"),
        (" lead", #"\ lead"#),
        ("trail ", #"trail\ "#),
        ("in side", "in side"),
        ("nul\u{0}x", #"nul\00x"#),
        ("Grüße", "Grüße"),
    ])
    func rfc4514Escaping(_ value: String, _ rendered: String) throws {
        #expect(try Self.name(D.cn(value)).description == "CN=" + rendered)
    }

    @Test("RFC 4514: unknown types as dotted OIDs, non-string values as #hex of their DER")
    func rfc4514UnknownTypes() throws {
        let name = try Self.name(D.name(D.rdn(D.atv("2.5.4.5", D.printable("1234"))), D.rdn(D.atv("1.2.3.4", D.int(5)))))
        #expect(name.description == "1.2.3.4=#020105,2.5.4.5=1234")
        #expect(name.attributes.map(\.stringValue) == ["1234", nil])
    }

    // MARK: Names: RFC 5280 7.1 comparison

    @Test("RFC 5280 7.1: equivalent names", arguments: [
        (D.cn("Example CA"), D.cn("example ca")),
        (D.cn("Example CA"), D.cn("  Example   CA ")),
        (D.cn("Example CA"), D.name(D.rdn(D.atv(D.commonName, D.printable("EXAMPLE CA"))))),
        (D.name(D.rdn(D.atv(D.country, D.printable("US"))), D.rdn(D.atv(D.commonName, D.utf8("x")))),
         D.name(D.rdn(D.atv(D.country, D.utf8("us"))), D.rdn(D.atv(D.commonName, D.printable("X"))))),
        (D.name(D.rdn(D.atv(D.commonName, D.utf8("x")), D.atv(D.organizationalUnit, D.printable("y")))),
         D.name(D.rdn(D.atv(D.commonName, D.printable("X")), D.atv(D.organizationalUnit, D.utf8("Y"))))),
        (D.cn("Example"), D.name(D.rdn(D.atv(D.commonName, D.tlv(.bmpString, Array("EXAMPLE".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })))))),
        (D.name(), D.name()),
        // RFC 5280 4.1.2.6: "emailAddress attribute values are not case-sensitive" (IA5String, caseIgnoreIA5Match).
        (D.name(D.rdn(D.atv("1.2.840.113549.1.9.1", D.ia5("A@b.test")))), D.name(D.rdn(D.atv("1.2.840.113549.1.9.1", D.ia5("a@B.test"))))),
    ])
    func equivalentNames(_ a: [UInt8], _ b: [UInt8]) throws {
        let first = try Self.name(a), second = try Self.name(b)
        #expect(first.isEquivalent(to: second))
        #expect(second.isEquivalent(to: first))
        #expect(first.normalizedKey == second.normalizedKey)
    }

    @Test("RFC 5280 7.1: different names", arguments: [
        (D.cn("Example CA"), D.cn("Example CA 2")),
        (D.cn("Example CA"), D.cn("ExampleCA")),
        (D.cn("Example CA"), D.name(D.rdn(D.atv(D.organization, D.utf8("Example CA"))))),
        (D.cn("x"), D.name(D.rdn(D.atv(D.country, D.printable("US"))), D.rdn(D.atv(D.commonName, D.utf8("x"))))),
        (D.name(D.rdn(D.atv(D.country, D.printable("US"))), D.rdn(D.atv(D.commonName, D.utf8("x")))),
         D.name(D.rdn(D.atv(D.commonName, D.utf8("x"))), D.rdn(D.atv(D.country, D.printable("US"))))),
        (D.name(D.rdn(D.atv(D.commonName, D.utf8("x")), D.atv(D.organizationalUnit, D.utf8("y")))),
         D.name(D.rdn(D.atv(D.commonName, D.utf8("x"))), D.rdn(D.atv(D.organizationalUnit, D.utf8("y"))))),
        // Non-string values (no matching rule CertPath knows for them) are compared exactly.
        (D.name(D.rdn(D.atv("1.3.6.1.4.1.99999.7.1", D.tlv(.octetString, Array("A@b.test".utf8))))),
         D.name(D.rdn(D.atv("1.3.6.1.4.1.99999.7.1", D.tlv(.octetString, Array("a@b.test".utf8)))))),
        (D.name(D.rdn(D.atv("1.2.840.113549.1.9.1", D.ia5("a@b.test")))), D.name(D.rdn(D.atv("1.2.840.113549.1.9.1", D.ia5("b@b.test"))))),
        (D.cn("x"), D.name()),
    ])
    func differentNames(_ a: [UInt8], _ b: [UInt8]) throws {
        let first = try Self.name(a), second = try Self.name(b)
        #expect(!first.isEquivalent(to: second))
        #expect(first.normalizedKey != second.normalizedKey)
    }

    @Test("Name rejections", arguments: [
        ("multi-valued RDN out of DER order", D.name(D.set(D.atv(D.organizationalUnit, D.utf8("a")), D.atv(D.commonName, D.utf8("b")))),
         DERError.Code.unsortedSet, 2 + 2 + D.atv(D.organizationalUnit, D.utf8("a")).count),
        ("empty RDN", D.name(D.set()), .invalidValue, 2),
        ("PrintableString with @", D.name(D.rdn(D.atv(D.commonName, D.printable("a@b")))), .invalidString, 2 + 2 + 2 + 5),
        ("UTF8String with invalid UTF-8", D.name(D.rdn(D.atv(D.commonName, D.tlv(.utf8String, [0xC3, 0x28])))), .invalidString, 11),
        ("SET instead of SEQUENCE", D.set(), .unexpectedTag, 0),
        ("trailing data", D.cn("x") + [0x00], .trailingData, 14),
    ] as [(String, [UInt8], DERError.Code, Int)])
    func nameRejections(_ what: String, _ der: [UInt8], _ code: DERError.Code, _ offset: Int) {
        expectDERError(code, at: offset) { () throws(DERError) in _ = try Name(derEncoded: der) }
    }

    // MARK: PEM

    static func certificateDER(_ cn: String) -> [UInt8] {
        var builder = CertificateBuilder()
        builder.subject = D.cn(cn)
        return builder.der
    }

    /// Lines of 64 base64 characters that `der` takes in PEM.
    static func base64Lines(_ der: [UInt8]) -> Int { ((der.count + 2) / 3 * 4 + 63) / 64 }

    @Test("Several blocks, text between, headers, other labels: certificates and what was skipped")
    func pemDocument() throws {
        let one = Self.certificateDER("one"), two = Self.certificateDER("two")
        let text = """
            subject=CN=one
            issuer=CN=Model Test CA
            \(PEM.encode(one))
            comment between

            -----BEGIN PRIVATE KEY-----
            AAAA
            -----END PRIVATE KEY-----
            -----BEGIN CERTIFICATE-----
            Proc-Type: 4,ENCRYPTED
            DEK-Info: none

            \(PEM.encode(two).split(separator: "\n").dropFirst().joined(separator: "\n"))
            trailing text
            """
        let file = try PEM.readCertificates(Array(text.utf8))
        #expect(file.certificates.map(\.subject.description) == ["CN=one", "CN=two"])
        let document = try PEM.decode(Array(text.utf8))
        #expect(document.blocks.map(\.label) == ["CERTIFICATE", "PRIVATE KEY", "CERTIFICATE"])
        #expect(document.blocks[2].headers == ["Proc-Type: 4,ENCRYPTED", "DEK-Info: none"])
        // Lines: 2 of text, BEGIN, the base64 lines, END, an empty line, the comment, a blank line.
        let keyLine = 3 + Self.base64Lines(one) + 5
        let secondLine = keyLine + 3
        // BEGIN, 2 headers, a blank line, the base64 lines, END, the trailing text.
        let trailingLine = secondLine + 4 + Self.base64Lines(two) + 1
        #expect(document.blocks.map(\.line) == [3, keyLine, secondLine])
        #expect(file.skipped.map(\.description) == [
            "lines 1-2: text", "line \(keyLine - 2): text", "line \(keyLine): PRIVATE KEY block",
            "lines \(secondLine + 1)-\(secondLine + 2): headers", "line \(trailingLine): text",
        ])
    }

    @Test("CRLF line ends and an X509 CERTIFICATE label")
    func pemCRLF() throws {
        let der = Self.certificateDER("crlf")
        let lf = PEM.encode(der, label: "X509 CERTIFICATE")
        let crlf = lf.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
        let file = try PEM.readCertificates(Array(crlf.utf8))
        #expect(file.certificates.map(\.der) == [der])
        #expect(file.skipped.isEmpty)
    }

    /// Reviewer finding: a PEM file with lone CR line ends (RFC 7468 3 allows CRLF, CR or LF) gave a
    /// garbled "no END line".
    @Test("Lone CR and mixed line ends (RFC 7468 eol = CRLF / CR / LF); line numbers count each end once")
    func pemLoneCR() throws {
        let der = Self.certificateDER("cr")
        let lf = "intro\n" + PEM.encode(der, label: "CERTIFICATE")
        let cr = lf.replacingOccurrences(of: "\n", with: "\r")
        #expect(try PEM.readCertificates(Array(cr.utf8)).certificates.map(\.der) == [der])
        // Mixed: the first line ends in CR, the second in CRLF, the rest in LF.
        var lines = lf.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let mixed = lines[0] + "\r" + lines[1] + "\r\n" + lines[2...].joined(separator: "\n")
        let document = try PEM.decode(Array(mixed.utf8))
        #expect(document.blocks.map(\.line) == [2] && document.blocks.first?.der == der)
        // An error's line number with CR line ends: the block at line 3 never ends.
        lines = ["a", "b", "-----BEGIN CERTIFICATE-----", "QUJD"]
        let pemError = try #require(Self.pemError(lines.joined(separator: "\r")))
        #expect(pemError.line == 3 && pemError.reason.contains("no \"-----END CERTIFICATE-----\""), "\(pemError.reason)")
    }

    /// Reviewer finding: a PEM file saved with a UTF-8 byte-order mark was "no certificate found".
    @Test("A UTF-8 byte-order mark starting the file or a line is ignored (files saved so, then concatenated)")
    func pemByteOrderMark() throws {
        let der = Self.certificateDER("bom")
        let pem = Array(PEM.encode(der).utf8)
        let file = try PEM.readCertificates([0xEF, 0xBB, 0xBF] + pem)
        #expect(file.certificates.map(\.der) == [der])
        #expect(file.skipped.isEmpty)
        let second = try PEM.readCertificates(pem + [0xEF, 0xBB, 0xBF] + pem)
        #expect(second.certificates.map(\.der) == [der, der])
        #expect(second.skipped.isEmpty)
    }

    /// Reviewer finding: in a chain file whose first line was "0-----BEGIN CERTIFICATE-----", the
    /// leaf block was skipped as text, and the intermediate silently became the leaf.
    @Test("An END line outside a block is an error naming its line, not text")
    func orphanEndLine() throws {
        let leaf = PEM.encode(Self.certificateDER("leaf")), ca = PEM.encode(Self.certificateDER("ca"))
        let glued = "0" + leaf + ca
        let error = try #require(Self.pemError(glued))
        let endLine = leaf.split(separator: "\n").count
        #expect(error.line == endLine && error.reason.hasPrefix("END line for \"CERTIFICATE\" without a BEGIN line before it"),
                "\(error.line): \(error.reason)")
        // Text mentioning the marker mid-line is still text.
        #expect(try PEM.readCertificates(Array(("see the -----END CERTIFICATE----- line\n" + ca).utf8)).certificates.count == 1)
    }

    @Test("A DER file is read as one certificate")
    func derFile() throws {
        let der = Self.certificateDER("der")
        #expect(try PEM.readCertificates(der).certificates.map(\.der) == [der])
    }

    /// Reviewer finding: a PEM file whose text starts with "0" (0x30, the SEQUENCE tag) was read as
    /// DER and refused with a DER error.
    @Test("Text starting with 0 and holding a BEGIN line is read as PEM; DER that fails without one keeps its DER error")
    func textStartingWithZero() throws {
        let der = Self.certificateDER("zero")
        let text = Array(("0 = the first certificate\n" + PEM.encode(der)).utf8)
        let file = try PEM.readCertificates(text)
        #expect(file.certificates.map(\.der) == [der])
        #expect(file.skipped.map(\.description) == ["line 1: text"])
        // A CRL file likewise.
        let crl = CRLFixture.CRL().der
        #expect(try PEM.readCRLs(Array(("0\n" + PEM.encode(crl, label: "X509 CRL")).utf8)).crls.map(\.der) == [crl])
        // "0" text with a broken block: the PEM error, not a DER one.
        if case .pem(let error)? = Self.fileError(Array("0\n-----BEGIN CERTIFICATE-----\n".utf8)) {
            #expect(error.line == 2 && error.reason.contains("no \"-----END CERTIFICATE-----\""), "\(error.reason)")
        } else {
            Issue.record("expected a PEM error")
        }
        // DER with a trailing byte and no BEGIN line: still the DER error.
        guard case .certificate(index: 0, line: nil, let derError)? = Self.fileError(der + [0]) else {
            Issue.record("expected the DER error")
            return
        }
        #expect(derError.code == .trailingData)
        // "-----BEGIN " only counts at the start of a line.
        guard case .certificate(index: 0, line: nil, _)? = Self.fileError(der + Array(" -----BEGIN X".utf8)) else {
            Issue.record("expected the DER error")
            return
        }
        guard case .pem? = Self.fileError(der + Array("\n-----BEGIN CERTIFICATE-----\n".utf8)) else {
            Issue.record("expected a PEM error")
            return
        }
        // A BEGIN-like line that makes no block: the DER error stands.
        guard case .certificate(index: 0, line: nil, let stillDER)? = Self.fileError(der + [0] + Array("\n-----BEGIN X".utf8)) else {
            Issue.record("expected the DER error")
            return
        }
        #expect(stillDER.code == .trailingData)
    }

    static func fileError(_ bytes: [UInt8]) -> PEM.CertificateFileError? {
        do throws(PEM.CertificateFileError) {
            _ = try PEM.readCertificates(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("PEM errors: mismatched END, missing END, bad base64, with their lines")
    func pemErrors() throws {
        let body = PEM.encode(Self.certificateDER("x")).split(separator: "\n").dropFirst().dropLast().joined(separator: "\n")
        let bodyLines = body.split(separator: "\n").count
        let cases: [(String, Int, String)] = [
            ("intro\n-----BEGIN CERTIFICATE-----\n\(body)\n-----END X509 CRL-----\n", 3 + bodyLines, "does not match"),
            ("-----BEGIN CERTIFICATE-----\n\(body)\n", 1, "no \"-----END CERTIFICATE-----\""),
            ("\n\n-----BEGIN CERTIFICATE-----\nAB@D\n-----END CERTIFICATE-----\n", 4, "a character outside base64 on this line"),
            ("-----BEGIN CERTIFICATE-----\nQUJD=\n-----END CERTIFICATE-----\n", 1, "base64"),
        ]
        for (text, line, reason) in cases {
            let pemError = try #require(Self.pemError(text))
            #expect(pemError.line == line)
            #expect(pemError.reason.contains(reason), "\(pemError.reason)")
        }
    }

    /// The PEM error reading `text` gives; `nil` (with an issue recorded) when it reads, or fails otherwise.
    static func pemError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> PEM.Error? {
        do throws(PEM.CertificateFileError) {
            _ = try PEM.readCertificates(Array(text.utf8))
            Issue.record("read without error", sourceLocation: sourceLocation)
        } catch {
            if case .pem(let pemError) = error { return pemError }
            Issue.record("expected a PEM error, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    @Test("PEM labels echoed in errors and skipped blocks are cut after 64 characters")
    func pemLabelsBounded() throws {
        let long = String(repeating: "L", count: 100_000)
        let cut = String(repeating: "L", count: 64) + "…"
        #expect(Self.pemError("-----BEGIN \(long)-----\nQUJD\n")?.reason == "no \"-----END \(cut)-----\" line for this block")
        #expect(Self.pemError("-----BEGIN \(long)-----\nQUJD\n-----END \(long)X-----\n")?.reason
                == "END label \"\(cut)\" (100001 bytes) does not match BEGIN \"\(cut)\" (100000 bytes) of line 1")
        // Counted in Unicode scalars, not characters: 64 letters, then one character of 100,001
        // scalars (a letter and 100,000 combining accents), is cut like any other long label.
        let combining = String(repeating: "A", count: 64) + "X" + String(repeating: "\u{301}", count: 100_000)
        #expect(Self.pemError("-----BEGIN \(combining)-----\nQUJD\n-----END B-----\n")?.reason
                == "END label \"B\" does not match BEGIN \"\(String(repeating: "A", count: 64))…\" (200065 bytes) of line 1")
        // 65 scalars are cut too; 64 are not.
        let sixtyFive = String(repeating: "L", count: 65)
        #expect(try PEM.readCertificates(Array("-----BEGIN \(sixtyFive)-----\nQUJD\n-----END \(sixtyFive)-----\n".utf8)).skipped.map(\.kind)
            == [String(repeating: "L", count: 64) + "… block"])
        #expect(try PEM.readCertificates(Array("-----BEGIN \(sixtyFive.dropLast())-----\nQUJD\n-----END \(sixtyFive.dropLast())-----\n".utf8))
            .skipped.map(\.kind) == [String(repeating: "L", count: 64) + " block"])
        let read = try PEM.readCertificates(Array("-----BEGIN \(long)-----\nQUJD\n-----END \(long)-----\n".utf8))
        #expect(read.certificates.isEmpty)
        #expect(read.skipped.map(\.kind) == ["\(cut) block"])
        let crls = try PEM.readCRLs(Array("-----BEGIN \(long)-----\nQUJD\n-----END \(long)-----\n".utf8))
        #expect(crls.skipped.map(\.kind) == ["\(cut) block"])
    }

    @Test("A malformed certificate in the second block: its index, line and DER error")
    func pemMalformedCertificate() throws {
        let good = Self.certificateDER("good")
        var bad = CertificateBuilder()
        bad.version = D.ctx(0, constructed: true, D.int(0))
        let text = PEM.encode(good) + "\n" + PEM.encode(bad.der)
        let secondLine = Self.base64Lines(good) + 2 + 2  // BEGIN, base64, END, the empty line
        do throws(PEM.CertificateFileError) {
            _ = try PEM.readCertificates(Array(text.utf8))
            Issue.record("read without error")
        } catch {
            guard case .certificate(let index, let line, let derError) = error else {
                Issue.record("expected a certificate error, got \(error)")
                return
            }
            #expect(index == 1)
            #expect(line == secondLine)
            #expect(derError.code == .explicitDefault)
        }
    }

    // MARK: basicConstraints (RFC 5280 4.2.1.9)

    static func certificate(_ extensions: [UInt8]...) throws -> Certificate {
        var builder = CertificateBuilder()
        builder.extensions = extensions
        return try Certificate(derEncoded: builder.der)
    }

    /// Expects a certificate with one extension of `oid` holding `value` to be rejected with `code`
    /// at `offsetInValue` bytes into `value` (nil: offset not checked).
    static func expectExtensionRejected(_ oid: OID, _ value: [UInt8], _ code: DERError.Code, at offsetInValue: Int?,
                                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ext = D.ext(oid, value)
        let der = CertificateBuilder.withExtensions(ext).der
        let start = try D.offset(of: ext, in: der, sourceLocation: sourceLocation) + ext.count - value.count
        expectRejected(der, code, at: offsetInValue.map { start + $0 }, sourceLocation: sourceLocation)
    }

    @Test("basicConstraints decoding")
    func basicConstraints() throws {
        let ca = try Self.certificate(D.ext(KnownOID.basicConstraints, critical: true, D.seq(D.bool(true), D.int(3))))
        #expect(ca.basicConstraints == BasicConstraints(isCertificateAuthority: true, pathLenConstraint: 3))
        #expect(ca.isCertificateAuthority)
        let ee = try Self.certificate(D.ext(KnownOID.basicConstraints, D.seq()))
        #expect(ee.basicConstraints == BasicConstraints(isCertificateAuthority: false, pathLenConstraint: nil))
        #expect(!ee.isCertificateAuthority)
    }

    @Test("basicConstraints: cA FALSE encoded is read (a leniency); pathLenConstraint without cA is recorded and ignored")
    func basicConstraintsFindings() throws {
        let explicitFalse = try expectFindings(CertificateBuilder.withExtensions(D.ext(KnownOID.basicConstraints, D.seq(D.bool(false)))).der,
                                               [], leniencies: [.explicitCAFalse])
        #expect(explicitFalse.basicConstraints == BasicConstraints(isCertificateAuthority: false, pathLenConstraint: nil))
        let lengthWithoutCA = try expectFindings(CertificateBuilder.withExtensions(D.ext(KnownOID.basicConstraints, D.seq(D.int(0)))).der,
                                                 [.pathLengthConstraintWithoutCA])
        #expect(lengthWithoutCA.basicConstraints == BasicConstraints(isCertificateAuthority: false, pathLenConstraint: nil))
        let both = try expectFindings(CertificateBuilder.withExtensions(D.ext(KnownOID.basicConstraints, D.seq(D.bool(false), D.int(2)))).der,
                                      [.pathLengthConstraintWithoutCA], leniencies: [.explicitCAFalse])
        #expect(both.basicConstraints?.pathLenConstraint == nil)
    }

    @Test("basicConstraints rejections", arguments: [
        ("BOOLEAN not 00 or FF", D.seq(D.tlv(.boolean, [0x01])), DERError.Code.invalidBoolean, 2),
        ("negative pathLenConstraint", D.seq(D.bool(true), D.int(-1)), .negativeInteger, 5),
        ("huge pathLenConstraint", D.seq(D.bool(true), D.tlv(.integer, [0x01, 0, 0, 0, 0])), .integerTooLarge, 5),
        ("trailing element", D.seq(D.bool(true), D.int(1), D.null), .trailingData, 8),
        ("not a SEQUENCE", D.bool(true), .unexpectedTag, 0),
    ] as [(String, [UInt8], DERError.Code, Int)])
    func basicConstraintsRejections(_ what: String, _ value: [UInt8], _ code: DERError.Code, _ offset: Int) throws {
        try Self.expectExtensionRejected(KnownOID.basicConstraints, value, code, at: offset)
    }

    // MARK: keyUsage (RFC 5280 4.2.1.3)

    @Test("keyUsage decoding", arguments: [
        (D.bits([0x80], unused: 7), KeyUsage.digitalSignature),
        (D.bits([0x86], unused: 1), KeyUsage([.digitalSignature, .keyCertSign, .cRLSign])),
        (D.bits([0x20], unused: 5), KeyUsage.keyEncipherment),
        (D.bits([0x00, 0x80], unused: 7), KeyUsage.decipherOnly),
        (D.bits([0xFF, 0x80], unused: 7), KeyUsage(rawValue: 0x1FF)),
    ] as [([UInt8], KeyUsage)])
    func keyUsage(_ value: [UInt8], _ expected: KeyUsage) throws {
        #expect(try Self.certificate(D.ext(KnownOID.keyUsage, critical: true, value)).keyUsage == expected)
    }

    @Test("keyUsage: what parsing records rather than refuses", arguments: [
        ("no bit set", D.bits([]), KeyUsage(), [ProfileRule.keyUsageWithoutBits], [EncodingLeniency]()),
        ("one zero bit", D.bits([0x00], unused: 7), KeyUsage(), [.keyUsageWithoutBits], [.keyUsageTrailingZeroBits]),
        // The Trustwave ECC roots of the Debian bundle: 03 02 01 06 (keyCertSign, cRLSign, one zero bit).
        ("trailing zero bits", D.bits([0x06, 0x00], unused: 7), KeyUsage([.keyCertSign, .cRLSign]), [], [.keyUsageTrailingZeroBits]),
        ("trailing zero bits in the last octet", D.bits([0x06], unused: 0), KeyUsage([.keyCertSign, .cRLSign]), [], [.keyUsageTrailingZeroBits]),
        ("trailing zero octet", D.bits([0x80, 0x00], unused: 0), .digitalSignature, [], [.keyUsageTrailingZeroBits]),
        ("bit 9 set", D.bits([0x00, 0x40], unused: 6), KeyUsage(), [.keyUsageUndefinedBits], []),
        ("bits 0 and 9 set", D.bits([0x80, 0x40], unused: 6), .digitalSignature, [.keyUsageUndefinedBits], []),
    ] as [(String, [UInt8], KeyUsage, [ProfileRule], [EncodingLeniency])])
    func keyUsageFindings(_ what: String, _ value: [UInt8], _ usage: KeyUsage, _ findings: [ProfileRule],
                          _ leniencies: [EncodingLeniency]) throws {
        let certificate = try expectFindings(CertificateBuilder.withExtensions(D.ext(KnownOID.keyUsage, value)).der, findings,
                                             leniencies: leniencies)
        #expect(certificate.keyUsage == usage)
    }

    @Test("keyUsage rejections", arguments: [
        ("non-zero padding", D.bits([0x81], unused: 7), DERError.Code.invalidBitString, 3),
        ("unused bits 8", [0x03, 0x02, 0x08, 0x00], .invalidBitString, 2),
        ("not a BIT STRING", D.octets([0x80]), .unexpectedTag, 0),
    ] as [(String, [UInt8], DERError.Code, Int)])
    func keyUsageRejections(_ what: String, _ value: [UInt8], _ code: DERError.Code, _ offset: Int) throws {
        try Self.expectExtensionRejected(KnownOID.keyUsage, value, code, at: offset)
    }

    // MARK: extKeyUsage (RFC 5280 4.2.1.12)

    @Test("extKeyUsage decoding and rejections")
    func extendedKeyUsage() throws {
        let certificate = try Self.certificate(D.ext(KnownOID.extKeyUsage, D.seq(D.oid(KnownOID.serverAuth), D.oid(KnownOID.clientAuth))))
        let usage = try #require(certificate.extendedKeyUsage)
        #expect(usage.usages == [KnownOID.serverAuth, KnownOID.clientAuth])
        #expect(usage.contains(KnownOID.clientAuth))
        #expect(!usage.containsAnyExtendedKeyUsage)
        #expect(usage.description == "serverAuth, clientAuth")
        try Self.expectExtensionRejected(KnownOID.extKeyUsage, D.seq(), .invalidValue, at: 2)
        try Self.expectExtensionRejected(KnownOID.extKeyUsage, D.seq(D.int(1)), .unexpectedTag, at: 2)
    }

    // MARK: nameConstraints (RFC 5280 4.2.1.10)

    @Test("nameConstraints decoding")
    func nameConstraints() throws {
        let value = D.seq(D.ctx(0, constructed: true, D.seq(D.ctx(2, Array(".example.test".utf8)))),
                          D.ctx(1, constructed: true, D.seq(D.ctx(7, [10, 0, 0, 0, 255, 0, 0, 0])),
                                D.seq(D.ctx(1, Array("mail.test".utf8)))))
        let certificate = try Self.certificate(D.ext(KnownOID.nameConstraints, critical: true, value))
        let nc = try #require(certificate.nameConstraints)
        #expect(nc.permittedSubtrees?.map(\.base) == [.dNSName(Array(".example.test".utf8)[...])])
        #expect(nc.excludedSubtrees?.map(\.base) == [.iPAddress([10, 0, 0, 0, 255, 0, 0, 0][...]), .rfc822Name(Array("mail.test".utf8)[...])])
    }

    static let dnsSubtree = D.ctx(2, Array("a.test".utf8))

    // Only DER and ASN.1 structure are decoding errors. "minimum 1", "maximum", "iPAddress without
    // mask" and "non-contiguous mask" used to be rejected here (.unsupported, .invalidValue); they
    // are RFC 5280 4.2.1.10 prose rules, now checked by NameConstraints.firstMalformedSubtree()
    // (NameConstraintSyntaxTests), so the certificate parses and the next test says what it keeps.
    @Test("nameConstraints rejections", arguments: [
        ("empty permittedSubtrees", D.seq(D.ctx(0, constructed: true)), DERError.Code.invalidValue, 4),
        ("minimum 0 encoded", D.seq(D.ctx(0, constructed: true, D.seq(dnsSubtree, D.ctx(0, [0x00])))), .explicitDefault, 6 + dnsSubtree.count),
        ("negative minimum", D.seq(D.ctx(0, constructed: true, D.seq(dnsSubtree, D.ctx(0, [0xFF])))), .negativeInteger, 6 + dnsSubtree.count),
        ("negative maximum", D.seq(D.ctx(1, constructed: true, D.seq(dnsSubtree, D.ctx(1, [0x80])))), .negativeInteger, 6 + dnsSubtree.count),
        ("non-minimal minimum", D.seq(D.ctx(0, constructed: true, D.seq(dnsSubtree, D.ctx(0, [0x00, 0x01])))), .nonMinimalInteger, 6 + dnsSubtree.count),
        ("empty maximum", D.seq(D.ctx(0, constructed: true, D.seq(dnsSubtree, D.ctx(1, [])))), .emptyInteger, 6 + dnsSubtree.count),
    ] as [(String, [UInt8], DERError.Code, Int)])
    func nameConstraintsRejections(_ what: String, _ value: [UInt8], _ code: DERError.Code, _ offset: Int) throws {
        try Self.expectExtensionRejected(KnownOID.nameConstraints, value, code, at: offset)
    }

    @Test("nameConstraints that break RFC 5280 prose, not DER, decode and keep what they say", arguments: [
        ("minimum 1", D.seq(D.ctx(0, constructed: true, D.seq(dnsSubtree, D.ctx(0, [0x01])))),
         GeneralName.dNSName(Array("a.test".utf8)[...]), true),
        ("maximum 5", D.seq(D.ctx(1, constructed: true, D.seq(dnsSubtree, D.ctx(1, [0x05])))),
         GeneralName.dNSName(Array("a.test".utf8)[...]), true),
        ("minimum of 9 octets", D.seq(D.ctx(0, constructed: true, D.seq(dnsSubtree, D.ctx(0, [0x01] + [UInt8](repeating: 0, count: 8))))),
         GeneralName.dNSName(Array("a.test".utf8)[...]), true),
        ("iPAddress without mask", D.seq(D.ctx(0, constructed: true, D.seq(D.ctx(7, [10, 0, 0, 0])))),
         GeneralName.iPAddress([10, 0, 0, 0][...]), false),
        ("non-contiguous mask", D.seq(D.ctx(0, constructed: true, D.seq(D.ctx(7, [10, 0, 0, 0, 255, 0, 255, 0])))),
         GeneralName.iPAddress([10, 0, 0, 0, 255, 0, 255, 0][...]), false),
        ("leading-dot dNSName", D.seq(D.ctx(0, constructed: true, D.seq(D.ctx(2, Array(".a.test".utf8))))),
         GeneralName.dNSName(Array(".a.test".utf8)[...]), false),
    ] as [(String, [UInt8], GeneralName, Bool)])
    func nameConstraintsBreakingProseDecode(_ what: String, _ value: [UInt8], _ base: GeneralName, _ nonDefaultBounds: Bool) throws {
        let certificate = try Self.certificate(D.ext(KnownOID.nameConstraints, critical: true, value))
        let nc = try #require(certificate.nameConstraints)
        let subtrees = (nc.permittedSubtrees ?? []) + (nc.excludedSubtrees ?? [])
        #expect(subtrees.map(\.base) == [base])
        #expect(subtrees.map(\.hasNonDefaultBounds) == [nonDefaultBounds])
    }

    @Test("nameConstraints with neither subtree: read as constraining nothing, emptyNameConstraints recorded")
    func emptyNameConstraints() throws {
        let certificate = try expectFindings(CertificateBuilder.withExtensions(D.ext(KnownOID.nameConstraints, critical: true, D.seq())).der,
                                             [.emptyNameConstraints])
        #expect(certificate.nameConstraints == NameConstraints(permittedSubtrees: nil, excludedSubtrees: nil))
    }

    // MARK: authorityKeyIdentifier, subjectKeyIdentifier (RFC 5280 4.2.1.1, 4.2.1.2)

    @Test("authorityKeyIdentifier decoding and the issuer/serial pairing rule")
    func authorityKeyIdentifier() throws {
        let keyOnly = try Self.certificate(D.ext(KnownOID.authorityKeyIdentifier, D.seq(D.ctx(0, [0xAA, 0xBB]))))
        #expect(keyOnly.authorityKeyIdentifier?.keyIdentifier.map(Array.init) == [0xAA, 0xBB])
        #expect(keyOnly.authorityKeyIdentifier?.authorityCertIssuer == nil)

        let directory = D.cn("Issuer")
        let full = try Self.certificate(D.ext(KnownOID.authorityKeyIdentifier, D.seq(
            D.ctx(0, [0x01]), D.ctx(1, constructed: true, D.ctx(4, constructed: true, directory)), D.ctx(2, [0x00, 0x99]))))
        let aki = try #require(full.authorityKeyIdentifier)
        #expect(aki.authorityCertIssuer == [.directoryName(try Name(derEncoded: directory))])
        #expect(aki.authorityCertSerialNumber.map(Array.init) == [0x00, 0x99])

        // Only one of authorityCertIssuer and authorityCertSerialNumber: read, recorded.
        for value in [D.seq(D.ctx(1, constructed: true, D.ctx(4, constructed: true, directory))), D.seq(D.ctx(2, [0x01])),
                      D.seq(D.ctx(0, [0x01]), D.ctx(2, [0x01]))] {
            try expectFindings(CertificateBuilder.withExtensions(D.ext(KnownOID.authorityKeyIdentifier, value)).der,
                               [.authorityKeyIdentifierIssuerWithoutSerial])
        }
        try Self.expectExtensionRejected(KnownOID.subjectKeyIdentifier, D.seq(), .unexpectedTag, at: 0)
    }

    // MARK: Policy extensions (RFC 5280 4.2.1.4, 4.2.1.5, 4.2.1.11, 4.2.1.14)

    @Test("certificatePolicies, policyMappings, policyConstraints, inhibitAnyPolicy decoding")
    func policyExtensions() throws {
        let qualifiers = D.seq(D.seq(D.oid("1.3.6.1.5.5.7.2.1"), D.ia5("https://cps.test")))
        let certificate = try Self.certificate(
            D.ext(KnownOID.certificatePolicies, D.seq(D.seq(D.oid("2.23.140.1.2.1")), D.seq(D.oid(KnownOID.anyPolicy), qualifiers))),
            D.ext(KnownOID.policyMappings, D.seq(D.seq(D.oid("1.2.3.1"), D.oid("1.2.3.2")))),
            D.ext(KnownOID.policyConstraints, critical: true, D.seq(D.ctx(0, [0x02]))),
            D.ext(KnownOID.inhibitAnyPolicy, critical: true, D.int(1)))
        let policies = try #require(certificate.certificatePolicies)
        #expect(policies.map(\.policyIdentifier) == ["2.23.140.1.2.1", KnownOID.anyPolicy])
        #expect(policies[0].policyQualifiers == nil)
        #expect(policies[1].policyQualifiers.map(Array.init) == qualifiers)
        #expect(certificate.policyMappings?.map(\.issuerDomainPolicy) == ["1.2.3.1"])
        #expect(certificate.policyMappings?.map(\.subjectDomainPolicy) == ["1.2.3.2"])
        #expect(certificate.policyConstraints?.requireExplicitPolicy == 2)
        #expect(certificate.policyConstraints?.inhibitPolicyMapping == nil)
        #expect(certificate.inhibitAnyPolicy == 1)
    }

    @Test("Policy extension rejections", arguments: [
        ("empty certificatePolicies", KnownOID.certificatePolicies, D.seq(), DERError.Code.invalidValue, 2),
        ("empty qualifiers", KnownOID.certificatePolicies, D.seq(D.seq(D.oid("1.2.3"), D.seq())), .invalidValue, 2 + 2 + 4),
        ("empty policyMappings", KnownOID.policyMappings, D.seq(), .invalidValue, 2),
        ("negative inhibitAnyPolicy", KnownOID.inhibitAnyPolicy, D.int(-1), .negativeInteger, 0),
    ] as [(String, OID, [UInt8], DERError.Code, Int)])
    func policyRejections(_ what: String, _ oid: OID, _ value: [UInt8], _ code: DERError.Code, _ offset: Int) throws {
        try Self.expectExtensionRejected(oid, value, code, at: offset)
    }

    @Test("Policy extensions: what parsing records rather than refuses", arguments: [
        ("policy listed twice", KnownOID.certificatePolicies, D.seq(D.seq(D.oid("1.2.3")), D.seq(D.oid("1.2.3"))),
         ProfileRule.duplicatePolicyIdentifier),
        ("empty policyConstraints", KnownOID.policyConstraints, D.seq(), .emptyPolicyConstraints),
        ("an unknown qualifier", KnownOID.certificatePolicies, D.seq(D.seq(D.oid("1.2.3"), D.seq(D.seq(D.oid("1.2.3.4"), D.null)))),
         .uninterpretedPolicyQualifier),
        ("a CPS qualifier that is not an IA5String", KnownOID.certificatePolicies,
         D.seq(D.seq(D.oid("1.2.3"), D.seq(D.seq(D.oid("1.3.6.1.5.5.7.2.1"), D.utf8("x"))))), .uninterpretedPolicyQualifier),
        ("a user notice that is not a SEQUENCE", KnownOID.certificatePolicies,
         D.seq(D.seq(D.oid("1.2.3"), D.seq(D.seq(D.oid("1.3.6.1.5.5.7.2.2"), D.ia5("x"))))), .uninterpretedPolicyQualifier),
    ] as [(String, OID, [UInt8], ProfileRule)])
    func policyFindings(_ what: String, _ oid: OID, _ value: [UInt8], _ finding: ProfileRule) throws {
        try expectFindings(CertificateBuilder.withExtensions(D.ext(oid, value)).der, [finding])
    }

    @Test("CPS and user notice qualifiers are interpreted: nothing recorded")
    func interpretedQualifiers() throws {
        let value = D.seq(D.seq(D.oid("1.2.3"), D.seq(D.seq(D.oid("1.3.6.1.5.5.7.2.1"), D.ia5("https://cps.test")),
                                                       D.seq(D.oid("1.3.6.1.5.5.7.2.2"), D.seq(D.utf8("notice"))))))
        try expectFindings(CertificateBuilder.withExtensions(D.ext(KnownOID.certificatePolicies, value)).der, [])
    }

    // MARK: Subject public keys: DSA and RSASSA-PSS (RFC 3279 2.3.2, RFC 4055 1.2, 3.1)

    static func spki(_ algorithm: [UInt8], _ key: [UInt8]) -> [UInt8] { D.seq(algorithm, D.bits(key)) }
    static let dssParameters = D.seq(D.tlv(.integer, [0x00, 0xF7, 0x01]), D.tlv(.integer, [0x71]), D.tlv(.integer, [0x05]))
    static let rsaKey = D.seq(D.tlv(.integer, [0x00, 0xC5] + [UInt8](repeating: 0x33, count: 255)), D.int(65537))
    static let sha256AlgorithmID = D.seq(D.oid(KnownOID.sha256), D.null)
    static let pssParameters = D.seq(D.ctx(0, constructed: true, sha256AlgorithmID),
                                     D.ctx(1, constructed: true, D.seq(D.oid(KnownOID.mgf1), sha256AlgorithmID)),
                                     D.ctx(2, constructed: true, D.int(32)))

    @Test("DSA keys, with and without domain parameters")
    func dsaKeys() throws {
        let withParameters = try SubjectPublicKeyInfo(derEncoded: Self.spki(D.seq(D.oid(KnownOID.dsa), Self.dssParameters), D.int(0x1234)))
        guard case .dsa(let parameters?, let y) = withParameters.key else {
            Issue.record("expected a DSA key with parameters, got \(withParameters.key)")
            return
        }
        #expect(Array(parameters.p) == [0xF7, 0x01])
        #expect(Array(parameters.q) == [0x71])
        #expect(Array(parameters.g) == [0x05])
        #expect(Array(y) == [0x12, 0x34])
        #expect(withParameters.key.bitLength == 16)

        let inherited = try SubjectPublicKeyInfo(derEncoded: Self.spki(D.seq(D.oid(KnownOID.dsa)), D.int(0x55)))
        #expect(inherited.key == .dsa(parameters: nil, publicKey: [0x55][...]))
        #expect(inherited.key.summary == "DSA (inherited parameters)")
        #expect(!inherited.isRestrictedToRSASSAPSS)
    }

    @Test("RSASSA-PSS keys are RSA keys restricted to PSS, with or without parameters")
    func pssKeys() throws {
        for algorithm in [D.seq(D.oid(KnownOID.rsassaPSS)), D.seq(D.oid(KnownOID.rsassaPSS), Self.pssParameters)] {
            let spki = try SubjectPublicKeyInfo(derEncoded: Self.spki(algorithm, Self.rsaKey))
            #expect(spki.isRestrictedToRSASSAPSS)
            #expect(spki.key.bitLength == 2048)
            #expect(spki.key.summary == "RSA-2048")
        }
        let plain = try SubjectPublicKeyInfo(derEncoded: Self.spki(D.seq(D.oid(KnownOID.rsaEncryption), D.null), Self.rsaKey))
        #expect(!plain.isRestrictedToRSASSAPSS)
    }

    @Test("SubjectPublicKeyInfo rejections", arguments: [
        ("DSA parameters not a SEQUENCE", spki(D.seq(D.oid(KnownOID.dsa), D.null), D.int(5)), DERError.Code.unexpectedTag, 4 + 9),
        ("DSA negative y", spki(D.seq(D.oid(KnownOID.dsa)), D.int(-5)), .negativeInteger, 2 + 11 + 3),
        ("PSS parameters not a SEQUENCE", spki(D.seq(D.oid(KnownOID.rsassaPSS), D.int(1)), rsaKey), .invalidValue, 4 + 2 + 11),
        // The explicit default is reported at its own element ([0] or [1]: 4 + 2 + 11 + 2), not at the next field.
        ("PSS hash SHA-1 encoded", spki(D.seq(D.oid(KnownOID.rsassaPSS), D.seq(D.ctx(0, constructed: true, D.seq(D.oid("1.3.14.3.2.26"))),
                                                                                 D.ctx(2, constructed: true, D.int(20)))), rsaKey),
         .explicitDefault, 4 + 2 + 11 + 2),
        ("PSS MGF1-SHA-1 encoded", spki(D.seq(D.oid(KnownOID.rsassaPSS), D.seq(D.ctx(1, constructed: true, D.seq(D.oid(KnownOID.mgf1), D.seq(D.oid("1.3.14.3.2.26")))),
                                                                                  D.ctx(2, constructed: true, D.int(20)))), rsaKey),
         .explicitDefault, 4 + 2 + 11 + 2),
        ("rsaEncryption without NULL", spki(D.seq(D.oid(KnownOID.rsaEncryption)), rsaKey), .invalidValue, 4 + 2 + 11),
        ("EC explicit parameters", spki(D.seq(D.oid(KnownOID.ecPublicKey), D.seq(D.int(1))), [0x04, 1, 2]), .unsupported, 4 + 9),
        ("EC without parameters", spki(D.seq(D.oid(KnownOID.ecPublicKey)), [0x04, 1, 2]), .invalidValue, 4 + 9),
        ("P-256 point of the wrong length", spki(D.seq(D.oid(KnownOID.ecPublicKey), D.oid(KnownOID.secp256r1)), [0x04, 1, 2]), .invalidValue, 2 + 21 + 3),
        ("Ed25519 with parameters", spki(D.seq(D.oid(KnownOID.ed25519), D.null), [UInt8](repeating: 1, count: 32)), .invalidValue, 4 + 5),
        ("Ed25519 key of 31 bytes", spki(D.seq(D.oid(KnownOID.ed25519)), [UInt8](repeating: 1, count: 31)), .invalidValue, 2 + 7 + 3),
        ("key with unused bits", D.seq(D.seq(D.oid(KnownOID.ed25519)), D.bits([UInt8](repeating: 0, count: 32), unused: 1)), .invalidBitString, 2 + 7 + 2),
    ] as [(String, [UInt8], DERError.Code, Int?)])
    func spkiRejections(_ what: String, _ der: [UInt8], _ code: DERError.Code, _ offset: Int?) {
        expectDERError(code, at: offset) { () throws(DERError) in _ = try SubjectPublicKeyInfo(derEncoded: der) }
    }

    @Test("A certificate carrying a DSA key without parameters parses; its key inherits later")
    func dsaCertificate() throws {
        var builder = CertificateBuilder()
        builder.spki = Self.spki(D.seq(D.oid(KnownOID.dsa)), D.int(0x55))
        let certificate = try Certificate(derEncoded: builder.der)
        #expect(certificate.subjectPublicKeyInfo.key.isDSAWithoutParametersForTest)
    }
}

extension SubjectPublicKey {
    var isDSAWithoutParametersForTest: Bool {
        if case .dsa(nil, _) = self { return true }
        return false
    }
}
