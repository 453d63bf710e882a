import CertPathDER

/// One mapping of the policyMappings extension (RFC 5280 4.2.1.5).
public struct PolicyMapping: Hashable, Sendable {
    /// issuerDomainPolicy.
    public let issuerDomainPolicy: OID
    /// subjectDomainPolicy.
    public let subjectDomainPolicy: OID
}

/// The policyConstraints extension (RFC 5280 4.2.1.11). Values are SkipCerts counts.
public struct PolicyConstraints: Hashable, Sendable {
    /// `[0] requireExplicitPolicy`.
    public let requireExplicitPolicy: Int?
    /// `[1] inhibitPolicyMapping`.
    public let inhibitPolicyMapping: Int?

    /// Decodes `PolicyConstraints ::= SEQUENCE { requireExplicitPolicy [0] SkipCerts OPTIONAL,
    /// inhibitPolicyMapping [1] SkipCerts OPTIONAL }`.
    ///
    /// - Throws: ``DERError``: integer errors for negative or huge counts. An empty sequence
    ///   (4.2.1.11: "MUST NOT issue … where policy constraints is an empty sequence") is recorded,
    ///   ``ProfileRule/emptyPolicyConstraints``, and constrains nothing.
    package static func decode(_ ext: Extension) throws(DERError) -> PolicyConstraints {
        var reader = DERReader(ext.value)
        var findings = ParseFindings()
        return try read(&reader, &findings)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does, recording what it finds.
    package static func read(_ reader: inout DERReader, _ findings: inout ParseFindings) throws(DERError) -> PolicyConstraints {
        return try reader.extensionValue(.sequence, "PolicyConstraints") { (r: inout DERReader) throws(DERError) -> PolicyConstraints in
            func skipCerts(_ number: UInt8, _ name: String) throws(DERError) -> Int? {
                guard let element = try r.readOptional(.contextSpecific(number), name) else { return nil }
                return Int(try r.unsignedInteger(DERElement(tag: .integer, offset: element.offset, value: element.value), name, as: UInt32.self))
            }
            let require = try skipCerts(0, "requireExplicitPolicy")
            let inhibit = try skipCerts(1, "inhibitPolicyMapping")
            if _slowPath(require == nil && inhibit == nil) { findings.insert(.emptyPolicyConstraints) }
            return PolicyConstraints(requireExplicitPolicy: require, inhibitPolicyMapping: inhibit)
        }
    }
}

package enum PolicyMappings {
    /// Decodes `PolicyMappings ::= SEQUENCE SIZE (1..MAX) OF SEQUENCE { issuerDomainPolicy, subjectDomainPolicy }`.
    ///
    /// - Throws: ``DERError``; `.invalidValue` for an empty list.
    package static func decode(_ ext: Extension) throws(DERError) -> [PolicyMapping] {
        var reader = DERReader(ext.value)
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does.
    package static func read(_ reader: inout DERReader) throws(DERError) -> [PolicyMapping] {
        return try reader.extensionValue(.sequence, "PolicyMappings") { (r: inout DERReader) throws(DERError) -> [PolicyMapping] in
            var mappings = [PolicyMapping](capacityForElementsOf: r)
            while !r.isAtEnd {
                mappings.append(try r.sequence("PolicyMapping") { (m: inout DERReader) throws(DERError) -> PolicyMapping in
                    PolicyMapping(issuerDomainPolicy: try m.readOID("issuerDomainPolicy"),
                                  subjectDomainPolicy: try m.readOID("subjectDomainPolicy"))
                })
            }
            guard _fastPath(!mappings.isEmpty) else { throw DERError(.invalidValue, at: r.position, expected: "at least one PolicyMapping") }
            return mappings
        }
    }
}

package enum InhibitAnyPolicy {
    /// Decodes `InhibitAnyPolicy ::= SkipCerts` (RFC 5280 4.2.1.14), `SkipCerts ::= INTEGER (0..MAX)`.
    ///
    /// - Throws: ``DERError``: `.negativeInteger` for a negative count, other integer errors.
    package static func decode(_ ext: Extension) throws(DERError) -> Int {
        var reader = DERReader(ext.value)
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does.
    package static func read(_ reader: inout DERReader) throws(DERError) -> Int {
        let value = try reader.readUnsigned("InhibitAnyPolicy SkipCerts", as: UInt32.self)
        try reader.finish("InhibitAnyPolicy")
        return Int(value)
    }
}
