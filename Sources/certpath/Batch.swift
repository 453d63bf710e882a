import CertPath
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `certpath batch`: JSON lines in, one verify result per line out, in input order, on every core.
enum BatchCommand {
    static let spec = CommandSpec(
        name: "batch",
        synopsis: "[--anchors FILE|DIR]... [--system-anchors] [--at TIME] [--first-line N] [--jobs N] [--purpose NAME|OID] [--profile NAME] [--anchor-checks WHAT] [--algorithms NAME] [--strict-eku]",
        summary: """
            Reads one chain per line of standard input as JSON:
              {"chain": "<PEM text or base64 DER>" | ["<base64 DER>", ...], "name": "host, IP or expected name",
               "time": "RFC 3339", "purpose": "server" | "client" | "smime" | "code-signing" | "time-stamping" | OID ...}
            (leaf first; only "chain" is required; a member given as null is an error) and writes one JSON result per input line, in input
            order, validating lines on all cores. "purpose" takes the names of --purpose (with "smime", "name"
            is the mailbox). Without "purpose" (and without --purpose), a line with "name" is a TLS server
            check and a line without it checks the path for any purpose. A line that cannot be read gets
            an error result ("status": "error"); the other lines are unaffected.
            """,
        options: [
            .value("anchors", "FILE", repeatable: true,
                   "trust anchors for every line (a file or a folder, PEM, DER or PKCS #7); with --anchors only these are trusted"),
            .value("at", "TIME", "validation time of lines without \"time\", RFC 3339 or a date; default now (one instant for the whole run)"),
            .value("first-line", "N", "the number of the first input line in results (default 1): a part of a larger corpus keeps the corpus's numbers"),
            .value("jobs", "N", "validating threads, 1 to 1024 (default: the processors this process may run on); the output does not depend on it"),
            .flag("system-anchors", "also trust the system anchors (the default when no --anchors is given)"),
            .value("purpose", "NAME|OID", "the purpose of lines without \"purpose\" (the names of 'certpath verify --purpose')"),
        // A line carries no CRLs: --crl-conformance (how CRLs are read) would be accepted and do nothing.
        ] + PolicyOptions.specs.filter { $0.name != "crl-conformance" },
        positionalName: "argument",
        positionalCount: 0...0,
        epilogue: """
            exit status: 0 every line trusted; 1 some line untrusted or in error; 2 bad usage or unreadable --anchors.
            Each output line follows the "certpath-verify" schema with a "line" member (docs/CLI.md).
            """)

    /// Longest input line accepted (a chain of a few certificates is a few kilobytes).
    static let maximumLineLength = 16 << 20

    /// What every line shares.
    struct Settings: Sendable {
        let anchors: TrustStore
        let useSystemAnchors: Bool
        let options: PolicyOptions
        let now: UnixTime
        /// `--purpose`: the purpose of lines without one.
        var purpose: String? = nil
    }

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        // Standard input is the JSON lines: read as anchors, it would be consumed, and the run
        // would end having validated nothing, with status 0 (a reviewer's finding).
        if arguments.all("anchors").contains("-") {
            throw CLIError("--anchors -: standard input is the JSON lines batch reads; give the anchors in a file")
        }
        var anchors: [Certificate] = []
        for file in arguments.all("anchors") { anchors += try Input.certificates(file, skippingUnreadable: "anchors", command: "batch") }
        anchors = Input.distinct(anchors)
        var settings = Settings(anchors: TrustStore(anchors: anchors), useSystemAnchors: anchors.isEmpty || arguments.has("system-anchors"),
                                options: try PolicyOptions(arguments),
                                now: try arguments.value("at").map { (text: String) throws(CLIError) in try Input.time(text, option: "--at") }
                                    ?? TrustEvaluation.now())
        if let purpose = arguments.value("purpose") {
            _ = try PurposeOption.purpose(purpose, names: [], source: "--purpose", nameSource: "\"name\"")  // checked once, up front
            settings.purpose = purpose
        }
        var cores = BatchCommand.activeProcessorCount()
        if let jobs = try arguments.wholeNumber("jobs", in: 1...1024) { cores = jobs }
        var lineNumber = 0
        if let first = try arguments.wholeNumber("first-line", in: 1...(1 << 60)) { lineNumber = first - 1 }
        // Every option checked: a mistake is the one line on standard error.
        if settings.useSystemAnchors, let warning = VerifyCommand.systemAnchorsWarning() { Output.error("certpath batch: " + warning) }

