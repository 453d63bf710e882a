/// Which reading of the standards a path is validated under: who vouches for the chain decides
/// (docs/RULES.md has the table of every rule, whom it binds and where it fails or is reported).
///
/// - ``automatic`` (the default): ``webPKI`` for a path that ends at an anchor of the public Web PKI
///   (a ``TrustStore`` made with `isPublicWebPKI`, such as the system anchors), ``interoperable``
///   for a path that ends at the caller's own anchors or pins — a private PKI is held to what RFC
///   5280 asks of a relying party, and the rules RFC 5280 section 4 addresses to its CAs are
///   reported as ``ProfileFinding``s (as SecTrust, Chromium, OpenSSL and Go accept such chains; the
///   CA/Browser Forum's issuance rules bind only public CAs).
/// - ``interoperable``: RFC 5280 section 6 plus the obligations section 4 places on the relying
///   party (reject an unrecognized critical extension, process name constraints and policies,
///   refuse what cannot be read with one meaning: duplicate extensions, malformed or empty
///   constraints, a keyUsage with no bit set, extensions in a version 1 certificate, a critical
///   certificatePolicies with qualifiers it cannot interpret). Section 4's "conforming CAs MUST"
///   rows are findings, not failures.
/// - ``webPKI``: RFC 5280 section 4 plus the CA/Browser Forum Baseline Requirements (CA certificate
///   refused as leaf, v3 only, serial numbers, commonName among the subjectAltName values, a root's
///   authorityKeyIdentifier), with the one BR leniency: a non-critical nameConstraints is honoured.
/// - ``rfc5280``: the strict reading: every RFC 5280 section 4 requirement on certificates that a
///   relying party can check (criticality, presence of key identifiers and keyUsage in CAs, value
///   syntax) fails the path, and section 6; what x509-limbo's `rfc5280` namespace tests.
/// - ``pathValidation``: RFC 5280 section 6 alone (the path validation algorithm, as NIST PKITS
///   tests it): section 4's requirements on issuers are reported as findings, only what section 6
///   and section 4.2's processing rules make a validator reject fails.
public enum CertificateProfile: String, Hashable, Sendable, CaseIterable {
    /// ``webPKI`` for paths ending at a public Web PKI anchor, ``interoperable`` otherwise (default).
    case automatic = "auto"
    /// RFC 5280 with the CA/Browser Forum Baseline Requirements for TLS certificates.
    case webPKI = "webpki"
    /// RFC 5280 section 6 and the relying party's obligations of section 4; the CAs' obligations of
    /// section 4 are findings (the default for the caller's own anchors).
    case interoperable = "interoperable"
    /// RFC 5280 sections 4 and 6, strictly: a non-critical nameConstraints fails, a CA certificate
    /// may be the end entity, version 1 certificates may be end entities.
    case rfc5280 = "rfc5280"
    /// RFC 5280 section 6 only (the path validation algorithm; NIST PKITS).
    case pathValidation = "path-validation"

    /// The profile a path is validated under: ``automatic`` resolved by the anchor's store, any
    /// other profile itself.
    ///
    /// - Parameter anchorIsPublicWebPKI: whether the path ends at an anchor of a store made with
    ///   `isPublicWebPKI: true` (false for partial paths, pins and the caller's anchors).
    /// - Returns: ``webPKI`` or ``interoperable`` for ``automatic``; any other profile itself.
    public func resolved(anchorIsPublicWebPKI: Bool) -> CertificateProfile {
        guard self == .automatic else { return self }
        return anchorIsPublicWebPKI ? .webPKI : .interoperable
    }
}

