import CertPath
import Foundation
import Testing

/// The committed vectors of TestVectors/signatures (made once by its generate.sh).
enum CryptoTestVectors {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestVectors/signatures")

    static func bytes(_ name: String) throws -> [UInt8] {
        let url = directory.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return Array(data)
    }

    static func spki(_ key: String) throws -> SubjectPublicKeyInfo {
        try SubjectPublicKeyInfo(derEncoded: try bytes("\(key).spki.der"))
    }

    static func key(_ key: String) throws -> PublicKey {
        try PublicKey(try spki(key))
    }

    static func message() throws -> [UInt8] { try bytes("message.bin") }

    /// One valid signature of message.bin.
    struct Case: Sendable, CustomTestStringConvertible {
        let key: String
        let signature: String
        let algorithm: SignatureAlgorithm
        var testDescription: String { signature }
    }

    /// The cases of `expectations.txt`, written by generate.sh (signature, key, algorithm, result):
    /// every signature there verifies. An unreadable or malformed file gives no cases, and
    /// `expectationsAreRead` fails.
    static let cases: [Case] = {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent("expectations.txt").path),
              let text = String(data: data, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let columns = line.split(separator: "\t").map(String.init)
            guard columns.count == 4, columns[3] == "verified", columns[1].hasSuffix(".spki.der"),
                  let algorithm = algorithm(columns[2]) else { return nil }
            return Case(key: String(columns[1].dropLast(".spki.der".count)), signature: columns[0], algorithm: algorithm)
        }
    }()

    /// `pkcs1-HASH`, `pss-HASH-SALT`, `ecdsa-HASH`, `ed25519`, `ed448` (generate.sh's names).
    static func algorithm(_ text: String) -> SignatureAlgorithm? {
        let parts = text.split(separator: "-").map(String.init)
        switch (parts.first, parts.count) {
        case ("ed25519", 1): return .ed25519
        case ("ed448", 1): return .ed448
        case ("pkcs1", 2): return HashAlgorithm(rawValue: parts[1]).map { .rsaPKCS1v15($0) }
        case ("ecdsa", 2): return HashAlgorithm(rawValue: parts[1]).map { .ecdsa($0) }
        case ("pss", 3):
            guard let hash = HashAlgorithm(rawValue: parts[1]), let salt = Int(parts[2]) else { return nil }
            return .rsaPSS(hash: hash, saltLength: salt)
        default: return nil
        }
    }

    static func flippingBit(_ bytes: [UInt8], at index: Int, bit: UInt8 = 0x01) -> [UInt8] {
        var copy = bytes
        copy[index] ^= bit
        return copy
    }

    /// DER INTEGER contents of the r and s of an ECDSA-Sig-Value with short-form lengths.
    static func ecdsaIntegers(_ signature: [UInt8]) -> (r: [UInt8], s: [UInt8]) {
        precondition(signature[0] == 0x30 && signature[1] < 0x80 && signature[2] == 0x02)
        let rLength = Int(signature[3])
        let r = Array(signature[4..<(4 + rLength)])
        precondition(signature[4 + rLength] == 0x02)
        let sLength = Int(signature[5 + rLength])
        let s = Array(signature[(6 + rLength)..<(6 + rLength + sLength)])
        return (r, s)
    }

    static func derInteger(_ contents: [UInt8]) -> [UInt8] { [0x02, UInt8(contents.count)] + contents }
    static func derSequence(_ contents: [UInt8]) -> [UInt8] { [0x30, UInt8(contents.count)] + contents }
}

@Suite("Crypto: signature verification")
struct CryptoVerificationTests {
    typealias V = CryptoTestVectors

    @Test("expectations.txt is read: one case per signature generate.sh makes")
    func expectationsAreRead() throws {
        let text = try String(contentsOf: V.directory.appendingPathComponent("expectations.txt"), encoding: .utf8)
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(V.cases.count == lines.count, "every line parses")
        #expect(V.cases.count == 12)
    }

    @Test("a valid signature verifies", arguments: V.cases)
    func validSignatureVerifies(_ c: V.Case) throws {
        let key = try V.key(c.key)
        let result = key.verify(signature: try V.bytes(c.signature), message: try V.message(), algorithm: c.algorithm)
        #expect(result == .verified)
        #expect(result.isVerified)
    }

