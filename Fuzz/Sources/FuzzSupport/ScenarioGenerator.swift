import CFuzzSigner
import CertPath

/// One path-building problem generated from fuzz bytes: a leaf, presented intermediates, a trust store,
/// a policy and a validation time.
public struct Scenario {
    /// Every generated certificate, in generation order (index 0 is the leaf), with its role.
    public var certificates: [(certificate: Certificate, role: Role)]
    /// The leaf (end entity).
    public var leaf: Certificate { certificates[0].certificate }
    /// The certificates presented as intermediates (roles that include it), in generation order.
    public var intermediates: [Certificate]
    /// The trust store entries.
    public var trustEntries: [TrustEntry]
    /// The policy.
    public var policy: ValidationPolicy
    /// The validation time.
    public var validationTime: UnixTime
    /// Whether the evaluation keeps every attempt (``TrustEvaluation/collectAllAttempts``).
    public var collectAllAttempts = false
    /// The policy and roles in words (for dumps and messages).
    public var summary: [String]

    /// Creates a scenario (``ScenarioGenerator/generate(_:)`` makes them from fuzz input).
    public init(certificates: [(certificate: Certificate, role: Role)], intermediates: [Certificate], trustEntries: [TrustEntry],
                policy: ValidationPolicy, validationTime: UnixTime, summary: [String]) {
        self.certificates = certificates
        self.intermediates = intermediates
        self.trustEntries = trustEntries
        self.policy = policy
        self.validationTime = validationTime
        self.summary = summary
    }

    /// How a generated certificate is offered to the evaluation.
    public enum Role: Int, CaseIterable, Sendable {
        case intermediate, anchor, intermediateAndAnchor, anchorOrLeaf, trustedLeaf, distrusted

        /// Whether the certificate is in the presented intermediates.
        public var isPresented: Bool { self == .intermediate || self == .intermediateAndAnchor || self == .distrusted }
        /// The trust store entry kind, if any.
        public var trustKind: TrustKind? {
            switch self {
            case .intermediate: return nil
            case .anchor, .intermediateAndAnchor: return .anchor
            case .anchorOrLeaf: return .anchorOrLeaf
            case .trustedLeaf: return .leaf
            case .distrusted: return .distrusted
            }
        }
    }

    /// The scenario as text: the summary lines, then each certificate as a PEM block labelled with its
    /// role (`LEAF CERTIFICATE`, `INTERMEDIATE CERTIFICATE`, …), readable by PEM.decode.
    public var text: String {
        var out = summary.map { "# \($0)\n" }.joined()
        for (index, entry) in certificates.enumerated() {
            out += "# certificate \(index): \(entry.certificate.subject) <- \(entry.certificate.issuer), role \(entry.role)\n"
            out += PEM.encode(entry.certificate.der, label: "\(index == 0 ? "LEAF" : "CA") \(entry.role) CERTIFICATE")
        }
        return out
    }
}

/// Turns fuzz bytes into a ``Scenario``: up to 8 certificates whose subject and issuer names come from a
/// small pool (so they chain, cross-sign and loop), with fuzz-chosen versions, validity, extensions
/// (basicConstraints and pathLen, keyUsage, extKeyUsage, subjectAltName, nameConstraints, policies,
/// policyMappings, policyConstraints, inhibitAnyPolicy, key identifiers, an unknown extension), each
/// signed (deterministic ECDSA P-256 with SHA-256) by a fixed test key — normally the key of its issuer
/// name, or another key or a corrupted signature when the input says so.
///
/// Every byte is a decision; an exhausted input reads as zeros.
public enum ScenarioGenerator {
    /// A tiny public suffix list for policies that use one.
    static let publicSuffixes = PublicSuffixList(text: "com\norg\nexample.org\n")

