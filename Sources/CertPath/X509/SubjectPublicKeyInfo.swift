/// The elliptic curves CertPath verifies signatures with (RFC 5480 2.1.1.1, named curves only).
public enum NamedCurve: String, Hashable, Sendable, CaseIterable {
    case p256 = "P-256", p384 = "P-384", p521 = "P-521"

    /// Length in bytes of one coordinate (field element).
    public var coordinateLength: Int {
        switch self {
        case .p256: return 32
        case .p384: return 48
        case .p521: return 66
        }
    }

    /// The curve's OID.
    public var oid: OID {
        switch self {
        case .p256: return KnownOID.secp256r1
        case .p384: return KnownOID.secp384r1
        case .p521: return KnownOID.secp521r1
        }
    }
}

/// DSA domain parameters `Dss-Parms ::= SEQUENCE { p, q, g }` (RFC 3279 2.3.2), unsigned big-endian.
public struct DSAParameters: Hashable, Sendable {
    public let p: ArraySlice<UInt8>
    public let q: ArraySlice<UInt8>
    public let g: ArraySlice<UInt8>
}

/// A subject public key decoded from its SubjectPublicKeyInfo (RFC 5280 4.1.2.7; key formats of
/// RFC 3279 2.3.1, RFC 5480 2, RFC 8410 4). Byte slices are views into the certificate's DER.
public enum SubjectPublicKey: Hashable, Sendable {
    /// RSA: modulus and public exponent as unsigned big-endian bytes without leading zeros.
    case rsa(modulus: ArraySlice<UInt8>, publicExponent: ArraySlice<UInt8>)
    /// Elliptic curve: the SEC 1 point encoding (uncompressed `04‖X‖Y` or compressed `02/03‖X`).
    case ec(curve: NamedCurve, point: ArraySlice<UInt8>)
    /// Ed25519: 32-byte public key (RFC 8410).
    case ed25519(ArraySlice<UInt8>)
    /// Ed448: 57-byte public key (RFC 8410).
    case ed448(ArraySlice<UInt8>)
    /// DSA: the public value `y` and the domain parameters, `nil` when absent (then inherited from
    /// the issuer's key, RFC 3279 2.3.2 and RFC 5280 6.1.4 (f)).
    case dsa(parameters: DSAParameters?, publicKey: ArraySlice<UInt8>)
    /// A key CertPath cannot verify with: DSA, an unsupported named curve (`curve` set), RSASSA-PSS-only
    /// keys, GOST… It parses, and fails when a signature must be verified with it.
    case unsupported(algorithm: OID, curve: OID?)

    /// Size of the key in bits: the RSA modulus length, the curve's field size, 256/456 for EdDSA;
    /// `nil` for unsupported keys.
    public var bitLength: Int? {
        switch self {
        case .rsa(let modulus, _):
            guard let first = modulus.first else { return 0 }
            return (modulus.count - 1) * 8 + (8 - first.leadingZeroBitCount)
        case .ec(let curve, _):
            return curve == .p521 ? 521 : curve.coordinateLength * 8
        case .ed25519: return 256
        case .ed448: return 456
        case .dsa(let parameters, _):
            guard let p = parameters?.p, let first = p.first else { return nil }
            return (p.count - 1) * 8 + (8 - first.leadingZeroBitCount)
        case .unsupported: return nil
        }
    }

    /// `RSA-2048`, `EC P-256`, `Ed25519`, `unsupported 1.2.840.10040.4.1`.
    public var summary: String {
        switch self {
        case .rsa: return "RSA-\(bitLength ?? 0)"
        case .ec(let curve, _): return "EC \(curve.rawValue)"
        case .ed25519: return "Ed25519"
        case .ed448: return "Ed448"
        case .dsa: return "DSA\(bitLength.map { "-\($0)" } ?? " (inherited parameters)")"
        case .unsupported(let algorithm, let curve): return "unsupported \(algorithm)\(curve.map { " curve \($0)" } ?? "")"
        }
    }
}

