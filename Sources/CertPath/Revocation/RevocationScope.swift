// CRL scope (RFC 5280 6.3.3 (b), (d)): whether a complete CRL covers a certificate through one of
// its distribution points, and for which revocation reasons.
import CertPathDER

/// A distribution point through which a certificate's status is sought (RFC 5280 6.3.3): one entry of
/// its cRLDistributionPoints, or the default point used for CRLs issued by the certificate issuer,
/// without reasons or cRLIssuer — named by the certificate issuer (and its issuerAltName) only for a
/// certificate without cRLDistributionPoints.
struct StatusDistributionPoint: Sendable {
    /// The distribution point's full names, nameRelativeToCRLIssuer resolved; `nil` when the point
    /// has no distributionPoint field, and for the default point of a certificate with
    /// cRLDistributionPoints (no CRL whose issuingDistributionPoint names a point speaks through it).
    let names: [GeneralName]?
    /// `reasons`; `nil` means every reason.
    let reasons: ReasonFlags?
    /// `cRLIssuer`; `nil` means the certificate issuer issues the CRL.
    let cRLIssuer: [GeneralName]?
    /// Whether this is the default point (not from the certificate's extension).
    let isDefault: Bool
    /// ``cRLIssuer``, matched against each CRL's issuer.
    private let cRLIssuerMatching: MatchableNames?
    /// ``names``, else ``cRLIssuer``: what a CRL's issuing distribution point names are matched
    /// against (RFC 5280 6.3.3 (b)(2)(i)).
    private let pointMatching: MatchableNames

    init(names: [GeneralName]?, reasons: ReasonFlags?, cRLIssuer: [GeneralName]?, isDefault: Bool) {
        self.names = names
        self.reasons = reasons
        self.cRLIssuer = cRLIssuer
        self.isDefault = isDefault
        cRLIssuerMatching = cRLIssuer.map(MatchableNames.init)
        pointMatching = names.map(MatchableNames.init) ?? cRLIssuerMatching ?? MatchableNames([])
    }

    /// Whether one of `scopeNames` (a CRL's issuing distribution point names) matches one of the
    /// point's names (``names``, else ``cRLIssuer``): RFC 5280 6.3.3 (b)(2)(i).
    func matchesAny(of scopeNames: [GeneralName]) -> Bool {
        scopeNames.contains(where: pointMatching.contains)
    }

    /// Whether `name` is one of the cRLIssuer directory names (RFC 5280 7.1); `false` without cRLIssuer.
    func namesCRLIssuer(_ name: Name) -> Bool {
        cRLIssuerMatching?.contains(.directoryName(name)) ?? false
    }

    /// The points to process for `certificate`, in order: each of its cRLDistributionPoints, then
    /// the default point ("if the revocation status has not been determined, repeat the process above
    /// with any available CRLs not specified in a distribution point but issued by the certificate
    /// issuer", RFC 5280 6.3.3, after (l)).
    ///
    /// The default point's name: "a distribution point name of the certificate issuer" — its issuer
    /// field and issuerAltName — only when the certificate has no cRLDistributionPoints. A
    /// certificate that names its distribution points names every partition it belongs to: a CRL
    /// whose issuingDistributionPoint names a point (by the issuer's own name included) is "specified
    /// in a distribution point" and speaks for it only through one of those (6.3.3 (b)(2)(i)); through
    /// the default point it takes only CRLs that name no point (a complete CRL without
    /// issuingDistributionPoint, or one restricted by certificate type or reasons alone). Otherwise a
    /// partition's CRL would speak for the certificates of every other partition of the same issuer.
    ///
    /// At most ``maximumDistributionPoints`` of the extension's points are processed (in order):
    /// each may name a CRL issuer or a relative name to resolve against a name as large as the
    /// certificate, so thousands of points made work and memory grow with their product (5.8 GB for
    /// a 4 MB chain). Certificates carry one to three; the status sought through the others stays
    /// undetermined, which the revocation mode then decides like any other.
    static func points(for certificate: Certificate) -> [StatusDistributionPoint] {
        var points: [StatusDistributionPoint] = []
        let named = certificate.cRLDistributionPoints ?? []
        for point in named.prefix(maximumDistributionPoints) {
            // 4.2.1.13: a relative name is appended to the cRLIssuer's name when present ("the
            // distinguished name that it contains": none when it contains none), else to the
            // certificate issuer's.
            let base = point.cRLIssuer.map { $0.lazy.compactMap(Self.directoryName).first } ?? certificate.issuer
            let names = point.name.map { name in base.map { CRLScope.fullNames(name, relativeTo: $0) } ?? CRLScope.fullNames(name) }
            points.append(StatusDistributionPoint(names: names, reasons: point.reasons, cRLIssuer: point.cRLIssuer, isDefault: false))
        }
        let issuerNames = [GeneralName.directoryName(certificate.issuer)] + (certificate.issuerAlternativeNames ?? [])
        points.append(StatusDistributionPoint(names: named.isEmpty ? issuerNames : nil, reasons: nil, cRLIssuer: nil, isDefault: true))
        return points
    }

    /// How many of a certificate's cRLDistributionPoints are processed.
    static let maximumDistributionPoints = 32

    /// The names of the CRL issuers this point accepts: its cRLIssuer directory names, or the certificate issuer.
    func crlIssuerNames(for certificate: Certificate) -> [Name] {
        guard let cRLIssuer else { return [certificate.issuer] }
        return cRLIssuer.compactMap(Self.directoryName)
    }

