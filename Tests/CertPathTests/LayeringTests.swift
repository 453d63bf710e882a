import Foundation
import Testing

/// The layers of the CertPath module, checked: each folder of Sources/CertPath may use what its own
/// and lower folders declare, never a name declared only in a higher one (docs/DESIGN-NOTES.md,
/// "Layers"). The compiler checks the same between the modules (CertPathDER < CertPathX509 <
/// CertPath < CertPathTLS); inside CertPath this test does.
@Suite struct LayeringTests {
    /// Sources/CertPath's folders, lowest first. Files directly in Sources/CertPath sit above all.
    static let layers = ["Collections", "Crypto", "Base", "Trust", "PathBuilding", "Validation", "Revocation", "Policies",
                         "CertificateTransparency", "Fetching", "Evaluation"]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Reads the `.swift` files under `module`, keyed by their path relative to it.
    static func read(_ module: String) throws -> [String: String] {
        let root = sources.appendingPathComponent(module)
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            files[relative] = try String(contentsOf: url, encoding: .utf8)
        }
        return files
    }

    @Test func noFolderReferencesAHigherOne() throws {
        let lower = try ["CertPathDER", "CertPathX509"].flatMap { try Self.read($0).values }
        let violations = LayerChecker(layers: Self.layers, files: try Self.read("CertPath"), lowerModules: lower).violations()
        #expect(violations.isEmpty, "upward references:\n\(violations.map(\.description).joined(separator: "\n"))")
    }

    /// Every folder of Sources/CertPath is a layer (a new folder must be placed in the order).
    @Test func everyFolderIsALayer() throws {
        let folders = Set(try Self.read("CertPath").keys.compactMap { $0.split(separator: "/").count > 1 ? String($0.split(separator: "/")[0]) : nil })
        #expect(folders == Set(Self.layers))
    }

    /// The checker finds an upward reference (a type and a function), and none in the allowed direction.
    @Test func checkerReportsASyntheticUpwardReference() {
        let files = [
            "Low/Low.swift": """
            struct LowThing { func run() -> Int { helper(); return 1 } }
            // HighThing in a comment is no reference, nor "HighThing" in a string.
            let text = "\\(HighThing.self)"
            """,
            "High/High.swift": """
            struct HighThing { let low = LowThing() }
            func helper() {}
            private struct Hidden {}
            """,
        ]
        let violations = LayerChecker(layers: ["Low", "High"], files: files, lowerModules: []).violations()
        #expect(violations.map(\.description) == ["Low/Low.swift:1: helper (declared in High)",
                                                  "Low/Low.swift:3: HighThing (declared in High)"])
        #expect(LayerChecker(layers: ["High", "Low"], files: files, lowerModules: []).violations()
            .map(\.description) == ["High/High.swift:1: LowThing (declared in Low)"])
    }

    /// The lexer drops comments and string text, keeps interpolations, and leaves line numbers.
    @Test func lexerKeepsCodeAndLines() {
        let code = LayerChecker.code(of: "a /* b\n c */ d // e\n\"f \\(g(\"h\")) i\" \"\"\"\nj\n\"\"\" k")
        #expect(code.split(separator: "\n", omittingEmptySubsequences: false).count == 5)
        let words = code.split(whereSeparator: { !$0.isLetter })
        #expect(words == ["a", "d", "g", "k"])
    }
}

/// A reference from a file of one layer to a name declared only in higher layers.
struct LayerViolation: CustomStringConvertible {
    let file: String
    let line: Int
    let name: String
    let declaredIn: [String]
    var description: String { "\(file):\(line): \(name) (declared in \(declaredIn.joined(separator: ", ")))" }
}

/// Finds the names each folder declares (types, typealiases, functions at file or type level, not
/// private) and reports uses of a name every declaration of which lies in a higher folder. A
/// function name counts when it is called (followed by `(`) and is no enumeration case name of the
/// modules; a name declared in the file itself (privately too, or as a generic parameter, a
/// constant, a variable or a parameter) or in a
/// lower module is not an upward reference. Syntactic, so it may miss a use through inference (a
/// member called on a value whose type it never names), never invents one from comments or strings.
struct LayerChecker {
    let layers: [String]
    let files: [String: String]
    let lowerModules: [String]

