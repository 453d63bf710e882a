import CLibCrypto
@testable import CertPath
import CertPathDER
import Testing

/// A signing key made at test time with libcrypto for the algorithms ``TestKey`` does not make:
/// RSA-2048 signing RSASSA-PSS with a given hash (MGF1 with the same hash, salt of the hash's length,
/// RFC 4055 3.1), or ECDSA on a named curve (the Brainpool curves of RFC 5639 among them).
final class AlgorithmTestKey: @unchecked Sendable {
    enum Kind {
        case rsaPSS(HashAlgorithm)
        case ecdsa(curve: NamedCurve, hash: HashAlgorithm)
    }

    let kind: Kind
    private let key: OpaquePointer
    /// The SubjectPublicKeyInfo DER.
    let spki: [UInt8]

    init(_ kind: Kind) {
        self.kind = kind
        switch kind {
        case .rsaPSS:
            let context = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, nil)!
            defer { EVP_PKEY_CTX_free(context) }
            precondition(EVP_PKEY_keygen_init(context) == 1 && EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048) == 1)
            var made: OpaquePointer? = nil
            precondition(EVP_PKEY_keygen(context, &made) == 1)
            let rsa = made!
            key = rsa
            func component(_ name: String) -> [UInt8] {
                var bignum: OpaquePointer? = nil
                precondition(EVP_PKEY_get_bn_param(rsa, name, &bignum) == 1)
                defer { BN_free(bignum) }
                var bytes = [UInt8](repeating: 0, count: (Int(BN_num_bits(bignum)) + 7) / 8)
                _ = BN_bn2bin(bignum, &bytes)
                return D.tlv(.integer, (bytes[0] & 0x80 != 0 ? [0] : []) + bytes)
            }
            spki = D.seq(D.seq(D.oid(KnownOID.rsaEncryption), D.null), D.bits(D.seq(component("n"), component("e"))))
        case .ecdsa(let curve, _):
            let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil)!
            defer { EVP_PKEY_CTX_free(context) }
            precondition(EVP_PKEY_keygen_init(context) == 1)
            precondition(EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, Self.nid(curve)) == 1)
            var made: OpaquePointer? = nil
            precondition(EVP_PKEY_keygen(context, &made) == 1)
            key = made!
            var point: UnsafeMutablePointer<UInt8>? = nil
            let length = EVP_PKEY_get1_encoded_public_key(key, &point)
            precondition(length == 1 + 2 * curve.coordinateLength)
            let bytes = Array(UnsafeBufferPointer(start: point, count: length))
            CRYPTO_free(point, #fileID, #line)
            spki = D.seq(D.seq(D.oid(KnownOID.ecPublicKey), D.oid(curve.oid)), D.bits(bytes))
        }
    }

    deinit { EVP_PKEY_free(key) }

    static func nid(_ curve: NamedCurve) -> Int32 {
        switch curve {
        case .p256: return NID_X9_62_prime256v1
        case .p384: return NID_secp384r1
        case .p521: return NID_secp521r1
        case .brainpoolP256r1: return NID_brainpoolP256r1
        case .brainpoolP384r1: return NID_brainpoolP384r1
        case .brainpoolP512r1: return NID_brainpoolP512r1
        }
    }

    private static func messageDigest(_ hash: HashAlgorithm) -> OpaquePointer {
        switch hash {
        case .sha1: return EVP_sha1()
        case .sha224: return EVP_sha224()
        case .sha256: return EVP_sha256()
        case .sha384: return EVP_sha384()
        case .sha512: return EVP_sha512()
        case .md2, .md5: preconditionFailure("not signed with")
        }
    }

    private static let hashOIDs: [HashAlgorithm: OID] = [.sha224: KnownOID.sha224, .sha256: KnownOID.sha256,
                                                         .sha384: KnownOID.sha384, .sha512: KnownOID.sha512]
    private static let ecdsaOIDs: [HashAlgorithm: OID] = [.sha256: KnownOID.ecdsaWithSHA256, .sha384: KnownOID.ecdsaWithSHA384,
                                                          .sha512: KnownOID.ecdsaWithSHA512]

    /// The AlgorithmIdentifier of this key's signatures: RSASSA-PSS-params as DER writes them (the
    /// DEFAULTs — SHA-1, MGF1-SHA-1, salt 20 — left out, RFC 4055 3.1), or ecdsa-with-SHAn.
    var signatureAlgorithm: [UInt8] {
        switch kind {
        case .rsaPSS(let hash):
            guard hash != .sha1 else { return D.seq(D.oid(KnownOID.rsassaPSS), D.seq()) }
            let hashIdentifier = D.seq(D.oid(Self.hashOIDs[hash]!), D.null)
            return D.seq(D.oid(KnownOID.rsassaPSS), D.seq(
                D.ctx(0, constructed: true, hashIdentifier),
                D.ctx(1, constructed: true, D.seq(D.oid(KnownOID.mgf1), hashIdentifier)),
                D.ctx(2, constructed: true, D.int(Int64(hash.digestLength)))))
        case .ecdsa(_, let hash):
            return D.seq(D.oid(Self.ecdsaOIDs[hash]!))
        }
    }

    /// The signature of `message`.
    func sign(_ message: [UInt8]) -> [UInt8] {
        let context = EVP_MD_CTX_new()!
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer? = nil
        switch kind {
        case .rsaPSS(let hash):
            let md = Self.messageDigest(hash)
            precondition(EVP_DigestSignInit(context, &keyContext, md, nil, key) == 1)
            precondition(EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1)
            precondition(EVP_PKEY_CTX_set_rsa_mgf1_md(keyContext, md) == 1)
            precondition(EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, Int32(hash.digestLength)) == 1)
        case .ecdsa(_, let hash):
            precondition(EVP_DigestSignInit(context, &keyContext, Self.messageDigest(hash), nil, key) == 1)
        }
        return TestKey.digestSign(context, message)
    }

    /// A key identifier for this key (the first 20 bytes of the SPKI's SHA-256).
    var keyIdentifier: [UInt8] { Array(SHA256Digest(hashing: spki).bytes.prefix(20)) }

    /// Issues `spec` for the subject key `subject` (SPKI and key identifier), signed by this key as
    /// the certificate named `issuerName` (`nil`: self-issued, the spec's subject).
    func issue(_ spec: CertificateSpec, subjectSPKI: [UInt8], subjectKeyIdentifier: [UInt8],
               issuerName: [UInt8]? = nil, outerAlgorithm: [UInt8]? = nil) throws -> Certificate {
        let extensions = [D.ext(KnownOID.subjectKeyIdentifier, D.octets(subjectKeyIdentifier)),
                          D.ext(KnownOID.authorityKeyIdentifier, D.seq(D.ctx(0, keyIdentifier)))] + spec.extensions
        let tbs = D.seq(spec.version, spec.serial, spec.innerAlgorithm ?? signatureAlgorithm, issuerName ?? spec.subject,
                        spec.validity, spec.subject, subjectSPKI,
                        D.ctx(3, constructed: true, D.tlv(.sequence, extensions.flatMap { $0 })))
        return try Certificate(derEncoded: D.seq(tbs, outerAlgorithm ?? signatureAlgorithm, D.bits(sign(tbs))))
    }

    /// A self-signed CA certificate for this key.
    func root(_ name: String) throws -> Certificate {
        try issue(.ca(name), subjectSPKI: spki, subjectKeyIdentifier: keyIdentifier)
    }
}

