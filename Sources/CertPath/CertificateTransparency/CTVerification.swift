import CertPathDER

/// What an SCT's log signed about the certificate (RFC 6962 3.2, the `entry_type` and its entry).
public enum CTSignedEntry: Hashable, Sendable {
    /// `x509_entry`: the certificate's DER, for SCTs delivered by TLS or OCSP.
    case x509(Certificate)
    /// `precert_entry`: the precertificate's TBSCertificate (the certificate's, without the SCT list
    /// extension) and the SHA-256 of its issuer's SubjectPublicKeyInfo, for embedded SCTs.
    case precertificate(tbsCertificate: [UInt8], issuerKeyHash: SHA256Digest)

    /// The `precert_entry` for the SCTs embedded in `certificate`, issued by `issuer` (RFC 6962 3.2:
    /// issuer_key_hash is the SHA-256 of the issuer's DER SubjectPublicKeyInfo; the TBSCertificate
    /// is ``Certificate/precertificateTBSCertificate()``).
    ///
    /// - Throws: ``DERError`` when the TBSCertificate cannot be re-encoded.
    public static func precertificate(of certificate: Certificate, issuedBy issuer: Certificate) throws(DERError) -> CTSignedEntry {
        .precertificate(tbsCertificate: try certificate.precertificateTBSCertificate(),
                        issuerKeyHash: SHA256Digest(hashing: issuer.subjectPublicKeyInfo.der))
    }

    /// The data the log signed for `sct` over this entry: RFC 6962 3.2's digitally-signed struct
    /// (sct_version, signature_type certificate_timestamp, timestamp, entry_type, the entry with its
    /// 24-bit length, the SCT's extensions with their 16-bit length).
    public func signedData(for sct: SignedCertificateTimestamp) -> [UInt8] {
        var data: [UInt8] = [sct.version, 0]  // v1, certificate_timestamp(0)
        data.reserveCapacity(64 + sct.extensions.count)
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: sct.timestamp >> UInt64(shift))) }
        func append24(_ bytes: some Collection<UInt8>) {
            let n = bytes.count
            data += [UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)]
            data += bytes
        }
        switch self {
        case .x509(let certificate):
            data += [0, 0]  // x509_entry(0)
            append24(certificate.der)
        case .precertificate(let tbs, let issuerKeyHash):
            data += [0, 1]  // precert_entry(1)
            data += issuerKeyHash.bytes
            append24(tbs)
        }
        data += [UInt8(truncatingIfNeeded: sct.extensions.count >> 8), UInt8(truncatingIfNeeded: sct.extensions.count)]
        data += sct.extensions
        return data
    }
}

/// Certificate Transparency checks (RFC 6962): one SCT's signature, and a certificate's SCTs
/// against a ``CTPolicy``. ``TrustEvaluation`` runs them for a path that needs CT; `certpath show`
/// and tools call them directly.
public enum CertificateTransparency {
    /// Verifies one SCT (RFC 6962 3.2, 5.2): its log is in `logs`, its timestamp is not after
    /// `validationTime` (compared in whole seconds), its algorithm is ECDSA or RSA with SHA-256 (RFC 6962 2.1.4), and the log's key
    /// verifies its signature over `entry`. One signature verification at most.
    ///
    /// - Returns: the status and the log with its operator when the list knows it.
    public static func verify(_ sct: SignedCertificateTimestamp, entry: CTSignedEntry, logs: CTLogList, validationTime: UnixTime,
                              verifier: SignatureVerifier = .shared) -> (status: SCTCheck.Status, log: CTLogList.Log?, operator: CTLogList.Operator?) {
        guard let id = SHA256Digest(bytes: sct.logID), let (log, op) = logs.log(id: id) else { return (.unknownLog, nil, nil) }
        return (verify(sct, entry: entry, log: log, validationTime: validationTime, verifier: verifier), log, op)
    }

    /// ``verify(_:entry:logs:validationTime:verifier:)`` with the log already found.
    static func verify(_ sct: SignedCertificateTimestamp, entry: CTSignedEntry, log: CTLogList.Log, validationTime: UnixTime,
                       verifier: SignatureVerifier) -> SCTCheck.Status {
        // RFC 6962 5.2 (clients): an SCT from the future is not valid. The validation time is a whole
        // second: an SCT within that second is not after it.
        if validationTime.secondsSinceEpoch < 0 || sct.timestamp / 1000 > UInt64(validationTime.secondsSinceEpoch) { return .futureTimestamp }
        guard let algorithm = sct.signatureAlgorithm.algorithm else { return .unsupportedAlgorithm }
        let spki: SubjectPublicKeyInfo
        do throws(DERError) { spki = try SubjectPublicKeyInfo(derEncoded: log.key) } catch { return .unusableLogKey(error.description) }
        let key: PublicKey
        do throws(PublicKeyError) {
            if let cache = verifier.keyCache { key = try cache.publicKey(for: spki) } else { key = try PublicKey(spki) }
        } catch {
            return .unusableLogKey(error.description)
        }
        let result = key.verify(signature: sct.signature, message: entry.signedData(for: sct), algorithm: algorithm)
        switch result {
        case .verified: return .verified
        case .unsupportedAlgorithm, .algorithmKeyMismatch: return .unsupportedAlgorithm
        case .invalidSignature, .malformedSignature: return .invalidSignature(result)
        }
    }

