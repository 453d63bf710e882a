import Testing
@testable import CertPath

/// Name constraints on a subject commonName that the legacy commonName fallback reads as a host
/// name (``ValidationPolicy/allowCommonNameFallback``). RFC 5280 4.2.1.10 constrains dNSName
/// entries only, but a validator that accepts a CN as a host name must constrain it as one, or a
/// name-constrained CA issues for any host by leaving out the subjectAltName: OpenSSL checks such
/// CNs against DNS subtrees (`NAME_CONSTRAINTS_check_CN`), and Chromium and Go did while they read
/// CNs. The CN is checked only when the fallback can use it: the option on and no subjectAltName.
/// Certificates: `TestVectors/pathbuilding/cn-constraints/` (see its README), at 2026-06-01.
@Suite("Name constraints on a commonName used as a host name")
struct CommonNameConstraintsTests {
    static func cert(_ file: String) throws -> Certificate { try TestCertificates.pb("cn-constraints/" + file) }

    static func evaluate(_ leaf: String, ca: String = "ca-permitted.pem", hostname: String, fallback: Bool = true) throws -> TrustResult {
        var policy = try ValidationPolicy.server(hostname: hostname)
        policy.allowCommonNameFallback = fallback
        return TrustEvaluation(leaf: try cert(leaf), intermediates: [try cert(ca)], trustStore: TrustStore(anchors: [try cert("root.pem")]),
                               policy: policy, validationTime: TestCertificates.validationTime).evaluate()
    }

    static func dns(_ text: String) -> GeneralName { .dNSName(Array(text.utf8)[...]) }

    @Test("A CN outside the CA's permitted DNS subtrees is a name constraint violation, not a match")
    func outsidePermitted() throws {
        let leaf = try Self.cert("cn-outside.pem")
        let result = try Self.evaluate("cn-outside.pem", hostname: "evil.example.org")
        let violation = NameConstraintViolation(name: Self.dns("evil.example.org"), source: .subjectCommonName,
                                                reason: .notWithinPermittedSubtrees)
        #expect(result.report?.failures == [.nameConstraintViolation(leaf, violation)])
    }

    @Test("A CN inside an excluded DNS subtree is refused; one outside it is trusted")
    func excluded() throws {
        let leaf = try Self.cert("cn-blocked.pem")
        let result = try Self.evaluate("cn-blocked.pem", ca: "ca-excluded.pem", hostname: "www.blocked.cnc.test")
        let violation = NameConstraintViolation(name: Self.dns("www.blocked.cnc.test"), source: .subjectCommonName,
                                                reason: .withinExcludedSubtree(GeneralSubtree(base: Self.dns("blocked.cnc.test"))))
        #expect(result.report?.failures == [.nameConstraintViolation(leaf, violation)])
        #expect(try Self.evaluate("cn-not-blocked.pem", ca: "ca-excluded.pem", hostname: "www.open.cnc.test").isTrusted)
    }

    @Test("A CN inside the permitted subtree is trusted through the fallback")
    func insidePermitted() throws {
        guard case .trusted(let path) = try Self.evaluate("cn-inside.pem", hostname: "www.allowed.cnc.test") else {
            Issue.record("untrusted"); return
        }
        #expect(path.chain.count == 3)
    }

    @Test("Without the fallback the CN is no host name: it is not constrained, and it does not match")
    func fallbackOff() throws {
        let leaf = try Self.cert("cn-outside.pem")
        let result = try Self.evaluate("cn-outside.pem", hostname: "evil.example.org", fallback: false)
        #expect(result.report?.failures == [.hostnameMismatch(leaf, reference: try ReferenceIdentifier("evil.example.org"),
                                                              presented: [.commonName("evil.example.org")])])
    }

    @Test("With a subjectAltName the fallback is not used, so the CN is not constrained")
    func subjectAltNamePresent() throws {
        #expect(try Self.evaluate("cn-outside-san-inside.pem", hostname: "www.allowed.cnc.test").isTrusted)
    }

    @Test("A CN that is not a host name (a person's name) is not checked as one")
    func personName() throws {
        let leaf = try Self.cert("cn-person.pem")
        let result = try Self.evaluate("cn-person.pem", hostname: "www.allowed.cnc.test")
        #expect(result.report?.failures == [.hostnameMismatch(leaf, reference: try ReferenceIdentifier("www.allowed.cnc.test"),
                                                              presented: [.commonName("Jane Doe")])])
    }
}
