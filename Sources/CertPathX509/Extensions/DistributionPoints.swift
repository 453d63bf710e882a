import CertPathDER

/// The name of a distribution point (RFC 5280 4.2.1.13).
public enum DistributionPointName: Hashable, Sendable {
    /// `[0] fullName`.
    case fullName([GeneralName])
    /// `[1] nameRelativeToCRLIssuer`: an RDN to append to the CRL issuer's name; its complete
    /// encoding (the `[1]` element re-tagged as SET) and its attributes.
    case nameRelativeToCRLIssuer([AttributeTypeAndValue])
}

/// CRL revocation reasons as the ReasonFlags named bit list (RFC 5280 4.2.1.13).
public struct ReasonFlags: OptionSet, Hashable, Sendable {
    /// Bit `n` is `1 << n`.
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// unused (bit 0): reserved; no CRLReason corresponds to it, and it is not one of ``all``.
    public static let unused = ReasonFlags(rawValue: 1 << 0)
    /// keyCompromise (bit 1; CRLReason 1, RFC 5280 5.3.1): the subject's private key is known or
    /// suspected to be compromised.
    public static let keyCompromise = ReasonFlags(rawValue: 1 << 1)
    /// cACompromise (bit 2; CRLReason 2): the issuing CA's key is compromised.
    public static let cACompromise = ReasonFlags(rawValue: 1 << 2)
    /// affiliationChanged (bit 3; CRLReason 3): the subject's name or affiliation changed; the key
    /// is not suspected.
    public static let affiliationChanged = ReasonFlags(rawValue: 1 << 3)
    /// superseded (bit 4; CRLReason 4): the certificate has been replaced by another.
    public static let superseded = ReasonFlags(rawValue: 1 << 4)
    /// cessationOfOperation (bit 5; CRLReason 5): the certificate is no longer needed for its purpose.
    public static let cessationOfOperation = ReasonFlags(rawValue: 1 << 5)
    /// certificateHold (bit 6; CRLReason 6): the certificate is suspended, and may be released
    /// (removeFromCRL) later.
    public static let certificateHold = ReasonFlags(rawValue: 1 << 6)
    /// privilegeWithdrawn (bit 7; CRLReason 9): a privilege the certificate granted was withdrawn.
    public static let privilegeWithdrawn = ReasonFlags(rawValue: 1 << 7)
    /// aACompromise (bit 8; CRLReason 10): the attribute authority's key is compromised.
    public static let aACompromise = ReasonFlags(rawValue: 1 << 8)
    /// Every reason: RFC 5280 6.3.2 (a) all-reasons, the eight substantive reasons keyCompromise …
    /// aACompromise (bits 1–8, not ``unused``); what a CRL or distribution point without `reasons` covers.
    public static let all = ReasonFlags(rawValue: 0x1FE)

    /// Decodes a ReasonFlags BIT STRING element (named bit list DER rules).
    ///
    /// - Throws: ``DERError``; `.invalidValue` for bits beyond aACompromise.
    package static func read(_ reader: DERReader, _ element: DERElement, _ expected: @autoclosure () -> String) throws(DERError) -> ReasonFlags {
        let bits = try reader.bitString(DERElement(tag: .bitString, offset: element.offset, value: element.value), expected(), namedBits: true)
        guard _fastPath(bits.bitCount <= 9) else { throw DERError(.invalidValue, at: element.offset, expected: "\(expected()) bits 0…8") }
        return ReasonFlags(rawValue: UInt16(reader.namedBits(bits)))
    }
}

/// One DistributionPoint of a cRLDistributionPoints or freshestCRL extension (RFC 5280 4.2.1.13).
public struct DistributionPoint: Hashable, Sendable {
    /// `[0] distributionPoint`.
    public let name: DistributionPointName?
    /// `[1] reasons`; `nil` means all reasons.
    public let reasons: ReasonFlags?
    /// `[2] cRLIssuer`.
    public let cRLIssuer: [GeneralName]?

