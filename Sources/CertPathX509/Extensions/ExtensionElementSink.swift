/// Where a reader of a list-valued extension puts the tag number and contents offsets of each
/// element it validates: ``DiscardedElements`` when decoding the list as
/// values (a caller may collect the offsets).
package protocol ExtensionElementSink {
    mutating func append(_ tag: UInt8, _ contents: Range<Int>)
}

/// A sink that keeps nothing.
package struct DiscardedElements: ExtensionElementSink {
    /// Storage of its own: a value of no size passed `inout` has no address of its own, and
    /// ThreadSanitizer took the placeholder address two threads were given for a data race.
    private var unused: UInt8 = 0
    package init() {}
    @inline(__always) package mutating func append(_ tag: UInt8, _ contents: Range<Int>) {}
}
