// Per-form syntax and matching for name constraints (RFC 5280 4.2.1.10). The rules and choices are
// listed at the top of NameConstraintsChecker.swift. Everything here works on slices of the
// certificate's bytes and allocates nothing, except directoryName comparison (an array of RDN views,
// and normalization when two RDNs are encoded differently).

/// A certificate's name prepared once for comparison with many subtrees.
enum ConstrainedName {
    /// A dNSName without its trailing dot; for a wildcard `*.rest`, `name` is `rest`.
    case dns(name: ArraySlice<UInt8>, wildcard: Bool)
    /// An rfc822Name split at its `@`.
    case email(local: ArraySlice<UInt8>, domain: ArraySlice<UInt8>)
    /// An iPAddress of 4 or 16 octets.
    case ip(ArraySlice<UInt8>)
    /// The domain-name host of a uniformResourceIdentifier, without trailing dot.
    case uriHost(ArraySlice<UInt8>)
    /// The complete encodings of the RDN SETs of a directoryName, in order.
    case directory([ArraySlice<UInt8>])

    /// Why a name cannot be prepared.
    enum Failure: Error {
        /// Not valid syntax for its form (or a form CertPath does not interpret).
        case malformed
        /// A URI without an authority, or whose host is an IP address or empty (4.2.1.10).
        case uriWithoutDomainHost
    }

    /// Validates and splits `name` for comparison.
    static func prepare(_ name: GeneralName) -> Result<ConstrainedName, Failure> {
        switch name {
        case .dNSName(let bytes):
            var name = bytes
            if name.last == NameConstraintSyntax.dot { name = name.dropLast() }
            guard name.count <= 253 else { return .failure(.malformed) }
            if name.count >= 2, name.first == NameConstraintSyntax.star, name[name.startIndex + 1] == NameConstraintSyntax.dot {
                let rest = name.dropFirst(2)
                guard NameConstraintSyntax.isValid(rest) else { return .failure(.malformed) }
                return .success(.dns(name: rest, wildcard: true))
            }
            guard NameConstraintSyntax.isValid(name) else { return .failure(.malformed) }
            return .success(.dns(name: name, wildcard: false))
        case .rfc822Name(let bytes):
            guard let mailbox = NameConstraintSyntax.splitMailbox(bytes) else { return .failure(.malformed) }
            return .success(.email(local: mailbox.local, domain: mailbox.domain))
        case .iPAddress(let bytes):
            guard bytes.count == 4 || bytes.count == 16 else { return .failure(.malformed) }
            return .success(.ip(bytes))
        case .uniformResourceIdentifier(let bytes):
            guard NameConstraintSyntax.isValidURI(bytes) else { return .failure(.malformed) }
            return NameConstraintSyntax.uriHost(bytes).map { .uriHost($0) }
        case .directoryName(let name):
            guard let sets = NameConstraintMatching.rdnSets(name) else { return .failure(.malformed) }
            return .success(.directory(sets))
        case .otherName, .x400Address, .ediPartyName, .registeredID:
            return .failure(.malformed)
        }
    }

    /// Whether `name`, of a form the extension has no subtree of, is valid syntax for its form: once
    /// an extension has any subtree, every name of a form CertPath interprets must be (see the top of
    /// NameConstraintsChecker.swift). dNSName, rfc822Name and iPAddress as ``prepare(_:)`` reads them
    /// (a wildcard `*.rest` is a dNSName); a uniformResourceIdentifier as an RFC 3986 URI, with or
    /// without an authority (its host matters only under URI subtrees); a directoryName always (a
    /// ``Name`` is well-formed DER). Forms CertPath does not interpret count as well-formed.
    /// Allocation-free except for an IPv6 literal in a URI.
    static func isWellFormed(_ name: GeneralName) -> Bool {
        switch name {
        case .dNSName, .rfc822Name, .iPAddress:
            if case .success = prepare(name) { return true }
            return false
        case .uniformResourceIdentifier(let bytes):
            return NameConstraintSyntax.isValidURI(bytes)
        case .directoryName, .otherName, .x400Address, .ediPartyName, .registeredID:
            return true
        }
    }
}

/// Comparison of a ``ConstrainedName`` with one subtree base.
enum NameConstraintMatching {
    /// Which list the subtree comes from; only wildcard dNSNames are treated differently.
    enum Mode {
        /// Within only if every name the presented name covers is within.
        case permitted
        /// Within if any name the presented name covers is within.
        case excluded
    }

    /// The outcome of one comparison.
    enum Outcome {
        case match, noMatch, malformedConstraint
    }

    /// A dNSName or URI constraint: everything, or a domain with or without a leading dot (always
    /// without for a dNSName).
    enum HostConstraint {
        case all
        case domain(ArraySlice<UInt8>, leadingDot: Bool)
    }

