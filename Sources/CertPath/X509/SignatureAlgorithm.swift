/// A hash function named by a signature algorithm.
public enum HashAlgorithm: String, Hashable, Sendable, CaseIterable {
    case md2, md5, sha1, sha224, sha256, sha384, sha512

    /// Digest length in bytes.
    public var digestLength: Int {
        switch self {
        case .md2, .md5: return 16
        case .sha1: return 20
        case .sha224: return 28
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }
}

/// The algorithm of a certificate's (or CRL's) signature, decoded from its AlgorithmIdentifier
/// (RFC 5280 4.1.1.2; RFC 3279, RFC 4055, RFC 5758, RFC 8410).
///
/// Decoding follows the parameter rules of those RFCs: PKCS #1 v1.5 with NULL or absent parameters
/// (RFC 4055 5), ECDSA and EdDSA with absent parameters (RFC 5758 3.2, RFC 8410 3), RSASSA-PSS with
/// explicit parameters whose mask generation is MGF1 over the same hash and whose trailer field is 1
/// (RFC 4055 3.1). Anything else recognisable is ``unsupported(_:)``; which algorithms are
/// *acceptable* is a policy decision, not a parsing one.
public enum SignatureAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// RSASSA-PKCS1-v1_5 with the given hash.
    case rsaPKCS1v15(HashAlgorithm)
    /// RSASSA-PSS with `hash`, MGF1 with the same hash, and `saltLength` bytes of salt.
    case rsaPSS(hash: HashAlgorithm, saltLength: Int)
    /// ECDSA with the given hash; the curve comes from the signer's key.
    case ecdsa(HashAlgorithm)
    /// Ed25519 (RFC 8032 PureEdDSA).
    case ed25519
    /// Ed448 (RFC 8032 PureEdDSA).
    case ed448
    /// DSA with the given hash (RFC 3279 2.2.2, RFC 5758 3.1); kept for PKITS and old PKIs, refused by TLS profiles.
    case dsa(HashAlgorithm)
    /// An algorithm CertPath does not verify (DSA, GOST, RSASSA-PSS with other parameters, …).
    case unsupported(OID)

    public var description: String {
        switch self {
        case .rsaPKCS1v15(let hash): return "\(hash.rawValue)WithRSAEncryption"
        case .rsaPSS(let hash, let salt): return "rsassaPss(\(hash.rawValue), mgf1-\(hash.rawValue), salt \(salt))"
        case .ecdsa(let hash): return "ecdsa-with-\(hash.rawValue.uppercased())"
        case .ed25519: return "Ed25519"
        case .ed448: return "Ed448"
        case .dsa(let hash): return "dsa-with-\(hash.rawValue.uppercased())"
        case .unsupported(let oid): return "unsupported algorithm \(oid)"
        }
    }

    /// The hash the algorithm signs with (`nil` for EdDSA, whose hash is internal, and unsupported algorithms).
    public var hash: HashAlgorithm? {
        switch self {
        case .rsaPKCS1v15(let hash), .ecdsa(let hash), .rsaPSS(let hash, _), .dsa(let hash): return hash
        case .ed25519, .ed448, .unsupported: return nil
        }
    }
}

