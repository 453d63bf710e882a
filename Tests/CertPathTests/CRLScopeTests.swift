import Testing

@testable import CertPath

/// RFC 5280 6.3.3 (b) and (d): whether a complete CRL covers a certificate through one of its
/// distribution points (or the default point of the certificate issuer), and for which reasons.
@Suite("CRL scope")
struct CRLScopeTests {
    typealias F = CRLFixture

    static let caName = F.name("CA")
    static let crlSigner = F.name("CRL Signer")

    func crl(issuer: [UInt8] = caName, _ extensions: [[UInt8]] = []) throws -> CertificateRevocationList {
        var crl = F.CRL()
        crl.issuer = issuer
        crl.extensions = [F.crlNumber(1)] + extensions
        return try crl.parse()
    }

    /// The scope decision through each of the certificate's points (its DPs, then the default point).
    func decisions(_ crl: CertificateRevocationList, _ certificate: Certificate) -> [CRLScopeMismatch?] {
        StatusDistributionPoint.points(for: certificate).map { CRLScope.mismatch(crl, covering: certificate, through: $0) }
    }

    // MARK: Distribution points

    @Test("Without cRLDistributionPoints the default point is named by the issuer and its issuerAltName (6.3.3)")
    func defaultPoint() {
        let uri = F.uri("ldap://ca.example/")
        let certificate = F.certificate(issuerAltName: [uri])
        let points = StatusDistributionPoint.points(for: certificate)
        #expect(points.count == 1)
        #expect(points[0].isDefault && points[0].reasons == nil && points[0].cRLIssuer == nil)
        #expect(points[0].names == [.directoryName(F.parsedName("CA")), .uniformResourceIdentifier(Array("ldap://ca.example/".utf8)[...])])
        #expect(points[0].crlIssuerNames(for: certificate) == [F.parsedName("CA")])
    }

    @Test("Relative distribution point names are appended to the cRLIssuer, else to the certificate issuer (4.2.1.13)")
    func relativeNames() {
        let certificate = F.certificate(distributionPoints: [
            F.distributionPoint(.relative("CRL1")),
            F.distributionPoint(.relative("CRL2"), cRLIssuer: [F.directoryName(Self.crlSigner)]),
        ])
        let points = StatusDistributionPoint.points(for: certificate)
        #expect(points.count == 3 && points[2].isDefault)
        let expectedFirst = try? Name(derEncoded: F.name([("2.5.4.10", "Test"), ("2.5.4.3", "CA"), ("2.5.4.3", "CRL1")]))
        let expectedSecond = try? Name(derEncoded: F.name([("2.5.4.10", "Test"), ("2.5.4.3", "CRL Signer"), ("2.5.4.3", "CRL2")]))
        #expect(points[0].names == [.directoryName(expectedFirst!)])
        #expect(points[1].names == [.directoryName(expectedSecond!)])
        #expect(points[1].crlIssuerNames(for: certificate) == [F.parsedName("CRL Signer")])
        // 6.3.3 (after (l)): a certificate with cRLDistributionPoints has a default point that names no point.
        #expect(points[2].names == nil && points[2].cRLIssuer == nil)
        // 4.2.1.13: a relative name is appended to "the distinguished name" the cRLIssuer contains; with none, it names nothing.
        let uriIssuer = F.certificate(distributionPoints: [F.distributionPoint(.relative("CRL1"), cRLIssuer: [F.uri("ldap://signer.example/")])])
        #expect(StatusDistributionPoint.points(for: uriIssuer)[0].names == [])
    }

    // MARK: (b)(1) issuer

    @Test("(b)(1): a CRL of another issuer does not cover the certificate")
    func issuerMismatch() throws {
        let other = try crl(issuer: F.name("Other CA"))
        #expect(decisions(other, F.certificate()) == [.issuerMismatch])
        // Same issuer under RFC 5280 7.1 (case and spaces folded).
        let folded = try crl(issuer: F.name([("2.5.4.10", "TEST"), ("2.5.4.3", "  ca ")]))
        #expect(decisions(folded, F.certificate()) == [nil])
    }

    @Test("(b)(1): a cRLIssuer must be the CRL issuer, and the CRL must be indirect")
    func cRLIssuer() throws {
        let certificate = F.certificate(distributionPoints: [F.distributionPoint(nil, cRLIssuer: [F.directoryName(Self.crlSigner)])])
        let indirect = try crl(issuer: Self.crlSigner, [F.issuingDistributionPoint(indirect: true)])
        #expect(decisions(indirect, certificate) == [nil, .issuerMismatch])
        let direct = try crl(issuer: Self.crlSigner)
        #expect(decisions(direct, certificate) == [.notIndirect, .issuerMismatch])
        let caCRL = try crl()
        #expect(decisions(caCRL, certificate) == [.notTheNamedCRLIssuer, nil])
    }

    // MARK: (b)(2) issuingDistributionPoint