    @Test("a signature with one bit flipped is an invalid signature", arguments: V.cases)
    func flippedSignatureFails(_ c: V.Case) throws {
        let key = try V.key(c.key)
        let signature = try V.bytes(c.signature)
        // The last byte: inside the RSA value, ECDSA's s (the DER structure stays intact) or EdDSA's S.
        let flipped = V.flippingBit(signature, at: signature.count - 1)
        #expect(key.verify(signature: flipped, message: try V.message(), algorithm: c.algorithm) == .invalidSignature)
        // And a bit in the middle.
        let middle = V.flippingBit(signature, at: signature.count / 2, bit: 0x10)
        #expect(key.verify(signature: middle, message: try V.message(), algorithm: c.algorithm) == .invalidSignature)
    }

    @Test("a message with one bit flipped fails", arguments: V.cases)
    func flippedMessageFails(_ c: V.Case) throws {
        let key = try V.key(c.key)
        let message = try V.message()
        for index in [0, message.count / 2, message.count - 1] {
            let altered = V.flippingBit(message, at: index, bit: 0x80)
            #expect(key.verify(signature: try V.bytes(c.signature), message: altered, algorithm: c.algorithm) == .invalidSignature)
        }
    }

    @Test("slices and raw buffers give the same outcome as arrays")
    func sliceForms() throws {
        let key = try V.key("p256")
        let padded = [0xAA] + (try V.message()) + [0xBB]
        let signature = [0x00] + (try V.bytes("p256-sha256.sig"))
        #expect(key.verify(signature: signature[1...], message: padded[1..<(padded.count - 1)], algorithm: .ecdsa(.sha256)) == .verified)
        #expect(key.verify(signature: signature[1...], message: padded[1...], algorithm: .ecdsa(.sha256)) == .invalidSignature)
    }

    @Test("an algorithm for another key type is a mismatch")
    func algorithmKeyMismatch() throws {
        let message = try V.message()
        let rsa = try V.key("rsa2048"), p256 = try V.key("p256"), ed25519 = try V.key("ed25519"), ed448 = try V.key("ed448")
        let p256Signature = try V.bytes("p256-sha256.sig")
        let rsaSignature = try V.bytes("rsa2048-pkcs1-sha256.sig")
        let edSignature = try V.bytes("ed25519.sig")
        #expect(rsa.verify(signature: p256Signature, message: message, algorithm: .ecdsa(.sha256)) == .algorithmKeyMismatch)
        #expect(p256.verify(signature: edSignature, message: message, algorithm: .ed25519) == .algorithmKeyMismatch)
        #expect(p256.verify(signature: rsaSignature, message: message, algorithm: .rsaPKCS1v15(.sha256)) == .algorithmKeyMismatch)
        #expect(p256.verify(signature: rsaSignature, message: message, algorithm: .rsaPSS(hash: .sha256, saltLength: 32)) == .algorithmKeyMismatch)
        #expect(ed25519.verify(signature: rsaSignature, message: message, algorithm: .rsaPKCS1v15(.sha256)) == .algorithmKeyMismatch)
        #expect(ed25519.verify(signature: p256Signature, message: message, algorithm: .ecdsa(.sha256)) == .algorithmKeyMismatch)
        #expect(ed25519.verify(signature: try V.bytes("ed448.sig"), message: message, algorithm: .ed448) == .algorithmKeyMismatch)
        #expect(ed448.verify(signature: edSignature, message: message, algorithm: .ed25519) == .algorithmKeyMismatch)
        #expect(rsa.verify(signature: edSignature, message: message, algorithm: .ed25519) == .algorithmKeyMismatch)
    }

