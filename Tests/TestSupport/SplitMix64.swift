/// A small deterministic pseudo-random generator (SplitMix64, Steele, Lea and Flood 2014) for
/// randomized tests: a failure names a seed that reproduces it. Not for anything secret.
public struct SplitMix64: RandomNumberGenerator {
    /// The generator's state; the seed is its first value.
    public var state: UInt64

    /// A generator whose sequence is fixed by `state` (the seed).
    public init(state: UInt64) {
        self.state = state
    }

    /// The next 64 pseudo-random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (`bound` > 0; slightly biased for bounds that are not powers of two).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with the given probability, in percent (0 to 100).
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
