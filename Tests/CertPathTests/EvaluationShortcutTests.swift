@testable import CertPath
import CertPathDER
import Foundation
import Testing
import TestSupport

/// The shortcuts of the evaluation's hot path give the answers of the long way: key profile
/// refusals read from a certificate's parsed layout, and signature checks answered from the
/// signature cache by the issuer's SPKI bytes.
@Suite("Evaluation shortcuts agree with the long way")
struct EvaluationShortcutTests {
    /// Every certificate at hand: the sample PKI, the committed test vectors and, when installed,
    /// the cryptography-vectors x509 corpus (RSA, EC on several curves, Ed25519, Ed448, DSA with and
    /// without parameters, unsupported algorithms and curves).
    static func corpus() throws -> (certificates: [Certificate], fromCryptographyVectors: Bool) {
        var certificates: [Certificate] = []
        let folders = [TestCertificates.testVectors.appendingPathComponent("sample-pki"),
                       TestCertificates.testVectors.appendingPathComponent("pathbuilding")]
        var cryptography: URL? = nil
        if let folder = CryptographyVectors.folder { cryptography = folder.appendingPathComponent("x509") }
        for folder in folders + [cryptography].compactMap({ $0 }) {
            guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where ["pem", "der", "crt", "cer"].contains(file.pathExtension) {
                guard let data = FileManager.default.contents(atPath: file.path) else { continue }
                certificates.append(contentsOf: (try? PEM.readCertificates([UInt8](data)).certificates) ?? [])
            }
        }
        return (certificates, cryptography != nil)
    }

    static let profiles: [AlgorithmProfile] = [
        .default,
        .permissive,
        AlgorithmProfile(minimumRSAModulusBits: 3072, allowedCurves: [.p384], allowEdDSA: false, allowDSA: false),
        AlgorithmProfile(minimumRSAModulusBits: 512, requireRSAModulusMultipleOf8: true, allowedCurves: [], allowEdDSA: true,
                         allowDSA: true),
    ]

    @Test("Key refusals from the parsed layout equal those from the decoded key, for every key kind and profile")
    func keyRefusalFromLayout() throws {
        let (certificates, complete) = try Self.corpus()
        if !complete { print("note: cryptography-vectors not installed; only the committed certificates are compared") }
        try #require(certificates.count > 20)
        var kinds = Set<String>()
        for certificate in certificates {
            let key = certificate.subjectPublicKey
            kinds.insert(String(key.summary.prefix(while: { $0 != "-" && $0 != " " })))
            for profile in Self.profiles {
                #expect(profile.refusal(ofKeyOf: certificate) == profile.refusal(of: key), "\(certificate)")
            }
            if case .rsa = key {
                #expect(certificate.rsaModulusBits == key.bitLength)
            } else {
                #expect(certificate.rsaModulusBits == nil)
            }
            if case .dsa(let parameters, _) = key {
                #expect(certificate.hasDSAKey)
                #expect(certificate.dsaKeyParameters == parameters)
            } else {
                #expect(!certificate.hasDSAKey && certificate.dsaKeyParameters == nil)
            }
        }
        #expect(kinds.isSuperset(of: ["RSA", "EC", "Ed25519"]))
        if complete { #expect(kinds.isSuperset(of: ["RSA", "EC", "Ed25519", "Ed448", "DSA", "unsupported"]), "\(kinds)") }
    }

    @Test("Extension presence, criticality and values kept at parse time equal a scan of the extensions")
    func extensionMasks() throws {
        let (certificates, _) = try Self.corpus()
        var criticalSeen = 0, unknownCriticalSeen = 0
        for certificate in certificates {
            let records = certificate.extensionRecords
            for known in KnownExtension.allCases {
                let scanned = records.first { $0.known == known }
                #expect(certificate.isCritical(known) == scanned?.isCritical, "\(certificate) \(known)")
                #expect(certificate.value(of: known) == scanned?.value)
                if scanned?.isCritical == true { criticalSeen += 1 }
            }
            let unknownCritical = records.contains { $0.known == nil && $0.isCritical }
            #expect(certificate.hasUnrecognizedCriticalExtension == unknownCritical)
            if unknownCritical { unknownCriticalSeen += 1 }
        }
        #expect(criticalSeen > 10)
        #expect(unknownCriticalSeen > 0)
    }

    /// The sample server certificate with its signature's last octet zeroed (so that a padding bit
    /// may be declared) and `unusedBits` declared in the signatureValue BIT STRING.
    static func server(zeroedLastOctet unusedBits: UInt8) throws -> Certificate {
        let original = SamplePKI.rsaServer
        var der = original.der
        let signature = original.layout.signature
        der[signature.lowerBound - 1] = unusedBits
        der[signature.upperBound - 1] = 0
        return try Certificate(derEncoded: der)
    }

    @Test("A cached success is not returned for a signature that declares padding bits")
    func cacheHitAfterPreChecks() throws {
        let issuer = SamplePKI.rsaIntermediate
        let padded = try Self.server(zeroedLastOctet: 1), whole = try Self.server(zeroedLastOctet: 0)
        #expect(padded.signatureUnusedBits == 1 && whole.signatureUnusedBits == 0)
        #expect(padded.signature == whole.signature && padded.tbsCertificateBytes == whole.tbsCertificateBytes)
        // Poison the cache with these (unverifiable) bytes as if they had been verified.
        let cache = SignatureCache()
        cache.insert(SignatureCache.Key(algorithm: whole.signatureAlgorithm, spki: issuer.subjectPublicKeyInfo.der,
                                        signature: whole.signature, message: whole.tbsCertificateBytes))
        let verifier = SignatureVerifier(keyCache: nil, signatureCache: cache)
        // The cache is consulted (the whole-octet form is answered from it, unverifiable as it is)…
        #expect(verifier.verify(whole, issuer: issuer, inheritedDSAParameters: nil) == .valid)
        // …but padding bits are refused before it is.
        #expect(verifier.verify(padded, issuer: issuer, inheritedDSAParameters: nil) == .invalid)
        #expect(SignatureVerifier(keyCache: nil).verify(whole, issuer: issuer, inheritedDSAParameters: nil) == .invalid)
    }

    @Test("A signature cache hit asks for no key; a miss asks once and stores the success")
    func preloadedKeyAskedOnMissOnly() throws {
        let leaf = SamplePKI.rsaServer, issuer = SamplePKI.rsaIntermediate
        let cache = SignatureCache()
        let verifier = SignatureVerifier(keyCache: nil, signatureCache: cache)
        var asked = 0
        let key = try PublicKey(issuer.subjectPublicKeyInfo)
        for _ in 0..<3 {
            #expect(verifier.verify(leaf, issuer: issuer, inheritedDSAParameters: nil) { asked += 1; return key } == .valid)
        }
        #expect(asked == 1)
        #expect(cache.statistics.hits == 2 && cache.statistics.misses == 1 && cache.statistics.count == 1)
        // A failure asks every time and stores nothing.
        let bad = SamplePKI.badSignature
        for _ in 0..<2 {
            #expect(verifier.verify(bad, issuer: issuer, inheritedDSAParameters: nil) { asked += 1; return key } == .invalid)
        }
        #expect(asked == 3 && cache.statistics.count == 1)
    }

    @Test("A self-signed leaf also sent as an intermediate is reported as self-signed, not trusted")
    func selfSignedLeafAmongIntermediates() throws {
        let leaf = SamplePKI.selfSigned
        let hostname = "selfsigned.customer1.example"
        let result = SamplePKI.server(leaf, intermediates: [leaf], hostname: hostname).evaluate()
        #expect(result.primaryFailure == .selfSignedNotTrusted(leaf))
        #expect(result.report?.failures == [.selfSignedNotTrusted(leaf)])
        let again = try Certificate(derEncoded: leaf.der)
        #expect(SamplePKI.server(leaf, intermediates: [again, leaf], hostname: hostname).evaluate().primaryFailure
                == .selfSignedNotTrusted(leaf))
    }
}

