// swift-tools-version:6.0
// libFuzzer targets for CertPath (issue 8). A separate package so that the root package's
// `swift build` never builds sanitized code; build and run through `scripts/fuzz`, which passes
// `-sanitize=fuzzer,address` and lld (see scripts/fuzz for the exact flags).
//
// Each target asserts an invariant, not only the absence of crashes:
//   FuzzDER           DERNode.parse accepts => encoded() gives back the input; rejects => DERError in bounds
//   FuzzCertificate   Certificate(derEncoded:) accepts => its own der re-parses to an identical certificate
//                     and every accessor runs; the whole certificate is a valid DER tree
//   FuzzPEM           PEM.decode / PEM.readCertificates never crash; certificates re-parse; blocks round-trip
//   FuzzPathBuilding  generated certificate sets (fixed P-256 keys) evaluate within the budget and are
//                     trusted only along a path that an independent re-check accepts
//   FuzzHostname      RFC 6125 matching agrees with a small independent reference implementation
//   FuzzCRL           CertificateRevocationList(derEncoded:) accepts => identical re-parse, DER all the way
//                     down, serial index agrees with a scan
//   FuzzOCSP          OCSPResponse(derEncoded:) accepts => identical re-parse, DER all the way down, a
//                     basic response exactly when successful, kept ranges within the input
//   FuzzSCT           SignedCertificateTimestampList(tlsEncoded:) accepts => re-encodes to the input, each
//                     SCT re-parses alone, sizes add up; rejects => SCTListError offset in bounds
import PackageDescription

let package = Package(
    name: "CertPathFuzz",
    dependencies: [.package(name: "CertPath", path: "..")],
    targets: [
        // Deterministic ECDSA P-256 signing with fixed test keys (libcrypto), for generated certificates.
        .target(name: "CFuzzSigner", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "FuzzSupport", dependencies: [.product(name: "CertPath", package: "CertPath"), "CFuzzSigner"]),
        .executableTarget(name: "FuzzDER", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzCertificate", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzPEM", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzPathBuilding", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzHostname", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzCRL", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzOCSP", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzSCT", dependencies: ["FuzzSupport"]),
    ]
)
