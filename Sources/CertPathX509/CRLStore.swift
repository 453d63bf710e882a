/// The CRLs a caller supplies for revocation checking (RFC 5280 6.3), indexed once by the RFC 5280
/// 7.1 normalized issuer name. Immutable once built; share one store across threads and evaluations.
public struct CRLStore: Sendable, ExpressibleByArrayLiteral {
    /// Every CRL, in the order given, duplicates (same DER) removed.
    public let crls: [CertificateRevocationList]
    private let byIssuer: [NormalizedName: [Int]]

    /// Creates a store.
    public init(_ crls: [CertificateRevocationList]) {
        var unique: [CertificateRevocationList] = []
        var seen = Set<CertificateRevocationList>()
        var byIssuer: [NormalizedName: [Int]] = [:]
        for crl in crls where seen.insert(crl).inserted {
            byIssuer[crl.issuer.normalizedKey, default: []].append(unique.count)
            unique.append(crl)
        }
        self.crls = unique
        self.byIssuer = byIssuer
    }

    /// Creates a store from a list literal.
    public init(arrayLiteral elements: CertificateRevocationList...) {
        self.init(elements)
    }

    /// An empty store.
    public static let empty = CRLStore([])

    /// Whether the store holds no CRL.
    public var isEmpty: Bool { crls.isEmpty }

    /// The CRLs whose issuer is `name` (RFC 5280 7.1 comparison), complete and delta alike.
    public func crls(issuedBy name: Name) -> [CertificateRevocationList] {
        (byIssuer[name.normalizedKey] ?? []).map { crls[$0] }
    }
}

extension PEM {
    /// The labels read as CRLs: RFC 7468 `X509 CRL`.
    public static let crlLabels: Set<String> = ["X509 CRL"]

    /// CRLs read from PEM text or a single DER CRL.
    public struct CRLFile: Sendable {
        /// CRLs in file order.
        public let crls: [CertificateRevocationList]
        /// What was not read as a CRL (text, headers, blocks of other labels).
        public let skipped: [Skipped]
    }

    /// Why ``readCRLs(_:)`` failed.
    public enum CRLFileError: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// The PEM text is malformed.
        case pem(Error)
        /// The CRL at `index` (0-based, in file order), from the block at `line`, is malformed.
        case crl(index: Int, line: Int?, DERError)

        public var description: String {
            switch self {
            case .pem(let error): return "PEM \(error)"
            case .crl(let index, let line, let error):
                return "CRL \(index + 1)\(line.map { " (PEM block at line \($0))" } ?? ""): \(error)"
            }
        }
    }

    /// Reads CRLs from `bytes`: DER when the input starts with a SEQUENCE tag (0x30) and is one
    /// CRL, PEM otherwise (also text that starts with "0" and has a BEGIN line), taking every block
    /// labelled as in ``crlLabels``.
    ///
    /// - Throws: ``CRLFileError``: the PEM error, or the DER error of the CRL at a given position.
    public static func readCRLs(_ bytes: [UInt8]) throws(CRLFileError) -> CRLFile {
        let document: Document
        switch readDEROrPEM(bytes, der: CertificateRevocationList.init(derEncoded:)) {
        case .der(let crl): return CRLFile(crls: [crl], skipped: [])
        case .derError(let error): throw .crl(index: 0, line: nil, error)
        case .pemError(let error): throw .pem(error)
        case .pem(let decoded): document = decoded
        }
        var crls: [CertificateRevocationList] = []
        var skipped = document.skipped
        for block in document.blocks {
            guard crlLabels.contains(block.label) else {
                skipped.append(Skipped(lines: block.line...block.line, kind: PEM.skippedKind(block.label)))
                continue
            }
            do throws(DERError) {
                crls.append(try CertificateRevocationList(derEncoded: block.der))
            } catch {
                throw .crl(index: crls.count, line: block.line, error)
            }
        }
        skipped.sort { $0.lines.lowerBound < $1.lines.lowerBound }
        return CRLFile(crls: crls, skipped: skipped)
    }
}
