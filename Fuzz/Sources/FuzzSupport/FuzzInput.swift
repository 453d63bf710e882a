/// Turns fuzz bytes into decisions, like LLVM's FuzzedDataProvider: every read consumes bytes from the
/// front, and an exhausted input reads as zeros, so every input (even empty) yields a valid structure.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    /// Reads decisions from `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte has been consumed.
    public var isExhausted: Bool { position >= bytes.count }

    /// The next byte, 0 when exhausted.
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A value in `range` (one byte for small ranges, two otherwise).
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        let span = range.upperBound - range.lowerBound + 1
        guard span > 1 else { return range.lowerBound }
        let raw = span <= 256 ? Int(byte()) : Int(byte()) << 8 | Int(byte())
        return range.lowerBound + raw % span
    }

    /// A boolean that is true with probability about `numerator`/256 (one byte).
    public mutating func chance(_ numerator: Int) -> Bool { Int(byte()) < numerator }

    /// One element of `choices` (which must not be empty).
    public mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...(choices.count - 1))] }

    /// Up to `maximum` bytes (a length byte, then the bytes).
    public mutating func data(maximum: Int) -> [UInt8] {
        let count = int(0...maximum)
        var out: [UInt8] = []
        out.reserveCapacity(count)
        for _ in 0..<count where !isExhausted { out.append(byte()) }
        return out
    }

    /// Everything not consumed yet.
    public mutating func rest() -> [UInt8] {
        defer { position = bytes.count }
        return position < bytes.count ? Array(bytes[position...]) : []
    }
}
