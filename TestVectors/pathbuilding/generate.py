#!/usr/bin/env python3
"""Generates the path-building and TLS-policy test certificates (see README.md next to this script).

    python3 TestVectors/pathbuilding/generate.py      (from any directory)

cross/, loop/, ranked/, depth/ and tls/ are deleted and made again with fresh keys, so every byte
changes on each run, but names, dates, extensions and structure do not. Private keys are thrown
away. Needs the `cryptography` package (pyca, 40 or later).

expectations.txt (format: TestVectors/expectations.py) is written first: the verdict and failure
codes of each case below, at 2026-06-01; `generate.py --expectations-only` writes only that file.
"""

import datetime
import hashlib
import ipaddress
import os
import shutil
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import expectations  # noqa: E402  (TestVectors/expectations.py)


def utc(year, month=1, day=1):
    return datetime.datetime(year, month, day, tzinfo=datetime.timezone.utc)


FROM, TO = utc(2025), utc(2045)
EXPIRED = (utc(2020), utc(2021))
SERIAL = [0x1000]


def next_serial():
    SERIAL[0] += 1
    return SERIAL[0]


def p256():
    return ec.generate_private_key(ec.SECP256R1())


def name(*parts):
    """name(("O", "x"), ("CN", "y")) -> x509.Name in that order (most significant first)."""
    oids = {"C": NameOID.COUNTRY_NAME, "O": NameOID.ORGANIZATION_NAME, "OU": NameOID.ORGANIZATIONAL_UNIT_NAME,
            "CN": NameOID.COMMON_NAME}
    return x509.Name([x509.NameAttribute(oids[k], v) for k, v in parts])


def ski_of(public_key):
    return x509.SubjectKeyIdentifier.from_public_key(public_key).digest


class Issuer:
    """A signing key and the name and key identifier certificates it issues carry as issuer."""

    def __init__(self, key, subject, ski):
        self.key, self.subject, self.ski = key, subject, ski


def issue(path, subject, public_key, issuer, *, ca, path_len=None, key_usage=None, eku=None, san=None,
          validity=(FROM, TO), ski=None, hash_algorithm=None, self_signed=False, name_constraints=None):
    """Writes one PEM certificate to `path` (relative to this folder) and returns it."""
    builder = (x509.CertificateBuilder()
               .subject_name(subject)
               .issuer_name(subject if self_signed else issuer.subject)
               .public_key(public_key)
               .serial_number(next_serial())
               .not_valid_before(validity[0])
               .not_valid_after(validity[1])
               .add_extension(x509.BasicConstraints(ca=ca, path_length=path_len), critical=True))
    if key_usage is None:
        key_usage = {"key_cert_sign", "crl_sign"} if ca else {"digital_signature"}
    flags = {flag: flag in key_usage for flag in (
        "digital_signature", "content_commitment", "key_encipherment", "data_encipherment", "key_agreement",
        "key_cert_sign", "crl_sign", "encipher_only", "decipher_only")}
    builder = builder.add_extension(x509.KeyUsage(**flags), critical=True)
    if eku is not None:
        builder = builder.add_extension(x509.ExtendedKeyUsage(eku), critical=False)
    if san is not None:
        builder = builder.add_extension(x509.SubjectAlternativeName(san), critical=False)
    if name_constraints is not None:
        builder = builder.add_extension(name_constraints, critical=True)
    builder = builder.add_extension(x509.SubjectKeyIdentifier(ski or ski_of(public_key)), critical=False)
    if not self_signed:
        builder = builder.add_extension(
            x509.AuthorityKeyIdentifier(key_identifier=issuer.ski, authority_cert_issuer=None,
                                        authority_cert_serial_number=None), critical=False)
    signing_key = issuer.key
    algorithm = None if isinstance(signing_key, ed25519.Ed25519PrivateKey) else hashes.SHA256()
    certificate = builder.sign(signing_key, algorithm)
    der = certificate.public_bytes(serialization.Encoding.DER)
    if isinstance(hash_algorithm, hashes.SHA1):
        der = resign_ecdsa_sha1(certificate, signing_key)
    full = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(x509.load_der_x509_certificate(der).public_bytes(serialization.Encoding.PEM))
    return certificate


