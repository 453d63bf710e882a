#!/usr/bin/env python3
"""Regenerates the committed seed corpora under TestVectors/fuzz/<target>/ (issue 8).

Sources: this package's TestVectors (sample PKI, signature vectors) and the cryptography-vectors PyPI
package installed by scripts/bootstrap (real and malformed certificates, CRLs, DER keys, PEM files with
garbage and headers). Seeds are chosen for variety and kept small (the whole corpus is a few hundred KB):
files above a size cap are skipped and each target has a byte budget. The path-building seeds are made
by the fuzz target itself (`FuzzPathBuilding --make-seeds`, run by scripts/fuzz) plus the hand-written
chains below, whose bytes follow ScenarioGenerator's reading order.

Usage: Fuzz/make-seeds.py   (from anywhere; rewrites der/, certificate/, pem/, crl/, hostname/, path/hand-*)
"""
import base64
import hashlib
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "TestVectors", "fuzz")


def vectors():
    out = subprocess.run([sys.executable, "-c", "import cryptography_vectors, os; print(os.path.dirname(cryptography_vectors.__file__))"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def pem_blocks(data):
    """(label, der) of every PEM block in data; invalid base64 skipped."""
    for match in re.finditer(rb"-----BEGIN ([^-]+)-----\r?\n(.*?)-----END \1-----", data, re.S):
        body = b"".join(line.strip() for line in match.group(2).splitlines() if b":" not in line)
        try:
            yield match.group(1).decode(), base64.b64decode(body, validate=True)
        except Exception:
            continue


def files(directory, suffixes):
    for base, _, names in sorted(os.walk(directory)):
        for name in sorted(names):
            if name.endswith(suffixes):
                yield os.path.join(base, name)


def write_corpus(target, items, budget, cap):
    """Writes (name, bytes) items to TestVectors/fuzz/<target>/ until `budget` bytes, skipping items over `cap`."""
    directory = os.path.join(OUT, target)
    os.makedirs(directory, exist_ok=True)
    for old in os.listdir(directory):
        if not old.startswith("hand-"):
            os.remove(os.path.join(directory, old))
    seen, total, count = set(), 0, 0
    for name, data in items:
        digest = hashlib.sha256(data).hexdigest()
        if len(data) > cap or digest in seen or total + len(data) > budget:
            continue
        seen.add(digest)
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)[:60]
        with open(os.path.join(directory, f"{safe}-{digest[:8]}"), "wb") as f:
            f.write(data)
        total += len(data)
        count += 1
    print(f"{target}: {count} seeds, {total} bytes")


def certificates_der(v):
    """DER certificates: ours first, then cryptography-vectors (top level, custom, EdDSA, a PKITS sample)."""
    sources = list(files(os.path.join(ROOT, "TestVectors", "sample-pki"), (".pem",)))
    x509 = os.path.join(v, "x509")
    sources += [os.path.join(x509, n) for n in sorted(os.listdir(x509)) if os.path.isfile(os.path.join(x509, n))]
    sources += list(files(os.path.join(x509, "custom"), (".pem", ".der")))
    sources += list(files(os.path.join(x509, "ed25519"), (".pem", ".der")))
    sources += list(files(os.path.join(x509, "ed448"), (".pem", ".der")))
    sources += list(files(os.path.join(x509, "PKITS_data", "certs"), (".crt",)))[::8]
    for path in sources:
        data = open(path, "rb").read()
        name = os.path.basename(path)
        if b"-----BEGIN" in data:
            for index, (label, der) in enumerate(pem_blocks(data)):
                if "CERTIFICATE" in label and index < 2:
                    yield f"{name}.{index}", der
        else:
            yield name, data


def other_der(v):
    """DER that is not a certificate: CRLs, keys, SPKIs, signatures."""
    sources = list(files(os.path.join(v, "x509", "custom"), (".der",)))
    sources += list(files(os.path.join(v, "x509", "PKITS_data", "crls"), (".crl",)))[::10]
    sources += list(files(os.path.join(v, "asymmetric", "DER_Serialization"), (".der",)))
    sources += list(files(os.path.join(ROOT, "TestVectors", "signatures"), (".der", ".sig")))
    for path in sources:
        yield os.path.basename(path), open(path, "rb").read()
    for path in files(os.path.join(v, "x509", "custom"), (".pem",)):
        for index, (label, der) in enumerate(pem_blocks(open(path, "rb").read())):
            if "CRL" in label and index == 0:
                yield os.path.basename(path), der


def crls_der(v):
    """DER CRLs: cryptography-vectors custom/crl_* (PEM and DER) and a sample of PKITS's CRLs."""
    for path in files(os.path.join(v, "x509", "custom"), (".pem", ".der")):
        name = os.path.basename(path)
        if not name.startswith("crl_"):
            continue
        data = open(path, "rb").read()
        if b"-----BEGIN" in data:
            for label, der in pem_blocks(data):
                if "CRL" in label:
                    yield name, der
        else:
            yield name, data
    for path in list(files(os.path.join(v, "x509", "PKITS_data", "crls"), (".crl",)))[::4]:
        yield os.path.basename(path), open(path, "rb").read()


def pem_files(v):
    x509 = os.path.join(v, "x509")
    names = ["cryptography.io.chain_with_garbage.pem", "cryptography.io.with_headers.pem", "cryptography.io.old_header.pem",
             "cryptography.io.with_garbage.pem", "cryptography.io.chain.pem", "badasn1time.pem", "v1_cert.pem", "bigoid.pem"]
    for name in names:
        yield name, open(os.path.join(x509, name), "rb").read()
    for path in files(os.path.join(ROOT, "TestVectors", "sample-pki"), (".pem",)):
        yield os.path.basename(path), open(path, "rb").read()
    for path in list(files(os.path.join(x509, "custom"), (".pem",)))[::3]:
        yield os.path.basename(path), open(path, "rb").read()
    yield "crlf", open(os.path.join(x509, "cryptography.io.pem"), "rb").read().replace(b"\n", b"\r\n")
    yield "key-and-cert", open(os.path.join(ROOT, "TestVectors", "signatures", "p256.key.pem"), "rb").read() + \
        open(os.path.join(x509, "cryptography.io.pem"), "rb").read()


HOSTNAME_SEEDS = [
    "www.example.com\nwww.example.com", "www.example.com\n*.example.com", "WWW.Example.COM.\nwww.example.com.",
    "a.b.example.com\n*.example.com", "example.com\n*.com", "foo.example.com\nf*.example.com",
    "xn--bcher-kva.example.com\n*.example.com", "www.example.com\n*.example.com.", "www.example.com\n**.example.com",
    "www.example.com\nwww.example.com..", "www.example.com\nwww.exa_mple.com", "www.example.com\nuser@www.example.com",
    "192.0.2.1\n\xc0\x00\x02\x01", "192.0.2.1\n192.0.2.1", "2001:db8::1\n\x20\x01\x0d\xb8" + "\x00" * 11 + "\x01",
    "::ffff:192.0.2.1\n\xc0\x00\x02\x01", "010.0.0.1\n", "1.2.3\n", "0x7f.0.0.1\n", "fe80::1%eth0\n", "[::1]\n",
    "b\xc3\xbccher.example\nxn--bcher-kva.example", "a..b\n", "-a.example\n", "*.example.com\n", "www.example.co.uk\n*.co.uk",
    "www.ck\n*.ck", "a.www.ck\n*.www.ck", "x" * 63 + ".example.com\n*.example.com", "1:2:3:4:5:6:7:8\n", "::\n\x00" * 1,
]


def main():
    v = vectors()
    certs = list(certificates_der(v))
    write_corpus("certificate", certs, budget=140_000, cap=3_000)
    write_corpus("der", certs[::4] + list(other_der(v)), budget=90_000, cap=3_000)
    write_corpus("pem", pem_files(v), budget=90_000, cap=8_000)
    write_corpus("crl", crls_der(v), budget=60_000, cap=8_000)
    write_corpus("hostname", [(f"h{i}", s.encode("latin-1")) for i, s in enumerate(HOSTNAME_SEEDS)], budget=20_000, cap=1_000)
    write_hand_path_seeds()


def write_hand_path_seeds():
    """Valid chains in ScenarioGenerator's byte order (header, then per certificate: role, subject, issuer,
    key, signer, version, validity, serial, extension mask (2 bytes), extension decisions)."""
    def header(count, purpose=0, host=0, flags=0):
        return bytes([count - 1, purpose, host, flags, 28, 255, 3, 255, 0])
    # Leaf: O=Example, CN=www.example.com under Intermediate 1; BC (not CA), KU digitalSignature, EKU serverAuth,
    # SAN www.example.com, AKI, SKI.
    leaf = bytes([0, 5, 2, 0, 0, 0, 0, 12, 0x06, 0x0F, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0xFF, 0x00])
    inter = bytes([0, 2, 0, 0, 0, 0, 0, 13, 0x06, 0x03, 0x00, 0x30, 0x01, 0x00, 0x00])   # CA, KU keyCertSign
    root = bytes([1, 0, 0, 0, 0, 0, 0, 14, 0x04, 0x03, 0x00, 0x30, 0x00, 0x00])        # anchor Root A
    inter_b = bytes([0, 2, 1]) + inter[3:]                                              # Intermediate 1 under Root B
    cross_b = bytes([0, 1, 0, 0, 0, 0, 0, 15, 0x06, 0x03, 0x00, 0x30, 0x01, 0x00, 0x00])  # Root B cross-signed by Root A
    root_b_expired = bytes([1, 1, 1, 0, 0, 0, 5, 16, 0x04, 0x03, 0x00, 0x30, 0x00, 0x00])
    seeds = {
        "hand-chain2": header(2) + bytes([0, 5, 0]) + leaf[3:] + root,
        "hand-chain3": header(3) + leaf + inter + root,
        "hand-client": header(3, purpose=2) + leaf[:14] + bytes([0x02]) + leaf[15:] + inter + root,
        "hand-cross": header(5) + leaf + inter_b + root_b_expired + cross_b + root,
        "hand-cross-full": header(5, flags=0x02) + leaf + inter_b + root_b_expired + cross_b + root,
        "hand-rfc5280": header(3, purpose=3, flags=0x01) + leaf + inter + root,
    }
    directory = os.path.join(OUT, "path")
    os.makedirs(directory, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)
    print(f"path: {len(seeds)} hand-written seeds")


if __name__ == "__main__":
    main()