/// A certificate's SubjectPublicKeyInfo (RFC 5280 4.1.2.7): its exact DER, which pins (SHA-256 of the
/// SPKI, as HPKP) and key caches are keyed by, and the decoded key.
public struct SubjectPublicKeyInfo: Hashable, Sendable {
    /// The complete DER encoding of the SubjectPublicKeyInfo SEQUENCE.
    public let der: ArraySlice<UInt8>
    /// The decoded key.
    public let key: SubjectPublicKey
    /// Whether the algorithm is id-RSASSA-PSS: an RSA key that may only verify RSASSA-PSS
    /// signatures (RFC 4055 1.2, 3.1).
    public let isRestrictedToRSASSAPSS: Bool

    /// Creates the value from parts already validated.
    public init(der: ArraySlice<UInt8>, key: SubjectPublicKey, isRestrictedToRSASSAPSS: Bool = false) {
        self.der = der
        self.key = key
        self.isRestrictedToRSASSAPSS = isRestrictedToRSASSAPSS
    }

    /// Parses a standalone DER SubjectPublicKeyInfo.
    ///
    /// - Throws: ``DERError`` as ``read(_:)`` does, and `.trailingData` after it.
    public init(derEncoded bytes: [UInt8]) throws(DERError) {
        var reader = DERReader(bytes)
        self = try SubjectPublicKeyInfo.read(&reader)
        try reader.finish("SubjectPublicKeyInfo")
    }

    /// Reads a SubjectPublicKeyInfo SEQUENCE.
    ///
    /// - Throws: ``DERError``: malformed DER; `.invalidValue` for key parameters that break their RFC
    ///   (RSA without NULL parameters, EdDSA with parameters, a point or key of the wrong length, a
    ///   non-positive RSA modulus or exponent); `.unsupported` for explicit or implicit EC domain
    ///   parameters (RFC 5480 2.1.1 allows only namedCurve).
    static func read(_ reader: inout DERReader) throws(DERError) -> SubjectPublicKeyInfo {
        try readLayout(&reader).materialize(reader.bytes)
    }