        // A chunk is at most 64 lines a core and at most 16 MiB of input (and one line), whatever the core count
        // (one line may be up to 16 MiB): memory stays bounded on any machine.
        let chunkLines = 64 * cores
        let chunkBytes = 16 << 20
        var reader = LineReader(descriptor: 0, maximumLength: maximumLineLength)
        var allTrusted = true
        // While the worker threads validate, this thread reads the next chunk and writes the results
        // of finished ones, in input order (BatchPipeline: at most three chunks held). A chunk is sent
        // to the workers full, or as soon as reading would wait for more input, and while input is
        // slow, finished results are written as they come: a caller that writes a line and waits for
        // its result gets it. The first output that cannot be written ends the run (exit status 2).
        let pipeline = BatchPipeline(settings: settings, workers: cores)
        func write(_ chunks: [[LineResult]]) -> Bool {
            guard Output.writeError.load(ordering: .relaxed) == 0 else { return false }
            guard !chunks.isEmpty else { return true }
            for results in chunks {
                for result in results {
                    Output.line(result.json)
                    allTrusted = allTrusted && result.trusted
                }
            }
            Output.flush()
            return Output.writeError.load(ordering: .relaxed) == 0
        }
        reading: while true {
            var chunk: [LineReader.Line] = []
            var bytes = 0
            while chunk.count < chunkLines, bytes < chunkBytes {
                if reader.wouldBlock() {
                    if !chunk.isEmpty { break }  // validate what came
                    // Nothing to send: write what finishes until input comes (or wait for it when
                    // nothing is being validated).
                    repeat {
                        guard write(pipeline.completed()) else { break reading }
                        reader.waitForInput(milliseconds: pipeline.isIdle ? -1 : 10)
                    } while reader.wouldBlock()
                }
                guard let line = reader.next() else { break }
                chunk.append(line)
                bytes += line.bytes.count
            }
            guard !chunk.isEmpty else { break }
            guard write(pipeline.submit(chunk, firstLine: lineNumber + 1)) else { break }
            lineNumber += chunk.count
        }
        _ = write(pipeline.finish())
        if let error = reader.error { throw CLIError("standard input: cannot read: \(error)") }
        return allTrusted ? ExitStatus.success : ExitStatus.untrusted
    }

    /// The processors this process may run on: the CPUs of its affinity mask (what `taskset` and
    /// container runtimes set; Linux gives it as `Cpus_allowed` in /proc/self/status, since
    /// `sched_getaffinity` needs `_GNU_SOURCE`, which Swift's Glibc module lacks), or the online
    /// processors when the mask cannot be read. (FoundationEssentials' `activeProcessorCount`
    /// counted the machine's processors under `taskset -c 0`: a reviewer's finding.)
    static func activeProcessorCount() -> Int {
        if let status = try? Input.read("/proc/self/status"),
           let line = String(decoding: status, as: UTF8.self).split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) {
            // Hexadecimal words separated by commas: one bit per CPU.
            let count = line.dropFirst("Cpus_allowed:".count).reduce(0) { count, character in
                count + (character.hexDigitValue?.nonzeroBitCount ?? 0)
            }
            if count > 0 { return count }
        }
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// One output line and whether it says trusted.
    struct LineResult: Sendable {
        let json: String
        let trusted: Bool
    }

    /// The result line for one input line.
    static func result(of line: LineReader.Line, number: Int, settings: Settings) -> LineResult {
        do throws(CLIError) {
            let evaluation = try evaluation(for: line, settings: settings)
            let result = evaluation.evaluate()
            var members = ResultView.json(result, evaluation, explain: false)
            members.insert(("line", .int(number)), at: 2)
            return LineResult(json: JSON.object(members).compact, trusted: result.isTrusted)
        } catch {
            let members: [(String, JSON)] = [
                ("format", .string("certpath-verify")), ("version", .int(ResultView.schemaVersion)), ("line", .int(number)),
                ("status", .string("error")), ("trusted", .bool(false)), ("error", .string(error.message)),
            ]
            return LineResult(json: JSON.object(members).compact, trusted: false)
        }
    }

    /// The evaluation one line describes.
    ///
    /// - Throws: ``CLIError`` naming what is wrong with the line: too long, not JSON, not an object,
    ///   a missing or malformed chain, a bad name, time or purpose.
    static func evaluation(for line: LineReader.Line, settings: Settings) throws(CLIError) -> TrustEvaluation {
        guard !line.tooLong else { throw CLIError("line longer than \(maximumLineLength >> 20) MiB") }
        // Blank: whitespace only, after a byte order mark (ignored, as BatchLine does).
        let text = line.bytes.starts(with: BatchLine.byteOrderMark) ? line.bytes.dropFirst(BatchLine.byteOrderMark.count) : line.bytes[...]
        guard text.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { throw CLIError("empty line") }
        // RFC 8259 8.1: JSON exchanged between systems is UTF-8. UTF-16 or UTF-32 text (whose ASCII
        // characters come with NUL bytes) is refused first, as is any invalid UTF-8.
        // One pass: a NUL byte refuses the line, any byte above 0x7F asks for the full UTF-8 check.
        // Eight bytes at a time (a zero byte found by the usual bit trick, exact for "is there one";
        // the high bits ORed), then the tail: the byte loop cost 11 k instructions a line (issue 32).
        let (hasNUL, isASCII) = line.bytes.withUnsafeBufferPointer { bytes in
            var hasNUL = false, high: UInt64 = 0
            var index = 0
            if let base = UnsafeRawPointer(bytes.baseAddress) {
                let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
                var zeroBits: UInt64 = 0
                while index + 8 <= bytes.count {
                    let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    zeroBits |= (word &- ones) & ~word & highs
                    high |= word
                    index += 8
                }
                hasNUL = zeroBits != 0
            }
            while index < bytes.count {
                hasNUL = hasNUL || bytes[index] == 0
                high |= UInt64(bytes[index])
                index += 1
            }
            return (hasNUL, high & 0x8080_8080_8080_8080 == 0)
        }
        if _slowPath(hasNUL) {
            // UTF-16 or UTF-32 text has a NUL byte beside every ASCII character; a few NUL bytes in
            // UTF-8 text are U+0000 written unescaped, which JSON allows nowhere (RFC 8259 7: a
            // control character in a string is escaped, and outside strings it is not whitespace).
            let nulBytes = line.bytes.reduce(0) { $0 + ($1 == 0 ? 1 : 0) }
            if nulBytes * 4 >= line.bytes.count { throw CLIError("not UTF-8 text (RFC 8259 8.1; UTF-16 or UTF-32?)") }
            let offset = line.bytes.firstIndex(of: 0) ?? 0
            throw CLIError("not valid JSON at byte \(offset): a NUL byte (U+0000 is written \\u0000 in a string, RFC 8259 7)")
        }
        guard isASCII || String(validating: line.bytes, as: UTF8.self) != nil else {
            throw CLIError("not UTF-8 text at byte \(Input.firstOffendingByte(line.bytes, nulIncluded: false)) (RFC 8259 8.1)")
        }
        let object: BatchLine
        do throws(BatchLine.Failure) {
            object = try BatchLine(line.bytes)
        } catch {
            switch error {
            case .notAnObject:
                throw CLIError("expected a JSON object with a \"chain\" member")
            case .syntax(let offset):
                // Where reading stopped, counted in bytes from 0 as the DER offsets of other messages.
                throw CLIError(offset >= line.bytes.count ? "not valid JSON: the line ends at byte \(offset), inside a value"
                                                          : "not valid JSON at byte \(offset)")
            }
        }
        // RFC 8259 4: names "SHOULD be unique"; a parser may keep the first or the last of repeated
        // members, and another reader of the same line might not keep the same: a repeated member is an error.
        if let repeated = object.repeatedName {
            throw CLIError("duplicate member \"\(repeated)\"")
        }
        func known(_ name: String) -> Bool {
            switch name {
            case "chain", "name", "time", "purpose": return true
            default: return false
            }
        }
        // The first unknown name in sorted order; the sort only for a line that has one.
        if !object.members.allSatisfy({ known($0.name) }),
           let unknown = object.members.map(\.name).sorted().first(where: { !known($0) }) {
            throw CLIError("unknown member \"\(Output.echo(unknown))\" (expected chain, name, time, purpose)")
        }
        let chain = try certificates(object["chain"])

        /// A string member; `nil` when absent. `null` is an error like any other non-string: a
        /// script whose lookup produced `null` must not get an evaluation without, say, a name check.
        func string(_ key: String, _ expected: String) throws(CLIError) -> String? {
            switch object[key] {
            case nil: return nil
            case .null?: throw CLIError("\"\(key)\" is null: give \(expected), or leave the member out")
            case .string(let bytes)?: return String(decoding: bytes, as: UTF8.self)
            default: throw CLIError("\"\(key)\" must be \(expected)")
            }
        }
        let name = try string("name", "a string")
        let purposeText = try string("purpose", "a purpose name such as \"server\" or \"smime\", or an OID") ?? settings.purpose
        let timeText = try string("time", "an RFC 3339 string")
        var policy = ValidationPolicy()
        settings.options.apply(to: &policy)
        switch (purposeText, name) {
        case (let text?, let name) where text != "server" && text != "client":
            policy.purpose = try PurposeOption.purpose(text, names: name.map { [$0] } ?? [], source: "\"purpose\"", nameSource: "\"name\"")
        case ("client", let name):
            policy.purpose = .clientAuthentication(expectedNames: try name.map { (text: String) throws(CLIError) in
                try VerifyCommand.expectedName(text, option: "\"name\"")
            }.map { [$0] } ?? [])
        case ("server", let name?), (nil, let name?):
            do throws(ReferenceIdentifierError) {
                policy.purpose = .serverAuthentication(try ReferenceIdentifier(name))
            } catch {
                throw CLIError("\"name\" '\(Output.echo(name))': not a valid host name or IP address: \(error)")
            }
        case ("server", nil):
            policy.purpose = .serverAuthentication(nil)
        case (nil, nil):
            policy.purpose = .any
        case (let other?, _):
            throw CLIError("\"purpose\" '\(Output.echo(other))': expected \"server\" or \"client\"")
        }

        let time = try timeText.map { (text: String) throws(CLIError) in try Input.time(text, option: "\"time\"") } ?? settings.now
        return TrustEvaluation(leaf: chain[0], intermediates: Array(chain.dropFirst()), trustStore: settings.anchors,
                               anchorsOnly: !settings.useSystemAnchors, policy: policy, validationTime: time)
    }

    /// The certificates of a line's `chain`: PEM text, one base64 DER certificate, or an array of them.
    static func certificates(_ value: BatchLine.Value?) throws(CLIError) -> [Certificate] {
        func der(_ text: [UInt8], _ what: String) throws(CLIError) -> [Certificate] {
            // Whitespace (RFC 4648 3.3: tolerated line breaks) dropped from the UTF-8 bytes.
            var compact: [UInt8] = []
            compact.reserveCapacity(text.count)
            for byte in text where !(byte == 0x20 || (0x09...0x0D).contains(byte)) { compact.append(byte) }
            guard !compact.isEmpty else { throw CLIError("\(what) is empty") }
            guard let bytes = Base64.decode(bytes: compact) else {
                throw CLIError("\(what) is \(what.hasSuffix("]") ? "not valid base64" : "neither PEM text nor valid base64")")
            }
            guard bytes.first == 0x30 else { throw CLIError("\(what) is base64 but not of a DER certificate") }
            // One DER certificate, or a DER certs-only PKCS #7 bundle (all its certificates).
            return try Input.certificates(in: bytes, source: what).certificates
        }
        switch value {
        case nil:
            throw CLIError("missing \"chain\"")
        case .string(let text)?:
            if containsPEMBoundary(text) {
                if let certificates = memoizedPEMCertificates(text) { return certificates }
                let file = try Input.certificates(in: text, source: "\"chain\"")
                guard !file.certificates.isEmpty else { throw CLIError("\"chain\" has no CERTIFICATE block") }
                return file.certificates
            }
            return try der(text, "\"chain\"")
        case .array(let list)?:
            guard !list.isEmpty else { throw CLIError("\"chain\" is an empty array") }
            var certificates: [Certificate] = []
            for (index, item) in list.enumerated() {
                guard let text = item else { throw CLIError("\"chain\"[\(index)] must be a base64 string") }
                certificates += (try der(text, "\"chain\"[\(index)]"))
            }
            return certificates
        default:
            throw CLIError("\"chain\" must be PEM text, a base64 DER string or an array of base64 DER strings")
        }
    }

    /// The certificates of `text` when it is only CERTIFICATE blocks (RFC 7468 5.1) and whitespace, each
    /// block after the first (the intermediates a corpus repeats on every line) looked up by its text
    /// among the blocks already read in this run; `nil` for anything else (other labels, text between
    /// blocks, a block that does not read as one certificate), which ``Input/certificates(in:source:)``
    /// then reads, and reports, as always. Saves decoding and parsing an intermediate on every line:
    /// 11 µs of the 74 µs a chain cost (Benchmarks/README.md, issue 32).
    static func memoizedPEMCertificates(_ text: [UInt8]) -> [Certificate]? {
        guard let blocks = certificateBlocks(text) else { return nil }
        var certificates: [Certificate] = []
        certificates.reserveCapacity(blocks.count)
        for (index, block) in blocks.enumerated() {
            let key = index == 0 ? nil : BlockKey(text: Array(text[block]))
            if let key, let certificate = blockMemo.withLock({ $0[key] }) {
                certificates.append(certificate)
                continue
            }
            guard let file = try? PEM.readCertificates(Array(text[block])), file.certificates.count == 1, file.skipped.isEmpty else {
                return nil
            }
            certificates.append(file.certificates[0])
            if let key {
                blockMemo.withLock { $0.insert(file.certificates[0], for: key, cost: key.text.count + file.certificates[0].der.count) }
            }
        }
        return certificates
    }

    /// A PEM block's text as a dictionary key, hashed as one block of bytes.
    struct BlockKey: Hashable, Sendable {
        let text: [UInt8]
        func hash(into hasher: inout Hasher) { text.withUnsafeBytes { hasher.combine(bytes: $0) } }
        static func == (a: BlockKey, b: BlockKey) -> Bool { Bytes.equal(a.text, b.text) }
    }

    /// Certificates of PEM blocks read in this run, by the block's text (at most 1,024, and the
    /// bounds of ``BoundedMemo`` on their text and DER).
    static let blockMemo = Locked(BoundedMemo<BlockKey, Certificate>(maximumEntries: 1024))

    /// The ranges of `text`'s `-----BEGIN CERTIFICATE-----` … `-----END CERTIFICATE-----` blocks when
    /// nothing but whitespace lies outside them; `nil` otherwise.
    static func certificateBlocks(_ text: [UInt8]) -> [Range<Int>]? {
        let begin = Array("-----BEGIN CERTIFICATE-----".utf8), end = Array("-----END CERTIFICATE-----".utf8)
        return text.withUnsafeBufferPointer { bytes -> [Range<Int>]? in
            func matches(_ marker: [UInt8], at index: Int) -> Bool {
                bytes.count - index >= marker.count && marker.indices.allSatisfy { bytes[index + $0] == marker[$0] }
            }
            var blocks: [Range<Int>] = []
            var index = 0
            while true {
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                    index += 1
                }
                if index == bytes.count { return blocks.isEmpty ? nil : blocks }
                guard matches(begin, at: index) else { return nil }
                // The next '-' (base64 has none) must start the END line: a header such as DEK-Info, or
                // anything else, leaves the text to the full reader.
                var close = index + begin.count
                if close < bytes.count, let base = UnsafeRawPointer(bytes.baseAddress),
                   let dash = memchr(base + close, Int32(UInt8(ascii: "-")), bytes.count - close) {
                    close = base.distance(to: UnsafeRawPointer(dash))
                } else {
                    close = bytes.count
                }
                guard matches(end, at: close) else { return nil }
                // RFC 7468 3: a line end follows each boundary line; a block glued to the END line is
                // left to the full reader (and its error), as `verify` reads the same text.
                let after = close + end.count
                guard after == bytes.count || bytes[after] == 0x0A || bytes[after] == 0x0D else { return nil }
                blocks.append(index..<close + end.count)
                index = close + end.count
            }
        }
    }

    /// Whether `text` contains `-----BEGIN` (RFC 7468 2: PEM rather than bare base64).
    static func containsPEMBoundary(_ text: [UInt8]) -> Bool {
        let boundary = Array("-----BEGIN".utf8)
        guard text.count >= boundary.count else { return false }
        var index = 0
        while index <= text.count - boundary.count {
            if text[index] == 0x2D, text[index..<index + boundary.count].elementsEqual(boundary) { return true }
            index += 1
        }
        return false
    }
}

