import Foundation
import Testing
import TestSupport

/// `certpath verify --stapled-ocsp`: the handshake's staple for RFC 7633 must-staple, on a server
/// certificate made by the openssl CLI with `tlsfeature=status_request`.
@Suite struct MustStapleCLITests {
    @Test("--stapled-ocsp none on a must-staple certificate: untrusted, saying what is missing; without the flag: trusted")
    func stapledNone() throws {
        let files = try MustStapleFiles()
        defer { try? FileManager.default.removeItem(at: files.directory) }
        let base = ["verify", files.leaf, "--anchors", files.root, "--server", "must-staple.example"]

        let refused = try CLI.run(base + ["--stapled-ocsp", "none"])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stdout.contains("requires a stapled OCSP response (must-staple: its TLS feature extension lists status_request, RFC 7633)"),
                "\(refused.stdout)")
        #expect(refused.stdout.contains("the server stapled no OCSP response in the TLS handshake"), "\(refused.stdout)")

        let json = try CLI.run(base + ["--stapled-ocsp", "none", "--json"]).json()
        let primary = try #require(json["primaryFailure"] as? [String: Any], "\(json)")
        #expect(primary["code"] as? String == "missingStapledOCSPResponse")
        #expect(primary["recoverable"] as? Bool == false)

        let plain = try CLI.run(base)
        #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr)")
        // show decodes the extension.
        let shown = try CLI.run(["show", files.leaf])
        #expect(shown.stdout.contains("status_request (5, must-staple)"), "\(shown.stdout)")
    }
}
