import CLibSSL
import CertPath
import CertPathTLS
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The sample PKI and the OCSP responses for it, by file name.
enum PKI {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let rsa = packageRoot.appendingPathComponent("TestVectors/sample-pki/rsa")
    static let ecdsa = packageRoot.appendingPathComponent("TestVectors/sample-pki/ecdsa")
    static let ocsp = packageRoot.appendingPathComponent("TestVectors/ocsp/sample-pki")

    static func path(_ name: String, in folder: URL = rsa) -> String { folder.appendingPathComponent(name).path }

    static func certificates(_ name: String, in folder: URL = rsa) throws -> [Certificate] {
        try PEM.readCertificates(Array(Data(contentsOf: folder.appendingPathComponent(name)))).certificates
    }

    static func ocspResponse(_ name: String) throws -> OCSPResponse {
        try OCSPResponse(derEncoded: Array(Data(contentsOf: ocsp.appendingPathComponent(name))))
    }

    /// Anchors only: the RSA root.
    static func rootStore() throws -> TrustStore { TrustStore(anchors: try certificates("root.pem")) }

    /// A validation time inside the window of the sample PKI's OCSP responses (one minute after
    /// `server-good.der`'s thisUpdate), so the stapled cases do not depend on when they run.
    static func ocspValidationTime() throws -> UnixTime {
        let response = try ocspResponse("server-good.der")
        let single = try #require(response.basicResponse?.responses.first, "server-good.der has no SingleResponse")
        return UnixTime(secondsSinceEpoch: single.thisUpdate.secondsSinceEpoch + 60)
    }
}

/// The TLS version a case runs with.
enum TLSVersion: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case tls12 = "TLS 1.2", tls13 = "TLS 1.3"
    var code: Int32 { self == .tls12 ? TLS1_2_VERSION : TLS1_3_VERSION }
    var opensslFlag: String { self == .tls12 ? "-tls1_2" : "-tls1_3" }
    var testDescription: String { rawValue }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// TLS alert numbers (RFC 8446 6.2, RFC 6066 8).
enum Alert {
    static let handshakeFailure = 40, badCertificate = 42, certificateRevoked = 44, certificateExpired = 45
    static let unknownCA = 48, badCertificateStatusResponse = 113, certificateRequired = 116
}

/// TCP on the loopback interface, every blocking call bounded by a 10 s timeout.
enum Loopback {
    static func setTimeouts(_ socket: Int32, seconds: Int = 10) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }

    static func connect(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: errno \(errno)") }
        setTimeouts(fd)
        var address = address(port: port)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            close(fd)
            throw HarnessError("connect to 127.0.0.1:\(port): errno \(errno)")
        }
        return fd
    }

    /// A listening socket on 127.0.0.1 with a free port.
    static func listen() throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: errno \(errno)") }
        setTimeouts(fd)
        var address = address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, Glibc.listen(fd, 4) == 0 else {
            close(fd)
            throw HarnessError("bind/listen on 127.0.0.1: errno \(errno)")
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }
}

/// An `SSL_CTX` for one side, limited to one TLS version, optionally with a certificate and key.
func makeContext(server: Bool, version: TLSVersion, chain: String? = nil, key: String? = nil) throws -> OpaquePointer {
    guard let context = SSL_CTX_new(server ? TLS_server_method() : TLS_client_method()) else { throw HarnessError("SSL_CTX_new failed") }
    guard certpath_ssl_ctx_set_versions(context, version.code, version.code) == 1 else { throw HarnessError("cannot set TLS version") }
    if let chain, let key {
        guard SSL_CTX_use_certificate_chain_file(context, chain) == 1,
              SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1 else {
            throw HarnessError("cannot load \(chain) / \(key)")
        }
    }
    return context
}

/// What one side of a handshake saw.
struct HandshakeOutcome: CustomTestStringConvertible {
    let completed: Bool
    let verification: TLSPeerVerification?
    let opensslError: String

