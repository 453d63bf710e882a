// RFC 6960 appendix A.1: an OCSP request over HTTP, by GET when it fits in a URL, else by POST.

enum OCSPOverHTTP {
    /// The longest GET URL sent (bytes); a longer one is a POST. RFC 6960 A.1 leaves the choice to the
    /// client; RFC 5019 5 makes GET the form for requests "less than 255 bytes", which keeps responses
    /// cacheable by HTTP proxies. Here the whole URL is measured, so that no URL CertPath sends exceeds it.
    static let maximumGETURLLength = 255

    /// The HTTP request for the DER OCSPRequest `request` to the responder at `responder` (RFC 6960
    /// A.1): GET `{url}/{url-encoding of base-64 encoding of the DER}` when that URL is at most
    /// ``maximumGETURLLength`` bytes, else POST of the DER with `Content-Type: application/ocsp-request`.
    static func request(responder: String, request der: [UInt8], maximumResponseBytes: Int) -> FetchRequest {
        let get = responder + (responder.hasSuffix("/") ? "" : "/") + percentEncoded(Base64.encode(der))
        if get.utf8.count <= maximumGETURLLength {
            return FetchRequest(url: get, method: .get, maximumResponseBytes: maximumResponseBytes)
        }
        return FetchRequest(url: responder, method: .post(body: der, contentType: "application/ocsp-request"),
                            maximumResponseBytes: maximumResponseBytes)
    }

    /// Base64 text made safe for a URL path segment (RFC 3986 2.1): `+`, `/` and `=` percent-encoded.
    static func percentEncoded(_ base64: String) -> String {
        var out = ""
        out.reserveCapacity(base64.utf8.count + 16)
        for character in base64 {
            switch character {
            case "+": out += "%2B"
            case "/": out += "%2F"
            case "=": out += "%3D"
            default: out.append(character)
            }
        }
        return out
    }
}
