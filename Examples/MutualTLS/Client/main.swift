// mutual-tls-client: the mutual-TLS example client (Examples/MutualTLS/README.md).
//
//   mutual-tls-client --port N --anchors ROOT.pem --server-name NAME [--cert CHAIN.pem --key KEY.pem]
//
// Connects to 127.0.0.1:N, presents the client certificate, verifies the server with CertPathTLS
// for NAME, and prints the server's greeting (exit 0) or why it refused us (exit 1).
import CertPath
import CertPathFoundation
import Foundation
import MutualTLSExample

let options = ExampleOptions(CommandLine.arguments.dropFirst())
do {
    let anchors = try PEM.readCertificates(contentsOf: URL(fileURLWithPath: options.required("anchors"))).certificates
    let client = try MutualTLSClient(chainFile: options["cert"], keyFile: options["key"], anchors: anchors,
                                     serverName: ReferenceIdentifier(options.required("server-name")))
    let outcome = client.connect(port: UInt16(try options.required("port")) ?? 0)
    if let greeting = outcome.greeting {
        print(greeting)
        exit(0)
    }
    print("refused: \(outcome.error ?? "?")")
    exit(1)
} catch {
    FileHandle.standardError.write(Data("mutual-tls-client: \(error)\n".utf8))
    exit(2)
}
