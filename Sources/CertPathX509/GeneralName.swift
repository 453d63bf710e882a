import CertPathDER

/// A GeneralName (RFC 5280 4.2.1.6), as found in subjectAltName, nameConstraints subtrees,
/// authorityKeyIdentifier, CRL distribution points and access descriptions.
///
/// IA5String forms (`rfc822Name`, `dNSName`, `uniformResourceIdentifier`) are kept as the bytes
/// presented, validated as IA5 (ASCII), so matching works on exactly what the certificate says.
/// Forms CertPath does not interpret (otherName values, x400Address, ediPartyName) are kept raw,
/// after checking that they are DER all the way down.
public enum GeneralName: Hashable, Sendable, CustomStringConvertible {
    /// `[0] otherName`: a type identifier and its value's complete encoding (the `[0] EXPLICIT` content).
    case otherName(typeID: OID, value: ArraySlice<UInt8>)
    /// `[1] rfc822Name`: an e-mail address (or, in name constraints, a mailbox, host or domain).
    case rfc822Name(ArraySlice<UInt8>)
    /// `[2] dNSName`.
    case dNSName(ArraySlice<UInt8>)
    /// `[3] x400Address`: the complete encoding, uninterpreted.
    case x400Address(ArraySlice<UInt8>)
    /// `[4] directoryName`.
    case directoryName(Name)
    /// `[5] ediPartyName`: the complete encoding, uninterpreted.
    case ediPartyName(ArraySlice<UInt8>)
    /// `[6] uniformResourceIdentifier`.
    case uniformResourceIdentifier(ArraySlice<UInt8>)
    /// `[7] iPAddress`: 4 or 16 octets in subjectAltName; address followed by mask in name
    /// constraints (8 or 32 octets in a valid subtree; other lengths decode there and are refused by
    /// ``NameConstraints`` validation, RFC 5280 4.2.1.10).
    case iPAddress(ArraySlice<UInt8>)
    /// `[8] registeredID`.
    case registeredID(OID)

    /// `DNS:example.com`, `IP:192.0.2.1`, `email:a@b`, `URI:…`, `DirName:CN=…`, `othername:<oid>`
    /// (`othername:SmtpUTF8Mailbox:<text>` for an RFC 9598 mailbox whose value is a UTF8String), `RID:<oid>`.
    public var description: String {
        func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        switch self {
        case .otherName(let typeID, let value):
            if typeID == KnownOID.smtpUTF8Mailbox, let decoded = GeneralName.utf8StringText(value) {
                return "othername:SmtpUTF8Mailbox:\(decoded)"
            }
            return "othername:\(typeID)"
        case .rfc822Name(let bytes): return "email:\(text(bytes))"
        case .dNSName(let bytes): return "DNS:\(text(bytes))"
        case .x400Address: return "X400Name:<unsupported>"
        case .directoryName(let name): return "DirName:\(name)"
        case .ediPartyName: return "EdiPartyName:<unsupported>"
        case .uniformResourceIdentifier(let bytes): return "URI:\(text(bytes))"
        case .iPAddress(let bytes):
            if let address = IPAddress(bytes: Array(bytes)) { return "IP:\(address)" }
            if bytes.count == 8 || bytes.count == 32, let address = IPAddress(bytes: Array(bytes.prefix(bytes.count / 2))),
               let mask = IPAddress(bytes: Array(bytes.suffix(bytes.count / 2))) {
                return "IP:\(address)/\(mask)"
            }
            return "IP:<\(bytes.count) bytes>"
        case .registeredID(let oid): return "RID:\(oid)"
        }
    }

    /// The text of `value` when it is exactly one UTF8String encoding (an otherName value such as an
    /// SmtpUTF8Mailbox, RFC 9598 3); `nil` otherwise.
    package static func utf8StringText(_ value: ArraySlice<UInt8>) -> String? {
        var reader = DERReader(value)
        guard let element = try? reader.read(.utf8String, "UTF8String"), (try? reader.finish("UTF8String")) != nil else { return nil }
        return DERString.decode(value[element.value], tag: .utf8String)
    }

    /// Where a GeneralName appears, which decides the iPAddress length rule.
    package enum Context {
        /// subjectAltName, issuerAltName, AKI issuer, distribution points: iPAddress of 4 or 16 octets
        /// (RFC 5280 4.2.1.6), refused when decoding.
        case name
        /// A nameConstraints base: an iPAddress OCTET STRING of any length decodes. Its length (8 or
        /// 32 octets, address and mask) and mask rules are RFC 5280 4.2.1.10 prose, checked by
        /// ``NameConstraints/firstMalformedSubtree()`` so that the certificate stays readable.
        case constraint
    }

