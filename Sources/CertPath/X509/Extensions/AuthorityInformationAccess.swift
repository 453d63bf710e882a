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
        try ext.parse(.sequence, "AuthorityInfoAccessSyntax") { (r: inout DERReader) throws(DERError) -> [AccessDescription] in
            var descriptions: [AccessDescription] = []
            while !r.isAtEnd {
                descriptions.append(try r.sequence("AccessDescription") { (a: inout DERReader) throws(DERError) -> AccessDescription in
                    AccessDescription(accessMethod: try a.readOID("accessMethod"),
                                      accessLocation: try GeneralName.read(&a, .name, "accessLocation"))
                })
            }
            guard !descriptions.isEmpty else { throw DERError(.invalidValue, at: r.position, expected: "at least one AccessDescription") }
            return descriptions
        }
    }
}
