import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Real servers on loopback for `certpath verify --fetch`: Python's `http.server` over
/// TestVectors/fetch/served/ (issuer certificates, CRLs) and `openssl ocsp -port` answering from
/// TestVectors/fetch/index.txt with the committed test responder key. Each starts on a free port
/// and is stopped (by its process id) when the test ends.
///
/// `openssl ocsp -port` of OpenSSL 3.0 has no option for the address it listens on: it listens on
/// every interface. It answers only for the test PKI, at most `-nrequest` requests, for the length
/// of one test; the client side is loopback only.
final class LoopbackServers {
    static let folder = CLI.packageRoot.appendingPathComponent("TestVectors/fetch")
    let httpPort: Int
    let ocspPort: Int
    private let processes: [Process]
    let httpLog: URL

    /// `CERTPATH_FETCH_URL_MAP`: the certificates' placeholder locations mapped to these servers.
    var urlMap: String { "http://127.0.0.1:1/=http://127.0.0.1:\(httpPort)/ http://127.0.0.1:2/=http://127.0.0.1:\(ocspPort)/" }

    /// The folder of the servers' logs, removed by ``stop()``.
    let scratch: URL

    init() throws {
        let scratch = try CLI.temporaryDirectory()
        self.scratch = scratch
        httpLog = scratch.appendingPathComponent("http.log")
        let ocspLog = scratch.appendingPathComponent("ocsp.log"), httpOut = scratch.appendingPathComponent("http.out")
        for file in [httpLog, ocspLog, httpOut] { try Data().write(to: file) }
        httpPort = try Self.freePort()
        ocspPort = try Self.freePort()
        let http = Process()
        http.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        http.arguments = ["python3", "-u", "-m", "http.server", String(httpPort), "--bind", "127.0.0.1",
                          "--directory", Self.folder.appendingPathComponent("served").path]
        http.standardOutput = try FileHandle(forWritingTo: httpOut)
        http.standardError = try FileHandle(forWritingTo: httpLog)
        let ocsp = Process()
        ocsp.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ocsp.currentDirectoryURL = Self.folder
        ocsp.arguments = ["openssl", "ocsp", "-port", String(ocspPort), "-index", "index.txt", "-CA", "intermediate.pem",
                          "-rsigner", "responder.pem", "-rkey", "responder.key", "-ndays", "1", "-nrequest", "16"]
        ocsp.standardOutput = FileHandle.nullDevice
        ocsp.standardError = try FileHandle(forWritingTo: ocspLog)
        try http.run()
        do { try ocsp.run() } catch {
            http.terminate()
            throw error
        }
        processes = [http, ocsp]
        // Ready when each says it listens. No probe connection: openssl 3.0's responder spins on a
        // connection closed without a request.
        for (log, line) in [(httpOut, "Serving HTTP on"), (ocspLog, "waiting for OCSP client connections")]
        where !Self.waitFor(line, in: log) {
            stop()
            throw ServerError("no '\(line)' in \(log.lastPathComponent) after 10 s")
        }
    }

    /// Whether `line` appears in the file at `url` within 10 seconds.
    static func waitFor(_ line: String, in url: URL) -> Bool {
        for _ in 0..<200 {
            if let data = try? Data(contentsOf: url), String(decoding: data, as: UTF8.self).contains(line) { return true }
            usleep(50_000)
        }
        return false
    }

    struct ServerError: Error, CustomStringConvertible { let description: String; init(_ d: String) { description = d } }

    func stop() {
        // SIGKILL, by process id: openssl 3.0's responder does not always end on SIGTERM.
        for process in processes where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// What the HTTP server logged (one line per request).
    var requestsServed: [String] {
        String(decoding: (try? Data(contentsOf: httpLog)) ?? Data(), as: UTF8.self).split(separator: "\n")
            .filter { $0.contains("\"GET ") || $0.contains("\"POST ") }.map(String.init)
    }

    /// A port nothing listens on now (bound to 127.0.0.1:0 and released; the servers bind it next).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw ServerError("bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A hostile HTTP server on a free loopback port (a Python script written at test time): every
/// request answered as `mode` says — `gzip`: the issuer certificate gzip-coded (Content-Encoding),
/// `file-redirect`: 302 to file:///etc/passwd, `hang`: no answer for 30 s. Found by a fresh reviewer (a gzip body grew past the
/// byte limit and the timeout; a file: redirect became a request to the same host).
final class HostileServer {
    let port: Int
    private let process: Process

    /// The folder of the server's script and output, removed by ``stop()``.
    private let scratch: URL

    init(mode: String) throws {
        let scratch = try CLI.temporaryDirectory()
        self.scratch = scratch
        let script = scratch.appendingPathComponent("hostile.py"), out = scratch.appendingPathComponent("out")
        try Data().write(to: out)
        try Data("""
            import gzip, http.server, sys, time
            mode, port, body = sys.argv[1], int(sys.argv[2]), open(sys.argv[3], "rb").read()
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    if mode == "hang":
                        time.sleep(30)
                    elif mode == "gzip":
                        coded = gzip.compress(body)
                        self.send_response(200)
                        self.send_header("Content-Encoding", "gzip")
                        self.send_header("Content-Length", str(len(coded)))
                        self.end_headers()
                        self.wfile.write(coded)
                    else:
                        self.send_response(302)
                        self.send_header("Location", "file:///etc/passwd")
                        self.send_header("Content-Length", "0")
                        self.end_headers()
            server = http.server.HTTPServer(("127.0.0.1", port), Handler)
            print("listening", flush=True)
            server.serve_forever()
            """.utf8).write(to: script)
        port = try LoopbackServers.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", script.path, mode, String(port),
                             LoopbackServers.folder.appendingPathComponent("served/intermediate.der").path]
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard LoopbackServers.waitFor("listening", in: out) else {
            stop()
            throw LoopbackServers.ServerError("the hostile server did not start")
        }
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: scratch)
    }
}

