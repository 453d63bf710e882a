import CertPathDER

/// The signature algorithm of an SCT's `digitally-signed` struct (RFC 6962 3.2, RFC 5246 4.7 and
/// 7.4.1.4.1): the TLS `SignatureAndHashAlgorithm` codes as sent.
///
/// Logs sign with ECDSA on NIST P-256 with SHA-256, or RSA PKCS#1 v1.5 with SHA-256 (RFC 6962
/// 2.1.4); ``algorithm`` names those two and is `nil` for every other pair.
public struct SCTSignatureAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// The TLS HashAlgorithm code (RFC 5246 7.4.1.4.1: 1 md5, 2 sha1, 3 sha224, 4 sha256, 5 sha384,
    /// 6 sha512). Never 0 (`none`) in a parsed SCT.
    public let hash: UInt8
    /// The TLS SignatureAlgorithm code (RFC 5246 7.4.1.4.1: 1 rsa, 2 dsa, 3 ecdsa). Never 0
    /// (`anonymous`) in a parsed SCT.
    public let signature: UInt8

    /// Creates the pair from its two codes.
    public init(hash: UInt8, signature: UInt8) {
        self.hash = hash
        self.signature = signature
    }

    /// sha256 (4) with ecdsa (3): what RFC 6962 2.1.4 names first.
    public static let ecdsaSHA256 = SCTSignatureAlgorithm(hash: 4, signature: 3)
    /// sha256 (4) with rsa (1): RSASSA-PKCS1-v1_5 with SHA-256 (RFC 6962 2.1.4).
    public static let rsaSHA256 = SCTSignatureAlgorithm(hash: 4, signature: 1)

    /// The X.509 signature algorithm the pair means when it is one RFC 6962 2.1.4 allows
    /// (ECDSA or RSA PKCS#1 v1.5, with SHA-256); `nil` otherwise.
    public var algorithm: SignatureAlgorithm? {
        switch self {
        case .ecdsaSHA256: return .ecdsa(.sha256)
        case .rsaSHA256: return .rsaPKCS1v15(.sha256)
        default: return nil
        }
    }

    /// `ecdsa-sha256`, `rsa-sha256`, or the codes (`hash 2, signature 2`).
    public var description: String {
        switch self {
        case .ecdsaSHA256: return "ecdsa-sha256"
        case .rsaSHA256: return "rsa-sha256"
        default: return "hash \(hash), signature \(signature)"
        }
    }
}

/// One signed certificate timestamp of version 1 (RFC 6962 3.2), decoded from its TLS encoding:
///
/// ```
/// struct {
///     Version sct_version;               // v1(0)
///     LogID id;                          // opaque key_id[32]: SHA-256 of the log's key
///     uint64 timestamp;                  // milliseconds since the epoch, leap seconds ignored
///     CtExtensions extensions;           // opaque <0..2^16-1>
///     digitally-signed struct { ... };   // SignatureAndHashAlgorithm, opaque signature <0..2^16-1>
/// } SignedCertificateTimestamp;
/// ```
///
/// SCTs of other versions are not decoded (their syntax is unknown): a list keeps them as
/// ``UnknownVersionSCT`` and evaluation ignores them (RFC 6962 3.3: "clients MUST ignore" SCTs of an
/// unknown version, as they would an SCT from an unknown log).
public struct SignedCertificateTimestamp: Hashable, Sendable, CustomStringConvertible {
    /// sct_version: always 0 (v1) for a decoded SCT.
    public let version: UInt8
    /// The log's ID: the SHA-256 of its DER SubjectPublicKeyInfo (RFC 6962 3.2), 32 bytes.
    public let logID: [UInt8]
    /// When the log issued the SCT: milliseconds since 1970-01-01T00:00:00Z (RFC 6962 3.2).
    public let timestamp: UInt64
    /// The CtExtensions' bytes (none are defined by RFC 6962: normally empty); they are signed.
    public let extensions: [UInt8]
    /// The digitally-signed struct's algorithm pair.
    public let signatureAlgorithm: SCTSignatureAlgorithm
    /// The signature: for ECDSA the DER `ECDSA-Sig-Value`, for RSA the PKCS#1 v1.5 signature.
    public let signature: [UInt8]
    /// The SCT's own TLS encoding (the SerializedSCT's contents), exactly as read.
    public let encoded: [UInt8]

