@testable import CertPath
import CertPathDER
import Testing

/// The eager, typed parsed certificate (issue 31): every extension path validation reads is decoded
/// once, at parse, and its property returns that value (RFC 5280 4.2.1.1–4.2.1.14; RFC 6960
/// 4.2.2.2.1; RFC 7633; RFC 6962 3.3); cRLDistributionPoints and authorityInfoAccess (4.2.1.13,
/// 4.2.2.1), read by revocation and fetching only, are validated at parse and decoded when read.
@Suite("Typed certificate extensions")
struct TypedCertificateTests {
    static func ia5(_ text: String) -> ArraySlice<UInt8> { Array(text.utf8)[...] }
    static let policy: OID = "2.23.140.1.2.1"
    static let mappedPolicy: OID = "2.16.840.1.101.3.2.1.48.1"
    static let sctList: OID = "1.3.6.1.4.1.11129.2.4.2"
    static let unknownCritical: OID = "1.3.6.1.4.1.99999.1"

    static func certificate() throws -> Certificate {
        let der = CertificateBuilder(extensions: [
            // 4.2.1.9: cA TRUE, pathLenConstraint 2.
            D.ext(KnownOID.basicConstraints, critical: true, D.seq(D.bool(true), D.int(2))),
            // 4.2.1.3: keyCertSign (5) and cRLSign (6).
            D.ext(KnownOID.keyUsage, critical: true, D.bits([0x06], unused: 1)),
            // 4.2.1.12.
            D.ext(KnownOID.extKeyUsage, D.seq(D.oid(KnownOID.serverAuth), D.oid(KnownOID.clientAuth))),
            // 4.2.1.6: a dNSName and an iPAddress.
            D.ext(KnownOID.subjectAltName, D.seq(D.ctx(2, Array("a.test".utf8)), D.ctx(7, [192, 0, 2, 1]))),
            // 4.2.1.7.
            D.ext(KnownOID.issuerAltName, D.seq(D.ctx(1, Array("ca@test".utf8)))),
            // 4.2.1.10: permitted dNSName "test".
            D.ext(KnownOID.nameConstraints, critical: true, D.seq(D.ctx(0, constructed: true, D.seq(D.ctx(2, Array("test".utf8)))))),
            // 4.2.1.1 and 4.2.1.2.
            D.ext(KnownOID.authorityKeyIdentifier, D.seq(D.ctx(0, [1, 2, 3]))),
            D.ext(KnownOID.subjectKeyIdentifier, D.octets([4, 5, 6])),
            // 4.2.1.4, 4.2.1.5, 4.2.1.11, 4.2.1.14.
            D.ext(KnownOID.certificatePolicies, D.seq(D.seq(D.oid(Self.policy)))),
            D.ext(KnownOID.policyMappings, critical: true, D.seq(D.seq(D.oid(Self.policy), D.oid(Self.mappedPolicy)))),
            D.ext(KnownOID.policyConstraints, critical: true, D.seq(D.ctx(0, [1]))),
            D.ext(KnownOID.inhibitAnyPolicy, critical: true, D.int(0)),
            // 4.2.1.13: one distribution point with a full name URI.
            D.ext(KnownOID.cRLDistributionPoints,
                  D.seq(D.seq(D.ctx(0, constructed: true, D.ctx(0, constructed: true, D.ctx(6, Array("http://crl.test/ca.crl".utf8))))))),
            // 4.2.2.1: caIssuers and OCSP.
            D.ext(KnownOID.authorityInfoAccess, D.seq(D.seq(D.oid(KnownOID.caIssuers), D.ctx(6, Array("http://aia.test/ca.der".utf8))),
                                                      D.seq(D.oid(KnownOID.ocsp), D.ctx(6, Array("http://ocsp.test".utf8))))),
            // RFC 7633: status_request (5); RFC 6960 4.2.2.2.1: NULL.
            D.ext(KnownOID.tlsFeature, D.seq(D.int(5))),
            D.ext(KnownOID.ocspNoCheck, D.null),
            // RFC 6962 3.3: kept as raw octets.
            D.ext(Self.sctList, D.octets([0x00, 0x00])),
            // RFC 5280 4.2: an unknown critical extension.
            D.ext(Self.unknownCritical, critical: true, D.null),
        ]).der
        return try Certificate(derEncoded: der)
    }

