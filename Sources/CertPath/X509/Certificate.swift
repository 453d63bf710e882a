#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An X.509 v1, v2 or v3 certificate (RFC 5280 4.1), parsed once from DER and immutable.
///
/// The certificate keeps its original bytes; the TBS bytes, signature, SPKI, names and each
/// extension's value are views into them. Parsing enforces DER (see `CertPathDER`) and the
/// syntax of RFC 5280 section 4 for every field and every extension CertPath knows
/// (``KnownExtension``): whatever parses is well-formed, and accessors never fail.
///
/// Choices, each named: a negative or zero serial number, or one longer than 20 octets, parses
/// (RFC 5280 4.1.2.2 asks users to handle such certificates gracefully; profiles may refuse them);
/// an empty issuer parses (validation refuses it); certificate policy qualifiers are checked for
/// structure only. Unknown extensions are kept with their criticality; deciding that an unknown
/// critical extension rejects the certificate belongs to path validation.
///
/// Cost: parsing validates everything but keeps only offsets into ``der`` and the small decoded
/// values (basicConstraints, keyUsage, policyConstraints, inhibitAnyPolicy), so it makes two heap
/// allocations (the object and its extension table). Views (``serialNumber``, ``issuer``,
/// ``subjectPublicKeyInfo``…) are made on access, and the list-valued extensions
/// (``subjectAlternativeNames``, ``certificatePolicies``…) are decoded again, from bytes already
/// validated, on each access.
public final class Certificate: Hashable, Sendable, CustomStringConvertible {
    /// X.509 version (RFC 5280 4.1.2.1).
    public enum Version: Int, Hashable, Sendable {
        case v1 = 1, v2 = 2, v3 = 3
    }

    /// The complete DER encoding.
    public let der: [UInt8]
    /// Offsets of the TBSCertificate's complete encoding in ``der`` (what the signature covers).
    public let tbsCertificateRange: Range<Int>
    /// version.
    public let version: Version
    /// The signature algorithm (tbsCertificate.signature, which must equal signatureAlgorithm byte for byte).
    public let signatureAlgorithm: SignatureAlgorithm
    /// validity notBefore.
    public let notBefore: UnixTime
    /// validity notAfter.
    public let notAfter: UnixTime
    /// Whether notBefore / notAfter were encoded as GeneralizedTime (RFC 5280 4.1.2.5 requires
    /// UTCTime through 2049; a profile may enforce it).
    public let validityUsesGeneralizedTime: (notBefore: Bool, notAfter: Bool)
    /// Unused bits of the signatureValue BIT STRING; every signature algorithm produces whole bytes, so
    /// a non-zero value makes the signature invalid (not the certificate malformed).
    public let signatureUnusedBits: UInt8
    /// basicConstraints (RFC 5280 4.2.1.9), when present.
    public let basicConstraints: BasicConstraints?
    /// keyUsage (4.2.1.3), when present.
    public let keyUsage: KeyUsage?
    /// policyConstraints (4.2.1.11), when present.
    public let policyConstraints: PolicyConstraints?
    /// inhibitAnyPolicy SkipCerts (4.2.1.14), when present.
    public let inhibitAnyPolicy: Int?

    /// Offsets in ``der`` of everything kept as a view.
    let layout: Layout
    /// Every extension in encoded order, as offsets.
    let extensionRecords: [ExtensionRecord]

    /// Offsets in ``der`` of the parts of a certificate that accessors return as views.
    struct Layout: Sendable, Equatable {
        var serialNumber: Range<Int>
        var signatureAlgorithm: Range<Int>
        var issuer: Range<Int>
        var subject: Range<Int>
        var subjectPublicKeyInfo: SubjectPublicKeyLayout
        var issuerUniqueID: Range<Int>?
        var subjectUniqueID: Range<Int>?
        var signature: Range<Int>
        var subjectKeyIdentifier: Range<Int>?
        /// The authorityKeyIdentifier keyIdentifier, when the extension has neither
        /// authorityCertIssuer nor authorityCertSerialNumber (then it is all there is to it).
        var authorityKeyIdentifier: Range<Int>?
        /// Whether the authorityKeyIdentifier has authorityCertIssuer and authorityCertSerialNumber.
        var authorityKeyIdentifierHasIssuer: Bool
    }