    /// Creates an SCT from its fields; ``encoded`` is computed (the TLS encoding of RFC 6962 3.2).
    /// For tests and tools that make SCTs; `logID` must be 32 bytes, `extensions` and `signature`
    /// at most 65535.
    public init(logID: [UInt8], timestamp: UInt64, extensions: [UInt8] = [], signatureAlgorithm: SCTSignatureAlgorithm, signature: [UInt8]) {
        precondition(logID.count == 32 && extensions.count <= 0xFFFF && signature.count <= 0xFFFF, "SCT field sizes")
        self.version = 0
        self.logID = logID
        self.timestamp = timestamp
        self.extensions = extensions
        self.signatureAlgorithm = signatureAlgorithm
        self.signature = signature
        var bytes: [UInt8] = [0]
        bytes += logID
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: timestamp >> UInt64(shift))) }
        bytes += [UInt8(extensions.count >> 8), UInt8(extensions.count & 0xFF)] + extensions
        bytes += [signatureAlgorithm.hash, signatureAlgorithm.signature]
        bytes += [UInt8(signature.count >> 8), UInt8(signature.count & 0xFF)] + signature
        self.encoded = bytes
    }

    init(version: UInt8, logID: [UInt8], timestamp: UInt64, extensions: [UInt8], signatureAlgorithm: SCTSignatureAlgorithm,
         signature: [UInt8], encoded: [UInt8]) {
        self.version = version
        self.logID = logID
        self.timestamp = timestamp
        self.extensions = extensions
        self.signatureAlgorithm = signatureAlgorithm
        self.signature = signature
        self.encoded = encoded
    }

    /// `SCT(v1, log 0a1b…, 1700000000000 ms, ecdsa-sha256)`.
    public var description: String {
        "SCT(v1, log \(Hex.encode(logID[...].prefix(4)))…, \(timestamp) ms, \(signatureAlgorithm))"
    }
}

/// An SCT whose sct_version is not v1 (RFC 6962 3.3: ignored, not an error).
public struct UnknownVersionSCT: Hashable, Sendable {
    /// The sct_version byte (not 0).
    public let version: UInt8
    /// Offset of the SerializedSCT's length in the list's bytes.
    public let offset: Int
    /// The SerializedSCT's contents, undecoded.
    public let encoded: [UInt8]

    /// Creates a record of an SCT of another version (for tests and tools).
    public init(version: UInt8, offset: Int, encoded: [UInt8]) {
        self.version = version
        self.offset = offset
        self.encoded = encoded
    }
}

/// Why a SignedCertificateTimestampList could not be read, and where (RFC 6962 3.3).
public struct SCTListError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Code: String, Hashable, Sendable {
        /// The bytes end before a length or field they announce.
        case truncated
        /// The list's or an SCT's length does not match the bytes it covers (an SCT longer or
        /// shorter than its SerializedSCT, or bytes after the list).
        case lengthMismatch
        /// An empty list or an empty SerializedSCT (both are `<1..2^16-1>`).
        case empty
        /// The digitally-signed struct names hash `none` (0) or signature `anonymous` (0), which
        /// RFC 5246 7.4.1.4.1 forbids in a digitally-signed element.
        case invalidAlgorithm
        /// The X.509 extension around the list is not one OCTET STRING (RFC 6962 3.3); ``DERError``
        /// detail in ``SCTListError/expected``.
        case malformedExtension
    }

    /// What is wrong.
    public let code: Code
    /// Offset of the offending byte: in the TLS-encoded list (0 is its first length byte), or for
    /// ``Code/malformedExtension`` in the extension's DER.
    public let offset: Int
    /// What was expected there, in words.
    public let expected: String

    /// Creates an error.
    public init(_ code: Code, at offset: Int, expected: String) {
        self.code = code
        self.offset = offset
        self.expected = expected
    }

    /// `SCT list: truncated at byte 7 (expected timestamp)`.
    public var description: String { "SCT list: \(code.rawValue) at byte \(offset) (expected \(expected))" }
}

