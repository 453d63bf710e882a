import CertPathDER

/// A hash function named by a signature algorithm.
public enum HashAlgorithm: String, Hashable, Sendable, CaseIterable {
    /// MD2 (RFC 1319), 16-byte digest: recognized in md2WithRSAEncryption (RFC 3279 2.2.1) so that a
    /// certificate using it parses and is reported; CertPath never computes it, so such a signature
    /// never verifies.
    case md2
    /// MD5 (RFC 1321), 16-byte digest: recognized in md5WithRSAEncryption, never computed, as ``md2``.
    case md5
    /// SHA-1 (FIPS 180-4), 20-byte digest: refused by the default ``AlgorithmProfile``, accepted by
    /// the permissive one (old PKIs, NIST PKITS).
    case sha1
    /// SHA-224 (FIPS 180-4), 28-byte digest: accepted by the permissive profile only.
    case sha224
    /// SHA-256 (FIPS 180-4), 32-byte digest: accepted by every profile.
    case sha256
    /// SHA-384 (FIPS 180-4), 48-byte digest: accepted by every profile.
    case sha384
    /// SHA-512 (FIPS 180-4), 64-byte digest: accepted by every profile.
    case sha512

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
/// (RFC 4055 5), ECDSA and EdDSA with absent parameters (RFC 5758 3.2, RFC 8410 3; ECDSA with NULL
/// parameters is read, a named tolerated encoding, ``EncodingLeniency/ecdsaSignatureNullParameters``), RSASSA-PSS with
/// explicit parameters whose mask generation is MGF1 over the same hash (SHA-1, SHA-224, SHA-256,
/// SHA-384 or SHA-512; SHA-1 is the DEFAULT when hashAlgorithm is absent) and whose trailer field is 1
/// (RFC 4055 3.1). Anything else recognisable is ``unsupported(_:)``; which algorithms are
/// *acceptable* is a policy decision, not a parsing one.
public enum SignatureAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// RSASSA-PKCS1-v1_5 with the given hash.
    case rsaPKCS1v15(HashAlgorithm)
    /// RSASSA-PSS with `hash` (SHA-1, SHA-224, SHA-256, SHA-384 or SHA-512), MGF1 with the same hash,
    /// and `saltLength` bytes of salt (RFC 4055 3.1); ``AlgorithmProfile`` decides whether the hash is accepted.
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
    package static func read(_ reader: inout DERReader, _ expected: String) throws(DERError) -> SignatureAlgorithm {
        var ecdsaNullParameters = false
        return try read(&reader, expected, ecdsaNullParameters: &ecdsaNullParameters)
    }