def der_length(n):
    if n < 0x80:
        return bytes([n])
    octets = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(octets)]) + octets


def tlv(tag, contents):
    return bytes([tag]) + der_length(len(contents)) + contents


def resign_ecdsa_sha1(certificate, key):
    """pyca refuses to sign certificates with SHA-1: swap the TBS signature AlgorithmIdentifier from
    ecdsa-with-SHA256 to ecdsa-with-SHA1 (RFC 3279 2.2.3) and sign the new TBS ourselves."""
    sha256 = bytes.fromhex("300a06082a8648ce3d040302")
    sha1 = bytes.fromhex("300906072a8648ce3d0401")
    tbs = certificate.tbs_certificate_bytes
    # Skip the TBS header (tag, length), then swap the first AlgorithmIdentifier after version and serial.
    header = 2 + (tbs[1] & 0x7F if tbs[1] & 0x80 else 0)
    body = tbs[header:]
    assert body.count(sha256) == 1
    body = body.replace(sha256, sha1)
    new_tbs = tlv(0x30, body)
    signature = key.sign(new_tbs, ec.ECDSA(hashes.SHA1()))
    return tlv(0x30, new_tbs + sha1 + tlv(0x03, b"\x00" + signature))


def root(path, subject, key=None, validity=(FROM, TO)):
    key = key or p256()
    issue(path, subject, key.public_key(), Issuer(key, subject, None), ca=True, validity=validity, self_signed=True)
    return Issuer(key, subject, ski_of(key.public_key()))


def dns(*names):
    return [x509.DNSName(n) for n in names]


SERVER_EKU = [ExtendedKeyUsageOID.SERVER_AUTH]
CLIENT_EKU = [ExtendedKeyUsageOID.CLIENT_AUTH]


def cross():
    """An intermediate certified twice (DST Root CA X3 / ISRG Root X1 in 2021)."""
    old = root("cross/old-root.pem", name(("O", "CertPath PB"), ("CN", "PB Old Root")))
    new = root("cross/new-root.pem", name(("O", "CertPath PB"), ("CN", "PB New Root")))
    # The old root again, same name and key, but expired (its anchor certificate for the RFC 5937 variant).
    issue("cross/old-root-expired.pem", old.subject, old.key.public_key(), old, ca=True,
          validity=(utc(2010), utc(2021)), self_signed=True)
    key = p256()
    subject = name(("O", "CertPath PB"), ("CN", "PB Cross Intermediate"))
    issue("cross/intermediate-by-old-expired.pem", subject, key.public_key(), old, ca=True, validity=EXPIRED)
    issue("cross/intermediate-by-new.pem", subject, key.public_key(), new, ca=True)
    # Time-valid and newer than intermediate-by-new, so ranked first when both are valid.
    issue("cross/intermediate-by-old-valid.pem", subject, key.public_key(), old, ca=True,
          validity=(utc(2025, 6, 1), TO))
    # Same subject and key, but a subjectKeyIdentifier that differs from the leaf's AKI: ranked last.
    issue("cross/intermediate-by-new-other-ski.pem", subject, key.public_key(), new, ca=True, ski=bytes([0x5A] * 20))
    issue("cross/leaf.pem", name(("CN", "leaf.cross.test")), p256().public_key(),
          Issuer(key, subject, ski_of(key.public_key())), ca=False, eku=SERVER_EKU, san=dns("leaf.cross.test"))


def loop():
    """Two CAs that certify each other; no anchor is reachable."""
    root("loop/unrelated-root.pem", name(("O", "CertPath PB"), ("CN", "PB Loop Unrelated Root")))
    key_a, key_b, key_c = p256(), p256(), p256()
    a = Issuer(key_a, name(("O", "CertPath PB"), ("CN", "PB Loop CA A")), ski_of(key_a.public_key()))
    b = Issuer(key_b, name(("O", "CertPath PB"), ("CN", "PB Loop CA B")), ski_of(key_b.public_key()))
    c = Issuer(key_c, name(("O", "CertPath PB"), ("CN", "PB Loop CA C")), ski_of(key_c.public_key()))
    issue("loop/ca-a-by-b.pem", a.subject, key_a.public_key(), b, ca=True)
    issue("loop/ca-b-by-a.pem", b.subject, key_b.public_key(), a, ca=True)
    # A three-cycle over the same CAs: A <- C <- B <- A.
    issue("loop/ca-a-by-c.pem", a.subject, key_a.public_key(), c, ca=True)
    issue("loop/ca-c-by-b.pem", c.subject, key_c.public_key(), b, ca=True)
    issue("loop/leaf.pem", name(("CN", "leaf.loop.test")), p256().public_key(), a, ca=False, eku=SERVER_EKU,
          san=dns("leaf.loop.test"))


