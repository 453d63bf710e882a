/// The Public Suffix List (https://publicsuffix.org), used to refuse wildcard certificates whose
/// wildcard would cover every name under a registry (`*.co.uk`) or a shared hosting suffix
/// (`*.s3.amazonaws.com`) — the check of CA/Browser Forum BR 3.2.2.6 applied by the client.
///
/// CertPath ships no list, because a stale copy is worse than a current one the system updates:
/// the caller loads the text of Mozilla's `public_suffix_list.dat` (on Debian and Ubuntu the
/// package `publicsuffix` installs it as `/usr/share/publicsuffix/public_suffix_list.dat`) and
/// hands it to ``init(text:sections:)``. Without a list the check is off.
///
/// Format read (the list's own specification): one rule per line, read up to the first
/// whitespace; lines starting with `//` are comments; a rule is a name (`co.uk`), a wildcard rule
/// whose left-most label is `*` (`*.ck`), or an exception rule starting with `!` (`!www.ck`).
/// The list has two sections, marked by the comments `===BEGIN ICANN DOMAINS===` and `===BEGIN
/// PRIVATE DOMAINS===`: suffixes registries sell under (`co.uk`), and suffixes a company delegates
/// itself (`github.io`, `s3.amazonaws.com`). Which are used is ``Sections``: by default the ICANN
/// section only, as Chromium does ("prevent *.com or *.co.uk … but do not prevent *.appspot.com"):
/// a company may get `*.github.io` for the namespace it controls (BR 3.2.2.6), and such
/// certificates are in wide use. ``Sections/all`` adds the PRIVATE section (x509-limbo's
/// `pedantic-public-suffix-wildcard` reading). Rules before any marker, as in a list written by
/// hand, belong to the ICANN section. Rules written with Unicode labels
/// (`公司.cn`) are converted to A-labels with Punycode (RFC 3492) so that they compare with the
/// A-labels of certificates; the list's labels are already in the normalized form IDNA would
/// produce, so no further mapping is done. Lines that are not valid rules — a `*` other than as the
/// whole left-most label, an empty label, a character other than letters, digits and hyphens — are
/// skipped; ``skippedLineCount`` counts them.
///
/// Lookups follow the list's algorithm: the rule that matches the most labels prevails, an
/// exception rule prevails over all others and removes its left-most label, and when nothing
/// matches the implicit rule `*` makes the top-level label a public suffix. Lookups do not
/// allocate: rules are held in a label trie whose child labels are searched by binary search.
public struct PublicSuffixList: Sendable {
    struct Node: Sendable {
        /// Children sorted by label octets.
        var childLabels: [[UInt8]] = []
        var childNodes: [Int] = []
        /// A normal rule ends here.
        var isRule = false
        /// An exception rule (`!` form) ends here.
        var isException = false
        /// A wildcard rule `*.<this node>` exists.
        var hasWildcardChild = false
    }

    private var nodes: [Node] = [Node()]

    /// The number of rules read (normal, wildcard and exception rules).
    public private(set) var ruleCount = 0

    /// The number of non-comment, non-blank lines skipped because they were not valid rules.
    public private(set) var skippedLineCount = 0

