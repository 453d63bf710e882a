/// The checks of a ``ValidationPurpose`` on a certification path (DESIGN.md step 4):
///
/// - **Extended key usage chaining.** The leaf's extKeyUsage, when present, must include the purpose
///   (`serverAuth` or `clientAuth`); every intermediate that carries extKeyUsage must include it too,
///   as browsers require; so must the anchor when anchor constraints are enforced. A certificate
///   without extKeyUsage is unrestricted (RFC 5280 4.2.1.12). Documented choice: anyExtendedKeyUsage
///   satisfies any purpose, in the leaf and in CAs, as in Go and Chromium for CAs. With
///   ``ValidationPolicy/extendedKeyUsageReading`` a strict reading applies (the strict rows of the
///   rules table, ``ProfileRule/extendedKeyUsageMissing`` and the next four).
/// - **Names.** Server: a subjectAltName dNSName or iPAddress must match the reference identifier
///   (RFC 6125 6.4; see ``PresentedIdentifierMatching``); the subject commonName is consulted only
///   when there is no subjectAltName and the policy opts in. Client: every expected name must be
///   among the subjectAltNames. Under the Web PKI profile, a server certificate's commonName must be
///   one of its subjectAltName values (CA/B BR 7.1.4.3).
/// - **TLS key usage.** A leaf keyUsage, when present, must allow a TLS use of its key:
///   digitalSignature (signing the handshake, RFC 8446 4.4.2.2; TLS 1.2 ECDHE and DHE suites),
///   keyEncipherment for an RSA server key (TLS 1.2 RSA key transport, RFC 5246 7.4.2), or
///   keyAgreement for an EC key (TLS 1.2 static ECDH, RFC 4492 section 2, server and client);
///   on by default. (Chromium leaves the target's keyUsage to the caller; Go and pyca do not check it.)
enum PurposeChecks {
    /// The purpose failures of `path` (end entity first) under `anchor`; `leafIsTrustedDirectly` for a
    /// leaf the trust store trusts by itself (a `.leaf` or `.anchorOrLeaf` entry, a pin).
    static func failures(path: [Certificate], anchor: Certificate?, policy: ValidationPolicy, profile: CertificateProfile,
                         leafIsTrustedDirectly: Bool = false) -> [ValidationFailure] {
        guard let leaf = path.first else { return [] }
        var failures: [ValidationFailure] = []
        if let usage = leaf.keyUsage, !usage.isSuperset(of: policy.requiredLeafKeyUsage) {
            failures.append(.keyUsageForbids(leaf, required: policy.requiredLeafKeyUsage, present: usage))
        }
        switch policy.purpose {
        case .any:
            break
        case .serverAuthentication(let reference):
            checkExtendedKeyUsage(KnownOID.serverAuth, path: path, anchor: anchor, policy: policy, profile: profile,
                                  leafIsTrustedDirectly: leafIsTrustedDirectly, &failures)
            if let reference { checkReference(reference, leaf: leaf, policy: policy, &failures) }
            if profile == .webPKI && !commonNamesAreSubjectAltNames(leaf) {
                failures.append(.profileViolation(leaf, .commonNameNotInSubjectAltName))
            }
            if policy.checkTLSKeyUsage, let usage = leaf.keyUsage {
                var allowed: KeyUsage = .digitalSignature
                if leaf.hasRSAKey { allowed.insert(.keyEncipherment) }
                if leaf.hasECKey { allowed.insert(.keyAgreement) }
                if usage.isDisjoint(with: allowed) { failures.append(.keyUsageForbids(leaf, required: allowed, present: usage)) }
            }
        case .extendedKeyUsage(let purposes, let expectedNames):
            for purpose in purposes {
                checkExtendedKeyUsage(purpose, path: path, anchor: anchor, policy: policy, profile: profile,
                                      leafIsTrustedDirectly: leafIsTrustedDirectly, &failures)
            }
            for name in expectedNames where !Self.carries(leaf, name) {
                failures.append(.nameMismatch(leaf, expected: name, presented: PresentedIdentifier.of(leaf)))
            }
        case .emailProtection(let mailbox, let use):
            // RFC 8550 4.4.4: an extKeyUsage present must allow emailProtection (anyExtendedKeyUsage does).
            checkExtendedKeyUsage(KnownOID.emailProtection, path: path, anchor: anchor, policy: policy, profile: profile,
                                  leafIsTrustedDirectly: leafIsTrustedDirectly, strict: false, &failures)
            // RFC 8550 4.4.2: the key must be usable for the S/MIME operation.
            let allowed = use.allowedKeyUsage
            if let usage = leaf.keyUsage, usage.isDisjoint(with: allowed) {
                failures.append(.purposeViolation(leaf, .emailProtectionKeyUsage(allowed: allowed, present: usage)))
            }
            // RFC 8550 3: the sender's address must be an Internet mail address of the certificate.
            if let mailbox, !Self.carries(leaf, .email(mailbox)) && !Self.carriesSubjectEmailAddress(leaf, mailbox) {
                failures.append(.nameMismatch(leaf, expected: .email(mailbox), presented: PresentedIdentifier.of(leaf)))
            }
        case .codeSigning:
            checkExtendedKeyUsage(KnownOID.codeSigning, path: path, anchor: anchor, policy: policy, profile: profile,
                                  leafIsTrustedDirectly: leafIsTrustedDirectly, strict: false, &failures)
            // RFC 5280 4.2.1.12: id-kp-codeSigning goes with digitalSignature.
            if let usage = leaf.keyUsage, !usage.contains(.digitalSignature) {
                failures.append(.purposeViolation(leaf, .codeSigningKeyUsage(present: usage)))
            }
        case .timeStamping:
            checkExtendedKeyUsage(KnownOID.timeStamping, path: path, anchor: anchor, policy: policy, profile: profile,
                                  leafIsTrustedDirectly: leafIsTrustedDirectly, strict: false, &failures)
            // RFC 3161 2.3 (binds the TSA; checked by the relying party): one critical extKeyUsage
            // naming id-kp-timeStamping alone. A leaf whose extKeyUsage lacks it entirely was
            // reported by the chaining check (extendedKeyUsageForbids).
            if let usage = leaf.extendedKeyUsage {
                if leaf.isCritical(.extKeyUsage) != true {
                    failures.append(.purposeViolation(leaf, .timeStampingExtendedKeyUsageNotCritical))
                }
                if usage.contains(KnownOID.timeStamping) && usage.usages.contains(where: { $0 != KnownOID.timeStamping }) {
                    failures.append(.purposeViolation(leaf, .timeStampingExtendedKeyUsageNotSole(present: usage.usages)))
                }
            } else {
                failures.append(.purposeViolation(leaf, .timeStampingExtendedKeyUsageMissing))
            }
            // RFC 5280 4.2.1.12: id-kp-timeStamping goes with digitalSignature and/or nonRepudiation.
            if let usage = leaf.keyUsage, usage.isDisjoint(with: [.digitalSignature, .contentCommitment]) {
                failures.append(.purposeViolation(leaf, .timeStampingKeyUsage(present: usage)))
            }
        case .clientAuthentication(let expectedNames):
            checkExtendedKeyUsage(KnownOID.clientAuth, path: path, anchor: anchor, policy: policy, profile: profile,
                                  leafIsTrustedDirectly: leafIsTrustedDirectly, &failures)
            for name in expectedNames where !Self.carries(leaf, name) {
                failures.append(.nameMismatch(leaf, expected: name, presented: PresentedIdentifier.of(leaf)))
            }
            if policy.checkTLSKeyUsage, let usage = leaf.keyUsage {
                var allowed: KeyUsage = .digitalSignature
                if leaf.hasECKey { allowed.insert(.keyAgreement) }
                if usage.isDisjoint(with: allowed) { failures.append(.keyUsageForbids(leaf, required: allowed, present: usage)) }
            }
        }
        return failures
    }

