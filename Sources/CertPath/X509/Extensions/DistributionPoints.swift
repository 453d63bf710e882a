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
    public static let unused = ReasonFlags(rawValue: 1 << 0)
    public static let keyCompromise = ReasonFlags(rawValue: 1 << 1)
    public static let cACompromise = ReasonFlags(rawValue: 1 << 2)
    public static let affiliationChanged = ReasonFlags(rawValue: 1 << 3)
    public static let superseded = ReasonFlags(rawValue: 1 << 4)
    public static let cessationOfOperation = ReasonFlags(rawValue: 1 << 5)
    public static let certificateHold = ReasonFlags(rawValue: 1 << 6)
    public static let privilegeWithdrawn = ReasonFlags(rawValue: 1 << 7)
    public static let aACompromise = ReasonFlags(rawValue: 1 << 8)
    /// Every reason (what a CRL or distribution point without `reasons` covers).
    public static let all = ReasonFlags(rawValue: 0x1FF)

    /// Decodes a ReasonFlags BIT STRING element (named bit list DER rules).
    ///
    /// - Throws: ``DERError``; `.invalidValue` for bits beyond aACompromise.
    static func read(_ reader: DERReader, _ element: DERElement, _ expected: String) throws(DERError) -> ReasonFlags {
        let bits = try reader.bitString(DERElement(tag: .bitString, offset: element.offset, value: element.value), expected, namedBits: true)
        guard bits.bitCount <= 9 else { throw DERError(.invalidValue, at: element.offset, expected: "\(expected) bits 0…8") }
        var value: UInt16 = 0
        for (index, byteIndex) in bits.bytes.enumerated() {
            let byte = reader.bytes[byteIndex]
            for bit in 0..<8 where byte & (0x80 >> bit) != 0 { value |= 1 << UInt16(index * 8 + bit) }
        }
        return ReasonFlags(rawValue: value)
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

    /// Reads one DistributionPoint (also used for a CRL's issuingDistributionPoint name).
    ///
    /// - Throws: ``DERError``; `.invalidValue` when both distributionPoint and cRLIssuer are absent
    ///   (4.2.1.13: "MUST NOT consist of only the reasons field").
    static func read(_ reader: inout DERReader) throws(DERError) -> DistributionPoint {
        let start = reader.position
        return try reader.sequence("DistributionPoint") { (d: inout DERReader) throws(DERError) -> DistributionPoint in
            let name = try d.nestedOptional(.contextSpecific(0, constructed: true), "distributionPoint") {
                (n: inout DERReader) throws(DERError) -> DistributionPointName in
                try readName(&n)
            }
            var reasons: ReasonFlags? = nil
            if let element = try d.readOptional(.contextSpecific(1), "reasons") {
                reasons = try ReasonFlags.read(d, element, "DistributionPoint reasons")
            }
            let issuer = try d.nestedOptional(.contextSpecific(2, constructed: true), "cRLIssuer") {
                (n: inout DERReader) throws(DERError) -> [GeneralName] in
                let element = DERElement(tag: .sequence, offset: n.position, value: n.position..<n.end)
                return try GeneralName.readNames(&n, element, .name, "cRLIssuer")
            }
            guard name != nil || issuer != nil else {
                throw DERError(.invalidValue, at: start, expected: "distributionPoint or cRLIssuer (RFC 5280 4.2.1.13)")
            }
            return DistributionPoint(name: name, reasons: reasons, cRLIssuer: issuer)
        }
    }

    /// Reads a DistributionPointName CHOICE (the contents of its EXPLICIT-like `[0]` wrapper).
    static func readName(_ n: inout DERReader) throws(DERError) -> DistributionPointName {
        let element = try n.readElement("DistributionPointName")
        var inner = try n.contents(of: element, "DistributionPointName")
        switch element.tag {
        case .contextSpecific(0, constructed: true):
            return .fullName(try GeneralName.readNames(&inner, element, .name, "fullName"))
        case .contextSpecific(1, constructed: true):
            var attributes: [AttributeTypeAndValue] = []
            while !inner.isAtEnd {
                try inner.sequence("AttributeTypeAndValue") { (a: inout DERReader) throws(DERError) in
                    let type = try a.readOID("attribute type")
                    let value = try a.readAny("attribute value")
                    attributes.append(AttributeTypeAndValue(type: type, valueTag: value.tag, value: a.bytes[value.value],
                                                            encodedValue: a.bytes[value.encoded]))
                }
            }
            guard !attributes.isEmpty else {
                throw DERError(.invalidValue, at: element.offset, expected: "non-empty nameRelativeToCRLIssuer")
            }
            return .nameRelativeToCRLIssuer(attributes)
        default:
            throw DERError(.unexpectedTag, at: element.offset, expected: "fullName [0] or nameRelativeToCRLIssuer [1], found \(element.tag)")
        }
    }
}

enum CRLDistributionPoints {
    /// Decodes `CRLDistributionPoints ::= SEQUENCE SIZE (1..MAX) OF DistributionPoint`.
    ///
    /// - Throws: ``DERError``; `.invalidValue` for an empty list.
    static func decode(_ ext: Extension) throws(DERError) -> [DistributionPoint] {
        try ext.parse(.sequence, "CRLDistributionPoints") { (r: inout DERReader) throws(DERError) -> [DistributionPoint] in
            var points: [DistributionPoint] = []
            while !r.isAtEnd { points.append(try DistributionPoint.read(&r)) }
            guard !points.isEmpty else { throw DERError(.invalidValue, at: r.position, expected: "at least one DistributionPoint") }
            return points
        }
    }
}
