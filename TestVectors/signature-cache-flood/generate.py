#!/usr/bin/env python3
# Inputs of Tests/CertPathTests/SignatureCacheFloodTests.swift: valid P-256 ECDSA signatures made by
# an attacker who chooses the signing key, all with one and the same `s` (so the same last 32 bytes,
# and the same lengths). For a chosen s and message digest z, any nonce k gives r = x(kG) mod n and
# the key d = (k*s - z) / r mod n, under which (r, s) is a valid signature of the message.
#
#   same-s.txt            line 1: the message (hex); then 64 lines "SPKI-DER-hex signature-DER-hex"
#   attacker-chains.pem   16 pairs (leaf, self-signed CA): each leaf's signature verifies under its
#                         own CA's key, every leaf signature ends with the same s
#
# Run from any directory with pyca/cryptography installed: python3 generate.py (a second or two).
import datetime, hashlib, os, pathlib
from cryptography import x509
from cryptography.x509.oid import NameOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

HERE = pathlib.Path(__file__).resolve().parent
N_P256 = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
S = 0x1234567890ABCDEF1234567890ABCDEF1234567890ABCDEF1234567890ABCDEF


def key_for(z):
    """A private key under which (r, S) signs digest z, and r; r is 32 bytes without a sign octet."""
    while True:
        k = int.from_bytes(os.urandom(32), 'big') % N_P256
        if k == 0:
            continue
        r = ec.derive_private_key(k, ec.SECP256R1()).public_key().public_numbers().x % N_P256
        if not (1 << 248) <= r < (1 << 255):
            continue
        d = (k * S - z) * pow(r, -1, N_P256) % N_P256
        if d != 0:
            return ec.derive_private_key(d, ec.SECP256R1()), r


def same_s(count=64):
    message = bytes(range(256)) * 2
    z = int.from_bytes(hashlib.sha256(message).digest(), 'big')
    rows = []
    for _ in range(count):
        private, r = key_for(z)
        signature = encode_dss_signature(r, S)
        private.public_key().verify(signature, message, ec.ECDSA(hashes.SHA256()))
        spki = private.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        rows.append(spki.hex() + ' ' + signature.hex())
    (HERE / 'same-s.txt').write_text(message.hex() + '\n' + '\n'.join(rows) + '\n')


def der_length(n):
    return bytes([n]) if n < 128 else bytes([0x81, n]) if n < 256 else bytes([0x82, n >> 8, n & 0xFF])


def tlv(tag, body):
    return bytes([tag]) + der_length(len(body)) + body


def attacker_chains(count=16):
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    throwaway = ec.generate_private_key(ec.SECP256R1())
    start, end = datetime.datetime(2025, 1, 1), datetime.datetime(2030, 1, 1)
    ecdsa_with_sha256 = bytes.fromhex('300a06082a8648ce3d040302')
    pem = []
    for i in range(count):
        ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, 'Flood CA %02d' % i)])
        # The TBSCertificate of a leaf, then its signature made with (r, S) under a key chosen for it.
        template = (x509.CertificateBuilder()
                    .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, 'victim.example')]))
                    .issuer_name(ca_name).public_key(leaf_key.public_key()).serial_number(0x10000000 + i)
                    .not_valid_before(start).not_valid_after(end)
                    .add_extension(x509.SubjectAlternativeName([x509.DNSName('victim.example')]), critical=False)
                    .sign(throwaway, hashes.SHA256()))
        tbs = template.tbs_certificate_bytes
        ca_key, r = key_for(int.from_bytes(hashlib.sha256(tbs).digest(), 'big'))
        signature = encode_dss_signature(r, S)
        ca_key.public_key().verify(signature, tbs, ec.ECDSA(hashes.SHA256()))
        leaf = x509.load_der_x509_certificate(tlv(0x30, tbs + ecdsa_with_sha256 + tlv(0x03, b'\x00' + signature)))
        ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
              .serial_number(0x20000000 + i).not_valid_before(start).not_valid_after(end)
              .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
              .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                           data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
                                           encipher_only=False, decipher_only=False), critical=True)
              .sign(ca_key, hashes.SHA256()))
        pem += [leaf.public_bytes(serialization.Encoding.PEM).decode(), ca.public_bytes(serialization.Encoding.PEM).decode()]
    (HERE / 'attacker-chains.pem').write_text(''.join(pem))


same_s()
attacker_chains()
print('wrote', HERE / 'same-s.txt', 'and', HERE / 'attacker-chains.pem')
