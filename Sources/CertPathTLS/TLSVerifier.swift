import CLibSSL
import CertPath
import Synchronization

/// CertPath as the certificate verifier of an OpenSSL `SSL_CTX`: the peer's chain is evaluated by
/// ``TrustEvaluation`` instead of `X509_verify_cert`, and the ``TrustResult`` decides the handshake.
///
/// ```swift
/// // Client: authenticate the server by its host name, anchors only.
/// let verifier = TLSVerifier(role: .serverAuthentication(), settings: TLSTrustSettings(trustStore: TrustStore(anchors: [root])))
/// verifier.install(on: ctx)                                      // ctx: SSL_CTX *
/// let ssl = SSL_new(ctx)
/// try TLSVerifier.prepareClient(ssl, serverName: ReferenceIdentifier("server.customer1.example"))
/// // ... SSL_connect ...
/// let verification = TLSVerifier.verification(of: ssl)          // the full TrustResult
///
/// // Server: demand a client certificate issued under the root, for clientAuth.
/// TLSVerifier(role: .clientAuthentication(), settings: settings).install(on: serverCtx)
/// ```
///
/// `install(on:)` sets `SSL_CTX_set_cert_verify_callback` (OpenSSL 3, ssl/ssl_lib.c; the callback
/// replaces the whole of `X509_verify_cert`) and the verify mode (`SSL_VERIFY_PEER`, plus
/// `SSL_VERIFY_FAIL_IF_NO_PEER_CERT` when a client certificate is required). In the callback the
/// peer's chain (the `X509_STORE_CTX`'s certificate and untrusted chain, as DER through `i2d_X509`)
/// and, when already received, its stapled OCSP response are evaluated; an untrusted result sets
/// an `X509_V_ERR_*` code on the store context (``TLSAlertMapping``) and returns 0, so OpenSSL fails
/// the handshake with the matching alert.
///
/// Stapled OCSP (client side, ``TLSTrustSettings/useStapledOCSP``): TLS 1.3 carries the response in
/// the leaf's CertificateEntry (RFC 8446 4.4.2.1), so it is part of the first evaluation. TLS 1.2
/// sends it in a CertificateStatus message after the Certificate message (RFC 6066 section 8), so
/// the chain is evaluated first without it and again, with it, from the status callback
/// (`SSL_CTX_set_tlsext_status_cb`, which this verifier takes over); an untrusted result there fails
/// the handshake with `bad_certificate_status_response`, as RFC 6066 section 8 prescribes.
///
/// The verifier is immutable and `Sendable`: one instance serves every connection of a context on
/// any thread. The context keeps it alive (`SSL_CTX` ex_data, released by `SSL_CTX_free`), and each
/// `SSL` keeps its own ``TLSPeerVerification`` (`SSL` ex_data, released by `SSL_free`).
public final class TLSVerifier: Sendable {
    /// Which peer is authenticated, and for what.
    public enum Role: Sendable {
        /// The client side: the server is authenticated (extKeyUsage serverAuth, RFC 6125 names).
        /// `expectedName` applies to every connection unless ``TLSVerifier/prepareClient(_:serverName:)``
        /// sets one; without either the SNI name set on the `SSL` is used, and without that the
        /// handshake is refused (``TLSRefusal/noExpectedServerName``).
        case serverAuthentication(expectedName: ReferenceIdentifier? = nil)
        /// The server side: the client is authenticated (extKeyUsage clientAuth and each of
        /// `expectedNames`). With `certificateRequired` (the default) a client without a certificate
        /// is refused by OpenSSL (`SSL_VERIFY_FAIL_IF_NO_PEER_CERT`: alert certificate_required in
        /// TLS 1.3, handshake_failure in TLS 1.2); without it such a client is let through unverified.
        case clientAuthentication(expectedNames: [ExpectedName] = [], certificateRequired: Bool = true)
    }

    /// The role this verifier plays.
    public let role: Role
    /// The trust decisions' inputs.
    public let settings: TLSTrustSettings

    /// A verifier for `role` with `settings`; ``install(on:)`` puts it to use.
    public init(role: Role, settings: TLSTrustSettings) {
        self.role = role
        self.settings = settings
    }