    /// One extension (RFC 5280 4.1): where its extnID and extnValue contents are, its
    /// criticality and which known extension it is.
    struct ExtensionRecord: Sendable, Equatable {
        let oid: Range<Int>
        let value: Range<Int>
        let isCritical: Bool
        let known: KnownExtension?
    }

    /// Parses a DER certificate.
    ///
    /// - Parameter der: exactly one Certificate; shared, not copied.
    /// - Throws: ``DERError`` naming the byte offset and the rule broken: DER violations, the RFC 5280
    ///   section 4 syntax of any field or known extension, `.invalidValue` for differing inner and
    ///   outer signature algorithms (4.1.1.2), a version other than v1–v3, unique identifiers in a v1
    ///   certificate or extensions outside v3; `.duplicate` for an extension present twice (4.2).
    public init(derEncoded der: [UInt8]) throws(DERError) {
        self.der = der
        var reader = DERReader(der)
        let parsed = try Certificate.parse(&reader)
        tbsCertificateRange = parsed.tbs
        version = parsed.version
        signatureAlgorithm = parsed.signatureAlgorithm
        notBefore = parsed.notBefore
        notAfter = parsed.notAfter
        validityUsesGeneralizedTime = parsed.validityUsesGeneralizedTime
        signatureUnusedBits = parsed.signatureUnusedBits
        basicConstraints = parsed.basicConstraints
        keyUsage = parsed.keyUsage
        policyConstraints = parsed.policyConstraints
        inhibitAnyPolicy = parsed.inhibitAnyPolicy
        layout = parsed.layout
        extensionRecords = parsed.extensions
    }

    /// What ``init(derEncoded:)`` finds.
    struct Parsed: Equatable {
        var tbs = 0..<0
        var version = Version.v1
        var signatureAlgorithm = SignatureAlgorithm.ed25519
        var notBefore = UnixTime(secondsSinceEpoch: 0)
        var notAfter = UnixTime(secondsSinceEpoch: 0)
        var validityUsesGeneralizedTime = (notBefore: false, notAfter: false)
        var signatureUnusedBits: UInt8 = 0
        var basicConstraints: BasicConstraints? = nil
        var keyUsage: KeyUsage? = nil
        var policyConstraints: PolicyConstraints? = nil
        var inhibitAnyPolicy: Int? = nil
        var layout = Layout(serialNumber: 0..<0, signatureAlgorithm: 0..<0, issuer: 0..<0, subject: 0..<0,
                            subjectPublicKeyInfo: SubjectPublicKeyLayout(der: 0..<0, key: .ed25519(0..<0), isRestrictedToRSASSAPSS: false),
                            issuerUniqueID: nil, subjectUniqueID: nil, signature: 0..<0, subjectKeyIdentifier: nil,
                            authorityKeyIdentifier: nil, authorityKeyIdentifierHasIssuer: false)
        var extensions: [ExtensionRecord] = []

        static func == (a: Parsed, b: Parsed) -> Bool {
            a.tbs == b.tbs && a.version == b.version && a.signatureAlgorithm == b.signatureAlgorithm
                && a.notBefore == b.notBefore && a.notAfter == b.notAfter
                && a.validityUsesGeneralizedTime == b.validityUsesGeneralizedTime
                && a.signatureUnusedBits == b.signatureUnusedBits && a.basicConstraints == b.basicConstraints
                && a.keyUsage == b.keyUsage && a.policyConstraints == b.policyConstraints
                && a.inhibitAnyPolicy == b.inhibitAnyPolicy && a.layout == b.layout && a.extensions == b.extensions
        }
    }

