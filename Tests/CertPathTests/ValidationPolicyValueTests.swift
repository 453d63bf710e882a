import CertPath
import Testing

/// ValidationPolicy and AlgorithmProfile are values: a copy changed never changes the original,
/// whatever they keep inside (ValidationPolicy shares its fields until written; AlgorithmProfile
/// keeps its curve and hash sets as bit masks).
@Suite("Policy values")
struct ValidationPolicyValueTests {
    @Test("a changed copy of a policy leaves the original and other copies as they were")
    func policyCopyOnWrite() throws {
        let original = try ValidationPolicy.server(hostname: "a.example")
        var copy = original
        let untouched = original
        copy.profile = .rfc5280
        copy.requiredKeyPins.insert(SHA256Digest(hashing: [1, 2, 3]))
        copy.algorithms.allowDSA = true
        copy.budget.signatureChecks = 7
        #expect(original.profile == .webPKI && untouched.profile == .webPKI && copy.profile == .rfc5280)
        #expect(original.requiredKeyPins.isEmpty && copy.requiredKeyPins.count == 1)
        #expect(!original.algorithms.allowDSA && copy.algorithms.allowDSA)
        #expect(original.budget.signatureChecks == Budget.default.signatureChecks && copy.budget.signatureChecks == 7)
        // Changing the only holder changes it in place; the earlier copies still see their own values.
        copy.requiredKeyPins.insert(SHA256Digest(hashing: [4]))
        #expect(copy.requiredKeyPins.count == 2 && original.requiredKeyPins.isEmpty)
        if case .serverAuthentication(let reference?) = copy.purpose {
            #expect(reference.description == "a.example")
        } else {
            Issue.record("the purpose was not kept: \(copy.purpose)")
        }
    }

    @Test("an algorithm profile's curve and hash sets read back what was written")
    func algorithmProfileSets() {
        var profile = AlgorithmProfile()
        #expect(profile.allowedCurves == [.p256, .p384, .p521])
        #expect(profile.allowedHashes == [.sha256, .sha384, .sha512])
        profile.allowedHashes.insert(.sha1)
        profile.allowedCurves.remove(.p521)
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
}
