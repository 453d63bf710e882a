import CLibSSL
import CertPath
import CertPathTLS
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `certpath connect HOST:PORT [options]`: a TLS handshake with a server, whose presented chain is
/// then validated exactly as `certpath verify` validates a chain file, with the same options.
enum ConnectCommand {
    /// `verify`'s options except the ones that describe the file, a client purpose or the staple
    /// (the handshake's own).
    static let sharedOptions = VerifyCommand.spec.options.filter { !["client", "expect-name", "stapled-ocsp"].contains($0.name) }

    static let spec = CommandSpec(
        name: "connect",
        synopsis: "HOST:PORT [--servername NAME] [--cert FILE --key FILE] [--timeout SECONDS] [--show-certs] "
            + "[verify's options: --anchors FILE... --system-anchors --server HOST --ip ADDR --pin-sha256 B64... "
            + "--exceptions FILE --save-exceptions FILE --ocsp FILE... --json --explain ...]",
        summary: """
            Connects to HOST:PORT over TCP, completes a TLS handshake (TLS 1.2 or 1.3; SNI is HOST unless
            --servername is given, or none for an IP address; a stapled OCSP response is asked for), and
            validates the chain the server presented as 'certpath verify' does: TLS server purpose for
            --server / --ip, else --servername, else HOST; the stapled response as revocation evidence, and every other option of
            verify. Prints the presented chain and the report. The handshake itself does not judge the
            chain, so an untrusted server is still reported in full.
            Without --anchors and without --pin-sha256 the system anchors are used.
            """,
        options: [
            .value("servername", "NAME", "the SNI name to send (default: HOST when it is a DNS name)"),
            .value("cert", "FILE", "present this client certificate (PEM, leaf first; with --key) for mutual TLS"),
            .value("key", "FILE", "the private key of --cert (PEM)"),
            .value("timeout", "SECONDS", "give up connecting and handshaking after SECONDS (default 10)"),
            .flag("show-certs", "also write the presented chain as PEM (in JSON: member \"presentedPEM\")"),
        ] + sharedOptions,
        positionalName: "HOST:PORT",
        positionalCount: 1...1,
        epilogue: """
            exit status: 0 trusted; 1 untrusted; 2 bad usage, an unreadable file, or no TLS connection
            (unreachable, refused, timed out, handshake failed).

            examples:
              certpath connect server.customer1.example:443 --anchors root.pem
              certpath connect 127.0.0.1:4433 --server server.customer1.example --anchors root.pem --cert client.pem --key client.key
              certpath connect example.com:443 --show-certs --json
            """)

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        // A write to a socket the server has reset must be an error, not the end of the process.
        signal(SIGPIPE, SIG_IGN)
        let exceptionsFile = try arguments.value("save-exceptions").map { (path: String) throws(CLIError) in try OutputFile(path) }
        let recording = try ExceptionRecording(arguments)
        let (host, port) = try endpoint(arguments.positionals[0])
        let timeout = try self.timeout(arguments)
        if arguments.has("cert") != arguments.has("key") { throw CLIError("--cert and --key go together: give both for mutual TLS") }
        // The purpose first, so a mistake in it stops before any connection.
        let purpose = try VerifyCommand.purpose(arguments)
        let reference: ReferenceIdentifier
        switch purpose {
        case .serverAuthentication(let given?): reference = given
        default:
            // The name given for SNI is the name the user means (issue 33): it is checked when
            // --server and --ip are absent, rather than the address connected to.
            if let sni = arguments.value("servername") {
                do throws(ReferenceIdentifierError) { reference = try ReferenceIdentifier(sni) } catch {
                    throw CLIError("--servername '\(Output.echo(sni))': not a valid host name: \(error)")
                }
            } else {
                do throws(ReferenceIdentifierError) { reference = try ReferenceIdentifier(host) } catch {
                    throw CLIError("'\(Output.echo(host))': not a valid host name or IP address: \(error)")
                }
            }
        }

