// One certificate's status in an OCSP basic response (RFC 6960 4.2.1): SingleResponse, CertID,
// CertStatus and RevokedInfo.
import CertPathDER

/// The hash algorithm of a CertID (RFC 6960 4.1.1): what issuerNameHash and issuerKeyHash were made with.
///
/// An algorithm CertPath does not know is a value, ``unsupported(_:)``, not a parse error, so that
/// the response can still be read and shown; such a CertID can never match a certificate.
public enum OCSPHashAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// 1.3.14.3.2.26 id-sha1 (20 octets; RFC 6960 4.3 makes it the one clients must support).
    case sha1
    /// 2.16.840.1.101.3.4.2.1 id-sha256 (32 octets).
    case sha256
    /// 2.16.840.1.101.3.4.2.2 id-sha384 (48 octets).
    case sha384
    /// 2.16.840.1.101.3.4.2.3 id-sha512 (64 octets).
    case sha512
    /// Any other algorithm; its parameters are checked to be DER and otherwise ignored.
    case unsupported(OID)

    /// The hash function, `nil` for ``unsupported(_:)``.
    public var hashAlgorithm: HashAlgorithm? {
        switch self {
        case .sha1: return .sha1
        case .sha256: return .sha256
        case .sha384: return .sha384
        case .sha512: return .sha512
        case .unsupported: return nil
        }
    }

    /// `sha1`, `sha256`…, or `unsupported 1.2.3`.
    public var description: String { hashAlgorithm?.rawValue ?? "unsupported \(oid)" }

    /// The algorithm's OID.
    public var oid: OID {
        switch self {
        case .sha1: return KnownOID.sha1
        case .sha256: return KnownOID.sha256
        case .sha384: return KnownOID.sha384
        case .sha512: return KnownOID.sha512
        case .unsupported(let oid): return oid
        }
    }

    /// Reads an AlgorithmIdentifier naming a hash.
    ///
    /// - Throws: ``DERError``: `.invalidValue` for parameters other than absent or NULL with a known
    ///   algorithm (RFC 5754 2: NULL or absent); DER errors (also inside an unknown algorithm's parameters).
    package static func read(_ reader: inout DERReader, _ expected: String) throws(DERError) -> OCSPHashAlgorithm {
        let scope = try reader.descend(.sequence, expected)
        let oid = try reader.readOID("\(expected) algorithm")
        let known: [OCSPHashAlgorithm] = [.sha1, .sha256, .sha384, .sha512]
        let algorithm = known.first { $0.oid == oid } ?? .unsupported(oid)
        if !reader.isAtEnd {
            if case .unsupported = algorithm {
                _ = try reader.readAny("parameters of \(expected)")
            } else {
                guard reader.peekTag() == .null else {
                    throw DERError(.invalidValue, at: reader.position, expected: "NULL or absent parameters for \(oid) (\(expected))")
                }
                try reader.readNull("NULL parameters of \(expected)")
            }
        }
        try reader.ascend(scope, expected)
        return algorithm
    }
}

/// The certificate a SingleResponse is about (RFC 6960 4.1.1):
///
/// ```
/// CertID ::= SEQUENCE {
///     hashAlgorithm       AlgorithmIdentifier,
///     issuerNameHash      OCTET STRING, -- Hash of issuer's DN
///     issuerKeyHash       OCTET STRING, -- Hash of issuer's public key
///     serialNumber        CertificateSerialNumber }
/// ```
public struct OCSPCertID: Hashable, Sendable, CustomStringConvertible {
    /// hashAlgorithm.
    public let hashAlgorithm: OCSPHashAlgorithm
    /// issuerNameHash: the hash of the DER of the issuer's name (the certificate's issuer field).
    public let issuerNameHash: ArraySlice<UInt8>
    /// issuerKeyHash: the hash of the issuer's subjectPublicKey BIT STRING value (without tag, length
    /// and unused-bits octet).
    public let issuerKeyHash: ArraySlice<UInt8>
    /// serialNumber: the contents octets of the INTEGER (two's complement, minimal), as in
    /// ``Certificate/serialNumber``.
    public let serialNumber: ArraySlice<UInt8>

    /// A CertID of these parts (no check is made: hashes of the wrong length never match).
    public init(hashAlgorithm: OCSPHashAlgorithm, issuerNameHash: ArraySlice<UInt8>, issuerKeyHash: ArraySlice<UInt8>,
                serialNumber: ArraySlice<UInt8>) {
        self.hashAlgorithm = hashAlgorithm
        self.issuerNameHash = issuerNameHash
        self.issuerKeyHash = issuerKeyHash
        self.serialNumber = serialNumber
    }

