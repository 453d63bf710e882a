// swift-tools-version:6.0
// CertPath: X.509 certification path validation (RFC 5280 section 6) in Swift.
// Layers, one way: certpath (CLI) -> CertPathLimbo (x509-limbo harness, uses Foundation)
//   -> CertPath (X509 model, validation, trust) -> CertPathDER.
// CLibCrypto (libcrypto, OpenSSL 3) is reached only from CertPath/Crypto.
// CertPathTLS (CertPath as an SSL_CTX's verifier) is the only library reaching libssl (CLibSSL):
// a user of the CertPath product alone never links libssl.
import PackageDescription

let package = Package(
    name: "CertPath",
    products: [
        .library(name: "CertPath", targets: ["CertPath"]),
        .library(name: "CertPathTLS", targets: ["CertPathTLS"]),
        // Date conversions for code that imports Foundation (the CertPath core is Foundation-free).
        .library(name: "CertPathFoundation", targets: ["CertPathFoundation"]),
        .executable(name: "certpath", targets: ["certpath"]),
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
        .target(name: "CertPathFoundation", dependencies: ["CertPath"]),
        .target(name: "CertPathLimbo", dependencies: ["CertPath"]),
        .executableTarget(name: "certpath", dependencies: ["CertPath", "CertPathFoundation", "CertPathLimbo", "CertPathTLS", "CLibSSL"]),
        // Benchmarks (`swift run -c release certpath-bench`, see Benchmarks/README.md). CBenchSupport
        // interposes malloc to count allocations: it is linked into the benchmark executable only.
        .target(
            name: "CBenchSupport",
            path: "Benchmarks/CBenchSupport",
            linkerSettings: [.linkedLibrary("crypto")]
        ),
        .executableTarget(
            name: "certpath-bench",
            dependencies: ["CertPath", "CertPathLimbo", "CLibCrypto", "CBenchSupport"],
            path: "Benchmarks/CertPathBench"
        ),
        // Full TLS 1.3 mutual-authentication handshakes over memory BIOs: OpenSSL's own verification
        // against CertPathTLS (`swift run -c release certpath-handshake-bench`, Benchmarks/README.md).
        .executableTarget(
            name: "certpath-handshake-bench",
            dependencies: ["CertPath", "CertPathTLS", "CLibSSL"],
            path: "Benchmarks/HandshakeBench"
        ),
        // Helpers shared by the test targets (a seeded generator, the cryptography-vectors location).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "CertPathDERTests", dependencies: ["CertPathDER", "TestSupport"]),
        .testTarget(name: "CertPathTests", dependencies: ["CertPath", "CertPathFoundation", "CLibCrypto", "TestSupport"]),
        // Real TLS handshakes on 127.0.0.1 against the openssl CLI (s_server, s_client).
        .testTarget(name: "CertPathTLSTests", dependencies: ["CertPathTLS", "CLibSSL", "CertPath", "CertPathFoundation", "TestSupport"]),
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
