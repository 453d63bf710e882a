/// A list of Certificate Transparency logs: who operates each, its key and its state, as the CT log
/// list v3 JSON that Google (https://www.gstatic.com/ct/log_list/v3/log_list.json) and Apple
/// (https://valid.apple.com/ct/log_list/current_log_list.json) publish describes them
/// (`log_list_schema.json`, version 3).
///
/// The caller supplies the list: CertPath ships none it would have to keep current. Read one with
/// `CTLogList(jsonBytes:)` of CertPathFoundation, or build it here with the memberwise
/// initializers (the library itself never reads JSON).
public struct CTLogList: Hashable, Sendable {
    /// The list's `version` string (as published; not interpreted).
    public var version: String
    /// `log_list_timestamp`: when the list was published, when known.
    public var timestamp: UnixTime?
    /// The log operators, in list order.
    public var operators: [Operator] {
        didSet { index = Self.index(of: operators) }
    }
    /// Each log ID's position (operator, log), the first where an ID is listed twice: built once
    /// per list (and again when ``operators`` changes), so that finding an SCT's log costs one
    /// lookup however long the list is.
    private var index: [SHA256Digest: Position]

    private struct Position: Hashable, Sendable {
        let op: Int
        let log: Int
    }

    private static func index(of operators: [Operator]) -> [SHA256Digest: Position] {
        var index: [SHA256Digest: Position] = [:]
        for (o, op) in operators.enumerated() {
            for (l, log) in op.logs.enumerated() where index[log.logID] == nil { index[log.logID] = Position(op: o, log: l) }
        }
        return index
    }

    /// Creates a list.
    public init(version: String = "", timestamp: UnixTime? = nil, operators: [Operator]) {
        self.version = version
        self.timestamp = timestamp
        self.operators = operators
        self.index = Self.index(of: operators)
    }

    /// One log operator (v3 schema `operators[]`).
    public struct Operator: Hashable, Sendable {
        /// `name`: what CT policies count as "distinct operators".
        public var name: String
        /// `email`: contact addresses.
        public var email: [String]
        /// `logs`: the operator's logs (RFC 6962 and static-ct-api logs alike: both issue RFC 6962 SCTs).
        public var logs: [Log]

        /// Creates an operator.
        public init(name: String, email: [String] = [], logs: [Log]) {
            self.name = name
            self.email = email
            self.logs = logs
        }
    }

    /// One log (v3 schema `logs[]` / `tiled_logs[]`).
    public struct Log: Hashable, Sendable {
        /// `description`: the log's name ("Google 'Argon2025h1' log").
        public var description: String
        /// `log_id`: SHA-256 of ``key`` (RFC 6962 3.2), what an SCT names.
        public let logID: SHA256Digest
        /// `key`: the log's DER SubjectPublicKeyInfo.
        public let key: [UInt8]
        /// `url` (or a tiled log's `submission_url`).
        public var url: String
        /// `mmd`: maximum merge delay, seconds.
        public var mmd: Int
        /// `state`: the log's current state and since when; `nil` when the list gives none.
        public var state: State?
        /// `temporal_interval`: the certificates (by notAfter) the log accepts; `nil` when none.
        public var temporalInterval: TemporalInterval?

        /// Creates a log; ``logID`` is computed from `key` (SHA-256, RFC 6962 3.2).
        public init(description: String, key: [UInt8], url: String = "", mmd: Int = 86_400, state: State? = nil,
                    temporalInterval: TemporalInterval? = nil) {
            self.description = description
            self.key = key
            self.logID = SHA256Digest(hashing: key)
            self.url = url
            self.mmd = mmd
            self.state = state
            self.temporalInterval = temporalInterval
        }
    }

    /// A log's state in the v3 schema and the time it entered it.
    public struct State: Hashable, Sendable {
        /// The state names of the v3 schema (Chrome's CT log lifecycle; Apple uses the same words).
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// Applied for inclusion; its SCTs do not count.
            case pending
            /// Accepted, being monitored; its SCTs count (Chromium: as usable).
            case qualified
            /// Fully trusted.
            case usable
            /// Frozen: no new entries, SCTs already issued still count.
            case readonly
            /// No longer trusted for new SCTs: an SCT counts only if issued before ``State/since``.
            case retired
            /// Never trusted; its SCTs do not count.
            case rejected
        }
        /// The state.
        public var kind: Kind
        /// When the log entered it (the state's `timestamp`), whole seconds.
        public var since: UnixTime

        /// Creates a state.
        public init(_ kind: Kind, since: UnixTime) {
            self.kind = kind
            self.since = since
        }
    }

    /// `temporal_interval`: the log accepts certificates whose notAfter is in `start..<end`.
    public struct TemporalInterval: Hashable, Sendable {
        /// `start_inclusive`.
        public var start: UnixTime
        /// `end_exclusive`.
        public var end: UnixTime

        /// Creates an interval.
        public init(start: UnixTime, end: UnixTime) {
            self.start = start
            self.end = end
        }
    }

    /// The log whose ID is `logID` (an SCT's LogID, RFC 6962 3.2) and its operator, or `nil` when
    /// the list does not know it (the first listed when two operators list it). One dictionary lookup.
    public func log(id logID: SHA256Digest) -> (log: Log, operator: Operator)? {
        guard let at = index[logID] else { return nil }
        return (operators[at.op].logs[at.log], operators[at.op])
    }
}
