// Message digests (FIPS 180-4) through libcrypto's low-level one-pass functions, which skip the
// EVP method fetch of OpenSSL 3, and the fixed-size SHA-256 value used for fingerprints, pins and
// cache keys, with its hexadecimal and base64 (RFC 4648 4) renderings written by hand.
import CLibCrypto

/// A SHA-256 digest (FIPS 180-4 6.2): 32 bytes held inline as four big-endian 64-bit words, so it
/// is compared, hashed and stored without heap allocation.
///
/// Used for certificate and SubjectPublicKeyInfo fingerprints, SPKI pins (the `pin-sha256` value of
/// RFC 7469 2.4 is its ``base64`` form) and cache keys.
public struct SHA256Digest: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Bytes 0–7, 8–15, 16–23 and 24–31 of the digest, each read big-endian.
    let w0, w1, w2, w3: UInt64

    /// Length of a SHA-256 digest in bytes (32).
    public static let byteCount = 32

    /// Creates the digest from its four big-endian 64-bit words.
    init(words w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
        (self.w0, self.w1, self.w2, self.w3) = (w0, w1, w2, w3)
    }

    /// Reads 32 digest bytes.
    init(digestBytes p: UnsafePointer<UInt8>) {
        func word(_ offset: Int) -> UInt64 {
            var value: UInt64 = 0
            for i in 0..<8 { value = value << 8 | UInt64(p[offset + i]) }
            return value
        }
        self.init(words: word(0), word(8), word(16), word(24))
    }

    /// Hashes bytes.
    ///
    /// - Parameter bytes: the message, of any length.
    public init(hashing bytes: UnsafeRawBufferPointer) {
        var context = SHA256Hasher()
        context.update(bytes)
        self = context.finalize()
    }

    /// Hashes an array of bytes.
    public init(hashing bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { SHA256Digest(hashing: $0) }
    }

    /// Hashes a slice of bytes (for example a certificate's DER, a view into a larger buffer).
    public init(hashing bytes: ArraySlice<UInt8>) {
        self = bytes.withUnsafeBytes { SHA256Digest(hashing: $0) }
    }

    /// Wraps a digest given as its 32 bytes.
    ///
    /// - Returns: `nil` unless `bytes` holds exactly 32 bytes.
    public init?(bytes: ArraySlice<UInt8>) {
        guard bytes.count == SHA256Digest.byteCount else { return nil }
        self = bytes.withUnsafeBufferPointer { SHA256Digest(digestBytes: $0.baseAddress!) }
    }

    /// Wraps a digest given as its 32 bytes.
    ///
    /// - Returns: `nil` unless `bytes` holds exactly 32 bytes.
    public init?(bytes: [UInt8]) {
        self.init(bytes: bytes[...])
    }

    /// The 32 digest bytes (allocates an array; prefer ``withUnsafeBytes(_:)`` on hot paths).
    public var bytes: [UInt8] {
        withUnsafeBytes { Array($0) }
    }

    /// Calls `body` with the 32 digest bytes, without allocating.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var words = (w0.bigEndian, w1.bigEndian, w2.bigEndian, w3.bigEndian)
        return try Swift.withUnsafeBytes(of: &words) { (raw) throws(Failure) -> Result in try body(raw) }
    }

    /// Orders digests by their bytes, as unsigned big-endian numbers (a stable order for sorting).
    public static func < (lhs: SHA256Digest, rhs: SHA256Digest) -> Bool {
        (lhs.w0, lhs.w1, lhs.w2, lhs.w3) < (rhs.w0, rhs.w1, rhs.w2, rhs.w3)
    }

    /// The digest as 64 lowercase hexadecimal digits, no separators.
    public var hex: String {
        withUnsafeBytes { raw in
            String(unsafeUninitializedCapacity: 2 * SHA256Digest.byteCount) { out in
                let digits: StaticString = "0123456789abcdef"
                let table = digits.utf8Start
                for (i, byte) in raw.enumerated() {
                    out[2 * i] = table[Int(byte >> 4)]
                    out[2 * i + 1] = table[Int(byte & 0xF)]
                }
                return 2 * SHA256Digest.byteCount
            }
        }
    }

    /// The digest in base64 with padding (RFC 4648 4): 44 characters, the form of an HPKP
    /// `pin-sha256` value (RFC 7469 2.4).
    public var base64: String {
        withUnsafeBytes { Base64.encode($0) }
    }

    /// The ``hex`` form.
    public var description: String { hex }

    /// Parses a digest written in hexadecimal: 64 hexadecimal digits of either case, or 32 pairs of
    /// digits separated by colons (`AB:CD:…`, as `openssl x509 -fingerprint -sha256` prints it).
    ///
    /// - Returns: `nil` for any other text (other lengths, other separators, whitespace).
    public init?(hex text: String) {
        var utf8 = Array(text.utf8)
        if utf8.count == 32 * 3 - 1 {
            for i in stride(from: 2, to: utf8.count, by: 3) where utf8[i] != UInt8(ascii: ":") { return nil }
            utf8 = utf8.enumerated().filter { $0.offset % 3 != 2 }.map(\.element)
        }
        guard utf8.count == 64 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 32)
        for i in 0..<32 {
            guard let high = Hex.value(ofDigit: utf8[2 * i]), let low = Hex.value(ofDigit: utf8[2 * i + 1]) else { return nil }
            bytes[i] = high << 4 | low
        }
        self.init(bytes: bytes)
    }

    /// Parses a digest written in base64 (RFC 4648 4): exactly 44 characters of the standard
    /// alphabet ending in one `=`, in canonical form (the unused low bits of the last symbol zero).
    ///
    /// - Returns: `nil` for any other text (URL-safe alphabet, missing padding, whitespace).
    public init?(base64 text: String) {
        guard let bytes = Base64.decode(text), bytes.count == 32 else { return nil }
        self.init(bytes: bytes)
    }

}