/// Which signature algorithms and public keys a policy accepts. The default: RSA keys of at least
/// 2048 bits whose size is a multiple of 8 (CA/Browser Forum BR 6.1.5), ECDSA on P-256, P-384,
/// P-521 and the Brainpool curves brainpoolP256r1/P384r1/P512r1 (RFC 5639, which European
/// government and health PKIs issue), Ed25519 and Ed448; signatures (PKCS #1 v1.5, RSASSA-PSS,
/// ECDSA) with SHA-256, SHA-384 or SHA-512 (MD2, MD5, SHA-1 and SHA-224 refused); DSA refused.
///
/// The profile applies under every ``CertificateProfile``; a path validated under
/// ``CertificateProfile/webPKI`` (for example one ending at a system anchor under `.automatic`)
/// also refuses Brainpool keys, whatever the profile allows: the CA/Browser Forum Baseline
/// Requirements 6.1.5 allow only P-256, P-384 and P-521 (the failure is
/// ``ValidationFailure/weakKey(_:key:)``, naming the curve and the BRs).
public struct AlgorithmProfile: Hashable, Sendable {
    /// Smallest RSA modulus in bits.
    public var minimumRSAModulusBits: Int
    /// Whether the RSA modulus size must be a multiple of 8 bits (CA/B BR 6.1.5).
    public var requireRSAModulusMultipleOf8: Bool
    /// Curves accepted for ECDSA keys.
    public var allowedCurves: Set<NamedCurve> {
        get { Set(NamedCurve.allCases.filter { curveBits & $0.profileBit != 0 }) }
        set { curveBits = newValue.reduce(0) { $0 | $1.profileBit } }
    }
    /// Whether Ed25519 and Ed448 keys and signatures are accepted.
    public var allowEdDSA: Bool
    /// Whether DSA keys and signatures are accepted (PKITS has DSA paths; the Web PKI does not).
    public var allowDSA: Bool
    /// Hashes accepted in signatures (RSA, ECDSA, DSA).
    public var allowedHashes: Set<HashAlgorithm> {
        get { Set(HashAlgorithm.allCases.filter { hashBits & $0.profileBit != 0 }) }
        set { hashBits = newValue.reduce(0) { $0 | $1.profileBit } }
    }

    // The two sets as bit masks: a profile is plain data, read on every evaluation without
    // reference counting (a policy shared by threads would otherwise share its sets' counts).
    private var curveBits: UInt8 = 0
    private var hashBits: UInt8 = 0

    /// Creates a profile; every argument has the default described on the type.
    public init(minimumRSAModulusBits: Int = 2048, requireRSAModulusMultipleOf8: Bool = true,
                allowedCurves: Set<NamedCurve> = Set(NamedCurve.allCases), allowEdDSA: Bool = true, allowDSA: Bool = false,
                allowedHashes: Set<HashAlgorithm> = [.sha256, .sha384, .sha512]) {
        self.minimumRSAModulusBits = minimumRSAModulusBits
        self.requireRSAModulusMultipleOf8 = requireRSAModulusMultipleOf8
        self.allowEdDSA = allowEdDSA
        self.allowDSA = allowDSA
        self.allowedCurves = allowedCurves
        self.allowedHashes = allowedHashes
    }

    /// The default profile.
    public static let `default` = AlgorithmProfile()

    /// A permissive profile for plain RFC 5280 validation of old PKIs (PKITS): RSA keys of at least
    /// 1024 bits of any size, DSA, and SHA-1 and SHA-224 besides the SHA-2 hashes of the default, in
    /// PKCS #1 v1.5, RSASSA-PSS (RFC 4055 3.1: SHA-1 is PSS's DEFAULT hash), ECDSA and DSA signatures.
    public static let permissive = AlgorithmProfile(
        minimumRSAModulusBits: 1024, requireRSAModulusMultipleOf8: false, allowEdDSA: true, allowDSA: true,
        allowedHashes: [.sha1, .sha224, .sha256, .sha384, .sha512])