/// A SignedCertificateTimestampList (RFC 6962 3.3), read strictly:
///
/// ```
/// opaque SerializedSCT<1..2^16-1>;
/// struct { SerializedSCT sct_list <1..2^16-1>; } SignedCertificateTimestampList;
/// ```
///
/// The same encoding arrives in the certificate's SCT list extension (inside an OCTET STRING), the
/// TLS `signed_certificate_timestamp` extension's extension_data and the OCSP SingleResponse
/// extension.
public struct SignedCertificateTimestampList: Hashable, Sendable {
    /// The v1 SCTs, in list order.
    public let timestamps: [SignedCertificateTimestamp]
    /// The SCTs of other versions, kept undecoded and ignored (RFC 6962 3.3).
    public let unknownVersions: [UnknownVersionSCT]
    /// The bytes the list was read from, `nil` for a list made from its SCTs.
    private let original: [UInt8]?

    /// Creates a list of SCTs (for tests and tools): the v1 SCTs, then those of other versions.
    public init(timestamps: [SignedCertificateTimestamp], unknownVersions: [UnknownVersionSCT] = []) {
        self.timestamps = timestamps
        self.unknownVersions = unknownVersions
        self.original = nil
    }

    init(timestamps: [SignedCertificateTimestamp], unknownVersions: [UnknownVersionSCT], original: [UInt8]) {
        self.timestamps = timestamps
        self.unknownVersions = unknownVersions
        self.original = original
    }

    /// Lists are equal when their SCTs are (the v1 ones, and those of other versions), however
    /// they were made.
    public static func == (lhs: SignedCertificateTimestampList, rhs: SignedCertificateTimestampList) -> Bool {
        lhs.timestamps == rhs.timestamps && lhs.unknownVersions == rhs.unknownVersions
    }

    /// Hashes the SCTs (as ``==`` compares them).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(timestamps)
        hasher.combine(unknownVersions)
    }

    /// Reads a TLS-encoded list.
    ///
    /// - Parameter bytes: exactly the list: its 2-byte length and what it covers.
    /// - Throws: ``SCTListError`` naming the byte offset (0 is the first byte of `bytes`):
    ///   `.truncated`, `.lengthMismatch` (a length that does not cover the bytes exactly, trailing
    ///   bytes), `.empty` (an empty list or SCT), `.invalidAlgorithm` (hash none or signature
    ///   anonymous).
    public init(tlsEncoded bytes: ArraySlice<UInt8>) throws(SCTListError) {
        var parser = SCTListParser(bytes: bytes)
        self = try parser.parseList()
    }

    /// Reads a TLS-encoded list; see ``init(tlsEncoded:)-(ArraySlice<UInt8>)``.
    public init(tlsEncoded bytes: [UInt8]) throws(SCTListError) {
        try self.init(tlsEncoded: bytes[...])
    }

    /// The TLS encoding of this list (RFC 6962 3.3): for a list that was read, the bytes read (in
    /// their order); for one made from SCTs, the v1 SCTs then the others.
    public var tlsEncoded: [UInt8] {
        if let original { return original }
        var items: [UInt8] = []
        for sct in timestamps {
            items += [UInt8(sct.encoded.count >> 8), UInt8(sct.encoded.count & 0xFF)] + sct.encoded
        }
        for unknown in unknownVersions {
            items += [UInt8(unknown.encoded.count >> 8), UInt8(unknown.encoded.count & 0xFF)] + unknown.encoded
        }
        return [UInt8(items.count >> 8), UInt8(items.count & 0xFF)] + items
    }
}

/// The reader behind ``SignedCertificateTimestampList/init(tlsEncoded:)-(ArraySlice<UInt8>)``:
/// offsets are relative to the list's first byte.
struct SCTListParser {
    let bytes: ArraySlice<UInt8>
    var position = 0

