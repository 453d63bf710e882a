import CertPathDER

/// An X.509 certificate revocation list, v1 or v2 (RFC 5280 section 5), parsed once from DER and
/// immutable.
///
/// Parsing enforces DER (see `CertPathDER`) and the syntax of RFC 5280 section 5 for every field, every
/// CRL extension CertPath knows (authorityKeyIdentifier, issuerAltName, cRLNumber, deltaCRLIndicator,
/// issuingDistributionPoint, freshestCRL, authorityInfoAccess) and every entry extension it knows
/// (reasonCode, invalidityDate, certificateIssuer). A CRL that parses may still be unusable: the
/// profile rules that make RFC 5280 forbid its use (an unrecognized critical extension, a missing or
/// critical cRLNumber, …) are listed in ``defects`` and applied by revocation checking, so that the
/// reason is reported rather than a parse error.
///
/// Lookups by serial number go through a hash index built at parse time (hashed with the standard
/// library's seeded hasher over the serial bytes), so a CRL with 10^5 entries answers in constant time.
///
/// Named leniencies: an empty revokedCertificates SEQUENCE parses (RFC 5280 5.1.2.6 asks issuers to
/// omit it; it means the same); negative, zero or long serial numbers parse, as in ``Certificate``.
public final class CertificateRevocationList: Hashable, Sendable, CustomStringConvertible {
    /// CRL version (RFC 5280 5.1.2.1).
    public enum Version: Int, Hashable, Sendable {
        /// Version 1 (the version field absent): no crlExtensions or crlEntryExtensions, so no
        /// cRLNumber; such a CRL can show a revocation but never settle a good status.
        case v1 = 1
        /// Version 2 (encoded 1): required when the CRL has extensions (RFC 5280 5.1.2.1).
        case v2 = 2
    }

    /// The complete DER encoding.
    public let der: [UInt8]
    /// Offsets of the TBSCertList's complete encoding in ``der`` (what the signature covers).
    public let tbsCertListRange: Range<Int>
    /// version.
    public let version: Version
    /// The signature algorithm (tbsCertList.signature, which must equal signatureAlgorithm byte for byte).
    public let signatureAlgorithm: SignatureAlgorithm
    /// issuer.
    public let issuer: Name
    /// thisUpdate.
    public let thisUpdate: UnixTime
    /// nextUpdate, when present.
    public let nextUpdate: UnixTime?
    /// revokedCertificates in encoded order (empty when absent).
    public let revokedCertificates: [RevokedCertificate]
    /// crlExtensions in encoded order (empty when absent).
    public let extensions: [Extension]
    /// signatureValue bytes.
    public let signature: ArraySlice<UInt8>
    /// Unused bits of the signatureValue BIT STRING (non-zero makes the signature invalid).
    public let signatureUnusedBits: UInt8

    /// authorityKeyIdentifier (5.2.1), when present.
    public let authorityKeyIdentifier: AuthorityKeyIdentifier?
    /// issuerAltName (5.2.2), when present.
    public let issuerAlternativeNames: [GeneralName]?
    /// cRLNumber (5.2.3), when present.
    public let crlNumber: CRLNumber?
    /// deltaCRLIndicator's BaseCRLNumber (5.2.4): present exactly when this is a delta CRL.
    public let baseCRLNumber: CRLNumber?
    /// issuingDistributionPoint (5.2.5), when present.
    public let issuingDistributionPoint: IssuingDistributionPoint?
    /// freshestCRL (5.2.6), when present.
    public let freshestCRL: [DistributionPoint]?
    /// authorityInfoAccess (5.2.7), when present.
    public let authorityInformationAccess: [AccessDescription]?
    /// Why RFC 5280 forbids using this CRL at all; empty for a usable CRL.
    public let defects: [CRLDefect]

    /// Entry index by serial number: the first entry with each serial; later ones in ``duplicateSerials``.
    private let serialIndex: [DERBytesKey: Int]
    /// Further entries with an already indexed serial (several certificate issuers in an indirect CRL).
    private let duplicateSerials: [Int: [Int]]