    /// Initial permitted subtrees (RFC 5280 6.1.1 (h)) for policies that use them: dNSName example.com
    /// and iPAddress 192.0.2.0/24. NameConstraints has no public initializer, so the value is decoded
    /// from a certificate carrying it.
    static let initialNameConstraints: NameConstraints = {
        var value = FuzzDERWriter()
        value.append(.sequence) { s in
            s.append(.contextSpecific(0, constructed: true)) { t in
                t.append(.sequence) { $0.append(.contextSpecific(2), contents: Array("example.com".utf8)) }
                t.append(.sequence) { $0.append(.contextSpecific(7), contents: constraintIPs[0]) }
            }
        }
        var tbs = FuzzDERWriter()
        tbs.append(.sequence) { w in
            w.append(.contextSpecific(0, constructed: true)) { $0.appendInteger(2) }
            w.appendInteger(1)
            w.append(.sequence) { $0.appendOID(KnownOID.ecdsaWithSHA256) }
            w.appendEncoded(names[0])
            w.append(.sequence) { w in utc(&w, "240101000000Z"); utc(&w, "260101000000Z") }
            w.appendEncoded(names[0])
            w.appendEncoded(keys[0])
            w.append(.contextSpecific(3, constructed: true)) { w in
                w.append(.sequence) { w in
                    w.append(.sequence) { e in
                        e.appendOID(KnownOID.nameConstraints)
                        e.appendBoolean(true)
                        e.append(.octetString, contents: value.bytes)
                    }
                }
            }
        }
        var certificate = FuzzDERWriter()
        certificate.append(.sequence) { w in
            w.appendEncoded(tbs.bytes)
            w.append(.sequence) { $0.appendOID(KnownOID.ecdsaWithSHA256) }
            w.append(.bitString, contents: [0] + sign(tbs.bytes, key: 0))
        }
        guard let constraints = (try? Certificate(derEncoded: certificate.bytes))?.nameConstraints else {
            preconditionFailure("the initial name constraints certificate does not parse")
        }
        return constraints
    }()

    /// The validation time of every scenario: 2025-06-01T00:00:00Z.
    public static let validationTime = UnixTime(year: 2025, month: 6, day: 1)!

    // MARK: Pools

    /// Subject and issuer names. 6 is RFC 5280 7.1-equivalent to 0 (case and inner spaces differ,
    /// UTF8String vs PrintableString); 7 is the empty name.
    static let names: [[UInt8]] = [
        name([("2.5.4.3", .printableString, "Root A")]),
        name([("2.5.4.3", .printableString, "Root B")]),
        name([("2.5.4.3", .printableString, "Intermediate 1")]),
        name([("2.5.4.3", .printableString, "Intermediate 2")]),
        name([("2.5.4.3", .printableString, "Intermediate 3")]),
        name([("2.5.4.10", .printableString, "Example"), ("2.5.4.3", .utf8String, "www.example.com")]),
        name([("2.5.4.3", .utf8String, "root  a")]),
        name([]),
    ]
    /// The default key of each name (equivalent names share one).
    static let defaultKey = [0, 1, 2, 3, 1, 2, 0, 3]

    static let dnsNames = ["www.example.com", "*.example.com", "example.com", "a.b.example.com", "*.com",
                           "WWW.Example.COM", "www.example.org", "*.b.example.com", "xn--bcher-kva.example.com",
                           "www.example.com.", "f*.example.com", "a_b.example.com"]
    static let ipAddresses: [[UInt8]] = [[192, 0, 2, 1], [10, 0, 0, 1], [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]]
    /// Reference identifiers for the server purpose.
    public static let hostnames = ["www.example.com", "a.b.example.com", "example.com", "192.0.2.1",
                                   "xn--bcher-kva.example.com", "www.example.org", "2001:db8::1"]
    static let constraintDNSNames = ["example.com", "b.example.com", "example.org", "", ".example.com"]
    static let uris = ["https://www.example.com/a", "https://WWW.EXAMPLE.COM", "ldap://example.org", "https://[2001:db8::1]/"]
    static let constraintEmails = ["example.com", ".example.com", "user@example.com", "user@www.example.com"]
    static let constraintURIs = ["www.example.com", ".example.com", "example.org"]
    static let constraintIPs: [[UInt8]] = [[192, 0, 2, 0, 255, 255, 255, 0], [10, 0, 0, 0, 255, 0, 0, 0]]
    static let policies: [OID] = ["2.5.29.32.0", "1.3.6.1.4.1.55555.2.1", "1.3.6.1.4.1.55555.2.2", "1.3.6.1.4.1.55555.2.3"]
    static let extendedKeyUsages: [OID] = [KnownOID.serverAuth, KnownOID.clientAuth, KnownOID.anyExtendedKeyUsage, KnownOID.codeSigning]
    static let unknownExtension: OID = "1.3.6.1.4.1.55555.1.1"

