// mutual-tls-server: the mutual-TLS example server (Examples/MutualTLS/README.md).
//
//   mutual-tls-server --cert CHAIN.pem --key KEY.pem --anchors ROOT.pem [--port N] [--connections N]
//
// Listens on 127.0.0.1, demands a client certificate and verifies it with CertPathTLS; prints
// `listening on 127.0.0.1:PORT`, then one line per connection: `accepted <subject>` or
// `refused <failure> (alert <name>)`.
import CertPath
import CertPathFoundation
import Foundation
import MutualTLSExample

/// Writes one line to standard output at once (unbuffered: a reader waits for it).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let options = ExampleOptions(CommandLine.arguments.dropFirst())
do {
    let anchors = try PEM.readCertificates(contentsOf: URL(fileURLWithPath: options.required("anchors"))).certificates
    let server = try MutualTLSServer(chainFile: options.required("cert"), keyFile: options.required("key"), anchors: anchors,
                                     port: UInt16(options["port"] ?? "0") ?? 0)
    say("listening on 127.0.0.1:\(server.port)")
    server.serve(connections: Int(options["connections"] ?? "0") ?? 0) { outcome in
        if outcome.accepted {
            say("accepted \(outcome.client ?? "?")")
        } else {
            say("refused \(outcome.failure ?? "-") (alert \(outcome.alert ?? "none"))")
        }
    }
} catch {
    FileHandle.standardError.write(Data("mutual-tls-server: \(error)\n".utf8))
    exit(2)
}
