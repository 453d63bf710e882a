import CertPathDER

/// The extKeyUsage extension (RFC 5280 4.2.1.12): the purposes the key may be used for.
public struct ExtendedKeyUsage: Hashable, Sendable, CustomStringConvertible {
    /// The KeyPurposeId OIDs in encoded order (at least one).
    public let usages: [OID]

    /// Creates a value.
    public init(usages: [OID]) { self.usages = usages }

    /// Whether `purpose` is listed.
    public func contains(_ purpose: OID) -> Bool { usages.contains(purpose) }

    /// Whether anyExtendedKeyUsage (2.5.29.37.0) is listed.
    public var containsAnyExtendedKeyUsage: Bool { contains(KnownOID.anyExtendedKeyUsage) }

    private static let names: [OID: String] = [
        KnownOID.serverAuth: "serverAuth", KnownOID.clientAuth: "clientAuth", KnownOID.codeSigning: "codeSigning",
        KnownOID.emailProtection: "emailProtection", KnownOID.timeStamping: "timeStamping",
        KnownOID.ocspSigning: "OCSPSigning", KnownOID.anyExtendedKeyUsage: "anyExtendedKeyUsage",
    ]

    /// The RFC 5280 name of a purpose (`serverAuth`) or its dotted OID.
    public static func name(of purpose: OID) -> String { names[purpose] ?? purpose.description }

    /// `serverAuth, clientAuth`.
    public var description: String { usages.map(ExtendedKeyUsage.name).joined(separator: ", ") }

    /// Decodes `ExtKeyUsageSyntax ::= SEQUENCE SIZE (1..MAX) OF KeyPurposeId`.
    ///
    /// - Throws: ``DERError``; `.invalidValue` for an empty list.
    package static func decode(_ ext: Extension) throws(DERError) -> ExtendedKeyUsage {
        var reader = DERReader(ext.value)
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does.
    package static func read(_ reader: inout DERReader) throws(DERError) -> ExtendedKeyUsage {
        var discarded = DiscardedElements()
        return try read(&reader, build: true, into: &discarded)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does, giving `elements` the tag
    /// number (6) and contents offsets of each KeyPurposeId; with `build` false it only validates
    /// and returns an empty list.
    @inline(__always)  // with `build` a constant, the unused list costs nothing
    package static func read<Elements: ExtensionElementSink>(
        _ reader: inout DERReader, build: Bool, into elements: inout Elements
    ) throws(DERError) -> ExtendedKeyUsage {
        let list = try reader.descend(.sequence, "ExtKeyUsageSyntax")
        guard _fastPath(!reader.isAtEnd) else {
            throw DERError(.invalidValue, at: reader.position, expected: "at least one KeyPurposeId (RFC 5280 4.2.1.12)")
        }
        var usages = [OID](capacityForElementsOf: reader, build: build)
        while !reader.isAtEnd {
            let purpose = try reader.readObjectIdentifier("KeyPurposeId")
            elements.append(purpose.tag.number, purpose.value)
            if build { usages.append(OID(validatedEncoding: reader.bytes[purpose.value])) }
        }
        try reader.ascend(list, "ExtKeyUsageSyntax")
        try reader.finish("ExtKeyUsageSyntax")
        return ExtendedKeyUsage(usages: usages)
    }
}
