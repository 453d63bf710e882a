import CertPathDER
import Testing
import TestSupport

/// The OBJECT IDENTIFIER rule (X.690 8.19.2) is checked eight octets at a time; these tests hold it
/// to the octet-by-octet statement of the rule on contents of every length and position.
@Suite("DER OBJECT IDENTIFIER validation by words")
struct OIDWordValidationTests {
    /// The rule one octet at a time: `nil` when valid, else the offset the error names.
    private static func reference(_ contents: [UInt8], at start: Int) -> Int? {
        var atStart = true
        for (index, byte) in contents.enumerated() {
            if atStart && byte == 0x80 { return start + index }
            atStart = byte < 0x80
        }
        return atStart ? nil : start + contents.count - 1
    }

    @Test("Random contents of 1 to 24 octets after 0 to 10 other octets: the same verdict and offset as octet by octet")
    func matchesReference() {
        var generator = SplitMix64(state: 0x5EED)
        // Octets that exercise the rule: 0x80 itself, other continuation octets, ends of subidentifiers.
        let palette: [UInt8] = [0x80, 0x80, 0x81, 0xFF, 0x00, 0x01, 0x7F, 0x2A, 0x86]
        var checked = 0, rejected = 0
        for _ in 0..<20_000 {
            let prefixCount = Int(generator.next() % 11)
            let count = 1 + Int(generator.next() % 24)
            let prefix = (0..<prefixCount).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let contents = (0..<count).map { _ in palette[Int(generator.next() % UInt64(palette.count))] }
            let bytes = prefix + contents
            let reader = DERReader(bytes)
            let element = DERElement(tag: .objectIdentifier, offset: prefixCount, value: prefixCount..<bytes.count)
            let expected = Self.reference(contents, at: prefixCount)
            do {
                try reader.validateObjectIdentifier(element, "random OID")
                #expect(expected == nil, "accepted \(contents), rule broken at \(expected ?? -1)")
            } catch {
                rejected += 1
                #expect(error.code == .invalidObjectIdentifier)
                #expect(error.offset == expected, "\(contents) after \(prefixCount) octets: \(error)")
            }
            checked += 1
        }
        #expect(checked == 20_000)
        #expect(rejected > 1_000 && rejected < 19_000, "the palette should give both verdicts: \(rejected) rejected")
    }

    @Test("Every OID of 1 to 3 octets from a small alphabet, at the start of the buffer and after it")
    func exhaustiveShort() {
        let alphabet: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0x81, 0xFF]
        var all: [[UInt8]] = alphabet.map { [$0] }
        for _ in 0..<2 { all += all.filter { $0.count == all.last!.count }.flatMap { prefix in alphabet.map { prefix + [$0] } } }
        #expect(all.count == 6 + 36 + 216)
        for contents in all {
            for prefixCount in [0, 9] {
                let bytes = [UInt8](repeating: 0x30, count: prefixCount) + contents
                let reader = DERReader(bytes)
                let element = DERElement(tag: .objectIdentifier, offset: prefixCount, value: prefixCount..<bytes.count)
                let expected = Self.reference(contents, at: prefixCount)
                do {
                    try reader.validateObjectIdentifier(element, "short OID")
                    #expect(expected == nil, "accepted \(contents)")
                } catch {
                    #expect(error.offset == expected, "\(contents): \(error)")
                }
            }
        }
    }
}
