extension KeyRefusal: CustomStringConvertible {
    /// The refusal in words, as ``Diagnostics`` prints it: e.g. `RSA-1024 is below the minimum of 2048 bits`.
    public var description: String {
        switch self {
        case .rsaModulusTooSmall(let bits, let minimum): return "RSA-\(bits) is below the minimum of \(minimum) bits"
        case .rsaModulusNotMultipleOf8(let bits): return "RSA-\(bits) is not a multiple of 8 bits"
        case .curveNotAllowed(let curve): return "the curve \(curve.rawValue) is not allowed"
        case .curveNotAllowedInWebPKI(let curve):
            return "the curve \(curve.rawValue) is not allowed in the Web PKI (CA/B BR 6.1.5: P-256, P-384 and P-521 only)"
        case .eddsaNotAllowed: return "EdDSA keys are not allowed"
        case .dsaNotAllowed: return "DSA keys are not allowed"
        case .unsupported(let algorithm, let curve?):
            return "keys of algorithm \(algorithm) on the curve \(curve) are not supported "
                + "(CertPath verifies P-256, P-384, P-521, brainpoolP256r1, brainpoolP384r1 and brainpoolP512r1)"
        case .unsupported(let algorithm, nil): return "keys of algorithm \(algorithm) are not supported"
        }
    }
}

extension UnusableKey: CustomStringConvertible {
    /// Why the key cannot be used, in words: e.g. `the issuer's EC P-256 key cannot verify RSA-PKCS1-SHA256`.
    public var description: String {
        switch self {
        case .rsassaPSSRestriction(let restriction): return restriction.description
        case .invalid(let error): return error.description
        case .algorithmMismatch(let key, let algorithm): return "the issuer's \(key.summary) key cannot verify \(algorithm)"
        }
    }
}
