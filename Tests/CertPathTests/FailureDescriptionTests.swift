import Testing

@testable import CertPath

/// `"\(failure)"` is the sentence the CLI prints, not an enum dump (issue 33); findings likewise.
@Suite("Failures and findings describe themselves in plain words")
struct FailureDescriptionTests {
    @Test("ValidationFailure's description is Diagnostics.describe")
    func failureDescription() {
        let leaf = SamplePKI.rsaServer
        let time = SamplePKI.time
        for failure: ValidationFailure in [.issuerNotFound(leaf), .expired(leaf, notAfter: leaf.notAfter, validationTime: time),
                                           .profileViolation(leaf, .basicConstraintsNotCritical)] {
            #expect("\(failure)" == Diagnostics.describe(failure))
            #expect(!"\(failure)".contains("issuerNotFound(") && !"\(failure)".contains("Certificate("))
        }
        #expect("\(ValidationFailure.issuerNotFound(leaf))".contains("CN=server.customer1.example"))
    }

    @Test("A ProfileFinding reads as its rule and explanation")
    func findingDescription() {
        let finding = ProfileFinding(certificate: SamplePKI.rsaIntermediate, position: .intermediate, rule: .missingKeyUsage)
        #expect("\(finding)" == "missingKeyUsage: a CA certificate lacks the keyUsage extension (RFC 5280 4.2.1.3)")
    }
}
