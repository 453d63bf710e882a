// swift-tools-version:6.0
// CertPath: X.509 certification path validation (RFC 5280 section 6) in Swift.
// Layers, one way: certpath (CLI) -> CertPathLimbo (x509-limbo harness, uses Foundation)
//   -> CertPath (X509 model, validation, trust) -> CertPathDER.
// CLibCrypto (libcrypto, OpenSSL 3) is reached only from CertPath/Crypto.
// CertPathTLS (CertPath as an SSL_CTX's verifier) is the only library reaching libssl (CLibSSL):
// a user of the CertPath product alone never links libssl.
// The benchmarks (Benchmarks/Package.swift) and the fuzz targets (Fuzz/Package.swift) are packages
// of their own, depending on this one by path: no build of this package compiles them.
import PackageDescription

/// This manifest's folder (absolute), for the linker's start-up symbol order file.
let packageDirectory = String(#filePath.dropLast("/Package.swift".count))

let package = Package(
    name: "CertPath",
    products: [
        .library(name: "CertPath", targets: ["CertPath"]),
        .library(name: "CertPathTLS", targets: ["CertPathTLS"]),
        // Date conversions for code that imports Foundation (the CertPath core is Foundation-free).
        .library(name: "CertPathFoundation", targets: ["CertPathFoundation"]),
        .executable(name: "certpath", targets: ["certpath"]),
        // The x509-limbo harness, a product for the benchmark package (Benchmarks/Package.swift,
        // its limbo/* scenarios); not part of the supported API.
        .library(name: "CertPathLimbo", targets: ["CertPathLimbo"]),
        // What the benchmarks time but cannot reach from another package (`package` declarations):
        // one small module, for Benchmarks/Package.swift only; not part of the supported API.
        .library(name: "CertPathBenchmarkProbes", targets: ["CertPathBenchmarkProbes"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CLibSSL",
            pkgConfig: "libssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "CertPathDER"),
        .target(name: "CertPathX509", dependencies: ["CertPathDER"]),
        .target(name: "CertPath", dependencies: ["CertPathDER", "CertPathX509", "CLibCrypto"]),
        .target(name: "CertPathTLS", dependencies: ["CertPath", "CLibSSL"]),
        .target(name: "CertPathFoundation", dependencies: ["CertPath", "CertPathJSON"]),
        .target(name: "CertPathLimbo", dependencies: ["CertPath"]),
        // CertPath's JSON inputs (the CT log list, v3) through FoundationEssentials' JSONDecoder: no ICU,
        // no full Foundation, so the CLI can read them without Foundation on its start-up path.
        // CertPathFoundation re-exports it.
        .target(name: "CertPathJSON", dependencies: ["CertPath"]),
        .target(name: "CertPathBenchmarkProbes", dependencies: ["CertPath"]),
        // libcurl for `certpath verify --fetch`, opened with dlopen on the first fetch (no header, no
        // link): without --fetch the CLI never loads it or what it links (issue 32).
        .target(name: "CCurlFetch"),
        .executableTarget(
            name: "certpath",
            dependencies: ["CertPath", "CertPathJSON", "CertPathLimbo", "CertPathTLS", "CLibSSL", "CCurlFetch"],
            // The release CLI links the Swift runtime statically: a third of the start-up time and half
            // the memory of the dynamic build (Benchmarks/README.md, "The command line at process
            // level", issue 32). Release only: the test targets, which link the debug executable's
            // module, stay dynamic. (unsafeFlags: allowed in the root package and for products a
            // dependent package does not use; the library products carry none.)
            // `-static-stdlib` alone does not name FoundationEssentials' own static archives (limbo's
            // JSON decoding, connect's Date), hence the group after it; lld, which (unlike the default
            // linker) does not repeat the `mktemp` link warning FoundationEssentials' archive carries.
            // Two more for start-up (measured in the same place): relative relocations packed (DT_RELR, glibc
            // 2.36: the loader no longer reads 970 KB of them; -0.9 MiB peak), and the functions `certpath
            // verify` runs placed together in the order scripts/startup-order recorded (-2.0 MiB: start-up
            // touched code pages all over the static runtime); names the toolchain lacks are ignored.
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "--gc-sections", "-Xlinker", "--start-group", "-lFoundationEssentials",
                                           "-l_FoundationCShims", "-l_FoundationCollections", "-Xlinker", "--end-group",
                                           "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                                           "-Xlinker", "--symbol-ordering-file=\(packageDirectory)/scripts/startup-order.txt",
                                           "-Xlinker", "--no-warn-symbol-ordering"],
                                          .when(configuration: .release))]
        ),
        // The mutual-TLS example (Examples/MutualTLS/README.md): a server that demands client certificates
        // and verifies them with CertPathTLS, and a client, reaching libssl through `import CertPathTLS`
        // alone. Targets of this package, not a package of their own, so that `swift build --build-tests`
        // builds them and MutualTLSExampleTests loads the very code shipped; not products.
        .target(name: "MutualTLSExample", dependencies: ["CertPath", "CertPathTLS"], path: "Examples/MutualTLS/MutualTLSExample"),
        .executableTarget(name: "mutual-tls-server", dependencies: ["MutualTLSExample", "CertPath", "CertPathFoundation"],
                          path: "Examples/MutualTLS/Server"),
        .executableTarget(name: "mutual-tls-client", dependencies: ["MutualTLSExample", "CertPath", "CertPathFoundation"],
                          path: "Examples/MutualTLS/Client"),
        // Helpers shared by the test targets (a seeded generator, the cryptography-vectors location).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "CertPathDERTests", dependencies: ["CertPathDER", "TestSupport"]),
        .testTarget(name: "CertPathTests", dependencies: ["CertPath", "CertPathFoundation", "CLibCrypto", "TestSupport"]),
        // Real TLS handshakes on 127.0.0.1 against the openssl CLI (s_server, s_client).
        .testTarget(name: "CertPathTLSTests", dependencies: ["CertPathTLS", "CLibSSL", "CertPath", "CertPathJSON", "TestSupport"]),
        // The mutual-TLS example under load on 127.0.0.1 (valid and hostile clients), and its executables.
        .testTarget(name: "MutualTLSExampleTests",
                    dependencies: ["MutualTLSExample", "mutual-tls-server", "mutual-tls-client", "CertPath", "CertPathTLS", "TestSupport"]),
        .testTarget(name: "ConformanceTests", dependencies: ["CertPath", "CertPathLimbo", "TestSupport"]),
        // Drives the built `certpath` executable as a subprocess; depending on the executable target
        // makes `swift build --build-tests` build it first.
        .testTarget(name: "CLITests", dependencies: ["certpath", "CertPath", "CertPathLimbo", "TestSupport"]),
        // The Swift code of README.md and of the DocC articles (Sources/CertPath/CertPath.docc), compiled
        // and run against TestVectors/sample-pki; SnippetTests fails when a documented block is not
        // found verbatim in these sources.
        .testTarget(name: "DocumentationTests", dependencies: ["CertPath", "CertPathFoundation", "CertPathTLS", "TestSupport"]),
    ]
)