    /// Installs this verifier on `context` (an `SSL_CTX *`): the certificate verify callback, the
    /// verify mode, on the client side with stapling the OCSP status callback, and on the client side the
    /// request for the server's SCTs (``TLSTrustSettings/requestSignedCertificateTimestamps``). Replaces a
    /// verifier installed before; the context holds a reference until it is freed.
    public func install(on context: OpaquePointer) {
        let retained = Unmanaged.passRetained(self).toOpaque()
        if let previous = SSL_CTX_get_ex_data(context, ExData.contextIndex) {
            Unmanaged<TLSVerifier>.fromOpaque(previous).release()
        }
        SSL_CTX_set_ex_data(context, ExData.contextIndex, retained)
        SSL_CTX_set_cert_verify_callback(context, verifyCallback, retained)
        switch role {
        case .serverAuthentication:
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            if settings.requestSignedCertificateTimestamps { TLSSignedCertificateTimestamps.request(on: context) }
            if settings.useStapledOCSP { certpath_ssl_ctx_set_status_callback(context, statusCallback, retained) }
        case .clientAuthentication(_, let required):
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER | (required ? SSL_VERIFY_FAIL_IF_NO_PEER_CERT : 0), nil)
            // A server that verifies clients needs a session ID context, or OpenSSL refuses every
            // resumption ("session id context uninitialized"). A resumed session was verified in
            // the handshake that made it: no evaluation runs, and ``verification(of:)`` is `nil`
            // (`SSL_session_reused` says so); set your own context to partition sessions by policy.
            _ = SSL_CTX_set_session_id_context(context, Self.sessionIDContext, UInt32(Self.sessionIDContext.count))
        }
    }

    /// The session ID context ``install(on:)`` sets on a server context (`CertPathTLS`).
    static let sessionIDContext: [UInt8] = Array("CertPathTLS".utf8)

    /// Prepares a client connection (`ssl`, an `SSL *` of a context this verifier is installed on):
    /// the server name to authenticate, the SNI name (`SSL_set_tlsext_host_name`, RFC 6066 3; DNS
    /// names only, never an IP address) and the request for a stapled OCSP response
    /// (`SSL_set_tlsext_status_type`) when the settings use stapling. Call before `SSL_connect`.
    ///
    /// - Parameter sniName: the SNI name when it differs from `serverName` (`certpath connect --servername`).
    /// - Throws: ``TLSSetupError`` when OpenSSL refuses the name.
    public static func prepareClient(_ ssl: OpaquePointer, serverName: ReferenceIdentifier, sniName: String? = nil,
                                     requestOCSPStaple: Bool = true) throws(TLSSetupError) {
        ConnectionState.of(ssl, creating: true)?.setExpectedName(serverName)
        let sni: String?
        if let sniName { sni = sniName } else if case .dnsName(let name) = serverName { sni = name.description } else { sni = nil }
        if let sni, certpath_ssl_set_server_name(ssl, sni) != 1 {
            throw TLSSetupError("OpenSSL refused the SNI name '\(sni)' (SSL_set_tlsext_host_name)")
        }
        if requestOCSPStaple, certpath_ssl_request_ocsp_staple(ssl) != 1 {
            throw TLSSetupError("OpenSSL refused to request a stapled OCSP response (SSL_set_tlsext_status_type)")
        }
    }

    /// The verification of `ssl`'s peer (an `SSL *`), once its chain has been verified: the full
    /// ``TrustResult``, what the peer presented and the alert code. `nil` before, and when no chain
    /// was verified (a client that sent no certificate).
    public static func verification(of ssl: OpaquePointer) -> TLSPeerVerification? {
        ConnectionState.of(ssl, creating: false)?.verification
    }

    /// The verify callback's work, for a caller that keeps its own `SSL_CTX_set_cert_verify_callback`
    /// (to log, to time, to add a check) and calls CertPath from it: evaluates the chain of
    /// `storeContext` (an `X509_STORE_CTX *` of a handshake) exactly as the installed callback does,
    /// records the ``TLSPeerVerification`` and sets the `X509_V_ERR_*` code; returns whether the
    /// handshake may go on (the callback's 1 or 0).
    public func verify(_ storeContext: OpaquePointer) -> Bool {
        guard let ssl = certpath_store_ctx_ssl(storeContext) else {
            X509_STORE_CTX_set_error(storeContext, X509_V_ERR_INVALID_CALL)
            return false
        }
        return verify(storeContext: storeContext, ssl: ssl)
    }

    /// The purpose the role asks of the peer's chain, or the refusal when the name is missing.
    func purpose(for ssl: OpaquePointer, state: ConnectionState) -> Result<ValidationPurpose, TLSRefusal> {
        switch role {
        case .clientAuthentication(let names, _):
            return .success(.clientAuthentication(expectedNames: names))
        case .serverAuthentication(let configured):
            if let name = state.expectedName ?? configured { return .success(.serverAuthentication(name)) }
            if let sni = SSL_get_servername(ssl, Int32(TLSEXT_NAMETYPE_host_name)),
               let name = try? ReferenceIdentifier(String(cString: sni)) {
                return .success(.serverAuthentication(name))
            }
            return .failure(.noExpectedServerName)
        }
    }

    /// The verify callback's work: evaluates the chain of `storeContext` for `ssl`; returns whether
    /// the handshake goes on, with the error code set on the store context when it does not.
    func verify(storeContext: OpaquePointer, ssl: OpaquePointer) -> Bool {
        guard let state = ConnectionState.of(ssl, creating: true) else {
            X509_STORE_CTX_set_error(storeContext, X509_V_ERR_OUT_OF_MEM)
            return false
        }
        let presented: TLSPresentedChain
        do throws(TLSRefusal) {
            guard let leaf = X509_STORE_CTX_get0_cert(storeContext) else { throw .noPeerCertificate }
            presented = try TLSPresentedChain.read(leaf: leaf, stack: X509_STORE_CTX_get0_untrusted(storeContext), ssl: ssl)
        } catch {
            return refuse(error, presented: nil, state: state, storeContext: storeContext)
        }
        let purpose: ValidationPurpose
        switch self.purpose(for: ssl, state: state) {
        case .success(let found): purpose = found
        case .failure(let refusal): return refuse(refusal, presented: presented, state: state, storeContext: storeContext)
        }
        let evaluation = settings.evaluation(of: presented, purpose: purpose)
        let result = evaluation.evaluate()
        // TLS 1.2: the stapled response, if any, arrives after this (CertificateStatus); a result
        // whose only failures are an undetermined status, or the staple a must-staple certificate
        // needs (RFC 7633), waits for it (statusCallback decides).
        let stapleMayFollow = isClientWaitingForStaple(ssl, presented: presented)
        let verdict = Self.verdict(result, leaf: presented.leaf)
        state.record(TLSPeerVerification(outcome: .evaluated(result), presented: presented, evaluation: evaluation, verifyError: verdict),
                     stapleConsidered: !stapleMayFollow)
        if verdict == X509_V_OK { return true }
        if stapleMayFollow, let report = result.report, report.failures.allSatisfy(Self.mayBeSettledByStaple) { return true }
        X509_STORE_CTX_set_error(storeContext, verdict)
        return false
    }

    /// The status callback's work (client side, after the server's stapled response or its absence
    /// is known): evaluates again with the staple when the first evaluation could not see it.
    func checkStaple(ssl: OpaquePointer) -> Bool {
        guard let state = ConnectionState.of(ssl, creating: false), let first = state.verification else { return true }
        if state.stapleConsidered {
            return first.verifyError == X509_V_OK
        }
        guard let presented = first.presented, case .evaluated = first.outcome else { return first.verifyError == X509_V_OK }
        let (response, error) = TLSPresentedChain.stapledResponse(ssl)
        let withStaple = TLSPresentedChain(certificates: presented.certificates, stapledOCSPResponse: response, stapledOCSPError: error,
                                           requestedOCSPStaple: presented.requestedOCSPStaple,
                                           signedCertificateTimestampList: presented.signedCertificateTimestampList)
        let evaluation = settings.evaluation(of: withStaple, purpose: first.evaluation?.policy.purpose ?? .any)
        let result = evaluation.evaluate()
        let verdict = Self.verdict(result, leaf: presented.leaf)
        state.record(TLSPeerVerification(outcome: .evaluated(result), presented: withStaple, evaluation: evaluation, verifyError: verdict,
                                         decidedWithStaple: true), stapleConsidered: true)
        return verdict == X509_V_OK
    }

    /// Whether a staple still to come may remove `failure`: an undetermined status, or a missing must-staple response.
    private static func mayBeSettledByStaple(_ failure: ValidationFailure) -> Bool {
        switch failure {
        case .revocationUnknown, .missingStapledOCSPResponse: return true
        default: return false
        }
    }

    /// Whether this is a client that asked for a staple, in TLS 1.2, and has none yet: only then
    /// does the status callback run later (a result is never deferred to a callback that will not come).
    private func isClientWaitingForStaple(_ ssl: OpaquePointer, presented: TLSPresentedChain) -> Bool {
        guard case .serverAuthentication = role, settings.useStapledOCSP, SSL_is_server(ssl) == 0,
              certpath_ssl_ocsp_staple_requested(ssl) == 1 else { return false }
        return SSL_version(ssl) < TLS1_3_VERSION && presented.stapledOCSPResponse == nil && presented.stapledOCSPError == nil
    }

    private func refuse(_ refusal: TLSRefusal, presented: TLSPresentedChain?, state: ConnectionState,
                        storeContext: OpaquePointer) -> Bool {
        state.record(TLSPeerVerification(outcome: .refused(refusal), presented: presented, evaluation: nil,
                                         verifyError: X509_V_ERR_CERT_REJECTED), stapleConsidered: true)
        X509_STORE_CTX_set_error(storeContext, X509_V_ERR_CERT_REJECTED)
        return false
    }

    /// `X509_V_OK` for a trusted result, else the code for its primary failure.
    static func verdict(_ result: TrustResult, leaf: Certificate) -> Int32 {
        guard let failure = result.primaryFailure else { return X509_V_OK }
        return TLSAlertMapping.verifyError(for: failure, leaf: leaf)
    }
}