    /// The general parser: every rule, with the error naming the first one broken.
    static func parse(_ top: inout DERReader) throws(DERError) -> Parsed {
        var parsed = Parsed()
        let certificateElement = try top.read(.sequence, "Certificate")
        try top.finish("Certificate")
        try top.enter(certificateElement, "Certificate") { (certificate: inout DERReader) throws(DERError) in
            let tbsElement = try certificate.read(.sequence, "TBSCertificate")
            parsed.tbs = tbsElement.encoded
            let outerStart = certificate.position
            _ = try SignatureAlgorithm.read(&certificate, "Certificate signatureAlgorithm")
            let outerAlgorithm = outerStart..<certificate.position
            let signatureBits = try certificate.readBitString("Certificate signatureValue")
            try certificate.finish("Certificate")
            parsed.layout.signature = signatureBits.bytes
            parsed.signatureUnusedBits = signatureBits.unusedBits
            try certificate.enter(tbsElement, "TBSCertificate") { (tbs: inout DERReader) throws(DERError) in
                try parseTBS(&tbs, outerAlgorithm: outerAlgorithm, outerStart: outerStart, into: &parsed)
            }
        }
        // The known extensions' syntax (RFC 5280 4.2.1, 4.2.2), each extnValue read as a document of its own.
        for record in parsed.extensions {
            guard let known = record.known else { continue }
            try top.within(record.value, depth: 0) { (r: inout DERReader) throws(DERError) in
                switch known {
                case .basicConstraints: parsed.basicConstraints = try BasicConstraints.read(&r)
                case .keyUsage: parsed.keyUsage = try KeyUsage.read(&r)
                case .extKeyUsage: _ = try ExtendedKeyUsage.read(&r, build: false)
                case .subjectAltName: _ = try AlternativeNames.read(&r, "SubjectAltName", build: false)
                case .issuerAltName: _ = try AlternativeNames.read(&r, "IssuerAltName", build: false)
                case .nameConstraints: _ = try NameConstraints.read(&r)
                case .authorityKeyIdentifier:
                    let parts = try AuthorityKeyIdentifier.readParts(&r, build: false)
                    parsed.layout.authorityKeyIdentifier = parts.keyIdentifier
                    parsed.layout.authorityKeyIdentifierHasIssuer = parts.issuer != nil
                case .subjectKeyIdentifier: parsed.layout.subjectKeyIdentifier = try SubjectKeyIdentifier.readRange(&r)
                case .certificatePolicies: _ = try CertificatePolicies.read(&r, build: false)
                case .policyMappings: _ = try PolicyMappings.read(&r)
                case .policyConstraints: parsed.policyConstraints = try PolicyConstraints.read(&r)
                case .inhibitAnyPolicy: parsed.inhibitAnyPolicy = try InhibitAnyPolicy.read(&r)
                case .cRLDistributionPoints: _ = try CRLDistributionPoints.read(&r, build: false)
                case .authorityInfoAccess: _ = try AuthorityInformationAccess.read(&r, build: false)
                }
            }
        }
        return parsed
    }

