// Signature verification (RFC 5280 6.1.3 (a)(1)) with a loaded PublicKey. The message is hashed with
// libcrypto's low-level digest functions and the signature checked with the low-level RSA and ECDSA
// primitives, which measured faster than EVP_DigestVerify in OpenSSL 3.0 (no per-call method
// fetch, no provider key export). EdDSA has no low-level interface and goes through EVP.
import CLibCrypto

/// The outcome of a signature verification. Every outcome except ``verified`` means the signature
/// must not be trusted; the cases say why, so a caller can report it.
public enum SignatureVerificationResult: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// The signature is valid for the message under the key and algorithm.
    case verified
    /// The signature is well formed but does not verify: wrong key, altered message or signature,
    /// a PSS salt of another length, an ECDSA `r` or `s` outside `[1, n-1]`.
    case invalidSignature
    /// The algorithm cannot be used with the key's type: an ECDSA algorithm with an RSA key,
    /// RSASSA-PSS with an EC key, Ed25519 with an Ed448 or EC key, and so on; or with the key's
    /// RFC 4055 restrictions (an id-RSASSA-PSS key given PKCS #1 v1.5 or other RSASSA-PSS parameters).
    case algorithmKeyMismatch
    /// CertPath does not verify this algorithm: ``SignatureAlgorithm/unsupported(_:)``, MD2 or MD5
    /// hashes, a negative PSS salt length.
    case unsupportedAlgorithm
    /// The signature is not encoded as the algorithm requires: an RSA signature whose length is not
    /// the modulus length (RFC 8017 8.1.2, 8.2.2), an ECDSA signature that is not a strict DER
    /// `ECDSA-Sig-Value` of two positive INTEGERs (RFC 5480 2.2, RFC 3279 2.2.3), an EdDSA
    /// signature of the wrong length (RFC 8032 5.1.7, 5.2.7).
    case malformedSignature

    /// Whether the signature verified.
    public var isVerified: Bool { self == .verified }

    /// `verified`, `invalid signature`, `algorithm does not match key`, `unsupported algorithm`,
    /// `malformed signature`.
    public var description: String {
        switch self {
        case .verified: return "verified"
        case .invalidSignature: return "invalid signature"
        case .algorithmKeyMismatch: return "algorithm does not match key"
        case .unsupportedAlgorithm: return "unsupported algorithm"
        case .malformedSignature: return "malformed signature"
        }
    }
}

extension PublicKey {
    /// Verifies `signature` over `message` with this key (RFC 5280 6.1.3 (a)(1)).
    ///
    /// Algorithms: RSASSA-PKCS1-v1_5 with SHA-1, SHA-224, SHA-256, SHA-384 or SHA-512
    /// (RFC 8017 8.2); RSASSA-PSS with one of those hashes, MGF1 with the same hash and exactly
    /// `saltLength` bytes of salt, trailer 0xBC (RFC 8017 8.1, RFC 4055 3.1); ECDSA with those
    /// hashes on P-256, P-384, P-521 or brainpoolP256r1/P384r1/P512r1 (RFC 5758 3.2, FIPS 186-4 6.4, RFC 5639); Ed25519 and Ed448
    /// (RFC 8032 5.1.7, 5.2.7; RFC 8410 6). Whether SHA-1 or a given key size is *acceptable* is
    /// left to the caller's policy.
    ///
    /// Thread-safe: any number of threads may verify with one key at once.
    ///
    /// - Parameters:
    ///   - signature: the signature bytes: for a certificate, the contents of its signatureValue
    ///     BIT STRING; for ECDSA, the DER `ECDSA-Sig-Value`.
    ///   - message: the signed bytes: for a certificate, its DER `tbsCertificate`.
    ///   - algorithm: the signature algorithm, decoded from its AlgorithmIdentifier.
    /// - Returns: the outcome; malformed input is a result, never a crash.
    public func verify(signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer, algorithm: SignatureAlgorithm) -> SignatureVerificationResult {
        if rsassaPSSRestriction.restricted,
           SubjectPublicKeyInfo.refusal(of: algorithm, restrictedToRSASSAPSS: true, parameters: rsassaPSSRestriction.parameters) != nil {
            return .algorithmKeyMismatch  // RFC 4055 1.2, 3.3
        }
        switch algorithm {
        case .unsupported:
            return .unsupportedAlgorithm
        case .rsaPKCS1v15(let hash):
            guard let nid = hash.nid else { return .unsupportedAlgorithm }
            guard case .rsa(let rsa, let modulusBytes) = storage else { return .algorithmKeyMismatch }
            guard signature.count == modulusBytes else { return .malformedSignature }
            return Self.withDigest(hash, of: message) { digest, length in
                let ok = RSA_verify(nid, digest, UInt32(length), signature.nonNullBytes, UInt32(signature.count), rsa)
                return Self.outcome(ok == 1)
            }
        case .rsaPSS(let hash, let saltLength):
            guard let md = LibCrypto.shared.messageDigest(hash), saltLength >= 0 else { return .unsupportedAlgorithm }
            guard case .rsa(let rsa, let modulusBytes) = storage else { return .algorithmKeyMismatch }
            guard signature.count == modulusBytes else { return .malformedSignature }
            guard saltLength <= modulusBytes else { return .invalidSignature }
            return Self.verifyPSS(rsa: rsa, modulusBytes: modulusBytes, md: md, hash: hash, saltLength: saltLength, signature: signature, message: message)
        case .ecdsa(let hash):
            guard hash.nid != nil else { return .unsupportedAlgorithm }
            guard case .ec(let ec, let curve) = storage else { return .algorithmKeyMismatch }
            guard let (r, s) = ECDSASignature.parse(signature) else { return .malformedSignature }
            // An integer longer than the group order cannot be below it: no need to load it.
            guard r.count <= curve.coordinateLength, s.count <= curve.coordinateLength else { return .invalidSignature }
            return Self.verifyECDSA(ec: ec, hash: hash, r: r, s: s, message: message)
        case .ed25519:
            guard type == .ed25519 else { return .algorithmKeyMismatch }
            guard signature.count == 64 else { return .malformedSignature }
            return verifyEdDSA(signature: signature, message: message)
        case .ed448:
            guard type == .ed448 else { return .algorithmKeyMismatch }
            guard signature.count == 114 else { return .malformedSignature }
            return verifyEdDSA(signature: signature, message: message)
        case .dsa(let hash):
            guard hash.nid != nil else { return .unsupportedAlgorithm }
            guard case .dsa(let dsa) = storage else { return .algorithmKeyMismatch }
            // Dss-Sig-Value has the syntax of ECDSA-Sig-Value (RFC 3279 2.2.2).
            guard let (r, s) = ECDSASignature.parse(signature) else { return .malformedSignature }
            return Self.verifyDSA(dsa: dsa, hash: hash, r: r, s: s, message: message)
        }
    }

