#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of the file at `path`, or `nil`.
public func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        if count == 0 { break }
        out.append(contentsOf: buffer[0..<count])
    }
    return out
}

/// Writes `bytes` to the file at `path`; `false` on failure.
@discardableResult
public func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
    guard let file = fopen(path, "wb") else { return false }
    defer { fclose(file) }
    return bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) } == bytes.count
}

/// A small deterministic generator (SplitMix64), for making seeds.
public struct SplitMix64 {
    private var state: UInt64

    /// Starts from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
