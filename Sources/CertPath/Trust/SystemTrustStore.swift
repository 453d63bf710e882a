/// The operating system's trust anchors, as OpenSSL-based software finds them.
///
/// Source, in order: `SSL_CERT_FILE` (a PEM bundle) and/or `SSL_CERT_DIR` (a directory of PEM or DER
/// files, OpenSSL hashed-directory layout) when either is set; otherwise the first distribution
/// bundle that exists:
/// - Debian, Ubuntu: `/etc/ssl/certs/ca-certificates.crt`
/// - Fedora, RHEL, CentOS: `/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem`, `/etc/pki/tls/certs/ca-bundle.crt`
/// - Alpine: `/etc/ssl/cert.pem`
/// - openSUSE: `/var/lib/ca-certificates/ca-bundle.pem`
///
/// Every certificate found becomes an anchor; files or blocks that do not parse are counted in
/// ``skipped`` and otherwise ignored (one bad entry must not disable the whole store).
public struct SystemTrustStore: Sendable {
    /// The distribution bundle paths tried when neither environment variable is set.
    public static let distributionBundles = [
        "/etc/ssl/certs/ca-certificates.crt",
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
        "/etc/pki/tls/certs/ca-bundle.crt",
        "/etc/ssl/cert.pem",
        "/var/lib/ca-certificates/ca-bundle.pem",
    ]

    /// The anchors.
    public let store: TrustStore
    /// Where they came from (files read).
    public let sources: [String]
    /// Certificates or files that could not be read.
    public let skipped: Int
    /// Every file tried, in order (read or not): the environment's file and directory entries, or
    /// the distribution bundle found; empty when nothing was there to try.
    public let tried: [String]

    /// Loads the system anchors from an explicit environment and candidate list (for tests); see the type.
    ///
    /// - Parameters:
    ///   - certificateFile: the `SSL_CERT_FILE` value, if any.
    ///   - certificateDirectory: the `SSL_CERT_DIR` value, if any (several directories separated by `:`).
    ///   - bundles: bundle paths to try when neither is given.
    public init(certificateFile: String?, certificateDirectory: String?, bundles: [String] = SystemTrustStore.distributionBundles) {
        var files: [String] = []
        if certificateFile != nil || certificateDirectory != nil {
            if let certificateFile { files.append(certificateFile) }
            for directory in (certificateDirectory ?? "").split(separator: ":").map(String.init) where !directory.isEmpty {
                files += FileSystem.list(directory).map { "\(directory)/\($0)" }
            }
        } else if let bundle = bundles.first(where: FileSystem.exists) {
            files = [bundle]
        }
        var anchors: [Certificate] = []
        var seen = Set<[UInt8]>()
        var skipped = 0
        var sources: [String] = []
        for file in files {
            guard let bytes = FileSystem.read(file) else {
                skipped += 1
                continue
            }
            sources.append(file)
            let certificates = SystemTrustStore.certificates(in: bytes, skipped: &skipped)
            for certificate in certificates where seen.insert(certificate.der).inserted { anchors.append(certificate) }
        }
        store = TrustStore(anchors: anchors, isPublicWebPKI: true)
        self.sources = sources
        self.skipped = skipped
        self.tried = files
    }

    /// Loads from the process environment (`SSL_CERT_FILE`, `SSL_CERT_DIR`) or the distribution bundle.
    public init() {
        self.init(certificateFile: FileSystem.environment("SSL_CERT_FILE"),
                  certificateDirectory: FileSystem.environment("SSL_CERT_DIR"))
    }

    /// The system anchors, loaded once per process on first use and shared.
    public static let shared = SystemTrustStore()

    /// Every certificate of a PEM or DER file, skipping (and counting) blocks that do not parse.
    static func certificates(in bytes: [UInt8], skipped: inout Int) -> [Certificate] {
        let document: PEM.Document
        switch PEM.readDEROrPEM(bytes, der: Certificate.init(derEncoded:)) {
        case .der(let certificate): return [certificate]
        case .derError, .pemError:
            skipped += 1
            return []
        case .pem(let decoded): document = decoded
        }
        var certificates: [Certificate] = []
        for block in document.blocks where PEM.certificateLabels.contains(block.label) {
            do throws(DERError) { certificates.append(try Certificate(derEncoded: block.der)) } catch { skipped += 1 }
        }
        return certificates
    }
}
