import Foundation
import Synchronization
import Testing

@testable import CertPath

/// ValidationPolicy and AlgorithmProfile are values: a copy changed never changes the original,
/// whatever they keep inside (AlgorithmProfile keeps its curve and hash sets as bit masks).
@Suite("Policy values")
struct ValidationPolicyValueTests {
    static func tls(_ file: String) throws -> Certificate { try TestCertificates.pb("tls/" + file) }

    static func evaluate(_ leaf: String, _ policy: ValidationPolicy) throws -> TrustResult {
        TrustEvaluation(leaf: try tls(leaf), intermediates: [try tls("ca.pem")], trustStore: TrustStore(anchors: [try tls("root.pem")]),
                        policy: policy, validationTime: TestCertificates.validationTime).evaluate()
    }

    @Test("an algorithm profile's curve and hash sets read back what was written")
    func algorithmProfileSets() {
        var profile = AlgorithmProfile()
        #expect(profile.allowedCurves == [.p256, .p384, .p521, .brainpoolP256r1, .brainpoolP384r1, .brainpoolP512r1])
        #expect(profile.allowedHashes == [.sha256, .sha384, .sha512])
        profile.allowedHashes.insert(.sha1)
        profile.allowedCurves.subtract([.p521, .brainpoolP256r1, .brainpoolP384r1, .brainpoolP512r1])
        #expect(profile.allowedHashes == [.sha1, .sha256, .sha384, .sha512])
        #expect(profile.allowedCurves == [.p256, .p384])
        #expect(profile != AlgorithmProfile())
        profile.allowedHashes = Set(HashAlgorithm.allCases)
        #expect(profile.allowedHashes == Set(HashAlgorithm.allCases))
        profile.allowedCurves = []
        #expect(profile.allowedCurves.isEmpty)
        #expect(AlgorithmProfile(allowedCurves: [.p384]) == AlgorithmProfile(allowedCurves: [.p384]))
        #expect(AlgorithmProfile.permissive.allowedHashes == [.sha1, .sha224, .sha256, .sha384, .sha512])
    }

    // The following came from a fresh reviewer's probes of the policy when it was copy-on-write.

    @Test("every property of a copy changes alone; the original and a third copy keep theirs")
    func everyProperty() throws {
        let original = try ValidationPolicy.server(hostname: "www.tls.test")
        let third = original
        var copy = original
        copy.purpose = .any
        copy.profile = .rfc5280
        copy.algorithms.allowedHashes.insert(.sha1)
        copy.algorithms.allowedCurves = [.p256, .p384]
        copy.algorithms.minimumRSAModulusBits = 3072
        copy.policyInputs.initialExplicitPolicy = true
        copy.policyInputs.userInitialPolicySet.insert(KnownOID.serverAuth)
        copy.initialNameConstraints = NameConstraints(permittedSubtrees: nil, excludedSubtrees: [])
        copy.anchorEnforcement.validity = false
        copy.extendedKeyUsageReading = .strict
        copy.maximumIntermediates = 0
        copy.requiredLeafKeyUsage.insert(.keyAgreement)
        copy.checkTLSKeyUsage.toggle()
        copy.allowCommonNameFallback = true
        copy.budget.signatureChecks = 1
        copy.budget.buildSteps -= 1
        copy.requiredPins.insert(Pin(.publicKey, SHA256Digest(hashing: [1])))
        copy.undeterminedRevocationStatus = .reject
        for policy in [original, third] {
            #expect(policy.purpose == .serverAuthentication(try ReferenceIdentifier("www.tls.test")))
            #expect(policy.profile == .automatic)
            #expect(policy.algorithms == .default)
            #expect(policy.policyInputs == PolicyValidationInputs())
            #expect(policy.initialNameConstraints == nil)
            #expect(policy.anchorEnforcement == .rfc5937)
            #expect(policy.extendedKeyUsageReading == .standard)
            #expect(policy.maximumIntermediates == 7)
            #expect(policy.requiredLeafKeyUsage == [])
            #expect(policy.checkTLSKeyUsage)
            #expect(!policy.allowCommonNameFallback)
            #expect(policy.budget == .default)
            #expect(policy.requiredPins.isEmpty)
            #expect(policy.undeterminedRevocationStatus == .rejectWhenIssuerHasCRLs)
        }
        #expect(copy.algorithms.allowedHashes == [.sha1, .sha256, .sha384, .sha512] && copy.algorithms.allowedCurves == [.p256, .p384])
        #expect(copy.budget.signatureChecks == 1 && copy.budget.buildSteps == Budget.default.buildSteps - 1)
        #expect(!copy.checkTLSKeyUsage && copy.requiredLeafKeyUsage == [.keyAgreement])
        #expect(copy.extendedKeyUsageReading == .strict && copy.anchorEnforcement == AnchorEnforcement(validity: false, constraints: true))
        // A copy held once is changed in place, and the earlier copies still see their own values.
        copy.requiredPins.insert(Pin(.publicKey, SHA256Digest(hashing: [2])))
        #expect(copy.requiredPins.count == 2 && original.requiredPins.isEmpty && third.requiredPins.isEmpty)
    }

