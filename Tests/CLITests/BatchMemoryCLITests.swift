import CertPath
@_spi(Fuzzing) import CertPathDER
import Foundation
import Testing

/// `batch` keeps, per process, the certificates of the PEM blocks it read and the JSON members of
/// the certificates it described, so that a corpus repeating its intermediates reads and describes
/// each once. Those memos were bounded by entries only (1,024 and 256), so a corpus of distinct
/// large certificates (lines may be 16 MiB) made them hold gigabytes; they are now bounded by bytes
/// too, and an entry over 128 KiB is not kept at all.
@Suite struct BatchMemoryCLITests {
    /// The sample intermediate with one more, unknown extension of `size` bytes starting with `index`:
    /// a distinct certificate (its signature no longer verifies, which does not matter here).
    static func largeVariant(of der: [UInt8], index: Int, size: Int) throws -> [UInt8] {
        let certificate = try DERNode.parse(der)
        guard case .constructed(var parts) = certificate.content, case .constructed(var tbs) = parts[0].content,
              case .constructed(let explicit) = tbs[tbs.count - 1].content, case .constructed(var extensions) = explicit[0].content
        else { throw CLIError.unexpectedStructure }
        var value = [UInt8](repeating: 0, count: size)
        withUnsafeBytes(of: UInt64(index).bigEndian) { value.replaceSubrange(0..<8, with: $0) }
        var writer = DERWriter()
        writer.append(.sequence) { item in
            item.append(.objectIdentifier, contents: [0x2A, 0x03, 0x04, 0x05])  // 1.2.3.4.5
            item.append(.octetString, contents: value)
        }
        extensions.append(try DERNode.parse(writer.bytes))
        tbs[tbs.count - 1] = DERNode(tag: tbs[tbs.count - 1].tag, content: .constructed([DERNode(tag: explicit[0].tag, content: .constructed(extensions))]))
        parts[0] = DERNode(tag: parts[0].tag, content: .constructed(tbs))
        var out = DERWriter()
        out.append(DERNode(tag: certificate.tag, content: .constructed(parts)))
        return out.bytes
    }

    enum CLIError: Error { case unexpectedStructure }

    static func pem(_ der: [UInt8]) -> String {
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
    }

    /// 250 lines, each the sample leaf and a distinct 200 KiB "intermediate": the old memos kept every
    /// one of them (PEM text, DER and JSON key: about 0.7 MB a line; a peak of 116 MB for 150 lines,
    /// about 185 MB for 250); now the peak (the child's maximum resident set, by Python's `resource`)
    /// is what the pipeline's chunks hold, 68 MB in a debug build. Measured on an uninstrumented
    /// `certpath` (``CLI/uninstrumentedExecutable``: a sanitized build's peak memory, shadow memory
    /// and quarantine, says nothing of the bound); skipped in a sanitized run given none.
    @Test(.disabled(if: CLI.uninstrumentedExecutable == nil,
                    "a sanitized certpath's peak memory says nothing of the bound, and no uninstrumented one is given"))
    func distinctLargeCertificatesAreNotKept() throws {
        let certpath = try #require(CLI.uninstrumentedExecutable)
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let leaf = try String(contentsOf: CLI.samplePKI.appendingPathComponent("rsa/server.pem"), encoding: .utf8)
        let intermediate = try #require(try CLI.certificates("rsa/intermediate.pem").first).der
        var corpus = Data()
        for index in 0..<250 {
            let chain = leaf + Self.pem(try Self.largeVariant(of: intermediate, index: index, size: 200 << 10))
            corpus += try JSONSerialization.data(withJSONObject: ["chain": chain, "name": "server.customer1.example"])
            corpus += Data("\n".utf8)
        }
        let input = directory.appendingPathComponent("corpus.jsonl")
        try corpus.write(to: input)
        let measure = """
            import resource, subprocess, sys
            with open(sys.argv[2], "rb") as corpus:
                run = subprocess.run([sys.argv[1], "batch", "--anchors", sys.argv[3], "--jobs", "2"], stdin=corpus,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            print(run.returncode, run.stdout.count(b"\\n"), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", measure, certpath.path, input.path, CLI.samplePKI.appendingPathComponent("rsa/root.pem").path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = text.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(fields.count == 3, "\(text)")
        #expect(fields[0] == 1, "exit status \(fields[0]): every line untrusted (the variants' signatures do not verify)")
        #expect(fields[1] == 250, "one result line per input line")
        #expect(fields[2] < 110_000, "peak \(fields[2]) KiB")  // KiB
    }
}
