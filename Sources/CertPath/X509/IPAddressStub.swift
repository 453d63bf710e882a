// TEMPORARY until the IPAddress file lands.
public struct IPAddress: CustomStringConvertible {
    public let bytes: [UInt8]
    public init?(bytes: [UInt8]) { guard bytes.count == 4 || bytes.count == 16 else { return nil }; self.bytes = bytes }
    public var description: String { bytes.map(String.init).joined(separator: ".") }
}
