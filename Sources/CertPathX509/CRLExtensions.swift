// The CRL extensions (RFC 5280 5.2) and CRL entry extensions (RFC 5280 5.3) CertPath decodes, the
// values they carry, and the reasons a well-formed CRL must still not be used.
import CertPathDER

/// Object identifiers of the CRL and CRL entry extensions of RFC 5280 sections 5.2 and 5.3.
public enum CRLExtensionOID {
    /// 2.5.29.20 cRLNumber (RFC 5280 5.2.3).
    public static let cRLNumber: OID = "2.5.29.20"
    /// 2.5.29.21 reasonCode (RFC 5280 5.3.1).
    public static let reasonCode: OID = "2.5.29.21"
    /// 2.5.29.24 invalidityDate (RFC 5280 5.3.2).
    public static let invalidityDate: OID = "2.5.29.24"
    /// 2.5.29.27 deltaCRLIndicator (RFC 5280 5.2.4).
    public static let deltaCRLIndicator: OID = "2.5.29.27"
    /// 2.5.29.28 issuingDistributionPoint (RFC 5280 5.2.5).
    public static let issuingDistributionPoint: OID = "2.5.29.28"
    /// 2.5.29.29 certificateIssuer (RFC 5280 5.3.3).
    public static let certificateIssuer: OID = "2.5.29.29"
}

/// A CRL number or delta CRL base number (RFC 5280 5.2.3, 5.2.4): a non-negative INTEGER of at most
/// 20 octets, compared numerically.
public struct CRLNumber: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The magnitude, big-endian, without leading zero octets (empty for zero).
    public let magnitude: [UInt8]

    /// Creates a number from big-endian bytes; leading zero octets are dropped.
    public init<C: Collection<UInt8>>(bigEndian bytes: C) {
        magnitude = Array(bytes.drop { $0 == 0 })
    }

    /// Creates a number from an integer.
    public init(_ value: UInt64) {
        var bytes: [UInt8] = []
        var rest = value
        while rest > 0 {
            bytes.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        }
        magnitude = bytes
    }

    /// Numeric order.
    public static func < (lhs: CRLNumber, rhs: CRLNumber) -> Bool {
        if lhs.magnitude.count != rhs.magnitude.count { return lhs.magnitude.count < rhs.magnitude.count }
        return lhs.magnitude.lexicographicallyPrecedes(rhs.magnitude)
    }

    /// Decimal up to 64 bits (`1337`), hex with a `0x` prefix beyond.
    public var description: String {
        guard magnitude.count <= 8 else { return "0x" + Hex.encode(magnitude) }
        return String(magnitude.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    /// Decodes `CRLNumber ::= INTEGER (0..MAX)` from an extension value.
    ///
    /// - Throws: ``DERError``: `.negativeInteger`; `.integerTooLarge` beyond 20 octets (RFC 5280 5.2.3:
    ///   "CRL issuers MUST NOT use CRLNumber values longer than 20 octets"); DER errors.
    package static func decode(_ ext: Extension, _ expected: String) throws(DERError) -> CRLNumber {
        var reader = DERReader(ext.value)
        let element = try reader.readInteger(expected)
        try reader.finish(expected)
        if reader.isNegativeInteger(element) {
            throw DERError(.negativeInteger, at: element.offset, expected: "non-negative \(expected) (RFC 5280 5.2.3)")
        }
        let number = CRLNumber(bigEndian: reader.bytes[element.value])
        guard number.magnitude.count <= 20 else {
            throw DERError(.integerTooLarge, at: element.offset, expected: "\(expected) of at most 20 octets (RFC 5280 5.2.3)")
        }
        return number
    }
}

/// The reasonCode of a CRL entry (RFC 5280 5.3.1), with its ENUMERATED values.
public enum RevocationReason: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// 0: no reason given (issuers should omit reasonCode instead).
    case unspecified = 0
    /// 1: the subject's private key is compromised.
    case keyCompromise = 1
    /// 2: the issuing CA's key is compromised.
    case cACompromise = 2
    /// 3: the subject's name or other information changed.
    case affiliationChanged = 3
    /// 4: the certificate was replaced.
    case superseded = 4
    /// 5: the certificate is no longer needed.
    case cessationOfOperation = 5
    /// 6: the certificate is suspended (a revocation that may later be undone).
    case certificateHold = 6
    // 7 is not used.
    /// 8: in a delta CRL, the entry leaves the CRL (a hold released, or the certificate expired).
    case removeFromCRL = 8
    /// 9: a privilege of the certificate was withdrawn.
    case privilegeWithdrawn = 9
    /// 10: the attribute authority is compromised.
    case aACompromise = 10

    /// The RFC 5280 name (`keyCompromise`).
    public var description: String {
        switch self {
        case .unspecified: return "unspecified"
        case .keyCompromise: return "keyCompromise"
        case .cACompromise: return "cACompromise"
        case .affiliationChanged: return "affiliationChanged"
        case .superseded: return "superseded"
        case .cessationOfOperation: return "cessationOfOperation"
        case .certificateHold: return "certificateHold"
        case .removeFromCRL: return "removeFromCRL"
        case .privilegeWithdrawn: return "privilegeWithdrawn"
        case .aACompromise: return "aACompromise"
        }
    }

    /// Decodes `CRLReason ::= ENUMERATED` from an extension value.
    ///
    /// - Throws: ``DERError``: `.invalidValue` for 7, values above 10 or negative values; DER errors.
    package static func decode(_ ext: Extension) throws(DERError) -> RevocationReason {
        var reader = DERReader(ext.value)
        let reason = try read(&reader)
        try reader.finish("CRLReason")
        return reason
    }

    /// Reads `CRLReason ::= ENUMERATED` at the reader's position (a reasonCode's value; an OCSP
    /// RevokedInfo's revocationReason, RFC 6960 4.2.1).
    ///
    /// - Throws: ``DERError``: `.invalidValue` for 7, values above 10 or negative values; DER errors.
    package static func read(_ reader: inout DERReader) throws(DERError) -> RevocationReason {
        let element = try reader.read(.enumerated, "CRLReason")
        try reader.validateInteger(element, "CRLReason")
        let invalid = DERError(.invalidValue, at: element.offset, expected: "CRLReason 0...6 or 8...10 (RFC 5280 5.3.1)")
        guard element.value.count == 1, let reason = RevocationReason(rawValue: reader.bytes[element.value.lowerBound]) else {
            throw invalid
        }
        return reason
    }
}

