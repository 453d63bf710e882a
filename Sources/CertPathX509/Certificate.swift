import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CertPathDER

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
/// Cost: parsing validates everything but keeps only offsets into ``der`` (for the extensions, where
/// each known one's value is) and the small decoded values (basicConstraints, keyUsage,
/// policyConstraints, inhibitAnyPolicy), so it makes one heap allocation: the object. Views
/// (``serialNumber``, ``issuer``, ``subjectPublicKeyInfo``…) are made on access, and the
/// list-valued extensions (``subjectAlternativeNames``, ``certificatePolicies``…, and
/// ``extensions`` itself) are decoded again, from bytes already validated, on each access.
/// "At most once" rules (extensions, policy OIDs) are checked in time linear in the list.
public final class Certificate: Hashable, Sendable, CustomStringConvertible {
    /// X.509 version (RFC 5280 4.1.2.1).
    public enum Version: Int, Hashable, Sendable {
        /// Version 1 (the version field absent, as DER omits a default value): no issuerUniqueID, subjectUniqueID or
        /// extensions. Such a certificate is never a CA in a path (RFC 5280 6.1.4 (k)).
        case v1 = 1
        /// Version 2 (encoded 1): unique identifiers allowed, no extensions (RFC 5280 4.1.2.8).
        case v2 = 2
        /// Version 3 (encoded 2): extensions allowed (RFC 5280 4.1.2.9); what current CAs issue.
        case v3 = 3
    }

    /// The complete DER encoding.
    public let der: [UInt8]
    /// What parsing found: offsets into ``der`` and the small decoded values, kept as one value so
    /// that parsing hands it over without copying it field by field.
    package let fields: Parsed
    /// ``isSelfIssued`` once known: 0 not yet, 1 no, 2 yes. (Comparing two different names costs
    /// more than the rest of a cached evaluation's name work; a search asks for an intermediate's
    /// answer at least twice. Relaxed ordering suffices: any thread computes the same answer.)
    private let selfIssuedMemo = Atomic<UInt8>(0)
    /// A 63-bit answer the layers above compute once (``memoizedWord(_:)``), with bit 63 set once known.
    private let wordMemo = Atomic<UInt64>(0)

    /// Offsets of the TBSCertificate's complete encoding in ``der`` (what the signature covers).
    public var tbsCertificateRange: Range<Int> { fields.tbs }
    /// version.
    public var version: Version { fields.version }
    /// The signature algorithm (tbsCertificate.signature, which must equal signatureAlgorithm byte for byte).
    public var signatureAlgorithm: SignatureAlgorithm { fields.signatureAlgorithm }
    /// validity notBefore.
    public var notBefore: UnixTime { fields.notBefore }
    /// validity notAfter.
    public var notAfter: UnixTime { fields.notAfter }
    /// Whether notBefore / notAfter were encoded as GeneralizedTime (RFC 5280 4.1.2.5 requires
    /// UTCTime through 2049; a profile may enforce it).
    public var validityUsesGeneralizedTime: (notBefore: Bool, notAfter: Bool) { fields.validityUsesGeneralizedTime }
    /// Unused bits of the signatureValue BIT STRING; every signature algorithm produces whole bytes, so
    /// a non-zero value makes the signature invalid (not the certificate malformed).
    public var signatureUnusedBits: UInt8 { fields.signatureUnusedBits }
    /// basicConstraints (RFC 5280 4.2.1.9), when present.
    public var basicConstraints: BasicConstraints? { fields.basicConstraints }
    /// keyUsage (4.2.1.3), when present.
    public var keyUsage: KeyUsage? { fields.keyUsage }
    /// policyConstraints (4.2.1.11), when present.
    public var policyConstraints: PolicyConstraints? { fields.policyConstraints }
    /// inhibitAnyPolicy SkipCerts (4.2.1.14), when present.
    public var inhibitAnyPolicy: Int? { fields.inhibitAnyPolicy }

    /// Offsets in ``der`` of everything kept as a view.
    package var layout: Layout { fields.layout }
    /// Every extension in encoded order, as offsets: the Extensions SEQUENCE read again by the
    /// parser's own decoder, for display and for looking up an extension CertPath does not know
    /// (path validation reads only what parsing kept).
    package var extensionRecords: [ExtensionRecord] {
        var records: [ExtensionRecord] = []
        var reader = DERReader(der)
        do throws(DERError) {
            try reader.within(fields.extensionList, depth: 0) { (r: inout DERReader) throws(DERError) in
                while !r.isAtEnd { records.append(try ExtensionRecord.read(&r)) }
            }
        } catch {
            preconditionFailure("extensions validated when the certificate was parsed: \(error)")
        }
        return records
    }

