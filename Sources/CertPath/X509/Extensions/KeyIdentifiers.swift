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
        var reader = DERReader(ext.value)
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does.
    static func read(_ reader: inout DERReader) throws(DERError) -> AuthorityKeyIdentifier {
        let parts = try readParts(&reader, build: true)
        return AuthorityKeyIdentifier(keyIdentifier: parts.keyIdentifier.map { reader.bytes[$0] }, authorityCertIssuer: parts.issuer,
                                      authorityCertSerialNumber: parts.serialNumber.map { reader.bytes[$0] })
    }

    /// ``read(_:)``, returning the offsets of keyIdentifier and authorityCertSerialNumber contents;
    /// with `build` false the authorityCertIssuer names are only validated (an empty list when present).
    static func readParts(_ reader: inout DERReader, build: Bool) throws(DERError)
        -> (keyIdentifier: Range<Int>?, issuer: [GeneralName]?, serialNumber: Range<Int>?) {
        let start = reader.position
        return try reader.extensionValue(.sequence, "AuthorityKeyIdentifier") {
            (r: inout DERReader) throws(DERError) -> (keyIdentifier: Range<Int>?, issuer: [GeneralName]?, serialNumber: Range<Int>?) in
            let keyID = try r.readOptional(.contextSpecific(0), "AuthorityKeyIdentifier keyIdentifier")
            let issuer = try r.nestedOptional(.contextSpecific(1, constructed: true), "authorityCertIssuer") {
                (n: inout DERReader) throws(DERError) -> [GeneralName] in
                let element = DERElement(tag: .sequence, offset: n.position, value: n.position..<n.end)
                return try GeneralName.readNames(&n, element, .name, "authorityCertIssuer", build: build)
            }
            var serial: Range<Int>? = nil
            if let element = try r.readOptional(.contextSpecific(2), "authorityCertSerialNumber") {
                try r.validateInteger(element, "authorityCertSerialNumber")
                serial = element.value
            }
            guard (issuer == nil) == (serial == nil) else {
                throw DERError(.invalidValue, at: start, expected: "authorityCertIssuer and authorityCertSerialNumber both present or both absent")
            }
            return (keyID?.value, issuer, serial)
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
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does.
    static func read(_ reader: inout DERReader) throws(DERError) -> ArraySlice<UInt8> {
        reader.bytes[try readRange(&reader)]
    }

    /// ``read(_:)``, returning the offsets of the key identifier.
    static func readRange(_ reader: inout DERReader) throws(DERError) -> Range<Int> {
        let element = try reader.readOctetString("SubjectKeyIdentifier")
        try reader.finish("SubjectKeyIdentifier")
        return element.value
    }
}
