// swift-tools-version:6.0
// CertPath's benchmarks (Benchmarks/README.md), a package of their own (issue 31) so that the root
// package's builds, `swift build --build-tests` and the sanitizer builds included, never compile
// them. Build and run from the repository root:
//
//   swift build -c release --package-path Benchmarks
//   Benchmarks/.build/release/certpath-bench --markdown
//
// The `certpath` executable the batch/* scenarios run is built beside the benchmarks (the
// dependency on the root's `certpath` product below). They reach CertPath only through the root
// package's products: CertPath, CertPathTLS (which re-exports libssl's C API), CertPathLimbo (the
// limbo/* scenarios) and CertPathBenchmarkProbes (operations built on CertPath's `package`
// declarations, which another package cannot see); the floor's libcrypto calls live in CBenchSupport.
import PackageDescription

let package = Package(
    name: "CertPathBenchmarks",
    dependencies: [.package(name: "CertPath", path: "..")],
    targets: [
        // Interposes malloc to count allocations: linked into the benchmark executable only; also
        // the floor's libcrypto calls (d2i_PUBKEY, EVP_DigestVerify) and CPU affinity.
        .target(
            name: "CBenchSupport",
            path: "CBenchSupport",
            linkerSettings: [.linkedLibrary("crypto")]
        ),
        .executableTarget(
            name: "certpath-bench",
            dependencies: [
                .product(name: "CertPath", package: "CertPath"),
                .product(name: "CertPathLimbo", package: "CertPath"),
                .product(name: "CertPathBenchmarkProbes", package: "CertPath"),
                .product(name: "certpath", package: "CertPath"),
                "CBenchSupport",
            ],
            path: "CertPathBench"
        ),
        // Full TLS 1.3 mutual-authentication handshakes over memory BIOs: OpenSSL's own verification
        // against CertPathTLS.
        .executableTarget(
            name: "certpath-handshake-bench",
            dependencies: [
                .product(name: "CertPath", package: "CertPath"),
                .product(name: "CertPathTLS", package: "CertPath"),
            ],
            path: "HandshakeBench"
        ),
    ]
)