/// Reads lines from a file descriptor with a length cap: a longer line is returned marked `tooLong`, its
/// bytes dropped, so one huge line cannot exhaust memory.
struct LineReader {
    struct Line: Sendable {
        let bytes: [UInt8]
        let tooLong: Bool
    }

    private let descriptor: Int32
    private let maximumLength: Int
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var atEnd = false
    /// The LF ``wouldBlock()`` found in `buffer[start..<end]`, for ``next()`` (nil: not searched).
    private var newlineAhead: Int?
    /// The read error, if reading stopped because of one.
    private(set) var error: String?

    init(descriptor: Int32, maximumLength: Int) {
        self.descriptor = descriptor
        self.maximumLength = maximumLength
    }

    /// Whether ``next()`` would wait for input: no whole line is buffered and the descriptor has
    /// nothing to read now. False at the end of input (and for a regular file, always readable).
    mutating func wouldBlock() -> Bool {
        if atEnd { return false }
        if newlineAhead != nil { return false }
        newlineAhead = findNewline()  // kept for ``next()``, which would search the same bytes
        if newlineAhead != nil { return false }
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    /// Waits until the descriptor has input to read (or its end), at most `milliseconds` (-1: no limit).
    func waitForInput(milliseconds: Int32) {
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, milliseconds) < 0 && errno == EINTR {}
    }

