// The state of RFC 5280 6.3 for one certificate (6.3.2) and the steps that change it (6.3.3 (i)-(l)).

/// Where a certificate's revocation status stands (RFC 5280 6.3.2 `cert_status`, `reasons_mask`).
struct RevocationState: Sendable {
    /// `cert_status`: UNREVOKED until an entry lists the certificate.
    enum Status: Sendable {
        case unrevoked
        /// Listed, by this entry of this CRL.
        case revoked(RevokedCertificate, CertificateRevocationList)
    }

    /// `reasons_mask`: the reasons for which the status has been established so far.
    private(set) var reasonsMask: ReasonFlags = []
    /// `cert_status`.
    private(set) var status: Status = .unrevoked

    /// Whether processing can stop: the certificate is revoked, or every reason is covered.
    var isFinal: Bool {
        if case .revoked = status { return true }
        return reasonsMask.isSuperset(of: .all)
    }

    /// RFC 5280 6.3.3 (i)-(l) for one authenticated complete CRL (and its delta CRL, when one applies)
    /// covering `interimReasons`.
    mutating func apply(complete: CertificateRevocationList, delta: CertificateRevocationList?,
                        for certificate: Certificate, interimReasons: ReasonFlags) {
        var listed: (RevokedCertificate, CertificateRevocationList)? = nil
        let completeEntry = Self.entry(listing: certificate, in: complete)
        // (i): the delta CRL first; its removeFromCRL entry undoes a hold on the complete CRL, but
        // not a permanent revocation: removeFromCRL is for a certificate "removed from hold" (5.3.1),
        // and only a hold is temporary (3.3).
        if let delta, let entry = Self.entry(listing: certificate, in: delta),
           !(entry.effectiveReason == .removeFromCRL && completeEntry.map(Self.severity) == 2) {
            listed = (entry, delta)
        } else if let completeEntry {
            // (j)
            listed = (completeEntry, complete)
        }
        // (k): removeFromCRL means not revoked.
        if let (entry, crl) = listed, entry.effectiveReason != .removeFromCRL {
            status = .revoked(entry, crl)
        }
        // (l)
        reasonsMask.formUnion(interimReasons)
    }

    /// A CRL that is evidence of revocation only (a nonconforming one, ``CRLDefect/forbidsUse`` false):
    /// when it lists `certificate` (not with removeFromCRL), the status is revoked; otherwise nothing
    /// changes, and no reason is covered. Returns whether it listed the certificate.
    ///
    /// With `permanentOnly`, a listing on certificateHold does not count either (an out-of-date CRL:
    /// a hold may have been released since; a revocation may not, RFC 5280 3.3).
    mutating func applyRevocationEvidence(_ crl: CertificateRevocationList, for certificate: Certificate, permanentOnly: Bool = false) -> Bool {
        guard let entry = Self.revocation(of: certificate, in: crl, permanentOnly: permanentOnly) else { return false }
        status = .revoked(entry, crl)
        return true
    }

    /// The entry of `crl` that revokes `certificate`: one listing it other than with removeFromCRL
    /// and, with `permanentOnly`, other than on certificateHold.
    static func revocation(of certificate: Certificate, in crl: CertificateRevocationList, permanentOnly: Bool) -> RevokedCertificate? {
        guard let entry = entry(listing: certificate, in: crl), entry.effectiveReason != .removeFromCRL,
              !(permanentOnly && entry.effectiveReason == .certificateHold) else { return nil }
        return entry
    }

    /// How much an entry revokes: 2 permanently (any reason but certificateHold and removeFromCRL),
    /// 1 temporarily (certificateHold), 0 not (removeFromCRL).
    static func severity(_ entry: RevokedCertificate) -> Int {
        switch entry.effectiveReason {
        case .removeFromCRL: return 0
        case .certificateHold: return 1
        default: return 2
        }
    }

    /// The entry of `crl` that lists `certificate`: same serial number, and for the certificate's own
    /// issuer — the entry's certificateIssuer in force (RFC 5280 5.3.3), or the CRL issuer when none is.
    /// When several do (a CRL listing a serial twice), the most severe (``severity(_:)``), so the
    /// answer does not depend on the order of the entries and errs towards revoked.
    static func entry(listing certificate: Certificate, in crl: CertificateRevocationList) -> RevokedCertificate? {
        let entries = crl.entries(serialNumber: certificate.serialNumber)
        guard !entries.isEmpty else { return nil }
        // One verdict per distinct name: an indirect CRL may repeat a serial for many issuers.
        let issuer = certificate.issuer
        let issuerKey = issuer.normalizedKey
        var verdicts: [DERBytesKey: Bool] = [:]
        func isIssuer(_ name: Name) -> Bool {
            if name.der == issuer.der { return true }
            if let known = verdicts[DERBytesKey(name.der)] { return known }
            let verdict = name.normalizedKey == issuerKey
            verdicts[DERBytesKey(name.der)] = verdict
            return verdict
        }
        // Entries that inherit a certificateIssuer share its list (5.3.3): the verdict on the last
        // list is kept by the list's storage, which the CRL keeps alive (a serial repeated n times
        // under a list of n names was otherwise n² comparisons: 67 s for a 1.5 MB CRL).
        var lastList: (storage: UnsafeRawPointer?, count: Int, verdict: Bool)? = nil
        func lists(_ entry: RevokedCertificate) -> Bool {
            guard let names = entry.certificateIssuer else { return isIssuer(crl.issuer) }
            let storage = names.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            if let lastList, lastList.storage == storage, lastList.count == names.count { return lastList.verdict }
            let verdict = names.contains { StatusDistributionPoint.directoryName($0).map(isIssuer) == true }
            lastList = (storage, names.count, verdict)
            return verdict
        }
        var best: RevokedCertificate? = nil
        for entry in entries where lists(entry) {
            if best.map({ Self.severity(entry) > Self.severity($0) }) ?? true { best = entry }
            if Self.severity(entry) == 2 { break }  // nothing is more severe
        }
        return best
    }
}