    private static func checkExtendedKeyUsage(
        _ purpose: OID, path: [Certificate], anchor: Certificate?, policy: ValidationPolicy, profile: CertificateProfile,
        leafIsTrustedDirectly: Bool, strict: Bool = true, _ failures: inout [ValidationFailure]
    ) {
        func check(_ certificate: Certificate) {
            guard certificate.extendedKeyUsageAllows(purpose) == false, let usage = certificate.extendedKeyUsage else { return }
            failures.append(.extendedKeyUsageForbids(certificate, required: purpose, present: usage.usages))
        }
        for certificate in path { check(certificate) }
        let anchorIsTheLeaf = path.count == 1 && anchor == path[0]
        if let anchor, policy.anchorEnforcement.constraints, !anchorIsTheLeaf { check(anchor) }
        // The strict reading is the Web PKI's for TLS (it forbids the other purposes beside the one
        // asked for), so the S/MIME, code-signing and time-stamping purposes do not take it.
        if strict && policy.extendedKeyUsageReading != .standard {
            checkStrictExtendedKeyUsage(purpose, path: path, anchor: anchor, profile: profile,
                                        endEntityOnly: policy.extendedKeyUsageReading == .strictEndEntity,
                                        leafIsTrustedDirectly: leafIsTrustedDirectly || anchorIsTheLeaf, &failures)
        }
    }

