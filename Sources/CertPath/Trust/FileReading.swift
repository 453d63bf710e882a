#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small file-system helpers over the C library (the library modules do not use Foundation).
enum FileSystem {
    /// The contents of the regular file at `path`, or `nil` when it cannot be read. Reads at most
    /// `limit` bytes (a trust bundle larger than that is refused rather than exhausting memory).
    /// Anything but a regular file (after symbolic links) is refused without reading: a FIFO or a
    /// device would block or never end. The file is opened without blocking, then checked.
    static func read(_ path: String, limit: Int = 64 << 20) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, let file = fdopen(descriptor, "rb") else {
            close(descriptor)
            return nil
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count > 0 { bytes.append(contentsOf: chunk[0..<count]) }
            if bytes.count > limit { return nil }
            if count < chunk.count { break }
        }
        return ferror(file) == 0 ? bytes : nil
    }

    /// Whether a regular file or directory exists at `path`.
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The names of the entries of directory `path` (without `.` and `..`), sorted; empty when unreadable.
    static func list(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The value of environment variable `name`, when set and non-empty.
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