/// Issue 30, class 7: RSASSA-PSS with SHA-1 and SHA-224 (RFC 4055 3.1), accepted where the algorithm
/// profile accepts the hash; the Brainpool curves of RFC 5639 (OIDs of RFC 5639 4.1 / RFC 7027),
/// accepted by the default algorithm profile and refused under the Web PKI (CA/B BR 6.1.5).
@Suite("Signature algorithms and curves (RFC 4055 3.1, RFC 5639, CA/B BR 6.1.5)")
struct AlgorithmCoverageTests {
    static func evaluate(_ leaf: Certificate, intermediates: [Certificate] = [], anchor: Certificate,
                         _ change: (inout ValidationPolicy) -> Void = { _ in }) throws -> TrustResult {
        var policy = try ValidationPolicy.server(hostname: "algorithms.test")
        change(&policy)
        return TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: TrustStore(anchors: [anchor]),
                               policy: policy, validationTime: SignedCertificates.time).evaluate()
    }

    /// A root with `key` and a leaf (Ed25519) it signs.
    static func chain(_ key: AlgorithmTestKey) throws -> (root: Certificate, leaf: Certificate) {
        let root = try key.root("Algorithm Test Root")
        let leafKey = TestKey()
        let leaf = try key.issue(.server("algorithms.test"), subjectSPKI: leafKey.spki, subjectKeyIdentifier: leafKey.keyIdentifier,
                                 issuerName: Array(root.subject.der))
        return (root, leaf)
    }

    @Test("RSASSA-PSS with SHA-1 (the DEFAULT parameters) and SHA-224: refused by the default profile, trusted by the permissive one",
          arguments: [HashAlgorithm.sha1, .sha224])
    func pssWithWeakerHashes(_ hash: HashAlgorithm) throws {
        let (root, leaf) = try Self.chain(AlgorithmTestKey(.rsaPSS(hash)))
        let algorithm = SignatureAlgorithm.rsaPSS(hash: hash, saltLength: hash.digestLength)
        #expect(leaf.signatureAlgorithm == algorithm)
        // The default profile refuses SHA-1 and SHA-224 in every signature scheme, PSS included.
        #expect(try Self.evaluate(leaf, anchor: root).primaryFailure == .disallowedSignatureAlgorithm(leaf, algorithm))
        // The permissive profile (`--algorithms permissive`) accepts them, as it does for PKCS #1 v1.5.
        let permissive = try Self.evaluate(leaf, anchor: root) { $0.algorithms = .permissive }
        #expect(permissive.primaryFailure == nil, "\(String(describing: permissive.primaryFailure))")
        // A profile that adds SHA-224 alone accepts PSS-SHA-224 and still refuses PSS-SHA-1.
        let withSHA224 = try Self.evaluate(leaf, anchor: root) { $0.algorithms.allowedHashes.insert(.sha224) }
        #expect(withSHA224.primaryFailure == (hash == .sha224 ? nil : .disallowedSignatureAlgorithm(leaf, algorithm)))
    }

    @Test("RSASSA-PSS keeps its other restrictions: MGF1 over another hash is unsupported (RFC 4055 3.1)")
    func pssMaskGenerationMustMatch() throws {
        let sha1 = D.seq(D.oid(KnownOID.sha1), D.null)
        let sha224 = D.seq(D.oid(KnownOID.sha224), D.null)
        // hashAlgorithm SHA-224, maskGenAlgorithm MGF1-SHA-1 (the DEFAULT, so absent).
        var builder = CertificateBuilder()
        builder.innerAlgorithm = D.seq(D.oid(KnownOID.rsassaPSS), D.seq(D.ctx(0, constructed: true, sha224), D.ctx(2, constructed: true, D.int(28))))
        #expect(try Certificate(derEncoded: builder.der).signatureAlgorithm == .unsupported(KnownOID.rsassaPSS))
        // SHA-1 written out is an explicit DEFAULT, which DER forbids (X.690 11.5).
        builder.innerAlgorithm = D.seq(D.oid(KnownOID.rsassaPSS), D.seq(D.ctx(0, constructed: true, sha1)))
        expectRejected(builder.der, .explicitDefault, at: nil)
    }

    static let brainpool: [(NamedCurve, HashAlgorithm)] = [(.brainpoolP256r1, .sha256), (.brainpoolP384r1, .sha384), (.brainpoolP512r1, .sha512)]

    @Test("Brainpool keys (RFC 5639) parse, verify and are trusted under the default profile with private anchors", arguments: brainpool)
    func brainpoolTrusted(_ curve: NamedCurve, _ hash: HashAlgorithm) throws {
        let (root, leaf) = try Self.chain(AlgorithmTestKey(.ecdsa(curve: curve, hash: hash)))
        guard case .ec(let parsedCurve, _) = root.subjectPublicKey else {
            Issue.record("not an EC key: \(root.subjectPublicKey.summary)")
            return
        }
        #expect(parsedCurve == curve && root.subjectPublicKey.summary == "EC \(curve.rawValue)")
        #expect(root.subjectPublicKey.bitLength == curve.coordinateLength * 8)
        let result = try Self.evaluate(leaf, anchor: root)
        #expect(result.primaryFailure == nil, "\(String(describing: result.primaryFailure))")
        // The signature is checked: a leaf signed by another Brainpool key of the same curve is not trusted.
        let (_, stranger) = try Self.chain(AlgorithmTestKey(.ecdsa(curve: curve, hash: hash)))
        #expect(try Self.evaluate(stranger, anchor: root).primaryFailure?.code == "badSignature")
    }

    @Test("Brainpool keys are refused under the Web PKI (CA/B BR 6.1.5) and where the profile leaves the curve out", arguments: brainpool)
    func brainpoolRefusedInTheWebPKI(_ curve: NamedCurve, _ hash: HashAlgorithm) throws {
        // A P-256 root, a Brainpool intermediate, an Ed25519 leaf.
        let rootKey = AlgorithmTestKey(.ecdsa(curve: .p256, hash: .sha256))
        let root = try rootKey.root("Algorithm Test Root")
        let caKey = AlgorithmTestKey(.ecdsa(curve: curve, hash: hash))
        let intermediate = try rootKey.issue(.ca("Brainpool CA"), subjectSPKI: caKey.spki, subjectKeyIdentifier: caKey.keyIdentifier,
                                             issuerName: Array(root.subject.der))
        let leafKey = TestKey()
        let leaf = try caKey.issue(.server("algorithms.test"), subjectSPKI: leafKey.spki, subjectKeyIdentifier: leafKey.keyIdentifier,
                                   issuerName: Array(intermediate.subject.der))
        let trusted = try Self.evaluate(leaf, intermediates: [intermediate], anchor: root)
        #expect(trusted.primaryFailure == nil, "\(String(describing: trusted.primaryFailure))")
        let webPKI = try Self.evaluate(leaf, intermediates: [intermediate], anchor: root) { $0.profile = .webPKI }
        #expect(webPKI.primaryFailure == .weakKey(intermediate, key: .curveNotAllowedInWebPKI(curve)))
        let nistOnly = try Self.evaluate(leaf, intermediates: [intermediate], anchor: root) { $0.algorithms.allowedCurves = [.p256, .p384, .p521] }
        #expect(nistOnly.primaryFailure == .weakKey(intermediate, key: .curveNotAllowed(curve)))
        // A Brainpool anchor is refused under the Web PKI too.
        let (brainpoolRoot, brainpoolLeaf) = try Self.chain(caKey)
        #expect(try Self.evaluate(brainpoolLeaf, anchor: brainpoolRoot) { $0.profile = .webPKI }.primaryFailure
            == .weakKey(brainpoolRoot, key: .curveNotAllowedInWebPKI(curve)))
    }

    @Test("The Brainpool OIDs are those of RFC 5639 4.1")
    func brainpoolOIDs() {
        #expect(NamedCurve.brainpoolP256r1.oid == "1.3.36.3.3.2.8.1.1.7")
        #expect(NamedCurve.brainpoolP384r1.oid == "1.3.36.3.3.2.8.1.1.11")
        #expect(NamedCurve.brainpoolP512r1.oid == "1.3.36.3.3.2.8.1.1.13")
        #expect(NamedCurve.allCases.filter(\.isBrainpool) == [.brainpoolP256r1, .brainpoolP384r1, .brainpoolP512r1])
    }
}
