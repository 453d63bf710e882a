// Validation and decoding of the universal primitive types X.509 uses, with the DER rules of
// X.690 clause 11 (and 8.x for each type's basic encoding).

extension DERReader {
    /// An error whose message is made only when it is thrown: keeps the string building out of the
    /// inlined reading code (`throw DERReader.failure(.x, at: offset) { "minimal \(expected())" }`).
    @usableFromInline @inline(never)
    static func failure(_ code: DERError.Code, at offset: Int, _ message: () -> String) -> DERError {
        DERError(code, at: offset, expected: message())
    }

    // MARK: BOOLEAN (X.690 8.2, 11.1)

    /// Decodes a BOOLEAN's contents: exactly one octet, 0x00 (FALSE) or 0xFF (TRUE).
    ///
    /// TRUE written as another non-zero octet (BER, X.690 8.2.2) is refused, not tolerated: DER
    /// requires 0xFF (X.690 11.1), and Chromium (BoringSSL `pki`, `der::ParseBool` for an extension's
    /// critical flag and basicConstraints cA), Go (`cryptobyte.ReadASN1Boolean`), rustls-webpki and
    /// pyca/cryptography all refuse it; OpenSSL alone reads it (docs/RULES.md, the leniency list).
    ///
    /// - Throws: ``DERError/Code/invalidBoolean``.
    @inlinable @inline(__always)
    package func boolean(_ element: DERElement, _ expected: @autoclosure () -> String) throws(DERError) -> Bool {
        guard _fastPath(element.value.count == 1) else { throw DERReader.failure(.invalidBoolean, at: element.offset) { expected() } }
        requireWithinBuffer(element.value)
        switch byte(at: element.value.lowerBound) {
        case 0x00: return false
        case 0xFF: return true
        default: throw DERReader.failure(.invalidBoolean, at: element.offset) { "\(expected()) as 0x00 or 0xFF (X.690 11.1)" }
        }
    }

    /// Reads a BOOLEAN.
    @inlinable @inline(__always)
    package mutating func readBoolean(_ expected: @autoclosure () -> String) throws(DERError) -> Bool {
        // Read first, in a statement of its own: `boolean(try read(…))` would copy `self` (evaluated
        // before the mutating argument), retaining the buffer.
        let element = try read(.boolean, expected())
        return try boolean(element, expected())
    }

    /// Reads an optional `BOOLEAN DEFAULT FALSE`: absent means `false`.
    ///
    /// - Throws: ``DERError/Code/explicitDefault`` when FALSE is encoded (X.690 11.5), and BOOLEAN errors.
    @inlinable @inline(__always)
    package mutating func readBooleanDefaultFalse(_ expected: @autoclosure () -> String) throws(DERError) -> Bool {
        guard let element = try readOptional(.boolean, expected()) else { return false }
        guard _fastPath(try boolean(element, expected())) else {
            throw DERReader.failure(.explicitDefault, at: element.offset) { "\(expected()) omitted when FALSE" }
        }
        return true
    }

    // MARK: INTEGER and ENUMERATED (X.690 8.3, 8.4)

    /// Checks an INTEGER's (or ENUMERATED's) contents: at least one octet, and minimal — the first nine
    /// bits neither all zeros nor all ones.
    ///
    /// - Throws: ``DERError/Code/emptyInteger`` or ``DERError/Code/nonMinimalInteger``.
    @inlinable @inline(__always)
    package func validateInteger(_ element: DERElement, _ expected: @autoclosure () -> String) throws(DERError) {
        let value = element.value
        guard let firstIndex = value.first else { throw DERReader.failure(.emptyInteger, at: element.offset) { expected() } }
        requireWithinBuffer(value)
        if value.count > 1 {
            let first = byte(at: firstIndex), second = byte(at: firstIndex &+ 1)
            if _slowPath((first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0)) {
                throw DERReader.failure(.nonMinimalInteger, at: element.offset) { "minimal \(expected())" }
            }
        }
    }

    /// Whether a validated INTEGER is negative (its first contents bit is set).
    @inlinable @inline(__always)
    package func isNegativeInteger(_ element: DERElement) -> Bool {
        guard let first = element.value.first else { return false }
        requireWithinBuffer(element.value)
        return byte(at: first) & 0x80 != 0
    }

    /// Reads an INTEGER of any size and sign, validated; returns its element (contents are two's complement).
    @inlinable @inline(__always)
    package mutating func readInteger(_ expected: @autoclosure () -> String) throws(DERError) -> DERElement {
        let element = try read(.integer, expected())
        try validateInteger(element, expected())
        return element
    }