    /// An rfc822Name constraint (4.2.1.10).
    enum MailConstraint {
        case all
        case mailbox(local: ArraySlice<UInt8>, domain: ArraySlice<UInt8>)
        case host(ArraySlice<UInt8>)
        case domain(ArraySlice<UInt8>)
    }

    /// Why a subtree base is not valid syntax for its form (RFC 5280 4.2.1.10), or `nil`; see
    /// ``NameConstraints/firstMalformedSubtree()``. Allocation-free; the phrases are literals.
    static func malformation(ofConstraint base: GeneralName) -> String? {
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
    static func isContiguousMask(_ mask: ArraySlice<UInt8>) -> Bool {
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

    /// A subtree base read once for comparison with many names: its form's syntax validated and
    /// split (a directoryName into its RDN SETs), so a comparison reads no syntax again.
    enum Constraint {
        case dns(HostConstraint)
        case uri(HostConstraint)
        case email(MailConstraint)
        /// Address and mask, 8 or 32 octets.
        case ip(ArraySlice<UInt8>)
        /// The constraint's RDN SETs, in order.
        case directory([ArraySlice<UInt8>])
        /// Not valid syntax for its form (``malformation(ofConstraint:)`` says why).
        case malformed
        /// A form CertPath does not compare (otherName, x400Address, ediPartyName, registeredID).
        case uninterpreted
    }

    /// `base` prepared for ``match(_:_:_:)``.
    static func constraint(_ base: GeneralName) -> Constraint {
        switch base {
        case .dNSName(let bytes): return dnsConstraint(bytes).map(Constraint.dns) ?? .malformed
        case .uniformResourceIdentifier(let bytes): return uriConstraint(bytes).map(Constraint.uri) ?? .malformed
        case .rfc822Name(let bytes): return mailConstraint(bytes).map(Constraint.email) ?? .malformed
        case .iPAddress(let bytes): return bytes.count == 8 || bytes.count == 32 ? .ip(bytes) : .malformed
        case .directoryName(let name): return rdnSets(name).map(Constraint.directory) ?? .malformed
        case .otherName, .x400Address, .ediPartyName, .registeredID: return .uninterpreted
        }
    }

    /// Compares `presented` with `base` (of any form; different forms never match).
    static func match(_ presented: ConstrainedName, _ base: GeneralName, _ mode: Mode) -> Outcome {
        match(presented, constraint(base), mode)
    }

    /// Compares `presented` with a prepared subtree base (different forms never match).
    static func match(_ presented: ConstrainedName, _ constraint: Constraint, _ mode: Mode) -> Outcome {
        switch (presented, constraint) {
        case (_, .malformed):
            return .malformedConstraint
        case (.dns(let name, let wildcard), .dns(let host)):
            guard case .domain(let domain, _) = host else { return .match }
            if !wildcard { return isEqualOrSubdomain(name, of: domain) ? .match : .noMatch }
            // `*.name` covers every `<label>.name`. All of them are within `domain` exactly when `name`
            // is `domain` or below it; then some of them are, too.
            if isEqualOrSubdomain(name, of: domain) { return .match }
            // Otherwise one covered name can still equal a constraint that is `name` plus exactly one
            // label (excluded `bar.example.com` vs `*.example.com`).
            if mode == .excluded, isOneLabelAbove(domain, name) { return .match }
            return .noMatch
        case (.email(let local, let domain), .email(let mail)):
            switch mail {
            case .all: return .match
            case .mailbox(let constraintLocal, let constraintDomain):
                return local.elementsEqual(constraintLocal) && equalIgnoringCase(domain, constraintDomain) ? .match : .noMatch
            case .host(let host):
                return equalIgnoringCase(domain, host) ? .match : .noMatch
            case .domain(let parent):
                return isProperSubdomain(domain, of: parent) ? .match : .noMatch
            }
        case (.uriHost(let host), .uri(let uri)):
            guard case .domain(let domain, let leadingDot) = uri else { return .match }
            let within = leadingDot ? isProperSubdomain(host, of: domain) : equalIgnoringCase(host, domain)
            return within ? .match : .noMatch
        case (.ip(let address), .ip(let bytes)):
            // (The mask was found contiguous by the extension's validation, before any comparison.)
            guard bytes.count == 2 * address.count else { return .noMatch }  // other family
            let base = bytes.startIndex
            let mask = base + address.count
            var offset = 0
            for byte in address {
                guard byte & bytes[mask + offset] == bytes[base + offset] & bytes[mask + offset] else { return .noMatch }
                offset += 1
            }
            return .match
        case (.directory(let sets), .directory(let prefix)):
            guard prefix.count <= sets.count else { return .noMatch }
            for index in prefix.indices where !rdnEquivalent(prefix[index], sets[index]) { return .noMatch }
            return .match
        default:
            return .noMatch
        }
    }

    // MARK: Constraint syntax

    /// dNSName constraints: empty (everything), or a host name and an optional trailing dot
    /// (removed). A leading dot is not dNSName syntax (RFC 5280 4.2.1.10 "host.example.com").
    private static func dnsConstraint(_ bytes: ArraySlice<UInt8>) -> HostConstraint? {
        if bytes.isEmpty { return .all }
        var domain = bytes
        if domain.last == NameConstraintSyntax.dot { domain = domain.dropLast() }
        guard NameConstraintSyntax.isValid(domain) else { return nil }
        return .domain(domain, leadingDot: false)
    }

    /// URI constraints: empty (everything), or an optional leading dot (4.2.1.10: "the constraint
    /// MUST be specified as a fully qualified domain name and MAY specify a host or a domain"), a host
    /// name and an optional trailing dot (removed).
    private static func uriConstraint(_ bytes: ArraySlice<UInt8>) -> HostConstraint? {
        if bytes.isEmpty { return .all }
        var domain = bytes
        let leadingDot = domain.first == NameConstraintSyntax.dot
        if leadingDot { domain = domain.dropFirst() }
        if domain.last == NameConstraintSyntax.dot { domain = domain.dropLast() }
        guard NameConstraintSyntax.isValid(domain) else { return nil }
        return .domain(domain, leadingDot: leadingDot)
    }

    /// rfc822Name constraints: empty, a mailbox, a host, or `.` and a domain.
    private static func mailConstraint(_ bytes: ArraySlice<UInt8>) -> MailConstraint? {
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

    // MARK: Host names

    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    static func equalIgnoringCase(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        a.count == b.count && hasSuffixIgnoringCase(a, b)
    }

    static func hasSuffixIgnoringCase(_ name: ArraySlice<UInt8>, _ suffix: ArraySlice<UInt8>) -> Bool {
        guard name.count >= suffix.count else { return false }
        var index = name.endIndex - suffix.count
        for byte in suffix {
            guard lower(name[index]) == lower(byte) else { return false }
            index += 1
        }
        return true
    }

    /// `name` is `domain` or ends with `.domain`.
    static func isEqualOrSubdomain(_ name: ArraySlice<UInt8>, of domain: ArraySlice<UInt8>) -> Bool {
        name.count == domain.count ? equalIgnoringCase(name, domain) : isProperSubdomain(name, of: domain)
    }

    /// `name` ends with `.domain` (at least one label more).
    static func isProperSubdomain(_ name: ArraySlice<UInt8>, of domain: ArraySlice<UInt8>) -> Bool {
        name.count > domain.count + 1 && name[name.endIndex - domain.count - 1] == NameConstraintSyntax.dot
            && hasSuffixIgnoringCase(name, domain)
    }

    /// `longer` is exactly one label followed by `.` and `shorter`.
    static func isOneLabelAbove(_ longer: ArraySlice<UInt8>, _ shorter: ArraySlice<UInt8>) -> Bool {
        guard isProperSubdomain(longer, of: shorter) else { return false }
        return !longer[..<(longer.endIndex - shorter.count - 1)].contains(NameConstraintSyntax.dot)
    }

    // MARK: Directory names

    /// The complete encodings of the RDN SETs of `name`, in order; `nil` if its DER does not parse
    /// (it was validated when the Name was made, so only a bug could cause that).
    static func rdnSets(_ name: Name) -> [ArraySlice<UInt8>]? {
        var reader = DERReader(name.der)
        var sets: [ArraySlice<UInt8>] = []
        do throws(DERError) {
            var sequence = try reader.contents(of: try reader.read(.sequence, "Name"), "Name")
            while !sequence.isAtEnd {
                let set = try sequence.read(.set, "RelativeDistinguishedName")
                sets.append(sequence.bytes[set.encoded])
            }
        } catch {
            return nil
        }
        return sets
    }

    /// RFC 5280 7.1 equality of two RDNs given as their SET encodings.
    static func rdnEquivalent(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        if a.elementsEqual(b) { return true }
        return singleRDNName(a).normalizedKey == singleRDNName(b).normalizedKey
    }

    /// A Name of the one RDN whose SET encoding is `set` (already validated as part of a Name).
    private static func singleRDNName(_ set: ArraySlice<UInt8>) -> Name {
        var der: [UInt8] = [0x30]
        let count = set.count
        if count < 0x80 {
            der.append(UInt8(count))
        } else {
            var octets: [UInt8] = []
            var rest = count
            while rest > 0 {
                octets.insert(UInt8(rest & 0xFF), at: 0)
                rest >>= 8
            }
            der.append(0x80 | UInt8(octets.count))
            der.append(contentsOf: octets)
        }
        der.append(contentsOf: set)
        return Name(validatedDER: der[...])
    }
}

/// Host-name, mailbox and URI syntax for name constraints; allocation-free.
enum NameConstraintSyntax {
    static let dot = UInt8(ascii: ".")
    static let star = UInt8(ascii: "*")
    static let at = UInt8(ascii: "@")

    /// Whether `name` (no leading or trailing dot) is 1 to 253 octets of labels of 1–63 letters,
    /// digits, hyphens and underscores separated by single dots.
    static func isValid(_ name: ArraySlice<UInt8>) -> Bool {
        guard !name.isEmpty, name.count <= 253 else { return false }
        var labelLength = 0
        for byte in name {
            if byte == dot {
                guard labelLength > 0 else { return false }
                labelLength = 0
            } else if DNSNameSyntax.isLetterOrDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
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
    static func splitMailbox(_ bytes: ArraySlice<UInt8>) -> (local: ArraySlice<UInt8>, domain: ArraySlice<UInt8>)? {
        guard let index = bytes.firstIndex(of: at), bytes.lastIndex(of: at) == index else { return nil }
        let local = bytes[..<index]
        let domain = bytes[(index + 1)...]
        guard RFC822Syntax.checkLocalPart(local) == nil, isValid(domain) else { return nil }
        return (local, domain)
    }

    /// The host of a URI's authority (RFC 3986 3.1, 3.2): `scheme://[userinfo@]host[:port]…`.
    static func uriHost(_ uri: ArraySlice<UInt8>) -> Result<ArraySlice<UInt8>, ConstrainedName.Failure> {
        // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":".
        guard let colon = uri.firstIndex(of: UInt8(ascii: ":")), colon > uri.startIndex,
              DNSNameSyntax.isLetterOrDigit(uri[uri.startIndex]), !isDigit(uri[uri.startIndex]) else {
            return .failure(.malformed)
        }
        for byte in uri[..<colon] where !(DNSNameSyntax.isLetterOrDigit(byte) || byte == UInt8(ascii: "+")
                                         || byte == UInt8(ascii: "-") || byte == dot) {
            return .failure(.malformed)
        }
        let rest = uri[(colon + 1)...]
        let slash = UInt8(ascii: "/")
        guard rest.count >= 2, rest.first == slash, rest[rest.startIndex + 1] == slash else {
            return .failure(.uriWithoutDomainHost)  // no authority: urn:, mailto:, path-only
        }
        var authority = rest.dropFirst(2)
        if let end = authority.firstIndex(where: { $0 == slash || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            authority = authority[..<end]
        }
        if let index = authority.firstIndex(of: at) {
            guard authority.lastIndex(of: at) == index else { return .failure(.malformed) }
            authority = authority[(index + 1)...]
        }
        if authority.first == UInt8(ascii: "[") { return .failure(.uriWithoutDomainHost) }  // IP-literal
        var host = authority
        if let portColon = authority.firstIndex(of: UInt8(ascii: ":")) {
            host = authority[..<portColon]
            guard authority[(portColon + 1)...].allSatisfy(isDigit) else { return .failure(.malformed) }
        }
        if host.isEmpty { return .failure(.uriWithoutDomainHost) }
        if host.last == dot { host = host.dropLast() }
        guard isValid(host) else { return .failure(.malformed) }
        if DNSNameSyntax.lastLabelIsNumeric(host) { return .failure(.uriWithoutDomainHost) }  // IPv4address
        return .success(host)
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: RFC 3986 URI syntax

    /// Whether `uri` is a URI in the RFC 3986 generic syntax (section 3):
    /// `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`, where hier-part is `"//" authority
    /// path-abempty` or a path without authority (`urn:…`, `mailto:…`). Every component is checked
    /// for the characters its rule allows, percent-encodings included (`%` and two hex digits); the
    /// authority is `[ userinfo "@" ] host [ ":" port ]` with host an IP-literal (`[` IPv6address or
    /// IPvFuture `]`) or a reg-name (which covers IPv4address) and port digits. A relative reference
    /// (no scheme) is not a URI (RFC 5280 4.2.1.6: the name "MUST NOT be a relative URI").
    static func isValidURI(_ uri: ArraySlice<UInt8>) -> Bool {
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
        let rawValue: UInt8
        /// `:` and `@` (pchar, RFC 3986 3.3).
        static let pcharExtras = URIExtras(rawValue: 1)
        /// `:` alone (userinfo, RFC 3986 3.2.1).
        static let colon = URIExtras(rawValue: 2)
        static let slash = URIExtras(rawValue: 4)
        static let question = URIExtras(rawValue: 8)
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
}
