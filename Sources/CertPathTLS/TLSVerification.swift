import CLibSSL
import CertPath

/// Why a peer was refused before CertPath could evaluate its chain.
public enum TLSRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The peer sent no certificate (only possible when client certificates are optional).
    case noPeerCertificate
    /// Certificate `index` of the peer's chain (0: the leaf) is not a certificate CertPath can read.
    case malformedCertificate(index: Int, reason: String)
    /// Server authentication without a reference identifier: neither the role, the connection
    /// (``TLSVerifier/prepareClient(_:serverName:)``) nor the SNI name gave one (RFC 6125 6.2.1).
    case noExpectedServerName

    /// The refusal in plain words, for logs and reports.
    public var description: String {
        switch self {
        case .noPeerCertificate: return "the peer sent no certificate"
        case .malformedCertificate(let index, let reason):
            return "certificate \(index + 1) of the peer's chain (the leaf is 1, as verify counts) is malformed: \(reason)"
        case .noExpectedServerName: return "no expected server name was set for this connection"
        }
    }
}

/// What CertPath decided about one connection's peer, kept with the `SSL` until it is freed
/// (``TLSVerifier/verification(of:)``).
public struct TLSPeerVerification: Sendable {
    /// Evaluated (the result decided the handshake) or refused before evaluation.
    public enum Outcome: Sendable {
        /// The chain was evaluated; trusted results let the handshake go on.
        case evaluated(TrustResult)
        /// The chain could not be evaluated; the handshake was refused.
        case refused(TLSRefusal)
    }

    /// The decision.
    public let outcome: Outcome
    /// What the peer presented, when it could be read.
    public let presented: TLSPresentedChain?
    /// The evaluation that was run (its inputs, for rendering a report), when there was one.
    public let evaluation: TrustEvaluation?
    /// The `X509_V_ERR_*` code set on the `X509_STORE_CTX` (`X509_V_OK` when trusted), which
    /// `SSL_get_verify_result` returns and from which OpenSSL chooses the alert.
    public let verifyError: Int32
    /// Whether this decision was made by the TLS 1.2 status callback, once the stapled response
    /// (or its absence) was known: a refusal then fails the handshake with
    /// bad_certificate_status_response (RFC 6066 8).
    public let decidedWithStaple: Bool

    init(outcome: Outcome, presented: TLSPresentedChain?, evaluation: TrustEvaluation?, verifyError: Int32, decidedWithStaple: Bool = false) {
        self.outcome = outcome
        self.presented = presented
        self.evaluation = evaluation
        self.verifyError = verifyError
        self.decidedWithStaple = decidedWithStaple
    }

    /// The full result, when the chain was evaluated.
    public var result: TrustResult? {
        if case .evaluated(let result) = outcome { return result }
        return nil
    }

    /// Whether the peer was trusted.
    public var isTrusted: Bool { result?.isTrusted ?? false }

    /// The TLS alert (RFC 8446 6.2) OpenSSL sends for ``verifyError``, by its RFC name
    /// (`certificate_expired`; `bad_certificate_status_response` for a refusal of
    /// ``decidedWithStaple``), or `nil` when trusted.
    public var alertName: String? {
        guard verifyError != X509_V_OK else { return nil }
        return decidedWithStaple ? "bad_certificate_status_response" : TLSAlertMapping.alertName(forVerifyError: verifyError)
    }
}

/// How a CertPath verdict becomes the `X509_V_ERR_*` code OpenSSL turns into an alert
/// (`ssl_x509err2alert` in OpenSSL 3's ssl/statem/statem_lib.c).
///
/// | failure | X509_V_ERR | alert |
/// |---|---|---|
/// | expired | CERT_HAS_EXPIRED | certificate_expired |
/// | revoked | CERT_REVOKED | certificate_revoked |
/// | issuerNotFound, noTrustedAnchor | UNABLE_TO_GET_ISSUER_CERT_LOCALLY | unknown_ca |
/// | selfSignedNotTrusted | DEPTH_ZERO_SELF_SIGNED_CERT (leaf) / SELF_SIGNED_CERT_IN_CHAIN | unknown_ca |
/// | notYetValid | CERT_NOT_YET_VALID | bad_certificate |
/// | hostnameMismatch | HOSTNAME_MISMATCH (IP_ADDRESS_MISMATCH for an IP) | bad_certificate |
/// | nameMismatch | HOSTNAME_MISMATCH / EMAIL_MISMATCH / IP_ADDRESS_MISMATCH | bad_certificate |
/// | revocationUnknown | OCSP_CERT_UNKNOWN | certificate_unknown |
/// | missingStapledOCSPResponse (RFC 7633) | CERT_REJECTED | bad_certificate; TLS 1.2 decides it in the status callback: bad_certificate_status_response |
/// | every other failure, and a refusal | CERT_REJECTED | bad_certificate |
///
/// Every other failure (a bad signature, a constraint, the extKeyUsage, a malformed certificate…) is
/// a certificate that is "corrupt, contained signatures that did not verify correctly, etc."
/// (RFC 8446 6.2, bad_certificate); OpenSSL's own codes for some of them would send
/// decrypt_error or unsupported_certificate instead, which describe handshake signatures and
/// certificate types. The precise reason is in ``TLSPeerVerification/result``.
public enum TLSAlertMapping {
    /// The `X509_V_ERR_*` code for a primary failure.
    public static func verifyError(for failure: ValidationFailure, leaf: Certificate) -> Int32 {
        switch failure {
        case .expired: return X509_V_ERR_CERT_HAS_EXPIRED
        case .revoked: return X509_V_ERR_CERT_REVOKED
        case .issuerNotFound, .noTrustedAnchor: return X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY
        case .selfSignedNotTrusted(let certificate):
            return certificate == leaf ? X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT : X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN
        case .notYetValid: return X509_V_ERR_CERT_NOT_YET_VALID
        case .hostnameMismatch(_, .ipAddress, _), .nameMismatch(_, .ipAddress, _): return X509_V_ERR_IP_ADDRESS_MISMATCH
        case .hostnameMismatch(_, .dnsName, _), .nameMismatch(_, .dnsName, _): return X509_V_ERR_HOSTNAME_MISMATCH
        case .nameMismatch(_, .email, _): return X509_V_ERR_EMAIL_MISMATCH
        case .revocationUnknown: return X509_V_ERR_OCSP_CERT_UNKNOWN
        default: return X509_V_ERR_CERT_REJECTED
        }
    }

    /// The alert OpenSSL 3 sends for an `X509_V_ERR_*` code this mapping produces, or `nil` for `X509_V_OK`.
    public static func alertName(forVerifyError code: Int32) -> String? {
        switch code {
        case X509_V_OK: return nil
        case X509_V_ERR_CERT_HAS_EXPIRED: return "certificate_expired"
        case X509_V_ERR_CERT_REVOKED: return "certificate_revoked"
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT,
             X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
            return "unknown_ca"
        case X509_V_ERR_CERT_NOT_YET_VALID, X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH,
             X509_V_ERR_EMAIL_MISMATCH, X509_V_ERR_CERT_REJECTED:
            return "bad_certificate"
        default: return "certificate_unknown"
        }
    }
}
