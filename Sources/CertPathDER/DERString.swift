/// Decoding of the ASN.1 character string types that X.509 names and extensions use
/// (X.680 clause 41; RFC 5280 4.1.2.4 DirectoryString, 4.2.1.6 IA5String names).
public enum DERString {
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
    public static func decode(_ bytes: ArraySlice<UInt8>, tag: DERTag) -> String? {
        switch tag {
        case .utf8String:
            return String(validating: bytes, as: UTF8.self)
        case .printableString:
            guard bytes.allSatisfy(isPrintable) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        case .ia5String:
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        case .visibleString:
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        case .numericString:
            guard bytes.allSatisfy({ $0 == 0x20 || ($0 >= 0x30 && $0 <= 0x39) }) else { return nil }
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
    public static func isStringType(_ tag: DERTag) -> Bool {
        switch tag {
        case .utf8String, .printableString, .ia5String, .visibleString, .numericString, .teletexString,
             .bmpString, .universalString:
            return true
        default:
            return false
        }
    }

    /// Whether `byte` is in PrintableString's alphabet (X.680 41.4, table 10).
    @inlinable
    public static func isPrintable(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x20, 0x27, 0x28, 0x29, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x3A, 0x3D, 0x3F:
            return true
        default:
            return false
        }
    }
}
