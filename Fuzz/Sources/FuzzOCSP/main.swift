// FuzzOCSP: OCSPResponse(derEncoded:) either throws a DERError pointing inside the input, or yields a
// response whose own der re-parses to an identical response (status, responder, times, every single
// response, extensions, certificates, defects, description), which is DER all the way down, whose
// basic response is present exactly when the status is successful, whose kept ranges lie within the
// input, and whose accessors never trap. The same bytes are also read as an OCSPRequest: it throws a
// DERError pointing inside the input, or its CertIDs, encoded again, read back the same.
//
// A successful response is then given as revocation evidence for the leaves of TestVectors/ocsp
// (generate.sh) it names, under hard fail: a leaf is trusted only when a SingleResponse names its
// serial as good, and revoked only when one names it revoked (a response never speaks for a
// certificate it does not name; a forged status never comes from nowhere). The seeds in
// TestVectors/fuzz/ocsp are that PKI's responses, so mutations reach the signature and responder checks.
import CertPath
import FuzzSupport

/// The test PKI of TestVectors/ocsp: its CA, delegated responder and leaves (nil when not found).
let testPKI: (ca: Certificate, intermediates: [Certificate], leaves: [Certificate])? = {
    var root = #filePath
    for _ in 0..<4 { root = String(root[..<(root.lastIndex(of: "/") ?? root.startIndex)]) }
    func load(_ name: String) -> Certificate? {
        readFile("\(root)/TestVectors/ocsp/\(name)").flatMap { try? PEM.readCertificates($0).certificates.first }
    }
    guard let ca = load("ca.pem"), let responder = load("responder.pem") else {
        writeError("FuzzOCSP: TestVectors/ocsp not found under \(root): evaluation invariants not checked\n")
        return nil
    }
    return (ca, [responder], ["leaf-good.pem", "leaf-revoked.pem", "leaf-unknown.pem"].compactMap(load))
}()

runFuzzer { bytes in
    do throws(DERError) {
        let request = try OCSPRequest(derEncoded: bytes)
        invariant(!request.requests.isEmpty, "a request without Requests parsed")
        let certIDs = request.requests.prefix(256).map(\.certID)
        let again = try OCSPRequest(derEncoded: OCSPRequest.encode(certIDs: certIDs, nonce: nil))
        invariant(again.requests.map(\.certID) == certIDs, "encode(certIDs:) does not read back the same CertIDs")
        _ = request.description
    } catch {
        invariant(error.offset >= 0 && error.offset <= bytes.count,
                  "OCSPRequest DERError offset \(error.offset) outside the input of \(bytes.count) bytes: \(error)")
    }
    let response: OCSPResponse
    do throws(DERError) {
        response = try OCSPResponse(derEncoded: bytes)
    } catch {
        invariant(error.offset >= 0 && error.offset <= bytes.count,
                  "DERError offset \(error.offset) outside the input of \(bytes.count) bytes: \(error)")
        invariant(!error.expected.isEmpty, "DERError without an expectation: \(error)")
        return
    }
    let again: OCSPResponse
    do throws(DERError) {
        again = try OCSPResponse(derEncoded: response.der)
    } catch {
        violation("a response's own der does not parse again: \(error)")
    }
    invariant(again.der == response.der && again == response && again.hashValue == response.hashValue, "re-parse: der, == or hash differs")
    invariant(again.responseStatus == response.responseStatus, "re-parse: status differs")
    invariant(again.basicResponse == response.basicResponse, "re-parse: basic response differs")
    invariant(again.description == response.description, "re-parse: description differs")
    invariant((response.basicResponse != nil) == (response.responseStatus == .successful),
              "basic response present \(response.basicResponse != nil) with status \(response.responseStatus)")

    // DER all the way down, as for certificates and CRLs.
    invariantDERAllTheWayDown(response.der, "OCSPResponse")

    guard let basic = response.basicResponse else { return }
    let whole = 0..<bytes.count
    invariant(whole.contains(basic.tbsResponseDataRange.lowerBound) && basic.tbsResponseDataRange.upperBound <= bytes.count,
              "tbsResponseData range \(basic.tbsResponseDataRange) outside the input")
    invariant(!basic.responses.isEmpty, "a basic response without SingleResponses parsed")
    for single in basic.responses.prefix(256) {
        _ = single.description
        _ = single.certID.hashAlgorithm.hashAlgorithm
        if let length = single.certID.hashAlgorithm.hashAlgorithm?.digestLength {
            invariant(single.certID.issuerNameHash.count == length && single.certID.issuerKeyHash.count == length,
                      "CertID hash lengths differ from \(single.certID.hashAlgorithm)")
        }
        if case .revoked(let info) = single.certStatus { _ = info.revocationReason?.description }
        for defect in single.defects { _ = defect.description }
    }
    for defect in basic.defects { _ = defect.description }
    for certificate in basic.certificates.prefix(16) {
        _ = certificate.description
        _ = certificate.subject.description
    }
    _ = basic.responderID.description
    _ = basic.nonce

    // As evidence, for each test leaf the response names.
    guard let pki = testPKI else { return }
    for leaf in pki.leaves {
        let named = basic.responses.filter { $0.certID.serialNumber.elementsEqual(leaf.serialNumber) }
        guard let first = named.first else { continue }
        let evaluation = TrustEvaluation(leaf: leaf, intermediates: pki.intermediates, trustStore: TrustStore(anchors: [pki.ca]),
                                         policy: ValidationPolicy(undeterminedRevocationStatus: .reject),
                                         revocationEvidence: RevocationEvidence(ocspResponses: [response]),
                                         validationTime: UnixTime(secondsSinceEpoch: first.thisUpdate.secondsSinceEpoch + 60))
        switch evaluation.evaluate() {
        case .trusted:
            invariant(named.contains { $0.certStatus == .good }, "trusted without a SingleResponse saying good for serial \(leaf.serialNumberHex)")
        case .untrusted(let report):
            _ = report.summary
            if case .revoked = report.primaryFailure {
                invariant(named.contains { if case .revoked = $0.certStatus { return true }; return false },
                          "revoked without a SingleResponse saying revoked for serial \(leaf.serialNumberHex)")
            }
        }
    }
}
