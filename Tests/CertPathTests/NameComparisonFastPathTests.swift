import Testing
@testable import CertPath
import CertPathDER
import TestSupport

/// RFC 5280 7.1 name comparison has fast paths (attribute-by-attribute comparison, ASCII key
/// construction, key hashing without the key); each must agree with the general construction of
/// the normalized key, which transcodes every string through `String`.
@Suite("Name comparison: fast paths agree with the general normalized key")
struct NameComparisonFastPathTests {

    struct Attribute {
        var type: [UInt8]
        var tag: UInt8
        var text: String
    }

    /// CN, O, C, OU, and two attributes whose IA5String values match with caseIgnoreIA5Match
    /// (domainComponent, emailAddress), so the random pairs exercise that rule in every path.
    static let types: [[UInt8]] = [[0x55, 0x04, 0x03], [0x55, 0x04, 0x0A], [0x55, 0x04, 0x06], [0x55, 0x04, 0x0B],
                                   Array(KnownOID.domainComponent.encoded), Array(KnownOID.emailAddress.encoded)]

    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        if count < 0x100 { return [0x81, UInt8(count)] }
        return [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
    }

    static func tlv(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] { [tag] + length(contents.count) + contents }

    /// The value encoding of `text` for `tag`; `nil` when the text does not fit the type.
    static func contents(_ text: String, tag: UInt8) -> [UInt8]? {
        switch tag {
        case 0x0C: return Array(text.utf8)
        case 0x13: return text.utf8.allSatisfy(DERString.isPrintable) ? Array(text.utf8) : nil
        case 0x16: return text.utf8.allSatisfy { $0 < 0x80 } ? Array(text.utf8) : nil
        case 0x14: return text.unicodeScalars.allSatisfy { $0.value < 0x100 } ? text.unicodeScalars.map { UInt8($0.value) } : nil
        case 0x1E:
            guard text.unicodeScalars.allSatisfy({ $0.value < 0x10000 }) else { return nil }
            return text.unicodeScalars.flatMap { [UInt8($0.value >> 8), UInt8($0.value & 0xFF)] }
        default: return nil
        }
    }

    /// A Name from RDNs; multi-valued RDNs are put in DER SET OF order. `nil` when a value does not fit its type.
    static func name(_ rdns: [[Attribute]]) -> Name? {
        var encodedRDNs: [UInt8] = []
        for rdn in rdns {
            var atvs: [[UInt8]] = []
            for attribute in rdn {
                guard let value = contents(attribute.text, tag: attribute.tag) else { return nil }
                atvs.append(tlv(0x30, tlv(0x06, attribute.type) + tlv(attribute.tag, value)))
            }
            atvs.sort { a, b in
                for (x, y) in zip(a, b) where x != y { return x < y }
                return a.count <= b.count
            }
            encodedRDNs += tlv(0x31, atvs.flatMap { $0 })
        }
        return try? Name(derEncoded: tlv(0x30, encodedRDNs))
    }

    static let words = ["Bench", "bench", "BENCH", "CA", "ca", "Root R1", "root  r1", " Root\tR1 ", "Ünïcode", "ÜNÏCODE", "é", "É",
                        "Trust  Services", "trust services", "x", "", "  ", "Σίσυφος", "ΣΊΣΥΦΟΣ", "straße", "STRASSE", "a-b.c"]

    static func randomAttribute(_ g: inout SplitMix64) -> Attribute {
        let tags: [UInt8] = [0x0C, 0x13, 0x16, 0x14, 0x1E]
        return Attribute(type: types[g.below(types.count)], tag: tags[g.below(tags.count)], text: words[g.below(words.count)])
    }

    /// A variant that is often equivalent: same types, case and whitespace changed, string type swapped.
    static func variant(of rdns: [[Attribute]], _ g: inout SplitMix64) -> [[Attribute]] {
        rdns.map { rdn in
            rdn.map { attribute in
                var changed = attribute
                if g.chance(40) { changed.text = g.chance(50) ? attribute.text.uppercased() : attribute.text.lowercased() }
                if g.chance(30) { changed.text = "  " + changed.text.replacing(" ", with: "\t ") + " " }
                if g.chance(30) { changed.tag = [0x0C, 0x13, 0x16, 0x14, 0x1E][g.below(5)] }
                if g.chance(5) { changed.type = types[g.below(types.count)] }
                return changed
            }
        }
    }

    static func hash(_ bytes: [UInt8]) -> Int {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        return hasher.finalize()
    }