    private static func parseTBS(_ tbs: inout DERReader, outerAlgorithm: Range<Int>, outerStart: Int,
                                 into parsed: inout Parsed) throws(DERError) {
        var version = Version.v1
        if let element = try tbs.readOptional(.contextSpecific(0, constructed: true), "version") {
            let number = try tbs.enter(element, "version") { (inner: inout DERReader) throws(DERError) -> UInt8 in
                let number = try inner.readUnsigned("version", as: UInt8.self)
                try inner.finish("version")
                return number
            }
            switch number {
            case 0: throw DERError(.explicitDefault, at: element.offset, expected: "version omitted for v1")
            case 1: version = .v2
            case 2: version = .v3
            default: throw DERError(.invalidValue, at: element.offset, expected: "version v1, v2 or v3 (RFC 5280 4.1.2.1)")
            }
        }
        parsed.version = version
        parsed.layout.serialNumber = try tbs.readInteger("serialNumber").value
        let innerStart = tbs.position
        parsed.signatureAlgorithm = try SignatureAlgorithm.read(&tbs, "TBSCertificate signature")
        parsed.layout.signatureAlgorithm = innerStart..<tbs.position
        guard tbs.bytesEqual(parsed.layout.signatureAlgorithm, outerAlgorithm) else {
            throw DERError(.invalidValue, at: outerStart,
                           expected: "signatureAlgorithm identical to tbsCertificate.signature (RFC 5280 4.1.1.2)")
        }
        parsed.layout.issuer = try Name.readRange(&tbs, "issuer")
        let validity = try tbs.read(.sequence, "Validity")
        try tbs.enter(validity, "Validity") { (v: inout DERReader) throws(DERError) in
            let start = try v.readTime("notBefore")
            let end = try v.readTime("notAfter")
            try v.finish("Validity")
            parsed.notBefore = start.time
            parsed.notAfter = end.time
            parsed.validityUsesGeneralizedTime = (start.isGeneralizedTime, end.isGeneralizedTime)
        }
        parsed.layout.subject = try Name.readRange(&tbs, "subject")
        parsed.layout.subjectPublicKeyInfo = try SubjectPublicKeyInfo.readLayout(&tbs)

        func uniqueID(_ number: UInt8, _ name: String) throws(DERError) -> Range<Int>? {
            guard let element = try tbs.readOptional(.contextSpecific(number), name) else { return nil }
            guard version != .v1 else {
                throw DERError(.invalidValue, at: element.offset, expected: "no \(name) in a v1 certificate (RFC 5280 4.1.2.8)")
            }
            return try tbs.bitString(element, name).bytes
        }
        parsed.layout.issuerUniqueID = try uniqueID(1, "issuerUniqueID")
        parsed.layout.subjectUniqueID = try uniqueID(2, "subjectUniqueID")

        if let element = try tbs.readOptional(.contextSpecific(3, constructed: true), "extensions") {
            guard version == .v3 else {
                throw DERError(.invalidValue, at: element.offset, expected: "extensions only in a v3 certificate (RFC 5280 4.1.2.9)")
            }
            parsed.extensions = try tbs.enter(element, "extensions") { (explicit: inout DERReader) throws(DERError) -> [ExtensionRecord] in
                let list = try explicit.read(.sequence, "Extensions")
                try explicit.finish("extensions")
                return try explicit.enter(list, "Extensions") { (reader: inout DERReader) throws(DERError) -> [ExtensionRecord] in
                    guard !reader.isAtEnd else {
                        throw DERError(.invalidValue, at: list.offset, expected: "at least one Extension (SIZE (1..MAX))")
                    }
                    var records: [ExtensionRecord] = []
                    records.reserveCapacity(12)
                    while !reader.isAtEnd {
                        let offset = reader.position
                        let record = try reader.sequence("Extension") { (e: inout DERReader) throws(DERError) -> ExtensionRecord in
                            let oid = try e.readObjectIdentifier("extnID")
                            let critical = try e.readBooleanDefaultFalse("Extension critical")
                            let value = try e.readOctetString("extnValue")
                            let known = e.withUnsafeBytes(of: oid.value) { KnownExtension.identify(encoded: $0) }
                            return ExtensionRecord(oid: oid.value, value: value.value, isCritical: critical, known: known)
                        }
                        for other in records {
                            let same = record.known != nil || other.known != nil
                                ? record.known == other.known : reader.bytesEqual(other.oid, record.oid)
                            if same {
                                throw DERError(.duplicate, at: offset, expected: "each extension at most once (RFC 5280 4.2), \(OID(validatedEncoding: reader.bytes[record.oid])) repeated")
                            }
                        }
                        records.append(record)
                    }
                    return records
                }
            }
        }
        try tbs.finish("TBSCertificate")
    }

    // MARK: Views

