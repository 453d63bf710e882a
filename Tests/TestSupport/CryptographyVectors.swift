import Foundation

/// The installed `cryptography-vectors` PyPI package (NIST PKITS, real and malformed certificates),
/// which `scripts/bootstrap` installs.
public enum CryptographyVectors {
    /// The `cryptography_vectors` package folder, found by asking python3; `nil` when python3 or the
    /// package is missing (tests then say that they skip).
    public static let folder: URL? = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import cryptography_vectors, os; print(os.path.dirname(cryptography_vectors.__file__))"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let path = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines), !path.isEmpty
        else { return nil }
        return URL(fileURLWithPath: path)
    }()
}
