// A mutual-TLS server whose client certificates CertPath verifies (issue 33): the complete example
// of CertPathTLS on the server side. libssl is reached through `import CertPathTLS` alone, which
// re-exports its C API; nothing here names an internal target.
import CertPath
import CertPathTLS
#if canImport(Glibc)
import Glibc
#endif

/// Why the example could not start or connect.
public struct MutualTLSError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, with OpenSSL's or the system's reason.
    public let description: String
    init(_ description: String) { self.description = description }
}

/// What the server decided for one connection.
public struct MutualTLSConnectionOutcome: Sendable {
    /// Whether the handshake completed with a client certificate CertPath trusted (the client was greeted).
    public let accepted: Bool
    /// The verified client certificate's subject (RFC 4514), when accepted.
    public let client: String?
    /// CertPath's primary failure code (``ValidationFailure/code``) when the chain was evaluated and refused.
    public let failure: String?
    /// The alert the refusal sent, by its RFC 8446 6.2 name (`unknown_ca`, `certificate_expired`,
    /// `bad_certificate`) when CertPath refused the chain; OpenSSL's reason when the handshake failed
    /// before any chain was evaluated (no certificate, not TLS at all).
    public let alert: String?
}

/// How long CertPath's chain verification took in the handshakes so far (the verify callback).
public struct VerificationCost: Sendable {
    /// Chains verified.
    public var count = 0
    /// Their total time, in nanoseconds.
    public var totalNanoseconds: Int64 = 0
    /// The longest one, in nanoseconds.
    public var maximumNanoseconds: Int64 = 0
    /// The mean per verified chain, in microseconds (0 when none).
    public var meanMicroseconds: Double { count == 0 ? 0 : Double(totalNanoseconds) / Double(count) / 1000 }
}

/// A TLS server on 127.0.0.1 that demands a client certificate and verifies it with CertPathTLS
/// (``TLSVerifier``, role ``TLSVerifier/Role/clientAuthentication(expectedNames:certificateRequired:)``:
/// extKeyUsage clientAuth, a path to the anchors, RFC 5280 section 6). A client it trusts is greeted
/// with `hello <subject>` and the connection closed; any other is refused in the handshake with the
/// alert CertPath's verdict maps to (``TLSAlertMapping``).
///
/// Worker threads accept and serve connections concurrently; one `SSL_CTX` and one verifier serve
/// them all. The verify callback is the example's own, timing ``TLSVerifier/verify(_:)`` for
/// ``verificationCost``.
public final class MutualTLSServer: Sendable {
    /// The port it listens on (127.0.0.1).
    public let port: UInt16
    private let listener: Int32
    nonisolated(unsafe) private let context: OpaquePointer
    private let timing: VerificationTiming
    private let outcomes = Locked<[MutualTLSConnectionOutcome]>([])
    private let running = Locked<Int>(0)
    /// The most one handshake may take, in total (``init(chainFile:keyFile:anchors:expectedNames:port:handshakeTimeout:)``).
    public let handshakeTimeout: Duration

