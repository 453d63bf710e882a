#!/usr/bin/env python3
"""CertPath's own Certificate Transparency test logs, and the SCTs they issue for the sample PKI.

    python3 TestVectors/ct-test-log/generate.py              (from any directory)
    python3 TestVectors/ct-test-log/generate.py --new-keys   (also replace the committed log keys)

Three logs under two operators sign SCTs (RFC 6962 section 3.2) for server certificates issued by
the sample PKI's ECDSA issuing CA (../sample-pki/ecdsa/intermediate.pem and its committed key):

- embedded SCTs by the precertificate flow of RFC 6962 section 3.1: the CA signs a
  precertificate (the poison extension 1.3.6.1.4.1.11129.2.4.3, critical, NULL), each log checks
  the CA's signature on it and signs the precert_entry (SHA-256 of the issuer's
  SubjectPublicKeyInfo, and the TBSCertificate without the poison), and the CA signs the final
  certificate with the SCT list extension (1.3.6.1.4.1.11129.2.4.2) where the poison was;
- SCTs for the TLS extension (RFC 6962 section 3.3.1): each log signs the x509_entry (the whole
  final certificate), and the list is written in the serverinfo formats `openssl s_server
  -serverinfo FILE` reads.

Everything is deterministic: committed keys, fixed names, serial numbers, dates and SCT times,
RFC 6979 ECDSA signatures (pyca `ecdsa_deterministic`, `deterministic_signing`) and PKCS#1 v1.5
RSA signatures. Running the script twice writes the same bytes, as long as the sample PKI's
ECDSA intermediate and server key are the same (regenerating the sample PKI changes them: run
this script again after it and commit both). The log keys are made only when missing or with
--new-keys.

Each output is checked before the script ends: the final certificate's TBS without the SCT list
equals the precertificate's TBS without the poison (pyca's tbs_precertificate_bytes), pyca parses
every SCT list back to the same logs and times, and `openssl s_client -ct` validates every SCT
(embedded and TLS) against the logs in a real handshake with `openssl s_server -serverinfo`.

Needs pyca `cryptography` 44 or later (the test bootstrap installs 48.0.0) and the openssl 3.x CLI.
"""

import base64
import datetime
import hashlib
import ipaddress
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID, ObjectIdentifier

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "sample-pki", "ecdsa")
UTC = datetime.timezone.utc

SCT_LIST_OID = ObjectIdentifier("1.3.6.1.4.1.11129.2.4.2")  # RFC 6962 3.3
# RFC 6962 3.2 / RFC 5246 7.4.1.4.1 code points.
SCT_V1 = 0
SIGNATURE_TYPE_CERTIFICATE_TIMESTAMP = 0
ENTRY_X509, ENTRY_PRECERT = 0, 1
HASH_SHA256 = 4
SIG_RSA, SIG_ECDSA = 1, 3
TLSEXT_SIGNED_CERTIFICATE_TIMESTAMP = 18  # RFC 6962 3.3.1
# OpenSSL's SSL_EXT_* context bits for a SERVERINFOV2 block: ClientHello, TLS 1.2 ServerHello,
# TLS 1.3 Certificate (the leaf's CertificateEntry, RFC 8446 4.4.2).
SERVERINFOV2_CONTEXT = 0x0080 | 0x0100 | 0x1000


