import CBenchSupport
import CertPath

/// Decoy issuers (issue 19): a peer sends 99 certificates with the real intermediate's subject,
/// issuer and subjectKeyIdentifier (so neither names nor key identifiers tell them apart) and a
/// newer notBefore (so they rank first), each with a different valid public key and a placeholder
/// signature, then the real intermediate. Every decoy's key must be tried against the leaf's
/// signature before the real one; without limits that is 99 verifications (70 ms for P-384).
enum Decoys {
    /// A key kind for decoys: SPKI DER made fresh for each decoy, against the chain whose leaf
    /// signature it must be tried on (a key of another kind would be refused without arithmetic).
    struct Kind {
        let name: String
        let what: String
        let spki: () -> [UInt8]
    }

    static func ec(_ curve: String) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = cbs_ec_spki(curve, &buffer, buffer.count)
        precondition(length > 0, "libcrypto made no \(curve) key")
        return Array(buffer[..<length])
    }

    /// An RSA key of 2048 bits whose public exponent is 2047 bits long: libcrypto accepts public
    /// exponents up to the modulus size for moduli up to 3072 bits, and verifying with one costs a
    /// full exponentiation (a private-key operation without CRT). Modulus and exponent need not
    /// belong to a key pair: verification only computes s^e mod n.
    static func rsaLargeExponent(_ seed: inout UInt64) -> [UInt8] {
        func random(_ count: Int) -> [UInt8] {
            (0..<count).map { _ in
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: seed >> 33)
            }
        }
        var modulus = random(256)
        modulus[0] |= 0xC0
        modulus[255] |= 0x01
        var exponent = random(256)
        exponent[0] = 0x7F  // 2047 bits, below the modulus
        exponent[255] |= 0x01
        let t = HostileCertificate.tlv
        let key = t(0x30, t(0x02, [0x00] + modulus) + t(0x02, exponent))
        return t(0x30, t(0x30, t(0x06, [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]) + [0x05, 0x00]) + t(0x03, [0x00] + key))
    }

    /// ecdsa-with-SHA256 and sha256WithRSAEncryption AlgorithmIdentifiers.
    static let ecdsaWithSHA256: [UInt8] = [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]
    static let sha256WithRSA: [UInt8] = [0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B, 0x05, 0x00]

    /// `count` decoys of `real`: its names and subjectKeyIdentifier, notBefore a year later, keys
    /// from `spki`, a placeholder signature under `algorithm` (an AlgorithmIdentifier's DER).
    static func certificates(like real: Certificate, count: Int, algorithm: [UInt8], spki: () -> [UInt8]) throws -> [Certificate] {
        let t = HostileCertificate.tlv
        let ski = Array(real.subjectKeyIdentifier ?? [])
        let validity = t(0x30, t(0x17, Array("260101000000Z".utf8)) + t(0x17, Array("450101000000Z".utf8)))
        let extensions = t(0x30, t(0x06, [0x55, 0x1D, 0x0E]) + t(0x04, t(0x04, ski)))
            + t(0x30, t(0x06, [0x55, 0x1D, 0x13]) + [0x01, 0x01, 0xFF] + t(0x04, t(0x30, [0x01, 0x01, 0xFF])))
            + t(0x30, t(0x06, [0x55, 0x1D, 0x0F]) + [0x01, 0x01, 0xFF] + t(0x04, t(0x03, [0x01, 0x06])))
        return try (0..<count).map { index in
            let serial = t(0x02, [0x40, UInt8(index >> 8), UInt8(index & 0xFF)])
            let tbs = t(0x30, t(0xA0, t(0x02, [0x02])) + serial + algorithm + Array(real.issuer.der) + validity
                + Array(real.subject.der) + spki() + t(0xA3, t(0x30, extensions)))
            let signature = t(0x03, [0x00] + t(0x30, t(0x02, [0x01]) + t(0x02, [0x01])))
            return try Certificate(derEncoded: t(0x30, tbs + algorithm + signature))
        }
    }
}

