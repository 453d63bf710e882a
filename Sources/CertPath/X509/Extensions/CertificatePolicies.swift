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
        var identifiers = SmallRangeList()
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
            if identifiers.contains(where: { reader.bytesEqual($0, identifier) }) {
                throw DERError(.duplicate, at: offset, expected: "each policy OID at most once (RFC 5280 4.2.1.4)")
            }
            identifiers.append(identifier)
            if build {
                policies.append(PolicyInformation(policyIdentifier: OID(validatedEncoding: reader.bytes[identifier]),
                                                  policyQualifiers: qualifiers.map { reader.bytes[$0] }))
            }
        }
        guard _fastPath(identifiers.count > 0) else { throw DERError(.invalidValue, at: reader.position, expected: "at least one PolicyInformation") }
        try reader.ascend(list, "certificatePolicies")
        try reader.finish("certificatePolicies")
        return policies
    }

    /// ``read(_:build:)`` without building the list: validation only.
    static func validate(_ reader: inout DERReader) throws(DERError) {
        _ = try read(&reader, build: false)
    }
}

/// A list of offset ranges that stores its first four inline (no heap allocation for short lists).
struct SmallRangeList {
    private var inline: (Range<Int>, Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0, 0..<0)
    private var overflow: [Range<Int>] = []
    private(set) var count = 0

    mutating func append(_ range: Range<Int>) {
        switch count {
        case 0: inline.0 = range
        case 1: inline.1 = range
        case 2: inline.2 = range
        case 3: inline.3 = range
        default: overflow.append(range)
        }
        count += 1
    }

    func contains(where predicate: (Range<Int>) -> Bool) -> Bool {
        if count > 0, predicate(inline.0) { return true }
        if count > 1, predicate(inline.1) { return true }
        if count > 2, predicate(inline.2) { return true }
        if count > 3, predicate(inline.3) { return true }
        for range in overflow where predicate(range) { return true }
        return false
    }
}
