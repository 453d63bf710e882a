#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The subtrees of one nameConstraints list (permitted or excluded, RFC 5280 4.2.1.10) prepared
// once for comparison with many names: each base's syntax read, its host names lowered to ASCII
// lower case (RFC 4343) and copied into one buffer, each entry a plain value of ranges into it.
// A comparison then reads bytes through pointers and touches no reference count: with the bases
// kept as slices, copying them in and out of each comparison cost nine tenths of its time (250,000
// comparisons took 26 ms; the name-constraint budget bounds their number, this their price).
//
// The rules are NameConstraintMatching's (see the top of NameConstraintsChecker.swift); a test
// compares the two on every form and case. directoryName bases keep the slice-based comparison
// (RFC 5280 7.1 normalization), charged extra by the budget.

/// A presented name in the byte form ``PreparedSubtrees`` compares: ranges into `bytes`, host names
/// in ASCII lower case, a mailbox's local part as it is.
struct PresentedName {
    enum Kind {
        case dns(Range<Int>, wildcard: Bool)
        case email(local: Range<Int>, domain: Range<Int>)
        /// An SmtpUTF8Mailbox's domain (RFC 9598 6).
        case internationalMailbox(domain: Range<Int>)
        case uriHost(Range<Int>)
        case ip(Range<Int>)
        /// A directoryName: compared with the slice-based rules.
        case directory
    }

    let kind: Kind
    let bytes: [UInt8]

    init(_ name: ConstrainedName) {
        var bytes: [UInt8] = []
        func lowered(_ slice: ArraySlice<UInt8>) -> Range<Int> {
            let start = bytes.count
            for byte in slice { bytes.append(PreparedSubtrees.lower(byte)) }
            return start..<bytes.count
        }
        switch name {
        case .dns(let host, let wildcard):
            kind = .dns(lowered(host), wildcard: wildcard)
        case .email(let local, let domain):
            bytes.append(contentsOf: local)
            let localRange = 0..<bytes.count
            kind = .email(local: localRange, domain: lowered(domain))
        case .internationalMailbox(let domain):
            kind = .internationalMailbox(domain: lowered(domain))
        case .uriHost(let host):
            kind = .uriHost(lowered(host))
        case .ip(let address):
            bytes.append(contentsOf: address)
            kind = .ip(0..<bytes.count)
        case .directory:
            kind = .directory
        }
        self.bytes = bytes
    }
}

struct PreparedSubtrees {
    /// A base in byte form: ranges into ``storage``.
    enum Base {
        case dnsAll
        case dns(Range<Int>)
        case uriAll
        case uri(Range<Int>, leadingDot: Bool)
        case emailAll
        case mailbox(local: Range<Int>, domain: Range<Int>)
        case mailHost(Range<Int>)
        case mailDomain(Range<Int>)
        /// Address and mask.
        case ip(Range<Int>)
        /// A directoryName base: ``directoryBases``[slot].
        case directory(slot: Int)
        case malformed
        /// A form CertPath does not compare.
        case uninterpreted
    }

    struct Entry {
        let form: NameConstraintForm
        let base: Base
        /// Budget units beyond the one every pair costs (``NameConstraintsChecker/extraCost(of:)``).
        let extraCost: Int
    }

    /// What a scan found.
    enum Scan {
        /// The first subtree (by index) whose base covers the name.
        case match(Int)
        case noMatch
        /// A base of the name's form that is not valid syntax (validated before: only defensive).
        case malformedConstraint(Int)
        case budgetExhausted
    }

    let subtrees: [GeneralSubtree]
    private let entries: [Entry]
    private let storage: [UInt8]
    private let directoryBases: [NameConstraintMatching.Constraint]
    /// Forms with at least one subtree here.
    let forms: UInt16

