import CertPathDER

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
    /// - Throws: ``DERError`` for malformed DER or structure. Only one of authorityCertIssuer and
    ///   authorityCertSerialNumber present (RFC 5280 4.2.1.1's module and X.509 require both or
    ///   neither) is recorded, ``ProfileRule/authorityKeyIdentifierIssuerWithoutSerial``.
    package static func decode(_ ext: Extension) throws(DERError) -> AuthorityKeyIdentifier {
        var reader = DERReader(ext.value)
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does.
    package static func read(_ reader: inout DERReader) throws(DERError) -> AuthorityKeyIdentifier {
        var findings = ParseFindings()
        let parts = try readParts(&reader, build: true, &findings)
        return AuthorityKeyIdentifier(keyIdentifier: parts.keyIdentifier.map { reader.bytes[$0] }, authorityCertIssuer: parts.issuer,
                                      authorityCertSerialNumber: parts.serialNumber.map { reader.bytes[$0] })
    }

    /// ``read(_:)``, returning the offsets of keyIdentifier and authorityCertSerialNumber contents;
    /// with `build` false the authorityCertIssuer names are only validated (an empty list when present).
    package static func readParts(_ reader: inout DERReader, build: Bool, _ findings: inout ParseFindings) throws(DERError)
        -> (keyIdentifier: Range<Int>?, issuer: [GeneralName]?, serialNumber: Range<Int>?) {
        let sequence = try reader.descend(.sequence, "AuthorityKeyIdentifier")
        let keyID = try reader.readOptional(.contextSpecific(0), "AuthorityKeyIdentifier keyIdentifier")
        var issuer: [GeneralName]? = nil
        if reader.peekTag() == .contextSpecific(1, constructed: true) {
            let names = try reader.descend(.contextSpecific(1, constructed: true), "authorityCertIssuer")
            let element = DERElement(tag: .sequence, offset: reader.position, value: reader.position..<reader.end)
            issuer = try GeneralName.readNames(&reader, element, .name, "authorityCertIssuer", build: build)
            try reader.ascend(names, "authorityCertIssuer")
        }
        var serial: Range<Int>? = nil
        if let element = try reader.readOptional(.contextSpecific(2), "authorityCertSerialNumber") {
            try reader.validateInteger(element, "authorityCertSerialNumber")
            serial = element.value
        }
        if _slowPath((issuer == nil) != (serial == nil)) { findings.insert(.authorityKeyIdentifierIssuerWithoutSerial) }
        try reader.ascend(sequence, "AuthorityKeyIdentifier")
        try reader.finish("AuthorityKeyIdentifier")
        return (keyID?.value, issuer, serial)
    }
}

/// The subjectKeyIdentifier extension (RFC 5280 4.2.1.2): `KeyIdentifier ::= OCTET STRING`.
package enum SubjectKeyIdentifier {
    /// Decodes the key identifier.
    ///
    /// - Throws: ``DERError`` for anything but one OCTET STRING.
    package static func decode(_ ext: Extension) throws(DERError) -> ArraySlice<UInt8> {
        var reader = DERReader(ext.value)
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does.
    package static func read(_ reader: inout DERReader) throws(DERError) -> ArraySlice<UInt8> {
        reader.bytes[try readRange(&reader)]
    }

    /// ``read(_:)``, returning the offsets of the key identifier.
    package static func readRange(_ reader: inout DERReader) throws(DERError) -> Range<Int> {
        let element = try reader.readOctetString("SubjectKeyIdentifier")
        try reader.finish("SubjectKeyIdentifier")
        return element.value
    }
}