    /// serialNumber contents (two's complement, minimal).
    public var serialNumber: ArraySlice<UInt8> { der[layout.serialNumber] }
    /// The complete encoding of the signature AlgorithmIdentifier.
    public var signatureAlgorithmDER: ArraySlice<UInt8> { der[layout.signatureAlgorithm] }
    /// issuer.
    public var issuer: Name { Name(validatedDER: der[layout.issuer]) }
    /// subject.
    public var subject: Name { Name(validatedDER: der[layout.subject]) }
    /// subjectPublicKeyInfo.
    public var subjectPublicKeyInfo: SubjectPublicKeyInfo { layout.subjectPublicKeyInfo.materialize(der[...]) }
    /// The complete DER of subjectPublicKeyInfo (what key caches and pins are keyed by).
    var subjectPublicKeyInfoDER: ArraySlice<UInt8> { der[layout.subjectPublicKeyInfo.der] }
    /// Whether subject, SubjectPublicKeyInfo and subjectAltName (or its absence) are the same
    /// bytes in both certificates (RFC 4158 5.2's loop key), compared in place.
    func hasSameLoopKey(as other: Certificate) -> Bool {
        let san = record(.subjectAltName)?.value, otherSAN = other.record(.subjectAltName)?.value
        guard layout.subject.count == other.layout.subject.count,
              layout.subjectPublicKeyInfo.der.count == other.layout.subjectPublicKeyInfo.der.count,
              san?.count == otherSAN?.count else { return false }
        return der.withUnsafeBufferPointer { a in
            other.der.withUnsafeBufferPointer { b in
                func same(_ x: Range<Int>, _ y: Range<Int>) -> Bool {
                    x.isEmpty || memcmp(a.baseAddress! + x.lowerBound, b.baseAddress! + y.lowerBound, x.count) == 0
                }
                guard same(layout.subject, other.layout.subject),
                      same(layout.subjectPublicKeyInfo.der, other.layout.subjectPublicKeyInfo.der) else { return false }
                guard let san, let otherSAN else { return true }
                return same(san, otherSAN)
            }
        }
    }

    /// Whether the issuer is an empty Name (an empty SEQUENCE), without making the view.
    var hasEmptyIssuer: Bool { layout.issuer.count == 2 }
    /// Whether the subject is an empty Name (an empty SEQUENCE), without making the view.
    var hasEmptySubject: Bool { layout.subject.count == 2 }
    /// Whether the subject key is RSA (including RSASSA-PSS-restricted keys).
    var hasRSAKey: Bool {
        if case .rsa = layout.subjectPublicKeyInfo.key { return true }
        return false
    }
    /// Whether the subject key is DSA without domain parameters (they are inherited, RFC 3279 2.3.2).
    var hasDSAKeyWithoutParameters: Bool {
        if case .dsa(nil, _) = layout.subjectPublicKeyInfo.key { return true }
        return false
    }
    /// The subject public key, decoded (what ``subjectPublicKeyInfo`` holds as `key`).
    var subjectPublicKey: SubjectPublicKey { layout.subjectPublicKeyInfo.subjectPublicKey(der[...]) }
    /// issuerUniqueID bits (v2/v3 only).
    public var issuerUniqueID: ArraySlice<UInt8>? { layout.issuerUniqueID.map { der[$0] } }
    /// subjectUniqueID bits (v2/v3 only).
    public var subjectUniqueID: ArraySlice<UInt8>? { layout.subjectUniqueID.map { der[$0] } }
    /// signatureValue bytes.
    public var signature: ArraySlice<UInt8> { der[layout.signature] }

    /// Every extension in encoded order (v3 only; empty when absent).
    public var extensions: [Extension] { extensionRecords.map(makeExtension) }

    private func makeExtension(_ record: ExtensionRecord) -> Extension {
        Extension(oid: OID(validatedEncoding: der[record.oid]), isCritical: record.isCritical, value: der[record.value])
    }

    /// The record of a known extension, if present.
    func record(_ known: KnownExtension) -> ExtensionRecord? {
        for record in extensionRecords where record.known == known { return record }
        return nil
    }

    /// Whether a known extension is present and marked critical (`nil` when absent).
    func isCritical(_ known: KnownExtension) -> Bool? { record(known)?.isCritical }

    /// Decodes a known extension from its validated extnValue.
    private func decode<T>(_ known: KnownExtension, _ read: (inout DERReader) throws(DERError) -> T) -> T? {
        guard let record = record(known) else { return nil }
        var reader = DERReader(der)
        do throws(DERError) {
            return try reader.within(record.value, depth: 0, read)
        } catch {
            preconditionFailure("extension validated when the certificate was parsed: \(error)")
        }
    }