        let session = try TLSSession.connect(host: host, port: port, serverName: reference, sni: arguments.value("servername"),
                                             certificate: arguments.value("cert"), key: arguments.value("key"), timeout: timeout)
        var evaluation = try VerifyCommand.makeEvaluation(arguments, chain: session.presented.certificates)
        evaluation.policy.purpose = .serverAuthentication(reference)
        // `connect` always asks for a staple: what came is the handshake's (revocation evidence, and
        // RFC 7633 must-staple's input).
        evaluation.stapledOCSPResponses = session.presented.stapledOCSPResponse.map { [$0] } ?? []
        evaluation.signedCertificateTimestampLists = session.presented.signedCertificateTimestampList.map { [$0] } ?? []  // RFC 6962 3.3.1
        let result = evaluation.evaluate()
        let explain = arguments.has("explain"), showCerts = arguments.has("show-certs")
        if let error = session.presented.stapledOCSPError { Output.error("certpath connect: warning: \(error); not used") }

        if arguments.has("json") {
            var members = ResultView.json(result, evaluation, explain: explain) + CTView.json(result, evaluation)
            members.append(("connection", connectionJSON(session, host: host, port: port)))
            members.append(CTView.handshakeJSON(session.presented, logs: evaluation.certificateTransparencyLogs))
            if showCerts { members.append(("presentedPEM", .strings(session.presented.certificates.map { PEM.encode($0.der) }))) }
            Output.line(JSON.object(members).pretty)
        } else {
            for line in connectionLines(session, host: host, port: port) { Output.line(line) }
            for line in CTView.handshakeLines(session.presented, logs: evaluation.certificateTransparencyLogs) { Output.line(line) }
            if showCerts {
                for certificate in session.presented.certificates {
                    let pem = PEM.encode(certificate.der)
                    Output.line(pem.hasSuffix("\n") ? String(pem.dropLast()) : pem)
                }
            }
            Output.line("")
            for line in ResultView.humanLines(result, evaluation, explain: explain, anchorFiles: arguments.all("anchors")) {
                Output.line(line)
            }
            for line in CTView.lines(result, evaluation) { Output.line(line) }
        }
        Output.flush()
        if let exceptionsFile { try VerifyCommand.saveExceptions(result, to: exceptionsFile, recording: recording,
                                                                     purpose: evaluation.policy.purpose, command: "connect") }
        // The server refusing us after the handshake is no connection, whatever the chain's verdict.
        if session.clientAuthentication.refusal != nil { return ExitStatus.usage }
        return result.isTrusted ? ExitStatus.success : ExitStatus.untrusted
    }

    /// `HOST:PORT`, `[IPv6]:PORT`.
    static func endpoint(_ text: String) throws(CLIError) -> (String, UInt16) {
        let usage = "'\(Output.echo(text))': expected HOST:PORT (server.example:443, 192.0.2.1:443, [2001:db8::1]:443)"
        guard let colon = text.lastIndex(of: ":") else { throw CLIError(usage) }
        var host = String(text[..<colon])
        guard let port = UInt16(text[text.index(after: colon)...]), port > 0 else { throw CLIError(usage) }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            throw CLIError(usage + "; an IPv6 address goes in brackets")
        }
        guard !host.isEmpty else { throw CLIError(usage) }
        return (host, port)
    }

    static func timeout(_ arguments: ParsedArguments) throws(CLIError) -> Double {
        guard let text = arguments.value("timeout") else { return 10 }
        guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
            throw CLIError("--timeout '\(Output.echo(text))': expected a number of seconds above 0 and at most 3600")
        }
        return seconds
    }

    static func connectionLines(_ session: TLSSession, host: String, port: UInt16) -> [String] {
        let chain = session.presented.certificates
        var lines = ["connected to \(session.address) (\(session.version), \(session.cipher))"
            + (session.sni.map { ", SNI \(Output.safe($0))" } ?? ", no SNI")]
        lines.append("presented chain (\(chain.count) certificate\(chain.count == 1 ? "" : "s"), as sent):")
        for (index, certificate) in chain.enumerated() {
            lines.append("  \(index) \(Output.safe(certificate.subject.description))")
            lines.append("      issuer \(Output.safe(certificate.issuer.description))")
        }
        let client = session.clientAuthentication
        if client.requested {
            lines.append("client certificate: requested by the server\(TLSSession.naming(client.requestedAuthorities)); "
                + (client.sent ? "sent (--cert)" : "none sent (give one with --cert and --key)"))
        } else {
            lines.append("client certificate: not requested" + (client.sent ? " (--cert was not used)" : ""))
        }
        if let refusal = client.refusal {
            lines.append("the server refused the connection after the handshake: \(Output.safe(refusal))")
        }
        if let response = session.presented.stapledOCSPResponse {
            lines.append("stapled OCSP response: \(response.responseStatus) (used as revocation evidence)")
        } else {
            let mustStaple = chain.first?.tlsFeatures?.contains(5) == true
            lines.append("stapled OCSP response: none" + (mustStaple ? " (the server certificate requires one: TLS feature status_request, must-staple)" : ""))
        }
        return lines
    }

    static func connectionJSON(_ session: TLSSession, host: String, port: UInt16) -> JSON {
        .object([
            ("host", .string(host)),
            ("port", .int(Int(port))),
            ("address", .string(session.address)),
            ("protocol", .string(session.version)),
            ("cipher", .string(session.cipher)),
            ("serverName", .optional(session.sni)),
            ("presentedCertificates", .int(session.presented.certificates.count)),
            ("stapledOCSP", .bool(session.presented.stapledOCSPResponse != nil)),
            ("clientCertificateRequested", .bool(session.clientAuthentication.requested)),
            ("requestedAuthorities", .strings(session.clientAuthentication.requestedAuthorities)),
            ("clientCertificateSent", .bool(session.clientAuthentication.sent)),
            ("serverRefusal", .optional(session.clientAuthentication.refusal)),
            ("waitedForServerAlert", .bool(session.clientAuthentication.waitedForRefusal)),
        ])
    }
}