    @Test("MD2, MD5 and unrecognised algorithms are unsupported")
    func unsupportedAlgorithms() throws {
        let rsa = try V.key("rsa2048"), p256 = try V.key("p256")
        let message = try V.message(), signature = try V.bytes("rsa2048-pkcs1-sha256.sig")
        #expect(rsa.verify(signature: signature, message: message, algorithm: .rsaPKCS1v15(.md5)) == .unsupportedAlgorithm)
        #expect(rsa.verify(signature: signature, message: message, algorithm: .rsaPKCS1v15(.md2)) == .unsupportedAlgorithm)
        #expect(rsa.verify(signature: signature, message: message, algorithm: .rsaPSS(hash: .md5, saltLength: 16)) == .unsupportedAlgorithm)
        #expect(rsa.verify(signature: signature, message: message, algorithm: .rsaPSS(hash: .sha256, saltLength: -1)) == .unsupportedAlgorithm)
        #expect(p256.verify(signature: try V.bytes("p256-sha256.sig"), message: message, algorithm: .ecdsa(.md5)) == .unsupportedAlgorithm)
        // id-dsa-with-sha256 (2.16.840.1.101.3.4.3.2)
        #expect(rsa.verify(signature: signature, message: message, algorithm: .unsupported("2.16.840.1.101.3.4.3.2")) == .unsupportedAlgorithm)
    }

    @Test("RSASSA-PSS requires exactly the stated salt length and hash")
    func pssSaltLength() throws {
        let rsa = try V.key("rsa2048"), message = try V.message()
        let signature = try V.bytes("rsa2048-pss-sha256.sig")
        for salt in [0, 20, 31, 33, 64, 222, 255, 256, 65535] {
            #expect(rsa.verify(signature: signature, message: message, algorithm: .rsaPSS(hash: .sha256, saltLength: salt)) == .invalidSignature, "salt \(salt)")
        }
        #expect(rsa.verify(signature: signature, message: message, algorithm: .rsaPSS(hash: .sha384, saltLength: 32)) == .invalidSignature)
        // A PSS signature is not a PKCS #1 v1.5 signature, nor the reverse.
        #expect(rsa.verify(signature: signature, message: message, algorithm: .rsaPKCS1v15(.sha256)) == .invalidSignature)
        #expect(rsa.verify(signature: try V.bytes("rsa2048-pkcs1-sha256.sig"), message: message, algorithm: .rsaPSS(hash: .sha256, saltLength: 32)) == .invalidSignature)
    }

    @Test("an RSA signature that is not the modulus length is malformed")
    func rsaSignatureLength() throws {
        let rsa = try V.key("rsa2048"), message = try V.message()
        let signature = try V.bytes("rsa2048-pkcs1-sha256.sig")
        for algorithm: SignatureAlgorithm in [.rsaPKCS1v15(.sha256), .rsaPSS(hash: .sha256, saltLength: 32)] {
            #expect(rsa.verify(signature: Array(signature.dropLast()), message: message, algorithm: algorithm) == .malformedSignature)
            #expect(rsa.verify(signature: Array(signature.dropFirst()), message: message, algorithm: algorithm) == .malformedSignature)
            #expect(rsa.verify(signature: signature + [0], message: message, algorithm: algorithm) == .malformedSignature)
            #expect(rsa.verify(signature: [0] + signature, message: message, algorithm: algorithm) == .malformedSignature)
            #expect(rsa.verify(signature: [], message: message, algorithm: algorithm) == .malformedSignature)
        }
        // Right length, but not below the modulus.
        #expect(rsa.verify(signature: [UInt8](repeating: 0xFF, count: 256), message: message, algorithm: .rsaPKCS1v15(.sha256)) == .invalidSignature)
        #expect(rsa.verify(signature: [UInt8](repeating: 0xFF, count: 256), message: message, algorithm: .rsaPSS(hash: .sha256, saltLength: 32)) == .invalidSignature)
    }

    @Test("an EdDSA signature of the wrong length is malformed")
    func edDSASignatureLength() throws {
        let message = try V.message()
        let ed25519 = try V.key("ed25519"), ed448 = try V.key("ed448")
        let s25519 = try V.bytes("ed25519.sig"), s448 = try V.bytes("ed448.sig")
        #expect(ed25519.verify(signature: Array(s25519.dropLast()), message: message, algorithm: .ed25519) == .malformedSignature)
        #expect(ed25519.verify(signature: s25519 + [0], message: message, algorithm: .ed25519) == .malformedSignature)
        #expect(ed448.verify(signature: Array(s448.dropLast()), message: message, algorithm: .ed448) == .malformedSignature)
        #expect(ed448.verify(signature: [], message: message, algorithm: .ed448) == .malformedSignature)
    }

