// Per-thread copies of small trust stores. Every object an evaluation touches has a reference count
// that Swift writes when the evaluation takes or drops a reference; on a store that several threads
// share, the anchor certificate, its DER buffer and the store's tables are written from every core
// on every evaluation (about 60 writes an evaluation, measured), and their cache lines travel
// between cores. So the first thread to evaluate against a small store uses it as it is, and every
// other thread uses its own copy, made on its 32nd evaluation against that store.
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The serial numbers that identify stores, and threads that evaluate against them (from 1;
/// never reused, unlike an object's address).
let trustStoreSerials = Atomic<UInt64>(0)
private let threadNumbers = Atomic<UInt>(0)

/// This thread's record of the small trust stores that another thread evaluated against first
/// (see ``store(forThisThread:)``): for the last ``trackedCount`` of them, how often this thread
/// evaluated against each, and its copy of at most ``maximumCount``, kept in thread-local storage
/// and released when the thread exits.
///
/// A copy is made on a thread's ``copyAfter``-th evaluation against a store, so that it pays for
/// itself: a thread that evaluates once (a thread per request) never copies, and a thread cycling
/// through more stores than it keeps copies of makes at most one copy per ``copyAfter``
/// evaluations (a store whose copy was dropped counts again from zero). A copy is the same
/// entries, each certificate parsed again from its own copy of the DER, in a store built the same
/// way: the same anchors, tables and trust, found in the same order, with nothing shared with the
/// original or with another thread.
final class ThreadLocalStores {
    /// The most stores a thread keeps copies of.
    static let maximumCount = 4
    /// The most stores a thread counts evaluations of.
    static let trackedCount = 16
    /// The evaluation against a store on which a thread makes its copy.
    static let copyAfter = 32
    /// The most entries a store may have to be copied (a pinned root or a private PKI's few roots;
    /// a system bundle is shared as it is).
    static let largestCopied = 16

    /// One store this thread evaluated against.
    private struct Use {
        let serial: UInt64
        /// Evaluations since this thread first used the store or last dropped its copy.
        var evaluations = 0
        var copy: TrustStore?
        /// A copy could not be made (a certificate did not parse again): none is tried again.
        var uncopyable = false
    }

    /// The most recently used first.
    private var uses: [Use] = []
    /// Copies made by this thread so far (for tests).
    private(set) var copiesMade = 0
    /// Names this thread in ``TrustStore/Storage/firstThread``.
    private let threadNumber = threadNumbers.wrappingAdd(1, ordering: .relaxed).newValue

    /// The thread-local storage key, or `nil` if the system has none left (stores are then shared).
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, { releaseThreadLocalStores($0) }) == 0 ? key : nil
    }()

    /// The store this thread evaluates against for `store`: `store` itself if it is large or
    /// empty, if this thread was the first to ask for it (a store used by one thread is never
    /// copied), before this thread's ``copyAfter``-th evaluation against it, or if a copy cannot
    /// be made; else this thread's copy of it.
    static func store(forThisThread store: TrustStore) -> TrustStore {
        let storage = store.storage
        guard storage.isCopiedPerThread, let list = current() else { return store }
        let thread = list.threadNumber
        let first = storage.firstThread.load(ordering: .relaxed)
        if first == thread { return store }
        if first == 0, storage.firstThread.compareExchange(expected: 0, desired: thread, ordering: .relaxed).exchanged {
            return store
        }
        return list.use(store)
    }

    /// This thread's list (for tests).
    static var onThisThread: ThreadLocalStores? { current() }

    /// How many copies this thread holds (for tests).
    var copyCount: Int { uses.count { $0.copy != nil } }

    private static func current() -> ThreadLocalStores? {
        guard let key else { return nil }
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadLocalStores>.fromOpaque(pointer).takeUnretainedValue()
        }
        let list = ThreadLocalStores()
        guard pthread_setspecific(key, Unmanaged.passRetained(list).toOpaque()) == 0 else {
            Unmanaged.passUnretained(list).release()
            return nil
        }
        return list
    }

    /// Counts an evaluation against `store` and answers its copy, made now if this is the
    /// ``copyAfter``-th evaluation.
    private func use(_ store: TrustStore) -> TrustStore {
        let serial = store.storage.serial
        if let first = uses.first, first.serial == serial, let copy = first.copy { return copy }
        var use: Use
        if let index = uses.firstIndex(where: { $0.serial == serial }) {
            use = uses.remove(at: index)
        } else {
            use = Use(serial: serial)
            if uses.count >= Self.trackedCount { uses.removeLast() }
        }
        use.evaluations += 1
        if use.copy == nil, !use.uncopyable, use.evaluations >= Self.copyAfter {
            if let made = Self.make(store) {
                copiesMade += 1
                if copyCount >= Self.maximumCount, let oldest = uses.lastIndex(where: { $0.copy != nil }) {
                    uses[oldest].copy = nil
                    uses[oldest].evaluations = 0
                }
                use.copy = made
            } else {
                use.uncopyable = true
            }
        }
        uses.insert(use, at: 0)
        return use.copy ?? store
    }

    /// A copy of `store` sharing no object with it, or `nil` if a certificate does not parse again.
    private static func make(_ store: TrustStore) -> TrustStore? {
        var entries: [TrustEntry] = []
        entries.reserveCapacity(store.entries.count)
        for entry in store.entries {
            let bytes = entry.certificate.der.withUnsafeBufferPointer { Array($0) }
            guard let certificate = try? Certificate(derEncoded: bytes) else { return nil }
            entries.append(TrustEntry(certificate, kind: entry.kind))
        }
        return TrustStore(entries, copyPerThread: false, isPublicWebPKI: store.isPublicWebPKI)
    }
}

/// The thread-local storage destructor: releases the exiting thread's copies.
private func releaseThreadLocalStores(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<ThreadLocalStores>.fromOpaque(pointer).release()
}
