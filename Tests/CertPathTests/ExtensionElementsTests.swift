@testable import CertPath
import CertPathDER
import Testing

/// The elements parsing keeps of the list-valued path-relevant extensions (``ExtensionElements``):
/// subjectAltName names (RFC 5280 4.2.1.6), extKeyUsage purposes (4.2.1.12), certificatePolicies
/// identifiers (4.2.1.4) and unknown critical extensions (4.2). Validation reads only these; each
/// list must equal what the typed decoders read from the same bytes, in order, whether the
/// elements are held inline (the first eight) or past them, and whatever order the extensions come in.
@Suite("Extension elements kept by parsing")
struct ExtensionElementsTests {
    static func dnsNames(_ count: Int) -> [String] { (0..<count).map { "host\($0).example.test" } }
    static func san(_ names: [String]) -> [UInt8] {
        D.ext(KnownOID.subjectAltName, D.tlv(.sequence, names.flatMap { D.ctx(2, Array($0.utf8)) }))
    }
    static func purposes(_ count: Int) -> [OID] { (0..<count).map { OID(dotted: "1.3.6.1.4.1.99999.7.\($0)")! } }
    static func eku(_ purposes: [OID]) -> [UInt8] { D.ext(KnownOID.extKeyUsage, D.tlv(.sequence, purposes.flatMap(D.oid))) }
    static func policies(_ count: Int) -> [OID] { (0..<count).map { OID(dotted: "2.23.140.1.\($0 + 1)")! } }
    static func certificatePolicies(_ ids: [OID]) -> [UInt8] {
        D.ext(KnownOID.certificatePolicies, D.tlv(.sequence, ids.flatMap { D.seq(D.oid($0)) }))
    }
    static func unknownCritical(_ number: Int) -> [UInt8] { D.ext(OID(dotted: "1.3.6.1.4.1.99999.9.\(number)")!, critical: true, D.int(Int64(number))) }

    /// The names each accessor gives for `certificate`'s subjectAltName.
    static func keptNames(_ certificate: Certificate) -> [String] {
        var names: [String] = []
        _ = certificate.forEachSubjectAlternativeName { tag, contents in
            #expect(tag == 2)
            names.append(String(decoding: certificate.der[contents], as: UTF8.self))
            return true
        }
        return names
    }

    @Test("every list equals the typed decoders' reading, inline and past the inline elements, in any extension order",
          arguments: [(1, 1, 1), (3, 2, 1), (8, 0, 0), (7, 1, 1), (9, 3, 2), (2, 8, 4), (40, 5, 3), (0, 9, 9)])
    func listsMatchDecoders(names: Int, ekus: Int, policyCount: Int) throws {
        var extensions: [[UInt8]] = [Self.unknownCritical(1)]
        if policyCount > 0 { extensions.append(Self.certificatePolicies(Self.policies(policyCount))) }
        extensions.append(Self.unknownCritical(2))
        if names > 0 { extensions.append(Self.san(Self.dnsNames(names))) }
        if ekus > 0 { extensions.append(Self.eku(Self.purposes(ekus))) }
        extensions.append(Self.unknownCritical(3))
        for order in [extensions, extensions.reversed()] {
            let certificate = try Certificate(derEncoded: CertificateBuilder(extensions: order).der)
            #expect(Self.keptNames(certificate) == (names > 0 ? Self.dnsNames(names) : []))
            #expect(certificate.forEachSubjectAlternativeName { _, _ in true } == (names > 0 ? true : nil))
            #expect(certificate.subjectAlternativeNames.map { $0.count } == (names > 0 ? names : nil))
            #expect(certificate.policyIdentifiers == (policyCount > 0 ? Self.policies(policyCount) : nil))
            #expect(certificate.policyIdentifiers == certificate.certificatePolicies?.map(\.policyIdentifier))
            for purpose in Self.purposes(ekus) { #expect(certificate.extendedKeyUsageAllows(purpose) == true) }
            #expect(certificate.extendedKeyUsageAllows(KnownOID.serverAuth) == (ekus > 0 ? false : nil))
            #expect(certificate.extendedKeyUsage?.usages == (ekus > 0 ? Self.purposes(ekus) : nil))
            let unknown = certificate.unrecognizedCriticalExtensions.map { $0.oid.description }
            let expected = [1, 2, 3].map { "1.3.6.1.4.1.99999.9.\($0)" }
            #expect(unknown == (order == extensions ? expected : expected.reversed()))
            #expect(certificate.unrecognizedCriticalExtensions.map { Array($0.value) }
                    == (order == extensions ? [1, 2, 3] : [3, 2, 1]).map { D.int(Int64($0)) })
            #expect(certificate.hasUnrecognizedCriticalExtension)
        }
    }

    @Test("anyExtendedKeyUsage allows every purpose; a certificate without the lists keeps none")
    func anyPurposeAndNone() throws {
        let any = try Certificate(derEncoded: CertificateBuilder(extensions: [Self.eku([KnownOID.anyExtendedKeyUsage])]).der)
        #expect(any.extendedKeyUsageAllows(KnownOID.serverAuth) == true)
        #expect(any.extendedKeyUsageAllows(KnownOID.clientAuth) == true)
        let none = try Certificate(derEncoded: CertificateBuilder(extensions: [D.ext(KnownOID.subjectKeyIdentifier, D.octets([1]))]).der)
        #expect(none.forEachSubjectAlternativeName { _, _ in true } == nil)
        #expect(none.extendedKeyUsageAllows(KnownOID.serverAuth) == nil)
        #expect(none.policyIdentifiers == nil)
        #expect(!none.hasUnrecognizedCriticalExtension && none.unrecognizedCriticalExtensions.isEmpty)
    }

    @Test("a repeated subjectAltName: the first occurrence's names are the ones kept (the repeat is validated and recorded)")
    func repeatedSubjectAltName() throws {
        let der = CertificateBuilder(extensions: [Self.san(["first.test"]), Self.eku([KnownOID.serverAuth]),
                                                  Self.san(["second.test", "third.test"])]).der
        let certificate = try expectFindings(der, [.duplicateExtension])
        #expect(Self.keptNames(certificate) == ["first.test"])
        #expect(certificate.extendedKeyUsageAllows(KnownOID.serverAuth) == true)
    }

    @Test("stopping a walk early: the callback's false is returned, later names are not visited")
    func earlyStop() throws {
        let certificate = try Certificate(derEncoded: CertificateBuilder(extensions: [Self.san(Self.dnsNames(12))]).der)
        var visited = 0
        #expect(certificate.forEachSubjectAlternativeName { _, _ in visited += 1; return visited < 10 } == false)
        #expect(visited == 10)
    }

    @Test("a name longer than the inline word's 16 MiB length field is kept past the inline elements, whole")
    func longName() throws {
        let long = String(repeating: "a", count: 63) + "." + String(repeating: "b", count: 0x100_0000)
        let certificate = try Certificate(derEncoded: CertificateBuilder(extensions: [Self.san(["short.test", long, "after.test"])]).der)
        let names = Self.keptNames(certificate)
        #expect(names.map(\.utf8.count) == ["short.test".utf8.count, long.utf8.count, "after.test".utf8.count])
        #expect(names.first == "short.test" && names.last == "after.test")
    }
}