    /// A range of offsets per ``KnownExtension`` (at its ``KnownExtension/index``), held inline.
    ///
    /// A tuple read and written by a switch on the index. (The standard library's `InlineArray`
    /// was tried: the compiler could then not move a ``Parsed`` out of the parser, and parsing
    /// copied it four times; reaching the tuple's elements through `withUnsafeBytes(of:)` copied it too.)
    package struct KnownExtensionTable: Sendable {
        // Each range packed in one word (lower bound in the low 32 bits, upper in the high 32: a
        // certificate is at most 256 MiB, FileReading's limit): half the bytes of 16 `Range<Int>`s,
        // which every parse initializes and moves (16 ranges of 16 bytes cost parsing 8 %).
        private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                              UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
            = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

        /// The range at `index`.
        ///
        /// - Precondition: `0 <= index < KnownExtension.count` (checked); offsets below 2^32.
        package subscript(index: Int) -> Range<Int> {
            @inline(__always) get {
                let word: UInt64
                switch index {
                case 0: word = storage.0
                case 1: word = storage.1
                case 2: word = storage.2
                case 3: word = storage.3
                case 4: word = storage.4
                case 5: word = storage.5
                case 6: word = storage.6
                case 7: word = storage.7
                case 8: word = storage.8
                case 9: word = storage.9
                case 10: word = storage.10
                case 11: word = storage.11
                case 12: word = storage.12
                case 13: word = storage.13
                case 14: word = storage.14
                case 15: word = storage.15
                default: preconditionFailure("known extension index out of range")
                }
                return Int(truncatingIfNeeded: word & 0xFFFF_FFFF)..<Int(truncatingIfNeeded: word &>> 32)
            }
            @inline(__always) set {
                precondition(newValue.upperBound <= Int(UInt32.max), "extension offset beyond 4 GiB")
                let word = UInt64(truncatingIfNeeded: newValue.lowerBound) | UInt64(truncatingIfNeeded: newValue.upperBound) &<< 32
                switch index {
                case 0: storage.0 = word
                case 1: storage.1 = word
                case 2: storage.2 = word
                case 3: storage.3 = word
                case 4: storage.4 = word
                case 5: storage.5 = word
                case 6: storage.6 = word
                case 7: storage.7 = word
                case 8: storage.8 = word
                case 9: storage.9 = word
                case 10: storage.10 = word
                case 11: storage.11 = word
                case 12: storage.12 = word
                case 13: storage.13 = word
                case 14: storage.14 = word
                case 15: storage.15 = word
                default: preconditionFailure("known extension index out of range")
                }
            }
        }
    }

    /// Offsets in ``der`` of the parts of a certificate that accessors return as views.
    package struct Layout: Sendable, Equatable {
        package var serialNumber: Range<Int>
        package var signatureAlgorithm: Range<Int>
        package var issuer: Range<Int>
        package var subject: Range<Int>
        package var subjectPublicKeyInfo: SubjectPublicKeyLayout
        package var issuerUniqueID: Range<Int>?
        package var subjectUniqueID: Range<Int>?
        package var signature: Range<Int>
        package var subjectKeyIdentifier: Range<Int>?
        /// The authorityKeyIdentifier keyIdentifier, when the extension has neither
        /// authorityCertIssuer nor authorityCertSerialNumber (then it is all there is to it).
        package var authorityKeyIdentifier: Range<Int>?
        /// Whether the authorityKeyIdentifier has authorityCertIssuer or authorityCertSerialNumber (RFC
        /// 5280 wants both or neither; either makes the accessor decode the extension whole).
        package var authorityKeyIdentifierHasIssuer: Bool
    }

    /// One extension (RFC 5280 4.1): where its extnID and extnValue contents are, its
    /// criticality and which known extension it is. Made on demand by ``extensionRecords``: parsing
    /// keeps the known extensions' values (``Parsed/knownValues``) and the unknown critical ones.
    package struct ExtensionRecord: Sendable, Equatable {
        package let oid: Range<Int>
        package let value: Range<Int>
        package let isCritical: Bool
        package let known: KnownExtension?

        /// Reads `Extension ::= SEQUENCE { extnID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET
        /// STRING }` at the reader's position (the extnValue's contents are not read).
        @inline(__always)  // the parser's loop over every extension
        static func read(_ reader: inout DERReader) throws(DERError) -> ExtensionRecord {
            let scope = try reader.descend(.sequence, "Extension")
            let oid = try reader.readObjectIdentifier("extnID").value
            let isCritical = try reader.readBooleanDefaultFalse("Extension critical")
            let value = try reader.readOctetString("extnValue").value
            try reader.ascend(scope, "Extension")
            let known = reader.withUnsafeBytes(of: oid) { KnownExtension.identify(encoded: $0) }
            return ExtensionRecord(oid: oid, value: value, isCritical: isCritical, known: known)
        }
    }