    /// Decodes a non-negative INTEGER (or ENUMERATED) into `T`.
    ///
    /// - Throws: the errors of ``validateInteger(_:_:)``, ``DERError/Code/negativeInteger``, and
    ///   ``DERError/Code/integerTooLarge`` when the value does not fit `T`.
    @inlinable @inline(__always)
    package func unsignedInteger<T: FixedWidthInteger & UnsignedInteger>(
        _ element: DERElement, _ expected: @autoclosure () -> String, as type: T.Type = T.self
    ) throws(DERError) -> T {
        try validateInteger(element, expected())
        if _slowPath(isNegativeInteger(element)) { throw DERReader.failure(.negativeInteger, at: element.offset) { "non-negative \(expected())" } }
        var value = element.value  // validated above: non-empty and within the buffer
        if byte(at: value.lowerBound) == 0 { value = value.dropFirst() }
        guard _fastPath(value.count <= T.bitWidth / 8) else {
            throw DERReader.failure(.integerTooLarge, at: element.offset) { "\(expected()) of at most \(T.bitWidth) bits" }
        }
        var result: T = 0
        var index = value.lowerBound
        while index < value.upperBound {
            result = (result &<< 8) | T(byte(at: index))
            index &+= 1
        }
        return result
    }

    /// Reads a non-negative INTEGER into `T` (see ``unsignedInteger(_:_:as:)``).
    @inlinable @inline(__always)
    package mutating func readUnsigned<T: FixedWidthInteger & UnsignedInteger>(
        _ expected: @autoclosure () -> String, as type: T.Type = T.self
    ) throws(DERError) -> T {
        let element = try read(.integer, expected())  // not inside the call: that would copy `self`
        return try unsignedInteger(element, expected())
    }

    // MARK: BIT STRING (X.690 8.6, 11.2)

    /// Validates a primitive BIT STRING's contents: an unused-bits octet 0...7, zero when there are no
    /// bit bytes, and zero padding bits (X.690 11.2.1). With `namedBits`, the DER rule for named bit
    /// lists applies too: no trailing zero bits (X.690 11.2.2), so the last bit is a one.
    ///
    /// - Throws: ``DERError/Code/invalidBitString``.
    @inlinable @inline(__always)
    package func bitString(_ element: DERElement, _ expected: @autoclosure () -> String, namedBits: Bool = false) throws(DERError) -> DERBitString {
        let value = element.value
        guard let first = value.first else {
            throw DERReader.failure(.invalidBitString, at: element.offset) { "unused-bits octet in \(expected())" }
        }
        requireWithinBuffer(value)
        let unused = byte(at: first)
        let data = (first + 1)..<value.upperBound
        guard _fastPath(unused <= 7 && !(data.isEmpty && unused != 0)) else {
            throw DERReader.failure(.invalidBitString, at: first) { "unused bits 0...7 (0 when empty) in \(expected())" }
        }
        if let lastIndex = data.last {
            let last = byte(at: lastIndex)
            let padding: UInt8 = unused == 0 ? 0 : UInt8((1 << Int(unused)) - 1)
            guard _fastPath(last & padding == 0) else {
                throw DERReader.failure(.invalidBitString, at: lastIndex) { "zero padding bits in \(expected())" }
            }
            if _slowPath(namedBits && last & (1 << unused) == 0) {
                throw DERReader.failure(.invalidBitString, at: lastIndex) { "no trailing zero bits in named bit list \(expected())" }
            }
        }
        return DERBitString(bytes: data, unusedBits: unused)
    }

    /// The bits of a validated BIT STRING of at most 64 bits as a mask, bit `n` of the ASN.1 named
    /// bit list (the most significant bit of the first byte is bit 0) being `1 << n`.
    ///
    /// - Precondition: `bits.bitCount <= 64`.
    @inlinable @inline(__always)
    package func namedBits(_ bits: DERBitString) -> UInt64 {
        precondition(bits.bitCount <= 64, "named bit lists of more than 64 bits")
        requireWithinBuffer(bits.bytes)
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byteIndex in bits.bytes {
            // Bit 0 of the list is the most significant bit of the first byte: reverse each byte.
            var byte = byte(at: byteIndex)
            byte = (byte & 0xF0) >> 4 | (byte & 0x0F) << 4
            byte = (byte & 0xCC) >> 2 | (byte & 0x33) << 2
            byte = (byte & 0xAA) >> 1 | (byte & 0x55) << 1
            value |= UInt64(byte) << shift
            shift &+= 8
        }
        return value
    }

