#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CertPathDER

/// A distinguished name prepared for the RFC 5280 7.1 comparison: equal keys mean matching names.
///
/// Each attribute is compared by its matching rule. Values of PrintableString, UTF8String,
/// BMPString and UniversalString are transcoded to UTF-8, leading and trailing spaces removed, inner
/// runs of spaces folded to one, and case folded (RFC 4518 insignificant-space handling and case
/// mapping, without Unicode normalization; RFC 5280 7.1), whatever the attribute type: the
/// DirectoryString attributes of RFC 4519 (commonName, countryName, serialNumber, …) all match with
/// caseIgnoreMatch. IA5String values are prepared the same way, whatever the attribute type: the
/// attributes whose syntax is IA5String match with caseIgnoreIA5Match (RFC 4517 4.2.13: case folded,
/// insignificant spaces handled) — domainComponent (RFC 4519 2.4; RFC 5280 7.3 "case-insensitive
/// exact match"), emailAddress and unstructuredName (PKCS #9, RFC 2985; RFC 5280 4.1.2.6 "not
/// case-sensitive"), mail and associatedDomain (RFC 4524 2.16, 2.1) — and a DirectoryString
/// attribute a CA wrote as IA5String (`O=Example` in ASCII) is compared with its PrintableString or
/// UTF8String spelling, as Chromium's verifier does (its NormalizeValue prepares IA5String for every
/// attribute): an excluded directoryName subtree cannot be passed by changing a value's string type.
/// Values of other types (TeletexString, VisibleString, non-strings) must match exactly, tag and
/// bytes: CertPath knows no rule for them, and binary equality never makes two different names equal.
/// Attributes of a multi-valued RDN are compared as a set.
public struct NormalizedName: Hashable, Sendable {
    /// An encoding of the prepared RDNs; opaque, only compared and hashed.
    public let bytes: [UInt8]

    /// Hashes the bytes in one pass (an array of bytes would otherwise be hashed byte by byte).
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

extension Name {
    /// The key of this name for RFC 5280 7.1 comparison and for indexing issuers by subject.
    public var normalizedKey: NormalizedName {
        if let key = asciiNormalizedKey() { return NormalizedName(bytes: key) }
        return NormalizedName(bytes: generalNormalizedKey())
    }

    /// ``normalizedKey``'s bytes by the general construction (every string type transcoded through
    /// `String`), which the ASCII construction must reproduce.
    package func generalNormalizedKey() -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(der.count)
        forEachRDN { attributes in
            var prepared = attributes.map(Name.prepare)
            if prepared.count > 1 { prepared.sort { $0.lexicographicallyPrecedes($1) } }
            key.append(0xF0)  // RDN separator
            for attribute in prepared { key.append(contentsOf: attribute) }
        }
        return key
    }

    /// Whether `other` names the same entity under RFC 5280 7.1 (byte equality is the fast path).
    ///
    /// Equivalent to comparing ``normalizedKey``s. RDNs encoded identically are passed whole;
    /// names of otherwise single-valued RDNs are compared attribute by attribute without building
    /// keys (ASCII strings prepared on the fly); anything else compares the keys.
    public func isEquivalent(to other: Name) -> Bool {
        if der.count == other.der.count && Name.bytesEqual(der, other.der) { return true }
        switch NameWalker.compare(der, other.der) {
        case .equal: return true
        case .different: return false
        case .undecided: return generalNormalizedKey() == other.generalNormalizedKey()
        }
    }

