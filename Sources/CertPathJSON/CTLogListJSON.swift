// CertPathJSON (re-exported by CertPathFoundation): reads the Certificate Transparency log list v3 JSON (the schema Google and
// Apple publish, `log_list_schema.json`) into the library's Foundation-free ``CTLogList``.
import CertPath
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a CT log list could not be read.
public struct CTLogListError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem the list has.
    public enum Kind: Hashable, Sendable {
        /// The JSON does not follow the v3 schema, or a field's value is malformed.
        case malformed
        /// A log's key is not one RFC 6962 2.1.4 allows a log: ECDSA P-256 or RSA of at least 2048
        /// bits (`key` names the key found, as "P-384" or "RSA 1024 bits").
        case unacceptableLogKey(log: String, key: String)
        /// The same `log_id` is listed twice (under one operator or two): which operator an SCT
        /// counts for would be ambiguous (CT policies count distinct operators).
        case duplicateLogID(log: String, operators: [String])
    }
    /// What kind of problem.
    public let kind: Kind
    /// What is wrong, naming the operator and log where it is about one.
    public let reason: String

    /// Creates an error.
    public init(_ reason: String, kind: Kind = .malformed) {
        self.reason = reason
        self.kind = kind
    }

    /// `CT log list: …`.
    public var description: String { "CT log list: \(reason)" }
}

extension CTLogList {
    /// Reads a CT log list in the v3 JSON schema: `version`, `log_list_timestamp`, `operators[]`
    /// with `name`, `email`, `logs[]` and `tiled_logs[]` (each `description`, `log_id`, `key`,
    /// `url` or `submission_url`, `mmd`, `state` with one of pending, qualified, usable, readonly,
    /// retired, rejected and its `timestamp`, `temporal_interval`). Unknown fields are ignored.
    ///
    /// - Throws: ``CTLogListError`` for JSON that does not follow the schema, a key or log ID that is
    ///   not base64, a `log_id` that is not the SHA-256 of `key` (RFC 6962 3.2), a timestamp that is
    ///   not RFC 3339, a state object without exactly one known state; a key RFC 6962 2.1.4 rules
    ///   out (``CTLogListError/Kind/unacceptableLogKey(log:key:)``: only ECDSA P-256 and RSA of at
    ///   least 2048 bits); a `log_id` listed twice (``CTLogListError/Kind/duplicateLogID(log:operators:)``).
    public init(jsonBytes: [UInt8]) throws(CTLogListError) {
        let file: LogListFile
        do {
            file = try JSONDecoder().decode(LogListFile.self, from: Data(jsonBytes))
        } catch let error as DecodingError {
            throw CTLogListError("not a v3 log list: \(error.summary)")
        } catch {
            throw CTLogListError("not a v3 log list: \(error)")
        }
        var operators: [Operator] = []
        var seen: [SHA256Digest: String] = [:]  // log_id: its operator's name
        for op in file.operators {
            var logs: [Log] = []
            for entry in (op.logs ?? []) + (op.tiled_logs ?? []) {
                let name = "\(op.name): \(entry.description ?? entry.log_id)"
                guard let key = Data(base64Encoded: entry.key) else { throw CTLogListError("\(name): key is not base64") }
                guard let id = Data(base64Encoded: entry.log_id), let digest = SHA256Digest(bytes: [UInt8](id)) else {
                    throw CTLogListError("\(name): log_id is not 32 bytes in base64")
                }
                var log = Log(description: entry.description ?? "", key: [UInt8](key), url: entry.url ?? entry.submission_url ?? "",
                              mmd: entry.mmd ?? 86_400)
                guard log.logID == digest else { throw CTLogListError("\(name): log_id is not the SHA-256 of key") }
                if let refused = Self.keyRefusal(log.key) {
                    throw CTLogListError("\(name): the log's key is \(refused); RFC 6962 2.1.4 allows ECDSA P-256 or RSA of at least 2048 bits",
                                         kind: .unacceptableLogKey(log: name, key: refused))
                }
                if let other = seen[log.logID] {
                    throw CTLogListError("\(name): log_id \(entry.log_id) is listed twice (also under \(other)): its operator is ambiguous",
                                         kind: .duplicateLogID(log: name, operators: [other, op.name]))
                }
                seen[log.logID] = op.name
                if let state = entry.state {
                    let known = state.compactMap { kind, value in State.Kind(rawValue: kind).map { ($0, value) } }
                    guard known.count == 1, let (kind, value) = known.first else {
                        throw CTLogListError("\(name): state does not name exactly one of \(State.Kind.allCases.map(\.rawValue))")
                    }
                    guard let since = UnixTime(rfc3339: value.timestamp) else { throw CTLogListError("\(name): state timestamp \(value.timestamp)") }
                    log.state = State(kind, since: since)
                }
                if let interval = entry.temporal_interval {
                    guard let start = UnixTime(rfc3339: interval.start_inclusive), let end = UnixTime(rfc3339: interval.end_exclusive) else {
                        throw CTLogListError("\(name): temporal_interval is not RFC 3339")
                    }
                    log.temporalInterval = TemporalInterval(start: start, end: end)
                }
                logs.append(log)
            }
            operators.append(Operator(name: op.name, email: op.email ?? [], logs: logs))
        }
        var timestamp: UnixTime? = nil
        if let text = file.log_list_timestamp {
            guard let parsed = UnixTime(rfc3339: text) else { throw CTLogListError("log_list_timestamp \(text) is not RFC 3339") }
            timestamp = parsed
        }
        self.init(version: file.version ?? "", timestamp: timestamp, operators: operators)
    }
}

extension CTLogList {
    /// What is wrong with a log's DER SubjectPublicKeyInfo `key` under RFC 6962 2.1.4 (a log signs
    /// with ECDSA on NIST P-256 or RSA, and CT policies require RSA keys of at least 2048 bits):
    /// `nil` for an acceptable key, else the key found ("P-384", "RSA 1024 bits", "Ed25519", "not a
    /// SubjectPublicKeyInfo").
    static func keyRefusal(_ key: [UInt8]) -> String? {
        guard let spki = try? SubjectPublicKeyInfo(derEncoded: key) else { return "not a SubjectPublicKeyInfo" }
        switch spki.key {
        case .ec(let curve, _): return curve == .p256 ? nil : curve.rawValue
        case .rsa:
            let bits = spki.key.bitLength ?? 0
            return bits >= 2048 && !spki.isRestrictedToRSASSAPSS ? nil : "RSA \(bits) bits" + (spki.isRestrictedToRSASSAPSS ? " (RSASSA-PSS only)" : "")
        case .ed25519: return "Ed25519"
        case .ed448: return "Ed448"
        default: return spki.key.summary
        }
    }
}

// The v3 schema's shapes, named as its fields.
private struct LogListFile: Decodable {
    let version: String?
    let log_list_timestamp: String?
    let operators: [OperatorEntry]
}

private struct OperatorEntry: Decodable {
    let name: String
    let email: [String]?
    let logs: [LogEntry]?
    let tiled_logs: [LogEntry]?
}

private struct LogEntry: Decodable {
    let description: String?
    let log_id: String
    let key: String
    let url: String?
    let submission_url: String?
    let mmd: Int?
    let state: [String: StateEntry]?
    let temporal_interval: IntervalEntry?
}

private struct StateEntry: Decodable {
    let timestamp: String
}

private struct IntervalEntry: Decodable {
    let start_inclusive: String
    let end_exclusive: String
}
