/// The subjectAltName and issuerAltName extensions (RFC 5280 4.2.1.6, 4.2.1.7): `GeneralNames`.
enum AlternativeNames {
    /// Decodes `GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName` (iPAddress of 4 or 16 octets).
    ///
    /// - Throws: ``DERError``; `.invalidValue` when empty.
    static func decode(_ ext: Extension, _ expected: @autoclosure () -> String) throws(DERError) -> [GeneralName] {
        var reader = DERReader(ext.value)
        return try read(&reader, expected())
    }

    /// Decodes the extnValue the reader spans (see ``decode(_:_:)``); with `build` false it only
    /// validates and returns an empty list.
    static func read(_ reader: inout DERReader, _ expected: @autoclosure () -> String, build: Bool = true) throws(DERError) -> [GeneralName] {
        let start = reader.position
        let names = try reader.nested(.sequence, expected()) { (r: inout DERReader) throws(DERError) -> [GeneralName] in
            let element = DERElement(tag: .sequence, offset: start, value: r.position..<r.end)
            return try GeneralName.readNames(&r, element, .name, expected(), build: build)
        }
        try reader.finish(expected())
        return names
    }
}