    /// Reads and validates one GeneralName.
    ///
    /// - Throws: ``DERError``: malformed DER; `.unexpectedTag` for a tag outside `[0]`…`[8]` or with
    ///   the wrong constructed bit; `.invalidString` for non-IA5 text; `.invalidValue` for an
    ///   iPAddress other than 4 or 16 octets in context `.name` (any length in `.constraint`).
    package static func read(_ reader: inout DERReader, _ context: Context, _ expected: String) throws(DERError) -> GeneralName {
        let found = try validate(&reader, context, expected)
        let element = found.element
        let bytes = reader.bytes
        switch element.tag.number {
        case 0: return .otherName(typeID: OID(validatedEncoding: bytes[found.inner.lowerBound]), value: bytes[found.inner.upperBound])
        case 1: return .rfc822Name(bytes[element.value])
        case 2: return .dNSName(bytes[element.value])
        case 3: return .x400Address(bytes[element.encoded])
        case 4: return .directoryName(Name(validatedDER: bytes[element.value]))
        case 5: return .ediPartyName(bytes[element.encoded])
        case 6: return .uniformResourceIdentifier(bytes[element.value])
        case 7: return .iPAddress(bytes[element.value])
        default: return .registeredID(OID(validatedEncoding: bytes[element.value]))
        }
    }

    /// Reads and validates one GeneralName as ``read(_:_:_:)`` does, without making views: returns
    /// the element and, for an otherName, the offsets of its type-id contents and of its value's
    /// complete encoding.
    ///
    /// `expected` names the field for error messages (callers pass literals; not a closure, so that
    /// the function is not copied for each caller).
    package static func validate(
        _ reader: inout DERReader, _ context: Context, _ expected: String
    ) throws(DERError) -> (element: DERElement, inner: (lowerBound: Range<Int>, upperBound: Range<Int>)) {
        let element = try reader.readElement("GeneralName in \(expected)")
        let tag = element.tag
        let constructed = tag.number == 0 || tag.number == 3 || tag.number == 4 || tag.number == 5
        guard _fastPath(tag.tagClass == .contextSpecific && tag.number <= 8 && tag.isConstructed == constructed) else {
            throw DERError(.unexpectedTag, at: element.offset, expected: "GeneralName [0]…[8] in \(expected), found \(tag)")
        }
        switch tag.number {
        case 0:
            let otherName = try reader.descend(into: element, "otherName")
            let typeID = try reader.readObjectIdentifier("otherName type-id")
            let value = try reader.read(.contextSpecific(0, constructed: true), "otherName value")
            let explicit = try reader.descend(into: value, "otherName value")
            let any = try reader.readAny("otherName value")
            try reader.ascend(explicit, "otherName value")
            try reader.finish("otherName")
            reader.ascend(otherName)
            return (element, (typeID.value, any.encoded))
        case 1, 2, 6:
            guard _fastPath(reader.withUnsafeBytes(of: element.value, { DERString.isValid($0, tag: .ia5String) })) else {
                throw DERError(.invalidString, at: element.offset, expected: "IA5String in \(expected)")
            }
        case 4:
            let directoryName = try reader.descend(into: element, "directoryName")
            _ = try Name.readRange(&reader, "directoryName in \(expected)")
            try reader.finish("directoryName")
            reader.ascend(directoryName)
        case 7:
            // In a constraint, any length: the 8-or-32 rule is validation (NameConstraints.firstMalformedSubtree()).
            let count = element.value.count
            guard _fastPath(context == .constraint || count == 4 || count == 16) else {
                throw DERError(.invalidValue, at: element.offset, expected: "iPAddress of 4 or 16 octets in \(expected)")
            }
        case 8:
            let oidElement = DERElement(tag: .objectIdentifier, offset: element.offset, value: element.value)
            try reader.validateObjectIdentifier(oidElement, "registeredID in \(expected)")
        default:
            // x400Address, ediPartyName: kept uninterpreted, but DER all the way down.
            try reader.validateTree(element, tag.number == 3 ? "x400Address" : "ediPartyName")
        }
        return (element, (0..<0, 0..<0))
    }

    /// Reads `GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName`.
    ///
    /// - Throws: ``DERError``, with `.invalidValue` for an empty sequence.
    package static func readSequence(_ reader: inout DERReader, _ context: Context, _ expected: String) throws(DERError) -> [GeneralName] {
        let element = try reader.read(.sequence, expected)
        let sequence = try reader.descend(into: element, expected)
        let names = try readNames(&reader, element, context, expected)
        reader.ascend(sequence)
        return names
    }

    /// Reads the contents of a GeneralNames (already entered), requiring at least one name. With
    /// `build` false the names are only validated and the result is empty.
    package static func readNames(
        _ inner: inout DERReader, _ element: DERElement, _ context: Context, _ expected: String, build: Bool = true
    ) throws(DERError) -> [GeneralName] {
        var discarded = DiscardedElements()
        return try readNames(&inner, element, context, expected, build: build, into: &discarded)
    }

    /// ``readNames(_:_:_:_:build:)``; with `build` false, giving `elements` each name's tag number
    /// and contents offsets as it validates them.
    @inline(__always)  // with `build` a constant, the unused list costs nothing
    package static func readNames<Elements: ExtensionElementSink>(
        _ inner: inout DERReader, _ element: DERElement, _ context: Context, _ expected: String, build: Bool,
        into elements: inout Elements
    ) throws(DERError) -> [GeneralName] {
        guard _fastPath(!inner.isAtEnd) else {
            throw DERError(.invalidValue, at: element.offset, expected: "at least one GeneralName in \(expected)")
        }
        var names = [GeneralName](capacityForElementsOf: inner, build: build)
        while !inner.isAtEnd {
            if build {
                names.append(try read(&inner, context, expected))
            } else {
                let found = try validate(&inner, context, expected).element
                elements.append(found.tag.number, found.value)
            }
        }
        return names
    }
}