/// One entry of a CRL's revokedCertificates (RFC 5280 5.1.2.6) with its entry extensions decoded.
public struct RevokedCertificate: Hashable, Sendable {
    /// userCertificate: the serial number's contents octets (two's complement, minimal).
    public let serialNumber: ArraySlice<UInt8>
    /// revocationDate.
    public let revocationDate: UnixTime
    /// reasonCode (5.3.1); `nil` when absent (which means unspecified).
    public let reason: RevocationReason?
    /// invalidityDate (5.3.2), when present.
    public let invalidityDate: UnixTime?
    /// The certificate issuer this entry is about in an indirect CRL (5.3.3): this entry's
    /// certificateIssuer extension, or the one in force from an earlier entry; `nil` means the CRL
    /// issuer itself.
    public let certificateIssuer: [GeneralName]?
    /// Every crlEntryExtension in encoded order.
    public let extensions: [Extension]

    /// The reason, `unspecified` when absent.
    public var effectiveReason: RevocationReason { reason ?? .unspecified }
}

/// The issuingDistributionPoint CRL extension (RFC 5280 5.2.5): the CRL's scope.
public struct IssuingDistributionPoint: Hashable, Sendable {
    /// `[0] distributionPoint`.
    public let distributionPoint: DistributionPointName?
    /// `[1] onlyContainsUserCerts`.
    public let onlyContainsUserCerts: Bool
    /// `[2] onlyContainsCACerts`.
    public let onlyContainsCACerts: Bool
    /// `[3] onlySomeReasons`; `nil` means every reason.
    public let onlySomeReasons: ReasonFlags?
    /// `[4] indirectCRL`.
    public let indirectCRL: Bool
    /// `[5] onlyContainsAttributeCerts`.
    public let onlyContainsAttributeCerts: Bool

