import Synchronization

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
/// A small store (at most 16 entries) shared by several threads is evaluated against by the first
/// thread as it is and by each other thread through its own copy, made on that thread's 32nd
/// evaluation against it (so a thread that evaluates a few times never copies): the same entries,
/// each certificate parsed again from its own copy of the DER, its anchors' keys loaded again.
/// Threads then write no reference count in common (an evaluation retains the anchor, its DER and
/// the store's tables dozens of times). A thread keeps copies of at most 4 stores, released when
/// it exits; certificates a result names from a copy are equal (`==`, same DER) to the store's,
/// not the same objects.
///
/// A distrusted entry wins over any other entry for the same certificate (same DER) and over every
/// anchor with the same public key.
public struct TrustStore: Sendable {
    /// Every entry, in insertion order.
    public var entries: [TrustEntry] { storage.entries }
    /// The entries and their lookup tables, in one shared object: copying a store (into a list of
    /// stores, an evaluation) retains one reference instead of one per table.
    let storage: Storage

    /// A store's entries and lookup tables (see the forwarding properties of ``TrustStore``).
    final class Storage: Sendable {
        let entries: [TrustEntry]
        let anchorsBySubject: [NormalizedName: [Int]]
        let anchorsBySubjectDER: [DERBytesKey: [Int]]
        let anchorsByKeyHash: [Int: [Int]]
        let anchorIndicesInOrder: [Int]
        let overriddenAnchorsBySubject: [NormalizedName: [Int]]
        let distrustedCertificates: Set<DERBytesKey>
        let distrustedKeys: Set<DERBytesKey>
        let leafTrust: [DERBytesKey: TrustKind]
        let anchorKeys: AnchorKeys
        /// Whether the anchors are those of the public Web PKI (``TrustStore/isPublicWebPKI``).
        let isPublicWebPKI: Bool

        init(entries: [TrustEntry], anchorsBySubject: [NormalizedName: [Int]], anchorsBySubjectDER: [DERBytesKey: [Int]], anchorsByKeyHash: [Int: [Int]],
             anchorIndicesInOrder: [Int], overriddenAnchorsBySubject: [NormalizedName: [Int]],
             distrustedCertificates: Set<DERBytesKey>, distrustedKeys: Set<DERBytesKey>, leafTrust: [DERBytesKey: TrustKind],
             anchorKeys: AnchorKeys, isPublicWebPKI: Bool) {
            self.entries = entries
            self.isPublicWebPKI = isPublicWebPKI
            self.anchorsBySubject = anchorsBySubject
            self.anchorsBySubjectDER = anchorsBySubjectDER
            self.anchorsByKeyHash = anchorsByKeyHash
            self.anchorIndicesInOrder = anchorIndicesInOrder
            self.overriddenAnchorsBySubject = overriddenAnchorsBySubject
            self.distrustedCertificates = distrustedCertificates
            self.distrustedKeys = distrustedKeys
            self.leafTrust = leafTrust
            self.anchorKeys = anchorKeys
        }

        /// Calls `body` with the index in ``entries`` of each anchor whose subject matches `name`
        /// (RFC 5280 7.1), in entry order; the key is computed only when no anchor's subject is
        /// encoded exactly as `name`. (On the class, whose tables are read in place: a store is
        /// shared by every evaluation on every thread.)
        func forEachAnchorIndex(named name: Name, _ body: (Int) -> Void) {
            guard !anchorsBySubject.isEmpty else { return }
            if anchorIndicesInOrder.count <= 4 {
                for index in anchorIndicesInOrder where entries[index].certificate.subject.isEquivalent(to: name) { body(index) }
                return
            }
            if let group = anchorsBySubjectDER[DERBytesKey(name.der)] {
                for index in group { body(index) }
                return
            }
            guard let group = anchorsByKeyHash[name.normalizedKeyHash] else { return }
            for index in group where entries[index].certificate.subject.isEquivalent(to: name) { body(index) }
        }
    }

