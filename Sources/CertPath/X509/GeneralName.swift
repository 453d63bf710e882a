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
    /// `[7] iPAddress`: 4 or 16 octets in subjectAltName; address followed by mask (8 or 32 octets)
    /// in name constraints.
    case iPAddress(ArraySlice<UInt8>)
    /// `[8] registeredID`.
    case registeredID(OID)

    /// `DNS:example.com`, `IP:192.0.2.1`, `email:a@b`, `URI:…`, `DirName:CN=…`, `othername:<oid>`, `RID:<oid>`.
    public var description: String {
        func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        switch self {
        case .otherName(let typeID, _): return "othername:\(typeID)"
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

    /// Where a GeneralName appears, which decides the iPAddress length rule.
    enum Context {
        /// subjectAltName, issuerAltName, AKI issuer, distribution points: iPAddress of 4 or 16 octets.
        case name
        /// A nameConstraints base: iPAddress of 8 or 32 octets (address and mask).
        case constraint
    }

    /// Reads and validates one GeneralName.
    ///
    /// - Throws: ``DERError``: malformed DER; `.unexpectedTag` for a tag outside `[0]`…`[8]` or with
    ///   the wrong constructed bit; `.invalidString` for non-IA5 text; `.invalidValue` for an
    ///   iPAddress of the wrong length for `context`.
    static func read(_ reader: inout DERReader, _ context: Context, _ expected: String) throws(DERError) -> GeneralName {
        let element = try reader.readElement("GeneralName in \(expected)")
        let tag = element.tag
        let bytes = reader.bytes
        guard tag.tagClass == .contextSpecific, tag.number <= 8,
              tag.isConstructed == [0, 3, 4, 5].contains(tag.number) else {
            throw DERError(.unexpectedTag, at: element.offset, expected: "GeneralName [0]…[8] in \(expected), found \(tag)")
        }
        func ia5() throws(DERError) -> ArraySlice<UInt8> {
            let value = bytes[element.value]
            guard DERString.isValid(value, tag: .ia5String) else {
                throw DERError(.invalidString, at: element.offset, expected: "IA5String in \(expected)")
            }
            return value
        }
        switch tag.number {
        case 0:
            var inner = try reader.contents(of: element, "otherName")
            let typeID = try inner.readOID("otherName type-id")
            let value = try inner.read(.contextSpecific(0, constructed: true), "otherName value")
            var explicit = try inner.contents(of: value, "otherName value")
            let any = try explicit.readAny("otherName value")
            try explicit.finish("otherName value")
            try inner.finish("otherName")
            return .otherName(typeID: typeID, value: bytes[any.encoded])
        case 1: return .rfc822Name(try ia5())
        case 2: return .dNSName(try ia5())
        case 3:
            try reader.validateTree(element, "x400Address in \(expected)")
            return .x400Address(bytes[element.encoded])
        case 4:
            var inner = try reader.contents(of: element, "directoryName")
            let name = try Name.read(&inner, "directoryName in \(expected)")
            try inner.finish("directoryName")
            return .directoryName(name)
        case 5:
            try reader.validateTree(element, "ediPartyName in \(expected)")
            return .ediPartyName(bytes[element.encoded])
        case 6: return .uniformResourceIdentifier(try ia5())
        case 7:
            let count = element.value.count
            let valid = context == .name ? (count == 4 || count == 16) : (count == 8 || count == 32)
            guard valid else {
                throw DERError(.invalidValue, at: element.offset,
                               expected: context == .name ? "iPAddress of 4 or 16 octets in \(expected)"
                                                          : "iPAddress and mask of 8 or 32 octets in \(expected)")
            }
            return .iPAddress(bytes[element.value])
        default:
            let oidElement = DERElement(tag: .objectIdentifier, offset: element.offset, value: element.value)
            try reader.validateObjectIdentifier(oidElement, "registeredID in \(expected)")
            return .registeredID(OID(validatedEncoding: bytes[element.value]))
        }
    }

    /// Reads `GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName`.
    ///
    /// - Throws: ``DERError``, with `.invalidValue` for an empty sequence.
    static func readSequence(_ reader: inout DERReader, _ context: Context, _ expected: String) throws(DERError) -> [GeneralName] {
        let element = try reader.read(.sequence, expected)
        var inner = try reader.contents(of: element, expected)
        return try readNames(&inner, element, context, expected)
    }

    /// Reads the contents of a GeneralNames (already entered), requiring at least one name.
    static func readNames(_ inner: inout DERReader, _ element: DERElement, _ context: Context, _ expected: String) throws(DERError) -> [GeneralName] {
        var names: [GeneralName] = []
        while !inner.isAtEnd { names.append(try read(&inner, context, expected)) }
        guard !names.isEmpty else { throw DERError(.invalidValue, at: element.offset, expected: "at least one GeneralName in \(expected)") }
        return names
    }
}