    /// Why `key` is refused, or `nil` when accepted.
    func refusal(of key: SubjectPublicKey) -> KeyRefusal? {
        switch key {
        case .rsa: return refusal(rsaModulusBits: key.bitLength ?? 0)
        case .ec(let curve, _): return refusal(curve)
        case .ed25519, .ed448: return eddsaRefusal
        case .dsa: return allowDSA ? nil : .dsaNotAllowed
        case .unsupported(let algorithm, let curve): return .unsupported(algorithm: algorithm, curve: curve)
        }
    }

    /// Why the subject key of `certificate` is refused, or `nil` when accepted: ``refusal(of:)``,
    /// with RSA, EC and EdDSA keys judged from the parsed layout (no key value is made).
    func refusal(ofKeyOf certificate: Certificate) -> KeyRefusal? {
        switch certificate.subjectPublicKeyLayout.key {
        case .rsa: return refusal(rsaModulusBits: certificate.rsaModulusBits ?? 0)
        case .ec(let curve, _): return refusal(curve)
        case .ed25519, .ed448: return eddsaRefusal
        case .dsa, .unsupportedCurve, .unsupported: return refusal(of: certificate.subjectPublicKey)
        }
    }

    /// Why the subject key of `certificate` is refused on a path validated under `profile`, or
    /// `nil`: ``refusal(ofKeyOf:)``, and under ``CertificateProfile/webPKI`` a Brainpool key whatever
    /// the profile allows (CA/B BR 6.1.5: P-256, P-384 and P-521 only; Chromium and the Mozilla root
    /// store policy 5.1 accept no other curve).
    func refusal(ofKeyOf certificate: Certificate, under profile: CertificateProfile) -> KeyRefusal? {
        if profile == .webPKI, case .ec(let curve, _) = certificate.subjectPublicKeyLayout.key, curve.isBrainpool {
            return .curveNotAllowedInWebPKI(curve)
        }
        return refusal(ofKeyOf: certificate)
    }

    private func refusal(rsaModulusBits bits: Int) -> KeyRefusal? {
        if bits < minimumRSAModulusBits { return .rsaModulusTooSmall(bits: bits, minimum: minimumRSAModulusBits) }
        if requireRSAModulusMultipleOf8 && bits % 8 != 0 { return .rsaModulusNotMultipleOf8(bits: bits) }
        return nil
    }

    private func refusal(_ curve: NamedCurve) -> KeyRefusal? {
        curveBits & curve.profileBit != 0 ? nil : .curveNotAllowed(curve)
    }

    private var eddsaRefusal: KeyRefusal? {
        allowEdDSA ? nil : .eddsaNotAllowed
    }

    /// Whether signatures with `algorithm` are accepted.
    func accepts(_ algorithm: SignatureAlgorithm) -> Bool {
        switch algorithm {
        case .ed25519, .ed448: return allowEdDSA
        case .dsa(let hash): return allowDSA && hashBits & hash.profileBit != 0
        case .rsaPKCS1v15(let hash), .ecdsa(let hash), .rsaPSS(let hash, _): return hashBits & hash.profileBit != 0
        case .unsupported: return false
        }
    }
}

extension NamedCurve {
    /// This curve's bit in ``AlgorithmProfile``'s mask.
    fileprivate var profileBit: UInt8 {
        switch self {
        case .p256: return 1
        case .p384: return 2
        case .p521: return 4
        case .brainpoolP256r1: return 8
        case .brainpoolP384r1: return 16
        case .brainpoolP512r1: return 32
        }
    }
}

extension HashAlgorithm {
    /// This hash's bit in ``AlgorithmProfile``'s mask.
    fileprivate var profileBit: UInt8 {
        switch self {
        case .md2: return 1
        case .md5: return 2
        case .sha1: return 4
        case .sha224: return 8
        case .sha256: return 16
        case .sha384: return 32
        case .sha512: return 64
        }
    }
}