    /// DSA verification (FIPS 186-4 4.7) of an already parsed signature.
    private static func verifyDSA(
        dsa: OpaquePointer, hash: HashAlgorithm, r: UnsafeRawBufferPointer, s: UnsafeRawBufferPointer,
        message: UnsafeRawBufferPointer
    ) -> SignatureVerificationResult {
        guard let sig = DSA_SIG_new() else { return outcome(false) }
        defer { DSA_SIG_free(sig) }
        let rBN = BN_bin2bn(r.nonNullBytes, Int32(r.count), nil)
        let sBN = BN_bin2bn(s.nonNullBytes, Int32(s.count), nil)
        guard let rBN, let sBN, DSA_SIG_set0(sig, rBN, sBN) == 1 else {
            BN_free(rBN); BN_free(sBN)
            return outcome(false)
        }
        return withDigest(hash, of: message) { digest, length in
            outcome(DSA_do_verify(digest, Int32(length), sig, dsa) == 1)
        }
    }

    /// Verifies `signature` over `message`; see the `UnsafeRawBufferPointer` form.
    public func verify(signature: ArraySlice<UInt8>, message: ArraySlice<UInt8>, algorithm: SignatureAlgorithm) -> SignatureVerificationResult {
        signature.withUnsafeBytes { s in
            message.withUnsafeBytes { m in verify(signature: s, message: m, algorithm: algorithm) }
        }
    }

    /// Verifies `signature` over `message`; see the `UnsafeRawBufferPointer` form.
    public func verify(signature: [UInt8], message: [UInt8], algorithm: SignatureAlgorithm) -> SignatureVerificationResult {
        signature.withUnsafeBytes { s in
            message.withUnsafeBytes { m in verify(signature: s, message: m, algorithm: algorithm) }
        }
    }

    @inline(__always)
    private static func outcome(_ verified: Bool) -> SignatureVerificationResult {
        if verified { return .verified }
        LibCrypto.clearErrors()
        return .invalidSignature
    }