    /// The index of the first LF in `buffer[start..<end]`, if any (memchr: the byte-by-byte search
    /// cost as much as reading the line's JSON, issue 32).
    private func findNewline() -> Int? {
        guard start < end else { return nil }
        return buffer.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, let found = memchr(base + start, 0x0A, end - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    /// The next line without its LF (and without a CR before it), or `nil` at the end of input.
    mutating func next() -> Line? {
        var line: [UInt8] = []
        var tooLong = false
        var sawAny = false
        while true {
            if start == end {
                if atEnd { break }
                var count = 0
                repeat {
                    count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                } while count < 0 && errno == EINTR
                if count <= 0 {
                    atEnd = true
                    if count < 0 { error = String(cString: strerror(errno)) }
                    break
                }
                start = 0
                end = count
            }
            sawAny = true
            let newline = newlineAhead ?? findNewline()
            newlineAhead = nil
            let stop = newline ?? end
            if !tooLong {
                if line.count + (stop - start) > maximumLength {
                    tooLong = true
                    line = []
                } else {
                    line.append(contentsOf: buffer[start..<stop])
                }
            }
            if let newline {
                start = newline + 1
                if line.last == 0x0D { line.removeLast() }
                return Line(bytes: line, tooLong: tooLong)
            }
            start = end
        }
        guard sawAny else { return nil }
        if line.last == 0x0D { line.removeLast() }
        return Line(bytes: line, tooLong: tooLong)
    }
}

/// Byte-array helpers for `batch`'s memo keys.
enum Bytes {
    /// Whether `a` and `b` hold the same bytes, compared with `memcmp` (`[UInt8]`'s `==` compares
    /// element by element: 1–2 KB of a certificate's DER or PEM text on every memo hit).
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                guard let left = x.baseAddress, let right = y.baseAddress else { return true }
                return memcmp(left, right, x.count) == 0
            }
        }
    }
}
