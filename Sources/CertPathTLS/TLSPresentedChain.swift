import CLibSSL
import CertPath

/// What a TLS peer presented: its certificate chain as sent (leaf first, RFC 8446 4.4.2 /
/// RFC 5246 7.4.2) and the OCSP response it stapled, each parsed by CertPath.
public struct TLSPresentedChain: Sendable {
    /// Every certificate of the Certificate message, in the order sent; the first is the leaf.
    public let certificates: [Certificate]
    /// The stapled OCSP response (RFC 6066 section 8, RFC 8446 4.4.2.1), when one was sent and parses.
    public let stapledOCSPResponse: OCSPResponse?
    /// Why a stapled response was not used: it did not parse (the DER error). A response that cannot
    /// be read is not evidence; the evaluation runs without it.
    public let stapledOCSPError: String?
    /// Whether this side asked the peer for a stapled response (a client's ClientHello offered
    /// status_request, RFC 6066 section 8): only then can a missing staple fail a certificate whose
    /// TLS feature extension lists status_request (RFC 7633 4.3.3).
    public let requestedOCSPStaple: Bool
    /// The `SignedCertificateTimestampList` the server sent in the TLS `signed_certificate_timestamp`
    /// extension (RFC 6962 3.3.1), exactly as sent, when the client asked for it
    /// (``TLSSignedCertificateTimestamps/request(on:)``) and the server sent one; `nil` otherwise.
    public let signedCertificateTimestampList: [UInt8]?

    /// The peer's end-entity certificate.
    public var leaf: Certificate { certificates[0] }
    /// The rest of the chain, untrusted intermediates for path building.
    public var intermediates: [Certificate] { Array(certificates.dropFirst()) }

    /// A presented chain from certificates already parsed (leaf first; at least one).
    public init(certificates: [Certificate], stapledOCSPResponse: OCSPResponse? = nil, stapledOCSPError: String? = nil,
                requestedOCSPStaple: Bool = false, signedCertificateTimestampList: [UInt8]? = nil) {
        precondition(!certificates.isEmpty, "a presented chain has a leaf")
        self.certificates = certificates
        self.stapledOCSPResponse = stapledOCSPResponse
        self.stapledOCSPError = stapledOCSPError
        self.requestedOCSPStaple = requestedOCSPStaple
        self.signedCertificateTimestampList = signedCertificateTimestampList
    }

    /// The stapled responses for ``TrustEvaluation/stapledOCSPResponses``: `nil` when no staple was
    /// asked for, else the one that parses (none: empty).
    public var stapledOCSPResponses: [OCSPResponse]? {
        requestedOCSPStaple ? stapledOCSPResponse.map { [$0] } ?? [] : nil
    }

    /// The chain an established connection's peer presented, read with `SSL_get1_peer_certificate`
    /// and `SSL_get_peer_cert_chain` (DER through `i2d_X509`), and its stapled OCSP response
    /// (`SSL_get_tlsext_status_ocsp_resp`), and its SCT list from the TLS extension when the context
    /// asked for it (``TLSSignedCertificateTimestamps``). `ssl` is an `SSL *`.
    ///
    /// - Throws: ``TLSRefusal/noPeerCertificate`` when the peer sent none,
    ///   ``TLSRefusal/malformedCertificate(index:reason:)`` when one does not parse.
    public static func presented(by ssl: OpaquePointer) throws(TLSRefusal) -> TLSPresentedChain {
        guard let leaf = SSL_get1_peer_certificate(ssl) else { throw .noPeerCertificate }
        defer { X509_free(leaf) }
        return try read(leaf: leaf, stack: SSL_get_peer_cert_chain(ssl), ssl: ssl)
    }

    /// The leaf `leaf`, then every certificate of `stack` that is not the leaf itself (a client's
    /// `SSL_get_peer_cert_chain` starts with the leaf, a server's does not), then the staple of `ssl`.
    static func read(leaf: OpaquePointer, stack: OpaquePointer?, ssl: OpaquePointer) throws(TLSRefusal) -> TLSPresentedChain {
        let leafDER = try der(of: leaf, index: 0)
        var encoded = [leafDER]
        let count = certpath_x509_stack_count(stack)
        for position in 0..<count {
            guard let certificate = certpath_x509_stack_value(stack, position) else { continue }
            if position == 0, certificate == leaf { continue }
            let bytes = try der(of: certificate, index: encoded.count)
            if position == 0, bytes == leafDER { continue }
            encoded.append(bytes)
        }
        var certificates: [Certificate] = []
        certificates.reserveCapacity(encoded.count)
        for (index, bytes) in encoded.enumerated() {
            do throws(DERError) {
                certificates.append(try Certificate(derEncoded: bytes))
            } catch {
                throw .malformedCertificate(index: index, reason: "\(error)")
            }
        }
        let (response, error) = stapledResponse(ssl)
        let requested = SSL_is_server(ssl) == 0 && certpath_ssl_ocsp_staple_requested(ssl) == 1
        return TLSPresentedChain(certificates: certificates, stapledOCSPResponse: response, stapledOCSPError: error,
                                 requestedOCSPStaple: requested,
                                 signedCertificateTimestampList: TLSSignedCertificateTimestamps.received(by: ssl))
    }

    /// `i2d_X509` of one certificate.
    private static func der(of certificate: OpaquePointer, index: Int) throws(TLSRefusal) -> [UInt8] {
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { throw .malformedCertificate(index: index, reason: "OpenSSL could not encode it (i2d_X509)") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_X509(certificate, &cursor)
        }
        guard written == length else { throw .malformedCertificate(index: index, reason: "OpenSSL could not encode it (i2d_X509)") }
        return bytes
    }

    /// The stapled OCSP response of `ssl`, parsed, or why it could not be.
    static func stapledResponse(_ ssl: OpaquePointer) -> (OCSPResponse?, String?) {
        var bytes: UnsafePointer<UInt8>? = nil
        let length = certpath_ssl_stapled_ocsp(ssl, &bytes)
        guard length > 0, let bytes else { return (nil, nil) }
        let der = Array(UnsafeBufferPointer(start: bytes, count: length))
        do throws(DERError) {
            return (try OCSPResponse(derEncoded: der), nil)
        } catch {
            return (nil, "the stapled OCSP response does not parse: \(error)")
        }
    }
}