/// What the certificate is being validated for (DESIGN.md step 4).
public enum ValidationPurpose: Hashable, Sendable {
    /// A TLS server certificate: extKeyUsage must allow serverAuth; when a reference identifier is
    /// given, a subjectAltName must match it (RFC 6125).
    case serverAuthentication(ReferenceIdentifier?)
    /// A TLS client certificate: extKeyUsage must allow clientAuth; every expected name must be
    /// among the subjectAltNames.
    case clientAuthentication(expectedNames: [ExpectedName])
    /// Another purpose named by extKeyUsage (emailProtection for S/MIME, codeSigning…): the leaf's
    /// extKeyUsage, when present, must allow every one of `purposes` (or anyExtendedKeyUsage), and so
    /// must every CA that carries extKeyUsage (RFC 5280 4.2.1.12, chained as for TLS); every expected
    /// name must be among the subjectAltNames. No TLS key usage check.
    case extendedKeyUsage(purposes: [OID], expectedNames: [ExpectedName])
    /// An S/MIME certificate (RFC 8550, RFC 8551): extKeyUsage emailProtection chained as above
    /// (RFC 8550 4.4.4; anyExtendedKeyUsage allows it); keyUsage, when present, must allow `use`
    /// (RFC 8550 4.4.2, ``PurposeRule/emailProtectionKeyUsage(allowed:present:)``); when `mailbox`
    /// is given, the certificate must carry it (RFC 8550 3): as an rfc822Name subjectAltName or a
    /// subject emailAddress attribute for an ASCII address, as an SmtpUTF8Mailbox otherName
    /// (RFC 9598) for one whose local part is not ASCII (``RFC822Name/init(mailbox:)``); else
    /// ``ValidationFailure/nameMismatch(_:expected:presented:)``.
    case emailProtection(mailbox: RFC822Name?, use: EmailProtectionUse)
    /// A code-signing certificate: extKeyUsage codeSigning chained as above; keyUsage, when present,
    /// must allow digitalSignature (RFC 5280 4.2.1.12, ``PurposeRule/codeSigningKeyUsage(present:)``).
    case codeSigning
    /// A time-stamping authority's certificate (RFC 3161 2.3): the end entity must carry a critical
    /// extKeyUsage naming id-kp-timeStamping and nothing else (``PurposeRule`` names each part);
    /// CAs that carry extKeyUsage must allow timeStamping (chained as above); keyUsage, when present,
    /// must allow digitalSignature or nonRepudiation (RFC 5280 4.2.1.12).
    case timeStamping
    /// Plain RFC 5280 path validation, no purpose checks.
    case any
}

/// A name a client certificate is expected to carry in its subjectAltName.
public enum ExpectedName: Hashable, Sendable, CustomStringConvertible {
    /// A DNS name, matched against dNSName subjectAltNames (RFC 6125 6.4, wildcards as for servers).
    case dnsName(DNSName)
    /// An IP address, matched against iPAddress subjectAltNames octet for octet (RFC 5280 4.2.1.6).
    case ipAddress(IPAddress)
    /// An email address, matched against rfc822Name subjectAltNames (RFC 5280 4.2.1.6, 7.5).
    case email(RFC822Name)

    /// The name as text (a DNS name, an IP address, an email address).
    public var description: String {
        switch self {
        case .dnsName(let name): return name.description
        case .ipAddress(let address): return address.description
        case .email(let name): return name.description
        }
    }
}

/// How extKeyUsage decides a TLS purpose (``ValidationPolicy/extendedKeyUsageReading``).
public enum ExtendedKeyUsageReading: String, Hashable, Sendable, CaseIterable {
    /// RFC 5280 4.2.1.12, chained as browsers do (default): the leaf's extKeyUsage, when present, must
    /// allow the purpose, and so must every CA that carries one; anyExtendedKeyUsage allows every
    /// purpose; a certificate without extKeyUsage is unrestricted.
    case standard
    /// The strict reading (Chromium's `SERVER_AUTH_STRICT`/`CLIENT_AUTH_STRICT` and CA/B BR
    /// 7.1.2.7.10, 7.1.2.1.2; x509-limbo's `pedantic-webpki-eku`), besides the standard one: the end
    /// entity must carry a non-critical extKeyUsage naming the purpose (anyExtendedKeyUsage does not
    /// count) and no purpose forbidden beside it (codeSigning, emailProtection, timeStamping,
    /// OCSPSigning, precertificate signing, anyExtendedKeyUsage), and must not be a CA unless it is
    /// trusted directly; the intermediate directly above it, when it carries extKeyUsage, must name
    /// the purpose (for clientAuth it must carry one); a root must not carry extKeyUsage.
    case strict
    /// The strict rules for the end entity alone, the standard ones above it (Chromium's
    /// `SERVER_AUTH_STRICT_LEAF`/`CLIENT_AUTH_STRICT_LEAF`).
    case strictEndEntity
}

