import CertPath
import Foundation

/// Where the repository is, found from this file's path (Tests/DocumentationTests/Repository.swift),
/// and the sample PKI the examples read.
enum Repository {
    /// The repository root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// TestVectors/sample-pki/rsa.
    static let samplePKI = root.appendingPathComponent("TestVectors/sample-pki/rsa")

    /// TestVectors/ocsp/sample-pki: OCSP responses for the sample PKI's server and intermediate.
    static let samplePKIOCSP = root.appendingPathComponent("TestVectors/ocsp/sample-pki")

    /// Whether the process runs in the repository root, as `swift test` from there does: the
    /// README's example reads the sample PKI by a path relative to it, as a reader trying it would.
    static var isCurrentDirectory: Bool {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path == root.standardizedFileURL.path
    }

    /// The certificates of `name` in the RSA sample PKI (`root.pem`, `server-chain.pem`…).
    static func certificates(_ name: String) throws -> [Certificate] {
        try PEM.readCertificates(Array(Data(contentsOf: samplePKI.appendingPathComponent(name)))).certificates
    }

    /// The first certificate of the file at `path`, relative to the repository root.
    static func certificate(at path: String) throws -> Certificate {
        let certificates = try PEM.readCertificates(Array(Data(contentsOf: root.appendingPathComponent(path)))).certificates
        guard let first = certificates.first else { throw ExampleError("no certificate in \(path)") }
        return first
    }

    /// The bytes of `name` in the RSA sample PKI.
    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: samplePKI.appendingPathComponent(name)))
    }

    /// The time the sample PKI's manifest validates at (every certificate but the expired and
    /// not-yet-valid ones is valid then).
    static let manifestTime = UnixTime(rfc3339: "2026-06-01T00:00:00Z")!

    /// One minute after the thisUpdate of the sample PKI's OCSP response for the server: inside
    /// every sample-pki response's validity window.
    static func ocspTime() throws -> UnixTime {
        let response = try OCSPResponse(derEncoded: Array(Data(contentsOf: samplePKIOCSP.appendingPathComponent("server-good.der"))))
        guard let single = response.basicResponse?.responses.first else { throw ExampleError("server-good.der has no single response") }
        return UnixTime(secondsSinceEpoch: single.thisUpdate.secondsSinceEpoch + 60)
    }
}

/// An example's expectation did not hold.
struct ExampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
