// The floor a chain evaluation is compared with: its two signature checks done straight through
// libcrypto's EVP_DigestVerify with keys loaded beforehand (d2i_PUBKEY, outside the timing), over
// the same signed bytes, signatures and keys as the evaluation. The libcrypto calls live in
// CBenchSupport (cbs_verify_sha256): the benchmark package cannot import CertPath's CLibCrypto.
import CBenchSupport
import CertPath

/// Two (or more) certificate signature checks through `EVP_DigestVerify`.
final class SignatureFloor: @unchecked Sendable {
    // Sendable: the keys and bytes are written only in init; EVP_DigestVerify only reads the keys.
    private struct Check {
        let key: UnsafeMutableRawPointer
        let signature: [UInt8]
        let message: [UInt8]
    }

    private let checks: [Check]

    /// One check per (certificate, issuer) pair: the certificate's signature over its
    /// TBSCertificate with the issuer's SubjectPublicKeyInfo. Every certificate here is signed with
    /// SHA-256 (sha256WithRSAEncryption or ecdsa-with-SHA256).
    init(_ pairs: [(certificate: Certificate, issuer: Certificate)]) {
        checks = pairs.map { pair in
            let spki = Array(pair.issuer.subjectPublicKeyInfo.der)
            guard let raw = spki.withUnsafeBufferPointer({ cbs_load_public_key($0.baseAddress, $0.count) }) else {
                fatalError("d2i_PUBKEY refused the key of \(pair.issuer.subject)")
            }
            return Check(key: raw, signature: Array(pair.certificate.signature),
                         message: Array(pair.certificate.tbsCertificateBytes))
        }
        precondition(run(), "floor signatures do not verify")
    }

    deinit {
        for check in checks { cbs_key_free(check.key) }
    }

    /// Verifies every signature once: a fresh `EVP_MD_CTX`, `EVP_DigestVerifyInit` with SHA-256,
    /// `EVP_DigestVerify`, free. Returns whether all verified.
    @inline(never)
    func run() -> Bool {
        var ok = true
        for check in checks {
            let verified = check.signature.withUnsafeBufferPointer { signature in
                check.message.withUnsafeBufferPointer { message in
                    cbs_verify_sha256(check.key, signature.baseAddress, signature.count, message.baseAddress, message.count) == 1
                }
            }
            ok = ok && verified
        }
        return ok
    }
}

/// The same checks through CertPath's own `PublicKey.verify` (low-level libcrypto primitives), with
/// keys loaded beforehand: shows what the library's signature layer itself costs.
final class PrimitiveFloor: Sendable {
    private struct Check {
        let key: PublicKey
        let certificate: Certificate
    }

    private let checks: [Check]

    init(_ pairs: [(certificate: Certificate, issuer: Certificate)]) {
        checks = pairs.map { pair in
            Check(key: try! PublicKey(pair.issuer.subjectPublicKeyInfo), certificate: pair.certificate)
        }
        precondition(run(), "primitive signatures do not verify")
    }

    @inline(never)
    func run() -> Bool {
        var ok = true
        for check in checks {
            let c = check.certificate
            ok = ok && check.key.verify(signature: c.signature, message: c.tbsCertificateBytes, algorithm: c.signatureAlgorithm) == .verified
        }
        return ok
    }
}