def ranked():
    """Several dead ends for one leaf: the primary failure is chosen by rank."""
    top = root("ranked/root.pem", name(("O", "CertPath PB"), ("CN", "PB Ranked Root")))
    missing_key = p256()
    missing = Issuer(missing_key, name(("O", "CertPath PB"), ("CN", "PB Ranked Missing Root")),
                     ski_of(missing_key.public_key()))
    key = p256()
    subject = name(("O", "CertPath PB"), ("CN", "PB Ranked CA"))
    ca = Issuer(key, subject, ski_of(key.public_key()))
    issue("ranked/ca-expired.pem", subject, key.public_key(), top, ca=True, validity=EXPIRED)
    issue("ranked/ca-orphan.pem", subject, key.public_key(), missing, ca=True)
    # Same name, another key: the leaf's signature does not verify with it.
    issue("ranked/ca-wrong-key.pem", subject, p256().public_key(), top, ca=True)
    issue("ranked/leaf.pem", name(("CN", "leaf.ranked.test")), p256().public_key(), ca, ca=False, eku=SERVER_EKU,
          san=dns("leaf.ranked.test"))
    issue("ranked/leaf-expired.pem", name(("CN", "expired.ranked.test")), p256().public_key(), ca, ca=False,
          eku=SERVER_EKU, san=dns("expired.ranked.test"), validity=EXPIRED)


def depth():
    """root <- ca1 <- ca2 <- ca3 <- leaf, and the root re-issued with the same key."""
    top = root("depth/root.pem", name(("O", "CertPath PB"), ("CN", "PB Depth Root")))
    issue("depth/root-reissued.pem", top.subject, top.key.public_key(), top, ca=True,
          validity=(utc(2025, 2, 1), TO), self_signed=True)
    issuer = top
    for level in (1, 2, 3):
        key = p256()
        subject = name(("O", "CertPath PB"), ("CN", f"PB Depth CA {level}"))
        issue(f"depth/ca{level}.pem", subject, key.public_key(), issuer, ca=True)
        issuer = Issuer(key, subject, ski_of(key.public_key()))
    issue("depth/leaf.pem", name(("CN", "leaf.depth.test")), p256().public_key(), issuer, ca=False,
          eku=SERVER_EKU, san=dns("leaf.depth.test"))


