import Testing
@_spi(Fuzzing) @testable import CertPath
import CertPathDER
import TestSupport

/// The shortcuts of the performance change must give the answers of the code they replaced:
/// DNS-ID matching without the syntax check for names without a wildcard, the whole-RDN memcmp of
/// name comparison (which now also passes identical multi-valued RDNs), the shared-prefix start of
/// the prepared ASCII comparison (with every RFC 4518 space character, not only U+0020), and the
/// self-issued memo read from several threads.
@Suite("Performance shortcuts: same answers as before")
struct PerformanceShortcutEquivalenceTests {

    // MARK: DNS-ID

    /// Every presented name of up to five bytes over letters of both cases, digits, dot, hyphen,
    /// star, underscore, space, NUL, DEL and a non-ASCII byte, against references of one to three
    /// labels: a name that matches must pass the syntax check the shortcut skips (the previous
    /// code refused any name failing it), and each reference matches itself in upper case with
    /// and without one trailing dot.
    @Test("a presented dNSName that matches is always syntactically valid")
    func matchingImpliesValidSyntax() throws {
        let alphabet: [UInt8] = Array("aAbB0.-*_ ".utf8) + [0x00, 0x7F, 0xC3]
        var names: [[UInt8]] = [[]]
        var frontier: [[UInt8]] = [[]]
        for _ in 0..<5 {
            frontier = frontier.flatMap { prefix in alphabet.map { prefix + [$0] } }
            names += frontier
        }
        let references = try ["a", "b", "ab", "a.b", "a-b", "0a", "a.b0", "b.a.b", "a.a", "ba.b"].map { try DNSName($0) }
        var matched = 0
        var wrong: [String] = []
        for name in names {
            var stripped = name[...]
            if stripped.last == UInt8(ascii: ".") { stripped = stripped.dropLast() }
            let syntaxValid = DNSNameSyntax.check(stripped, allowWildcard: true) == nil
            for reference in references where PresentedIdentifierMatching.matches(presentedDNSName: name[...], reference: reference) {
                matched += 1
                if !syntaxValid && wrong.count < 5 { wrong.append("\(name) matched \(reference)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
        // 80: counted by an independent model of the rules (syntax check first, as before the change).
        #expect(matched == 80, "\(matched) matches")
        for reference in references {
            let upper = reference.bytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
            #expect(PresentedIdentifierMatching.matches(presentedDNSName: upper[...], reference: reference))
            #expect(PresentedIdentifierMatching.matches(presentedDNSName: (upper + [0x2E])[...], reference: reference))
            #expect(!PresentedIdentifierMatching.matches(presentedDNSName: (upper + [0x2E, 0x2E])[...], reference: reference))
        }
    }

    @Test("bytes one bit away from a letter's case do not match (naive |0x20 folding would)")
    func caseFoldingIsLettersOnly() throws {
        let reference = try DNSName("a-0.b")
        // 0x0D | 0x20 == "-", 0x10 | 0x20 == "0", 0x0E | 0x20 == ".": all three are refused.
        for presented: [UInt8] in [[0x61, 0x0D, 0x30, 0x2E, 0x62], [0x61, 0x2D, 0x10, 0x2E, 0x62], [0x61, 0x2D, 0x30, 0x0E, 0x62]] {
            #expect(!PresentedIdentifierMatching.matches(presentedDNSName: presented[...], reference: reference))
        }
        #expect(PresentedIdentifierMatching.matches(presentedDNSName: Array("A-0.B".utf8)[...], reference: reference))
    }

    // MARK: Name comparison

    typealias Attribute = NameComparisonFastPathTests.Attribute

    /// Names that share a leading multi-valued RDN (encoded identically, so the whole-RDN memcmp
    /// passes it where the walker used to hand the whole comparison to the general path), followed
    /// by RDNs that differ in case, whitespace, string type and value: `isEquivalent` must agree with
    /// the general normalized key in both directions.
    @Test("identical multi-valued RDN, then varied RDNs: isEquivalent equals general-key equality, both ways")
    func sharedMultiValuedPrefix() {
        var g = SplitMix64(state: 0x5EED_0F_2D)
        var compared = 0, equivalent = 0
        var problems: [String] = []
        while compared < 5_000 {
            let shared = (0..<(1 + g.below(2))).map { _ in
                [NameComparisonFastPathTests.randomAttribute(&g), NameComparisonFastPathTests.randomAttribute(&g)]
            }
            let tail = (0..<(1 + g.below(3))).map { _ in [NameComparisonFastPathTests.randomAttribute(&g)] }
            let otherTail = g.chance(75) ? NameComparisonFastPathTests.variant(of: tail, &g)
                                         : (0..<(1 + g.below(3))).map { _ in [NameComparisonFastPathTests.randomAttribute(&g)] }
            guard let a = NameComparisonFastPathTests.name(shared + tail),
                  let b = NameComparisonFastPathTests.name(shared + otherTail) else { continue }
            compared += 1
            let (expected, found) = NameComparisonFastPathTests.disagreements(a, b)
            if expected { equivalent += 1 }
            if problems.count < 5 { problems += found }
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(equivalent > 500 && equivalent < compared - 500, "\(equivalent) of \(compared) equivalent")
    }

    /// `preparedASCIIEqual` against a model splitting on every RFC 4518 space character the walker
    /// folds (U+0009–U+000D, U+0020), for every pair of strings of up to four characters over
    /// {a, A, space, tab, CR}: prefixes that end inside a run of mixed space characters.
    @Test("prepared ASCII comparison with mixed space characters, exhaustive")
    func preparedASCIIWithMixedSpaces() {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        func prepared(_ text: [UInt8]) -> [UInt8] {
            let words = text.split(omittingEmptySubsequences: true, whereSeparator: isSpace)
            return Array(words.map { $0.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 } }.joined(separator: [0x20]))
        }
        let alphabet: [UInt8] = [0x61, 0x41, 0x20, 0x09, 0x0D]
        var strings: [[UInt8]] = [[]]
        var frontier: [[UInt8]] = [[]]
        for _ in 0..<4 {
            frontier = frontier.flatMap { prefix in alphabet.map { prefix + [$0] } }
            strings += frontier
        }
        var disagreements: [String] = []
        var equalPairs = 0
        for x in strings {
            for y in strings {
                let expected = prepared(x) == prepared(y)
                if expected { equalPairs += 1 }
                let answer = x.withUnsafeBufferPointer { a in y.withUnsafeBufferPointer { b in NameWalker.preparedASCIIEqual(a, b) } }
                if answer != expected && disagreements.count < 5 { disagreements.append("\(x) vs \(y): \(answer)") }
            }
        }
        #expect(strings.count == 781)
        #expect(disagreements.isEmpty, "\(disagreements)")
        #expect(equalPairs > strings.count)
    }

    // MARK: Self-issued memo

    @Test("isSelfIssued read concurrently on fresh certificates gives the name comparison's answer")
    func selfIssuedMemoConcurrent() async throws {
        let sample = [SamplePKI.rsaRoot, SamplePKI.rsaIntermediate, SamplePKI.rsaServer]
        for _ in 0..<20 {
            let certificates = try sample.map { try Certificate(derEncoded: Array($0.der)) }
            let answers = await withTaskGroup(of: [Bool].self) { group in
                for _ in 0..<8 { group.addTask { certificates.map(\.isSelfIssued) } }
                return await group.reduce(into: [[Bool]]()) { $0.append($1) }
            }
            let expected = certificates.map { $0.issuer.isEquivalent(to: $0.subject) }
            #expect(expected == [true, false, false])
            #expect(answers.allSatisfy { $0 == expected })
        }
    }
}
