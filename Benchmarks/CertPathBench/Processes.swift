import CertPath
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Process-level scenarios (issue 32): the `certpath` executable built beside this one (`swift build
/// -c release` builds both) against `openssl verify`, and `certpath batch` against the signature
/// floor, each a whole process as a script runs it.
///
/// - `process/verify-one-chain`: `certpath verify server.pem --intermediates intermediate.pem
///   --anchors root.pem --server server.customer1.example` (TestVectors/sample-pki/rsa) against
///   `openssl verify -CAfile root.pem -untrusted intermediate.pem server.pem`, in alternating runs
///   (paired); µs of wall time per process, CPU time (`wait4`), and peak resident memory (GNU
///   time's `%M`, five runs each).
/// - `process/batch-rsa-2048-1-core`, `…-2-cores`: `certpath batch --anchors root.pem` over 5,000
///   JSON lines (100 RSA-2048 leaves made here with the `openssl` CLI under the sample intermediate,
///   each line PEM leaf + intermediate with a name), pinned by `taskset` to one CPU or two. The
///   1-core row is CPU µs per chain (the child's user + system time from `wait4`, process start
///   included) against the floor of the same chain (its two `EVP_DigestVerify`, keys loaded) in
///   this thread's CPU time, measured in the same alternation: CPU time, because on a shared VM
///   wall time swings by 2-3 ×. The 2-core row is wall µs per chain; its ratio is its throughput
///   over one core's (wall), which needs two idle CPUs to mean anything.
/// - `process/batch-memory`: peak resident memory of `batch` over 5,000 and 20,000 lines (it must not grow).
extension Benchmark {
    func processes() throws {
        let verifyName = "process/verify-one-chain"
        let batchNames = ["process/batch-rsa-2048-1-core", "process/batch-rsa-2048-2-cores", "process/batch-memory"]
        guard selected(verifyName) || batchNames.contains(where: selected) else { return }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("certpath").path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            note("process/*: \(executable) is missing; build it first (swift build -c release)")
            return
        }
        guard let openssl = Self.which("openssl") else {
            note("process/*: the openssl CLI is not on PATH")
            return
        }
        let pki = inputs.root.appendingPathComponent("TestVectors/sample-pki/rsa").path
        let pairs = max(7, settings.runs)
        if selected(verifyName) {
            let certpathVerify = [executable, "verify", "\(pki)/server.pem", "--intermediates", "\(pki)/intermediate.pem",
                                  "--anchors", "\(pki)/root.pem", "--server", "server.customer1.example"]
            let opensslVerify = [openssl, "verify", "-CAfile", "\(pki)/root.pem", "-untrusted", "\(pki)/intermediate.pem", "\(pki)/server.pem"]
            for _ in 0..<2 { _ = try Self.spawn(certpathVerify); _ = try Self.spawn(opensslVerify) }  // page cache, loader
            var ours: [ChildRun] = [], theirs: [ChildRun] = []
            for _ in 0..<pairs {
                ours.append(try Self.spawn(certpathVerify))
                theirs.append(try Self.spawn(opensslVerify))
            }
            guard ours.allSatisfy({ $0.status == 0 }), theirs.allSatisfy({ $0.status == 0 }) else {
                note("\(verifyName): a run did not exit 0 (certpath \(ours.map(\.status)), openssl \(theirs.map(\.status)))")
                return
            }
            let wall = Statistics(ours.map { $0.seconds * 1e6 }), floorWall = Statistics(theirs.map { $0.seconds * 1e6 })
            let cpu = Statistics(ours.map { $0.cpuSeconds * 1e6 }), floorCPU = Statistics(theirs.map { $0.cpuSeconds * 1e6 })
            let scratch = FileManager.default.temporaryDirectory.path
            var memory: [Double] = [], floorMemory: [Double] = []
            for _ in 0..<5 {
                if let ours = try Self.peakMemory(certpathVerify, scratch: scratch), let theirs = try Self.peakMemory(opensslVerify, scratch: scratch) {
                    memory.append(Double(ours))
                    floorMemory.append(Double(theirs))
                }
            }
            let wallRatio = wall.median / floorWall.median
            let memoryRatio = memory.isEmpty ? Double.nan : Statistics(memory).median / Statistics(floorMemory).median
            note(String(format: "%@: CPU (user + system) %.0f µs against openssl verify's %.0f µs (%.2f ×)",
                        verifyName, cpu.median, floorCPU.median, cpu.median / floorCPU.median))
            if memory.isEmpty {
                note("\(verifyName): /usr/bin/time (GNU time) is missing: peak memory not measured")
            } else {
                note(String(format: "%@: peak memory %.0f KiB against openssl verify's %.0f KiB (%.2f ×, target ≤ 1.5 ×)",
                            verifyName, Statistics(memory).median, Statistics(floorMemory).median, memoryRatio))
            }
            record(Result(name: verifyName,
                          operation: "certpath verify of the sample RSA chain, one process (wall µs)",
                          iterations: 1, microseconds: wall, operationsPerSecond: 1e6 / wall.median, allocationsPerOperation: nil,
                          floor: "openssl verify", floorMicroseconds: floorWall.median, ratioToFloor: wallRatio, throughputRatio: nil,
                          target: "≤ 1.0 × openssl verify wall, ≤ 1.5 × its peak memory",
                          targetMet: wallRatio <= 1.0 && memoryRatio <= 1.5))
        }
        guard batchNames.contains(where: selected) else { return }
        guard let taskset = Self.which("taskset") else {
            note("process/batch-*: taskset (util-linux) is not on PATH")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("certpath-bench-process-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = try Self.batchCorpus(openssl: openssl, pki: pki, in: directory.path, lines: 5000)
        func certificate(_ path: String) throws -> Certificate {
            try PEM.readCertificates(Array(FileManager.default.contents(atPath: path) ?? Data())).certificates[0]
        }
        let leaf = try certificate(corpus.firstLeaf)
        let intermediate = try certificate("\(pki)/intermediate.pem"), root = try certificate("\(pki)/root.pem")
        let floor = SignatureFloor([(leaf, intermediate), (intermediate, root)])
        let batch = [executable, "batch", "--anchors", "\(pki)/root.pem"]
        var oneCore: [Double] = [], twoCores: [Double] = [], floors: [Double] = [], oneCoreCPU: [Double] = []
        _ = try Self.spawn([taskset, "-c", "0,1"] + batch, input: corpus.path)
        for _ in 0..<max(5, pairs / 2) {
            let one = try Self.spawn([taskset, "-c", "0"] + batch, input: corpus.path)
            let two = try Self.spawn([taskset, "-c", "0,1"] + batch, input: corpus.path)
            guard one.status == 0, two.status == 0 else {
                note("process/batch-*: certpath batch exited \(one.status), \(two.status) (expected 0: every line trusted)")
                return
            }
            oneCore.append(one.seconds * 1e6 / Double(corpus.lines))
            oneCoreCPU.append(one.cpuSeconds * 1e6 / Double(corpus.lines))
            twoCores.append(two.seconds * 1e6 / Double(corpus.lines))
            // The floor in CPU time of this thread, comparable with the child's CPU time whatever
            // else the machine runs (wall time on a shared VM swings by 2-3 ×).
            let iterations = 500
            let start = Self.threadCPUNanoseconds()
            for _ in 0..<iterations { consume(floor.run()) }
            floors.append(Double(Self.threadCPUNanoseconds() - start) / 1e3 / Double(iterations))
        }
        let one = Statistics(oneCore), two = Statistics(twoCores), floorStats = Statistics(floors), oneCPU = Statistics(oneCoreCPU)
        note(String(format: "process/batch-rsa-2048-1-core: wall %.1f µs a chain (machine load included); CPU %.1f µs against the floor's %.1f µs CPU",
                    one.median, oneCPU.median, floorStats.median))
        if selected(batchNames[0]) {
            let ratio = oneCPU.median / floorStats.median
            record(Result(name: batchNames[0],
                          operation: "certpath batch, 5,000 lines (PEM leaf + intermediate, name) on one CPU; CPU µs per chain (user + system, process start included)",
                          iterations: corpus.lines, microseconds: oneCPU, operationsPerSecond: 1e6 / oneCPU.median, allocationsPerOperation: nil,
                          floor: "floor/sample-rsa-2048 (thread CPU time)", floorMicroseconds: floorStats.median, ratioToFloor: ratio,
                          throughputRatio: nil, target: "≤ 1.5 × floor", targetMet: ratio <= 1.5))
        }
        if selected(batchNames[1]) {
            let scaling = one.median / two.median
            record(Result(name: batchNames[1], operation: "the same on two CPUs; µs per chain (wall / lines)",
                          iterations: corpus.lines, microseconds: two, operationsPerSecond: 1e6 / two.median, allocationsPerOperation: nil,
                          floor: nil, floorMicroseconds: nil, ratioToFloor: nil,
                          throughputRatio: scaling, target: "≥ 1.8 × one core's throughput", targetMet: scaling >= 1.8))
        }
        if selected(batchNames[2]) {
            let long = directory.appendingPathComponent("corpus-20000.jsonl").path
            let text = try Data(contentsOf: URL(fileURLWithPath: corpus.path))
            try Data(repeating: 0, count: 0).write(to: URL(fileURLWithPath: long))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: long))
            for _ in 0..<4 { handle.write(text) }
            try handle.close()
            guard let short = try Self.peakMemory(batch, input: corpus.path, scratch: directory.path),
                  let longPeak = try Self.peakMemory(batch, input: long, scratch: directory.path) else {
                note("\(batchNames[2]): /usr/bin/time (GNU time) is missing: peak memory not measured")
                return
            }
            let growth = Double(longPeak) / Double(short)
            note(String(format: "%@: peak %d KiB over 5,000 lines, %d KiB over 20,000 (%.2f ×, target ≤ 1.1 ×: flat)",
                        batchNames[2], short, longPeak, growth))
            record(Result(name: batchNames[2], operation: "certpath batch peak memory, 20,000 lines over 5,000 (KiB as µs column)",
                          iterations: 20000, microseconds: Statistics([Double(longPeak)]), operationsPerSecond: 0,
                          allocationsPerOperation: nil, floor: "5,000 lines", floorMicroseconds: Double(short),
                          ratioToFloor: growth, throughputRatio: nil, target: "≤ 1.1 × (flat)", targetMet: growth <= 1.1))
        }
    }

    /// CPU time of the calling thread, in ns.
    static func threadCPUNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// One child process's wall time, peak resident memory and exit status.
    struct ChildRun {
        let seconds: Double
        /// User + system CPU seconds of the child (from `wait4`).
        let cpuSeconds: Double
        let status: Int32
    }

    /// Runs `arguments` (an absolute executable path first) with standard input from `input` (or
    /// /dev/null) and standard output and error to /dev/null; waits with `wait4` for its rusage.
    static func spawn(_ arguments: [String], input: String = "/dev/null") throws -> ChildRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let start = nanoseconds()
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard spawned == 0 else { throw NSError(domain: "posix_spawn", code: Int(spawned)) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Double(nanoseconds() - start) / 1e9
        let exited = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return ChildRun(seconds: seconds, cpuSeconds: cpu, status: exited)
    }

    /// The peak resident memory (KiB) of `arguments` run under GNU time (`/usr/bin/time -f %M`), or
    /// `nil` without it. Not `wait4`'s own `ru_maxrss`: a child made by posix_spawn (vfork) starts
    /// its high-water mark at this process's resident size, which the kernel carries across exec.
    static func peakMemory(_ arguments: [String], input: String = "/dev/null", scratch: String) throws -> Int? {
        let time = "/usr/bin/time"
        guard FileManager.default.isExecutableFile(atPath: time) else { return nil }
        let report = "\(scratch)/peak-\(getpid())"
        _ = try spawn([time, "-f", "%M", "-o", report] + arguments, input: input)
        defer { unlink(report) }
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The first executable `name` on PATH.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `lines` JSON lines over 100 RSA-2048 leaves (one key, serials 1001–1100, SAN hostN.bench.example)
    /// signed here by the sample intermediate's key with the `openssl` CLI.
    static func batchCorpus(openssl: String, pki: String, in directory: String, lines: Int) throws
        -> (path: String, lines: Int, firstLeaf: String) {
        func run(_ arguments: [String]) throws {
            let result = try spawn([openssl] + arguments)
            guard result.status == 0 else { throw NSError(domain: "openssl \(arguments.first ?? "")", code: Int(result.status)) }
        }
        let csr = "\(directory)/leaf.csr"
        try run(["req", "-new", "-key", "\(pki)/keys/server.key", "-subj", "/CN=leaf.bench.example", "-out", csr])
        let intermediate = try String(contentsOfFile: "\(pki)/intermediate.pem", encoding: .utf8)
        var leaves: [String] = []
        for index in 1...100 {
            let extensions = "\(directory)/ext\(index).cnf", leaf = "\(directory)/leaf\(index).pem"
            try """
                basicConstraints=critical,CA:FALSE
                keyUsage=critical,digitalSignature,keyEncipherment
                extendedKeyUsage=serverAuth
                subjectAltName=DNS:host\(index).bench.example
                subjectKeyIdentifier=hash
                authorityKeyIdentifier=keyid

                """.write(toFile: extensions, atomically: false, encoding: .utf8)
            try run(["x509", "-req", "-in", csr, "-CA", "\(pki)/intermediate.pem", "-CAkey", "\(pki)/keys/intermediate.key",
                     "-set_serial", String(1000 + index), "-days", "3650", "-sha256", "-extfile", extensions, "-out", leaf])
            leaves.append(try String(contentsOfFile: leaf, encoding: .utf8))
        }
        var text = ""
        for index in 0..<lines {
            let object: [String: String] = ["chain": leaves[index % 100] + intermediate, "name": "host\(index % 100 + 1).bench.example"]
            text += String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self) + "\n"
        }
        let path = "\(directory)/corpus-\(lines).jsonl"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return (path, lines, "\(directory)/leaf1.pem")
    }
}
