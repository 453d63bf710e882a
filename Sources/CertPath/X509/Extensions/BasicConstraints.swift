/// The basicConstraints extension (RFC 5280 4.2.1.9).
public struct BasicConstraints: Hashable, Sendable {
    /// `cA`: whether the subject is a CA (DEFAULT FALSE).
    public let isCertificateAuthority: Bool
    /// `pathLenConstraint`: the most non-self-issued intermediates that may follow this certificate.
    public let pathLenConstraint: Int?

    /// Creates a value.
    public init(isCertificateAuthority: Bool, pathLenConstraint: Int?) {
        self.isCertificateAuthority = isCertificateAuthority
        self.pathLenConstraint = pathLenConstraint
    }

    /// Decodes `BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER (0..MAX) OPTIONAL }`.
    ///
    /// - Throws: ``DERError``: malformed DER, `.explicitDefault` for `cA FALSE` encoded,
    ///   `.negativeInteger`/`.integerTooLarge` for the path length, and `.invalidValue` for a
    ///   pathLenConstraint without `cA` TRUE (4.2.1.9: "CAs MUST NOT include the pathLenConstraint
    ///   field unless the cA boolean is asserted").
    static func decode(_ ext: Extension) throws(DERError) -> BasicConstraints {
        var reader = DERReader(ext.value)
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does.
    static func read(_ reader: inout DERReader) throws(DERError) -> BasicConstraints {
        return try reader.extensionValue(.sequence, "BasicConstraints") { (r: inout DERReader) throws(DERError) -> BasicConstraints in
            let isCA = try r.readBooleanDefaultFalse("BasicConstraints cA")
            var pathLength: Int? = nil
            if let element = try r.readOptional(.integer, "BasicConstraints pathLenConstraint") {
                guard isCA else {
                    throw DERError(.invalidValue, at: element.offset, expected: "pathLenConstraint only when cA is TRUE")
                }
                pathLength = Int(try r.unsignedInteger(element, "BasicConstraints pathLenConstraint", as: UInt32.self))
            }
            return BasicConstraints(isCertificateAuthority: isCA, pathLenConstraint: pathLength)
        }
    }
}
