import CertPathDER

extension KnownOID {
    /// 1.3.6.1.4.1.11129.2.4.2 Certificate Transparency SignedCertificateTimestampList, a certificate
    /// extension (RFC 6962 3.3).
    public static let signedCertificateTimestampList: OID = "1.3.6.1.4.1.11129.2.4.2"
    /// 1.3.6.1.4.1.11129.2.4.3 Certificate Transparency precertificate poison (RFC 6962 3.1).
    public static let precertificatePoison: OID = "1.3.6.1.4.1.11129.2.4.3"
    /// 1.3.6.1.4.1.11129.2.4.5 Certificate Transparency SignedCertificateTimestampList, an OCSP
    /// SingleResponse extension (RFC 6962 3.3).
    public static let ocspSignedCertificateTimestampList: OID = "1.3.6.1.4.1.11129.2.4.5"
}

extension SignedCertificateTimestampList {
    /// Reads the list carried by an X.509 or OCSP extension: its extnValue holds an OCTET STRING
    /// whose contents are the TLS-encoded list (RFC 6962 3.3).
    ///
    /// - Parameter extensionValue: the extnValue's contents (``Extension/value``).
    /// - Throws: ``SCTListError``: `.malformedExtension` (offset in `extensionValue`) when it is not
    ///   exactly one OCTET STRING; the list's errors (offsets in the TLS list) otherwise.
    public init(extensionValue: ArraySlice<UInt8>) throws(SCTListError) {
        let inner: ArraySlice<UInt8>
        do {
            var reader = DERReader(extensionValue)
            let element = try reader.readOctetString("SignedCertificateTimestampList OCTET STRING")
            try reader.finish("SignedCertificateTimestampList OCTET STRING")
            inner = reader.bytes[element.value]
        } catch {
            throw SCTListError(.malformedExtension, at: error.offset - extensionValue.startIndex, expected: error.description)
        }
        try self.init(tlsEncoded: inner)
    }
}

extension Certificate {
    /// The SCTs embedded in the certificate (the 1.3.6.1.4.1.11129.2.4.2 extension, RFC 6962 3.3),
    /// `nil` when it has none.
    ///
    /// - Throws: ``SCTListError`` when the extension is present but does not hold a well-formed list.
    public func embeddedSCTList() throws(SCTListError) -> SignedCertificateTimestampList? {
        guard let found = `extension`(KnownOID.signedCertificateTimestampList) else { return nil }
        return try SignedCertificateTimestampList(extensionValue: found.value)
    }

    /// The TBSCertificate a precertificate's SCTs sign (RFC 6962 3.2, `PreCert.tbs_certificate`)
    /// reconstructed from the final certificate: its TBSCertificate with the SCT list extension
    /// removed, re-encoded in DER (lengths recomputed; the extensions field left out when the SCT
    /// list was the only extension). Every other byte is the certificate's own.
    ///
    /// - Throws: ``DERError`` when the TBSCertificate cannot be walked (never for a certificate that
    ///   parsed).
    public func precertificateTBSCertificate() throws(DERError) -> [UInt8] {
        let tbs = tbsCertificateBytes
        return try DERReader.parse(tbs, .sequence, "TBSCertificate") { (reader: inout DERReader) throws(DERError) -> [UInt8] in
            let sctOID = KnownOID.signedCertificateTimestampList.encoded
            var fields: [UInt8] = []
            while !reader.isAtEnd {
                let element = try reader.readElement("TBSCertificate field")
                guard element.tag == .contextSpecific(3, constructed: true) else {
                    fields += reader.bytes[element.encoded]
                    continue
                }
                // [3] EXPLICIT Extensions: SEQUENCE SIZE (1..MAX) OF Extension.
                var kept: [UInt8] = []
                var inner = try reader.contents(of: element, "extensions")
                let list = try inner.read(.sequence, "Extensions")
                try inner.finish("extensions")
                var items = try inner.contents(of: list, "Extensions")
                while !items.isAtEnd {
                    let ext = try items.read(.sequence, "Extension")
                    var parts = try items.contents(of: ext, "Extension")
                    let oid = try parts.read(.objectIdentifier, "extnID")
                    if parts.bytesEqual(oid.value, sctOID) { continue }
                    kept += items.bytes[ext.encoded]
                }
                if !kept.isEmpty {
                    var extensions = DERWriter()
                    extensions.append(.contextSpecific(3, constructed: true)) { $0.append(.sequence, contents: kept) }
                    fields += extensions.bytes
                }
            }
            var writer = DERWriter()
            writer.append(.sequence, contents: fields)
            return writer.bytes
        }
    }
}

extension OCSPSingleResponse {
    /// The SCTs of the OCSP SingleResponse extension 1.3.6.1.4.1.11129.2.4.5 (RFC 6962 3.3), `nil`
    /// when it has none.
    ///
    /// - Throws: ``SCTListError`` when the extension is present but does not hold a well-formed list.
    public func embeddedSCTList() throws(SCTListError) -> SignedCertificateTimestampList? {
        guard let found = extensions.first(where: { $0.oid == KnownOID.ocspSignedCertificateTimestampList }) else { return nil }
        return try SignedCertificateTimestampList(extensionValue: found.value)
    }
}
