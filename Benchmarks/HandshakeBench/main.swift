// certpath-handshake-bench: full TLS 1.3 mutual-authentication handshakes, client and server in one
// process over a memory BIO pair, with the sample PKI (RSA-2048: root -> Customer 1 CA -> server
// and client). Two verifiers, same keys, same run, alternating:
//
//   openssl   OpenSSL's own verification: X509_verify_cert with the root in the SSL_CTX's
//             X509_STORE, the server's host name checked (SSL_set1_host), the client's chain
//             checked for the SSL client purpose.
//   certpath  CertPathTLS's verifier (TLSVerifier) on both contexts: server authentication for
//             server.customer1.example, client authentication, the root as the only anchor.
//
//   swift run -c release --package-path Benchmarks certpath-handshake-bench [--seconds S] [--runs N] [--markdown]
//
// Every handshake is a full one (new SSL objects, no session tickets, no resumption). Verification
// time is measured inside each side's certificate verify callback (a wrapper around
// X509_verify_cert or TLSVerifier.verify(_:)), handshake time per side as the time spent in that
// side's SSL_do_handshake calls. See Benchmarks/README.md.
import CertPath
import CertPathTLS
import Foundation

HandshakeBench.run()

enum HandshakeBench {
    /// Options: --seconds S, --runs N, --markdown.
    struct Options {
        var seconds = 1.0, runs = 7, markdown = false
    }

    static func options(_ words: [String]) -> Options {
        var options = Options()
        var index = 1
        func value(_ option: String) -> String {
            index += 1
            guard index < words.count else { fail("\(option) needs a value") }
            return words[index]
        }
        while index < words.count {
            let word = words[index]
            switch word {
            case "--seconds":
                guard let seconds = Double(value(word)), seconds > 0 else { fail("--seconds: expected a positive number") }
                options.seconds = seconds
            case "--runs":
                guard let runs = Int(value(word)), runs > 0 else { fail("--runs: expected a positive whole number") }
                options.runs = runs
            case "--markdown": options.markdown = true
            case "-h", "--help":
                print("usage: certpath-handshake-bench [--seconds S] [--runs N] [--markdown]")
                exit(0)
            default: fail("unknown argument '\(word)' (see --help)")
            }
            index += 1
        }
        return options
    }