    /// ``read(_:_:)``, setting `ecdsaNullParameters` when an ECDSA algorithm carries NULL parameters:
    /// RFC 5758 3.2 says they MUST be absent, but Java 11 (up to at least 11.0.19) and older Mbed TLS
    /// write NULL, and OpenSSL, Go and pyca/cryptography read it (Chromium and rustls-webpki do not);
    /// a NULL carries nothing, so the algorithm read is the same. The tolerated encoding
    /// ``EncodingLeniency/ecdsaSignatureNullParameters`` (docs/RULES.md, the leniency list).
    package static func read(_ reader: inout DERReader, _ expected: String, ecdsaNullParameters: inout Bool) throws(DERError) -> SignatureAlgorithm {
        let start = reader.position
        let identifier = try reader.descend(.sequence, expected)
        let oidElement = try reader.readObjectIdentifier("\(expected) algorithm")
        let algorithm: SignatureAlgorithm
        if let key = reader.withUnsafeBytes(of: oidElement.value, { ShortOIDKey($0) }), let entry = recognized(key) {
            switch entry.parameters {
            case .nullOrAbsent:
                if !reader.isAtEnd { try reader.readNull("NULL parameters of \(expected)") }
                algorithm = entry.algorithm
            case .absent:
                if !reader.isAtEnd {
                    let position = reader.position
                    // ECDSA with NULL parameters: the one tolerated departure (see above).
                    guard case .ecdsa = entry.algorithm, (try? reader.readNull("NULL parameters")) != nil, reader.isAtEnd else {
                        throw DERError(.invalidValue, at: position,
                                       expected: "absent parameters for \(OID(validatedEncoding: reader.bytes[oidElement.value])) (\(expected))")
                    }
                    ecdsaNullParameters = true
                }
                algorithm = entry.algorithm
            case .pss:
                // RFC 4055 3.1: the parameters MUST be present in a signature's AlgorithmIdentifier.
                guard !reader.isAtEnd else {
                    throw DERError(.invalidValue, at: start, expected: "RSASSA-PSS-params in \(expected) (RFC 4055 3.1: present for a signature)")
                }
                algorithm = try readPSSParameters(&reader, oid: KnownOID.rsassaPSS, expected)
            }
        } else {
            // Unknown algorithm: its parameters (ANY, one element at most) are left undecoded.
            if !reader.isAtEnd { _ = try reader.readAny("parameters of \(expected)") }
            algorithm = .unsupported(OID(validatedEncoding: reader.bytes[oidElement.value]))
        }
        try reader.ascend(identifier, expected)
        return algorithm
    }

    /// What an algorithm allows as parameters: NULL or nothing (PKCS #1), nothing (ECDSA, EdDSA, DSA),
    /// RSASSA-PSS-params.
    package enum ParameterRule { case nullOrAbsent, absent, pss }