    /// Which sections of the list are used (see the type).
    public struct Sections: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Suffixes under which registries sell names (`com`, `co.uk`), and rules before any marker.
        public static let icann = Sections(rawValue: 1)
        /// Suffixes companies delegate themselves (`github.io`, `s3.amazonaws.com`).
        public static let `private` = Sections(rawValue: 2)
        /// Both.
        public static let all: Sections = [.icann, .private]
    }

    /// The sections this list was read with.
    public let sections: Sections

    /// Parses the text of a `public_suffix_list.dat` file (see the type's documentation for the
    /// format). Never fails: invalid lines (and rules longer than 1024 bytes, more than any name can
    /// need) are skipped and counted in ``skippedLineCount``. Linear in the size of the text.
    ///
    /// - Parameters:
    ///   - text: the whole file, UTF-8, with `\n` or `\r\n` line ends; a byte order mark at the start
    ///     is ignored.
    ///   - sections: the sections whose rules are used; ``Sections/icann`` by default.
    public init(text: String, sections: Sections = .icann) {
        self.sections = sections
        var inPrivate = false
        // Lines are found in the UTF-8 bytes (no array of lines: the text may be large); a byte
        // order mark at the start is not part of the first rule.
        var children: [[[UInt8]: Int]] = [[:]]
        let utf8 = text.utf8
        var lineStart = utf8.startIndex
        if utf8.starts(with: [0xEF, 0xBB, 0xBF]) { lineStart = utf8.index(lineStart, offsetBy: 3) }
        while lineStart < utf8.endIndex {
            let lineEnd = utf8[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? utf8.endIndex
            // A rule is only the text up to the first whitespace (a CR of a CRLF line end included).
            let ruleEnd = utf8[lineStart..<lineEnd].firstIndex { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0B || $0 == 0x0C }
                ?? lineEnd
            let rule = Substring(utf8[lineStart..<ruleEnd])
            if rule.hasPrefix("//") {
                let line = Substring(utf8[lineStart..<lineEnd])
                if line.contains("===BEGIN PRIVATE DOMAINS===") { inPrivate = true }
                if line.contains("===END PRIVATE DOMAINS===") || line.contains("===BEGIN ICANN DOMAINS===") { inPrivate = false }
            } else if !rule.isEmpty && sections.contains(inPrivate ? .private : .icann) {
                if !add(rule: rule, children: &children) { skippedLineCount += 1 }
            }
            lineStart = lineEnd < utf8.endIndex ? utf8.index(after: lineEnd) : lineEnd
        }
        // The children of each node, sorted for the binary search of lookups.
        for node in nodes.indices where !children[node].isEmpty {
            let sorted = children[node].sorted { $0.key.lexicographicallyPrecedes($1.key) }
            nodes[node].childLabels = sorted.map(\.key)
            nodes[node].childNodes = sorted.map(\.value)
        }
    }

    /// Whether `name` is itself a public suffix under this list: `co.uk`, `com`, and (with
    /// ``Sections/private``) `s3.amazonaws.com` are; `example.co.uk` is not. Any single-label name is a
    /// public suffix through the implicit `*` rule.
    public func isPublicSuffix(_ name: DNSName) -> Bool {
        isPublicSuffix(dottedName: name.bytes[...])
    }

    /// Whether the dotted ASCII name in `dottedName` is a public suffix (see ``isPublicSuffix(_:)``).
    ///
    /// - Parameter dottedName: A-label form, any ASCII letter case, one trailing dot ignored.
    ///   Empty input, or input with an empty label, is not a public suffix.
    public func isPublicSuffix(dottedName: ArraySlice<UInt8>) -> Bool {
        var name = dottedName
        if name.last == DNSNameSyntax.dot { name = name.dropLast() }  // no copy of a shared buffer
        guard !name.isEmpty else { return false }
        var labelCount = 1
        var previous = DNSNameSyntax.dot  // a leading dot is an empty label
        for byte in name {
            if byte == DNSNameSyntax.dot {
                if previous == DNSNameSyntax.dot { return false }
                labelCount += 1
            }
            previous = byte
        }
        // Walk the labels right to left along the trie; `depth` labels have been consumed.
        var suffixLength = 1  // the implicit "*" rule
        var node = 0
        var depth = 0
        var end = name.endIndex
        while depth < labelCount {
            var start = end
            while start > name.startIndex && name[start - 1] != DNSNameSyntax.dot { start -= 1 }
            depth += 1
            let next = child(of: node, label: name[start..<end])
            if let next, nodes[next].isException {
                // The exception prevails: the suffix is one label shorter than the rule, so it
                // is shorter than the name.
                return false
            }
            if nodes[node].hasWildcardChild || (next.map { nodes[$0].isRule } ?? false) {
                suffixLength = depth
            }
            guard let next else { break }
            node = next
            end = start - 1  // skip the dot (only reached when another label remains)
        }
        return suffixLength == labelCount
    }

    /// Binary search of `node`'s children for `label` (compared lowercase).
    private func child(of node: Int, label: ArraySlice<UInt8>) -> Int? {
        let labels = nodes[node].childLabels
        var low = 0
        var high = labels.count
        while low < high {
            let middle = (low + high) / 2
            switch PublicSuffixList.compare(label, labels[middle]) {
            case 0: return nodes[node].childNodes[middle]
            case ..<0: high = middle
            default: low = middle + 1
            }
        }
        return nil
    }

    /// Lexicographic comparison of `label` (lowercased on the fly) with a stored lowercase label.
    private static func compare(_ label: ArraySlice<UInt8>, _ stored: [UInt8]) -> Int {
        var index = label.startIndex
        for byte in stored {
            guard index < label.endIndex else { return -1 }
            let mine = DNSNameSyntax.lowercased(label[index])
            if mine != byte { return mine < byte ? -1 : 1 }
            index += 1
        }
        return index == label.endIndex ? 0 : 1
    }

    // MARK: Building

    /// The longest rule read, in UTF-8 bytes: a name has at most 253 octets, and a Unicode label of
    /// at most 63 octets once in Punycode takes at most 4 UTF-8 bytes per character.
    static let longestRule = 1024

    /// Adds one rule to the trie under construction (`children`: each node's children by label);
    /// returns `false` when the rule is invalid.
    private mutating func add(rule: Substring, children: inout [[[UInt8]: Int]]) -> Bool {
        guard rule.utf8.count <= Self.longestRule else { return false }
        var text = rule
        var isException = false
        if text.hasPrefix("!") {
            isException = true
            text = text.dropFirst()
        }
        var labels: [[UInt8]] = []
        var isWildcard = false
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 127 else { return false }
        for (position, part) in parts.enumerated() {
            if part == "*" {
                // Only as the whole left-most label of a normal rule, with something after it.
                guard position == 0, !isException, parts.count > 1 else { return false }
                isWildcard = true
                continue
            }
            guard let label = PublicSuffixList.aLabel(part) else { return false }
            labels.append(label)
        }
        if isException && labels.count < 2 { return false }  // "!com" would leave no suffix
        // Insert right to left.
        var node = 0
        for label in labels.reversed() {
            if let next = children[node][label] {
                node = next
            } else {
                let next = nodes.count
                nodes.append(Node())
                children.append([:])
                children[node][label] = next
                node = next
            }
        }
        if isWildcard {
            nodes[node].hasWildcardChild = true
        } else if isException {
            nodes[node].isException = true
        } else {
            nodes[node].isRule = true
        }
        ruleCount += 1
        return true
    }

    /// The lowercase A-label for one label of a rule: ASCII labels as they are (lowercased),
    /// Unicode labels through Punycode with the `xn--` prefix. `nil` when the result is not an
    /// LDH label of 1–63 octets.
    static func aLabel(_ label: Substring) -> [UInt8]? {
        guard !label.isEmpty else { return nil }
        var bytes: [UInt8]
        if label.utf8.allSatisfy({ $0 < 0x80 }) {
            bytes = label.utf8.map(DNSNameSyntax.lowercased)
        } else {
            guard let encoded = Punycode.encode(Array(label.unicodeScalars)) else { return nil }
            bytes = Array("xn--".utf8) + encoded
        }
        guard bytes.count <= 63,
            bytes.allSatisfy({ DNSNameSyntax.isLetterOrDigit($0) || $0 == DNSNameSyntax.hyphen }),
            bytes.first != DNSNameSyntax.hyphen, bytes.last != DNSNameSyntax.hyphen
        else { return nil }
        return bytes
    }
}

/// Punycode encoding (RFC 3492 section 6.3) of one label, for the Unicode rules of the list.
enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 0x80

    private static func digit(_ value: Int) -> UInt8 {
        value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
    }

    private static func adapt(_ delta: Int, _ pointCount: Int, _ first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / pointCount
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    /// The Punycode of `scalars` (lowercase letters and digits, without the `xn--` prefix), or
    /// `nil` for input longer than 63 scalars (never a valid label).
    static func encode(_ scalars: [Unicode.Scalar]) -> [UInt8]? {
        guard !scalars.isEmpty, scalars.count <= 63 else { return nil }
        let codePoints = scalars.map { Int($0.value) }
        var output: [UInt8] = codePoints.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = initialN
        var delta = 0
        var bias = initialBias
        var handled = basicCount
        while handled < codePoints.count {
            // The smallest code point not yet handled; it exists because handled < count.
            let m = codePoints.filter { $0 >= n }.min() ?? n
            delta += (m - n) * (handled + 1)  // at most 0x10FFFF * 64: no overflow in Int
            n = m
            for point in codePoints {
                if point < n { delta += 1 }
                if point == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return output
    }
}
