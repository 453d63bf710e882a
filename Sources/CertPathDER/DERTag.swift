/// An ASN.1 identifier octet in DER's low-tag-number form (X.690 8.1.2).
///
/// Only tag numbers 0...30 exist in this form; a first octet whose number bits are all ones
/// (the high-tag-number form) is rejected by ``DERReader`` with ``DERError/Code/highTagNumber``,
/// since nothing in the X.509 and CRL profiles (RFC 5280) uses tag numbers above 30.
@frozen
@usableFromInline package struct DERTag: Hashable, Sendable, CustomStringConvertible {
    /// The identifier octet as encoded: class in bits 8–7, constructed flag in bit 6, number in bits 5–1.
    @usableFromInline package let rawValue: UInt8

    /// Wraps an identifier octet as encoded.
    @inlinable
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The four ASN.1 tag classes (X.690 8.1.2.2, table 1).
    @usableFromInline package enum TagClass: UInt8, Sendable {
        /// Universal (bits 00): the types X.680 defines, SEQUENCE, INTEGER, OID and the others.
        case universal = 0
        /// Application (bits 01).
        case application = 1
        /// Context-specific (bits 10): `[n]` tags, as in X.509's EXPLICIT and IMPLICIT fields.
        case contextSpecific = 2
        /// Private (bits 11).
        case `private` = 3
    }

    /// The tag's class.
    @inlinable
    package var tagClass: TagClass { TagClass(rawValue: rawValue >> 6)! }

    /// Whether the encoding is constructed (contains nested elements) rather than primitive.
    @inlinable
    package var isConstructed: Bool { rawValue & 0x20 != 0 }

    /// The tag number, 0...30.
    @inlinable
    package var number: UInt8 { rawValue & 0x1F }

    /// A context-specific tag `[number]`, as used for IMPLICIT and EXPLICIT tagging.
    ///
    /// - Parameters:
    ///   - number: the tag number, 0...30.
    ///   - constructed: `true` for EXPLICIT tags and IMPLICIT tags over constructed types.
    @inlinable
    package static func contextSpecific(_ number: UInt8, constructed: Bool = false) -> DERTag {
        precondition(number <= 30, "tag numbers above 30 need the high-tag-number form")
        return DERTag(rawValue: 0x80 | (constructed ? 0x20 : 0) | number)
    }

    /// BOOLEAN, identifier octet 0x01 (a computed constant, so it folds into inlined readers).
    @inlinable package static var boolean: DERTag { DERTag(rawValue: 0x01) }
    /// INTEGER, identifier octet 0x02 (a computed constant, so it folds into inlined readers).
    @inlinable package static var integer: DERTag { DERTag(rawValue: 0x02) }
    /// BIT STRING, identifier octet 0x03 (a computed constant, so it folds into inlined readers).
    @inlinable package static var bitString: DERTag { DERTag(rawValue: 0x03) }
    /// OCTET STRING, identifier octet 0x04 (a computed constant, so it folds into inlined readers).
    @inlinable package static var octetString: DERTag { DERTag(rawValue: 0x04) }
    /// NULL, identifier octet 0x05 (a computed constant, so it folds into inlined readers).
    @inlinable package static var null: DERTag { DERTag(rawValue: 0x05) }
    /// OBJECT IDENTIFIER, identifier octet 0x06 (a computed constant, so it folds into inlined readers).
    @inlinable package static var objectIdentifier: DERTag { DERTag(rawValue: 0x06) }
    /// ENUMERATED, identifier octet 0x0A (a computed constant, so it folds into inlined readers).
    @inlinable package static var enumerated: DERTag { DERTag(rawValue: 0x0A) }
    /// UTF8String, identifier octet 0x0C (a computed constant, so it folds into inlined readers).
    @inlinable package static var utf8String: DERTag { DERTag(rawValue: 0x0C) }
    /// NumericString, identifier octet 0x12 (a computed constant, so it folds into inlined readers).
    @inlinable package static var numericString: DERTag { DERTag(rawValue: 0x12) }
    /// PrintableString, identifier octet 0x13 (a computed constant, so it folds into inlined readers).
    @inlinable package static var printableString: DERTag { DERTag(rawValue: 0x13) }
    /// TeletexString, identifier octet 0x14 (a computed constant, so it folds into inlined readers).
    @inlinable package static var teletexString: DERTag { DERTag(rawValue: 0x14) }
    /// IA5String, identifier octet 0x16 (a computed constant, so it folds into inlined readers).
    @inlinable package static var ia5String: DERTag { DERTag(rawValue: 0x16) }
    /// UTCTime, identifier octet 0x17 (a computed constant, so it folds into inlined readers).
    @inlinable package static var utcTime: DERTag { DERTag(rawValue: 0x17) }
    /// GeneralizedTime, identifier octet 0x18 (a computed constant, so it folds into inlined readers).
    @inlinable package static var generalizedTime: DERTag { DERTag(rawValue: 0x18) }
    /// VisibleString, identifier octet 0x1A (a computed constant, so it folds into inlined readers).
    @inlinable package static var visibleString: DERTag { DERTag(rawValue: 0x1A) }
    /// UniversalString, identifier octet 0x1C (a computed constant, so it folds into inlined readers).
    @inlinable package static var universalString: DERTag { DERTag(rawValue: 0x1C) }
    /// BMPString, identifier octet 0x1E (a computed constant, so it folds into inlined readers).
    @inlinable package static var bmpString: DERTag { DERTag(rawValue: 0x1E) }
    /// SEQUENCE (constructed), identifier octet 0x30 (a computed constant, so it folds into inlined readers).
    @inlinable package static var sequence: DERTag { DERTag(rawValue: 0x30) }
    /// SET (constructed), identifier octet 0x31 (a computed constant, so it folds into inlined readers).
    @inlinable package static var set: DERTag { DERTag(rawValue: 0x31) }

    /// A readable name: `SEQUENCE`, `INTEGER`, `[0] constructed`, `0x5f`.
    @usableFromInline package var description: String {
        switch tagClass {
        case .universal:
            if let name = DERTag.universalNames[number], isConstructed == DERTag.constructedUniversal.contains(number) {
                return name
            }
            return "universal \(number)\(isConstructed ? " constructed" : "")"
        case .contextSpecific:
            return "[\(number)]\(isConstructed ? " constructed" : "")"
        case .application:
            return "[APPLICATION \(number)]\(isConstructed ? " constructed" : "")"
        case .private:
            return "[PRIVATE \(number)]\(isConstructed ? " constructed" : "")"
        }
    }

    private static let constructedUniversal: Set<UInt8> = [16, 17]
    private static let universalNames: [UInt8: String] = [
        1: "BOOLEAN", 2: "INTEGER", 3: "BIT STRING", 4: "OCTET STRING", 5: "NULL",
        6: "OBJECT IDENTIFIER", 10: "ENUMERATED", 12: "UTF8String", 16: "SEQUENCE", 17: "SET",
        18: "NumericString", 19: "PrintableString", 20: "TeletexString", 22: "IA5String",
        23: "UTCTime", 24: "GeneralizedTime", 26: "VisibleString", 28: "UniversalString",
        30: "BMPString",
    ]
}