    /// The strict reading (Chromium's `*_STRICT` key purposes, CA/B BR 7.1.2.7.10, 7.1.2.1.2): see
    /// ``ExtendedKeyUsageReading/strict``; `endEntityOnly` for ``ExtendedKeyUsageReading/strictEndEntity``.
    private static func checkStrictExtendedKeyUsage(
        _ purpose: OID, path: [Certificate], anchor: Certificate?, profile: CertificateProfile, endEntityOnly: Bool,
        leafIsTrustedDirectly: Bool, _ failures: inout [ValidationFailure]
    ) {
        let leaf = path[0]
        if let usage = leaf.extendedKeyUsage {
            if leaf.isCritical(.extKeyUsage) == true { failures.append(.profileViolation(leaf, .extendedKeyUsageCritical)) }
            if usage.containsAnyExtendedKeyUsage { failures.append(.profileViolation(leaf, .extendedKeyUsageAnyPurpose)) }
            let forbidden = [KnownOID.codeSigning, KnownOID.emailProtection, KnownOID.timeStamping, KnownOID.ocspSigning,
                             KnownOID.precertificateSigning]
            if usage.usages.contains(where: forbidden.contains) {
                failures.append(.profileViolation(leaf, .extendedKeyUsageIncompatiblePurpose))
            }
            if !usage.contains(purpose) && !usage.containsAnyExtendedKeyUsage {
                // Already reported by the chaining check (extendedKeyUsageForbids).
            } else if !usage.contains(purpose) {
                failures.append(.extendedKeyUsageForbids(leaf, required: purpose, present: usage.usages))
            }
        } else {
            failures.append(.profileViolation(leaf, .extendedKeyUsageMissing))
        }
        // (Under the Web PKI profile the rules table reports it already. A leaf trusted by itself is
        // not judged as issued: Chromium checks a one-certificate chain's target for CA only in its
        // path algorithm's wrap-up.)
        if leaf.isCertificateAuthority && profile != .webPKI && !leafIsTrustedDirectly {
            failures.append(.profileViolation(leaf, .certificateAuthorityAsEndEntity))
        }
        guard !endEntityOnly else { return }
        // The intermediate directly above the leaf: anyExtendedKeyUsage does not stand for the
        // purpose; a clientAuth issuer must carry extKeyUsage (Chromium accepts a missing one for
        // serverAuth only, "until BR requirements catch up with CAs").
        if path.count > 1 {
            let issuer = path[1]
            if let usage = issuer.extendedKeyUsage {
                if !usage.contains(purpose) && usage.containsAnyExtendedKeyUsage {
                    failures.append(.profileViolation(issuer, .extendedKeyUsageAnyPurpose))
                }
            } else if purpose == KnownOID.clientAuth {
                failures.append(.profileViolation(issuer, .extendedKeyUsageMissing))
            }
        }
        if let anchor, anchor.isSelfIssued, anchor.extendedKeyUsage != nil {
            failures.append(.profileViolation(anchor, .extendedKeyUsageInRoot))
        }
    }

    private static func checkReference(_ reference: ReferenceIdentifier, leaf: Certificate, policy: ValidationPolicy,
                                       _ failures: inout [ValidationFailure]) {
        let options = PresentedIdentifierMatching.Options(publicSuffixList: policy.publicSuffixList)
        // RFC 6125 6.4, 6.4.4: the subjectAltName dNSNames and iPAddresses (decoded at parse).
        if let names = leaf.subjectAlternativeNames {
            for name in names {
                switch name {
                case .dNSName(let bytes):
                    if PresentedIdentifierMatching.matches(presentedDNSName: bytes, reference: reference, options: options) { return }
                case .iPAddress(let bytes):
                    if PresentedIdentifierMatching.matches(presentedIPAddress: bytes, reference: reference) { return }
                default: continue
                }
            }
        } else if policy.allowCommonNameFallback, case .dnsName = reference {
            for commonName in leaf.subject.values(of: KnownOID.commonName) {
                if PresentedIdentifierMatching.matches(presentedDNSName: Array(commonName.utf8)[...], reference: reference, options: options) {
                    return
                }
            }
        }
        failures.append(.hostnameMismatch(leaf, reference: reference, presented: PresentedIdentifier.of(leaf)))
    }

