import Foundation

/// A file the CLI writes (`verify --save-exceptions`, `limbo --output`).
///
/// The path is checked before any work, so that a path that cannot be written is a usage error
/// with nothing on standard output: it must name a regular file (symbolic links are followed) or a
/// new file in an existing directory, never a directory, device, FIFO or socket. The contents are
/// then written to a temporary file beside the target and renamed over it, so that a reader never
/// sees half a file; a symbolic link stays a link (its target is replaced).
struct OutputFile {
    /// The path as given (for messages).
    let path: String
    /// The path with symbolic links resolved: what is written.
    let resolved: String

    /// Checks that `path` can be written.
    ///
    /// - Throws: ``CLIError`` naming `path` and why: not a regular file (and what it is), or a
    ///   missing or non-directory parent.
    init(_ path: String) throws(CLIError) {
        self.path = path
        resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let manager = FileManager.default
        if let attributes = try? manager.attributesOfItem(atPath: resolved) {
            let type = attributes[.type] as? FileAttributeType
            guard type == .typeRegular else {
                throw CLIError("\(Output.echo(path)): cannot write here: \(Self.describe(type)), not a regular file")
            }
            return
        }
        let parent = URL(fileURLWithPath: resolved).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError("\(Output.echo(path)): cannot write here: the directory \(Output.echo(parent)) does not exist")
        }
    }

    /// Writes `bytes` to the file (temporary file, then rename).
    ///
    /// - Throws: ``CLIError`` naming the path and the system's reason (permission denied, no space…).
    func write(_ bytes: some Sequence<UInt8>, what: String) throws(CLIError) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: resolved), options: .atomic)
        } catch {
            throw CLIError("\(Output.echo(path)): cannot write \(what): \(Self.reason(error))")
        }
    }

    /// What a non-regular file is, in words.
    private static func describe(_ type: FileAttributeType?) -> String {
        switch type {
        case .typeDirectory?: return "a directory"
        case .typeCharacterSpecial?, .typeBlockSpecial?: return "a device"
        case .typeSocket?: return "a socket"
        case .typeSymbolicLink?: return "a symbolic link that cannot be resolved"
        default: return "a special file (FIFO or other)"
        }
    }

    /// The system's reason for a failed write (the POSIX error's text when there is one).
    private static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
