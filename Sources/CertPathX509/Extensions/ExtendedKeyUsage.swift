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

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does; with `build` false it only
    /// validates and returns an empty list.
    @inline(__always)  // with `build` a constant, the unused list costs nothing
    package static func read(_ reader: inout DERReader, build: Bool = true) throws(DERError) -> ExtendedKeyUsage {
        let list = try reader.descend(.sequence, "ExtKeyUsageSyntax")
        guard _fastPath(!reader.isAtEnd) else {
            throw DERError(.invalidValue, at: reader.position, expected: "at least one KeyPurposeId (RFC 5280 4.2.1.12)")
        }
        var usages: [OID] = []
        while !reader.isAtEnd {
            if build {
                usages.append(try reader.readOID("KeyPurposeId"))
            } else {
                _ = try reader.readObjectIdentifier("KeyPurposeId")
            }
        }
        try reader.ascend(list, "ExtKeyUsageSyntax")
        try reader.finish("ExtKeyUsageSyntax")
        return ExtendedKeyUsage(usages: usages)
    }

    /// ``read(_:build:)`` without building the list: validation only.
    package static func validate(_ reader: inout DERReader) throws(DERError) {
        _ = try read(&reader, build: false)
    }
}