    var anchorsBySubject: [NormalizedName: [Int]] { storage.anchorsBySubject }
    /// The same groups as ``anchorsBySubject``, also reachable by the exact DER of each anchor's
    /// subject: the common lookup (an issuer name encoded as its anchor's subject) needs no key.
    var anchorsBySubjectDER: [DERBytesKey: [Int]] { storage.anchorsBySubjectDER }
    /// Anchor indices by ``Name/normalizedKeyHash`` of their subject (groups whose hashes collide
    /// merged, in entry order): other names are looked up without building a key.
    var anchorsByKeyHash: [Int: [Int]] { storage.anchorsByKeyHash }
    /// Every anchor's index, in entry order (a small store is scanned instead of hashed).
    var anchorIndicesInOrder: [Int] { storage.anchorIndicesInOrder }
    /// Anchors (or anchor-or-leaf entries) that a distrusted entry overrides, by subject: kept so
    /// that a search reaching them can say "distrusted" instead of "issuer not found".
    var overriddenAnchorsBySubject: [NormalizedName: [Int]] { storage.overriddenAnchorsBySubject }
    var distrustedCertificates: Set<DERBytesKey> { storage.distrustedCertificates }
    var distrustedKeys: Set<DERBytesKey> { storage.distrustedKeys }
    var leafTrust: [DERBytesKey: TrustKind] { storage.leafTrust }
    /// The anchors' public keys, loaded when the store is made (a trust anchor is a name and a
    /// public key, RFC 5280 6.1.1 (d)), so no evaluation loads them again.
    var anchorKeys: AnchorKeys { storage.anchorKeys }

    /// Whether the anchors are those of the public Web PKI (the system's trust store), so that paths
    /// ending at them are validated under ``CertificateProfile/webPKI`` when the policy's profile is
    /// ``CertificateProfile/automatic``; `false` for the caller's own anchors (``CertificateProfile/rfc5280``).
    public var isPublicWebPKI: Bool { storage.isPublicWebPKI }

    /// Creates a store from entries.
    ///
    /// - Parameters:
    ///   - entries: the certificates and how each is trusted, in any order; a distrusted entry wins
    ///     over any other entry for the same certificate and over every anchor with its public key.
    ///   - isPublicWebPKI: whether these are public Web PKI anchors (``isPublicWebPKI``);
    ///     `false` (the default) for a private PKI's roots.
    public init(_ entries: [TrustEntry], isPublicWebPKI: Bool = false) {
        var bySubject: [NormalizedName: [Int]] = [:]
        var overridden: [NormalizedName: [Int]] = [:]
        var distrusted = Set<DERBytesKey>(), distrustedKeys = Set<DERBytesKey>()
        var leaf: [DERBytesKey: TrustKind] = [:]
        for entry in entries where entry.kind == .distrusted {
            distrusted.insert(DERBytesKey(entry.certificate.der[...]))
            distrustedKeys.insert(DERBytesKey(entry.certificate.subjectPublicKeyInfoDER))
        }
        for (index, entry) in entries.enumerated() {
            let certificate = entry.certificate
            guard !distrusted.contains(DERBytesKey(certificate.der[...])),
                  !distrustedKeys.contains(DERBytesKey(certificate.subjectPublicKeyInfoDER)) else {
                if entry.kind == .anchor || entry.kind == .anchorOrLeaf || entry.kind == .distrusted {
                    overridden[certificate.subject.normalizedKey, default: []].append(index)
                }
                continue
            }
            switch entry.kind {
            case .anchor, .anchorOrLeaf:
                bySubject[certificate.subject.normalizedKey, default: []].append(index)
                if entry.kind == .anchorOrLeaf { leaf[DERBytesKey(certificate.der[...])] = .anchorOrLeaf }
            case .leaf:
                leaf[DERBytesKey(certificate.der[...])] = .leaf
            case .distrusted:
                break
            }
        }
        var bySubjectDER: [DERBytesKey: [Int]] = [:]
        var byKeyHash: [Int: [Int]] = [:]
        for group in bySubject.values {
            for index in group { bySubjectDER[DERBytesKey(entries[index].certificate.subject.der)] = group }
            byKeyHash[entries[group[0]].certificate.subject.normalizedKeyHash, default: []].append(contentsOf: group)
        }
        for key in byKeyHash.keys { byKeyHash[key]!.sort() }
        var keys: [ObjectIdentifier: (Certificate, PublicKey)] = [:]
        for group in bySubject.values {
            for index in group {
                let certificate = entries[index].certificate
                if certificate.hasDSAKeyWithoutParameters { continue }
                // From the SubjectPublicKeyInfo, so an id-RSASSA-PSS anchor key keeps its RFC 4055 restrictions.
                if let loaded = try? PublicKey(certificate.subjectPublicKeyInfo) { keys[ObjectIdentifier(certificate)] = (certificate, loaded) }
            }
        }
        storage = Storage(entries: entries, anchorsBySubject: bySubject, anchorsBySubjectDER: bySubjectDER, anchorsByKeyHash: byKeyHash,
                          anchorIndicesInOrder: bySubject.values.flatMap { $0 }.sorted(), overriddenAnchorsBySubject: overridden,
                          distrustedCertificates: distrusted, distrustedKeys: distrustedKeys, leafTrust: leaf,
                          anchorKeys: AnchorKeys(keys), isPublicWebPKI: isPublicWebPKI)
    }

