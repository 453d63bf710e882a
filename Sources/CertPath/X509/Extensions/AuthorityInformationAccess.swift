/// One AccessDescription of an authorityInfoAccess or subjectInfoAccess extension (RFC 5280 4.2.2.1).
public struct AccessDescription: Hashable, Sendable {
    /// accessMethod (id-ad-caIssuers, id-ad-ocsp, …).
    public let accessMethod: OID
    /// accessLocation.
    public let accessLocation: GeneralName
}

enum AuthorityInformationAccess {
    /// Decodes `AuthorityInfoAccessSyntax ::= SEQUENCE SIZE (1..MAX) OF AccessDescription`.
    ///
    /// - Throws: ``DERError``; `.invalidValue` for an empty list.
    static func decode(_ ext: Extension) throws(DERError) -> [AccessDescription] {
        var reader = DERReader(ext.value)
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does; with `build` false it only
    /// validates and returns an empty list.
    static func read(_ reader: inout DERReader, build: Bool = true) throws(DERError) -> [AccessDescription] {
        try reader.extensionValue(.sequence, "AuthorityInfoAccessSyntax") { (r: inout DERReader) throws(DERError) -> [AccessDescription] in
            var descriptions: [AccessDescription] = []
            var count = 0
            while !r.isAtEnd {
                try r.sequence("AccessDescription") { (a: inout DERReader) throws(DERError) in
                    if build {
                        descriptions.append(AccessDescription(accessMethod: try a.readOID("accessMethod"),
                                                              accessLocation: try GeneralName.read(&a, .name, "accessLocation")))
                    } else {
                        _ = try a.readObjectIdentifier("accessMethod")
                        _ = try GeneralName.validate(&a, .name, "accessLocation")
                    }
                }
                count += 1
            }
            guard count > 0 else { throw DERError(.invalidValue, at: r.position, expected: "at least one AccessDescription") }
            return descriptions
        }
    }
}
