// Timing, allocation counting and statistics for the benchmark.
import CBenchSupport
import Foundation

/// Keeps a value alive and opaque to the optimizer, so a benchmarked result is really computed.
@inline(never) @_optimize(none)
func consume<T>(_ value: T) {}

/// Monotonic clock in nanoseconds.
@inline(__always)
func nanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Heap allocations made by this thread so far (counted by CBenchSupport's malloc).
@inline(__always)
func allocationCount() -> UInt64 { cmc_thread_allocations() }

/// Summary of a sample of per-operation times.
struct Statistics: Codable {
    let median: Double
    let p25: Double
    let p75: Double
    let min: Double
    let max: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        func quantile(_ q: Double) -> Double {
            guard sorted.count > 1 else { return sorted.first ?? .nan }
            let position = q * Double(sorted.count - 1)
            let low = Int(position.rounded(.down)), high = Swift.min(low + 1, sorted.count - 1)
            let fraction = position - Double(low)
            return sorted[low] * (1 - fraction) + sorted[high] * fraction
        }
        median = quantile(0.5)
        p25 = quantile(0.25)
        p75 = quantile(0.75)
        min = sorted.first ?? .nan
        max = sorted.last ?? .nan
    }

    /// Half the interquartile range, as a percentage of the median.
    var spreadPercent: Double { median > 0 ? (p75 - p25) / 2 / median * 100 : 0 }
}

/// Settings of a benchmark run.
struct Settings {
    /// Timed runs per scenario (the median and spread are over these).
    var runs = 15
    /// Target duration of one run in seconds (the iteration count is calibrated to it).
    var runSeconds = 0.04
    /// A fixed iteration count per run instead of calibration (for profiling under valgrind).
    var fixedIterations: Int? = nil
}

/// One timed body: iterations are calibrated once, then `runs` runs are timed.
struct Timed {
    let iterations: Int
    let microseconds: [Double]
    let allocationsPerOperation: Double
}

enum Harness {
    /// How many iterations of `body` fill about `seconds`.
    static func calibrate(seconds: Double, fixed: Int? = nil, _ body: () -> Void) -> Int {
        body()  // warm up caches, lazy globals, branch predictors
        if let fixed { return fixed }
        var iterations = 1
        while true {
            let start = nanoseconds()
            for _ in 0..<iterations { body() }
            let elapsed = Double(nanoseconds() - start) / 1e9
            if elapsed >= seconds / 4 || iterations >= 1 << 30 {
                let perOperation = Swift.max(elapsed / Double(iterations), 1e-9)
                return Swift.max(1, Int(seconds / perOperation))
            }
            iterations *= elapsed < seconds / 100 ? 10 : 2
        }
    }

    /// Times `iterations` runs of `body`; returns µs per operation and allocations made.
    @inline(__always)
    static func run(_ iterations: Int, _ body: () -> Void) -> (microseconds: Double, allocations: UInt64) {
        let allocationsBefore = allocationCount()
        let start = nanoseconds()
        for _ in 0..<iterations { body() }
        let elapsed = nanoseconds() - start
        let allocations = allocationCount() - allocationsBefore
        return (Double(elapsed) / 1e3 / Double(iterations), allocations)
    }

    /// Measures `body` alone.
    static func measure(_ settings: Settings, _ body: () -> Void) -> Timed {
        let iterations = calibrate(seconds: settings.runSeconds, fixed: settings.fixedIterations, body)
        var samples: [Double] = []
        var allocations: UInt64 = 0
        for _ in 0..<settings.runs {
            let (us, count) = run(iterations, body)
            samples.append(us)
            allocations += count
        }
        return Timed(iterations: iterations, microseconds: samples,
                     allocationsPerOperation: Double(allocations) / Double(iterations * settings.runs))
    }

    /// Measures `body` and `floor` in alternating runs, so that both see the same machine load.
    static func measurePaired(_ settings: Settings, _ body: () -> Void, floor: () -> Void) -> (body: Timed, floor: Timed) {
        let bodyIterations = calibrate(seconds: settings.runSeconds, fixed: settings.fixedIterations, body)
        let floorIterations = calibrate(seconds: settings.runSeconds, fixed: settings.fixedIterations, floor)
        var bodySamples: [Double] = [], floorSamples: [Double] = []
        var bodyAllocations: UInt64 = 0, floorAllocations: UInt64 = 0
        for _ in 0..<settings.runs {
            let f = run(floorIterations, floor)
            floorSamples.append(f.microseconds)
            floorAllocations += f.allocations
            let b = run(bodyIterations, body)
            bodySamples.append(b.microseconds)
            bodyAllocations += b.allocations
        }
        return (Timed(iterations: bodyIterations, microseconds: bodySamples,
                      allocationsPerOperation: Double(bodyAllocations) / Double(bodyIterations * settings.runs)),
                Timed(iterations: floorIterations, microseconds: floorSamples,
                      allocationsPerOperation: Double(floorAllocations) / Double(floorIterations * settings.runs)))
    }

    /// Wall time in seconds, from the common start until the last thread finished, of `threads`
    /// threads each running its own body `iterations` times: thread i (0, 1, …), pinned to CPU i,
    /// runs `makeBody(i)`, made on that thread before the clock starts, so that the timed loop
    /// touches only what the body captured (nothing of the harness is shared between threads).
    static func wallTime(threads: Int, iterations: Int, _ makeBody: @escaping @Sendable (Int) -> () -> Void) -> Double {
        let ready = DispatchSemaphore(value: 0), start = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        for index in 0..<threads {
            let thread = Thread {
                // Thread i on CPU i (when the machine has that many), as a server pins its workers.
                if index < cbs_cpu_count() { _ = cbs_pin_to_cpu(Int32(index)) }
                let body = makeBody(index)
                ready.signal()
                start.wait()
                for _ in 0..<iterations { body() }
                done.signal()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        for _ in 0..<threads { ready.wait() }
        let begin = nanoseconds()
        for _ in 0..<threads { start.signal() }
        for _ in 0..<threads { done.wait() }
        return Double(nanoseconds() - begin) / 1e9
    }
}
