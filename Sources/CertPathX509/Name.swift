import CertPathDER

/// One `AttributeTypeAndValue` of a distinguished name (RFC 5280 4.1.2.4): an attribute type and its
/// value, which is usually a DirectoryString but may be any ASN.1 type.
public struct AttributeTypeAndValue: Hashable, Sendable {
    /// The attribute type (`2.5.4.3` commonName, …).
    public let type: OID
    /// Tag of the value's encoding (UTF8String, PrintableString, … or another type).
    package let valueTag: DERTag
    /// The value's contents octets (a view into the certificate).
    public let value: ArraySlice<UInt8>
    /// The value's complete encoding (tag, length, contents).
    public let encodedValue: ArraySlice<UInt8>

    /// The value as text when it is a character string type; `nil` otherwise.
    public var stringValue: String? { DERString.decode(value, tag: valueTag) }
}

/// One RelativeDistinguishedName: a non-empty set of attributes (usually exactly one).
public struct RelativeDistinguishedName: Hashable, Sendable {
    /// The attributes, in encoded (DER SET OF) order.
    public let attributes: [AttributeTypeAndValue]
}

/// An X.501 distinguished name as used for issuer and subject (RFC 5280 4.1.2.4, 4.1.2.6).
///
/// A `Name` keeps its exact DER; `==` and hashing compare those bytes. Name chaining and name
/// constraints use ``isEquivalent(to:)`` / ``normalizedKey``, the RFC 5280 7.1 comparison: attribute
/// types equal, each value compared by its attribute's matching rule — DirectoryString values after
/// transcoding to Unicode, case folding and insignificant-space handling (RFC 4518), the IA5String
/// values of domainComponent, emailAddress, mail and the like case-insensitively (caseIgnoreIA5Match,
/// RFC 4519 2.4, RFC 5280 4.1.2.6 and 7.3) — values of other types and attributes compared as
/// encoded, RDNs as sets (see ``NormalizedName``).
public struct Name: Hashable, Sendable, CustomStringConvertible {
    /// The complete DER encoding of the Name (the RDNSequence SEQUENCE).
    public let der: ArraySlice<UInt8>

    package init(validatedDER der: ArraySlice<UInt8>) { self.der = der }

    /// Parses a standalone DER Name: a SEQUENCE OF non-empty SETs of AttributeTypeAndValue, validated
    /// as a Name inside a certificate is.
    ///
    /// - Throws: ``DERError``: malformed DER; `.invalidValue` for an empty RDN; `.unsortedSet` for a
    ///   multi-valued RDN out of DER order; `.invalidString` for a string value outside its alphabet;
    ///   `.trailingData` for bytes after the Name.
    public init(derEncoded bytes: [UInt8]) throws(DERError) {
        var reader = DERReader(bytes)
        self = try Name.read(&reader, "Name")
        try reader.finish("Name")
    }

    /// Whether the name has no RDNs (an empty SEQUENCE).
    public var isEmpty: Bool { der.count == 2 }

    /// Reads and validates a Name: a SEQUENCE OF non-empty SETs of AttributeTypeAndValue, each SET in
    /// DER order, each value a valid element and, for string types, valid for its alphabet; values of
    /// other types DER all the way down (``DERReader/validateTree(_:_:)``).
    ///
    /// - Throws: ``DERError``: malformed DER; `.invalidValue` for an empty RDN; `.unsortedSet` for a
    ///   multi-valued RDN out of DER order; `.invalidString` for a string value outside its alphabet.
    package static func read(_ reader: inout DERReader, _ expected: String) throws(DERError) -> Name {
        Name(validatedDER: reader.bytes[try readRange(&reader, expected)])
    }

    /// ``read(_:_:)``, returning the offsets of the Name's complete encoding instead of a view.
    ///
    /// `expected` names the field for error messages (a literal costs nothing; it is not a closure
    /// so that the function is not copied for each caller).
    package static func readRange(_ reader: inout DERReader, _ expected: String) throws(DERError) -> Range<Int> {
        let element = try reader.read(.sequence, expected)
        let name = try reader.descend(into: element, expected)
        while !reader.isAtEnd {
            let set = try reader.read(.set, "RelativeDistinguishedName of \(expected)")
            let rdn = try reader.descend(into: set, "RelativeDistinguishedName")
            guard _fastPath(!reader.isAtEnd) else {
                throw DERError(.invalidValue, at: set.offset, expected: "non-empty RelativeDistinguishedName in \(expected)")
            }
            var previous: Range<Int>? = nil
            while !reader.isAtEnd {
                let atv = try reader.read(.sequence, "AttributeTypeAndValue in \(expected)")
                let fields = try reader.descend(into: atv, "AttributeTypeAndValue")
                _ = try reader.readObjectIdentifier("attribute type in \(expected)")
                let value = try reader.readElement("attribute value in \(expected)")
                try reader.finish("AttributeTypeAndValue")
                if DERString.isStringType(value.tag) {
                    guard _fastPath(reader.withUnsafeBytes(of: value.value, { DERString.isValid($0, tag: value.tag) })) else {
                        throw DERError(.invalidString, at: value.offset, expected: "valid \(value.tag) in \(expected)")
                    }
                } else {
                    // Any other type (the value is ANY, X.501): still DER all the way down.
                    try reader.validateTree(value, "attribute value in \(expected)")
                }
                reader.ascend(fields)
                if let previous, !Name.precedesOrEqual(reader, previous, atv.encoded) {
                    throw DERError(.unsortedSet, at: atv.offset, expected: "multi-valued RDN in DER SET OF order in \(expected)")
                }
                previous = atv.encoded
            }
            reader.ascend(rdn)
        }
        reader.ascend(name)
        return element.encoded
    }