    @Test("an ECDSA signature that is not strict DER is malformed")
    func ecdsaStrictDER() throws {
        let key = try V.key("p256"), message = try V.message()
        let signature = try V.bytes("p256-sha256.sig")
        let (r, s) = V.ecdsaIntegers(signature)
        let body = V.derInteger(r) + V.derInteger(s)
        // Sanity: the re-encoding is the original, and verifies.
        #expect(V.derSequence(body) == signature)
        #expect(key.verify(signature: V.derSequence(body), message: message, algorithm: .ecdsa(.sha256)) == .verified)

        let malformed: [(String, [UInt8])] = [
            ("BER long-form SEQUENCE length", [0x30, 0x81, UInt8(body.count)] + body),
            ("BER two-byte SEQUENCE length", [0x30, 0x82, 0x00, UInt8(body.count)] + body),
            ("BER long-form INTEGER length", V.derSequence([0x02, 0x81, UInt8(r.count)] + r + V.derInteger(s))),
            ("indefinite length", [0x30, 0x80] + body + [0x00, 0x00]),
            ("extra leading zero on r", V.derSequence(V.derInteger([0x00] + r) + V.derInteger(s))),
            ("extra leading zero on s", V.derSequence(V.derInteger(r) + V.derInteger([0x00] + s))),
            ("trailing byte after the SEQUENCE", signature + [0x00]),
            ("trailing element inside the SEQUENCE", V.derSequence(body + [0x05, 0x00])),
            ("r only", V.derSequence(V.derInteger(r))),
            ("empty INTEGER", V.derSequence([0x02, 0x00] + V.derInteger(s))),
            ("negative r", V.derSequence(V.derInteger([0x80] + r.drop(while: { $0 == 0 }).dropFirst()) + V.derInteger(s))),
            ("wrong outer tag", [0x31] + signature.dropFirst()),
            ("wrong INTEGER tag", V.derSequence([0x03, UInt8(r.count)] + r + V.derInteger(s))),
            ("SEQUENCE length past the end", [0x30, UInt8(body.count + 1)] + body),
            ("truncated", Array(signature.dropLast())),
            ("empty", []),
            ("raw r||s instead of DER", Array(r.suffix(32) + s.suffix(32))),
        ]
        for (what, bytes) in malformed {
            #expect(key.verify(signature: bytes, message: message, algorithm: .ecdsa(.sha256)) == .malformedSignature, "\(what)")
        }
    }

    @Test("ECDSA r or s out of range, or the wrong hash, is an invalid signature")
    func ecdsaOutOfRange() throws {
        let key = try V.key("p256"), message = try V.message()
        let signature = try V.bytes("p256-sha256.sig")
        let (r, s) = V.ecdsaIntegers(signature)
        #expect(key.verify(signature: V.derSequence(V.derInteger([0]) + V.derInteger(s)), message: message, algorithm: .ecdsa(.sha256)) == .invalidSignature)
        #expect(key.verify(signature: V.derSequence(V.derInteger(r) + V.derInteger([0])), message: message, algorithm: .ecdsa(.sha256)) == .invalidSignature)
        let big = [0x01] + [UInt8](repeating: 0, count: 32)
        #expect(key.verify(signature: V.derSequence(V.derInteger(big) + V.derInteger(s)), message: message, algorithm: .ecdsa(.sha256)) == .invalidSignature)
        #expect(key.verify(signature: V.derSequence(V.derInteger(s) + V.derInteger(r)), message: message, algorithm: .ecdsa(.sha256)) == .invalidSignature)
        #expect(key.verify(signature: signature, message: message, algorithm: .ecdsa(.sha384)) == .invalidSignature)
        #expect(key.verify(signature: signature, message: message, algorithm: .ecdsa(.sha1)) == .invalidSignature)
    }

    @Test("a signature by another key of the same type is an invalid signature")
    func otherKey() throws {
        let message = try V.message()
        let p384 = try V.key("p384")
        // P-256 signature checked with the P-384 key: both ECDSA, so not a mismatch.
        #expect(p384.verify(signature: try V.bytes("p256-sha256.sig"), message: message, algorithm: .ecdsa(.sha256)) == .invalidSignature)
    }
}

