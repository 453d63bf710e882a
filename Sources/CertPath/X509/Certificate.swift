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
    /// serialNumber contents (two's complement, minimal).
    public let serialNumber: ArraySlice<UInt8>
    /// The signature algorithm (tbsCertificate.signature, which must equal signatureAlgorithm byte for byte).
    public let signatureAlgorithm: SignatureAlgorithm
    /// The complete encoding of the signature AlgorithmIdentifier.
    public let signatureAlgorithmDER: ArraySlice<UInt8>
    /// issuer.
    public let issuer: Name
    /// validity notBefore.
    public let notBefore: UnixTime
    /// validity notAfter.
    public let notAfter: UnixTime
    /// Whether notBefore / notAfter were encoded as GeneralizedTime (RFC 5280 4.1.2.5 requires
    /// UTCTime through 2049; a profile may enforce it).
    public let validityUsesGeneralizedTime: (notBefore: Bool, notAfter: Bool)
    /// subject.
    public let subject: Name
    /// subjectPublicKeyInfo.
    public let subjectPublicKeyInfo: SubjectPublicKeyInfo
    /// issuerUniqueID bits (v2/v3 only).
    public let issuerUniqueID: ArraySlice<UInt8>?
    /// subjectUniqueID bits (v2/v3 only).
    public let subjectUniqueID: ArraySlice<UInt8>?
    /// Every extension in encoded order (v3 only; empty when absent).
    public let extensions: [Extension]
    /// signatureValue bytes.
    public let signature: ArraySlice<UInt8>
    /// Unused bits of the signatureValue BIT STRING; every signature algorithm produces whole bytes, so
    /// a non-zero value makes the signature invalid (not the certificate malformed).
    public let signatureUnusedBits: UInt8

    /// basicConstraints (RFC 5280 4.2.1.9), when present.
    public let basicConstraints: BasicConstraints?
    /// keyUsage (4.2.1.3), when present.
    public let keyUsage: KeyUsage?
    /// extKeyUsage (4.2.1.12), when present.
    public let extendedKeyUsage: ExtendedKeyUsage?
    /// subjectAltName (4.2.1.6), when present.
    public let subjectAlternativeNames: [GeneralName]?
    /// issuerAltName (4.2.1.7), when present.
    public let issuerAlternativeNames: [GeneralName]?
    /// nameConstraints (4.2.1.10), when present.
    public let nameConstraints: NameConstraints?
    /// authorityKeyIdentifier (4.2.1.1), when present.
    public let authorityKeyIdentifier: AuthorityKeyIdentifier?
    /// subjectKeyIdentifier (4.2.1.2), when present.
    public let subjectKeyIdentifier: ArraySlice<UInt8>?
    /// certificatePolicies (4.2.1.4), when present.
    public let certificatePolicies: [PolicyInformation]?
    /// policyMappings (4.2.1.5), when present.
    public let policyMappings: [PolicyMapping]?
    /// policyConstraints (4.2.1.11), when present.
    public let policyConstraints: PolicyConstraints?
    /// inhibitAnyPolicy SkipCerts (4.2.1.14), when present.
    public let inhibitAnyPolicy: Int?
    /// cRLDistributionPoints (4.2.1.13), when present.
    public let cRLDistributionPoints: [DistributionPoint]?
    /// authorityInfoAccess (4.2.2.1), when present.
    public let authorityInformationAccess: [AccessDescription]?

    /// Parses a DER certificate.
    ///
    /// - Parameter der: exactly one Certificate; shared, not copied.
    /// - Throws: ``DERError`` naming the byte offset and the rule broken: DER violations, the RFC 5280
    ///   section 4 syntax of any field or known extension, `.invalidValue` for differing inner and
    ///   outer signature algorithms (4.1.1.2), a version other than v1–v3, unique identifiers in a v1
    ///   certificate or extensions outside v3; `.duplicate` for an extension present twice (4.2).
    public init(derEncoded der: [UInt8]) throws(DERError) {
        self.der = der
        var top = DERReader(der)
        var certificate = try top.contents(of: try top.read(.sequence, "Certificate"), "Certificate")
        try top.finish("Certificate")

        let tbsElement = try certificate.read(.sequence, "TBSCertificate")
        tbsCertificateRange = tbsElement.encoded
        let outerStart = certificate.position
        let outerAlgorithm = try SignatureAlgorithm.read(&certificate, "Certificate signatureAlgorithm")
        let outerAlgorithmDER = der[outerStart..<certificate.position]
        let signatureBits = try certificate.readBitString("Certificate signatureValue")
        try certificate.finish("Certificate")
        signature = der[signatureBits.bytes]
        signatureUnusedBits = signatureBits.unusedBits

        var tbs = try certificate.contents(of: tbsElement, "TBSCertificate")
        var version = Version.v1
        if let element = try tbs.readOptional(.contextSpecific(0, constructed: true), "version") {
            var inner = try tbs.contents(of: element, "version")
            let number = try inner.readUnsigned("version", as: UInt8.self)
            try inner.finish("version")
            switch number {
            case 0: throw DERError(.explicitDefault, at: element.offset, expected: "version omitted for v1")
            case 1: version = .v2
            case 2: version = .v3
            default: throw DERError(.invalidValue, at: element.offset, expected: "version v1, v2 or v3 (RFC 5280 4.1.2.1)")
            }
        }
        self.version = version
        serialNumber = der[try tbs.readInteger("serialNumber").value]
        let innerStart = tbs.position
        signatureAlgorithm = try SignatureAlgorithm.read(&tbs, "TBSCertificate signature")
        signatureAlgorithmDER = der[innerStart..<tbs.position]
        guard signatureAlgorithmDER == outerAlgorithmDER else {
            throw DERError(.invalidValue, at: outerStart,
                           expected: "signatureAlgorithm identical to tbsCertificate.signature (RFC 5280 4.1.1.2)")
        }
        _ = outerAlgorithm
        issuer = try Name.read(&tbs, "issuer")
        var validity = try tbs.contents(of: try tbs.read(.sequence, "Validity"), "Validity")
        let start = try validity.readTime("notBefore")
        let end = try validity.readTime("notAfter")
        try validity.finish("Validity")
        notBefore = start.time
        notAfter = end.time
        validityUsesGeneralizedTime = (start.isGeneralizedTime, end.isGeneralizedTime)
        subject = try Name.read(&tbs, "subject")
        subjectPublicKeyInfo = try SubjectPublicKeyInfo.read(&tbs)

        func uniqueID(_ number: UInt8, _ name: String) throws(DERError) -> ArraySlice<UInt8>? {
            guard let element = try tbs.readOptional(.contextSpecific(number), name) else { return nil }
            guard version != .v1 else {
                throw DERError(.invalidValue, at: element.offset, expected: "no \(name) in a v1 certificate (RFC 5280 4.1.2.8)")
            }
            let bits = try tbs.bitString(element, name)
            return der[bits.bytes]
        }
        issuerUniqueID = try uniqueID(1, "issuerUniqueID")
        subjectUniqueID = try uniqueID(2, "subjectUniqueID")

        var extensions: [Extension] = []
        if let element = try tbs.readOptional(.contextSpecific(3, constructed: true), "extensions") {
            guard version == .v3 else {
                throw DERError(.invalidValue, at: element.offset, expected: "extensions only in a v3 certificate (RFC 5280 4.1.2.9)")
            }
            var explicit = try tbs.contents(of: element, "extensions")
            let list = try explicit.read(.sequence, "Extensions")
            try explicit.finish("extensions")
            var reader = try explicit.contents(of: list, "Extensions")
            guard !reader.isAtEnd else {
                throw DERError(.invalidValue, at: list.offset, expected: "at least one Extension (SIZE (1..MAX))")
            }
            while !reader.isAtEnd {
                let offset = reader.position
                let ext = try reader.sequence("Extension") { (e: inout DERReader) throws(DERError) -> Extension in
                    let oid = try e.readOID("extnID")
                    let critical = try e.readBooleanDefaultFalse("Extension critical")
                    let value = try e.readOctetString("extnValue")
                    return Extension(oid: oid, isCritical: critical, value: der[value.value])
                }
                if extensions.contains(where: { $0.oid == ext.oid }) {
                    throw DERError(.duplicate, at: offset, expected: "each extension at most once (RFC 5280 4.2), \(ext.oid) repeated")
                }
                extensions.append(ext)
            }
        }
        try tbs.finish("TBSCertificate")
        self.extensions = extensions

        var basicConstraints: BasicConstraints?, keyUsage: KeyUsage?, extendedKeyUsage: ExtendedKeyUsage?
        var subjectAltNames: [GeneralName]?, issuerAltNames: [GeneralName]?, nameConstraints: NameConstraints?
        var aki: AuthorityKeyIdentifier?, ski: ArraySlice<UInt8>?, policies: [PolicyInformation]?
        var mappings: [PolicyMapping]?, policyConstraints: PolicyConstraints?, inhibitAnyPolicy: Int?
        var distributionPoints: [DistributionPoint]?, aia: [AccessDescription]?
        for ext in extensions {
            guard let known = KnownExtension.identify(ext.oid) else { continue }
            switch known {
            case .basicConstraints: basicConstraints = try BasicConstraints.decode(ext)
            case .keyUsage: keyUsage = try KeyUsage.decode(ext)
            case .extKeyUsage: extendedKeyUsage = try ExtendedKeyUsage.decode(ext)
            case .subjectAltName: subjectAltNames = try AlternativeNames.decode(ext, "SubjectAltName")
            case .issuerAltName: issuerAltNames = try AlternativeNames.decode(ext, "IssuerAltName")
            case .nameConstraints: nameConstraints = try NameConstraints.decode(ext)
            case .authorityKeyIdentifier: aki = try AuthorityKeyIdentifier.decode(ext)
            case .subjectKeyIdentifier: ski = try SubjectKeyIdentifier.decode(ext)
            case .certificatePolicies: policies = try CertificatePolicies.decode(ext)
            case .policyMappings: mappings = try PolicyMappings.decode(ext)
            case .policyConstraints: policyConstraints = try PolicyConstraints.decode(ext)
            case .inhibitAnyPolicy: inhibitAnyPolicy = try InhibitAnyPolicy.decode(ext)
            case .cRLDistributionPoints: distributionPoints = try CRLDistributionPoints.decode(ext)
            case .authorityInfoAccess: aia = try AuthorityInformationAccess.decode(ext)
            }
        }
        self.basicConstraints = basicConstraints
        self.keyUsage = keyUsage
        self.extendedKeyUsage = extendedKeyUsage
        self.subjectAlternativeNames = subjectAltNames
        self.issuerAlternativeNames = issuerAltNames
        self.nameConstraints = nameConstraints
        self.authorityKeyIdentifier = aki
        self.subjectKeyIdentifier = ski
        self.certificatePolicies = policies
        self.policyMappings = mappings
        self.policyConstraints = policyConstraints
        self.inhibitAnyPolicy = inhibitAnyPolicy
        self.cRLDistributionPoints = distributionPoints
        self.authorityInformationAccess = aia
    }

    /// The TBSCertificate's complete DER (the signed bytes).
    public var tbsCertificateBytes: ArraySlice<UInt8> { der[tbsCertificateRange] }

    /// The extension with `oid`, if present.
    public func `extension`(_ oid: OID) -> Extension? { extensions.first { $0.oid == oid } }

    /// Critical extensions CertPath does not process (RFC 5280 4.2: such a certificate MUST be rejected).
    public var unrecognizedCriticalExtensions: [Extension] {
        extensions.filter { $0.isCritical && KnownExtension.identify($0.oid) == nil }
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
