// Public keys loaded into libcrypto from the components decoded out of a SubjectPublicKeyInfo,
// never by handing the SPKI DER to d2i_PUBKEY: in OpenSSL 3.0 that goes through the decoder
// framework and costs about 70 µs per key, against well under 1 µs (RSA) and about 2 µs (P-256) for
// the legacy constructors used here (measurements in the CertPath design notes).
import CLibCrypto

/// Why a ``PublicKey`` could not be loaded.
public enum PublicKeyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A key type or size CertPath does not verify with (GOST and other algorithms, other curves,
    /// RSA moduli above 16384 bits); the payload describes the key.
    case unsupportedKey(String)
    /// Components that cannot form a valid key: an RSA modulus that is even, or an exponent that is
    /// even, 1, or not below the modulus (RFC 8017 3.1); an EC point that is not on its curve or is
    /// badly encoded (SEC 1 2.3.4); an EdDSA key of the wrong length. The payload says which.
    case invalidKey(String)
    /// libcrypto failed for another reason, such as memory exhaustion; the payload names the call.
    case libcryptoFailure(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .unsupportedKey(let what): return "unsupported public key: \(what)"
        case .invalidKey(let why): return "invalid public key: \(why)"
        case .libcryptoFailure(let call): return "libcrypto failure in \(call)"
        }
    }
}

/// A public key loaded into libcrypto, ready to verify signatures (see
/// ``verify(signature:message:algorithm:)-([UInt8],_,_)``).
///
/// Built from a decoded ``SubjectPublicKey`` (RFC 5280 4.1.2.7; RSA per RFC 8017 A.1.1, EC per
/// RFC 5480 2.2 on P-256/P-384/P-521 and the RFC 5639 Brainpool curves, Ed25519/Ed448 per RFC 8410), with the key's validity checked
/// at load: a bad key is a ``PublicKeyError``, never a crash or a later surprise.
///
/// The object owns its libcrypto key and frees it when released. It is immutable once built and
/// every verification uses its own per-call state, so one instance may be shared by any number of
/// threads verifying at the same time.
public final class PublicKey: @unchecked Sendable, CustomStringConvertible {
    // Sendable: `pkey` and the key it holds are written only in init; libcrypto's verification
    // functions only read them (RSA's lazily built Montgomery context is guarded by the RSA lock).

    /// The kind and size of a loaded key.
    public enum KeyType: Hashable, Sendable {
        /// RSA with a modulus of `bits` bits.
        case rsa(bits: Int)
        /// ECDSA key on a named curve.
        case ec(NamedCurve)
        /// Ed25519 key.
        case ed25519
        /// Ed448 key.
        case ed448
        /// DSA key with a prime `p` of `bits` bits (FIPS 186-4; PKITS and old PKIs).
        case dsa(bits: Int)
    }

    /// The key's type and size.
    public let type: KeyType

    /// For a key loaded from an id-RSASSA-PSS SubjectPublicKeyInfo: what it may verify (RFC 4055
    /// 1.2, 3.3) — RSASSA-PSS signatures only, and with the key's parameters when it has them; any
    /// other signature is ``SignatureVerificationResult/algorithmKeyMismatch``. Set only by
    /// ``init(_:)-(SubjectPublicKeyInfo)``, right after the key is made.
    private(set) var rsassaPSSRestriction: (restricted: Bool, parameters: SignatureAlgorithm?) = (false, nil)

    /// The libcrypto key this object owns (`EVP_PKEY *`), freed in `deinit`.
    let pkey: OpaquePointer
    /// The low-level key inside ``pkey`` that verification uses, borrowed from it.
    let storage: Storage

    enum Storage {
        /// `RSA *` and the modulus length in bytes (the signature length, RFC 8017 8.2.2).
        case rsa(OpaquePointer, modulusBytes: Int)
        /// `EC_KEY *` and its curve.
        case ec(OpaquePointer, NamedCurve)
        /// Ed25519 or Ed448: verified through `EVP_DigestVerify` on ``pkey``.
        case edDSA
        /// `DSA *`.
        case dsa(OpaquePointer)
    }