    // MARK: Keys and signatures

    /// The fixed test keys' SubjectPublicKeyInfo DER.
    public static let keys: [[UInt8]] = (0..<Int(certpath_fuzz_key_count())).map { index in
        var pointer: UnsafePointer<UInt8>? = nil
        let length = certpath_fuzz_key_spki(Int32(index), &pointer)
        precondition(length > 0 && pointer != nil, "test key \(index) did not load")
        return Array(UnsafeBufferPointer(start: pointer, count: length))
    }

    /// Signatures already made, by key index and TBS (fuzz inputs mostly repeat their certificates).
    nonisolated(unsafe) static var signatureMemo: [[UInt8]: [UInt8]] = [:]

    static func sign(_ tbs: [UInt8], key: Int) -> [UInt8] {
        let memoKey = tbs + [UInt8(key)]
        if let known = signatureMemo[memoKey] { return known }
        var signature = [UInt8](repeating: 0, count: 96)
        let length = tbs.withUnsafeBufferPointer { message in
            signature.withUnsafeMutableBufferPointer { out in
                certpath_fuzz_sign(Int32(key), message.baseAddress, message.count, out.baseAddress, out.count)
            }
        }
        precondition(length > 0, "signing with test key \(key) failed")
        signature.removeSubrange(length...)
        if signatureMemo.count >= 16_384 { signatureMemo.removeAll(keepingCapacity: true) }
        signatureMemo[memoKey] = signature
        return signature
    }

    // MARK: Generation

    /// Generates a scenario from `bytes`.
    public static func generate(_ bytes: [UInt8]) -> Scenario {
        var input = FuzzInput(bytes)
        var summary: [String] = []

        let count = input.int(1...8)
        let purposeChoice = input.int(0...3)
        let hostname = input.pick(hostnames)
        let flags = input.byte()
        let budget = Budget(signatureChecks: 4 + input.int(0...28), buildSteps: 8 + input.int(0...255),
                            nameConstraintComparisons: 16 + input.int(0...1023))
        // The path-length limit (ValidationPolicy.maximumIntermediates): 0 to 7 from this byte, or
        // 0 to 3 from the next when the flag says so.
        let depthLimit = 7 - input.int(0...7)
        let maximumIntermediates = flags & 0x10 != 0 ? input.int(0...3) : depthLimit

        var policy = ValidationPolicy()
        switch purposeChoice {
        case 0: policy.purpose = .serverAuthentication(try? ReferenceIdentifier(hostname))
        case 1: policy.purpose = .serverAuthentication(nil)
        case 2: policy.purpose = .clientAuthentication(expectedNames: [])
        default: policy.purpose = .any
        }
        policy.profile = flags & 0x01 != 0 ? .rfc5280 : .webPKI
        policy.anchorEnforcement = flags & 0x02 != 0 ? .full : .nameAndKey
        let collectAllAttempts = flags & 0x04 != 0
        policy.policyInputs = PolicyValidationInputs(
            userInitialPolicySet: flags & 0x20 != 0 ? [policies[1]] : [policies[0]],
            initialPolicyMappingInhibit: flags & 0x80 != 0, initialExplicitPolicy: flags & 0x08 != 0,
            initialAnyPolicyInhibit: flags & 0x40 != 0)
        policy.budget = budget
        policy.maximumIntermediates = maximumIntermediates
        summary.append("purpose \(policy.purpose), profile \(policy.profile), anchors \(flags & 0x02 != 0 ? "full" : "nameAndKey"), "
                       + "collectAll \(collectAllAttempts), policyInputs \(policy.policyInputs)")
        summary.append("budget \(budget), maximumIntermediates \(maximumIntermediates), time \(validationTime)")

        var certificates: [(certificate: Certificate, role: Scenario.Role)] = []
        for index in 0..<count {
            let (certificate, role) = generateCertificate(&input, index: index)
            certificates.append((certificate, role))
        }
        // Options read after the certificates, so that inputs written before they existed keep their meaning.
        let options = input.byte()
        policy.allowCommonNameFallback = options & 0x01 != 0
        if options & 0x02 != 0 { policy.publicSuffixList = publicSuffixes }
        if options & 0x04 != 0 {
            policy.initialNameConstraints = initialNameConstraints
        }
        if options & 0x08 != 0 { policy.requiredLeafKeyUsage = .digitalSignature }
        policy.checkTLSKeyUsage = options & 0x10 == 0
        summary.append("commonNameFallback \(policy.allowCommonNameFallback), publicSuffixList \(policy.publicSuffixList != nil), "
                       + "initialNameConstraints \(policy.initialNameConstraints != nil), requiredLeafKeyUsage \(policy.requiredLeafKeyUsage), "
                       + "checkTLSKeyUsage \(policy.checkTLSKeyUsage)")

        var intermediates: [Certificate] = []
        var entries: [TrustEntry] = []
        for (certificate, role) in certificates {
            if role.isPresented { intermediates.append(certificate) }
            if let kind = role.trustKind { entries.append(TrustEntry(certificate, kind: kind)) }
        }
        var scenario = Scenario(certificates: certificates, intermediates: intermediates, trustEntries: entries, policy: policy,
                                validationTime: validationTime, summary: summary)
        scenario.collectAllAttempts = collectAllAttempts
        return scenario
    }