    /// Whether a subject emailAddress attribute (PKCS #9) of `leaf` is `mailbox`: RFC 8550 3 has
    /// receiving agents recognize the address there too (a legacy form; RFC 5280 4.1.2.6).
    private static func carriesSubjectEmailAddress(_ leaf: Certificate, _ mailbox: RFC822Name) -> Bool {
        guard !mailbox.isInternationalized else { return false }
        return leaf.subject.values(of: KnownOID.emailAddress).contains { value in
            PresentedIdentifierMatching.matches(presentedRFC822Name: Array(value.utf8)[...], reference: mailbox)
        }
    }

    private static func carries(_ leaf: Certificate, _ expected: ExpectedName) -> Bool {
        for name in leaf.subjectAlternativeNames ?? [] {
            switch (name, expected) {
            case (.dNSName(let bytes), .dnsName(let reference)):
                if PresentedIdentifierMatching.matches(presentedDNSName: bytes, reference: reference) { return true }
            case (.iPAddress(let bytes), .ipAddress(let reference)):
                if PresentedIdentifierMatching.matches(presentedIPAddress: bytes, reference: reference) { return true }
            case (.rfc822Name(let bytes), .email(let reference)):
                if PresentedIdentifierMatching.matches(presentedRFC822Name: bytes, reference: reference) { return true }
            case (.otherName(let type, let value), .email(let reference)) where type == KnownOID.smtpUTF8Mailbox:
                // RFC 9598 5: an internationalized mailbox is presented as an SmtpUTF8Mailbox.
                if PresentedIdentifierMatching.matches(presentedSmtpUTF8Mailbox: value, reference: reference) { return true }
            default:
                continue
            }
        }
        return false
    }

    /// CA/B BR 7.1.4.3 for TLS server certificates: a commonName, if present, is a character-for-
    /// character copy of a subjectAltName dNSName (a wildcard one included: `*.example.com` is copied
    /// as `*.example.com`) or the text of an iPAddress (IPv4 dotted decimal, IPv6 RFC 5952). Without a
    /// subjectAltName the rule has nothing to compare with (the missing SAN fails hostname matching).
    static func commonNamesAreSubjectAltNames(_ leaf: Certificate) -> Bool {
        guard let names = leaf.subjectAlternativeNames else { return true }
        // A few commonNames are each compared with the subjectAltName list; past that the list's
        // dNSNames and address texts go into sets once (a subject of n commonNames and a list of n
        // names made the scans quadratic: 12 s for a 1.8 MB leaf).
        var commonNameCount = 0
        _ = leaf.subject.allStringValues(of: KnownOID.commonName) { _ in commonNameCount += 1; return true }
        guard commonNameCount > 4 else {
            return leaf.subject.allStringValues(of: KnownOID.commonName) { commonName in
                names.contains { name in
                    switch name {
                    case .dNSName(let bytes): return commonName.elementsEqual(bytes)
                    case .iPAddress(let bytes): return IPAddress(bytes: bytes)?.description == String(decoding: commonName, as: UTF8.self)
                    default: return false
                    }
                }
            }
        }
        var dnsNames = Set<ArraySlice<UInt8>>(), addresses = Set<String>()
        for name in names {
            switch name {
            case .dNSName(let bytes): dnsNames.insert(bytes)
            case .iPAddress(let bytes): if let address = IPAddress(bytes: bytes) { addresses.insert(address.description) }
            default: break
            }
        }
        return leaf.subject.allStringValues(of: KnownOID.commonName) { commonName in
            dnsNames.contains(ArraySlice(commonName)) || addresses.contains(String(decoding: commonName, as: UTF8.self))
        }
    }

    /// ``equals(_:_:)-(String,_)`` with the commonName as UTF-8 bytes.
    static func equals(_ commonName: UnsafeBufferPointer<UInt8>, _ name: GeneralName) -> Bool {
        switch name {
        case .dNSName(let bytes): return commonName.elementsEqual(bytes)
        case .iPAddress(let bytes): return IPAddress(bytes: bytes)?.description == String(decoding: commonName, as: UTF8.self)
        default: return false
        }
    }

    /// Whether a commonName is exactly the text of a subjectAltName dNSName or iPAddress
    /// (IPv4 dotted decimal, IPv6 in RFC 5952 form), as CA/B BR 7.1.4.3 requires.
    static func equals(_ commonName: String, _ name: GeneralName) -> Bool {
        switch name {
        case .dNSName(let bytes): return commonName.utf8.elementsEqual(bytes)
        case .iPAddress(let bytes): return IPAddress(bytes: bytes)?.description == commonName
        default: return false
        }
    }

    static func isWildcard(_ name: GeneralName) -> Bool {
        if case .dNSName(let bytes) = name { return bytes.first == UInt8(ascii: "*") }
        return false
    }
}