    /// Reads a primitive BIT STRING (see ``bitString(_:_:namedBits:)``).
    @inlinable @inline(__always)
    package mutating func readBitString(_ expected: @autoclosure () -> String, namedBits: Bool = false) throws(DERError) -> DERBitString {
        let element = try read(.bitString, expected())  // not inside the call: that would copy `self`
        return try bitString(element, expected(), namedBits: namedBits)
    }

    // MARK: OCTET STRING, NULL

    /// Reads a primitive OCTET STRING; its contents are `element.value`.
    @inlinable @inline(__always)
    package mutating func readOctetString(_ expected: @autoclosure () -> String) throws(DERError) -> DERElement {
        try read(.octetString, expected())
    }

    /// Reads a NULL, which has no contents (X.690 8.8.2).
    ///
    /// - Throws: ``DERError/Code/invalidNull`` when it has contents.
    @inlinable @inline(__always)
    package mutating func readNull(_ expected: @autoclosure () -> String) throws(DERError) {
        let element = try read(.null, expected())
        guard _fastPath(element.value.isEmpty) else { throw DERReader.failure(.invalidNull, at: element.offset) { expected() } }
    }

    // MARK: OBJECT IDENTIFIER (X.690 8.19)

    /// Validates an OBJECT IDENTIFIER's contents: non-empty, every subidentifier in the fewest octets
    /// (no leading 0x80), the last octet ending a subidentifier.
    ///
    /// - Throws: ``DERError/Code/invalidObjectIdentifier``.
    @inlinable @inline(__always)
    package func validateObjectIdentifier(_ element: DERElement, _ expected: @autoclosure () -> String) throws(DERError) {
        let value = element.value
        guard _fastPath(!value.isEmpty) else { throw DERReader.failure(.invalidObjectIdentifier, at: element.offset) { expected() } }
        requireWithinBuffer(value)
        // Static helpers over the fields they need: a method call on `self` would copy the reader.
        let problem = value.count <= 8 && value.upperBound &- 8 >= bufferStart
            ? DERReader.shortObjectIdentifierProblem(base, value) : DERReader.objectIdentifierProblem(base, bufferStart, value)
        guard _fastPath(problem == DERReader.validObjectIdentifier) else { throw DERReader.objectIdentifierError(problem, value, expected) }
    }

    /// ``objectIdentifierProblem(_:)`` for contents of at most 8 octets with 8 octets of the buffer
    /// ending where they end: one word, inlined (most OIDs in certificates are this short).
    @inlinable @inline(__always)
    static func shortObjectIdentifierProblem(_ base: UnsafePointer<UInt8>, _ value: Range<Int>) -> Int {
        let highs: UInt64 = 0x8080_8080_8080_8080, lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let count = value.count
        let word = UInt64(littleEndian: UnsafeRawPointer(base + (value.upperBound &- 8)).loadUnaligned(as: UInt64.self))
            &>> UInt64(8 &* (8 &- count))
        let flipped = word ^ highs
        let isEighty = ~(((flipped & lows) &+ lows) | flipped) & highs
        let bad = isEighty & ~(word &<< 8) & highs
        if bad != 0 { return value.lowerBound &+ bad.trailingZeroBitCount / 8 }
        return (word &>> UInt64(8 &* (count &- 1))) & 0x80 == 0 ? DERReader.validObjectIdentifier : DERReader.incompleteObjectIdentifier
    }

    /// What ``objectIdentifierProblem(_:)`` returns for valid contents.
    @usableFromInline
    static var validObjectIdentifier: Int { -1 }
    /// What ``objectIdentifierProblem(_:)`` returns when the last octet does not end a subidentifier.
    @usableFromInline
    static var incompleteObjectIdentifier: Int { -2 }