    /// Parses a DER CRL.
    ///
    /// - Parameter der: exactly one CertificateList; shared, not copied.
    /// - Throws: ``DERError`` naming the byte offset and the rule broken: DER violations; the RFC 5280
    ///   section 5 syntax of any field, known CRL extension or known entry extension; `.invalidValue`
    ///   for a version other than v2 when present (5.1.2.1), differing inner and outer signature
    ///   algorithms (5.1.1.2), extensions or entry extensions in a v1 CRL; `.duplicate` for an
    ///   extension present twice in one list.
    public init(derEncoded der: [UInt8]) throws(DERError) {
        self.der = der
        var top = DERReader(der)
        var list = try top.contents(of: try top.read(.sequence, "CertificateList"), "CertificateList")
        try top.finish("CertificateList")

        let tbsElement = try list.read(.sequence, "TBSCertList")
        tbsCertListRange = tbsElement.encoded
        let outerStart = list.position
        _ = try SignatureAlgorithm.read(&list, "CertificateList signatureAlgorithm")
        let outerAlgorithmDER = der[outerStart..<list.position]
        let signatureBits = try list.readBitString("CertificateList signatureValue")
        try list.finish("CertificateList")
        signature = der[signatureBits.bytes]
        signatureUnusedBits = signatureBits.unusedBits

        var tbs = try list.contents(of: tbsElement, "TBSCertList")
        var version = Version.v1
        if tbs.peekTag() == .integer {
            let element = try tbs.readInteger("CRL version")
            guard element.value.count == 1, der[element.value.lowerBound] == 1 else {
                throw DERError(.invalidValue, at: element.offset, expected: "CRL version v2 when present (RFC 5280 5.1.2.1)")
            }
            version = .v2
        }
        self.version = version
        let innerStart = tbs.position
        signatureAlgorithm = try SignatureAlgorithm.read(&tbs, "TBSCertList signature")
        guard der[innerStart..<tbs.position] == outerAlgorithmDER else {
            throw DERError(.invalidValue, at: outerStart,
                           expected: "signatureAlgorithm identical to tbsCertList.signature (RFC 5280 5.1.1.2)")
        }
        issuer = try Name.read(&tbs, "CRL issuer")
        thisUpdate = try tbs.readTime("thisUpdate").time
        if let tag = tbs.peekTag(), tag == .utcTime || tag == .generalizedTime {
            nextUpdate = try tbs.readTime("nextUpdate").time
        } else {
            nextUpdate = nil
        }

        // revokedCertificates, with the certificateIssuer in force carried from entry to entry (5.3.3).
        var entries: [RevokedCertificate] = []
        var index: [DERBytesKey: Int] = [:]
        var duplicates: [Int: [Int]] = [:]
        var entryDefect: CRLDefect? = nil
        var sawCertificateIssuer = false
        if let element = try tbs.readOptional(.sequence, "revokedCertificates") {
            var reader = try tbs.contents(of: element, "revokedCertificates")
            var issuerInForce: [GeneralName]? = nil
            while !reader.isAtEnd {
                let entry = try reader.sequence("revokedCertificates entry") { (e: inout DERReader) throws(DERError) -> RevokedCertificate in
                    let serial = der[try e.readInteger("userCertificate").value]
                    let date = try e.readTime("revocationDate").time
                    var extensions: [Extension] = []
                    if !e.isAtEnd {
                        let offset = e.position
                        guard version == .v2 else {
                            throw DERError(.invalidValue, at: offset, expected: "crlEntryExtensions only in a v2 CRL (RFC 5280 5.1.2.1)")
                        }
                        extensions = try CRLExtensionList.read(&e, "crlEntryExtensions")
                    }
                    var reason: RevocationReason? = nil, invalidity: UnixTime? = nil
                    for ext in extensions {
                        guard let known = KnownCRLEntryExtension.identify(ext.oid) else {
                            if ext.isCritical && entryDefect == nil {
                                entryDefect = .unrecognizedCriticalEntryExtension(ext.oid, serialNumber: serial)
                            }
                            continue
                        }
                        switch known {
                        case .reasonCode:
                            reason = try RevocationReason.decode(ext)
                        case .invalidityDate:
                            var r = DERReader(ext.value)
                            let time = try r.read(.generalizedTime, "InvalidityDate")
                            try r.finish("InvalidityDate")
                            invalidity = try r.time(time, "InvalidityDate")
                        case .certificateIssuer:
                            issuerInForce = try AlternativeNames.decode(ext, "CertificateIssuer")
                            sawCertificateIssuer = true
                        }
                    }
                    return RevokedCertificate(serialNumber: serial, revocationDate: date, reason: reason, invalidityDate: invalidity,
                                              certificateIssuer: issuerInForce, extensions: extensions)
                }
                let position = entries.count
                if let first = index[DERBytesKey(entry.serialNumber)] {
                    duplicates[first, default: []].append(position)
                } else {
                    index[DERBytesKey(entry.serialNumber)] = position
                }
                entries.append(entry)
            }
        }
        revokedCertificates = entries
        serialIndex = index
        duplicateSerials = duplicates

        var extensions: [Extension] = []
        if let element = try tbs.readOptional(.contextSpecific(0, constructed: true), "crlExtensions") {
            guard version == .v2 else {
                throw DERError(.invalidValue, at: element.offset, expected: "crlExtensions only in a v2 CRL (RFC 5280 5.1.2.1)")
            }
            var explicit = try tbs.contents(of: element, "crlExtensions")
            extensions = try CRLExtensionList.read(&explicit, "crlExtensions")
            try explicit.finish("crlExtensions")
        }
        try tbs.finish("TBSCertList")
        self.extensions = extensions

        var aki: AuthorityKeyIdentifier?, altNames: [GeneralName]?, number: CRLNumber?, base: CRLNumber?
        var idp: IssuingDistributionPoint?, freshest: [DistributionPoint]?, aia: [AccessDescription]?
        var defects: [CRLDefect] = []
        for ext in extensions {
            guard let known = KnownCRLExtension.identify(ext.oid) else {
                if ext.isCritical { defects.append(.unrecognizedCriticalExtension(ext.oid)) }
                continue
            }
            switch known {
            case .authorityKeyIdentifier: aki = try AuthorityKeyIdentifier.decode(ext)
            case .issuerAltName: altNames = try AlternativeNames.decode(ext, "IssuerAltName")
            case .cRLNumber:
                number = try CRLNumber.decode(ext, "CRLNumber")
                if ext.isCritical { defects.append(.criticalCRLNumber) }
            case .deltaCRLIndicator: base = try CRLNumber.decode(ext, "BaseCRLNumber")
            case .issuingDistributionPoint: idp = try IssuingDistributionPoint.decode(ext)
            case .freshestCRL: freshest = try CRLDistributionPoints.decode(ext)
            case .authorityInfoAccess: aia = try AuthorityInformationAccess.decode(ext)
            }
        }
        if number == nil { defects.append(.missingCRLNumber) }
        if nextUpdate == nil { defects.append(.missingNextUpdate) }
        if let entryDefect { defects.append(entryDefect) }
        if sawCertificateIssuer && idp?.indirectCRL != true { defects.append(.certificateIssuerInDirectCRL) }
        authorityKeyIdentifier = aki
        issuerAlternativeNames = altNames
        crlNumber = number
        baseCRLNumber = base
        issuingDistributionPoint = idp
        freshestCRL = freshest
        authorityInformationAccess = aia
        self.defects = defects
    }

