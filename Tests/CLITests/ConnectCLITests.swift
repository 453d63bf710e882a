import CertPath
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `certpath connect` against `openssl s_server` on 127.0.0.1 (free ports, each server ending after
/// one connection or when the case ends): exit 0 for the good chain, 1 with the right reason for
/// each failure, 2 when there is no TLS connection, within --timeout.
@Suite struct ConnectCLITests {
    static let rsa = CLI.samplePKI.appendingPathComponent("rsa")
    static let ocsp = CLI.packageRoot.appendingPathComponent("TestVectors/ocsp/sample-pki")

    /// s_server presenting `certificate` (in rsa/ unless a path) with `chain`, plus `extra` arguments.
    static func server(_ certificate: String, key: String, chain: String = "intermediate.pem", folder: URL = rsa,
                       extra: [String] = [], label: String) throws -> (OpenSSLProcess, UInt16) {
        try OpenSSLProcess.server(["-cert", folder.appendingPathComponent(certificate).path, "-key", folder.appendingPathComponent(key).path,
                                   "-cert_chain", folder.appendingPathComponent(chain).path, "-naccept", "1"] + extra, label: label)
    }

    /// `certpath connect 127.0.0.1:PORT --server server.customer1.example --anchors root.pem ARGS --json`.
    static func connect(port: UInt16, _ arguments: [String], json: Bool = true) throws -> CLI.Run {
        let server = arguments.contains("--server") ? [] : ["--server", "server.customer1.example"]
        return try CLI.run(["connect", "127.0.0.1:\(port)", "--anchors", "root.pem", "--timeout", "10"] + server
                           + arguments + (json ? ["--json"] : []), in: rsa)
    }

    static func primaryCode(_ run: CLI.Run) throws -> String? {
        let object = try run.json()
        return (object["primaryFailure"] as? [String: Any])?["code"] as? String
    }

    /// One minute after server-good.der's thisUpdate, inside every sample-pki response's window.
    static func ocspTime() throws -> String {
        let response = try OCSPResponse(derEncoded: Array(Data(contentsOf: ocsp.appendingPathComponent("server-good.der"))))
        let single = try #require(response.basicResponse?.responses.first)
        return UnixTime(secondsSinceEpoch: single.thisUpdate.secondsSinceEpoch + 60).description
    }

    @Test func goodChainExitsZeroAndPrintsTheChain() throws {
        let (server, port) = try Self.server("server.pem", key: "keys/server.key", label: "connect: good chain")
        defer { server.stop() }
        let run = try Self.connect(port: port, ["--show-certs"], json: false)
        #expect(run.status == 0, "connect: good chain: exit \(run.status): \(run.stderr)")
        #expect(run.stdout.contains("presented chain (2 certificates, as sent):"), "connect: good chain: no chain listed")
        #expect(run.stdout.components(separatedBy: "-----BEGIN CERTIFICATE-----").count == 3, "connect: good chain: --show-certs PEM missing")
        #expect(run.stdout.contains("trusted"), "connect: good chain: no verdict")
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        let name: String, certificate: String, key: String, chain: String, folder: String, arguments: [String], code: String
        var testDescription: String { name }
    }

    static let failures: [Failure] = [
        Failure(name: "wrong host name", certificate: "server.pem", key: "keys/server.key", chain: "intermediate.pem", folder: "rsa",
                arguments: ["--server", "server.customer2.example"], code: "hostnameMismatch"),
        Failure(name: "expired", certificate: "server-expired.pem", key: "keys/server-expired.key", chain: "intermediate.pem",
                folder: "rsa", arguments: [], code: "expired"),
        Failure(name: "server certificate from another CA", certificate: "server.pem", key: "keys/server.key", chain: "intermediate.pem",
                folder: "ecdsa", arguments: [], code: "issuerNotFound"),
        Failure(name: "server certificate without serverAuth", certificate: "server-wrong-eku.pem", key: "keys/server-wrong-eku.key",
                chain: "intermediate.pem", folder: "rsa", arguments: [], code: "extendedKeyUsageForbids"),
    ]

    @Test(arguments: failures)
    func failureExitsOneWithTheReason(_ failure: Failure) throws {
        let label = "connect: \(failure.name)"
        let (server, port) = try Self.server(failure.certificate, key: failure.key, chain: failure.chain,
                                             folder: CLI.samplePKI.appendingPathComponent(failure.folder), label: label)
        defer { server.stop() }
        let run = try Self.connect(port: port, failure.arguments)
        #expect(run.status == 1, "\(label): exit \(run.status): \(run.stderr)")
        let code = try Self.primaryCode(run)
        #expect(code == failure.code, "\(label): primary failure \(code ?? "none"), expected \(failure.code)")
    }

    @Test func stapledRevokedExitsOne() throws {
        let (server, port) = try Self.server("server.pem", key: "keys/server.key",
                                             extra: ["-status_file", Self.ocsp.appendingPathComponent("server-revoked.der").path],
                                             label: "connect: stapled revoked")
        defer { server.stop() }
        let run = try Self.connect(port: port, ["--at", try Self.ocspTime()])
        #expect(run.status == 1, "connect: stapled revoked: exit \(run.status): \(run.stderr)")
        #expect(try Self.primaryCode(run) == "revoked", "connect: stapled revoked: \(run.stdout.prefix(400))")
        let connection = try #require(try run.json()["connection"] as? [String: Any], "connect: stapled revoked: no connection member")
        #expect(connection["stapledOCSP"] as? Bool == true, "connect: stapled revoked: staple not reported")
    }

    @Test func stapledGoodSatisfiesRequiredRevocation() throws {
        let (server, port) = try Self.server("server.pem", key: "keys/server.key",
                                             extra: ["-status_file", Self.ocsp.appendingPathComponent("server-good.der").path],
                                             label: "connect: stapled good")
        defer { server.stop() }
        let run = try Self.connect(port: port, ["--at", try Self.ocspTime(), "--revocation", "require",
                                                "--ocsp", Self.ocsp.appendingPathComponent("intermediate-good.der").path])
        #expect(run.status == 0, "connect: stapled good: exit \(run.status): \(run.stdout.prefix(600)) \(run.stderr)")
    }

    @Test func mutualTLSPresentsTheClientCertificate() throws {
        let (server, port) = try Self.server("server.pem", key: "keys/server.key",
                                             extra: ["-Verify", "2", "-CAfile", Self.rsa.appendingPathComponent("root.pem").path,
                                                     "-verify_return_error", "-tls1_2"],
                                             label: "connect: mutual TLS")
        defer { server.stop() }
        // The client's chain file: its certificate, then the intermediate (as --cert expects, leaf first).
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chain = folder.appendingPathComponent("client-chain.pem")
        try (String(contentsOf: Self.rsa.appendingPathComponent("client.pem"), encoding: .utf8)
             + String(contentsOf: Self.rsa.appendingPathComponent("intermediate.pem"), encoding: .utf8)).write(to: chain, atomically: true, encoding: .utf8)
        let run = try Self.connect(port: port, ["--cert", chain.path, "--key", "keys/client.key"], json: false)
        #expect(run.status == 0, "connect: mutual TLS: exit \(run.status): \(run.stderr)")
        // TLS 1.2: a server requiring a certificate refuses the handshake itself, so exit 2.
        let (strict, strictPort) = try Self.server("server.pem", key: "keys/server.key",
                                                   extra: ["-Verify", "2", "-CAfile", Self.rsa.appendingPathComponent("root.pem").path,
                                                           "-verify_return_error", "-tls1_2"],
                                                   label: "connect: mutual TLS without --cert")
        defer { strict.stop() }
        let refused = try Self.connect(port: strictPort, [], json: false)
        #expect(refused.status == 2, "connect: mutual TLS without --cert: exit \(refused.status)")
        #expect(refused.stderr.contains("TLS handshake with 127.0.0.1:\(strictPort) failed"), "connect: no cert: \(refused.stderr)")
    }

    /// Issue 33: the wait for a refusal after the handshake is TLS 1.3's (the server's alert about
    /// our certificate comes after its Finished); a TLS 1.2 connection does not spend it.
    @Test(arguments: [("-tls1_2", false), ("-tls1_3", true)])
    func theWaitForAServerAlertIsTLS13s(version: String, waits: Bool) throws {
        let (server, port) = try Self.server("server.pem", key: "keys/server.key", extra: [version], label: "connect: wait \(version)")
        defer { server.stop() }
        let run = try Self.connect(port: port, [])
        #expect(run.status == 0, "connect \(version): exit \(run.status): \(run.stderr)")
        let connection = try #require(try run.json()["connection"] as? [String: Any])
        #expect(connection["protocol"] as? String == (waits ? "TLSv1.3" : "TLSv1.2"))
        #expect(connection["waitedForServerAlert"] as? Bool == waits)
    }

    @Test func trustExceptionSavedThenAccepted() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = folder.appendingPathComponent("exceptions.txt").path
        let (first, firstPort) = try Self.server("server-expired.pem", key: "keys/server-expired.key", label: "connect: exception saved")
        defer { first.stop() }
        let refused = try Self.connect(port: firstPort, ["--save-exceptions", saved])
        #expect(refused.status == 1 && FileManager.default.fileExists(atPath: saved), "connect: exception not saved: \(refused.stderr)")
        let (second, secondPort) = try Self.server("server-expired.pem", key: "keys/server-expired.key", label: "connect: exception used")
        defer { second.stop() }
        let accepted = try Self.connect(port: secondPort, ["--exceptions", saved])
        #expect(accepted.status == 0, "connect: exception not accepted: exit \(accepted.status)")
    }

    /// A TCP socket bound to a free port of 127.0.0.1, and the port.
    static func boundLoopbackSocket() -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    @Test func unreachablePortExitsTwo() throws {
        // A port nothing listens on: bound, then closed.
        let (fd, port) = Self.boundLoopbackSocket()
        close(fd)
        let run = try Self.connect(port: port, [], json: false)
        #expect(run.status == 2, "connect: unreachable port: exit \(run.status)")
        #expect(run.stderr.contains("cannot connect to 127.0.0.1:\(port)"), "connect: unreachable port: \(run.stderr)")
    }

    @Test func silentServerTimesOutWithinTheTimeout() throws {
        // Listens (the kernel completes the TCP handshake) but never speaks TLS.
        let (fd, port) = Self.boundLoopbackSocket()
        defer { close(fd) }
        listen(fd, 1)
        let start = Date()
        let run = try CLI.run(["connect", "127.0.0.1:\(port)", "--anchors", "root.pem", "--timeout", "1"],
                              in: Self.rsa)
        let elapsed = Date().timeIntervalSince(start)
        #expect(run.status == 2, "connect: silent server: exit \(run.status)")
        #expect(elapsed < 5, "connect: silent server: took \(elapsed) s with --timeout 1")
        #expect(run.stderr.contains("no answer within the timeout"), "connect: silent server: \(run.stderr)")
    }

    /// A misbehaving TCP server on a free loopback port (found by a fresh reviewer): `close` accepts
    /// and closes at once (the ClientHello then meets a reset: SIGPIPE killed connect, exit 141);
    /// `trickle` sends a TLS record header announcing 16,384 bytes, then a byte a second (the
    /// per-read socket timeout never fired: connect ran past --timeout without limit).
    static func misbehaving(_ mode: String) throws -> (Process, UInt16) {
        let scratch = try CLI.temporaryDirectory()
        let script = scratch.appendingPathComponent("server.py"), out = scratch.appendingPathComponent("out")
        try Data().write(to: out)
        try Data("""
            import socket, sys, time
            mode = sys.argv[1]
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
            print(s.getsockname()[1], flush=True)
            c, _ = s.accept()
            if mode == "close":
                c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00")
                c.close(); time.sleep(30); sys.exit()
            c.settimeout(0.5)
            try: c.recv(65536)
            except Exception: pass
            c.sendall(b"\\x16\\x03\\x03\\x40\\x00")
            for i in range(60):
                try: c.sendall(b"\\x02"); time.sleep(1)
                except Exception: break
            """.utf8).write(to: script)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", script.path, mode]
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<200 {
            if let text = try? String(contentsOf: out, encoding: .utf8), let port = UInt16(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                // The script is loaded and the port read: the folder is no longer needed (tests leave no files).
                try? FileManager.default.removeItem(at: scratch)
                return (process, port)
            }
            usleep(50_000)
        }
        try? FileManager.default.removeItem(at: scratch)
        kill(process.processIdentifier, SIGKILL)
        throw LoopbackServers.ServerError("the misbehaving server did not start")
    }

    @Test("A server that resets the connection at once, or drips a byte a second: exit 2 within the timeout, never a signal",
          arguments: ["close", "trickle"])
    func misbehavingServer(_ mode: String) throws {
        let (server, port) = try Self.misbehaving(mode)
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        let start = Date()
        let run = try CLI.run(["connect", "127.0.0.1:\(port)", "--anchors", "root.pem", "--timeout", "2"], in: Self.rsa)
        let elapsed = Date().timeIntervalSince(start)
        #expect(run.status == 2, "connect: \(mode): exit \(run.status) \(run.stderr)")
        #expect(elapsed < 6, "connect: \(mode): took \(elapsed) s with --timeout 2")
        // (A reset can come while the TCP connection is still being made — slow runs, sanitizers — or
        // during the handshake; either way it is named.)
        #expect(run.stderr.contains("TLS handshake with 127.0.0.1:\(port) failed") || run.stderr.contains("cannot connect to 127.0.0.1:\(port)"),
                "connect: \(mode): \(run.stderr)")
    }
}