def utc(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def millis(moment):
    return (moment - datetime.datetime(1970, 1, 1, tzinfo=UTC)) // datetime.timedelta(milliseconds=1)


# --- the logs ---------------------------------------------------------------------------------
# Two operators; operator A runs a P-256 and an RSA-2048 log, operator B one P-256 log. Every log
# is usable since LOG_USABLE and accepts certificates expiring in its temporal interval.
LOG_LIST_TIMESTAMP = "2026-05-15T00:00:00Z"
LOG_USABLE = "2026-01-01T00:00:00Z"
TEMPORAL_INTERVAL = ("2026-01-01T00:00:00Z", "2028-01-01T00:00:00Z")
OPERATORS = [
    ("CertPath Test Operator A", "ct-a@certpath.test", [
        ("a1", "CertPath Test Log A1 (P-256)", "ec"),
        ("a2", "CertPath Test Log A2 (RSA-2048)", "rsa"),
    ]),
    ("CertPath Test Operator B", "ct-b@certpath.test", [
        ("b1", "CertPath Test Log B1 (P-256)", "ec"),
    ]),
]


class Log:
    def __init__(self, name, description, operator, kind, new_keys):
        self.name, self.description, self.operator, self.kind = name, description, operator, kind
        path = os.path.join(HERE, "keys", "log-%s.key" % name)
        if new_keys or not os.path.exists(path):
            if kind == "ec":
                key = ec.generate_private_key(ec.SECP256R1())
            else:
                key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as out:
                out.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()))
        with open(path, "rb") as data:
            self.key = serialization.load_pem_private_key(data.read(), None)
        self.spki = self.key.public_key().public_bytes(serialization.Encoding.DER,
                                                       serialization.PublicFormat.SubjectPublicKeyInfo)
        self.log_id = hashlib.sha256(self.spki).digest()  # RFC 6962 3.2: LogID is SHA-256 of the key

    def sign(self, data):
        """digitally-signed (RFC 5246 4.7): SignatureAndHashAlgorithm, then opaque signature<0..2^16-1>."""
        if self.kind == "ec":
            signature = self.key.sign(data, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
            algorithm = SIG_ECDSA
        else:
            signature = self.key.sign(data, padding.PKCS1v15(), hashes.SHA256())
            algorithm = SIG_RSA
        return struct.pack(">BBH", HASH_SHA256, algorithm, len(signature)) + signature

    def issue_sct(self, timestamp, entry_type, signed_entry):
        """A v1 SCT (RFC 6962 3.2) over `signed_entry` (already length-prefixed per its type)."""
        extensions = b""
        signed = (struct.pack(">BBQH", SCT_V1, SIGNATURE_TYPE_CERTIFICATE_TIMESTAMP, millis(timestamp), entry_type)
                  + signed_entry + struct.pack(">H", len(extensions)) + extensions)
        return (struct.pack(">B", SCT_V1) + self.log_id + struct.pack(">Q", millis(timestamp))
                + struct.pack(">H", len(extensions)) + extensions + self.sign(signed))

    def submit_precertificate(self, precert, issuer, timestamp):
        """What a log does with an add-pre-chain request (RFC 6962 4.1): check the precertificate, then
        sign the precert_entry: issuer_key_hash and the TBSCertificate without the poison."""
        poison = precert.extensions.get_extension_for_class(x509.PrecertPoison)
        assert poison.critical, "the poison extension must be critical (RFC 6962 3.1)"
        issuer.public_key().verify(precert.signature, precert.tbs_certificate_bytes,
                                   ec.ECDSA(precert.signature_hash_algorithm))
        assert precert.issuer == issuer.subject
        issuer_key_hash = hashlib.sha256(raw_spki(issuer)).digest()
        tbs = tbs_without_extension(precert.tbs_certificate_bytes, POISON_OID_DER)
        return self.issue_sct(timestamp, ENTRY_PRECERT, issuer_key_hash + u24(tbs))

    def submit_certificate(self, certificate, timestamp):
        """add-chain (RFC 6962 4.1): sign the x509_entry, the whole certificate."""
        return self.issue_sct(timestamp, ENTRY_X509, u24(certificate.public_bytes(serialization.Encoding.DER)))

    def list_entry(self):
        return {
            "description": self.description,
            "log_id": base64.b64encode(self.log_id).decode(),
            "key": base64.b64encode(self.spki).decode(),
            "url": "https://ct.certpath.test/%s/" % self.name,
            "mmd": 86400,
            "state": {"usable": {"timestamp": LOG_USABLE}},
            "temporal_interval": {"start_inclusive": TEMPORAL_INTERVAL[0], "end_exclusive": TEMPORAL_INTERVAL[1]},
        }


def u24(data):
    assert len(data) < 1 << 24
    return len(data).to_bytes(3, "big") + data


def sct_list(scts):
    """SignedCertificateTimestampList (RFC 6962 3.3): opaque SerializedSCT<1..2^16-1> list<1..2^16-1>."""
    body = b"".join(struct.pack(">H", len(sct)) + sct for sct in scts)
    return struct.pack(">H", len(body)) + body


def der_octet_string(data):
    n = len(data)
    if n < 0x80:
        length = bytes([n])
    elif n < 0x100:
        length = bytes([0x81, n])
    else:
        length = bytes([0x82]) + n.to_bytes(2, "big")
    return b"\x04" + length + data


def der_read(buf, pos):
    """One DER TLV at pos: (tag, start of TLV, start of value, end)."""
    tag, n, p = buf[pos], buf[pos + 1], pos + 2
    if n & 0x80:
        count = n & 0x7F
        n = int.from_bytes(buf[p:p + count], "big")
        p += count
    return tag, pos, p, p + n


def der_length(n):
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def der_children(buf, start, end):
    """The TLVs between start and end, as byte strings."""
    out = []
    while start < end:
        _, tlv_start, _, tlv_end = der_read(buf, start)
        out.append(buf[tlv_start:tlv_end])
        start = tlv_end
    return out


def tbs_without_extension(tbs, oid_der):
    """The TBSCertificate with the one extension whose extnID is oid_der removed (RFC 6962 3.2:
    the precert_entry's TBS is the precertificate's without the poison), lengths re-encoded."""
    _, _, body, end = der_read(tbs, 0)
    fields = []
    removed = 0
    for field in der_children(tbs, body, end):
        if field[0] == 0xA3:  # [3] EXPLICIT Extensions
            _, _, seq_at, _ = der_read(field, 0)
            _, _, ext_body, ext_end = der_read(field, seq_at)
            kept = []
            for extension in der_children(field, ext_body, ext_end):
                _, _, inner, _ = der_read(extension, 0)
                _, oid_start, _, oid_end = der_read(extension, inner)
                if extension[oid_start:oid_end] == oid_der:
                    removed += 1
                else:
                    kept.append(extension)
            content = b"".join(kept)
            sequence = b"\x30" + der_length(len(content)) + content
            field = b"\xa3" + der_length(len(sequence)) + sequence
        fields.append(field)
    assert removed == 1, "the precertificate must carry the poison extension exactly once"
    content = b"".join(fields)
    return b"\x30" + der_length(len(content)) + content


# 1.3.6.1.4.1.11129.2.4.3, the precertificate poison (RFC 6962 3.1), as a DER OBJECT IDENTIFIER.
POISON_OID_DER = bytes.fromhex("060a2b06010401d679020403")


def raw_spki(cert):
    """The issuer's SubjectPublicKeyInfo exactly as its certificate encodes it (RFC 6962 3.2 issuer_key_hash)."""
    tbs = cert.tbs_certificate_bytes
    _, _, pos, _ = der_read(tbs, 0)
    tag, _, _, after = der_read(tbs, pos)
    if tag == 0xA0:
        pos = after
    for _ in range(5):  # serial, signature, issuer, validity, subject
        _, _, _, pos = der_read(tbs, pos)
    _, start, _, end = der_read(tbs, pos)
    return tbs[start:end]


# --- the certificates -------------------------------------------------------------------------
def load_sample():
    with open(os.path.join(SAMPLE, "intermediate.pem"), "rb") as f:
        intermediate = x509.load_pem_x509_certificate(f.read())
    with open(os.path.join(SAMPLE, "keys", "intermediate.key"), "rb") as f:
        intermediate_key = serialization.load_pem_private_key(f.read(), None)
    with open(os.path.join(SAMPLE, "keys", "server.key"), "rb") as f:
        server_key = serialization.load_pem_private_key(f.read(), None)
    return intermediate, intermediate_key, server_key


def serial_for(name):
    """A positive 63-bit serial number derived from the case name (stable across runs)."""
    return (int.from_bytes(hashlib.sha256(b"certpath-ct " + name.encode()).digest()[:8], "big") >> 1) | (1 << 56)


def leaf_builder(name, not_before, days, server_key, intermediate):
    """The server certificate of the sample PKI (same names and extensions), with this case's validity."""
    aki = intermediate.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    return (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Customer 1"),
                                     x509.NameAttribute(NameOID.COMMON_NAME, "server.customer1.example")]))
            .issuer_name(intermediate.subject)
            .public_key(server_key.public_key())
            .serial_number(serial_for(name))
            .not_valid_before(not_before)
            .not_valid_after(not_after(not_before, days))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                         crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("server.customer1.example"),
                                                        x509.IPAddress(ipaddress.ip_address("192.0.2.10"))]),
                           critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(server_key.public_key()), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(aki), critical=False))


