import CertPathDER
import Testing

/// Bytes from hex text; spaces are ignored. Traps on malformed text (a defect in the test itself).
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.utf8.filter { $0 != UInt8(ascii: " ") })
    precondition(digits.count % 2 == 0, "odd number of hex digits in \(text)")
    func nibble(_ c: UInt8) -> UInt8 {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x61...0x66: return c - 0x61 + 10
        case 0x41...0x46: return c - 0x41 + 10
        default: preconditionFailure("not a hex digit in \(text)")
        }
    }
    return stride(from: 0, to: digits.count, by: 2).map { nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }
}

/// ASCII bytes of `text`.
func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Runs `body`, requiring it to throw a `DERError` with exactly `code` at exactly `offset`.
func expectDERError<T>(
    _ code: DERError.Code, at offset: Int,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> T
) {
    do {
        let value = try body()
        Issue.record("expected \(code) at byte \(offset), got success: \(value)", sourceLocation: sourceLocation)
    } catch let error as DERError {
        #expect(error.code == code, "wrong rule: \(error)", sourceLocation: sourceLocation)
        #expect(error.offset == offset, "wrong offset: \(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected DERError \(code) at byte \(offset), got \(error)", sourceLocation: sourceLocation)
    }
}

/// Reads the single element of `bytes` (any tag) and requires nothing after it.
func readOnly(_ bytes: [UInt8]) throws(DERError) -> (DERReader, DERElement) {
    var reader = DERReader(bytes)
    let element = try reader.readElement("test element")
    try reader.finish("input")
    return (reader, element)
}