    /// Decodes the extension value.
    ///
    /// - Throws: ``DERError``: `.explicitDefault` for a BOOLEAN encoded FALSE (X.690 11.5);
    ///   `.invalidValue` for an empty SEQUENCE or more than one of the three `onlyContains…` asserted
    ///   (RFC 5280 5.2.5); DER and DistributionPointName errors.
    package static func decode(_ ext: Extension) throws(DERError) -> IssuingDistributionPoint {
        try ext.parse(.sequence, "IssuingDistributionPoint") { (r: inout DERReader) throws(DERError) -> IssuingDistributionPoint in
            let start = ext.value.startIndex
            guard !r.isAtEnd else {
                throw DERError(.invalidValue, at: start, expected: "non-empty IssuingDistributionPoint (RFC 5280 5.2.5)")
            }
            let name = try r.nestedOptional(.contextSpecific(0, constructed: true), "IssuingDistributionPoint distributionPoint") {
                (n: inout DERReader) throws(DERError) -> DistributionPointName in
                try DistributionPoint.readName(&n)
            }
            func flag(_ number: UInt8, _ label: String) throws(DERError) -> Bool {
                guard let element = try r.readOptional(.contextSpecific(number), label) else { return false }
                guard try r.boolean(element, label) else {
                    throw DERError(.explicitDefault, at: element.offset, expected: "\(label) omitted when FALSE")
                }
                return true
            }
            let userCerts = try flag(1, "onlyContainsUserCerts")
            let caCerts = try flag(2, "onlyContainsCACerts")
            var reasons: ReasonFlags? = nil
            if let element = try r.readOptional(.contextSpecific(3), "onlySomeReasons") {
                reasons = try ReasonFlags.read(r, element, "onlySomeReasons")
            }
            let indirect = try flag(4, "indirectCRL")
            let attributeCerts = try flag(5, "onlyContainsAttributeCerts")
            guard [userCerts, caCerts, attributeCerts].filter({ $0 }).count <= 1 else {
                throw DERError(.invalidValue, at: start,
                               expected: "at most one of onlyContainsUserCerts, onlyContainsCACerts, onlyContainsAttributeCerts (RFC 5280 5.2.5)")
            }
            return IssuingDistributionPoint(distributionPoint: name, onlyContainsUserCerts: userCerts, onlyContainsCACerts: caCerts,
                                            onlySomeReasons: reasons, indirectCRL: indirect, onlyContainsAttributeCerts: attributeCerts)
        }
    }
}

/// Why a CRL that parses must still not be used to determine any certificate's status.
public enum CRLDefect: Hashable, Sendable, CustomStringConvertible {
    /// A critical CRL extension CertPath does not process (RFC 5280 5.2: the CRL MUST NOT be used).
    case unrecognizedCriticalExtension(OID)
    /// A critical CRL entry extension CertPath does not process, on the entry for `serialNumber`
    /// (RFC 5280 5.3: the CRL MUST NOT be used).
    case unrecognizedCriticalEntryExtension(OID, serialNumber: ArraySlice<UInt8>)
    /// No cRLNumber extension (RFC 5280 5.2.3: conforming CRL issuers MUST include it; a v1 CRL has none).
    case missingCRLNumber
    /// A cRLNumber extension marked critical (RFC 5280 5.2.3: it is a non-critical extension).
    case criticalCRLNumber
    /// No nextUpdate (RFC 5280 5.1.2.5: conforming CRL issuers MUST include it): nothing says until
    /// when the CRL is current, so it cannot say that a certificate it does not list is good.
    case missingNextUpdate
    /// A certificateIssuer entry extension in a CRL whose issuingDistributionPoint does not assert
    /// indirectCRL (RFC 5280 5.3.3: it is used only in indirect CRLs).
    case certificateIssuerInDirectCRL

    /// Whether RFC 5280 forbids using the CRL at all (an unrecognized critical extension, 5.2 and
    /// 5.3; a certificateIssuer outside an indirect CRL, whose entries then have no defined issuer,
    /// 5.3.3). The other defects are departures from the CRL profile that leave its meaning intact
    /// (a missing or critical cRLNumber, 5.2.3: the number serves delta CRLs and ordering, not the
    /// revocation entries; a missing nextUpdate, 5.1.2.5): such a CRL is still evidence that a certificate it lists is revoked, but
    /// not that one it does not list is good.
    public var forbidsUse: Bool {
        switch self {
        case .unrecognizedCriticalExtension, .unrecognizedCriticalEntryExtension, .certificateIssuerInDirectCRL: return true
        case .missingCRLNumber, .criticalCRLNumber, .missingNextUpdate: return false
        }
    }