    /// ``read(_:)``, returning where the parts are instead of views of them.
    static func readLayout(_ reader: inout DERReader) throws(DERError) -> SubjectPublicKeyLayout {
        let element = try reader.read(.sequence, "SubjectPublicKeyInfo")
        return try reader.enter(element, "SubjectPublicKeyInfo") { (r: inout DERReader) throws(DERError) -> SubjectPublicKeyLayout in
            let algorithmElement = try r.read(.sequence, "SubjectPublicKeyInfo algorithm")
            let (oid, parameters, parametersStart) = try r.enter(algorithmElement, "AlgorithmIdentifier") {
                (algorithm: inout DERReader) throws(DERError) -> (DERElement, DERElement?, Int) in
                let oid = try algorithm.readObjectIdentifier("SubjectPublicKeyInfo algorithm")
                let parametersStart = algorithm.position
                let parameters: DERElement? = algorithm.isAtEnd ? nil : try algorithm.readAny("algorithm parameters")
                try algorithm.finish("AlgorithmIdentifier")
                return (oid, parameters, parametersStart)
            }
            let bits = try r.readBitString("subjectPublicKey")
            try r.finish("SubjectPublicKeyInfo")
            guard bits.unusedBits == 0 else {
                throw DERError(.invalidBitString, at: bits.bytes.lowerBound - 1, expected: "subjectPublicKey of whole bytes")
            }
            let keyBytes = bits.bytes
            let keyElement = DERElement(tag: .bitString, offset: bits.bytes.lowerBound, value: bits.bytes)
            func positive(_ k: DERReader, _ e: DERElement, _ what: String) throws(DERError) -> Range<Int> {
                var value = e.value
                if k.isNegativeInteger(e) { throw DERError(.negativeInteger, at: e.offset, expected: "positive \(what)") }
                if k.bytes[value.lowerBound] == 0 { value = value.dropFirst() }
                guard !value.isEmpty else { throw DERError(.invalidValue, at: e.offset, expected: "non-zero \(what)") }
                return value
            }
            func layout(_ key: SubjectPublicKeyLayout.Key, pssOnly: Bool = false) -> SubjectPublicKeyLayout {
                SubjectPublicKeyLayout(der: element.encoded, key: key, isRestrictedToRSASSAPSS: pssOnly)
            }
            let isRSA = r.contentsEqual(oid, KnownOID.rsaEncryption.encoded)
            if isRSA || r.contentsEqual(oid, KnownOID.rsassaPSS.encoded) {
                if isRSA {
                    guard let parameters, parameters.tag == .null, parameters.value.isEmpty else {
                        throw DERError(.invalidValue, at: parametersStart, expected: "NULL parameters for rsaEncryption (RFC 3279 2.3.1)")
                    }
                } else if let parameters {
                    // id-RSASSA-PSS: parameters absent or RSASSA-PSS-params restricting the key (RFC 4055 3.1).
                    guard parameters.tag == .sequence else {
                        throw DERError(.invalidValue, at: parameters.offset, expected: "absent or RSASSA-PSS-params for id-RSASSA-PSS keys")
                    }
                    try r.within(parameters.encoded, depth: r.depth + 1) { (params: inout DERReader) throws(DERError) in
                        _ = try SignatureAlgorithm.readPSSParameters(&params, oid: KnownOID.rsassaPSS, "id-RSASSA-PSS key")
                    }
                }
                let key = try r.enter(keyElement, "RSAPublicKey") { (rsa: inout DERReader) throws(DERError) -> SubjectPublicKeyLayout.Key in
                    let key = try rsa.sequence("RSAPublicKey") { (k: inout DERReader) throws(DERError) -> SubjectPublicKeyLayout.Key in
                        let modulus = try k.readInteger("RSAPublicKey modulus")
                        let exponent = try k.readInteger("RSAPublicKey publicExponent")
                        return .rsa(modulus: try positive(k, modulus, "modulus"), publicExponent: try positive(k, exponent, "publicExponent"))
                    }
                    try rsa.finish("RSAPublicKey")
                    return key
                }
                return layout(key, pssOnly: !isRSA)
            } else if r.contentsEqual(oid, KnownOID.dsa.encoded) {
                var dsaParameters: SubjectPublicKeyLayout.DSAParameters? = nil
                if let parameters {
                    guard parameters.tag == .sequence else {
                        throw DERError(.unexpectedTag, at: parameters.offset, expected: "Dss-Parms SEQUENCE or absent parameters")
                    }
                    dsaParameters = try r.within(parameters.encoded, depth: r.depth + 1) {
                        (params: inout DERReader) throws(DERError) -> SubjectPublicKeyLayout.DSAParameters in
                        try params.sequence("Dss-Parms") { (d: inout DERReader) throws(DERError) -> SubjectPublicKeyLayout.DSAParameters in
                            let p = try d.readInteger("Dss-Parms p"), q = try d.readInteger("Dss-Parms q"), g = try d.readInteger("Dss-Parms g")
                            return SubjectPublicKeyLayout.DSAParameters(
                                p: try positive(d, p, "DSA p"), q: try positive(d, q, "DSA q"), g: try positive(d, g, "DSA g"))
                        }
                    }
                }
                let y = try r.enter(keyElement, "DSAPublicKey") { (y: inout DERReader) throws(DERError) -> Range<Int> in
                    let element = try y.readInteger("DSAPublicKey")
                    try y.finish("DSAPublicKey")
                    return try positive(y, element, "DSA public key")
                }
                return layout(.dsa(parameters: dsaParameters, publicKey: y))
            } else if r.contentsEqual(oid, KnownOID.ecPublicKey.encoded) {
                guard let parameters else {
                    throw DERError(.invalidValue, at: parametersStart, expected: "ECParameters namedCurve (RFC 5480 2.1.1)")
                }
                guard parameters.tag == .objectIdentifier else {
                    throw DERError(.unsupported, at: parameters.offset, expected: "namedCurve; explicit or implicit curve parameters are forbidden (RFC 5480 2.1.1)")
                }
                try r.validateObjectIdentifier(parameters, "namedCurve")
                let curve: NamedCurve
                if r.contentsEqual(parameters, KnownOID.secp256r1.encoded) {
                    curve = .p256
                } else if r.contentsEqual(parameters, KnownOID.secp384r1.encoded) {
                    curve = .p384
                } else if r.contentsEqual(parameters, KnownOID.secp521r1.encoded) {
                    curve = .p521
                } else {
                    return layout(.unsupportedCurve(parameters.value))
                }
                let length = curve.coordinateLength
                let validPoint: Bool
                switch keyBytes.isEmpty ? nil : r.bytes[keyBytes.lowerBound] {
                case 0x04: validPoint = keyBytes.count == 1 + 2 * length
                case 0x02, 0x03: validPoint = keyBytes.count == 1 + length
                default: validPoint = false
                }
                guard validPoint else {
                    throw DERError(.invalidValue, at: bits.bytes.lowerBound, expected: "SEC 1 \(curve.rawValue) point (RFC 5480 2.2)")
                }
                return layout(.ec(curve, point: keyBytes))
            } else if r.contentsEqual(oid, KnownOID.ed25519.encoded) || r.contentsEqual(oid, KnownOID.ed448.encoded) {
                let is25519 = r.contentsEqual(oid, KnownOID.ed25519.encoded)
                guard parameters == nil else {
                    throw DERError(.invalidValue, at: parametersStart, expected: "absent parameters for EdDSA keys (RFC 8410 3)")
                }
                guard keyBytes.count == (is25519 ? 32 : 57) else {
                    throw DERError(.invalidValue, at: bits.bytes.lowerBound, expected: "\(is25519 ? 32 : 57)-byte EdDSA public key (RFC 8410 4)")
                }
                return layout(is25519 ? .ed25519(keyBytes) : .ed448(keyBytes))
            } else {
                return layout(.unsupported(algorithm: oid.value))
            }
        }
    }
}