    static func generateCertificate(_ input: inout FuzzInput, index: Int) -> (Certificate, Scenario.Role) {
        let role = Scenario.Role(rawValue: input.int(0...(Scenario.Role.allCases.count - 1)))!
        let subject = input.int(0...(names.count - 1))
        let issuer = input.int(0...(names.count - 1))
        let keyChoice = input.byte()
        let key = keyChoice < 200 ? defaultKey[subject] : Int(keyChoice) % keys.count
        let signerChoice = input.byte()
        let signer = signerChoice < 200 ? defaultKey[issuer] : Int(signerChoice) % keys.count
        let corruptSignature = signerChoice >= 250
        let isV1 = input.byte() >= 240
        let validity = input.int(0...7)
        let serial = Int64(input.int(0...255)) - 2  // mostly positive; 0 and negative now and then
        let extensionMask = (UInt16(input.byte()) << 8 | UInt16(input.byte())) & 0x0FFF

        var tbs = FuzzDERWriter()
        tbs.append(.sequence) { w in
            if !isV1 { w.append(.contextSpecific(0, constructed: true)) { $0.appendInteger(2) } }
            w.appendInteger(serial)
            w.append(.sequence) { $0.appendOID(KnownOID.ecdsaWithSHA256) }
            w.appendEncoded(names[issuer])
            w.append(.sequence) { w in
                switch validity {
                case 5: utc(&w, "200101000000Z"); utc(&w, "240101000000Z")  // expired
                case 6: utc(&w, "260101000000Z"); utc(&w, "270101000000Z")  // not yet valid
                case 7: generalized(&w, "20240101000000Z"); generalized(&w, "20500101000000Z")
                default: utc(&w, "240101000000Z"); utc(&w, "260101000000Z")
                }
            }
            w.appendEncoded(names[subject])
            w.appendEncoded(keys[key])
            if !isV1 && extensionMask != 0 {
                w.append(.contextSpecific(3, constructed: true)) { w in
                    w.append(.sequence) { w in appendExtensions(&w, &input, mask: extensionMask, key: key, signer: signer) }
                }
            }
        }
        let tbsBytes = tbs.bytes
        var signature = sign(tbsBytes, key: signer)
        if corruptSignature { signature[signature.count - 1] ^= 0x01 }
        var certificate = FuzzDERWriter()
        certificate.append(.sequence) { w in
            w.appendEncoded(tbsBytes)
            w.append(.sequence) { $0.appendOID(KnownOID.ecdsaWithSHA256) }
            w.append(.bitString, contents: [0] + signature)
        }
        do throws(DERError) {
            return (try Certificate(derEncoded: certificate.bytes), role)
        } catch {
            violation("a generated certificate does not parse: \(error)\n\(PEM.encode(certificate.bytes))")
        }
    }