def tls():
    """One root, one issuing CA name and key with several extKeyUsage variants, and leaves for the TLS policies."""
    top = root("tls/root.pem", name(("O", "CertPath PB"), ("CN", "PB TLS Root")))
    key = p256()
    subject = name(("O", "CertPath PB"), ("CN", "PB TLS CA"))
    ca = Issuer(key, subject, ski_of(key.public_key()))
    issue("tls/ca.pem", subject, key.public_key(), top, ca=True)
    issue("tls/ca-eku-server.pem", subject, key.public_key(), top, ca=True, eku=SERVER_EKU)
    issue("tls/ca-eku-client.pem", subject, key.public_key(), top, ca=True, eku=CLIENT_EKU)
    issue("tls/ca-eku-any.pem", subject, key.public_key(), top, ca=True,
          eku=[x509.ObjectIdentifier("2.5.29.37.0")])

    def leaf(file, public_key, *, cn=None, san=None, eku=SERVER_EKU, key_usage=None, hash_algorithm=None):
        parts = [("O", "CertPath PB TLS")] + ([("CN", cn)] if cn else [])
        issue(f"tls/{file}", name(*parts), public_key, ca, ca=False, eku=eku, san=san, key_usage=key_usage,
              hash_algorithm=hash_algorithm)

    ip = lambda text: x509.IPAddress(ipaddress.ip_address(text))
    leaf("server.pem", p256().public_key(), cn="www.tls.test",
         san=dns("www.tls.test") + [ip("192.0.2.1"), ip("2001:db8::1")])
    leaf("wildcard.pem", p256().public_key(), san=dns("*.wild.tls.test"))
    leaf("cn-only.pem", p256().public_key(), cn="cn.tls.test")
    leaf("dns-ip-text.pem", p256().public_key(), san=dns("192.0.2.7"))
    leaf("ip-only.pem", p256().public_key(), san=[ip("192.0.2.9")])
    rsa2048 = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    leaf("rsa-key-encipherment.pem", rsa2048.public_key(), cn="rsa.tls.test", san=dns("rsa.tls.test"),
         key_usage={"key_encipherment"})
    leaf("ec-key-encipherment.pem", p256().public_key(), cn="ec.tls.test", san=dns("ec.tls.test"),
         key_usage={"key_encipherment"})
    rsa1024 = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    leaf("rsa-1024.pem", rsa1024.public_key(), san=dns("rsa1024.tls.test"))
    leaf("sha1.pem", p256().public_key(), san=dns("sha1.tls.test"), hash_algorithm=hashes.SHA1())
    leaf("p384.pem", ec.generate_private_key(ec.SECP384R1()).public_key(), san=dns("p384.tls.test"))
    leaf("p521.pem", ec.generate_private_key(ec.SECP521R1()).public_key(), san=dns("p521.tls.test"))
    leaf("ed25519.pem", ed25519.Ed25519PrivateKey.generate().public_key(), san=dns("ed25519.tls.test"))
    leaf("no-eku.pem", p256().public_key(), san=dns("noeku.tls.test"), eku=None)
    leaf("any-eku.pem", p256().public_key(), san=dns("anyeku.tls.test"), eku=[x509.ObjectIdentifier("2.5.29.37.0")])
    client_san = dns("client.tls.test") + [ip("198.51.100.5"), x509.RFC822Name("alice@tls.test")]
    leaf("client.pem", p256().public_key(), san=client_san, eku=CLIENT_EKU)
    leaf("client-rsa-key-encipherment.pem", rsa2048.public_key(), san=dns("client-rsa.tls.test"), eku=CLIENT_EKU,
         key_usage={"key_encipherment"})


def cn_constraints():
    """Name constraints on a subject commonName read as a host name (the legacy commonName fallback):
    one CA permitting only allowed.cnc.test, one excluding blocked.cnc.test, and leaves without a
    subjectAltName (their CN is the only host name) and one with both."""
    top = root("cn-constraints/root.pem", name(("O", "CertPath PB"), ("CN", "PB CN Constraints Root")))

    def constrained_ca(file, cn, constraints):
        key = p256()
        subject = name(("O", "CertPath PB"), ("CN", cn))
        issue(f"cn-constraints/{file}", subject, key.public_key(), top, ca=True, name_constraints=constraints)
        return Issuer(key, subject, ski_of(key.public_key()))

    permitting = constrained_ca("ca-permitted.pem", "PB CN Permitted CA",
                                x509.NameConstraints(permitted_subtrees=dns("allowed.cnc.test"), excluded_subtrees=None))
    excluding = constrained_ca("ca-excluded.pem", "PB CN Excluded CA",
                               x509.NameConstraints(permitted_subtrees=None, excluded_subtrees=dns("blocked.cnc.test")))

    def leaf(file, issuer, cn, san=None):
        issue(f"cn-constraints/{file}", name(("O", "CertPath PB CNC"), ("CN", cn)), p256().public_key(), issuer,
              ca=False, eku=SERVER_EKU, san=san)

    leaf("cn-outside.pem", permitting, "evil.example.org")
    leaf("cn-inside.pem", permitting, "www.allowed.cnc.test")
    leaf("cn-outside-san-inside.pem", permitting, "evil.example.org", san=dns("www.allowed.cnc.test"))
    leaf("cn-person.pem", permitting, "Jane Doe")
    leaf("cn-blocked.pem", excluding, "www.blocked.cnc.test")
    leaf("cn-not-blocked.pem", excluding, "www.open.cnc.test")

AT = "2026-06-01T00:00:00Z"