def not_after(not_before, days):
    """The notAfter of a certificate of `days` days: RFC 5280 4.1.2.5 counts notBefore through notAfter
    inclusive, so the last second is notBefore + days * 86,400 s - 1 s (Apple's CT policy measures
    lifetime this way; Chromium's notAfter - notBefore is then one second under `days`)."""
    return not_before + datetime.timedelta(days=days) - datetime.timedelta(seconds=1)


def sign(builder, key):
    return builder.sign(key, hashes.SHA256(), ecdsa_deterministic=True)


def pem(cert):
    return cert.public_bytes(serialization.Encoding.PEM).decode()


def pem_block(label, data):
    body = base64.b64encode(data).decode()
    return "-----BEGIN %s-----\n%s\n-----END %s-----\n" % (
        label, "\n".join(body[i:i + 64] for i in range(0, len(body), 64)), label)


# The cases: name, validity start, lifetime in days, the logs that sign, whether the SCTs are
# embedded (precertificate flow) or for the TLS extension, and the expected verdicts at
# VALIDATION_TIME under each policy, with the reason for people.
VALIDATION_TIME = "2026-06-01T00:00:00Z"
NOT_BEFORE = "2026-05-01T00:00:00Z"
CASES = [
    ("embedded-398d-3logs", 398, ["a1", "a2", "b1"], "embedded",
     {"apple": "compliant", "chromium": "compliant"},
     "398-day certificate (more than 180 days: 3 SCTs needed) with embedded SCTs from 3 logs of 2 operators"),
    ("embedded-180d-2logs", 180, ["a1", "b1"], "embedded",
     {"apple": "compliant", "chromium": "compliant"},
     "180-day certificate (at most 180 days: 2 SCTs needed) with embedded SCTs from 2 logs of 2 operators"),
    ("embedded-398d-2logs", 398, ["a1", "b1"], "embedded",
     {"apple": "noncompliant", "chromium": "noncompliant"},
     "398-day certificate with only 2 embedded SCTs: 3 are needed for more than 180 days"),
    ("embedded-180d-one-operator", 180, ["a1", "a2"], "embedded",
     {"apple": "noncompliant", "chromium": "noncompliant"},
     "180-day certificate with 2 embedded SCTs from 2 logs of one operator: Apple counts 1 SCT per operator at "
     "this lifetime, Chromium asks for 2 distinct operators"),
    ("tls-90d-2logs", 90, ["a1", "b1"], "tls",
     {"apple": "compliant", "chromium": "compliant"},
     "90-day certificate without embedded SCTs; 2 SCTs from 2 operators for the TLS extension (serverinfo files)"),
]


