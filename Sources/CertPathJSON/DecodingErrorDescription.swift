#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DecodingError {
    /// What is wrong with a JSON document, in words and with the member's path (`missing "operators"
    /// at the top level`, `expected an array at .testcases[3].peer_name`, `not JSON (RFC 8259)`), instead of
    /// the error's debug rendering (its type names, `CodingKeys(stringValue: …)`).
    package var summary: String {
        switch self {
        case .keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\" at \(Self.path(context))"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "expected \(Self.kind(type)) at \(Self.path(context))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not JSON (RFC 8259)" }
            return "\(context.debugDescription) at \(Self.path(context))"
        @unknown default:
            return String(describing: self)
        }
    }

    /// `.operators[0].logs[2].key`, or `the top level`.
    private static func path(_ context: Context) -> String {
        let components = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return components.isEmpty ? "the top level" : components
    }

    /// The JSON kind a Swift type is read from.
    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Int64.Type, is UInt64.Type, is Double.Type: return "a number"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array<") { return "an array" }
            return "an object"
        }
    }
}