    /// Parses a DER certificate.
    ///
    /// - Parameter der: exactly one Certificate; shared, not copied.
    /// - Throws: ``DERError`` naming the byte offset and the rule broken: DER violations (but the
    ///   tolerated ``EncodingLeniency`` list), the ASN.1 structure of RFC 5280 section 4 for any field
    ///   or known extension, a version other than v1–v3. Prose rules (differing inner and outer
    ///   signature algorithms, an extension present twice, keyUsage without bits…) do not throw:
    ///   they are recorded in ``findings`` for validation to apply.
    public init(derEncoded der: [UInt8]) throws(DERError) {
        self.der = der
        var reader = DERReader(der)
        fields = try Certificate.parse(&reader)
    }

    /// What ``init(derEncoded:)`` finds.
    package struct Parsed {
        package var tbs = 0..<0
        package var version = Version.v1
        package var signatureAlgorithm = SignatureAlgorithm.ed25519
        package var notBefore = UnixTime(secondsSinceEpoch: 0)
        package var notAfter = UnixTime(secondsSinceEpoch: 0)
        package var validityUsesGeneralizedTime = (notBefore: false, notAfter: false)
        package var signatureUnusedBits: UInt8 = 0
        package var basicConstraints: BasicConstraints? = nil
        package var keyUsage: KeyUsage? = nil
        package var policyConstraints: PolicyConstraints? = nil
        package var inhibitAnyPolicy: Int? = nil
        /// subjectAltName names, extKeyUsage purposes, policy identifiers, unknown critical extensions.
        package var elements = ExtensionElements()
        package var layout = Layout(serialNumber: 0..<0, signatureAlgorithm: 0..<0, issuer: 0..<0, subject: 0..<0,
                            subjectPublicKeyInfo: SubjectPublicKeyLayout(der: 0..<0, key: .ed25519(0..<0), isRestrictedToRSASSAPSS: false),
                            issuerUniqueID: nil, subjectUniqueID: nil, signature: 0..<0, subjectKeyIdentifier: nil,
                            authorityKeyIdentifier: nil, authorityKeyIdentifierHasIssuer: false)
        /// The contents of the Extensions SEQUENCE (empty when there are none).
        package var extensionList = 0..<0
        /// The extnValue contents of each known extension present, at its ``KnownExtension/index``
        /// (held in the object: no table to allocate, and a lookup is one load).
        package var knownValues = KnownExtensionTable()
        /// ``KnownExtension/bit`` of each known extension present, and of those marked critical.
        package var knownPresent: UInt16 = 0
        package var knownCritical: UInt16 = 0
        /// Prose rules broken and DER leniencies used (``CertificateFinding``, ``EncodingLeniency``).
        package var findings = ParseFindings()
    }

    /// The parser: every rule, with the error naming the first one broken.
    ///
    /// Structures are entered with ``DERReader/descend(into:_:)`` and left with
    /// ``DERReader/ascend(_:_:)`` in straight-line code (no closure per level); an error ends the
    /// parse, so the reader is never used after one.
    package static func parse(_ reader: inout DERReader) throws(DERError) -> Parsed {
        var parsed = Parsed()
        let certificateElement = try reader.read(.sequence, "Certificate")
        try reader.finish("Certificate")
        let certificate = try reader.descend(into: certificateElement, "Certificate")
        let tbsElement = try reader.read(.sequence, "TBSCertificate")
        parsed.tbs = tbsElement.encoded
        let outerStart = reader.position
        var ecdsaNullParameters = false
        let outerSignatureAlgorithm = try SignatureAlgorithm.read(&reader, "Certificate signatureAlgorithm",
                                                                  ecdsaNullParameters: &ecdsaNullParameters)
        if _slowPath(ecdsaNullParameters) { parsed.findings.insert(.ecdsaSignatureNullParameters) }
        let outerAlgorithm = outerStart..<reader.position
        let signatureBits = try reader.readBitString("Certificate signatureValue")
        try reader.finish("Certificate")
        parsed.layout.signature = signatureBits.bytes
        parsed.signatureUnusedBits = signatureBits.unusedBits
        let tbs = try reader.descend(into: tbsElement, "TBSCertificate")
        try parseTBS(&reader, outerAlgorithm: outerAlgorithm, outerStart: outerStart, outerSignatureAlgorithm, into: &parsed)
        reader.ascend(tbs)
        reader.ascend(certificate)
        return consume parsed  // moved out, not copied (the value is large)
    }