    package static func bytesEqual(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
            }
        }
    }

    /// A hash of ``normalizedKey`` (this process's seeded `Hasher` over its bytes), computed without
    /// building the key when ``writeASCIINormalizedKey(into:)`` applies.
    package var normalizedKeyHash: Int {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: der.count * 2 + 16) { buffer in
            var hasher = Hasher()
            if let count = writeASCIINormalizedKey(into: buffer) {
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[0..<count])))
            } else {
                generalNormalizedKey().withUnsafeBytes { hasher.combine(bytes: $0) }
            }
            return hasher.finalize()
        }
    }

    /// ``normalizedKey`` built directly from the DER when every RDN has one attribute and every
    /// PrintableString or UTF8String value is ASCII (the key bytes are then the same as the general
    /// construction's); `nil` otherwise.
    private func asciiNormalizedKey() -> [UInt8]? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: der.count * 2 + 16) { buffer in
            guard let count = writeASCIINormalizedKey(into: buffer) else { return nil }
            return Array(buffer[0..<count])
        }
    }

    /// Writes the bytes of ``normalizedKey`` into `out` when every RDN has one attribute and every
    /// PrintableString or UTF8String value is ASCII, and they fit; returns how many, or `nil`.
    ///
    /// Each single-valued RDN is `F0`, the attribute type (4-byte length, contents octets), then `00`
    /// and the prepared ASCII text (4-byte length, bytes) for PrintableString, UTF8String and the
    /// IA5String, or `01`
    /// and the value's complete encoding (4-byte length, bytes) for other types but BMPString and
    /// UniversalString (which take the general construction).
    private func writeASCIINormalizedKey(into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        der.withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<UInt8>) -> Int? in
            var count = 0
            var fits = true
            @inline(__always) func put(_ byte: UInt8) {
                if count < out.count { out[count] = byte } else { fits = false }
                count += 1
            }
            @inline(__always) func putLength(_ length: Int, at position: Int) {
                guard position + 4 <= out.count else { fits = false; return }
                out[position] = UInt8(truncatingIfNeeded: length >> 24)
                out[position + 1] = UInt8(truncatingIfNeeded: length >> 16)
                out[position + 2] = UInt8(truncatingIfNeeded: length >> 8)
                out[position + 3] = UInt8(truncatingIfNeeded: length)
            }
            @inline(__always) func putBytes(_ range: Range<Int>) {
                putLength(range.count, at: count)
                count += 4
                for index in range { put(buffer[index]) }
            }
            let complete = NameWalker.forEachAttribute(buffer) { (single, type, tag, value, encoded) -> Bool in
                guard single else { return false }
                put(0xF0)
                putBytes(type)
                let prepared: Bool
                switch tag {
                case DERTag.printableString.rawValue, DERTag.utf8String.rawValue, DERTag.ia5String.rawValue,
                     DERTag.teletexString.rawValue, DERTag.visibleString.rawValue, DERTag.numericString.rawValue:
                    prepared = true
                case DERTag.bmpString.rawValue, DERTag.universalString.rawValue:
                    return false
                default:
                    prepared = false
                }
                if prepared {
                    let text = UnsafeBufferPointer(rebasing: buffer[value])
                    guard NameWalker.isSimplyPreparedASCII(text) else { return false }
                    put(0)
                    let lengthAt = count
                    count += 4
                    let start = count
                    NameWalker.forEachPreparedASCII(text) { put($0) }
                    putLength(count - start, at: lengthAt)
                } else {
                    put(1)
                    putBytes(encoded)
                }
                return fits
            }
            return complete && fits ? count : nil
        }
    }

    private static func prepare(_ attribute: AttributeTypeAndValue) -> [UInt8] {
        var out: [UInt8] = []
        func appendLengthPrefixed<C: Collection<UInt8>>(_ bytes: C) {
            let count = bytes.count
            out.append(contentsOf: [UInt8(truncatingIfNeeded: count >> 24), UInt8(truncatingIfNeeded: count >> 16),
                                    UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)])
            out.append(contentsOf: bytes)
        }
        appendLengthPrefixed(attribute.type.encoded)
        let prepared: Bool
        switch attribute.valueTag {
        case .printableString, .utf8String, .bmpString, .universalString, .ia5String, .teletexString, .visibleString, .numericString:
            prepared = true
        default:
            prepared = false
        }
        if prepared, let text = attribute.stringValue {
            out.append(0)
            appendLengthPrefixed(Array(prepareString(text).utf8))
        } else {
            out.append(1)
            appendLengthPrefixed(attribute.encodedValue)
        }
        return out
    }

    /// RFC 4518 insignificant space handling and case folding of one value.
    /// Whether RFC 4518 2.2 maps `scalar` to nothing (whitespace, mapped to SPACE, is handled before).
    static func mapsToNothing(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00AD, 0x1806, 0x034F, 0x180B...0x180D, 0xFE00...0xFE0F, 0xFFFC, 0x200B: return true
        default:
            let category = scalar.properties.generalCategory
            return category == .control || category == .format
        }
    }

    package static func prepareString(_ text: String) -> String {
        var folded = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !folded.isEmpty
                continue
            }
            // RFC 4518 2.2 (Map): soft hyphens, the combining grapheme joiner, variation selectors,
            // the object replacement character, zero-width space and every other control or format
            // character are mapped to nothing (a spelling with them is the same name).
            if Self.mapsToNothing(scalar) { continue }
            // RFC 4518 2.3 (Normalize, NFKC), in part: the fullwidth forms of ASCII (U+FF01-U+FF5E)
            // are their ASCII characters, so `Ｅｖｉｌ` is `Evil` (a spelling that would otherwise pass
            // an excluded subtree; the ideographic space is whitespace, above). The rest of NFKC needs
            // Unicode's tables, which this Foundation-free module does not carry (OpenSSL applies none).
            if (0xFF01...0xFF5E).contains(scalar.value), let ascii = Unicode.Scalar(scalar.value - 0xFEE0) {
                if pendingSpace {
                    folded.append(" ")
                    pendingSpace = false
                }
                folded.unicodeScalars.append(ascii)
                continue
            }
            if pendingSpace {
                folded.append(" ")
                pendingSpace = false
            }
            folded.unicodeScalars.append(scalar)
        }
        return folded.lowercased()
    }
}