/// Reviewer finding: `--explain` on a cross-signed mesh printed hundreds of thousands of attempts
/// (648 MB of JSON, 2.3 GB of memory); the attempts kept are now bounded.
@Suite("Recorded attempts are bounded")
struct RecordedAttemptsTests {
    @Test("A mesh that makes thousands of attempts keeps the first 100 and counts the rest")
    func meshAttemptsBounded() throws {
        // TestVectors/pathbuilding/full-mesh: six CAs each certified by every other; the leaf is expired,
        // so every path to the root fails and the search tries them all.
        let leaf = try TestCertificates.all("pathbuilding/full-mesh/leaf.pem")[0]
        let intermediates = try TestCertificates.all("pathbuilding/full-mesh/intermediates.pem")
        let root = try TestCertificates.all("pathbuilding/full-mesh/root.pem")[0]
        let policy = try ValidationPolicy.server(hostname: "mesh.test")
        func evaluate(collect: Bool) -> TrustResult {
            TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: TrustStore(anchors: [root]),
                            policy: policy, validationTime: TestCertificates.validationTime, collectAllAttempts: collect).evaluate()
        }
        let plain = evaluate(collect: false)
        let collected = evaluate(collect: true)
        let report = try #require(collected.report)
        #expect(report.attempts.count == TrustEvaluation.recordedAttemptsLimit)
        #expect(collected.statistics.unrecordedAttempts > 0)
        // Collecting changes nothing else: the same verdict, best attempt and work. (Every path
        // validated is charged to the cost budget, issue 30: thousands of them end it.)
        #expect(collected.primaryFailure == .budgetExhausted(.signatureCost))
        #expect(report.bestAttempt.failures.contains(.expired(leaf, notAfter: leaf.notAfter, validationTime: TestCertificates.validationTime)))
        #expect(collected.primaryFailure == plain.primaryFailure)
        #expect(report.bestAttempt.certificates == plain.report?.bestAttempt.certificates)
        #expect(collected.statistics.buildSteps == plain.statistics.buildSteps)
        #expect(plain.statistics.unrecordedAttempts == 0 && plain.report?.attempts.isEmpty == true)
    }
}
