@_spi(Fuzzing) import CertPathDER
import Testing

/// DERNode: a fully validated tree whose re-encoding is the input, byte for byte (DER's unique encoding).
@Suite("DERNode and DERWriter")
struct DERNodeTests {
    /// A self-signed P-256 certificate made once with
    /// `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -subj "/C=US/O=CertPath Test/CN=der.test"
    /// -addext subjectAltName=DNS:der.test` (478 bytes).
    static let certificate = hex("""
        308201da30820180a0030201020214799503ba0aa846743ef84463b3259c3e47b0709c300a06082a8648ce3d040302303831\
        0b300906035504061302555331163014060355040a0c0d436572745061746820546573743111300f06035504030c08646572\
        2e74657374301e170d3236313133303130333630395a170d3237313133303130333630395a3038310b300906035504061302\
        555331163014060355040a0c0d436572745061746820546573743111300f06035504030c086465722e746573743059301306\
        072a8648ce3d020106082a8648ce3d03010703420004b62d3106af67bc5db384864d29d229ae1d121aa6f0c0e2792b080091\
        5b6d287b701b3b67bc8707f675082cc4ee3c24d724c6258349e3b2e48bbe1e68540f0937a3683066301d0603551d0e041604\
        1405c822670af250ec722afe532493b54e6a263cf8301f0603551d2304183016801405c822670af250ec722afe532493b54e\
        6a263cf8300f0603551d130101ff040530030101ff30130603551d11040c300a82086465722e74657374300a06082a8648ce\
        3d0403020348003045022049a47111a214f2a8467c946f749086d79b3b1ecf3579e89c613f67c89e1f50cc022100ba8a0f14\
        953712d9828fc4ebb4b726f9ccb90fdd7bbf7d74963e05d9d67552d1
        """)