/// One TLS client connection made by `certpath connect`: TCP with a deadline, then the handshake
/// with OpenSSL's own verification off (`SSL_VERIFY_NONE`: the chain is judged afterwards, with
/// `verify`'s options), SNI and a stapled OCSP response requested through CertPathTLS.
struct TLSSession {
    let address: String
    let version: String
    let cipher: String
    let sni: String?
    let presented: TLSPresentedChain
    /// Mutual TLS as the server saw it (issue 33: it was invisible).
    let clientAuthentication: ClientAuthentication

    /// Whether the server asked for a client certificate (a CertificateRequest), the CA names it
    /// gave, whether one was sent, and what the server said after the handshake (TLS 1.3 sends its
    /// refusal of a missing or unacceptable client certificate then, as an alert).
    struct ClientAuthentication {
        var requested = false
        var requestedAuthorities: [String] = []
        var sent = false
        /// The alert or error that ended the connection after the handshake, if any within the wait.
        var refusal: String?
        /// Whether ``refusalWait`` was spent waiting for it (TLS 1.3 only).
        var waitedForRefusal = false
    }

    /// How long to wait after a TLS 1.3 handshake for the server's refusal (TLS 1.3 sends it then;
    /// a TLS 1.2 handshake is not followed by this wait).
    static let refusalWait = 0.5

