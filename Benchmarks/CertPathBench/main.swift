// certpath-bench: CertPath's hot paths measured against the libcrypto floor in the same process.
//
//   swift run -c release --package-path Benchmarks certpath-bench [--json FILE] [--markdown] [--runs N] [--seconds S] [--filter TEXT]... [--iterations N]
//
// See Benchmarks/README.md for the scenarios, the targets and a current table.
import CBenchSupport
import CertPath
import Foundation

enum Report {
    static func format(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }

    /// µs with a precision that suits the magnitude.
    static func micros(_ value: Double) -> String {
        value < 10 ? format(value, 3) : value < 1000 ? format(value, 1) : format(value, 0)
    }

    static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let count = text.count
        guard count < width else { return text }
        let padding = String(repeating: " ", count: width - count)
        return left ? text + padding : padding + text
    }

    static func printHeader() {
        print(pad("scenario", 62, left: true) + pad("median µs", 11) + pad("±IQR", 7) + pad("min µs", 10) + pad("ops/s", 10)
              + pad("allocs/op", 10) + pad("× floor", 9) + "  target")
    }

    static func printRow(_ result: Result) {
        let stats = result.microseconds
        var line = pad(result.name, 62, left: true) + pad(micros(stats.median), 11) + pad(format(stats.spreadPercent, 1) + "%", 7)
        line += pad(micros(stats.min), 10) + pad(format(result.operationsPerSecond, 0), 10)
        line += pad(result.allocationsPerOperation.map { format($0, 1) } ?? "–", 10)
        if let ratio = result.ratioToFloor {
            line += pad(format(ratio, 3), 9)
        } else if let ratio = result.throughputRatio {
            line += pad("×\(format(ratio, 2)) tp", 9)
        } else {
            line += pad("–", 9)
        }
        if let target = result.target {
            line += "  \(target) " + (result.targetMet == true ? "✓" : "✗ MISSED")
        }
        print(line)
    }

    /// The results as a Markdown table (for Benchmarks/README.md).
    static func markdown(_ results: [Result]) -> String {
        var out = "| scenario | median µs | ±IQR | ops/s | allocs/op | × floor | target |\n|---|--:|--:|--:|--:|--:|---|\n"
        for result in results {
            let stats = result.microseconds
            let ratio = result.ratioToFloor.map { format($0, 3) } ?? result.throughputRatio.map { "×\(format($0, 2)) throughput" } ?? ""
            let target = result.target.map { "\($0) " + (result.targetMet == true ? "✓" : "✗") } ?? ""
            out += "| `\(result.name)` | \(micros(stats.median)) | \(format(stats.spreadPercent, 1))% | \(format(result.operationsPerSecond, 0)) | "
            out += "\(result.allocationsPerOperation.map { format($0, 1) } ?? "") | \(ratio) | \(target) |\n"
        }
        return out
    }
}

struct Output: Encodable {
    let tool = "certpath-bench"
    let date: String
    let machine: [String: String]
    let settings: Settings
    /// The options the run was made with.
    struct Settings: Encodable {
        let runs: Int
        let runSeconds: Double
        let iterations: Int?
        let filters: [String]
    }
    let notes: [String]
    let results: [Result]
}

let usageText = """
usage: certpath-bench [--json FILE] [--markdown] [--runs N] [--seconds S] [--filter TEXT]... [--iterations N]
  --json FILE    also write the results as JSON (FILE is checked before anything runs)
  --markdown     also print the results as a Markdown table
  --runs N       timed runs per scenario (default 15; see Benchmarks/README.md for the scenarios that use fewer)
  --seconds S    target duration of one run, 0 < S ≤ 60 (default 0.04)
  --filter TEXT  only scenarios whose name contains TEXT, or is TEXT without a final "$" (repeatable: any of them)
  --iterations N fixed iterations per run instead of calibrating (for profiling)
  --help, -h     this text
"""

/// Refuses the command line: says what is wrong, then the usage, on standard error; exit status 2.
func refuse(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("certpath-bench: \(problem)\n\(usageText)\n".utf8))
    exit(2)
}

