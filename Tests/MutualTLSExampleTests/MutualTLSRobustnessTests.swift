import CertPath
import CertPathFoundation
import Foundation
import MutualTLSExample
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Reviewer findings on the mutual-TLS example server: a client that goes away must not end the
/// server (SIGPIPE, exit 141), and a client trickling bytes must not hold a worker past a total
/// handshake deadline (the socket timeouts were per read).
@Suite(.serialized) struct MutualTLSRobustnessTests {
    static let rsa = MutualTLSLoadTests.rsa

    static func server(handshakeTimeout: Duration) throws -> MutualTLSServer {
        let anchors = try PEM.readCertificates(contentsOf: Self.rsa.appendingPathComponent("root.pem")).certificates
        return try MutualTLSServer(chainFile: Self.rsa.appendingPathComponent("server-chain.pem").path,
                                   keyFile: Self.rsa.appendingPathComponent("keys/server.key").path, anchors: anchors,
                                   handshakeTimeout: handshakeTimeout)
    }

    /// A server ignores SIGPIPE: writing to a client that closed is EPIPE for that connection.
    @Test func aServerIgnoresSIGPIPE() throws {
        signal(SIGPIPE, SIG_DFL)
        _ = try Self.server(handshakeTimeout: .seconds(10))
        var current = sigaction()
        #expect(sigaction(SIGPIPE, nil, &current) == 0)
        #expect(unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self))
    }

    /// A client that sends one byte every 200 ms never finishes a handshake: the server gives up
    /// after its total deadline (1 s here), though no single read waited longer than 200 ms.
    @Test func aTricklingClientIsCutOffAtTheHandshakeDeadline() throws {
        let server = try Self.server(handshakeTimeout: .seconds(1))
        server.start(workers: 1)
        defer { server.stop() }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = server.port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        // A TLS record header announcing a long handshake record, then its body a byte at a time.
        let header: [UInt8] = [0x16, 0x03, 0x01, 0x10, 0x00, 0x01, 0x00, 0x0f, 0xfc, 0x03, 0x03]
        let start = ContinuousClock.now
        var outcomes: [MutualTLSConnectionOutcome] = []
        for byte in header + Array(repeating: 0, count: 40) {
            var one = byte
            _ = send(fd, &one, 1, Int32(MSG_NOSIGNAL))
            usleep(200_000)
            outcomes = server.takeOutcomes()
            if !outcomes.isEmpty { break }
        }
        let elapsed = start.duration(to: .now)
        #expect(outcomes.map(\.alert) == ["handshake timed out"])
        #expect(outcomes.first?.accepted == false)
        #expect(elapsed < .seconds(3), "\(elapsed)")
    }
}
