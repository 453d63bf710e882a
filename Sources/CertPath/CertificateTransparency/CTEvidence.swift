/// What one evaluation knows for Certificate Transparency: the caller's log list, the SCT lists of
/// the TLS handshake and the stapled OCSP responses (``TrustEvaluation``). Reports are kept per
/// issuer key and policy, so that the SCTs of the end entity are verified once however many paths
/// are judged (an embedded SCT's signed data depends only on the issuer's key).
///
/// Used by one evaluation on one thread, as ``EvaluationContext`` is.
final class CTEvidence: @unchecked Sendable {
    let logs: CTLogList?
    let tlsSCTLists: [[UInt8]]
    let ocspResponses: [OCSPResponse]
    /// The evaluation's intermediates, for ``PathPipeline/continuesToPublicAnchor(_:_:)``.
    let intermediates: [Certificate]
    /// Per anchor (the stores' objects, alive for the evaluation): whether it continues to a public
    /// Web PKI anchor (``PathPipeline/continuesToPublicAnchor(_:_:)``).
    var continuesPublicly: [ObjectIdentifier: Bool] = [:]
    private var reports: [MemoKey: CertificateTransparencyReport] = [:]

    private struct MemoKey: Hashable {
        let issuerKey: [UInt8]
        let policy: CTPolicy
    }

    init(logs: CTLogList?, tlsSCTLists: [[UInt8]], ocspResponses: [OCSPResponse], intermediates: [Certificate] = []) {
        self.intermediates = intermediates
        self.logs = logs
        self.tlsSCTLists = tlsSCTLists
        self.ocspResponses = ocspResponses
    }

    /// The report for `leaf` issued by `issuer` (`nil` for a directly trusted leaf whose issuer the
    /// path does not hold: its embedded SCTs cannot be verified) under `policy` (``CertificateTransparency/evaluate(_:issuer:policy:logs:tlsSCTLists:ocspResponses:validationTime:verifier:)``).
    func report(for leaf: Certificate, issuer: Certificate?, policy: CTPolicy, context: EvaluationContext) -> CertificateTransparencyReport {
        let key = MemoKey(issuerKey: issuer.map { Array($0.subjectPublicKeyInfo.der) } ?? [], policy: policy)
        if let known = reports[key] { return known }
        let report = CertificateTransparency.evaluate(leaf, issuer: issuer, policy: policy, logs: logs, tlsSCTLists: tlsSCTLists,
                                                      ocspResponses: ocspResponses, validationTime: context.validationTime,
                                                      verifier: context.crypto, spendVerification: { log, length in
                                                          context.spendSCTVerification(logKey: log.key, messageLength: length)
                                                      })
        reports[key] = report
        return report
    }
}