/// A hostile pair for the name-constraint budget: an intermediate claiming the bench root as its
/// issuer (placeholder signature) with `subtrees` permitted dNSName subtrees, and a leaf it signed
/// (a real ECDSA signature, so the path is entered and validated against the anchor) with `names`
/// DNS subjectAltNames, each within only the last subtree: every (name, subtree) pair is compared.
enum HostileNameConstraints {
    static func chain(issuer root: Certificate, subtrees: Int, names: Int) throws -> (leaf: [UInt8], intermediate: [UInt8]) {
        let t = HostileCertificate.tlv
        var spki = [UInt8](repeating: 0, count: 256)
        var spkiLength = 0
        guard let key = cbs_ec_keypair("prime256v1", &spki, spki.count, &spkiLength) else { fatalError("no P-256 key") }
        defer { cbs_key_free(key) }
        let algorithm = Decoys.ecdsaWithSHA256
        let validity = t(0x30, t(0x17, Array("250101000000Z".utf8)) + t(0x17, Array("450101000000Z".utf8)))
        let hostileName = t(0x30, t(0x31, t(0x30, t(0x06, [0x55, 0x04, 0x03]) + t(0x0C, Array("Hostile CA".utf8)))))
        let permitted = (0..<subtrees).flatMap { t(0x30, t(0x82, Array("s\($0).hostile.example".utf8))) }
        let nameConstraints = t(0x30, t(0x06, [0x55, 0x1D, 0x1E]) + [0x01, 0x01, 0xFF] + t(0x04, t(0x30, t(0xA0, permitted))))
        let caExtensions = t(0x30, t(0x06, [0x55, 0x1D, 0x13]) + [0x01, 0x01, 0xFF] + t(0x04, t(0x30, [0x01, 0x01, 0xFF])))
            + t(0x30, t(0x06, [0x55, 0x1D, 0x0F]) + [0x01, 0x01, 0xFF] + t(0x04, t(0x03, [0x01, 0x06]))) + nameConstraints
        let intermediateTBS = t(0x30, t(0xA0, t(0x02, [0x02])) + t(0x02, [0x51]) + algorithm + Array(root.subject.der) + validity
            + hostileName + Array(spki[..<spkiLength]) + t(0xA3, t(0x30, caExtensions)))
        let placeholder = t(0x03, [0x00] + t(0x30, t(0x02, [0x01]) + t(0x02, [0x01])))
        let intermediate = t(0x30, intermediateTBS + algorithm + placeholder)

        var leafSPKI = [UInt8](repeating: 0, count: 256)
        var leafSPKILength = 0
        guard let leafKey = cbs_ec_keypair("prime256v1", &leafSPKI, leafSPKI.count, &leafSPKILength) else { fatalError("no P-256 key") }
        cbs_key_free(leafKey)
        let last = subtrees - 1
        let sans = (0..<names).flatMap { t(0x82, Array("h\($0).s\(last).hostile.example".utf8)) }
        let leafExtensions = t(0x30, t(0x06, [0x55, 0x1D, 0x11]) + t(0x04, t(0x30, sans)))
        let leafName = t(0x30, t(0x31, t(0x30, t(0x06, [0x55, 0x04, 0x03]) + t(0x0C, Array("h0.s\(last).hostile.example".utf8)))))
        let leafTBS = t(0x30, t(0xA0, t(0x02, [0x02])) + t(0x02, [0x52]) + algorithm + hostileName + validity + leafName
            + Array(leafSPKI[..<leafSPKILength]) + t(0xA3, t(0x30, leafExtensions)))
        var signature = [UInt8](repeating: 0, count: 80)
        let signatureLength = cbs_sign_sha256(key, leafTBS, leafTBS.count, &signature, signature.count)
        guard signatureLength > 0 else { fatalError("signing failed") }
        let leaf = t(0x30, leafTBS + algorithm + t(0x03, [0x00] + signature[..<signatureLength]))
        return (leaf, intermediate)
    }
}