/// `certpath verify --fetch` against live loopback servers (LoopbackServers), and its option errors.
/// Serialized: each test owns its two servers.
@Suite(.serialized) struct FetchCLITests {
    static let folder = LoopbackServers.folder

    /// `certpath verify LEAF --anchors root.pem --server NAME --json [--fetch …]` with the URL map of `servers`.
    func verify(_ leaf: String, host: String, fetch: Bool = true, servers: LoopbackServers?, map: String? = nil) throws -> CLI.Run {
        var arguments = ["verify", leaf, "--anchors", "root.pem", "--server", host, "--json"]
        if fetch { arguments += ["--fetch", "--fetch-timeout", "10"] }
        let environment = ["CERTPATH_FETCH_URL_MAP": map ?? servers?.urlMap ?? ""]
        return try CLI.run(arguments, environment: environment, in: Self.folder)
    }

    func fetches(_ run: CLI.Run) throws -> [[String: Any]] {
        try field(try run.json(), "fetches", as: [[String: Any]].self)
    }

    @Test("--fetch refuses a content-coded (gzip) response and a redirect to file:, each recorded with its reason",
          arguments: [("gzip", "content-coded response (Content-Encoding: gzip) refused"),
                      ("file-redirect", "redirect to file:///etc/passwd refused (only http:// is followed)")])
    func hostileResponsesRefused(_ mode: String, _ detail: String) throws {
        let server = try HostileServer(mode: mode)
        defer { server.stop() }
        let run = try verify("leaf-good.pem", host: "good.fetch.test", servers: nil,
                             map: "http://127.0.0.1:1/=http://127.0.0.1:\(server.port)/ http://127.0.0.1:2/=http://127.0.0.1:\(server.port)/")
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let primary = try field(try run.json(), "primaryFailure", as: [String: Any].self)
        #expect(try field(primary, "code", as: String.self) == "issuerNotFound")
        let records = try fetches(run)
        #expect(records.contains { $0["purpose"] as? String == "issuer" && $0["outcome"] as? String == "failed"
            && $0["detail"] as? String == detail }, "\(records)")
    }

    /// A reviewer's friction: after `--fetch-timeout 1` the message named the library's
    /// Budget.fetchTime and its 20 s default; the CLI's words are its option and its default.
    @Test("--fetch-timeout: a server that does not answer ends fetching at the timeout, and the message names the option")
    func fetchTimeoutNamesTheOption() throws {
        let server = try HostileServer(mode: "hang")
        defer { server.stop() }
        let map = "http://127.0.0.1:1/=http://127.0.0.1:\(server.port)/ http://127.0.0.1:2/=http://127.0.0.1:\(server.port)/"
        let start = ContinuousClock.now
        let run = try CLI.run(["verify", "leaf-good.pem", "--anchors", "root.pem", "--server", "good.fetch.test", "--json",
                               "--fetch", "--fetch-timeout", "1"], environment: ["CERTPATH_FETCH_URL_MAP": map], in: Self.folder)
        #expect(start.duration(to: .now) < .seconds(20), "fetching did not stop at its timeout")
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let primary = try field(try run.json(), "primaryFailure", as: [String: Any].self)
        #expect(try field(primary, "code", as: String.self) == "budgetExhausted")
        #expect(try field(primary, "message", as: String.self) == "network fetching stopped before it had fetched what the path "
            + "lacks: its time ran out (--fetch-timeout, 10 s by default)")
    }

    // Acceptance (issue 21): the intermediate is only reachable by AIA, and the live `openssl ocsp`
    // responder (a delegated responder with OCSPSigning and ocsp-nocheck) says the leaf is revoked.
    @Test("--fetch completes the chain by AIA and finds the revocation through a live openssl ocsp responder (exit 1, revoked)")
    func acceptanceRevokedByLiveOCSP() throws {
        let servers = try LoopbackServers()
        defer { servers.stop() }
        let run = try verify("leaf-revoked.pem", host: "revoked.fetch.test", servers: servers)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let primary = try field(try run.json(), "primaryFailure", as: [String: Any].self)
        #expect(try field(primary, "code", as: String.self) == "revoked")
        let records = try fetches(run)
        #expect(records.contains { $0["purpose"] as? String == "issuer" && $0["outcome"] as? String == "fetched" })
        #expect(records.contains { $0["purpose"] as? String == "ocsp" && $0["outcome"] as? String == "fetched" })
    }

    @Test("--fetch: the intermediate by AIA from http.server, then OCSP by GET from the live openssl ocsp responder")
    func aiaThenLiveOCSPFetchesBoth() throws {
        let servers = try LoopbackServers()
        defer { servers.stop() }
        let run = try verify("leaf-revoked.pem", host: "revoked.fetch.test", servers: servers)
        let records = try fetches(run)
        let issuer = try #require(records.first, "\(run.stdout)")
        #expect(issuer["purpose"] as? String == "issuer" && issuer["outcome"] as? String == "fetched")
        #expect(issuer["url"] as? String == "http://127.0.0.1:1/intermediate.der" && issuer["bytes"] as? Int == 506)
        let ocsp = try #require(records.first { $0["purpose"] as? String == "ocsp" }, "\(run.stdout)")
        #expect(ocsp["outcome"] as? String == "fetched" && ocsp["method"] as? String == "GET", "\(ocsp)")
        #expect((ocsp["bytes"] as? Int ?? 0) > 500)
        // OCSP answered for the leaf: its CRL is not fetched.
        #expect(!records.contains { $0["url"] as? String == "http://127.0.0.1:1/intermediate.crl" }, "\(records)")
        #expect(servers.requestsServed.contains { $0.contains("GET /intermediate.der") })
    }

    @Test("--fetch: a leaf without an OCSP responder is found revoked on its CRL from the live HTTP server (exit 1)")
    func aiaThenCRLRevoked() throws {
        let servers = try LoopbackServers()
        defer { servers.stop() }
        let run = try verify("leaf-no-ocsp.pem", host: "crl.fetch.test", servers: servers)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let json = try run.json()
        let primary = try field(json, "primaryFailure", as: [String: Any].self)
        #expect(try field(primary, "code", as: String.self) == "revoked")
        #expect(try fetches(run).map { $0["url"] as? String ?? "" } == [
            "http://127.0.0.1:1/intermediate.der", "http://127.0.0.1:1/intermediate.crl", "http://127.0.0.1:1/root.crl"])
    }

    @Test("Without --fetch nothing is fetched: the server sees no request, the intermediate stays missing")
    func offMeansNoRequest() throws {
        let servers = try LoopbackServers()
        defer { servers.stop() }
        let run = try verify("leaf-good.pem", host: "good.fetch.test", fetch: false, servers: servers)
        #expect(run.status == 1)
        let primary = try field(try run.json(), "primaryFailure", as: [String: Any].self)
        #expect(try field(primary, "code", as: String.self) == "issuerNotFound")
        #expect(try run.json()["fetches"] == nil)
        usleep(200_000)
        #expect(servers.requestsServed.isEmpty)
    }

    @Test("--fetch with nothing listening: each fetch fails and is reported; the verdict is issuerNotFound, as without fetching")
    func refusedConnections() throws {
        let port = try LoopbackServers.freePort()
        let map = "http://127.0.0.1:1/=http://127.0.0.1:\(port)/ http://127.0.0.1:2/=http://127.0.0.1:\(port)/"
        let run = try verify("leaf-good.pem", host: "good.fetch.test", servers: nil, map: map)
        #expect(run.status == 1)
        let primary = try field(try run.json(), "primaryFailure", as: [String: Any].self)
        #expect(try field(primary, "code", as: String.self) == "issuerNotFound")
        let records = try fetches(run)
        #expect(records.count == 1 && records[0]["outcome"] as? String == "failed", "\(records)")
        // The human report lists it.
        let human = try CLI.run(["verify", "leaf-good.pem", "--anchors", "root.pem", "--fetch"],
                                environment: ["CERTPATH_FETCH_URL_MAP": map], in: Self.folder)
        #expect(human.stdout.contains("fetches (1):") && human.stdout.contains("issuer for CN=good.fetch.test"), "\(human.stdout)")
    }

    @Test("--fetch-timeout is validated and needs --fetch; CERTPATH_FETCH_URL_MAP is validated", arguments: [
        (["--fetch", "--fetch-timeout", "0"], [String: String](), "--fetch-timeout '0'"),
        (["--fetch", "--fetch-timeout", "301"], [:], "--fetch-timeout '301'"),
        (["--fetch", "--fetch-timeout", "ten"], [:], "--fetch-timeout 'ten'"),
        (["--fetch-timeout", "5"], [:], "--fetch-timeout needs --fetch"),
        (["--fetch"], ["CERTPATH_FETCH_URL_MAP": "http://a/"], "CERTPATH_FETCH_URL_MAP"),
    ])
    func usageErrors(_ options: [String], _ environment: [String: String], _ message: String) throws {
        let run = try CLI.run(["verify", "leaf-good.pem", "--anchors", "root.pem"] + options, environment: environment, in: Self.folder)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }
}
