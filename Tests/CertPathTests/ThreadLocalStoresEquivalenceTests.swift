import Foundation
import Testing
@testable import CertPath

/// Per-thread store copies (``ThreadLocalStores``) mean the same as the store: the same evaluation
/// on the first thread (the store itself) and on a second thread (its copy, from that thread's
/// 32nd evaluation on) gives the same result, for every kind of store and evaluation option.
/// (Written by a fresh reviewer of the change; the second thread now evaluates until it copies.)
@Suite("Per-thread store copies: same results")
struct ThreadLocalStoresEquivalenceTests {
    static let root = ConcurrencyTests.samplePKI.deletingLastPathComponent()  // TestVectors

    static func certificate(_ path: String) throws -> Certificate {
        let data = try Data(contentsOf: root.appendingPathComponent(path))
        if path.hasSuffix(".der") { return try Certificate(derEncoded: Array(data)) }
        return try #require(try PEM.readCertificates(Array(data)).certificates.first)
    }
    static func pki(_ path: String) throws -> Certificate { try certificate("sample-pki/" + path) }

    static let time = UnixTime(year: 2026, month: 6, day: 1)!

    /// What one thread saw, by value (DER and strings only, no object identity).
    struct Seen: Sendable, Equatable, CustomStringConvertible {
        var outcome = ""
        var certificates: [[UInt8]] = []
        var anchor: [UInt8]?
        var acceptedFailures: [String] = []
        var attempts = 0
        var chainCount = 0
        var summary = ""
        var usedCopy = false
        var description: String {
            "\(outcome) certs=\(certificates.count) anchor=\(anchor != nil) accepted=\(acceptedFailures) attempts=\(attempts) chain=\(chainCount) copy=\(usedCopy)"
        }
    }

    static func seen(_ result: TrustResult, store: TrustStore) -> Seen {
        var seen = Seen()
        switch result {
        case .trusted(let path):
            seen.outcome = "trusted"
            seen.certificates = path.certificates.map(\.der)
            seen.anchor = path.anchor?.der
            seen.acceptedFailures = path.acceptedFailures.map(\.code)
            seen.attempts = path.attempts.count
            seen.chainCount = path.chain.count
            // Whether the anchor object is not the store's own (this thread read a copy).
            if let anchor = path.anchor { seen.usedCopy = !store.entries.contains { $0.certificate === anchor } && store.entries.contains { $0.certificate == anchor } }
        case .untrusted(let report):
            seen.outcome = report.primaryFailure.code
            seen.certificates = report.bestAttempt.certificates.map(\.der)
            seen.anchor = report.bestAttempt.anchor?.der
            seen.attempts = report.attempts.count
            seen.summary = report.summary
            if let anchor = report.bestAttempt.anchor { seen.usedCopy = !store.entries.contains { $0.certificate === anchor } && store.entries.contains { $0.certificate == anchor } }
        }
        return seen
    }

    final class Box<T>: @unchecked Sendable { var value: T; init(_ value: T) { self.value = value } }

