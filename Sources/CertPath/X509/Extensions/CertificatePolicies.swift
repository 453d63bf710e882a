/// One PolicyInformation of a certificatePolicies extension (RFC 5280 4.2.1.4).
public struct PolicyInformation: Hashable, Sendable {
    /// policyIdentifier (anyPolicy is 2.5.29.32.0).
    public let policyIdentifier: OID
    /// The complete encoding of policyQualifiers when present. Qualifiers are informational for
    /// path validation (RFC 5280 6.1 ignores them); their structure is checked (each qualifier DER all the
    /// way down), their meaning is not.
    public let policyQualifiers: ArraySlice<UInt8>?
}

/// The certificatePolicies extension (RFC 5280 4.2.1.4).
enum CertificatePolicies {
    /// Decodes `certificatePolicies ::= SEQUENCE SIZE (1..MAX) OF PolicyInformation`.
    ///
    /// - Throws: ``DERError``; `.invalidValue` for an empty list or a PolicyQualifierInfo that is not
    ///   `SEQUENCE { OID, ANY }`; `.duplicate` for a policy OID listed twice ("A certificate policy
    ///   OID MUST NOT appear more than once").
    static func decode(_ ext: Extension) throws(DERError) -> [PolicyInformation] {
        try ext.parse(.sequence, "certificatePolicies") { (r: inout DERReader) throws(DERError) -> [PolicyInformation] in
            var policies: [PolicyInformation] = []
            while !r.isAtEnd {
                let offset = r.position
                let policy = try r.sequence("PolicyInformation") { (p: inout DERReader) throws(DERError) -> PolicyInformation in
                    let identifier = try p.readOID("policyIdentifier")
                    var qualifiers: ArraySlice<UInt8>? = nil
                    if let element = try p.readOptional(.sequence, "policyQualifiers") {
                        var list = try p.contents(of: element, "policyQualifiers")
                        guard !list.isAtEnd else {
                            throw DERError(.invalidValue, at: element.offset, expected: "at least one PolicyQualifierInfo")
                        }
                        while !list.isAtEnd {
                            try list.sequence("PolicyQualifierInfo") { (q: inout DERReader) throws(DERError) in
                                _ = try q.readObjectIdentifier("policyQualifierId")
                                _ = try q.readAny("qualifier")
                            }
                        }
                        qualifiers = p.bytes[element.encoded]
                    }
                    return PolicyInformation(policyIdentifier: identifier, policyQualifiers: qualifiers)
                }
                if policies.contains(where: { $0.policyIdentifier == policy.policyIdentifier }) {
                    throw DERError(.duplicate, at: offset, expected: "each policy OID at most once (RFC 5280 4.2.1.4)")
                }
                policies.append(policy)
            }
            guard !policies.isEmpty else { throw DERError(.invalidValue, at: r.position, expected: "at least one PolicyInformation") }
            return policies
        }
    }
}