    /// The OBJECT IDENTIFIER rules (X.690 8.19.2) over non-empty contents within the buffer, eight
    /// octets at a time: a subidentifier starts at the first octet and after each octet below 0x80,
    /// and may not start with 0x80; the last octet must be below 0x80.
    ///
    /// - Returns: ``validObjectIdentifier``, ``incompleteObjectIdentifier``, or the offset of the
    ///   first octet 0x80 that starts a subidentifier.
    @usableFromInline
    static func objectIdentifierProblem(_ base: UnsafePointer<UInt8>, _ bufferStart: Int, _ value: Range<Int>) -> Int {
        let highs: UInt64 = 0x8080_8080_8080_8080, lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var index = value.lowerBound
        let end = value.upperBound
        var previousHigh: UInt64 = 0  // the high bit of the octet before `index` (none: a subidentifier starts)
        while index < end {
            let count = Swift.min(8, end &- index)
            // The next `count` octets, the first in the low byte. A short tail is read with the
            // octets before it when they are in the buffer, and shifted out.
            var word: UInt64
            if count == 8 {
                word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            } else if end &- 8 >= bufferStart {
                word = UInt64(littleEndian: UnsafeRawPointer(base + (end &- 8)).loadUnaligned(as: UInt64.self)) &>> UInt64(8 &* (8 &- count))
            } else {
                word = 0
                for octet in 0..<count { word |= UInt64(base[index &+ octet]) &<< UInt64(8 &* octet) }
            }
            // Octets equal to 0x80 (their high bit set in `isEighty`), exactly: no carry crosses octets.
            let flipped = word ^ highs
            let isEighty = ~(((flipped & lows) &+ lows) | flipped) & highs
            // Starts of subidentifiers: octets whose predecessor is below 0x80.
            let predecessorHigh = (word &<< 8) | previousHigh
            let bad = isEighty & ~predecessorHigh & highs
            if bad != 0 { return index &+ bad.trailingZeroBitCount / 8 }
            previousHigh = (word &>> UInt64(8 &* (count &- 1))) & 0x80
            index &+= count
        }
        return previousHigh == 0 ? DERReader.validObjectIdentifier : DERReader.incompleteObjectIdentifier
    }

    /// The error ``validateObjectIdentifier(_:_:)`` throws for a `problem` of ``objectIdentifierProblem(_:)``.
    @usableFromInline @inline(never)
    static func objectIdentifierError(_ problem: Int, _ value: Range<Int>, _ expected: () -> String) -> DERError {
        if problem == incompleteObjectIdentifier {
            return DERError(.invalidObjectIdentifier, at: value.upperBound - 1, expected: "complete last subidentifier in \(expected())")
        }
        return DERError(.invalidObjectIdentifier, at: problem, expected: "minimal subidentifier in \(expected())")
    }

    /// Reads and validates an OBJECT IDENTIFIER; its encoded arcs are `element.value`.
    @inlinable @inline(__always)
    package mutating func readObjectIdentifier(_ expected: @autoclosure () -> String) throws(DERError) -> DERElement {
        let element = try read(.objectIdentifier, expected())
        try validateObjectIdentifier(element, expected())
        return element
    }

    /// Whether the contents of `element` equal `encodedArcs` (an OID's contents octets).
    @inlinable @inline(__always)
    package func contentsEqual(_ element: DERElement, _ encodedArcs: ArraySlice<UInt8>) -> Bool {
        guard element.value.count == encodedArcs.count else { return false }
        return withUnsafeBytes(of: element.value) { contents in
            encodedArcs.withUnsafeBufferPointer { arcs in DERReader.equal(contents, arcs) }
        }
    }