    /// DER SET OF order (X.690 11.6): encodings compared as octet strings, shorter padded with zeros.
    private static func precedesOrEqual(_ reader: DERReader, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        reader.withUnsafeBytes(of: a) { x in
            reader.withUnsafeBytes(of: b) { y in
                for (p, q) in zip(x, y) where p != q { return p < q }
                return x.count <= y.count
            }
        }
    }

    /// The RDNs in encoded order (most significant first), decoded from ``der``.
    public var relativeDistinguishedNames: [RelativeDistinguishedName] {
        var result: [RelativeDistinguishedName] = []
        forEachRDN { result.append(RelativeDistinguishedName(attributes: $0)) }
        return result
    }

    /// Calls `body` with the attributes of each RDN in order. ``der`` was validated when the name was read.
    package func forEachRDN(_ body: ([AttributeTypeAndValue]) -> Void) {
        var reader = DERReader(der)
        do throws(DERError) {
            var sequence = try reader.contents(of: try reader.read(.sequence, "Name"), "Name")
            while !sequence.isAtEnd {
                var set = try sequence.contents(of: try sequence.read(.set, "RDN"), "RDN")
                var attributes: [AttributeTypeAndValue] = []
                while !set.isAtEnd {
                    var atv = try set.contents(of: try set.read(.sequence, "ATV"), "ATV")
                    let type = try atv.readOID("type")
                    let value = try atv.readElement("value")
                    attributes.append(AttributeTypeAndValue(
                        type: type, valueTag: value.tag, value: der[value.value], encodedValue: der[value.encoded]))
                }
                body(attributes)
            }
        } catch {
            preconditionFailure("Name.der was validated when read: \(error)")
        }
    }

    /// Whether `body` holds for the UTF-8 of every string value of `type`, in order (the values
    /// ``values(of:)`` returns), without building strings for values already in UTF-8.
    package func allStringValues(of type: OID, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        let result = der.withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<UInt8>) -> Bool? in
            var holds = true
            let complete = NameWalker.forEachAttribute(buffer) { (_, typeRange, tag, value, _) -> Bool in
                guard typeRange.count == type.encoded.count,
                      type.encoded.withUnsafeBufferPointer({ $0.elementsEqual(UnsafeBufferPointer(rebasing: buffer[typeRange])) })
                else { return true }
                switch DERTag(rawValue: tag) {
                case .utf8String, .printableString, .ia5String, .visibleString, .numericString:
                    holds = body(UnsafeBufferPointer(rebasing: buffer[value]))  // validated: already UTF-8
                default:
                    guard let text = DERString.decode(der[(der.startIndex + value.lowerBound)..<(der.startIndex + value.upperBound)],
                                                      tag: DERTag(rawValue: tag)) else { return true }
                    holds = Array(text.utf8).withUnsafeBufferPointer(body)
                }
                return holds
            }
            return complete || !holds ? holds : nil
        }
        if let result { return result }
        // Not read by the walker (it should always be): the general decoding.
        return values(of: type).allSatisfy { Array($0.utf8).withUnsafeBufferPointer(body) }
    }

    /// All attributes of the name, in order.
    public var attributes: [AttributeTypeAndValue] { relativeDistinguishedNames.flatMap(\.attributes) }

    /// The string values of every attribute of `type`, in order (for example the common names).
    public func values(of type: OID) -> [String] {
        attributes.filter { $0.type == type }.compactMap(\.stringValue)
    }

    /// RFC 4514 string form: RDNs in reverse order separated by `,`, multi-valued RDNs joined by `+`,
    /// short names for CN, L, ST, O, OU, C, STREET, DC, UID and dotted OIDs otherwise, special
    /// characters escaped, non-string values as `#` followed by the hex of their DER.
    public var description: String {
        relativeDistinguishedNames.reversed().map { rdn in
            rdn.attributes.map { Name.render($0) }.joined(separator: "+")
        }.joined(separator: ",")
    }

    private static let shortNames: [OID: String] = [
        "2.5.4.3": "CN", "2.5.4.7": "L", "2.5.4.8": "ST", "2.5.4.10": "O", "2.5.4.11": "OU",
        "2.5.4.6": "C", "2.5.4.9": "STREET", "0.9.2342.19200300.100.1.25": "DC", "0.9.2342.19200300.100.1.1": "UID",
    ]

    private static func render(_ attribute: AttributeTypeAndValue) -> String {
        let type = shortNames[attribute.type] ?? attribute.type.description
        guard let text = attribute.stringValue else {
            return "\(type)=#" + Hex.encode(attribute.encodedValue)
        }
        return "\(type)=\(escape(text))"
    }

    /// RFC 4514 2.4 escaping.
    package static func escape(_ text: String) -> String {
        var result = ""
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\\", "\"", "+", ",", ";", "<", ">":
                result += "\\" + String(scalar)
            case "#" where index == 0:
                result += "\\#"
            case " " where index == 0 || index == scalars.count - 1:
                result += "\\ "
            case "\u{0}":
                result += "\\00"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