    @Test("RFC 5280 4.2.1: every path-relevant extension is exposed as its typed value")
    func everyTypedValue() throws {
        let certificate = try Self.certificate()
        #expect(certificate.findings.isEmpty)
        #expect(certificate.basicConstraints == BasicConstraints(isCertificateAuthority: true, pathLenConstraint: 2))
        #expect(certificate.keyUsage == [.keyCertSign, .cRLSign])
        #expect(certificate.extendedKeyUsage == ExtendedKeyUsage(usages: [KnownOID.serverAuth, KnownOID.clientAuth]))
        #expect(certificate.extendedKeyUsageAllows(KnownOID.serverAuth) == true)
        #expect(certificate.extendedKeyUsageAllows(KnownOID.codeSigning) == false)
        #expect(certificate.subjectAlternativeNames == [.dNSName(Self.ia5("a.test")), .iPAddress([192, 0, 2, 1])])
        #expect(certificate.issuerAlternativeNames == [.rfc822Name(Self.ia5("ca@test"))])
        #expect(certificate.nameConstraints == NameConstraints(permittedSubtrees: [GeneralSubtree(base: .dNSName(Self.ia5("test")))],
                                                               excludedSubtrees: nil))
        #expect(certificate.authorityKeyIdentifier?.keyIdentifier == [1, 2, 3])
        #expect(certificate.authorityKeyIdentifier?.authorityCertIssuer == nil && certificate.authorityKeyIdentifier?.authorityCertSerialNumber == nil)
        #expect(certificate.authorityKeyIdentifierKeyID == [1, 2, 3] && !certificate.authorityKeyIdentifierHasIssuer)
        #expect(certificate.subjectKeyIdentifier == [4, 5, 6])
        #expect(certificate.certificatePolicies?.map(\.policyIdentifier) == [Self.policy])
        #expect(certificate.policyIdentifiers == [Self.policy])
        #expect(certificate.policyMappings?.map(\.issuerDomainPolicy) == [Self.policy])
        #expect(certificate.policyMappings?.map(\.subjectDomainPolicy) == [Self.mappedPolicy])
        #expect(certificate.policyConstraints?.requireExplicitPolicy == 1 && certificate.policyConstraints?.inhibitPolicyMapping == nil)
        #expect(certificate.inhibitAnyPolicy == 0)
        #expect(certificate.hasPolicyExtension)
        #expect(certificate.cRLDistributionPoints?.map(\.name)
                == [.fullName([.uniformResourceIdentifier(Self.ia5("http://crl.test/ca.crl"))])])
        #expect(certificate.authorityInformationAccess?.map(\.accessMethod) == [KnownOID.caIssuers, KnownOID.ocsp])
        #expect(certificate.authorityInformationAccess?.map(\.accessLocation)
                == [.uniformResourceIdentifier(Self.ia5("http://aia.test/ca.der")), .uniformResourceIdentifier(Self.ia5("http://ocsp.test"))])
        #expect(certificate.tlsFeatures == [5] && certificate.requiresStapledOCSPResponse)
        #expect(certificate.hasOCSPNoCheck)
        #expect(certificate.signedCertificateTimestampList.map(Array.init) == D.octets([0x00, 0x00]))
        #expect(certificate.hasUnrecognizedCriticalExtension)
        #expect(certificate.unrecognizedCriticalExtensions.map(\.oid) == [Self.unknownCritical])
        #expect(certificate.isCritical(.nameConstraints) == true && certificate.isCritical(.extKeyUsage) == false)
        #expect(certificate.extensions.count == 18)
    }

    @Test("RFC 5280 4.2: without extensions every typed value is absent")
    func noExtensions() throws {
        let certificate = try Certificate(derEncoded: CertificateBuilder().der)
        #expect(certificate.basicConstraints == nil && certificate.keyUsage == nil && certificate.extendedKeyUsage == nil)
        #expect(certificate.subjectAlternativeNames == nil && certificate.nameConstraints == nil)
        #expect(certificate.certificatePolicies == nil && certificate.policyMappings == nil && !certificate.hasPolicyExtension)
        #expect(certificate.authorityKeyIdentifier == nil && certificate.subjectKeyIdentifier == nil)
        #expect(certificate.cRLDistributionPoints == nil && certificate.authorityInformationAccess == nil && certificate.tlsFeatures == nil)
        #expect(certificate.signedCertificateTimestampList == nil && !certificate.hasOCSPNoCheck)
        #expect(!certificate.hasUnrecognizedCriticalExtension && certificate.extensions.isEmpty)
    }

    /// A cRLDistributionPoints of one point whose fullName is `uri`.
    static func distributionPoints(_ uri: String) -> [UInt8] {
        D.ext(KnownOID.cRLDistributionPoints, D.seq(D.seq(D.ctx(0, constructed: true, D.ctx(0, constructed: true, D.ctx(6, Array(uri.utf8)))))))
    }

    /// An authorityInfoAccess of one caIssuers location `uri`.
    static func authorityInformationAccess(_ uri: String) -> [UInt8] {
        D.ext(KnownOID.authorityInfoAccess, D.seq(D.seq(D.oid(KnownOID.caIssuers), D.ctx(6, Array(uri.utf8)))))
    }

    @Test("""
        RFC 5280 4.2.1.13, 4.2.2.1: cRLDistributionPoints and authorityInfoAccess, validated at parse and decoded when \
        read, give the first occurrence as every other extension does (RFC 5280 4.2), and a malformed one \
        (or a malformed repeat) still fails the parse
        """)
    func revocationExtensionsDecodedWhenRead() throws {
        let certificate = try Certificate(derEncoded: CertificateBuilder(extensions: [
            Self.distributionPoints("http://first.test/ca.crl"), Self.authorityInformationAccess("http://first.test/ca.der"),
            Self.distributionPoints("http://second.test/ca.crl"), Self.authorityInformationAccess("http://second.test/ca.der"),
        ]).der)
        #expect(certificate.findings == [.duplicateExtension])
        #expect(certificate.cRLDistributionPoints?.map(\.name) == [.fullName([.uniformResourceIdentifier(Self.ia5("http://first.test/ca.crl"))])])
        #expect(certificate.authorityInformationAccess?.map(\.accessLocation) == [.uniformResourceIdentifier(Self.ia5("http://first.test/ca.der"))])

        // An empty list (SIZE (1..MAX)): invalidValue at the end of its empty SEQUENCE, as the first
        // occurrence or as a repeat.
        let emptyPoints = D.ext(KnownOID.cRLDistributionPoints, D.seq())
        let emptyAccess = D.ext(KnownOID.authorityInfoAccess, D.seq())
        for (extensions, empty) in [([emptyPoints], emptyPoints), ([emptyAccess], emptyAccess),
                                    ([Self.distributionPoints("http://a.test/ca.crl"), emptyPoints], emptyPoints),
                                    ([Self.authorityInformationAccess("http://a.test/ca.der"), emptyAccess], emptyAccess)] {
            let der = CertificateBuilder(extensions: extensions).der
            expectRejected(der, .invalidValue, at: try D.offset(of: empty, in: der) + empty.count)
        }
    }

    @Test("RFC 5280 6.1: self-issued is decided at parse under the 7.1 comparison (case folded)")
    func selfIssuedAtParse() throws {
        var builder = CertificateBuilder()
        builder.issuer = D.name(D.rdn(D.atv(D.commonName, D.utf8("Model CA"))))
        builder.subject = D.name(D.rdn(D.atv(D.commonName, D.utf8("model ca"))))
        #expect(try Certificate(derEncoded: builder.der).isSelfIssued)
        builder.subject = D.cn("other")
        #expect(try !Certificate(derEncoded: builder.der).isSelfIssued)
    }
}
