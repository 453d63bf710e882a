// The nameConstraints extension (RFC 5280 4.2.1.10): decoding, and the syntax of its subtrees.
//
// Two layers, so that a certificate with a subtree CertPath refuses can still be read (`certpath
// show`, diagnostics) while every path through it fails:
// - Decoding (`NameConstraints.read`) refuses only what is not DER or not the ASN.1 structure of
//   4.2.1.10: a missing or empty list (SIZE (1..MAX)), a base that is not a GeneralName, a
//   `minimum` or `maximum` that is not a non-negative INTEGER (BaseDistance ::= INTEGER (0..MAX)),
//   and an explicitly encoded `minimum 0` (a DER DEFAULT value, X.690 11.5).
// - The RFC's prose rules on what a subtree may contain are checked by
//   `NameConstraints.firstMalformedSubtree()`, for every subtree of the extension, permitted and
//   excluded, whatever names the certificates below carry (the rules per form are listed there and
//   at the top of NameConstraintsChecker.swift). They are: "the minimum MUST be zero, and maximum
//   MUST be absent"; an iPAddress base is an address and a mask of 8 (IPv4) or 32 (IPv6) octets,
//   the mask a contiguous run of leading one bits (CIDR, RFC 4632); dNSName, rfc822Name and URI
//   bases are host names, mailboxes or domains in the forms 4.2.1.10 describes. A subtree that
//   breaks one is recorded as decoded (a `minimum`/`maximum` as `hasNonDefaultBounds`) and makes
//   the name-constraint check fail (`malformedConstraint`).
//
// iPAddress base bits outside the mask (`10.1.2.3` with mask `255.0.0.0`) are TOLERATED: the subtree
// is read as `10.0.0.0/8`. RFC 5280 4.2.1.10 and RFC 4632 write the base with those bits zero but
// state no rule for other values, and Go (IPNet.Contains), OpenSSL and BoringSSL (nc_ip) and
// rustls-webpki all mask base and address alike before comparing, so every validator reads such a
// subtree as the same range. Refusing it would reject paths every peer accepts and remove no
// disagreement; the rules CertPath does refuse (a non-contiguous mask, a leading-dot dNSName) are
// ones that validators read differently, which is what makes an excluded subtree unsafe.
import CertPathDER

/// One GeneralSubtree of a nameConstraints extension (RFC 5280 4.2.1.10). The values of `minimum`
/// and `maximum` are not kept: RFC 5280 requires minimum 0 and maximum absent, and a subtree with
/// other bounds is only recorded as such (``hasNonDefaultBounds``) and refused when validating.
public struct GeneralSubtree: Hashable, Sendable {
    /// The base name; an iPAddress base holds address and mask (8 or 32 octets in a valid subtree;
    /// other lengths decode and are refused by validation).
    public let base: GeneralName

    /// Whether the encoding had a `minimum` other than 0 or any `maximum` (RFC 5280 4.2.1.10: "the
    /// minimum MUST be zero, and maximum MUST be absent"). Such a subtree decodes, and makes every
    /// name-constraint check against its extension fail (``NameConstraintViolation/Reason/malformedConstraint(_:)``).
    public let hasNonDefaultBounds: Bool

    /// Creates a subtree with the default bounds (for RFC 5280 6.1.1 (h), (i) initial subtrees,
    /// ``ValidationPolicy/initialNameConstraints``).
    public init(base: GeneralName) { self.init(base: base, hasNonDefaultBounds: false) }

    /// Creates a subtree as decoded, recording whether its bounds were other than the default.
    package init(base: GeneralName, hasNonDefaultBounds: Bool) {
        self.base = base
        self.hasNonDefaultBounds = hasNonDefaultBounds
    }

    /// Why this subtree cannot be used for name-constraint processing (RFC 5280 4.2.1.10), as a
    /// phrase naming the rule; `nil` when it can. Non-default bounds are reported before the base's
    /// syntax. Linear in the base, allocation-free.
    package var malformation: String? {
        if hasNonDefaultBounds {
            return "it has a minimum other than 0 or a maximum (RFC 5280 4.2.1.10: the minimum MUST be zero, and maximum MUST be absent)"
        }
        return NameConstraintSyntax.malformation(ofConstraint: base)
    }
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

    /// The first subtree of the extension that cannot be used for name-constraint processing, or
    /// `nil` when every subtree can (RFC 5280 4.2.1.10; 6.1.3 (b)(c) and 6.1.4 (g) then compare names
    /// only with valid subtrees).
    ///
    /// Every subtree is examined, permitted and excluded, of every form, independently of the names
    /// of any certificate: a malformed subtree makes the whole extension unusable, so
    /// ``NameConstraintsChecker/check(subject:subjectAlternativeNames:constraints:commonNamesAsDNSNames:comparisons:)``
    /// fails with `malformedConstraint` for every certificate checked against it, and a validator
    /// may refuse the CA that carries it once.
    ///
    /// Order: the permitted subtrees in encoded order, then the excluded subtrees in encoded order
    /// (the extension's encoding order: `permittedSubtrees [0]` precedes `excludedSubtrees [1]`).
    /// Within one subtree, non-default bounds are reported before the base's syntax.
    ///
    /// A subtree is malformed when (the rules are listed in full at the top of NameConstraintsChecker.swift):
    /// - it has a `minimum` other than 0 or any `maximum` (``GeneralSubtree/hasNonDefaultBounds``);
    /// - dNSName: not empty and not a host name (labels of letters, digits, `-`, `_`, one optional
    ///   trailing dot); a leading period or a `*` anywhere is malformed;
    /// - rfc822Name: not empty, not a mailbox (`local@host`, one `@`), not a host and not `.domain`;
    /// - uniformResourceIdentifier: not empty, not a host and not `.domain` (a URI such as
    ///   `https://example.com` is not a host name);
    /// - iPAddress: not 8 or 32 octets, or a mask that is not a contiguous run of leading one bits
    ///   (base bits outside the mask are tolerated; see the top of this file).
    /// directoryName subtrees (a ``Name`` is always well-formed DER) and otherName, x400Address,
    /// ediPartyName and registeredID subtrees (not interpreted) are never malformed by themselves.
    ///
    /// - Returns: the subtree, whether it is in `excludedSubtrees` (`false`: `permittedSubtrees`),
    ///   and why, as a phrase naming the RFC rule (a literal: nothing is allocated).
    /// - Complexity: linear in the size of the extension; no budget is needed.
    package func firstMalformedSubtree() -> (subtree: GeneralSubtree, excluded: Bool, reason: String)? {
        if let permittedSubtrees {
            for subtree in permittedSubtrees {
                if let reason = subtree.malformation { return (subtree, false, reason) }
            }
        }
        if let excludedSubtrees {
            for subtree in excludedSubtrees {
                if let reason = subtree.malformation { return (subtree, true, reason) }
            }
        }
        return nil
    }

