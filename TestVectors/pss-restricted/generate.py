#!/usr/bin/env python3
"""RSASSA-PSS key restrictions (RFC 4055 1.2, 3.3): CAs whose id-RSASSA-PSS public key carries
RSASSA-PSS-params, and leaves they sign with matching and mismatching parameters.

root.pem           EC P-256 root (the anchor)
ca-sha384-48.pem   PSS CA: key restricted to SHA-384, MGF1-SHA-384, salt >= 48
ca-sha1.pem        PSS CA: key with empty RSASSA-PSS-params (SHA-1, MGF1-SHA-1, salt 20: not verified by CertPath)
ca-any.pem         PSS CA: id-RSASSA-PSS without parameters (any RSASSA-PSS signature)
leaf-<ca>-<variant>.pem  leaves signed by that CA's key: pss-sha384-48, pss-sha384-64, pss-sha384-32, pss-sha256-32, pkcs1-sha256

Run: python3 generate.py (needs the `cryptography` package); writes the PEM files beside it, and
expectations.txt (TestVectors/expectations.py): every leaf under its CA and the root, for TLS server
authentication of pss.test at 2026-06-01. `python3 generate.py --expectations-only` writes only that.
"""
import base64, datetime, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import expectations
from cryptography import x509
from cryptography.x509.oid import NameOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa, padding

OUT = os.path.dirname(os.path.abspath(__file__))

def tlv(tag, content):
    n = len(content)
    if n < 0x80: length = bytes([n])
    else:
        b = n.to_bytes((n.bit_length() + 7) // 8, "big")
        length = bytes([0x80 | len(b)]) + b
    return bytes([tag]) + length + content
def seq(*parts): return tlv(0x30, b"".join(parts))
def explicit(n, content): return tlv(0xA0 | n, content)
def integer(v):
    b = v.to_bytes((v.bit_length() + 8) // 8, "big")
    return tlv(0x02, b)
def oid(dotted):
    arcs = [int(a) for a in dotted.split(".")]
    body = bytes([arcs[0] * 40 + arcs[1]])
    for arc in arcs[2:]:
        chunk = [arc & 0x7F]
        arc >>= 7
        while arc: chunk.append(0x80 | (arc & 0x7F)); arc >>= 7
        body += bytes(reversed(chunk))
    return tlv(0x06, body)
def bits(content): return tlv(0x03, b"\x00" + content)
def octets(content): return tlv(0x04, content)
def utc(t): return tlv(0x17, t.strftime("%y%m%d%H%M%SZ").encode())
def extension(o, value, critical=False):
    return seq(oid(o), tlv(0x01, b"\xff") if critical else b"", octets(value))
def name(cn): return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "CertPath PSS"),
                                x509.NameAttribute(NameOID.COMMON_NAME, cn)]).public_bytes()

HASH_OID = {"sha1": "1.3.14.3.2.26", "sha256": "2.16.840.1.101.3.4.2.1", "sha384": "2.16.840.1.101.3.4.2.2"}
HASH = {"sha256": hashes.SHA256(), "sha384": hashes.SHA384()}
PSS, MGF1 = "1.2.840.113549.1.1.10", "1.2.840.113549.1.1.8"
def pss_params(h, salt):
    # DER leaves out the DEFAULT values (SHA-1, MGF1-SHA-1, salt 20, trailer 1).
    parts = b""
    if h != "sha1":
        alg = seq(oid(HASH_OID[h]), tlv(0x05, b""))
        parts += explicit(0, alg) + explicit(1, seq(oid(MGF1), alg))
    if salt != 20: parts += explicit(2, integer(salt))
    return seq(parts)

VALIDITY = (datetime.datetime(2025, 1, 1), datetime.datetime(2045, 1, 1))

CAS = ["sha384-48", "sha1", "any"]
VARIANTS = ["pss-sha384-48", "pss-sha384-64", "pss-sha384-32", "pss-sha256-32", "pkcs1-sha256"]

def expected(ca, variant):
    """RFC 4055: an id-RSASSA-PSS key verifies RSASSA-PSS signatures only (1.2); a key with
    RSASSA-PSS-params only those with its hash (and MGF1 of it) and a salt at least as long (3.3);
    empty params are the DEFAULTs (SHA-1, salt 20, 3.1). A refused key is unusablePublicKey."""
    if variant.startswith("pkcs1"):
        return "untrusted", ["unusablePublicKey"]
    _, h, salt = variant.split("-")
    required = {"sha384-48": ("sha384", 48), "sha1": ("sha1", 20), "any": None}[ca]
    if required is None or (h == required[0] and int(salt) >= required[1]):
        return "trusted", []
    return "untrusted", ["unusablePublicKey"]