    static func connect(host: String, port: UInt16, serverName: ReferenceIdentifier, sni: String?, certificate: String?, key: String?,
                        timeout: Double) throws(CLIError) -> TLSSession {
        let deadline = Date().addingTimeInterval(timeout)
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw CLIError("OpenSSL could not create a TLS context") }
        defer { SSL_CTX_free(context) }
        _ = certpath_ssl_ctx_set_versions(context, TLS1_2_VERSION, 0)
        SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        TLSSignedCertificateTimestamps.request(on: context)  // the server's SCTs (RFC 6962 3.3.1)
        if let certificate, let key {
            guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1 else {
                throw CLIError("--cert \(Output.echo(certificate)): not a readable PEM certificate chain (\(opensslErrors()))")
            }
            guard SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1, SSL_CTX_check_private_key(context) == 1 else {
                throw CLIError("--key \(Output.echo(key)): not a readable PEM private key matching --cert (\(opensslErrors()))")
            }
        }
        let (fd, address) = try TCP.connect(host: host, port: port, deadline: deadline)
        defer { close(fd) }
        guard let ssl = SSL_new(context) else { throw CLIError("OpenSSL could not create a TLS connection") }
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, fd)
        let sent: String?
        if let sni { sent = sni } else if case .dnsName(let name) = serverName { sent = name.description } else { sent = nil }
        do throws(TLSSetupError) {
            try TLSVerifier.prepareClient(ssl, serverName: serverName, sniName: sni)
        } catch {
            throw CLIError("--servername: \(error)")
        }
        // The socket timeouts bound each read; this bounds the whole handshake (a server dripping a
        // byte a second would otherwise keep it going): at the deadline the socket is shut down.
        // A CertificateRequest calls the certificate callback on the client (SSL_set_cert_cb),
        // whether or not a certificate was loaded: that is how a request is seen.
        let requestSeen = RequestFlag()
        SSL_set_cert_cb(ssl, { _, argument in
            if let argument { Unmanaged<RequestFlag>.fromOpaque(argument).takeUnretainedValue().seen = true }
            return 1
        }, Unmanaged.passUnretained(requestSeen).toOpaque())
        let watchdog = HandshakeWatchdog(fd: fd)
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, deadline.timeIntervalSinceNow)) { watchdog.fire() }
        let connected = SSL_connect(ssl) == 1
        watchdog.finish()
        var client = ClientAuthentication()
        client.requested = requestSeen.seen
        client.requestedAuthorities = Self.requestedAuthorities(ssl)
        client.sent = client.requested && certificate != nil
        guard connected else {
            let reason = Date() >= deadline ? "no answer within the timeout" : opensslErrors()
            var message = "TLS handshake with \(address) failed: \(reason.isEmpty ? "the server closed the connection" : reason)"
            if client.requested && !client.sent {
                message += " (the server asked for a client certificate\(Self.naming(client.requestedAuthorities)) and none was sent: "
                    + "give one with --cert and --key)"
            }
            throw CLIError(message)
        }
        let presented: TLSPresentedChain
        do throws(TLSRefusal) {
            presented = try TLSPresentedChain.presented(by: ssl)
        } catch {
            throw CLIError("\(address): \(error)")
        }
        let version = String(cString: SSL_get_version(ssl))
        let cipher = SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) } ?? "unknown cipher"
        // Only TLS 1.3 can refuse a client after the handshake (RFC 8446 4.4.2.4: the server
        // verifies the client's Certificate after its own Finished, and its alert follows). In TLS
        // 1.2 the client's certificate is judged within the handshake (RFC 5246 7.4.6), so a refusal
        // has already failed it: nothing to wait for.
        let isTLS13 = SSL_version(ssl) == TLS1_3_VERSION
        client.waitedForRefusal = isTLS13
        client.refusal = isTLS13 ? Self.refusalAfterHandshake(ssl, fd: fd) : nil
        SSL_shutdown(ssl)
        return TLSSession(address: address, version: version, cipher: cipher, sni: sent, presented: presented, clientAuthentication: client)
    }

    /// A reference the certificate callback sets (the C callback captures nothing).
    final class RequestFlag {
        var seen = false
    }

    /// The CA names of the server's CertificateRequest, as RFC 4514 text.
    static func requestedAuthorities(_ ssl: OpaquePointer) -> [String] {
        var names: [String] = []
        for index in 0..<certpath_ssl_requested_ca_count(ssl) {
            var der: UnsafeMutablePointer<UInt8>? = nil
            let length = certpath_ssl_requested_ca_der(ssl, index, &der)
            guard length > 0, let der else { continue }
            defer { CRYPTO_free(der, #fileID, #line) }
            let bytes = Array(UnsafeBufferPointer(start: der, count: Int(length)))
            names.append((try? Name(derEncoded: bytes))?.description ?? "(a name CertPath cannot read)")
        }
        return names
    }

    /// ` (CAs named: CN=A; CN=B)` or nothing.
    static func naming(_ authorities: [String]) -> String {
        authorities.isEmpty ? "" : " (CAs named: " + authorities.map(Output.safe).joined(separator: "; ") + ")"
    }

    /// Waits up to ``refusalWait`` for what the server sends after the handshake, without
    /// blocking: session tickets, data and a graceful close are fine; an alert (TLS 1.3's
    /// certificate_required, bad_certificate…) is the server refusing us, returned as OpenSSL words it.
    static func refusalAfterHandshake(_ ssl: OpaquePointer, fd: Int32) -> String? {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(fd, F_SETFL, flags) }
        let end = Date().addingTimeInterval(refusalWait)
        var buffer = [UInt8](repeating: 0, count: 256)
        while Date() < end {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let remaining = Int32(max(1, end.timeIntervalSinceNow * 1000))
            guard poll(&descriptor, 1, remaining) > 0 else { return nil }
            ERR_clear_error()
            let read = SSL_read(ssl, &buffer, Int32(buffer.count))
            if read > 0 { return nil }  // the server spoke: it accepted us
            switch SSL_get_error(ssl, read) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: continue  // a ticket, or part of a record
            case SSL_ERROR_ZERO_RETURN: return nil  // a graceful close (close_notify) refuses nothing
            default:
                // An alert is a refusal; a connection closed without one says nothing of us.
                let reason = opensslErrors()
                return reason.isEmpty ? nil : reason
            }
        }
        return nil
    }

    /// The OpenSSL error queue as one line, emptied.
    static func opensslErrors() -> String {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            if let reason = ERR_reason_error_string(code) { reasons.append(String(cString: reason)) }
        }
        return reasons.joined(separator: "; ")
    }
}

