import Testing
import CertPath

/// PEM.decode and Base64.decode read over buffers (issue 32): the same strict RFC 7468 / RFC 4648
/// rules whatever the line ends, blanks and padding.
@Suite("PEM and base64 over buffers")
struct PEMBufferDecodingTests {
    /// 200 bytes of every value, as a 64-column PEM block's base64 lines.
    static let bytes: [UInt8] = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }

    static func body() -> [String] {
        let text = Base64.encode(bytes)
        return stride(from: 0, to: text.count, by: 64).map { start in
            String(Array(text)[start..<min(start + 64, text.count)])
        }
    }

    @Test("RFC 7468 3: CRLF, CR and LF line ends, blanks inside and around base64 lines, a byte-order mark starting a line, RFC 1421 headers: the same bytes")
    func lineForms() throws {
        let lines = Self.body()
        let forms: [String] = [
            "-----BEGIN DATA-----\n" + lines.joined(separator: "\n") + "\n-----END DATA-----\n",
            "-----BEGIN DATA-----\r\n" + lines.joined(separator: "\r\n") + "\r\n-----END DATA-----",
            "-----BEGIN DATA-----\r" + lines.joined(separator: "\r") + "\r-----END DATA-----\r",
            "-----BEGIN DATA-----\n" + lines.map { "  " + $0.prefix(10) + " \t" + $0.dropFirst(10) + "\t" }.joined(separator: "\n") + "\n-----END DATA-----\n",
            "text\n\u{FEFF}-----BEGIN DATA-----\nProc-Type: 4,ENCRYPTED\n\n" + lines.joined(separator: "\n") + "\n-----END DATA-----\n",
        ]
        for form in forms {
            let document = try PEM.decode(Array(form.utf8))
            #expect(document.blocks.count == 1)
            #expect(document.blocks.first?.label == "DATA")
            #expect(document.blocks.first?.der == Self.bytes, "\(form.debugDescription.prefix(60))")
        }
    }

    @Test("RFC 7468 3 and RFC 4648 4: a character outside base64 is reported on its line; padding only at the end, with zero unused bits")
    func refusals() {
        var lines = Self.body()
        lines[2] = String(lines[2].prefix(20)) + "*" + lines[2].dropFirst(21)
        let text = "intro\n-----BEGIN DATA-----\n" + lines.joined(separator: "\n") + "\n-----END DATA-----\n"
        do throws(PEM.Error) {
            _ = try PEM.decode(Array(text.utf8))
            Issue.record("decoded a block with '*' in its base64")
        } catch {
            #expect(error.line == 5)
            #expect(error.reason == "the block's base64 is invalid: a character outside base64 on this line")
        }
        #expect(Base64.decode(bytes: Array("====".utf8)) == nil)
        #expect(Base64.decode(bytes: Array("A===".utf8)) == nil)
        #expect(Base64.decode(bytes: Array("AA==".utf8)) == [0x00])
        #expect(Base64.decode(bytes: Array("AB==".utf8)) == nil)  // 'B' leaves a non-zero bit before "=="
        #expect(Base64.decode(bytes: Array("AAE=".utf8)) == [0x00, 0x01])
        #expect(Base64.decode(bytes: Array("AAF=".utf8)) == nil)  // 'F' leaves a non-zero bit before "="
        #expect(Base64.decode(bytes: Array("QUJDQU=D".utf8)) == nil)
        #expect(Base64.decode(bytes: Array("QUJDQUJD".utf8)) == Array("ABCABC".utf8))
    }
}
