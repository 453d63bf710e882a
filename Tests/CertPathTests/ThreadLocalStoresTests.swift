import Foundation
import Testing
@testable import CertPath

/// A small trust store shared by threads: the first thread to evaluate against it uses it as it is,
/// every other thread its own copy (see ``ThreadLocalStores``). Each test makes fresh stores, so
/// which thread is first is decided by the test, and runs each evaluation on a thread of its own.
@Suite("Per-thread copies of small trust stores")
struct ThreadLocalStoresTests {
    static func certificate(_ path: String) throws -> Certificate {
        let url = ConcurrencyTests.samplePKI.appendingPathComponent(path)
        let data = try Data(contentsOf: url)
        return try #require(try PEM.readCertificates(Array(data)).certificates.first)
    }

    static let time = UnixTime(year: 2026, month: 6, day: 1)!

    /// What one thread saw.
    struct Seen: Sendable {
        var outcome = ""
        var anchor: Certificate?
        var copies = 0
    }

    /// Runs `body` on a new thread and waits for it.
    static func onNewThread(_ body: @escaping @Sendable () -> Seen) -> Seen {
        final class Box: @unchecked Sendable { var seen = Seen() }
        let box = Box(), done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.seen = body()
            done.signal()
        }
        thread.start()
        done.wait()
        return box.seen
    }

    /// Evaluates the sample RSA server chain against each store in turn on one new thread.
    static func evaluate(_ stores: [TrustStore]) throws -> [Seen] {
        let leaf = try certificate("rsa/server.pem"), intermediate = try certificate("rsa/intermediate.pem")
        let policy = try ValidationPolicy.server(hostname: "server.customer1.example")
        var all: [Seen] = []
        for store in stores {
            all.append(onNewThread {
                let result = TrustEvaluation(leaf: leaf, intermediates: [intermediate], trustStore: store, policy: policy,
                                             validationTime: Self.time).evaluate()
                var seen = Seen(copies: ThreadLocalStores.countOnThisThread)
                switch result {
                case .trusted(let path): (seen.outcome, seen.anchor) = ("trusted", path.anchor)
                case .untrusted(let report): seen.outcome = report.primaryFailure.code
                }
                return seen
            })
        }
        return all
    }

    @Test("the first thread evaluates against the store itself, a second thread against its own copy: same outcome, equal anchor")
    func secondThreadUsesACopy() throws {
        let root = try Self.certificate("rsa/root.pem")
        let store = TrustStore(anchors: [root])
        let seen = try Self.evaluate([store, store])
        #expect(seen.map(\.outcome) == ["trusted", "trusted"])
        #expect(seen[0].anchor === root && seen[0].copies == 0)
        let copied = try #require(seen[1].anchor)
        #expect(copied == root && copied !== root && seen[1].copies == 1)
    }

    @Test("a copy keeps each entry's trust: a distrusted intermediate stays distrusted on the second thread")
    func copiesKeepDistrust() throws {
        let store = TrustStore([TrustEntry(try Self.certificate("rsa/root.pem"), kind: .anchor),
                                TrustEntry(try Self.certificate("rsa/intermediate.pem"), kind: .distrusted)])
        let seen = try Self.evaluate([store, store])
        #expect(seen.map(\.outcome) == ["distrusted", "distrusted"])
        #expect(seen[1].copies == 1)
    }

    @Test("a store of more than 16 entries is shared as it is, never copied")
    func largeStoresAreShared() throws {
        let root = try Self.certificate("rsa/root.pem")
        let others = try ["ecdsa/root.pem", "rsa/old-root.pem"].map(Self.certificate)
        let entries = [root] + (0..<16).map { others[$0 % 2] }
        #expect(entries.count == ThreadLocalStores.largestCopied + 1)
        let store = TrustStore(anchors: entries)
        let seen = try Self.evaluate([store, store])
        #expect(seen.map(\.outcome) == ["trusted", "trusted"])
        #expect(seen[1].anchor === root && seen[1].copies == 0)
    }

    @Test("a thread keeps copies of at most 4 stores, the most recently used")
    func copiesAreBounded() throws {
        let leaf = try Self.certificate("rsa/server.pem"), intermediate = try Self.certificate("rsa/intermediate.pem")
        let root = try Self.certificate("rsa/root.pem")
        let stores = (0..<5).map { _ in TrustStore(anchors: [root]) }
        // Another thread evaluates against each first, so the thread below copies all five.
        _ = try Self.evaluate(stores)
        let policy = try ValidationPolicy.server(hostname: "server.customer1.example")
        let seen = Self.onNewThread {
            var seen = Seen(outcome: "trusted")
            for store in stores + [stores[4], stores[0]] {
                let result = TrustEvaluation(leaf: leaf, intermediates: [intermediate], trustStore: store, policy: policy,
                                             validationTime: Self.time).evaluate()
                guard case .trusted(let path) = result, path.anchor == root, path.anchor !== root else { seen.outcome = "unexpected"; break }
                seen.copies = max(seen.copies, ThreadLocalStores.countOnThisThread)
            }
            return seen
        }
        #expect(seen.outcome == "trusted")
        #expect(seen.copies == ThreadLocalStores.maximumCount)
    }
}
