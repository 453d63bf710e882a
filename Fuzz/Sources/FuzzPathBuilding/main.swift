// FuzzPathBuilding: structure-aware. ScenarioGenerator turns the input into a leaf, intermediates and a
// trust store of certificates drawn from small name and key pools (so they chain, cross-sign and loop),
// with random extensions, each signed by a fixed P-256 test key; TrustEvaluation.evaluate() with a small
// Budget must finish within it and never report trusted unless PathInvariants' independent re-check of
// the path agrees.
//
// Extra modes (not libFuzzer):
//   FuzzPathBuilding --dump INPUT...         print each input's scenario (PEM, role labels) and result
//   FuzzPathBuilding --make-seeds DIR COUNT  write up to COUNT inputs with distinct outcomes to DIR
#if canImport(Glibc)
import Glibc
#endif
import CertPath
import FuzzSupport

func outcome(_ result: TrustResult) -> String {
    switch result {
    case .trusted(let path): return "trusted, \(path.certificates.count) certificate(s) to \(path.reachesTrustAnchor ? "\(path.anchor.subject)" : "no anchor")"
    case .untrusted(let report): return "untrusted: \(report.primaryFailure.code)"
    }
}

func failures(_ result: TrustResult) -> String {
    guard case .untrusted(let report) = result else { return "" }
    return report.failures.map { "#   \(Diagnostics.describe($0))\n" }.joined()
}

let arguments = CommandLine.arguments
if arguments.count >= 3 && arguments[1] == "--dump" {
    for path in arguments.dropFirst(2) {
        guard let bytes = readFile(path) else { writeError("cannot read \(path)\n"); exit(1) }
        let scenario = ScenarioGenerator.generate(bytes)
        print("# input \(path)")
        print(scenario.text, terminator: "")
        let result = PathInvariants.check(scenario)
        print("# result: \(outcome(result))")
        print(failures(result))
    }
    exit(0)
}
if arguments.count == 4 && arguments[1] == "--make-seeds" {
    let directory = arguments[2]
    let wanted = Int(arguments[3]) ?? 32
    var generator = SplitMix64(seed: 0x5EED)
    var seen = Set<String>()
    var attempts = 0
    while seen.count < wanted && attempts < 200_000 {
        attempts += 1
        let length = Int(generator.next() % 160) + 8
        let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let scenario = ScenarioGenerator.generate(bytes)
        let result = PathInvariants.check(scenario)
        let key: String
        switch result {
        case .trusted(let path): key = "trusted-\(path.certificates.count)"
        case .untrusted(let report): key = report.primaryFailure.code
        }
        guard seen.insert(key).inserted else { continue }
        writeFile("\(directory)/seed-\(key)", bytes)
        print("\(key): \(outcome(result))")
    }
    exit(0)
}

runFuzzer { bytes in
    PathInvariants.check(ScenarioGenerator.generate(bytes))
}