    @Test("an evaluation honours fields changed on a copy, and the original still evaluates as before")
    func evaluationsHonourCopies() throws {
        let base = try ValidationPolicy.server(hostname: "sha1.tls.test")
        var sha1 = base
        sha1.algorithms.allowedHashes.insert(.sha1)
        #expect(try Self.evaluate("sha1.pem", base).primaryFailure?.code == "disallowedSignatureAlgorithm")
        #expect(try Self.evaluate("sha1.pem", sha1).isTrusted)
        #expect(try Self.evaluate("sha1.pem", base).primaryFailure?.code == "disallowedSignatureAlgorithm")

        let p384Base = try ValidationPolicy.server(hostname: "p384.tls.test")
        var p256Only = p384Base
        p256Only.algorithms.allowedCurves = [.p256]
        #expect(try Self.evaluate("p384.pem", p384Base).isTrusted)
        #expect(try Self.evaluate("p384.pem", p256Only).primaryFailure == .weakKey(try Self.tls("p384.pem"), key: .curveNotAllowed(.p384)))
        var removed = p384Base
        removed.algorithms.allowedCurves.remove(.p384)
        #expect(try Self.evaluate("p384.pem", removed).primaryFailure?.code == "weakKey")

        let server = try ValidationPolicy.server(hostname: "www.tls.test")
        #expect(try Self.evaluate("server.pem", server).isTrusted)
        var changes: [(String, (inout ValidationPolicy) -> Void, String)] = [
            ("budget.signatureChecks = 0", { $0.budget.signatureChecks = 0 }, "budgetExhausted"),
            ("maximumIntermediates = 0", { $0.maximumIntermediates = 0 }, "maximumDepthExceeded"),
            ("requiredPins.insert", { $0.requiredPins.insert(Pin(.publicKey, SHA256Digest(hashing: [1]))) }, "pinMismatch"),
            ("purpose", { $0.purpose = .serverAuthentication(try! ReferenceIdentifier("other.tls.test")) }, "hostnameMismatch"),
            ("purpose client", { $0.purpose = .clientAuthentication(expectedNames: []) }, "extendedKeyUsageForbids"),
            ("initialExplicitPolicy", { $0.policyInputs.initialExplicitPolicy = true }, "policyRequired"),
            ("requiredLeafKeyUsage", { $0.requiredLeafKeyUsage.insert(.keyCertSign) }, "keyUsageForbids"),
            ("undeterminedRevocationStatus = .reject", { $0.undeterminedRevocationStatus = .reject }, "revocationUnknown"),
            ("allowEdDSA = false (no effect on P-256)", { $0.algorithms.allowEdDSA = false }, ""),
            ("allowedHashes = []", { $0.algorithms.allowedHashes = [] }, "disallowedSignatureAlgorithm"),
        ]
        changes.append(("allowedCurves = []", { $0.algorithms.allowedCurves = [] }, "weakKey"))
        for (what, change, expected) in changes {
            var copy = server
            change(&copy)
            let result = try Self.evaluate("server.pem", copy)
            #expect((result.primaryFailure?.code ?? "") == expected, "\(what): \(result.primaryFailure.map(Diagnostics.describe) ?? "trusted")")
            #expect(try Self.evaluate("server.pem", server).isTrusted, "\(what) changed the original")
        }
    }

    @Test("RSA minimum set on a copy of an RSA chain's policy")
    func rsaMinimumOnCopy() {
        let base = SamplePKI.server(SamplePKI.rsaServer)
        var strict = base
        strict.policy.algorithms.minimumRSAModulusBits = 8192
        #expect(strict.evaluate().primaryFailure?.code == "weakKey")
        #expect(base.evaluate().isTrusted)
    }

    @Test("revocation evidence and the caller's check set on a copy of an evaluation; the original does neither")
    func evidenceAndCheckOnCopy() throws {
        let crls = try PEM.readCRLs(Array(try Data(contentsOf: TestCertificates.testVectors.appendingPathComponent("policy-values/revoked-server.crl.pem")))).crls
        let base = SamplePKI.server(SamplePKI.rsaServer)
        var revoked = base
        revoked.revocationEvidence = RevocationEvidence(crls: CRLStore(crls))
        let result = revoked.evaluate()
        // The verdict is the set's expectations.txt (its generate.py).
        let expectation = try #require(TestCertificates.expectations("policy-values").first { $0.id == "revoked-server" })
        #expect(result.primaryFailure?.code == expectation.failureCodes.first, "\(result.primaryFailure.map(Diagnostics.describe) ?? "trusted")")
        var checked = base
        checked.additionalCheck = { chain in "refused \(chain.count)" }
        #expect(checked.evaluate().primaryFailure == .rejectedByCaller("refused 2"))
        #expect(base.evaluate().isTrusted)
        #expect(base.revocationEvidence.isEmpty && base.additionalCheck == nil)
    }

