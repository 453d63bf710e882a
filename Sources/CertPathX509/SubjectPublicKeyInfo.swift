import CertPathDER

/// The elliptic curves CertPath verifies signatures with (RFC 5480 2.1.1.1, named curves only): the
/// NIST curves of RFC 5480 and the Brainpool curves of RFC 5639 (OIDs of RFC 7027 / RFC 5639 4.1),
/// which European government and health PKIs issue. Which curves are *acceptable* is
/// ``AlgorithmProfile``'s decision (the Web PKI accepts only the NIST curves, CA/B BR 6.1.5).
public enum NamedCurve: String, Hashable, Sendable, CaseIterable {
    /// NIST P-256 (secp256r1, OID 1.2.840.10045.3.1.7): 32-byte coordinates; raw value `P-256`.
    case p256 = "P-256"
    /// NIST P-384 (secp384r1, OID 1.3.132.0.34): 48-byte coordinates; raw value `P-384`.
    case p384 = "P-384"
    /// NIST P-521 (secp521r1, OID 1.3.132.0.35): 66-byte coordinates; raw value `P-521`.
    case p521 = "P-521"
    /// brainpoolP256r1 (RFC 5639 3.4, OID 1.3.36.3.3.2.8.1.1.7): 32-byte coordinates; raw value `brainpoolP256r1`.
    case brainpoolP256r1 = "brainpoolP256r1"
    /// brainpoolP384r1 (RFC 5639 3.6, OID 1.3.36.3.3.2.8.1.1.11): 48-byte coordinates; raw value `brainpoolP384r1`.
    case brainpoolP384r1 = "brainpoolP384r1"
    /// brainpoolP512r1 (RFC 5639 3.7, OID 1.3.36.3.3.2.8.1.1.13): 64-byte coordinates; raw value `brainpoolP512r1`.
    case brainpoolP512r1 = "brainpoolP512r1"

    /// Length in bytes of one coordinate (field element).
    public var coordinateLength: Int {
        switch self {
        case .p256, .brainpoolP256r1: return 32
        case .p384, .brainpoolP384r1: return 48
        case .p521: return 66
        case .brainpoolP512r1: return 64
        }
    }

    /// The curve's OID.
    public var oid: OID {
        switch self {
        case .p256: return KnownOID.secp256r1
        case .p384: return KnownOID.secp384r1
        case .p521: return KnownOID.secp521r1
        case .brainpoolP256r1: return KnownOID.brainpoolP256r1
        case .brainpoolP384r1: return KnownOID.brainpoolP384r1
        case .brainpoolP512r1: return KnownOID.brainpoolP512r1
        }
    }

    /// Whether the curve is one of RFC 5639's Brainpool curves (not accepted in the Web PKI).
    public var isBrainpool: Bool {
        switch self {
        case .p256, .p384, .p521: return false
        case .brainpoolP256r1, .brainpoolP384r1, .brainpoolP512r1: return true
        }
    }
}

