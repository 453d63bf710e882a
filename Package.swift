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

/// Whether SwiftPM (or Xcode) checked this package out as another package's remote dependency
/// (`.build/checkouts/…`, `SourcePackages/checkouts/…`), where it refuses any target with unsafe
/// flags in a product the dependent uses.
let isCheckedOutDependency = packageDirectory.contains("/checkouts/")

/// The modules the `certpath` executable links emit, in release builds, one section per function
/// (`-function-sections`; Swift otherwise gives only public functions their own), so that the
/// linker can place together what start-up runs (scripts/startup-order): 0.8 MiB less resident
/// code for `certpath verify` (Benchmarks/README.md, "Start-up, third round", issue 32). An unsafe
/// flag, so none when checked out as a dependency: a dependent's build of the library products is
/// unchanged but for the section layout.
let startupLayout: [SwiftSetting] = isCheckedOutDependency ? [] : [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]

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
        .target(name: "CertPathDER", swiftSettings: startupLayout),
        .target(name: "CertPathX509", dependencies: ["CertPathDER"], swiftSettings: startupLayout),
        .target(name: "CertPath", dependencies: ["CertPathDER", "CertPathX509", "CLibCrypto"], swiftSettings: startupLayout),
        .target(name: "CertPathTLS", dependencies: ["CertPath", "CLibSSL"], swiftSettings: startupLayout),
        .target(name: "CertPathFoundation", dependencies: ["CertPath", "CertPathJSON"]),
        .target(name: "CertPathLimbo", dependencies: ["CertPath"], swiftSettings: startupLayout),
        // CertPath's JSON inputs (the CT log list, v3) through FoundationEssentials' JSONDecoder: no ICU,
        // no full Foundation, so the CLI can read them without Foundation on its start-up path.
        // CertPathFoundation re-exports it.
        .target(name: "CertPathJSON", dependencies: ["CertPath"], swiftSettings: startupLayout),
        .target(name: "CertPathBenchmarkProbes", dependencies: ["CertPath"]),
        // libcurl for `certpath verify --fetch`, opened with dlopen on the first fetch (no header, no
        // link): without --fetch the CLI never loads it or what it links (issue 32).
        .target(name: "CCurlFetch"),
        .executableTarget(
            name: "certpath",
            dependencies: ["CertPath", "CertPathJSON", "CertPathLimbo", "CertPathTLS", "CLibSSL", "CCurlFetch"],
            swiftSettings: startupLayout,
            // The release CLI links the Swift runtime statically: a third of the start-up time and half
            // the memory of the dynamic build (Benchmarks/README.md, "The command line at process
            // level", issue 32). Release only: the test targets, which link the debug executable's
            // module, stay dynamic. (unsafeFlags: allowed in the root package and for products a
            // dependent package does not use; the library products carry none when checked out as a
            // dependency, `startupLayout` above.)
            // `-static-stdlib` alone does not name FoundationEssentials' own static archives (limbo's
            // JSON decoding, the CT log list), hence the group after it; lld, which (unlike the default
            // linker) does not repeat the `mktemp` link warning FoundationEssentials' archive carries.
            // For start-up, each measured in the same place: relative relocations packed (DT_RELR, glibc
            // 2.36: the loader no longer reads 970 KB of them); the functions `certpath verify` runs
            // placed together in the order scripts/startup-order recorded, and the functions the compiler
            // leaves without a symbol (which no order file can name) gathered before them
            // (scripts/startup-sections.lds); the C++ runtime the static Swift runtime needs (libstdc++
            // and its unwinder) linked from its static archives (scripts/static-link: two one-line linker
            // scripts the `-lstdc++` and `-lgcc_s` of the link resolve to), two shared libraries and
            // their relocations fewer at every start; and no dynamic symbol table for the whole runtime
            // (`--no-export-dynamic`, overriding the static runtime's `-export-dynamic`: nothing loads
            // Swift code into this process, so nothing needs its symbols).
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "--gc-sections", "-Xlinker", "--start-group", "-lFoundationEssentials",
                                           "-l_FoundationCShims", "-l_FoundationCollections", "-Xlinker", "--end-group",
                                           "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                                           "-Xlinker", "--symbol-ordering-file=\(packageDirectory)/scripts/startup-order.txt",
                                           "-Xlinker", "--no-warn-symbol-ordering",
                                           "-Xlinker", "-T\(packageDirectory)/scripts/startup-sections.lds",
                                           "-L\(packageDirectory)/scripts/static-link", "-Xlinker", "--no-export-dynamic"],
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
