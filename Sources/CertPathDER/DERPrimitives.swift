// Validation and decoding of the universal primitive types X.509 uses, with the DER rules of
// X.690 clause 11 (and 8.x for each type's basic encoding).

extension DERReader {
    // MARK: BOOLEAN (X.690 8.2, 11.1)

    /// Decodes a BOOLEAN's contents: exactly one octet, 0x00 (FALSE) or 0xFF (TRUE).
    ///
    /// - Throws: ``DERError/Code/invalidBoolean``.
    @inlinable
    public func boolean(_ element: DERElement, _ expected: @autoclosure () -> String) throws(DERError) -> Bool {
        guard element.value.count == 1 else { throw DERError(.invalidBoolean, at: element.offset, expected: expected()) }
        switch bytes[element.value.lowerBound] {
        case 0x00: return false
        case 0xFF: return true
        default: throw DERError(.invalidBoolean, at: element.offset, expected: expected())
        }
    }

    /// Reads a BOOLEAN.
    @inlinable
    public mutating func readBoolean(_ expected: @autoclosure () -> String) throws(DERError) -> Bool {
        try boolean(try read(.boolean, expected()), expected())
    }

    /// Reads an optional `BOOLEAN DEFAULT FALSE`: absent means `false`.
    ///
    /// - Throws: ``DERError/Code/explicitDefault`` when FALSE is encoded (X.690 11.5), and BOOLEAN errors.
    @inlinable
    public mutating func readBooleanDefaultFalse(_ expected: @autoclosure () -> String) throws(DERError) -> Bool {
        guard let element = try readOptional(.boolean, expected()) else { return false }
        guard try boolean(element, expected()) else {
            throw DERError(.explicitDefault, at: element.offset, expected: "\(expected()) omitted when FALSE")
        }
        return true
    }

    // MARK: INTEGER and ENUMERATED (X.690 8.3, 8.4)

    /// Checks an INTEGER's (or ENUMERATED's) contents: at least one octet, and minimal — the first nine
    /// bits neither all zeros nor all ones.
    ///
    /// - Throws: ``DERError/Code/emptyInteger`` or ``DERError/Code/nonMinimalInteger``.
    @inlinable
    public func validateInteger(_ element: DERElement, _ expected: @autoclosure () -> String) throws(DERError) {
        let value = element.value
        guard let firstIndex = value.first else { throw DERError(.emptyInteger, at: element.offset, expected: expected()) }
        if value.count > 1 {
            let first = bytes[firstIndex], second = bytes[firstIndex + 1]
            if (first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) {
                throw DERError(.nonMinimalInteger, at: element.offset, expected: "minimal \(expected())")
            }
        }
    }

    /// Whether a validated INTEGER is negative (its first contents bit is set).
    @inlinable
    public func isNegativeInteger(_ element: DERElement) -> Bool {
        guard let first = element.value.first else { return false }
        return bytes[first] & 0x80 != 0
    }

    /// Reads an INTEGER of any size and sign, validated; returns its element (contents are two's complement).
    @inlinable
    public mutating func readInteger(_ expected: @autoclosure () -> String) throws(DERError) -> DERElement {
        let element = try read(.integer, expected())
        try validateInteger(element, expected())
        return element
    }

    /// Decodes a non-negative INTEGER (or ENUMERATED) into `T`.
    ///
    /// - Throws: the errors of ``validateInteger(_:_:)``, ``DERError/Code/negativeInteger``, and
    ///   ``DERError/Code/integerTooLarge`` when the value does not fit `T`.
    @inlinable
    public func unsignedInteger<T: FixedWidthInteger & UnsignedInteger>(
        _ element: DERElement, _ expected: @autoclosure () -> String, as type: T.Type = T.self
    ) throws(DERError) -> T {
        try validateInteger(element, expected())
        if isNegativeInteger(element) { throw DERError(.negativeInteger, at: element.offset, expected: "non-negative \(expected())") }
        var value = element.value
        if bytes[value.lowerBound] == 0 { value = value.dropFirst() }
        guard value.count <= T.bitWidth / 8 else {
            throw DERError(.integerTooLarge, at: element.offset, expected: "\(expected()) of at most \(T.bitWidth) bits")
        }
        var result: T = 0
        for index in value { result = (result << 8) | T(bytes[index]) }
        return result
    }

