import Foundation
import Testing

/// `limbo --output` checks its file before any work, as `verify --save-exceptions` does
/// (VerifyCLITests.saveExceptionsRefusesWhatIsNotARegularFile).
@Suite struct OutputFileCLITests {
    @Test func limboOutputMustBeARegularFile() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let suite = directory.appendingPathComponent("suite.json")
        try Data(#"{"version": 1, "testcases": []}"#.utf8).write(to: suite)
        let intoDirectory = try CLI.run(["limbo", suite.path, "--output", directory.path])
        #expect(intoDirectory.status == 2)
        #expect(intoDirectory.stdout.isEmpty)
        #expect(intoDirectory.stderr == "certpath limbo: \(directory.path): cannot write here: a directory, not a regular file\n")
        let intoDevice = try CLI.run(["limbo", suite.path, "--output", "/dev/null"])
        #expect(intoDevice.status == 2)
        #expect(intoDevice.stderr == "certpath limbo: /dev/null: cannot write here: a device, not a regular file\n")
        let results = directory.appendingPathComponent("results.json")
        let written = try CLI.run(["limbo", suite.path, "--output", results.path])
        #expect(written.status == 0, "\(written.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: results)) as? [String: Any])
        #expect((json["results"] as? [Any])?.isEmpty == true)
    }
}