    /// Whether `a` and `b` (of equal counts) hold the same bytes.
    @usableFromInline
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let x = a.baseAddress, let y = b.baseAddress else { return a.count == b.count }
        var index = 0
        while index < a.count {
            if x[index] != y[index] { return false }
            index &+= 1
        }
        return true
    }

    /// Whether the bytes at offsets `a` and `b` of ``bytes`` are equal.
    ///
    /// - Precondition: both ranges lie within ``bytes``.
    @inlinable @inline(__always)
    package func bytesEqual(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        requireWithinBuffer(a)
        requireWithinBuffer(b)
        return DERReader.equal(UnsafeBufferPointer(start: base + a.lowerBound, count: a.count),
                               UnsafeBufferPointer(start: base + b.lowerBound, count: b.count))
    }

    /// Whether the bytes at offsets `range` of ``bytes`` are `constant` (an OID's contents, a
    /// marker), compared in place (the generic `elementsEqual` of a slice and an array walks two
    /// iterators).
    ///
    /// - Precondition: `range` lies within ``bytes``.
    @inlinable @inline(__always)
    package func bytesEqual(_ range: Range<Int>, _ constant: ArraySlice<UInt8>) -> Bool {
        guard range.count == constant.count else { return false }
        requireWithinBuffer(range)
        return constant.withUnsafeBufferPointer { DERReader.equal(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), $0) }
    }

    // MARK: UTCTime, GeneralizedTime (X.690 11.7, 11.8; RFC 5280 4.1.2.5)

    /// Decodes a UTCTime (`YYMMDDHHMMSSZ`, years 1950–2049 per RFC 5280 4.1.2.5.1) or a
    /// GeneralizedTime (`YYYYMMDDHHMMSSZ`, no fractional seconds per RFC 5280 4.1.2.5.2), chosen by
    /// the element's tag.
    ///
    /// - Throws: ``DERError/Code/invalidTime`` for any other form or an impossible date,
    ///   ``DERError/Code/unexpectedTag`` for another tag.
    @inlinable @inline(__always)
    package func time(_ element: DERElement, _ expected: @autoclosure () -> String) throws(DERError) -> UnixTime {
        let generalized: Bool
        switch element.tag {
        case .utcTime: generalized = false
        case .generalizedTime: generalized = true
        default:
            throw DERReader.failure(.unexpectedTag, at: element.offset) { "UTCTime or GeneralizedTime (\(expected())), found \(element.tag)" }
        }
        requireWithinBuffer(element.value)
        guard let time = DERReader.decodeTime(base, element.value, generalized: generalized) else {
            throw DERReader.invalidTime(element, generalized: generalized, expected)
        }
        return time
    }

    /// The time rules (X.690 11.7, 11.8; RFC 5280 4.1.2.5) over contents within the buffer:
    /// `YYMMDDHHMMSSZ` or `YYYYMMDDHHMMSSZ`, digits only, a possible date and time. One shared copy.
    ///
    /// - Returns: the instant, or `nil` when the contents are not of that form.
    @usableFromInline
    static func decodeTime(_ base: UnsafePointer<UInt8>, _ value: Range<Int>, generalized: Bool) -> UnixTime? {
        let digitCount = generalized ? 14 : 12
        guard value.count == digitCount &+ 1, base[value.upperBound &- 1] == UInt8(ascii: "Z") else { return nil }
        // The digits as two overlapping words (the first eight, the last eight), checked and
        // paired eight at a time: each 16-bit lane of `pairs` is the value of two digits.
        let raw = UnsafeRawPointer(base + value.lowerBound)
        let head = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let tail = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: digitCount &- 8, as: UInt64.self))
        let zeros: UInt64 = 0x3030_3030_3030_3030
        // A byte is a digit when subtracting 0x30 does not wrap and adding 0x46 stays below 0x80;
        // carries and borrows between bytes only follow a byte that fails on its own.
        guard ((head &- zeros) | (head &+ 0x4646_4646_4646_4646) | (tail &- zeros) | (tail &+ 0x4646_4646_4646_4646))
                & 0x8080_8080_8080_8080 == 0 else { return nil }
        func pairs(_ word: UInt64) -> UInt64 {
            let digits = word &- zeros
            return (digits & 0x00FF_00FF_00FF_00FF) &* 10 &+ ((digits &>> 8) & 0x00FF_00FF_00FF_00FF)
        }
        func lane(_ word: UInt64, _ index: UInt64) -> Int { Int(truncatingIfNeeded: (word &>> (16 &* index)) & 0xFFFF) }
        let first = pairs(head), last = pairs(tail)
        // UTCTime:         YY MM DD HH | (DD HH) mm ss  (digits 0-7 and 4-11)
        // GeneralizedTime: CC YY MM DD | (DD) HH mm ss  (digits 0-7 and 6-13)
        let year: Int, month: Int, day: Int
        if generalized {
            year = lane(first, 0) &* 100 &+ lane(first, 1)
            month = lane(first, 2)
            day = lane(first, 3)
        } else {
            let short = lane(first, 0)
            year = short < 50 ? 2000 &+ short : 1900 &+ short
            month = lane(first, 1)
            day = lane(first, 2)
        }
        return UnixTime(year: year, month: month, day: day, hour: lane(last, 1), minute: lane(last, 2), second: lane(last, 3))
    }

    /// The error ``time(_:_:)`` throws for a time not in its DER form.
    @usableFromInline @inline(never)
    static func invalidTime(_ element: DERElement, generalized: Bool, _ expected: () -> String) -> DERError {
        DERError(.invalidTime, at: element.offset, expected: "\(generalized ? "YYYYMMDDHHMMSSZ" : "YYMMDDHHMMSSZ") (\(expected()))")
    }

    /// Reads a `Time ::= CHOICE { utcTime UTCTime, generalTime GeneralizedTime }` (RFC 5280 4.1).
    ///
    /// - Returns: the instant and whether it was encoded as GeneralizedTime.
    @inlinable @inline(__always)
    package mutating func readTime(_ expected: @autoclosure () -> String) throws(DERError) -> (time: UnixTime, isGeneralizedTime: Bool) {
        let element = try readElement(expected())
        return (try time(element, expected()), element.tag == .generalizedTime)
    }
}
