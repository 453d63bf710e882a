import Foundation
import Testing
import CertPath
import CertPathDER

/// Differential check of the certificate parser against pyca/cryptography: every certificate file
/// of `cryptography-vectors` (x509/: top level, custom/, custom/ca/, PKITS_data/certs/, ed25519/,
/// ed448/), compared field by field with `TestVectors/pyca/expected.json`
/// (written by `scripts/pyca-expectations.py`).
@Suite struct PycaDifferentialTests {
    /// Files where CertPath deliberately decides differently from pyca, with the reason.
    /// The test fails if a listed file stops differing (the list must stay true).
    static let deliberateDifferences: [String: String] = [
        // Stricter than pyca.
        "custom/ec_no_named_curve.pem": "stricter: explicit EC domain parameters are refused (RFC 5480 2.1.1 namedCurve only)",
        "custom/rsa_pss_cert_no_sig_params.der": "stricter: id-RSASSA-PSS signature without RSASSA-PSS-params (RFC 4055 3.1: parameters MUST be present)",
        "utf8-dnsname.pem": "stricter: dNSName with non-ASCII bytes is not an IA5String (RFC 5280 4.2.1.6)",
        // Looser than pyca, deliberately.
        "custom/two_basic_constraints.pem": "looser: an extension present twice is an RFC 5280 4.2 prose rule, not ASN.1: the "
            + "certificate decodes (the first one kept) and validation refuses it (ProfileRule.duplicateExtension)",
        "wosign-bc-invalid.pem": "looser: pathLenConstraint without cA is an RFC 5280 4.2.1.9 prose rule: the certificate decodes "
            + "(the length ignored) and validation refuses it under the RFC 5280 and Web PKI profiles",
        "custom/cp_invalid.pem": "looser: policy qualifiers are checked for structure only (RFC 5280 6.1 ignores them)",
        "custom/cp_invalid2.der": "looser: policy qualifiers are checked for structure only (RFC 5280 6.1 ignores them)",
        "custom/dsa_null_alg_params.pem": "stricter: dsa-with-SHA256 AlgorithmIdentifier with NULL parameters (RFC 5758 3.1: MUST omit)",
        "badssl-sct-anonymous-sig.der": "looser: the SCT list extension (non-critical) is not interpreted; pyca parses its contents",
        "badssl-sct-none-hash.der": "looser: the SCT list extension (non-critical) is not interpreted; pyca parses its contents",
        "custom/invalid-sct-length.der": "looser: the SCT list extension (non-critical) is not interpreted; pyca parses its contents",
        "custom/invalid-sct-version.der": "looser: the SCT list extension (non-critical) is not interpreted; pyca parses its contents",
        "PKITS_data/certs/DSAParametersInheritedCACert.crt": "looser: DSA keys may inherit parameters (RFC 3279 2.3.2; PKITS 4.1.5 expects it)",
        "PKITS_data/certs/ValidDSAParameterInheritanceTest5EE.crt": "looser: DSA keys may inherit parameters (RFC 3279 2.3.2; PKITS 4.1.5 expects it)",
        "custom/nc_invalid_ip4_netmask.der": "looser: a non-contiguous iPAddress constraint mask is RFC 5280 4.2.1.10 prose, not ASN.1: "
            + "it decodes, and name-constraint validation refuses the subtree",
        "custom/nc_invalid_ip_netmask.pem": "looser: a non-contiguous iPAddress constraint mask is RFC 5280 4.2.1.10 prose, not ASN.1: "
            + "it decodes, and name-constraint validation refuses the subtree",
        "custom/nc_ip_invalid_length.pem": "looser: an iPAddress constraint of other than 8 or 32 octets is RFC 5280 4.2.1.10 prose, "
            + "not ASN.1: it decodes, and name-constraint validation refuses the subtree",
        // Rendering.
        "scottishpower-bitstring-dn.pem": "RFC 4514 2.4: a non-string value renders as # and the hex of its whole BER encoding; pyca prints only the contents",
        "unique_identifier.pem": "RFC 4514 2.4: a non-string value renders as # and the hex of its whole BER encoding; pyca prints only the contents",
    ]

    struct Expectations: Decodable {
        let files: [String: FileExpectation]
    }

    struct FileExpectation: Decodable {
        let kind: String
        let accepted: Bool
        let error: String?
        let certificates: [CertificateExpectation]?
    }