/// How far a trust anchor's own certificate is checked (RFC 5280 6.1.1 (d); RFC 5937).
///
/// RFC 5280 leaves it to the implementation whether an anchor is only a name and a key. The default,
/// ``rfc5937``, checks the anchor's validity and applies its constraints, as OpenSSL, Go and
/// pyca/cryptography do: a private root carrying `nameConstraints: permitted DNS:customer7.test`
/// means it. The anchor's conformance to the profile (its serial number, criticality flags, key
/// identifiers) is checked only with ``profile``: real trust stores carry roots that break those
/// rules (the Debian bundle has eight with serial number 0 and three with a non-critical
/// basicConstraints), and a root is trusted by the store's choice, not by its encoding.
public struct AnchorEnforcement: Hashable, Sendable {
    /// Check the anchor certificate's validity period at the validation time.
    public var validity: Bool
    /// Apply the anchor certificate's constraints to the path as for a certificate 0 before
    /// certificate 1 (RFC 5937 section 3.2, Chromium's reading): basicConstraints (cA, when present,
    /// must be TRUE; pathLenConstraint), keyUsage keyCertSign (when present), nameConstraints,
    /// extKeyUsage chaining, certificatePolicies, policyMappings, policyConstraints and
    /// inhibitAnyPolicy (skip counts counted from the anchor), and unknown critical extensions
    /// rejected (RFC 5937 section 2).
    public var constraints: Bool
    /// Also check the anchor certificate against the profile's certificate rules (the ``ProfileRule``
    /// rows of the anchor position under the path's profile).
    public var profile: Bool
    /// With ``constraints``, also require a version 3 anchor to carry basicConstraints (Chromium's
    /// `require_anchor_basic_constraints`; RFC 5280 4.2.1.9 asks it of CA certificates), reported as
    /// ``ProfileRule/missingBasicConstraints`` under any profile.
    public var requireBasicConstraints: Bool

    /// Creates the setting.
    public init(validity: Bool, constraints: Bool, profile: Bool = false, requireBasicConstraints: Bool = false) {
        self.validity = validity
        self.constraints = constraints
        self.profile = profile
        self.requireBasicConstraints = requireBasicConstraints
    }

    /// RFC 5280 6.1.1 (d): an anchor is a name and a public key; nothing else of it is checked
    /// (Chromium's `TRUSTED_ANCHOR`).
    public static let nameAndKey = AnchorEnforcement(validity: false, constraints: false)
    /// The anchor's validity and constraints (RFC 5937), not its profile conformance (default).
    public static let rfc5937 = AnchorEnforcement(validity: true, constraints: true)
    /// Validity, constraints and the anchor certificate's conformance to the profile.
    public static let full = AnchorEnforcement(validity: true, constraints: true, profile: true)
}

