#!/usr/bin/env python3
"""A fully cross-signed mesh: CAs "Mesh CA 0".."Mesh CA 5", each certified by every other
(intermediates.pem, 30 certificates), "Mesh CA 5" also by the root (root.pem); leaf.pem, issued
by "Mesh CA 0", expired in 2021. Every path from the leaf to the root fails only because of the
leaf, so a search tries every one of them: over a thousand attempted paths (the bound on recorded
attempts is tested with it).

Run: python3 generate.py (needs the `cryptography` package); writes the PEM files beside it.
"""
import datetime, os
from cryptography import x509
from cryptography.x509.oid import NameOID, ExtendedKeyUsageOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

OUT = os.path.dirname(os.path.abspath(__file__))
N = 6
VALID = (datetime.datetime(2025, 1, 1), datetime.datetime(2045, 1, 1))
EXPIRED = (datetime.datetime(2020, 1, 1), datetime.datetime(2021, 1, 1))
serial = [0x2000]

def name(cn): return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "CertPath Mesh"),
                                x509.NameAttribute(NameOID.COMMON_NAME, cn)])
def issue(subject, key, issuer, issuer_key, ca, validity=VALID, san=None):
    serial[0] += 1
    b = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(key.public_key())
         .serial_number(serial[0]).not_valid_before(validity[0]).not_valid_after(validity[1])
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
         .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
         .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False))
    if ca:
        b = b.add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
    else:
        b = b.add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
        b = b.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        b = b.add_extension(x509.SubjectAlternativeName([x509.DNSName(san)]), critical=False)
    return b.sign(issuer_key, hashes.SHA256())
def pem(c): return c.public_bytes(serialization.Encoding.PEM).decode()

root_key = ec.generate_private_key(ec.SECP256R1())
keys = [ec.generate_private_key(ec.SECP256R1()) for _ in range(N)]
root = issue(name("Mesh Root"), root_key, name("Mesh Root"), root_key, True)
mesh = [issue(name(f"Mesh CA {i}"), keys[i], name(f"Mesh CA {j}"), keys[j], True) for i in range(N) for j in range(N) if i != j]
mesh.append(issue(name(f"Mesh CA {N - 1}"), keys[N - 1], name("Mesh Root"), root_key, True))
leaf_key = ec.generate_private_key(ec.SECP256R1())
leaf = issue(name("mesh.test"), leaf_key, name("Mesh CA 0"), keys[0], False, validity=EXPIRED, san="mesh.test")
open(os.path.join(OUT, "root.pem"), "w").write(pem(root))
open(os.path.join(OUT, "intermediates.pem"), "w").write("".join(pem(c) for c in mesh))
open(os.path.join(OUT, "leaf.pem"), "w").write(pem(leaf))
