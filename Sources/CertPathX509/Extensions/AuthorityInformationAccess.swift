import CertPathDER

/// One AccessDescription of an authorityInfoAccess or subjectInfoAccess extension (RFC 5280 4.2.2.1).
public struct AccessDescription: Hashable, Sendable {
    /// accessMethod (id-ad-caIssuers, id-ad-ocsp, …).
    public let accessMethod: OID
    /// accessLocation.
    public let accessLocation: GeneralName
}

package enum AuthorityInformationAccess {
    /// Decodes `AuthorityInfoAccessSyntax ::= SEQUENCE SIZE (1..MAX) OF AccessDescription`.
    ///
    /// - Throws: ``DERError``; `.invalidValue` for an empty list.
    package static func decode(_ ext: Extension) throws(DERError) -> [AccessDescription] {
        var reader = DERReader(ext.value)
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does; with `build` false it only
    /// validates and returns an empty list.
    @inline(__always)  // with `build` a constant, the unused list costs nothing
    package static func read(_ reader: inout DERReader, build: Bool = true) throws(DERError) -> [AccessDescription] {
        let list = try reader.descend(.sequence, "AuthorityInfoAccessSyntax")
        var descriptions = [AccessDescription](capacityForElementsOf: reader, build: build)
        var count = 0
        while !reader.isAtEnd {
            let description = try reader.descend(.sequence, "AccessDescription")
            if build {
                descriptions.append(AccessDescription(accessMethod: try reader.readOID("accessMethod"),
                                                      accessLocation: try GeneralName.read(&reader, .name, "accessLocation")))
            } else {
                _ = try reader.readObjectIdentifier("accessMethod")
                _ = try GeneralName.validate(&reader, .name, "accessLocation")
            }
            try reader.ascend(description, "AccessDescription")
            count += 1
        }
        guard _fastPath(count > 0) else { throw DERError(.invalidValue, at: reader.position, expected: "at least one AccessDescription") }
        try reader.ascend(list, "AuthorityInfoAccessSyntax")
        try reader.finish("AuthorityInfoAccessSyntax")
        return descriptions
    }

    /// ``read(_:build:)`` without building the list: validation only.
    package static func validate(_ reader: inout DERReader) throws(DERError) {
        _ = try read(&reader, build: false)
    }
}
