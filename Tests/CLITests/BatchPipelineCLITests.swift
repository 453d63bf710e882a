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

    @Test("--jobs takes a whole number from 1 to 1024; anything else is a usage error naming the option")
    func jobsIsChecked() throws {
        for bad in ["0", "-1", "1025", "two", ""] {
            let run = try CLI.run(["batch", "--anchors", "rsa/root.pem", "--jobs", bad], input: "")
            #expect(run.status == 2, "--jobs '\(bad)'")
            #expect(run.stderr.contains("--jobs"), "--jobs '\(bad)': \(run.stderr)")
        }
    }
}
