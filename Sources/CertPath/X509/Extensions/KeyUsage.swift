/// The keyUsage extension (RFC 5280 4.2.1.3): a named bit list.
public struct KeyUsage: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// Bit `n` of the named bit list is `1 << n`.
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    public static let contentCommitment = KeyUsage(rawValue: 1 << 1)
    public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    public static let cRLSign = KeyUsage(rawValue: 1 << 6)
    public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    public static let decipherOnly = KeyUsage(rawValue: 1 << 8)

    /// The RFC 5280 names, in bit order.
    public static let names: [(KeyUsage, String)] = [
        (.digitalSignature, "digitalSignature"), (.contentCommitment, "contentCommitment"),
        (.keyEncipherment, "keyEncipherment"), (.dataEncipherment, "dataEncipherment"),
        (.keyAgreement, "keyAgreement"), (.keyCertSign, "keyCertSign"), (.cRLSign, "cRLSign"),
        (.encipherOnly, "encipherOnly"), (.decipherOnly, "decipherOnly"),
    ]

    /// `digitalSignature, keyEncipherment`.
    public var description: String {
        KeyUsage.names.filter { contains($0.0) }.map(\.1).joined(separator: ", ")
    }

    /// Decodes `KeyUsage ::= BIT STRING { digitalSignature (0), … decipherOnly (8) }`.
    ///
    /// - Throws: ``DERError``: malformed DER or a non-DER named bit list (trailing zero bits,
    ///   X.690 11.2.2); `.invalidValue` when no bit is set (4.2.1.3: "at least one of the bits MUST be
    ///   set to 1") or a bit beyond decipherOnly is set.
    static func decode(_ ext: Extension) throws(DERError) -> KeyUsage {
        var reader = DERReader(ext.value)
        return try read(&reader)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does.
    static func read(_ reader: inout DERReader) throws(DERError) -> KeyUsage {
        let element = try reader.read(.bitString, "KeyUsage")
        try reader.finish("KeyUsage")
        let bits = try reader.bitString(element, "KeyUsage", namedBits: true)
        guard bits.bitCount > 0 else {
            throw DERError(.invalidValue, at: element.offset, expected: "KeyUsage with at least one bit set")
        }
        guard bits.bitCount <= 9 else {
            throw DERError(.invalidValue, at: element.offset, expected: "KeyUsage bits 0 (digitalSignature) to 8 (decipherOnly)")
        }
        return KeyUsage(rawValue: UInt16(reader.namedBits(bits)))
    }
}