    /// Loads the server's certificate chain and key, installs CertPath as the client verifier and
    /// listens on 127.0.0.1:`port` (0: any free port, then ``port``).
    ///
    /// - Parameters:
    ///   - chainFile: the server's certificate chain (PEM, leaf first).
    ///   - keyFile: its private key (PEM).
    ///   - anchors: the CAs client certificates must chain to (anchors only).
    ///   - expectedNames: names every client certificate must carry (subjectAltName), if any.
    ///   - handshakeTimeout: the total time one handshake may take (not per read: a client sending
    ///     a byte now and then cannot hold a worker longer); past it the connection is refused with
    ///     the outcome alert `handshake timed out`.
    /// - Throws: ``MutualTLSError`` when the files cannot be loaded or the port cannot be bound.
    ///
    /// Ignores SIGPIPE for the process: a client that goes away while the server writes to it
    /// (a queued client that gave up) is an EPIPE error for that connection, never the end of the server.
    public init(chainFile: String, keyFile: String, anchors: [Certificate], expectedNames: [ExpectedName] = [],
                port requestedPort: UInt16 = 0, handshakeTimeout: Duration = .seconds(10)) throws(MutualTLSError) {
        // Writing to a socket whose peer has closed raises SIGPIPE, whose default action ends the
        // process (exit status 141): the server must survive any client.
        signal(SIGPIPE, SIG_IGN)
        self.handshakeTimeout = handshakeTimeout
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw MutualTLSError("SSL_CTX_new failed") }
        guard SSL_CTX_use_certificate_chain_file(context, chainFile) == 1, SSL_CTX_use_PrivateKey_file(context, keyFile, SSL_FILETYPE_PEM) == 1,
              SSL_CTX_check_private_key(context) == 1 else {
            SSL_CTX_free(context)
            throw MutualTLSError("cannot load \(chainFile) and \(keyFile): \(OpenSSLErrors.drain())")
        }
        // CertPath decides: clientAuth, the expected names, a path to the anchors. A client without
        // a certificate is refused by OpenSSL itself (SSL_VERIFY_FAIL_IF_NO_PEER_CERT).
        let verifier = TLSVerifier(role: .clientAuthentication(expectedNames: expectedNames),
                                   settings: TLSTrustSettings(trustStore: TrustStore(anchors: anchors)))
        verifier.install(on: context)
        // The example's own verify callback: TLSVerifier.verify(_:) does the work, timed here.
        let timing = VerificationTiming(verifier)
        SSL_CTX_set_cert_verify_callback(context, { storeContext, argument in
            guard let storeContext, let argument else { return 0 }
            let timing = Unmanaged<VerificationTiming>.fromOpaque(argument).takeUnretainedValue()
            let start = ContinuousClock.now
            let trusted = timing.verifier.verify(storeContext)
            timing.record(start.duration(to: .now))
            return trusted ? 1 : 0
        }, Unmanaged.passUnretained(timing).toOpaque())
        self.context = context
        self.timing = timing
        do throws(MutualTLSError) {
            (listener, port) = try Socket.listen(port: requestedPort)
        } catch {
            SSL_CTX_free(context)
            throw error
        }
    }

    deinit {
        close(listener)
        SSL_CTX_free(context)
    }

    /// Starts `workers` threads, each accepting and serving connections until ``stop()``.
    public func start(workers: Int = 4) {
        for _ in 0..<max(1, workers) {
            running.withLock { $0 += 1 }
            let thread = WorkerThread { [self] in
                while let fd = Socket.accept(listener) {
                    let outcome = serve(fd)
                    outcomes.withLock { $0.append(outcome) }
                    close(fd)
                }
                running.withLock { $0 -= 1 }
            }
            thread.start()
        }
    }

    /// Serves `count` connections on the calling thread, then returns their outcomes (the
    /// executable's loop; a `count` of 0 serves until the process ends).
    public func serve(connections count: Int, report: (MutualTLSConnectionOutcome) -> Void) {
        var served = 0
        while count == 0 || served < count, let fd = Socket.accept(listener) {
            report(serve(fd))
            close(fd)
            served += 1
        }
    }

    /// Stops accepting: the workers finish the connection they are serving and end.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        while running.withLock({ $0 }) > 0 { usleep(1_000) }
    }

    /// The outcomes of the connections served by the workers so far, emptied.
    public func takeOutcomes() -> [MutualTLSConnectionOutcome] {
        outcomes.withLock { outcomes in
            defer { outcomes = [] }
            return outcomes
        }
    }

    /// The verification cost so far.
    public var verificationCost: VerificationCost { timing.cost.withLock { $0 } }

    /// One connection: the handshake (CertPath verifies the client's chain in it), then the greeting;
    /// the caller closes `fd`.
    private func serve(_ fd: Int32) -> MutualTLSConnectionOutcome {
        Socket.setTimeouts(fd, seconds: 10)
        guard let ssl = SSL_new(context) else { return MutualTLSConnectionOutcome(accepted: false, client: nil, failure: nil, alert: "SSL_new failed") }
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, fd)
        ERR_clear_error()
        guard let completed = Self.handshake(ssl, fd: fd, deadline: .now + handshakeTimeout) else {
            return MutualTLSConnectionOutcome(accepted: false, client: nil, failure: nil, alert: "handshake timed out")
        }
        let verification = TLSVerifier.verification(of: ssl)
        guard completed, let verification, verification.isTrusted else {
            let reason = OpenSSLErrors.drain()
            return MutualTLSConnectionOutcome(accepted: false, client: nil, failure: verification?.result?.primaryFailure?.code,
                                              alert: verification?.alertName ?? (reason.isEmpty ? "handshake failed" : reason))
        }
        let subject = verification.presented?.leaf.subject.description ?? "?"
        let greeting = Array("hello \(subject)\n".utf8)
        _ = greeting.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        SSL_shutdown(ssl)
        return MutualTLSConnectionOutcome(accepted: true, client: subject, failure: nil, alert: nil)
    }
}