def expected_results():
    """The cases of expectations.txt: what each structure below is made to show."""
    c = expectations.case
    T, U = "trusted", "untrusted"
    cases = [
        # cross/: backtracking past an expired cross-certificate (RFC 5280 6.1.3 (a)(2)) to the new root.
        c("cross/expired-cross-listed-first", "cross/leaf.pem", ["cross/intermediate-by-old-expired.pem", "cross/intermediate-by-new.pem"],
          ["cross/old-root.pem", "cross/new-root.pem"], "server:leaf.cross.test", AT, T),
        c("cross/only-the-expired-cross", "cross/leaf.pem", ["cross/intermediate-by-old-expired.pem"],
          ["cross/old-root.pem", "cross/new-root.pem"], "any", AT, U, ["expired"]),
        c("cross/expired-cross-ranked-first", "cross/leaf.pem",
          ["cross/intermediate-by-new-other-ski.pem", "cross/intermediate-by-old-expired.pem"],
          ["cross/old-root.pem", "cross/new-root.pem"], "any", AT, T),
        # The anchor's validity enforced by default (RFC 5937): past the expired old root.
        c("cross/expired-root-behind-valid-cross", "cross/leaf.pem", ["cross/intermediate-by-old-valid.pem", "cross/intermediate-by-new.pem"],
          ["cross/old-root-expired.pem", "cross/new-root.pem"], "any", AT, T),
        # loop/: CAs certifying each other, no anchor reachable.
        c("loop/two-cycle", "loop/leaf.pem", ["loop/ca-a-by-b.pem", "loop/ca-b-by-a.pem"], ["loop/unrelated-root.pem"],
          "any", AT, U, ["issuerNotFound"]),
        c("loop/three-cycle", "loop/leaf.pem", ["loop/ca-a-by-b.pem", "loop/ca-b-by-a.pem", "loop/ca-a-by-c.pem", "loop/ca-c-by-b.pem"],
          ["loop/unrelated-root.pem"], "any", AT, U, ["issuerNotFound"]),
        # ranked/: several dead ends, the primary failure chosen by rank.
        c("ranked/expired-intermediate-wins", "ranked/leaf.pem", ["ranked/ca-orphan.pem", "ranked/ca-expired.pem", "ranked/ca-wrong-key.pem"],
          ["ranked/root.pem"], "any", AT, U, ["expired"]),
        c("ranked/missing-intermediate", "ranked/leaf.pem", [], ["ranked/root.pem"], "any", AT, U, ["issuerNotFound"]),
        c("ranked/missing-root", "ranked/leaf.pem", ["ranked/ca-orphan.pem"], ["ranked/root.pem"], "any", AT, U, ["issuerNotFound"]),
        c("ranked/expired-leaf-without-issuer", "ranked/leaf-expired.pem", [], ["ranked/root.pem"], "any", AT, U,
          ["expired", "issuerNotFound"]),
        c("ranked/only-wrong-key", "ranked/leaf.pem", ["ranked/ca-wrong-key.pem"], ["ranked/root.pem"], "any", AT, U, ["badSignature"]),
        # depth/: three intermediates.
        c("depth/three-intermediates", "depth/leaf.pem", ["depth/ca1.pem", "depth/ca2.pem", "depth/ca3.pem"], ["depth/root.pem"], "any", AT, T),
        c("depth/intermediate-as-anchor", "depth/leaf.pem", ["depth/ca1.pem", "depth/ca2.pem", "depth/ca3.pem"], ["depth/ca2.pem"], "any", AT, T),
    ]
    # tls/: TLS server and client policies (RFC 5280 4.2.1.12 EKU chaining, RFC 6125 names, key usage
    # per RFC 5246/8446, the algorithm profile).
    def tls(id, leaf, policy, verdict, codes=(), ca="tls/ca.pem"):
        cases.append(c("tls/" + id, "tls/" + leaf, [ca], ["tls/root.pem"], policy, AT, verdict, list(codes)))
    for ca in ("ca.pem", "ca-eku-server.pem", "ca-eku-any.pem"):
        tls(f"server-via-{ca[:-4]}", "server.pem", "server:www.tls.test", T, ca="tls/" + ca)
    tls("server-via-ca-eku-client", "server.pem", "server:www.tls.test", U, ["extendedKeyUsageForbids"], ca="tls/ca-eku-client.pem")
    tls("server-by-ip", "server.pem", "server:192.0.2.1", T)
    tls("server-other-name", "server.pem", "server:other.tls.test", U, ["hostnameMismatch"])
    tls("leaf-without-eku", "no-eku.pem", "server:noeku.tls.test", T)
    tls("leaf-any-eku", "any-eku.pem", "server:anyeku.tls.test", T)
    tls("client-leaf-as-server", "client.pem", "server:client.tls.test", U, ["extendedKeyUsageForbids"])
    tls("cn-only", "cn-only.pem", "server:cn.tls.test", U, ["hostnameMismatch"])
    tls("ip-text-in-dns-name", "dns-ip-text.pem", "server:192.0.2.7", U, ["hostnameMismatch"])
    tls("wildcard-one-label", "wildcard.pem", "server:a.wild.tls.test", T)
    tls("wildcard-two-labels", "wildcard.pem", "server:a.b.wild.tls.test", U, ["hostnameMismatch"])
    tls("rsa-key-encipherment", "rsa-key-encipherment.pem", "server:rsa.tls.test", T)
    tls("ec-key-encipherment", "ec-key-encipherment.pem", "server:ec.tls.test", U, ["keyUsageForbids"])
    tls("rsa-1024", "rsa-1024.pem", "server:rsa1024.tls.test", U, ["weakKey"])
    tls("sha1", "sha1.pem", "server:sha1.tls.test", U, ["disallowedSignatureAlgorithm"])
    for curve in ("p384", "p521", "ed25519"):
        tls(curve, f"{curve}.pem", f"server:{curve}.tls.test", T)
    tls("client", "client.pem", "client", T)
    tls("client-via-ca-eku-server", "client.pem", "client", U, ["extendedKeyUsageForbids"], ca="tls/ca-eku-server.pem")
    tls("server-leaf-as-client", "server.pem", "client", U, ["extendedKeyUsageForbids"])
    tls("client-rsa-key-encipherment", "client-rsa-key-encipherment.pem", "client", U, ["keyUsageForbids"])
    # cn-constraints/: a commonName read as a host name (the fallback) is subject to dNSName
    # constraints (RFC 5280 4.2.1.10, as Chromium and Go apply them).
    def cnc(id, leaf, ca, host, verdict, codes=(), fallback=True):
        policy = f"server:{host}" + (";commonNameFallback" if fallback else "")
        cases.append(c("cn-constraints/" + id, "cn-constraints/" + leaf, ["cn-constraints/" + ca], ["cn-constraints/root.pem"],
                       policy, AT, verdict, list(codes)))
    cnc("cn-outside-permitted", "cn-outside.pem", "ca-permitted.pem", "evil.example.org", U, ["nameConstraintViolation"])
    cnc("cn-inside-permitted", "cn-inside.pem", "ca-permitted.pem", "www.allowed.cnc.test", T)
    cnc("cn-outside-without-fallback", "cn-outside.pem", "ca-permitted.pem", "evil.example.org", U, ["hostnameMismatch"], fallback=False)
    cnc("san-inside-cn-outside", "cn-outside-san-inside.pem", "ca-permitted.pem", "www.allowed.cnc.test", T)
    cnc("cn-person", "cn-person.pem", "ca-permitted.pem", "www.allowed.cnc.test", U, ["hostnameMismatch"])
    cnc("cn-excluded", "cn-blocked.pem", "ca-excluded.pem", "www.blocked.cnc.test", U, ["nameConstraintViolation"])
    cnc("cn-not-excluded", "cn-not-blocked.pem", "ca-excluded.pem", "www.open.cnc.test", T)
    return cases


def main():
    expectations.write(HERE, "TestVectors/pathbuilding/generate.py", expected_results())
    for folder in ("cross", "loop", "ranked", "depth", "tls", "cn-constraints"):
        shutil.rmtree(os.path.join(HERE, folder), ignore_errors=True)
    cross()
    loop()
    ranked()
    depth()
    tls()
    cn_constraints()


if __name__ == "__main__":
    main()
