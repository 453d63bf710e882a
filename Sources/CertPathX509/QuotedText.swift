// Words of an input echoed in an error message, bounded: a huge line must not make a huge message.

package enum QuotedText {
    /// `word` in double quotes, cut after `limit` Unicode scalars (then `"…" (N bytes)`, N the
    /// whole word's UTF-8 length).
    package static func quoted(_ word: String, limit: Int = 64) -> String {
        guard let prefix = prefix(word, limit: limit) else { return "\"\(word)\"" }
        return "\"\(prefix)…\" (\(word.utf8.count) bytes)"
    }

    /// `word` cut after `limit` Unicode scalars, with `…` when something was cut.
    package static func cut(_ word: String, limit: Int = 64) -> String {
        prefix(word, limit: limit).map { $0 + "…" } ?? word
    }

    /// The first `limit` Unicode scalars of `word`, or `nil` when it has no more than that. Counted
    /// in scalars, not characters: one character can hold any number of combining scalars.
    private static func prefix(_ word: String, limit: Int) -> String? {
        let scalars = word.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex), end < scalars.endIndex else {
            return nil
        }
        return String(scalars[..<end])
    }
}
