// Words of an input echoed in an error message, bounded: a huge line must not make a huge message.

enum QuotedText {
    /// `word` in double quotes, cut after `limit` Unicode scalars (then `"…" (N bytes)`, N the
    /// whole word's UTF-8 length).
    static func quoted(_ word: String, limit: Int = 64) -> String {
        let shown = cut(word, limit: limit)
        return shown.count == word.count ? "\"\(word)\"" : "\"\(shown)\" (\(word.utf8.count) bytes)"
    }

    /// `word` cut after `limit` Unicode scalars, with `…` when something was cut.
    static func cut(_ word: String, limit: Int = 64) -> String {
        let scalars = word.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex), end < scalars.endIndex else {
            return word
        }
        return String(scalars[..<end]) + "…"
    }
}
