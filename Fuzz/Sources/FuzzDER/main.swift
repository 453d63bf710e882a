// FuzzDER: whatever DERNode.parse accepts re-encodes to exactly the input (DER has one encoding per
// value, X.690 10-11); whatever it rejects is a DERError whose offset lies inside the input.
import CertPath
@_spi(Fuzzing) import CertPathDER  // DERNode
import FuzzSupport

runFuzzer { bytes in
    do throws(DERError) {
        let node = try DERNode.parse(bytes)
        let encoded = node.encoded()
        invariant(encoded == bytes, "DERNode.parse accepted \(hex(bytes.prefix(64))) but encoded() gives \(hex(encoded.prefix(64)))")
        // The re-encoding parses to the same tree.
        do throws(DERError) {
            invariant(try DERNode.parse(encoded) == node, "re-parsing the encoding gives a different tree")
        } catch {
            violation("the encoding of an accepted tree is rejected: \(error)")
        }
    } catch {
        invariant(error.offset >= 0 && error.offset <= bytes.count,
                  "DERError offset \(error.offset) outside the input of \(bytes.count) bytes: \(error)")
        invariant(!error.expected.isEmpty, "DERError without an expectation: \(error)")
        _ = error.description
    }
}
