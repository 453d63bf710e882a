import CLibSSL

/// The server's SCT list from the TLS `signed_certificate_timestamp` extension (RFC 6962 3.3.1,
/// extension type 18): asked for in the ClientHello, received in the TLS 1.2 ServerHello or the
/// TLS 1.3 leaf CertificateEntry (RFC 8446 4.4.2), kept as the exact bytes the server sent.
///
/// ```swift
/// TLSSignedCertificateTimestamps.request(on: ctx)           // ctx: a client SSL_CTX *
/// // ... SSL_connect ...
/// let list = TLSSignedCertificateTimestamps.received(by: ssl) // the SignedCertificateTimestampList
/// ```
///
/// ``TLSVerifier/install(on:)`` calls ``request(on:)`` for a client context, so the list reaches
/// the evaluation in the verify callback (``TLSPresentedChain/signedCertificateTimestampList``).
///
/// The list is read through an OpenSSL custom extension (`SSL_CTX_add_custom_ext`, which OpenSSL 3
/// allows for type 18 as the one built-in type an application may take over), not through
/// `SSL_enable_ct` and `SSL_get0_peer_scts`, because the latter: turns on the OCSP status request as
/// a side effect (`SSL_set_ct_validation_callback`), which would change a must-staple verdict
/// (RFC 7633); parses and caches the SCTs on its first call, which in the verify callback is before
/// the session's peer certificate and a TLS 1.2 stapled response are known; and gives back only
/// OpenSSL's re-encoding of what it could parse (`o2i_SCT_LIST` drops the whole list at one
/// malformed SCT), so a tampered length would never reach CertPath's strict parser and its typed
/// error. The custom extension's parse callback runs while the ServerHello (TLS 1.2) or the
/// Certificate message (TLS 1.3) is processed, before the certificate verify callback, and keeps the
/// bytes as sent. OpenSSL allows one or the other on a context: after ``request(on:)``,
/// `SSL_CTX_enable_ct` fails, and after `SSL_CTX_enable_ct`, ``request(on:)`` does.
public enum TLSSignedCertificateTimestamps {
    /// Makes every client connection of `context` (an `SSL_CTX *`) send an empty
    /// `signed_certificate_timestamp` extension in its ClientHello (RFC 6962 3.3.1: the client asks
    /// for SCTs) and keep the list the server answers with. Idempotent.
    ///
    /// - Returns: `false` when OpenSSL refuses the extension: the context already has OpenSSL's own
    ///   CT validation on (`SSL_CTX_enable_ct`), which owns type 18; then ``received(by:)`` stays `nil`.
    @discardableResult
    public static func request(on context: OpaquePointer) -> Bool {
        if SSL_CTX_has_client_custom_ext(context, UInt32(extensionType)) == 1 { return true }
        let contexts = UInt32(SSL_EXT_CLIENT_HELLO | SSL_EXT_TLS1_2_SERVER_HELLO | SSL_EXT_TLS1_3_CERTIFICATE)
        return SSL_CTX_add_custom_ext(context, UInt32(extensionType), contexts, addCallback, nil, nil, parseCallback, nil) == 1
    }

    /// The `SignedCertificateTimestampList` (RFC 6962 3.3, with its two-byte length) the server of
    /// `ssl` (an `SSL *`) sent in the extension, byte for byte; `nil` when it sent none or the
    /// context did not ``request(on:)`` it. Available from the certificate verify callback on.
    public static func received(by ssl: OpaquePointer) -> [UInt8]? {
        ConnectionState.of(ssl, creating: false)?.signedCertificateTimestampList
    }

    /// The TLS extension type of `signed_certificate_timestamp` (RFC 6962 3.3.1).
    static let extensionType = 18
}

/// `SSL_custom_ext_add_cb_ex`: adds the empty extension to the ClientHello (1: add it), nothing elsewhere (0).
private let addCallback: @convention(c) (OpaquePointer?, UInt32, UInt32, UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
                                         UnsafeMutablePointer<Int>?, OpaquePointer?, Int, UnsafeMutablePointer<Int32>?,
                                         UnsafeMutableRawPointer?) -> Int32 = { _, _, context, output, length, _, _, _, _ in
    guard context & UInt32(SSL_EXT_CLIENT_HELLO) != 0 else { return 0 }
    output?.pointee = nil
    length?.pointee = 0
    return 1
}

/// `SSL_custom_ext_parse_cb_ex`: keeps the server's extension_data on the connection. In TLS 1.3 only
/// the leaf's CertificateEntry counts (chainidx 0, RFC 6962 3.3.1 binds the list to the end entity).
private let parseCallback: @convention(c) (OpaquePointer?, UInt32, UInt32, UnsafePointer<UInt8>?, Int, OpaquePointer?, Int,
                                           UnsafeMutablePointer<Int32>?, UnsafeMutableRawPointer?) -> Int32 = { ssl, _, context, input, length, _, chainIndex, _, _ in
    guard let ssl else { return 0 }
    if context & UInt32(SSL_EXT_TLS1_3_CERTIFICATE) != 0, chainIndex != 0 { return 1 }
    let bytes = length > 0 && input != nil ? Array(UnsafeBufferPointer(start: input, count: length)) : []
    ConnectionState.of(ssl, creating: true)?.setSignedCertificateTimestampList(bytes)
    return 1
}
