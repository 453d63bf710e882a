import Foundation
import Testing
@testable import CertPath

/// A small trust store shared by threads: the first thread to evaluate against it uses it as it is,
/// every other thread its own copy from its 32nd evaluation against it on (see
/// ``ThreadLocalStores``). Each test makes fresh stores, so which thread is first is decided by the
/// test, and runs each thread's evaluations on a thread of its own.
@Suite("Per-thread copies of small trust stores")
struct ThreadLocalStoresTests {
    static func certificate(_ path: String) throws -> Certificate {
        let data = try Data(contentsOf: ConcurrencyTests.samplePKI.appendingPathComponent(path))
        return try #require(try PEM.readCertificates(Array(data)).certificates.first)
    }

    static let time = UnixTime(year: 2026, month: 6, day: 1)!
    static let root = try! certificate("rsa/root.pem")
    static let leaf = try! certificate("rsa/server.pem")
    static let intermediate = try! certificate("rsa/intermediate.pem")
    static let policy = try! ValidationPolicy.server(hostname: "server.customer1.example")

    /// What one thread saw: each evaluation's outcome and anchor, and its copies at the end.
    struct Seen: Sendable {
        var outcomes: [String] = []
        var anchors: [Certificate?] = []
        var copiesHeld = 0
        var copiesMade = 0
    }

    /// Evaluates the sample RSA server chain against each of `stores` in turn, on a new thread
    /// that ends before this returns.
    static func onNewThread(_ stores: [TrustStore]) -> Seen {
        final class Box: @unchecked Sendable { var seen = Seen() }
        let box = Box(), done = DispatchSemaphore(value: 0)
        let thread = Thread {
            for store in stores {
                let result = TrustEvaluation(leaf: leaf, intermediates: [intermediate], trustStore: store, policy: policy,
                                             validationTime: time).evaluate()
                switch result {
                case .trusted(let path): box.seen.outcomes.append("trusted"); box.seen.anchors.append(path.anchor)
                case .untrusted(let report): box.seen.outcomes.append(report.primaryFailure.code); box.seen.anchors.append(nil)
                }
            }
            box.seen.copiesHeld = ThreadLocalStores.onThisThread?.copyCount ?? 0
            box.seen.copiesMade = ThreadLocalStores.onThisThread?.copiesMade ?? 0
            done.signal()
        }
        thread.start()
        done.wait()
        return box.seen
    }

    @Test("the first thread uses the store itself; another thread copies it on its 32nd evaluation: same outcomes, equal anchor")
    func secondThreadCopiesOnItsThirtySecondEvaluation() throws {
        let store = TrustStore(anchors: [Self.root])
        let first = Self.onNewThread(Array(repeating: store, count: 40))
        #expect(first.outcomes == Array(repeating: "trusted", count: 40))
        #expect(first.anchors.allSatisfy { $0 === Self.root } && first.copiesMade == 0)
        let second = Self.onNewThread(Array(repeating: store, count: ThreadLocalStores.copyAfter + 1))
        #expect(second.outcomes == Array(repeating: "trusted", count: ThreadLocalStores.copyAfter + 1))
        #expect(second.anchors.prefix(ThreadLocalStores.copyAfter - 1).allSatisfy { $0 === Self.root })
        let copied = second.anchors.suffix(2).compactMap { $0 }
        #expect(copied.count == 2 && copied.allSatisfy { $0 == Self.root && $0 !== Self.root } && copied[0] === copied[1])
        #expect(second.copiesHeld == 1 && second.copiesMade == 1)
    }

    @Test("a copy keeps each entry's trust: a distrusted intermediate stays distrusted on the second thread")
    func copiesKeepDistrust() throws {
        let store = TrustStore([TrustEntry(Self.root, kind: .anchor), TrustEntry(Self.intermediate, kind: .distrusted)])
        let count = ThreadLocalStores.copyAfter + 2
        #expect(Self.onNewThread([store]).outcomes == ["distrusted"])
        let second = Self.onNewThread(Array(repeating: store, count: count))
        #expect(second.outcomes == Array(repeating: "distrusted", count: count))
        #expect(second.copiesMade == 1)
    }

    @Test("a store of more than 16 entries is shared as it is, never copied")
    func largeStoresAreShared() throws {
        let others = try ["ecdsa/root.pem", "rsa/old-root.pem"].map(Self.certificate)
        let entries = [Self.root] + (0..<16).map { others[$0 % 2] }
        #expect(entries.count == ThreadLocalStores.largestCopied + 1)
        let store = TrustStore(anchors: entries)
        _ = Self.onNewThread([store])
        let second = Self.onNewThread(Array(repeating: store, count: ThreadLocalStores.copyAfter + 1))
        #expect(second.outcomes.allSatisfy { $0 == "trusted" } && second.anchors.allSatisfy { $0 === Self.root })
        #expect(second.copiesMade == 0)
    }

    /// Reviewer finding: with a copy made on a thread's first evaluation, a thread per request
    /// copied (parsed and loaded keys of) the whole store on every evaluation.
    @Test("threads that evaluate a few times each make no copy")
    func fewEvaluationsMakeNoCopy() throws {
        let store = TrustStore(anchors: [Self.root])
        _ = Self.onNewThread([store])
        for _ in 0..<20 {
            let seen = Self.onNewThread(Array(repeating: store, count: 3))
            #expect(seen.outcomes == ["trusted", "trusted", "trusted"] && seen.copiesMade == 0)
        }
    }

    /// Reviewer finding: a thread cycling through more stores than it keeps copies of made a new
    /// copy on every evaluation (100 copies for 100 evaluations).
    @Test("a thread cycling through 5 stores keeps at most 4 copies and makes at most one copy per 32 evaluations")
    func roundRobinIsBounded() throws {
        let stores = (0..<5).map { _ in TrustStore(anchors: [Self.root]) }
        _ = Self.onNewThread(stores)  // another thread is first for each
        let rounds = 64
        let seen = Self.onNewThread(Array((0..<rounds).map { _ in stores }.joined()))
        #expect(seen.outcomes.count == rounds * 5 && seen.outcomes.allSatisfy { $0 == "trusted" })
        #expect(seen.anchors.allSatisfy { $0 == Self.root })
        #expect(seen.copiesHeld == ThreadLocalStores.maximumCount)
        #expect(seen.copiesMade >= ThreadLocalStores.maximumCount && seen.copiesMade <= rounds * 5 / ThreadLocalStores.copyAfter)
    }

    /// Reviewer finding: `chain` and the diagnostics compared certificates by identity, so a leaf
    /// that is itself the anchor gave a chain of 2 (leaf, then the copy's anchor) on a thread
    /// reading a copy, and "CN=…" instead of "this certificate".
    @Test("chain and diagnostics compare certificates by DER, not identity")
    func equalNotIdentical() throws {
        let copy = try Certificate(derEncoded: Self.root.der.withUnsafeBufferPointer { Array($0) })
        #expect(copy == Self.root && copy !== Self.root)
        let path = TrustedPath(certificates: [Self.root], anchor: copy, policyOutcome: nil, acceptedFailures: [], attempts: [], profile: .rfc5280)
        #expect(path.chain.count == 1)
        let expired = ValidationFailure.expired(copy, notAfter: Self.root.notAfter, validationTime: Self.time)
        #expect(Diagnostics.describe(expired, listedUnder: Self.root, in: nil).hasPrefix("this certificate expired"))
        #expect(Diagnostics.describe(.noTrustedAnchor(copy), listedUnder: Self.root, in: nil)
            == "the path ends at this root, which is not a trusted anchor")
    }
}
