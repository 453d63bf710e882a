@testable import CertPath
import CertPathDER
import Testing

/// RFC 5280 6.3.3 (b) over every combination of the certificate's distribution point (absent, named in
/// each form, with and without cRLIssuer, cRLIssuer alone) × the CRL's issuer (the certificate issuer,
/// the named CRL issuer) × its issuingDistributionPoint (none, one without a name, one naming the
/// certificate's point, another point, or the issuer itself, in each form) × indirectCRL ×
/// onlyContainsUserCerts / onlyContainsCACerts × the certificate being a CA.
///
/// Each cell's verdict comes from ``expectedCoverage(_:)``, a small model written from the RFC's text
/// over abstract names (which point a name designates), not from the DER the code compares.
@Suite("CRL scope matrix")
struct CRLScopeMatrixTests {
    typealias F = CRLFixture

    /// How a distribution point name is written (RFC 5280 4.2.1.13, 5.2.5).
    enum Form: CaseIterable, CustomStringConvertible {
        case uri, directoryName, relative
        var description: String { self == .uri ? "URI" : self == .directoryName ? "directoryName" : "nameRelativeToCRLIssuer" }
    }

    /// The certificate's cRLDistributionPoints (one point; partition A when it has a name).
    enum CertificatePoint: CustomStringConvertible {
        case absent
        case named(Form, cRLIssuer: Bool)
        case cRLIssuerOnly

        static let all: [CertificatePoint] = [.absent, .cRLIssuerOnly]
            + Form.allCases.flatMap { form in [false, true].map { CertificatePoint.named(form, cRLIssuer: $0) } }

        var hasCRLIssuer: Bool {
            switch self {
            case .absent: return false
            case .named(_, let cRLIssuer): return cRLIssuer
            case .cRLIssuerOnly: return true
            }
        }

        var description: String {
            switch self {
            case .absent: return "no DP"
            case .named(let form, let cRLIssuer): return "DP A by \(form)\(cRLIssuer ? " + cRLIssuer" : "")"
            case .cRLIssuerOnly: return "DP cRLIssuer only"
            }
        }
    }

    /// What an issuingDistributionPoint distributionPoint name designates.
    enum Target: CustomStringConvertible {
        case partitionA, partitionB
        /// The issuer itself: its own directory name, or (URI form) the certificate issuer's issuerAltName.
        case issuerItself
        var description: String { self == .partitionA ? "A" : self == .partitionB ? "B" : "the issuer itself" }
    }

    /// The CRL's issuingDistributionPoint.
    enum IDP: CustomStringConvertible {
        case none
        case unnamed
        case named(Form, Target)

        static let all: [IDP] = [.none, .unnamed]
            + [Form.uri, .directoryName].flatMap { form in [Target.partitionA, .partitionB, .issuerItself].map { IDP.named(form, $0) } }
            + [Target.partitionA, .partitionB].map { IDP.named(.relative, $0) }  // a relative name always adds an RDN

        var description: String {
            switch self {
            case .none: return "no IDP"
            case .unnamed: return "IDP without name"
            case .named(let form, let target): return "IDP \(target) by \(form)"
            }
        }
    }

    enum OnlyContains: CaseIterable { case any, userCerts, cACerts }

    struct Cell: CustomStringConvertible {
        let point: CertificatePoint
        /// Whether the CRL is issued by the CRL issuer the DP may name ("CRL Signer") rather than the certificate issuer ("CA").
        let issuedByCRLSigner: Bool
        let idp: IDP
        let indirect: Bool
        let onlyContains: OnlyContains
        let certificateIsCA: Bool

        var description: String {
            "\(point); CRL by \(issuedByCRLSigner ? "CRL Signer" : "CA"); \(idp)\(indirect ? ", indirect" : "")"
                + "\(onlyContains == .any ? "" : ", \(onlyContains)"); \(certificateIsCA ? "CA" : "end entity") certificate"
        }
    }

    static let certificateIssuer = "CA", crlSigner = "CRL Signer"
    static let issuerAltNameURI = "http://ca.test/"

