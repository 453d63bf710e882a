// A small command-line parser: GNU-style long options (`--name VALUE`, `--name=VALUE`, flags), `--`
// to end options, `-h`/`--help`, and one clear message per mistake.

/// Why the command stopped early, with the exit status to use.
///
/// Exit status 2 means bad usage or unreadable/malformed input (see docs/CLI.md).
struct CLIError: Error, CustomStringConvertible {
    /// One line, without the `certpath <command>:` prefix.
    let message: String
    /// The process exit status.
    let status: Int32

    init(_ message: String, status: Int32 = ExitStatus.usage) {
        self.message = message
        self.status = status
    }

    var description: String { message }
}

/// The exit statuses of every command.
enum ExitStatus {
    /// Trusted (verify), every certificate shown (show), every case as expected (limbo), every line trusted (batch).
    static let success: Int32 = 0
    /// Untrusted (verify), a line untrusted or in error (batch), a limbo case not as expected (limbo).
    static let untrusted: Int32 = 1
    /// Bad usage, unreadable or malformed input, or standard output that could not be written.
    static let usage: Int32 = 2
}

/// One option a command accepts.
struct OptionSpec {
    /// The long name without dashes: `anchors`.
    let name: String
    /// The value's placeholder (`FILE`), or `nil` for a flag.
    let valueName: String?
    /// Whether the option may be given more than once (its values accumulate).
    let repeatable: Bool
    /// One line of help.
    let help: String

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, repeatable: false, help: help)
    }

    static func value(_ name: String, _ valueName: String, repeatable: Bool = false, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, repeatable: repeatable, help: help)
    }

    /// `--anchors FILE` (with `...` when repeatable).
    var usage: String {
        guard let valueName else { return "--\(name)" }
        return "--\(name) \(valueName)\(repeatable ? "..." : "")"
    }
}

/// What a command accepts, and its help text.
struct CommandSpec {
    /// `verify`.
    let name: String
    /// The synopsis after `certpath <name> `: `LEAF [options]`.
    let synopsis: String
    /// A paragraph of what the command does.
    let summary: String
    /// The options, in help order.
    let options: [OptionSpec]
    /// Placeholder of the positional arguments (`LEAF`, `FILE`), for messages.
    let positionalName: String
    /// How many positional arguments are accepted.
    let positionalCount: ClosedRange<Int>
    /// Extra help after the options (exit statuses, examples).
    let epilogue: String

    /// The full `--help` text.
    var help: String {
        var lines = ["usage: certpath \(name) \(synopsis)", "", summary, "", "options:"]
        let width = min(34, (options.map(\.usage.count) + ["-h, --help".count]).max() ?? 0)
        func row(_ left: String, _ right: String) -> String {
            let padded = left.count < width ? left + String(repeating: " ", count: width - left.count) : left
            return left.count < width ? "  \(padded)  \(right)" : "  \(left)\n  \(String(repeating: " ", count: width))  \(right)"
        }
        for option in options { lines.append(row(option.usage, option.help)) }
        lines.append(row("-h, --help", "show this help and exit"))
        if !epilogue.isEmpty { lines += ["", epilogue] }
        return lines.joined(separator: "\n")
    }
}

/// The parsed command line of one command.
struct ParsedArguments {
    /// Values of options that take one, in command-line order, by option name.
    private(set) var values: [String: [String]] = [:]
    /// Flags given.
    private(set) var flags: Set<String> = []
    /// Positional arguments in order.
    private(set) var positionals: [String] = []
    /// Options in the order they were given (for "conflicting options" messages).
    private(set) var order: [String] = []

    /// The value of a single-valued option.
    func value(_ name: String) -> String? { values[name]?.last }
    /// Every value of a repeatable option.
    func all(_ name: String) -> [String] { values[name] ?? [] }
    /// Whether the flag or option was given.
    func has(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }

    /// The value of the single-valued option `name` as a whole number within `range`, `nil` when
    /// the option was not given. Only decimal digits are a whole number: no sign, no leading zero
    /// (`+2`, `02`, ` 2` and `2.0` are refused rather than read as 2).
    ///
    /// - Parameter unit: what the number counts, for the message (`"seconds"`), or empty.
    /// - Throws: ``CLIError`` naming the option, the value and the range.
    func wholeNumber(_ name: String, in range: ClosedRange<Int>, unit: String = "") throws(CLIError) -> Int? {
        guard let text = value(name) else { return nil }
        let digits = Array(text.utf8)
        let isCanonical = !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            && (digits.count == 1 || digits[0] != UInt8(ascii: "0"))
        guard isCanonical, let number = Int(text), range.contains(number) else {
            let what = unit.isEmpty ? "a whole number" : "a whole number of \(unit)"
            throw CLIError("--\(name) '\(Output.echo(text))': expected \(what) from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// Parses `arguments` (the words after the command name) against `spec`.
    ///
    /// - Returns: `nil` when `-h` or `--help` was given (the caller prints the help).
    /// - Throws: ``CLIError`` (status 2): an unknown option (with a suggestion when one is close), a
    ///   missing value, a value given to a flag, a single-valued option given twice, too few or too
    ///   many positional arguments.
    static func parse(_ arguments: [String], _ spec: CommandSpec) throws(CLIError) -> ParsedArguments? {
        if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) { return nil }
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                parsed.positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            guard word.hasPrefix("--") else {
                throw CLIError("unknown option '\(Output.echo(word))'\(suggestion(for: word, in: spec)) (see 'certpath \(spec.name) --help')")
            }
            var name = String(word.dropFirst(2))
            var inlineValue: String? = nil
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                throw CLIError("unknown option '--\(Output.echo(name))'\(suggestion(for: name, in: spec)) (see 'certpath \(spec.name) --help')")
            }
            if !option.repeatable && parsed.has(name) {
                throw CLIError("option '--\(name)' given more than once")
            }
            parsed.order.append(name)
            guard let valueName = option.valueName else {
                if inlineValue != nil { throw CLIError("option '--\(name)' takes no value") }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw CLIError("option '--\(name)' needs a value (\(valueName))")
                }
                let next = arguments[index]
                if next.hasPrefix("--") && next.count > 2 {
                    throw CLIError("option '--\(name)' needs a value (\(valueName)), found option '\(Output.echo(next))'")
                }
                value = next
                index += 1
            }
            guard !value.isEmpty else { throw CLIError("option '--\(name)' needs a non-empty value (\(valueName))") }
            parsed.values[name, default: []].append(value)
        }
        let count = parsed.positionals.count
        if count < spec.positionalCount.lowerBound {
            throw CLIError("missing \(spec.positionalName) (see 'certpath \(spec.name) --help')")
        }
        if count > spec.positionalCount.upperBound {
            let extra = parsed.positionals[spec.positionalCount.upperBound]
            throw CLIError("unexpected argument '\(Output.echo(extra))' (see 'certpath \(spec.name) --help')")
        }
        return parsed
    }

    /// `; did you mean '--anchors'?` when an option name is within two edits of `word`.
    private static func suggestion(for word: String, in spec: CommandSpec) -> String {
        let bare = String(word.drop(while: { $0 == "-" }))
        guard bare.count >= 3 else { return "" }
        // Names whose lengths differ by more than two are more than two edits apart: not compared
        // (and a huge word costs no quadratic work).
        let length = bare.utf8.count
        let scored = spec.options.filter { abs($0.name.utf8.count - length) <= 2 }
            .map { ($0.name, editDistance(bare, $0.name)) }.filter { $0.1 <= 2 }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return "" }
        return "; did you mean '--\(best.0)'?"
    }

    /// Levenshtein distance (option names are short).
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
