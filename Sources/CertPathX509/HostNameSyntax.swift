// Host-name and mailbox syntax (RFC 1034 3.5, RFC 1123 2.1, RFC 5321 4.1.2), allocation-free: the
// reference identifiers CertPath checks (ReferenceIdentifier.swift) and the subjectAltName rows of
// the rules table, which parsing decides (CertificateRuleChecks.swift), use the same rules.

/// Why text is not a valid reference identifier (RFC 6125 6.2, RFC 1034 3.5, RFC 1123 2.1,
/// RFC 5321 4.1.2). Offsets count UTF-8 bytes from the start of the text given.
public enum ReferenceIdentifierError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is empty (or is only `.`).
    case empty
    /// The name is longer than 253 octets without its trailing dot (RFC 1035 2.3.4).
    case nameTooLong(length: Int)
    /// A label is empty: two dots in a row, a leading dot, or more than one trailing dot.
    /// `offset` is where the empty label starts.
    case emptyLabel(offset: Int)
    /// The label starting at `offset` is longer than 63 octets (RFC 1035 2.3.4).
    case labelTooLong(offset: Int)
    /// The hyphen at `offset` begins or ends a label (RFC 1034 3.5, RFC 5891 4.2.3.1).
    case hyphenAtLabelEdge(offset: Int)
    /// An underscore at `offset`: not allowed in a host name (RFC 1123 2.1; BR 7.1.2.7.12).
    case underscore(offset: Int)
    /// A `*` at `offset`: a reference identifier names one host, never a pattern (RFC 6125 6.2.1).
    case wildcard(offset: Int)
    /// A control character (0x00–0x1F or 0x7F; NUL included) at `offset`.
    case controlCharacter(offset: Int)
    /// An ASCII character at `offset` that has no place in a host name (space, `/`, `[`, `%`, …).
    case invalidCharacter(offset: Int)
    /// The text has non-ASCII characters (a U-label). CertPath does not implement IDNA: convert
    /// the name to A-labels (`xn--…`, RFC 5891) before calling.
    case internationalizedNameNeedsALabel
    /// The text is a valid IP address where a DNS name was required.
    case isIPAddress
    /// The text's last label is all digits or `0x` hex, so it was meant as an IPv4 address, but it
    /// is not a strict dotted quad (`1.2.3`, `010.0.0.1`, `0x7f.0.0.1`, `1.2.3.4.5`).
    case invalidIPv4Address
    /// The text contains a colon but is not a valid IPv6 address (zone id, brackets, port,
    /// a second `::`, a group of more than 4 digits, a wrong number of groups).
    case invalidIPv6Address
    /// An email address without exactly one `@`.
    case missingAtSign
    /// The email local part is not an RFC 5321 Dot-string: the byte at `offset` is not `atext`,
    /// or is a dot at the start, at the end or after another dot, or the local part is empty.
    case invalidLocalPart(offset: Int)
    /// The email local part is longer than 64 octets (RFC 5321 4.5.3.1.1).
    case localPartTooLong(length: Int)

    /// A sentence saying what is wrong.
    public var description: String {
        switch self {
        case .empty:
            return "the name is empty"
        case .nameTooLong(let length):
            return "the name is \(length) octets long; a DNS name has at most 253"
        case .emptyLabel(let offset):
            return "empty label at byte \(offset) (two dots in a row, or a leading or extra trailing dot)"
        case .labelTooLong(let offset):
            return "the label at byte \(offset) is longer than 63 octets"
        case .hyphenAtLabelEdge(let offset):
            return "the hyphen at byte \(offset) starts or ends a label"
        case .underscore(let offset):
            return "underscore at byte \(offset): host names allow only letters, digits and hyphens"
        case .wildcard(let offset):
            return "'*' at byte \(offset): a reference identifier names one host, not a pattern"
        case .controlCharacter(let offset):
            return "control character at byte \(offset)"
        case .invalidCharacter(let offset):
            return "byte \(offset) is not a letter, digit, hyphen or dot"
        case .internationalizedNameNeedsALabel:
            return "the name has non-ASCII characters; convert it to A-labels (xn--...) with IDNA first"
        case .isIPAddress:
            return "the text is an IP address, not a DNS name"
        case .invalidIPv4Address:
            return "the last label is numeric, so this is meant as an IPv4 address, but it is not a strict dotted quad"
        case .invalidIPv6Address:
            return "the text contains ':' but is not a valid IPv6 address (no brackets, zone ids or ports)"
        case .missingAtSign:
            return "an email address needs exactly one '@'"
        case .invalidLocalPart(let offset):
            return "the email local part is not a valid dot-string at byte \(offset)"
        case .localPartTooLong(let length):
            return "the email local part is \(length) octets long; at most 64 are allowed"
        }
    }

    /// The same error with its offset moved by `delta` (for a name checked inside larger text).
    package func shifted(by delta: Int) -> ReferenceIdentifierError {
        switch self {
        case .emptyLabel(let offset): return .emptyLabel(offset: offset + delta)
        case .labelTooLong(let offset): return .labelTooLong(offset: offset + delta)
        case .hyphenAtLabelEdge(let offset): return .hyphenAtLabelEdge(offset: offset + delta)
        case .underscore(let offset): return .underscore(offset: offset + delta)
        case .wildcard(let offset): return .wildcard(offset: offset + delta)
        case .controlCharacter(let offset): return .controlCharacter(offset: offset + delta)
        case .invalidCharacter(let offset): return .invalidCharacter(offset: offset + delta)
        case .invalidLocalPart(let offset): return .invalidLocalPart(offset: offset + delta)
        default: return self
        }
    }
}

