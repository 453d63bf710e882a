import Foundation
import CertPath

/// The sample PKI of `TestVectors/sample-pki` (see its README), loaded for unit tests.
enum SamplePKI {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TestVectors/sample-pki")

    /// The certificate(s) of `name` (relative to sample-pki, e.g. `rsa/server.pem`).
    static func certificates(_ name: String) -> [Certificate] {
        let bytes = [UInt8](FileManager.default.contents(atPath: root.appendingPathComponent(name).path) ?? Data())
        return (try? PEM.readCertificates(bytes).certificates) ?? []
    }

    /// The first certificate of `name`.
    static func certificate(_ name: String) -> Certificate {
        guard let first = certificates(name).first else { fatalError("missing sample certificate \(name)") }
        return first
    }

    static let time = UnixTime(rfc3339: "2026-06-01T00:00:00Z")!
    static let rsaRoot = certificate("rsa/root.pem")
    static let rsaIntermediate = certificate("rsa/intermediate.pem")
    static let rsaServer = certificate("rsa/server.pem")
    static let rsaClient = certificate("rsa/client.pem")
    static let rsaExpired = certificate("rsa/server-expired.pem")
    static let selfSigned = certificate("rsa/selfsigned-server.pem")
    static let oldRoot = certificate("rsa/old-root.pem")
    static let badSignature = certificate("rsa/server-bad-signature.pem")
    static let hostname = "server.customer1.example"

    /// A server evaluation at the sample time.
    static func server(_ leaf: Certificate, intermediates: [Certificate] = [rsaIntermediate], anchors: [Certificate] = [rsaRoot],
                       hostname: String = hostname) -> TrustEvaluation {
        TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: TrustStore(anchors: anchors),
                        policy: try! .server(hostname: hostname), validationTime: time)
    }
}