    /// Every valid cell: an IDP needs a field (5.2.5: not empty), indirectCRL and onlyContains… need an IDP.
    static let cells: [Cell] = CertificatePoint.all.flatMap { point in
        [false, true].flatMap { bySigner in
            IDP.all.flatMap { idp in
                [false, true].flatMap { indirect in
                    OnlyContains.allCases.flatMap { only in
                        [false, true].compactMap { isCA -> Cell? in
                            if case .none = idp, indirect || only != .any { return nil }
                            if case .unnamed = idp, !indirect && only == .any { return nil }
                            return Cell(point: point, issuedByCRLSigner: bySigner, idp: idp, indirect: indirect, onlyContains: only, certificateIsCA: isCA)
                        }
                    }
                }
            }
        }
    }

    // MARK: The model, from RFC 5280

    /// The point a name designates, resolved: a URI, or a directory name (a base DN and an optional RDN).
    enum Designation: Hashable {
        case uri(String)
        case directory(base: String, partition: String?)
    }

    /// Whether the CRL of `cell` covers the certificate, per RFC 5280 6.3.3 (b) for each point the
    /// certificate's status is sought through.
    static func expectedCoverage(_ cell: Cell) -> Bool {
        // The points (6.3.3): each DP of cRLDistributionPoints; then the default point — "a DP with both
        // the reasons and the cRLIssuer fields omitted and a distribution point name of the certificate
        // issuer" (its issuer field and issuerAltName) — for "CRLs not specified in a distribution point".
        // A certificate with cRLDistributionPoints has named its points: for it the default point names
        // none, and takes only CRLs whose IDP names no point.
        var points: [(names: Set<Designation>?, cRLIssuer: Bool)] = []
        switch cell.point {
        case .absent:
            break
        case .named(let form, let cRLIssuer):
            // 4.2.1.13: a relative name is appended to the cRLIssuer's DN if present, else to the certificate issuer's.
            let base = cRLIssuer ? crlSigner : certificateIssuer
            points.append(([form == .uri ? .uri("A") : .directory(base: base, partition: "A")], cRLIssuer))
        case .cRLIssuerOnly:
            points.append((nil, true))
        }
        if case .absent = cell.point {
            points.append(([.directory(base: certificateIssuer, partition: nil), .uri(issuerAltNameURI)], false))
        } else {
            points.append(([], false))
        }
        let crlIssuer = cell.issuedByCRLSigner ? crlSigner : certificateIssuer
        for point in points {
            // (b)(1): a DP with cRLIssuer: the CRL issuer must be that cRLIssuer and the CRL indirect;
            // otherwise the CRL issuer must be the certificate issuer.
            if point.cRLIssuer {
                guard crlIssuer == crlSigner, cell.indirect else { continue }
            } else {
                guard crlIssuer == certificateIssuer else { continue }
            }
            // (b)(2): only a CRL with an IDP is restricted; one without is complete for its issuer.
            if case .named(let form, let target) = cell.idp {
                // (b)(2)(i): one IDP name must match one of the DP's distributionPoint names, or, the DP
                // having none, one of its cRLIssuer names. 5.2.5: a relative IDP name is appended to the
                // CRL issuer's DN.
                let designated: Designation
                switch (form, target) {
                case (.uri, .issuerItself): designated = .uri(issuerAltNameURI)
                case (.uri, _): designated = .uri(target == .partitionA ? "A" : "B")
                case (_, .issuerItself): designated = .directory(base: crlIssuer, partition: nil)
                case (_, _): designated = .directory(base: crlIssuer, partition: target == .partitionA ? "A" : "B")
                }
                let against = point.names ?? [.directory(base: crlSigner, partition: nil)]
                guard against.contains(designated) else { continue }
            }
            // (b)(2)(ii): onlyContainsUserCerts: the certificate must not be a CA.
            if cell.onlyContains == .userCerts && cell.certificateIsCA { continue }
            // (b)(2)(iii): onlyContainsCACerts: the certificate must be a CA.
            if cell.onlyContains == .cACerts && !cell.certificateIsCA { continue }
            return true
        }
        return false
    }

