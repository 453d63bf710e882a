import Testing
import CertPath

/// Base64 decoding (RFC 4648 4, padded, strict): the table-driven decoder against a plain
/// reference written from the RFC, on random valid encodings and on corrupted ones.
@Suite("Base64 decoding")
struct Base64DecodingTests {
    /// The reference: symbols of the standard alphabet only, length a multiple of four, at most two
    /// `=` at the end, zero bits left over before the padding.
    static func reference(_ text: [UInt8]) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        guard text.count % 4 == 0 else { return nil }
        var padding = 0
        if text.last == UInt8(ascii: "=") { padding = 1 }
        if padding == 1, text.count >= 2, text[text.count - 2] == UInt8(ascii: "=") { padding = 2 }
        var bits: [Bool] = []
        for (index, symbol) in text.enumerated() {
            if index >= text.count - padding { continue }
            guard let value = alphabet.firstIndex(of: symbol) else { return nil }
            for shift in (0..<6).reversed() { bits.append(value >> shift & 1 == 1) }
        }
        let whole = bits.count / 8 * 8
        guard bits[whole...].allSatisfy({ !$0 }) else { return nil }
        return stride(from: 0, to: whole, by: 8).map { start in
            bits[start..<(start + 8)].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
    }

    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
    }

    @Test("random data round trip, and random corruptions decode as the reference says")
    func matchesReference() {
        var generator = Generator(state: 42)
        var mismatches: [String] = []
        for _ in 0..<3_000 {
            let data = (0..<Int(generator.next() % 40)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let text = Array(Base64.encode(data).utf8)
            if Base64.decode(bytes: text) != data { mismatches.append("round trip \(data)") }
            var corrupted = text
            if !corrupted.isEmpty {
                let position = Int(generator.next() % UInt64(corrupted.count))
                corrupted[position] = UInt8(truncatingIfNeeded: generator.next() % 128)
            }
            if Base64.decode(bytes: corrupted) != Self.reference(corrupted) {
                mismatches.append(String(decoding: corrupted, as: UTF8.self))
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("specific refusals: bad symbol, bad length, padding in the middle, non-zero unused bits")
    func refusals() {
        #expect(Base64.decode(bytes: Array("QUJD".utf8)) == Array("ABC".utf8))
        #expect(Base64.decode(bytes: Array("QUI=".utf8)) == Array("AB".utf8))
        #expect(Base64.decode(bytes: Array("QUJ=".utf8)) == nil)  // 'J' leaves non-zero bits before '='
        #expect(Base64.decode(bytes: Array("QU*D".utf8)) == nil)
        #expect(Base64.decode(bytes: Array("QUJ".utf8)) == nil)
        #expect(Base64.decode(bytes: Array("Q=JD".utf8)) == nil)
        #expect(Base64.decode(bytes: []) == [])
    }
}
