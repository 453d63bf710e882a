// FuzzPEM: PEM.decode and PEM.readCertificates never crash; every certificate returned re-parses from
// its der (CertificateInvariants); decoded blocks survive PEM.encode -> PEM.decode unchanged; line
// numbers and skipped ranges lie inside the text.
import CertPath
import FuzzSupport

runFuzzer { bytes in
    // Lines end at CRLF, CR or LF (RFC 7468 3).
    var lineCount = 1
    for (index, byte) in bytes.enumerated() where byte == 0x0A || (byte == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A)) {
        lineCount += 1
    }

    if let document = try? PEM.decode(bytes) {
        for block in document.blocks {
            invariant(block.line >= 1 && block.line <= lineCount, "block line \(block.line) outside 1...\(lineCount)")
            // Round trip of the payload (the label may hold any text; only round-trip printable labels).
            let encoded = PEM.encode(block.der, label: block.label)
            if block.label.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                do throws(PEM.Error) {
                    let again = try PEM.decode(Array(encoded.utf8))
                    invariant(again.blocks.count == 1 && again.blocks[0].der == block.der && again.blocks[0].label == block.label,
                              "PEM.encode -> PEM.decode changed a block labelled \(block.label)")
                } catch {
                    violation("PEM.encode output does not decode: \(error)")
                }
            }
        }
        for skipped in document.skipped {
            invariant(skipped.lines.lowerBound >= 1 && skipped.lines.upperBound <= lineCount, "skipped range \(skipped) outside the text")
            _ = skipped.description
        }
    }

    do throws(PEM.CertificateFileError) {
        let file = try PEM.readCertificates(bytes)
        for certificate in file.certificates { CertificateInvariants.check(certificate) }
        for skipped in file.skipped { _ = skipped.description }
    } catch {
        _ = error.description
    }
}