    /// extKeyUsage (4.2.1.12), when present.
    public var extendedKeyUsage: ExtendedKeyUsage? { decode(.extKeyUsage) { (r: inout DERReader) throws(DERError) in try ExtendedKeyUsage.read(&r) } }
    /// Whether extKeyUsage lists `purpose` or anyExtendedKeyUsage; `nil` when there is no
    /// extKeyUsage extension. Reads the extension without building its list.
    func extendedKeyUsageAllows(_ purpose: OID) -> Bool? {
        guard let record = record(.extKeyUsage) else { return nil }
        let any = KnownOID.anyExtendedKeyUsage
        return der.withUnsafeBufferPointer { buffer -> Bool in
            func equals(_ range: Range<Int>, _ oid: OID) -> Bool {
                oid.encoded.count == range.count
                    && oid.encoded.withUnsafeBufferPointer { $0.elementsEqual(UnsafeBufferPointer(rebasing: buffer[range])) }
            }
            // Validated when the certificate was parsed: SEQUENCE OF OBJECT IDENTIFIER.
            var index = record.value.lowerBound
            guard let list = NameWalker.element(buffer, &index, record.value.upperBound) else { return false }
            var cursor = list.value.lowerBound
            while cursor < list.value.upperBound {
                guard let oid = NameWalker.element(buffer, &cursor, list.value.upperBound) else { break }
                if equals(oid.value, purpose) || equals(oid.value, any) { return true }
            }
            return false
        }
    }

    /// Calls `body` with the tag number (`2` dNSName, `7` iPAddress…) and the offsets in ``der`` of
    /// the contents of each subjectAltName GeneralName, in order, until it returns `false`; returns
    /// whether it never did, or `nil` without a subjectAltName. Builds no list.
    func forEachSubjectAlternativeName(_ body: (UInt8, Range<Int>) -> Bool) -> Bool? {
        guard let record = record(.subjectAltName) else { return nil }
        return der.withUnsafeBufferPointer { buffer -> Bool? in
            var index = record.value.lowerBound
            // Validated when the certificate was parsed: the walk cannot fail.
            guard let list = NameWalker.element(buffer, &index, record.value.upperBound), list.tag == 0x30 else { return true }
            var cursor = list.value.lowerBound
            while cursor < list.value.upperBound {
                guard let name = NameWalker.element(buffer, &cursor, list.value.upperBound) else { return true }
                if !body(name.tag & 0x1F, name.value) { return false }
            }
            return true
        }
    }

    /// subjectAltName (4.2.1.6), when present.
    public var subjectAlternativeNames: [GeneralName]? {
        decode(.subjectAltName) { (r: inout DERReader) throws(DERError) in try AlternativeNames.read(&r, "SubjectAltName") }
    }
    /// issuerAltName (4.2.1.7), when present.
    public var issuerAlternativeNames: [GeneralName]? {
        decode(.issuerAltName) { (r: inout DERReader) throws(DERError) in try AlternativeNames.read(&r, "IssuerAltName") }
    }
    /// nameConstraints (4.2.1.10), when present.
    public var nameConstraints: NameConstraints? { decode(.nameConstraints, NameConstraints.read) }
    /// authorityKeyIdentifier (4.2.1.1), when present.
    public var authorityKeyIdentifier: AuthorityKeyIdentifier? {
        guard record(.authorityKeyIdentifier) != nil else { return nil }
        guard layout.authorityKeyIdentifierHasIssuer else {
            return AuthorityKeyIdentifier(keyIdentifier: layout.authorityKeyIdentifier.map { der[$0] }, authorityCertIssuer: nil,
                                          authorityCertSerialNumber: nil)
        }
        return decode(.authorityKeyIdentifier, AuthorityKeyIdentifier.read)
    }
    /// The authorityKeyIdentifier keyIdentifier (4.2.1.1), when present.
    var authorityKeyIdentifierKeyID: ArraySlice<UInt8>? {
        layout.authorityKeyIdentifierHasIssuer ? authorityKeyIdentifier?.keyIdentifier : layout.authorityKeyIdentifier.map { der[$0] }
    }
    /// subjectKeyIdentifier (4.2.1.2), when present.
    public var subjectKeyIdentifier: ArraySlice<UInt8>? { layout.subjectKeyIdentifier.map { der[$0] } }
    /// certificatePolicies (4.2.1.4), when present.
    public var certificatePolicies: [PolicyInformation]? {
        decode(.certificatePolicies) { (r: inout DERReader) throws(DERError) in try CertificatePolicies.read(&r) }
    }
    /// The policyIdentifier of each PolicyInformation of certificatePolicies, in order; `nil` when
    /// the extension is absent. Reads the extension without building PolicyInformation values.
    var policyIdentifiers: [OID]? {
        guard let record = record(.certificatePolicies) else { return nil }
        return der.withUnsafeBufferPointer { buffer -> [OID] in
            var identifiers: [OID] = []
            var index = record.value.lowerBound
            // Validated when the certificate was parsed: SEQUENCE OF SEQUENCE { OID, qualifiers? }.
            guard let list = NameWalker.element(buffer, &index, record.value.upperBound) else { return identifiers }
            var cursor = list.value.lowerBound
            while cursor < list.value.upperBound {
                guard let information = NameWalker.element(buffer, &cursor, list.value.upperBound) else { break }
                var field = information.value.lowerBound
                guard let oid = NameWalker.element(buffer, &field, information.value.upperBound) else { break }
                identifiers.append(OID(validatedEncoding: der[oid.value]))
            }
            return identifiers
        }
    }