    /// Decodes `NameConstraints ::= SEQUENCE { permittedSubtrees [0] GeneralSubtrees OPTIONAL,
    /// excludedSubtrees [1] GeneralSubtrees OPTIONAL }`.
    ///
    /// Subtrees that are DER but break RFC 5280's prose rules (a non-zero minimum, a maximum, an
    /// iPAddress base of another length than 8 or 32 octets or with a non-contiguous mask, a host
    /// name that is not one) decode; ``firstMalformedSubtree()`` reports them.
    ///
    /// - Throws: ``DERError``: malformed DER; `.invalidValue` when a list is empty (SIZE (1..MAX)). Both
    ///   absent (4.2.1.10: "MUST NOT issue certificates where name constraints is an empty sequence",
    ///   prose: both fields are OPTIONAL) is recorded, ``ProfileRule/emptyNameConstraints``;
    ///   `.explicitDefault` for `minimum 0` encoded; `.negativeInteger` for a negative minimum or maximum
    ///   (BaseDistance ::= INTEGER (0..MAX)).
    package static func decode(_ ext: Extension) throws(DERError) -> NameConstraints {
        var reader = DERReader(ext.value)
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does.
    package static func read(_ reader: inout DERReader) throws(DERError) -> NameConstraints {
        var findings = ParseFindings()
        return try read(&reader, &findings)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does, recording what it finds.
    package static func read(_ reader: inout DERReader, _ findings: inout ParseFindings) throws(DERError) -> NameConstraints {
        return try reader.extensionValue(.sequence, "NameConstraints") { (r: inout DERReader) throws(DERError) -> NameConstraints in
            let permitted = try r.nestedOptional(.contextSpecific(0, constructed: true), "permittedSubtrees", readSubtrees)
            let excluded = try r.nestedOptional(.contextSpecific(1, constructed: true), "excludedSubtrees", readSubtrees)
            if _slowPath(permitted == nil && excluded == nil) { findings.insert(.emptyNameConstraints) }
            return NameConstraints(permittedSubtrees: permitted, excludedSubtrees: excluded)
        }
    }

    private static func readSubtrees(_ r: inout DERReader) throws(DERError) -> [GeneralSubtree] {
        guard _fastPath(!r.isAtEnd) else {
            throw DERError(.invalidValue, at: r.position, expected: "at least one GeneralSubtree")
        }
        var subtrees = [GeneralSubtree](capacityForElementsOf: r)
        while !r.isAtEnd {
            let subtree = try r.sequence("GeneralSubtree") { (s: inout DERReader) throws(DERError) -> GeneralSubtree in
                let base = try GeneralName.read(&s, .constraint, "GeneralSubtree base")
                var nonDefaultBounds = false
                // minimum [0] BaseDistance DEFAULT 0, maximum [1] BaseDistance OPTIONAL (IMPLICIT INTEGER (0..MAX)).
                if let minimum = try s.readOptional(.contextSpecific(0), "GeneralSubtree minimum") {
                    let isZero = try readBaseDistance(minimum, &s, "GeneralSubtree minimum")
                    guard _fastPath(!isZero) else {
                        throw DERError(.explicitDefault, at: minimum.offset, expected: "GeneralSubtree minimum omitted when 0 (DEFAULT 0)")
                    }
                    nonDefaultBounds = true
                }
                if let maximum = try s.readOptional(.contextSpecific(1), "GeneralSubtree maximum") {
                    _ = try readBaseDistance(maximum, &s, "GeneralSubtree maximum")
                    nonDefaultBounds = true
                }
                return GeneralSubtree(base: base, hasNonDefaultBounds: nonDefaultBounds)
            }
            subtrees.append(subtree)
        }
        return subtrees
    }

    /// Validates an IMPLICIT BaseDistance (`INTEGER (0..MAX)`, any size): minimal and non-negative.
    /// Returns whether it is 0.
    private static func readBaseDistance(_ element: DERElement, _ s: inout DERReader, _ expected: String) throws(DERError) -> Bool {
        let integer = DERElement(tag: .integer, offset: element.offset, value: element.value)
        try s.validateInteger(integer, expected)
        guard _fastPath(!s.isNegativeInteger(integer)) else {
            throw DERError(.negativeInteger, at: element.offset, expected: "non-negative \(expected) (BaseDistance ::= INTEGER (0..MAX))")
        }
        return s.withUnsafeBytes(of: integer.value) { $0.count == 1 && $0[0] == 0 }
    }
}