    /// Recognised signature algorithm identifiers and the parameter rule of each.
    package static let table: [(oid: OID, algorithm: SignatureAlgorithm, parameters: ParameterRule)] = [
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

    /// The algorithm and parameter rule of ``table``'s entry whose OID has the contents octets of
    /// `key`, by a switch over the keys' integers (no table to load; generated from ``table``, and
    /// a test checks that they agree).
    package static func recognized(_ key: ShortOIDKey) -> (algorithm: SignatureAlgorithm, parameters: ParameterRule)? {
        switch (key.count, key.low, key.high) {
        case (9, 0x01010DF78648862A, 0xB): return (.rsaPKCS1v15(.sha256), .nullOrAbsent)  // 1.2.840.113549.1.1.11 sha256WithRSAEncryption
        case (8, 0x0203043DCE48862A, 0x0): return (.ecdsa(.sha256), .absent)  // 1.2.840.10045.4.3.2 ecdsa-with-SHA256
        case (8, 0x0303043DCE48862A, 0x0): return (.ecdsa(.sha384), .absent)  // 1.2.840.10045.4.3.3 ecdsa-with-SHA384
        case (9, 0x01010DF78648862A, 0xC): return (.rsaPKCS1v15(.sha384), .nullOrAbsent)  // 1.2.840.113549.1.1.12 sha384WithRSAEncryption
        case (9, 0x01010DF78648862A, 0xD): return (.rsaPKCS1v15(.sha512), .nullOrAbsent)  // 1.2.840.113549.1.1.13 sha512WithRSAEncryption
        case (8, 0x0403043DCE48862A, 0x0): return (.ecdsa(.sha512), .absent)  // 1.2.840.10045.4.3.4 ecdsa-with-SHA512
        case (3, 0x000000000070652B, 0x0): return (.ed25519, .absent)  // 1.3.101.112 id-Ed25519
        case (3, 0x000000000071652B, 0x0): return (.ed448, .absent)  // 1.3.101.113 id-Ed448
        case (9, 0x01010DF78648862A, 0xA): return (.unsupported(KnownOID.rsassaPSS), .pss)  // 1.2.840.113549.1.1.10 id-RSASSA-PSS
        case (9, 0x01010DF78648862A, 0x5): return (.rsaPKCS1v15(.sha1), .nullOrAbsent)  // 1.2.840.113549.1.1.5 sha1WithRSAEncryption
        case (5, 0x0000001D02030E2B, 0x0): return (.rsaPKCS1v15(.sha1), .nullOrAbsent)  // 1.3.14.3.2.29 sha-1WithRSASignature (OIW)
        case (9, 0x01010DF78648862A, 0xE): return (.rsaPKCS1v15(.sha224), .nullOrAbsent)  // 1.2.840.113549.1.1.14 sha224WithRSAEncryption
        case (8, 0x0103043DCE48862A, 0x0): return (.ecdsa(.sha224), .absent)  // 1.2.840.10045.4.3.1 ecdsa-with-SHA224
        case (7, 0x0001043DCE48862A, 0x0): return (.ecdsa(.sha1), .absent)  // 1.2.840.10045.4.1 ecdsa-with-SHA1
        case (9, 0x01010DF78648862A, 0x4): return (.rsaPKCS1v15(.md5), .nullOrAbsent)  // 1.2.840.113549.1.1.4 md5WithRSAEncryption
        case (9, 0x01010DF78648862A, 0x2): return (.rsaPKCS1v15(.md2), .nullOrAbsent)  // 1.2.840.113549.1.1.2 md2WithRSAEncryption
        case (7, 0x00030438CE48862A, 0x0): return (.dsa(.sha1), .absent)  // 1.2.840.10040.4.3 id-dsa-with-sha1
        case (9, 0x0304036501488660, 0x2): return (.dsa(.sha256), .absent)  // 2.16.840.1.101.3.4.3.2 id-dsa-with-sha256
        default: return nil
        }
    }

    /// RSASSA-PSS-params (RFC 4055 3.1), which DER encodes without the DEFAULT (SHA-1) values.
    package static func readPSSParameters(_ r: inout DERReader, oid: OID, _ expected: @autoclosure () -> String) throws(DERError) -> SignatureAlgorithm {
        try r.sequence("RSASSA-PSS-params of \(expected())") { (p: inout DERReader) throws(DERError) -> SignatureAlgorithm in
            var supported = true
            var hash: HashAlgorithm = .sha1
            let hashStart = p.position  // where an explicit default is reported: the element itself
            if let h = try p.nestedOptional(.contextSpecific(0, constructed: true), "hashAlgorithm", { (e: inout DERReader) throws(DERError) in
                try readHashAlgorithm(&e, "hashAlgorithm of RSASSA-PSS-params")
            }) {
                if let h {
                    if h == .sha1 { throw DERError(.explicitDefault, at: hashStart, expected: "hashAlgorithm omitted when SHA-1") }
                    hash = h
                } else {
                    supported = false
                }
            }
            var mgfHash: HashAlgorithm? = .sha1
            let maskStart = p.position
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
                if m == .sha1 { throw DERError(.explicitDefault, at: maskStart, expected: "maskGenAlgorithm omitted when MGF1-SHA-1") }
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
            // RFC 4055 2.1 and 3.1 name SHA-1 (the DEFAULT), SHA-224, SHA-256, SHA-384 and SHA-512 for
            // RSASSA-PSS; whether a hash is acceptable is the algorithm profile's decision (SHA-1 and
            // SHA-224 only where the profile allows them, as for PKCS #1 v1.5), not the parser's.
            guard supported, let mgfHash, hash == mgfHash, hash != .md2, hash != .md5 else { return .unsupported(oid) }
            return .rsaPSS(hash: hash, saltLength: saltLength)
        }
    }

    /// Reads a hash AlgorithmIdentifier (parameters NULL or absent, RFC 4055 2.1).
    /// - Returns: the hash, or `nil` for a hash CertPath does not know (the caller reports the algorithm unsupported).
    package static func readHashAlgorithm(_ r: inout DERReader, _ expected: @autoclosure () -> String) throws(DERError) -> HashAlgorithm? {
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