    /// Hashes `message` into a stack buffer and calls `body` with the digest.
    @inline(__always)
    private static func withDigest(
        _ hash: HashAlgorithm, of message: UnsafeRawBufferPointer,
        _ body: (UnsafePointer<UInt8>, Int) -> SignatureVerificationResult
    ) -> SignatureVerificationResult {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: MessageDigest.maximumLength) { buffer in
            let out = buffer.baseAddress!
            guard let length = MessageDigest.compute(hash, of: message, into: out) else { return .unsupportedAlgorithm }
            return body(out, length)
        }
    }

    /// RSASSA-PSS-VERIFY (RFC 8017 8.1.2): RSAVP1 without padding, then EMSA-PSS-VERIFY with the
    /// salt length required to be exactly `saltLength`.
    private static func verifyPSS(
        rsa: OpaquePointer, modulusBytes: Int, md: OpaquePointer, hash: HashAlgorithm, saltLength: Int,
        signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer
    ) -> SignatureVerificationResult {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: modulusBytes) { em in
            let recovered = RSA_public_decrypt(Int32(signature.count), signature.nonNullBytes, em.baseAddress!, rsa, RSA_NO_PADDING)
            guard recovered == modulusBytes else { return outcome(false) }
            return withDigest(hash, of: message) { digest, _ in
                outcome(RSA_verify_PKCS1_PSS_mgf1(rsa, digest, md, md, em.baseAddress!, Int32(saltLength)) == 1)
            }
        }
    }

    /// ECDSA verification (FIPS 186-4 6.4) of an already parsed signature.
    private static func verifyECDSA(
        ec: OpaquePointer, hash: HashAlgorithm, r: UnsafeRawBufferPointer, s: UnsafeRawBufferPointer,
        message: UnsafeRawBufferPointer
    ) -> SignatureVerificationResult {
        guard let sig = ECDSA_SIG_new() else { return outcome(false) }
        defer { ECDSA_SIG_free(sig) }
        let rBN = BN_bin2bn(r.nonNullBytes, Int32(r.count), nil)
        let sBN = BN_bin2bn(s.nonNullBytes, Int32(s.count), nil)
        guard let rBN, let sBN, ECDSA_SIG_set0(sig, rBN, sBN) == 1 else {
            BN_free(rBN); BN_free(sBN)
            return outcome(false)
        }
        return withDigest(hash, of: message) { digest, length in
            outcome(ECDSA_do_verify(digest, Int32(length), sig, ec) == 1)
        }
    }

    /// PureEdDSA verification through `EVP_DigestVerify`, with a per-call context.
    private func verifyEdDSA(signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) -> SignatureVerificationResult {
        guard let context = EVP_MD_CTX_new() else { return Self.outcome(false) }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, pkey) == 1 else { return Self.outcome(false) }
        let ok = EVP_DigestVerify(context, signature.nonNullBytes, signature.count, message.nonNullBytes, message.count)
        return Self.outcome(ok == 1)
    }
}

/// The DER `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }` (RFC 3279 2.2.3, RFC 5480 2.2),
/// read strictly: definite minimal lengths, minimal positive INTEGERs, nothing after the SEQUENCE.
/// libcrypto's own reader accepts some BER; this one decides what is malformed.
enum ECDSASignature {
    /// Returns the magnitudes of `r` and `s` (big-endian, the sign octet dropped), or `nil` for any
    /// encoding that is not strict DER of two non-negative INTEGERs.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> (r: UnsafeRawBufferPointer, s: UnsafeRawBufferPointer)? {
        var position = 0
        guard let sequence = readElement(bytes, at: &position, tag: 0x30), position == bytes.count else { return nil }
        var inner = sequence.lowerBound
        guard let r = readElement(bytes, at: &inner, tag: 0x02),
              let s = readElement(bytes, at: &inner, tag: 0x02),
              inner == sequence.upperBound,
              let rMagnitude = magnitude(bytes, r), let sMagnitude = magnitude(bytes, s) else { return nil }
        return (UnsafeRawBufferPointer(rebasing: bytes[rMagnitude]), UnsafeRawBufferPointer(rebasing: bytes[sMagnitude]))
    }

    /// Reads one element with a one-byte `tag` and a definite, minimally encoded length of at most
    /// two octets, returning the range of its contents.
    private static func readElement(_ bytes: UnsafeRawBufferPointer, at position: inout Int, tag: UInt8) -> Range<Int>? {
        var p = position
        guard p + 2 <= bytes.count, bytes[p] == tag else { return nil }
        let first = Int(bytes[p + 1])
        p += 2
        var length: Int
        switch first {
        case 0..<0x80:
            length = first
        case 0x81:
            guard p < bytes.count, bytes[p] >= 0x80 else { return nil }
            length = Int(bytes[p])
            p += 1
        case 0x82:
            guard p + 1 < bytes.count, bytes[p] != 0 else { return nil }
            length = Int(bytes[p]) << 8 | Int(bytes[p + 1])
            p += 2
        default:
            return nil
        }
        guard length <= bytes.count - p else { return nil }
        position = p + length
        return p..<(p + length)
    }

    /// The magnitude of a non-negative, minimally encoded INTEGER (X.690 8.3.2), without its
    /// leading sign octet; `nil` for an empty, negative or non-minimal encoding.
    private static func magnitude(_ bytes: UnsafeRawBufferPointer, _ contents: Range<Int>) -> Range<Int>? {
        guard let first = contents.first else { return nil }
        if bytes[first] & 0x80 != 0 { return nil }
        guard bytes[first] == 0, contents.count > 1 else { return contents }
        guard bytes[first + 1] & 0x80 != 0 else { return nil }
        return (first + 1)..<contents.upperBound
    }
}
