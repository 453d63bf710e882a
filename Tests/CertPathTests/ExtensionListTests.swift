@testable import CertPath
import CertPathDER
import Testing

/// "At most once" rules over lists an attacker sizes — each extension at most once (RFC 5280
/// 4.2), each policy OID at most once in certificatePolicies (4.2.1.4) — found whether the list is
/// short (compared one by one) or long (a hash set: a 1 MB certificate of 100,000 distinct
/// extensions took 9 s to parse when every new entry was compared with all earlier ones). A repeat
/// is a prose rule broken, not a structure that cannot be read: parsing records it
/// (``ProfileRule``) and validation refuses the certificate. Parsing keeps only the known
/// extensions' values; the full list is read again from the DER, in order, when asked for.
@Suite("Extension lists: at most once, found in linear time")
struct ExtensionListTests {
    static func unknownOID(_ number: Int) -> OID { OID(dotted: "1.3.6.1.4.1.99999.\(number)")! }

    /// The offset of the `index`th extension of `extensions` in the certificate built from them.
    static func offset(of index: Int, in extensions: [[UInt8]], der: [UInt8]) throws -> Int {
        let list = extensions.flatMap { $0 }
        return try D.offset(of: list, in: der) + extensions[..<index].reduce(0) { $0 + $1.count }
    }

    @Test("distinct unknown extensions, around and past the one-by-one limit, parse and list in order",
          arguments: [1, 4, 5, 7, 8, 9, 40, 2000])
    func distinctUnknown(count: Int) throws {
        let extensions = (0..<count).map { D.ext(Self.unknownOID($0), critical: $0 % 3 == 1 ? true : nil, D.int(Int64($0))) }
        let certificate = try Certificate(derEncoded: CertificateBuilder(extensions: extensions).der)
        let listed = certificate.extensions
        #expect(listed.map(\.oid) == (0..<count).map(Self.unknownOID))
        #expect(listed.map(\.isCritical) == (0..<count).map { $0 % 3 == 1 })
        #expect(listed.map { Array($0.value) } == (0..<count).map { D.int(Int64($0)) })
        #expect(certificate.extension(Self.unknownOID(count - 1))?.value.elementsEqual(D.int(Int64(count - 1))) == true)
        #expect(certificate.unrecognizedCriticalExtensions.count == (0..<count).filter { $0 % 3 == 1 }.count)
        #expect(certificate.findings.isEmpty)
    }

    @Test("a repeated unknown extension is recorded, wherever both are, short list or long",
          arguments: [(0, 1), (0, 8), (3, 4), (7, 8), (8, 9), (2, 30), (29, 30), (1, 1999)])
    func repeatedUnknown(first: Int, second: Int) throws {
        let count = second + 3
        var extensions = (0..<count).map { D.ext(Self.unknownOID($0), D.null) }
        extensions[second] = D.ext(Self.unknownOID(first), D.int(7))
        let certificate = try expectFindings(CertificateBuilder(extensions: extensions).der, [.duplicateExtension])
        #expect(certificate.extensions.count == count)
    }

    @Test("a repeated known extension after many unknown ones: recorded, the first occurrence's value kept")
    func repeatedKnownAmongUnknown() throws {
        var extensions = [D.ext(KnownOID.subjectKeyIdentifier, D.octets([1]))]
        extensions += (0..<20).map { D.ext(Self.unknownOID($0), D.null) }
        extensions.append(D.ext(KnownOID.subjectKeyIdentifier, D.octets([2])))
        let certificate = try expectFindings(CertificateBuilder(extensions: extensions).der, [.duplicateExtension])
        #expect(certificate.subjectKeyIdentifier.map(Array.init) == [1])
    }

    @Test("OIDs that differ only in length or last octet are distinct (no false repeat)")
    func nearOIDs() throws {
        let oids: [OID] = ["1.3.6.1.4.1.99999.1", "1.3.6.1.4.1.99999.1.0", "1.3.6.1.4.1.99999.129", "1.3.6.1.4.1.99999.2",
                           "1.3.6.1.4.1.99998.1", "1.3.6.1.4.1.99999.1.1", "1.3.6.1.4.1.99999.0", "1.3.6.1.4.1.99999.1.0.0",
                           "1.3.6.1.4.1.99999.3", "1.3.6.1.4.1.99999.1.2"]
        for rotation in 0..<oids.count {
            let rotated = Array(oids[rotation...] + oids[..<rotation])
            let certificate = try Certificate(derEncoded: CertificateBuilder(extensions: rotated.map { D.ext($0, D.null) }).der)
            #expect(certificate.extensions.map(\.oid) == rotated)
        }
    }

