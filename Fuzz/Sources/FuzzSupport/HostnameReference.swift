/// A small, deliberately plain reference implementation of the RFC 6125 / RFC 9525 rules CertPath
/// documents for DNS-ID and IP-ID matching, written independently of CertPath's code so the hostname
/// fuzz target can compare the two. Clarity over speed: it splits into label arrays.
public enum HostnameReference {
    static let dot = UInt8(ascii: ".")

    /// ASCII lowercase of one byte.
    public static func lower(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte + 0x20 : byte
    }

    static func isLDH(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
    }

    /// Splits on dots, keeping empty labels.
    public static func labels(_ name: [UInt8]) -> [[UInt8]] {
        var result: [[UInt8]] = [[]]
        for byte in name {
            if byte == dot { result.append([]) } else { result[result.count - 1].append(byte) }
        }
        return result
    }

    /// A host-name label of the preferred name syntax (RFC 1034 3.5, RFC 1123 2.1): 1–63 letters,
    /// digits and hyphens, no hyphen first or last.
    static func isValidLabel(_ label: [UInt8]) -> Bool {
        guard (1...63).contains(label.count), label.allSatisfy(isLDH) else { return false }
        return label.first != 0x2D && label.last != 0x2D
    }

    /// Whether `name` (no trailing dot) is a host name in preferred syntax of at most 253 octets;
    /// with `wildcard`, the left-most label may be exactly `*`.
    public static func isValidHostName(_ name: [UInt8], wildcard: Bool) -> Bool {
        guard (1...253).contains(name.count) else { return false }
        for (index, label) in labels(name).enumerated() {
            if wildcard && index == 0 && label == [UInt8(ascii: "*")] { continue }
            if !isValidLabel(label) { return false }
        }
        return true
    }

    /// Whether a presented dNSName matches the reference host name (lowercase, no trailing dot):
    /// one trailing dot of the presented name ignored; then either equal ignoring ASCII case, or
    /// `*.` + suffix where `*` covers exactly one whole non-empty left-most label and at least two
    /// labels follow it. Partial wildcards (`f*.x.y`), `*` elsewhere and malformed names never match.
    public static func dnsMatches(presented: [UInt8], reference: [UInt8]) -> Bool {
        var presented = presented
        if presented.last == dot { presented.removeLast() }
        guard isValidHostName(presented, wildcard: true) else { return false }
        let presentedLabels = labels(presented.map(lower))
        let referenceLabels = labels(reference)
        guard presentedLabels.count == referenceLabels.count else { return false }
        if presentedLabels[0] == [UInt8(ascii: "*")] {
            guard presentedLabels.count >= 3, !referenceLabels[0].isEmpty else { return false }
            return Array(presentedLabels.dropFirst()) == Array(referenceLabels.dropFirst())
        }
        return presentedLabels == referenceLabels
    }

    /// Strict dotted-quad IPv4 (four decimal octets 0–255, no leading zeros), or `nil`.
    public static func parseIPv4(_ text: [UInt8]) -> [UInt8]? {
        let parts = labels(text)
        guard parts.count == 4 else { return nil }
        var out: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            if part.count > 1 && part.first == 0x30 { return nil }
            let value = part.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard value <= 255 else { return nil }
            out.append(UInt8(value))
        }
        return out
    }
}
