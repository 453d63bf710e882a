// The libcrypto objects CertPath fetches once and shares for the life of the process, and the small
// helpers every call into libcrypto uses. This folder is the only place that imports CLibCrypto.
import CLibCrypto

/// Process-wide libcrypto objects, created on first use (Swift globals are initialized once,
/// thread-safely) and never freed. They are only read afterwards, which libcrypto allows from any
/// thread.
struct LibCrypto: @unchecked Sendable {
    /// Message digests fetched from the default provider (`EVP_MD_fetch`), so RSASSA-PSS does not
    /// fetch one on every call. `nil` only if the provider lacks the algorithm.
    let sha1, sha224, sha256, sha384, sha512: OpaquePointer?
    /// The curve groups keys are built on: each EC key copies one (`EC_KEY_set_group`), which costs
    /// far less than building the group from its name for every key.
    let p256, p384, p521: OpaquePointer?
    /// The Brainpool groups of RFC 5639 (`nil` if the provider lacks them).
    let brainpoolP256r1, brainpoolP384r1, brainpoolP512r1: OpaquePointer?

    static let shared = LibCrypto()

    private init() {
        sha1 = EVP_MD_fetch(nil, "SHA1", nil)
        sha224 = EVP_MD_fetch(nil, "SHA224", nil)
        sha256 = EVP_MD_fetch(nil, "SHA256", nil)
        sha384 = EVP_MD_fetch(nil, "SHA384", nil)
        sha512 = EVP_MD_fetch(nil, "SHA512", nil)
        p256 = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1)
        p384 = EC_GROUP_new_by_curve_name(NID_secp384r1)
        p521 = EC_GROUP_new_by_curve_name(NID_secp521r1)
        brainpoolP256r1 = EC_GROUP_new_by_curve_name(NID_brainpoolP256r1)
        brainpoolP384r1 = EC_GROUP_new_by_curve_name(NID_brainpoolP384r1)
        brainpoolP512r1 = EC_GROUP_new_by_curve_name(NID_brainpoolP512r1)
        ERR_clear_error()
    }

    /// The fetched `EVP_MD` for a hash, `nil` for MD2/MD5 (never used for verification).
    func messageDigest(_ hash: HashAlgorithm) -> OpaquePointer? {
        switch hash {
        case .sha1: return sha1
        case .sha224: return sha224
        case .sha256: return sha256
        case .sha384: return sha384
        case .sha512: return sha512
        case .md2, .md5: return nil
        }
    }

    /// The shared group of a named curve.
    func group(_ curve: NamedCurve) -> OpaquePointer? {
        switch curve {
        case .p256: return p256
        case .p384: return p384
        case .p521: return p521
        case .brainpoolP256r1: return brainpoolP256r1
        case .brainpoolP384r1: return brainpoolP384r1
        case .brainpoolP512r1: return brainpoolP512r1
        }
    }

    /// Empties this thread's libcrypto error queue after a failed call, so failures do not pile up
    /// in it (the queue is per thread and bounded, but stale entries confuse later diagnostics).
    @inline(__always)
    static func clearErrors() {
        ERR_clear_error()
    }
}

extension HashAlgorithm {
    /// The libcrypto NID of the hash (for `RSA_verify`), `nil` for MD2/MD5.
    var nid: Int32? {
        switch self {
        case .sha1: return NID_sha1
        case .sha224: return NID_sha224
        case .sha256: return NID_sha256
        case .sha384: return NID_sha384
        case .sha512: return NID_sha512
        case .md2, .md5: return nil
        }
    }
}

/// One byte that a pointer can be taken to: libcrypto is never handed a null pointer for an empty
/// input, whatever the function's own rules for `(NULL, 0)`.
nonisolated(unsafe) private let emptyInputByte = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

extension UnsafeRawBufferPointer {
    /// The first byte's address, or a valid dummy address when the buffer is empty.
    @inline(__always)
    var nonNullBytes: UnsafePointer<UInt8> {
        guard let base = baseAddress else { return UnsafePointer(emptyInputByte) }
        return base.assumingMemoryBound(to: UInt8.self)
    }
}