/// The rules a path must meet and the limits of the search, besides the certificates, the anchors
/// and the evidence (RFC 5280 6.1.1's inputs, the purpose, the profile, the algorithms, the budget).
/// A plain value: build one per use, share it freely. Revocation evidence (CRLs), the caller's own
/// check and the report's options are the evaluation's (``TrustEvaluation``), not rules.
public struct ValidationPolicy: Sendable {
    /// The purpose (server, client, any).
    public var purpose: ValidationPurpose
    /// Which certificate rules apply (``CertificateProfile``; docs/RULES.md).
    public var profile: CertificateProfile
    /// Accepted signature algorithms and keys.
    public var algorithms: AlgorithmProfile
    /// RFC 5280 6.1.1 (c), (e), (f), (g): the policy inputs.
    public var policyInputs: PolicyValidationInputs
    /// RFC 5280 6.1.1 (h), (i): initial permitted and excluded subtrees, as one NameConstraints value
    /// checked against every certificate of the path; `nil` for none.
    public var initialNameConstraints: NameConstraints?
    /// How far anchors' own certificates are checked.
    public var anchorEnforcement: AnchorEnforcement
    /// The path-length limit: most intermediates allowed between the leaf and its trust anchor,
    /// counted as RFC 5280 4.2.1.9 counts them for pathLenConstraint — only those that are not
    /// self-issued (a key-rollover certificate is no extra depth). Default 7 (paths of the public Web
    /// PKI have one to three). A path needing more fails with
    /// ``ValidationFailure/maximumDepthExceeded(_:limit:)``; a negative value counts as 0.
    ///
    /// Self-issued intermediates are bounded too, so that a chain of them, free by this count, cannot
    /// grow without end: a path holds at most `2 × maximumIntermediates + 1` intermediates in all (one
    /// self-issued certificate beside each counted one, and one more).
    public var maximumIntermediates: Int
    /// Key usages the leaf must allow when it has a keyUsage extension (in addition to the TLS check).
    public var requiredLeafKeyUsage: KeyUsage
    /// For TLS purposes, check that a leaf keyUsage (when present) allows the TLS use of its key:
    /// digitalSignature, or keyEncipherment for RSA key transport (on by default).
    public var checkTLSKeyUsage: Bool
    /// How extKeyUsage is read: ``ExtendedKeyUsageReading/standard`` (default) or a strict reading.
    public var extendedKeyUsageReading: ExtendedKeyUsageReading
    /// Consult the subject commonName as a DNS name when the certificate has no subjectAltName
    /// (legacy, off by default as in Go, rustls-webpki, Chromium and pyca). When on, such a leaf's
    /// commonNames that are host names are also held to the path's dNSName name constraints
    /// (RFC 5280 4.2.1.10 names only dNSName entries; OpenSSL's reading for commonNames): a failure is
    /// ``ValidationFailure/nameConstraintViolation(_:_:)`` with the source
    /// ``NameConstraintViolation/Source/subjectCommonName``.
    public var allowCommonNameFallback: Bool
    /// Public suffix list for refusing wildcards directly under a public suffix; `nil` (default) turns the check off.
    public var publicSuffixList: PublicSuffixList?
    /// Work limits.
    public var budget: Budget
    /// Pins the path must contain: a path none of whose certificates, anchor included, matches one
    /// of them (``Pin/matches(_:)``: the certificate itself, or its key, as HPKP `pin-sha256`,
    /// RFC 7469 2.6) fails with ``ValidationFailure/pinMismatch``, a path that reaches no anchor
    /// included (the failure is fatal: no trust exception accepts a path without the pin). Empty (the
    /// default): no requirement.
    /// The same ``Pin`` given to ``TrustEvaluation/pins`` trusts instead of requiring.
    public var requiredPins: Set<Pin>
    /// What a certificate whose revocation status the evidence cannot determine does to its path
    /// (default: ``UndeterminedRevocationStatus/rejectWhenIssuerHasCRLs``).
    public var undeterminedRevocationStatus: UndeterminedRevocationStatus
    /// When an OCSP response is current: the clock skew allowed and the maximum age of a response
    /// without nextUpdate (RFC 6960 4.2.2.1; default ``OCSPFreshness/default``: 300 s, 7 days).
    public var ocspFreshness: OCSPFreshness
    /// How a CRL that departs from RFC 5280 section 5's rules on CRL issuers is read (default
    /// ``CRLConformance/automatic``: strictly only under ``CertificateProfile/rfc5280``).
    public var crlConformance: CRLConformance
    /// Whether Certificate Transparency is required, and under which policy (RFC 6962; default
    /// ``CTRequirement/automatic``: Apple's policy for paths to public anchors when the evaluation
    /// has a log list, as SecTrust does).
    public var certificateTransparency: CTRequirement = .automatic

