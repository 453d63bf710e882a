import Foundation
import Testing
import CertPath
import CertPathDER

/// Revocation end to end (RFC 5280 6.1.3 (a)(3), 6.3) through ``TrustEvaluation``: the options for an
/// undetermined status and the exact failures, on NIST PKITS data; and a 10^5-entry CRL signed with
/// the sample PKI's intermediate key (by the `openssl` CLI at test time).
@Suite struct CRLConformanceTests {
    /// An evaluation of PKITS test `id` with its CRLs (all, or `crlFilter`'s), its additional
    /// certificates unless `withoutAdditional`, and `mode`.
    static func pkits(_ id: String, _ mode: UndeterminedRevocationStatus, budget: Budget = .default,
                      withoutAdditional: Bool = false, distrusted: [String] = []) throws -> TrustEvaluation? {
        guard let root = PKITSTests.certificatesRoot, let test = PKITSTests.manifest?.tests.first(where: { $0.id == id }) else {
            TestData.skip("PKITS \(id)", because: "pkits.json or cryptography-vectors is not present")
            return nil
        }
        func load(_ file: String) throws -> [UInt8] { try TestData.bytes(root.appendingPathComponent(file)) }
        let anchor = try Certificate(derEncoded: load(test.path[0]))
        let leaf = try Certificate(derEncoded: load(test.path[test.path.count - 1]))
        let intermediates = try (test.path.dropFirst().dropLast() + (withoutAdditional ? [] : test.additional_certs))
            .map { try Certificate(derEncoded: load($0)) }
        var policy = ValidationPolicy.pathValidation()  // PKITS tests RFC 5280 section 6
        let evidence = RevocationEvidence(crls: CRLStore(try test.crls.map { try CertificateRevocationList(derEncoded: load($0)) }))
        policy.undeterminedRevocationStatus = mode
        policy.budget = budget
        let store = TrustStore([TrustEntry(anchor, kind: .anchor)]
                               + (try distrusted.map { TrustEntry(try Certificate(derEncoded: load($0)), kind: .distrusted) }))
        return TrustEvaluation(leaf: leaf, intermediates: intermediates, trustStore: store,
                               policy: policy, revocationEvidence: evidence, validationTime: PKITSTests.validationTime)
    }

    static func failure(_ evaluation: TrustEvaluation) -> ValidationFailure? {
        if case .untrusted(let report) = evaluation.evaluate() { return report.primaryFailure }
        return nil
    }

    @Test("4.4.1: a CA without any CRL passes by default and when undetermined is accepted; fails under hard fail")
    func missingCRL() throws {
        guard let byDefault = try Self.pkits("4.4.1", .rejectWhenIssuerHasCRLs) else { return }
        #expect(Self.failure(byDefault) == nil)
        #expect(Self.failure(try Self.pkits("4.4.1", .accept)!) == nil)
        guard case .revocationUnknown(let certificate, let reason) = Self.failure(try Self.pkits("4.4.1", .reject)!) else {
            Issue.record("expected revocationUnknown")
            return
        }
        #expect(certificate.subject.description == "CN=Invalid Missing CRL EE Certificate Test1,O=Test Certificates 2011,C=US")
        #expect(reason.description == "no supplied CRL or OCSP response covers it")
    }

    @Test("4.4.3: a listed certificate is revoked whatever the option, with its date and reason")
    func revoked() throws {
        for mode in UndeterminedRevocationStatus.allCases {
            guard let evaluation = try Self.pkits("4.4.3", mode) else { return }
            let failure = Self.failure(evaluation)
            guard case .revoked(let certificate, let date, let reason, _) = failure else {
                Issue.record("\(mode): expected revoked, got \(String(describing: failure))")
                continue
            }
            #expect(certificate == evaluation.leaf)
            #expect(date == UnixTime(year: 2010, month: 1, day: 1, hour: 8, minute: 30, second: 1))
            #expect(reason == .keyCompromise)
            #expect(failure!.rank == 900 && !failure!.isRecoverable)
        }
    }