    @Test("a policy shared by threads while each mutates its own copy")
    func threads() throws {
        let shared = try ValidationPolicy.server(hostname: "www.tls.test")
        let leaf = try Self.tls("server.pem"), ca = try Self.tls("ca.pem"), store = TrustStore(anchors: [try Self.tls("root.pem")])
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<200 {
                var mine = shared
                mine.budget.signatureChecks = thread * 1000 + round + 10
                mine.requiredPins.insert(Pin(.publicKey, SHA256Digest(hashing: [UInt8(thread), UInt8(round & 0xFF)])))
                mine.algorithms.allowedHashes.insert(.sha1)
                if mine.budget.signatureChecks != thread * 1000 + round + 10 || mine.requiredPins.count != 1 {
                    errors.withLock { $0.append("thread \(thread) round \(round): own copy changed") }
                }
                if shared.budget != .default || !shared.requiredPins.isEmpty || shared.algorithms != .default {
                    errors.withLock { $0.append("thread \(thread) round \(round): shared policy changed") }
                }
                // The shared policy evaluates as trusted; the copy with a pin nobody has fails.
                let ok = TrustEvaluation(leaf: leaf, intermediates: [ca], trustStore: store, policy: shared,
                                         validationTime: TestCertificates.validationTime).evaluate()
                let pinned = TrustEvaluation(leaf: leaf, intermediates: [ca], trustStore: store, policy: mine,
                                             validationTime: TestCertificates.validationTime).evaluate()
                if !ok.isTrusted || pinned.primaryFailure != .pinMismatch {
                    errors.withLock { $0.append("thread \(thread) round \(round): \(ok.isTrusted) \(String(describing: pinned.primaryFailure))") }
                }
            }
        }
        #expect(errors.withLock { $0 }.isEmpty, "\(errors.withLock { $0.prefix(5) })")
    }

    @Test("writes through key paths and inout parameters copy too")
    func keyPathsAndInout() throws {
        let original = try ValidationPolicy.server(hostname: "www.tls.test")
        var copy = original
        copy[keyPath: \.budget.signatureChecks] = 3
        copy[keyPath: \ValidationPolicy.algorithms.allowedHashes].insert(.md5)
        func bump(_ value: inout Int) { value += 1 }
        bump(&copy.maximumIntermediates)
        func clear(_ policy: inout ValidationPolicy) { policy.requiredPins = [Pin(.publicKey, SHA256Digest(hashing: [9]))] }
        clear(&copy)
        #expect(copy.budget.signatureChecks == 3 && copy.algorithms.allowedHashes.contains(.md5) && copy.maximumIntermediates == 8)
        #expect(copy.requiredPins.count == 1)
        #expect(original.budget == .default && original.algorithms == .default && original.maximumIntermediates == 7 && original.requiredPins.isEmpty)
    }

    @Test("AlgorithmProfile: equal whatever way the sets were written, hash agrees")
    func profileEquality() {
        var a = AlgorithmProfile()
        a.allowedHashes = [.sha512, .sha384, .sha256]
        var b = AlgorithmProfile(allowedHashes: [])
        b.allowedHashes.formUnion([.sha256, .sha384, .sha512, .sha256])
        #expect(a == .default && b == .default && a.hashValue == AlgorithmProfile.default.hashValue)
        #expect(Set([a, b, .default, .permissive]).count == 2)
        var c = AlgorithmProfile()
        c.allowedCurves = [.p256]
        c.allowedCurves = [.p256, .p384, .p521, .brainpoolP256r1, .brainpoolP384r1, .brainpoolP512r1]
        #expect(c == .default)
        // Every single-element set reads back as itself; all distinct profiles.
        var profiles = Set<AlgorithmProfile>()
        for hash in HashAlgorithm.allCases {
            var p = AlgorithmProfile(); p.allowedHashes = [hash]
            #expect(p.allowedHashes == [hash])
            profiles.insert(p)
        }
        for curve in NamedCurve.allCases {
            var p = AlgorithmProfile(); p.allowedCurves = [curve]
            #expect(p.allowedCurves == [curve])
            profiles.insert(p)
        }
        #expect(profiles.count == HashAlgorithm.allCases.count + NamedCurve.allCases.count)
        #expect(AlgorithmProfile.permissive.allowedCurves == Set(NamedCurve.allCases))
        // md2 and md5 allowed, accepted; removal takes effect.
        var legacy = AlgorithmProfile(allowedHashes: [.md2, .md5])
        #expect(legacy.accepts(.rsaPKCS1v15(.md5)) && legacy.accepts(.rsaPKCS1v15(.md2)) && !legacy.accepts(.rsaPKCS1v15(.sha256)))
        legacy.allowedHashes.remove(.md5)
        #expect(!legacy.accepts(.rsaPKCS1v15(.md5)))
        #expect(!legacy.accepts(.dsa(.md2)))
        legacy.allowDSA = true
        #expect(legacy.accepts(.dsa(.md2)))
    }
}
