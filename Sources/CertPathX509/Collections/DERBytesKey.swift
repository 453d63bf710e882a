#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes as a dictionary key, hashed and compared in bulk (`ArraySlice`'s own conformance goes byte
/// by byte, which made a cache hit slower than loading an RSA key).
package struct DERBytesKey: Hashable, Sendable {
    package let bytes: ArraySlice<UInt8>

    @inlinable
    package init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    @inlinable
    package func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    @inlinable
    package static func == (lhs: DERBytesKey, rhs: DERBytesKey) -> Bool {
        guard lhs.bytes.count == rhs.bytes.count else { return false }
        return lhs.bytes.withUnsafeBytes { l in
            rhs.bytes.withUnsafeBytes { r in
                l.count == 0 || memcmp(l.baseAddress!, r.baseAddress!, l.count) == 0
            }
        }
    }
}