    static func directoryName(_ name: GeneralName) -> Name? {
        if case .directoryName(let value) = name { return value }
        return nil
    }
}

/// The scope rules of RFC 5280 6.3.3 (b) and (d).
enum CRLScope {
    /// Why `crl` does not cover `certificate` through `point` (RFC 5280 6.3.3 (b)); `nil` when it does.
    static func mismatch(_ crl: CertificateRevocationList, covering certificate: Certificate,
                         through point: StatusDistributionPoint) -> CRLScopeMismatch? {
        let idp = crl.issuingDistributionPoint
        // (b)(1)
        if point.cRLIssuer != nil {
            guard point.namesCRLIssuer(crl.issuer) else { return .notTheNamedCRLIssuer }
            guard idp?.indirectCRL == true else { return .notIndirect }
        } else if !crl.issuer.isEquivalent(to: certificate.issuer) {
            return .issuerMismatch
        }
        // (b)(2)
        guard let idp else { return nil }
        if let name = idp.distributionPoint {
            guard point.matchesAny(of: fullNames(name, relativeTo: crl.issuer)) else { return .distributionPointMismatch }
        }
        if idp.onlyContainsUserCerts && certificate.isCertificateAuthority { return .onlyUserCertificates }
        if idp.onlyContainsCACerts && !certificate.isCertificateAuthority { return .onlyCACertificates }
        if idp.onlyContainsAttributeCerts { return .onlyAttributeCertificates }
        return nil
    }

    /// The interim_reasons_mask of RFC 5280 6.3.3 (d): the reasons `crl` speaks for through `point`.
    static func interimReasons(_ crl: CertificateRevocationList, through point: StatusDistributionPoint) -> ReasonFlags {
        switch (crl.issuingDistributionPoint?.onlySomeReasons, point.reasons) {
        case (let only?, let reasons?): return only.intersection(reasons)
        case (let only?, nil): return only
        case (nil, let reasons?): return reasons
        case (nil, nil): return .all
        }
    }

    /// The full names of a DistributionPointName without a name to resolve a relative one against:
    /// `fullName` as given; `nameRelativeToCRLIssuer` names nothing (and so matches nothing).
    static func fullNames(_ name: DistributionPointName) -> [GeneralName] {
        if case .fullName(let names) = name { return names }
        return []
    }

    /// The full names of a DistributionPointName (RFC 5280 4.2.1.13, 5.2.5): `fullName` as given, or
    /// `nameRelativeToCRLIssuer` appended as one more RDN to `base`. A relative name that does not
    /// make a valid Name yields no name (and so matches nothing).
    static func fullNames(_ name: DistributionPointName, relativeTo base: Name) -> [GeneralName] {
        switch name {
        case .fullName(let names):
            return names
        case .nameRelativeToCRLIssuer(let attributes):
            return appending(attributes, to: base).map { [.directoryName($0)] } ?? []
        }
    }

    /// `base` with one more RDN made of `attributes` (sorted into DER SET OF order).
    static func appending(_ attributes: [AttributeTypeAndValue], to base: Name) -> Name? {
        var baseReader = DERReader(base.der)
        guard let outer = try? baseReader.read(.sequence, "Name") else { return nil }
        let encodings: [[UInt8]] = attributes.map { attribute in
            var writer = DERWriter()
            writer.append(.sequence) { atv in
                atv.appendOID(attribute.type)
                atv.appendEncoded(Array(attribute.encodedValue))
            }
            return writer.bytes
        }.sorted { lhs, rhs in
            // X.690 11.6: encodings compared as octet strings, the shorter padded with zeros.
            for (x, y) in zip(lhs, rhs) where x != y { return x < y }
            return lhs.count < rhs.count
        }
        var writer = DERWriter()
        writer.append(.sequence) { name in
            name.appendEncoded(Array(base.der[outer.value]))
            name.append(.set) { set in for encoding in encodings { set.appendEncoded(encoding) } }
        }
        return try? Name(derEncoded: writer.bytes)
    }

    /// Whether two names match: directory names by RFC 5280 7.1, other forms exactly.
    static func matches(_ x: GeneralName, _ y: GeneralName) -> Bool {
        if case .directoryName(let left) = x, case .directoryName(let right) = y { return left.isEquivalent(to: right) }
        return x == y
    }
}

/// A list of general names that others are matched against as ``CRLScope/matches(_:_:)`` does:
/// one by one while there are at most four, by their keys beyond (each CRL of a store is matched
/// against a point's lists: n CRLs and lists of n names were n² name comparisons).
struct MatchableNames {
    let names: [GeneralName]
    private let keys: Set<GeneralNameMatchKey>?

    init(_ names: [GeneralName]) {
        self.names = names
        keys = names.count > 4 ? Set(names.map(GeneralNameMatchKey.init)) : nil
    }

    /// Whether `name` matches one of ``names``.
    func contains(_ name: GeneralName) -> Bool {
        if let keys { return keys.contains(GeneralNameMatchKey(name)) }
        return names.contains { CRLScope.matches(name, $0) }
    }
}

/// A name as ``CRLScope/matches(_:_:)`` compares it: a directory name by its RFC 5280 7.1 key, any
/// other form exactly.
enum GeneralNameMatchKey: Hashable {
    case directory(NormalizedName)
    case other(GeneralName)

    init(_ name: GeneralName) {
        if case .directoryName(let value) = name { self = .directory(value.normalizedKey) } else { self = .other(name) }
    }
}
