import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Reviewer findings on `--anchors`: the `anchors:` line counted one root once per source (a file,
/// a hashed folder, a bundle repeating it); a folder's files had no size limit.
@Suite struct AnchorsCountCLITests {
    @Test func oneRootGivenBySeveralSourcesCountsOnce() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = try String(contentsOf: CLI.samplePKI.appendingPathComponent("rsa/root.pem"), encoding: .utf8)
        let folder = directory.appendingPathComponent("certs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try root.write(to: folder.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        let repeated = directory.appendingPathComponent("repeated.pem")
        try String(repeating: root, count: 50).write(to: repeated, atomically: true, encoding: .utf8)
        let run = try CLI.run(["verify", "rsa/server.pem", "--intermediates", "rsa/intermediate.pem", "--anchors", "rsa/root.pem",
                               "--anchors", folder.path, "--anchors", repeated.path, "--at", CLI.time,
                               "--server", "server.customer1.example"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("anchors: 1 certificate from rsa/root.pem, "), "\(run.stdout)")
    }

    @Test func aFolderHasAPerFileAndATotalSizeLimit() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = try String(contentsOf: CLI.samplePKI.appendingPathComponent("rsa/root.pem"), encoding: .utf8)
        try root.write(to: directory.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        // Sparse files: their size is what counts, nothing is read.
        let huge = directory.appendingPathComponent("huge.bin").path
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, 65 << 20) == 0)
        let verify = ["verify", "rsa/server.pem", "--intermediates", "rsa/intermediate.pem", "--anchors", directory.path, "--at", CLI.time]
        let skipped = try CLI.run(verify)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stderr.contains("warning: --anchors \(directory.path)/huge.bin: larger than 64 MiB (the limit for one file of a folder); skipped"),
                "\(skipped.stderr)")
        for index in 0..<5 {
            let file = directory.appendingPathComponent("big\(index).bin").path
            #expect(FileManager.default.createFile(atPath: file, contents: nil))
            #expect(truncate(file, 60 << 20) == 0)
        }
        let refused = try CLI.run(verify)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("the folder's files hold more than 256 MiB in all"), "\(refused.stderr)")
    }
}
