import CertPathDER

extension Array {
    /// The most elements a decoded list reserves room for before it has read them; a longer list
    /// grows as arrays do (a bound on what a hostile length can make parsing allocate up front).
    static var decodedListCapacityLimit: Int { 64 }

    /// An empty list with room for the elements the rest of `reader`'s current structure holds
    /// (``DERReader/remainingElementCount(atMost:)``, at most ``decodedListCapacityLimit``), so that
    /// decoding a `SEQUENCE OF` allocates its list once instead of growing it 1, 2, 4…; with `build`
    /// false (validation only, nothing appended) it reserves nothing.
    @inline(__always)
    init(capacityForElementsOf reader: borrowing DERReader, build: Bool = true) {
        self.init()
        if build { reserveCapacity(reader.remainingElementCount(atMost: Self.decodedListCapacityLimit)) }
    }
}
