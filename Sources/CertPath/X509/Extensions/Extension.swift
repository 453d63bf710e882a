/// One certificate extension (RFC 5280 4.1, 4.2): its OID, criticality and the DER inside extnValue.
public struct Extension: Hashable, Sendable {
    /// extnID.
    public let oid: OID
    /// critical (DEFAULT FALSE).
    public let isCritical: Bool
    /// The contents of the extnValue OCTET STRING: the DER of the extension's own syntax, as a view
    /// into the certificate (its indices are offsets in the certificate's DER).
    public let value: ArraySlice<UInt8>

    /// Creates an extension record.
    public init(oid: OID, isCritical: Bool, value: ArraySlice<UInt8>) {
        self.oid = oid
        self.isCritical = isCritical
        self.value = value
    }

    /// Parses ``value`` as exactly one element tagged `tag`, running `body` over its contents.
    ///
    /// - Throws: ``DERError`` from `body`, or for a wrong tag or trailing data.
    func parse<T>(_ tag: DERTag, _ expected: String, _ body: (inout DERReader) throws(DERError) -> T) throws(DERError) -> T {
        try DERReader.parse(value, tag, expected, body)
    }
}

/// The extensions CertPath decodes, for dispatch and for the list of extensions it "recognizes"
/// (RFC 5280 4.2: an unrecognized critical extension rejects the certificate).
public enum KnownExtension: CaseIterable, Sendable {
    case basicConstraints, keyUsage, extKeyUsage, subjectAltName, issuerAltName, nameConstraints
    case authorityKeyIdentifier, subjectKeyIdentifier, certificatePolicies, policyMappings
    case policyConstraints, inhibitAnyPolicy, cRLDistributionPoints, authorityInfoAccess

    /// The extension's OID.
    public var oid: OID {
        switch self {
        case .basicConstraints: return KnownOID.basicConstraints
        case .keyUsage: return KnownOID.keyUsage
        case .extKeyUsage: return KnownOID.extKeyUsage
        case .subjectAltName: return KnownOID.subjectAltName
        case .issuerAltName: return KnownOID.issuerAltName
        case .nameConstraints: return KnownOID.nameConstraints
        case .authorityKeyIdentifier: return KnownOID.authorityKeyIdentifier
        case .subjectKeyIdentifier: return KnownOID.subjectKeyIdentifier
        case .certificatePolicies: return KnownOID.certificatePolicies
        case .policyMappings: return KnownOID.policyMappings
        case .policyConstraints: return KnownOID.policyConstraints
        case .inhibitAnyPolicy: return KnownOID.inhibitAnyPolicy
        case .cRLDistributionPoints: return KnownOID.cRLDistributionPoints
        case .authorityInfoAccess: return KnownOID.authorityInfoAccess
        }
    }

    /// The known extension with this OID, if any.
    static func identify(_ oid: OID) -> KnownExtension? {
        allCases.first { $0.oid == oid }
    }
}
