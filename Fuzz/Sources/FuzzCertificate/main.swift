// FuzzCertificate: Certificate(derEncoded:) either throws a DERError pointing inside the input, or
// yields a certificate whose own der re-parses identically (field by field), which is a valid DER tree,
// and whose accessors, key loading and self-signature check never trap. See CertificateInvariants.
import CertPath
import FuzzSupport

runFuzzer { bytes in
    CertificateInvariants.parse(bytes)
}
