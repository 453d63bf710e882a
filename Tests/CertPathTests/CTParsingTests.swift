import CertPath
import CertPathDER
import Testing

/// The SignedCertificateTimestampList parser (RFC 6962 3.3, the TLS vectors of RFC 5246 4.3): typed
/// errors naming the byte, unknown versions kept and ignored.
@Suite("SignedCertificateTimestampList parsing (RFC 6962 3.3)")
struct CTParsingTests {
    /// A v1 SCT with `extensions` and a signature of `signatureLength` bytes.
    static func sct(extensions: [UInt8] = [], signatureLength: Int = 71, timestamp: UInt64 = 0x0102_0304_0506_0708) -> SignedCertificateTimestamp {
        SignedCertificateTimestamp(logID: Array(1...32), timestamp: timestamp, extensions: extensions, signatureAlgorithm: .ecdsaSHA256,
                                   signature: (0..<signatureLength).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) })
    }

    static func be16(_ n: Int) -> [UInt8] { [UInt8(n >> 8), UInt8(n & 0xFF)] }

    /// A list of one SerializedSCT holding exactly `body`.
    static func list(_ body: [UInt8]) -> [UInt8] { be16(body.count + 2) + be16(body.count) + body }

    static func error(_ bytes: [UInt8]) -> SCTListError? {
        do { _ = try SignedCertificateTimestampList(tlsEncoded: bytes); return nil } catch { return error }
    }

    @Test("The encoding round-trips: every field as written, encoded kept")
    func roundTrip() throws {
        let scts = [Self.sct(extensions: [9, 9, 9]), Self.sct(signatureLength: 0)]
        let bytes = SignedCertificateTimestampList(timestamps: scts).tlsEncoded
        let parsed = try SignedCertificateTimestampList(tlsEncoded: bytes)
        #expect(parsed.timestamps == scts)
        #expect(parsed.timestamps[0].timestamp == 0x0102_0304_0506_0708)
        #expect(parsed.timestamps[0].extensions == [9, 9, 9])
        #expect(parsed.timestamps[0].logID == Array(1...32))
        #expect(parsed.tlsEncoded == bytes)
    }

    @Test("An SCT cut at every byte: truncated, at the offset of the field that does not fit")
    func truncatedAtEveryByte() throws {
        let extensions: [UInt8] = [0xAA, 0xBB]
        let body = Self.sct(extensions: extensions).encoded
        // Field starts within the SCT (RFC 6962 3.2): version, LogID, timestamp, extensions length,
        // extensions, hash, signature algorithm, signature length, signature.
        let e = extensions.count
        let starts = [0, 1, 33, 41, 43, 43 + e, 44 + e, 45 + e, 47 + e]
        for cut in 1..<body.count {
            let error = try #require(Self.error(Self.list(Array(body.prefix(cut)))), "cut \(cut)")
            // The field that does not fit is the first whose end passes the cut.
            let ends = zip(starts, starts.dropFirst() + [body.count]).map { $0.1 }
            let failing = zip(starts, ends).first { $0.1 > cut }!.0
            #expect(error.code == .truncated, "cut \(cut)")
            #expect(error.offset == 4 + failing, "cut \(cut): \(error)")
        }
    }

    @Test("Lengths that do not match: the list shorter or longer than its bytes, an SCT longer than its fields")
    func lengthMismatches() throws {
        let body = Self.sct().encoded
        let good = Self.list(body)
        // Trailing byte after the list.
        #expect(Self.error(good + [0]) == SCTListError(.lengthMismatch, at: good.count, expected: "the end of the list"))
        // The list announces more than there is.
        #expect(Self.error(Array(good.dropLast()))?.code == .truncated)
        // A byte inside the SerializedSCT after the signature.
        let padded = Self.list(body + [0])
        #expect(Self.error(padded) == SCTListError(.lengthMismatch, at: 4 + body.count, expected: "the end of the SerializedSCT"))
        // A SerializedSCT length past the list.
        var long = good
        long[3] &+= 1
        #expect(Self.error(long)?.code == .truncated)
        #expect(Self.error([])?.code == .truncated)
        #expect(Self.error([0])?.offset == 0)
    }

    @Test("Empty: an empty list and an empty SerializedSCT are refused (<1..2^16-1>)")
    func empties() {
        #expect(Self.error([0, 0]) == SCTListError(.empty, at: 0, expected: "at least one SCT (sct_list<1..2^16-1>)"))
        #expect(Self.error([0, 2, 0, 0])?.code == .empty)
        #expect(Self.error([0, 2, 0, 0])?.offset == 2)
    }

    @Test("hash none (0) and signature anonymous (0) are refused at their byte (RFC 5246 7.4.1.4.1)")
    func invalidAlgorithms() {
        var body = Self.sct().encoded
        body[43] = 0
        #expect(Self.error(Self.list(body)) == SCTListError(.invalidAlgorithm, at: 4 + 43, expected: "a HashAlgorithm other than none (0)"))
        body = Self.sct().encoded
        body[44] = 0
        #expect(Self.error(Self.list(body))?.offset == 4 + 44)
        // Other pairs parse and are not supported when verified.
        body = Self.sct().encoded
        body[43] = 2  // sha1
        let parsed = try? SignedCertificateTimestampList(tlsEncoded: Self.list(body))
        #expect(parsed?.timestamps.first?.signatureAlgorithm.algorithm == nil)
    }

    @Test("An SCT of an unknown version is kept aside, undecoded, and the others are read (RFC 6962 3.3)")
    func unknownVersion() throws {
        let v1 = Self.sct().encoded
        let v2: [UInt8] = [1, 0xDE, 0xAD]
        let items = Self.be16(v2.count) + v2 + Self.be16(v1.count) + v1
        let list = try SignedCertificateTimestampList(tlsEncoded: Self.be16(items.count) + items)
        #expect(list.unknownVersions == [UnknownVersionSCT(version: 1, offset: 2, encoded: v2)])
        #expect(list.timestamps == [Self.sct()])
    }

    @Test("The extension wrapper: one OCTET STRING holding the list; anything else is malformedExtension")
    func extensionWrapper() throws {
        let inner = SignedCertificateTimestampList(timestamps: [Self.sct()]).tlsEncoded
        let wrapped = D.octets(inner)
        #expect(try SignedCertificateTimestampList(extensionValue: wrapped[...]).timestamps == [Self.sct()])
        #expect(throws: SCTListError.self) { try SignedCertificateTimestampList(extensionValue: (wrapped + [0])[...]) }
        #expect(throws: SCTListError.self) { try SignedCertificateTimestampList(extensionValue: D.seq(wrapped)[...]) }
        do {
            _ = try SignedCertificateTimestampList(extensionValue: D.seq(wrapped)[...])
        } catch {
            #expect(error.code == .malformedExtension)
            #expect(error.offset == 0)
        }
    }

    @Test("Every single-byte change of a list either parses or throws a typed error, never traps")
    func everyByteChange() {
        let bytes = SignedCertificateTimestampList(timestamps: [Self.sct(extensions: [1]), Self.sct()]).tlsEncoded
        for index in bytes.indices {
            for value: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                var changed = bytes
                changed[index] = value
                if let list = try? SignedCertificateTimestampList(tlsEncoded: changed) {
                    #expect(list.tlsEncoded == changed)  // what parses re-encodes to the same bytes
                }
            }
        }
    }
}
