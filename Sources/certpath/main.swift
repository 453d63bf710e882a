// certpath: the command line of CertPath (docs/CLI.md is the reference).
//
//   certpath verify LEAF [options]      validate a chain (exit 0 trusted, 1 untrusted, 2 usage/input error)
//   certpath show FILE... [--json]      print certificates
//   certpath batch [options] < lines    validate JSON lines concurrently
//   certpath limbo FILE.json [options]  run an x509-limbo suite
//   certpath connect HOST:PORT [options] handshake with a TLS server and validate the chain it presents
//   certpath exceptions list|remove|prune FILE  manage a trust-exceptions file
// No Foundation on the start-up path (issue 32: Foundation's static initialization doubled the peak
// memory of `certpath verify`); the few commands that need FoundationEssentials import it themselves.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The version `certpath --version` prints (the one place it is defined).
let certpathVersion = "0.1.0"

/// The commands, in help order.
let commands: [(spec: CommandSpec, run: (ParsedArguments) throws(CLIError) -> Int32)] = [
    (VerifyCommand.spec, VerifyCommand.run),
    (ShowCommand.spec, { (arguments: ParsedArguments) throws(CLIError) -> Int32 in ShowCommand.run(arguments) }),
    (BatchCommand.spec, BatchCommand.run),
    (LimboCommand.spec, LimboCommand.run),
    (ConnectCommand.spec, ConnectCommand.run),
    (ExceptionsCommand.spec, ExceptionsCommand.run),
]

let overview = """
    usage: certpath <command> [arguments]

    X.509 certification path validation (RFC 5280), TLS server and client policies, pins and trust
    exceptions, with explained failures.

    commands:
      verify LEAF [options]            decide whether a certificate chain can be trusted
      show FILE... [--json]            print certificates (every extension decoded) and OCSP responses
      batch [options]                  validate JSON lines from stdin on all cores, one result per line
      limbo FILE.json [options]        run an x509-limbo test suite
      connect HOST:PORT [options]      TLS handshake with a server, then validate its chain as verify does
      exceptions ACTION FILE [ID...]   list, remove or prune the entries of a trust-exceptions file

    A file name '-' reads standard input.
    'certpath <command> --help' describes a command's options; docs/CLI.md is the full reference.
    'certpath --version' prints the version.
    exit status: 0 success/trusted, 1 untrusted, 2 bad usage, unreadable/malformed input or unwritable output.
    """

/// Runs the command line and returns the exit status.
@MainActor
func runCommandLine(_ words: [String]) -> Int32 {
    guard let name = words.first else {
        Output.error(overview)
        return ExitStatus.usage
    }
    /// `certpath: unknown command 'frob' (…)`, status 2.
    func unknownCommand(_ word: String) -> Int32 {
        let names = commands.map(\.spec.name).joined(separator: ", ")
        Output.error("certpath: unknown command '\(Output.safe(Output.echo(word)))' (commands: \(names); see 'certpath --help')")
        return ExitStatus.usage
    }
    /// `certpath: unexpected argument 'x' (…)`, status 2.
    func unexpectedArgument(_ word: String) -> Int32 {
        Output.error("certpath: unexpected argument '\(Output.safe(Output.echo(word)))' (see 'certpath --help')")
        return ExitStatus.usage
    }
    if name == "--version" {
        if words.count > 1 { return unexpectedArgument(words[1]) }
        Output.line("certpath \(certpathVersion)")
        return ExitStatus.success
    }
    if ["-h", "--help", "help"].contains(name) {
        // `help`, `help COMMAND`; anything else is the same mistake as `certpath frob`.
        guard words.count > 1 else {
            Output.line(overview)
            return ExitStatus.success
        }
        guard let command = commands.first(where: { $0.spec.name == words[1] }) else { return unknownCommand(words[1]) }
        if words.count > 2 { return unexpectedArgument(words[2]) }
        Output.line(command.spec.help)
        return ExitStatus.success
    }
    guard let command = commands.first(where: { $0.spec.name == name }) else { return unknownCommand(name) }
    do throws(CLIError) {
        guard let arguments = try ParsedArguments.parse(Array(words.dropFirst()), command.spec) else {
            Output.line(command.spec.help)
            return ExitStatus.success
        }
        return try command.run(arguments)
    } catch {
        Output.flush()
        Output.error("certpath \(name): \(Output.safe(error.message))")
        return error.status
    }
}

let status = runCommandLine(FileName.arguments())  // every byte of every argument kept (FileName)
// Output that could not be written is not a result: a script reading `certpath verify > file` on a
// full disk must not see exit status 0 beside an empty or cut file.
Output.flush()
let writeError = Output.writeError.load(ordering: .relaxed)
guard writeError == 0 else {
    Output.error("certpath: cannot write standard output: \(String(cString: strerror(writeError)))")
    exit(ExitStatus.usage)
}
exit(status)