    private init(type: KeyType, pkey: OpaquePointer, storage: Storage) {
        self.type = type
        self.pkey = pkey
        self.storage = storage
    }

    deinit {
        EVP_PKEY_free(pkey)
    }

    /// Loads the key of a SubjectPublicKeyInfo: its decoded ``SubjectPublicKeyInfo/key``, with the
    /// RFC 4055 restrictions of an id-RSASSA-PSS key (it then verifies only RSASSA-PSS signatures
    /// matching its parameters).
    ///
    /// - Throws: ``PublicKeyError`` as the initializer from a ``SubjectPublicKey`` does.
    public convenience init(_ spki: SubjectPublicKeyInfo) throws(PublicKeyError) {
        try self.init(spki.key)
        if spki.isRestrictedToRSASSAPSS { rsassaPSSRestriction = (true, spki.rsassaPSSParameters) }
    }

    /// Loads a decoded public key into libcrypto.
    ///
    /// Checks made here: RSA modulus odd, at most 16384 bits, exponent odd, at least 3 and below the
    /// modulus and at most 64 bits long (libcrypto's own limit above 3072-bit moduli, applied to every
    /// size: a 2047-bit exponent makes one verification cost a private-key operation, and Go, BoringSSL
    /// and ring refuse exponents above 31 or 33 bits); EC point
    /// in SEC 1 compressed or uncompressed form, of the curve's length, with coordinates below the
    /// field prime and on the curve (every supported curve has cofactor 1, so that is membership of the
    /// group); EdDSA keys of 32 or 57 bytes. Leading zero bytes of RSA components are ignored.
    ///
    /// - Throws: ``PublicKeyError/unsupportedKey(_:)`` for ``SubjectPublicKey/unsupported(algorithm:curve:)``
    ///   and oversized RSA keys, ``PublicKeyError/invalidKey(_:)`` when a check fails,
    ///   ``PublicKeyError/libcryptoFailure(_:)`` when libcrypto cannot allocate.
    public convenience init(_ key: SubjectPublicKey) throws(PublicKeyError) {
        try self.init(key, inheritedDSAParameters: nil)
    }

    /// Loads a decoded public key; a DSA key without domain parameters takes `inheritedDSAParameters`
    /// (the working public key parameters of RFC 5280 6.1.4 (f), RFC 3279 2.3.2).
    ///
    /// - Throws: as ``init(_:)-(SubjectPublicKey)``, and ``PublicKeyError/invalidKey(_:)`` for a DSA key
    ///   with neither its own nor inherited parameters.
    public convenience init(_ key: SubjectPublicKey, inheritedDSAParameters: DSAParameters?) throws(PublicKeyError) {
        switch key {
        case .dsa(let parameters, let y):
            guard let parameters = parameters ?? inheritedDSAParameters else {
                throw .invalidKey("DSA key without domain parameters and none to inherit")
            }
            try self.init(dsa: parameters, y: y)
        case .rsa(let modulus, let exponent):
            try self.init(rsaModulus: modulus, exponent: exponent)
        case .ec(let curve, let point):
            try self.init(curve: curve, point: point)
        case .ed25519(let raw):
            try self.init(edDSA: raw, type: .ed25519, nid: EVP_PKEY_ED25519, length: 32)
        case .ed448(let raw):
            try self.init(edDSA: raw, type: .ed448, nid: EVP_PKEY_ED448, length: 57)
        case .unsupported:
            throw .unsupportedKey(key.summary)
        }
    }

