/// Decoding of the ASN.1 character string types that X.509 names and extensions use
/// (X.680 clause 41; RFC 5280 4.1.2.4 DirectoryString, 4.2.1.6 IA5String names).
@usableFromInline package enum DERString {
    /// Decodes the contents of a character string element of type `tag`, validating its alphabet.
    ///
    /// - PrintableString: `A–Z a–z 0–9 space ' ( ) + , - . / : = ?` (X.680 41.4).
    /// - IA5String: ASCII 0x00–0x7F. VisibleString: 0x20–0x7E. NumericString: digits and space.
    /// - UTF8String: well-formed UTF-8. BMPString: UCS-2 big-endian, no surrogates.
    ///   UniversalString: UCS-4 big-endian scalars.
    /// - TeletexString (T.61): read as ISO 8859-1, the interpretation used in practice.
    ///
    /// - Returns: the string, or `nil` when the bytes are not valid for the type or the tag is not a
    ///   string type.
    @usableFromInline package static func decode(_ bytes: ArraySlice<UInt8>, tag: DERTag) -> String? {
        switch tag {
        case .utf8String:
            return String(validating: bytes, as: UTF8.self)
        case .printableString, .ia5String, .visibleString, .numericString:
            guard isValid(bytes, tag: tag) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        case .teletexString:
            var scalars = String.UnicodeScalarView()
            for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
            return String(scalars)
        case .bmpString:
            guard bytes.count % 2 == 0 else { return nil }
            var scalars = String.UnicodeScalarView()
            var index = bytes.startIndex
            while index < bytes.endIndex {
                let unit = UInt32(bytes[index]) << 8 | UInt32(bytes[index + 1])
                guard let scalar = Unicode.Scalar(unit) else { return nil }  // rejects surrogates
                scalars.append(scalar)
                index += 2
            }
            return String(scalars)
        case .universalString:
            guard bytes.count % 4 == 0 else { return nil }
            var scalars = String.UnicodeScalarView()
            var index = bytes.startIndex
            while index < bytes.endIndex {
                var value: UInt32 = 0
                for offset in 0..<4 { value = value << 8 | UInt32(bytes[index + offset]) }
                guard let scalar = Unicode.Scalar(value) else { return nil }
                scalars.append(scalar)
                index += 4
            }
            return String(scalars)
        default:
            return nil
        }
    }

    /// Whether `tag` is one of the string types ``decode(_:tag:)`` reads.
    @inlinable
    package static func isStringType(_ tag: DERTag) -> Bool {
        switch tag {
        case .utf8String, .printableString, .ia5String, .visibleString, .numericString, .teletexString,
             .bmpString, .universalString:
            return true
        default:
            return false
        }
    }

    /// Whether `byte` is in PrintableString's alphabet (X.680 41.4, table 10).
    @usableFromInline package static func isPrintable(_ byte: UInt8) -> Bool { isInSet(byte, printableSet) }
}

extension DERString {
    /// Whether `bytes` are valid contents for the string type `tag`, without building a `String`
    /// (same rules as ``decode(_:tag:)``; `false` for non-string tags).
    @usableFromInline package static func isValid(_ bytes: ArraySlice<UInt8>, tag: DERTag) -> Bool {
        bytes.withUnsafeBufferPointer { isValid($0, tag: tag) }
    }

    /// ``isValid(_:tag:)-(ArraySlice<UInt8>,_)`` over bytes in memory.
    @usableFromInline package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, tag: DERTag) -> Bool {
        switch tag {
        case .utf8String: return isValidUTF8(bytes)
        case .printableString: return allInSet(bytes, printableSet)
        case .ia5String: return isASCII(bytes)
        case .visibleString: return allInSet(bytes, visibleSet)
        case .numericString: return allInSet(bytes, numericSet)
        case .teletexString: return true
        case .bmpString:
            guard bytes.count % 2 == 0 else { return false }
            for index in stride(from: 0, to: bytes.count, by: 2) {
                let unit = UInt32(bytes[index]) << 8 | UInt32(bytes[index + 1])
                guard Unicode.Scalar(unit) != nil else { return false }  // rejects surrogates
            }
            return true
        case .universalString:
            guard bytes.count % 4 == 0 else { return false }
            for index in stride(from: 0, to: bytes.count, by: 4) {
                var value: UInt32 = 0
                for offset in 0..<4 { value = value << 8 | UInt32(bytes[index + offset]) }
                guard Unicode.Scalar(value) != nil else { return false }
            }
            return true
        default: return false
        }
    }

    /// Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
    @usableFromInline package static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { isValidUTF8($0) }
    }

    /// Whether every byte is below 0x80, eight at a time (the last word overlapping the one before).
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return true }
        let count = bytes.count
        guard count >= 8 else {
            var combined: UInt8 = 0
            for index in 0..<count { combined |= start[index] }
            return combined < 0x80
        }
        let raw = UnsafeRawPointer(start)
        var combined = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        var index = 0
        while count &- index > 8 {
            combined |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index &+= 8
        }
        return combined & 0x8080_8080_8080_8080 == 0
    }

    /// A set of ASCII bytes: bit `b` of the two words is byte `b` (`low` for 0–63, `high` for 64–127).
    typealias ASCIISet = (low: UInt64, high: UInt64)

    /// PrintableString (X.680 41.4, table 10): `A–Z a–z 0–9 space ' ( ) + , - . / : = ?`.
    /// (Constant masks, so that no lazy initialization runs per string; the tests check every byte.)
    static var printableSet: ASCIISet { (low: 0xA7FF_FB81_0000_0000, high: 0x07FF_FFFE_07FF_FFFE) }
    /// VisibleString: 0x20–0x7E.
    static var visibleSet: ASCIISet { (low: 0xFFFF_FFFF_0000_0000, high: 0x7FFF_FFFF_FFFF_FFFF) }
    /// NumericString: digits and space.
    static var numericSet: ASCIISet { (low: 0x03FF_0001_0000_0000, high: 0) }

    /// Whether `byte` is in `set`.
    @inline(__always)
    static func isInSet(_ byte: UInt8, _ set: ASCIISet) -> Bool {
        byte < 128 && (byte < 64 ? set.low : set.high) &>> UInt64(byte & 63) & 1 != 0
    }

    /// Whether every byte is in `set`.
    static func allInSet(_ bytes: UnsafeBufferPointer<UInt8>, _ set: ASCIISet) -> Bool {
        for byte in bytes where !isInSet(byte, set) { return false }
        return true
    }

    /// ``isValidUTF8(_:)-(ArraySlice<UInt8>)`` over bytes in memory.
    @usableFromInline package static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if isASCII(bytes) { return true }  // the common case, a word at a time
        var index = 0
        let end = bytes.count
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            let count: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: count = 1
            case 0xE0: count = 2; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: count = 2
            case 0xED: count = 2; upper = 0x9F
            case 0xF0: count = 3; lower = 0x90
            case 0xF1...0xF3: count = 3
            case 0xF4: count = 3; upper = 0x8F
            default: return false
            }
            guard end - index > count else { return false }
            let second = bytes[index + 1]
            guard second >= lower && second <= upper else { return false }
            for offset in stride(from: 2, through: count, by: 1) where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += count + 1
        }
        return true
    }
}