    /// `CertID(sha1, serial 0fa0…)`.
    public var description: String { "CertID(\(hashAlgorithm), serial \(Hex.encode(serialNumber)))" }

    /// Reads a CertID.
    ///
    /// - Throws: ``DERError``: `.invalidValue` for a hash whose length is not the known algorithm's
    ///   digest length (not checked for an unsupported algorithm); the errors of
    ///   ``OCSPHashAlgorithm``; DER errors (a serial number that is not a minimal INTEGER…).
    package static func read(_ reader: inout DERReader) throws(DERError) -> OCSPCertID {
        let scope = try reader.descend(.sequence, "CertID")
        let algorithm = try OCSPHashAlgorithm.read(&reader, "CertID hashAlgorithm")
        func hash(_ field: String) throws(DERError) -> ArraySlice<UInt8> {
            let element = try reader.readOctetString(field)
            if let length = algorithm.hashAlgorithm?.digestLength, element.value.count != length {
                throw DERError(.invalidValue, at: element.offset,
                               expected: "\(field) of \(length) octets for \(algorithm) (RFC 6960 4.1.1), found \(element.value.count)")
            }
            return reader.bytes[element.value]
        }
        let nameHash = try hash("issuerNameHash")
        let keyHash = try hash("issuerKeyHash")
        let serial = try reader.readInteger("CertID serialNumber")
        try reader.ascend(scope, "CertID")
        return OCSPCertID(hashAlgorithm: algorithm, issuerNameHash: nameHash, issuerKeyHash: keyHash,
                          serialNumber: reader.bytes[serial.value])
    }
}

/// RevokedInfo (RFC 6960 4.2.1): `SEQUENCE { revocationTime GeneralizedTime, revocationReason [0]
/// EXPLICIT CRLReason OPTIONAL }`.
public struct OCSPRevokedInfo: Hashable, Sendable {
    /// revocationTime, whole seconds, UTC.
    public let revocationTime: UnixTime
    /// revocationReason (RFC 5280 5.3.1's values); `nil` when absent.
    public let revocationReason: RevocationReason?

    /// Creates a RevokedInfo (for comparisons; parsing makes them from DER).
    public init(revocationTime: UnixTime, revocationReason: RevocationReason?) {
        self.revocationTime = revocationTime
        self.revocationReason = revocationReason
    }
}

/// certStatus (RFC 6960 4.2.1; meanings in 2.2):
/// `CHOICE { good [0] IMPLICIT NULL, revoked [1] IMPLICIT RevokedInfo, unknown [2] IMPLICIT UnknownInfo }`.
public enum OCSPCertStatus: Hashable, Sendable, CustomStringConvertible {
    /// good: not revoked (RFC 6960 2.2: at least; it may not even have been issued).
    case good
    /// revoked, permanently or on hold (reason certificateHold).
    case revoked(OCSPRevokedInfo)
    /// unknown: the responder does not know the certificate.
    case unknown

    /// `good`, `revoked (keyCompromise) at …`, `unknown`.
    public var description: String {
        switch self {
        case .good: return "good"
        case .unknown: return "unknown"
        case .revoked(let info):
            return "revoked\(info.revocationReason.map { " (\($0))" } ?? "") at \(info.revocationTime)"
        }
    }

    /// Reads the CHOICE.
    ///
    /// - Throws: ``DERError``: `.unexpectedTag` for another tag (also a constructed good or unknown);
    ///   `.invalidNull` for a good or unknown with contents; `.invalidValue` for a revocationReason of 7
    ///   or outside 0...10; `.invalidTime`; DER errors.
    package static func read(_ reader: inout DERReader) throws(DERError) -> OCSPCertStatus {
        switch reader.peekTag() {
        case .contextSpecific(0):
            let element = try reader.read(.contextSpecific(0), "certStatus good")
            guard element.value.isEmpty else { throw DERError(.invalidNull, at: element.offset, expected: "NULL (certStatus good)") }
            return .good
        case .contextSpecific(2):
            let element = try reader.read(.contextSpecific(2), "certStatus unknown")
            guard element.value.isEmpty else { throw DERError(.invalidNull, at: element.offset, expected: "NULL (certStatus unknown)") }
            return .unknown
        case .contextSpecific(1, constructed: true):
            let scope = try reader.descend(.contextSpecific(1, constructed: true), "RevokedInfo")
            let timeElement = try reader.read(.generalizedTime, "revocationTime")
            let time = try reader.time(timeElement, "revocationTime")
            var reason: RevocationReason? = nil
            if let explicit = try reader.readOptional(.contextSpecific(0, constructed: true), "revocationReason") {
                let inner = try reader.descend(into: explicit, "revocationReason")
                reason = try RevocationReason.read(&reader)
                try reader.ascend(inner, "revocationReason")
            }
            try reader.ascend(scope, "RevokedInfo")
            return .revoked(OCSPRevokedInfo(revocationTime: time, revocationReason: reason))
        case let tag?:
            throw DERError(.unexpectedTag, at: reader.position, expected: "certStatus [0] good, [1] revoked or [2] unknown, found \(tag)")
        case nil:
            throw DERError(.truncated, at: reader.position, expected: "certStatus")
        }
    }
}