    init(_ subtrees: [GeneralSubtree]) {
        self.subtrees = subtrees
        var storage: [UInt8] = []
        var directoryBases: [NameConstraintMatching.Constraint] = []
        var forms: UInt16 = 0
        func lowered(_ slice: ArraySlice<UInt8>) -> Range<Int> {
            let start = storage.count
            for byte in slice { storage.append(Self.lower(byte)) }
            return start..<storage.count
        }
        var entries: [Entry] = []
        entries.reserveCapacity(subtrees.count)
        for subtree in subtrees {
            let form = NameConstraintForm(subtree.base)
            forms |= form.bit
            let base: Base
            switch NameConstraintMatching.constraint(subtree.base) {
            case .dns(.all): base = .dnsAll
            case .dns(.domain(let domain, _)): base = .dns(lowered(domain))
            case .uri(.all): base = .uriAll
            case .uri(.domain(let domain, let leadingDot)): base = .uri(lowered(domain), leadingDot: leadingDot)
            case .email(.all): base = .emailAll
            case .email(.mailbox(let local, let domain)):
                let start = storage.count
                storage.append(contentsOf: local)
                base = .mailbox(local: start..<storage.count, domain: lowered(domain))
            case .email(.host(let host)): base = .mailHost(lowered(host))
            case .email(.domain(let domain)): base = .mailDomain(lowered(domain))
            case .ip(let bytes):
                let start = storage.count
                storage.append(contentsOf: bytes)
                base = .ip(start..<storage.count)
            case .directory(let sets):
                base = .directory(slot: directoryBases.count)
                directoryBases.append(.directory(sets))
            case .malformed: base = .malformed
            case .uninterpreted: base = .uninterpreted
            }
            entries.append(Entry(form: form, base: base, extraCost: NameConstraintsChecker.extraCost(of: subtree.base)))
        }
        self.entries = entries
        self.storage = storage
        self.directoryBases = directoryBases
        self.forms = forms
    }

    /// Visits the subtrees in order until one of `form` covers `name` (`presented`, in byte form):
    /// each visited pair costs one unit of `budget`, plus the entry's extra cost when it is of the
    /// name's form; `.budgetExhausted` when a pair remains and the budget cannot pay for it.
    func scan(_ name: PresentedName, _ presented: ConstrainedName, form: NameConstraintForm,
              _ mode: NameConstraintMatching.Mode, _ budget: inout Int) -> Scan {
        storage.withUnsafeBufferPointer { s in
            name.bytes.withUnsafeBufferPointer { n in
                entries.withUnsafeBufferPointer { list in
                    for i in list.indices {
                        guard budget > 0 else { return .budgetExhausted }
                        budget -= 1
                        guard list[i].form == form else { continue }
                        guard budget >= list[i].extraCost else { return .budgetExhausted }
                        budget -= list[i].extraCost
                        let outcome: NameConstraintMatching.Outcome
                        if case .directory(let slot) = list[i].base {
                            outcome = NameConstraintMatching.match(presented, directoryBases[slot], mode)
                        } else {
                            outcome = Self.match(name.kind, n, list[i].base, s, mode)
                        }
                        switch outcome {
                        case .match: return .match(i)
                        case .noMatch: continue
                        case .malformedConstraint: return .malformedConstraint(i)
                        }
                    }
                    return .noMatch
                }
            }
        }
    }

    // MARK: Comparison (the rules of NameConstraintMatching.match, on lowered bytes)

    private typealias Bytes = UnsafeBufferPointer<UInt8>

