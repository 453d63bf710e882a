import CertPath
@_spi(Fuzzing) import CertPathDER  // DERNode: parse, encoded(), validate(_:_:)

/// What must hold for every certificate `Certificate(derEncoded:)` accepts (FuzzCertificate, FuzzPEM).
public enum CertificateInvariants {
    /// Parses `bytes`: a rejection must be a ``DERError`` pointing inside the input; an acceptance must
    /// satisfy ``check(_:)``. Returns the certificate when accepted.
    @discardableResult
    public static func parse(_ bytes: [UInt8]) -> Certificate? {
        do throws(DERError) {
            let certificate = try Certificate(derEncoded: bytes)
            check(certificate)
            return certificate
        } catch {
            invariant(error.offset >= 0 && error.offset <= bytes.count,
                      "DERError offset \(error.offset) outside the input of \(bytes.count) bytes: \(error)")
            invariant(!error.expected.isEmpty, "DERError without an expectation: \(error)")
            return nil
        }
    }

    /// Re-parses the certificate from its own `der` and compares field by field; runs every accessor
    /// (descriptions, names, extensions, normalized keys, public key loading, the self-signature check).
    public static func check(_ certificate: Certificate) {
        let again: Certificate
        do throws(DERError) {
            again = try Certificate(derEncoded: certificate.der)
        } catch {
            violation("a certificate's own der does not parse again: \(error)")
        }
        invariant(again.der == certificate.der, "re-parse: der differs")
        invariant(again.subject.der == certificate.subject.der, "re-parse: subject DER differs")
        invariant(again.issuer.der == certificate.issuer.der, "re-parse: issuer DER differs")
        invariant(again.extensions.count == certificate.extensions.count, "re-parse: extension count differs")
        invariant(again.extensions == certificate.extensions, "re-parse: extensions differ")
        invariant(again.subjectPublicKeyInfo.der == certificate.subjectPublicKeyInfo.der, "re-parse: SPKI DER differs")
        invariant(again.subjectPublicKeyInfo.key == certificate.subjectPublicKeyInfo.key, "re-parse: decoded key differs")
        invariant(again.serialNumber == certificate.serialNumber, "re-parse: serial differs")
        invariant(again.signatureAlgorithm == certificate.signatureAlgorithm, "re-parse: signature algorithm differs")
        invariant(again.notBefore == certificate.notBefore && again.notAfter == certificate.notAfter, "re-parse: validity differs")
        invariant(again.description == certificate.description, "re-parse: description differs")
        invariant(again.subject.description == certificate.subject.description, "re-parse: subject description differs")
        invariant(again.basicConstraints == certificate.basicConstraints && again.keyUsage == certificate.keyUsage
                  && again.extendedKeyUsage == certificate.extendedKeyUsage
                  && again.subjectAlternativeNames == certificate.subjectAlternativeNames
                  && again.nameConstraints == certificate.nameConstraints
                  && again.certificatePolicies == certificate.certificatePolicies,
                  "re-parse: decoded extensions differ")
        invariant(again == certificate && again.hashValue == certificate.hashValue, "re-parse: == or hash differs")

        // Views point into der.
        invariant(certificate.tbsCertificateRange.lowerBound >= 0 && certificate.tbsCertificateRange.upperBound <= certificate.der.count,
                  "TBS range outside der")
        for ext in certificate.extensions {
            invariant(ext.value.startIndex >= 0 && ext.value.endIndex <= certificate.der.count, "extension value outside der")
        }

        // The whole certificate is DER all the way down (the certificate parser enforces DER everywhere it
        // reads, ANY values included; DERReader.validateTree checks every level but string alphabets), and
        // when DERNode also accepts it (it checks string alphabets too), the tree re-encodes to the same bytes.
        invariantDERAllTheWayDown(certificate.der, "Certificate")
        if let tree = try? DERNode.parse(certificate.der) {
            invariant(tree.encoded() == certificate.der, "DERNode of a certificate does not re-encode to its der")
        }

        // Accessors never trap.
        _ = certificate.description
        _ = certificate.serialNumberHex
        _ = certificate.tbsCertificateBytes
        for name in [certificate.subject, certificate.issuer] {
            _ = name.description
            _ = name.isEmpty
            let rdns = name.relativeDistinguishedNames
            invariant(rdns.allSatisfy { !$0.attributes.isEmpty }, "an empty RDN was accepted")
            for attribute in name.attributes { _ = attribute.stringValue }
            _ = name.values(of: KnownOID.commonName)
            let key = name.normalizedKey
            invariant(key == name.normalizedKey, "normalizedKey is not deterministic")
            invariant(name.isEquivalent(to: name), "a name is not equivalent to itself")
        }
        invariant(certificate.isSelfIssued == (certificate.issuer.normalizedKey == certificate.subject.normalizedKey
                                                 || certificate.issuer.der == certificate.subject.der),
                  "isSelfIssued disagrees with the normalized keys")
        _ = certificate.isCertificateAuthority
        _ = certificate.unrecognizedCriticalExtensions
        for known in KnownExtension.allCases { _ = certificate.extension(known.oid) }
        for name in (certificate.subjectAlternativeNames ?? []) + (certificate.issuerAlternativeNames ?? []) { _ = name.description }
        if let constraints = certificate.nameConstraints {
            for subtree in (constraints.permittedSubtrees ?? []) + (constraints.excludedSubtrees ?? []) { _ = subtree.base.description }
        }
        for point in certificate.cRLDistributionPoints ?? [] { for name in point.cRLIssuer ?? [] { _ = name.description } }
        for access in certificate.authorityInformationAccess ?? [] { _ = access.accessLocation.description }
        for name in certificate.authorityKeyIdentifier?.authorityCertIssuer ?? [] { _ = name.description }
        _ = certificate.keyUsage?.description
        _ = certificate.extendedKeyUsage?.description
        _ = certificate.signatureAlgorithm.description
        _ = certificate.subjectPublicKeyInfo.key.summary
        _ = certificate.subjectPublicKeyInfo.key.bitLength

        // Loading the key and checking the self-signature (crypto on hostile keys and signatures) never traps.
        do throws(PublicKeyError) {
            let key = try PublicKey(certificate.subjectPublicKeyInfo)
            _ = key.description
            _ = key.verify(signature: certificate.signature, message: certificate.tbsCertificateBytes,
                           algorithm: certificate.signatureAlgorithm)
        } catch {
            _ = error.description
        }
    }
}

/// Checks that `der`, an object a parser accepted, is DER all the way down (`DERNode.validate`:
/// `DERReader.validateTree` over its one top-level element, nothing after it); `what` names the
/// object in the violation.
public func invariantDERAllTheWayDown(_ der: [UInt8], _ what: String) {
    do throws(DERError) {
        try DERNode.validate(der, what)
    } catch {
        violation("an accepted \(what) is not DER all the way down: \(error)")
    }
}
