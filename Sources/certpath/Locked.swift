#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value shared between threads behind a pthread mutex, with a condition variable to wait on.
///
/// Not `Synchronization.Mutex`: ThreadSanitizer sees pthread locks (its libc interceptors) but not
/// Mutex's futex calls inside the uninstrumented Swift runtime, and would report every access under
/// a Mutex as a race (scripts/tsan-suppressions.txt); not NSLock: the CLI links no Foundation.
final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Read and written only with `mutex` held.
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }

    /// Runs `body` on the value with the lock held, and wakes every waiter when it returns true.
    func update(_ body: (inout Value) -> Bool) {
        pthread_mutex_lock(mutex)
        if body(&value) { pthread_cond_broadcast(condition) }
        pthread_mutex_unlock(mutex)
    }

    /// Blocks until `body`, run on the value with the lock held (first, then after each wake-up),
    /// returns a result; `body` may change the value on any call. With `signal`, returning a
    /// result wakes every waiter.
    func waitAndUpdate<Result>(signal: Bool, _ body: (inout Value) -> Result?) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let result = body(&value) {
                if signal { pthread_cond_broadcast(condition) }
                return result
            }
            pthread_cond_wait(condition, mutex)
        }
    }
}
