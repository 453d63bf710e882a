import Foundation
import Testing

/// A reviewer's friction: a subject of megabytes (2,000 organizationalUnitName values of 1 KB) made
/// `verify`'s first line 2 MB, and the subject is in several lines. The human output (verify, show) cuts a line past
/// `Output.humanLineLimit` (4,096 Unicode scalars) and says so; `--json` keeps every value whole.
@Suite struct LongLineCLITests {
    typealias Files = PurposeInputCLITests.Files

    @Test func aHugeSubjectIsCutInTheHumanOutputAndWholeInJSON() throws {
        let files = try Files()
        defer { files.remove() }
        // 200 values of 64 characters (RFC 5280's upper bound for organizationalUnitName): a 13 KB subject.
        let units = (0..<200).map { "/OU=" + String(format: "%03d", $0) + String(repeating: "u", count: 61) }.joined()
        try Files.openssl(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "big.key",
                           "-out", "big.csr", "-subj", "/CN=Long Subject" + units], in: files.directory)
        try Files.openssl(["x509", "-req", "-in", "big.csr", "-CA", "inter.pem", "-CAkey", "inter.key", "-set_serial", "999",
                           "-days", "30", "-extfile", "tls.ext", "-out", "big.pem"], in: files.directory)
        let arguments = ["verify", "big.pem", "--intermediates", "inter.pem", "--anchors", "root.pem", "--server", "www.example.test"]

        let human = try CLI.run(arguments + ["--explain"], in: files.directory)
        #expect(human.status == 0, "\(human.stderr)")
        let lines = human.stdout.split(separator: "\n")
        let suffix = "… (a line of "
        #expect(lines.allSatisfy { $0.unicodeScalars.count <= 4_096 + 80 }, "the longest line: \(lines.map(\.count).max() ?? 0)")
        let cut = lines.filter { $0.contains(suffix) }
        #expect(cut.count >= 2, "\(human.stdout.prefix(600))")  // the headline and the path's lines
        #expect(cut.allSatisfy { $0.hasSuffix(" bytes, cut; --json gives it whole)") })

        let json = try CLI.run(arguments + ["--json"], in: files.directory).json()
        let text = String(describing: json)
        #expect(text.contains("OU=199" + String(repeating: "u", count: 61)), "the last value, whole")

        // show cuts its lines the same way (subject, issuer of the leaf: only the subject is long).
        let shown = try CLI.run(["show", "big.pem"], in: files.directory)
        #expect(shown.status == 0, "\(shown.stderr)")
        let shownLines = shown.stdout.split(separator: "\n")
        #expect(shownLines.allSatisfy { $0.unicodeScalars.count <= 4_096 + 80 }, "the longest line: \(shownLines.map(\.count).max() ?? 0)")
        #expect(shownLines.contains { $0.hasSuffix(" bytes, cut; --json gives it whole)") })
    }
}
