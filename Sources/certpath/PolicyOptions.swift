import CertPath

/// The options `verify` and `batch` share that choose the rules a path is held to: the profile, how
/// far trust anchors are checked, the algorithm profile and the strict extended key usage reading.
struct PolicyOptions: Sendable {
    var profile: CertificateProfile = .automatic
    var anchorEnforcement: AnchorEnforcement = .rfc5937
    var algorithms: AlgorithmProfile = .default
    var extendedKeyUsageReading = ExtendedKeyUsageReading.standard
    var crlConformance = CRLConformance.automatic

    /// The option specs, for a command's list.
    static let specs: [OptionSpec] = [
        .value("profile", "NAME",
               "auto (default: webpki for a path ending at a system anchor, interoperable for your anchors), webpki, "
               + "interoperable (RFC 5280 section 6 and the relying party's obligations; rules addressed to CAs are findings), "
               + "rfc5280 (strict: every section 4 rule fails), or path-validation (RFC 5280 section 6 alone, as NIST PKITS "
               + "tests it); docs/RULES.md"),
        .value("anchor-checks", "WHAT",
               "how far a trust anchor's own certificate is checked: rfc5937 (default: its validity and constraints), "
               + "name-and-key (RFC 5280 6.1.1 (d): nothing), or full (also its conformance to the profile)"),
        .value("algorithms", "NAME",
               "default (RSA >= 2048 bits, SHA-2, P-256/384/521, Brainpool outside the Web PKI, EdDSA) or permissive "
               + "(also RSA >= 1024 bits, SHA-1, SHA-224, DSA: "
               + "an old internal PKI)"),
        .value("crl-conformance", "HOW",
               "how a CRL without cRLNumber or nextUpdate (RFC 5280 5.2.3, 5.1.2.5: rules on the CRL issuer) is read: auto "
               + "(default: strict under --profile rfc5280, else interoperable), strict (it shows revocations only), or "
               + "interoperable (it also shows good standing, listed as a CRL finding; without nextUpdate for 7 days)"),
        .flag("strict-eku", "the strict extKeyUsage reading: the end entity must name the purpose (Chromium's *_STRICT, CA/B BR 7.1.2.7.10)"),
    ]

    /// The names `--profile` accepts.
    static let profileNames = CertificateProfile.allCases.map(\.rawValue)

    /// Reads the options from `arguments` (defaults for those not given).
    init(_ arguments: ParsedArguments) throws(CLIError) {
        if let name = arguments.value("profile") {
            guard let profile = CertificateProfile(rawValue: name) else {
                throw CLIError("--profile '\(Output.echo(name))': expected \(Self.profileNames.joined(separator: ", "))")
            }
            self.profile = profile
        }
        if let name = arguments.value("anchor-checks") {
            switch name {
            case "rfc5937": anchorEnforcement = .rfc5937
            case "name-and-key": anchorEnforcement = .nameAndKey
            case "full": anchorEnforcement = .full
            default: throw CLIError("--anchor-checks '\(Output.echo(name))': expected rfc5937, name-and-key or full")
            }
        }
        if let name = arguments.value("algorithms") {
            switch name {
            case "default": algorithms = .default
            case "permissive": algorithms = .permissive
            default: throw CLIError("--algorithms '\(Output.echo(name))': expected default or permissive")
            }
        }
        if arguments.has("strict-eku") { extendedKeyUsageReading = .strict }
        if let name = arguments.value("crl-conformance") {
            guard let reading = CRLConformance(rawValue: name) else {
                throw CLIError("--crl-conformance '\(Output.echo(name))': expected auto, strict or interoperable")
            }
            crlConformance = reading
        }
    }

    /// Sets the options on `policy`.
    func apply(to policy: inout ValidationPolicy) {
        policy.profile = profile
        policy.anchorEnforcement = anchorEnforcement
        policy.algorithms = algorithms
        policy.extendedKeyUsageReading = extendedKeyUsageReading
        policy.crlConformance = crlConformance
    }
}
