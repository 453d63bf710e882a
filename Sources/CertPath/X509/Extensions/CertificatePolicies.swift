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
    static func read(_ reader: inout DERReader, build: Bool = true) throws(DERError) -> [PolicyInformation] {
        try reader.extensionValue(.sequence, "certificatePolicies") { (r: inout DERReader) throws(DERError) -> [PolicyInformation] in
            var policies: [PolicyInformation] = []
            var identifiers = SmallRangeList()
            while !r.isAtEnd {
                let offset = r.position
                let (identifier, qualifiers) = try r.sequence("PolicyInformation") {
                    (p: inout DERReader) throws(DERError) -> (Range<Int>, Range<Int>?) in
                    let identifier = try p.readObjectIdentifier("policyIdentifier")
                    var qualifiers: Range<Int>? = nil
                    if let element = try p.readOptional(.sequence, "policyQualifiers") {
                        try p.enter(element, "policyQualifiers") { (list: inout DERReader) throws(DERError) in
                            guard !list.isAtEnd else {
                                throw DERError(.invalidValue, at: element.offset, expected: "at least one PolicyQualifierInfo")
                            }
                            while !list.isAtEnd {
                                try list.sequence("PolicyQualifierInfo") { (q: inout DERReader) throws(DERError) in
                                    _ = try q.readObjectIdentifier("policyQualifierId")
                                    _ = try q.readAny("qualifier")
                                }
                            }
                        }
                        qualifiers = element.encoded
                    }
                    return (identifier.value, qualifiers)
                }
                if identifiers.contains(where: { r.bytesEqual($0, identifier) }) {
                    throw DERError(.duplicate, at: offset, expected: "each policy OID at most once (RFC 5280 4.2.1.4)")
                }
                identifiers.append(identifier)
                if build {
                    policies.append(PolicyInformation(policyIdentifier: OID(validatedEncoding: r.bytes[identifier]),
                                                      policyQualifiers: qualifiers.map { r.bytes[$0] }))
                }
            }
            guard identifiers.count > 0 else { throw DERError(.invalidValue, at: r.position, expected: "at least one PolicyInformation") }
            return policies
        }
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

extension DERReader {
    /// Whether the bytes at offsets `a` and `b` are equal.
    func bytesEqual(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        return withUnsafeBytes(of: a) { x in
            withUnsafeBytes(of: b) { y in
                for index in 0..<x.count where x[index] != y[index] { return false }
                return true
            }
        }
    }
}