    /// Offset of the first occurrence of `pattern` in `bytes`.
    static func offset(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard pattern.count <= bytes.count else { return nil }
        return (0...(bytes.count - pattern.count)).first { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }

    @Test("a real certificate parses and re-encodes byte-identically")
    func certificateRoundTrip() throws {
        #expect(Self.certificate.count == 478)
        let node = try DERNode.parse(Self.certificate)
        #expect(node.encoded() == Self.certificate)
        guard case .constructed(let parts) = node.content else {
            Issue.record("Certificate is not constructed")
            return
        }
        #expect(node.tag == .sequence)
        #expect(parts.map(\.tag) == [.sequence, .sequence, .bitString])
        #expect(parts[1].encoded() == hex("300a06082a8648ce3d040302"))
        guard case .constructed(let tbs) = parts[0].content else {
            Issue.record("TBSCertificate is not constructed")
            return
        }
        #expect(tbs.map(\.tag) == [.contextSpecific(0, constructed: true), .integer, .sequence, .sequence, .sequence,
                                   .sequence, .sequence, .contextSpecific(3, constructed: true)])
        // Validity: both UTCTimes decode.
        let validity = tbs[4].encoded()
        let times = try DERReader.parse(validity, .sequence, "Validity") { reader throws(DERError) in
            (try reader.readTime("notBefore").time, try reader.readTime("notAfter").time)
        }
        #expect(times.0.description == "2026-11-30T10:36:09Z")
        #expect(times.1.description == "2027-11-30T10:36:09Z")
        // Each child re-encodes to its own span of the input.
        var writer = DERWriter()
        writer.append(.sequence) { inner in for part in parts { inner.append(part) } }
        #expect(writer.bytes == Self.certificate)
    }

    @Test("rule violations inside a certificate are found at their offset")
    func violationsInsideCertificate() throws {
        // basicConstraints is marked critical: `06 03 55 1D 13 01 01 FF`; make the BOOLEAN 0x01.
        let extensionOffset = try #require(Self.offset(of: hex("06 03 55 1D 13 01 01 FF"), in: Self.certificate))
        var badBoolean = Self.certificate
        badBoolean[extensionOffset + 7] = 0x01
        expectDERError(.invalidBoolean, at: extensionOffset + 5) { try DERNode.parse(badBoolean) }
        // The extnValue OCTET STRING is opaque to DERNode: a bad BOOLEAN inside it is not seen here.
        let caOffset = try #require(Self.offset(of: hex("04 05 30 03 01 01 FF"), in: Self.certificate))
        var opaque = Self.certificate
        opaque[caOffset + 6] = 0x01
        #expect(throws: Never.self) { try DERNode.parse(opaque) }
        // Trailing byte after the certificate.
        expectDERError(.trailingData, at: 478) { try DERNode.parse(Self.certificate + [0x00]) }
        // Last byte missing: the outermost SEQUENCE is truncated.
        expectDERError(.truncated, at: 0) { try DERNode.parse(Array(Self.certificate.dropLast())) }
        // notBefore with its final Z replaced by a digit: 13 characters, but no Z.
        let timeOffset = try #require(Self.offset(of: hex("170d323631313330313033363039 5a"), in: Self.certificate))
        var badTime = Self.certificate
        badTime[timeOffset + 14] = UInt8(ascii: "0")
        expectDERError(.invalidTime, at: timeOffset) { try DERNode.parse(badTime) }
    }

    @Test("SET OF must be sorted by encoding")
    func setOfOrder() throws {
        let sorted = hex("31 06 02 01 01 02 01 02")
        #expect(try DERNode.parse(sorted).encoded() == sorted)
        // Equal elements are in (non-strictly) ascending order.
        #expect(throws: Never.self) { try DERNode.parse(hex("31 06 02 01 01 02 01 01")) }
        // Order is by the whole encoding: tag first, then length, then contents.
        #expect(throws: Never.self) { try DERNode.parse(hex("31 07 02 02 00 80 04 01 00")) }
        #expect(throws: Never.self) { try DERNode.parse(hex("31 07 02 01 7F 02 02 00 80")) }
        expectDERError(.unsortedSet, at: 0) { try DERNode.parse(hex("31 06 02 01 02 02 01 01")) }
        expectDERError(.unsortedSet, at: 0) { try DERNode.parse(hex("31 07 04 01 00 02 02 00 80")) }
        expectDERError(.unsortedSet, at: 0) { try DERNode.parse(hex("31 07 02 02 00 80 02 01 7F")) }
        expectDERError(.unsortedSet, at: 2) { try DERNode.parse(hex("30 08 31 06 02 01 02 02 01 01")) }
        // An RDN with two attributes in the wrong order, as in a multi-valued name.
        let cn = hex("300b0603550403 0c0461626364")
        let ou = hex("300b060355040b 0c0461626364")
        expectDERError(.unsortedSet, at: 0) { try DERNode.parse([0x31, UInt8(cn.count + ou.count)] + ou + cn) }
        #expect(throws: Never.self) { try DERNode.parse([0x31, UInt8(cn.count + ou.count)] + cn + ou) }
    }

    @Test("universal types use their one DER form: strings and simple types primitive, SEQUENCE and SET constructed")
    func primitiveOrConstructed() throws {
        // Constructed OCTET STRING, BIT STRING and character strings are BER only (X.690 10.2).
        expectDERError(.unexpectedTag, at: 0) { try DERNode.parse(hex("24 03 04 01 00")) }
        expectDERError(.unexpectedTag, at: 2) { try DERNode.parse(hex("30 05 23 03 03 01 00")) }
        expectDERError(.unexpectedTag, at: 0) { try DERNode.parse(hex("2C 03 0C 01 41")) }
        expectDERError(.unexpectedTag, at: 0) { try DERNode.parse(hex("33 03 13 01 41")) }
        expectDERError(.unexpectedTag, at: 0) { try DERNode.parse(hex("37 00")) }
        // BOOLEAN, INTEGER, NULL and OBJECT IDENTIFIER are always primitive (X.690 8.2.1, 8.3.1, 8.8.1, 8.19.1).
        expectDERError(.unexpectedTag, at: 0) { try DERNode.parse(hex("21 00")) }
        expectDERError(.unexpectedTag, at: 0) { try DERNode.parse(hex("22 03 02 01 00")) }
        expectDERError(.unexpectedTag, at: 0) { try DERNode.parse(hex("25 00")) }
        expectDERError(.unexpectedTag, at: 0) { try DERNode.parse(hex("26 00")) }
        // SEQUENCE and SET are always constructed (X.690 8.9.1, 8.11.1).
        expectDERError(.unexpectedTag, at: 0) { try DERNode.parse(hex("10 00")) }
        expectDERError(.unexpectedTag, at: 2) { try DERNode.parse(hex("30 02 11 00")) }
        // Universal tag 0 is reserved for the encoding rules (end-of-contents in BER).
        expectDERError(.unexpectedTag, at: 0) { try DERNode.parse(hex("00 00")) }
        expectDERError(.unexpectedTag, at: 2) { try DERNode.parse(hex("30 02 00 00")) }
        // Other classes choose freely: IMPLICIT tags keep the underlying form.
        #expect(throws: Never.self) { try DERNode.parse(hex("A0 03 02 01 00")) }
        #expect(throws: Never.self) { try DERNode.parse(hex("80 01 00")) }
        #expect(throws: Never.self) { try DERNode.parse(hex("30 00")) }
        #expect(throws: Never.self) { try DERNode.parse(hex("31 00")) }
    }

    @Test("DERWriter writes minimal lengths that DERReader accepts")
    func writerLengths() throws {
        for (count, header) in [(0, "04 00"), (127, "04 7F"), (128, "04 81 80"), (255, "04 81 FF"),
                                (256, "04 82 01 00"), (65_535, "04 82 FF FF"), (65_536, "04 83 01 00 00")] {
            var writer = DERWriter()
            writer.append(.octetString, contents: [UInt8](repeating: 0x5A, count: count))
            #expect(Array(writer.bytes.prefix(hex(header).count)) == hex(header), "\(count)")
            let (_, element) = try readOnly(writer.bytes)
            #expect(element.value.count == count)
        }
        var writer = DERWriter()
        writer.append(.sequence) { inner in
            inner.appendBoolean(true)
            inner.appendOID("2.5.29.19")
            inner.appendEncoded(hex("05 00"))
        }
        #expect(writer.bytes == hex("30 0A 01 01 FF 06 03 55 1D 13 05 00"))
        #expect(try DERNode.parse(writer.bytes).encoded() == writer.bytes)
    }
}
