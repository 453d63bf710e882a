/// One TLV element found by ``DERReader``: its tag and where its bytes are in the reader's buffer.
///
/// An element is a view, not a copy: `value` and `encoded` are ranges of byte offsets into the
/// buffer the reader was created over (`reader.bytes[element.value]` are the contents octets).
@frozen
@usableFromInline package struct DERElement: Hashable, Sendable {
    /// The identifier octet.
    @usableFromInline package let tag: DERTag
    /// Offset of the identifier octet in the buffer.
    @usableFromInline package let offset: Int
    /// Offsets of the contents octets (empty for a zero-length element).
    @usableFromInline package let value: Range<Int>

    /// Creates an element view; `offset < value.lowerBound` for any element read from input.
    @inlinable
    package init(tag: DERTag, offset: Int, value: Range<Int>) {
        self.tag = tag
        self.offset = offset
        self.value = value
    }

    /// Offsets of the whole encoding: identifier, length and contents octets.
    @inlinable
    package var encoded: Range<Int> { offset..<value.upperBound }
}

/// A validated BIT STRING (X.690 8.6): its bytes without the leading unused-bits octet.
@frozen
@usableFromInline package struct DERBitString: Hashable, Sendable {
    /// Offsets of the bit bytes (the contents after the unused-bits octet).
    @usableFromInline package let bytes: Range<Int>
    /// Number of padding bits at the end of the last byte, 0...7 (0 when `bytes` is empty).
    @usableFromInline package let unusedBits: UInt8

    /// A BIT STRING view of the bit bytes at `bytes` of the buffer it was read from, with `unusedBits`
    /// padding bits (0...7) at the end of the last byte (X.690 8.6.2).
    @inlinable
    package init(bytes: Range<Int>, unusedBits: UInt8) {
        self.bytes = bytes
        self.unusedBits = unusedBits
    }

    /// Number of meaningful bits.
    @inlinable
    package var bitCount: Int { bytes.count * 8 - Int(unusedBits) }
}