    /// Reads a non-negative INTEGER into `T` (see ``unsignedInteger(_:_:as:)``).
    @inlinable
    public mutating func readUnsigned<T: FixedWidthInteger & UnsignedInteger>(
        _ expected: @autoclosure () -> String, as type: T.Type = T.self
    ) throws(DERError) -> T {
        try unsignedInteger(try read(.integer, expected()), expected())
    }

    // MARK: BIT STRING (X.690 8.6, 11.2)

    /// Validates a primitive BIT STRING's contents: an unused-bits octet 0...7, zero when there are no
    /// bit bytes, and zero padding bits (X.690 11.2.1). With `namedBits`, the DER rule for named bit
    /// lists applies too: no trailing zero bits (X.690 11.2.2), so the last bit is a one.
    ///
    /// - Throws: ``DERError/Code/invalidBitString``.
    @inlinable
    public func bitString(_ element: DERElement, _ expected: @autoclosure () -> String, namedBits: Bool = false) throws(DERError) -> DERBitString {
        let value = element.value
        guard let first = value.first else {
            throw DERError(.invalidBitString, at: element.offset, expected: "unused-bits octet in \(expected())")
        }
        let unused = bytes[first]
        let data = (first + 1)..<value.upperBound
        guard unused <= 7, !(data.isEmpty && unused != 0) else {
            throw DERError(.invalidBitString, at: first, expected: "unused bits 0...7 (0 when empty) in \(expected())")
        }
        if let lastIndex = data.last {
            let last = bytes[lastIndex]
            let padding: UInt8 = unused == 0 ? 0 : UInt8((1 << Int(unused)) - 1)
            guard last & padding == 0 else {
                throw DERError(.invalidBitString, at: lastIndex, expected: "zero padding bits in \(expected())")
            }
            if namedBits && last & (1 << unused) == 0 {
                throw DERError(.invalidBitString, at: lastIndex, expected: "no trailing zero bits in named bit list \(expected())")
            }
        }
        return DERBitString(bytes: data, unusedBits: unused)
    }

    /// The bits of a validated BIT STRING of at most 64 bits as a mask, bit `n` of the ASN.1 named
    /// bit list (the most significant bit of the first byte is bit 0) being `1 << n`.
    ///
    /// - Precondition: `bits.bitCount <= 64`.
    @inlinable
    public func namedBits(_ bits: DERBitString) -> UInt64 {
        precondition(bits.bitCount <= 64, "named bit lists of more than 64 bits")
        var value: UInt64 = 0
        for (index, byteIndex) in bits.bytes.enumerated() {
            let byte = bytes[byteIndex]
            for bit in 0..<8 where byte & (0x80 >> bit) != 0 { value |= 1 << UInt64(index * 8 + bit) }
        }
        return value
    }

    /// Reads a primitive BIT STRING (see ``bitString(_:_:namedBits:)``).
    @inlinable
    public mutating func readBitString(_ expected: @autoclosure () -> String, namedBits: Bool = false) throws(DERError) -> DERBitString {
        try bitString(try read(.bitString, expected()), expected(), namedBits: namedBits)
    }

    // MARK: OCTET STRING, NULL

    /// Reads a primitive OCTET STRING; its contents are `element.value`.
    @inlinable
    public mutating func readOctetString(_ expected: @autoclosure () -> String) throws(DERError) -> DERElement {
        try read(.octetString, expected())
    }

    /// Reads a NULL, which has no contents (X.690 8.8.2).
    ///
    /// - Throws: ``DERError/Code/invalidNull`` when it has contents.
    @inlinable
    public mutating func readNull(_ expected: @autoclosure () -> String) throws(DERError) {
        let element = try read(.null, expected())
        guard element.value.isEmpty else { throw DERError(.invalidNull, at: element.offset, expected: expected()) }
    }

    // MARK: OBJECT IDENTIFIER (X.690 8.19)