    // MARK: The cells, encoded

    static func uri(_ designation: String) -> [UInt8] {
        F.uri(designation == "A" || designation == "B" ? "http://crl.test/partition-\(designation).crl" : designation)
    }

    static func directoryName(base: String, partition: String?) -> [UInt8] {
        F.directoryName(F.name([("2.5.4.10", "Test"), ("2.5.4.3", base)] + (partition.map { [("2.5.4.3", "Partition \($0)")] } ?? [])))
    }

    static func certificate(_ cell: Cell) -> Certificate {
        let cRLIssuer = [directoryName(base: crlSigner, partition: nil)]
        let points: [[UInt8]]?
        switch cell.point {
        case .absent: points = nil
        case .cRLIssuerOnly: points = [F.distributionPoint(nil, cRLIssuer: cRLIssuer)]
        case .named(let form, let hasCRLIssuer):
            let base = hasCRLIssuer ? crlSigner : certificateIssuer
            let name: F.PointName
            switch form {
            case .uri: name = .full([uri("A")])
            case .directoryName: name = .full([directoryName(base: base, partition: "A")])
            case .relative: name = .relative("Partition A")
            }
            points = [F.distributionPoint(name, cRLIssuer: hasCRLIssuer ? cRLIssuer : nil)]
        }
        return F.certificate(isCA: cell.certificateIsCA, distributionPoints: points, issuerAltName: [F.uri(issuerAltNameURI)])
    }

    static func crl(_ cell: Cell) throws -> CertificateRevocationList {
        let issuer = cell.issuedByCRLSigner ? crlSigner : certificateIssuer
        var crl = F.CRL()
        crl.issuer = F.name(issuer)
        crl.extensions = [F.crlNumber(1)]
        let name: F.PointName?
        switch cell.idp {
        case .none:
            return try crl.parse()
        case .unnamed:
            name = nil
        case .named(.uri, .issuerItself): name = .full([F.uri(issuerAltNameURI)])
        case .named(.uri, let target): name = .full([uri(target == .partitionA ? "A" : "B")])
        case .named(.directoryName, .issuerItself): name = .full([directoryName(base: issuer, partition: nil)])
        case .named(.directoryName, let target): name = .full([directoryName(base: issuer, partition: target == .partitionA ? "A" : "B")])
        case .named(.relative, let target): name = .relative(target == .partitionA ? "Partition A" : "Partition B")
        }
        crl.extensions! += [F.issuingDistributionPoint(name, onlyUser: cell.onlyContains == .userCerts, onlyCA: cell.onlyContains == .cACerts,
                                                       indirect: cell.indirect)]
        return try crl.parse()
    }

    @Test("Every cell of RFC 5280 6.3.3 (b): the CRL covers the certificate exactly when the RFC's rules say so")
    func everyCell() throws {
        var covered = 0
        for cell in Self.cells {
            let certificate = Self.certificate(cell)
            let crl = try Self.crl(cell)
            let decisions = StatusDistributionPoint.points(for: certificate).map { CRLScope.mismatch(crl, covering: certificate, through: $0) }
            let actual = decisions.contains { $0 == nil }
            #expect(actual == Self.expectedCoverage(cell), "\(cell): \(decisions)")
            if actual { covered += 1 }
        }
        // Both verdicts occur, over every combination.
        #expect(Self.cells.count == 1_728)
        #expect(covered > 0 && covered < Self.cells.count)
    }

    @Test("A partition's CRL never speaks for a certificate whose distribution point names another partition, whatever names it")
    func partitionsStayApart() throws {
        for cell in Self.cells {
            guard case .named = cell.point, case .named(_, let target) = cell.idp, target != .partitionA else { continue }
            let certificate = Self.certificate(cell)
            let crl = try Self.crl(cell)
            #expect(StatusDistributionPoint.points(for: certificate).allSatisfy { CRLScope.mismatch(crl, covering: certificate, through: $0) != nil },
                    "\(cell)")
        }
    }
}
