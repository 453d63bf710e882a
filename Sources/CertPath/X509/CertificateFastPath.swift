// A single-pass reader for the common shape of certificates, over the bytes in memory, used before
// the general parser (`Certificate.parse`, built on `DERReader`). It enforces the same DER and
// RFC 5280 section 4 rules as the general parser for everything it accepts, and returns `nil` —
// leaving the certificate to the general parser, which then decides and names any error — for
// anything outside that shape: v1/v2 certificates, unique identifiers, algorithms or key types
// other than the common ones, multi-valued RDNs, string types other than PrintableString,
// UTF8String and IA5String in names, the known extensions it does not decode here (issuerAltName,
// nameConstraints, policyMappings, policyConstraints, inhibitAnyPolicy), GeneralName forms other
// than rfc822Name, dNSName, URI and iPAddress, and any input the general parser would refuse.
//
// So a certificate it accepts yields exactly what the general parser yields (the conformance
// suite checks this over every certificate it has, and over mutated ones), and it never decides
// an error itself.

extension Certificate {
    /// The fast reading of `bytes` (a whole DER certificate), or `nil` for the general parser.
    static func parseCommonShape(_ bytes: UnsafeBufferPointer<UInt8>) -> Parsed? {
        guard let base = bytes.baseAddress else { return nil }
        var reader = FastDER(base: base, count: bytes.count)
        return reader.certificate()
    }
}