    static func appendExtensions(_ w: inout FuzzDERWriter, _ input: inout FuzzInput, mask: UInt16, key: Int, signer: Int) {
        func add(_ oid: OID, critical: Bool, _ body: (inout FuzzDERWriter) -> Void) {
            var value = FuzzDERWriter()
            body(&value)
            w.append(.sequence) { e in
                e.appendOID(oid)
                if critical { e.appendBoolean(true) }
                e.append(.octetString, contents: value.bytes)
            }
        }
        func keyIdentifier(_ key: Int) -> [UInt8] { [0x4B, 0x49, 0x44, UInt8(key)] }

        if mask & 0x0001 != 0 {  // basicConstraints
            let choice = input.byte()
            let isCA = choice & 0x01 == 0
            let pathLength = choice & 0x0E == 0 ? nil : Int64((choice >> 1) & 0x07) - 1
            add(KnownOID.basicConstraints, critical: choice & 0x10 == 0) { v in
                v.append(.sequence) { s in
                    if isCA { s.appendBoolean(true) }
                    if isCA, let pathLength { s.appendInteger(pathLength) }
                }
            }
        }
        if mask & 0x0002 != 0 {  // keyUsage
            var usage = (UInt16(input.byte()) << 1 | UInt16(input.byte() & 1)) & 0x1FF
            if usage == 0 { usage = 0x21 }  // digitalSignature | keyCertSign
            add(KnownOID.keyUsage, critical: input.chance(200)) { v in v.append(.bitString, contents: namedBits(usage)) }
        }
        if mask & 0x0004 != 0 {  // extKeyUsage
            let choice = input.byte()
            var usages = extendedKeyUsages.indices.filter { choice & (1 << $0) != 0 }.map { extendedKeyUsages[$0] }
            if usages.isEmpty { usages = [KnownOID.serverAuth] }
            add(KnownOID.extKeyUsage, critical: choice & 0x80 != 0) { v in
                v.append(.sequence) { s in for usage in usages { s.appendOID(usage) } }
            }
        }
        if mask & 0x0008 != 0 {  // subjectAltName
            let entries = input.int(1...3)
            var names: [[UInt8]] = []
            for _ in 0..<entries { names.append(generalName(&input)) }
            add(KnownOID.subjectAltName, critical: input.chance(24)) { v in
                v.append(.sequence) { s in for name in names { s.appendEncoded(name) } }
            }
        }
        if mask & 0x0010 != 0 {  // nameConstraints
            let choice = input.byte()
            var permitted: [[UInt8]] = [], excluded: [[UInt8]] = []
            for _ in 0..<Int(choice & 0x03) { permitted.append(constraintName(&input)) }
            for _ in 0..<Int((choice >> 2) & 0x03) { excluded.append(constraintName(&input)) }
            if permitted.isEmpty && excluded.isEmpty { permitted.append(constraintName(&input)) }
            add(KnownOID.nameConstraints, critical: choice & 0x10 == 0) { v in
                v.append(.sequence) { s in
                    for (tag, bases) in [(UInt8(0), permitted), (1, excluded)] where !bases.isEmpty {
                        s.append(.contextSpecific(tag, constructed: true)) { t in
                            for base in bases { t.append(.sequence) { $0.appendEncoded(base) } }
                        }
                    }
                }
            }
        }
        if mask & 0x0020 != 0 {  // certificatePolicies
            let choice = input.byte()
            var chosen = policies.indices.filter { choice & (1 << $0) != 0 }.map { policies[$0] }
            if chosen.isEmpty { chosen = [policies[0]] }
            add(KnownOID.certificatePolicies, critical: choice & 0x80 != 0) { v in
                v.append(.sequence) { s in for policy in chosen { s.append(.sequence) { $0.appendOID(policy) } } }
            }
        }
        if mask & 0x0040 != 0 {  // policyMappings
            let pairs = input.int(1...3)
            var mappings: [(OID, OID)] = []
            for _ in 0..<pairs { mappings.append((policies[input.int(1...3)], policies[input.int(1...3)])) }
            add(KnownOID.policyMappings, critical: input.chance(128)) { v in
                v.append(.sequence) { s in
                    for (from, to) in mappings { s.append(.sequence) { m in m.appendOID(from); m.appendOID(to) } }
                }
            }
        }
        if mask & 0x0080 != 0 {  // policyConstraints
            let choice = input.byte()
            let require = choice & 0x03, inhibit = (choice >> 2) & 0x03
            add(KnownOID.policyConstraints, critical: choice & 0x40 == 0) { v in
                v.append(.sequence) { s in
                    if require != 3 || inhibit == 3 { s.append(.contextSpecific(0), contents: [require == 3 ? 0 : require]) }
                    if inhibit != 3 { s.append(.contextSpecific(1), contents: [inhibit]) }
                }
            }
        }
        if mask & 0x0100 != 0 {  // inhibitAnyPolicy
            let skip = Int64(input.int(0...2))
            add(KnownOID.inhibitAnyPolicy, critical: true) { v in v.appendInteger(skip) }
        }
        if mask & 0x0200 != 0 {  // authorityKeyIdentifier: the signer's key id, or another's
            let choice = input.byte()
            let identifier = keyIdentifier(choice < 200 ? signer : Int(choice) % keys.count)
            add(KnownOID.authorityKeyIdentifier, critical: false) { v in
                v.append(.sequence) { $0.append(.contextSpecific(0), contents: identifier) }
            }
        }
        if mask & 0x0400 != 0 {  // subjectKeyIdentifier
            add(KnownOID.subjectKeyIdentifier, critical: false) { v in v.append(.octetString, contents: keyIdentifier(key)) }
        }
        if mask & 0x0800 != 0 {  // an extension CertPath does not know
            add(unknownExtension, critical: input.chance(128)) { v in v.append(.null, contents: []) }
        }
    }

