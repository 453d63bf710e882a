import CertPath
import Foundation
import Testing

@Suite("Crypto: digests")
struct CryptoDigestTests {
    // FIPS 180-2 appendix B.1 ("abc") and the empty message.
    static let abcHex = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    static let abcBase64 = "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="
    static let emptyHex = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    static let emptyBase64 = "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="

    @Test("SHA-256 of known messages, rendered as hex and base64")
    func knownAnswers() {
        let abc = SHA256Digest(hashing: Array("abc".utf8))
        #expect(abc.hex == Self.abcHex)
        #expect(abc.base64 == Self.abcBase64)
        #expect(abc.description == Self.abcHex)
        let empty = SHA256Digest(hashing: [UInt8]())
        #expect(empty.hex == Self.emptyHex)
        #expect(empty.base64 == Self.emptyBase64)
        // Two-block message (FIPS 180-2 B.2).
        let twoBlocks = SHA256Digest(hashing: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        #expect(twoBlocks.hex == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("slices, arrays and raw buffers hash the same bytes")
    func inputForms() {
        let bytes: [UInt8] = Array("xxabcyy".utf8)
        let slice = bytes[2..<5]
        let fromSlice = SHA256Digest(hashing: slice)
        #expect(fromSlice.hex == Self.abcHex)
        #expect(Array(slice).withUnsafeBytes { SHA256Digest(hashing: $0) } == fromSlice)
        #expect(SHA256Digest(hashing: bytes) != fromSlice)
    }

    @Test("bytes round-trip through the fixed-size value")
    func bytesRoundTrip() {
        let digest = SHA256Digest(hashing: Array("abc".utf8))
        #expect(digest.bytes.count == 32)
        #expect(SHA256Digest(bytes: digest.bytes) == digest)
        #expect(digest.withUnsafeBytes { Array($0) } == digest.bytes)
        #expect(SHA256Digest(bytes: Array(digest.bytes.dropLast())) == nil)
        #expect(SHA256Digest(bytes: digest.bytes + [0]) == nil)
        #expect(digest.bytes.first == 0xba && digest.bytes.last == 0xad)
    }

    @Test("hex parsing accepts both cases and colon pairs, nothing else")
    func hexParsing() {
        let digest = SHA256Digest(hashing: Array("abc".utf8))
        #expect(SHA256Digest(hex: Self.abcHex) == digest)
        #expect(SHA256Digest(hex: Self.abcHex.uppercased()) == digest)
        var pairs: [String] = []
        var text = Substring(Self.abcHex.uppercased())
        while !text.isEmpty { pairs.append(String(text.prefix(2))); text = text.dropFirst(2) }
        #expect(SHA256Digest(hex: pairs.joined(separator: ":")) == digest)
        #expect(SHA256Digest(hex: pairs.joined(separator: "-")) == nil)
        #expect(SHA256Digest(hex: String(Self.abcHex.dropLast())) == nil)
        #expect(SHA256Digest(hex: Self.abcHex + "0") == nil)
        #expect(SHA256Digest(hex: "g" + Self.abcHex.dropFirst()) == nil)
        #expect(SHA256Digest(hex: " " + Self.abcHex.dropFirst()) == nil)
        #expect(SHA256Digest(hex: "") == nil)
    }

    @Test("base64 parsing is strict")
    func base64Parsing() {
        let digest = SHA256Digest(hashing: Array("abc".utf8))
        #expect(SHA256Digest(base64: Self.abcBase64) == digest)
        #expect(SHA256Digest(base64: Self.emptyBase64) == SHA256Digest(hashing: [UInt8]()))
        #expect(SHA256Digest(base64: String(Self.abcBase64.dropLast())) == nil, "missing padding")
        // "Fa0=" ends in 0 (000000 bits): "Fa1=" sets unused low bits, which is not canonical.
        #expect(SHA256Digest(base64: String(Self.abcBase64.dropLast(2)) + "1=") == nil, "non-zero unused bits")
        #expect(SHA256Digest(base64: Self.abcBase64.replacingOccurrences(of: "+", with: "-")) == nil, "URL-safe alphabet")
        #expect(SHA256Digest(base64: Self.abcBase64.replacingOccurrences(of: "/", with: "_")) == nil, "URL-safe alphabet")
        #expect(SHA256Digest(base64: " " + Self.abcBase64.dropFirst()) == nil)
        #expect(SHA256Digest(base64: "=" + Self.abcBase64.dropFirst()) == nil, "padding not at the end")
        // 33 bytes of valid base64 decode, but are not a SHA-256 digest.
        #expect(SHA256Digest(base64: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA") == nil)
        #expect(SHA256Digest(base64: "") == nil)
    }

    @Test("digests order by their bytes")
    func ordering() {
        let low = SHA256Digest(bytes: [UInt8](repeating: 0, count: 31) + [1])!
        let high = SHA256Digest(bytes: [1] + [UInt8](repeating: 0, count: 31))!
        #expect(low < high)
        #expect(!(high < low))
        #expect(Set([low, high, low]).count == 2)
    }

    @Test("other SHA digests of \"abc\"")
    func otherHashes() {
        let abc = Array("abc".utf8)
        func hex(_ bytes: [UInt8]?) -> String? { bytes.map { $0.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() } }
        #expect(hex(HashAlgorithm.sha1.digest(of: abc)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(HashAlgorithm.sha224.digest(of: abc)) == "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")
        #expect(hex(HashAlgorithm.sha256.digest(of: abc)) == Self.abcHex)
        #expect(hex(HashAlgorithm.sha384.digest(of: abc)) == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(hex(HashAlgorithm.sha512.digest(of: abc[...])) == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(HashAlgorithm.md5.digest(of: abc) == nil)
        #expect(HashAlgorithm.md2.digest(of: abc) == nil)
    }
}