/// One certificate's status (RFC 6960 4.2.1):
///
/// ```
/// SingleResponse ::= SEQUENCE {
///    certID                       CertID,
///    certStatus                   CertStatus,
///    thisUpdate                   GeneralizedTime,
///    nextUpdate         [0]       EXPLICIT GeneralizedTime OPTIONAL,
///    singleExtensions   [1]       EXPLICIT Extensions OPTIONAL }
/// ```
public struct OCSPSingleResponse: Hashable, Sendable, CustomStringConvertible {
    /// certID: which certificate this is about.
    public let certID: OCSPCertID
    /// certStatus.
    public let certStatus: OCSPCertStatus
    /// thisUpdate: when the status was known to be correct (RFC 6960 4.2.2.1), whole seconds, UTC.
    public let thisUpdate: UnixTime
    /// nextUpdate: when newer information will be available; `nil` when absent (RFC 6960 4.2.2.1:
    /// newer information is always available).
    public let nextUpdate: UnixTime?
    /// singleExtensions in encoded order (empty when absent). CertPath interprets none of them.
    public let extensions: [Extension]
    /// The critical ones among ``extensions``, as defects (CertPath processes no singleExtension).
    public let defects: [OCSPResponseDefect]

    /// `SingleResponse(CertID(…), good, thisUpdate: …)`.
    public var description: String { "SingleResponse(\(certID), \(certStatus), thisUpdate: \(thisUpdate))" }

    /// Reads a SingleResponse.
    ///
    /// - Throws: ``DERError``: the errors of ``OCSPCertID`` and ``OCSPCertStatus``; `.invalidTime` for
    ///   a thisUpdate or nextUpdate not `YYYYMMDDHHMMSSZ`; Extensions errors (`.invalidValue` empty,
    ///   `.duplicate`, `.explicitDefault`); DER errors.
    package static func read(_ reader: inout DERReader) throws(DERError) -> OCSPSingleResponse {
        let scope = try reader.descend(.sequence, "SingleResponse")
        let certID = try OCSPCertID.read(&reader)
        let status = try OCSPCertStatus.read(&reader)
        let thisUpdateElement = try reader.read(.generalizedTime, "thisUpdate")
        let thisUpdate = try reader.time(thisUpdateElement, "thisUpdate")
        var nextUpdate: UnixTime? = nil
        if let explicit = try reader.readOptional(.contextSpecific(0, constructed: true), "nextUpdate") {
            let inner = try reader.descend(into: explicit, "nextUpdate")
            let element = try reader.read(.generalizedTime, "nextUpdate")
            nextUpdate = try reader.time(element, "nextUpdate")
            try reader.ascend(inner, "nextUpdate")
        }
        var extensions: [Extension] = []
        if let explicit = try reader.readOptional(.contextSpecific(1, constructed: true), "singleExtensions") {
            let inner = try reader.descend(into: explicit, "singleExtensions")
            extensions = try CRLExtensionList.read(&reader, "singleExtensions")
            try reader.ascend(inner, "singleExtensions")
        }
        try reader.ascend(scope, "SingleResponse")
        let defects = extensions.filter(\.isCritical).map {
            OCSPResponseDefect.unrecognizedCriticalSingleExtension($0.oid, serialNumber: certID.serialNumber)
        }
        return OCSPSingleResponse(certID: certID, certStatus: status, thisUpdate: thisUpdate, nextUpdate: nextUpdate,
                                  extensions: extensions, defects: defects)
    }
}