expectations.write(OUT, "TestVectors/pss-restricted/generate.py", [
    expectations.case(f"{ca}/{variant}", f"leaf-{ca}-{variant}.pem", [f"ca-{ca}.pem"], ["root.pem"],
                      "server:pss.test", "2026-06-01T00:00:00Z", *expected(ca, variant))
    for ca in CAS for variant in VARIANTS])
serial = [0x1000]
def next_serial():
    serial[0] += 1
    return serial[0]
def ski(public_der): return hashes_sha1(public_der)
def hashes_sha1(data):
    d = hashes.Hash(hashes.SHA1()); d.update(data); return d.finalize()
def save(filename, der):
    text = base64.encodebytes(der).decode().replace("\n", "")
    lines = [text[i:i + 64] for i in range(0, len(text), 64)]
    with open(os.path.join(OUT, filename), "w") as f:
        f.write("-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----\n")

root_key = ec.generate_private_key(ec.SECP256R1())
root_name = name("PSS Test Root")
root_ski = x509.SubjectKeyIdentifier.from_public_key(root_key.public_key())
root = (x509.CertificateBuilder().subject_name(x509.Name.from_rfc4514_string("CN=PSS Test Root,O=CertPath PSS"))
        .issuer_name(x509.Name.from_rfc4514_string("CN=PSS Test Root,O=CertPath PSS")).public_key(root_key.public_key())
        .serial_number(next_serial()).not_valid_before(VALIDITY[0]).not_valid_after(VALIDITY[1])
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(root_ski, critical=False)
        .sign(root_key, hashes.SHA256()))
root_name = root.subject.public_bytes()
save("root.pem", root.public_bytes(serialization.Encoding.DER))
ECDSA_SHA256 = seq(oid("1.2.840.10045.4.3.2"))

def tbs(algorithm, issuer, subject, spki, extensions):
    return seq(explicit(0, integer(2)), integer(next_serial()), algorithm, issuer,
               seq(utc(VALIDITY[0]), utc(VALIDITY[1])), subject, spki, explicit(3, seq(*extensions)))

def ca(filename, cn, params):
    key = rsa.generate_private_key(65537, 2048)
    rsa_public = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.PKCS1)
    spki = seq(seq(oid(PSS), params), bits(rsa_public))
    subject = name(cn)
    key_id = hashes_sha1(rsa_public)
    body = tbs(ECDSA_SHA256, root_name, subject, spki, [
        extension("2.5.29.19", seq(tlv(0x01, b"\xff")), critical=True),
        extension("2.5.29.15", tlv(0x03, b"\x01\x06"), critical=True),
        extension("2.5.29.14", octets(key_id)),
        extension("2.5.29.35", seq(tlv(0x80, root_ski.digest))),
    ])
    signature = root_key.sign(body, ec.ECDSA(hashes.SHA256()))
    save(filename, seq(body, ECDSA_SHA256, bits(signature)))
    return key, subject, key_id

def leaf(filename, ca_key, ca_name, ca_key_id, variant):
    key = ec.generate_private_key(ec.SECP256R1())
    spki = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    if variant.startswith("pss"):
        _, h, salt = variant.split("-")
        algorithm = seq(oid(PSS), pss_params(h, int(salt)))
        sign = lambda data: ca_key.sign(data, padding.PSS(padding.MGF1(HASH[h]), int(salt)), HASH[h])
    else:
        algorithm = seq(oid("1.2.840.113549.1.1.11"), tlv(0x05, b""))
        sign = lambda data: ca_key.sign(data, padding.PKCS1v15(), hashes.SHA256())
    body = tbs(algorithm, ca_name, name("pss.test"), spki, [
        extension("2.5.29.19", seq(), critical=True),
        extension("2.5.29.15", tlv(0x03, b"\x07\x80"), critical=True),
        extension("2.5.29.37", seq(oid("1.3.6.1.5.5.7.3.1"))),
        extension("2.5.29.17", seq(tlv(0x82, b"pss.test"))),
        extension("2.5.29.35", seq(tlv(0x80, ca_key_id))),
    ])
    save(filename, seq(body, algorithm, bits(sign(body))))

for filename, cn, params in [("ca-sha384-48.pem", "PSS CA SHA-384", pss_params("sha384", 48)),
                             ("ca-sha1.pem", "PSS CA SHA-1", seq()),
                             ("ca-any.pem", "PSS CA any", None)]:
    key, subject, key_id = ca(filename, cn, params if params is not None else b"")
    for variant in VARIANTS:
        leaf(f"leaf-{filename[3:-4]}-{variant}.pem", key, subject, key_id, variant)