/// Mutual TLS made visible (issue 33): whether the server asked for a client certificate and which
/// CAs it named, whether one was sent, and the refusal TLS 1.3 sends after the handshake; exit 2
/// when the server refused us. Against `openssl s_server -Verify 1` (a client certificate required).
@Suite struct ConnectMutualTLSTests {
    static func requiringServer(_ version: String, label: String) throws -> (OpenSSLProcess, UInt16) {
        try ConnectCLITests.server("server.pem", key: "keys/server.key",
                                   extra: ["-Verify", "1", "-CAfile", ConnectCLITests.rsa.appendingPathComponent("root.pem").path, version],
                                   label: label)
    }

    @Test("TLS 1.3, no --cert: the request and its CAs reported, the server's certificate_required alert named, exit 2")
    func tls13Refused() throws {
        let (server, port) = try Self.requiringServer("-tls1_3", label: "connect: mTLS 1.3 refused")
        defer { server.stop() }
        let run = try ConnectCLITests.connect(port: port, [], json: false)
        #expect(run.status == 2, "exit \(run.status): \(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("client certificate: requested by the server (CAs named: CN=Example Corp Root CA R1,O=Example Corp,C=US); "
            + "none sent (give one with --cert and --key)"), "\(run.stdout)")
        #expect(run.stdout.contains("the server refused the connection after the handshake: tlsv13 alert certificate required"), "\(run.stdout)")
    }

    @Test("TLS 1.3, --json: clientCertificateRequested, requestedAuthorities, clientCertificateSent, serverRefusal")
    func tls13RefusedJSON() throws {
        let (server, port) = try Self.requiringServer("-tls1_3", label: "connect: mTLS 1.3 refused JSON")
        defer { server.stop() }
        let run = try ConnectCLITests.connect(port: port, [])
        #expect(run.status == 2)
        let connection = try field(try run.json(), "connection", as: [String: Any].self)
        #expect(try field(connection, "clientCertificateRequested", as: Bool.self))
        #expect(try field(connection, "requestedAuthorities", as: [String].self) == ["CN=Example Corp Root CA R1,O=Example Corp,C=US"])
        #expect(try field(connection, "clientCertificateSent", as: Bool.self) == false)
        #expect(try field(connection, "serverRefusal", as: String.self).contains("certificate required"))
    }

    @Test("TLS 1.2, no --cert: the handshake failure says the server asked for a client certificate")
    func tls12Refused() throws {
        let (server, port) = try Self.requiringServer("-tls1_2", label: "connect: mTLS 1.2 refused")
        defer { server.stop() }
        let run = try ConnectCLITests.connect(port: port, [], json: false)
        #expect(run.status == 2)
        #expect(run.stderr.contains("(the server asked for a client certificate (CAs named: CN=Example Corp Root CA R1,O=Example Corp,C=US) "
            + "and none was sent: give one with --cert and --key)"), "\(run.stderr)")
    }

    @Test("With --cert and --key: requested, sent, accepted, exit 0")
    func accepted() throws {
        let (server, port) = try Self.requiringServer("-tls1_3", label: "connect: mTLS accepted")
        defer { server.stop() }
        let scratch = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let chain = scratch.appendingPathComponent("client-chain.pem")
        let client = try String(contentsOf: ConnectCLITests.rsa.appendingPathComponent("client.pem"), encoding: .utf8)
        let intermediate = try String(contentsOf: ConnectCLITests.rsa.appendingPathComponent("intermediate.pem"), encoding: .utf8)
        try Data((client + intermediate).utf8).write(to: chain)
        let run = try ConnectCLITests.connect(port: port, ["--cert", chain.path, "--key", "keys/client.key", "--at", CLI.time], json: false)
        #expect(run.status == 0, "exit \(run.status): \(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("client certificate: requested by the server (CAs named: CN=Example Corp Root CA R1,O=Example Corp,C=US); sent (--cert)"))
        #expect(!run.stdout.contains("refused"))
    }

    @Test("--servername without --server or --ip: the SNI name is the name checked, not the address connected to")
    func serverNameIsChecked() throws {
        let (server, port) = try ConnectCLITests.server("server.pem", key: "keys/server.key", label: "connect: servername checked")
        defer { server.stop() }
        let run = try CLI.run(["connect", "127.0.0.1:\(port)", "--servername", "server.customer1.example", "--anchors", "root.pem",
                               "--timeout", "10", "--at", CLI.time], in: ConnectCLITests.rsa)
        #expect(run.status == 0, "exit \(run.status): \(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("trusted: CN=server.customer1.example,O=Customer 1 for TLS server server.customer1.example"), "\(run.stdout)")
    }

    @Test("A server that does not ask: 'not requested', exit by the verdict")
    func notRequested() throws {
        let (server, port) = try ConnectCLITests.server("server.pem", key: "keys/server.key", label: "connect: no mTLS")
        defer { server.stop() }
        let run = try ConnectCLITests.connect(port: port, ["--at", CLI.time], json: false)
        #expect(run.status == 0, "exit \(run.status): \(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("client certificate: not requested"))
    }
}