/// Reading of a validated Name's DER for comparison, without building values: RDNs, their
/// attributes, and RFC 4518 preparation of ASCII strings (whitespace U+0009–U+000D and U+0020
/// trimmed and folded to one space, A–Z lowercased, as the general preparation does for ASCII).
package enum NameWalker {
    package enum Comparison { case equal, different, undecided }

    /// Reads one TLV at `index` (DER already validated; bounds still checked): its tag, the range
    /// of its contents and of its whole encoding.
    @inline(__always)
    package static func element(_ p: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ end: Int) -> (tag: UInt8, value: Range<Int>, encoded: Range<Int>)? {
        let start = index
        guard end - start >= 2 else { return nil }
        let tag = p[start]
        var length = Int(p[start + 1])
        var cursor = start + 2
        if length >= 0x80 {
            let count = length & 0x7F
            guard count >= 1, count <= 4, end - cursor >= count else { return nil }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(p[cursor])
                cursor += 1
            }
        }
        guard end - cursor >= length else { return nil }
        index = cursor + length
        return (tag, cursor..<(cursor + length), start..<(cursor + length))
    }

    /// Calls `body(isSingleValuedRDN, typeContents, valueTag, valueContents, valueEncoding)` for each
    /// attribute in order; stops when `body` returns `false`. Returns whether every attribute was
    /// visited (`false` also for a structure that does not read).
    package static func forEachAttribute(
        _ p: UnsafeBufferPointer<UInt8>,
        _ body: (Bool, Range<Int>, UInt8, Range<Int>, Range<Int>) -> Bool
    ) -> Bool {
        var index = 0
        guard let name = element(p, &index, p.count), name.tag == 0x30 else { return false }
        var rdnIndex = name.value.lowerBound
        while rdnIndex < name.value.upperBound {
            guard let rdn = element(p, &rdnIndex, name.value.upperBound), rdn.tag == 0x31 else { return false }
            var atvIndex = rdn.value.lowerBound
            var first = true
            while atvIndex < rdn.value.upperBound {
                guard let atv = element(p, &atvIndex, rdn.value.upperBound), atv.tag == 0x30 else { return false }
                let single = first && atvIndex == rdn.value.upperBound
                first = false
                var fieldIndex = atv.value.lowerBound
                guard let type = element(p, &fieldIndex, atv.value.upperBound), type.tag == 0x06,
                      let value = element(p, &fieldIndex, atv.value.upperBound) else { return false }
                guard body(single, type.value, value.tag, value.value, value.encoded) else { return false }
            }
        }
        return true
    }

    /// Whether every byte is below 0x80.
    @inline(__always)
    package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var combined: UInt8 = 0
        for byte in bytes { combined |= byte }
        return combined < 0x80
    }

    /// Whether the ASCII fast paths prepare `bytes` exactly as ``NormalizedName/prepareString(_:)``
    /// does: printable ASCII and whitespace only (a control character is mapped to nothing by RFC
    /// 4518 2.2, which the general path does).
    @inline(__always)
    package static func isSimplyPreparedASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where !(byte >= 0x20 && byte < 0x7F) && !isSpace(byte) { return false }
        return true
    }

    @inline(__always)
    package static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    /// The RFC 4518 prepared form of an ASCII string, byte by byte.
    @inline(__always)
    package static func forEachPreparedASCII(_ text: UnsafeBufferPointer<UInt8>, _ body: (UInt8) -> Void) {
        var pendingSpace = false
        var started = false
        for byte in text {
            if isSpace(byte) {
                pendingSpace = started
                continue
            }
            if pendingSpace {
                body(0x20)
                pendingSpace = false
            }
            started = true
            body(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        }
    }

    /// Whether the prepared forms of two ASCII strings are equal.
    package static func preparedASCIIEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        // Common case first: same length, compared case-insensitively byte by byte; a difference
        // other than a space is final unless whitespace needs folding (then the general loop).
        if a.count == b.count {
            var index = 0
            while index < a.count {
                let x = a[index], y = b[index]
                if x != y && (x | 0x20 != y | 0x20 || !(x | 0x20 >= 0x61 && x | 0x20 <= 0x7A)) { break }
                index += 1
            }
            if index == a.count {
                // Equal up to case; equal prepared unless whitespace is folded differently, which
                // cannot happen when the bytes at whitespace positions are the same.
                return true
            }
        }
        // Identical leading bytes are prepared identically: the loop below may start right after
        // the last non-space byte they share, where it would have arrived having compared them.
        var same = 0
        let shorter = min(a.count, b.count)
        while same < shorter && a[same] == b[same] { same += 1 }
        while same > 0 && isSpace(a[same - 1]) { same -= 1 }
        var i = same, j = same
        // Leading whitespace is dropped.
        if same == 0 {
            while i < a.count && isSpace(a[i]) { i += 1 }
            while j < b.count && isSpace(b[j]) { j += 1 }
        }
        while true {
            // Whitespace runs: one space if more text follows, nothing at the end.
            var spaceA = false, spaceB = false
            while i < a.count && isSpace(a[i]) { i += 1; spaceA = true }
            while j < b.count && isSpace(b[j]) { j += 1; spaceB = true }
            let endA = i == a.count, endB = j == b.count
            if endA || endB { return endA && endB }
            guard spaceA == spaceB else { return false }
            let x = a[i], y = b[j]
            let lx = x >= 0x41 && x <= 0x5A ? x | 0x20 : x
            let ly = y >= 0x41 && y <= 0x5A ? y | 0x20 : y
            guard lx == ly else { return false }
            i += 1
            j += 1
        }
    }

    /// Compares two validated Names attribute by attribute when both have single-valued RDNs:
    /// types must be equal; PrintableString, UTF8String and IA5String ASCII values are compared
    /// prepared; values of
    /// other types than those and BMPString and UniversalString byte for byte (tag included); an RDN
    /// or value encoded exactly as the other's (multi-valued RDNs too) is equal without reading it,
    /// and unequal bytes are never final for a value that is prepared. `undecided` when something
    /// needs the general comparison.
    package static func compare(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Comparison {
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                compare(pa, pb)
            }
        }
    }

    private static func isPreparedType(_ tag: UInt8) -> Bool {
        tag == DERTag.printableString.rawValue || tag == DERTag.utf8String.rawValue || tag == DERTag.ia5String.rawValue
            || tag == DERTag.teletexString.rawValue || tag == DERTag.visibleString.rawValue || tag == DERTag.numericString.rawValue
            || tag == DERTag.bmpString.rawValue || tag == DERTag.universalString.rawValue
    }

    private static func compare(_ pa: UnsafeBufferPointer<UInt8>, _ pb: UnsafeBufferPointer<UInt8>) -> Comparison {
        var ia = 0, ib = 0
        guard let na = element(pa, &ia, pa.count), na.tag == 0x30,
              let nb = element(pb, &ib, pb.count), nb.tag == 0x30 else { return .undecided }
        var ra = na.value.lowerBound, rb = nb.value.lowerBound
        while true {
            let doneA = ra >= na.value.upperBound, doneB = rb >= nb.value.upperBound
            if doneA || doneB { return doneA && doneB ? .equal : .different }
            guard let rdnA = element(pa, &ra, na.value.upperBound), rdnA.tag == 0x31,
                  let rdnB = element(pb, &rb, nb.value.upperBound), rdnB.tag == 0x31 else { return .undecided }
            // The same encoding of a whole RDN is the same RDN (the usual case for all but the last).
            if rdnA.encoded.count == rdnB.encoded.count,
               memcmp(pa.baseAddress! + rdnA.encoded.lowerBound, pb.baseAddress! + rdnB.encoded.lowerBound, rdnA.encoded.count) == 0 {
                continue
            }
            var xa = rdnA.value.lowerBound, xb = rdnB.value.lowerBound
            guard let atvA = element(pa, &xa, rdnA.value.upperBound), atvA.tag == 0x30, xa == rdnA.value.upperBound,
                  let atvB = element(pb, &xb, rdnB.value.upperBound), atvB.tag == 0x30, xb == rdnB.value.upperBound
            else { return .undecided }  // a multi-valued RDN: compared as a set by the general path
            var fa = atvA.value.lowerBound, fb = atvB.value.lowerBound
            guard let typeA = element(pa, &fa, atvA.value.upperBound), let valueA = element(pa, &fa, atvA.value.upperBound),
                  let typeB = element(pb, &fb, atvB.value.upperBound), let valueB = element(pb, &fb, atvB.value.upperBound)
            else { return .undecided }
            guard typeA.value.count == typeB.value.count,
                  memcmp(pa.baseAddress! + typeA.value.lowerBound, pb.baseAddress! + typeB.value.lowerBound, typeA.value.count) == 0
            else { return .different }
            // The same encoding (tag, length, contents) is equal however it is prepared.
            if valueA.encoded.count == valueB.encoded.count,
               memcmp(pa.baseAddress! + valueA.encoded.lowerBound, pb.baseAddress! + valueB.encoded.lowerBound,
                      valueA.encoded.count) == 0 {
                continue
            }
            let preparedA = isPreparedType(valueA.tag), preparedB = isPreparedType(valueB.tag)
            if !preparedA && !preparedB {
                guard valueA.encoded.count == valueB.encoded.count,
                      memcmp(pa.baseAddress! + valueA.encoded.lowerBound, pb.baseAddress! + valueB.encoded.lowerBound,
                             valueA.encoded.count) == 0
                else { return .different }
                continue
            }
            let textA = UnsafeBufferPointer(rebasing: pa[valueA.value]), textB = UnsafeBufferPointer(rebasing: pb[valueB.value])
            guard valueA.tag != DERTag.bmpString.rawValue, valueA.tag != DERTag.universalString.rawValue,
                  valueB.tag != DERTag.bmpString.rawValue, valueB.tag != DERTag.universalString.rawValue,
                  preparedA && preparedB, isSimplyPreparedASCII(textA), isSimplyPreparedASCII(textB) else { return .undecided }
            guard preparedASCIIEqual(textA, textB) else { return .different }
        }
    }
}
