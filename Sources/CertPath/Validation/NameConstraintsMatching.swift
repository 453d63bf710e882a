// Per-form syntax and matching for name constraints (RFC 5280 4.2.1.10). The rules and choices are
// listed at the top of NameConstraintsChecker.swift. Everything here works on slices of the
// certificate's bytes and allocates nothing, except directoryName comparison (an array of RDN views,
// and normalization when two RDNs are encoded differently).
import CertPathDER

/// A certificate's name prepared once for comparison with many subtrees.
enum ConstrainedName {
    /// A dNSName without its trailing dot; for a wildcard `*.rest`, `name` is `rest`.
    case dns(name: ArraySlice<UInt8>, wildcard: Bool)
    /// An rfc822Name split at its `@`.
    case email(local: ArraySlice<UInt8>, domain: ArraySlice<UInt8>)
    /// The domain of an SmtpUTF8Mailbox otherName (RFC 9598), which rfc822Name constraints bind by
    /// domain (RFC 9598 6); its Local-part, never equal to an rfc822Name's, plays no part.
    case internationalMailbox(domain: ArraySlice<UInt8>)
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
        case .otherName(let typeID, let value):
            guard typeID == KnownOID.smtpUTF8Mailbox, let mailbox = NameConstraintSyntax.splitSmtpUTF8Mailbox(value) else {
                return .failure(.malformed)
            }
            return .success(.internationalMailbox(domain: mailbox.domain))
        case .x400Address, .ediPartyName, .registeredID:
            return .failure(.malformed)
        }
    }

    /// Whether `name`, of a form the extension has no subtree of, is valid syntax for its form: once
    /// an extension has any subtree, every name of a form CertPath interprets must be (see the top of
    /// NameConstraintsChecker.swift). dNSName, rfc822Name and iPAddress as ``prepare(_:)`` reads them
    /// (a wildcard `*.rest` is a dNSName); a uniformResourceIdentifier as an RFC 3986 URI, with or
    /// without an authority (its host matters only under URI subtrees); a directoryName always (a
    /// ``Name`` is well-formed DER); an SmtpUTF8Mailbox otherName as
    /// ``NameConstraintSyntax/splitSmtpUTF8Mailbox(_:)`` reads it (RFC 9598 3). Forms CertPath does not
    /// interpret, and otherNames of other types, count as well-formed.
    /// Allocation-free except for an IPv6 literal in a URI.
    static func isWellFormed(_ name: GeneralName) -> Bool {
        switch name {
        case .dNSName, .rfc822Name, .iPAddress:
            if case .success = prepare(name) { return true }
            return false
        case .uniformResourceIdentifier(let bytes):
            return NameConstraintSyntax.isValidURI(bytes)
        case .otherName(let typeID, let value):
            return typeID != KnownOID.smtpUTF8Mailbox || NameConstraintSyntax.splitSmtpUTF8Mailbox(value) != nil
        case .directoryName, .x400Address, .ediPartyName, .registeredID:
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

    typealias HostConstraint = NameConstraintSyntax.HostConstraint
    typealias MailConstraint = NameConstraintSyntax.MailConstraint

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
        case .dNSName(let bytes): return NameConstraintSyntax.dnsConstraint(bytes).map(Constraint.dns) ?? .malformed
        case .uniformResourceIdentifier(let bytes): return NameConstraintSyntax.uriConstraint(bytes).map(Constraint.uri) ?? .malformed
        case .rfc822Name(let bytes): return NameConstraintSyntax.mailConstraint(bytes).map(Constraint.email) ?? .malformed
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
        case (.internationalMailbox(let domain), .email(let mail)):
            // RFC 9598 6: the Local-part stripped, the domain compared (in A-labels, lower case) with
            // the constraint's as 4.2.1.10 compares an rfc822Name's.
            switch mail {
            case .all: return .match
            case .mailbox(_, let constraintDomain):
                // A mailbox constraint names one ASCII mailbox, never equal to an SmtpUTF8Mailbox
                // (RFC 9598 5: such a comparison "will always fail"), yet RFC 9598 6 strips the
                // constraint's Local-part too and compares domains. Fail closed where the two differ:
                // it never permits an SmtpUTF8Mailbox, and excludes every one at its domain.
                return mode == .excluded && equalIgnoringCase(domain, constraintDomain) ? .match : .noMatch
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

/// The host of a URI, as name constraints read it (RFC 5280 4.2.1.10 via RFC 3986).
extension NameConstraintSyntax {
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
}
