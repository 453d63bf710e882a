/// A distinguished name prepared for the RFC 5280 7.1 comparison: equal keys mean matching names.
///
/// Values of PrintableString, UTF8String, BMPString and UniversalString are transcoded to UTF-8,
/// leading and trailing spaces removed, inner runs of spaces folded to one, and case folded
/// (RFC 4518 insignificant-space handling and case mapping, without Unicode normalization); values
/// of other types (IA5String, TeletexString, non-strings) must match exactly, tag and bytes.
/// Attributes of a multi-valued RDN are compared as a set.
public struct NormalizedName: Hashable, Sendable {
    /// An encoding of the prepared RDNs; opaque, only compared and hashed.
    public let bytes: [UInt8]
}

extension Name {
    /// The key of this name for RFC 5280 7.1 comparison and for indexing issuers by subject.
    public var normalizedKey: NormalizedName {
        var key: [UInt8] = []
        key.reserveCapacity(der.count)
        forEachRDN { attributes in
            var prepared = attributes.map(Name.prepare)
            if prepared.count > 1 { prepared.sort { $0.lexicographicallyPrecedes($1) } }
            key.append(0xF0)  // RDN separator
            for attribute in prepared { key.append(contentsOf: attribute) }
        }
        return NormalizedName(bytes: key)
    }

    /// Whether `other` names the same entity under RFC 5280 7.1 (byte equality is the fast path).
    public func isEquivalent(to other: Name) -> Bool {
        der == other.der || normalizedKey == other.normalizedKey
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
        switch attribute.valueTag {
        case .printableString, .utf8String, .bmpString, .universalString:
            if let text = attribute.stringValue {
                out.append(0)
                appendLengthPrefixed(Array(prepareString(text).utf8))
                return out
            }
            fallthrough
        default:
            out.append(1)
            appendLengthPrefixed(attribute.encodedValue)
        }
        return out
    }

    /// RFC 4518 insignificant space handling and case folding of one value.
    static func prepareString(_ text: String) -> String {
        var folded = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !folded.isEmpty
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
