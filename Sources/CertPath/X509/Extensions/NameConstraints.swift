/// One GeneralSubtree of a nameConstraints extension (RFC 5280 4.2.1.10). `minimum` and `maximum`
/// are not kept: RFC 5280 requires minimum 0 and maximum absent, and other values are refused.
public struct GeneralSubtree: Hashable, Sendable {
    /// The base name; an iPAddress base holds address and mask (8 or 32 octets).
    public let base: GeneralName

    /// Creates a subtree (for RFC 5280 6.1.1 (h), (i) initial subtrees, ``ValidationPolicy/initialNameConstraints``).
    public init(base: GeneralName) { self.base = base }
}

/// The nameConstraints extension (RFC 5280 4.2.1.10).
public struct NameConstraints: Hashable, Sendable {
    /// permittedSubtrees; `nil` when absent.
    public let permittedSubtrees: [GeneralSubtree]?
    /// excludedSubtrees; `nil` when absent.
    public let excludedSubtrees: [GeneralSubtree]?

    /// Creates constraints, e.g. the initial permitted and excluded subtrees of RFC 5280 6.1.1 (h), (i)
    /// (``ValidationPolicy/initialNameConstraints``). An iPAddress base is address then mask.
    public init(permittedSubtrees: [GeneralSubtree]?, excludedSubtrees: [GeneralSubtree]?) {
        self.permittedSubtrees = permittedSubtrees
        self.excludedSubtrees = excludedSubtrees
    }

    /// Decodes `NameConstraints ::= SEQUENCE { permittedSubtrees [0] GeneralSubtrees OPTIONAL,
    /// excludedSubtrees [1] GeneralSubtrees OPTIONAL }`.
    ///
    /// - Throws: ``DERError``: malformed DER; `.invalidValue` when both are absent or a list is empty
    ///   (4.2.1.10: "MUST NOT issue certificates where name constraints is an empty sequence"; SIZE (1..MAX))
    ///   or an iPAddress mask is not a contiguous prefix; `.explicitDefault` for `minimum 0` encoded;
    ///   `.unsupported` for a non-zero minimum or a maximum, which RFC 5280 forbids.
    static func decode(_ ext: Extension) throws(DERError) -> NameConstraints {
        var reader = DERReader(ext.value)
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does.
    static func read(_ reader: inout DERReader) throws(DERError) -> NameConstraints {
        let start = reader.position
        return try reader.extensionValue(.sequence, "NameConstraints") { (r: inout DERReader) throws(DERError) -> NameConstraints in
            let permitted = try r.nestedOptional(.contextSpecific(0, constructed: true), "permittedSubtrees", readSubtrees)
            let excluded = try r.nestedOptional(.contextSpecific(1, constructed: true), "excludedSubtrees", readSubtrees)
            guard _fastPath(permitted != nil || excluded != nil) else {
                throw DERError(.invalidValue, at: start, expected: "permittedSubtrees or excludedSubtrees (RFC 5280 4.2.1.10)")
            }
            return NameConstraints(permittedSubtrees: permitted, excludedSubtrees: excluded)
        }
    }

    private static func readSubtrees(_ r: inout DERReader) throws(DERError) -> [GeneralSubtree] {
        guard _fastPath(!r.isAtEnd) else {
            throw DERError(.invalidValue, at: r.position, expected: "at least one GeneralSubtree")
        }
        var subtrees: [GeneralSubtree] = []
        while !r.isAtEnd {
            let subtree = try r.sequence("GeneralSubtree") { (s: inout DERReader) throws(DERError) -> GeneralSubtree in
                let start = s.position
                let base = try GeneralName.read(&s, .constraint, "GeneralSubtree base")
                if case .iPAddress(let bytes) = base {
                    let mask = bytes.suffix(bytes.count / 2)
                    var seenZero = false
                    for byte in mask {
                        if seenZero ? byte != 0 : byte != 0xFF {
                            guard _fastPath(!seenZero && (~byte &+ 1) & ~byte == 0) else {
                                throw DERError(.invalidValue, at: start, expected: "iPAddress constraint mask of contiguous leading ones")
                            }
                            seenZero = true
                        }
                    }
                }
                if let minimum = try s.readOptional(.contextSpecific(0), "GeneralSubtree minimum") {
                    let value = try s.unsignedInteger(
                        DERElement(tag: .integer, offset: minimum.offset, value: minimum.value), "GeneralSubtree minimum", as: UInt64.self)
                    throw DERError(value == 0 ? .explicitDefault : .unsupported, at: minimum.offset,
                                   expected: "GeneralSubtree minimum absent (RFC 5280 4.2.1.10: MUST be zero)")
                }
                if let maximum = try s.readOptional(.contextSpecific(1), "GeneralSubtree maximum") {
                    throw DERError(.unsupported, at: maximum.offset, expected: "GeneralSubtree maximum absent (RFC 5280 4.2.1.10)")
                }
                return GeneralSubtree(base: base)
            }
            subtrees.append(subtree)
        }
        return subtrees
    }
}