extension MutualTLSServer {
    /// SSL_accept on a non-blocking `fd`, waiting with poll(2) for what it wants until `deadline`:
    /// `true` when the handshake completed, `false` when it failed, `nil` when the deadline passed.
    /// The socket is blocking again afterwards (its per-operation timeouts apply to the greeting).
    static func handshake(_ ssl: OpaquePointer, fd: Int32, deadline: ContinuousClock.Instant) -> Bool? {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        while true {
            let status = SSL_accept(ssl)
            if status == 1 { return true }
            let error = SSL_get_error(ssl, status)
            guard error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE else { return false }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            var wanted = pollfd(fd: fd, events: Int16(error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT), revents: 0)
            let ready = poll(&wanted, 1, milliseconds)
            if ready == 0 { return nil }
            if ready < 0 && errno != EINTR { return false }
        }
    }
}

/// The verifier and the time its verifications took.
final class VerificationTiming: Sendable {
    let verifier: TLSVerifier
    let cost = Locked(VerificationCost())

    init(_ verifier: TLSVerifier) { self.verifier = verifier }

    func record(_ duration: Duration) {
        let nanoseconds = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        cost.withLock {
            $0.count += 1
            $0.totalNanoseconds += nanoseconds
            $0.maximumNanoseconds = max($0.maximumNanoseconds, nanoseconds)
        }
    }
}

/// A value guarded by a POSIX mutex (which ThreadSanitizer sees, unlike Synchronization.Mutex on
/// Linux, whose futex calls live in the uninstrumented runtime).
final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }
}

/// A POSIX thread running one closure.
final class WorkerThread: @unchecked Sendable {
    private let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    func start() {
        var thread = pthread_t()
        let argument = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { argument in
            let worker = Unmanaged<WorkerThread>.fromOpaque(argument!).takeRetainedValue()
            worker.body()
            return nil
        }, argument)
        pthread_detach(thread)
    }
}

/// OpenSSL's error queue.
enum OpenSSLErrors {
    /// The queued errors' reasons, joined, and the queue emptied.
    static func drain() -> String {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            if let reason = ERR_reason_error_string(code) { reasons.append(String(cString: reason)) }
        }
        return reasons.joined(separator: "; ")
    }
}

/// TCP on 127.0.0.1.
enum Socket {
    static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }

    static func setTimeouts(_ fd: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    static func listen(port: UInt16) throws(MutualTLSError) -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw MutualTLSError("socket: errno \(errno)") }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = address(port: port)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, Glibc.listen(fd, 256) == 0 else {
            close(fd)
            throw MutualTLSError("cannot listen on 127.0.0.1:\(port): errno \(errno)")
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// The next connection, or `nil` once the listener is shut down.
    static func accept(_ listener: Int32) -> Int32? {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            if fd >= 0 { return fd }
            if errno == EINTR || errno == ECONNABORTED { continue }
            return nil
        }
    }

    static func connect(port: UInt16) throws(MutualTLSError) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw MutualTLSError("socket: errno \(errno)") }
        setTimeouts(fd, seconds: 10)
        var address = address(port: port)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            close(fd)
            throw MutualTLSError("cannot connect to 127.0.0.1:\(port): errno \(errno)")
        }
        return fd
    }
}