    private static func match(_ kind: PresentedName.Kind, _ n: Bytes, _ base: Base, _ s: Bytes,
                              _ mode: NameConstraintMatching.Mode) -> NameConstraintMatching.Outcome {
        switch (kind, base) {
        case (_, .malformed):
            return .malformedConstraint
        case (.dns, .dnsAll), (.email, .emailAll), (.internationalMailbox, .emailAll), (.uriHost, .uriAll):
            return .match
        case (.dns(let name, let wildcard), .dns(let domain)):
            if isEqualOrSubdomain(n, name, of: s, domain) { return .match }
            // A wildcard `*.name` also meets an excluded `<label>.name` (one name it covers is excluded).
            if wildcard, mode == .excluded, isOneLabelAbove(s, domain, n, name) { return .match }
            return .noMatch
        case (.email(let local, let domain), .mailbox(let baseLocal, let baseDomain)):
            return equal(n, local, s, baseLocal) && equal(n, domain, s, baseDomain) ? .match : .noMatch
        case (.email(_, let domain), .mailHost(let host)):
            return equal(n, domain, s, host) ? .match : .noMatch
        case (.email(_, let domain), .mailDomain(let parent)):
            return isProperSubdomain(n, domain, of: s, parent) ? .match : .noMatch
        case (.internationalMailbox(let domain), .mailbox(_, let baseDomain)):
            // Never permits; excludes by domain (NameConstraintMatching.match says why).
            return mode == .excluded && equal(n, domain, s, baseDomain) ? .match : .noMatch
        case (.internationalMailbox(let domain), .mailHost(let host)):
            return equal(n, domain, s, host) ? .match : .noMatch
        case (.internationalMailbox(let domain), .mailDomain(let parent)):
            return isProperSubdomain(n, domain, of: s, parent) ? .match : .noMatch
        case (.uriHost(let host), .uri(let domain, let leadingDot)):
            let within = leadingDot ? isProperSubdomain(n, host, of: s, domain) : equal(n, host, s, domain)
            return within ? .match : .noMatch
        case (.ip(let address), .ip(let range)):
            guard range.count == 2 * address.count else { return .noMatch }  // other family
            let mask = range.lowerBound + address.count
            for offset in 0..<address.count {
                let m = s[mask + offset]
                guard n[address.lowerBound + offset] & m == s[range.lowerBound + offset] & m else { return .noMatch }
            }
            return .match
        default:
            return .noMatch
        }
    }

    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    @inline(__always)
    private static func equal(_ a: Bytes, _ ra: Range<Int>, _ b: Bytes, _ rb: Range<Int>) -> Bool {
        ra.count == rb.count && bytesEqual(a, ra.lowerBound, b, rb.lowerBound, ra.count)
    }

    @inline(__always)
    private static func bytesEqual(_ a: Bytes, _ i: Int, _ b: Bytes, _ j: Int, _ count: Int) -> Bool {
        count == 0 || memcmp(a.baseAddress! + i, b.baseAddress! + j, count) == 0
    }

    /// `name` (in `n`) ends with `.domain` (in `s`): at least one label more.
    @inline(__always)
    private static func isProperSubdomain(_ n: Bytes, _ name: Range<Int>, of s: Bytes, _ domain: Range<Int>) -> Bool {
        name.count > domain.count + 1 && n[name.upperBound - domain.count - 1] == NameConstraintSyntax.dot
            && bytesEqual(n, name.upperBound - domain.count, s, domain.lowerBound, domain.count)
    }

    @inline(__always)
    private static func isEqualOrSubdomain(_ n: Bytes, _ name: Range<Int>, of s: Bytes, _ domain: Range<Int>) -> Bool {
        name.count == domain.count ? equal(n, name, s, domain) : isProperSubdomain(n, name, of: s, domain)
    }

    /// `longer` (in `s`) is exactly one label, `.`, and `shorter` (in `n`).
    private static func isOneLabelAbove(_ s: Bytes, _ longer: Range<Int>, _ n: Bytes, _ shorter: Range<Int>) -> Bool {
        guard longer.count > shorter.count + 1, s[longer.upperBound - shorter.count - 1] == NameConstraintSyntax.dot,
              bytesEqual(s, longer.upperBound - shorter.count, n, shorter.lowerBound, shorter.count) else { return false }
        return !s[longer.lowerBound..<(longer.upperBound - shorter.count - 1)].contains(NameConstraintSyntax.dot)
    }
}