    /// Validates the extnValue the reader spans as the extension `known`, keeping what ``Parsed``
    /// holds of it.
    private static func readKnownExtension(_ known: KnownExtension, _ r: inout DERReader, into parsed: inout Parsed) throws(DERError) {
        switch known {
        case .basicConstraints: parsed.basicConstraints = try BasicConstraints.read(&r, &parsed.findings)
        case .keyUsage: parsed.keyUsage = try KeyUsage.read(&r, &parsed.findings)
        case .extKeyUsage:
            let start = parsed.elements.count
            try ExtendedKeyUsage.validate(&r, into: &parsed.elements)
            parsed.elements.close(.extendedKeyUsage, from: start)
        case .subjectAltName:
            let start = parsed.elements.count
            try AlternativeNames.validate(&r, "SubjectAltName", into: &parsed.elements)
            parsed.elements.close(.subjectAltName, from: start)
        case .issuerAltName: try AlternativeNames.validate(&r, "IssuerAltName")
        case .nameConstraints: _ = try NameConstraints.read(&r, &parsed.findings)
        case .authorityKeyIdentifier:
            let parts = try AuthorityKeyIdentifier.readParts(&r, build: false, &parsed.findings)
            parsed.layout.authorityKeyIdentifier = parts.keyIdentifier
            parsed.layout.authorityKeyIdentifierHasIssuer = parts.issuer != nil || parts.serialNumber != nil
        case .subjectKeyIdentifier: parsed.layout.subjectKeyIdentifier = try SubjectKeyIdentifier.readRange(&r)
        case .certificatePolicies:
            let start = parsed.elements.count
            try CertificatePolicies.validate(&r, &parsed.findings, into: &parsed.elements)
            parsed.elements.close(.policyIdentifiers, from: start)
        case .policyMappings: _ = try PolicyMappings.read(&r)
        case .policyConstraints: parsed.policyConstraints = try PolicyConstraints.read(&r, &parsed.findings)
        case .inhibitAnyPolicy: parsed.inhibitAnyPolicy = try InhibitAnyPolicy.read(&r)
        case .cRLDistributionPoints: try CRLDistributionPoints.validate(&r)
        case .authorityInfoAccess: try AuthorityInformationAccess.validate(&r)
        case .ocspNoCheck: try OCSPNoCheck.validate(&r)
        case .tlsFeature: _ = try TLSFeatures.read(&r)
        }
    }