/// Where the parts of a SubjectPublicKeyInfo are, as offsets in the buffer it was read from: what
/// ``SubjectPublicKeyInfo/readLayout(_:)`` finds, kept by ``Certificate`` without holding views.
struct SubjectPublicKeyLayout: Hashable, Sendable {
    /// Offsets of DSA domain parameters.
    struct DSAParameters: Hashable, Sendable {
        let p: Range<Int>, q: Range<Int>, g: Range<Int>
    }

    /// The decoded key, as offsets (mirrors ``SubjectPublicKey``).
    enum Key: Hashable, Sendable {
        case rsa(modulus: Range<Int>, publicExponent: Range<Int>)
        case ec(NamedCurve, point: Range<Int>)
        case ed25519(Range<Int>)
        case ed448(Range<Int>)
        case dsa(parameters: DSAParameters?, publicKey: Range<Int>)
        /// An ecPublicKey on a curve CertPath does not support (the curve OID's contents).
        case unsupportedCurve(Range<Int>)
        /// Another algorithm (its OID's contents).
        case unsupported(algorithm: Range<Int>)
    }

    /// The complete SubjectPublicKeyInfo encoding.
    let der: Range<Int>
    let key: Key
    let isRestrictedToRSASSAPSS: Bool

    /// The key with views into `bytes` (the buffer the offsets are indices of).
    func subjectPublicKey(_ bytes: ArraySlice<UInt8>) -> SubjectPublicKey {
        switch key {
        case .rsa(let modulus, let exponent): return .rsa(modulus: bytes[modulus], publicExponent: bytes[exponent])
        case .ec(let curve, let point): return .ec(curve: curve, point: bytes[point])
        case .ed25519(let raw): return .ed25519(bytes[raw])
        case .ed448(let raw): return .ed448(bytes[raw])
        case .dsa(let parameters, let y):
            return .dsa(parameters: parameters.map { CertPath.DSAParameters(p: bytes[$0.p], q: bytes[$0.q], g: bytes[$0.g]) }, publicKey: bytes[y])
        case .unsupportedCurve(let curve):
            return .unsupported(algorithm: KnownOID.ecPublicKey, curve: OID(validatedEncoding: bytes[curve]))
        case .unsupported(let algorithm):
            return .unsupported(algorithm: OID(validatedEncoding: bytes[algorithm]), curve: nil)
        }
    }

    /// The SubjectPublicKeyInfo with views into `bytes`.
    func materialize(_ bytes: ArraySlice<UInt8>) -> SubjectPublicKeyInfo {
        SubjectPublicKeyInfo(der: bytes[der], key: subjectPublicKey(bytes), isRestrictedToRSASSAPSS: isRestrictedToRSASSAPSS)
    }
}
