#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// write(2) (the name `write` is ``OutputFile/write(_:what:)``'s inside the type).
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { write(descriptor, bytes, count) }

/// A file the CLI writes (`verify --save-exceptions`, `limbo --output`).
///
/// The path is checked before any work, so that a path that cannot be written is a usage error
/// with nothing on standard output: it must name a regular file (symbolic links are followed) or a
/// new file in an existing directory, never a directory, device, FIFO or socket. The contents are
/// then written to a temporary file beside the target and renamed over it, so that a reader never
/// sees half a file; a symbolic link stays a link (its target is replaced). The replaced file keeps
/// its permission bits and (when the process may set them) its owner and group: the temporary file
/// gets them before the rename, so a 0600 file never becomes readable by others. A new file gets
/// `newFileMode` (0600 for trust exceptions). POSIX calls only: the
/// CLI does not link Foundation's file APIs (issue 32).
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
        var status = stat()
        if FileName.linkStatus(path, &status) == 0 {
            // It exists: follow links to what would be replaced.
            guard let real = FileName.resolved(path) else {
                throw CLIError("\(Output.echo(path)): cannot write here: a symbolic link that cannot be resolved, not a regular file")
            }
            resolved = real
            guard FileName.status(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                throw CLIError("\(Output.echo(path)): cannot write here: \(Self.describe(status.st_mode)), not a regular file")
            }
            return
        }
        // A new file: its directory must exist.
        let slash = path.lastIndex(of: "/")
        let parent = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let directory = FileName.resolved(parent) else {
            throw CLIError("\(Output.echo(path)): cannot write here: the directory \(Output.echo(parent)) does not exist")
        }
        guard FileName.status(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw CLIError("\(Output.echo(path)): cannot write here: the directory \(Output.echo(directory)) does not exist")
        }
        resolved = (directory == "/" ? "" : directory) + "/" + name
    }

    /// Writes `bytes` to the file (temporary file, then rename), keeping an existing file's mode and
    /// owner; a new file is created with `newFileMode`.
    ///
    /// - Throws: ``CLIError`` naming the path and the system's reason (permission denied, no space…).
    func write(_ bytes: some Sequence<UInt8>, what: String, newFileMode: mode_t = 0o644) throws(CLIError) {
        func failure() -> CLIError {
            CLIError("\(Output.echo(path)): cannot write \(what): \(String(cString: strerror(errno)))")
        }
        var template = FileName.systemBytes(resolved + ".certpath-XXXXXX")
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw failure() }
        // mkstemp replaced the six X (ASCII) in place.
        let temporary = template.withUnsafeBufferPointer { FileName.decode(cString: $0.baseAddress!) }
        var contents = Array(bytes)[...]
        // The replaced file's permissions and owner, else newFileMode: set on the temporary file
        // before any byte is written and before the rename (mkstemp made it 0600).
        var existing = stat()
        var ok: Bool
        if FileName.status(resolved, &existing) == 0 {
            // chown may be refused (another owner, not root): the mode is still kept.
            if existing.st_uid != geteuid() || existing.st_gid != getegid() { _ = fchown(descriptor, existing.st_uid, existing.st_gid) }
            ok = fchmod(descriptor, existing.st_mode & 0o7777) == 0
        } else {
            ok = fchmod(descriptor, newFileMode) == 0
        }
        while ok && !contents.isEmpty {
            let written = contents.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            ok = written > 0
            if ok { contents = contents.dropFirst(written) }
        }
        if ok { ok = fsync(descriptor) == 0 }
        let saved = errno
        close(descriptor)
        guard ok, FileName.rename(temporary, resolved) == 0 else {
            let error = ok ? errno : saved
            FileName.unlink(temporary)
            errno = error
            throw failure()
        }
    }

    /// What a non-regular file is, in words.
    private static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link that cannot be resolved"
        default: return "a special file (FIFO or other)"
        }
    }
}