    /// A store whose every certificate is an anchor (``isPublicWebPKI`` as for ``init(_:isPublicWebPKI:)``).
    public init(anchors: [Certificate], isPublicWebPKI: Bool = false) {
        self.init(anchors.map { TrustEntry($0, kind: .anchor) }, isPublicWebPKI: isPublicWebPKI)
    }

    /// An empty store.
    public static let empty = TrustStore([])

    /// Indices in ``entries`` of the anchors whose subject matches `name` (RFC 5280 7.1), in entry order.
    func anchorIndices(named name: Name) -> [Int] {
        var indices: [Int] = []
        storage.forEachAnchorIndex(named: name) { indices.append($0) }
        return indices
    }

    /// Calls `body` with each anchor whose subject matches `name`, in the order of
    /// ``anchorIndices(named:)``, without building the list (the per-evaluation issuer lookup).
    func forEachAnchor(named name: Name, _ body: (Certificate) -> Void) {
        let storage = self.storage
        storage.forEachAnchorIndex(named: name) { body(storage.entries[$0].certificate) }
    }

    /// Distrusted certificates whose subject matches `name`.
    func distrustedCertificates(named name: NormalizedName) -> [Certificate] {
        (overriddenAnchorsBySubject[name] ?? []).map { entries[$0].certificate }
    }

    /// Distrusted certificates whose subject matches `name` (no key is computed when there are none).
    func distrustedCertificates(named name: Name) -> [Certificate] {
        overriddenAnchorsBySubject.isEmpty ? [] : distrustedCertificates(named: name.normalizedKey)
    }

    /// Whether `certificate`, or its public key, is distrusted.
    public func isDistrusted(_ certificate: Certificate) -> Bool {
        if distrustedCertificates.isEmpty { return false }
        return distrustedCertificates.contains(DERBytesKey(certificate.der[...]))
            || distrustedKeys.contains(DERBytesKey(certificate.subjectPublicKeyInfoDER))
    }

    /// Whether `certificate` is trusted as an end entity by itself (`.leaf` or `.anchorOrLeaf` entry, not distrusted).
    public func trustsAsLeaf(_ certificate: Certificate) -> Bool {
        !leafTrust.isEmpty && !isDistrusted(certificate) && leafTrust[DERBytesKey(certificate.der[...])] != nil
    }

    /// Whether `certificate` is an anchor of this store (same DER, not distrusted).
    public func isAnchor(_ certificate: Certificate) -> Bool {
        anchorIndices(named: certificate.subject).contains { entries[$0].certificate.der == certificate.der }
    }

    /// A store with the entries of both; `other`'s entries come after this one's. The result is a
    /// public Web PKI store only if both are.
    public func merging(_ other: TrustStore) -> TrustStore {
        TrustStore(entries + other.entries, isPublicWebPKI: isPublicWebPKI && other.isPublicWebPKI)
    }
}

/// The loaded public keys of a store's anchors, by certificate object.
final class AnchorKeys: Sendable {
    private let keys: [ObjectIdentifier: (Certificate, PublicKey)]

    init(_ keys: [ObjectIdentifier: (Certificate, PublicKey)]) {
        self.keys = keys
    }

    /// The loaded key of `certificate` when it is one of the store's anchor certificates.
    func key(for certificate: Certificate) -> PublicKey? {
        guard let (anchor, key) = keys[ObjectIdentifier(certificate)], anchor === certificate else { return nil }
        return key
    }
}