def generate(new_keys):
    logs = {}
    operators = []
    for op_name, email, entries in OPERATORS:
        op_logs = []
        for name, description, kind in entries:
            logs[name] = Log(name, description, op_name, kind, new_keys)
            op_logs.append(logs[name].list_entry())
        operators.append({"name": op_name, "email": [email], "logs": op_logs, "tiled_logs": []})
    log_list = {"version": "certpath-test-1", "log_list_timestamp": LOG_LIST_TIMESTAMP, "operators": operators}
    with open(os.path.join(HERE, "log_list.json"), "w") as out:
        json.dump(log_list, out, indent=2)
        out.write("\n")

    intermediate, intermediate_key, server_key = load_sample()
    with open(os.path.join(SAMPLE, "intermediate.pem")) as f:
        intermediate_pem = f.read()
    manifest_cases = []
    for name, days, signers, delivery, expected, description in CASES:
        not_before = utc(NOT_BEFORE)
        builder = leaf_builder(name, not_before, days, server_key, intermediate)
        sct_times = [not_before + datetime.timedelta(minutes=10 + i) for i in range(len(signers))]
        entry = {"id": name, "description": description, "delivery": delivery,
                 "lifetime_days": days, "not_before": iso(not_before),
                 "not_after": iso(not_after(not_before, days)),
                 "validation_time": VALIDATION_TIME, "expected": expected,
                 "scts": [{"log": logs[s].description, "operator": logs[s].operator,
                           "log_id": base64.b64encode(logs[s].log_id).decode(),
                           "timestamp": iso(t), "timestamp_ms": millis(t)} for s, t in zip(signers, sct_times)]}
        if delivery == "embedded":
            # RFC 6962 3.1: the precertificate is the final certificate's TBS with the poison extension
            # (critical, NULL) where the SCT list will be, signed by the issuing CA itself.
            precert = sign(builder.add_extension(x509.PrecertPoison(), critical=True), intermediate_key)
            scts = [logs[s].submit_precertificate(precert, intermediate, t) for s, t in zip(signers, sct_times)]
            sct_list_bytes = sct_list(scts)
            final = sign(builder.add_extension(x509.UnrecognizedExtension(SCT_LIST_OID, der_octet_string(sct_list_bytes)),
                                               critical=False), intermediate_key)
            # pyca's own reading of the final certificate (TBS without the SCT list) must be what the logs signed.
            assert final.tbs_precertificate_bytes == tbs_without_extension(precert.tbs_certificate_bytes, POISON_OID_DER), \
                "final TBS without the SCT list must equal the precertificate TBS without the poison"
            parsed = final.extensions.get_extension_for_class(x509.PrecertificateSignedCertificateTimestamps).value
            assert [s.log_id for s in parsed] == [logs[s].log_id for s in signers]
            assert [millis(s.timestamp.replace(tzinfo=UTC)) for s in parsed] == [millis(t) for t in sct_times]
            write("%s.precert.pem" % name, pem(precert))
            entry.update(precertificate="%s.precert.pem" % name)
        else:
            final = sign(builder, intermediate_key)
            scts = [logs[s].submit_certificate(final, t) for s, t in zip(signers, sct_times)]
            sct_list_bytes = sct_list(scts)
            extension = struct.pack(">HH", TLSEXT_SIGNED_CERTIFICATE_TIMESTAMP, len(sct_list_bytes)) + sct_list_bytes
            write("%s.serverinfo.pem" % name, pem_block("SERVERINFO FOR signed_certificate_timestamp", extension))
            write("%s.serverinfov2.pem" % name, pem_block("SERVERINFOV2 FOR signed_certificate_timestamp",
                                                          struct.pack(">I", SERVERINFOV2_CONTEXT) + extension))
            write("%s.sctlist" % name, sct_list_bytes, binary=True)
            entry.update(serverinfo="%s.serverinfo.pem" % name, serverinfov2="%s.serverinfov2.pem" % name,
                         sct_list="%s.sctlist" % name)
        write("%s.pem" % name, pem(final))
        write("%s-chain.pem" % name, pem(final) + intermediate_pem)
        entry.update(leaf="%s.pem" % name, chain="%s-chain.pem" % name, issuer="../sample-pki/ecdsa/intermediate.pem",
                     anchor="../sample-pki/ecdsa/root.pem", server_key="../sample-pki/ecdsa/keys/server.key")
        manifest_cases.append(entry)
    manifest = {"format": "certpath-ct-test-log/1", "log_list": "log_list.json", "cases": manifest_cases}
    with open(os.path.join(HERE, "manifest.json"), "w") as out:
        json.dump(manifest, out, indent=2)
        out.write("\n")
    return logs, manifest_cases


