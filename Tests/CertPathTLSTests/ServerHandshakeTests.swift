import CLibSSL
import CertPath
import CertPathTLS
import Foundation
import Testing
import TestSupport

/// `openssl s_client` against a Swift server (CertPathTLS verifying the client certificate) on
/// 127.0.0.1, TLS 1.2 and 1.3, with the sample PKI. Every expectation names its case.
@Suite("openssl s_client against a Swift server")
struct ServerHandshakeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let folder: URL
        /// nil: no client certificate.
        let certificate: String?
        let key: String?
        let expectedNames: [String]
        /// nil: trusted; "" : refused by OpenSSL before CertPath (no certificate).
        let failure: String?
        /// The alert s_client receives, per version (TLS 1.2, TLS 1.3).
        let alerts: (Int, Int)?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "trusted client certificate", folder: PKI.rsa, certificate: "client.pem", key: "keys/client.key",
             expectedNames: ["alice@customer1.example"], failure: nil, alerts: nil),
        Case(name: "client certificate missing", folder: PKI.rsa, certificate: nil, key: nil, expectedNames: [],
             failure: "", alerts: (Alert.handshakeFailure, Alert.certificateRequired)),
        Case(name: "client certificate from another CA", folder: PKI.ecdsa, certificate: "client.pem", key: "keys/client.key",
             expectedNames: [], failure: "issuerNotFound", alerts: (Alert.unknownCA, Alert.unknownCA)),
        Case(name: "client certificate with serverAuth only", folder: PKI.rsa, certificate: "server.pem", key: "keys/server.key",
             expectedNames: [], failure: "extendedKeyUsageForbids", alerts: (Alert.badCertificate, Alert.badCertificate)),
        Case(name: "client certificate without the expected name", folder: PKI.rsa, certificate: "client.pem", key: "keys/client.key",
             expectedNames: ["bob@customer1.example"], failure: "nameMismatch", alerts: (Alert.badCertificate, Alert.badCertificate)),
    ]

    static var arguments: [(Case, TLSVersion)] { cases.flatMap { c in TLSVersion.allCases.map { (c, $0) } } }

    @Test("client authentication", arguments: arguments)
    func clientAuthentication(_ c: Case, _ version: TLSVersion) throws {
        let label = "\(c.name) (\(version.rawValue))"
        var clientArguments: [String] = []
        if let certificate = c.certificate, let key = c.key {
            clientArguments += ["-cert", PKI.path(certificate, in: c.folder), "-key", PKI.path(key, in: c.folder),
                                "-cert_chain", PKI.path("intermediate.pem", in: c.folder)]
        }
        var names: [ExpectedName] = []
        for name in c.expectedNames { names.append(.email(try RFC822Name(name))) }
        let (outcome, client) = try swiftServerHandshake(version: version, role: .clientAuthentication(expectedNames: names),
                                                         settings: TLSTrustSettings(trustStore: try PKI.rootStore()),
                                                         clientArguments: clientArguments, label: label)
        switch c.failure {
        case nil:
            #expect(outcome.completed, "\(label): handshake failed: \(outcome.opensslError); \(outcome.result?.report?.summary ?? "")")
            #expect(outcome.verification?.isTrusted == true, "\(label): \(outcome.result?.report?.summary ?? "not verified")")
            #expect(outcome.verification?.presented?.leaf.subject.description.contains("Alice") == true,
                    "\(label): the presented leaf is not Alice's certificate")
        case ""?:
            #expect(!outcome.completed, "\(label): the handshake completed without a client certificate")
            #expect(outcome.verification == nil, "\(label): a verification ran without a certificate")
        case let failure?:
            #expect(!outcome.completed, "\(label): the handshake completed despite \(failure)")
            #expect(outcome.primaryCode == failure, "\(label): primary failure \(outcome.primaryCode ?? "none"), expected \(failure)")
        }
        if let alerts = c.alerts {
            let alert = version == .tls12 ? alerts.0 : alerts.1
            #expect(client.alertNumbers.contains(alert),
                    "\(label): s_client received alerts \(client.alertNumbers), expected \(alert): \(client.errors)")
        }
    }
}
