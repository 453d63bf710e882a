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
        var reader = DERReader(ext.value)
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does; with `build` false it only
    /// validates and returns an empty list.
    @inline(__always)  // with `build` a constant, the unused list costs nothing
    static func read(_ reader: inout DERReader, build: Bool = true) throws(DERError) -> [PolicyInformation] {
        let list = try reader.descend(.sequence, "certificatePolicies")
        var policies: [PolicyInformation] = []
        var identifiers = SeenByteStrings()
        var isEmpty = true
        while !reader.isAtEnd {
            let offset = reader.position
            let information = try reader.descend(.sequence, "PolicyInformation")
            let identifier = try reader.readObjectIdentifier("policyIdentifier").value
            var qualifiers: Range<Int>? = nil
            if let element = try reader.readOptional(.sequence, "policyQualifiers") {
                let qualifierList = try reader.descend(into: element, "policyQualifiers")
                guard _fastPath(!reader.isAtEnd) else {
                    throw DERError(.invalidValue, at: element.offset, expected: "at least one PolicyQualifierInfo")
                }
                while !reader.isAtEnd {
                    let qualifier = try reader.descend(.sequence, "PolicyQualifierInfo")
                    _ = try reader.readObjectIdentifier("policyQualifierId")
                    _ = try reader.readAny("qualifier")
                    try reader.ascend(qualifier, "PolicyQualifierInfo")
                }
                reader.ascend(qualifierList)
                qualifiers = element.encoded
            }
            try reader.ascend(information, "PolicyInformation")
            guard _fastPath(identifiers.insert(identifier, of: reader)) else {
                throw DERError(.duplicate, at: offset,
                               expected: "each policy OID at most once (RFC 5280 4.2.1.4), \(OID(validatedEncoding: reader.bytes[identifier])) repeated")
            }
            isEmpty = false
            if build {
                policies.append(PolicyInformation(policyIdentifier: OID(validatedEncoding: reader.bytes[identifier]),
                                                  policyQualifiers: qualifiers.map { reader.bytes[$0] }))
            }
        }
        guard _fastPath(!isEmpty) else { throw DERError(.invalidValue, at: reader.position, expected: "at least one PolicyInformation") }
        try reader.ascend(list, "certificatePolicies")
        try reader.finish("certificatePolicies")
        return policies
    }

    /// ``read(_:build:)`` without building the list: validation only.
    static func validate(_ reader: inout DERReader) throws(DERError) {
        _ = try read(&reader, build: false)
    }
}
