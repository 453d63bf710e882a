/// What one signature verification is estimated to cost, in cost units of about one microsecond on
/// the project's reference machine (an AMD EPYC core, OpenSSL 3.0; `openssl speed` and the
/// benchmark's `keys/` scenarios measure it). ``Budget/signatureCost`` spends these units, so the
/// whole verification work of an evaluation is bounded in time, not only in count: a hundred
/// P-384 checks take about 70 ms where a hundred RSA-2048 checks take 2 ms.
///
/// The estimate is read from the verifying key's SubjectPublicKeyInfo before any key is loaded
/// (the key's load, libcrypto's per-key setup and the verification), plus the hashing of the
/// signed bytes:
///
/// | key | units |
/// |---|--:|
/// | RSA, modulus `n` bits, exponent `e` bits | 22 × (n / 2048)² × max(1, e / 17) |
/// | ECDSA P-256 / P-384 / P-521 | 70 / 800 / 650 |
/// | Ed25519 / Ed448 | 110 / 250 |
/// | DSA, prime `p` bits, subprime `q` bits (inherited parameters: as DSA-3072) | 210 × (p / 2048)² × max(1, q / 256) |
/// | a key or algorithm that cannot verify (an RSA exponent above 64 bits, a modulus above 16,384) | 1 |
/// | signed bytes (the TBSCertificate) | 1 per KiB |
///
/// Measured here (`openssl speed`, one verification): RSA-2048 17 µs, RSA-4096 66, RSA-7680 219,
/// RSA-15360 861; P-256 60, P-384 675–790, P-521 543–690; Ed25519 108, Ed448 236; DSA-2048 207. An
/// RSA verification's exponentiation grows with the exponent's length; exponents above 64 bits are
/// refused when the key is loaded (``PublicKey``), so they cost nothing here.
public enum SignatureCost {
    /// The estimate for verifying a signature over `messageLength` signed bytes with `key`; at least 1.
    ///
    /// - Parameters:
    ///   - key: the verifying key (an issuer's SubjectPublicKeyInfo).
    ///   - messageLength: the signed bytes' length in bytes (0: hashing not counted).
    /// - Returns: cost units (about microseconds on the reference machine).
    public static func estimate(for key: SubjectPublicKeyInfo, messageLength: Int) -> Int {
        let shape: Shape
        switch key.key {
        case .rsa(let modulus, let exponent): shape = .rsa(modulusBits: bits(modulus), exponentBits: bits(exponent))
        case .ec(let curve, _): shape = .ec(curve)
        case .ed25519: shape = .ed25519
        case .ed448: shape = .ed448
        case .dsa(let parameters, _): shape = .dsa(parameters.map { (bits($0.p), bits($0.q)) })
        case .unsupported: shape = .unusable
        }
        return units(shape, messageLength: messageLength)
    }

    /// ``estimate(for:messageLength:)`` from a parsed certificate's key layout (offsets into
    /// `bytes`, the certificate's DER), with no view of the key made.
    static func estimate(_ key: SubjectPublicKeyLayout.Key, in bytes: ArraySlice<UInt8>, messageLength: Int) -> Int {
        units(shape(key, in: bytes), messageLength: messageLength)
    }

    /// ``estimate(_:in:messageLength:)``, and whether `key` cannot verify any signature: an RSA
    /// modulus above 16,384 bits or public exponent above 64 bits (refused when loaded,
    /// ``PublicKey``), an unsupported curve or algorithm. Such a key's estimate is the least (1 unit:
    /// no arithmetic), so the issuer ranking asks this first: it is never a better candidate than
    /// a key that can verify. The key's layout is read once for both.
    static func assess(_ key: SubjectPublicKeyLayout.Key, in bytes: ArraySlice<UInt8>, messageLength: Int)
        -> (units: Int, cannotVerify: Bool) {
        let shape = shape(key, in: bytes)
        let cannotVerify: Bool
        switch shape {
        case .rsa(let modulusBits, let exponentBits): cannotVerify = !rsaLoads(modulusBits: modulusBits, exponentBits: exponentBits)
        case .unusable: cannotVerify = true
        case .ec, .ed25519, .ed448, .dsa: cannotVerify = false
        }
        return (units(shape, messageLength: messageLength), cannotVerify)
    }

    /// What the estimate of `key` depends on, read from its layout.
    private static func shape(_ key: SubjectPublicKeyLayout.Key, in bytes: ArraySlice<UInt8>) -> Shape {
        switch key {
        case .rsa(let modulus, let exponent): return .rsa(modulusBits: bits(bytes[modulus]), exponentBits: bits(bytes[exponent]))
        case .ec(let curve, _): return .ec(curve)
        case .ed25519: return .ed25519
        case .ed448: return .ed448
        case .dsa(let parameters, _): return .dsa(parameters.map { (bits(bytes[$0.p]), bits(bytes[$0.q])) })
        case .unsupportedCurve, .unsupported: return .unusable
        }
    }

    /// Whether an RSA key of these sizes loads (``PublicKey``: a modulus of at most 16,384 bits, a
    /// public exponent of at most 64).
    private static func rsaLoads(modulusBits: Int, exponentBits: Int) -> Bool { modulusBits <= 16384 && exponentBits <= 64 }

    /// What the estimate depends on.
    private enum Shape {
        case rsa(modulusBits: Int, exponentBits: Int)
        case ec(NamedCurve)
        case ed25519, ed448
        /// `nil`: parameters inherited from the issuer's key.
        case dsa((p: Int, q: Int)?)
        case unusable
    }

    private static func units(_ shape: Shape, messageLength: Int) -> Int {
        let hashing = max(0, messageLength) / 1024
        switch shape {
        case .rsa(let modulusBits, let exponentBits):
            // Keys the load refuses cost no arithmetic.
            guard rsaLoads(modulusBits: modulusBits, exponentBits: exponentBits) else { return 1 }
            return 22 * square(modulusBits) / square(2048) * max(17, exponentBits) / 17 + 1 + hashing
        case .ec(let curve):
            switch curve {
            case .p256: return 70 + hashing
            case .p384: return 800 + hashing
            case .p521: return 650 + hashing
            // No dedicated implementation in libcrypto: generic prime-field arithmetic (measured with
            // `openssl speed ecdsa` against P-256 and P-384 on the same machine).
            case .brainpoolP256r1: return 420 + hashing
            case .brainpoolP384r1: return 870 + hashing
            case .brainpoolP512r1: return 1250 + hashing
            }
        case .ed25519: return 110 + hashing
        case .ed448: return 250 + hashing
        case .dsa(let parameters):
            // Parameters inherited from the issuer's key: estimated as DSA-3072.
            guard let (p, q) = parameters else { return 473 + hashing }
            return 210 * square(p) / square(2048) * max(256, q) / 256 + 1 + hashing
        case .unusable:
            return 1
        }
    }

    private static func square(_ value: Int) -> Int { value * value }

    /// The bit length of an unsigned big-endian integer (leading zero octets skipped), at most
    /// 32,768 (longer values are refused when the key is loaded; the estimate stays far from overflow).
    private static func bits(_ integer: ArraySlice<UInt8>) -> Int {
        guard let first = integer.firstIndex(where: { $0 != 0 }) else { return 0 }
        return min((integer.endIndex - first) * 8 - integer[first].leadingZeroBitCount, 1 << 15)
    }
}
