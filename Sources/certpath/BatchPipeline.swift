#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `batch`'s validation: one thread per core takes lines one at a time from the chunks the reading
/// thread queues, across chunk boundaries, and the reading thread writes each chunk's results, in
/// input order, as soon as all its lines are done.
///
/// No barrier between chunks (a chunk's last lines no longer leave the other cores idle until the
/// next chunk is read and started), no thread per chunk, and at most `depth` chunks held: memory
/// stays bounded by `depth` chunks whatever the input's length (issue 32).
final class BatchPipeline: @unchecked Sendable {
    /// One chunk: its lines, the results stored so far (by index), how many lines are taken and done.
    private struct Chunk {
        let lines: [LineReader.Line]
        let firstLine: Int
        var results: [BatchCommand.LineResult?]
        var taken = 0
        var done = 0
        var isComplete: Bool { done == lines.count }
    }

    /// Everything the threads share, behind ``state``'s lock.
    private struct State {
        /// The chunks held, oldest first; `chunks[i]` is chunk number `firstSerial + i`.
        var chunks: [Chunk] = []
        var firstSerial = 0
        /// No more chunks will come: workers stop once every line is taken.
        var closed = false
    }

    private let state = Locked(State())
    private let settings: BatchCommand.Settings
    private let depth: Int
    private var threads: [pthread_t] = []

    /// Starts `workers` threads (at least one) that validate under `settings`; at most `depth`
    /// chunks are held at once.
    init(settings: BatchCommand.Settings, workers: Int, depth: Int = 3) {
        self.settings = settings
        self.depth = max(2, depth)
        for _ in 0..<max(1, workers) {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            let created = pthread_create(&thread, nil, { context in
                let pipeline = Unmanaged<BatchPipeline>.fromOpaque(context!).takeRetainedValue()
                pipeline.work()
                return nil
            }, context)
            if created == 0 {
                threads.append(thread)
            } else {
                Unmanaged<BatchPipeline>.fromOpaque(context).release()
            }
        }
        fallback = threads.isEmpty
    }

    /// Whether the calling thread validates, in ``submit(_:firstLine:)`` (no worker thread could be started).
    private var fallback = false

    /// Queues `lines` (numbered from `firstLine`) for validation, after waiting while `depth` chunks
    /// are held and the oldest is not done; returns the results of the chunks completed meanwhile,
    /// oldest first, each in input order, for the caller to write.
    func submit(_ lines: [LineReader.Line], firstLine: Int) -> [[BatchCommand.LineResult]] {
        if fallback {
            return [lines.indices.map { BatchCommand.result(of: lines[$0], number: firstLine + $0, settings: settings) }]
        }
        let chunk = Chunk(lines: lines, firstLine: firstLine, results: Array(repeating: nil, count: lines.count))
        return state.waitAndUpdate(signal: true) { state -> [[BatchCommand.LineResult]]? in
            let completed = Self.popCompleted(&state)
            guard state.chunks.count < depth else { return completed.isEmpty ? nil : completed }
            state.chunks.append(chunk)
            return completed
        }
    }

    /// The results of the chunks completed so far, oldest first, without waiting.
    func completed() -> [[BatchCommand.LineResult]] {
        if fallback { return [] }
        return state.withLock { Self.popCompleted(&$0) }
    }

    /// Whether no chunk is held (nothing is being validated or waits to be written).
    var isIdle: Bool { fallback || state.withLock { $0.chunks.isEmpty } }

    /// Waits for every queued line, stops the threads and returns the remaining chunks' results,
    /// oldest first.
    func finish() -> [[BatchCommand.LineResult]] {
        if fallback { return [] }
        state.update { $0.closed = true; return true }  // wakes the workers to stop
        var collected: [[BatchCommand.LineResult]] = []
        _ = state.waitAndUpdate(signal: false) { state -> Bool? in
            collected += Self.popCompleted(&state)
            return state.chunks.isEmpty ? true : nil
        }
        for thread in threads { pthread_join(thread, nil) }
        return collected
    }

    /// Removes the completed chunks at the front and returns their results.
    private static func popCompleted(_ state: inout State) -> [[BatchCommand.LineResult]] {
        var completed: [[BatchCommand.LineResult]] = []
        while let first = state.chunks.first, first.isComplete {
            completed.append(first.results.map { $0! })
            state.chunks.removeFirst()
            state.firstSerial += 1
        }
        return completed
    }

    /// A worker: takes the oldest untaken line, validates it without the lock, stores its result.
    private func work() {
        while true {
            let claim = state.waitAndUpdate(signal: false) { state -> (serial: Int, index: Int, line: LineReader.Line, number: Int)?? in
                for position in state.chunks.indices where state.chunks[position].taken < state.chunks[position].lines.count {
                    let index = state.chunks[position].taken
                    state.chunks[position].taken += 1
                    let chunk = state.chunks[position]
                    return .some((state.firstSerial + position, index, chunk.lines[index], chunk.firstLine + index))
                }
                return state.closed ? .some(nil) : nil
            }
            guard let (serial, index, line, number) = claim else { return }
            let result = BatchCommand.result(of: line, number: number, settings: settings)
            state.update { state in
                let position = serial - state.firstSerial
                state.chunks[position].results[index] = result
                state.chunks[position].done += 1
                return state.chunks[position].isComplete  // wake the writer (and waiting workers) only then
            }
        }
    }
}
