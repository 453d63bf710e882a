/// The subjectAltName and issuerAltName extensions (RFC 5280 4.2.1.6, 4.2.1.7): `GeneralNames`.
enum AlternativeNames {
    /// Decodes `GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName` (iPAddress of 4 or 16 octets).
    ///
    /// - Throws: ``DERError``; `.invalidValue` when empty.
    static func decode(_ ext: Extension, _ expected: String) throws(DERError) -> [GeneralName] {
        try ext.parse(.sequence, expected) { (r: inout DERReader) throws(DERError) -> [GeneralName] in
            let element = DERElement(tag: .sequence, offset: ext.value.startIndex, value: r.position..<r.end)
            return try GeneralName.readNames(&r, element, .name, expected)
        }
    }
}