    private static let declaration = try! NSRegularExpression(
        pattern: #"\b(struct|enum|class|actor|protocol|typealias|func)\s+([A-Za-z_][A-Za-z0-9_]*)|[{}]"#)
    private static let typeHeader = try! NSRegularExpression(pattern: #"\b(struct|enum|class|actor|protocol|extension)\b[^=(]*$"#)
    private static let caseName = try! NSRegularExpression(pattern: #"\bcase\s+([A-Za-z_][A-Za-z0-9_]*)"#)
    private static let genericParameter = try! NSRegularExpression(pattern: #"[<,]\s*([A-Z][A-Za-z0-9_]*)\s*:"#)
    private static let localName = try! NSRegularExpression(
        pattern: #"\b(?:let|var)\s+([A-Za-z_][A-Za-z0-9_]*)|[(,]\s*(?:[A-Za-z_][A-Za-z0-9_]*\s+)?([a-z_][A-Za-z0-9_]*)\s*:"#)
    private static let identifier = try! NSRegularExpression(pattern: #"[A-Za-z_][A-Za-z0-9_]*"#)

    /// `source` without comments and the text of string literals (interpolations kept), with its newlines.
    static func code(of source: String) -> String {
        let s = Array(source.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        var strings: [String] = []  // open literal delimiters
        var parens: [Int] = []  // open interpolations' parenthesis depth
        func at(_ text: String) -> Bool {
            let t = Array(text.unicodeScalars)
            return i + t.count <= s.count && Array(s[i..<i + t.count]) == t
        }
        while i < s.count {
            let c = s[i]
            if strings.count == parens.count {  // code
                if at("//") {
                    while i < s.count && s[i] != "\n" { i += 1 }
                } else if at("/*") {
                    var depth = 0
                    repeat {
                        if at("/*") { depth += 1; i += 2 } else if at("*/") { depth -= 1; i += 2 } else {
                            if s[i] == "\n" { out.append("\n") }
                            i += 1
                        }
                    } while depth > 0 && i < s.count
                } else if at("\"\"\"") || c == "\"" {
                    let delimiter = at("\"\"\"") ? "\"\"\"" : "\""
                    strings.append(delimiter)
                    i += delimiter.count
                    out.append(" ")
                } else {
                    if c == "(" && !parens.isEmpty { parens[parens.count - 1] += 1 }
                    if c == ")" && !parens.isEmpty {
                        if parens[parens.count - 1] == 0 { parens.removeLast(); i += 1; continue }
                        parens[parens.count - 1] -= 1
                    }
                    out.append(c)
                    i += 1
                }
            } else {  // inside a string literal
                if c == "\\" && i + 1 < s.count && s[i + 1] == "(" {
                    parens.append(0)
                    out.append(" ")
                    i += 2
                } else if c == "\\" {
                    i += 2
                } else if at(strings[strings.count - 1]) {
                    i += strings.removeLast().count
                } else {
                    if c == "\n" { out.append("\n") }
                    i += 1
                }
            }
        }
        return String(out)
    }

    private static func matches(_ regex: NSRegularExpression, _ text: String) -> [NSTextCheckingResult] {
        regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
    }

    /// The non-private types and functions declared at file or type level (`visibleOnly`), or every
    /// name declared anywhere in the file with its generic parameters, constants, variables and
    /// parameters (`visibleOnly == false`), with kinds.
    static func declarations(in code: String, visibleOnly: Bool) -> [(kind: String, name: String)] {
        let text = code as NSString
        var result: [(String, String)] = []
        var typeBodies: [Bool] = []
        var last = 0
        for match in matches(declaration, code) {
            let token = text.substring(with: match.range)
            if token == "{" {
                let header = text.substring(with: NSRange(location: last, length: match.range.location - last))
                typeBodies.append(!matches(typeHeader, header).isEmpty)
                last = match.range.location + 1
            } else if token == "}" {
                _ = typeBodies.popLast()
                last = match.range.location + 1
            } else {
                let kind = text.substring(with: match.range(at: 1)), name = text.substring(with: match.range(at: 2))
                if visibleOnly {
                    guard typeBodies.allSatisfy({ $0 }) else { continue }
                    let lineStart = text.range(of: "\n", options: .backwards, range: NSRange(location: 0, length: match.range.location))
                    let start = lineStart.location == NSNotFound ? 0 : lineStart.location + 1
                    if text.substring(with: NSRange(location: start, length: match.range.location - start)).contains("private") { continue }
                }
                result.append((kind, name))
            }
        }
        if !visibleOnly {
            result += matches(genericParameter, code).map { ("generic", text.substring(with: $0.range(at: 1))) }
            result += matches(localName, code).map { match in
                ("local", text.substring(with: match.range(at: match.range(at: 1).location == NSNotFound ? 2 : 1)))
            }
        }
        return result
    }

    private func layer(of file: String) -> Int {
        let parts = file.split(separator: "/")
        guard parts.count > 1 else { return layers.count }  // the module's root files: above all
        return layers.firstIndex(of: String(parts[0])) ?? layers.count
    }

    func violations() -> [LayerViolation] {
        let code = files.mapValues(Self.code(of:))
        var declaredIn: [String: Set<Int>] = [:]
        var kinds: [String: Set<String>] = [:]
        for (file, text) in code {
            for (kind, name) in Self.declarations(in: text, visibleOnly: true) {
                declaredIn[name, default: []].insert(layer(of: file))
                kinds[name, default: []].insert(kind)
            }
        }
        let lowerCode = lowerModules.map(Self.code(of:))
        let lowerNames = Set(lowerCode.flatMap { Self.declarations(in: $0, visibleOnly: true).map(\.name) })
        let caseNames = Set((lowerCode + Array(code.values)).flatMap { text in
            Self.matches(Self.caseName, text).map { (text as NSString).substring(with: $0.range(at: 1)) }
        })
        var violations: [LayerViolation] = []
        for (file, text) in code.sorted(by: { $0.key < $1.key }) {
            let own = layer(of: file)
            let local = Set(Self.declarations(in: text, visibleOnly: false).map(\.name))
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line), ns = line as NSString
                var reported = Set<String>()
                for match in Self.matches(Self.identifier, line) {
                    let name = ns.substring(with: match.range)
                    guard let layers = declaredIn[name], layers.allSatisfy({ $0 > own }), !local.contains(name),
                          !lowerNames.contains(name), !reported.contains(name) else { continue }
                    if kinds[name] == ["func"] {
                        let end = match.range.location + match.range.length
                        guard !caseNames.contains(name), end < ns.length, ns.substring(with: NSRange(location: end, length: 1)) == "(" else { continue }
                    }
                    reported.insert(name)
                    violations.append(LayerViolation(file: file, line: number + 1, name: name,
                                                     declaredIn: layers.sorted().map { $0 < self.layers.count ? self.layers[$0] : "(root)" }))
                }
            }
        }
        return violations
    }
}