    /// A subjectAltName entry: dNSName, iPAddress, rfc822Name, directoryName or URI.
    static func generalName(_ input: inout FuzzInput) -> [UInt8] {
        var w = FuzzDERWriter()
        switch input.int(0...8) {
        case 0...3: w.append(.contextSpecific(2), contents: Array(input.pick(dnsNames).utf8))
        case 4, 5: w.append(.contextSpecific(7), contents: input.pick(ipAddresses))
        case 6: w.append(.contextSpecific(1), contents: Array("user@example.com".utf8))
        case 7: w.append(.contextSpecific(4, constructed: true)) { $0.appendEncoded(input.pick(names)) }
        default: w.append(.contextSpecific(6), contents: Array(input.pick(uris).utf8))
        }
        return w.bytes
    }

    /// A nameConstraints base: dNSName, iPAddress with mask, directoryName, rfc822Name or URI.
    static func constraintName(_ input: inout FuzzInput) -> [UInt8] {
        var w = FuzzDERWriter()
        switch input.int(0...7) {
        case 0...2: w.append(.contextSpecific(2), contents: Array(input.pick(constraintDNSNames).utf8))
        case 3, 4: w.append(.contextSpecific(7), contents: input.pick(constraintIPs))
        case 5: w.append(.contextSpecific(4, constructed: true)) { $0.appendEncoded(input.pick(names)) }
        case 6: w.append(.contextSpecific(1), contents: Array(input.pick(constraintEmails).utf8))
        default: w.append(.contextSpecific(6), contents: Array(input.pick(constraintURIs).utf8))
        }
        return w.bytes
    }

    // MARK: Encoding helpers

    static func name(_ attributes: [(OID, FuzzDERTag, String)]) -> [UInt8] {
        var w = FuzzDERWriter()
        w.append(.sequence) { s in
            for (type, tag, value) in attributes {
                s.append(.set) { set in
                    set.append(.sequence) { a in
                        a.appendOID(type)
                        a.append(tag, contents: Array(value.utf8))
                    }
                }
            }
        }
        return w.bytes
    }

    static func utc(_ w: inout FuzzDERWriter, _ text: String) { w.append(.utcTime, contents: Array(text.utf8)) }
    static func generalized(_ w: inout FuzzDERWriter, _ text: String) { w.append(.generalizedTime, contents: Array(text.utf8)) }

    /// BIT STRING contents for a named bit list (bit 0 first), trailing zero bits removed (X.690 11.2.2).
    static func namedBits(_ bits: UInt16) -> [UInt8] {
        var highest = 15
        while highest > 0 && bits & (1 << highest) == 0 { highest -= 1 }
        let byteCount = highest / 8 + 1
        var out = [UInt8](repeating: 0, count: byteCount)
        for bit in 0...highest where bits & (1 << bit) != 0 { out[bit / 8] |= 0x80 >> (bit % 8) }
        return [UInt8((8 - (highest + 1) % 8) % 8)] + out
    }
}