extension SignatureAlgorithm {
    /// Reads an AlgorithmIdentifier naming a signature algorithm.
    ///
    /// - Throws: ``DERError`` for malformed DER or parameters that break the rules of the algorithm's RFC
    ///   (`.invalidValue`), for example ECDSA with parameters or PKCS #1 with non-NULL parameters.
    ///
    /// `expected` names the field for error messages (not a closure, so that the function is not
    /// copied for each caller; callers pass literals).
    static func read(_ reader: inout DERReader, _ expected: String) throws(DERError) -> SignatureAlgorithm {
        let identifier = try reader.descend(.sequence, expected)
        let oidElement = try reader.readObjectIdentifier("\(expected) algorithm")
        let algorithm: SignatureAlgorithm
        if let index = reader.withUnsafeBytes(of: oidElement.value, { tableIndex(of: $0) }) {
            switch parameterRules[index] {
            case .nullOrAbsent:
                if !reader.isAtEnd { try reader.readNull("NULL parameters of \(expected)") }
                algorithm = algorithms[index]
            case .absent:
                if !reader.isAtEnd {
                    throw DERError(.invalidValue, at: reader.position, expected: "absent parameters for \(table[index].oid) (\(expected))")
                }
                algorithm = algorithms[index]
            case .pss:
                algorithm = try readPSSParameters(&reader, oid: table[index].oid, expected)
            }
        } else {
            // Unknown algorithm: its parameters (ANY, one element at most) are left undecoded.
            if !reader.isAtEnd { _ = try reader.readAny("parameters of \(expected)") }
            algorithm = .unsupported(OID(validatedEncoding: reader.bytes[oidElement.value]))
        }
        try reader.ascend(identifier, expected)
        return algorithm
    }

    private enum ParameterRule { case nullOrAbsent, absent, pss }

    /// Recognised signature algorithm identifiers and the parameter rule of each.
    private static let table: [(oid: OID, algorithm: SignatureAlgorithm, parameters: ParameterRule)] = [
        (KnownOID.sha256WithRSAEncryption, .rsaPKCS1v15(.sha256), .nullOrAbsent),
        (KnownOID.ecdsaWithSHA256, .ecdsa(.sha256), .absent),
        (KnownOID.ecdsaWithSHA384, .ecdsa(.sha384), .absent),
        (KnownOID.sha384WithRSAEncryption, .rsaPKCS1v15(.sha384), .nullOrAbsent),
        (KnownOID.sha512WithRSAEncryption, .rsaPKCS1v15(.sha512), .nullOrAbsent),
        (KnownOID.ecdsaWithSHA512, .ecdsa(.sha512), .absent),
        (KnownOID.ed25519, .ed25519, .absent),
        (KnownOID.ed448, .ed448, .absent),
        (KnownOID.rsassaPSS, .unsupported(KnownOID.rsassaPSS), .pss),
        (KnownOID.sha1WithRSAEncryption, .rsaPKCS1v15(.sha1), .nullOrAbsent),
        (KnownOID.sha1WithRSASignatureOIW, .rsaPKCS1v15(.sha1), .nullOrAbsent),
        (KnownOID.sha224WithRSAEncryption, .rsaPKCS1v15(.sha224), .nullOrAbsent),
        (KnownOID.ecdsaWithSHA224, .ecdsa(.sha224), .absent),
        (KnownOID.ecdsaWithSHA1, .ecdsa(.sha1), .absent),
        (KnownOID.md5WithRSAEncryption, .rsaPKCS1v15(.md5), .nullOrAbsent),
        (KnownOID.md2WithRSAEncryption, .rsaPKCS1v15(.md2), .nullOrAbsent),
        (KnownOID.dsaWithSHA1, .dsa(.sha1), .absent),
        (KnownOID.dsaWithSHA256, .dsa(.sha256), .absent),
    ]

    /// The index in ``table`` of the algorithm whose OID has these contents octets, found among
    /// trivially copyable keys (reading the table's OIDs would retain their storage).
    private static func tableIndex(of encoded: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let key = ShortOIDKey(encoded) else { return nil }
        return keys.firstIndex(of: key)
    }

    /// The keys of ``table``'s OIDs, in its order (every one is short).
    private static let keys: [ShortOIDKey] = table.map { entry in entry.oid.encoded.withUnsafeBufferPointer { ShortOIDKey($0)! } }
    /// ``table``'s algorithms, in its order.
    private static let algorithms: [SignatureAlgorithm] = table.map(\.algorithm)
    /// ``table``'s parameter rules, in its order.
    private static let parameterRules: [ParameterRule] = table.map(\.parameters)

