import Testing
@_spi(Fuzzing) import CertPath

/// TLS server and client policies (issue 4) end to end through ``TrustEvaluation``: extended key usage
/// chaining, reference identifiers against SAN only, the TLS key-usage check and the algorithm
/// profile. Certificates: `TestVectors/pathbuilding/tls/` (see its README), at 2026-06-01.
@Suite("TLS policies")
struct TLSPolicyTests {
    static func cert(_ file: String) throws -> Certificate { try TestCertificates.pb("tls/" + file) }

    static func evaluate(_ leaf: String, ca: String = "ca.pem", _ policy: ValidationPolicy) throws -> TrustResult {
        TrustEvaluation(leaf: try cert(leaf), intermediates: [try cert(ca)], trustStore: TrustStore(anchors: [try cert("root.pem")]),
                        policy: policy, validationTime: TestCertificates.validationTime).evaluate()
    }

    static func server(_ hostname: String, _ change: (inout ValidationPolicy) -> Void = { _ in }) throws -> ValidationPolicy {
        var policy = try ValidationPolicy.server(hostname: hostname)
        change(&policy)
        return policy
    }

    static func client(_ names: [ExpectedName] = [], _ change: (inout ValidationPolicy) -> Void = { _ in }) -> ValidationPolicy {
        var policy = ValidationPolicy.client(expectedNames: names)
        change(&policy)
        return policy
    }

    /// Asserts a trusted result whose path is leaf, CA, root.
    static func expectTrusted(_ result: TrustResult, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard case .trusted(let path) = result else {
            Issue.record("untrusted: \(result.primaryFailure.map(Diagnostics.describe) ?? "")", sourceLocation: sourceLocation)
            return
        }
        #expect(path.chain.count == 3, sourceLocation: sourceLocation)
        #expect(path.anchor == (try cert("root.pem")), sourceLocation: sourceLocation)
    }

    static let serverPresented: [PresentedIdentifier] = [.dnsName("www.tls.test"), ip("192.0.2.1"), ip("2001:db8::1")]

    /// The presented identifier of an IP address literal of these tests.
    static func ip(_ text: String) -> PresentedIdentifier { .ipAddress(IPAddress(text) ?? IPAddress(bytes: [0, 0, 0, 0])!) }

    // MARK: Server: extended key usage

    /// The trusted TLS server cases of `TestVectors/pathbuilding/expectations.txt` (its generate.py):
    /// intermediates without EKU, with serverAuth or anyExtendedKeyUsage; leaves without EKU or with
    /// anyExtendedKeyUsage; an RSA leaf with only keyEncipherment (RSA key transport); P-384, P-521
    /// and Ed25519 leaves under the default algorithm profile.
    static let trustedServerCases = TestCertificates.expectations("pathbuilding").filter {
        $0.id.hasPrefix("tls/") && $0.verdict == "trusted" && $0.policy.hasPrefix("server:") && !$0.policy.contains(";")
    }