def write(name, data, binary=False):
    with open(os.path.join(HERE, name), "wb" if binary else "w") as out:
        out.write(data)


# --- the independent check: openssl s_client -ct against openssl s_server -serverinfo ---------
def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def handshake(case, version, serverinfo, ctlog, root, key, attime):
    """One handshake of `openssl s_client -ct` with `openssl s_server`; the number of valid SCTs."""
    port = free_port()
    server = ["openssl", "s_server", "-accept", "127.0.0.1:%d" % port, "-cert", os.path.join(HERE, case["leaf"]),
              "-cert_chain", os.path.join(SAMPLE, "intermediate.pem"), "-key", key, version]
    if serverinfo:
        server += ["-serverinfo", os.path.join(HERE, serverinfo)]
    # stdin stays open (a pipe): s_server ends when its standard input does.
    proc = subprocess.Popen(server, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        # Wait until s_server listens (a probe connection it shrugs off), at most 10 s.
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.1)
        client = subprocess.run(["openssl", "s_client", "-connect", "127.0.0.1:%d" % port, version,
                                 "-ct", "-ctlogfile", ctlog, "-CAfile", root, "-attime", attime,
                                 "-verify_return_error", "-servername", "server.customer1.example"],
                                input=b"", capture_output=True, timeout=20)
    finally:
        proc.kill()
        proc.wait()
    text = client.stdout.decode(errors="replace")
    valid = text.count("SCT validation status: valid")
    if valid != len(case["scts"]) or "Verify return code: 0 (ok)" not in text:
        print(text, client.stderr.decode(errors="replace"), file=sys.stderr)
        sys.exit("%s: openssl s_client -ct %s validated %d of %d SCTs" % (case["id"], version, valid, len(case["scts"])))
    return valid