    /// Validates an OBJECT IDENTIFIER's contents: non-empty, every subidentifier in the fewest octets
    /// (no leading 0x80), the last octet ending a subidentifier.
    ///
    /// - Throws: ``DERError/Code/invalidObjectIdentifier``.
    @inlinable
    public func validateObjectIdentifier(_ element: DERElement, _ expected: @autoclosure () -> String) throws(DERError) {
        let value = element.value
        guard !value.isEmpty else { throw DERError(.invalidObjectIdentifier, at: element.offset, expected: expected()) }
        var atStart = true
        for index in value {
            let byte = bytes[index]
            if atStart && byte == 0x80 {
                throw DERError(.invalidObjectIdentifier, at: index, expected: "minimal subidentifier in \(expected())")
            }
            atStart = byte & 0x80 == 0
        }
        guard atStart else {
            throw DERError(.invalidObjectIdentifier, at: value.upperBound - 1, expected: "complete last subidentifier in \(expected())")
        }
    }

    /// Reads and validates an OBJECT IDENTIFIER; its encoded arcs are `element.value`.
    @inlinable
    public mutating func readObjectIdentifier(_ expected: @autoclosure () -> String) throws(DERError) -> DERElement {
        let element = try read(.objectIdentifier, expected())
        try validateObjectIdentifier(element, expected())
        return element
    }

    /// Whether the contents of `element` equal `encodedArcs` (an OID's contents octets).
    @inlinable
    public func contentsEqual(_ element: DERElement, _ encodedArcs: ArraySlice<UInt8>) -> Bool {
        guard element.value.count == encodedArcs.count else { return false }
        return withUnsafeBytes(of: element.value) { contents in
            encodedArcs.withUnsafeBufferPointer { arcs in
                for index in 0..<arcs.count where contents[index] != arcs[index] { return false }
                return true
            }
        }
    }

    // MARK: UTCTime, GeneralizedTime (X.690 11.7, 11.8; RFC 5280 4.1.2.5)

    /// Decodes a UTCTime (`YYMMDDHHMMSSZ`, years 1950–2049 per RFC 5280 4.1.2.5.1) or a
    /// GeneralizedTime (`YYYYMMDDHHMMSSZ`, no fractional seconds per RFC 5280 4.1.2.5.2), chosen by
    /// the element's tag.
    ///
    /// - Throws: ``DERError/Code/invalidTime`` for any other form or an impossible date,
    ///   ``DERError/Code/unexpectedTag`` for another tag.
    @inlinable
    public func time(_ element: DERElement, _ expected: @autoclosure () -> String) throws(DERError) -> UnixTime {
        let value = element.value
        let generalized: Bool
        switch element.tag {
        case .utcTime: generalized = false
        case .generalizedTime: generalized = true
        default:
            throw DERError(.unexpectedTag, at: element.offset, expected: "UTCTime or GeneralizedTime (\(expected())), found \(element.tag)")
        }
        // Built only when thrown: the success path makes no string.
        func invalid() -> DERError {
            DERError(.invalidTime, at: element.offset, expected: "\(generalized ? "YYYYMMDDHHMMSSZ" : "YYMMDDHHMMSSZ") (\(expected()))")
        }
        guard value.count == (generalized ? 15 : 13), bytes[value.upperBound - 1] == UInt8(ascii: "Z") else { throw invalid() }
        var cursor = value.lowerBound
        func twoDigits() -> Int? {
            let high = bytes[cursor] &- 0x30, low = bytes[cursor + 1] &- 0x30
            cursor += 2
            return high <= 9 && low <= 9 ? Int(high) * 10 + Int(low) : nil
        }
        var year: Int
        if generalized {
            guard let century = twoDigits(), let rest = twoDigits() else { throw invalid() }
            year = century * 100 + rest
        } else {
            guard let short = twoDigits() else { throw invalid() }
            year = short < 50 ? 2000 + short : 1900 + short
        }
        guard let month = twoDigits(), let day = twoDigits(), let hour = twoDigits(),
              let minute = twoDigits(), let second = twoDigits(),
              let time = UnixTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { throw invalid() }
        return time
    }

    /// Reads a `Time ::= CHOICE { utcTime UTCTime, generalTime GeneralizedTime }` (RFC 5280 4.1).
    ///
    /// - Returns: the instant and whether it was encoded as GeneralizedTime.
    @inlinable
    public mutating func readTime(_ expected: @autoclosure () -> String) throws(DERError) -> (time: UnixTime, isGeneralizedTime: Bool) {
        let element = try readElement(expected())
        return (try time(element, expected()), element.tag == .generalizedTime)
    }
}