    @Test("4.4.11: a stale CRL of the issuer rejects by default; soft fail accepts")
    func staleCRL() throws {
        guard let byDefault = try Self.pkits("4.4.11", .rejectWhenIssuerHasCRLs) else { return }
        guard case .revocationUnknown(_, let reason) = Self.failure(byDefault) else {
            Issue.record("expected revocationUnknown")
            return
        }
        #expect(reason.description == "the CRL of CN=Old CRL nextUpdate CA,O=Test Certificates 2011,C=US (number 1) is out of date "
                + "(nextUpdate 2010-01-02T08:30:00Z) and no current delta CRL extends it")
        #expect(Self.failure(try Self.pkits("4.4.11", .accept)!) == nil)
    }

    @Test("4.4.19: without the separate CRL signing certificate the CRL cannot be authenticated")
    func missingCRLSigner() throws {
        guard let evaluation = try Self.pkits("4.4.19", .rejectWhenIssuerHasCRLs, withoutAdditional: true) else { return }
        guard case .revocationUnknown(_, let reason) = Self.failure(evaluation) else {
            Issue.record("expected revocationUnknown")
            return
        }
        // The only certificate named as the CRL issuer is the certificate-signing CA, whose keyUsage lacks cRLSign.
        #expect(reason.description == "the keyUsage of CN=Separate Certificate and CRL Keys CA1,O=Test Certificates 2011,C=US does not allow cRLSign, "
                + "so it cannot issue the CRL of CN=Separate Certificate and CRL Keys CA1,O=Test Certificates 2011,C=US (number 1) (RFC 5280 6.3.3 (f))")
        #expect(Self.failure(try Self.pkits("4.4.19", .rejectWhenIssuerHasCRLs)!) == nil)
    }

    @Test("4.15.1, 4.15.10: why a delta CRL does not settle the status")
    func deltaExplanations() throws {
        guard let noBase = try Self.pkits("4.15.1", .rejectWhenIssuerHasCRLs) else { return }
        guard case .revocationUnknown(_, let reason) = Self.failure(noBase) else {
            Issue.record("expected revocationUnknown")
            return
        }
        #expect(reason.description == "the delta CRL of CN=deltaCRLIndicator No Base CA,O=Test Certificates 2011,C=US (number 5) is a delta CRL "
                + "and no complete CRL it could extend was supplied (RFC 5280 5.2.4)")
        guard case .revocationUnknown(_, let staleReason) = Self.failure(try Self.pkits("4.15.10", .rejectWhenIssuerHasCRLs)!) else {
            Issue.record("expected revocationUnknown")
            return
        }
        #expect(staleReason.description == "the CRL of CN=deltaCRL CA3,O=Test Certificates 2011,C=US (number 1) is out of date "
                + "(nextUpdate 2010-06-01T08:30:00Z) and no current delta CRL extends it; the delta CRL of CN=deltaCRL CA3,"
                + "O=Test Certificates 2011,C=US (number 3) cannot extend the complete CRL: it extends base CRL number 2, newer than "
                + "the complete CRL's 1 (RFC 5280 5.2.4)")
    }

    /// 4.14.28: the leaf's CRL is signed by a separate cRLIssuer certificate, validated to the same
    /// anchor (RFC 5280 6.3.3 (f)). A signer the caller distrusts cannot vouch for anything: the
    /// status is undetermined and, CRLs being supplied for that issuer, the evaluation fails.
    @Test("4.14.28 with the CRL issuer's certificate distrusted: the CRL is not used")
    func distrustedCRLSigner() throws {
        guard let trusted = try Self.pkits("4.14.28", .rejectWhenIssuerHasCRLs) else { return }
        #expect(Self.failure(trusted) == nil)
        let evaluation = try #require(try Self.pkits("4.14.28", .rejectWhenIssuerHasCRLs,
                                                     distrusted: ["certs/indirectCRLCA3cRLIssuerCert.crt"]))
        guard case .revocationUnknown(_, let reason) = Self.failure(evaluation) else {
            Issue.record("expected revocationUnknown, got \(String(describing: Self.failure(evaluation)))")
            return
        }
        #expect(reason.description.contains("distrusted"), "\(reason)")
    }

    @Test("CRL signatures spend the evaluation's signature budget")
    func budget() throws {
        var budget = Budget.default
        budget.signatureChecks = 3
        guard let evaluation = try Self.pkits("4.4.19", .rejectWhenIssuerHasCRLs, budget: budget) else { return }
        #expect(Self.failure(evaluation) == .budgetExhausted(.signatureChecks))
    }

    // MARK: A large CRL, signed by the sample PKI

    static let samplePKI = TestData.testVectors.appendingPathComponent("sample-pki/ecdsa")

    /// A CRL of `issuer` listing `serials` (plus the 10^5 filler serials when `filler`), signed with
    /// `keyFile` through `openssl dgst`; `nil` (skipped) without the openssl CLI.
    static func signedCRL(issuer: Certificate, keyFile: URL, serials: [ArraySlice<UInt8>], filler: Int) throws -> CertificateRevocationList? {
        func element(_ tag: DERTag, _ body: (inout DERWriter) -> Void) -> [UInt8] {
            var writer = DERWriter()
            writer.append(tag, body)
            return writer.bytes
        }
        let algorithm = element(.sequence) { $0.appendOID("1.2.840.10045.4.3.2") }
        func entry(_ serial: [UInt8], reason: UInt8?) -> [UInt8] {
            element(.sequence) { entry in
                entry.append(.integer, contents: serial)
                entry.append(.utcTime, contents: Array("260101000000Z".utf8))
                if let reason {
                    entry.append(.sequence) { extensions in
                        extensions.append(.sequence) { ext in
                            ext.appendOID("2.5.29.21")
                            ext.append(.octetString, contents: [0x0A, 0x01, reason])
                        }
                    }
                }
            }
        }
        let tbs = element(.sequence) { tbs in
            tbs.appendInteger(1)
            tbs.appendEncoded(algorithm)
            tbs.appendEncoded(Array(issuer.subject.der))
            tbs.append(.utcTime, contents: Array("260101000000Z".utf8))
            tbs.append(.utcTime, contents: Array("270101000000Z".utf8))
            tbs.append(.sequence) { list in
                for index in 0..<filler {
                    list.appendEncoded(entry([0x40, UInt8(truncatingIfNeeded: index >> 16), UInt8(truncatingIfNeeded: index >> 8),
                                              UInt8(truncatingIfNeeded: index)], reason: index % 3 == 0 ? 4 : nil))
                }
                for serial in serials { list.appendEncoded(entry(Array(serial), reason: 1)) }
            }
            tbs.append(.contextSpecific(0, constructed: true)) { explicit in
                explicit.append(.sequence) { extensions in
                    extensions.append(.sequence) { ext in
                        ext.appendOID("2.5.29.20")
                        ext.append(.octetString, contents: [0x02, 0x01, 0x07])
                    }
                }
            }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("certpath-crl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tbsFile = directory.appendingPathComponent("tbs.der"), signatureFile = directory.appendingPathComponent("sig.der")
        try Data(tbs).write(to: tbsFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "dgst", "-sha256", "-sign", keyFile.path, "-out", signatureFile.path, tbsFile.path]
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            TestData.skip("signed CRL", because: "the openssl CLI is not available")
            return nil
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            TestData.skip("signed CRL", because: "openssl dgst failed")
            return nil
        }
        let signature = try TestData.bytes(signatureFile)
        let crl = element(.sequence) { list in
            list.appendEncoded(tbs)
            list.appendEncoded(algorithm)
            list.append(.bitString, contents: [0] + signature)
        }
        return try CertificateRevocationList(derEncoded: crl)
    }

    @Test("A 10^5-entry CRL: an unlisted server certificate is trusted, a listed one revoked")
    func largeSignedCRL() throws {
        let root = try PEM.readCertificates(TestData.bytes(Self.samplePKI.appendingPathComponent("root.pem"))).certificates[0]
        let intermediate = try PEM.readCertificates(TestData.bytes(Self.samplePKI.appendingPathComponent("intermediate.pem"))).certificates[0]
        let server = try PEM.readCertificates(TestData.bytes(Self.samplePKI.appendingPathComponent("server.pem"))).certificates[0]
        let key = Self.samplePKI.appendingPathComponent("keys/intermediate.key")
        guard let clean = try Self.signedCRL(issuer: intermediate, keyFile: key, serials: [], filler: 100_000),
              let listing = try Self.signedCRL(issuer: intermediate, keyFile: key, serials: [server.serialNumber], filler: 100_000)
        else { return }
        #expect(clean.revokedCertificates.count == 100_000 && clean.isUsable)
        let time = UnixTime(year: 2026, month: 6, day: 1)!
        func evaluate(_ crl: CertificateRevocationList) -> TrustResult {
            let policy = try! ValidationPolicy.server(hostname: "server.customer1.example")
            return TrustEvaluation(leaf: server, intermediates: [intermediate], trustStore: TrustStore(anchors: [root]),
                                   policy: policy, revocationEvidence: RevocationEvidence(crls: [crl]), validationTime: time).evaluate()
        }
        let trusted = evaluate(clean)
        guard case .trusted = trusted else {
            Issue.record("expected trusted, got \(trusted)")
            return
        }
        let revoked = evaluate(listing)
        guard case .untrusted(let report) = revoked, case .revoked(let certificate, _, let reason, _) = report.primaryFailure else {
            Issue.record("expected revoked, got \(revoked)")
            return
        }
        #expect(certificate == server && reason == .keyCompromise)
    }
}