/// The fast reader: a pointer, and functions that return `nil` where the general parser would
/// either refuse the input or read it with rules this reader does not implement.
struct FastDER {
    let p: UnsafePointer<UInt8>
    let count: Int

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.p = base
        self.count = count
    }

    /// One element: its tag and the offsets of its contents and of its whole encoding.
    struct TLV {
        let tag: UInt8
        let start: Int
        let value: Range<Int>
        var encoded: Range<Int> { start..<value.upperBound }
    }

    // MARK: Elements (the header rules of DERReader.readElement)

    /// Reads the element at `index` within `end`: low tag number form, definite minimal length of
    /// at most four octets, contents within `end`.
    @inline(__always)
    func element(_ index: inout Int, _ end: Int) -> TLV? {
        let start = index
        guard start < end else { return nil }
        let tag = p[start]
        guard tag & 0x1F != 0x1F, start + 1 < end else { return nil }
        let first = p[start + 1]
        var cursor = start + 2
        var length: Int
        if first < 0x80 {
            length = Int(first)
        } else {
            let octets = Int(first & 0x7F)
            guard octets >= 1, octets <= 4, end - cursor >= octets, p[cursor] != 0 else { return nil }
            length = 0
            for _ in 0..<octets {
                length = length << 8 | Int(p[cursor])
                cursor += 1
            }
            guard length >= 0x80 else { return nil }
        }
        guard end - cursor >= length else { return nil }
        index = cursor + length
        return TLV(tag: tag, start: start, value: cursor..<(cursor + length))
    }

    /// Reads the element at `index` and requires its tag.
    @inline(__always)
    func element(_ tag: UInt8, _ index: inout Int, _ end: Int) -> TLV? {
        guard index < end, p[index] == tag else { return nil }
        return element(&index, end)
    }

    /// Whether the bytes at `range` equal `expected`.
    @inline(__always)
    func bytes(_ range: Range<Int>, equal expected: StaticBytes) -> Bool {
        guard range.count == expected.count else { return false }
        for offset in 0..<expected.count where p[range.lowerBound + offset] != expected[offset] { return false }
        return true
    }

    /// Whether the bytes at two ranges are equal.
    @inline(__always)
    func bytes(_ a: Range<Int>, equal b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for offset in 0..<a.count where p[a.lowerBound + offset] != p[b.lowerBound + offset] { return false }
        return true
    }

    // MARK: Primitive rules (DERPrimitives)

    /// A minimal INTEGER's contents (X.690 8.3.2).
    @inline(__always)
    func isMinimalInteger(_ value: Range<Int>) -> Bool {
        guard !value.isEmpty else { return false }
        guard value.count > 1 else { return true }
        let first = p[value.lowerBound], second = p[value.lowerBound + 1]
        return !((first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0))
    }

    /// A valid OBJECT IDENTIFIER's contents (X.690 8.19.2).
    @inline(__always)
    func isValidOID(_ value: Range<Int>) -> Bool {
        guard !value.isEmpty else { return false }
        var atStart = true
        for index in value {
            let byte = p[index]
            if atStart && byte == 0x80 { return false }
            atStart = byte & 0x80 == 0
        }
        return atStart
    }

    /// Reads an OBJECT IDENTIFIER and validates it.
    @inline(__always)
    func oid(_ index: inout Int, _ end: Int) -> Range<Int>? {
        guard let element = element(0x06, &index, end), isValidOID(element.value) else { return nil }
        return element.value
    }

    /// A BIT STRING with no unused bits (unused-bits octet 0): the data's offsets.
    @inline(__always)
    func wholeByteBits(_ element: TLV) -> Range<Int>? {
        guard element.tag == 0x03, !element.value.isEmpty, p[element.value.lowerBound] == 0 else { return nil }
        return (element.value.lowerBound + 1)..<element.value.upperBound
    }

    /// Whether every byte is ASCII (IA5String, X.680 41).
    @inline(__always)
    func isIA5(_ range: Range<Int>) -> Bool {
        var combined: UInt8 = 0
        for index in range { combined |= p[index] }
        return combined < 0x80
    }

    /// Whether a string value of a name is valid for its type; `nil` for types left to the
    /// general parser.
    @inline(__always)
    func isValidNameString(_ tag: UInt8, _ range: Range<Int>) -> Bool? {
        switch tag {
        case 0x13:  // PrintableString
            for index in range where !DERString.isPrintable(p[index]) { return false }
            return true
        case 0x0C:  // UTF8String
            if isIA5(range) { return true }
            return DERString.isValidUTF8(UnsafeBufferPointer(start: p + range.lowerBound, count: range.count))
        case 0x16:  // IA5String
            return isIA5(range)
        default:
            return nil
        }
    }

    /// A UTCTime or GeneralizedTime in the DER forms of RFC 5280 4.1.2.5 (DERReader.time).
    func time(_ element: TLV) -> (time: UnixTime, isGeneralizedTime: Bool)? {
        let value = element.value
        let generalized: Bool
        switch element.tag {
        case 0x17: generalized = false
        case 0x18: generalized = true
        default: return nil
        }
        guard value.count == (generalized ? 15 : 13), p[value.upperBound - 1] == UInt8(ascii: "Z") else { return nil }
        var cursor = value.lowerBound
        func twoDigits() -> Int? {
            let high = p[cursor] &- 0x30, low = p[cursor + 1] &- 0x30
            cursor += 2
            return high <= 9 && low <= 9 ? Int(high) * 10 + Int(low) : nil
        }
        var year: Int
        if generalized {
            guard let century = twoDigits(), let rest = twoDigits() else { return nil }
            year = century * 100 + rest
        } else {
            guard let short = twoDigits() else { return nil }
            year = short < 50 ? 2000 + short : 1900 + short
        }
        guard let month = twoDigits(), let day = twoDigits(), let hour = twoDigits(),
              let minute = twoDigits(), let second = twoDigits(),
              let time = UnixTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        return (time, generalized)
    }

    // MARK: Certificate

    mutating func certificate() -> Certificate.Parsed? {
        var parsed = Certificate.Parsed()
        var index = 0
        guard let certificate = element(0x30, &index, count), index == count else { return nil }
        var c = certificate.value.lowerBound
        let end = certificate.value.upperBound
        guard let tbs = element(0x30, &c, end), let outer = element(0x30, &c, end),
              let algorithm = Self.signatureAlgorithm(self, outer.encoded),
              let signature = element(&c, end), let signatureBits = wholeByteBits(signature), c == end else { return nil }
        parsed.tbs = tbs.encoded
        parsed.signatureAlgorithm = algorithm
        parsed.layout.signature = signatureBits
        parsed.signatureUnusedBits = 0
        guard readTBS(tbs.value, outer: outer.encoded, into: &parsed) else { return nil }
        for record in parsed.extensions {
            guard let known = record.known else { continue }
            guard decode(known, record.value, into: &parsed) else { return nil }
        }
        return parsed
    }

    private func readTBS(_ range: Range<Int>, outer: Range<Int>, into parsed: inout Certificate.Parsed) -> Bool {
        var t = range.lowerBound
        let end = range.upperBound
        // version [0] EXPLICIT INTEGER 2 (v3); v1 and v2 are left to the general parser.
        guard let version = element(0xA0, &t, end), bytes(version.encoded, equal: Self.versionV3) else { return false }
        parsed.version = .v3
        guard let serial = element(0x02, &t, end), isMinimalInteger(serial.value) else { return false }
        parsed.layout.serialNumber = serial.value
        guard let inner = element(0x30, &t, end), bytes(inner.encoded, equal: outer) else { return false }
        parsed.layout.signatureAlgorithm = inner.encoded
        guard let issuer = name(&t, end) else { return false }
        parsed.layout.issuer = issuer
        guard let validity = element(0x30, &t, end) else { return false }
        var v = validity.value.lowerBound
        guard let notBeforeElement = element(&v, validity.value.upperBound), let notBefore = time(notBeforeElement),
              let notAfterElement = element(&v, validity.value.upperBound), let notAfter = time(notAfterElement),
              v == validity.value.upperBound else { return false }
        parsed.notBefore = notBefore.time
        parsed.notAfter = notAfter.time
        parsed.validityUsesGeneralizedTime = (notBefore.isGeneralizedTime, notAfter.isGeneralizedTime)
        guard let subject = name(&t, end) else { return false }
        parsed.layout.subject = subject
        guard let spki = subjectPublicKeyInfo(&t, end) else { return false }
        parsed.layout.subjectPublicKeyInfo = spki
        // No unique identifiers; extensions [3] required.
        guard let explicit = element(0xA3, &t, end), t == end else { return false }
        var e = explicit.value.lowerBound
        guard let list = element(0x30, &e, explicit.value.upperBound), e == explicit.value.upperBound,
              !list.value.isEmpty else { return false }
        var records: [Certificate.ExtensionRecord] = []
        records.reserveCapacity(12)
        var x = list.value.lowerBound
        while x < list.value.upperBound {
            guard let ext = element(0x30, &x, list.value.upperBound) else { return false }
            var f = ext.value.lowerBound
            let fieldsEnd = ext.value.upperBound
            guard let oid = oid(&f, fieldsEnd) else { return false }
            var critical = false
            if f < fieldsEnd && p[f] == 0x01 {
                guard let boolean = element(&f, fieldsEnd), boolean.value.count == 1, p[boolean.value.lowerBound] == 0xFF else { return false }
                critical = true
            }
            guard let value = element(0x04, &f, fieldsEnd), f == fieldsEnd else { return false }
            let known = KnownExtension.identify(encoded: UnsafeBufferPointer(start: p + oid.lowerBound, count: oid.count))
            let record = Certificate.ExtensionRecord(oid: oid, value: value.value, isCritical: critical, known: known)
            for other in records {
                let same = known != nil || other.known != nil ? known == other.known : bytes(other.oid, equal: oid)
                if same { return false }
            }
            records.append(record)
        }
        parsed.extensions = records
        return true
    }

    private static let versionV3: StaticBytes = [0xA0, 0x03, 0x02, 0x01, 0x02]

    /// The common signature AlgorithmIdentifier encodings (RFC 4055 5 with NULL parameters,
    /// RFC 5758 3.2, RFC 8410 3), as SignatureAlgorithm.read decodes them.
    private static let signatureAlgorithms: [(StaticBytes, SignatureAlgorithm)] = [
        ([0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B, 0x05, 0x00], .rsaPKCS1v15(.sha256)),
        ([0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02], .ecdsa(.sha256)),
        ([0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x03], .ecdsa(.sha384)),
        ([0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0C, 0x05, 0x00], .rsaPKCS1v15(.sha384)),
        ([0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0D, 0x05, 0x00], .rsaPKCS1v15(.sha512)),
        ([0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x04], .ecdsa(.sha512)),
        ([0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70], .ed25519),
        ([0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x05, 0x05, 0x00], .rsaPKCS1v15(.sha1)),
    ]

    private static func signatureAlgorithm(_ reader: FastDER, _ range: Range<Int>) -> SignatureAlgorithm? {
        for (encoding, algorithm) in signatureAlgorithms where reader.bytes(range, equal: encoding) { return algorithm }
        return nil
    }

    // MARK: Name (Name.readRange)

    /// A Name of single-valued RDNs whose values are PrintableString, UTF8String or IA5String:
    /// the offsets of its whole encoding.
    private func name(_ index: inout Int, _ end: Int) -> Range<Int>? {
        guard let name = element(0x30, &index, end) else { return nil }
        var r = name.value.lowerBound
        while r < name.value.upperBound {
            guard let set = element(0x31, &r, name.value.upperBound) else { return nil }
            var a = set.value.lowerBound
            guard let atv = element(0x30, &a, set.value.upperBound), a == set.value.upperBound else { return nil }
            var f = atv.value.lowerBound
            guard oid(&f, atv.value.upperBound) != nil, let value = element(&f, atv.value.upperBound), f == atv.value.upperBound,
                  isValidNameString(value.tag, value.value) == true else { return nil }
        }
        return name.encoded
    }

    // MARK: SubjectPublicKeyInfo (SubjectPublicKeyInfo.readLayout)

    private static let rsaEncryption: StaticBytes = [0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00]
    private static let ecP256: StaticBytes = [0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
                                              0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
    private static let ecP384: StaticBytes = [0x30, 0x10, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
                                              0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22]
    private static let ecP521: StaticBytes = [0x30, 0x10, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
                                              0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x23]
    private static let ed25519: StaticBytes = [0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70]

    private func subjectPublicKeyInfo(_ index: inout Int, _ end: Int) -> SubjectPublicKeyLayout? {
        guard let spki = element(0x30, &index, end) else { return nil }
        var s = spki.value.lowerBound
        guard let algorithm = element(0x30, &s, spki.value.upperBound), let bitString = element(&s, spki.value.upperBound),
              s == spki.value.upperBound, let key = wholeByteBits(bitString) else { return nil }
        let layoutKey: SubjectPublicKeyLayout.Key
        if bytes(algorithm.encoded, equal: Self.rsaEncryption) {
            var k = key.lowerBound
            guard let sequence = element(0x30, &k, key.upperBound), k == key.upperBound else { return nil }
            var i = sequence.value.lowerBound
            guard let modulus = element(0x02, &i, sequence.value.upperBound), let exponent = element(0x02, &i, sequence.value.upperBound),
                  i == sequence.value.upperBound, let n = positive(modulus.value), let e = positive(exponent.value) else { return nil }
            layoutKey = .rsa(modulus: n, publicExponent: e)
        } else if let curve = curve(algorithm.encoded) {
            let length = curve.coordinateLength
            guard let first = key.isEmpty ? nil : p[key.lowerBound],
                  (first == 0x04 && key.count == 1 + 2 * length) || ((first == 0x02 || first == 0x03) && key.count == 1 + length)
            else { return nil }
            layoutKey = .ec(curve, point: key)
        } else if bytes(algorithm.encoded, equal: Self.ed25519) {
            guard key.count == 32 else { return nil }
            layoutKey = .ed25519(key)
        } else {
            return nil
        }
        return SubjectPublicKeyLayout(der: spki.encoded, key: layoutKey, isRestrictedToRSASSAPSS: false)
    }

    private func curve(_ algorithm: Range<Int>) -> NamedCurve? {
        if bytes(algorithm, equal: Self.ecP256) { return .p256 }
        if bytes(algorithm, equal: Self.ecP384) { return .p384 }
        if bytes(algorithm, equal: Self.ecP521) { return .p521 }
        return nil
    }

    /// A minimal, positive INTEGER's magnitude (the sign octet dropped).
    private func positive(_ value: Range<Int>) -> Range<Int>? {
        guard isMinimalInteger(value), p[value.lowerBound] & 0x80 == 0 else { return nil }
        let magnitude = p[value.lowerBound] == 0 ? value.dropFirst() : value
        return magnitude.isEmpty ? nil : magnitude
    }

    // MARK: Known extensions

    /// Validates a known extension's extnValue, storing in `parsed` what the certificate keeps
    /// decoded; `false` when the extension is left to the general parser.
    private func decode(_ known: KnownExtension, _ value: Range<Int>, into parsed: inout Certificate.Parsed) -> Bool {
        switch known {
        case .basicConstraints:
            guard let constraints = basicConstraints(value) else { return false }
            parsed.basicConstraints = constraints
            return true
        case .keyUsage:
            guard let usage = keyUsage(value) else { return false }
            parsed.keyUsage = usage
            return true
        case .subjectKeyIdentifier:
            var i = value.lowerBound
            guard let identifier = element(0x04, &i, value.upperBound), i == value.upperBound else { return false }
            parsed.layout.subjectKeyIdentifier = identifier.value
            return true
        case .authorityKeyIdentifier:
            guard let identifier = authorityKeyIdentifier(value) else { return false }
            parsed.layout.authorityKeyIdentifier = identifier
            parsed.layout.authorityKeyIdentifierHasIssuer = false
            return true
        case .extKeyUsage:
            return sequenceOf(value) { (i, end) in oid(&i, end) != nil }
        case .subjectAltName:
            return sequenceOf(value) { (i, end) in generalName(&i, end) }
        case .cRLDistributionPoints:
            return sequenceOf(value) { (i, end) in distributionPoint(&i, end) }
        case .authorityInfoAccess:
            return sequenceOf(value) { (i, end) in
                guard let description = element(0x30, &i, end) else { return false }
                var d = description.value.lowerBound
                return oid(&d, description.value.upperBound) != nil && generalName(&d, description.value.upperBound)
                    && d == description.value.upperBound
            }
        case .certificatePolicies:
            return certificatePolicies(value)
        case .issuerAltName, .nameConstraints, .policyMappings, .policyConstraints, .inhibitAnyPolicy:
            return false
        }
    }

    /// An extnValue that is exactly one SEQUENCE of at least one element, each accepted by `item`.
    @inline(__always)
    private func sequenceOf(_ value: Range<Int>, _ item: (inout Int, Int) -> Bool) -> Bool {
        var i = value.lowerBound
        guard let sequence = element(0x30, &i, value.upperBound), i == value.upperBound, !sequence.value.isEmpty else { return false }
        var j = sequence.value.lowerBound
        while j < sequence.value.upperBound {
            guard item(&j, sequence.value.upperBound) else { return false }
        }
        return true
    }

    /// BasicConstraints (BasicConstraints.read).
    private func basicConstraints(_ value: Range<Int>) -> BasicConstraints? {
        var i = value.lowerBound
        guard let sequence = element(0x30, &i, value.upperBound), i == value.upperBound else { return nil }
        var j = sequence.value.lowerBound
        let end = sequence.value.upperBound
        var isCA = false
        if j < end && p[j] == 0x01 {
            guard let boolean = element(&j, end), boolean.value.count == 1, p[boolean.value.lowerBound] == 0xFF else { return nil }
            isCA = true
        }
        var pathLength: Int? = nil
        if j < end && p[j] == 0x02 {
            guard isCA, let integer = element(&j, end), isMinimalInteger(integer.value),
                  p[integer.value.lowerBound] & 0x80 == 0 else { return nil }
            let magnitude = p[integer.value.lowerBound] == 0 ? integer.value.dropFirst() : integer.value
            guard magnitude.count <= 4 else { return nil }
            var length = 0
            for index in magnitude { length = length << 8 | Int(p[index]) }
            pathLength = length
        }
        guard j == end else { return nil }
        return BasicConstraints(isCertificateAuthority: isCA, pathLenConstraint: pathLength)
    }

    /// KeyUsage (KeyUsage.read): a DER named bit list of 1 to 9 bits, at least one set.
    private func keyUsage(_ value: Range<Int>) -> KeyUsage? {
        var i = value.lowerBound
        guard let bits = element(0x03, &i, value.upperBound), i == value.upperBound, !bits.value.isEmpty else { return nil }
        let unused = p[bits.value.lowerBound]
        let data = (bits.value.lowerBound + 1)..<bits.value.upperBound
        guard unused <= 7, !data.isEmpty, data.count <= 2 else { return nil }
        let last = p[data.upperBound - 1]
        let padding: UInt8 = unused == 0 ? 0 : UInt8((1 << Int(unused)) - 1)
        guard last & padding == 0, last & (1 << unused) != 0 else { return nil }
        let bitCount = data.count * 8 - Int(unused)
        guard bitCount <= 9 else { return nil }
        var mask: UInt16 = 0
        for (position, index) in data.enumerated() {
            let byte = p[index]
            for bit in 0..<8 where byte & (0x80 >> bit) != 0 { mask |= 1 << UInt16(position * 8 + bit) }
        }
        return KeyUsage(rawValue: mask)
    }

    /// AuthorityKeyIdentifier with at most a keyIdentifier: its offsets (`.some(nil)` when absent).
    private func authorityKeyIdentifier(_ value: Range<Int>) -> Range<Int>?? {
        var i = value.lowerBound
        guard let sequence = element(0x30, &i, value.upperBound), i == value.upperBound else { return nil }
        var j = sequence.value.lowerBound
        var identifier: Range<Int>? = nil
        if j < sequence.value.upperBound && p[j] == 0x80 {
            guard let element = element(&j, sequence.value.upperBound) else { return nil }
            identifier = element.value
        }
        guard j == sequence.value.upperBound else { return nil }
        return .some(identifier)
    }

    /// A GeneralName of the forms rfc822Name, dNSName, URI (IA5String) or iPAddress (4 or 16 octets).
    private func generalName(_ index: inout Int, _ end: Int) -> Bool {
        guard let name = element(&index, end) else { return false }
        switch name.tag {
        case 0x81, 0x82, 0x86: return isIA5(name.value)
        case 0x87: return name.value.count == 4 || name.value.count == 16
        default: return false
        }
    }

    /// A DistributionPoint with only a fullName (CRLDistributionPoints.read).
    private func distributionPoint(_ index: inout Int, _ end: Int) -> Bool {
        guard let point = element(0x30, &index, end) else { return false }
        var d = point.value.lowerBound
        guard let wrapper = element(0xA0, &d, point.value.upperBound), d == point.value.upperBound else { return false }
        var w = wrapper.value.lowerBound
        guard let fullName = element(0xA0, &w, wrapper.value.upperBound), w == wrapper.value.upperBound,
              !fullName.value.isEmpty else { return false }
        var n = fullName.value.lowerBound
        while n < fullName.value.upperBound {
            guard generalName(&n, fullName.value.upperBound) else { return false }
        }
        return true
    }

    /// A policy qualifier value (an ANY, which the general parser checks with `DERReader.validateTree`)
    /// made only of what qualifiers hold in practice (RFC 5280 4.2.1.4: the CPS pointer's IA5String,
    /// UserNotice's SEQUENCEs, DisplayText strings and INTEGER notice numbers), each element well formed
    /// and INTEGERs minimal; string alphabets are not checked, as in the general parser. Anything else
    /// is left to the general parser.
    private func isSimpleQualifier(_ index: inout Int, _ end: Int, depth: Int) -> Bool {
        guard depth < 8, let value = element(&index, end) else { return false }
        switch value.tag {
        case 0x30:
            var i = value.value.lowerBound
            while i < value.value.upperBound {
                guard isSimpleQualifier(&i, value.value.upperBound, depth: depth + 1) else { return false }
            }
            return true
        case 0x02:
            return isMinimalInteger(value.value)
        case 0x0C, 0x13, 0x16, 0x1A, 0x1E:  // UTF8String, PrintableString, IA5String, VisibleString, BMPString
            return true
        default:
            return false
        }
    }

    /// certificatePolicies (CertificatePolicies.read) with distinct policy identifiers.
    private func certificatePolicies(_ value: Range<Int>) -> Bool {
        var identifiers = SmallRangeList()
        return sequenceOf(value) { (i, end) in
            guard let information = element(0x30, &i, end) else { return false }
            var f = information.value.lowerBound
            let fieldsEnd = information.value.upperBound
            guard let identifier = oid(&f, fieldsEnd) else { return false }
            if f < fieldsEnd {
                guard let qualifiers = element(0x30, &f, fieldsEnd), f == fieldsEnd, !qualifiers.value.isEmpty else { return false }
                var q = qualifiers.value.lowerBound
                while q < qualifiers.value.upperBound {
                    guard let qualifier = element(0x30, &q, qualifiers.value.upperBound) else { return false }
                    var x = qualifier.value.lowerBound
                    guard oid(&x, qualifier.value.upperBound) != nil, isSimpleQualifier(&x, qualifier.value.upperBound, depth: 0),
                          x == qualifier.value.upperBound else { return false }
                }
            }
            if identifiers.contains(where: { bytes($0, equal: identifier) }) { return false }
            identifiers.append(identifier)
            return true
        }
    }
}

/// A short constant byte string compared against input.
typealias StaticBytes = [UInt8]