    static let host = "server.customer1.example"
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let pki = packageRoot.appendingPathComponent("TestVectors/sample-pki/rsa")
    static func path(_ name: String) -> String { pki.appendingPathComponent(name).path }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("certpath-handshake-bench: \(message)\n".utf8))
        exit(2)
    }

    // MARK: - Timing inside the verify callbacks

    /// What one side's certificate verify callback does and how long it took, summed.
    final class VerifyTiming {
        let verifier: TLSVerifier?
        var nanoseconds: UInt64 = 0
        var calls = 0
        init(verifier: TLSVerifier?) { self.verifier = verifier }
    }

    /// Times X509_verify_cert (OpenSSL's default when no callback is set) or CertPath's verifier.
    static let timedVerify: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { storeContext, argument in
        guard let storeContext, let argument else { return 0 }
        let timing = Unmanaged<VerifyTiming>.fromOpaque(argument).takeUnretainedValue()
        let start = now()
        let accepted: Int32
        if let verifier = timing.verifier {
            accepted = verifier.verify(storeContext) ? 1 : 0
        } else {
            accepted = X509_verify_cert(storeContext) == 1 ? 1 : 0
        }
        timing.nanoseconds += now() - start
        timing.calls += 1
        return accepted
    }

    // MARK: - Contexts

    /// The client's chain file (client.pem then intermediate.pem), written once.
    static let clientChain: String = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("certpath-handshake-bench-client-chain.pem")
        do {
            let text = try String(contentsOfFile: path("client.pem"), encoding: .utf8) + String(contentsOfFile: path("intermediate.pem"), encoding: .utf8)
            try text.write(to: url, atomically: true, encoding: .utf8)
        } catch { fail("cannot write the client chain: \(error)") }
        return url.path
    }()

    static func context(server: Bool) -> OpaquePointer {
        guard let context = SSL_CTX_new(server ? TLS_server_method() : TLS_client_method()),
              certpath_ssl_ctx_set_versions(context, TLS1_3_VERSION, TLS1_3_VERSION) == 1 else { fail("SSL_CTX_new") }
        let chain = server ? path("server-chain.pem") : clientChain
        let key = server ? path("keys/server.key") : path("keys/client.key")
        guard SSL_CTX_use_certificate_chain_file(context, chain) == 1, SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1 else {
            fail("cannot load \(chain)")
        }
        _ = SSL_CTX_set_num_tickets(context, 0)
        return context
    }

    /// One verifier's pair of contexts and the timings of their callbacks.
    struct Setup {
        let name: String
        let client: OpaquePointer
        let server: OpaquePointer
        let clientTiming: VerifyTiming
        let serverTiming: VerifyTiming
        let setHost: Bool

        static func openssl() -> Setup {
            let client = context(server: false), server = context(server: true)
            for ctx in [client, server] where SSL_CTX_load_verify_locations(ctx, path("root.pem"), nil) != 1 { fail("cannot load root.pem") }
            SSL_CTX_set_verify(client, SSL_VERIFY_PEER, nil)
            SSL_CTX_set_verify(server, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
            let setup = Setup(name: "openssl", client: client, server: server, clientTiming: VerifyTiming(verifier: nil),
                              serverTiming: VerifyTiming(verifier: nil), setHost: true)
            setup.installTimers()
            return setup
        }

        static func certpath() -> Setup {
            let root: [Certificate]
            do {
                root = try PEM.readCertificates(Array(Data(contentsOf: pki.appendingPathComponent("root.pem")))).certificates
            } catch { fail("cannot read root.pem: \(error)") }
            let settings = TLSTrustSettings(trustStore: TrustStore(anchors: root), useStapledOCSP: false)
            let reference: ReferenceIdentifier
            do { reference = try ReferenceIdentifier(host) } catch { fail("\(error)") }
            let clientVerifier = TLSVerifier(role: .serverAuthentication(expectedName: reference), settings: settings)
            let serverVerifier = TLSVerifier(role: .clientAuthentication(), settings: settings)
            let client = context(server: false), server = context(server: true)
            clientVerifier.install(on: client)
            serverVerifier.install(on: server)
            let setup = Setup(name: "certpath", client: client, server: server, clientTiming: VerifyTiming(verifier: clientVerifier),
                              serverTiming: VerifyTiming(verifier: serverVerifier), setHost: false)
            setup.installTimers()
            return setup
        }

        /// The timing wrappers as the contexts' verify callbacks (retained for the process's life).
        func installTimers() {
            SSL_CTX_set_cert_verify_callback(client, timedVerify, Unmanaged.passRetained(clientTiming).toOpaque())
            SSL_CTX_set_cert_verify_callback(server, timedVerify, Unmanaged.passRetained(serverTiming).toOpaque())
        }
    }

    // MARK: - Handshakes

    /// Nanoseconds spent in each side's SSL_do_handshake during one measured batch.
    struct SideTimes {
        var client: UInt64 = 0
        var server: UInt64 = 0
    }

    /// One full handshake over a fresh BIO pair; returns false (with the reason on stderr) on failure.
    static func handshake(_ setup: Setup, _ times: inout SideTimes) -> Bool {
        guard let client = SSL_new(setup.client), let server = SSL_new(setup.server) else { fail("SSL_new") }
        defer {
            SSL_free(client)
            SSL_free(server)
        }
        var clientBIO: OpaquePointer? = nil, serverBIO: OpaquePointer? = nil
        guard BIO_new_bio_pair(&clientBIO, 0, &serverBIO, 0) == 1 else { fail("BIO_new_bio_pair") }
        SSL_set_bio(client, clientBIO, clientBIO)
        SSL_set_bio(server, serverBIO, serverBIO)
        if setup.setHost { guard SSL_set1_host(client, host) == 1 else { fail("SSL_set1_host") } }
        SSL_set_connect_state(client)
        SSL_set_accept_state(server)
        var clientDone = false, serverDone = false
        for _ in 0..<32 where !(clientDone && serverDone) {
            if !clientDone {
                let start = now()
                let status = SSL_do_handshake(client)
                times.client += now() - start
                if status == 1 { clientDone = true } else if SSL_get_error(client, status) != SSL_ERROR_WANT_READ { return false }
            }
            if !serverDone {
                let start = now()
                let status = SSL_do_handshake(server)
                times.server += now() - start
                if status == 1 { serverDone = true } else if SSL_get_error(server, status) != SSL_ERROR_WANT_READ { return false }
            }
        }
        return clientDone && serverDone
    }

    /// One timed run of about `seconds`: handshakes per second and the per-side shares.
    struct Run {
        let handshakesPerSecond: Double
        let clientMicroseconds: Double
        let serverMicroseconds: Double
        let clientVerifyMicroseconds: Double
        let serverVerifyMicroseconds: Double
    }

    static func measure(_ setup: Setup, seconds: Double) -> Run {
        var times = SideTimes()
        setup.clientTiming.nanoseconds = 0
        setup.serverTiming.nanoseconds = 0
        var count = 0
        let start = now()
        let budget = UInt64(seconds * 1e9)
        while now() - start < budget {
            guard handshake(setup, &times) else { fail("\(setup.name): a handshake failed: \(ERR_get_error())") }
            count += 1
        }
        let elapsed = Double(now() - start) / 1e9
        let n = Double(count)
        return Run(handshakesPerSecond: n / elapsed, clientMicroseconds: Double(times.client) / n / 1000,
                   serverMicroseconds: Double(times.server) / n / 1000,
                   clientVerifyMicroseconds: Double(setup.clientTiming.nanoseconds) / n / 1000,
                   serverVerifyMicroseconds: Double(setup.serverTiming.nanoseconds) / n / 1000)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }


    static func run() {
        let options = options(CommandLine.arguments)
        let seconds = options.seconds, runs = options.runs, markdown = options.markdown
        let setups = [Setup.openssl(), Setup.certpath()]
        // A check before timing: both verifiers accept the sample chain, and CertPath's results say trusted.
        for setup in setups {
            var times = SideTimes()
            guard handshake(setup, &times) else { fail("\(setup.name): the first handshake failed") }
        }
        // Warm-up, then alternating runs (ABBA) so both verifiers see the same machine state.
        for setup in setups { _ = measure(setup, seconds: min(0.3, seconds)) }
        var results: [String: [Run]] = [:]
        for run in 0..<runs {
            // ABBA order: neither verifier always runs first.
            for setup in run % 2 == 0 ? setups : setups.reversed() {
                results[setup.name, default: []].append(measure(setup, seconds: seconds))
            }
        }

        func f(_ value: Double, _ decimals: Int = 1) -> String { String(format: "%.\(decimals)f", value) }

        struct Row {
            let name: String
            let rate: Double, client: Double, server: Double, clientVerify: Double, serverVerify: Double
        }
        let rows = setups.map { setup -> Row in
            let list = results[setup.name] ?? []
            return Row(name: setup.name, rate: median(list.map(\.handshakesPerSecond)), client: median(list.map(\.clientMicroseconds)),
                       server: median(list.map(\.serverMicroseconds)), clientVerify: median(list.map(\.clientVerifyMicroseconds)),
                       serverVerify: median(list.map(\.serverVerifyMicroseconds)))
        }
        let baseline = rows[0].rate
        print("TLS 1.3 mutual-auth handshakes, memory BIO pair, sample PKI (RSA-2048), \(runs) runs of \(f(seconds, 2)) s each, medians")
        print("OpenSSL \(String(cString: OpenSSL_version(Int32(OPENSSL_VERSION)))), \(ProcessInfo.processInfo.activeProcessorCount) cores")
        let header = "| verifier | handshakes/s | × openssl | client µs/handshake | client verify µs (share) | server µs/handshake | server verify µs (share) |"
        let lines = rows.map { row in
            "| \(row.name) | \(f(row.rate, 0)) | \(f(row.rate / baseline, 3)) | \(f(row.client)) | \(f(row.clientVerify)) (\(f(100 * row.clientVerify / row.client))%) "
                + "| \(f(row.server)) | \(f(row.serverVerify)) (\(f(100 * row.serverVerify / row.server))%) |"
        }
        if markdown {
            print(header)
            print("|---|--:|--:|--:|--:|--:|--:|")
        }
        for line in lines { print(markdown ? line : line.replacingOccurrences(of: "|", with: " ")) }

    }
}