/// Incremental SHA-256 over pieces of input, on the stack (libcrypto's `SHA256_CTX`).
struct SHA256Hasher {
    private var context = SHA256_CTX()

    init() {
        SHA256_Init(&context)
    }

    /// Adds bytes to the message.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        SHA256_Update(&context, base, bytes.count)
    }

    /// Adds bytes to the message.
    mutating func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Adds a 64-bit unsigned integer, big-endian (length prefixes).
    mutating func update(_ value: UInt64) {
        var big = value.bigEndian
        Swift.withUnsafeBytes(of: &big) { update($0) }
    }

    /// Finishes the digest.
    mutating func finalize() -> SHA256Digest {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { out in
            SHA256_Final(out.baseAddress!, &context)
            return SHA256Digest(digestBytes: out.baseAddress!)
        }
    }
}

/// One-pass digests with libcrypto's low-level functions (no EVP fetch, no allocation).
enum MessageDigest {
    /// The largest digest length, in bytes (SHA-512).
    static let maximumLength = 64

    /// Hashes `input` with `hash` into `output`, which must hold ``maximumLength`` bytes.
    ///
    /// - Returns: the digest length, or `nil` for MD2/MD5, which CertPath does not compute.
    static func compute(_ hash: HashAlgorithm, of input: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>) -> Int? {
        let data = input.nonNullBytes
        switch hash {
        case .sha1:
            var c = SHA_CTX()
            SHA1_Init(&c); SHA1_Update(&c, data, input.count); SHA1_Final(output, &c)
        case .sha224:
            var c = SHA256_CTX()
            SHA224_Init(&c); SHA224_Update(&c, data, input.count); SHA224_Final(output, &c)
        case .sha256:
            var c = SHA256_CTX()
            SHA256_Init(&c); SHA256_Update(&c, data, input.count); SHA256_Final(output, &c)
        case .sha384:
            var c = SHA512_CTX()
            SHA384_Init(&c); SHA384_Update(&c, data, input.count); SHA384_Final(output, &c)
        case .sha512:
            var c = SHA512_CTX()
            SHA512_Init(&c); SHA512_Update(&c, data, input.count); SHA512_Final(output, &c)
        case .md2, .md5:
            return nil
        }
        return hash.digestLength
    }
}

extension HashAlgorithm {
    /// Hashes bytes with this algorithm (FIPS 180-4).
    ///
    /// - Returns: the digest (``digestLength`` bytes), or `nil` for MD2 and MD5, which CertPath
    ///   does not compute.
    public func digest(of bytes: ArraySlice<UInt8>) -> [UInt8]? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: MessageDigest.maximumLength) { out in
            bytes.withUnsafeBytes { input in
                MessageDigest.compute(self, of: input, into: out.baseAddress!).map { Array(out[0..<$0]) }
            }
        }
    }

    /// Hashes bytes with this algorithm (FIPS 180-4).
    ///
    /// - Returns: the digest, or `nil` for MD2 and MD5.
    public func digest(of bytes: [UInt8]) -> [UInt8]? {
        digest(of: bytes[...])
    }
}
