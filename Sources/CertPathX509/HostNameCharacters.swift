/// Character classes of host names and mailboxes, shared by the model's name-constraint syntax
/// (``NameConstraintSyntax``) and CertPath's reference identifiers; allocation-free.
package enum HostNameCharacters {
    /// An ASCII letter or digit (RFC 1034 3.5 `let-dig`).
    @inlinable @inline(__always)
    package static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// RFC 5322 3.2.3 `atext`: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    @inlinable
    package static func isAtext(_ byte: UInt8) -> Bool {
        if isLetterOrDigit(byte) { return true }
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
            UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "?"),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "{"),
            UInt8(ascii: "|"), UInt8(ascii: "}"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// Where `local` first breaks the RFC 5321 4.1.2 Dot-string rules (a byte that is not `atext`,
    /// a dot first, last or after another dot; an empty local part at 0), as an offset from its
    /// start; `nil` when it is a Dot-string. Its length (at most 64, RFC 5321 4.5.3.1.1) is the
    /// caller's to check.
    package static func firstDotStringViolation(_ local: ArraySlice<UInt8>) -> Int? {
        if local.isEmpty { return 0 }
        let base = local.startIndex
        var previousWasDot = true  // a dot may not come first
        for index in local.indices {
            let byte = local[index]
            if byte == UInt8(ascii: ".") {
                if previousWasDot { return index - base }
                previousWasDot = true
            } else if isAtext(byte) {
                previousWasDot = false
            } else {
                return index - base
            }
        }
        return previousWasDot ? local.count - 1 : nil
    }
}
