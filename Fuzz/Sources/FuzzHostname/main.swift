// FuzzHostname: reference identifiers (RFC 6125 6.2, RFC 9525) and presented-identifier matching never
// crash, and agree with the independent reference implementation in HostnameReference:
//   - a DNS-ID match holds exactly when the documented rules say so (case-insensitive equality, or a
//     whole left-most `*` label covering one non-empty label with at least two labels after it, one
//     trailing dot ignored, malformed presented names never matching);
//   - an IP-ID matches exactly the identical 4 or 16 octets; a DNS-ID never matches an iPAddress nor an
//     IP-ID a dNSName;
//   - a parsed DNSName is lowercase preferred-syntax text that re-parses to itself; an IPAddress's text
//     re-parses to the same octets; a strict dotted quad always parses as that IPv4 address;
//   - with a public suffix list, a match implies a match without one, and never covers a listed suffix.
// Input: reference text, a newline, then the presented bytes.
@_spi(Fuzzing) import CertPath  // PresentedIdentifierMatching
import FuzzSupport

let suffixes = PublicSuffixList(text: "com\nuk\nco.uk\ntest\n*.ck\n!www.ck\nexample.test\n")
let options = PresentedIdentifierMatching.Options(publicSuffixList: suffixes)

runFuzzer { bytes in
    let split = bytes.firstIndex(of: 0x0A) ?? bytes.count
    let referenceBytes = Array(bytes[..<split])
    let presented = split < bytes.count ? bytes[(split + 1)...] : []
    let referenceText = String(decoding: referenceBytes, as: UTF8.self)

    // Strict IPv4 text must parse to its four octets, whatever else the text could be.
    if let quad = HostnameReference.parseIPv4(referenceBytes) {
        invariant(IPAddress(referenceText)?.bytes == quad, "strict dotted quad \(referenceText) not parsed as \(quad)")
    }

    let reference: ReferenceIdentifier
    do throws(ReferenceIdentifierError) {
        reference = try ReferenceIdentifier(referenceText)
    } catch {
        _ = error.description
        // Conversely: valid ASCII host-name text that is not numeric-looking must be accepted.
        var name = referenceBytes
        if name.last == UInt8(ascii: ".") { name.removeLast() }
        if HostnameReference.isValidHostName(name, wildcard: false),
           let last = HostnameReference.labels(name).last, !last.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
           !(last.count >= 2 && last[0] == 0x30 && (last[1] | 0x20) == UInt8(ascii: "x")) {
            violation("valid host name \(referenceText) refused: \(error)")
        }
        return
    }
    _ = reference.description

    switch reference {
    case .dnsName(let name):
        let canonical = name.bytes
        invariant(HostnameReference.isValidHostName(canonical, wildcard: false), "DNSName \(name) is not a valid host name")
        invariant(canonical.allSatisfy { !($0 >= 0x41 && $0 <= 0x5A) }, "DNSName \(name) is not lowercase")
        invariant(name.labelCount == HostnameReference.labels(canonical).count, "labelCount of \(name) is wrong")
        var typed = referenceBytes.map { ($0 >= 0x41 && $0 <= 0x5A) ? $0 + 0x20 : $0 }
        if typed.last == UInt8(ascii: ".") { typed.removeLast() }
        invariant(typed == canonical, "DNSName \(name) is not the lowercased input \(referenceText)")
        invariant((try? DNSName(name.description)) == name, "DNSName \(name) does not re-parse to itself")

        let matched = PresentedIdentifierMatching.matches(presentedDNSName: presented, reference: name)
        let expected = HostnameReference.dnsMatches(presented: Array(presented), reference: canonical)
        invariant(matched == expected,
                  "dNSName \(String(decoding: presented, as: UTF8.self)) vs \(name): CertPath says \(matched), the rules say \(expected)")
        invariant(PresentedIdentifierMatching.matches(presentedDNSName: presented, reference: reference) == matched,
                  "the ReferenceIdentifier overload disagrees")
        let withList = PresentedIdentifierMatching.matches(presentedDNSName: presented, reference: name, options: options)
        invariant(!withList || matched, "a match with a public suffix list but not without one")
        if withList, presented.first == UInt8(ascii: "*") {
            var remainder = Array(presented.dropFirst(2))
            if remainder.last == UInt8(ascii: ".") { remainder.removeLast() }
            invariant(!suffixes.isPublicSuffix(dottedName: remainder[...]), "a wildcard over a public suffix matched")
        }
        invariant(!PresentedIdentifierMatching.matches(presentedIPAddress: presented, reference: reference),
                  "an iPAddress matched a DNS-ID")

        // Email: a match implies the same local part and the same domain ignoring case.
        if let at = presented.firstIndex(of: UInt8(ascii: "@")), let mailbox = try? RFC822Name("user@" + name.description) {
            let presentedMailbox = Array(presented)
            if PresentedIdentifierMatching.matches(presentedRFC822Name: presented, reference: mailbox) {
                let offset = at - presented.startIndex
                invariant(Array(presentedMailbox[..<offset]) == Array("user".utf8)
                          && presentedMailbox[(offset + 1)...].map(HostnameReference.lower) == canonical,
                          "rfc822Name \(String(decoding: presented, as: UTF8.self)) matched \(mailbox)")
            }
        }

    case .ipAddress(let address):
        invariant(address.bytes.count == 4 || address.bytes.count == 16, "IPAddress of \(address.bytes.count) octets")
        invariant(IPAddress(address.description) == address, "IPAddress \(address) does not re-parse to itself")
        let matched = PresentedIdentifierMatching.matches(presentedIPAddress: presented, reference: address)
        invariant(matched == presented.elementsEqual(address.bytes), "iPAddress \(hex(presented)) vs \(address): \(matched)")
        invariant(PresentedIdentifierMatching.matches(presentedIPAddress: presented, reference: reference) == matched,
                  "the ReferenceIdentifier overload disagrees")
        invariant(!PresentedIdentifierMatching.matches(presentedDNSName: presented, reference: reference),
                  "a dNSName matched an IP-ID")
        // The presented text, read as an address, matches exactly when it is the same address.
        if let other = IPAddress(String(decoding: presented, as: UTF8.self)) {
            invariant(PresentedIdentifierMatching.matches(presentedIPAddress: other.bytes[...], reference: address) == (other == address),
                      "iPAddress \(other) vs \(address)")
        }
    }
}
