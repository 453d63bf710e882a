/// How far a trust store entry is trusted (after Chromium's `CertificateTrust`).
public enum TrustKind: String, Hashable, Sendable {
    /// A trust anchor (RFC 5280 6.1.1 (d)): its name and key may end a certification path.
    case anchor
    /// An anchor that may also be the end entity itself (a pinned self-signed server certificate).
    case anchorOrLeaf
    /// Trusted only as the end entity itself, never as an issuer.
    case leaf
    /// Never part of a trusted path, even when also listed as an anchor.
    case distrusted
}

/// One certificate of a ``TrustStore`` and how it is trusted.
public struct TrustEntry: Hashable, Sendable {
    /// The certificate.
    public let certificate: Certificate
    /// How it is trusted.
    public let kind: TrustKind

    /// Creates an entry.
    public init(_ certificate: Certificate, kind: TrustKind) {
        self.certificate = certificate
        self.kind = kind
    }
}

/// A set of trusted (and distrusted) certificates, indexed once for issuer lookup by RFC 5280 7.1
/// subject name. Immutable once built; share one store across threads and evaluations.
///
/// A distrusted entry wins over any other entry for the same certificate (same DER) and over every
/// anchor with the same public key.
public struct TrustStore: Sendable {
    /// Every entry, in insertion order.
    public let entries: [TrustEntry]
    let anchorsBySubject: [NormalizedName: [Int]]
    /// Anchors (or anchor-or-leaf entries) that a distrusted entry overrides, by subject: kept so
    /// that a search reaching them can say "distrusted" instead of "issuer not found".
    let overriddenAnchorsBySubject: [NormalizedName: [Int]]
    let distrustedCertificates: Set<[UInt8]>
    let distrustedKeys: Set<ArraySlice<UInt8>>
    let leafTrust: [[UInt8]: TrustKind]

    /// Creates a store from entries.
    public init(_ entries: [TrustEntry]) {
        self.entries = entries
        var bySubject: [NormalizedName: [Int]] = [:]
        var overridden: [NormalizedName: [Int]] = [:]
        var distrusted = Set<[UInt8]>(), distrustedKeys = Set<ArraySlice<UInt8>>()
        var leaf: [[UInt8]: TrustKind] = [:]
        for entry in entries where entry.kind == .distrusted {
            distrusted.insert(entry.certificate.der)
            distrustedKeys.insert(entry.certificate.subjectPublicKeyInfo.der)
        }
        for (index, entry) in entries.enumerated() {
            let certificate = entry.certificate
            guard !distrusted.contains(certificate.der), !distrustedKeys.contains(certificate.subjectPublicKeyInfo.der) else {
                if entry.kind == .anchor || entry.kind == .anchorOrLeaf || entry.kind == .distrusted {
                    overridden[certificate.subject.normalizedKey, default: []].append(index)
                }
                continue
            }
            switch entry.kind {
            case .anchor, .anchorOrLeaf:
                bySubject[certificate.subject.normalizedKey, default: []].append(index)
                if entry.kind == .anchorOrLeaf { leaf[certificate.der] = .anchorOrLeaf }
            case .leaf:
                leaf[certificate.der] = .leaf
            case .distrusted:
                break
            }
        }
        anchorsBySubject = bySubject
        overriddenAnchorsBySubject = overridden
        distrustedCertificates = distrusted
        self.distrustedKeys = distrustedKeys
        leafTrust = leaf
    }

    /// A store whose every certificate is an anchor.
    public init(anchors: [Certificate]) {
        self.init(anchors.map { TrustEntry($0, kind: .anchor) })
    }

    /// An empty store.
    public static let empty = TrustStore([])

    /// Anchors whose subject matches `name` (RFC 5280 7.1).
    func anchors(named name: NormalizedName) -> [Certificate] {
        (anchorsBySubject[name] ?? []).map { entries[$0].certificate }
    }

    /// Distrusted certificates whose subject matches `name`.
    func distrustedCertificates(named name: NormalizedName) -> [Certificate] {
        (overriddenAnchorsBySubject[name] ?? []).map { entries[$0].certificate }
    }

    /// Whether `certificate`, or its public key, is distrusted.
    public func isDistrusted(_ certificate: Certificate) -> Bool {
        distrustedCertificates.contains(certificate.der) || distrustedKeys.contains(certificate.subjectPublicKeyInfo.der)
    }

    /// Whether `certificate` is trusted as an end entity by itself (`.leaf` or `.anchorOrLeaf` entry, not distrusted).
    public func trustsAsLeaf(_ certificate: Certificate) -> Bool {
        !isDistrusted(certificate) && leafTrust[certificate.der] != nil
    }

    /// Whether `certificate` is an anchor of this store (same DER, not distrusted).
    public func isAnchor(_ certificate: Certificate) -> Bool {
        anchors(named: certificate.subject.normalizedKey).contains { $0.der == certificate.der }
    }

    /// A store with the entries of both; `other`'s entries come after this one's.
    public func merging(_ other: TrustStore) -> TrustStore { TrustStore(entries + other.entries) }
}