/// A TCP connection with a deadline: getaddrinfo, a non-blocking connect per address bounded by
/// poll, then the remaining time as the socket's send and receive timeouts (the handshake's bound).
enum TCP {
    static func connect(host: String, port: UInt16, deadline: Date) throws(CLIError) -> (Int32, String) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>? = nil
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw CLIError("cannot resolve '\(Output.echo(host))': \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var failures: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            entry = current.pointee.ai_next
            let address = describe(current.pointee.ai_addr, port: port)
            let fd = socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            let flags = fcntl(fd, F_GETFL, 0)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            var result = Glibc.connect(fd, current.pointee.ai_addr, current.pointee.ai_addrlen)
            if result != 0 && errno == EINPROGRESS {
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let remaining = max(0, Int32(deadline.timeIntervalSinceNow * 1000))
                if poll(&descriptor, 1, remaining) == 1 {
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    result = error == 0 ? 0 : -1
                    errno = error
                } else {
                    errno = ETIMEDOUT
                }
            }
            guard result == 0 else {
                let reason = errno == ETIMEDOUT ? "no connection within the timeout" : String(cString: strerror(errno))
                failures.append(address == "\(host):\(port)" || address == "[\(host)]:\(port)" ? reason : "\(address): \(reason)")
                close(fd)
                continue
            }
            _ = fcntl(fd, F_SETFL, flags)
            let remaining = max(0.001, deadline.timeIntervalSinceNow)
            var limit = timeval(tv_sec: Int(remaining), tv_usec: Int((remaining - remaining.rounded(.down)) * 1_000_000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            return (fd, address)
        }
        throw CLIError("cannot connect to \(Output.echo(host)):\(port): " + (failures.isEmpty ? "no usable address" : failures.joined(separator: "; ")))
    }

    /// `192.0.2.1:443`, `[2001:db8::1]:443`.
    static func describe(_ address: UnsafeMutablePointer<sockaddr>?, port: UInt16) -> String {
        guard let address else { return "?" }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if Int32(address.pointee.sa_family) == AF_INET6 {
            address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { var a = $0.pointee.sin6_addr; _ = inet_ntop(AF_INET6, &a, &buffer, socklen_t(buffer.count)) }
            return "[\(text(buffer))]:\(port)"
        }
        address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { var a = $0.pointee.sin_addr; _ = inet_ntop(AF_INET, &a, &buffer, socklen_t(buffer.count)) }
        return "\(text(buffer)):\(port)"
    }

    /// A NUL-terminated C string in a buffer.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Shuts a socket down at the handshake's deadline unless the handshake finished first (the
/// socket is closed only after ``finish()``, so a late timer never touches a reused descriptor).
final class HandshakeWatchdog: @unchecked Sendable {
    private let fd: Int32
    private let finished = Locked(false)

    init(fd: Int32) { self.fd = fd }

    func fire() {
        finished.withLock { finished in
            if !finished { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    func finish() { finished.withLock { $0 = true } }
}
