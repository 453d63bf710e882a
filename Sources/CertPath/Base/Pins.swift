/// A pinned certificate or public key: trusted for one evaluation as an anchor, or as the end entity
/// itself ("trust this specific certificate"), whoever issued it.
public struct Pin: Hashable, Sendable, CustomStringConvertible {
    /// What the digest covers.
    public enum Kind: String, Hashable, Sendable {
        /// SHA-256 of the certificate's DER.
        case certificate
        /// SHA-256 of the SubjectPublicKeyInfo DER (an HPKP `pin-sha256`, RFC 7469 2.4).
        case publicKey
    }

    /// What the digest covers.
    public let kind: Kind
    /// The SHA-256 digest.
    public let digest: SHA256Digest

    /// Creates a pin.
    public init(_ kind: Kind, _ digest: SHA256Digest) {
        self.kind = kind
        self.digest = digest
    }

    /// The pin of `kind` that `certificate` matches.
    init(kind: Kind, of certificate: Certificate) {
        switch kind {
        case .certificate: self.init(certificate: certificate)
        case .publicKey: self.init(publicKeyOf: certificate)
        }
    }

    /// Pins `certificate` itself (its DER).
    public init(certificate: Certificate) {
        self.init(.certificate, SHA256Digest(hashing: certificate.der))
    }

    /// Pins the public key of `certificate` (its SPKI).
    public init(publicKeyOf certificate: Certificate) {
        self.init(.publicKey, SHA256Digest(hashing: certificate.subjectPublicKeyInfo.der))
    }

    /// Parses an HPKP-style key pin: base64 of the SPKI SHA-256 (44 characters).
    ///
    /// - Returns: `nil` unless `base64` is a canonical base64 SHA-256 digest.
    public init?(publicKeySHA256Base64 base64: String) {
        guard let digest = SHA256Digest(base64: base64) else { return nil }
        self.init(.publicKey, digest)
    }

    /// Whether `certificate` is the pinned certificate or carries the pinned key.
    public func matches(_ certificate: Certificate) -> Bool { Pin(kind: kind, of: certificate) == self }

    /// `pin-sha256="…"` for key pins, `sha256/<hex>` for certificate pins.
    public var description: String {
        kind == .publicKey ? "pin-sha256=\"\(digest.base64)\"" : "certificate sha256/\(digest.hex)"
    }
}

/// The requirement that a path contain a pinned certificate or key (``ValidationPolicy/requiredPins``,
/// HPKP `pin-sha256`, RFC 7469 2.6): the pipeline's purpose stage asks it of every path, one that
/// reached no anchor included (so a trust exception cannot accept a path without the pin).
enum PinRequirement {
    /// ``ValidationFailure/pinMismatch`` when `pins` is not empty and no certificate of `path`
    /// (anchor included) matches one of them; `nil` otherwise.
    static func failure(_ pins: Set<Pin>, path: [Certificate]) -> ValidationFailure? {
        guard !pins.isEmpty else { return nil }
        // Each certificate is hashed at most once per kind, whatever the number of pins.
        let kinds = Set(pins.map(\.kind))
        let matched = path.contains { certificate in
            kinds.contains { kind in pins.contains(Pin(kind: kind, of: certificate)) }
        }
        return matched ? nil : .pinMismatch
    }
}
