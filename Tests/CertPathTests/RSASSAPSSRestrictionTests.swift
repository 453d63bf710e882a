@testable import CertPath
import Testing

/// RFC 4055: an id-RSASSA-PSS key verifies only RSASSA-PSS signatures (1.2); one that carries
/// RSASSA-PSS-params only signatures with its hash and mask generation function and a salt at least
/// as long (3.3). Vectors: `TestVectors/pss-restricted` (see its generate.py); OpenSSL 3 agrees on
/// every one (`openssl verify -partial_chain -CAfile root.pem -untrusted <ca> <leaf>`). A reviewer
/// found the parameters ignored: a SHA-256 signature by a key restricted to SHA-384 was trusted.
@Suite("RSASSA-PSS key restrictions (RFC 4055 1.2, 3.3)")
struct RSASSAPSSRestrictionTests {
    static func vector(_ file: String) throws -> Certificate {
        try TestCertificates.all("pss-restricted/" + file)[0]
    }

    static let wrongAlgorithm = "the issuer's key is restricted to RSASSA-PSS (RFC 4055 1.2)"
    static let unsupportedParameters = "the issuer's key is restricted to RSASSA-PSS parameters CertPath does not verify (it verifies "
        + "SHA-1, SHA-224, SHA-256, SHA-384 or SHA-512 with MGF1 of the same hash), which every signature must match (RFC 4055 3.3)"

    /// The cases and their verdicts: `TestVectors/pss-restricted/expectations.txt`, written by its
    /// generate.py from RFC 4055's rules (each leaf under its CA and the root, server pss.test).
    static let cases = TestCertificates.expectations("pss-restricted")

    /// How the refusal of the CA's key reads, by case (the code, `unusablePublicKey`, is the file's).
    static let refusals: [String: String] = [
        "sha384-48/pss-sha384-32": "the issuer's key requires an RSASSA-PSS salt of at least 48 octets, the signature's is 32 (RFC 4055 3.3)",
        "sha384-48/pss-sha256-32": "the issuer's key is restricted to RSASSA-PSS with sha384 and MGF1-sha384, the signature uses sha256 (RFC 4055 3.3)",
        "sha384-48/pkcs1-sha256": wrongAlgorithm,
        "any/pkcs1-sha256": wrongAlgorithm,
        // Empty RSASSA-PSS-params: SHA-1, MGF1-SHA-1, salt 20 (the DEFAULTs of RFC 4055 3.1), which
        // every signature must match (3.3); none of these leaves does.
        "sha1/pss-sha384-48": "the issuer's key is restricted to RSASSA-PSS with sha1 and MGF1-sha1, the signature uses sha384 (RFC 4055 3.3)",
        "sha1/pss-sha384-64": "the issuer's key is restricted to RSASSA-PSS with sha1 and MGF1-sha1, the signature uses sha384 (RFC 4055 3.3)",
        "sha1/pss-sha384-32": "the issuer's key is restricted to RSASSA-PSS with sha1 and MGF1-sha1, the signature uses sha384 (RFC 4055 3.3)",
        "sha1/pss-sha256-32": "the issuer's key is restricted to RSASSA-PSS with sha1 and MGF1-sha1, the signature uses sha256 (RFC 4055 3.3)",
        "sha1/pkcs1-sha256": wrongAlgorithm,
    ]

    @Test("The expectations file lists every leaf the generator makes")
    func everyLeafHasAnExpectation() {
        #expect(Self.cases.count == 15)
        #expect(Set(Self.cases.filter { $0.verdict == "untrusted" }.map(\.id)) == Set(Self.refusals.keys))
    }

    @Test("Signatures by restricted keys", arguments: cases)
    func restriction(_ expectation: TestCertificates.Expectation) throws {
        let leaf = try Self.vector(expectation.leaf), intermediate = try Self.vector(expectation.intermediates[0])
        for verifier in [SignatureVerifier(keyCache: nil), SignatureVerifier(signatureCache: SignatureCache())] {
            for _ in 0..<2 {  // the second time from the caches
                let result = TrustEvaluation(leaf: leaf, intermediates: [intermediate], trustStore: TrustStore(anchors: [try Self.vector("root.pem")]),
                                             policy: try .server(hostname: "pss.test"), validationTime: TestCertificates.validationTime,
                                             signatureVerifier: verifier).evaluate()
                if expectation.verdict == "untrusted" {
                    #expect(result.primaryFailure?.code == expectation.failureCodes.first)
                    if let refusal = Self.refusals[expectation.id] {
                        guard case .unusablePublicKey(let certificate, .rsassaPSSRestriction(let found))? = result.primaryFailure else {
                            Issue.record("expected unusablePublicKey, got \(String(describing: result.primaryFailure))")
                            continue
                        }
                        #expect(certificate == leaf && found.description == refusal)
                    }
                } else {
                    #expect(result.primaryFailure == nil, "\(String(describing: result.primaryFailure))")
                }
            }
        }
    }

