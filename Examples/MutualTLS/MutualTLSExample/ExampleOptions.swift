/// The example executables' `--name value` arguments.
public struct ExampleOptions: Sendable {
    private var values: [String: String] = [:]

    /// Reads `--name value` pairs; a word that is not such a pair is ignored.
    public init(_ words: some Sequence<String>) {
        var pending: String? = nil
        for word in words {
            if let name = pending {
                values[name] = word
                pending = nil
            } else if word.hasPrefix("--") {
                pending = String(word.dropFirst(2))
            }
        }
    }

    /// The value of `--name`, or `nil`.
    public subscript(_ name: String) -> String? { values[name] }

    /// The value of `--name`.
    ///
    /// - Throws: ``MutualTLSError`` when it is missing.
    public func required(_ name: String) throws(MutualTLSError) -> String {
        guard let value = values[name] else { throw MutualTLSError("missing --\(name)") }
        return value
    }
}