    private static func parseTBS(_ tbs: inout DERReader, outerAlgorithm: Range<Int>, outerStart: Int,
                                 _ outerSignatureAlgorithm: SignatureAlgorithm, into parsed: inout Parsed) throws(DERError) {
        var version = Version.v1
        if let element = try tbs.readOptional(.contextSpecific(0, constructed: true), "version") {
            let explicit = try tbs.descend(into: element, "version")
            let number = try tbs.readUnsigned("version", as: UInt8.self)
            try tbs.ascend(explicit, "version")
            switch number {
            case 0: throw DERError(.explicitDefault, at: element.offset, expected: "version omitted for v1")
            case 1: version = .v2
            case 2: version = .v3
            default: throw DERError(.invalidValue, at: element.offset, expected: "version v1, v2 or v3 (RFC 5280 4.1.2.1)")
            }
        }
        parsed.version = version
        parsed.layout.serialNumber = try tbs.readInteger("serialNumber").value
        // tbsCertificate.signature must be the outer signatureAlgorithm byte for byte (RFC 5280 4.1.1.2:
        // "the same algorithm identifier"): ECDSA with NULL parameters in one and none in the other is
        // a mismatch, as OpenSSL (X509_ALGOR_cmp), Go and rustls-webpki judge it (Chromium alone
        // compares the algorithms read).
        // The same bytes are the same element with the same algorithm, already read: only when they
        // differ is this one read (its own errors first, then the mismatch).
        let innerStart = tbs.position
        if tbs.end - innerStart >= outerAlgorithm.count,
           tbs.bytesEqual(innerStart..<(innerStart + outerAlgorithm.count), outerAlgorithm) {
            _ = try tbs.readElement("TBSCertificate signature")
            parsed.signatureAlgorithm = outerSignatureAlgorithm
        } else {
            // A different algorithm identifier: read (its own DER errors first) and recorded; the
            // outer signatureAlgorithm is the one the signature is checked with, and validation
            // refuses the certificate (RFC 5280 4.1.1.2, ``CertificateFinding/signatureAlgorithmMismatch``).
            _ = try SignatureAlgorithm.read(&tbs, "TBSCertificate signature")
            parsed.signatureAlgorithm = outerSignatureAlgorithm
            parsed.findings.insert(.signatureAlgorithmMismatch)
        }
        // The outer one (Certificate.signatureAlgorithm), which the signature is checked with.
        parsed.layout.signatureAlgorithm = outerAlgorithm
        parsed.layout.issuer = try Name.readRange(&tbs, "issuer")
        let validity = try tbs.descend(.sequence, "Validity")
        let start = try tbs.readTime("notBefore")
        let end = try tbs.readTime("notAfter")
        try tbs.ascend(validity, "Validity")
        parsed.notBefore = start.time
        parsed.notAfter = end.time
        parsed.validityUsesGeneralizedTime = (start.isGeneralizedTime, end.isGeneralizedTime)
        parsed.layout.subject = try Name.readRange(&tbs, "subject")
        parsed.layout.subjectPublicKeyInfo = try SubjectPublicKeyInfo.readLayout(&tbs)

        // A constructed [1] or [2] is a unique identifier in a form DER forbids (a BIT STRING is
        // primitive, X.690 10.2): say so, rather than report the rest of the TBSCertificate as trailing data.
        if tbs.peekTag() == .contextSpecific(1, constructed: true) {
            throw DERError(.invalidBitString, at: tbs.position, expected: "issuerUniqueID as a primitive BIT STRING (X.690 10.2)")
        }
        if let element = try tbs.readOptional(.contextSpecific(1), "issuerUniqueID") {
            parsed.layout.issuerUniqueID = try uniqueID(element, "issuerUniqueID", version, tbs, &parsed.findings)
        }
        if tbs.peekTag() == .contextSpecific(2, constructed: true) {
            throw DERError(.invalidBitString, at: tbs.position, expected: "subjectUniqueID as a primitive BIT STRING (X.690 10.2)")
        }
        if let element = try tbs.readOptional(.contextSpecific(2), "subjectUniqueID") {
            parsed.layout.subjectUniqueID = try uniqueID(element, "subjectUniqueID", version, tbs, &parsed.findings)
        }
        if let element = try tbs.readOptional(.contextSpecific(3, constructed: true), "extensions") {
            if _slowPath(version != .v3) { parsed.findings.insert(.extensionsBeforeVersion3) }
            let explicit = try tbs.descend(into: element, "extensions")
            let list = try tbs.read(.sequence, "Extensions")
            try tbs.finish("extensions")
            let extensions = try tbs.descend(into: list, "Extensions")
            guard _fastPath(!tbs.isAtEnd) else {
                throw DERError(.invalidValue, at: list.offset, expected: "at least one Extension (SIZE (1..MAX))")
            }
            parsed.extensionList = list.value
            try readExtensions(&tbs, into: &parsed)
            tbs.ascend(extensions)
            tbs.ascend(explicit)
        }
        try tbs.finish("TBSCertificate")
    }

    /// The bits of issuerUniqueID or subjectUniqueID (RFC 5280 4.1.2.8: v2 and v3 only; one in a
    /// v1 certificate is recorded, ``CertificateFinding/uniqueIdentifierInVersion1``).
    private static func uniqueID(_ element: DERElement, _ name: String, _ version: Version, _ tbs: DERReader,
                                 _ findings: inout ParseFindings) throws(DERError) -> Range<Int> {
        if _slowPath(version == .v1) { findings.insert(.uniqueIdentifierInVersion1) }
        return try tbs.bitString(element, name).bytes
    }

