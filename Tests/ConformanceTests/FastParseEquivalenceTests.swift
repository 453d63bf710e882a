import Foundation
import Testing
@testable import CertPath
import CertPathLimbo

/// The fast certificate reader (`Certificate.parseCommonShape`) must never decide alone: whatever it
/// accepts, the general parser accepts with the same result. Checked over every certificate the
/// package can find (TestVectors, limbo, pyca's x509 vectors, the system bundle) and over mutated
/// copies of common-shape certificates (every byte altered, truncations, extensions appended).
@Suite("Fast certificate parse agrees with the general parser")
struct FastParseEquivalenceTests {
    /// DER certificates from every source present.
    static func corpus() throws -> [[UInt8]] {
        var ders: [[UInt8]] = []
        func add(fileAt url: URL) {
            guard let data = try? Data(contentsOf: url) else { return }
            let bytes = [UInt8](data)
            if let document = try? PEM.decode(bytes), !document.blocks.isEmpty {
                ders += document.blocks.filter { PEM.certificateLabels.contains($0.label) }.map(\.der)
            } else if bytes.first == 0x30 {
                ders.append(bytes)
            }
        }
        func walk(_ root: URL, extensions: Set<String>) {
            guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return }
            for case let url as URL in enumerator where extensions.contains(url.pathExtension.lowercased()) {
                add(fileAt: url)
            }
        }
        walk(TestData.testVectors, extensions: ["pem", "der", "crt"])
        if let pyca = TestData.cryptographyVectors {
            walk(pyca.appendingPathComponent("x509"), extensions: ["pem", "der", "crt"])
        }
        if let shared = TestData.sharedVectors,
           let suite = try? LimboSuite.load(shared.appendingPathComponent("limbo/limbo.json")) {
            for testcase in suite.testcases {
                for pem in [testcase.peer_certificate] + testcase.trusted_certs + testcase.untrusted_intermediates {
                    if let document = try? PEM.decode(Array(pem.utf8)) { ders += document.blocks.map(\.der) }
                }
            }
        }
        add(fileAt: URL(fileURLWithPath: "/etc/ssl/certs/ca-certificates.crt"))
        return ders
    }

    /// `nil` when the fast reader declines; otherwise whether the general parser agrees.
    static func agreement(_ der: [UInt8]) -> Bool? {
        guard let fast = der.withUnsafeBufferPointer(Certificate.parseCommonShape) else { return nil }
        var reader = DERReader(der)
        guard let general = try? Certificate.parse(&reader) else { return false }
        return general == fast
    }

    @Test("every certificate found: fast results equal the general parser's")
    func corpusAgrees() throws {
        let ders = try Self.corpus()
        #expect(ders.count > 500, "too few certificates found to compare (\(ders.count))")
        var accepted = 0
        var disagreements: [Int] = []
        for (index, der) in ders.enumerated() {
            switch Self.agreement(der) {
            case nil: break
            case true?: accepted += 1
            case false?: disagreements.append(index)
            }
        }
        print("fast parse: \(accepted) of \(ders.count) certificates took the fast path")
        #expect(disagreements.isEmpty, "fast parse disagrees on \(disagreements.count) certificates, first at \(disagreements.first ?? -1)")
        #expect(accepted > ders.count / 4, "the fast reader took only \(accepted) of \(ders.count)")
    }

    @Test("every certificate that parses: each extension accessor agrees with decoding the extension on its own")
    func accessorsAgreeWithExtensionDecoding() throws {
        var checked = 0
        var problems: [String] = []
        for der in try Self.corpus() {
            guard let certificate = try? Certificate(derEncoded: der) else { continue }
            checked += 1
            func ext(_ known: KnownExtension) -> Extension? { certificate.extension(known.oid) }
            func agree<T: Equatable>(_ name: String, _ accessor: T?, _ decode: (Extension) throws(DERError) -> T) {
                let expected: T?
                if let e = ext(known(for: name)) { expected = try? decode(e) } else { expected = nil }
                if accessor != expected { problems.append("\(name) of \(certificate.subject)") }
            }
            func known(for name: String) -> KnownExtension {
                switch name {
                case "SAN": return .subjectAltName
                case "IAN": return .issuerAltName
                case "EKU": return .extKeyUsage
                case "AKI": return .authorityKeyIdentifier
                case "CP": return .certificatePolicies
                case "PM": return .policyMappings
                case "CRLDP": return .cRLDistributionPoints
                case "AIA": return .authorityInfoAccess
                default: return .nameConstraints
                }
            }
            agree("SAN", certificate.subjectAlternativeNames) { (e: Extension) throws(DERError) in try AlternativeNames.decode(e, "SubjectAltName") }
            agree("IAN", certificate.issuerAlternativeNames) { (e: Extension) throws(DERError) in try AlternativeNames.decode(e, "IssuerAltName") }
            agree("EKU", certificate.extendedKeyUsage) { (e: Extension) throws(DERError) in try ExtendedKeyUsage.decode(e) }
            agree("AKI", certificate.authorityKeyIdentifier) { (e: Extension) throws(DERError) in try AuthorityKeyIdentifier.decode(e) }
            agree("CP", certificate.certificatePolicies) { (e: Extension) throws(DERError) in try CertificatePolicies.decode(e) }
            agree("PM", certificate.policyMappings) { (e: Extension) throws(DERError) in try PolicyMappings.decode(e) }
            agree("CRLDP", certificate.cRLDistributionPoints) { (e: Extension) throws(DERError) in try CRLDistributionPoints.decode(e) }
            agree("AIA", certificate.authorityInformationAccess) { (e: Extension) throws(DERError) in try AuthorityInformationAccess.decode(e) }
            agree("NC", certificate.nameConstraints) { (e: Extension) throws(DERError) in try NameConstraints.decode(e) }
            if certificate.policyIdentifiers != certificate.certificatePolicies?.map(\.policyIdentifier) {
                problems.append("policyIdentifiers of \(certificate.subject)")
            }
            if let usage = certificate.extendedKeyUsage {
                let allows = usage.contains(KnownOID.serverAuth) || usage.containsAnyExtendedKeyUsage
                if certificate.extendedKeyUsageAllows(KnownOID.serverAuth) != allows { problems.append("EKU allows of \(certificate.subject)") }
            }
            if problems.count > 10 { break }
        }
        #expect(checked > 500)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("the benchmark chains take the fast path")
    func benchChainsAreCommonShape() throws {
        for folder in ["rsa", "ecdsa"] {
            for name in ["root", "intermediate", "leaf"] {
                let der = [UInt8](try Data(contentsOf: TestData.testVectors.appendingPathComponent("bench/\(folder)/\(name).der")))
                #expect(Self.agreement(der) == true, "bench/\(folder)/\(name).der")
            }
        }
    }

    @Test("mutated certificates: every byte altered, truncations; the fast reader never accepts what the general parser refuses")
    func mutationsAgree() throws {
        var seeds: [[UInt8]] = []
        for path in ["bench/rsa/leaf.der", "bench/ecdsa/leaf.der", "bench/rsa/intermediate.der", "bench/ecdsa/root.der"] {
            seeds.append([UInt8](try Data(contentsOf: TestData.testVectors.appendingPathComponent(path))))
        }
        var checked = 0, accepted = 0
        var failures: [String] = []
        func check(_ der: [UInt8], _ what: @autoclosure () -> String) {
            checked += 1
            switch Self.agreement(der) {
            case nil: break
            case true?: accepted += 1
            case false?: if failures.count < 10 { failures.append(what()) }
            }
        }
        for (seedIndex, seed) in seeds.enumerated() {
            for position in seed.indices {
                for value: UInt8 in [seed[position] ^ 0x01, seed[position] ^ 0x80, 0x00, 0xFF, 0x7F, 0x20, 0x1F] where value != seed[position] {
                    var mutated = seed
                    mutated[position] = value
                    check(mutated, "seed \(seedIndex) byte \(position) = \(value)")
                }
            }
            for length in stride(from: 0, to: seed.count, by: 1) {
                check(Array(seed[..<length]), "seed \(seedIndex) truncated to \(length)")
            }
            check(seed + [0x00], "seed \(seedIndex) with a trailing byte")
        }
        print("fast parse mutations: \(checked) checked, \(accepted) taken by the fast path")
        #expect(failures.isEmpty, "disagreements: \(failures)")
        #expect(accepted > 0 && checked > 10_000)
    }
}
