#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// libFuzzer's entry point for programs that keep their own `main` (SwiftPM renames an executable's
// `main`, so defining `LLVMFuzzerTestOneInput` alone does not link; see shared/notes/toolchain.md).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The body run for every input. Set once before the driver starts; libFuzzer calls back on one thread.
nonisolated(unsafe) private var fuzzBody: (([UInt8]) -> Void)?

/// Runs libFuzzer with the process's command line, calling `body` with every input.
///
/// `body` checks the target's invariant and calls ``violation(_:)`` when it does not hold; libFuzzer
/// then saves the input as a crash artifact. Never returns normally (exits with libFuzzer's status).
public func runFuzzer(_ body: @escaping ([UInt8]) -> Void) -> Never {
    fuzzBody = body
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
        fuzzBody!(bytes)
        return 0
    }
    exit(status)
}

/// Reports a broken invariant on standard error and aborts, so libFuzzer records the input.
public func violation(_ message: String) -> Never {
    writeError("\n==== INVARIANT VIOLATED: \(message)\n")
    abort()
}

/// Writes `text` to standard error, unbuffered.
public func writeError(_ text: String) {
    var text = text
    text.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
}

/// Calls ``violation(_:)`` unless `condition` holds.
@inline(__always)
public func invariant(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { violation(message()) }
}

/// Lowercase hex of bytes, for messages.
public func hex<C: Collection<UInt8>>(_ bytes: C) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0xF)])
    }
    return String(decoding: out, as: UTF8.self)
}

/// Monotonic time in nanoseconds.
public func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
