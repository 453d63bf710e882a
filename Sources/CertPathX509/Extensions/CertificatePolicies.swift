import CertPathDER

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
package enum CertificatePolicies {
    /// Decodes `certificatePolicies ::= SEQUENCE SIZE (1..MAX) OF PolicyInformation`.
    ///
    /// - Throws: ``DERError``; `.invalidValue` for an empty list or a PolicyQualifierInfo that is not
    ///   `SEQUENCE { OID, ANY }`. Recorded, not thrown: a policy OID listed twice ("A certificate
    ///   policy OID MUST NOT appear more than once", ``ProfileRule/duplicatePolicyIdentifier``;
    ///   both are listed) and a qualifier other than an id-qt-cps IA5String or an id-qt-unotice
    ///   UserNotice SEQUENCE (``ProfileRule/uninterpretedPolicyQualifier``).
    package static func decode(_ ext: Extension) throws(DERError) -> [PolicyInformation] {
        var reader = DERReader(ext.value)
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does.
    package static func read(_ reader: inout DERReader) throws(DERError) -> [PolicyInformation] {
        var findings = ParseFindings()
        var discarded = DiscardedElements()
        return try read(&reader, build: true, &findings, into: &discarded)
    }

    /// The qualifier types CertPath interprets (RFC 5280 4.2.1.4): id-qt-cps (1.3.6.1.5.5.7.2.1) and
    /// id-qt-unotice (1.3.6.1.5.5.7.2.2), as the contents octets of their OIDs.
    private static let cpsQualifier: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x02, 0x01]
    private static let userNoticeQualifier: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x02, 0x02]

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does, recording what it finds and
    /// giving `elements` the tag number (6) and contents offsets of each policyIdentifier; with
    /// `build` false it only validates and returns an empty list.
    @inline(__always)  // with `build` a constant, the unused list costs nothing
    package static func read<Elements: ExtensionElementSink>(
        _ reader: inout DERReader, build: Bool, _ findings: inout ParseFindings, into elements: inout Elements
    ) throws(DERError) -> [PolicyInformation] {
        let list = try reader.descend(.sequence, "certificatePolicies")
        var policies = [PolicyInformation](capacityForElementsOf: reader, build: build)
        var identifiers = SeenByteStrings()
        var isEmpty = true
        while !reader.isAtEnd {
            let information = try reader.descend(.sequence, "PolicyInformation")
            let identifierElement = try reader.readObjectIdentifier("policyIdentifier")
            let identifier = identifierElement.value
            elements.append(identifierElement.tag.number, identifier)
            var qualifiers: Range<Int>? = nil
            if let element = try reader.readOptional(.sequence, "policyQualifiers") {
                let qualifierList = try reader.descend(into: element, "policyQualifiers")
                guard _fastPath(!reader.isAtEnd) else {
                    throw DERError(.invalidValue, at: element.offset, expected: "at least one PolicyQualifierInfo")
                }
                while !reader.isAtEnd {
                    let qualifier = try reader.descend(.sequence, "PolicyQualifierInfo")
                    let qualifierID = try reader.readObjectIdentifier("policyQualifierId").value
                    let value = try reader.readAny("qualifier")
                    let interpreted = (reader.bytesEqual(qualifierID, cpsQualifier[...]) && value.tag == .ia5String)
                        || (reader.bytesEqual(qualifierID, userNoticeQualifier[...]) && value.tag == .sequence)
                    if _slowPath(!interpreted) { findings.insert(.uninterpretedPolicyQualifier) }
                    try reader.ascend(qualifier, "PolicyQualifierInfo")
                }
                reader.ascend(qualifierList)
                qualifiers = element.encoded
            }
            try reader.ascend(information, "PolicyInformation")
            if _slowPath(!identifiers.insert(identifier, of: reader)) { findings.insert(.duplicatePolicyIdentifier) }
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
}