    /// Examines `certificate`'s SCTs under `policy`: the embedded ones (precert_entry, with `issuer`'s
    /// key hash), those of the TLS extension lists and of stapled OCSP responses about it
    /// (x509_entry); each verified at most once; then the policy's rules (``CTPolicy``).
    ///
    /// - Parameters:
    ///   - certificate: the end-entity certificate.
    ///   - issuer: its issuer (the next certificate of the path, or the anchor), for embedded SCTs.
    ///   - policy: the CT policy whose rules are applied.
    ///   - tlsSCTLists: TLS `signed_certificate_timestamp` extension_data, each one list.
    ///   - ocspResponses: stapled OCSP responses; SingleResponses for the certificate's serial number are read.
    ///   - logs: the log list; `nil` gives ``CTRule/noLogList``.
    ///   - validationTime: the time of check: SCTs after it do not verify, log states are read at it.
    ///   - verifier: the signature verifier, whose key cache keeps the logs' keys loaded.
    /// - Returns: the report; compliant when ``CertificateTransparencyReport/unmetRules`` is empty.
    public static func evaluate(_ certificate: Certificate, issuer: Certificate?, policy: CTPolicy, logs: CTLogList?,
                                tlsSCTLists: [[UInt8]] = [], ocspResponses: [OCSPResponse] = [], validationTime: UnixTime,
                                verifier: SignatureVerifier = .shared) -> CertificateTransparencyReport {
        var found: [(SignedCertificateTimestamp, SCTCheck.Source)] = []
        var problems: [SCTListProblem] = []
        var unknownVersions = 0
        func collect(_ read: () throws(SCTListError) -> SignedCertificateTimestampList?, _ source: SCTCheck.Source) {
            do throws(SCTListError) {
                guard let list = try read() else { return }
                found += list.timestamps.map { ($0, source) }
                unknownVersions += list.unknownVersions.count
            } catch {
                problems.append(SCTListProblem(source: source, error: error))
            }
        }
        collect({ () throws(SCTListError) in try certificate.embeddedSCTList() }, .embedded)
        for bytes in tlsSCTLists { collect({ () throws(SCTListError) in try SignedCertificateTimestampList(tlsEncoded: bytes) }, .tlsExtension) }
        for response in ocspResponses {
            for single in response.basicResponse?.responses ?? [] where single.certID.serialNumber.elementsEqual(certificate.serialNumber) {
                collect({ () throws(SCTListError) in try single.embeddedSCTList() }, .ocspResponse)
            }
        }
        let lifetime = CTPolicyRules.lifetime(of: certificate, under: policy)
        guard let logs else {
            let checks = found.map { SCTCheck(sct: $0.0, source: $0.1, log: nil, operatorName: nil, status: .unknownLog) }
            return CertificateTransparencyReport(policy: policy, lifetimeDays: lifetime.days, timestamps: checks, listProblems: problems,
                                                 ignoredUnknownVersions: unknownVersions, unmetRules: [.noLogList])
        }
        // One entry per source kind, built when first needed.
        var precertificate: Result<CTSignedEntry, DERError>?? = nil
        var checks: [SCTCheck] = []
        for (sct, source) in found {
            guard let id = SHA256Digest(bytes: sct.logID), let (log, op) = logs.log(id: id) else {
                checks.append(SCTCheck(sct: sct, source: source, log: nil, operatorName: nil, status: .unknownLog))
                continue
            }
            let status: SCTCheck.Status
            if source == .embedded {
                if precertificate == nil {
                    precertificate = issuer.map { issuer in
                        do throws(DERError) { return .success(try CTSignedEntry.precertificate(of: certificate, issuedBy: issuer)) } catch { return .failure(error) }
                    }
                }
                switch precertificate {
                case .some(.some(.success(let entry))): status = verify(sct, entry: entry, log: log, validationTime: validationTime, verifier: verifier)
                case .some(.some(.failure(let error))): status = .unverifiable("the TBSCertificate does not re-encode: \(error)")
                default: status = .unverifiable("the issuer is not known")
                }
            } else {
                status = verify(sct, entry: .x509(certificate), log: log, validationTime: validationTime, verifier: verifier)
            }
            checks.append(SCTCheck(sct: sct, source: source, log: log, operatorName: op.name, status: status))
        }
        let rules = CTPolicyRules.apply(policy, lifetime: lifetime, checks: &checks, validationTime: validationTime)
        return CertificateTransparencyReport(policy: policy, lifetimeDays: lifetime.days, timestamps: checks, listProblems: problems,
                                             ignoredUnknownVersions: unknownVersions, unmetRules: rules)
    }
}