    var result: TrustResult? { verification?.result }
    var primaryCode: String? { result?.primaryFailure?.code }

    var testDescription: String {
        "handshake \(completed ? "completed" : "failed"), \(verification?.testDescription ?? "not verified")"
    }
}

extension TLSPeerVerification: CustomTestStringConvertible {
    public var testDescription: String {
        switch outcome {
        case .evaluated(.trusted): return "trusted"
        case .evaluated(.untrusted(let report)): return "untrusted: \(report.primaryFailure.code), alert \(alertName ?? "none")"
        case .refused(let refusal): return "refused: \(refusal)"
        }
    }
}

/// The OpenSSL error queue, as text, emptied.
func drainErrors() -> String {
    var lines: [String] = []
    while true {
        let code = ERR_get_error()
        if code == 0 { break }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        lines.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    return lines.joined(separator: "; ")
}

/// The Swift client: connects to 127.0.0.1:`port` with CertPath verifying the server as `host`.
func swiftClientHandshake(port: UInt16, version: TLSVersion, host: String, settings: TLSTrustSettings) throws -> HandshakeOutcome {
    let context = try makeContext(server: false, version: version)
    defer { SSL_CTX_free(context) }
    TLSVerifier(role: .serverAuthentication(), settings: settings).install(on: context)
    let fd = try Loopback.connect(port: port)
    defer { close(fd) }
    guard let ssl = SSL_new(context) else { throw HarnessError("SSL_new failed") }
    defer { SSL_free(ssl) }
    SSL_set_fd(ssl, fd)
    try TLSVerifier.prepareClient(ssl, serverName: ReferenceIdentifier(host), requestOCSPStaple: settings.useStapledOCSP)
    let completed = SSL_connect(ssl) == 1
    let errors = drainErrors()
    if completed { SSL_shutdown(ssl) }
    return HandshakeOutcome(completed: completed, verification: TLSVerifier.verification(of: ssl), opensslError: errors)
}

/// The Swift server: accepts one connection from `openssl s_client` (started with `clientArguments`)
/// on a free loopback port, CertPath verifying the client for `role`. Returns the server's outcome
/// and the s_client process (ended) for its alerts.
func swiftServerHandshake(version: TLSVersion, role: TLSVerifier.Role, settings: TLSTrustSettings,
                          clientArguments: [String], label: String) throws -> (HandshakeOutcome, OpenSSLProcess) {
    let context = try makeContext(server: true, version: version, chain: PKI.path("server-chain.pem"), key: PKI.path("keys/server.key"))
    defer { SSL_CTX_free(context) }
    TLSVerifier(role: role, settings: settings).install(on: context)
    let (listener, port) = try Loopback.listen()
    defer { close(listener) }
    let client = try OpenSSLProcess(["s_client", "-connect", "127.0.0.1:\(port)", version.opensslFlag,
                                     "-servername", "server.customer1.example"] + clientArguments, label: label)
    let fd = accept(listener, nil, nil)
    guard fd >= 0 else {
        client.stop()
        throw HarnessError("\(label): no connection from s_client within 10 s (errno \(errno)): \(client.errors)")
    }
    defer { close(fd) }
    Loopback.setTimeouts(fd)
    guard let ssl = SSL_new(context) else { throw HarnessError("SSL_new failed") }
    defer { SSL_free(ssl) }
    SSL_set_fd(ssl, fd)
    let completed = SSL_accept(ssl) == 1
    let errors = drainErrors()
    // SSL_accept returns once the client's Finished is read, after its Certificate and
    // CertificateVerify (TLS 1.2 and 1.3 alike): the verification has run by now.
    if completed { SSL_shutdown(ssl) }
    let outcome = HandshakeOutcome(completed: completed, verification: TLSVerifier.verification(of: ssl), opensslError: errors)
    usleep(100_000)
    client.closeInput()
    client.wait(seconds: 10)
    return (outcome, client)
}