var settings = Settings()
var jsonPath: String? = nil
var markdown = false
var filter: [String] = []
var arguments = CommandLine.arguments.dropFirst()
@MainActor func value(of option: String) -> String {
    guard let value = arguments.popFirst() else { refuse("\(option) needs a value") }
    return value
}
@MainActor func positiveCount(of option: String) -> Int {
    let text = value(of: option)
    guard let count = Int(text), count > 0 else { refuse("\(option) \(text): expected a whole number above 0") }
    return count
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--help", "-h":
        print(usageText)
        exit(0)
    case "--json": jsonPath = value(of: argument)
    case "--markdown": markdown = true
    case "--runs": settings.runs = positiveCount(of: argument)
    case "--seconds":
        let text = value(of: argument)
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 60 else {
            refuse("--seconds \(text): expected a number of seconds above 0, at most 60")
        }
        settings.runSeconds = seconds
    case "--iterations": settings.fixedIterations = positiveCount(of: argument)
    case "--filter":
        let text = value(of: argument)
        guard !text.isEmpty else { refuse("--filter needs some text (an empty filter would select everything)") }
        filter.append(text)
    default: refuse("unknown argument \(argument)")
    }
}

// The JSON file is checked before the run, not after it: a new file in an existing folder, or a
// regular file to replace.
if let jsonPath {
    guard !jsonPath.isEmpty, !jsonPath.hasSuffix("/") else { refuse("--json \"\(jsonPath)\": expected the path of a file") }
    let url = URL(fileURLWithPath: jsonPath)
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: jsonPath, isDirectory: &isDirectory) {
        guard !isDirectory.boolValue, FileManager.default.isWritableFile(atPath: jsonPath) else {
            refuse("--json \(jsonPath): not a writable file")
        }
    } else {
        let folder = url.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue,
              FileManager.default.isWritableFile(atPath: folder) else {
            refuse("--json \(jsonPath): the folder \(folder) does not exist or cannot be written")
        }
    }
}

/// The package root: three levels above this file.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

let loadAverage = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
    .split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "?"
#if DEBUG
print("warning: debug build; run with `swift run -c release --package-path Benchmarks certpath-bench`")
#endif
print("certpath-bench: \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage)")
if let iterations = settings.fixedIterations {
    print("runs per scenario: \(settings.runs) × \(iterations) iterations; µs per operation; ratio = median / floor median (alternating runs)")
} else {
    print("runs per scenario: \(settings.runs) × \(settings.runSeconds) s; µs per operation; ratio = median / floor median (alternating runs)")
}
if !filter.isEmpty { print("filters: \(filter.joined(separator: ", "))") }
if cmc_is_active() == 0 { print("warning: the malloc counter is not active; allocation counts are 0") }

let benchmark: Benchmark
do {
    benchmark = Benchmark(settings: settings, inputs: try Inputs(root: packageRoot), filter: filter)
} catch {
    print("cannot read the inputs under \(packageRoot.path)/TestVectors/bench: \(error)")
    exit(1)
}
Report.printHeader()
do {
    try benchmark.runAll()
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}

if benchmark.results.isEmpty {
    FileHandle.standardError.write(Data("certpath-bench: no scenario matches \(filter.map { "--filter \($0)" }.joined(separator: " "))\n".utf8))
    exit(2)
}
let missed = benchmark.results.filter { $0.targetMet == false }.map(\.name)
print(missed.isEmpty ? "all targets met" : "targets missed: \(missed.joined(separator: ", "))")
if markdown { print(Report.markdown(benchmark.results)) }
if let jsonPath {
    let formatter = ISO8601DateFormatter()
    let output = Output(date: formatter.string(from: Date()),
                        machine: ["cpu": cpu, "cores": "\(ProcessInfo.processInfo.activeProcessorCount)", "loadAverage": loadAverage],
                        settings: Output.Settings(runs: settings.runs, runSeconds: settings.runSeconds,
                                                  iterations: settings.fixedIterations, filters: filter),
                        notes: benchmark.notes, results: benchmark.results)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
        try encoder.encode(output).write(to: URL(fileURLWithPath: jsonPath))
        print("wrote \(jsonPath)")
    } catch {
        print("cannot write \(jsonPath): \(error)")
        exit(1)
    }
}
