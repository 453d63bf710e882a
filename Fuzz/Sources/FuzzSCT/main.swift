// FuzzSCT: SignedCertificateTimestampList(tlsEncoded:) (RFC 6962 3.3) either throws an SCTListError
// whose offset lies within the input, or yields a list that re-encodes to the input byte for byte,
// whose every v1 SCT re-parses alone to itself (fields, encoded bytes) and builds its RFC 6962 3.2
// signed data, whose unknown-version SCTs lie in order within the input, and whose sizes add up;
// the same bytes inside the extension's OCTET STRING read the same.
import CertPath
import FuzzSupport

runFuzzer { bytes in
    let list: SignedCertificateTimestampList
    do throws(SCTListError) {
        list = try SignedCertificateTimestampList(tlsEncoded: bytes)
    } catch {
        invariant(error.offset >= 0 && error.offset <= bytes.count,
                  "SCTListError offset \(error.offset) outside the input of \(bytes.count) bytes: \(error)")
        invariant(!error.expected.isEmpty, "SCTListError without an expectation: \(error)")
        invariant(error.code != .malformedExtension, "malformedExtension from a TLS list: \(error)")
        return
    }
    invariant(list.tlsEncoded == bytes, "a list read does not re-encode to its input")
    invariant(!list.timestamps.isEmpty || !list.unknownVersions.isEmpty, "an accepted list holds no SCT")
    let sizes = list.timestamps.reduce(0) { $0 + 2 + $1.encoded.count } + list.unknownVersions.reduce(0) { $0 + 2 + $1.encoded.count }
    invariant(sizes + 2 == bytes.count, "SerializedSCT sizes \(sizes) + 2 differ from the input's \(bytes.count)")

    var previous = -1
    for unknown in list.unknownVersions {
        invariant(unknown.version != 0, "a v1 SCT kept as of unknown version")
        invariant(unknown.offset > previous && unknown.offset + 2 + unknown.encoded.count <= bytes.count, "unknown-version SCT outside the input or out of order")
        invariant(Array(bytes[(unknown.offset + 2)..<(unknown.offset + 2 + unknown.encoded.count)]) == unknown.encoded,
                  "unknown-version SCT bytes differ from the input at \(unknown.offset)")
        previous = unknown.offset
    }
    for sct in list.timestamps {
        invariant(sct.version == 0 && sct.logID.count == 32, "a v1 SCT with version \(sct.version) or a LogID of \(sct.logID.count) bytes")
        invariant(sct.signatureAlgorithm.hash != 0 && sct.signatureAlgorithm.signature != 0, "hash none or anonymous signature accepted")
        invariant(sct.encoded.count == 47 + sct.extensions.count + sct.signature.count, "SCT size does not add up: \(sct.encoded.count)")
        let alone: SignedCertificateTimestampList
        do throws(SCTListError) {
            alone = try SignedCertificateTimestampList(tlsEncoded: SignedCertificateTimestampList(timestamps: [sct]).tlsEncoded)
        } catch {
            violation("an accepted SCT does not parse alone: \(error)")
        }
        invariant(alone.timestamps == [sct], "an SCT read alone differs")
        let rebuilt = SignedCertificateTimestamp(logID: sct.logID, timestamp: sct.timestamp, extensions: sct.extensions,
                                                 signatureAlgorithm: sct.signatureAlgorithm, signature: sct.signature)
        invariant(rebuilt == sct && rebuilt.encoded == sct.encoded, "an SCT built from its fields encodes differently")
        let signed = CTSignedEntry.precertificate(tbsCertificate: [0x30, 0x00], issuerKeyHash: SHA256Digest(hashing: sct.logID)).signedData(for: sct)
        invariant(signed.count == 2 + 8 + 2 + 32 + 3 + 2 + 2 + sct.extensions.count, "precert signed data of \(signed.count) bytes")
        _ = sct.description
        _ = sct.signatureAlgorithm.algorithm
    }

    // The same bytes as the certificate extension's value: an OCTET STRING around them.
    var wrapped: [UInt8] = [0x04]
    if bytes.count < 0x80 {
        wrapped.append(UInt8(bytes.count))
    } else if bytes.count < 0x100 {
        wrapped += [0x81, UInt8(bytes.count)]
    } else if bytes.count < 0x10000 {
        wrapped += [0x82, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)]
    } else {
        return
    }
    wrapped += bytes
    do throws(SCTListError) {
        let fromExtension = try SignedCertificateTimestampList(extensionValue: wrapped[...])
        invariant(fromExtension == list, "the extension's list differs from the TLS list")
    } catch {
        violation("the OCTET STRING around an accepted list is refused: \(error)")
    }
}