def openssl_check(logs, cases):
    """Each case in real TLS 1.2 and 1.3 handshakes: OpenSSL's own CT code (ssl_validate_ct, CT_POLICY_EVAL_CTX)
    validates every SCT, embedded or from the TLS extension, against the logs' keys."""
    if shutil.which("openssl") is None:
        print("openssl not found: the handshake check is skipped", file=sys.stderr)
        return
    work = tempfile.mkdtemp()
    try:
        ctlog = os.path.join(work, "ct.cnf")
        with open(ctlog, "w") as out:
            out.write("enabled_logs = %s\n\n" % ",".join(logs))
            for name, log in logs.items():
                out.write("[%s]\ndescription = %s\nkey = %s\n\n" % (name, log.description, base64.b64encode(log.spki).decode()))
        root = os.path.join(SAMPLE, "root.pem")
        key = os.path.join(SAMPLE, "keys", "server.key")
        attime = str(int(utc(VALIDATION_TIME).timestamp()))
        for case in cases:
            # The serverinfo file (RFC 6962 3.3.1 extension, TLS 1.2 ServerHello only) and the v2 file
            # (also the TLS 1.3 leaf CertificateEntry, RFC 8446 4.4.2); embedded SCTs need neither.
            runs = [("-tls1_2", case.get("serverinfo")), ("-tls1_3", case.get("serverinfov2"))]
            for version, serverinfo in runs:
                valid = handshake(case, version, serverinfo, ctlog, root, key, attime)
                print("%-28s %-8s %s openssl s_client -ct: %d of %d SCTs valid"
                      % (case["id"], case["delivery"], version[1:].replace("_", "."), valid, len(case["scts"])))
    finally:
        shutil.rmtree(work)


def main():
    new_keys = "--new-keys" in sys.argv[1:]
    logs, cases = generate(new_keys)
    openssl_check(logs, cases)
    print("CT test logs and SCTs written to %s (%d cases)" % (HERE, len(cases)))


if __name__ == "__main__":
    main()
