import CLibCrypto
import CertPath
import CertPathDER

/// A key pair made at test time with libcrypto, for certificates whose signatures verify: Ed25519
/// (fast) or ECDSA P-256 with SHA-256.
final class TestKey: @unchecked Sendable {
    enum Kind { case ed25519, p256 }
    let kind: Kind
    private let key: OpaquePointer
    /// The SubjectPublicKeyInfo DER.
    let spki: [UInt8]

    /// - Parameter published: the SubjectPublicKeyInfo certificates issued to this key carry instead of
    ///   its own (a key it cannot sign for: for issuers whose key is never used, such as decoys).
    init(_ kind: Kind = .ed25519, publishing published: [UInt8]? = nil) {
        self.kind = kind
        let context = EVP_PKEY_CTX_new_id(kind == .ed25519 ? EVP_PKEY_ED25519 : EVP_PKEY_EC, nil)!
        defer { EVP_PKEY_CTX_free(context) }
        precondition(EVP_PKEY_keygen_init(context) == 1)
        if kind == .p256 { precondition(EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1) }
        var made: OpaquePointer? = nil
        precondition(EVP_PKEY_keygen(context, &made) == 1)
        key = made!
        switch kind {
        case .ed25519:
            var length = 32
            var raw = [UInt8](repeating: 0, count: 32)
            precondition(EVP_PKEY_get_raw_public_key(key, &raw, &length) == 1)
            spki = published ?? D.seq(D.seq(D.oid("1.3.101.112")), D.bits(raw))
        case .p256:
            var point: UnsafeMutablePointer<UInt8>? = nil
            let length = EVP_PKEY_get1_encoded_public_key(key, &point)
            precondition(length == 65)
            let bytes = Array(UnsafeBufferPointer(start: point, count: length))
            CRYPTO_free(point, #fileID, #line)
            spki = published ?? D.seq(D.seq(D.oid(KnownOID.ecPublicKey), D.oid(KnownOID.secp256r1)), D.bits(bytes))
        }
    }

    deinit { EVP_PKEY_free(key) }

    /// The AlgorithmIdentifier of this key's signatures.
    var signatureAlgorithm: [UInt8] { kind == .ed25519 ? D.seq(D.oid("1.3.101.112")) : D.ecdsaSHA256 }

    /// The signature of `message`.
    func sign(_ message: [UInt8]) -> [UInt8] {
        let context = EVP_MD_CTX_new()!
        defer { EVP_MD_CTX_free(context) }
        precondition(EVP_DigestSignInit(context, nil, kind == .ed25519 ? nil : EVP_sha256(), nil, key) == 1)
        return Self.digestSign(context, message)
    }

    /// The signature of `message` with a signing context already initialized (its length asked
    /// first, then the bytes).
    static func digestSign(_ context: OpaquePointer, _ message: [UInt8]) -> [UInt8] {
        var length = 0
        precondition(EVP_DigestSign(context, nil, &length, message, message.count) == 1)
        var signature = [UInt8](repeating: 0, count: length)
        precondition(EVP_DigestSign(context, &signature, &length, message, message.count) == 1)
        return Array(signature.prefix(length))
    }

    /// A key identifier for this key (the first 20 bytes of the SPKI's SHA-256).
    var keyIdentifier: [UInt8] { Array(SHA256Digest(hashing: spki).bytes.prefix(20)) }
}

/// A certificate to issue: every part raw DER or a field to change, so a test can break any rule.
/// The defaults make a conforming certificate (RFC 5280 section 4 and the CA/B BRs) once
/// ``SignedCertificates/issue(_:subjectKey:issuer:)`` adds the key identifiers.
struct CertificateSpec {
    var version: [UInt8] = D.ctx(0, constructed: true, D.int(2))
    var serial: [UInt8] = D.tlv(.integer, [0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x01])
    /// tbsCertificate.signature; `nil`: the issuer key's algorithm.
    var innerAlgorithm: [UInt8]? = nil
    var subject: [UInt8]
    /// `nil`: the issuer's subject (or this subject for a self-signed certificate).
    var issuer: [UInt8]? = nil
    var validity: [UInt8] = D.utcValidity
    var uniqueIDs: [UInt8] = []
    /// Extensions; the subjectKeyIdentifier and authorityKeyIdentifier are added in front unless
    /// `keyIdentifiers` is false.
    var extensions: [[UInt8]]
    var keyIdentifiers = true
    /// Whether to encode the extensions (a v1 certificate has none unless a test wants them).
    var hasExtensions = true