    /// Reviewer finding: the public `SignatureCache.verify(…, spki:, key:)` and `PublicKey(spki)`
    /// ignored the restriction (only `SignatureVerifier` applied it).
    @Test("PublicKey(spki) and SignatureCache.verify(spki:) apply the key's restrictions")
    func restrictionsInTheCryptoLayer() throws {
        let ca = try Self.vector("ca-sha384-48.pem"), spki = try Self.vector("ca-sha384-48.pem").subjectPublicKeyInfo
        let pkcs1 = try Self.vector("leaf-sha384-48-pkcs1-sha256.pem"), pss = try Self.vector("leaf-sha384-48-pss-sha384-48.pem")
        let shortSalt = try Self.vector("leaf-sha384-48-pss-sha384-32.pem")
        let restricted = try PublicKey(spki), plain = try PublicKey(spki.key)
        func verify(_ key: PublicKey, _ leaf: Certificate) -> SignatureVerificationResult {
            key.verify(signature: leaf.signature, message: leaf.tbsCertificateBytes, algorithm: leaf.signatureAlgorithm)
        }
        #expect(verify(restricted, pkcs1) == .algorithmKeyMismatch)
        #expect(verify(restricted, shortSalt) == .algorithmKeyMismatch)
        #expect(verify(restricted, pss) == .verified)
        // The bare RSA key (no SPKI, so no restriction) verifies the PKCS #1 signature: the refusal is the SPKI's.
        #expect(verify(plain, pkcs1) == .verified)
        let cache = SignatureCache()
        for _ in 0..<2 {
            let result = try cache.verify(signature: pkcs1.signature, message: pkcs1.tbsCertificateBytes, algorithm: pkcs1.signatureAlgorithm,
                                          spki: spki) { () throws(PublicKeyError) in plain }
            #expect(result == .algorithmKeyMismatch)
        }
        #expect(cache.statistics.count == 0)
        #expect(ca.subjectPublicKeyInfo.isRestrictedToRSASSAPSS)
        // A trust store loads its anchors' keys the same way: a restricted anchor key stays restricted.
        let anchorKey = try #require(TrustStore(anchors: [ca]).storage.anchorKeys.key(for: ca))
        #expect(verify(anchorKey, pkcs1) == .algorithmKeyMismatch)
        #expect(verify(anchorKey, pss) == .verified)
    }

    @Test("The key's parameters are read from its SubjectPublicKeyInfo")
    func parametersParsed() throws {
        #expect(try Self.vector("ca-sha384-48.pem").subjectPublicKeyInfo.rsassaPSSParameters == .rsaPSS(hash: .sha384, saltLength: 48))
        #expect(try Self.vector("ca-any.pem").subjectPublicKeyInfo.rsassaPSSParameters == nil)
        #expect(try Self.vector("ca-any.pem").subjectPublicKeyInfo.isRestrictedToRSASSAPSS)
        // Empty RSASSA-PSS-params are the DEFAULTs: SHA-1, MGF1-SHA-1, salt 20 (RFC 4055 3.1).
        #expect(try Self.vector("ca-sha1.pem").subjectPublicKeyInfo.rsassaPSSParameters == .rsaPSS(hash: .sha1, saltLength: 20))
        #expect(try Self.vector("root.pem").subjectPublicKeyInfo.rsassaPSSParameters == nil)
    }

    /// Parameters CertPath does not verify (MGF1 over another hash than the message's, RFC 4055 3.1
    /// "SHOULD be the same") still restrict the key to nothing it verifies.
    @Test("A key restricted to parameters CertPath does not verify verifies no signature")
    func unsupportedKeyParameters() {
        let refusal = SubjectPublicKeyInfo.refusal(of: .rsaPSS(hash: .sha256, saltLength: 32), restrictedToRSASSAPSS: true,
                                                   parameters: .unsupported(KnownOID.rsassaPSS))
        #expect(refusal == .unsupportedParameters)
        #expect(refusal?.description == Self.unsupportedParameters)
    }
}