    /// RSA: `RSA_set0_key` on a fresh `RSA`, wrapped with `EVP_PKEY_assign` (about 0.6 µs for
    /// RSA-2048, against 3.6 µs for `EVP_PKEY_fromdata` and 80 µs for `d2i_PUBKEY`).
    private convenience init(rsaModulus: ArraySlice<UInt8>, exponent: ArraySlice<UInt8>) throws(PublicKeyError) {
        let n = rsaModulus.drop(while: { $0 == 0 })
        let e = exponent.drop(while: { $0 == 0 })
        guard let nFirst = n.first, let nLast = n.last else { throw .invalidKey("RSA modulus is zero") }
        let bits = n.count * 8 - nFirst.leadingZeroBitCount
        guard bits <= 16384 else { throw .unsupportedKey("RSA modulus of \(bits) bits (above 16384)") }
        guard nLast & 1 == 1 else { throw .invalidKey("RSA modulus is even") }
        guard let eFirst = e.first, let eLast = e.last else { throw .invalidKey("RSA public exponent is zero") }
        guard eLast & 1 == 1 else { throw .invalidKey("RSA public exponent is even") }
        guard e.count > 1 || eFirst > 1 else { throw .invalidKey("RSA public exponent is 1") }
        guard e.count < n.count || (e.count == n.count && e.lexicographicallyPrecedes(n)) else {
            throw .invalidKey("RSA public exponent is not below the modulus")
        }
        let exponentBits = e.count * 8 - eFirst.leadingZeroBitCount
        guard exponentBits <= 64 else {
            throw .unsupportedKey("RSA-\(bits) with a public exponent of \(exponentBits) bits (above 64)")
        }

        guard let rsa = RSA_new() else { throw .libcryptoFailure("RSA_new") }
        let nBN = n.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        let eBN = e.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        guard let nBN, let eBN, RSA_set0_key(rsa, nBN, eBN, nil) == 1 else {
            BN_free(nBN); BN_free(eBN); RSA_free(rsa)
            LibCrypto.clearErrors()
            throw .libcryptoFailure("RSA_set0_key")
        }
        guard let pkey = EVP_PKEY_new() else {
            RSA_free(rsa)
            throw .libcryptoFailure("EVP_PKEY_new")
        }
        guard EVP_PKEY_assign(pkey, EVP_PKEY_RSA, UnsafeMutableRawPointer(rsa)) == 1 else {
            RSA_free(rsa); EVP_PKEY_free(pkey)
            LibCrypto.clearErrors()
            throw .libcryptoFailure("EVP_PKEY_assign")
        }
        self.init(type: .rsa(bits: bits), pkey: pkey, storage: .rsa(rsa, modulusBytes: n.count))
    }

    /// EC: `EC_KEY_set_group` with the shared curve group, then `EC_KEY_oct2key`, which decodes the
    /// point and checks it is on the curve (about 2 µs for P-256, against 10 µs when the group is
    /// built from its name per key, 16 µs for `EVP_PKEY_fromdata` and 80 µs for `d2i_PUBKEY`).
    private convenience init(curve: NamedCurve, point: ArraySlice<UInt8>) throws(PublicKeyError) {
        let length = curve.coordinateLength
        switch point.first {
        case 0x04 where point.count == 1 + 2 * length: break
        case 0x02 where point.count == 1 + length, 0x03 where point.count == 1 + length: break
        default: throw .invalidKey("\(curve.rawValue) point is not a SEC 1 compressed or uncompressed point of its length")
        }
        guard let group = LibCrypto.shared.group(curve) else { throw .unsupportedKey("curve \(curve.rawValue) missing from libcrypto") }
        guard let ec = EC_KEY_new() else { throw .libcryptoFailure("EC_KEY_new") }
        guard EC_KEY_set_group(ec, group) == 1 else {
            EC_KEY_free(ec)
            LibCrypto.clearErrors()
            throw .libcryptoFailure("EC_KEY_set_group")
        }
        let decoded = point.withUnsafeBufferPointer { EC_KEY_oct2key(ec, $0.baseAddress, $0.count, nil) }
        guard decoded == 1 else {
            EC_KEY_free(ec)
            LibCrypto.clearErrors()
            throw .invalidKey("\(curve.rawValue) point is not on the curve")
        }
        guard let pkey = EVP_PKEY_new() else {
            EC_KEY_free(ec)
            throw .libcryptoFailure("EVP_PKEY_new")
        }
        guard EVP_PKEY_assign(pkey, EVP_PKEY_EC, UnsafeMutableRawPointer(ec)) == 1 else {
            EC_KEY_free(ec); EVP_PKEY_free(pkey)
            LibCrypto.clearErrors()
            throw .libcryptoFailure("EVP_PKEY_assign")
        }
        self.init(type: .ec(curve), pkey: pkey, storage: .ec(ec, curve))
    }

