// Operations the benchmark package (Benchmarks/Package.swift) times but cannot reach itself: they
// use CertPath's `package` declarations, which are visible inside this package only. A product of
// its own so that nothing else (the CertPath product included) carries it; not supported API.
import CertPath

/// The signature cache hits of one chain evaluation, as the `keys/<chain>/signature-cache-lookups`
/// benchmark scenario times them: for each (certificate, issuer) pair a ``SignatureCache`` key is
/// made from the certificate's signature algorithm, signature and TBSCertificate bytes and the
/// issuer's SubjectPublicKeyInfo, hashed, and looked up (the entry found compared byte for byte).
public struct SignatureCacheLookups: Sendable {
    private let cache = SignatureCache()
    private let pairs: [(certificate: Certificate, issuer: Certificate)]

    /// A cache holding exactly the verifications of `pairs` (as if each had been verified), in order.
    public init(_ pairs: [(certificate: Certificate, issuer: Certificate)]) {
        self.pairs = pairs
        for pair in pairs { cache.insert(Self.key(pair)) }
    }

    /// Looks up every pair's verification once, keys made afresh; whether all were found.
    @inline(never)
    public func run() -> Bool {
        var found = true
        for pair in pairs { found = cache.contains(Self.key(pair)) && found }
        return found
    }

    private static func key(_ pair: (certificate: Certificate, issuer: Certificate)) -> SignatureCache.Key {
        SignatureCache.Key(algorithm: pair.certificate.signatureAlgorithm, spki: pair.issuer.subjectPublicKeyInfo.der,
                           signature: pair.certificate.signature, message: pair.certificate.tbsCertificateBytes)
    }
}
