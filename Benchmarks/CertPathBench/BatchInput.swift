import CertPath
import Foundation

/// `certpath batch` input forms (issue 19): one line's chain as PEM text or as a JSON array of base64
/// DER strings. The array form must cost no more than 1.1 × PEM. Both run the `certpath` executable
/// built beside this one (`swift build -c release --package-path Benchmarks` builds both), on the same 200 lines of 41
/// certificates (the mesh leaf and 40 mesh intermediates, with the unrelated anchor: parsing
/// dominates, the search ends at once), alternating runs; µs are per certificate.
extension Benchmark {
    func batchInput() throws {
        let names = ["batch/41-certificates-pem", "batch/41-certificates-array"]
        guard names.contains(where: selected) else { return }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("certpath")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            note("batch/*: \(executable.path) is missing; build it first (swift build -c release --package-path Benchmarks)")
            return
        }
        let chain = [inputs.meshLeaf] + inputs.meshIntermediates.prefix(40)
        let lines = 200
        let certificates = Double(lines * chain.count)
        func pem(_ certificate: Certificate) -> String {
            let body = Data(certificate.der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            return "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n"
        }
        func line(_ value: Any) throws -> Data {
            try JSONSerialization.data(withJSONObject: ["chain": value, "time": "2026-06-01T00:00:00Z"]) + Data("\n".utf8)
        }
        let pemLine = try line(chain.map(pem).joined())
        let arrayLine = try line(chain.map { Data($0.der).base64EncodedString() })
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("certpath-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let anchor = directory.appendingPathComponent("anchor.pem")
        try Data(pem(inputs.meshAnchor).utf8).write(to: anchor)
        let inputsByName: [(String, URL)] = try [("pem", pemLine), ("array", arrayLine)].map { form, line in
            let file = directory.appendingPathComponent("\(form).jsonl")
            try Data((0..<lines).flatMap { _ in line }).write(to: file)
            return (form, file)
        }
        /// Wall-clock seconds of one `certpath batch` run over `input`.
        func run(_ input: URL) throws -> Double {
            let process = Process()
            process.executableURL = executable
            process.arguments = ["batch", "--anchors", anchor.path]
            process.standardInput = try FileHandle(forReadingFrom: input)
            process.standardOutput = FileHandle.nullDevice
            let start = DispatchTime.now().uptimeNanoseconds
            try process.run()
            process.waitUntilExit()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        var seconds: [String: [Double]] = [:]
        _ = try run(inputsByName[0].1)  // warm the page cache and the dynamic loader
        for _ in 0..<max(3, min(settings.runs, 7)) {
            for (form, file) in inputsByName { seconds[form, default: []].append(try run(file)) }
        }
        let pemStats = Statistics(seconds["pem"]!.map { $0 * 1e6 / certificates })
        for (form, _) in inputsByName {
            let stats = Statistics(seconds[form]!.map { $0 * 1e6 / certificates })
            let isArray = form == "array"
            record(Result(name: "batch/41-certificates-\(form)",
                          operation: "certpath batch: \(lines) lines of a 41-certificate chain as "
                              + (isArray ? "a JSON array of base64 DER strings" : "PEM text") + "; µs per certificate (process start included)",
                          iterations: lines * chain.count, microseconds: stats, operationsPerSecond: 1e6 / stats.median,
                          allocationsPerOperation: nil, floor: isArray ? "batch/41-certificates-pem" : nil,
                          floorMicroseconds: isArray ? pemStats.median : nil, ratioToFloor: isArray ? stats.median / pemStats.median : nil,
                          throughputRatio: nil, target: isArray ? "≤ 1.10 × PEM" : nil,
                          targetMet: isArray ? stats.median <= 1.10 * pemStats.median : nil))
        }
    }
}
