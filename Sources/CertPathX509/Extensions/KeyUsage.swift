import CertPathDER

/// The keyUsage extension (RFC 5280 4.2.1.3): a named bit list.
public struct KeyUsage: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// Bit `n` of the named bit list is `1 << n`.
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// digitalSignature (bit 0, RFC 5280 4.2.1.3): the key verifies digital signatures other than
    /// on certificates and CRLs, such as a TLS handshake signature; what a TLS leaf with keyUsage
    /// needs (or, for RSA key transport, ``keyEncipherment``).
    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    /// contentCommitment (bit 1, formerly nonRepudiation): the key's signatures commit the signer to
    /// the content signed. Not used by path validation.
    public static let contentCommitment = KeyUsage(rawValue: 1 << 1)
    /// keyEncipherment (bit 2): the key encrypts private or secret keys, as in TLS 1.2 RSA key
    /// transport; accepted for an RSA TLS leaf instead of ``digitalSignature``.
    public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    /// dataEncipherment (bit 3): the key encrypts user data directly, not keys. Not used by path
    /// validation.
    public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    /// keyAgreement (bit 4): the key is used for key agreement, such as static (EC)DH; accepted for
    /// an EC TLS leaf (TLS 1.2 static ECDH). Qualified by ``encipherOnly`` and ``decipherOnly``.
    public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    /// keyCertSign (bit 5): the key verifies signatures on certificates; a CA certificate that
    /// carries keyUsage must assert it to issue the next certificate of a path (RFC 5280 6.1.4 (n)).
    public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    /// cRLSign (bit 6): the key verifies signatures on CRLs; CertPath requires it of a CRL's signer
    /// (RFC 5280 6.3.3 (f)).
    public static let cRLSign = KeyUsage(rawValue: 1 << 6)
    /// encipherOnly (bit 7): with ``keyAgreement``, the agreed key may only encipher data; undefined
    /// without it.
    public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    /// decipherOnly (bit 8): with ``keyAgreement``, the agreed key may only decipher data; undefined
    /// without it.
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
    /// - Throws: ``DERError``: malformed DER (a BIT STRING's unused-bits octet or non-zero padding).
    ///   Not thrown, recorded: trailing zero bits (X.690 11.2.2; ``EncodingLeniency/keyUsageTrailingZeroBits``),
    ///   no bit set (4.2.1.3: "at least one of the bits MUST be set to 1";
    ///   ``ProfileRule/keyUsageWithoutBits``), a bit beyond decipherOnly
    ///   (``ProfileRule/keyUsageUndefinedBits``, the extra bits dropped from the value).
    package static func decode(_ ext: Extension) throws(DERError) -> KeyUsage {
        var reader = DERReader(ext.value)
        var findings = ParseFindings()
        return try read(&reader, &findings)
    }

    /// Decodes the extnValue the reader spans, as ``decode(_:)`` does, recording what it finds.
    package static func read(_ reader: inout DERReader, _ findings: inout ParseFindings) throws(DERError) -> KeyUsage {
        let element = try reader.read(.bitString, "KeyUsage")
        try reader.finish("KeyUsage")
        let bits = try reader.bitString(element, "KeyUsage")
        var value: UInt64 = 0
        var undefined = false
        // Bit n of the list is bit 7 - (n % 8) of octet n / 8; only octets 0 and 1 hold defined bits (0…8).
        var offset = 0
        for position in bits.bytes {
            var octet = reader.bytes[position]
            if offset < 2 {
                // Bit 0 of the list is the most significant bit of the first octet: reverse the octet.
                octet = (octet & 0xF0) >> 4 | (octet & 0x0F) << 4
                octet = (octet & 0xCC) >> 2 | (octet & 0x33) << 2
                octet = (octet & 0xAA) >> 1 | (octet & 0x55) << 1
                value |= UInt64(octet) << UInt64(offset * 8)
            } else if octet != 0 {
                undefined = true
            }
            offset += 1
        }
        if value & ~0x1FF != 0 { undefined = true }
        value &= 0x1FF
        if _slowPath(undefined) { findings.insert(.keyUsageUndefinedBits) }
        if _slowPath(value == 0 && !undefined) { findings.insert(.keyUsageWithoutBits) }
        // DER's named-bit-list rule: the last bit is a one (X.690 11.2.2).
        if let last = bits.bytes.last, _slowPath(reader.bytes[last] & (1 << bits.unusedBits) == 0) {
            findings.insert(.keyUsageTrailingZeroBits)
        }
        return KeyUsage(rawValue: UInt16(value))
    }
}
