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
        evaluate(certificate, issuer: issuer, policy: policy, logs: logs, tlsSCTLists: tlsSCTLists, ocspResponses: ocspResponses,
                 validationTime: validationTime, verifier: verifier, spendVerification: { _, _ in true })
    }

    /// The most SCTs examined from one source (the embedded list, the TLS extension lists, the
    /// stapled OCSP responses): a certificate carries a handful (CT policies ask for 2 or 3), and
    /// each examined SCT may cost a signature verification.
    public static let maximumSCTsPerSource = 64

    /// ``evaluate(_:issuer:policy:logs:tlsSCTLists:ocspResponses:validationTime:verifier:)``, asking
    /// `spendVerification` (the log's key, the signed data's length) before each signature
    /// verification: `false` (the evaluation's budget is spent) leaves that SCT and the rest unverified.
    /// Bounded: SCTs of logs the list does not know are not verified; of the SCTs of one log over
    /// one entry, none after the first that verifies is verified (a log counts once), and identical
    /// SCT bytes are verified once; at most ``maximumSCTsPerSource`` SCTs per source are examined.
    static func evaluate(_ certificate: Certificate, issuer: Certificate?, policy: CTPolicy, logs: CTLogList?,
                         tlsSCTLists: [[UInt8]], ocspResponses: [OCSPResponse], validationTime: UnixTime,
                         verifier: SignatureVerifier, spendVerification: (CTLogList.Log, Int) -> Bool) -> CertificateTransparencyReport {
        var found: [(SignedCertificateTimestamp, SCTCheck.Source)] = []
        var problems: [SCTListProblem] = []
        var unknownVersions = 0
        var unexamined = 0
        func collect(_ read: () throws(SCTListError) -> SignedCertificateTimestampList?, _ source: SCTCheck.Source) {
            do throws(SCTListError) {
                guard let list = try read() else { return }
                let room = max(0, maximumSCTsPerSource - found.lazy.filter { $0.1 == source }.count)
                found += list.timestamps.prefix(room).map { ($0, source) }
                unexamined += max(0, list.timestamps.count - room)
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
            var report = CertificateTransparencyReport(policy: policy, lifetimeDays: lifetime.days, timestamps: checks, listProblems: problems,
                                                       ignoredUnknownVersions: unknownVersions, unmetRules: [.noLogList])
            report.unexaminedSCTs = unexamined
            return report
        }
        /// What is known per log and entry kind (embedded: precert_entry; else x509_entry): the
        /// status of each SCT's bytes verified, and whether one verified.
        struct Seen: Hashable {
            let log: SHA256Digest
            let embedded: Bool
        }
        var statuses: [Seen: [(SignedCertificateTimestamp, SCTCheck.Status)]] = [:]
        var budgetSpent = false
        func checkStatus(of sct: SignedCertificateTimestamp, log: CTLogList.Log, embedded: Bool, entry: CTSignedEntry) -> SCTCheck.Status {
            let seen = Seen(log: log.logID, embedded: embedded)
            let earlier = statuses[seen] ?? []
            if let same = earlier.first(where: { $0.0 == sct }) { return same.1 }
            if earlier.contains(where: { $0.1 == .verified }) {
                return .unverifiable("another SCT from the same log already verified (a log counts once)")
            }
            let result: SCTCheck.Status
            let length: Int
            switch entry {
            case .x509(let certificate): length = certificate.der.count + 16 + sct.extensions.count
            case .precertificate(let tbs, _): length = tbs.count + 48 + sct.extensions.count
            }
            if budgetSpent || !spendVerification(log, length) {
                budgetSpent = true
                result = .unverifiable("the evaluation's signature budget is spent")
            } else {
                result = verify(sct, entry: entry, log: log, validationTime: validationTime, verifier: verifier)
            }
            statuses[seen, default: []].append((sct, result))
            return result
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
                case .some(.some(.success(let entry))): status = checkStatus(of: sct, log: log, embedded: true, entry: entry)
                case .some(.some(.failure(let error))): status = .unverifiable("the TBSCertificate does not re-encode: \(error)")
                default: status = .unverifiable("the issuer is not known")
                }
            } else {
                status = checkStatus(of: sct, log: log, embedded: false, entry: .x509(certificate))
            }
            checks.append(SCTCheck(sct: sct, source: source, log: log, operatorName: op.name, status: status))
        }
        let rules = CTPolicyRules.apply(policy, lifetime: lifetime, checks: &checks, validationTime: validationTime)
        var report = CertificateTransparencyReport(policy: policy, lifetimeDays: lifetime.days, timestamps: checks, listProblems: problems,
                                                   ignoredUnknownVersions: unknownVersions, unmetRules: rules)
        report.unexaminedSCTs = unexamined
        return report
    }
}