    @Test("known extensions are decoded from their recorded values, unknown ones listed between them")
    func knownAmongUnknown() throws {
        let extensions = [
            D.ext(Self.unknownOID(1), D.null),
            D.ext(KnownOID.basicConstraints, critical: true, D.seq(D.bool(true), D.int(0))),
            D.ext(Self.unknownOID(2), critical: true, D.null),
            D.ext(KnownOID.subjectKeyIdentifier, D.octets([9, 8, 7])),
            D.ext(KnownOID.keyUsage, critical: true, D.bits([0x06], unused: 1)),
        ]
        let certificate = try Certificate(derEncoded: CertificateBuilder(extensions: extensions).der)
        #expect(certificate.extensions.map(\.oid) == [Self.unknownOID(1), KnownOID.basicConstraints, Self.unknownOID(2),
                                                      KnownOID.subjectKeyIdentifier, KnownOID.keyUsage])
        #expect(certificate.extensions.map(\.isCritical) == [false, true, true, false, true])
        #expect(certificate.basicConstraints == BasicConstraints(isCertificateAuthority: true, pathLenConstraint: 0))
        #expect(certificate.subjectKeyIdentifier.map(Array.init) == [9, 8, 7])
        #expect(certificate.isCritical(.keyUsage) == true && certificate.isCritical(.subjectKeyIdentifier) == false)
        #expect(certificate.isCritical(.subjectAltName) == nil && certificate.value(of: .subjectAltName) == nil)
        #expect(certificate.unrecognizedCriticalExtensions.map(\.oid) == [Self.unknownOID(2)])
        #expect(certificate.extensionRecords.map(\.known) == [nil, .basicConstraints, nil, .subjectKeyIdentifier, .keyUsage])
        // Looked up one by one, known (from the table) or not (by reading the list): the same values.
        for listed in certificate.extensions { #expect(certificate.extension(listed.oid) == listed) }
        #expect(certificate.extension(KnownOID.subjectAltName) == nil && certificate.extension(Self.unknownOID(3)) == nil)
    }

    @Test("known extensions' contents are validated in encoded order: the first broken one is reported, before a later duplicate")
    func knownValidatedInOrder() throws {
        func failure(_ extensions: [UInt8]...) -> DERError? {
            do throws(DERError) {
                _ = try Certificate(derEncoded: CertificateBuilder(extensions: extensions).der)
                return nil
            } catch { return error }
        }
        // Broken (not DER) and valid forms of equal length, so that offsets do not move between certificates.
        let brokenKeyUsage = D.ext(KnownOID.keyUsage, D.bits([0x81], unused: 7)), keyUsage = D.ext(KnownOID.keyUsage, D.bits([0x80], unused: 7))
        let brokenBasic = D.ext(KnownOID.basicConstraints, D.seq(D.tlv(.boolean, [0x01]))), basic = D.ext(KnownOID.basicConstraints, D.seq(D.int(5)))
        let keyUsageFirst = try #require(failure(brokenKeyUsage, brokenBasic))
        #expect(keyUsageFirst == failure(brokenKeyUsage, basic))
        #expect(keyUsageFirst.code == .invalidBitString)
        let basicFirst = try #require(failure(brokenBasic, brokenKeyUsage))
        #expect(basicFirst == failure(brokenBasic, keyUsage))
        #expect(basicFirst.code == .invalidBoolean)
        // A broken known extension before a repeated one (known or unknown): the first rule broken wins.
        let unknown = D.ext(Self.unknownOID(1), D.null)
        // (Offsets move with the certificate's length: the code and the rule are compared.)
        for later in [failure(brokenBasic, unknown, keyUsage, unknown), failure(brokenBasic, keyUsage, brokenKeyUsage, keyUsage)] {
            #expect(later?.code == basicFirst.code && later?.expected == basicFirst.expected, "\(String(describing: later))")
        }
        #expect(failure(D.ext(KnownOID.basicConstraints, D.seq(D.bool(true))), unknown, unknown) == nil)
        try expectFindings(CertificateBuilder(extensions: [D.ext(KnownOID.basicConstraints, D.seq(D.bool(true))), unknown, unknown]).der,
                           [.duplicateExtension])
    }

    @Test("a policy OID listed twice is recorded, also in a long list", arguments: [(0, 1), (3, 4), (7, 8), (2, 30), (29, 30)])
    func repeatedPolicy(first: Int, second: Int) throws {
        var policies = (0..<(second + 3)).map { D.seq(D.oid(Self.unknownOID($0))) }
        policies[second] = D.seq(D.oid(Self.unknownOID(first)))
        let value = D.tlv(.sequence, policies.flatMap { $0 })
        let certificate = try expectFindings(CertificateBuilder(extensions: [D.ext(KnownOID.certificatePolicies, value)]).der,
                                             [.duplicatePolicyIdentifier])
        #expect(certificate.certificatePolicies?.count == second + 3)
    }

    @Test("many distinct policies parse and read back in order")
    func manyPolicies() throws {
        let oids = (0..<500).map(Self.unknownOID)
        let value = D.tlv(.sequence, oids.flatMap { D.seq(D.oid($0)) })
        let certificate = try Certificate(derEncoded: CertificateBuilder(extensions: [D.ext(KnownOID.certificatePolicies, value)]).der)
        #expect(certificate.certificatePolicies?.map(\.policyIdentifier) == oids)
        #expect(certificate.policyIdentifiers == oids)
    }

    /// The detector against the quadratic rule it replaces, over random lists with repeats.
    @Test("SeenByteStrings agrees with comparing every earlier entry, across the one-by-one limit")
    func seenByteStringsModel() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let count = Int.random(in: 0...30, using: &generator)
            let alphabet = Int.random(in: 1...40, using: &generator)
            // Strings of 0 to 3 bytes over a small alphabet, so that repeats are common.
            let strings = (0..<count).map { _ in (0..<Int.random(in: 0...3, using: &generator)).map { _ in UInt8.random(in: 0..<UInt8(min(alphabet, 255)), using: &generator) } }
            var buffer: [UInt8] = [0xAA]  // offsets start past 0
            var ranges: [Range<Int>] = []
            for string in strings {
                ranges.append(buffer.count..<(buffer.count + string.count))
                buffer += string
            }
            let reader = DERReader(buffer)
            var seen = SeenByteStrings()
            var recorded: [[UInt8]] = []
            for (string, range) in zip(strings, ranges) {
                let expected = !recorded.contains(string)
                #expect(seen.insert(range, of: reader) == expected, "\(strings)")
                if expected { recorded.append(string) }
            }
        }
    }

    @Test("KnownExtension index and bit agree; every OID is identified")
    func knownExtensionIndex() {
        #expect(KnownExtension.allCases.count == KnownExtension.count)
        for (position, known) in KnownExtension.allCases.enumerated() {
            #expect(known.index == position)
            #expect(known.bit == UInt16(1) << position)
            #expect(KnownExtension.identify(known.oid) == known)
        }
    }

    @Test("SignatureAlgorithm.recognized agrees with the table it was generated from; others are not recognized")
    func signatureAlgorithmSwitch() {
        for entry in SignatureAlgorithm.table {
            let key = entry.oid.encoded.withUnsafeBufferPointer { ShortOIDKey($0)! }
            let found = SignatureAlgorithm.recognized(key)
            #expect(found?.parameters == entry.parameters, "\(entry.oid)")
            if entry.parameters != .pss { #expect(found?.algorithm == entry.algorithm, "\(entry.oid)") }
        }
        for other in [KnownOID.sha256, KnownOID.rsaEncryption, KnownOID.ecPublicKey, "1.2.840.113549.1.1.15", "1.2.840.10045.4.3.5", "1.3.101.114"] as [OID] {
            #expect(SignatureAlgorithm.recognized(other.encoded.withUnsafeBufferPointer { ShortOIDKey($0)! }) == nil, "\(other)")
        }
    }
}
