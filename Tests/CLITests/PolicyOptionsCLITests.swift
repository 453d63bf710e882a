import CertPath
import Foundation
import Testing
import TestSupport

/// `verify`'s options for the rules a path is held to (`--profile`, `--anchor-checks`,
/// `--algorithms`, `--strict-eku`, `--revocation`), run on NIST PKITS files and the sample PKI:
/// what a script user needs to reach PKITS's revocation and DSA runs from the command line.
@Suite struct PolicyOptionsCLITests {
    static var pkits: URL? { CryptographyVectors.folder?.appendingPathComponent("x509/PKITS_data") }

    /// `verify` of PKITS files: `certs` from the trust anchor down (the last is the leaf), `crls`.
    static func pkitsRun(_ certs: [String], crls: [String] = [], _ options: [String]) throws -> CLI.Run? {
        guard let root = pkits else {
            print("SKIPPED PKITS through the CLI: cryptography-vectors is not installed")
            return nil
        }
        func path(_ name: String) -> String { root.appendingPathComponent(name).path }
        var arguments = ["verify", path("certs/" + certs.last! + ".crt"), "--anchors", path("certs/" + certs[0] + ".crt"),
                         "--at", "2020-01-01T00:00:00Z", "--json"]
        for name in certs.dropFirst().dropLast() { arguments += ["--intermediates", path("certs/" + name + ".crt")] }
        for name in crls { arguments += ["--crl", path("crls/" + name + ".crl")] }
        return try CLI.run(arguments + options)
    }

    static func primaryCode(_ run: CLI.Run) throws -> String? {
        let json = try run.json()
        guard let primary = json["primaryFailure"] as? [String: Any] else { return nil }
        return primary["code"] as? String
    }

    static let pkitsOptions = ["--profile", "path-validation", "--anchor-checks", "name-and-key", "--algorithms", "permissive"]

    @Test("PKITS 4.4.1 Missing CRL: trusted by default, refused with --revocation require")
    func missingCRL() throws {
        let certs = ["TrustAnchorRootCertificate", "NoCRLCACert", "InvalidMissingCRLTest1EE"]
        guard let byDefault = try Self.pkitsRun(certs, crls: ["TrustAnchorRootCRL"], Self.pkitsOptions) else { return }
        #expect(byDefault.status == 0, "\(byDefault.stdout)")
        let required = try #require(try Self.pkitsRun(certs, crls: ["TrustAnchorRootCRL"], Self.pkitsOptions + ["--revocation", "require"]))
        #expect(required.status == 1)
        #expect(try Self.primaryCode(required) == "revocationUnknown")
    }

    @Test("PKITS 4.4.3 Revoked EE: revoked, also with --revocation accept")
    func revoked() throws {
        let certs = ["TrustAnchorRootCertificate", "GoodCACert", "InvalidRevokedEETest3EE"]
        for mode in ["issuer", "require", "accept"] {
            guard let run = try Self.pkitsRun(certs, crls: ["TrustAnchorRootCRL", "GoodCACRL"], Self.pkitsOptions + ["--revocation", mode]) else { return }
            #expect(run.status == 1)
            #expect(try Self.primaryCode(run) == "revoked", "\(mode)")
        }
    }

    @Test("PKITS 4.1.5 DSA parameter inheritance: trusted with --algorithms permissive, refused by default")
    func dsa() throws {
        let certs = ["TrustAnchorRootCertificate", "DSACACert", "DSAParametersInheritedCACert", "ValidDSAParameterInheritanceTest5EE"]
        let crls = ["TrustAnchorRootCRL", "DSACACRL", "DSAParametersInheritedCACRL"]
        guard let permissive = try Self.pkitsRun(certs, crls: crls, Self.pkitsOptions) else { return }
        #expect(permissive.status == 0, "\(permissive.stdout)")
        let strict = try #require(try Self.pkitsRun(certs, crls: crls, ["--profile", "path-validation", "--anchor-checks", "name-and-key"]))
        #expect(strict.status == 1)
        #expect(try Self.primaryCode(strict) == "disallowedSignatureAlgorithm")  // dsa-with-SHA1 (and DSA keys: weakKey)
    }

    @Test("PKITS 4.6.4 (a non-critical basicConstraints, RFC 3280's section 4): trusted under path-validation, refused under rfc5280")
    func profileChoice() throws {
        let certs = ["TrustAnchorRootCertificate", "basicConstraintsNotCriticalCACert", "ValidbasicConstraintsNotCriticalTest4EE"]
        let crls = ["TrustAnchorRootCRL", "basicConstraintsNotCriticalCACRL"]
        guard let section6 = try Self.pkitsRun(certs, crls: crls, Self.pkitsOptions) else { return }
        #expect(section6.status == 0, "\(section6.stdout)")
        let json = try section6.json()
        #expect(json["appliedProfile"] as? String == "path-validation")
        let strict = try #require(try Self.pkitsRun(certs, crls: crls, ["--profile", "rfc5280", "--anchor-checks", "name-and-key", "--algorithms", "permissive"]))
        #expect(strict.status == 1)
        #expect(try Self.primaryCode(strict) == "profileViolation")
    }

    @Test("--anchor-checks and --strict-eku change the sample PKI's outcome only where they should")
    func sampleOptions() throws {
        let base = ["verify", "rsa/server-chain.pem", "--anchors", "rsa/root.pem", "--server", "server.customer1.example",
                    "--at", "2026-06-01T00:00:00Z", "--json"]
        for options in [[], ["--anchor-checks", "full"], ["--anchor-checks", "name-and-key"], ["--strict-eku"], ["--profile", "webpki"],
                        ["--profile", "rfc5280"], ["--algorithms", "permissive"]] {
            let run = try CLI.run(base + options)
            #expect(run.status == 0, "\(options): \(run.stdout)")
        }
    }

    @Test("Bad values are usage errors naming what is expected", arguments: [
        (["--profile", "strict"], "--profile 'strict': expected auto, webpki, interoperable, rfc5280, path-validation"),
        (["--anchor-checks", "some"], "--anchor-checks 'some': expected rfc5937, name-and-key or full"),
        (["--algorithms", "weak"], "--algorithms 'weak': expected default or permissive"),
        (["--revocation", "reject"], "--revocation 'reject': expected issuer, require or accept"),
    ])
    func badValues(_ options: [String], _ message: String) throws {
        let run = try CLI.run(["verify", "rsa/server.pem", "--anchors", "rsa/root.pem"] + options)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}