/// DSA domain parameters `Dss-Parms ::= SEQUENCE { p, q, g }` (RFC 3279 2.3.2), unsigned big-endian.
public struct DSAParameters: Hashable, Sendable {
    /// The prime modulus `p` (FIPS 186-4 4.1 sizes it at 1024, 2048 or 3072 bits).
    public let p: ArraySlice<UInt8>
    /// The prime divisor `q` of `p - 1` (160, 224 or 256 bits in FIPS 186-4), the order of `g`.
    public let q: ArraySlice<UInt8>
    /// The generator `g` of the order-`q` subgroup modulo `p`.
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
            return Self.bitLength(octets: modulus.count, leading: first)
        case .ec(let curve, _):
            return curve == .p521 ? 521 : curve.coordinateLength * 8
        case .ed25519: return 256
        case .ed448: return 456
        case .dsa(let parameters, _):
            guard let p = parameters?.p, let first = p.first else { return nil }
            return Self.bitLength(octets: p.count, leading: first)
        case .unsupported: return nil
        }
    }

    /// The length in bits of a positive big-endian integer of `octets` octets whose first is `leading`
    /// (at least 1 octet, minimal encoding).
    package static func bitLength(octets: Int, leading: UInt8) -> Int {
        (octets - 1) * 8 + (8 - leading.leadingZeroBitCount)
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
    /// The RSASSA-PSS-params of an id-RSASSA-PSS key that carries them (RFC 4055 3.1), which every
    /// signature it verifies must match, with a salt at least as long (RFC 4055 3.3):
    /// ``SignatureAlgorithm/rsaPSS(hash:saltLength:)``, or ``SignatureAlgorithm/unsupported(_:)``
    /// for parameters CertPath does not verify (then no signature verifies); `nil` otherwise.
    public let rsassaPSSParameters: SignatureAlgorithm?

    /// The subjectPublicKey BIT STRING's value: its bytes without tag, length and unused-bits octet
    /// (what RFC 6960 4.1.1 issuerKeyHash and 4.2.1 ResponderID byKey hash; RFC 5280 4.2.1.2 method (1)).
    public var subjectPublicKeyBytes: ArraySlice<UInt8> {
        var reader = DERReader(der)
        // The DER was read by `read(_:)`, so these reads succeed; an empty slice otherwise.
        guard (try? reader.descend(.sequence, "SubjectPublicKeyInfo")) != nil,
              (try? reader.read(.sequence, "algorithm")) != nil,
              let bits = try? reader.readBitString("subjectPublicKey") else { return der[der.startIndex..<der.startIndex] }
        return reader.bytes[bits.bytes]
    }

    /// Creates the value from parts already validated.
    public init(der: ArraySlice<UInt8>, key: SubjectPublicKey, isRestrictedToRSASSAPSS: Bool = false,
                rsassaPSSParameters: SignatureAlgorithm? = nil) {
        self.der = der
        self.key = key
        self.isRestrictedToRSASSAPSS = isRestrictedToRSASSAPSS
        self.rsassaPSSParameters = isRestrictedToRSASSAPSS ? rsassaPSSParameters : nil
    }

    /// Why this key may not verify a signature made with `algorithm` under RFC 4055, or `nil`:
    /// an id-RSASSA-PSS key verifies only RSASSA-PSS signatures (1.2), and one with parameters only
    /// signatures with its hash and mask generation function and a salt at least as long (3.3).
    package func refusal(of algorithm: SignatureAlgorithm) -> RSASSAPSSRefusal? {
        Self.refusal(of: algorithm, restrictedToRSASSAPSS: isRestrictedToRSASSAPSS, parameters: rsassaPSSParameters)
    }

    /// ``refusal(of:)`` for a key described by its restriction and parameters.
    package static func refusal(of algorithm: SignatureAlgorithm, restrictedToRSASSAPSS: Bool,
                                parameters: SignatureAlgorithm?) -> RSASSAPSSRefusal? {
        guard restrictedToRSASSAPSS else { return nil }
        guard case .rsaPSS(let hash, let saltLength) = algorithm else { return .notRSASSAPSS }
        switch parameters {
        case nil:
            return nil
        case .rsaPSS(let keyHash, let minimumSaltLength)?:
            if hash != keyHash { return .hashMismatch(key: keyHash, signature: hash) }
            if saltLength < minimumSaltLength { return .saltTooShort(minimum: minimumSaltLength, signature: saltLength) }
            return nil
        case _?:
            return .unsupportedParameters
        }
    }

    /// Parses a standalone DER SubjectPublicKeyInfo, validated as one inside a certificate is.
    ///
    /// - Throws: ``DERError``: malformed DER; `.invalidValue` for key parameters that break their RFC
    ///   (RSA without NULL parameters, EdDSA with parameters, a point or key of the wrong length, a
    ///   non-positive RSA modulus or exponent); `.unsupported` for explicit or implicit EC domain
    ///   parameters (RFC 5480 2.1.1 allows only namedCurve); `.trailingData` for bytes after it.
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
    package static func read(_ reader: inout DERReader) throws(DERError) -> SubjectPublicKeyInfo {
        try readLayout(&reader).materialize(reader.bytes)
    }

    /// ``read(_:)``, returning where the parts are instead of views of them.
    package static func readLayout(_ reader: inout DERReader) throws(DERError) -> SubjectPublicKeyLayout {
        let element = try reader.read(.sequence, "SubjectPublicKeyInfo")
        let info = try reader.descend(into: element, "SubjectPublicKeyInfo")
        let algorithmElement = try reader.read(.sequence, "SubjectPublicKeyInfo algorithm")
        let algorithm = try reader.descend(into: algorithmElement, "AlgorithmIdentifier")
        let oid = try reader.readObjectIdentifier("SubjectPublicKeyInfo algorithm")
        let parametersStart = reader.position
        let parameters: DERElement? = reader.isAtEnd ? nil : try reader.readAny("algorithm parameters")
        try reader.ascend(algorithm, "AlgorithmIdentifier")
        let bits = try reader.readBitString("subjectPublicKey")
        try reader.finish("SubjectPublicKeyInfo")
        guard _fastPath(bits.unusedBits == 0) else {
            throw DERError(.invalidBitString, at: bits.bytes.lowerBound - 1, expected: "subjectPublicKey of whole bytes")
        }
        let key = try readKey(&reader, algorithm: oid, parameters: parameters, parametersStart: parametersStart, bits.bytes)
        reader.ascend(info)
        return SubjectPublicKeyLayout(der: element.encoded, key: key.key, isRestrictedToRSASSAPSS: key.pssOnly)
    }

    /// The key algorithms told apart by ``readKey(_:algorithm:parameters:parametersStart:_:)``.
    private enum KeyAlgorithm { case rsa, rsassaPSS, dsa, ecPublicKey, ed25519, ed448 }

    /// The keys of the algorithm OIDs, trivially copyable (comparing OIDs would touch their storage).
    private static let keyAlgorithms: [(key: ShortOIDKey, algorithm: KeyAlgorithm)] = [
        (KnownOID.rsaEncryption, .rsa), (KnownOID.ecPublicKey, .ecPublicKey), (KnownOID.rsassaPSS, .rsassaPSS),
        (KnownOID.ed25519, .ed25519), (KnownOID.ed448, .ed448), (KnownOID.dsa, .dsa),
    ].map { (oid, algorithm) in (oid.encoded.withUnsafeBufferPointer { ShortOIDKey($0)! }, algorithm) }

    /// The named curves CertPath supports, by the keys of their OIDs.
    private static let curves: [(key: ShortOIDKey, curve: NamedCurve)] = NamedCurve.allCases.map { curve in
        (curve.oid.encoded.withUnsafeBufferPointer { ShortOIDKey($0)! }, curve)
    }

    /// Decodes subjectPublicKey (the bit string's bytes `keyBytes`) by the rules of its algorithm
    /// (RFC 3279 2.3, RFC 4055 1.2, RFC 5480 2, RFC 8410 4).
    private static func readKey(
        _ r: inout DERReader, algorithm oid: DERElement, parameters: DERElement?, parametersStart: Int, _ keyBytes: Range<Int>
    ) throws(DERError) -> (key: SubjectPublicKeyLayout.Key, pssOnly: Bool) {
        let keyElement = DERElement(tag: .bitString, offset: keyBytes.lowerBound, value: keyBytes)
        // Reads `r` in place (a reader passed by value would be copied).
        func positive(_ e: DERElement, _ what: String) throws(DERError) -> Range<Int> {
            var value = e.value
            if r.isNegativeInteger(e) { throw DERError(.negativeInteger, at: e.offset, expected: "positive \(what)") }
            if r.withUnsafeBytes(of: value, { $0[0] }) == 0 { value = value.dropFirst() }
            guard _fastPath(!value.isEmpty) else { throw DERError(.invalidValue, at: e.offset, expected: "non-zero \(what)") }
            return value
        }
        let key = r.withUnsafeBytes(of: oid.value) { ShortOIDKey($0) }
        switch keyAlgorithms.first(where: { $0.key == key })?.algorithm {
        case .rsa?, .rsassaPSS?:
            let isRSA = keyAlgorithms[0].key == key
            if isRSA {
                guard let parameters, parameters.tag == .null, parameters.value.isEmpty else {
                    throw DERError(.invalidValue, at: parametersStart, expected: "NULL parameters for rsaEncryption (RFC 3279 2.3.1)")
                }
            } else if let parameters {
                // id-RSASSA-PSS: parameters absent or RSASSA-PSS-params restricting the key (RFC 4055 3.1).
                guard _fastPath(parameters.tag == .sequence) else {
                    throw DERError(.invalidValue, at: parameters.offset, expected: "absent or RSASSA-PSS-params for id-RSASSA-PSS keys")
                }
                let scope = r.descend(to: parameters.encoded, depth: r.depth + 1)
                _ = try SignatureAlgorithm.readPSSParameters(&r, oid: KnownOID.rsassaPSS, "id-RSASSA-PSS key")
                r.ascend(scope)
            }
            let inner = try r.descend(into: keyElement, "RSAPublicKey")
            let sequence = try r.descend(.sequence, "RSAPublicKey")
            let modulus = try r.readInteger("RSAPublicKey modulus")
            let exponent = try r.readInteger("RSAPublicKey publicExponent")
            let rsa = SubjectPublicKeyLayout.Key.rsa(modulus: try positive(modulus, "modulus"),
                                                     publicExponent: try positive(exponent, "publicExponent"))
            try r.ascend(sequence, "RSAPublicKey")
            try r.finish("RSAPublicKey")
            r.ascend(inner)
            return (rsa, !isRSA)
        case .dsa?:
            var dsaParameters: SubjectPublicKeyLayout.DSAParameters? = nil
            if let parameters {
                guard _fastPath(parameters.tag == .sequence) else {
                    throw DERError(.unexpectedTag, at: parameters.offset, expected: "Dss-Parms SEQUENCE or absent parameters")
                }
                let scope = r.descend(to: parameters.encoded, depth: r.depth + 1)
                let sequence = try r.descend(.sequence, "Dss-Parms")
                let p = try r.readInteger("Dss-Parms p"), q = try r.readInteger("Dss-Parms q"), g = try r.readInteger("Dss-Parms g")
                dsaParameters = SubjectPublicKeyLayout.DSAParameters(
                    p: try positive(p, "DSA p"), q: try positive(q, "DSA q"), g: try positive(g, "DSA g"))
                try r.ascend(sequence, "Dss-Parms")
                r.ascend(scope)
            }
            let inner = try r.descend(into: keyElement, "DSAPublicKey")
            let element = try r.readInteger("DSAPublicKey")
            try r.finish("DSAPublicKey")
            let y = try positive(element, "DSA public key")
            r.ascend(inner)
            return (.dsa(parameters: dsaParameters, publicKey: y), false)
        case .ecPublicKey?:
            guard let parameters else {
                throw DERError(.invalidValue, at: parametersStart, expected: "ECParameters namedCurve (RFC 5480 2.1.1)")
            }
            guard _fastPath(parameters.tag == .objectIdentifier) else {
                throw DERError(.unsupported, at: parameters.offset, expected: "namedCurve; explicit or implicit curve parameters are forbidden (RFC 5480 2.1.1)")
            }
            try r.validateObjectIdentifier(parameters, "namedCurve")
            let curveKey = r.withUnsafeBytes(of: parameters.value) { ShortOIDKey($0) }
            guard let curve = curves.first(where: { $0.key == curveKey })?.curve else {
                return (.unsupportedCurve(parameters.value), false)
            }
            let length = curve.coordinateLength
            let validPoint: Bool
            switch keyBytes.isEmpty ? nil : r.withUnsafeBytes(of: keyBytes, { $0[0] }) {
            case 0x04: validPoint = keyBytes.count == 1 + 2 * length
            case 0x02, 0x03: validPoint = keyBytes.count == 1 + length
            default: validPoint = false
            }
            guard _fastPath(validPoint) else {
                throw DERError(.invalidValue, at: keyBytes.lowerBound, expected: "SEC 1 \(curve.rawValue) point (RFC 5480 2.2)")
            }
            return (.ec(curve, point: keyBytes), false)
        case .ed25519?, .ed448?:
            let is25519 = keyAlgorithms[3].key == key
            guard _fastPath(parameters == nil) else {
                throw DERError(.invalidValue, at: parametersStart, expected: "absent parameters for EdDSA keys (RFC 8410 3)")
            }
            guard _fastPath(keyBytes.count == (is25519 ? 32 : 57)) else {
                throw DERError(.invalidValue, at: keyBytes.lowerBound, expected: "\(is25519 ? 32 : 57)-byte EdDSA public key (RFC 8410 4)")
            }
            return (is25519 ? .ed25519(keyBytes) : .ed448(keyBytes), false)
        case nil:
            return (.unsupported(algorithm: oid.value), false)
        }
    }
}