    /// DSA: `DSA_set0_pqg` and `DSA_set0_key` on a fresh `DSA`, wrapped with `EVP_PKEY_assign`.
    private convenience init(dsa parameters: DSAParameters, y: ArraySlice<UInt8>) throws(PublicKeyError) {
        let p = parameters.p.drop(while: { $0 == 0 })
        guard let first = p.first, p.count * 8 - first.leadingZeroBitCount <= 10_000 else {
            throw .invalidKey("DSA prime is zero or above 10000 bits")
        }
        let bits = p.count * 8 - first.leadingZeroBitCount
        guard let dsa = DSA_new() else { throw .libcryptoFailure("DSA_new") }
        func bignum(_ bytes: ArraySlice<UInt8>) -> OpaquePointer? {
            bytes.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        }
        let pBN = bignum(p), qBN = bignum(parameters.q), gBN = bignum(parameters.g)
        guard let pBN, let qBN, let gBN, DSA_set0_pqg(dsa, pBN, qBN, gBN) == 1 else {
            BN_free(pBN); BN_free(qBN); BN_free(gBN); DSA_free(dsa)
            LibCrypto.clearErrors()
            throw .libcryptoFailure("DSA_set0_pqg")
        }
        guard let yBN = bignum(y), DSA_set0_key(dsa, yBN, nil) == 1 else {
            DSA_free(dsa)
            LibCrypto.clearErrors()
            throw .libcryptoFailure("DSA_set0_key")
        }
        guard let pkey = EVP_PKEY_new() else {
            DSA_free(dsa)
            throw .libcryptoFailure("EVP_PKEY_new")
        }
        guard EVP_PKEY_assign(pkey, EVP_PKEY_DSA, UnsafeMutableRawPointer(dsa)) == 1 else {
            DSA_free(dsa); EVP_PKEY_free(pkey)
            LibCrypto.clearErrors()
            throw .libcryptoFailure("EVP_PKEY_assign")
        }
        self.init(type: .dsa(bits: bits), pkey: pkey, storage: .dsa(dsa))
    }

    /// Ed25519 / Ed448: `EVP_PKEY_new_raw_public_key` (about 2 µs, against 50 µs for `d2i_PUBKEY`).
    /// libcrypto decodes the point only when verifying, so a key that is not a valid point loads and
    /// then verifies nothing.
    private convenience init(edDSA raw: ArraySlice<UInt8>, type: KeyType, nid: Int32, length: Int) throws(PublicKeyError) {
        guard raw.count == length else { throw .invalidKey("\(type == .ed25519 ? "Ed25519" : "Ed448") key of \(raw.count) bytes, not \(length)") }
        let pkey = raw.withUnsafeBufferPointer { EVP_PKEY_new_raw_public_key(nid, nil, $0.baseAddress, $0.count) }
        guard let pkey else {
            LibCrypto.clearErrors()
            throw .libcryptoFailure("EVP_PKEY_new_raw_public_key")
        }
        self.init(type: type, pkey: pkey, storage: .edDSA)
    }

    /// `RSA-2048`, `EC P-256`, `Ed25519`, `Ed448`.
    public var description: String {
        switch type {
        case .dsa(let bits): return "DSA-\(bits)"
        case .rsa(let bits): return "RSA-\(bits)"
        case .ec(let curve): return "EC \(curve.rawValue)"
        case .ed25519: return "Ed25519"
        case .ed448: return "Ed448"
        }
    }
}
