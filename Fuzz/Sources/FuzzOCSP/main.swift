// FuzzOCSP: OCSPResponse(derEncoded:) either throws a DERError pointing inside the input, or yields a
// response whose own der re-parses to an identical response (status, responder, times, every single
// response, extensions, certificates, defects, description), which is DER all the way down, whose
// basic response is present exactly when the status is successful, whose kept ranges lie within the
// input, and whose accessors never trap. The same bytes are also read as an OCSPRequest: it throws a
// DERError pointing inside the input, or its CertIDs and nonce, encoded again, read back the same.
import CertPath
import FuzzSupport

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
}
