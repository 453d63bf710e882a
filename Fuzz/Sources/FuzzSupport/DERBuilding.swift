// The DER writer the scenario generator builds its certificates with. CertPath's own `DERWriter` is
// `package` (not part of its API, and invisible to this separate package), so the generator keeps
// this small one: identifier, minimal definite length, contents (X.690 8.1, 10.1).
import CertPath

/// An identifier octet (low tag numbers only), with the ones the generator writes.
struct FuzzDERTag {
    let rawValue: UInt8

    static func contextSpecific(_ number: UInt8, constructed: Bool = false) -> FuzzDERTag {
        FuzzDERTag(rawValue: 0x80 | (constructed ? 0x20 : 0) | number)
    }
    static let boolean = FuzzDERTag(rawValue: 0x01)
    static let integer = FuzzDERTag(rawValue: 0x02)
    static let bitString = FuzzDERTag(rawValue: 0x03)
    static let octetString = FuzzDERTag(rawValue: 0x04)
    static let null = FuzzDERTag(rawValue: 0x05)
    static let objectIdentifier = FuzzDERTag(rawValue: 0x06)
    static let utf8String = FuzzDERTag(rawValue: 0x0C)
    static let printableString = FuzzDERTag(rawValue: 0x13)
    static let ia5String = FuzzDERTag(rawValue: 0x16)
    static let utcTime = FuzzDERTag(rawValue: 0x17)
    static let generalizedTime = FuzzDERTag(rawValue: 0x18)
    static let sequence = FuzzDERTag(rawValue: 0x30)
    static let set = FuzzDERTag(rawValue: 0x31)
}

/// Writes DER elements one after the other into `bytes`.
struct FuzzDERWriter {
    private(set) var bytes: [UInt8] = []

    /// Appends one element with `contents` as its contents octets.
    mutating func append(_ tag: FuzzDERTag, contents: [UInt8]) {
        bytes.append(tag.rawValue)
        if contents.count < 0x80 {
            bytes.append(UInt8(contents.count))
        } else {
            var octets: [UInt8] = []
            var rest = contents.count
            while rest > 0 {
                octets.insert(UInt8(rest & 0xFF), at: 0)
                rest >>= 8
            }
            bytes.append(0x80 | UInt8(octets.count))
            bytes.append(contentsOf: octets)
        }
        bytes.append(contentsOf: contents)
    }

    /// Appends a constructed element whose contents `body` writes.
    mutating func append(_ tag: FuzzDERTag, _ body: (inout FuzzDERWriter) -> Void) {
        var inner = FuzzDERWriter()
        body(&inner)
        append(tag, contents: inner.bytes)
    }

    /// Appends bytes that are already a DER encoding.
    mutating func appendEncoded(_ encoded: [UInt8]) { bytes.append(contentsOf: encoded) }

    /// Appends an INTEGER in minimal two's complement.
    mutating func appendInteger(_ value: Int64) {
        var contents: [UInt8] = []
        var rest = value
        repeat {
            contents.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        } while !(rest == 0 && contents[0] & 0x80 == 0) && !(rest == -1 && contents[0] & 0x80 != 0)
        append(.integer, contents: contents)
    }

    /// Appends a BOOLEAN (0xFF for true).
    mutating func appendBoolean(_ value: Bool) { append(.boolean, contents: [value ? 0xFF : 0x00]) }

    /// Appends an OBJECT IDENTIFIER.
    mutating func appendOID(_ oid: OID) { append(.objectIdentifier, contents: Array(oid.encoded)) }
}