    /// A CA certificate: basicConstraints cA (critical, with `pathLength`), keyUsage keyCertSign and cRLSign (critical).
    static func ca(_ name: String, pathLength: Int64? = nil, extra: [[UInt8]] = []) -> CertificateSpec {
        let basic = pathLength.map { D.seq(D.bool(true), D.int($0)) } ?? D.seq(D.bool(true))
        return CertificateSpec(subject: D.cn(name), extensions: [
            D.ext(KnownOID.basicConstraints, critical: true, basic),
            D.ext(KnownOID.keyUsage, critical: true, D.bits([0x06], unused: 1)),
        ] + extra)
    }

    /// A TLS server certificate for `host`: commonName and subjectAltName `host`, keyUsage
    /// digitalSignature (critical), extKeyUsage serverAuth.
    static func server(_ host: String, extra: [[UInt8]] = []) -> CertificateSpec {
        CertificateSpec(subject: D.cn(host), extensions: [
            D.ext(KnownOID.keyUsage, critical: true, D.bits([0x80], unused: 7)),
            D.ext(KnownOID.extKeyUsage, D.seq(D.oid(KnownOID.serverAuth))),
            D.ext(KnownOID.subjectAltName, D.seq(D.ctx(2, Array(host.utf8)))),
        ] + extra)
    }
}

/// Issues certificates with real signatures.
enum SignedCertificates {
    /// An issuer: its certificate and key.
    struct Issuer {
        let certificate: Certificate
        let key: TestKey
        let spec: CertificateSpec
    }

    /// Issues `spec` for `subjectKey`, signed by `issuer` (self-signed when `nil`).
    static func issue(_ spec: CertificateSpec, subjectKey: TestKey, issuer: Issuer? = nil) throws -> Certificate {
        let signer = issuer?.key ?? subjectKey
        var extensions = spec.extensions
        if spec.keyIdentifiers {
            var identifiers = [D.ext(KnownOID.subjectKeyIdentifier, D.octets(subjectKey.keyIdentifier))]
            identifiers.append(D.ext(KnownOID.authorityKeyIdentifier, D.seq(D.ctx(0, signer.keyIdentifier))))
            extensions = identifiers + extensions
        }
        let extensionField = spec.hasExtensions && !extensions.isEmpty
            ? D.ctx(3, constructed: true, D.tlv(.sequence, extensions.flatMap { $0 })) : []
        let issuerName = spec.issuer ?? issuer.map { Array($0.certificate.subject.der) } ?? spec.subject
        let tbs = D.seq(spec.version, spec.serial, spec.innerAlgorithm ?? signer.signatureAlgorithm, issuerName, spec.validity,
                        spec.subject, subjectKey.spki, spec.uniqueIDs, extensionField)
        return try Certificate(derEncoded: D.seq(tbs, signer.signatureAlgorithm, D.bits(signer.sign(tbs))))
    }

    /// A self-signed root.
    static func root(_ spec: CertificateSpec = .ca("Test Root"), key: TestKey = TestKey()) throws -> Issuer {
        Issuer(certificate: try issue(spec, subjectKey: key), key: key, spec: spec)
    }

    /// A CA issued by `issuer`.
    static func intermediate(_ spec: CertificateSpec, by issuer: Issuer, key: TestKey = TestKey()) throws -> Issuer {
        Issuer(certificate: try issue(spec, subjectKey: key, issuer: issuer), key: key, spec: spec)
    }

    /// The validation time inside ``CertificateSpec``'s default validity.
    static let time = UnixTime(year: 2030, month: 1, day: 1)!
}
