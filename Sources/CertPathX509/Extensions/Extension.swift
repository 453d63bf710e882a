import CertPathDER

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
    package func parse<T>(_ tag: DERTag, _ expected: @autoclosure () -> String, _ body: (inout DERReader) throws(DERError) -> T) throws(DERError) -> T {
        try DERReader.parse(value, tag, expected(), body)
    }
}

extension DERReader {
    /// What ``Extension``'s `parse` does, over the extnValue this reader spans: exactly one element
    /// tagged `tag`, `body` run over its contents, nothing after it.
    package mutating func extensionValue<T>(
        _ tag: DERTag, _ expected: @autoclosure () -> String, _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        let result = try nested(tag, expected(), body)
        try finish(expected())
        return result
    }
}

/// The extensions CertPath decodes, for dispatch and for the list of extensions it "recognizes"
/// (RFC 5280 4.2: an unrecognized critical extension rejects the certificate).
///
/// This is the one list: each case is an extension CertPath *processes*, and its comment names
/// where. A critical extension not listed here rejects the certificate
/// (``Certificate/unrecognizedCriticalExtensions``) even when `certpath show` names it: freshestCRL
/// (delta CRLs are used whether or not it points to them), subjectInfoAccess, the CT
/// signedCertificateTimestampList and precertificate poison, subjectDirectoryAttributes and
/// privateKeyUsagePeriod are displayed, not processed.
public enum KnownExtension: CaseIterable, Sendable {
    /// basicConstraints (2.5.29.19, RFC 5280 4.2.1.9): whether the subject is a CA (cA) and how many
    /// non-self-issued intermediates may follow it (pathLenConstraint; 6.1.4 (k), (l), (m)).
    case basicConstraints
    /// keyUsage (2.5.29.15, RFC 5280 4.2.1.3): what the key may be used for (``KeyUsage``); checked
    /// for keyCertSign in CAs (6.1.4 (n)), cRLSign in CRL signers and the TLS uses in TLS leaves.
    case keyUsage
    /// extKeyUsage (2.5.29.37, RFC 5280 4.2.1.12): the purposes (serverAuth, clientAuth…) the key is
    /// for; chained through the CAs that carry it (``ExtendedKeyUsageReading``).
    case extKeyUsage
    /// subjectAltName (2.5.29.17, RFC 5280 4.2.1.6): the subject's DNS names, IP addresses, email
    /// addresses…; what host names and expected names are matched against, and what name
    /// constraints apply to.
    case subjectAltName
    /// issuerAltName (2.5.29.18, RFC 5280 4.2.1.7): other names of the issuer; decoded and validated
    /// (so a critical one does not reject the certificate), not used for chaining.
    case issuerAltName
    /// nameConstraints (2.5.29.30, RFC 5280 4.2.1.10): permitted and excluded subtrees a CA imposes
    /// on every name below it (6.1.4 (g)).
    case nameConstraints
    /// authorityKeyIdentifier (2.5.29.35, RFC 5280 4.2.1.1): identifies the issuer's key; used to rank
    /// issuer candidates (a matching subjectKeyIdentifier first, a mismatching one last), never to
    /// refuse one.
    case authorityKeyIdentifier
    /// subjectKeyIdentifier (2.5.29.14, RFC 5280 4.2.1.2): identifies this certificate's key; matched
    /// against the authorityKeyIdentifier of the certificates it may have issued.
    case subjectKeyIdentifier
    /// certificatePolicies (2.5.29.32, RFC 5280 4.2.1.4): the policy OIDs (and qualifiers) the
    /// certificate was issued under; input of the valid policy graph (6.1.3 (d)).
    case certificatePolicies
    /// policyMappings (2.5.29.33, RFC 5280 4.2.1.5): issuer-domain to subject-domain policy
    /// equivalences a CA declares (6.1.4 (a), (b)).
    case policyMappings
    /// policyConstraints (2.5.29.36, RFC 5280 4.2.1.11): requireExplicitPolicy and
    /// inhibitPolicyMapping skip counts (6.1.4 (i)).
    case policyConstraints
    /// inhibitAnyPolicy (2.5.29.54, RFC 5280 4.2.1.14): after how many further certificates
    /// anyPolicy stops matching every policy (6.1.4 (j)).
    case inhibitAnyPolicy
    /// cRLDistributionPoints (2.5.29.31, RFC 5280 4.2.1.13): where the certificate's CRLs are and
    /// which reasons each covers; decides a CRL's scope (6.3.3 (b)) and what network fetching fetches.
    case cRLDistributionPoints
    /// authorityInfoAccess (1.3.6.1.5.5.7.1.1, RFC 5280 4.2.2.1): URIs of the issuer's certificate
    /// (id-ad-caIssuers) and of OCSP responders (id-ad-ocsp), used by network fetching.
    case authorityInfoAccess
    /// id-pkix-ocsp-nocheck (1.3.6.1.5.5.7.48.1.5, RFC 6960 4.2.2.2.1): a delegated OCSP responder's
    /// own revocation status is not checked (`OCSPStatus`'s responder checks). RFC 6960 says it
    /// SHOULD be non-critical: a CA's SHOULD, so a critical one is processed like any other.
    case ocspNoCheck
    /// TLS feature (1.3.6.1.5.5.7.1.24, RFC 7633): the TLS features the server must use; its
    /// status_request ("must-staple") is enforced for TLS server evaluations given the handshake's
    /// stapled responses (``Certificate/tlsFeatures``; `TLSFeatureRequirement` in CertPath).
    case tlsFeature

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
        case .ocspNoCheck: return KnownOID.ocspNoCheck
        case .tlsFeature: return KnownOID.tlsFeature
        }
    }

    /// How many cases there are (the size of tables indexed by ``index``).
    package static let count = 16

    /// A distinct number per case, `0..<count`, in declaration order: an index into tables.
    package var index: Int {
        switch self {
        case .basicConstraints: return 0
        case .keyUsage: return 1
        case .extKeyUsage: return 2
        case .subjectAltName: return 3
        case .issuerAltName: return 4
        case .nameConstraints: return 5
        case .authorityKeyIdentifier: return 6
        case .subjectKeyIdentifier: return 7
        case .certificatePolicies: return 8
        case .policyMappings: return 9
        case .policyConstraints: return 10
        case .inhibitAnyPolicy: return 11
        case .cRLDistributionPoints: return 12
        case .authorityInfoAccess: return 13
        case .ocspNoCheck: return 14
        case .tlsFeature: return 15
        }
    }

    /// A distinct bit per case (`1 << index`), for sets of known extensions (16 cases: a `UInt16`
    /// is full; a 17th needs a wider set where one is kept, as in the parser's duplicate check).
    package var bit: UInt16 { UInt16(truncatingIfNeeded: 1 &<< index) }

    /// The known extension with this OID, if any.
    package static func identify(_ oid: OID) -> KnownExtension? {
        oid.encoded.withUnsafeBufferPointer { identify(encoded: $0) }
    }

    /// The known extension whose OID has these contents octets, if any: id-ce arcs (2.5.29.n,
    /// encoded `55 1D n`) are told apart by their last octet; authorityInfoAccess
    /// (1.3.6.1.5.5.7.1.1) and the TLS feature (1.3.6.1.5.5.7.1.24) by all eight, id-pkix-ocsp-nocheck
    /// (1.3.6.1.5.5.7.48.1.5) by all nine.
    @inline(__always)
    package static func identify(encoded bytes: UnsafeBufferPointer<UInt8>) -> KnownExtension? {
        if bytes.count == 3 {
            guard bytes[0] == 0x55, bytes[1] == 0x1D else { return nil }
            switch bytes[2] {
            case 14: return .subjectKeyIdentifier
            case 15: return .keyUsage
            case 17: return .subjectAltName
            case 18: return .issuerAltName
            case 19: return .basicConstraints
            case 30: return .nameConstraints
            case 31: return .cRLDistributionPoints
            case 32: return .certificatePolicies
            case 33: return .policyMappings
            case 35: return .authorityKeyIdentifier
            case 36: return .policyConstraints
            case 37: return .extKeyUsage
            case 54: return .inhibitAnyPolicy
            default: return nil
            }
        }
        // id-pkix (1.3.6.1.5.5.7): 2B 06 01 05 05 07
        guard bytes.count >= 8, bytes[0] == 0x2B, bytes[1] == 0x06, bytes[2] == 0x01, bytes[3] == 0x05, bytes[4] == 0x05,
              bytes[5] == 0x07 else { return nil }
        if bytes.count == 8, bytes[6] == 0x01 {
            switch bytes[7] {
            case 0x01: return .authorityInfoAccess  // id-pe 1
            case 0x18: return .tlsFeature  // id-pe 24
            default: return nil
            }
        }
        if bytes.count == 9, bytes[6] == 0x30, bytes[7] == 0x01, bytes[8] == 0x05 { return .ocspNoCheck }  // id-ad-ocsp 5
        return nil
    }
}
