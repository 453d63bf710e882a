#!/usr/bin/env python3
# revoked-server.crl.pem: a CRL by the sample PKI's RSA intermediate revoking sample-pki/rsa/server.pem
# (input of Tests/CertPathTests/ValidationPolicyValueTests.swift); empty-same-number.crl.pem: the
# same issuer, CRL number and dates, listing nothing (two CRLs an issuer should never both publish;
# input of CRLStatusTests). Make them again whenever TestVectors/sample-pki is regenerated:
# python3 TestVectors/policy-values/generate.py
# expectations.txt (format: TestVectors/expectations.py) is written first: the sample PKI's RSA server
# certificate at 2026-06-01 with these CRLs (revoked in either order, RFC 5280 6.3.3; trusted with
# none or only the empty one); `generate.py --expectations-only` writes only that file.
import datetime, pathlib, sys
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import expectations  # noqa: E402  (TestVectors/expectations.py)


def server_case(id, crls, verdict, codes=()):
    policy = "server:server.customer1.example" + (";crls=" + ",".join(crls) if crls else "")
    return expectations.case(id, "../sample-pki/rsa/server.pem", ["../sample-pki/rsa/intermediate.pem"],
                             ["../sample-pki/rsa/root.pem"], policy, "2026-06-01T00:00:00Z", verdict, list(codes))


expectations.write(str(HERE), "TestVectors/policy-values/generate.py", [
    server_case("no-crls", [], "trusted"),
    server_case("revoked-server", ["revoked-server.crl.pem"], "untrusted", ["revoked"]),
    server_case("revoked-then-empty", ["revoked-server.crl.pem", "empty-same-number.crl.pem"], "untrusted", ["revoked"]),
    server_case("empty-then-revoked", ["empty-same-number.crl.pem", "revoked-server.crl.pem"], "untrusted", ["revoked"]),
    server_case("empty-only", ["empty-same-number.crl.pem"], "trusted"),
])
PKI = HERE.parent / 'sample-pki' / 'rsa'
intermediate = x509.load_pem_x509_certificate((PKI / 'intermediate.pem').read_bytes())
server = x509.load_pem_x509_certificate((PKI / 'server.pem').read_bytes())
key = serialization.load_pem_private_key((PKI / 'keys' / 'intermediate.key').read_bytes(), None)
entry = x509.RevokedCertificateBuilder().serial_number(server.serial_number).revocation_date(datetime.datetime(2026, 1, 1)).build()


def crl(entries):
    builder = (x509.CertificateRevocationListBuilder().issuer_name(intermediate.subject)
               .last_update(datetime.datetime(2026, 1, 1)).next_update(datetime.datetime(2027, 1, 1))
               .add_extension(x509.CRLNumber(1), critical=False)
               .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(key.public_key()), critical=False))
    for revoked in entries:
        builder = builder.add_revoked_certificate(revoked)
    return builder.sign(key, hashes.SHA256()).public_bytes(serialization.Encoding.PEM)


(HERE / 'revoked-server.crl.pem').write_bytes(crl([entry]))
(HERE / 'empty-same-number.crl.pem').write_bytes(crl([]))
print('wrote', HERE / 'revoked-server.crl.pem', 'and', HERE / 'empty-same-number.crl.pem')
