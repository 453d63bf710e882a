// FuzzCRL: CertificateRevocationList(derEncoded:) either throws a DERError pointing inside the input, or
// yields a CRL whose own der re-parses to an identical CRL (issuer, times, every entry, extensions,
// defects, description), which is DER all the way down, whose serial-number index agrees with a linear
// scan of the entries, and whose accessors never trap.
import CertPath
import FuzzSupport

runFuzzer { bytes in
    let crl: CertificateRevocationList
    do throws(DERError) {
        crl = try CertificateRevocationList(derEncoded: bytes)
    } catch {
        invariant(error.offset >= 0 && error.offset <= bytes.count,
                  "DERError offset \(error.offset) outside the input of \(bytes.count) bytes: \(error)")
        invariant(!error.expected.isEmpty, "DERError without an expectation: \(error)")
        return
    }
    let again: CertificateRevocationList
    do throws(DERError) {
        again = try CertificateRevocationList(derEncoded: crl.der)
    } catch {
        violation("a CRL's own der does not parse again: \(error)")
    }
    invariant(again.der == crl.der && again == crl && again.hashValue == crl.hashValue, "re-parse: der, == or hash differs")
    invariant(again.issuer.der == crl.issuer.der, "re-parse: issuer differs")
    invariant(again.version == crl.version && again.signatureAlgorithm == crl.signatureAlgorithm, "re-parse: version or algorithm differs")
    invariant(again.thisUpdate == crl.thisUpdate && again.nextUpdate == crl.nextUpdate, "re-parse: times differ")
    invariant(again.revokedCertificates == crl.revokedCertificates, "re-parse: entries differ")
    invariant(again.extensions == crl.extensions, "re-parse: extensions differ")
    invariant(again.defects == crl.defects, "re-parse: defects differ")
    invariant(again.crlNumber == crl.crlNumber && again.baseCRLNumber == crl.baseCRLNumber
              && again.issuingDistributionPoint == crl.issuingDistributionPoint, "re-parse: decoded extensions differ")
    invariant(again.description == crl.description, "re-parse: description differs")

    // DER all the way down, as for certificates.
    invariantDERAllTheWayDown(crl.der, "CertificateList")

    // The serial index agrees with a linear scan (checked for the first 64 distinct serials).
    var checked = 0
    var seen = Set<[UInt8]>()
    for entry in crl.revokedCertificates where checked < 64 && seen.insert(Array(entry.serialNumber)).inserted {
        checked += 1
        let indexed = crl.entries(serialNumber: entry.serialNumber)
        let scanned = crl.revokedCertificates.filter { $0.serialNumber.elementsEqual(entry.serialNumber) }
        invariant(indexed == scanned, "entries(serialNumber:) disagrees with a scan for \(hex(entry.serialNumber))")
    }
    invariant(crl.entries(serialNumber: [0xDE, 0xAD, 0xBE, 0xEF, 0x01][...]).allSatisfy { Array($0.serialNumber) == [0xDE, 0xAD, 0xBE, 0xEF, 0x01] },
              "entries(serialNumber:) returned another serial")

    // Accessors never trap.
    _ = crl.issuer.description
    _ = crl.issuer.normalizedKey
    _ = crl.tbsCertListBytes
    _ = crl.isDeltaCRL
    _ = crl.isUsable
    for defect in crl.defects { _ = defect.description }
    for name in crl.issuerAlternativeNames ?? [] { _ = name.description }
    for point in crl.freshestCRL ?? [] { for name in point.cRLIssuer ?? [] { _ = name.description } }
    for entry in crl.revokedCertificates.prefix(256) {
        _ = entry.effectiveReason.description
        for name in entry.certificateIssuer ?? [] { _ = name.description }
    }
    _ = crl.crlNumber?.description
}
