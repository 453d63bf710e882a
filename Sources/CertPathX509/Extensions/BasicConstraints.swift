import CertPathDER

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
    /// - Throws: ``DERError``: malformed DER, `.negativeInteger`/`.integerTooLarge` for the path
    ///   length. An encoded `cA FALSE` is read (``EncodingLeniency/explicitCAFalse``); a
    ///   pathLenConstraint without `cA` TRUE is recorded (4.2.1.9: "CAs MUST NOT include the
    ///   pathLenConstraint field unless the cA boolean is asserted",
    ///   ``ProfileRule/pathLengthConstraintWithoutCA``) and ignored: the value has
    ///   `pathLenConstraint` nil.
    package static func decode(_ ext: Extension) throws(DERError) -> BasicConstraints {
        var reader = DERReader(ext.value)
        var findings = ParseFindings()
        return try read(&reader, &findings)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does, recording what it finds.
    package static func read(_ reader: inout DERReader, _ findings: inout ParseFindings) throws(DERError) -> BasicConstraints {
        let sequence = try reader.descend(.sequence, "BasicConstraints")
        var isCA = false
        if let element = try reader.readOptional(.boolean, "BasicConstraints cA") {
            isCA = try reader.boolean(element, "BasicConstraints cA")
            if _slowPath(!isCA) { findings.insert(.explicitCAFalse) }
        }
        var pathLength: Int? = nil
        if let element = try reader.readOptional(.integer, "BasicConstraints pathLenConstraint") {
            let value = Int(try reader.unsignedInteger(element, "BasicConstraints pathLenConstraint", as: UInt32.self))
            if _fastPath(isCA) {
                pathLength = value
            } else {
                findings.insert(.pathLengthConstraintWithoutCA)
            }
        }
        try reader.ascend(sequence, "BasicConstraints")
        try reader.finish("BasicConstraints")
        return BasicConstraints(isCertificateAuthority: isCA, pathLenConstraint: pathLength)
    }
}