    /// RSASSA-PSS-params (RFC 4055 3.1), which DER encodes without the DEFAULT (SHA-1) values.
    static func readPSSParameters(_ r: inout DERReader, oid: OID, _ expected: @autoclosure () -> String) throws(DERError) -> SignatureAlgorithm {
        try r.sequence("RSASSA-PSS-params of \(expected())") { (p: inout DERReader) throws(DERError) -> SignatureAlgorithm in
            var supported = true
            var hash: HashAlgorithm = .sha1
            if let h = try p.nestedOptional(.contextSpecific(0, constructed: true), "hashAlgorithm", { (e: inout DERReader) throws(DERError) in
                try readHashAlgorithm(&e, "hashAlgorithm of RSASSA-PSS-params")
            }) {
                if let h {
                    if h == .sha1 { throw DERError(.explicitDefault, at: p.position, expected: "hashAlgorithm omitted when SHA-1") }
                    hash = h
                } else {
                    supported = false
                }
            }
            var mgfHash: HashAlgorithm? = .sha1
            if let m = try p.nestedOptional(.contextSpecific(1, constructed: true), "maskGenAlgorithm", { (e: inout DERReader) throws(DERError) -> HashAlgorithm? in
                try e.sequence("MaskGenAlgorithm") { (g: inout DERReader) throws(DERError) -> HashAlgorithm? in
                    let mgf = try g.readObjectIdentifier("maskGenAlgorithm algorithm")
                    guard g.contentsEqual(mgf, KnownOID.mgf1.encoded) else {
                        _ = try g.readAny("maskGenAlgorithm parameters")
                        return nil
                    }
                    return try readHashAlgorithm(&g, "MGF1 hash")
                }
            }) {
                if m == nil { supported = false }
                if m == .sha1 { throw DERError(.explicitDefault, at: p.position, expected: "maskGenAlgorithm omitted when MGF1-SHA-1") }
                mgfHash = m
            }
            var saltLength = 20
            if let element = try p.readOptional(.contextSpecific(2, constructed: true), "saltLength") {
                var inner = try p.contents(of: element, "saltLength")
                let value = try inner.readUnsigned("saltLength", as: UInt16.self)
                try inner.finish("saltLength")
                if value == 20 { throw DERError(.explicitDefault, at: element.offset, expected: "saltLength omitted when 20") }
                saltLength = Int(value)
            }
            if let element = try p.readOptional(.contextSpecific(3, constructed: true), "trailerField") {
                var inner = try p.contents(of: element, "trailerField")
                let value = try inner.readUnsigned("trailerField", as: UInt8.self)
                try inner.finish("trailerField")
                throw DERError(value == 1 ? .explicitDefault : .invalidValue, at: element.offset, expected: "trailerField omitted (trailerFieldBC)")
            }
            guard supported, let mgfHash, hash == mgfHash, [.sha256, .sha384, .sha512].contains(hash) else { return .unsupported(oid) }
            return .rsaPSS(hash: hash, saltLength: saltLength)
        }
    }

    /// Reads a hash AlgorithmIdentifier (parameters NULL or absent, RFC 4055 2.1).
    /// - Returns: the hash, or `nil` for a hash CertPath does not know (the caller reports the algorithm unsupported).
    static func readHashAlgorithm(_ r: inout DERReader, _ expected: @autoclosure () -> String) throws(DERError) -> HashAlgorithm? {
        try r.sequence(expected()) { (h: inout DERReader) throws(DERError) -> HashAlgorithm? in
            let element = try h.readObjectIdentifier(expected())
            if !h.isAtEnd { try h.readNull("NULL parameters of \(expected())") }
            for (oid, hash) in hashTable where h.contentsEqual(element, oid.encoded) { return hash }
            return nil
        }
    }

    private static let hashTable: [(OID, HashAlgorithm)] = [
        (KnownOID.sha256, .sha256), (KnownOID.sha384, .sha384), (KnownOID.sha512, .sha512),
        (KnownOID.sha1, .sha1), (KnownOID.sha224, .sha224),
    ]
}
