#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CertPathDER

/// An X.509 v1, v2 or v3 certificate (RFC 5280 4.1), parsed once from DER and immutable.
///
/// The certificate keeps its original bytes; the TBS bytes, signature, SPKI and names are views
/// into them. Parsing enforces DER (see `CertPathDER`) and the syntax of RFC 5280 section 4 for
/// every field and every extension CertPath knows (``KnownExtension``): whatever parses is
/// well-formed, and accessors never fail.
///
/// Choices, each named: a negative or zero serial number, or one longer than 20 octets, parses
/// (RFC 5280 4.1.2.2 asks users to handle such certificates gracefully; profiles may refuse them);
/// an empty issuer parses (validation refuses it); certificate policy qualifiers are checked for
/// structure only. Unknown extensions are kept with their criticality; deciding that an unknown
/// critical extension rejects the certificate belongs to path validation.
///
/// Eager and typed (as Chromium's `ParsedCertificate`): parsing decodes, once, every extension
/// path validation reads into a typed value (``basicConstraints``, ``keyUsage``,
/// ``extendedKeyUsage``, ``subjectAlternativeNames``, ``nameConstraints``,
/// ``certificatePolicies``, ``policyMappings``, ``policyConstraints``, ``inhibitAnyPolicy``, the key
/// identifiers, ``tlsFeatures``, the raw ``signedCertificateTimestampList``), the extension list
/// itself and whether the certificate is self-issued; each of these properties returns what was
/// stored, and nothing is decoded again. The two extensions only revocation checking and fetching
/// read, ``cRLDistributionPoints`` and ``authorityInformationAccess``, are validated at parse and
/// decoded when read (as Chromium leaves distribution points to its CRL code): building them cost
/// every evaluation a sixth of its parse (issue 31). Values of byte strings are views (`ArraySlice`)
/// into ``der``.
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
    /// What parsing found: the fields' offsets in ``der``, the decoded fields and extensions, kept as
    /// one value so that parsing hands it over without copying it field by field.
    package let fields: Parsed
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
    public var basicConstraints: BasicConstraints? { fields.extensions.basicConstraints }
    /// keyUsage (4.2.1.3), when present.
    public var keyUsage: KeyUsage? { fields.extensions.keyUsage }
    /// policyConstraints (4.2.1.11), when present.
    public var policyConstraints: PolicyConstraints? { fields.extensions.policyConstraints }
    /// inhibitAnyPolicy SkipCerts (4.2.1.14), when present.
    public var inhibitAnyPolicy: Int? { fields.extensions.inhibitAnyPolicy }

    /// Offsets in ``der`` of everything kept as a view.
    package var layout: Layout { fields.layout }
    /// Where the subjectPublicKeyInfo and its key are in ``der`` (what ``layout`` holds, without
    /// copying the rest of it).
    package var subjectPublicKeyLayout: SubjectPublicKeyLayout { fields.layout.subjectPublicKeyInfo }
    /// Every extension in encoded order, as offsets (read once, at parse): for display and for
    /// looking up an extension CertPath does not know (path validation reads the typed values).
    package var extensionRecords: [ExtensionRecord] { fields.extensionRecords }

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
    }

    /// One extension (RFC 5280 4.1): where its extnID and extnValue contents are, its
    /// criticality and which known extension it is. Parsing keeps one per extension, in encoded order.
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

    /// The typed values of the extensions path validation reads (RFC 5280 4.2.1, 4.2.2; RFC 7633;
    /// RFC 6962 3.3), decoded once by the parser; `nil` for an extension that is absent. An extension
    /// present twice is recorded (``ProfileRule/duplicateExtension``) and its first occurrence
    /// is the one kept.
    package struct ExtensionValues: Sendable {
        package var basicConstraints: BasicConstraints? = nil
        package var keyUsage: KeyUsage? = nil
        package var extendedKeyUsage: ExtendedKeyUsage? = nil
        package var subjectAlternativeNames: [GeneralName]? = nil
        package var issuerAlternativeNames: [GeneralName]? = nil
        package var nameConstraints: NameConstraints? = nil
        package var authorityKeyIdentifier: AuthorityKeyIdentifier? = nil
        package var subjectKeyIdentifier: ArraySlice<UInt8>? = nil
        package var certificatePolicies: [PolicyInformation]? = nil
        package var policyMappings: [PolicyMapping]? = nil
        package var policyConstraints: PolicyConstraints? = nil
        package var inhibitAnyPolicy: Int? = nil
        package var hasOCSPNoCheck = false
        package var tlsFeatures: [UInt16]? = nil
        /// The extnValue contents of the SCT list extension (RFC 6962 3.3), undecoded.
        package var signedCertificateTimestampList: ArraySlice<UInt8>? = nil
        /// Whether some extension marked critical is not a ``KnownExtension`` (RFC 5280 4.2).
        package var hasUnrecognizedCritical = false
        /// The known extensions present, and those whose first occurrence is critical
        /// (``KnownExtension/bit``): a known extension's criticality without a scan of the records.
        package var presentKnown: UInt16 = 0
        package var criticalKnown: UInt16 = 0
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
    package struct Parsed: Sendable {
        package var tbs = 0..<0
        package var version = Version.v1
        package var signatureAlgorithm = SignatureAlgorithm.ed25519
        package var notBefore = UnixTime(secondsSinceEpoch: 0)
        package var notAfter = UnixTime(secondsSinceEpoch: 0)
        package var validityUsesGeneralizedTime = (notBefore: false, notAfter: false)
        package var signatureUnusedBits: UInt8 = 0
        /// Whether issuer and subject are one name under RFC 5280 7.1 (decided once, at parse).
        package var isSelfIssued = false
        package var layout = Layout(serialNumber: 0..<0, signatureAlgorithm: 0..<0, issuer: 0..<0, subject: 0..<0,
                            subjectPublicKeyInfo: SubjectPublicKeyLayout(der: 0..<0, key: .ed25519(0..<0), isRestrictedToRSASSAPSS: false),
                            issuerUniqueID: nil, subjectUniqueID: nil, signature: 0..<0)
        /// Every extension, in encoded order (empty when there are none).
        package var extensionRecords: [ExtensionRecord] = []
        /// The decoded extensions.
        package var extensions = ExtensionValues()
        /// Prose rules broken (rows of ``ProfileRule``) and DER leniencies used (``EncodingLeniency``).
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
        // Self-issued (RFC 5280 6.1: issuer and subject the same name, compared per 7.1): decided
        // here, once; path building and validation ask it of every intermediate on every attempt.
        parsed.isSelfIssued = Name(validatedDER: reader.bytes[parsed.layout.issuer])
            .isEquivalent(to: Name(validatedDER: reader.bytes[parsed.layout.subject]))
        // The rows of the rules table this certificate alone decides, decided here, once (after
        // self-issued, which two of them read).
        let rules = CertificateRuleChecks.rules(parsed, reader.bytes)
        parsed.findings.rules = rules
        return consume parsed  // moved out, not copied (the value is large)
    }


    /// Decodes the extnValue the reader spans as the extension `known` into its typed value
    /// (RFC 5280 4.2.1.x, 4.2.2.1; RFC 6960 4.2.2.2.1; RFC 7633), recording the prose rules it breaks.
    private static func readKnownExtension(_ known: KnownExtension, _ r: inout DERReader,
                                           into values: inout ExtensionValues, _ findings: inout ParseFindings) throws(DERError) {
        switch known {
        case .basicConstraints: values.basicConstraints = try BasicConstraints.read(&r, &findings)
        case .keyUsage: values.keyUsage = try KeyUsage.read(&r, &findings)
        case .extKeyUsage: values.extendedKeyUsage = try ExtendedKeyUsage.read(&r)
        case .subjectAltName: values.subjectAlternativeNames = try AlternativeNames.read(&r, "SubjectAltName")
        case .issuerAltName: values.issuerAlternativeNames = try AlternativeNames.read(&r, "IssuerAltName")
        case .nameConstraints: values.nameConstraints = try NameConstraints.read(&r, &findings)
        case .authorityKeyIdentifier:
            let parts = try AuthorityKeyIdentifier.readParts(&r, build: true, &findings)
            values.authorityKeyIdentifier = AuthorityKeyIdentifier(
                keyIdentifier: parts.keyIdentifier.map { r.bytes[$0] }, authorityCertIssuer: parts.issuer,
                authorityCertSerialNumber: parts.serialNumber.map { r.bytes[$0] })
        case .subjectKeyIdentifier: values.subjectKeyIdentifier = try SubjectKeyIdentifier.read(&r)
        case .certificatePolicies:
            var discarded = DiscardedElements()
            values.certificatePolicies = try CertificatePolicies.read(&r, build: true, &findings, into: &discarded)
        case .policyMappings: values.policyMappings = try PolicyMappings.read(&r)
        case .policyConstraints: values.policyConstraints = try PolicyConstraints.read(&r, &findings)
        case .inhibitAnyPolicy: values.inhibitAnyPolicy = try InhibitAnyPolicy.read(&r)
        // Validated only: revocation and fetching decode them when they run (see ``cRLDistributionPoints``).
        case .cRLDistributionPoints: try CRLDistributionPoints.validate(&r)
        case .authorityInfoAccess: try AuthorityInformationAccess.validate(&r)
        case .ocspNoCheck:
            try OCSPNoCheck.validate(&r)
            values.hasOCSPNoCheck = true
        case .tlsFeature: values.tlsFeatures = try TLSFeatures.read(&r)
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
            // refuses the certificate (RFC 5280 4.1.1.2, ``ProfileRule/signatureAlgorithmMismatch``).
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
            try readExtensions(&tbs, into: &parsed)
            tbs.ascend(extensions)
            tbs.ascend(explicit)
        }
        try tbs.finish("TBSCertificate")
    }

    /// The bits of issuerUniqueID or subjectUniqueID (RFC 5280 4.1.2.8: v2 and v3 only; one in a
    /// v1 certificate is recorded, ``ProfileRule/uniqueIdentifierInVersion1``).
    private static func uniqueID(_ element: DERElement, _ name: String, _ version: Version, _ tbs: DERReader,
                                 _ findings: inout ParseFindings) throws(DERError) -> Range<Int> {
        if _slowPath(version == .v1) { findings.insert(.uniqueIdentifierInVersion1) }
        return try tbs.bitString(element, name).bytes
    }

    /// Reads every Extension of the Extensions SEQUENCE the reader spans, decoding each known one's
    /// value as it comes into ``ExtensionValues`` and keeping a record of each. An extension present
    /// twice (RFC 5280 4.2) is recorded (``ProfileRule/duplicateExtension``): its repeats are
    /// decoded like the first (their errors and findings count), and the first is the one kept.
    private static func readExtensions(_ reader: inout DERReader, into parsed: inout Parsed) throws(DERError) {
        var unknown = SeenByteStrings()
        var seenKnown: UInt16 = 0  // the known extensions met so far (``KnownExtension/bit``)
        parsed.extensionRecords.reserveCapacity(12)  // a Web PKI leaf has about ten: one allocation
        while !reader.isAtEnd {
            let record = try ExtensionRecord.read(&reader)
            parsed.extensionRecords.append(record)
            if let known = record.known {
                // Its syntax (RFC 5280 4.2.1, 4.2.2), the extnValue read as a document of its own:
                // errors are reported in encoded order.
                let contents = reader.descend(to: record.value, depth: 0)
                if _fastPath(seenKnown & known.bit == 0) {
                    seenKnown |= known.bit
                    if record.isCritical { parsed.extensions.criticalKnown |= known.bit }
                    try readKnownExtension(known, &reader, into: &parsed.extensions, &parsed.findings)
                } else {
                    parsed.findings.insert(.duplicateExtension)
                    var repeated = ExtensionValues()
                    try readKnownExtension(known, &reader, into: &repeated, &parsed.findings)
                }
                reader.ascend(contents)
            } else {
                if record.isCritical { parsed.extensions.hasUnrecognizedCritical = true }
                if _slowPath(!unknown.insert(record.oid, of: reader)) {
                    parsed.findings.insert(.duplicateExtension)
                } else if reader.bytesEqual(record.oid, KnownOID.signedCertificateTimestampList.encoded) {
                    parsed.extensions.signedCertificateTimestampList = reader.bytes[record.value]
                }
            }
        }
        parsed.extensions.presentKnown = seenKnown
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
        guard layout.subject.count == other.layout.subject.count,
              layout.subjectPublicKeyInfo.der.count == other.layout.subjectPublicKeyInfo.der.count else { return false }
        let san = value(of: .subjectAltName), otherSAN = other.value(of: .subjectAltName)
        guard san?.count == otherSAN?.count else { return false }
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

    /// Every extension in encoded order (v3 only; empty when absent): views made from the records
    /// parsing kept.
    public var extensions: [Extension] { extensionRecords.map(makeExtension) }

    private func makeExtension(_ record: ExtensionRecord) -> Extension {
        Extension(oid: OID(validatedEncoding: der[record.oid]), isCritical: record.isCritical, value: der[record.value])
    }

    /// The first record of a known extension, if present.
    private func record(of known: KnownExtension) -> ExtensionRecord? {
        fields.extensionRecords.first { $0.known == known }
    }

    /// The offsets in ``der`` of a known extension's extnValue contents (its first occurrence), if present.
    package func value(of known: KnownExtension) -> Range<Int>? { record(of: known)?.value }

    /// Whether a known extension is present and marked critical (`nil` when absent; its first occurrence).
    package func isCritical(_ known: KnownExtension) -> Bool? { fields.isCritical(known) }

    /// extKeyUsage (4.2.1.12), when present.
    public var extendedKeyUsage: ExtendedKeyUsage? { fields.extensions.extendedKeyUsage }
    /// Whether extKeyUsage lists `purpose` or anyExtendedKeyUsage; `nil` when there is no
    /// extKeyUsage extension (RFC 5280 4.2.1.12).
    package func extendedKeyUsageAllows(_ purpose: OID) -> Bool? {
        guard let usages = fields.extensions.extendedKeyUsage?.usages else { return nil }
        return usages.contains { $0 == purpose || $0 == KnownOID.anyExtendedKeyUsage }
    }

    /// Calls `body` with the tag number (`2` dNSName, `7` iPAddress…) and the offsets in ``der`` of
    /// each subjectAltName GeneralName, in order, until it returns `false`; returns whether it never
    /// did, or `nil` without a subjectAltName. The offsets are those of the bytes the typed value
    /// holds: the contents octets for rfc822Name, dNSName, uniformResourceIdentifier, iPAddress,
    /// registeredID and directoryName (the Name), the value's encoding for otherName, the complete
    /// encoding for x400Address and ediPartyName.
    package func forEachSubjectAlternativeName(_ body: (UInt8, Range<Int>) -> Bool) -> Bool? {
        guard let names = fields.extensions.subjectAlternativeNames else { return nil }
        for name in names {
            let found: (UInt8, Range<Int>)
            switch name {
            case .otherName(_, let value): found = (0, value.indices)
            case .rfc822Name(let bytes): found = (1, bytes.indices)
            case .dNSName(let bytes): found = (2, bytes.indices)
            case .x400Address(let bytes): found = (3, bytes.indices)
            case .directoryName(let name): found = (4, name.der.indices)
            case .ediPartyName(let bytes): found = (5, bytes.indices)
            case .uniformResourceIdentifier(let bytes): found = (6, bytes.indices)
            case .iPAddress(let bytes): found = (7, bytes.indices)
            case .registeredID(let oid): found = (8, oid.encoded.indices)
            }
            if !body(found.0, found.1) { return false }
        }
        return true
    }

    /// subjectAltName (4.2.1.6), when present.
    public var subjectAlternativeNames: [GeneralName]? { fields.extensions.subjectAlternativeNames }
    /// issuerAltName (4.2.1.7), when present.
    public var issuerAlternativeNames: [GeneralName]? { fields.extensions.issuerAlternativeNames }
    /// nameConstraints (4.2.1.10), when present.
    public var nameConstraints: NameConstraints? { fields.extensions.nameConstraints }
    /// authorityKeyIdentifier (4.2.1.1), when present.
    public var authorityKeyIdentifier: AuthorityKeyIdentifier? { fields.extensions.authorityKeyIdentifier }
    /// The authorityKeyIdentifier keyIdentifier (4.2.1.1), when present.
    package var authorityKeyIdentifierKeyID: ArraySlice<UInt8>? { fields.extensions.authorityKeyIdentifier?.keyIdentifier }
    /// Whether the authorityKeyIdentifier has authorityCertIssuer or authorityCertSerialNumber (RFC
    /// 5280 4.2.1.1 wants both or neither).
    package var authorityKeyIdentifierHasIssuer: Bool {
        guard let identifier = fields.extensions.authorityKeyIdentifier else { return false }
        return identifier.authorityCertIssuer != nil || identifier.authorityCertSerialNumber != nil
    }
    /// subjectKeyIdentifier (4.2.1.2), when present.
    public var subjectKeyIdentifier: ArraySlice<UInt8>? { fields.extensions.subjectKeyIdentifier }
    /// certificatePolicies (4.2.1.4), when present.
    public var certificatePolicies: [PolicyInformation]? { fields.extensions.certificatePolicies }
    /// The policyIdentifier of each PolicyInformation of certificatePolicies, in order; `nil` when
    /// the extension is absent.
    package var policyIdentifiers: [OID]? { fields.extensions.certificatePolicies?.map(\.policyIdentifier) }

    /// policyMappings (4.2.1.5), when present.
    public var policyMappings: [PolicyMapping]? { fields.extensions.policyMappings }
    /// cRLDistributionPoints (4.2.1.13), when present (its first occurrence).
    ///
    /// Unlike the extensions path validation reads, decoded from the extnValue on each read: parsing
    /// validated its syntax (a malformed one fails the parse), and only revocation checking reads
    /// it, once per certificate — as Chromium's `ParsedCertificate` leaves CRL distribution points to
    /// its CRL code. Decoding it and authorityInfoAccess at parse cost 0.26 µs of a 1.47 µs parse of
    /// a Web PKI leaf (three arrays, five views), paid on every evaluation (issue 31).
    /// Decoding validated bytes cannot fail (`try?` never gives `nil` for a present extension).
    public var cRLDistributionPoints: [DistributionPoint]? {
        record(of: .cRLDistributionPoints).flatMap { try? CRLDistributionPoints.decode(makeExtension($0)) }
    }
    /// authorityInfoAccess (4.2.2.1), when present (its first occurrence): decoded on each read, as
    /// ``cRLDistributionPoints`` is (read by revocation and fetching only).
    public var authorityInformationAccess: [AccessDescription]? {
        record(of: .authorityInfoAccess).flatMap { try? AuthorityInformationAccess.decode(makeExtension($0)) }
    }

    /// The TLS features (RFC 7633: TLS ExtensionType numbers, `5` status_request) of the TLS feature
    /// extension, in encoded order, when present.
    public var tlsFeatures: [UInt16]? { fields.extensions.tlsFeatures }

    /// Whether the TLS feature extension lists status_request (RFC 7633 with RFC 6066 8: OCSP
    /// "must-staple").
    package var requiresStapledOCSPResponse: Bool { tlsFeatures?.contains(TLSFeatures.statusRequest) ?? false }

    /// Whether the certificate carries id-pkix-ocsp-nocheck (RFC 6960 4.2.2.2.1).
    package var hasOCSPNoCheck: Bool { fields.extensions.hasOCSPNoCheck }

    /// The contents of the extnValue of the signed certificate timestamp list extension
    /// (1.3.6.1.4.1.11129.2.4.2, RFC 6962 3.3), when present: the DER of an OCTET STRING whose
    /// contents are the TLS-encoded `SignedCertificateTimestampList`. Kept undecoded, as a view into
    /// ``der``; CertPath does not process it (a critical one is an unrecognized critical extension).
    public var signedCertificateTimestampList: ArraySlice<UInt8>? { fields.extensions.signedCertificateTimestampList }

    /// The TBSCertificate's complete DER (the signed bytes).
    public var tbsCertificateBytes: ArraySlice<UInt8> { der[tbsCertificateRange] }

    /// The extension with `oid`, if present (its first occurrence).
    public func `extension`(_ oid: OID) -> Extension? {
        extensionRecords.first { der[$0.oid].elementsEqual(oid.encoded) }.map(makeExtension)
    }

    /// Critical extensions CertPath does not process (RFC 5280 4.2: such a certificate MUST be rejected).
    public var unrecognizedCriticalExtensions: [Extension] {
        guard hasUnrecognizedCriticalExtension else { return [] }
        return extensionRecords.filter { $0.known == nil && $0.isCritical }.map(makeExtension)
    }

    /// The extnID contents offsets of each critical extension CertPath does not process, in encoded order.
    package var unrecognizedCriticalExtensionOIDs: [Range<Int>] {
        guard hasUnrecognizedCriticalExtension else { return [] }
        return extensionRecords.filter { $0.known == nil && $0.isCritical }.map(\.oid)
    }

    /// Whether some critical extension is one CertPath does not process.
    package var hasUnrecognizedCriticalExtension: Bool { fields.extensions.hasUnrecognizedCritical }

    /// Whether issuer and subject are the same name under RFC 5280 7.1 ("self-issued", RFC 5280 6.1),
    /// decided at parse.
    public var isSelfIssued: Bool { fields.isSelfIssued }

    /// The prose rules of RFC 5280 this certificate breaks that parsing noticed, as the rows of the
    /// rules table they are (``ProfileRule``; CertPath's table says what each profile does with
    /// them), in table order. ``ProfileRule/uninterpretedPolicyQualifier`` is recorded whatever the
    /// criticality of certificatePolicies (RFC 5280 4.2.1.4 makes it a reason to refuse only when
    /// the extension is critical: validation applies that).
    public var findings: [ProfileRule] {
        let recorded = fields.findings.recorded
        guard recorded != 0 else { return [] }
        return ProfileRule.allCases.filter { recorded & $0.bit != 0 }
    }

    /// The DER leniencies used to read this certificate (the closed list of ``EncodingLeniency``).
    public var encodingLeniencies: [EncodingLeniency] {
        EncodingLeniency.allCases.filter { fields.findings.leniencies & $0.bit != 0 }
    }

    /// Whether any of certificatePolicies, policyMappings, policyConstraints and inhibitAnyPolicy is present.
    package var hasPolicyExtension: Bool {
        let values = fields.extensions
        return values.certificatePolicies != nil || values.policyMappings != nil || values.policyConstraints != nil
            || values.inhibitAnyPolicy != nil
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
