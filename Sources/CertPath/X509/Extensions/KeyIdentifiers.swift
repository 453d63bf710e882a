/// The authorityKeyIdentifier extension (RFC 5280 4.2.1.1).
public struct AuthorityKeyIdentifier: Hashable, Sendable {
    /// `[0] keyIdentifier`, usually the issuer's subjectKeyIdentifier.
    public let keyIdentifier: ArraySlice<UInt8>?
    /// `[1] authorityCertIssuer`.
    public let authorityCertIssuer: [GeneralName]?
    /// `[2] authorityCertSerialNumber` contents (two's complement).
    public let authorityCertSerialNumber: ArraySlice<UInt8>?

    /// Decodes `AuthorityKeyIdentifier ::= SEQUENCE { keyIdentifier [0] OPTIONAL,
    /// authorityCertIssuer [1] GeneralNames OPTIONAL, authorityCertSerialNumber [2] INTEGER OPTIONAL }`.
    ///
    /// - Throws: ``DERError``; `.invalidValue` when only one of authorityCertIssuer and
    ///   authorityCertSerialNumber is present (X.509 requires both or neither).
    static func decode(_ ext: Extension) throws(DERError) -> AuthorityKeyIdentifier {
        try ext.parse(.sequence, "AuthorityKeyIdentifier") { (r: inout DERReader) throws(DERError) -> AuthorityKeyIdentifier in
            let keyID = try r.readOptional(.contextSpecific(0), "AuthorityKeyIdentifier keyIdentifier")
            let issuer = try r.nestedOptional(.contextSpecific(1, constructed: true), "authorityCertIssuer") {
                (n: inout DERReader) throws(DERError) -> [GeneralName] in
                let element = DERElement(tag: .sequence, offset: n.position, value: n.position..<n.end)
                return try GeneralName.readNames(&n, element, .name, "authorityCertIssuer")
            }
            var serial: ArraySlice<UInt8>? = nil
            if let element = try r.readOptional(.contextSpecific(2), "authorityCertSerialNumber") {
                try r.validateInteger(element, "authorityCertSerialNumber")
                serial = r.bytes[element.value]
            }
            guard (issuer == nil) == (serial == nil) else {
                throw DERError(.invalidValue, at: ext.value.startIndex, expected: "authorityCertIssuer and authorityCertSerialNumber both present or both absent")
            }
            return AuthorityKeyIdentifier(keyIdentifier: keyID.map { r.bytes[$0.value] }, authorityCertIssuer: issuer,
                                          authorityCertSerialNumber: serial)
        }
    }
}

/// The subjectKeyIdentifier extension (RFC 5280 4.2.1.2): `KeyIdentifier ::= OCTET STRING`.
enum SubjectKeyIdentifier {
    /// Decodes the key identifier.
    ///
    /// - Throws: ``DERError`` for anything but one OCTET STRING.
    static func decode(_ ext: Extension) throws(DERError) -> ArraySlice<UInt8> {
        var reader = DERReader(ext.value)
        let element = try reader.readOctetString("SubjectKeyIdentifier")
        try reader.finish("SubjectKeyIdentifier")
        return reader.bytes[element.value]
    }
}
