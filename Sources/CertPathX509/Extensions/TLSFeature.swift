import CertPathDER

/// The TLS feature extension (RFC 7633, id-pe-tlsfeature 1.3.6.1.5.5.7.1.24): the TLS extensions
/// ("features", RFC 7633 1.2) a server presenting the certificate supports and must use when a
/// client asks for them. `status_request` (5) is OCSP "must-staple".
package enum TLSFeatures {
    /// RFC 6066 section 8 `status_request` (ExtensionType 5): the server staples an OCSP response.
    package static let statusRequest: UInt16 = 5
    /// RFC 6961 `status_request_v2` (ExtensionType 17): the server staples OCSP responses for the chain.
    package static let statusRequestV2: UInt16 = 17

    /// Decodes `Features ::= SEQUENCE OF INTEGER` (RFC 7633 section 4) in the extnValue the reader
    /// spans: each INTEGER a TLS ExtensionType, which is a `uint16` (RFC 8446 4.2), in encoded order.
    ///
    /// Read strictly: every element an INTEGER in DER, each within 0…65535. An empty sequence is
    /// valid ASN.1 (the type has no SIZE constraint) and lists no feature; a feature listed twice
    /// says no more than once, and both are kept as encoded.
    ///
    /// - Throws: ``DERError``: not a SEQUENCE, an element that is not an INTEGER, a negative value
    ///   (`negativeInteger`), one above 65535 (`integerTooLarge`), trailing data.
    package static func read(_ reader: inout DERReader) throws(DERError) -> [UInt16] {
        try reader.extensionValue(.sequence, "TLS Features (RFC 7633)") { (r: inout DERReader) throws(DERError) -> [UInt16] in
            var features = [UInt16](capacityForElementsOf: r)
            while !r.isAtEnd {
                features.append(try r.readUnsigned("TLS feature (a TLS ExtensionType, 0...65535)", as: UInt16.self))
            }
            return features
        }
    }
}

/// id-pkix-ocsp-nocheck (RFC 6960 4.2.2.2.1, 1.3.6.1.5.5.7.48.1.5): a delegated OCSP responder's
/// certificate whose own revocation status is not checked.
package enum OCSPNoCheck {
    /// Validates its value, `NULL` (RFC 6960 4.2.2.2.1: "The value of the extension SHALL be NULL").
    ///
    /// - Throws: ``DERError`` for anything but a NULL without contents, or trailing data.
    package static func validate(_ reader: inout DERReader) throws(DERError) {
        try reader.readNull("id-pkix-ocsp-nocheck NULL (RFC 6960 4.2.2.2.1)")
        try reader.finish("id-pkix-ocsp-nocheck")
    }
}
