import CertPath
import CertPathTLS
import Foundation
import MutualTLSExample
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The mutual-TLS example (Examples/MutualTLS) loaded on 127.0.0.1 (issue 33): many concurrent
/// clients, valid chains mixed with hostile ones, bounded in count and time. Every valid client is
/// accepted; every other is refused in the handshake with the alert its failure maps to
/// (TLSAlertMapping; RFC 8446 6.2); memory stays flat; CertPath's verification cost per handshake
/// is printed. The hostile certificates are made with the openssl CLI in a temporary folder that
/// the test removes.
@Suite(.serialized) struct MutualTLSLoadTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let rsa = packageRoot.appendingPathComponent("TestVectors/sample-pki/rsa")
    static let ecdsa = packageRoot.appendingPathComponent("TestVectors/sample-pki/ecdsa")
    static let serverName = "server.customer1.example"

    /// One kind of client, and what the server must do with it.
    enum Kind: String, CaseIterable, Sendable {
        case valid, validWithDecoyFlood, expired, wrongCA, selfSigned, decoysOnly, corruptedSignature, noCertificate, garbageBytes

        var isValid: Bool { self == .valid || self == .validWithDecoyFlood }

        /// The words of the alert OpenSSL reports on the client for this refusal, per TLS version
        /// (1.2, 1.3); `nil`: none (garbage is not TLS).
        var alert: (String, String)? {
            switch self {
            case .valid, .validWithDecoyFlood, .garbageBytes: return nil
            case .expired: return ("alert certificate expired", "alert certificate expired")
            case .wrongCA, .selfSigned: return ("alert unknown ca", "alert unknown ca")
            // Decoys only: every candidate issuer's signature fails, the most specific failure.
            case .corruptedSignature, .decoysOnly: return ("alert bad certificate", "alert bad certificate")
            case .noCertificate: return ("alert handshake failure", "alert certificate required")
            }
        }

        /// CertPath's primary failure for this chain on the server (`nil`: not evaluated, or any).
        var failure: String? {
            switch self {
            case .expired: return "expired"
            case .wrongCA: return "issuerNotFound"
            case .selfSigned: return "selfSignedNotTrusted"
            case .corruptedSignature, .decoysOnly: return "badSignature"
            default: return nil
            }
        }
    }

    /// The files of one run: the sample PKI's and the hostile ones made with openssl.
    final class Material: @unchecked Sendable {
        let folder: URL
        var chains: [Kind: (chain: String, key: String)] = [:]

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("certpath-mtls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            do { try make() } catch {
                try? FileManager.default.removeItem(at: folder)
                throw error
            }
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        func write(_ name: String, concatenating files: [String]) throws -> String {
            let text = try files.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined()
            try text.write(toFile: path(name), atomically: true, encoding: .utf8)
            return path(name)
        }

        private func make() throws {
            let intermediate = rsa.appendingPathComponent("intermediate.pem").path
            let intermediateKey = rsa.appendingPathComponent("keys/intermediate.key").path
            let client = rsa.appendingPathComponent("client.pem").path
            let clientKey = rsa.appendingPathComponent("keys/client.key").path
            chains[.valid] = (try write("valid.pem", concatenating: [client, intermediate]), clientKey)
            chains[.noCertificate] = (client, clientKey)  // not presented: the client is made without it
            chains[.garbageBytes] = (client, clientKey)   // not TLS at all
            // Another CA's client (the sample ECDSA hierarchy, under another root).
            chains[.wrongCA] = (try write("wrong-ca.pem", concatenating: [ecdsa.appendingPathComponent("client.pem").path,
                                                                          ecdsa.appendingPathComponent("intermediate.pem").path]),
                                ecdsa.appendingPathComponent("keys/client.key").path)

            // Decoys: self-signed CAs with the intermediate's subject and subjectKeyIdentifier, each with
            // its own key, so every one is a candidate issuer as good as the real one until its
            // signature is checked. Keys made in parallel.
            let subject = try Self.openssl(["x509", "-in", intermediate, "-noout", "-subject", "-nameopt", "compat"])
                .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "subject=", with: "")
            let skiText = try Self.openssl(["x509", "-in", intermediate, "-noout", "-ext", "subjectKeyIdentifier"])
            let ski = try #require(skiText.split(separator: "\n").last).trimmingCharacters(in: .whitespaces)
            let decoyCount = 12
            let keys = try Self.parallel((0..<decoyCount).map { ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048",
                                                                 "-out", path("decoy-\($0).key")] })
            guard keys.allSatisfy({ $0 == 0 }) else { throw LoadTestError("openssl genpkey failed for a decoy key") }
            let decoys = try (0..<decoyCount).map { index -> String in
                _ = try Self.openssl(["req", "-x509", "-new", "-key", path("decoy-\(index).key"), "-subj", subject, "-days", "30",
                                      "-set_serial", "\(9000 + index)",
                                      "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                                      "-addext", "subjectKeyIdentifier=\(ski)", "-out", path("decoy-\(index).pem")])
                return path("decoy-\(index).pem")
            }
            // Alice's certificate with one bit of its signature flipped: well-formed DER that OpenSSL
            // sends and parses, whose signature does not verify.
            var der = try #require(try PEM.readCertificates(Array(Data(contentsOf: URL(fileURLWithPath: client)))).certificates.first).der
            der[der.count - 1] ^= 0x01
            try PEM.encode(Array(der)).write(toFile: path("corrupted-leaf.pem"), atomically: true, encoding: .utf8)
            chains[.corruptedSignature] = (try write("corrupted.pem", concatenating: [path("corrupted-leaf.pem"), intermediate]), clientKey)
            chains[.validWithDecoyFlood] = (try write("valid-flood.pem", concatenating: [client] + decoys + [intermediate]), clientKey)
            chains[.decoysOnly] = (try write("decoys-only.pem", concatenating: [client] + decoys), clientKey)

            // Expired: a client certificate of the real intermediate, valid 2020-01-01..2021-01-01.
            try "".write(toFile: path("index.txt"), atomically: true, encoding: .utf8)
            try "1000\n".write(toFile: path("serial"), atomically: true, encoding: .utf8)
            try """
                [ca]
                default_ca = sample
                [sample]
                database = \(path("index.txt"))
                new_certs_dir = \(folder.path)
                serial = \(path("serial"))
                default_md = sha256
                policy = any
                unique_subject = no
                [any]
                organizationName = optional
                commonName = supplied
                [ext]
                basicConstraints = critical,CA:FALSE
                keyUsage = critical,digitalSignature
                extendedKeyUsage = clientAuth
                authorityKeyIdentifier = keyid
                subjectAltName = email:expired@customer1.example

                """.write(toFile: path("ca.cnf"), atomically: true, encoding: .utf8)
            _ = try Self.openssl(["req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", path("expired.key"),
                                  "-subj", "/O=Customer 1/CN=Expired client", "-out", path("expired.csr")])
            _ = try Self.openssl(["ca", "-batch", "-notext", "-config", path("ca.cnf"), "-cert", intermediate, "-keyfile", intermediateKey,
                                  "-in", path("expired.csr"), "-startdate", "20200101000000Z", "-enddate", "20210101000000Z",
                                  "-extfile", path("ca.cnf"), "-extensions", "ext", "-out", path("expired-leaf.pem")])
            chains[.expired] = (try write("expired.pem", concatenating: [path("expired-leaf.pem"), intermediate]), path("expired.key"))

            // Self-signed, with clientAuth: no anchor vouches for it.
            _ = try Self.openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("selfsigned.key"),
                                  "-subj", "/O=Mallory/CN=Mallory", "-days", "30", "-addext", "extendedKeyUsage=clientAuth",
                                  "-out", path("selfsigned.pem")])
            chains[.selfSigned] = (path("selfsigned.pem"), path("selfsigned.key"))
        }

        /// Runs `openssl ARGS` and returns its standard output.
        static func openssl(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["openssl"] + arguments
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            let errorData = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw LoadTestError("openssl \(arguments.joined(separator: " ")): \(String(decoding: errorData, as: UTF8.self))")
            }
            return String(decoding: data, as: UTF8.self)
        }

        /// Runs several openssl commands at once.
        static func parallel(_ commands: [[String]]) throws -> [Int32] {
            let processes = try commands.map { arguments -> Process in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["openssl"] + arguments
                process.standardError = FileHandle.nullDevice
                try process.run()
                return process
            }
            return processes.map { process in
                process.waitUntilExit()
                return process.terminationStatus
            }
        }
    }

    struct LoadTestError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func anchors() throws -> [Certificate] {
        try PEM.readCertificates(Array(Data(contentsOf: rsa.appendingPathComponent("root.pem")))).certificates
    }

    /// Whether this process runs under AddressSanitizer or ThreadSanitizer (their runtimes' entry points are linked in).
    static let isSanitized = dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil

    /// The resident set size of this process, in bytes (/proc/self/statm).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    /// What one client connection came to.
    struct Attempt: Sendable {
        let kind: Kind
        let version: Int32
        let outcome: MutualTLSClient.Outcome
    }

    /// Clients of every kind and version, made once.
    static func clients(_ material: Material, anchors: [Certificate]) throws -> [String: MutualTLSClient] {
        var clients: [String: MutualTLSClient] = [:]
        for kind in Kind.allCases where kind != .garbageBytes {
            for version in [TLS1_2_VERSION, TLS1_3_VERSION] {
                let files = try #require(material.chains[kind])
                clients["\(kind.rawValue)-\(version)"] = try MutualTLSClient(
                    chainFile: kind == .noCertificate ? nil : files.chain, keyFile: kind == .noCertificate ? nil : files.key,
                    anchors: anchors, serverName: ReferenceIdentifier(serverName), version: version)
            }
        }
        return clients
    }

    /// Bytes that are not TLS, sent where a ClientHello belongs; the server's answer, if any, read.
    static func sendGarbage(port: UInt16, seed: Int) -> MutualTLSClient.Outcome {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { return MutualTLSClient.Outcome(accepted: false, greeting: nil, error: "cannot connect") }
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        let bytes = (0..<1024).map { _ -> UInt8 in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 256)
        while recv(fd, &buffer, buffer.count, 0) > 0 {}
        return MutualTLSClient.Outcome(accepted: false, greeting: nil, error: "not TLS")
    }

    /// Runs `count` connections of the kinds in `plan` order (cycled), TLS 1.2 and 1.3 alternating,
    /// from `concurrency` threads at once.
    static func load(port: UInt16, clients: [String: MutualTLSClient], count: Int, concurrency: Int) -> [Attempt] {
        let plan: [Kind] = [.valid, .validWithDecoyFlood, .expired, .valid, .wrongCA, .selfSigned, .valid, .decoysOnly,
                            .corruptedSignature, .noCertificate, .garbageBytes, .valid]
        final class State: @unchecked Sendable {
            let lock = NSLock()
            var index = 0
            var attempts: [Attempt] = []
        }
        let state = State()
        let group = DispatchGroup()
        for _ in 0..<concurrency {
            group.enter()
            let thread = Thread {
                while true {
                    state.lock.lock()
                    let mine = state.index
                    state.index += 1
                    state.lock.unlock()
                    guard mine < count else { break }
                    let kind = plan[mine % plan.count]
                    let version = mine % 2 == 0 ? TLS1_3_VERSION : TLS1_2_VERSION
                    let outcome = kind == .garbageBytes ? sendGarbage(port: port, seed: mine)
                        : clients["\(kind.rawValue)-\(version)"]!.connect(port: port)
                    state.lock.lock()
                    state.attempts.append(Attempt(kind: kind, version: version, outcome: outcome))
                    state.lock.unlock()
                }
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        return state.attempts
    }

    @Test func validClientsAreAcceptedAndHostileOnesRefusedWithTheirAlertUnderLoad() throws {
        let material = try Material()
        let anchors = try Self.anchors()
        let server = try MutualTLSServer(chainFile: Self.rsa.appendingPathComponent("server-chain.pem").path,
                                         keyFile: Self.rsa.appendingPathComponent("keys/server.key").path, anchors: anchors)
        server.start(workers: 8)
        defer { server.stop() }
        let clients = try Self.clients(material, anchors: anchors)

        // Warm up (caches, allocator arenas, threads), then measure.
        _ = Self.load(port: server.port, clients: clients, count: 40, concurrency: 16)
        _ = Self.outcomes(of: server, count: 40)
        let costBefore = server.verificationCost
        let residentBefore = Self.residentBytes()
        let start = ContinuousClock.now
        let count = 200
        let attempts = Self.load(port: server.port, clients: clients, count: count, concurrency: 16)
        let elapsed = start.duration(to: .now)
        let residentAfter = Self.residentBytes()
        let outcomes = Self.outcomes(of: server, count: count)
        let cost = server.verificationCost

        #expect(attempts.count == count)
        // Under a sanitizer time and memory are the sanitizer's: ASan's quarantine keeps freed memory,
        // TSan's shadow grows; the bounds are for an uninstrumented build (`swift test`; scripts/test
        // runs the suite under ASan and TSan only, so there only the relaxed time bound applies).
        let sanitized = Self.isSanitized
        #expect(elapsed < .seconds(sanitized ? 180 : 30), "200 handshakes took \(elapsed)")
        for attempt in attempts {
            let label = "\(attempt.kind.rawValue) (TLS \(attempt.version == TLS1_3_VERSION ? "1.3" : "1.2"))"
            if attempt.kind.isValid {
                #expect(attempt.outcome.accepted, "\(label): refused: \(attempt.outcome.error ?? "")")
                #expect(attempt.outcome.greeting == "hello CN=Alice,O=Customer 1", "\(label): \(attempt.outcome.greeting ?? "no greeting")")
                continue
            }
            #expect(!attempt.outcome.accepted, "\(label): accepted")
            if let alert = attempt.kind.alert {
                let expected = attempt.version == TLS1_3_VERSION ? alert.1 : alert.0
                #expect(attempt.outcome.error?.contains(expected) == true, "\(label): \(attempt.outcome.error ?? "no error"), expected \(expected)")
            } else if attempt.kind != .garbageBytes {
                #expect(attempt.outcome.error?.contains("alert") == true, "\(label): \(attempt.outcome.error ?? "no error")")
            }
        }
        // The server's side: exactly the valid clients accepted, each refusal with CertPath's reason.
        let valid = attempts.filter(\.kind.isValid).count
        #expect(outcomes.count == count)
        #expect(outcomes.filter(\.accepted).count == valid)
        for failure in Set(Kind.allCases.compactMap(\.failure)) {
            let expected = attempts.filter { $0.kind.failure == failure }.count
            #expect(outcomes.filter { $0.failure == failure }.count == expected, "server refusals with \(failure)")
        }
        #expect(outcomes.filter { !$0.accepted }.allSatisfy { $0.alert != nil })

        // Memory flat: the measured run grows the resident set by less than 32 MB.
        let growth = residentAfter - residentBefore
        if !sanitized { #expect(growth < 32 << 20, "RSS grew by \(growth >> 20) MB over \(count) handshakes") }

        let verified = cost.count - costBefore.count
        let mean = verified == 0 ? 0 : Double(cost.totalNanoseconds - costBefore.totalNanoseconds) / Double(verified) / 1000
        print("""
            mutual TLS load: \(count) handshakes (\(outcomes.filter(\.accepted).count) accepted, \(outcomes.filter { !$0.accepted }.count) refused) \
            from 16 concurrent clients in \(elapsed); CertPath verification: \(verified) chains, \
            \(String(format: "%.0f", mean)) µs per verified handshake (mean), \(cost.maximumNanoseconds / 1000) µs max; \
            RSS \(residentBefore >> 20) MB before, \(residentAfter >> 20) MB after\(sanitized ? " (under a sanitizer: bounds relaxed)" : "")
            """)
        #expect(verified > 0)
    }

    /// The two executables as shipped: the server greets a valid client and refuses another CA's.
    @Test func theExampleExecutablesAuthenticateEachOther() throws {
        let products = Self.productsDirectory()
        let server = Process()
        server.executableURL = products.appendingPathComponent("mutual-tls-server")
        server.arguments = ["--cert", Self.rsa.appendingPathComponent("server-chain.pem").path,
                            "--key", Self.rsa.appendingPathComponent("keys/server.key").path,
                            "--anchors", Self.rsa.appendingPathComponent("root.pem").path, "--connections", "2"]
        let output = Pipe()
        server.standardOutput = output
        try server.run()
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) }; server.waitUntilExit() }
        let reader = output.fileHandleForReading
        var first = Data()
        while !first.contains(UInt8(ascii: "\n")) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            first += chunk
        }
        let line = String(decoding: first, as: UTF8.self)
        let port = try #require(line.split(separator: "\n").first?.split(separator: ":").last.flatMap { UInt16($0) }, "server said: \(line)")

        func client(_ folder: URL) throws -> (Int32, String) {
            let process = Process()
            process.executableURL = products.appendingPathComponent("mutual-tls-client")
            process.arguments = ["--port", "\(port)", "--anchors", Self.rsa.appendingPathComponent("root.pem").path,
                                 "--server-name", Self.serverName, "--cert", folder.appendingPathComponent("client.pem").path,
                                 "--key", folder.appendingPathComponent("keys/client.key").path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        // The client's file holds its certificate only: the server must have the intermediate, so
        // the valid client sends its chain from a temporary file.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("certpath-mtls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("keys"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try (String(contentsOf: Self.rsa.appendingPathComponent("client.pem"), encoding: .utf8)
             + String(contentsOf: Self.rsa.appendingPathComponent("intermediate.pem"), encoding: .utf8))
            .write(to: folder.appendingPathComponent("client.pem"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: Self.rsa.appendingPathComponent("keys/client.key"), to: folder.appendingPathComponent("keys/client.key"))
        let (acceptedStatus, greeting) = try client(folder)
        #expect(acceptedStatus == 0 && greeting == "hello CN=Alice,O=Customer 1\n", "\(greeting)")
        let (refusedStatus, refusal) = try client(Self.ecdsa)
        #expect(refusedStatus == 1 && refusal.contains("alert unknown ca"), "\(refusal)")
        let rest = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        server.waitUntilExit()
        #expect(server.terminationStatus == 0)
        #expect(rest.contains("accepted CN=Alice,O=Customer 1\n") && rest.contains("refused issuerNotFound (alert unknown_ca)\n"), "\(rest)")
    }

    /// The server's outcomes of `count` connections: a client may finish reading its greeting before
    /// the server has recorded the connection, so they are collected for up to 10 s.
    static func outcomes(of server: MutualTLSServer, count: Int) -> [MutualTLSConnectionOutcome] {
        var outcomes: [MutualTLSConnectionOutcome] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while outcomes.count < count && ContinuousClock.now < deadline {
            outcomes += server.takeOutcomes()
            if outcomes.count < count { usleep(2_000) }
        }
        return outcomes
    }

    /// The build products folder (where `swift build` put the example executables).
    static func productsDirectory() -> URL {
        var candidates: [URL] = []
        if let bundle = Bundle.main.executableURL { candidates.append(bundle.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        candidates.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        for directory in candidates where FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("mutual-tls-server").path) {
            return directory
        }
        return packageRoot.appendingPathComponent(".build/debug")
    }
}