/// Where the parts of a SubjectPublicKeyInfo are, as offsets in the buffer it was read from: what
/// ``SubjectPublicKeyInfo/readLayout(_:)`` finds, kept by ``Certificate`` without holding views.
package struct SubjectPublicKeyLayout: Hashable, Sendable {
    /// Offsets of DSA domain parameters.
    package struct DSAParameters: Hashable, Sendable {
        package let p: Range<Int>, q: Range<Int>, g: Range<Int>

        /// The parameters with views into `bytes`.
        package func materialize(_ bytes: ArraySlice<UInt8>) -> CertPathX509.DSAParameters {
            CertPathX509.DSAParameters(p: bytes[p], q: bytes[q], g: bytes[g])
        }
    }

    /// The decoded key, as offsets (mirrors ``SubjectPublicKey``).
    package enum Key: Hashable, Sendable {
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
    package let der: Range<Int>
    package let key: Key
    package let isRestrictedToRSASSAPSS: Bool

    /// ``SubjectPublicKeyInfo/rsassaPSSParameters``, read again from the validated DER in `bytes`
    /// (the buffer the offsets are indices of). Not kept in the layout: only id-RSASSA-PSS keys have
    /// them, and the layout is copied with every parsed certificate.
    package func rsassaPSSParameters(_ bytes: ArraySlice<UInt8>) -> SignatureAlgorithm? {
        guard isRestrictedToRSASSAPSS else { return nil }
        var reader = DERReader(bytes)
        do throws(DERError) {
            return try reader.within(der, depth: 0) { (r: inout DERReader) throws(DERError) -> SignatureAlgorithm? in
                try r.sequence("SubjectPublicKeyInfo") { (info: inout DERReader) throws(DERError) -> SignatureAlgorithm? in
                    let parameters = try info.sequence("AlgorithmIdentifier") { (a: inout DERReader) throws(DERError) -> SignatureAlgorithm? in
                        _ = try a.readObjectIdentifier("algorithm")
                        guard !a.isAtEnd else { return nil }
                        return try SignatureAlgorithm.readPSSParameters(&a, oid: KnownOID.rsassaPSS, "id-RSASSA-PSS key")
                    }
                    _ = try info.readBitString("subjectPublicKey")
                    return parameters
                }
            }
        } catch {
            return .unsupported(KnownOID.rsassaPSS)  // unreachable: the layout was read from these bytes
        }
    }

    /// The key with views into `bytes` (the buffer the offsets are indices of).
    package func subjectPublicKey(_ bytes: ArraySlice<UInt8>) -> SubjectPublicKey {
        switch key {
        case .rsa(let modulus, let exponent): return .rsa(modulus: bytes[modulus], publicExponent: bytes[exponent])
        case .ec(let curve, let point): return .ec(curve: curve, point: bytes[point])
        case .ed25519(let raw): return .ed25519(bytes[raw])
        case .ed448(let raw): return .ed448(bytes[raw])
        case .dsa(let parameters, let y):
            return .dsa(parameters: parameters.map { $0.materialize(bytes) }, publicKey: bytes[y])
        case .unsupportedCurve(let curve):
            return .unsupported(algorithm: KnownOID.ecPublicKey, curve: OID(validatedEncoding: bytes[curve]))
        case .unsupported(let algorithm):
            return .unsupported(algorithm: OID(validatedEncoding: bytes[algorithm]), curve: nil)
        }
    }

    /// The SubjectPublicKeyInfo with views into `bytes`.
    package func materialize(_ bytes: ArraySlice<UInt8>) -> SubjectPublicKeyInfo {
        SubjectPublicKeyInfo(der: bytes[der], key: subjectPublicKey(bytes), isRestrictedToRSASSAPSS: isRestrictedToRSASSAPSS,
                             rsassaPSSParameters: rsassaPSSParameters(bytes))
    }
}

/// Why a key restricted to RSASSA-PSS (id-RSASSA-PSS, RFC 4055 1.2) may not verify a signature.
public enum RSASSAPSSRefusal: Hashable, Sendable, CustomStringConvertible {
    /// The signature is not an RSASSA-PSS signature (RFC 4055 1.2).
    case notRSASSAPSS
    /// The key's parameters name the hash (and MGF1 hash) `key`; the signature uses `signature` (RFC 4055 3.3).
    case hashMismatch(key: HashAlgorithm, signature: HashAlgorithm)
    /// The key's parameters require a salt of at least `minimum` octets; the signature's is `signature` (RFC 4055 3.3).
    case saltTooShort(minimum: Int, signature: Int)
    /// The key's parameters are ones CertPath does not verify (MGF1 over another hash, another
    /// mask generation function), which every signature must match (RFC 4055 3.3).
    case unsupportedParameters

    /// The refusal in words, with its clause.
    public var description: String {
        switch self {
        case .notRSASSAPSS: return "the issuer's key is restricted to RSASSA-PSS (RFC 4055 1.2)"
        case .hashMismatch(let key, let signature):
            return "the issuer's key is restricted to RSASSA-PSS with \(key.rawValue) and MGF1-\(key.rawValue), "
                + "the signature uses \(signature.rawValue) (RFC 4055 3.3)"
        case .saltTooShort(let minimum, let signature):
            return "the issuer's key requires an RSASSA-PSS salt of at least \(minimum) octets, the signature's is \(signature) (RFC 4055 3.3)"
        case .unsupportedParameters:
            return "the issuer's key is restricted to RSASSA-PSS parameters CertPath does not verify (it verifies SHA-1, "
                + "SHA-224, SHA-256, SHA-384 or SHA-512 with MGF1 of the same hash), which every signature must match (RFC 4055 3.3)"
        }
    }
}