    /// Reads one DistributionPoint (also used for a CRL's issuingDistributionPoint name). With
    /// `build` false it only validates and returns a DistributionPoint with nothing in it.
    ///
    /// - Throws: ``DERError``; `.invalidValue` when both distributionPoint and cRLIssuer are absent
    ///   (4.2.1.13: "MUST NOT consist of only the reasons field").
    package static func read(_ reader: inout DERReader, build: Bool = true) throws(DERError) -> DistributionPoint {
        let start = reader.position
        let point = try reader.descend(.sequence, "DistributionPoint")
        var name: DistributionPointName? = nil
        var hasName = false
        if reader.peekTag() == .contextSpecific(0, constructed: true) {
            let wrapper = try reader.descend(.contextSpecific(0, constructed: true), "distributionPoint")
            name = try readName(&reader, build: build)
            try reader.ascend(wrapper, "distributionPoint")
            hasName = true
        }
        var reasons: ReasonFlags? = nil
        if let element = try reader.readOptional(.contextSpecific(1), "reasons") {
            reasons = try ReasonFlags.read(reader, element, "DistributionPoint reasons")
        }
        var issuer: [GeneralName]? = nil
        if reader.peekTag() == .contextSpecific(2, constructed: true) {
            let wrapper = try reader.descend(.contextSpecific(2, constructed: true), "cRLIssuer")
            let element = DERElement(tag: .sequence, offset: reader.position, value: reader.position..<reader.end)
            issuer = try GeneralName.readNames(&reader, element, .name, "cRLIssuer", build: build)
            try reader.ascend(wrapper, "cRLIssuer")
        }
        guard _fastPath(hasName || issuer != nil) else {
            throw DERError(.invalidValue, at: start, expected: "distributionPoint or cRLIssuer (RFC 5280 4.2.1.13)")
        }
        try reader.ascend(point, "DistributionPoint")
        guard build else { return DistributionPoint(name: nil, reasons: nil, cRLIssuer: nil) }
        return DistributionPoint(name: name, reasons: reasons, cRLIssuer: issuer)
    }

    /// Reads a DistributionPointName CHOICE (the contents of its EXPLICIT-like `[0]` wrapper).
    package static func readName(_ n: inout DERReader) throws(DERError) -> DistributionPointName {
        try readName(&n, build: true)!
    }

    /// ``readName(_:)``; with `build` false it only validates and returns `nil`.
    private static func readName(_ n: inout DERReader, build: Bool) throws(DERError) -> DistributionPointName? {
        let element = try n.readElement("DistributionPointName")
        let inner = try n.descend(into: element, "DistributionPointName")
        let name: DistributionPointName?
        switch element.tag {
        case .contextSpecific(0, constructed: true):
            let names = try GeneralName.readNames(&n, element, .name, "fullName", build: build)
            name = build ? .fullName(names) : nil
        case .contextSpecific(1, constructed: true):
            var attributes = [AttributeTypeAndValue](capacityForElementsOf: n, build: build)
            var count = 0
            while !n.isAtEnd {
                let attribute = try n.descend(.sequence, "AttributeTypeAndValue")
                let type = try n.readObjectIdentifier("attribute type")
                let value = try n.readAny("attribute value")
                if build {
                    attributes.append(AttributeTypeAndValue(type: OID(validatedEncoding: n.bytes[type.value]), valueTag: value.tag,
                                                            value: n.bytes[value.value], encodedValue: n.bytes[value.encoded]))
                }
                try n.ascend(attribute, "AttributeTypeAndValue")
                count += 1
            }
            guard _fastPath(count > 0) else {
                throw DERError(.invalidValue, at: element.offset, expected: "non-empty nameRelativeToCRLIssuer")
            }
            name = build ? .nameRelativeToCRLIssuer(attributes) : nil
        default:
            throw DERError(.unexpectedTag, at: element.offset, expected: "fullName [0] or nameRelativeToCRLIssuer [1], found \(element.tag)")
        }
        n.ascend(inner)
        return name
    }
}

package enum CRLDistributionPoints {
    /// Decodes `CRLDistributionPoints ::= SEQUENCE SIZE (1..MAX) OF DistributionPoint`.
    ///
    /// - Throws: ``DERError``; `.invalidValue` for an empty list.
    package static func decode(_ ext: Extension) throws(DERError) -> [DistributionPoint] {
        var reader = DERReader(ext.value)
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does; with `build` false it only
    /// validates and returns an empty list.
    @inline(__always)  // with `build` a constant, the unused list costs nothing
    package static func read(_ reader: inout DERReader, build: Bool = true) throws(DERError) -> [DistributionPoint] {
        let list = try reader.descend(.sequence, "CRLDistributionPoints")
        var points = [DistributionPoint](capacityForElementsOf: reader, build: build)
        var count = 0
        while !reader.isAtEnd {
            let point = try DistributionPoint.read(&reader, build: build)
            if build { points.append(point) }
            count += 1
        }
        guard _fastPath(count > 0) else { throw DERError(.invalidValue, at: reader.position, expected: "at least one DistributionPoint") }
        try reader.ascend(list, "CRLDistributionPoints")
        try reader.finish("CRLDistributionPoints")
        return points
    }

    /// ``read(_:build:)`` without building the list: validation only.
    package static func validate(_ reader: inout DERReader) throws(DERError) {
        _ = try read(&reader, build: false)
    }
}