    @Test("(b)(2)(i): the IDP's names must match the distribution point's full names")
    func distributionPointNames() throws {
        let one = F.uri("http://crl.example/one.crl"), two = F.uri("http://crl.example/two.crl")
        let certificate = F.certificate(distributionPoints: [F.distributionPoint(.full([one]))])
        #expect(decisions(try crl([F.issuingDistributionPoint(.full([two, one]))]), certificate) == [nil, .distributionPointMismatch])
        #expect(decisions(try crl([F.issuingDistributionPoint(.full([two]))]), certificate)
                == [.distributionPointMismatch, .distributionPointMismatch])
        // An IDP without a name does not restrict by name.
        #expect(decisions(try crl([F.issuingDistributionPoint(onlyUser: true)]), certificate) == [nil, nil])
    }

    @Test("(b)(2)(i): a relative IDP name resolves against the CRL issuer; directory names compare by RFC 5280 7.1")
    func relativeIDP() throws {
        let full = F.directoryName(F.name([("2.5.4.10", "test"), ("2.5.4.3", "CA"), ("2.5.4.3", "crl1")]))
        let certificate = F.certificate(distributionPoints: [F.distributionPoint(.full([full]))])
        #expect(decisions(try crl([F.issuingDistributionPoint(.relative("CRL1"))]), certificate) == [nil, .distributionPointMismatch])
        #expect(decisions(try crl([F.issuingDistributionPoint(.relative("CRL2"))]), certificate)
                == [.distributionPointMismatch, .distributionPointMismatch])
        let relative = F.certificate(distributionPoints: [F.distributionPoint(.relative("CRL1"))])
        #expect(decisions(try crl([F.issuingDistributionPoint(.relative("CRL1"))]), relative) == [nil, .distributionPointMismatch])
    }

    @Test("(b)(2)(i): the default point matches an IDP named by the issuer; a point without a name matches by cRLIssuer")
    func idpAgainstIssuerNames() throws {
        let issuerIDP = try crl([F.issuingDistributionPoint(.full([F.directoryName(Self.caName)]))])
        #expect(decisions(issuerIDP, F.certificate()) == [nil])
        let signerIDP = try crl(issuer: Self.crlSigner, [F.issuingDistributionPoint(.full([F.directoryName(Self.crlSigner)]), indirect: true)])
        let certificate = F.certificate(distributionPoints: [F.distributionPoint(nil, cRLIssuer: [F.directoryName(Self.crlSigner)])])
        #expect(decisions(signerIDP, certificate) == [nil, .issuerMismatch])
    }

    @Test("(b)(2)(ii)-(iv): onlyContainsUserCerts, onlyContainsCACerts, onlyContainsAttributeCerts")
    func onlyContains() throws {
        let user = try crl([F.issuingDistributionPoint(onlyUser: true)])
        let ca = try crl([F.issuingDistributionPoint(onlyCA: true)])
        let attributes = try crl([F.issuingDistributionPoint(onlyAttribute: true)])
        let leaf = F.certificate(), subCA = F.certificate(isCA: true)
        #expect(decisions(user, leaf) == [nil])
        #expect(decisions(user, subCA) == [.onlyUserCertificates])
        #expect(decisions(ca, subCA) == [nil])
        #expect(decisions(ca, leaf) == [.onlyCACertificates])
        #expect(decisions(attributes, leaf) == [.onlyAttributeCertificates])
        #expect(decisions(attributes, subCA) == [.onlyAttributeCertificates])
    }

    // MARK: (d) reasons

    @Test("(d): interim reasons are the intersection of onlySomeReasons and the point's reasons, each alone, or all")
    func interimReasons() throws {
        let compromise: ReasonFlags = [.keyCompromise, .cACompromise]
        let point = { (reasons: ReasonFlags?) in
            StatusDistributionPoint.points(for: F.certificate(distributionPoints: [F.distributionPoint(.full([F.uri("u")]), reasons: reasons)]))[0]
        }
        let all = try crl(), some = try crl([F.issuingDistributionPoint(onlySomeReasons: compromise)])
        #expect(CRLScope.interimReasons(all, through: point(nil)) == .all)
        #expect(CRLScope.interimReasons(some, through: point(nil)) == compromise)
        #expect(CRLScope.interimReasons(all, through: point([.superseded, .keyCompromise])) == [.superseded, .keyCompromise])
        #expect(CRLScope.interimReasons(some, through: point([.superseded, .keyCompromise])) == [.keyCompromise])
        #expect(CRLScope.interimReasons(some, through: point([.superseded])) == [])
    }

    @Test("Mismatches are explained with their RFC clause")
    func descriptions() {
        #expect(CRLScopeMismatch.notIndirect.description
                == "the certificate names it as cRLIssuer but it is not an indirect CRL (RFC 5280 6.3.3 (b)(1))")
        #expect(CRLScopeMismatch.onlyCACertificates.description
                == "it covers only CA certificates (onlyContainsCACerts, RFC 5280 6.3.3 (b)(2)(iii))")
    }

    @Test("A CRL out of scope is reported once, for the first point: its onlyContainsCACerts, not also the default point's mismatch")
    func outOfScopeReportedOnce() throws {
        // RFC 5280 6.3.3 (b)(2)(iii): a CRL of CA certificates only does not cover an end entity. The
        // leaf names its point, so the default point (its issuer) names no point: the same CRL is out
        // of that scope too, which read as a second, contradicting reason.
        let certificate = F.certificate(distributionPoints: [F.distributionPoint(.full([F.uri("http://crl.example/A.crl")]))])
        var crl = F.CRL()
        crl.extensions = [F.crlNumber(1), F.issuingDistributionPoint(.full([F.uri("http://crl.example/A.crl")]), onlyCA: true)]
        let reasons = HostileSizeTests.revocationUnknownReasons(certificate, crls: [try crl.parse()])
        #expect(reasons.count == 1)
        #expect(reasons.first?.contains("covers only CA certificates (onlyContainsCACerts") == true, "\(reasons)")
        #expect(reasons.first?.contains("does not match the certificate's distribution point") == false, "\(reasons)")
    }
}
