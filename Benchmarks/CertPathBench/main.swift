// certpath-bench: CertPath's hot paths measured against the libcrypto floor in the same process.
//
//   swift run -c release certpath-bench [--json FILE] [--markdown] [--runs N] [--seconds S] [--filter TEXT]... [--iterations N]
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
    let settings: [String: Double]
    let notes: [String]
    let results: [Result]
}

func usage() -> Never {
    print("""
    usage: certpath-bench [--json FILE] [--markdown] [--runs N] [--seconds S] [--filter TEXT]... [--iterations N]
      --json FILE    also write the results as JSON
      --markdown     also print the results as a Markdown table
      --runs N       timed runs per scenario (default 15)
      --seconds S    duration of one run (default 0.04)
      --filter TEXT  only scenarios whose name contains TEXT (repeatable)
      --iterations N fixed iterations per run instead of calibrating (for profiling with valgrind)
    """)
    exit(2)
}

var settings = Settings()
var jsonPath: String? = nil
var markdown = false
var filter: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--json": guard let value = arguments.popFirst() else { usage() }; jsonPath = value
    case "--markdown": markdown = true
    case "--runs": guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else { usage() }; settings.runs = value
    case "--seconds": guard let value = arguments.popFirst().flatMap({ Double($0) }), value > 0 else { usage() }; settings.runSeconds = value
    case "--iterations": guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else { usage() }; settings.fixedIterations = value
    case "--filter": guard let value = arguments.popFirst() else { usage() }; filter.append(value)
    default: usage()
    }
}

/// The package root: three levels above this file.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

let loadAverage = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
    .split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "?"
#if DEBUG
print("warning: debug build; run with `swift run -c release certpath-bench`")
#endif
print("certpath-bench: \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage)")
print("runs per scenario: \(settings.runs) × \(settings.runSeconds) s; µs per operation; ratio = median / floor median (alternating runs)")
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

let missed = benchmark.results.filter { $0.targetMet == false }.map(\.name)
print(missed.isEmpty ? "all targets met" : "targets missed: \(missed.joined(separator: ", "))")
if markdown { print(Report.markdown(benchmark.results)) }
if let jsonPath {
    let formatter = ISO8601DateFormatter()
    let output = Output(date: formatter.string(from: Date()),
                        machine: ["cpu": cpu, "cores": "\(ProcessInfo.processInfo.activeProcessorCount)", "loadAverage": loadAverage],
                        settings: ["runs": Double(settings.runs), "runSeconds": settings.runSeconds],
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
