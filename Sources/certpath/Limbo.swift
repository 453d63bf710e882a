import CertPath
import CertPathJSON
import CertPathLimbo
import Dispatch
import FoundationEssentials

/// `certpath limbo FILE.json [--output RESULTS.json] [--include ID-PREFIX]...`: runs an x509-limbo suite.
enum LimboCommand {
    static let spec = CommandSpec(
        name: "limbo",
        synopsis: "FILE.json [--output RESULTS.json] [--include ID-PREFIX]...",
        summary: """
            Runs the x509-limbo test cases of FILE.json through the same evaluation as 'certpath verify'
            (harness choices and skipped features: Sources/CertPathLimbo) and prints the summary line the
            test suite prints. Cases whose result differs from the expected one are listed on stderr.
            """,
        options: [
            .value("output", "RESULTS.json", "write the results in x509-limbo's harness result format"),
            .value("include", "ID-PREFIX", repeatable: true, "run only cases whose id starts with ID-PREFIX (e.g. rfc5280::pc::)"),
        ],
        positionalName: "FILE.json",
        positionalCount: 1...1,
        epilogue: """
            exit status: 0 every case that ran gave its expected result (skipped cases and the listed
            contradictions, which the suite's own cases make unsatisfiable together, do not count);
            1 some case did not; 2 bad usage, an unreadable suite or output file, or a suite of another
            schema version than 1.
            """)

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let path = arguments.positionals[0]
        // Checked before any work: a path that cannot be written is a usage error.
        let outputFile = try arguments.value("output").map { (output: String) throws(CLIError) in try OutputFile(output) }
        let bytes = try Input.read(path)  // the CLI's reader: its messages, devices and FIFOs, its size limit
        let suite: LimboSuite
        do {
            suite = try JSONDecoder().decode(LimboSuite.self, from: Data(bytes))
        } catch let error as LimboSuiteError {
            throw CLIError("\(Output.echo(path)): \(error)")
        } catch let error as DecodingError {
            throw CLIError("\(Output.echo(path)): not an x509-limbo suite: \(bytes.isEmpty ? "the file is empty" : error.summary)")
        } catch {
            throw CLIError("\(Output.echo(path)): not an x509-limbo suite: \(error)")
        }
        let prefixes = arguments.all("include")
        let selected = suite.testcases.filter { testcase in prefixes.isEmpty || prefixes.contains { testcase.id.hasPrefix($0) } }
        if !prefixes.isEmpty && selected.isEmpty {
            throw CLIError("--include: no case id starts with \(prefixes.map { "'\(Output.echo($0))'" }.joined(separator: " or "))")
        }

        // The same per-case entry point as LimboHarness.run(_:including:), spread over the cores; results
        // keep suite order.
        let harness = LimboHarness()
        var results = [LimboResult?](repeating: nil, count: selected.count)
        let stripes = min(selected.count, BatchCommand.activeProcessorCount() * 4)
        results.withUnsafeMutableBufferPointer { buffer in
            let output = DisjointWrites(buffer: buffer)
            // Each index is written by exactly one stripe.
            DispatchQueue.concurrentPerform(iterations: stripes) { stripe in
                var index = stripe
                while index < selected.count {
                    output.store(harness.run(selected[index]), at: index)
                    index += stripes
                }
            }
        }
        let finished = results.compactMap { $0 }

        if let outputFile {
            let json: Data
            do {
                json = try LimboHarness.resultsJSON(finished)
            } catch {
                throw CLIError("\(Output.echo(outputFile.path)): cannot encode the results: \(error)")
            }
            try outputFile.write(json, what: "the results")
        }
        // A listed contradiction (two cases of the suite that cannot both hold) is reported, not failed.
        for result in finished where LimboHarness.isListedContradiction(result) {
            Output.error(Output.safe("contradiction \(Output.echo(result.id)): expected \(result.expected_result), got "
                + "\(result.actual_result); it contradicts "
                + (LimboHarness.contradictions[result.id].map { "\($0.contradicts) (\($0.reading))" } ?? "")))
        }
        let mismatches = finished.filter {
            !$0.matches && $0.actual_result != "SKIPPED" && !LimboHarness.isListedContradiction($0)
        }
        for result in mismatches {
            Output.error(Output.safe("mismatch \(Output.echo(result.id)): expected \(result.expected_result), got \(result.actual_result): "
                + (result.context ?? "")))
        }
        Output.line(LimboHarness.summary(finished))
        return mismatches.isEmpty ? ExitStatus.success : ExitStatus.untrusted
    }
}
