/// The elements of a certificate's list-valued path-relevant extensions, as parsing found them:
/// each subjectAltName GeneralName (RFC 5280 4.2.1.6), each extKeyUsage KeyPurposeId (4.2.1.12),
/// each certificatePolicies policyIdentifier (4.2.1.4), and each critical extension CertPath does
/// not process (4.2), in encoded order. The parser is the only decoder of these bytes: validation, name matching and
/// name constraints read the offsets it kept, never the encoding again (as Chromium's
/// `ParsedCertificate` keeps the decoded extensions).
///
/// The three lists are runs of one sequence of elements, list after list in the order their
/// extensions come. The first ``inlineCapacity`` elements are held in the value itself, packed in
/// a word each, and the rest in an array: a leaf's few names, purposes and policies cost no
/// allocation (an array for them made parsing a leaf 6.6% slower, measured in Benchmarks/README.md).
package struct ExtensionElements: ExtensionElementSink, Sendable {
    /// One element: its tag number (a GeneralName's `[n]`: `2` dNSName, `7` iPAddress…; `6` for an
    /// OBJECT IDENTIFIER) and the offsets of its contents octets in the certificate's DER.
    package struct Element: Sendable, Equatable {
        package let tag: UInt8
        package let contents: Range<Int>
    }

    /// An extension CertPath does not process that is marked critical: the offsets of its extnID
    /// and extnValue contents.
    package struct UnknownCriticalExtension: Sendable, Equatable {
        package let oid: Range<Int>
        package let value: Range<Int>
    }

    /// The lists an element can belong to.
    package enum List: Sendable { case subjectAltName, extendedKeyUsage, policyIdentifiers }

    /// How many elements are held inline.
    package static let inlineCapacity = 8
    /// The first `inlineCount` elements: contents start in bits 0–31, length in bits 32–55, tag in
    /// bits 56–63.
    private var inline: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var inlineCount = 0
    /// The elements after the inline ones (an element too far or too long to pack, and all after
    /// it, are held here too).
    private var overflow: [Element] = []
    /// The run of element indices of each list (empty when the extension is absent).
    private var subjectAltNameRun = 0..<0
    private var extendedKeyUsageRun = 0..<0
    private var policyIdentifierRun = 0..<0
    /// Whether an unknown critical extension was recorded: its extnID and extnValue are two
    /// elements (tags ``unknownCriticalOID`` and ``unknownCriticalValue``) among the lists' runs.
    package private(set) var hasUnknownCritical = false
    private static let unknownCriticalOID: UInt8 = 0xFE
    private static let unknownCriticalValue: UInt8 = 0xFF

    package init() {}

    /// The number of elements of all lists.
    package var count: Int { inlineCount + overflow.count }

    /// The element at `index`, `0 ..< count`.
    private func element(at index: Int) -> Element {
        guard index < inlineCount else { return overflow[index - inlineCount] }
        let word = withUnsafeBytes(of: inline) { $0.load(fromByteOffset: index * 8, as: UInt64.self) }
        let start = Int(truncatingIfNeeded: word & 0xFFFF_FFFF)
        return Element(tag: UInt8(truncatingIfNeeded: word >> 56), contents: start..<start + Int((word >> 32) & 0xFF_FFFF))
    }

    /// Appends an element (of the list whose run is closed next).
    @inline(__always)
    package mutating func append(_ tag: UInt8, _ contents: Range<Int>) {
        guard _fastPath(inlineCount < Self.inlineCapacity && overflow.isEmpty
                        && contents.lowerBound <= 0xFFFF_FFFF && contents.count <= 0xFF_FFFF) else {
            overflow.append(Element(tag: tag, contents: contents))
            return
        }
        let word = UInt64(contents.lowerBound) | UInt64(contents.count) << 32 | UInt64(tag) << 56
        let index = inlineCount
        withUnsafeMutableBytes(of: &inline) { $0.storeBytes(of: word, toByteOffset: index * 8, as: UInt64.self) }
        inlineCount += 1
    }

    private func run(_ list: List) -> Range<Int> {
        switch list {
        case .subjectAltName: return subjectAltNameRun
        case .extendedKeyUsage: return extendedKeyUsageRun
        case .policyIdentifiers: return policyIdentifierRun
        }
    }

    /// Calls `body` with each element of `list`, in encoded order, until it returns `false`;
    /// returns whether it never did.
    package func forEach(_ list: List, _ body: (Element) -> Bool) -> Bool {
        for index in run(list) where !body(element(at: index)) { return false }
        return true
    }

    /// How many elements `list` has.
    package func count(of list: List) -> Int { run(list).count }

    /// Makes the elements appended since `start` (the ``count`` then) the run of `list`.
    package mutating func close(_ list: List, from start: Int) {
        let run = start..<count
        switch list {
        case .subjectAltName: subjectAltNameRun = run
        case .extendedKeyUsage: extendedKeyUsageRun = run
        case .policyIdentifiers: policyIdentifierRun = run
        }
    }

    /// Records an unknown critical extension.
    package mutating func appendUnknownCritical(oid: Range<Int>, value: Range<Int>) {
        append(Self.unknownCriticalOID, oid)
        append(Self.unknownCriticalValue, value)
        hasUnknownCritical = true
    }

    /// The unknown critical extensions, in encoded order.
    package var unknownCritical: [UnknownCriticalExtension] {
        guard hasUnknownCritical else { return [] }
        var found: [UnknownCriticalExtension] = []
        var index = 0
        while index < count {
            let oid = element(at: index)
            if oid.tag == Self.unknownCriticalOID {
                found.append(UnknownCriticalExtension(oid: oid.contents, value: element(at: index + 1).contents))
                index += 1
            }
            index += 1
        }
        return found
    }
}

/// Where a reader of a list-valued extension puts the tag number and contents offsets of each
/// element it validates: ``ExtensionElements`` when parsing a certificate, ``DiscardedElements``
/// when decoding the list as values.
package protocol ExtensionElementSink {
    mutating func append(_ tag: UInt8, _ contents: Range<Int>)
}

/// A sink that keeps nothing.
package struct DiscardedElements: ExtensionElementSink {
    /// Storage of its own: a value of no size passed `inout` has no address of its own, and
    /// ThreadSanitizer took the placeholder address two threads were given for a data race.
    private var unused: UInt8 = 0
    package init() {}
    @inline(__always) package mutating func append(_ tag: UInt8, _ contents: Range<Int>) {}
}
