#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The system's functions under names FileName's own methods do not shadow.
private func systemStat(_ name: UnsafePointer<CChar>, _ status: inout stat) -> Int32 { stat(name, &status) }
private func systemLinkStatus(_ name: UnsafePointer<CChar>, _ status: inout stat) -> Int32 { lstat(name, &status) }
private func systemRealpath(_ name: UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>? { realpath(name, nil) }
private func systemOpen(_ name: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { open(name, flags) }
private func systemOpenDirectory(_ name: UnsafePointer<CChar>) -> OpaquePointer? { opendir(name) }
private func systemRename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 { rename(from, to) }
private func systemUnlink(_ name: UnsafePointer<CChar>) -> Int32 { unlink(name) }

/// File names and arguments as the command line carries them: Swift strings that keep every byte.
///
/// A POSIX file name is bytes, not necessarily UTF-8 (a Latin-1 name from an old system, a name
/// made by a script). `CommandLine.arguments` and `String(cString:)` replace bytes that are not
/// UTF-8 with U+FFFD, so such a file could not be opened by name, and a folder's file so named was
/// passed over. Here each byte of a name that is not part of a UTF-8 sequence stands as one of the
/// 128 private-use scalars U+10FF80–U+10FFFF (byte 0x80 + n as U+10FF80 + n), and goes back to that
/// byte when the name is given to the system; a name that is UTF-8 is the string it spells. Messages
/// show such a byte as `\xNN` (``Output/echo(_:)``).
enum FileName {
    /// The scalar standing for byte `b` (0x80...0xFF) of a name that is not UTF-8 is `escapeBase + b`.
    static let escapeBase: UInt32 = 0x10FF00

    /// The byte that `scalar` stands for, when it is one of the escapes.
    @inline(__always)
    static func escapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= escapeBase + 0x80 ? UInt8(truncatingIfNeeded: scalar.value - escapeBase) : nil
    }

    /// The name the bytes spell: their text when they are UTF-8 (and hold no scalar of the escape
    /// range, which would read back as bytes), else the text with each byte outside a UTF-8
    /// sequence escaped.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        func escape(_ range: Range<Int>) {
            for byte in bytes[range] {
                scalars.append(byte < 0x80 ? Unicode.Scalar(byte) : Unicode.Scalar(escapeBase + UInt32(byte))!)
            }
        }
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                // A scalar of the escape range itself would come back as one byte: kept as its bytes.
                if escapedByte(scalar) != nil { escape(offset..<(offset + encoded.count)) } else { scalars.append(scalar) }
                offset += encoded.count
            case .error(let length):
                escape(offset..<(offset + length))
                offset += length
            case .emptyInput:
                return String(scalars)
            }
        }
    }

    /// ``decode(_:)`` of a NUL-terminated name (an argument, a directory entry, `realpath`'s result).
    static func decode(cString: UnsafePointer<CChar>) -> String {
        cString.withMemoryRebound(to: UInt8.self, capacity: strlen(cString) + 1) {
            decode(UnsafeBufferPointer(start: $0, count: strlen(cString)))
        }
    }

    /// The command line's arguments after the program name, each decoded by ``decode(cString:)``.
    static func arguments() -> [String] {
        (1..<Int(CommandLine.argc)).compactMap { index in CommandLine.unsafeArgv[index].map { decode(cString: $0) } }
    }

    /// The bytes of `name` for the system (its escapes back to the bytes they stand for), NUL-terminated.
    static func systemBytes(_ name: String) -> [CChar] {
        var out: [CChar] = []
        out.reserveCapacity(name.utf8.count + 1)
        for scalar in name.unicodeScalars {
            if let byte = escapedByte(scalar) {
                out.append(CChar(bitPattern: byte))
            } else {
                for unit in UTF8.encode(scalar)! { out.append(CChar(bitPattern: unit)) }
            }
        }
        out.append(0)
        return out
    }

    /// Calls `body` with `name` as the system's NUL-terminated bytes (``systemBytes(_:)``).
    static func withSystemName<R>(_ name: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        if !name.unicodeScalars.contains(where: { escapedByte($0) != nil }) { return try name.withCString(body) }
        return try systemBytes(name).withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    // The system calls the CLI makes with a file name, given the name's own bytes.

    /// stat(2) of `name`.
    static func status(_ name: String, _ status: inout stat) -> Int32 { withSystemName(name) { systemStat($0, &status) } }
    /// lstat(2) of `name`.
    static func linkStatus(_ name: String, _ status: inout stat) -> Int32 { withSystemName(name) { systemLinkStatus($0, &status) } }
    /// realpath(3) of `name`, decoded; `nil` when it fails (errno set).
    static func resolved(_ name: String) -> String? {
        guard let real = withSystemName(name, { systemRealpath($0) }) else { return nil }
        defer { free(real) }
        return decode(cString: real)
    }
    /// open(2) of `name`.
    static func open(_ name: String, _ flags: Int32) -> Int32 { withSystemName(name) { systemOpen($0, flags) } }
    /// opendir(3) of `name`.
    static func openDirectory(_ name: String) -> OpaquePointer? { withSystemName(name) { systemOpenDirectory($0) } }
    /// rename(2) of `from` to `to`.
    static func rename(_ from: String, _ to: String) -> Int32 {
        withSystemName(from) { a in withSystemName(to) { b in systemRename(a, b) } }
    }
    /// unlink(2) of `name`.
    @discardableResult
    static func unlink(_ name: String) -> Int32 { withSystemName(name) { systemUnlink($0) } }

    /// `name` with each escaped byte shown as `\xNN`, for a message.
    static func displayed(_ name: String) -> String {
        guard name.unicodeScalars.contains(where: { escapedByte($0) != nil }) else { return name }
        var out = ""
        for scalar in name.unicodeScalars {
            if let byte = escapedByte(scalar) {
                out += "\\x" + String(byte, radix: 16)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