/// Host-name syntax shared by reference and presented identifiers; allocation-free.
package enum DNSNameSyntax {
    package static let dot = UInt8(ascii: ".")
    package static let hyphen = UInt8(ascii: "-")
    package static let star = UInt8(ascii: "*")

    @inline(__always)
    package static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    @inline(__always)
    package static func isLetterOrDigit(_ byte: UInt8) -> Bool { HostNameCharacters.isLetterOrDigit(byte) }

    /// Checks `name` (no trailing dot expected: one would be an empty last label) against the
    /// preferred name syntax. With `allowWildcard`, a left-most label that is exactly `*` is
    /// accepted. Returns the first violation, with offsets relative to `name.startIndex`.
    package static func check(_ name: ArraySlice<UInt8>, allowWildcard: Bool) -> ReferenceIdentifierError? {
        name.withUnsafeBufferPointer { check($0, allowWildcard: allowWildcard) }
    }

    /// ``check(_:allowWildcard:)`` over the bytes in place (no bounds-checked slice access per byte).
    private static func check(_ name: UnsafeBufferPointer<UInt8>, allowWildcard: Bool) -> ReferenceIdentifierError? {
        if name.isEmpty { return .empty }
        if name.count > 253 { return .nameTooLong(length: name.count) }
        var labelStart = 0
        var index = 0
        while index < name.count {
            let byte = name[index]
            if byte == dot {
                if index == labelStart { return .emptyLabel(offset: labelStart) }
                if name[index - 1] == hyphen { return .hyphenAtLabelEdge(offset: index - 1) }
                labelStart = index + 1
            } else if isLetterOrDigit(byte) {
                // fine
            } else if byte == hyphen {
                if index == labelStart { return .hyphenAtLabelEdge(offset: index) }
            } else if byte >= 0x80 {
                return .internationalizedNameNeedsALabel
            } else if byte < 0x20 || byte == 0x7F {
                return .controlCharacter(offset: index)
            } else if byte == UInt8(ascii: "_") {
                return .underscore(offset: index)
            } else if byte == star {
                let wholeLeftMostLabel = index == 0 && (index + 1 == name.count || name[index + 1] == dot)
                if !(allowWildcard && wholeLeftMostLabel) { return .wildcard(offset: index) }
            } else {
                return .invalidCharacter(offset: index)
            }
            if index - labelStart >= 63 { return .labelTooLong(offset: labelStart) }
            index += 1
        }
        if labelStart == name.count { return .emptyLabel(offset: labelStart) }
        if name[name.count - 1] == hyphen { return .hyphenAtLabelEdge(offset: name.count - 1) }
        return nil
    }

    /// Whether the last label is all decimal digits, or `0x`/`0X` followed by hex digits: the
    /// labels a URL parser (WHATWG "ends in a number") would read as an IPv4 address.
    package static func lastLabelIsNumeric(_ name: ArraySlice<UInt8>) -> Bool {
        let start = (name.lastIndex(of: dot).map { $0 + 1 }) ?? name.startIndex
        let label = name[start...]
        guard !label.isEmpty else { return false }
        if label.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return true }
        guard label.count >= 2, label[start] == UInt8(ascii: "0"), label[start + 1] | 0x20 == UInt8(ascii: "x")
        else { return false }
        return label.dropFirst(2).allSatisfy { byte in
            let lower = byte | 0x20
            return (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f"))
        }
    }
}

/// RFC 5321 4.1.2 Dot-string local parts; allocation-free.
package enum RFC822Syntax {
    /// The first violation of the Dot-string rules in `local`, offsets relative to its start.
    package static func checkLocalPart(_ local: ArraySlice<UInt8>) -> ReferenceIdentifierError? {
        if let offset = HostNameCharacters.firstDotStringViolation(local) { return .invalidLocalPart(offset: offset) }
        if local.count > 64 { return .localPartTooLong(length: local.count) }
        return nil
    }
}
