import Foundation
import Testing

/// Every ```swift block of README.md and of the DocC catalog (Sources/CertPath/CertPath.docc/*.md)
/// must appear verbatim in the Swift sources of this target, where it is compiled (and, mostly,
/// run against TestVectors/sample-pki). A snippet edited in the documentation but not here, or
/// here but not in the documentation, fails this test.
///
/// The rules:
/// - Lines are compared after removing their leading and trailing whitespace (a block indented in
///   the documentation may sit inside a function here); blank lines count, as blank.
/// - `import` lines of a block are not looked for in place (imports cannot stand inside a function):
///   the module each imports must be imported by the source file that holds the rest of the block
///   (a comment after it does not count).
/// - Only blocks fenced ```swift are checked. Code that cannot compile by nature (a Package.swift
///   fragment, a schematic with `...` placeholders) is fenced ```swift-manifest, ```text or another
///   language, and is not.
@Suite struct SnippetTests {
    /// The documents whose ```swift blocks are checked, relative to the repository root.
    static func documents() throws -> [String] {
        let catalog = "Sources/CertPath/CertPath.docc"
        let articles = try FileManager.default.contentsOfDirectory(atPath: Repository.root.appendingPathComponent(catalog).path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        return ["README.md"] + articles
    }

    /// The ```swift blocks of `markdown`, each with the line its fence opens on.
    static func swiftBlocks(_ markdown: String) -> [(line: Int, lines: [String])] {
        var blocks: [(line: Int, lines: [String])] = []
        var current: (line: Int, lines: [String])? = nil
        var fence: String? = nil   // the fence of the block we are in, swift or not
        for (index, raw) in markdown.components(separatedBy: "\n").enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if let open = fence {
                if line == open {
                    if let block = current { blocks.append(block) }
                    current = nil
                    fence = nil
                } else {
                    current?.lines.append(raw)
                }
                continue
            }
            guard line.hasPrefix("```") else { continue }
            let marker = String(line.prefix { $0 == "`" })
            let info = line.dropFirst(marker.count).trimmingCharacters(in: .whitespaces)
            fence = marker
            current = info == "swift" ? (index + 1, []) : nil
        }
        return blocks
    }

    /// A line as compared: without leading and trailing whitespace.
    static func normalized(_ line: String) -> String { line.trimmingCharacters(in: .whitespaces) }

    /// The module an `import` line imports (`import CertPathTLS   // why` → `CertPathTLS`), or `nil`.
    static func importedModule(_ line: String) -> String? {
        guard line.hasPrefix("import ") else { return nil }
        let code = line.components(separatedBy: "//")[0]
        return code.dropFirst("import ".count).trimmingCharacters(in: .whitespaces)
    }

    /// The Swift sources of this target: name, normalized lines, and the modules each imports.
    static func sources() throws -> [(name: String, lines: [String], imports: Set<String>)] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted().map { name in
            let lines = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                .components(separatedBy: "\n").map(normalized)
            return (name, lines, Set(lines.compactMap(importedModule)))
        }
    }

    /// Whether `block` occurs in `lines` as consecutive lines.
    static func contains(_ lines: [String], _ block: [String]) -> Bool {
        guard !block.isEmpty, block.count <= lines.count else { return block.isEmpty }
        return (0...(lines.count - block.count)).contains { start in
            lines[start] == block[0] && Array(lines[start..<start + block.count]) == block
        }
    }

    @Test("every ```swift block of README.md and the DocC articles is compiled code of DocumentationTests")
    func everySwiftBlockIsCompiled() throws {
        let sources = try Self.sources()
        var checked = 0
        for document in try Self.documents() {
            let text = try String(contentsOf: Repository.root.appendingPathComponent(document), encoding: .utf8)
            for block in Self.swiftBlocks(text) {
                checked += 1
                let lines = block.lines.map(Self.normalized)
                let imports = Set(lines.compactMap(Self.importedModule))
                var body = lines.filter { !$0.hasPrefix("import ") }
                while body.first == "" { body.removeFirst() }
                while body.last == "" { body.removeLast() }
                let holder = sources.first { Self.contains($0.lines, body) && imports.isSubset(of: $0.imports) }
                #expect(holder != nil, """
                    \(document):\(block.line): this ```swift block is not in Tests/DocumentationTests (verbatim, up to \
                    indentation, with its imports in the same file); update the test code with the snippet, or fence \
                    it ```swift-manifest or ```text if it cannot compile:
                    \(block.lines.joined(separator: "\n"))
                    """)
            }
        }
        #expect(checked >= 10, "found only \(checked) ```swift blocks: is the repository root right (\(Repository.root.path))?")
    }

    @Test("the block reader: swift blocks only, other fences skipped, nested backticks inside other fences ignored")
    func blockReader() {
        let markdown = """
            text
            ```swift
              let a = 1
            ```
            ```swift-manifest
            .package(path: "..")
            ```
            ````text
            ```swift
            not code
            ```
            ````
            ```swift
            let b = 2
            ```
            """
        let blocks = Self.swiftBlocks(markdown)
        #expect(blocks.map(\.line) == [2, 13])
        #expect(blocks.map { $0.lines.map(Self.normalized) } == [["let a = 1"], ["let b = 2"]])
        #expect(Self.contains(["x", "let a = 1", "y"], ["let a = 1", "y"]))
        #expect(!Self.contains(["let a = 1", "x", "y"], ["let a = 1", "y"]))
    }
}