    @Test("The expectations file's trusted server cases: trusted, the path leaf, CA, root")
    func trustedServerCasesArePresent() {
        #expect(Self.trustedServerCases.map(\.id).sorted() == [
            "tls/ed25519", "tls/leaf-any-eku", "tls/leaf-without-eku", "tls/p384", "tls/p521", "tls/rsa-key-encipherment",
            "tls/server-by-ip", "tls/server-via-ca", "tls/server-via-ca-eku-any", "tls/server-via-ca-eku-server", "tls/wildcard-one-label",
        ])
    }

    @Test("Trusted server cases of expectations.txt", arguments: trustedServerCases)
    func trustedServerCase(_ expectation: TestCertificates.Expectation) throws {
        func file(_ path: String) -> String { String(path.dropFirst("tls/".count)) }
        try Self.expectTrusted(try Self.evaluate(file(expectation.leaf), ca: file(expectation.intermediates[0]),
                                                 try Self.server(String(expectation.policy.dropFirst("server:".count)))))
    }

    @Test("An intermediate whose EKU lacks serverAuth fails the path")
    func intermediateEKUChaining() throws {
        let result = try Self.evaluate("server.pem", ca: "ca-eku-client.pem", try Self.server("www.tls.test"))
        #expect(result.primaryFailure == .extendedKeyUsageForbids(try Self.cert("ca-eku-client.pem"), required: KnownOID.serverAuth,
                                                                 present: [KnownOID.clientAuth]))
        #expect(result.report?.failures.count == 1)
    }

    @Test("A clientAuth-only leaf is refused as a server although its SAN matches")
    func clientLeafAsServer() throws {
        let client = try Self.cert("client.pem")
        let result = try Self.evaluate("client.pem", try Self.server("client.tls.test"))
        #expect(result.primaryFailure == .extendedKeyUsageForbids(client, required: KnownOID.serverAuth, present: [KnownOID.clientAuth]))
        #expect(result.report?.failures.count == 1)
    }

    // MARK: Server: reference identifiers

    @Test("DNS reference matched against SAN dNSName, case-insensitively, trailing dot ignored",
          arguments: ["www.tls.test", "WWW.TLS.TEST", "www.tls.test.", "Www.Tls.Test."])
    func dnsReferenceMatches(_ hostname: String) throws {
        try Self.expectTrusted(try Self.evaluate("server.pem", try Self.server(hostname)))
    }

    @Test("IP reference matched against SAN iPAddress, in any textual form",
          arguments: ["192.0.2.1", "2001:db8::1", "2001:0db8:0000:0000:0000:0000:0000:0001", "2001:DB8:0:0:0:0:0:1"])
    func ipReferenceMatches(_ address: String) throws {
        try Self.expectTrusted(try Self.evaluate("server.pem", try Self.server(address)))
    }

    @Test("References the certificate does not name: hostnameMismatch with the presented names",
          arguments: [("other.tls.test", "other.tls.test"), ("tls.test", "tls.test"), ("192.0.2.2", "192.0.2.2"),
                      ("2001:db8::2", "2001:db8::2"), ("::ffff:192.0.2.1", "::ffff:192.0.2.1")])
    func referenceMismatch(_ hostname: String, _ canonical: String) throws {
        let server = try Self.cert("server.pem")
        let result = try Self.evaluate("server.pem", try Self.server(hostname))
        #expect(result.primaryFailure == .hostnameMismatch(server, reference: try ReferenceIdentifier(canonical), presented: Self.serverPresented))
        #expect(result.report?.isRecoverable == true)
    }

    @Test("Subject CN without SAN: refused unless allowCommonNameFallback")
    func commonNameFallback() throws {
        let leaf = try Self.cert("cn-only.pem")
        #expect(try Self.evaluate("cn-only.pem", try Self.server("cn.tls.test")).primaryFailure
                == .hostnameMismatch(leaf, reference: try ReferenceIdentifier("cn.tls.test"), presented: [.commonName("cn.tls.test")]))
        try Self.expectTrusted(try Self.evaluate("cn-only.pem", try Self.server("cn.tls.test") { $0.allowCommonNameFallback = true }))
        #expect(try Self.evaluate("cn-only.pem", try Self.server("other.tls.test") { $0.allowCommonNameFallback = true }).primaryFailure
                == .hostnameMismatch(leaf, reference: try ReferenceIdentifier("other.tls.test"), presented: [.commonName("cn.tls.test")]))
    }

    @Test("An IP reference is compared only with iPAddress SANs, never with dNSName text")
    func ipOnlyAgainstIPAddress() throws {
        let textual = try Self.cert("dns-ip-text.pem")
        #expect(try Self.evaluate("dns-ip-text.pem", try Self.server("192.0.2.7")).primaryFailure
                == .hostnameMismatch(textual, reference: try ReferenceIdentifier("192.0.2.7"), presented: [.dnsName("192.0.2.7")]))
        #expect(Diagnostics.describe(.hostnameMismatch(textual, reference: try ReferenceIdentifier("192.0.2.7"), presented: [.dnsName("192.0.2.7")]))
                == "the certificate is not valid for 192.0.2.7; it is valid for DNS:192.0.2.7 "
                + "(an IP address matches only IP entries, never a DNS name holding its text)")
        #expect(try Self.evaluate("dns-ip-text.pem", try Self.server("192.0.2.7") { $0.allowCommonNameFallback = true }).primaryFailure?.code
                == "hostnameMismatch")
        try Self.expectTrusted(try Self.evaluate("ip-only.pem", try Self.server("192.0.2.9")))
        let ipOnly = try Self.cert("ip-only.pem")
        #expect(try Self.evaluate("ip-only.pem", try Self.server("ip-only.tls.test")).primaryFailure
                == .hostnameMismatch(ipOnly, reference: try ReferenceIdentifier("ip-only.tls.test"), presented: [Self.ip("192.0.2.9")]))
    }

    @Test("Wildcard SAN: the whole left-most label, one label deep",
          arguments: [("a.wild.tls.test", true), ("WWW.wild.tls.test.", true), ("wild.tls.test", false), ("a.b.wild.tls.test", false),
                      ("a.wild2.tls.test", false)])
    func wildcard(_ hostname: String, _ matches: Bool) throws {
        let result = try Self.evaluate("wildcard.pem", try Self.server(hostname))
        if matches {
            try Self.expectTrusted(result)
        } else {
            #expect(result.primaryFailure?.code == "hostnameMismatch")
        }
    }

    /// Reviewer finding: a certificate without subjectAltName was said to be "valid for CN=…",
    /// which contradicts the rule that the commonName is never matched.
    @Test("Without a subjectAltName, the report says the commonName is never matched")
    func commonNameOnlyReport() throws {
        let leaf = try Self.cert("wildcard.pem")
        let failure = ValidationFailure.hostnameMismatch(leaf, reference: try ReferenceIdentifier("ca.example"), presented: [.commonName("ca.example")])
        #expect(Diagnostics.describe(failure)
            == "the certificate is not valid for ca.example; it has no subjectAltName, and its commonName (CN=ca.example) is never matched (RFC 6125 6.4.4)")
    }

    /// Reviewer finding: `*.internal` against `db.internal` said only "valid for DNS:*.internal",
    /// which reads as a match. A wildcard needs two labels after it; the report says so.
    @Test("A wildcard over a single label never matches, and the report says why")
    func singleLabelWildcard() throws {
        let leaf = try Self.cert("server.pem")
        let reference = try ReferenceIdentifier("db.internal")
        let failure = ValidationFailure.hostnameMismatch(leaf, reference: reference, presented: [.dnsName("*.internal"), .dnsName("www.tls.test")])
        #expect(Diagnostics.describe(failure) == "the certificate is not valid for db.internal; it is valid for DNS:*.internal, DNS:www.tls.test "
            + "(*.internal matches no name: a wildcard needs at least two labels after it, so that it never covers a whole top-level domain)")
        #expect(!PresentedIdentifierMatching.matches(presentedDNSName: Array("*.internal".utf8)[...], reference: try DNSName("db.internal")))
        // Another label count, or another suffix: nothing more is said.
        for other in ["a.b.internal", "db.corp"] {
            let text = Diagnostics.describe(.hostnameMismatch(leaf, reference: try ReferenceIdentifier(other), presented: [.dnsName("*.internal")]))
            #expect(text == "the certificate is not valid for \(other); it is valid for DNS:*.internal")
        }
    }

    @Test("A wildcard directly under a public suffix is refused, and the report says why")
    func wildcardUnderPublicSuffix() throws {
        let list = PublicSuffixList(text: "// test\nwild.tls.test\n")
        let result = try Self.evaluate("wildcard.pem", try Self.server("a.wild.tls.test") { $0.publicSuffixList = list })
        let failure = try #require(result.primaryFailure)
        #expect(failure == .hostnameMismatch(try Self.cert("wildcard.pem"), reference: try ReferenceIdentifier("a.wild.tls.test"), presented: [.dnsName("*.wild.tls.test")]))
        #expect(Diagnostics.describe(failure) == "the certificate is not valid for a.wild.tls.test; it is valid for DNS:*.wild.tls.test "
            + "(*.wild.tls.test is a wildcard directly under a public suffix, refused as the public suffix list requires)")
        // A mismatch for another reason says nothing of suffixes.
        let other = try #require(try Self.evaluate("wildcard.pem", try Self.server("a.b.wild.tls.test") { $0.publicSuffixList = list }).primaryFailure)
        #expect(Diagnostics.describe(other) == "the certificate is not valid for a.b.wild.tls.test; it is valid for DNS:*.wild.tls.test")
    }

    // MARK: Server: TLS key usage

    @Test("EC leaf with only keyEncipherment fails as a server; checkTLSKeyUsage = false turns the check off")
    func ecKeyEncipherment() throws {
        let leaf = try Self.cert("ec-key-encipherment.pem")
        let result = try Self.evaluate("ec-key-encipherment.pem", try Self.server("ec.tls.test"))
        // An EC key signs (digitalSignature) or agrees keys (keyAgreement, TLS 1.2 static ECDH); it never encrypts.
        #expect(result.primaryFailure == .keyUsageForbids(leaf, required: [.digitalSignature, .keyAgreement], present: .keyEncipherment))
        try Self.expectTrusted(try Self.evaluate("ec-key-encipherment.pem", try Self.server("ec.tls.test") { $0.checkTLSKeyUsage = false }))
    }

    @Test("requiredLeafKeyUsage is applied to a leaf keyUsage")
    func requiredLeafKeyUsage() throws {
        let leaf = try Self.cert("server.pem")
        let result = try Self.evaluate("server.pem", try Self.server("www.tls.test") { $0.requiredLeafKeyUsage = .keyAgreement })
        #expect(result.primaryFailure == .keyUsageForbids(leaf, required: .keyAgreement, present: .digitalSignature))
    }

    // MARK: Server: algorithm profile

    @Test("RSA-1024 leaf: weakKey by default, accepted with a 1024-bit minimum")
    func rsa1024() throws {
        let leaf = try Self.cert("rsa-1024.pem")
        #expect(try Self.evaluate("rsa-1024.pem", try Self.server("rsa1024.tls.test")).primaryFailure
                == .weakKey(leaf, key: .rsaModulusTooSmall(bits: 1024, minimum: 2048)))
        try Self.expectTrusted(try Self.evaluate("rsa-1024.pem", try Self.server("rsa1024.tls.test") {
            $0.algorithms.minimumRSAModulusBits = 1024
        }))
    }

    @Test("RSA-2048 leaf refused with a 3072-bit minimum")
    func rsaMinimumConfigurable() throws {
        let leaf = try Self.cert("rsa-key-encipherment.pem")
        #expect(try Self.evaluate("rsa-key-encipherment.pem", try Self.server("rsa.tls.test") { $0.algorithms.minimumRSAModulusBits = 3072 })
                .primaryFailure == .weakKey(leaf, key: .rsaModulusTooSmall(bits: 2048, minimum: 3072)))
    }

    @Test("SHA-1 signature: disallowedSignatureAlgorithm by default, accepted when SHA-1 is allowed")
    func sha1() throws {
        let leaf = try Self.cert("sha1.pem")
        #expect(leaf.signatureAlgorithm == .ecdsa(.sha1))
        let result = try Self.evaluate("sha1.pem", try Self.server("sha1.tls.test"))
        #expect(result.primaryFailure == .disallowedSignatureAlgorithm(leaf, .ecdsa(.sha1)))
        #expect(result.report?.failures.count == 1)
        try Self.expectTrusted(try Self.evaluate("sha1.pem", try Self.server("sha1.tls.test") { $0.algorithms.allowedHashes.insert(.sha1) }))
    }

    @Test("Curves and EdDSA are configurable")
    func keyProfileConfigurable() throws {
        let p384 = try Self.cert("p384.pem"), ed25519 = try Self.cert("ed25519.pem")
        #expect(try Self.evaluate("p384.pem", try Self.server("p384.tls.test") { $0.algorithms.allowedCurves = [.p256] }).primaryFailure
                == .weakKey(p384, key: .curveNotAllowed(.p384)))
        #expect(try Self.evaluate("ed25519.pem", try Self.server("ed25519.tls.test") { $0.algorithms.allowEdDSA = false }).primaryFailure
                == .weakKey(ed25519, key: .eddsaNotAllowed))
    }

    // MARK: Client policy

    @Test("Client certificate with clientAuth: trusted, with or without expected names")
    func clientTrusted() throws {
        let dns = ExpectedName.dnsName(try DNSName("client.tls.test"))
        let ip = ExpectedName.ipAddress(try #require(IPAddress("198.51.100.5")))
        let email = ExpectedName.email(try RFC822Name("alice@tls.test"))
        for names in [[], [dns], [ip], [email], [dns, ip, email]] {
            try Self.expectTrusted(try Self.evaluate("client.pem", Self.client(names)))
        }
    }

    @Test("Expected names the client certificate does not carry: nameMismatch")
    func clientNameMismatch() throws {
        let client = try Self.cert("client.pem")
        let presented: [PresentedIdentifier] = [.dnsName("client.tls.test"), Self.ip("198.51.100.5"), .email("alice@tls.test")]
        let cases: [ExpectedName] = [
            .dnsName(try DNSName("other.tls.test")), .ipAddress(try #require(IPAddress("198.51.100.6"))), .email(try RFC822Name("bob@tls.test")),
        ]
        for name in cases {
            let result = try Self.evaluate("client.pem", Self.client([.dnsName(try DNSName("client.tls.test")), name]))
            #expect(result.primaryFailure == .nameMismatch(client, expected: name, presented: presented))
            #expect(result.report?.failures.count == 1)
        }
    }

    @Test("Client EKU chaining: an intermediate restricted to serverAuth fails; anyExtendedKeyUsage and clientAuth pass")
    func clientEKUChaining() throws {
        #expect(try Self.evaluate("client.pem", ca: "ca-eku-server.pem", Self.client()).primaryFailure
                == .extendedKeyUsageForbids(try Self.cert("ca-eku-server.pem"), required: KnownOID.clientAuth, present: [KnownOID.serverAuth]))
        try Self.expectTrusted(try Self.evaluate("client.pem", ca: "ca-eku-any.pem", Self.client()))
        try Self.expectTrusted(try Self.evaluate("client.pem", ca: "ca-eku-client.pem", Self.client()))
    }

    @Test("A serverAuth-only leaf is refused as a client; a leaf without EKU is accepted")
    func serverLeafAsClient() throws {
        let server = try Self.cert("server.pem")
        #expect(try Self.evaluate("server.pem", Self.client()).primaryFailure
                == .extendedKeyUsageForbids(server, required: KnownOID.clientAuth, present: [KnownOID.serverAuth]))
        try Self.expectTrusted(try Self.evaluate("no-eku.pem", Self.client()))
    }

    @Test("Client key usage must include digitalSignature (keyEncipherment alone fails, even for RSA)")
    func clientKeyUsage() throws {
        let leaf = try Self.cert("client-rsa-key-encipherment.pem")
        #expect(try Self.evaluate("client-rsa-key-encipherment.pem", Self.client()).primaryFailure
                == .keyUsageForbids(leaf, required: .digitalSignature, present: .keyEncipherment))
        try Self.expectTrusted(try Self.evaluate("client-rsa-key-encipherment.pem", Self.client { $0.checkTLSKeyUsage = false }))
    }

    @Test("The algorithm profile applies to clients too")
    func clientProfile() throws {
        let rsa = try Self.cert("client-rsa-key-encipherment.pem")
        let result = try Self.evaluate("client-rsa-key-encipherment.pem", Self.client {
            $0.checkTLSKeyUsage = false
            $0.algorithms.minimumRSAModulusBits = 3072
        })
        #expect(result.primaryFailure == .weakKey(rsa, key: .rsaModulusTooSmall(bits: 2048, minimum: 3072)))
    }
}