/// OpenSSL refused a setting (a name it cannot send, a request it cannot make).
public struct TLSSetupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was refused, in plain words.
    public let message: String
    init(_ message: String) { self.message = message }
    /// ``message``.
    public var description: String { message }
}

// MARK: - C callbacks

/// `SSL_CTX_set_cert_verify_callback`'s callback: `int (*)(X509_STORE_CTX *, void *arg)`, `arg` the
/// retained ``TLSVerifier``. Returns 1 to accept the chain, 0 to fail the handshake.
private let verifyCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { storeContext, argument in
    guard let storeContext, let argument else { return 0 }
    return Unmanaged<TLSVerifier>.fromOpaque(argument).takeUnretainedValue().verify(storeContext) ? 1 : 0
}

/// `SSL_CTX_set_tlsext_status_cb`'s callback on the client: `int (*)(SSL *, void *arg)`; 1 accepts,
/// 0 fails the handshake with bad_certificate_status_response.
private let statusCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { ssl, argument in
    guard let ssl, let argument else { return 0 }
    let verifier = Unmanaged<TLSVerifier>.fromOpaque(argument).takeUnretainedValue()
    return verifier.checkStaple(ssl: ssl) ? 1 : 0
}

/// The ex_data slots: one per `SSL_CTX` for the installed verifier, one per `SSL` for its state.
enum ExData {
    /// Allocated once per process (Swift globals and static lets are initialized once, thread-safely).
    static let contextIndex: Int32 = certpath_ssl_ctx_ex_index(releaseRetained)
    static let connectionIndex: Int32 = certpath_ssl_ex_index(releaseRetained)
}