    /// The defect in words, with its RFC clause.
    public var description: String {
        switch self {
        case .unrecognizedCriticalExtension(let oid):
            return "the CRL has a critical extension CertPath does not process (\(oid); RFC 5280 5.2)"
        case .unrecognizedCriticalEntryExtension(let oid, let serial):
            return "the CRL entry for serial \(Hex.encode(serial)) has a critical extension CertPath does not process (\(oid); RFC 5280 5.3)"
        case .missingCRLNumber:
            return "the CRL has no cRLNumber extension (RFC 5280 5.2.3)"
        case .criticalCRLNumber:
            return "the CRL's cRLNumber extension is critical (RFC 5280 5.2.3)"
        case .missingNextUpdate:
            return "the CRL has no nextUpdate, so nothing says until when it is current (RFC 5280 5.1.2.5)"
        case .certificateIssuerInDirectCRL:
            return "a CRL entry has a certificateIssuer extension but the CRL is not an indirect CRL (RFC 5280 5.3.3)"
        }
    }
}

/// The CRL extensions CertPath decodes and therefore recognizes (RFC 5280 5.2).
package enum KnownCRLExtension: CaseIterable {
    case authorityKeyIdentifier, issuerAltName, cRLNumber, deltaCRLIndicator, issuingDistributionPoint
    case freshestCRL, authorityInfoAccess

    package var oid: OID {
        switch self {
        case .authorityKeyIdentifier: return KnownOID.authorityKeyIdentifier
        case .issuerAltName: return KnownOID.issuerAltName
        case .cRLNumber: return CRLExtensionOID.cRLNumber
        case .deltaCRLIndicator: return CRLExtensionOID.deltaCRLIndicator
        case .issuingDistributionPoint: return CRLExtensionOID.issuingDistributionPoint
        case .freshestCRL: return KnownOID.freshestCRL
        case .authorityInfoAccess: return KnownOID.authorityInfoAccess
        }
    }

    package static func identify(_ oid: OID) -> KnownCRLExtension? { allCases.first { $0.oid == oid } }
}

/// The CRL entry extensions CertPath decodes and therefore recognizes (RFC 5280 5.3).
package enum KnownCRLEntryExtension: CaseIterable {
    case reasonCode, invalidityDate, certificateIssuer

    package var oid: OID {
        switch self {
        case .reasonCode: return CRLExtensionOID.reasonCode
        case .invalidityDate: return CRLExtensionOID.invalidityDate
        case .certificateIssuer: return CRLExtensionOID.certificateIssuer
        }
    }

    package static func identify(_ oid: OID) -> KnownCRLEntryExtension? { allCases.first { $0.oid == oid } }
}

package enum CRLExtensionList {
    /// Reads `Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension` (the SEQUENCE itself is next in
    /// `reader`), with the rules of RFC 5280 4.1 / 5.1: `critical` DEFAULT FALSE never encoded FALSE,
    /// each extension at most once.
    ///
    /// - Throws: ``DERError``: `.invalidValue` for an empty list, `.duplicate` for a repeated OID,
    ///   `.explicitDefault` for `critical FALSE`, DER errors.
    package static func read(_ reader: inout DERReader, _ expected: String) throws(DERError) -> [Extension] {
        let list = try reader.read(.sequence, expected)
        var inner = try reader.contents(of: list, expected)
        guard !inner.isAtEnd else {
            throw DERError(.invalidValue, at: list.offset, expected: "at least one Extension in \(expected) (SIZE (1..MAX))")
        }
        var extensions: [Extension] = []
        var seen = Set<OID>()
        while !inner.isAtEnd {
            let offset = inner.position
            let ext = try inner.sequence("Extension") { (e: inout DERReader) throws(DERError) -> Extension in
                let oid = try e.readOID("extnID")
                let critical = try e.readBooleanDefaultFalse("Extension critical")
                let value = try e.readOctetString("extnValue")
                return Extension(oid: oid, isCritical: critical, value: e.bytes[value.value])
            }
            // Lists are short in practice; past a few entries a set keeps hostile lists linear.
            let repeated: Bool
            if extensions.count < 8 {
                repeated = extensions.contains { $0.oid == ext.oid }
            } else {
                if seen.isEmpty { seen = Set(extensions.map(\.oid)) }
                repeated = !seen.insert(ext.oid).inserted
            }
            if repeated {
                throw DERError(.duplicate, at: offset, expected: "each extension at most once in \(expected), \(ext.oid) repeated")
            }
            extensions.append(ext)
        }
        return extensions
    }
}
