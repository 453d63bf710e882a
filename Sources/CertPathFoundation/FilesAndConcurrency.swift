// CertPathFoundation: reading certificates from files, and evaluating from async code (issue 33:
// `Array(Data(contentsOf:))` boilerplate in every caller; no way to evaluate with network fetching
// without blocking a cooperative thread).
import CertPath
import Dispatch
import Foundation

extension PEM {
    /// The certificates of a file: PEM `CERTIFICATE` blocks (a chain or bundle, in file order) or one
    /// DER certificate (``readCertificates(_:)`` on the file's bytes).
    ///
    /// - Parameter url: a file URL.
    /// - Returns: the certificates in file order, and what was not read as one (text, other blocks:
    ///   a file of none has empty ``CertificateFile/certificates`` and says what it held).
    /// - Throws: the file system's error when the file cannot be read (`CocoaError`), or
    ///   ``CertificateFileError`` when a certificate in it is malformed (the PEM or DER error, with
    ///   the block's line and the byte).
    public static func readCertificates(contentsOf url: URL) throws -> CertificateFile {
        try readCertificates(Array(Data(contentsOf: url)))
    }
}

extension TrustEvaluation {
    /// Evaluates (``evaluate()``) on a thread of its own and resumes the caller with the result, so
    /// an evaluation that fetches over the network (``networkFetching``: blocking HTTP exchanges,
    /// seconds within ``Budget/fetchTime``) never blocks a thread of Swift's cooperative pool: the
    /// spelling of SecTrustEvaluateAsyncWithError. The evaluation is a value (copied), so the caller
    /// may go on changing its own.
    ///
    /// - Returns: the same ``TrustResult`` as ``evaluate()``.
    public func evaluateAsync() async -> TrustResult {
        let evaluation = self
        return await withCheckedContinuation { (continuation: CheckedContinuation<TrustResult, Never>) in
            // A global queue's thread, not the cooperative pool's: evaluate() may block on I/O.
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: evaluation.evaluate())
            }
        }
    }

    /// ``evaluateAsync()``, returning the trusted path or throwing the report of why there is none
    /// (``trustedPath()``'s async spelling).
    ///
    /// - Throws: ``UntrustedReport`` when no path is trusted.
    public func trustedPathAsync() async throws(UntrustedReport) -> TrustedPath {
        switch await evaluateAsync() {
        case .trusted(let path): return path
        case .untrusted(let report): throw report
        }
    }
}
