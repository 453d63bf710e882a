import Foundation
import Testing

/// A POSIX file name is bytes, not necessarily UTF-8 (a Latin-1 name from an old system). Such a
/// file could not be opened by name (the argument's bytes were replaced with U+FFFD), and in a
/// folder given to `--anchors` it was passed over without a word. Every byte of a name is now kept;
/// messages show a byte that is not UTF-8 as `\xNN`.
@Suite struct FileNameCLITests {
    /// Runs `script` under bash in a fresh folder holding the sample PKI as `pki`, with `$CERTPATH`
    /// set; the names with bytes that are not UTF-8 are made by the script (`printf`), as Foundation's
    /// arguments are strings.
    static func run(_ script: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/bash")
        process.arguments = ["-c", "ln -s \"$PKI\" pki && " + script]
        process.environment = ["CERTPATH": CLI.executable.path, "PKI": CLI.samplePKI.path, "PATH": "/usr/bin:/bin"]
        process.currentDirectoryURL = directory
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    static let verify = "\"$CERTPATH\" verify pki/rsa/server.pem --intermediates pki/rsa/intermediate.pem --server server.customer1.example "
        + "--at 2026-06-01T00:00:00Z"

    /// Read by name and shown as its bytes: a Latin-1 name, and a 4-byte UTF-8 sequence of the
    /// escape range (U+10FF80), which is a name too and kept byte for byte.
    @Test(arguments: [("caf\\351.pem", "caf\\xe9.pem"), ("x\\364\\217\\276\\200.pem", "x\\xf4\\x8f\\xbe\\x80.pem")])
    func aFileWhoseNameIsNotUTF8IsReadByName(_ printed: String, _ shown: String) throws {
        let run = try Self.run("cp pki/rsa/root.pem \"$(printf '\(printed)')\" && \"$CERTPATH\" show \"$(printf '\(printed)')\"")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("\(shown): certificate 1 of 1\n"), "\(run.stdout)")
    }

    @Test func aFolderFileWhoseNameIsNotUTF8IsRead() throws {
        let run = try Self.run("mkdir anchors && cp pki/rsa/root.pem \"anchors/$(printf 'caf\\351.pem')\" && \(Self.verify) --anchors anchors")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("trusted: "), "\(run.stdout)")
    }

    @Test func messagesShowTheBytesThatAreNotUTF8() throws {
        let run = try Self.run("\"$CERTPATH\" show \"$(printf 'caf\\351.pem')\"")
        #expect(run.status == 2)
        #expect(run.stderr == "certpath show: caf\\xe9.pem: cannot read: No such file or directory\n", "\(run.stderr)")
    }

    /// Written files too: the trust exceptions go to the file of that name, which `exceptions list` reads.
    @Test func anOutputFileWhoseNameIsNotUTF8IsWrittenThere() throws {
        let run = try Self.run("""
            "$CERTPATH" verify pki/rsa/server-expired.pem --intermediates pki/rsa/intermediate.pem --anchors pki/rsa/root.pem \
                --server server.customer1.example --save-exceptions "$(printf 'exceptions\\351')" >/dev/null 2>&1
            test "$?" = 1 && ls | grep -c "$(printf '^exceptions\\351$')" && "$CERTPATH" exceptions list "$(printf 'exceptions\\351')"
            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("1\nexceptions\\xe9: trust exceptions, version 2: 1 entry\n"), "\(run.stdout)")
    }
}