    /// Reads every Extension of the Extensions SEQUENCE the reader spans, validating each known
    /// one's value as it comes, and keeps where each known one's value is and which are critical. An
    /// extension present twice (RFC 5280 4.2) is recorded (``CertificateFinding/duplicateExtension``):
    /// its repeats are validated like the first, and the first is the one kept.
    private static func readExtensions(_ reader: inout DERReader, into parsed: inout Parsed) throws(DERError) {
        var unknown = SeenByteStrings()  // a known one repeated is found by its bit
        while !reader.isAtEnd {
            let record = try ExtensionRecord.read(&reader)
            let (oid, value, isCritical) = (record.oid, record.value, record.isCritical)
            if let known = record.known {
                let repeated = parsed.knownPresent & known.bit != 0
                // Its syntax (RFC 5280 4.2.1, 4.2.2), the extnValue read as a document of its own:
                // errors are reported in encoded order.
                let contents = reader.descend(to: value, depth: 0)
                if _fastPath(!repeated) {
                    parsed.knownPresent |= known.bit
                    if isCritical { parsed.knownCritical |= known.bit }
                    parsed.knownValues[known.index] = value
                    try readKnownExtension(known, &reader, into: &parsed)
                } else {
                    // A repeat: validated, but the first occurrence's values are the ones kept.
                    parsed.findings.insert(.duplicateExtension)
                    var copy = parsed
                    try readKnownExtension(known, &reader, into: &copy)
                    parsed.findings = copy.findings
                }
                reader.ascend(contents)
            } else {
                if isCritical { parsed.elements.appendUnknownCritical(oid: oid, value: value) }
                if _slowPath(!unknown.insert(oid, of: reader)) { parsed.findings.insert(.duplicateExtension) }
            }
        }
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
    package var subjectPublicKeyInfoDER: ArraySlice<UInt8> { der[layout.subjectPublicKeyInfo.der] }
    /// Whether subject, SubjectPublicKeyInfo and subjectAltName (or its absence) are the same
    /// bytes in both certificates (RFC 4158 5.2's loop key), compared in place.
    package func hasSameLoopKey(as other: Certificate) -> Bool {
        let san = value(of: .subjectAltName), otherSAN = other.value(of: .subjectAltName)
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
    package var hasEmptyIssuer: Bool { layout.issuer.count == 2 }
    /// Whether the subject is an empty Name (an empty SEQUENCE), without making the view.
    package var hasEmptySubject: Bool { layout.subject.count == 2 }
    /// Whether the subject key is RSA (including RSASSA-PSS-restricted keys).
    package var hasRSAKey: Bool {
        if case .rsa = layout.subjectPublicKeyInfo.key { return true }
        return false
    }
    /// Whether the subject key is an elliptic-curve key (id-ecPublicKey on a supported curve).
    package var hasECKey: Bool {
        if case .ec = layout.subjectPublicKeyInfo.key { return true }
        return false
    }
    /// Whether the subject key is DSA without domain parameters (they are inherited, RFC 3279 2.3.2).
    package var hasDSAKeyWithoutParameters: Bool {
        if case .dsa(nil, _) = layout.subjectPublicKeyInfo.key { return true }
        return false
    }
    /// Whether the subject key is DSA, with or without domain parameters.
    package var hasDSAKey: Bool {
        if case .dsa = layout.subjectPublicKeyInfo.key { return true }
        return false
    }
    /// The domain parameters of a DSA subject key that carries them; `nil` for any other key.
    package var dsaKeyParameters: DSAParameters? {
        guard case .dsa(let parameters?, _) = layout.subjectPublicKeyInfo.key else { return nil }
        return parameters.materialize(der[...])
    }
    /// The RSA modulus length in bits (RFC 8017 3.1), read in place; `nil` for any other key.
    package var rsaModulusBits: Int? {
        guard case .rsa(let modulus, _) = layout.subjectPublicKeyInfo.key else { return nil }
        guard !modulus.isEmpty else { return 0 }
        return SubjectPublicKey.bitLength(octets: modulus.count, leading: der[modulus.lowerBound])
    }
    /// The subject public key, decoded (what ``subjectPublicKeyInfo`` holds as `key`).
    package var subjectPublicKey: SubjectPublicKey { layout.subjectPublicKeyInfo.subjectPublicKey(der[...]) }
    /// issuerUniqueID bits (v2/v3 only).
    public var issuerUniqueID: ArraySlice<UInt8>? { layout.issuerUniqueID.map { der[$0] } }
    /// The number of bits of issuerUniqueID: its octets × 8 less the BIT STRING's unused bits.
    public var issuerUniqueIDBitCount: Int? { layout.issuerUniqueID.map(bitCount) }
    /// The number of bits of subjectUniqueID: its octets × 8 less the BIT STRING's unused bits.
    public var subjectUniqueIDBitCount: Int? { layout.subjectUniqueID.map(bitCount) }

    /// The bit count of a BIT STRING whose octets after the unused-bits octet are `bits`.
    private func bitCount(_ bits: Range<Int>) -> Int { bits.count * 8 - Int(der[bits.lowerBound - 1]) }
    /// subjectUniqueID bits (v2/v3 only).
    public var subjectUniqueID: ArraySlice<UInt8>? { layout.subjectUniqueID.map { der[$0] } }
    /// signatureValue bytes.
    public var signature: ArraySlice<UInt8> { der[layout.signature] }

    /// Every extension in encoded order (v3 only; empty when absent).
    public var extensions: [Extension] { extensionRecords.map(makeExtension) }

    private func makeExtension(_ record: ExtensionRecord) -> Extension {
        Extension(oid: OID(validatedEncoding: der[record.oid]), isCritical: record.isCritical, value: der[record.value])
    }

    /// The offsets in ``der`` of a known extension's extnValue contents, if present.
    package func value(of known: KnownExtension) -> Range<Int>? {
        fields.knownPresent & known.bit != 0 ? fields.knownValues[known.index] : nil
    }

    /// Whether a known extension is present and marked critical (`nil` when absent), from the
    /// masks kept by parsing.
    package func isCritical(_ known: KnownExtension) -> Bool? {
        fields.knownPresent & known.bit == 0 ? nil : fields.knownCritical & known.bit != 0
    }

    /// Decodes a known extension from its validated extnValue.
    private func decode<T>(_ known: KnownExtension, _ read: (inout DERReader) throws(DERError) -> T) -> T? {
        guard let value = value(of: known) else { return nil }
        var reader = DERReader(der)
        do throws(DERError) {
            return try reader.within(value, depth: 0, read)
        } catch {
            preconditionFailure("extension validated when the certificate was parsed: \(error)")
        }
    }

    /// extKeyUsage (4.2.1.12), when present.
    public var extendedKeyUsage: ExtendedKeyUsage? { decode(.extKeyUsage) { (r: inout DERReader) throws(DERError) in try ExtendedKeyUsage.read(&r) } }
    /// Whether extKeyUsage lists `purpose` or anyExtendedKeyUsage; `nil` when there is no
    /// extKeyUsage extension. Reads the purposes parsing kept (``ExtensionElements``).
    package func extendedKeyUsageAllows(_ purpose: OID) -> Bool? {
        guard value(of: .extKeyUsage) != nil else { return nil }
        let any = KnownOID.anyExtendedKeyUsage
        return der.withUnsafeBufferPointer { buffer -> Bool in
            func equals(_ range: Range<Int>, _ oid: OID) -> Bool {
                oid.encoded.count == range.count
                    && oid.encoded.withUnsafeBufferPointer { $0.elementsEqual(UnsafeBufferPointer(rebasing: buffer[range])) }
            }
            return !fields.elements.forEach(.extendedKeyUsage) { !equals($0.contents, purpose) && !equals($0.contents, any) }
        }
    }

    /// Calls `body` with the tag number (`2` dNSName, `7` iPAddress…) and the offsets in ``der`` of
    /// the contents of each subjectAltName GeneralName, in order, until it returns `false`; returns
    /// whether it never did, or `nil` without a subjectAltName. Reads the names parsing kept
    /// (``ExtensionElements``).
    package func forEachSubjectAlternativeName(_ body: (UInt8, Range<Int>) -> Bool) -> Bool? {
        guard value(of: .subjectAltName) != nil else { return nil }
        return fields.elements.forEach(.subjectAltName) { body($0.tag, $0.contents) }
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
        guard value(of: .authorityKeyIdentifier) != nil else { return nil }
        guard layout.authorityKeyIdentifierHasIssuer else {
            return AuthorityKeyIdentifier(keyIdentifier: layout.authorityKeyIdentifier.map { der[$0] }, authorityCertIssuer: nil,
                                          authorityCertSerialNumber: nil)
        }
        return decode(.authorityKeyIdentifier, AuthorityKeyIdentifier.read)
    }
    /// The authorityKeyIdentifier keyIdentifier (4.2.1.1), when present.
    package var authorityKeyIdentifierKeyID: ArraySlice<UInt8>? {
        layout.authorityKeyIdentifierHasIssuer ? authorityKeyIdentifier?.keyIdentifier : layout.authorityKeyIdentifier.map { der[$0] }
    }
    /// subjectKeyIdentifier (4.2.1.2), when present.
    public var subjectKeyIdentifier: ArraySlice<UInt8>? { layout.subjectKeyIdentifier.map { der[$0] } }
    /// certificatePolicies (4.2.1.4), when present.
    public var certificatePolicies: [PolicyInformation]? {
        decode(.certificatePolicies) { (r: inout DERReader) throws(DERError) in try CertificatePolicies.read(&r) }
    }
    /// The policyIdentifier of each PolicyInformation of certificatePolicies, in order; `nil` when
    /// the extension is absent. Made from the identifiers parsing kept (``ExtensionElements``).
    package var policyIdentifiers: [OID]? {
        guard value(of: .certificatePolicies) != nil else { return nil }
        var identifiers: [OID] = []
        identifiers.reserveCapacity(fields.elements.count(of: .policyIdentifiers))
        _ = fields.elements.forEach(.policyIdentifiers) { identifiers.append(OID(validatedEncoding: der[$0.contents])); return true }
        return identifiers
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

    /// The TLS features (RFC 7633: TLS ExtensionType numbers, `5` status_request) of the TLS feature
    /// extension, in encoded order, when present.
    public var tlsFeatures: [UInt16]? {
        decode(.tlsFeature) { (r: inout DERReader) throws(DERError) in try TLSFeatures.read(&r) }
    }

    /// Whether the TLS feature extension lists status_request (RFC 7633 with RFC 6066 8: OCSP
    /// "must-staple").
    package var requiresStapledOCSPResponse: Bool { tlsFeatures?.contains(TLSFeatures.statusRequest) ?? false }

    /// The TBSCertificate's complete DER (the signed bytes).
    public var tbsCertificateBytes: ArraySlice<UInt8> { der[tbsCertificateRange] }

    /// The extension with `oid`, if present (a known one found at once, another by reading the list).
    public func `extension`(_ oid: OID) -> Extension? {
        if let known = KnownExtension.identify(oid) {
            guard let value = value(of: known) else { return nil }
            return Extension(oid: oid, isCritical: fields.knownCritical & known.bit != 0, value: der[value])
        }
        return extensionRecords.first { der[$0.oid].elementsEqual(oid.encoded) }.map(makeExtension)
    }

    /// Critical extensions CertPath does not process (RFC 5280 4.2: such a certificate MUST be rejected).
    public var unrecognizedCriticalExtensions: [Extension] {
        fields.elements.unknownCritical.map {
            Extension(oid: OID(validatedEncoding: der[$0.oid]), isCritical: true, value: der[$0.value])
        }
    }

    /// The extnID contents offsets of each critical extension CertPath does not process, in encoded order.
    package var unrecognizedCriticalExtensionOIDs: [Range<Int>] { fields.elements.unknownCritical.map(\.oid) }

    /// Whether some critical extension is one CertPath does not process.
    package var hasUnrecognizedCriticalExtension: Bool { fields.elements.hasUnknownCritical }

    /// Whether issuer and subject are the same name under RFC 5280 7.1 ("self-issued", RFC 5280 6.1).
    public var isSelfIssued: Bool {
        switch selfIssuedMemo.load(ordering: .relaxed) {
        case 1: return false
        case 2: return true
        default:
            let answer = issuer.isEquivalent(to: subject)
            selfIssuedMemo.store(answer ? 2 : 1, ordering: .relaxed)
            return answer
        }
    }

    /// The prose rules of RFC 5280 this certificate breaks that parsing noticed (each a row of the
    /// validation rules table, ``ProfileRule``), in declaration order.
    public var findings: [CertificateFinding] {
        CertificateFinding.allCases.filter { fields.findings.contains($0) }
    }

    /// The DER leniencies used to read this certificate (the closed list of ``EncodingLeniency``).
    public var encodingLeniencies: [EncodingLeniency] {
        EncodingLeniency.allCases.filter { fields.findings.leniencies & $0.bit != 0 }
    }

    /// A value of at most 63 bits that code above the X.509 layer computes from this certificate
    /// alone (the rules table's findings, every subjectAltName's syntax among them), computed by
    /// `compute` the first time, then remembered. (A path search validates many paths through the
    /// same certificates; a check over a large subjectAltName repeated for each of them made a 1 MB
    /// mesh of intermediates take 40 s within the step budget.) Threads may compute it at the same
    /// time; all compute the same one.
    package func memoizedWord(_ compute: () -> UInt64) -> UInt64 {
        let known = wordMemo.load(ordering: .relaxed)
        if known & (1 &<< 63) != 0 { return known & ~(1 &<< 63) }
        let answer = compute() & ~(1 &<< 63)
        wordMemo.store(answer | (1 &<< 63), ordering: .relaxed)
        return answer
    }

    /// Whether any of certificatePolicies, policyMappings, policyConstraints and inhibitAnyPolicy is present.
    package var hasPolicyExtension: Bool {
        let policyBits = KnownExtension.certificatePolicies.bit | KnownExtension.policyMappings.bit
            | KnownExtension.policyConstraints.bit | KnownExtension.inhibitAnyPolicy.bit
        return fields.knownPresent & policyBits != 0
    }

    /// Whether basicConstraints asserts cA.
    public var isCertificateAuthority: Bool { basicConstraints?.isCertificateAuthority ?? false }

    /// The serial number in hex, two's complement as encoded (`00ff…` keeps its sign octet).
    public var serialNumberHex: String { Hex.encode(serialNumber) }

    /// `subject=…, issuer=…, serial=…`.
    public var description: String { "Certificate(subject: \(subject), issuer: \(issuer), serial: \(serialNumberHex))" }

    public static func == (lhs: Certificate, rhs: Certificate) -> Bool { lhs === rhs || lhs.der == rhs.der }

    public func hash(into hasher: inout Hasher) { hasher.combine(der) }
}

/// Lowercase hex rendering of bytes, and the value of one hex digit.
package enum Hex {
    /// The value of the ASCII hex digit `byte` (`0-9`, `a-f`, `A-F`), `nil` for anything else.
    package static func value(ofDigit byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static let digits = Array("0123456789abcdef".utf8)

    /// `0a1b…`, or with a separator (`0a:1b:…`).
    package static func encode<C: Collection<UInt8>>(_ bytes: C, separator: String = "") -> String {
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
