import CertPathDER

/// The subjectAltName and issuerAltName extensions (RFC 5280 4.2.1.6, 4.2.1.7): `GeneralNames`.
package enum AlternativeNames {
    /// Decodes `GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName` (iPAddress of 4 or 16 octets).
    ///
    /// - Throws: ``DERError``; `.invalidValue` when empty.
    package static func decode(_ ext: Extension, _ expected: String) throws(DERError) -> [GeneralName] {
        var reader = DERReader(ext.value)
        return try read(&reader, expected)
    }

    /// Decodes the extnValue the reader spans (see ``decode(_:_:)``); with `build` false it only
    /// validates and returns an empty list.
    package static func read(_ reader: inout DERReader, _ expected: String, build: Bool = true) throws(DERError) -> [GeneralName] {
        var discarded = DiscardedElements()
        return try read(&reader, expected, build: build, into: &discarded)
    }

    /// Decodes the extnValue the reader spans, as ``read(_:_:build:)`` does, giving `elements` the
    /// tag number (`2` dNSName, `7` iPAddress…) and contents offsets of each GeneralName.
    @inline(__always)  // with `build` a constant, the unused list costs nothing
    package static func read<Elements: ExtensionElementSink>(
        _ reader: inout DERReader, _ expected: String, build: Bool, into elements: inout Elements
    ) throws(DERError) -> [GeneralName] {
        let start = reader.position
        let list = try reader.descend(.sequence, expected)
        let element = DERElement(tag: .sequence, offset: start, value: reader.position..<reader.end)
        let names = try GeneralName.readNames(&reader, element, .name, expected, build: build, into: &elements)
        try reader.ascend(list, expected)
        try reader.finish(expected)
        return names
    }

    /// ``read(_:_:build:)`` without building the list: validation only.
    package static func validate(_ reader: inout DERReader, _ expected: String) throws(DERError) {
        _ = try read(&reader, expected, build: false)
    }
}
