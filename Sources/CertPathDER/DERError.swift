/// Why a DER reader refused its input: which rule was broken, where, and what it expected.
///
/// Equality compares all three fields, so tests can assert the exact rule and offset.
/// `offset` counts bytes from the start of the buffer the reader was created over
/// (for a certificate: from its first byte).
public struct DERError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rule of X.690 DER (or of the ASN.1 schema being read) that the input breaks.
    public enum Code: String, Hashable, Sendable {
        /// An element's header or contents run past the end of the enclosing element (X.690 8.1.1).
        case truncated
        /// A tag other than the one the schema requires at this position.
        case unexpectedTag
        /// Tag number encoded in the high-tag-number form (X.690 8.1.2.4); DER profiles here use 0...30 only.
        case highTagNumber
        /// Indefinite length form 0x80 (X.690 10.1: DER uses the definite form only).
        case indefiniteLength
        /// A length not encoded in the fewest octets (X.690 10.1), or long form for a length below 128.
        case nonMinimalLength
        /// A length field of more than 4 octets, or 0xFF (reserved, X.690 8.1.3.5 c).
        case lengthTooLarge
        /// Bytes left over after the last element of a structure, or after the outermost element.
        case trailingData
        /// Nesting deeper than the reader's limit.
        case depthExceeded
        /// BOOLEAN contents other than one octet 0x00 or 0xFF (X.690 8.2.2, 11.1).
        case invalidBoolean
        /// INTEGER with no contents octets (X.690 8.3.1).
        case emptyInteger
        /// INTEGER whose first nine bits are all zeros or all ones (X.690 8.3.2).
        case nonMinimalInteger
        /// A negative INTEGER where the schema requires a non-negative value.
        case negativeInteger
        /// An INTEGER too large for the value it encodes here (for example a path length above `Int` range).
        case integerTooLarge
        /// BIT STRING without an unused-bits octet, unused bits above 7, non-zero padding bits (X.690 11.2.1),
        /// or a named bit list with trailing zero bits (X.690 11.2.2).
        case invalidBitString
        /// NULL with contents (X.690 8.8.2).
        case invalidNull
        /// OBJECT IDENTIFIER empty, with a subidentifier not in fewest octets, or cut short (X.690 8.19.2).
        case invalidObjectIdentifier
        /// UTCTime or GeneralizedTime not in the DER form `YYMMDDHHMMSSZ` / `YYYYMMDDHHMMSSZ`
        /// (X.690 11.7, 11.8; RFC 5280 4.1.2.5.1, 4.1.2.5.2), or naming an impossible date or time.
        case invalidTime
        /// A character string whose bytes are not allowed by its type (PrintableString, IA5String, UTF-8, BMP…).
        case invalidString
        /// A DEFAULT component encoded with its default value (X.690 11.5), such as `critical FALSE`.
        case explicitDefault
        /// A SET OF whose elements are not in ascending order of their encodings (X.690 11.6).
        case unsortedSet
        /// A structurally valid element whose value the schema does not allow (an empty SEQUENCE SIZE (1..MAX), …).
        case invalidValue
        /// A duplicate where the schema requires uniqueness (for example two extensions with one OID).
        case duplicate
        /// An encoding the schema allows but this implementation does not accept (named in `expected`).
        case unsupported
    }

    /// The rule broken.
    public let code: Code
    /// Byte offset of the offending element (its identifier octet) or byte, from the start of the input.
    public let offset: Int
    /// What the reader expected there, in words: `"SEQUENCE (Certificate)"`, `"minimal length"`.
    public let expected: String

    /// Creates an error for `code` at `offset`.
    public init(_ code: Code, at offset: Int, expected: String) {
        self.code = code
        self.offset = offset
        self.expected = expected
    }

    /// `byte 12: truncated (expected INTEGER (serialNumber))`.
    public var description: String {
        "byte \(offset): \(code.rawValue) (expected \(expected))"
    }
}