@Suite("Crypto: public key loading")
struct CryptoPublicKeyTests {
    typealias V = CryptoTestVectors

    @Test("vector keys load with their type and size")
    func keyTypes() throws {
        #expect(try V.key("rsa2048").type == .rsa(bits: 2048))
        #expect(try V.key("p256").type == .ec(.p256))
        #expect(try V.key("p384").type == .ec(.p384))
        #expect(try V.key("p521").type == .ec(.p521))
        #expect(try V.key("ed25519").type == .ed25519)
        #expect(try V.key("ed448").type == .ed448)
        #expect(try V.key("rsa2048").description == "RSA-2048")
        #expect(try V.key("p384").description == "EC P-384")
    }

    private func rsaComponents() throws -> (modulus: ArraySlice<UInt8>, exponent: ArraySlice<UInt8>) {
        guard case .rsa(let modulus, let exponent) = try V.spki("rsa2048").key else {
            Issue.record("rsa2048.spki.der is not an RSA key")
            throw PublicKeyError.invalidKey("test setup")
        }
        return (modulus, exponent)
    }

    private func expectInvalid(_ key: SubjectPublicKey, _ reasonFragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try PublicKey(key)
            Issue.record("key loaded; expected invalidKey(\(reasonFragment))", sourceLocation: sourceLocation)
        } catch {
            guard case .invalidKey(let reason) = error else {
                Issue.record("expected invalidKey, got \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(reason.contains(reasonFragment), sourceLocation: sourceLocation)
        }
    }

    @Test("bad RSA exponents and moduli are load errors")
    func badRSA() throws {
        let (modulus, exponent) = try rsaComponents()
        #expect(exponent == [0x01, 0x00, 0x01])
        expectInvalid(.rsa(modulus: modulus, publicExponent: [1]), "exponent is 1")
        expectInvalid(.rsa(modulus: modulus, publicExponent: [0, 0, 1]), "exponent is 1")
        expectInvalid(.rsa(modulus: modulus, publicExponent: [2]), "exponent is even")
        expectInvalid(.rsa(modulus: modulus, publicExponent: [0x01, 0x00, 0x00]), "exponent is even")
        expectInvalid(.rsa(modulus: modulus, publicExponent: []), "exponent is zero")
        expectInvalid(.rsa(modulus: modulus, publicExponent: [0]), "exponent is zero")
        expectInvalid(.rsa(modulus: modulus, publicExponent: modulus), "not below the modulus")
        expectInvalid(.rsa(modulus: modulus, publicExponent: [0x01] + modulus), "not below the modulus")
        var even = Array(modulus)
        even[even.count - 1] &= 0xFE
        expectInvalid(.rsa(modulus: even[...], publicExponent: exponent), "modulus is even")
        expectInvalid(.rsa(modulus: [], publicExponent: exponent), "modulus is zero")
        expectInvalid(.rsa(modulus: [0, 0], publicExponent: exponent), "modulus is zero")
        // Leading zeros are ignored: the key still verifies.
        let padded = try PublicKey(.rsa(modulus: [0, 0] + modulus, publicExponent: [0] + exponent))
        #expect(padded.type == .rsa(bits: 2048))
        #expect(padded.verify(signature: try V.bytes("rsa2048-pkcs1-sha256.sig"), message: try V.message(), algorithm: .rsaPKCS1v15(.sha256)) == .verified)
    }

    @Test("oversized RSA keys are unsupported")
    func oversizedRSA() throws {
        let huge = [UInt8](repeating: 0xFF, count: 2049)
        #expect(throws: PublicKeyError.unsupportedKey("RSA modulus of 16392 bits (above 16384)")) { try PublicKey(.rsa(modulus: huge[...], publicExponent: [3])) }
        let big = [UInt8](repeating: 0xFF, count: 512)
        let exponent = [0x01] + [UInt8](repeating: 0, count: 7) + [0x01]
        #expect(throws: PublicKeyError.unsupportedKey("RSA-4096 with a public exponent of 65 bits (above 64)")) { try PublicKey(.rsa(modulus: big[...], publicExponent: exponent[...])) }
    }

    @Test("an EC point not on the curve is a load error")
    func pointNotOnCurve() throws {
        var der = try V.bytes("p256.spki.der")
        der[der.count - 1] ^= 0x01 // last byte of Y
        let spki = try SubjectPublicKeyInfo(derEncoded: der)
        #expect(throws: PublicKeyError.invalidKey("P-256 point is not on the curve")) { try PublicKey(spki) }

        // Compressed point whose X is not below the field prime.
        let overflow = [0x02] + [UInt8](repeating: 0xFF, count: 32)
        #expect(throws: PublicKeyError.invalidKey("P-256 point is not on the curve")) { try PublicKey(.ec(curve: .p256, point: overflow[...])) }
        // Uncompressed (0, 0).
        let zero = [0x04] + [UInt8](repeating: 0, count: 64)
        #expect(throws: PublicKeyError.invalidKey("P-256 point is not on the curve")) { try PublicKey(.ec(curve: .p256, point: zero[...])) }
    }

    @Test("EC points of the wrong form or length are load errors")
    func badPointEncoding() throws {
        guard case .ec(_, let point) = try V.spki("p256").key else { Issue.record("not EC"); return }
        let message = "P-256 point is not a SEC 1 compressed or uncompressed point of its length"
        #expect(throws: PublicKeyError.invalidKey(message)) { try PublicKey(.ec(curve: .p256, point: point.dropLast())) }
        #expect(throws: PublicKeyError.invalidKey(message)) { try PublicKey(.ec(curve: .p256, point: [0x00])) }
        var hybrid = Array(point)
        hybrid[0] = 0x06 // SEC 1 hybrid form, which RFC 5480 does not allow
        #expect(throws: PublicKeyError.invalidKey(message)) { try PublicKey(.ec(curve: .p256, point: hybrid[...])) }
        // The P-256 point given as a P-384 key.
        #expect(throws: PublicKeyError.invalidKey("P-384 point is not a SEC 1 compressed or uncompressed point of its length")) { try PublicKey(.ec(curve: .p384, point: point)) }
    }

    @Test("a compressed point loads and verifies", arguments: [("p256", "p256-sha256.sig", HashAlgorithm.sha256), ("p384", "p384-sha384.sig", .sha384), ("p521", "p521-sha512.sig", .sha512)])
    func compressedPoint(_ name: String, _ signatureFile: String, _ hash: HashAlgorithm) throws {
        guard case .ec(let curve, let point) = try V.spki(name).key else { Issue.record("not EC"); return }
        let length = curve.coordinateLength
        let x = point.dropFirst().prefix(length)
        let yOdd = point.last! & 1 == 1
        let compressed = [yOdd ? 0x03 : 0x02] + x
        let key = try PublicKey(.ec(curve: curve, point: compressed[...]))
        #expect(key.verify(signature: try V.bytes(signatureFile), message: try V.message(), algorithm: .ecdsa(hash)) == .verified)
        // The other Y: a valid point, but the wrong key.
        let other = try PublicKey(.ec(curve: curve, point: ([yOdd ? 0x02 : 0x03] + x)[...]))
        #expect(other.verify(signature: try V.bytes(signatureFile), message: try V.message(), algorithm: .ecdsa(hash)) == .invalidSignature)
    }

    @Test("EdDSA keys of the wrong length are load errors")
    func edDSALength() throws {
        #expect(throws: PublicKeyError.invalidKey("Ed25519 key of 31 bytes, not 32")) { try PublicKey(.ed25519([UInt8](repeating: 1, count: 31)[...])) }
        #expect(throws: PublicKeyError.invalidKey("Ed448 key of 32 bytes, not 57")) { try PublicKey(.ed448([UInt8](repeating: 1, count: 32)[...])) }
    }

    @Test("unsupported keys throw unsupportedKey")
    func unsupportedKey() throws {
        // id-dsa 1.2.840.10040.4.1
        #expect(throws: PublicKeyError.unsupportedKey("unsupported 1.2.840.10040.4.1")) {
            try PublicKey(.unsupported(algorithm: "1.2.840.10040.4.1", curve: nil))
        }
    }
}