    struct CertificateExpectation: Decodable {
        struct PublicKey: Decodable { let type: String; let bits: Int?; let curve: String? }
        struct ExtensionEntry: Decodable { let oid: String; let critical: Bool }
        struct SANEntry: Decodable { let type: String; let value: String }
        struct Basic: Decodable { let ca: Bool; let path_length: Int? }
        let version: Int
        let serial: String
        let issuer: String
        let subject: String
        let issuer_der_hex: String
        let subject_der_hex: String
        let not_before: Int64
        let not_after: Int64
        let signature_algorithm_oid: String
        let public_key: PublicKey
        let extensions: [ExtensionEntry]
        let san: [SANEntry]?
        let basic_constraints: Basic?
        let key_usage: [String: Bool?]?
        let eku: [String]?
        let ski: String?
        let aki_key_id: String?
    }

    @Test func everyVectorCertificateAgreesWithPyca() throws {
        guard let vectors = TestData.cryptographyVectors else {
            TestData.skip("pyca differential test", because: "cryptography-vectors is not installed (run scripts/bootstrap)")
            return
        }
        let expected = try JSONDecoder().decode(
            Expectations.self, from: Data(contentsOf: TestData.testVectors.appendingPathComponent("pyca/expected.json")))
        var unexplained: [String] = []
        var deliberate: [String] = []
        var compared = 0, certificates = 0
        for (path, expectation) in expected.files.sorted(by: { $0.key < $1.key }) where expectation.kind == "certificate" {
            compared += 1
            let bytes = try TestData.bytes(vectors.appendingPathComponent("x509").appendingPathComponent(path))
            let differences = Self.compare(bytes, expectation)
            certificates += expectation.certificates?.count ?? 0
            if let reason = Self.deliberateDifferences[path] {
                if differences.isEmpty {
                    unexplained.append("\(path): listed as a deliberate difference (\(reason)) but now agrees with pyca")
                } else {
                    deliberate.append("\(path): \(reason)")
                }
            } else if !differences.isEmpty {
                unexplained.append("\(path): " + differences.joined(separator: "; "))
            }
        }
        print("pyca differential: \(compared) certificate files (\(certificates) certificates accepted by pyca); "
              + "\(deliberate.count) deliberate differences, \(unexplained.count) unexplained")
        for line in deliberate { print("  deliberate: \(line)") }
        for line in unexplained { print("  UNEXPLAINED: \(line)") }
        #expect(compared > 500, "expected several hundred certificate files, found \(compared)")
        #expect(unexplained.isEmpty, "\(unexplained.count) unexplained differences from pyca")
    }

    /// Differences between our reading of `bytes` and pyca's, as text.
    static func compare(_ bytes: [UInt8], _ expectation: FileExpectation) -> [String] {
        let file: PEM.CertificateFile
        do throws(PEM.CertificateFileError) {
            file = try PEM.readCertificates(bytes)
        } catch {
            return expectation.accepted ? ["we reject (\(error)), pyca accepts"] : []
        }
        guard expectation.accepted, let wanted = expectation.certificates else {
            return ["we accept, pyca rejects (\(expectation.error ?? "?"))"]
        }
        guard file.certificates.count == wanted.count else {
            return ["\(file.certificates.count) certificates, pyca \(wanted.count)"]
        }
        var differences: [String] = []
        for (certificate, want) in zip(file.certificates, wanted) {
            func check<T: Equatable>(_ field: String, _ ours: T, _ theirs: T) {
                if ours != theirs { differences.append("\(field): ours \(ours), pyca \(theirs)") }
            }
            check("version", certificate.version.rawValue, want.version)
            check("serial", signedDecimal(certificate.serialNumber), want.serial)
            check("issuer DER", hex(certificate.issuer.der), want.issuer_der_hex)
            check("subject DER", hex(certificate.subject.der), want.subject_der_hex)
            check("issuer", certificate.issuer.description, want.issuer)
            check("subject", certificate.subject.description, want.subject)
            check("notBefore", certificate.notBefore.secondsSinceEpoch, want.not_before)
            check("notAfter", certificate.notAfter.secondsSinceEpoch, want.not_after)
            check("signature algorithm", Self.algorithmOID(certificate), want.signature_algorithm_oid)
            check("public key", Self.keySummary(certificate.subjectPublicKeyInfo.key), Self.keySummary(want.public_key))
            check("extensions", certificate.extensions.map { "\($0.oid)\($0.isCritical ? "!" : "")" },
                  want.extensions.map { "\($0.oid)\($0.critical ? "!" : "")" })
            check("SAN", certificate.subjectAlternativeNames.map { $0.map(Self.sanText) },
                  want.san.map { $0.map { "\($0.type):\($0.value)" } })
            check("basicConstraints", certificate.basicConstraints.map { "\($0.isCertificateAuthority)/\($0.pathLenConstraint ?? -1)" },
                  want.basic_constraints.map { "\($0.ca)/\($0.path_length ?? -1)" })
            check("keyUsage", certificate.keyUsage.map(Self.keyUsageNames), want.key_usage.map(Self.keyUsageNames))
            check("EKU", certificate.extendedKeyUsage.map { $0.usages.map(\.description) }, want.eku)
            check("SKI", certificate.subjectKeyIdentifier.map { hex($0) }, want.ski)
            check("AKI keyIdentifier", certificate.authorityKeyIdentifier?.keyIdentifier.map { hex($0) }, want.aki_key_id)
        }
        return differences
    }