    /// Creates a policy; every argument has a default.
    public init(purpose: ValidationPurpose = .any, profile: CertificateProfile = .automatic,
                algorithms: AlgorithmProfile = .default, policyInputs: PolicyValidationInputs = PolicyValidationInputs(),
                initialNameConstraints: NameConstraints? = nil, anchorEnforcement: AnchorEnforcement = .rfc5937,
                maximumIntermediates: Int = 7, requiredLeafKeyUsage: KeyUsage = [], checkTLSKeyUsage: Bool = true,
                extendedKeyUsageReading: ExtendedKeyUsageReading = .standard, allowCommonNameFallback: Bool = false,
                publicSuffixList: PublicSuffixList? = nil, budget: Budget = .default, requiredPins: Set<Pin> = [],
                undeterminedRevocationStatus: UndeterminedRevocationStatus = .rejectWhenIssuerHasCRLs,
                ocspFreshness: OCSPFreshness = .default, crlConformance: CRLConformance = .automatic) {
        self.purpose = purpose
        self.profile = profile
        self.algorithms = algorithms
        self.policyInputs = policyInputs
        self.initialNameConstraints = initialNameConstraints
        self.anchorEnforcement = anchorEnforcement
        self.maximumIntermediates = maximumIntermediates
        self.requiredLeafKeyUsage = requiredLeafKeyUsage
        self.checkTLSKeyUsage = checkTLSKeyUsage
        self.extendedKeyUsageReading = extendedKeyUsageReading
        self.allowCommonNameFallback = allowCommonNameFallback
        self.publicSuffixList = publicSuffixList
        self.budget = budget
        self.requiredPins = requiredPins
        self.undeterminedRevocationStatus = undeterminedRevocationStatus
        self.ocspFreshness = ocspFreshness
        self.crlConformance = crlConformance
    }

    /// A TLS server policy for `hostname` (a DNS name or an IP address, RFC 6125 reference identifier).
    ///
    /// - Throws: ``ReferenceIdentifierError`` when `hostname` is neither a valid DNS name nor an IP address.
    public static func server(hostname: String) throws(ReferenceIdentifierError) -> ValidationPolicy {
        ValidationPolicy(purpose: .serverAuthentication(try ReferenceIdentifier(hostname)))
    }

    /// A TLS client (mutual TLS) policy, optionally requiring names in the client certificate.
    public static func client(expectedNames: [ExpectedName] = []) -> ValidationPolicy {
        ValidationPolicy(purpose: .clientAuthentication(expectedNames: expectedNames))
    }

    /// Strict RFC 5280 path validation (sections 4 and 6) with the permissive algorithm profile (for
    /// old PKIs).
    public static func rfc5280(_ inputs: PolicyValidationInputs = PolicyValidationInputs()) -> ValidationPolicy {
        ValidationPolicy(purpose: .any, profile: .rfc5280, algorithms: .permissive, policyInputs: inputs)
    }

    /// RFC 5280 section 6 path validation alone (``CertificateProfile/pathValidation``), with the
    /// permissive algorithm profile and the trust anchor as a name and a key (6.1.1 (d)): what NIST
    /// PKITS tests.
    public static func pathValidation(_ inputs: PolicyValidationInputs = PolicyValidationInputs()) -> ValidationPolicy {
        ValidationPolicy(purpose: .any, profile: .pathValidation, algorithms: .permissive, policyInputs: inputs,
                         anchorEnforcement: .nameAndKey)
    }
}
