// Name-constraint syntax (RFC 5280 4.2.1.10): host names, mailboxes and URIs as names and subtree
// bases read them. Part of the X.509 model: whether a nameConstraints extension is readable at all
// (``NameConstraints/firstMalformedSubtree()``) is a property of its bytes; comparing names with it is
// validation's (CertPath's NameConstraintsMatching). Allocation-free.

import CertPathDER

/// Host-name, mailbox and URI syntax for name constraints, and the forms of subtree bases.
package enum NameConstraintSyntax {
    package static let dot = UInt8(ascii: ".")
    package static let star = UInt8(ascii: "*")
    package static let at = UInt8(ascii: "@")

    /// Whether `name` (no leading or trailing dot) is 1 to 253 octets of labels of 1–63 letters,
    /// digits, hyphens and underscores separated by single dots.
    package static func isValid(_ name: ArraySlice<UInt8>) -> Bool {
        guard !name.isEmpty, name.count <= 253 else { return false }
        var labelLength = 0
        for byte in name {
            if byte == dot {
                guard labelLength > 0 else { return false }
                labelLength = 0
            } else if HostNameCharacters.isLetterOrDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
                labelLength += 1
                guard labelLength <= 63 else { return false }
            } else {
                return false
            }
        }
        return labelLength > 0
    }

    /// Splits a mailbox `local@domain`: exactly one `@`, an RFC 5321 Dot-string local part of 1–64
    /// octets, and a valid host name without trailing dot.
    package static func splitMailbox(_ bytes: ArraySlice<UInt8>) -> (local: ArraySlice<UInt8>, domain: ArraySlice<UInt8>)? {
        guard let index = bytes.firstIndex(of: at), bytes.lastIndex(of: at) == index else { return nil }
        let local = bytes[..<index]
        let domain = bytes[(index + 1)...]
        guard HostNameCharacters.firstDotStringViolation(local) == nil, local.count <= 64, isValid(domain) else { return nil }
        return (local, domain)
    }

    // MARK: SmtpUTF8Mailbox (RFC 9598)

    /// Splits the value of an SmtpUTF8Mailbox otherName (`id-on-SmtpUTF8Mailbox`, 1.3.6.1.5.5.7.8.9),
    /// given as the complete encoding of the otherName's value, into its Local-part and domain; `nil`
    /// when it is not one CertPath can compare. RFC 9598 section 3: `SmtpUTF8Mailbox ::= UTF8String
    /// (SIZE (1..MAX))`, an RFC 6531 Mailbox without a Byte-Order-Mark, used only when the Local-part
    /// "contains non-ASCII characters", its domain labels LDH-labels (A-labels, never U-labels). So:
    /// - a UTF8String (tag, definite length, valid UTF-8, nothing after it), not empty, no U+FEFF;
    /// - exactly one `@`;
    /// - a Local-part that is an RFC 6531 Dot-string (`atext` extended with UTF8-non-ascii; a quoted
    ///   Local-part is not interpreted, as for rfc822Name) of 1–64 octets (RFC 5321 4.5.3.1.1) with at
    ///   least one non-ASCII character (an all-ASCII one belongs in an rfc822Name);
    /// - a domain that is a host name in ASCII (``isValid(_:)``, no trailing dot). A non-ASCII domain
    ///   (U-labels, the RFC 8398 form RFC 9598 forbids) cannot be compared with A-label constraints
    ///   without an IDNA implementation, so it is refused, never passed. Upper-case ASCII letters in
    ///   the domain (RFC 9598 3 says "SHALL only be encoded with lowercase letters") are tolerated:
    ///   RFC 9598 5 lowercases them before any comparison.
    package static func splitSmtpUTF8Mailbox(_ value: ArraySlice<UInt8>) -> (local: ArraySlice<UInt8>, domain: ArraySlice<UInt8>)? {
        var reader = DERReader(value)
        let text: ArraySlice<UInt8>
        do throws(DERError) {
            let element = try reader.read(.utf8String, "SmtpUTF8Mailbox")
            try reader.finish("SmtpUTF8Mailbox")
            text = value[element.value]
        } catch {
            return nil
        }
        guard !text.isEmpty, DERString.isValidUTF8(text) else { return nil }
        // U+FEFF is EF BB BF in UTF-8.
        var index = text.startIndex
        while index + 2 < text.endIndex {
            if text[index] == 0xEF && text[index + 1] == 0xBB && text[index + 2] == 0xBF { return nil }
            index += 1
        }
        guard let atIndex = text.firstIndex(of: at), text.lastIndex(of: at) == atIndex else { return nil }
        let local = text[..<atIndex]
        let domain = text[(atIndex + 1)...]
        guard local.count <= 64, isInternationalDotString(local), isValid(domain) else { return nil }
        return (local, domain)
    }

    /// Whether `local` is an RFC 6531 3.3 Dot-string (`Atom *("." Atom)`, `atext` extended with
    /// UTF8-non-ascii; the UTF-8 already validated) with at least one non-ASCII character.
    private static func isInternationalDotString(_ local: ArraySlice<UInt8>) -> Bool {
        var previousWasDot = true  // a dot may not come first
        var nonASCII = false
        for byte in local {
            if byte >= 0x80 {
                nonASCII = true
                previousWasDot = false
            } else if byte == dot {
                if previousWasDot { return false }
                previousWasDot = true
            } else if HostNameCharacters.isAtext(byte) {
                previousWasDot = false
            } else {
                return false
            }
        }
        return nonASCII && !previousWasDot
    }

    package static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: RFC 3986 URI syntax

    /// Whether `uri` is a URI in the RFC 3986 generic syntax (section 3):
    /// `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`, where hier-part is `"//" authority
    /// path-abempty` or a path without authority (`urn:…`, `mailto:…`). Every component is checked
    /// for the characters its rule allows, percent-encodings included (`%` and two hex digits); the
    /// authority is `[ userinfo "@" ] host [ ":" port ]` with host an IP-literal (`[` IPv6address or
    /// IPvFuture `]`) or a reg-name (which covers IPv4address) and port digits. A relative reference
    /// (no scheme) is not a URI (RFC 5280 4.2.1.6: the name "MUST NOT be a relative URI").
    package static func isValidURI(_ uri: ArraySlice<UInt8>) -> Bool {
        // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":".
        guard let colon = uri.firstIndex(of: UInt8(ascii: ":")), colon > uri.startIndex,
              isAlpha(uri[uri.startIndex]) else { return false }
        for byte in uri[..<colon] where !(isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "+")
                                         || byte == UInt8(ascii: "-") || byte == dot) {
            return false
        }
        var rest = uri[(colon + 1)...]
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            guard isURIComponent(rest[(hash + 1)...], [.pcharExtras, .slash, .question]) else { return false }  // fragment
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
            guard isURIComponent(rest[(question + 1)...], [.pcharExtras, .slash, .question]) else { return false }  // query
            rest = rest[..<question]
        }
        let slash = UInt8(ascii: "/")
        if rest.count >= 2, rest.first == slash, rest[rest.startIndex + 1] == slash {
            var authority = rest.dropFirst(2)
            var path = authority[authority.endIndex...]
            if let end = authority.firstIndex(of: slash) {
                path = authority[end...]
                authority = authority[..<end]
            }
            return isValidAuthority(authority) && isURIComponent(path, [.pcharExtras, .slash])  // path-abempty
        }
        // path-absolute, path-rootless or path-empty: pchars and slashes, not starting with "//".
        return isURIComponent(rest, [.pcharExtras, .slash])
    }

    /// Characters a URI component allows beyond unreserved, sub-delims and percent-encodings.
    private struct URIExtras: OptionSet {
        package let rawValue: UInt8
        /// `:` and `@` (pchar, RFC 3986 3.3).
        package static let pcharExtras = URIExtras(rawValue: 1)
        /// `:` alone (userinfo, RFC 3986 3.2.1).
        package static let colon = URIExtras(rawValue: 2)
        package static let slash = URIExtras(rawValue: 4)
        package static let question = URIExtras(rawValue: 8)
    }

    /// `authority = [ userinfo "@" ] host [ ":" port ]` (RFC 3986 3.2). Neither userinfo nor host may
    /// contain `@`, so the first one ends the userinfo and any other makes the authority invalid.
    private static func isValidAuthority(_ authority: ArraySlice<UInt8>) -> Bool {
        var hostPort = authority
        if let index = authority.firstIndex(of: at) {
            guard isURIComponent(authority[..<index], [.colon]) else { return false }  // userinfo
            hostPort = authority[(index + 1)...]
        }
        var port = hostPort[hostPort.endIndex...]
        if hostPort.first == UInt8(ascii: "[") {
            guard let close = hostPort.firstIndex(of: UInt8(ascii: "]")),
                  isValidIPLiteral(hostPort[(hostPort.startIndex + 1)..<close]) else { return false }
            let after = hostPort[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { return false }
                port = after.dropFirst()
            }
        } else {
            var host = hostPort
            if let index = hostPort.firstIndex(of: UInt8(ascii: ":")) {
                host = hostPort[..<index]
                port = hostPort[(index + 1)...]
            }
            guard isURIComponent(host, []) else { return false }  // reg-name (IPv4address is one)
        }
        return port.allSatisfy(isDigit)
    }

    /// The inside of an IP-literal (RFC 3986 3.2.2): an IPv6address (RFC 4291 2.2 text) or
    /// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
    private static func isValidIPLiteral(_ literal: ArraySlice<UInt8>) -> Bool {
        if literal.first == UInt8(ascii: "v") || literal.first == UInt8(ascii: "V") {
            let version = literal.dropFirst()
            guard let period = version.firstIndex(of: dot), period > version.startIndex,
                  version[..<period].allSatisfy({ Hex.value(ofDigit: $0) != nil }) else { return false }
            let rest = version[(period + 1)...]
            return !rest.isEmpty && !rest.contains(UInt8(ascii: "%")) && isURIComponent(rest, [.colon])
        }
        guard literal.contains(UInt8(ascii: ":")) else { return false }
        return Array(literal).withUnsafeBufferPointer { IPAddress.parse($0)?.count == 16 }
    }

    /// Whether every octet of `part` is unreserved (`ALPHA DIGIT - . _ ~`), a sub-delim
    /// (`! $ & ' ( ) * + , ; =`), allowed by `extras`, or begins a percent-encoding `%` HEXDIG
    /// HEXDIG (RFC 3986 2.1–2.3).
    private static func isURIComponent(_ part: ArraySlice<UInt8>, _ extras: URIExtras) -> Bool {
        var index = part.startIndex
        while index < part.endIndex {
            let byte = part[index]
            if byte == UInt8(ascii: "%") {
                guard part.endIndex - index >= 3, Hex.value(ofDigit: part[index + 1]) != nil,
                      Hex.value(ofDigit: part[index + 2]) != nil else { return false }
                index += 3
                continue
            }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
                 UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
                 UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
                break
            case UInt8(ascii: ":"):
                guard extras.contains(.pcharExtras) || extras.contains(.colon) else { return false }
            case UInt8(ascii: "@"):
                guard extras.contains(.pcharExtras) else { return false }
            case UInt8(ascii: "/"):
                guard extras.contains(.slash) else { return false }
            case UInt8(ascii: "?"):
                guard extras.contains(.question) else { return false }
            default:
                return false
            }
            index += 1
        }
        return true
    }

    @inline(__always)
    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    // MARK: Subtree bases

    /// A dNSName or URI constraint: everything, or a domain with or without a leading dot (always
    /// without for a dNSName).
    package enum HostConstraint {
        case all
        case domain(ArraySlice<UInt8>, leadingDot: Bool)
    }

    /// An rfc822Name constraint (4.2.1.10).
    package enum MailConstraint {
        case all
        case mailbox(local: ArraySlice<UInt8>, domain: ArraySlice<UInt8>)
        case host(ArraySlice<UInt8>)
        case domain(ArraySlice<UInt8>)
    }

    /// Why a subtree base is not valid syntax for its form (RFC 5280 4.2.1.10), or `nil`; see
    /// ``NameConstraints/firstMalformedSubtree()``. Allocation-free; the phrases are literals.
    package static func malformation(ofConstraint base: GeneralName) -> String? {
        switch base {
        case .dNSName(let bytes):
            if bytes.first == NameConstraintSyntax.dot {
                return """
                    a dNSName constraint does not begin with a period (RFC 5280 4.2.1.10 gives a leading period a meaning \
                    for rfc822Name and URI constraints only; validators read it differently in a dNSName)
                    """
            }
            guard dnsConstraint(bytes) == nil else { return nil }
            return """
                a dNSName constraint is empty or a host name (RFC 5280 4.2.1.10; labels of letters, digits, hyphens, \
                underscores, one optional trailing dot, no `*`)
                """
        case .uniformResourceIdentifier(let bytes):
            guard uriConstraint(bytes) == nil else { return nil }
            return "a uniformResourceIdentifier constraint is empty, a host name or a period and a domain (RFC 5280 4.2.1.10), not a URI"
        case .rfc822Name(let bytes):
            guard mailConstraint(bytes) == nil else { return nil }
            return "an rfc822Name constraint is empty, a mailbox, a host name or a period and a domain (RFC 5280 4.2.1.10)"
        case .iPAddress(let bytes):
            guard bytes.count == 8 || bytes.count == 32 else {
                return "an iPAddress constraint is an address and a mask of 8 or 32 octets (RFC 5280 4.2.1.10)"
            }
            return isContiguousMask(bytes.suffix(bytes.count / 2)) ? nil
                : "an iPAddress constraint mask is a contiguous run of leading one bits (RFC 5280 4.2.1.10, RFC 4632)"
        case .directoryName:
            return nil  // a Name is always well-formed DER (validated when made)
        case .otherName, .x400Address, .ediPartyName, .registeredID:
            return nil  // not interpreted; a name of the form is refused as unsupportedNameForm
        }
    }

    /// Whether `mask` is a contiguous run of leading one bits followed by zero bits only (a CIDR
    /// prefix, RFC 4632 3.1): 0xFF octets, at most one octet of the form 1…10…0, then 0x00 octets.
    package static func isContiguousMask(_ mask: ArraySlice<UInt8>) -> Bool {
        var seenZero = false
        for byte in mask {
            if seenZero {
                guard byte == 0 else { return false }
            } else if byte != 0xFF {
                let inverted = ~byte  // ones then zeros exactly when ~byte is 2^k - 1
                guard inverted & (inverted &+ 1) == 0 else { return false }
                seenZero = true
            }
        }
        return true
    }


    /// dNSName constraints: empty (everything), or a host name and an optional trailing dot
    /// (removed). A leading dot is not dNSName syntax (RFC 5280 4.2.1.10 "host.example.com").
    package static func dnsConstraint(_ bytes: ArraySlice<UInt8>) -> HostConstraint? {
        if bytes.isEmpty { return .all }
        var domain = bytes
        if domain.last == NameConstraintSyntax.dot { domain = domain.dropLast() }
        guard NameConstraintSyntax.isValid(domain) else { return nil }
        return .domain(domain, leadingDot: false)
    }

    /// URI constraints: empty (everything), or an optional leading dot (4.2.1.10: "the constraint
    /// MUST be specified as a fully qualified domain name and MAY specify a host or a domain"), a host
    /// name and an optional trailing dot (removed).
    package static func uriConstraint(_ bytes: ArraySlice<UInt8>) -> HostConstraint? {
        if bytes.isEmpty { return .all }
        var domain = bytes
        let leadingDot = domain.first == NameConstraintSyntax.dot
        if leadingDot { domain = domain.dropFirst() }
        if domain.last == NameConstraintSyntax.dot { domain = domain.dropLast() }
        guard NameConstraintSyntax.isValid(domain) else { return nil }
        return .domain(domain, leadingDot: leadingDot)
    }

    /// rfc822Name constraints: empty, a mailbox, a host, or `.` and a domain.
    package static func mailConstraint(_ bytes: ArraySlice<UInt8>) -> MailConstraint? {
        if bytes.isEmpty { return .all }
        if bytes.contains(NameConstraintSyntax.at) {
            guard let mailbox = NameConstraintSyntax.splitMailbox(bytes) else { return nil }
            return .mailbox(local: mailbox.local, domain: mailbox.domain)
        }
        if bytes.first == NameConstraintSyntax.dot {
            let domain = bytes.dropFirst()
            return NameConstraintSyntax.isValid(domain) ? .domain(domain) : nil
        }
        return NameConstraintSyntax.isValid(bytes) ? .host(bytes) : nil
    }
}
