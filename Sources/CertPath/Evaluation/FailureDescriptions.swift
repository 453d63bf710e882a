// Failures describe themselves in the sentence the CLI prints (issue 33: `"\(failure)"` printed an
// enum dump). The sentences are Diagnostics'; this file only connects them to string interpolation.

extension ValidationFailure: CustomStringConvertible {
    /// The failure in plain words, as `certpath verify` prints it (``Diagnostics/describe(_:)``): e.g.
    /// `CN=server.example expired at 2025-01-01T00:00:00Z (validation time 2026-06-01T00:00:00Z)`.
    public var description: String { Diagnostics.describe(self) }
}