    /// Runs `body` on a new thread and waits for it to return (the thread then exits).
    static func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let box = Box<T?>(nil), done = DispatchSemaphore(value: 0)
        Thread { box.value = body(); done.signal() }.start()
        done.wait()
        return box.value!
    }

    struct Configuration {
        let name: String
        /// Builds a fresh store (so the test decides which thread is first) and the evaluation.
        let make: () throws -> TrustEvaluation
    }

    static func configurations() throws -> [Configuration] {
        let rsaRoot = try pki("rsa/root.pem"), rsaCA = try pki("rsa/intermediate.pem"), rsaLeaf = try pki("rsa/server.pem")
        let ecRoot = try pki("ecdsa/root.pem"), ecCA = try pki("ecdsa/intermediate.pem"), ecLeaf = try pki("ecdsa/server.pem")
        let oldRoot = try pki("rsa/old-root.pem"), crossExpired = try pki("rsa/intermediate-cross-expired.pem")
        let selfSigned = try pki("rsa/selfsigned-server.pem")
        let server = try ValidationPolicy.server(hostname: "server.customer1.example")
        let wrongHost = try ValidationPolicy.server(hostname: "www.customer2.example")
        func ev(_ leaf: Certificate, _ intermediates: [Certificate], _ entries: [TrustEntry], policy: ValidationPolicy = server,
                anchorsOnly: Bool = true, pins: [Pin] = [], exceptions: TrustExceptions? = nil, system: TrustStore? = nil) -> TrustEvaluation {
            var e = TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: TrustStore(entries), anchorsOnly: anchorsOnly,
                                    pins: pins, exceptions: exceptions, policy: policy, validationTime: time)
            e.systemAnchors = system
            return e
        }
        func a(_ c: Certificate, _ k: TrustKind = .anchor) -> TrustEntry { TrustEntry(c, kind: k) }
        var list: [Configuration] = [
            .init(name: "anchor") { ev(rsaLeaf, [rsaCA], [a(rsaRoot)]) },
            .init(name: "anchorOrLeaf root") { ev(rsaLeaf, [rsaCA], [a(rsaRoot, .anchorOrLeaf)]) },
            .init(name: "leaf entry") { ev(rsaLeaf, [], [a(rsaLeaf, .leaf)]) },
            .init(name: "anchorOrLeaf leaf") { ev(rsaLeaf, [], [a(rsaLeaf, .anchorOrLeaf)]) },
            .init(name: "leaf entry + anchor") { ev(rsaLeaf, [rsaCA], [a(rsaLeaf, .leaf), a(rsaRoot)]) },
            .init(name: "distrusted intermediate") { ev(rsaLeaf, [rsaCA], [a(rsaRoot), a(rsaCA, .distrusted)]) },
            .init(name: "distrusted leaf") { ev(rsaLeaf, [rsaCA], [a(rsaRoot), a(rsaLeaf, .distrusted)]) },
            .init(name: "overridden anchor") { ev(rsaLeaf, [rsaCA], [a(rsaRoot), a(rsaRoot, .distrusted)]) },
            .init(name: "overridden anchor, distrust first") { ev(rsaLeaf, [rsaCA], [a(rsaRoot, .distrusted), a(rsaRoot)]) },
            .init(name: "duplicates") { ev(rsaLeaf, [rsaCA], [a(rsaRoot), a(rsaRoot), a(rsaRoot, .anchorOrLeaf), a(ecRoot), a(ecRoot)]) },
            .init(name: "two roots, cross") { ev(rsaLeaf, [rsaCA, crossExpired], [a(oldRoot), a(rsaRoot)]) },
            .init(name: "old root only") { ev(rsaLeaf, [rsaCA, crossExpired], [a(oldRoot)]) },
            .init(name: "wrong store") { ev(rsaLeaf, [rsaCA], [a(ecRoot)]) },
            .init(name: "ecdsa") { ev(ecLeaf, [ecCA], [a(rsaRoot), a(ecRoot)]) },
            .init(name: "hostname mismatch") { ev(rsaLeaf, [rsaCA], [a(rsaRoot)], policy: wrongHost) },
            .init(name: "collect attempts") {
                var e = ev(rsaLeaf, [rsaCA, crossExpired], [a(oldRoot), a(rsaRoot), a(ecRoot)])
                e.collectAllAttempts = true
                return e
            },
            .init(name: "expired leaf") { ev(try pki("rsa/server-expired.pem"), [rsaCA], [a(rsaRoot)]) },
            .init(name: "bad signature") { ev(try pki("rsa/server-bad-signature.pem"), [rsaCA], [a(rsaRoot)]) },
            .init(name: "under not-a-CA") { ev(try pki("rsa/server-under-not-a-ca.pem"), [rsaCA, try pki("rsa/not-a-ca.pem")], [a(rsaRoot)]) },
            .init(name: "self-signed server as anchorOrLeaf") { ev(selfSigned, [], [a(selfSigned, .anchorOrLeaf)]) },
            .init(name: "pins, store copied") { ev(rsaLeaf, [rsaCA], [a(ecRoot)], pins: [Pin(publicKeyOf: rsaCA)]) },
            .init(name: "pin distrusted by store") { ev(rsaLeaf, [rsaCA], [a(ecRoot), a(rsaCA, .distrusted)], pins: [Pin(publicKeyOf: rsaCA)]) },
            .init(name: "system anchors") { ev(rsaLeaf, [rsaCA], [a(ecRoot)], anchorsOnly: false, system: TrustStore(anchors: [rsaRoot])) },
            .init(name: "system anchors, distrusted by store") {
                ev(rsaLeaf, [rsaCA], [a(ecRoot), a(rsaRoot, .distrusted)], anchorsOnly: false, system: TrustStore(anchors: [rsaRoot]))
            },
            .init(name: "exception") {
                let probe = TrustEvaluation(leaf: rsaLeaf, intermediates: [rsaCA], trustStore: TrustStore(anchors: [rsaRoot]), policy: wrongHost,
                                            validationTime: time).evaluate()
                let exceptions = try #require(probe.report?.exceptions)
                return ev(rsaLeaf, [rsaCA], [a(rsaRoot)], policy: wrongHost, exceptions: exceptions)
            },
        ]
        // RSASSA-PSS-restricted CA keys (RFC 4055) as anchors, each leaf variant.
        let pssDir = root.appendingPathComponent("pss-restricted")
        for ca in ["sha384-48", "sha1", "any"] {
            let caCert = try certificate("pss-restricted/ca-\(ca).pem")
            for file in try FileManager.default.contentsOfDirectory(atPath: pssDir.path).sorted() where file.hasPrefix("leaf-\(ca)-") {
                let leaf = try certificate("pss-restricted/" + file)
                list.append(.init(name: "PSS anchor \(file)") { ev(leaf, [], [a(caCert)], policy: ValidationPolicy(profile: .rfc5280)) })
            }
        }
        // Bench chains.
        for kind in ["rsa", "ecdsa"] {
            let leaf = try certificate("bench/\(kind)/leaf.der"), ca = try certificate("bench/\(kind)/intermediate.der")
            let benchRoot = try certificate("bench/\(kind)/root.der")
            list.append(.init(name: "bench \(kind)") { ev(leaf, [ca], [a(benchRoot)], policy: ValidationPolicy()) })
        }
        return list
    }

    @Test("every configuration: same outcome, failure code, path DER, anchor, chain, summary, accepted failures and attempts on the first thread and on a second thread's copy")
    func copiesMeanTheSame() throws {
        var usedCopy = 0
        for configuration in try Self.configurations() {
            let evaluation = try configuration.make()
            let store = evaluation.trustStore
            let first = Self.onNewThread { Self.seen(evaluation.evaluate(), store: store) }
            // The second thread's last evaluation is the first made with its copy.
            let second = Self.onNewThread {
                var last = Seen()
                for _ in 0..<ThreadLocalStores.copyAfter { last = Self.seen(evaluation.evaluate(), store: store) }
                return last
            }
            #expect(first.outcome == second.outcome, "\(configuration.name)")
            #expect(first.certificates == second.certificates, "\(configuration.name)")
            #expect(first.anchor == second.anchor, "\(configuration.name)")
            #expect(first.chainCount == second.chainCount, "\(configuration.name)")
            #expect(first.summary == second.summary, "\(configuration.name)")
            #expect(first.acceptedFailures == second.acceptedFailures, "\(configuration.name)")
            #expect(first.attempts == second.attempts, "\(configuration.name)")
            #expect(!first.usedCopy, "\(configuration.name)")
            if second.usedCopy { usedCopy += 1 }
        }
        // The second thread did read copies (the anchor objects were the copy's).
        #expect(usedCopy > 20)
    }
}
