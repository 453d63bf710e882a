import Foundation
import Testing

/// `certpath batch`'s worker threads (BatchPipeline): lines are taken one at a time across chunk
/// boundaries, and results are written in input order whatever the number of threads.
@Suite("batch: the same output on any number of threads")
struct BatchPipelineCLITests {
    /// 700 lines (several chunks of 64 lines a thread for every `--jobs` below) cycling through a
    /// trusted chain, a wrong name (untrusted), a line that is not JSON and an empty chain (errors).
    func corpus() throws -> (text: String, kinds: [String]) {
        let pem = try String(contentsOf: CLI.samplePKI.appendingPathComponent("rsa/server-chain.pem"), encoding: .utf8)
        let chain = String(decoding: try JSONSerialization.data(withJSONObject: [pem]), as: UTF8.self).dropFirst().dropLast()
        let variants: [(line: String, status: String)] = [
            (#"{"chain": \#(chain), "name": "server.customer1.example"}"#, "trusted"),
            (#"{"chain": \#(chain), "name": "www.customer2.example"}"#, "untrusted"),
            (#"{"chain": not json"#, "error"),
            (#"{"chain": []}"#, "error"),
        ]
        let picks = (0..<700).map { ($0 * 7 + $0 / 5) % variants.count }
        return (picks.map { variants[$0].line }.joined(separator: "\n") + "\n", picks.map { variants[$0].status })
    }

    @Test("--jobs 1, 2, 3 and 8 write the same lines, numbered 1 to 700 in input order, each with its line's status")
    func sameOutputOnAnyNumberOfThreads() throws {
        let (text, kinds) = try corpus()
        var outputs: [String] = []
        for jobs in ["1", "2", "3", "8"] {
            let run = try CLI.run(["batch", "--anchors", "rsa/root.pem", "--at", CLI.time, "--jobs", jobs], input: text)
            #expect(run.status == 1, "some lines are untrusted or errors: \(run.stderr)")
            let lines = run.stdout.split(separator: "\n")
            try #require(lines.count == kinds.count, "--jobs \(jobs): \(lines.count) lines")
            for (index, line) in lines.enumerated() {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(object["line"] as? Int == index + 1, "--jobs \(jobs), output line \(index + 1)")
                #expect(object["status"] as? String == kinds[index], "--jobs \(jobs), line \(index + 1)")
            }
            outputs.append(run.stdout)
        }
        #expect(Set(outputs).count == 1, "the output depends on --jobs")
    }

    /// Runs `command` with bash in the sample PKI (`$CERTPATH` is the executable), killed after
    /// `limit` seconds; returns its exit status, standard output and whether it was killed.
    func bash(_ command: String, limit: Double = 30) throws -> (status: Int32, stdout: String, killed: Bool) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = CLI.samplePKI
        process.environment = ProcessInfo.processInfo.environment.merging(["CERTPATH": CLI.executable.path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(limit)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let killed = process.isRunning
        if killed { process.terminate() }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), killed)
    }

    @Test("A caller that writes one line and waits for its result gets it before writing the next")
    func writeOneReadOne() throws {
        let pem = try String(contentsOf: CLI.samplePKI.appendingPathComponent("rsa/server-chain.pem"), encoding: .utf8)
        let line = String(decoding: try JSONSerialization.data(withJSONObject: ["chain": pem, "name": "server.customer1.example"]), as: UTF8.self)
        let scratch = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data((line + "\n").utf8).write(to: scratch.appendingPathComponent("line.json"))
        // Three rounds on one process: each line is written only after the previous result was read
        // (with a 10 s limit each); a batch that waited for a full chunk or for the end of input
        // would never answer.
        let script = """
            coproc BATCH { "$CERTPATH" batch --anchors rsa/root.pem --at \(CLI.time); }
            for round in 1 2 3; do
                cat '\(scratch.path)/line.json' >&"${BATCH[1]}"
                IFS= read -r -t 10 result <&"${BATCH[0]}" || { echo "no result for line $round"; exit 3; }
                echo "$result"
            done
            exec {BATCH[1]}>&-
            wait $BATCH_PID
            """
        let run = try bash(script)
        #expect(!run.killed && run.status == 0, "status \(run.status): \(run.stdout)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 3, "\(run.stdout)")
        for (index, text) in lines.enumerated() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
            #expect(object["line"] as? Int == index + 1 && object["status"] as? String == "trusted", "\(text)")
        }
    }

    @Test("By default one worker per processor of the CPU affinity: taskset -c 0,1 gives one more thread than -c 0")
    func defaultWorkersFollowTheAffinity() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset"),
              BatchCommandProbe.allowedCPUs() >= 2 else { return }
        // Each process waits for input while its threads are counted (/proc/PID/task); the count is
        // compared between the two affinities, since a sanitizer's runtime adds threads of its own.
        // A --first-line of its own tells the process apart from other tests' batches.
        let run = try bash("""
            for cpus in 0 0,1; do
                (sleep 3) | /usr/bin/taskset -c $cpus "$CERTPATH" batch --anchors rsa/root.pem --first-line 424242 & sleep 1.5
                pid=$(pgrep -n -f -- "--first-line 424242")
                ls /proc/$pid/task | wc -l
                wait
            done
            """)
        let counts = run.stdout.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        #expect(!run.killed && counts.count == 2 && counts[1] == counts[0] + 1, "threads under -c 0, -c 0,1: \(run.stdout)")
    }

    @Test("Standard output that cannot be written ends an endless run with exit status 2")
    func unwritableOutputStopsTheRun() throws {
        guard FileManager.default.isWritableFile(atPath: "/dev/full") else { return }
        let pem = try String(contentsOf: CLI.samplePKI.appendingPathComponent("rsa/server-chain.pem"), encoding: .utf8)
        let line = String(decoding: try JSONSerialization.data(withJSONObject: ["chain": pem, "name": "server.customer1.example"]), as: UTF8.self)
        let scratch = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data((line + "\n").utf8).write(to: scratch.appendingPathComponent("line.json"))
        // `yes` never ends: only a batch that stops at the failed write exits.
        let run = try bash("""
            yes "$(cat '\(scratch.path)/line.json')" | "$CERTPATH" batch --anchors rsa/root.pem > /dev/full
            echo "${PIPESTATUS[1]}"
            """)
        #expect(!run.killed, "batch went on after its output failed")
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2", "\(run.stdout)")
    }

    @Test("--jobs takes a whole number from 1 to 1024; anything else is a usage error naming the option")
    func jobsIsChecked() throws {
        for bad in ["0", "-1", "1025", "two", ""] {
            let run = try CLI.run(["batch", "--anchors", "rsa/root.pem", "--jobs", bad], input: "")
            #expect(run.status == 2, "--jobs '\(bad)'")
            #expect(run.stderr.contains("--jobs"), "--jobs '\(bad)': \(run.stderr)")
        }
    }
}

/// What the test process itself may run on.
enum BatchCommandProbe {
    /// The CPUs of this process's affinity mask (`Cpus_allowed` in /proc/self/status), 0 if unreadable.
    static func allowedCPUs() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return 0 }
        return line.dropFirst("Cpus_allowed:".count).reduce(0) { $0 + ($1.hexDigitValue?.nonzeroBitCount ?? 0) }
    }
}