/// `CRYPTO_EX_free`: releases the object an ex_data slot retains when its `SSL_CTX` or `SSL` is freed.
private let releaseRetained: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<CRYPTO_EX_DATA>?,
                                             Int32, Int, UnsafeMutableRawPointer?) -> Void = { _, pointer, _, _, _, _ in
    guard let pointer else { return }
    Unmanaged<AnyObject>.fromOpaque(pointer).release()
}

/// One connection's verification state, kept in the `SSL`'s ex_data.
final class ConnectionState: Sendable {
    private struct Fields {
        var expectedName: ReferenceIdentifier?
        var verification: TLSPeerVerification?
        var stapleConsidered = true
        var signedCertificateTimestampList: [UInt8]?
    }
    private let fields = Mutex(Fields())

    var expectedName: ReferenceIdentifier? { fields.withLock { $0.expectedName } }
    var verification: TLSPeerVerification? { fields.withLock { $0.verification } }
    var stapleConsidered: Bool { fields.withLock { $0.stapleConsidered } }

    /// The server's SCT list from the TLS extension (``TLSSignedCertificateTimestamps``).
    var signedCertificateTimestampList: [UInt8]? { fields.withLock { $0.signedCertificateTimestampList } }

    func setExpectedName(_ name: ReferenceIdentifier) { fields.withLock { $0.expectedName = name } }
    func setSignedCertificateTimestampList(_ list: [UInt8]) { fields.withLock { $0.signedCertificateTimestampList = list } }

    func record(_ verification: TLSPeerVerification, stapleConsidered: Bool) {
        fields.withLock {
            $0.verification = verification
            $0.stapleConsidered = stapleConsidered
        }
    }

    /// The state of `ssl`, created on first use when `creating`.
    static func of(_ ssl: OpaquePointer, creating: Bool) -> ConnectionState? {
        if let existing = SSL_get_ex_data(ssl, ExData.connectionIndex) {
            return Unmanaged<ConnectionState>.fromOpaque(existing).takeUnretainedValue()
        }
        guard creating else { return nil }
        let state = ConnectionState()
        let retained = Unmanaged.passRetained(state).toOpaque()
        guard SSL_set_ex_data(ssl, ExData.connectionIndex, retained) == 1 else {
            Unmanaged<ConnectionState>.fromOpaque(retained).release()
            return nil
        }
        return state
    }
}
