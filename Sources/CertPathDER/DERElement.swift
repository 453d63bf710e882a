/// One TLV element found by ``DERReader``: its tag and where its bytes are in the reader's buffer.
///
/// An element is a view, not a copy: `value` and `encoded` are ranges of byte offsets into the
/// buffer the reader was created over (`reader.bytes[element.value]` are the contents octets).
@frozen
public struct DERElement: Hashable, Sendable {
    /// The identifier octet.
    public let tag: DERTag
    /// Offset of the identifier octet in the buffer.
    public let offset: Int
    /// Offsets of the contents octets (empty for a zero-length element).
    public let value: Range<Int>

    /// Creates an element view; `offset < value.lowerBound` for any element read from input.
    @inlinable
    public init(tag: DERTag, offset: Int, value: Range<Int>) {
        self.tag = tag
        self.offset = offset
        self.value = value
    }

    /// Offsets of the whole encoding: identifier, length and contents octets.
    @inlinable
    public var encoded: Range<Int> { offset..<value.upperBound }
}

/// A validated BIT STRING (X.690 8.6): its bytes without the leading unused-bits octet.
@frozen
public struct DERBitString: Hashable, Sendable {
    /// Offsets of the bit bytes (the contents after the unused-bits octet).
    public let bytes: Range<Int>
    /// Number of padding bits at the end of the last byte, 0...7 (0 when `bytes` is empty).
    public let unusedBits: UInt8

    /// A BIT STRING view of the bit bytes at `bytes` of the buffer it was read from, with `unusedBits`
    /// padding bits (0...7) at the end of the last byte (X.690 8.6.2).
    @inlinable
    public init(bytes: Range<Int>, unusedBits: UInt8) {
        self.bytes = bytes
        self.unusedBits = unusedBits
    }

    /// Number of meaningful bits.
    @inlinable
    public var bitCount: Int { bytes.count * 8 - Int(unusedBits) }
}