    /// Whether `a` and `b` are equivalent by the general normalized key, and where the fast paths
    /// disagree with it: `isEquivalent` either way, `normalizedKey` and its hash.
    static func disagreements(_ a: Name, _ b: Name) -> (equivalent: Bool, problems: [String]) {
        let keyA = a.generalNormalizedKey(), keyB = b.generalNormalizedKey()
        let expected = keyA == keyB
        var problems: [String] = []
        if a.isEquivalent(to: b) != expected || b.isEquivalent(to: a) != expected { problems.append("isEquivalent: \(a) vs \(b)") }
        if a.normalizedKey.bytes != keyA { problems.append("normalizedKey: \(a)") }
        if a.normalizedKeyHash != Self.hash(keyA) { problems.append("normalizedKeyHash: \(a)") }
        return (expected, problems)
    }

    @Test("random names and variants: isEquivalent, normalizedKey and its hash match the general key")
    func randomNamesAgree() {
        var generator = SplitMix64(state: 0xC0FFEE)
        var compared = 0, equivalent = 0
        var problems: [String] = []
        while compared < 20_000 {
            let rdns = (0..<generator.below(4)).map { _ in
                (0..<(generator.chance(15) ? 2 : 1)).map { _ in Self.randomAttribute(&generator) }
            }
            let other = generator.chance(70) ? Self.variant(of: rdns, &generator) : (0..<generator.below(4)).map { _ in [Self.randomAttribute(&generator)] }
            guard let a = Self.name(rdns), let b = Self.name(other) else { continue }
            compared += 1
            let (expected, found) = Self.disagreements(a, b)
            if expected { equivalent += 1 }
            problems += found
            if problems.count > 5 { break }
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(equivalent > 1_000 && equivalent < compared - 1_000, "\(equivalent) of \(compared) pairs equivalent")
    }

    @Test("specific cases: case and inner whitespace fold, tags differ only for non-prepared types")
    func specificCases() throws {
        func make(_ rdns: [[Attribute]]) throws -> Name { try #require(Self.name(rdns)) }
        let cn: [UInt8] = [0x55, 0x04, 0x03]
        let a = try make([[Attribute(type: cn, tag: 0x13, text: "Bench  CA")]])
        let b = try make([[Attribute(type: cn, tag: 0x0C, text: " bench\tca ")]])
        let c = try make([[Attribute(type: cn, tag: 0x16, text: "Bench CA")]])
        let d = try make([[Attribute(type: cn, tag: 0x16, text: "Bench CA")]])
        #expect(a.isEquivalent(to: b))
        #expect(a.isEquivalent(to: c))  // IA5String is prepared too (Chromium's NormalizeValue)
        #expect(c.isEquivalent(to: d))
        #expect(a.normalizedKey == b.normalizedKey)
        // domainComponent: IA5String with caseIgnoreIA5Match (RFC 4519 2.4), fast paths included.
        let dc = Array(KnownOID.domainComponent.encoded)
        let e = try make([[Attribute(type: dc, tag: 0x16, text: "Example")]])
        let f = try make([[Attribute(type: dc, tag: 0x16, text: "example")]])
        #expect(e.isEquivalent(to: f))
        #expect(e.normalizedKey == f.normalizedKey && e.normalizedKeyHash == f.normalizedKeyHash)
        #expect(Self.disagreements(e, f).problems.isEmpty)
    }
}

/// `NameWalker.preparedASCIIEqual` against a plain model of RFC 4518 for ASCII (case folded, leading
/// and trailing spaces dropped, inner runs one space), for every pair of strings of up to four
/// characters over {a, A, b, space}: the shared-prefix shortcut must not change any answer.
@Suite("Prepared ASCII comparison: exhaustive small strings")
struct PreparedASCIIEqualTests {
    static func prepared(_ text: [UInt8]) -> [UInt8] {
        let words = text.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        return Array(words.map { Array($0.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }) }.joined(separator: [UInt8(ascii: " ")]))
    }

    @Test("116,281 pairs agree with the model")
    func exhaustive() {
        let alphabet: [UInt8] = [UInt8(ascii: "a"), UInt8(ascii: "A"), UInt8(ascii: "b"), UInt8(ascii: " ")]
        var strings: [[UInt8]] = [[]]
        var frontier: [[UInt8]] = [[]]
        for _ in 0..<4 {
            frontier = frontier.flatMap { prefix in alphabet.map { prefix + [$0] } }
            strings += frontier
        }
        #expect(strings.count == 341)
        var disagreements: [String] = []
        for x in strings {
            for y in strings {
                let expected = Self.prepared(x) == Self.prepared(y)
                let answer = x.withUnsafeBufferPointer { a in y.withUnsafeBufferPointer { b in NameWalker.preparedASCIIEqual(a, b) } }
                if answer != expected && disagreements.count < 5 {
                    disagreements.append("\"\(String(decoding: x, as: UTF8.self))\" vs \"\(String(decoding: y, as: UTF8.self))\": \(answer)")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }
}