    /// policyMappings (4.2.1.5), when present.
    public var policyMappings: [PolicyMapping]? { decode(.policyMappings, PolicyMappings.read) }
    /// cRLDistributionPoints (4.2.1.13), when present.
    public var cRLDistributionPoints: [DistributionPoint]? {
        decode(.cRLDistributionPoints) { (r: inout DERReader) throws(DERError) in try CRLDistributionPoints.read(&r) }
    }
    /// authorityInfoAccess (4.2.2.1), when present.
    public var authorityInformationAccess: [AccessDescription]? {
        decode(.authorityInfoAccess) { (r: inout DERReader) throws(DERError) in try AuthorityInformationAccess.read(&r) }
    }

    /// The TBSCertificate's complete DER (the signed bytes).
    public var tbsCertificateBytes: ArraySlice<UInt8> { der[tbsCertificateRange] }

    /// The extension with `oid`, if present.
    public func `extension`(_ oid: OID) -> Extension? {
        for record in extensionRecords where record.oid.count == oid.encoded.count && der[record.oid].elementsEqual(oid.encoded) {
            return makeExtension(record)
        }
        return nil
    }

    /// Critical extensions CertPath does not process (RFC 5280 4.2: such a certificate MUST be rejected).
    public var unrecognizedCriticalExtensions: [Extension] {
        guard hasUnrecognizedCriticalExtension else { return [] }
        return extensionRecords.filter { $0.isCritical && $0.known == nil }.map(makeExtension)
    }

    /// Whether some critical extension is one CertPath does not process.
    var hasUnrecognizedCriticalExtension: Bool {
        extensionRecords.contains { $0.isCritical && $0.known == nil }
    }

    /// Whether issuer and subject are the same name under RFC 5280 7.1 ("self-issued", RFC 5280 6.1).
    public var isSelfIssued: Bool { issuer.isEquivalent(to: subject) }

    /// Whether basicConstraints asserts cA.
    public var isCertificateAuthority: Bool { basicConstraints?.isCertificateAuthority ?? false }

    /// The serial number in hex, two's complement as encoded (`00ff…` keeps its sign octet).
    public var serialNumberHex: String { Hex.encode(serialNumber) }

    /// `subject=…, issuer=…, serial=…`.
    public var description: String { "Certificate(subject: \(subject), issuer: \(issuer), serial: \(serialNumberHex))" }

    public static func == (lhs: Certificate, rhs: Certificate) -> Bool { lhs === rhs || lhs.der == rhs.der }

    public func hash(into hasher: inout Hasher) { hasher.combine(der) }
}

/// Lowercase hex rendering of bytes.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `0a1b…`, or with a separator (`0a:1b:…`).
    static func encode<C: Collection<UInt8>>(_ bytes: C, separator: String = "") -> String {
        var out = ""
        out.reserveCapacity(bytes.count * (2 + separator.utf8.count))
        var first = true
        for byte in bytes {
            if !first { out += separator }
            first = false
            out.unicodeScalars.append(Unicode.Scalar(digits[Int(byte >> 4)]))
            out.unicodeScalars.append(Unicode.Scalar(digits[Int(byte & 0xF)]))
        }
        return out
    }
}