    static func algorithmOID(_ certificate: Certificate) -> String {
        var reader = DERReader(certificate.signatureAlgorithmDER)
        do throws(DERError) {
            var inner = try reader.contents(of: try reader.read(.sequence, "AlgorithmIdentifier"), "AlgorithmIdentifier")
            return try inner.readOID("algorithm").description
        } catch {
            return "?"
        }
    }

    static func keySummary(_ key: SubjectPublicKey) -> String {
        switch key {
        case .rsa: return "rsa/\(key.bitLength ?? 0)"
        case .ec(let curve, _):
            return "ec/" + ["P-256": "secp256r1", "P-384": "secp384r1", "P-521": "secp521r1"][curve.rawValue, default: curve.rawValue]
        case .ed25519: return "ed25519"
        case .ed448: return "ed448"
        case .dsa: return "dsa"
        case .unsupported(let algorithm, let curve):
            if algorithm == KnownOID.dsa { return "dsa" }
            if algorithm == KnownOID.ecPublicKey { return "ec/\(curve.map { Self.curveNames[$0] ?? $0.description } ?? "?")" }
            return "other"
        }
    }

    static let curveNames: [OID: String] = ["1.2.840.10045.3.1.1": "secp192r1", "1.3.132.0.10": "secp256k1", "1.3.132.0.33": "secp224r1"]

    static func keySummary(_ key: CertificateExpectation.PublicKey) -> String {
        switch key.type {
        case "rsa": return "rsa/\(key.bits ?? 0)"
        case "ec": return "ec/\(key.curve ?? "?")"
        default: return key.type
        }
    }

    static func sanText(_ name: GeneralName) -> String {
        switch name {
        case .dNSName(let bytes): return "dns:" + String(decoding: bytes, as: UTF8.self)
        case .rfc822Name(let bytes): return "email:" + String(decoding: bytes, as: UTF8.self)
        case .uniformResourceIdentifier(let bytes): return "uri:" + String(decoding: bytes, as: UTF8.self)
        case .iPAddress(let bytes): return "ip:" + (IPAddress(bytes: Array(bytes))?.description ?? "?")
        case .directoryName(let name): return "dirname:\(name)"
        case .registeredID(let oid): return "rid:\(oid)"
        case .otherName(let typeID, _): return "othername:\(typeID)"
        case .x400Address: return "x400"
        case .ediPartyName: return "edipartyname"
        }
    }

    static let keyUsageFields: [(String, KeyUsage)] = [
        ("digital_signature", .digitalSignature), ("content_commitment", .contentCommitment),
        ("key_encipherment", .keyEncipherment), ("data_encipherment", .dataEncipherment),
        ("key_agreement", .keyAgreement), ("key_cert_sign", .keyCertSign), ("crl_sign", .cRLSign),
        ("encipher_only", .encipherOnly), ("decipher_only", .decipherOnly),
    ]

    static func keyUsageNames(_ usage: KeyUsage) -> [String] {
        keyUsageFields.filter { usage.contains($0.1) }.map(\.0)
    }

    static func keyUsageNames(_ fields: [String: Bool?]) -> [String] {
        keyUsageFields.map(\.0).filter { (fields[$0] ?? nil) == true }
    }
}