    init(bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    func byte(_ offset: Int) -> UInt8 { bytes[bytes.startIndex + offset] }

    mutating func readUInt(_ width: Int, limit: Int, _ what: String) throws(SCTListError) -> UInt64 {
        guard limit - position >= width else { throw SCTListError(.truncated, at: position, expected: what) }
        var value: UInt64 = 0
        for i in 0..<width { value = value << 8 | UInt64(byte(position + i)) }
        position += width
        return value
    }

    mutating func readBytes(_ count: Int, limit: Int, _ what: String) throws(SCTListError) -> [UInt8] {
        guard limit - position >= count else { throw SCTListError(.truncated, at: position, expected: what) }
        let start = bytes.startIndex + position
        position += count
        return Array(bytes[start..<start + count])
    }

    /// RFC 6962 3.3: the list's length, then SerializedSCTs filling it exactly.
    mutating func parseList() throws(SCTListError) -> SignedCertificateTimestampList {
        let total = bytes.count
        let listLength = Int(try readUInt(2, limit: total, "the list's 2-byte length"))
        guard listLength != 0 else { throw SCTListError(.empty, at: 0, expected: "at least one SCT (sct_list<1..2^16-1>)") }
        guard listLength <= total - 2 else { throw SCTListError(.truncated, at: total, expected: "\(listLength) bytes of sct_list") }
        guard listLength == total - 2 else { throw SCTListError(.lengthMismatch, at: 2 + listLength, expected: "the end of the list") }
        var timestamps: [SignedCertificateTimestamp] = []
        var unknown: [UnknownVersionSCT] = []
        while position < total {
            let start = position
            let length = Int(try readUInt(2, limit: total, "a SerializedSCT's 2-byte length"))
            guard length != 0 else { throw SCTListError(.empty, at: start, expected: "a SerializedSCT of at least one byte") }
            guard length <= total - position else { throw SCTListError(.truncated, at: total, expected: "\(length) bytes of SerializedSCT") }
            let end = position + length
            let version = byte(position)
            if version != 0 {
                unknown.append(UnknownVersionSCT(version: version, offset: start, encoded: try readBytes(length, limit: end, "SerializedSCT")))
                continue
            }
            timestamps.append(try parseSCT(end: end))
        }
        return SignedCertificateTimestampList(timestamps: timestamps, unknownVersions: unknown, original: Array(bytes))
    }

    /// RFC 6962 3.2: one v1 SCT filling `position..<end` exactly.
    mutating func parseSCT(end: Int) throws(SCTListError) -> SignedCertificateTimestamp {
        let start = position
        let version = UInt8(try readUInt(1, limit: end, "sct_version"))
        let logID = try readBytes(32, limit: end, "the 32-byte LogID")
        let timestamp = try readUInt(8, limit: end, "the 8-byte timestamp")
        let extensionsLength = Int(try readUInt(2, limit: end, "the extensions' 2-byte length"))
        let extensions = try readBytes(extensionsLength, limit: end, "\(extensionsLength) bytes of extensions")
        let hashOffset = position
        let hash = UInt8(try readUInt(1, limit: end, "the HashAlgorithm"))
        guard hash != 0 else { throw SCTListError(.invalidAlgorithm, at: hashOffset, expected: "a HashAlgorithm other than none (0)") }
        let signatureOffset = position
        let signatureCode = UInt8(try readUInt(1, limit: end, "the SignatureAlgorithm"))
        guard signatureCode != 0 else {
            throw SCTListError(.invalidAlgorithm, at: signatureOffset, expected: "a SignatureAlgorithm other than anonymous (0)")
        }
        let signatureLength = Int(try readUInt(2, limit: end, "the signature's 2-byte length"))
        let signature = try readBytes(signatureLength, limit: end, "\(signatureLength) bytes of signature")
        guard position == end else { throw SCTListError(.lengthMismatch, at: position, expected: "the end of the SerializedSCT") }
        let encodedStart = bytes.startIndex + start
        return SignedCertificateTimestamp(version: version, logID: logID, timestamp: timestamp, extensions: extensions,
                                          signatureAlgorithm: SCTSignatureAlgorithm(hash: hash, signature: signatureCode),
                                          signature: signature, encoded: Array(bytes[encodedStart..<bytes.startIndex + end]))
    }
}
