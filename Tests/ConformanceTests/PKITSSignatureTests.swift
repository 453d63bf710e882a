import Foundation
import Testing
import CertPath

/// Issue 2: every PKITS certificate's signature verifies against its issuer along the `path` of
/// `../shared/vectors/pkits.json` (anchor first: each consecutive pair is issuer, subject), through
/// the `Crypto/` layer alone (``PublicKey`` and `verify(signature:message:algorithm:)`), except the
/// links the manifest's `link_checks` mark `signature_valid: false` (4.1.2, 4.1.3, 4.1.6), which must
/// fail. A DSA key without parameters takes the working parameters of the path above it
/// (RFC 5280 6.1.4 (f)). Links whose names do not chain (4.3.1, 4.3.2) are skipped with the reason.
@Suite("PKITS signatures")
struct PKITSSignatureTests {
    struct Manifest: Decodable {
        let tests: [Test]
    }

    struct Test: Decodable {
        let id: String
        let path: [String]
        let link_checks: [LinkCheck]
    }

    struct LinkCheck: Decodable {
        let issuer: String
        let subject: String
        let name_match: Bool
        let signature_valid: Bool
    }

    /// One issuer → subject link, with the path above the issuer (for inherited DSA parameters).
    struct Link: Sendable, CustomTestStringConvertible {
        let testID: String
        /// Files from the anchor down to the issuer.
        let pathToIssuer: [String]
        let subject: String
        let nameMatch: Bool
        let signatureValid: Bool

        var issuer: String { pathToIssuer[pathToIssuer.count - 1] }
        var testDescription: String { "\(testID) \(Self.base(issuer)) -> \(Self.base(subject))" }

        static func base(_ file: String) -> String {
            String(file.split(separator: "/").last!.dropLast(4))  // certs/GoodCACert.crt -> GoodCACert
        }
    }

    static let manifest: Manifest? = {
        guard let shared = TestData.sharedVectors,
              let data = try? Data(contentsOf: shared.appendingPathComponent("pkits.json")) else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }()

    static let certificatesRoot: URL? = TestData.cryptographyVectors?.appendingPathComponent("x509/PKITS_data")

    /// Every distinct link of every path, first occurrence kept.
    static let links: [Link] = {
        var seen = Set<[String]>()
        var links: [Link] = []
        for test in manifest?.tests ?? [] {
            let checks = Dictionary(test.link_checks.map { ("\($0.issuer)>\($0.subject)", $0) }, uniquingKeysWith: { a, _ in a })
            for index in test.path.indices.dropLast() {
                let issuer = test.path[index], subject = test.path[index + 1]
                guard seen.insert([issuer, subject]).inserted else { continue }
                let check = checks["\(Link.base(issuer))>\(Link.base(subject))"]
                links.append(Link(testID: test.id, pathToIssuer: Array(test.path[...index]), subject: subject,
                                  nameMatch: check?.name_match ?? true, signatureValid: check?.signature_valid ?? true))
            }
        }
        return links
    }()

    @Test("The manifest's links are present: 3 bad signatures, 2 broken name chains")
    func coverage() {
        guard Self.manifest != nil else {
            TestData.skip("PKITS signatures", because: "../shared/vectors/pkits.json is not present")
            return
        }
        #expect(Self.links.count > 300)
        #expect(Self.links.filter { !$0.signatureValid }.map(\.testID) == ["4.1.2", "4.1.3", "4.1.6"])
        #expect(Self.links.filter { !$0.nameMatch }.map(\.testID) == ["4.3.1", "4.3.2"])
    }

    /// How each bad signature fails: 4.1.2 and 4.1.3 are altered RSA signatures; 4.1.6's
    /// Dss-Sig-Value is followed by 14 stray bytes inside the signature BIT STRING, so it is not a
    /// strict DER signature at all.
    static let badSignatureOutcome: [String: SignatureVerificationResult] = [
        "4.1.2": .invalidSignature, "4.1.3": .invalidSignature, "4.1.6": .malformedSignature,
    ]

    static func load(_ root: URL, _ file: String) throws -> Certificate {
        try Certificate(derEncoded: TestData.bytes(root.appendingPathComponent(file)))
    }

    @Test(arguments: links)
    func link(_ link: Link) throws {
        guard let root = Self.certificatesRoot else {
            TestData.skip(link.testDescription, because: "cryptography-vectors is not installed")
            return
        }
        // Working DSA parameters (RFC 5280 6.1.4 (f)) from the anchor down to the issuer.
        var working: DSAParameters? = nil
        var issuerKey: SubjectPublicKey? = nil
        for file in link.pathToIssuer {
            let key = try Self.load(root, file).subjectPublicKeyInfo.key
            if case .dsa(let parameters?, _) = key { working = parameters } else if case .dsa = key {} else { working = nil }
            issuerKey = key
        }
        let subject = try Self.load(root, link.subject)
        // PKITS 4.3.1 and 4.3.2 break the name chain by design (the signature is the issuer's):
        // RFC 5280 7.1 must see it, whatever the signature says.
        let issuer = try Self.load(root, try #require(link.pathToIssuer.last))
        #expect(subject.issuer.isEquivalent(to: issuer.subject) == link.nameMatch)
        let key = try PublicKey(try #require(issuerKey), inheritedDSAParameters: working)
        let result = key.verify(signature: subject.signature, message: subject.tbsCertificateBytes, algorithm: subject.signatureAlgorithm)
        if link.signatureValid {
            #expect(result == .verified)
        } else {
            #expect(result == Self.badSignatureOutcome[link.testID])
        }
    }

    @Test("The trust anchor's self-signature verifies with its own key (PublicKey(spki))")
    func anchorSelfSignature() throws {
        guard let root = Self.certificatesRoot else { return }
        let anchor = try Self.load(root, "certs/TrustAnchorRootCertificate.crt")
        let key = try PublicKey(anchor.subjectPublicKeyInfo)
        #expect(key.verify(signature: anchor.signature, message: anchor.tbsCertificateBytes, algorithm: anchor.signatureAlgorithm) == .verified)
        // One bit of the signed bytes flipped: the same key refuses it.
        var altered = Array(anchor.tbsCertificateBytes)
        altered[altered.count - 1] ^= 0x01
        #expect(key.verify(signature: Array(anchor.signature), message: altered, algorithm: anchor.signatureAlgorithm) == .invalidSignature)
    }
}