    /// The TBSCertList's complete DER (the signed bytes).
    public var tbsCertListBytes: ArraySlice<UInt8> { der[tbsCertListRange] }

    /// Whether this is a delta CRL (it has a deltaCRLIndicator, RFC 5280 5.2.4).
    public var isDeltaCRL: Bool { baseCRLNumber != nil }

    /// Whether RFC 5280 allows using this CRL at all (``defects`` is empty).
    public var isUsable: Bool { defects.isEmpty }

    /// The extension with `oid`, if present.
    public func `extension`(_ oid: OID) -> Extension? { extensions.first { $0.oid == oid } }

    /// Every entry whose userCertificate is `serialNumber` (contents octets of a DER INTEGER, as in
    /// ``Certificate/serialNumber``), in encoded order; usually zero or one. Constant time per entry found.
    public func entries(serialNumber: ArraySlice<UInt8>) -> [RevokedCertificate] {
        guard let first = serialIndex[DERBytesKey(serialNumber)] else { return [] }
        return ([first] + (duplicateSerials[first] ?? [])).map { revokedCertificates[$0] }
    }

    /// `CRL(issuer: …, thisUpdate: …, entries: n)`.
    public var description: String {
        "CRL(issuer: \(issuer), thisUpdate: \(thisUpdate), \(crlNumber.map { "number: \($0), " } ?? "")entries: \(revokedCertificates.count)\(isDeltaCRL ? ", delta" : ""))"
    }

    public static func == (lhs: CertificateRevocationList, rhs: CertificateRevocationList) -> Bool {
        lhs === rhs || lhs.der == rhs.der
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(der) }
}
