// The client side of the mutual-TLS example: presents its certificate chain and verifies the
// server's with CertPathTLS, through `import CertPathTLS` alone.
import CertPath
import CertPathTLS
#if canImport(Glibc)
import Glibc
#endif

/// A TLS client that presents a client certificate and authenticates the server with CertPathTLS
/// (``TLSVerifier``, role ``TLSVerifier/Role/serverAuthentication(expectedName:)``). One value (one
/// `SSL_CTX`) serves any number of connections, from any thread.
public final class MutualTLSClient: Sendable {
    /// What one connection came to.
    public struct Outcome: Sendable {
        /// Whether the server accepted us: the handshake completed and the server's greeting came.
        public let accepted: Bool
        /// The greeting (`hello <subject>`), when accepted.
        public let greeting: String?
        /// Why not: the alert the server sent as OpenSSL words it (`tlsv1 alert unknown ca`,
        /// `sslv3 alert certificate expired`, `tlsv13 alert certificate required`), or another error.
        public let error: String?

        /// An outcome (for callers that connect by other means, as a test sending bytes that are not TLS).
        public init(accepted: Bool, greeting: String?, error: String?) {
            self.accepted = accepted
            self.greeting = greeting
            self.error = error
        }
    }

    nonisolated(unsafe) private let context: OpaquePointer
    private let serverName: ReferenceIdentifier

    /// A client presenting `chainFile` (PEM, leaf first) with `keyFile`, or no certificate when both
    /// are `nil`, that trusts servers chaining to `anchors` for `serverName`.
    ///
    /// - Parameter version: the one TLS version to offer (`TLS1_2_VERSION`, `TLS1_3_VERSION`), or 0 for both.
    /// - Throws: ``MutualTLSError`` when the files cannot be loaded.
    public init(chainFile: String?, keyFile: String?, anchors: [Certificate], serverName: ReferenceIdentifier,
                version: Int32 = 0) throws(MutualTLSError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw MutualTLSError("SSL_CTX_new failed") }
        _ = certpath_ssl_ctx_set_versions(context, version == 0 ? TLS1_2_VERSION : version, version)
        if let chainFile, let keyFile {
            guard SSL_CTX_use_certificate_chain_file(context, chainFile) == 1,
                  SSL_CTX_use_PrivateKey_file(context, keyFile, SSL_FILETYPE_PEM) == 1, SSL_CTX_check_private_key(context) == 1 else {
                SSL_CTX_free(context)
                throw MutualTLSError("cannot load \(chainFile) and \(keyFile): \(OpenSSLErrors.drain())")
            }
        }
        TLSVerifier(role: .serverAuthentication(), settings: TLSTrustSettings(trustStore: TrustStore(anchors: anchors), useStapledOCSP: false))
            .install(on: context)
        self.context = context
        self.serverName = serverName
    }

    deinit { SSL_CTX_free(context) }

    /// Connects to 127.0.0.1:`port`, completes the handshake and reads the server's greeting. In TLS
    /// 1.3 the server judges our certificate after the handshake completes on our side, so its
    /// refusal arrives as an alert where the greeting would be; in TLS 1.2 it fails the handshake.
    public func connect(port: UInt16) -> Outcome {
        let fd: Int32
        do throws(MutualTLSError) { fd = try Socket.connect(port: port) } catch {
            return Outcome(accepted: false, greeting: nil, error: error.description)
        }
        defer { close(fd) }
        guard let ssl = SSL_new(context) else { return Outcome(accepted: false, greeting: nil, error: "SSL_new failed") }
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, fd)
        do throws(TLSSetupError) {
            try TLSVerifier.prepareClient(ssl, serverName: serverName, requestOCSPStaple: false)
        } catch {
            return Outcome(accepted: false, greeting: nil, error: error.description)
        }
        ERR_clear_error()
        guard SSL_connect(ssl) == 1 else {
            let reason = OpenSSLErrors.drain()
            return Outcome(accepted: false, greeting: nil, error: reason.isEmpty ? "the handshake failed" : reason)
        }
        var greeting: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let read = SSL_read(ssl, &buffer, Int32(buffer.count))
            if read > 0 {
                greeting += buffer.prefix(Int(read))
                if greeting.last == UInt8(ascii: "\n") { break }
                continue
            }
            if SSL_get_error(ssl, read) == SSL_ERROR_ZERO_RETURN, !greeting.isEmpty { break }
            let reason = OpenSSLErrors.drain()
            return Outcome(accepted: false, greeting: nil, error: reason.isEmpty ? "the server closed the connection" : reason)
        }
        SSL_shutdown(ssl)
        return Outcome(accepted: true, greeting: String(decoding: greeting.dropLast(), as: UTF8.self), error: nil)
    }
}
