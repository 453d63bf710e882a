/// One attempted certification path and everything found wrong with it.
public struct PathAttempt: Sendable {
    /// The certificates from the end entity up, the trust anchor excluded.
    public let certificates: [Certificate]
    /// The trust anchor ending the path; `nil` when the search stopped before reaching one.
    public let anchor: Certificate?
    /// Every failure found, in processing order.
    public let failures: [ValidationFailure]
    /// The RFC 5280 6.1.6 policy outputs, when policy processing ran to its end.
    public let policyOutcome: PolicyOutcome?
    /// The profile the path was validated under (``CertificateProfile/automatic`` resolved: never
    /// `automatic` itself).
    public let profile: CertificateProfile
    /// The CRLs that showed a certificate of this path good although they depart from the CRL profile
    /// in a way that binds their issuer (no or a critical cRLNumber, RFC 5280 5.2.3; no nextUpdate,
    /// 5.1.2.5): one finding per certificate and CRL, in path order from the anchor down. Always empty
    /// under ``CertificateProfile/rfc5280``, which reads such CRLs strictly (evidence of revocation only).
    public internal(set) var crlConformanceFindings: [CRLConformanceFinding] = []
    /// What Certificate Transparency found for the end entity, when the policy required it for this
    /// path and the path failed nothing else fatally (``ValidationPolicy/certificateTransparency``).
    public internal(set) var certificateTransparency: CertificateTransparencyReport? = nil
    /// The purpose the path was validated for (``ValidationPolicy/purpose``), so that its failures
    /// are told in its words (``Diagnostics/describe(_:in:)``: a client's or an S/MIME mailbox's
    /// name mismatch); `nil` when not recorded.
    var purpose: ValidationPurpose? = nil

    /// The rules of the table (docs/RULES.md) the path's certificates break that its ``profile``
    /// reports without failing the path: under ``CertificateProfile/interoperable``, RFC 5280 section
    /// 4's requirements on conforming CAs. Computed on each read from the certificates' remembered
    /// findings; end entity first.
    public var findings: [ProfileFinding] { ProfileFinding.of(path: certificates, profile: profile) }

    /// Whether nothing is wrong with this path.
    public var isValid: Bool { anchor != nil && failures.isEmpty }

    /// The failures about `certificate` (compared by identity or DER).
    public func failures(of certificate: Certificate) -> [ValidationFailure] {
        failures.filter { $0.certificate == certificate }
    }

    /// The failure of highest ``ValidationFailure/rank`` (the first one among equals).
    public var primaryFailure: ValidationFailure? {
        failures.reduce(nil) { best, next in
            guard let best else { return next }
            return next.rank > best.rank ? next : best
        }
    }
}
