#!/usr/bin/env python3
"""Record how pyca/cryptography parses the X.509 certificate vectors of `cryptography-vectors`.

Writes TestVectors/pyca/expected.json (relative to the repository root): for every file under
the `x509/` folder of the installed `cryptography_vectors` package that the CertPath conformance
test looks at (the top-level files, `custom/`, `custom/ca/`, `PKITS_data/certs/`, `ed25519/`,
`ed448/`), whether pyca accepts it as a certificate and, when it does, the fields pyca reports.
The Swift test compares CertPath's parser with this file field by field.

Usage: python3 scripts/pyca-expectations.py [--vectors DIR] [--output FILE]

Only the standard library and `cryptography` are used. The output is deterministic: files are
walked in sorted order, keys are sorted, nothing time- or machine-dependent is written.
"""

import argparse
import hashlib
import importlib.metadata
import ipaddress
import json
import os
import sys
import warnings

import cryptography
import cryptography.exceptions
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import dsa, ec, ed448, ed25519, rsa

FORMAT = "certpath-pyca-expectations/1"
EXPECTED_VECTORS_VERSION = "50.0.2"

# Folders of x509/ whose files (not sub-folders) are recorded. "" is x509/ itself.
# custom/ca/ is included: it holds three CA certificates (plus two private keys, which are
# recorded as not-a-certificate).
FOLDERS = ["", "custom", "custom/ca", "PKITS_data/certs", "ed25519", "ed448"]

CERT_PEM_LABELS = {"CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE"}

KEY_USAGE_FIELDS = [
    "digital_signature",
    "content_commitment",
    "key_encipherment",
    "data_encipherment",
    "key_agreement",
    "key_cert_sign",
    "crl_sign",
    "encipher_only",
    "decipher_only",
]


class FieldError(Exception):
    """A pyca exception raised while reading one field; `stage` names the field."""

    def __init__(self, stage, error):
        super().__init__(str(error))
        self.stage = stage
        self.error = error


# ---------------------------------------------------------------------------------------------
# Minimal DER walker (used only to take raw bytes out of certificates pyca already accepted and
# to recognise a few non-certificate shapes). Returns None instead of raising on bad input.


def der_tlv(data, offset):
    """Return (tag, content_start, end) of the TLV at offset, or None if it is not valid DER."""
    if offset + 2 > len(data):
        return None
    tag = data[offset]
    if tag & 0x1F == 0x1F:  # high tag numbers do not occur in the structures we walk
        return None
    first = data[offset + 1]
    pos = offset + 2
    if first < 0x80:
        length = first
    else:
        count = first & 0x7F
        if count == 0 or count > 4 or pos + count > len(data):
            return None
        length = int.from_bytes(data[pos : pos + count], "big")
        pos += count
    end = pos + length
    if end > len(data):
        return None
    return tag, pos, end


def der_children(data, start, end):
    """Return the list of (tag, tlv_start, content_start, end) inside [start, end), or None."""
    out = []
    pos = start
    while pos < end:
        tlv = der_tlv(data, pos)
        if tlv is None or tlv[2] > end:
            return None
        out.append((tlv[0], pos, tlv[1], tlv[2]))
        pos = tlv[2]
    return out


def tbs_parts(tbs):
    """Split a TBSCertificate into a dict of raw element bytes, or None."""
    top = der_tlv(tbs, 0)
    if top is None or top[0] != 0x30:
        return None
    kids = der_children(tbs, top[1], top[2])
    if kids is None:
        return None
    if kids and kids[0][0] == 0xA0:
        kids = kids[1:]
    if len(kids) < 6:
        return None
    names = ["serial", "signature", "issuer", "validity", "subject", "spki"]
    return {n: (k[0], tbs[k[1] : k[3]], k[2] - k[1]) for n, k in zip(names, kids)}


def outer_signature_algorithm(der):
    """Raw bytes of Certificate.signatureAlgorithm, or None."""
    top = der_tlv(der, 0)
    if top is None:
        return None
    kids = der_children(der, top[1], top[2])
    if kids is None or len(kids) != 3:
        return None
    return der[kids[1][1] : kids[1][3]]


def spki_parameters_tag(spki_raw):
    """Tag of SubjectPublicKeyInfo.algorithm.parameters (None when absent or unparsable)."""
    top = der_tlv(spki_raw, 0)
    if top is None:
        return None
    kids = der_children(spki_raw, top[1], top[2])
    if not kids:
        return None
    alg = der_children(spki_raw, kids[0][2], kids[0][3])
    if not alg or len(alg) < 2:
        return None
    return alg[1][0]


def looks_like_tbs_certificate(der):
    """True when the data is a SEQUENCE whose first element is the [0] EXPLICIT version."""
    top = der_tlv(der, 0)
    if top is None or top[0] != 0x30 or top[2] != len(der):
        return False
    kids = der_children(der, top[1], top[2])
    return bool(kids) and kids[0][0] == 0xA0 and len(kids) >= 7


# ---------------------------------------------------------------------------------------------
# PEM inspection


def pem_blocks(text):
    """Return (labels, has_headers, has_outside_text) for the PEM blocks found in text."""
    labels = []
    has_headers = False
    outside = False
    inside = None
    for line in text.splitlines():
        stripped = line.strip()
        if inside is None:
            if stripped.startswith("-----BEGIN ") and stripped.endswith("-----"):
                inside = stripped[len("-----BEGIN ") : -5]
                labels.append(inside)
            elif stripped:
                outside = True
        else:
            if stripped.startswith("-----END ") and stripped.endswith("-----"):
                inside = None
            elif ":" in stripped and inside in CERT_PEM_LABELS:
                has_headers = True
    return labels, has_headers, outside


# ---------------------------------------------------------------------------------------------
# Field extraction


def unix_seconds(dt):
    return int(dt.timestamp())


def public_key_record(cert, notes):
    try:
        key = cert.public_key()
    except cryptography.exceptions.UnsupportedAlgorithm as e:
        notes.append(
            "public_key() raised UnsupportedAlgorithm (%s); the SubjectPublicKeyInfo itself "
            "parsed, so the key is recorded as type 'other'" % e
        )
        return {"type": "other", "bits": None, "curve": None}
    except Exception as e:
        raise FieldError("public_key", e)
    if isinstance(key, rsa.RSAPublicKey):
        return {"type": "rsa", "bits": key.key_size, "curve": None}
    if isinstance(key, ec.EllipticCurvePublicKey):
        return {"type": "ec", "bits": key.curve.key_size, "curve": key.curve.name}
    if isinstance(key, ed25519.Ed25519PublicKey):
        return {"type": "ed25519", "bits": None, "curve": None}
    if isinstance(key, ed448.Ed448PublicKey):
        return {"type": "ed448", "bits": None, "curve": None}
    if isinstance(key, dsa.DSAPublicKey):
        return {"type": "dsa", "bits": key.key_size, "curve": None}
    return {"type": "other", "bits": None, "curve": None}


def general_name_record(name):
    if isinstance(name, x509.DNSName):
        return {"type": "dns", "value": name.value}
    if isinstance(name, x509.IPAddress):
        return {"type": "ip", "value": str(name.value)}
    if isinstance(name, x509.RFC822Name):
        return {"type": "email", "value": name.value}
    if isinstance(name, x509.UniformResourceIdentifier):
        return {"type": "uri", "value": name.value}
    if isinstance(name, x509.DirectoryName):
        return {"type": "dirname", "value": name.value.rfc4514_string()}
    if isinstance(name, x509.RegisteredID):
        return {"type": "rid", "value": name.value.dotted_string}
    if isinstance(name, x509.OtherName):
        return {"type": "othername", "value": name.type_id.dotted_string}
    raise ValueError("unexpected GeneralName class %s" % type(name).__name__)


def key_usage_record(ku):
    out = {}
    for field in KEY_USAGE_FIELDS:
        if field in ("encipher_only", "decipher_only") and not ku.key_agreement:
            out[field] = None
        else:
            out[field] = getattr(ku, field)
    return out


def certificate_record(cert, notes):
    """All recorded fields of one certificate; raises FieldError on the first pyca failure."""

    def field(stage, fn):
        try:
            return fn()
        except FieldError:
            raise
        except Exception as e:
            raise FieldError(stage, e)

    rec = {}
    version = field("version", lambda: cert.version)
    rec["version"] = {x509.Version.v1: 1, x509.Version.v3: 3}[version]
    rec["serial"] = str(field("serial", lambda: cert.serial_number))
    rec["issuer"] = field("issuer", lambda: cert.issuer.rfc4514_string())
    rec["subject"] = field("subject", lambda: cert.subject.rfc4514_string())
    rec["not_before"] = unix_seconds(field("not_before", lambda: cert.not_valid_before_utc))
    rec["not_after"] = unix_seconds(field("not_after", lambda: cert.not_valid_after_utc))
    rec["signature_algorithm_oid"] = field(
        "signature_algorithm_oid", lambda: cert.signature_algorithm_oid.dotted_string
    )
    rec["public_key"] = public_key_record(cert, notes)
    extensions = field("extensions", lambda: list(cert.extensions))
    rec["extensions"] = [
        {"oid": e.oid.dotted_string, "critical": bool(e.critical)} for e in extensions
    ]

    by_class = {}
    for e in extensions:
        by_class.setdefault(type(e.value), e.value)

    san = by_class.get(x509.SubjectAlternativeName)
    rec["san"] = None if san is None else field("san", lambda: [general_name_record(n) for n in san])
    bc = by_class.get(x509.BasicConstraints)
    rec["basic_constraints"] = (
        None if bc is None else {"ca": bool(bc.ca), "path_length": bc.path_length}
    )
    ku = by_class.get(x509.KeyUsage)
    rec["key_usage"] = None if ku is None else field("key_usage", lambda: key_usage_record(ku))
    eku = by_class.get(x509.ExtendedKeyUsage)
    rec["eku"] = None if eku is None else [oid.dotted_string for oid in eku]
    ski = by_class.get(x509.SubjectKeyIdentifier)
    rec["ski"] = None if ski is None else ski.digest.hex()
    aki = by_class.get(x509.AuthorityKeyIdentifier)
    rec["aki_key_id"] = (
        None if aki is None or aki.key_identifier is None else aki.key_identifier.hex()
    )

    # Raw names straight from the TBSCertificate bytes (the DER as it is in the file).
    tbs = field("tbs_certificate_bytes", lambda: cert.tbs_certificate_bytes)
    parts = tbs_parts(tbs)
    if parts is None:
        raise FieldError("tbs_certificate_bytes", ValueError("TBSCertificate not walkable"))
    rec["issuer_der_hex"] = parts["issuer"][1].hex()
    rec["subject_der_hex"] = parts["subject"][1].hex()

    # Leniencies we can see from the outside.
    for which, name in (("issuer", cert.issuer), ("subject", cert.subject)):
        if name.public_bytes() != parts[which][1]:
            notes.append(
                "pyca re-encodes the %s Name differently from the DER in the file "
                "(issuer_der_hex/subject_der_hex are the file's bytes)" % which
            )
    der = cert.public_bytes(serialization.Encoding.DER)
    outer = outer_signature_algorithm(der)
    if outer is not None and outer != parts["signature"][1]:
        notes.append(
            "TBSCertificate.signature differs from Certificate.signatureAlgorithm "
            "(RFC 5280 4.1.1.2 requires them to match); pyca does not check this for certificates"
        )
    if rec["public_key"]["type"] == "ec":
        tag = spki_parameters_tag(parts["spki"][1])
        if tag != 0x06:
            notes.append(
                "EC SubjectPublicKeyInfo parameters are not a namedCurve OID (tag 0x%02x); "
                "pyca maps them to %s" % (tag if tag is not None else 0, rec["public_key"]["curve"])
            )
    if rec["san"]:
        for gn in rec["san"]:
            if gn["type"] in ("dns", "email", "uri") and not gn["value"].isascii():
                notes.append(
                    "SAN %s name holds non-ASCII bytes in an IA5String; pyca decodes it as UTF-8"
                    % gn["type"]
                )
                break
    try:
        cert.signature_algorithm_parameters
    except Exception as e:
        notes.append(
            "signature_algorithm_parameters raises %s: %s (not a recorded field)"
            % (type(e).__name__, e)
        )
    return rec


# ---------------------------------------------------------------------------------------------
# Per-file classification


def not_a_certificate(rec, note):
    rec["kind"] = "not-a-certificate"
    rec["note"] = note


def describe_crl(data, is_pem):
    try:
        if is_pem:
            x509.load_pem_x509_crl(data)
        else:
            x509.load_der_x509_crl(data)
        return "pyca loads it as a CRL"
    except Exception as e:
        return "pyca does not load it as a CRL either (%s: %s)" % (type(e).__name__, e)


def try_load(data, is_pem):
    """Load every certificate and every recorded field. Returns (certs, error, stage, notes)."""
    notes = []
    try:
        if is_pem:
            certs = x509.load_pem_x509_certificates(data)
        else:
            certs = [x509.load_der_x509_certificate(data)]
    except Exception as e:
        return None, e, "load", notes
    records = []
    for index, cert in enumerate(certs):
        try:
            records.append(certificate_record(cert, notes))
        except FieldError as fe:
            stage = fe.stage if len(certs) == 1 else "certificate %d: %s" % (index, fe.stage)
            return None, fe.error, stage, notes
    return records, None, None, notes


def dedupe(items):
    seen = set()
    out = []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out


def file_record(path, rel):
    with open(path, "rb") as fh:
        data = fh.read()
    is_pem = b"-----BEGIN " in data
    rec = {"encoding": "pem" if is_pem else "der", "sha256": hashlib.sha256(data).hexdigest()}

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        records, error, stage, notes = try_load(data, is_pem)
    warning_texts = dedupe(
        str(w.message) for w in caught if not issubclass(w.category, ResourceWarning)
    )

    rec["accepted"] = records is not None
    if records is not None:
        rec["certificates"] = records
    else:
        rec["error"] = str(error)
        rec["error_type"] = type(error).__name__
        rec["error_stage"] = stage
    if warning_texts:
        rec["warnings"] = warning_texts

    # Kind: PEM by label, DER by what the bytes are.
    name = os.path.basename(rel)
    if is_pem:
        labels, has_headers, outside = pem_blocks(data.decode("latin-1"))
        cert_labels = [l for l in labels if l in CERT_PEM_LABELS]
        if cert_labels:
            rec["kind"] = "certificate"
            if records is not None:
                if "X509 CERTIFICATE" in cert_labels:
                    notes.append("PEM label 'X509 CERTIFICATE' (pre-RFC 7468) accepted")
                if has_headers:
                    notes.append("PEM encapsulated headers inside the certificate block ignored")
                others = sorted(set(l for l in labels if l not in CERT_PEM_LABELS))
                if outside or others:
                    what = []
                    if outside:
                        what.append("text outside PEM blocks")
                    if others:
                        what.append("blocks labelled " + ", ".join(repr(l) for l in others))
                    notes.append("ignored " + " and ".join(what))
        elif "X509 CRL" in labels:
            not_a_certificate(rec, "CRL (PEM label 'X509 CRL'); " + describe_crl(data, True))
        elif any(l.endswith("PRIVATE KEY") for l in labels):
            not_a_certificate(rec, "private key (PEM label %r)" % labels[0])
        elif any("REQUEST" in l for l in labels):
            not_a_certificate(rec, "certification request (PEM label %r)" % labels[0])
        else:
            not_a_certificate(rec, "PEM without a certificate block (labels %r)" % labels)
    else:
        if records is not None:
            rec["kind"] = "certificate"
        elif describe_crl(data, False) == "pyca loads it as a CRL":
            not_a_certificate(rec, "CRL (DER); pyca loads it as a CRL")
        elif name.startswith("crl_"):
            not_a_certificate(rec, "CRL (DER, by file name); " + describe_crl(data, False))
        elif looks_like_tbs_certificate(data):
            not_a_certificate(
                rec,
                "a bare TBSCertificate (SEQUENCE starting with [0] version), not a signed "
                "Certificate",
            )
        else:
            rec["kind"] = "certificate"

    if records is not None and (warning_texts or notes):
        parts = []
        if warning_texts:
            parts.append("accepted with %d pyca warning(s), see 'warnings'" % len(warning_texts))
        parts.extend(dedupe(notes))
        rec["pyca_note"] = "; ".join(parts)
    return rec


def vectors_x509_dir(explicit):
    if explicit:
        return explicit
    import cryptography_vectors  # data-only package; imported just to find its folder

    return os.path.join(os.path.dirname(cryptography_vectors.__file__), "x509")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vectors", help="the x509/ folder of cryptography_vectors")
    parser.add_argument(
        "--output", default=os.path.join(root, "TestVectors", "pyca", "expected.json")
    )
    args = parser.parse_args()

    base = vectors_x509_dir(args.vectors)
    vectors_version = importlib.metadata.version("cryptography_vectors")
    if vectors_version != EXPECTED_VECTORS_VERSION:
        print(
            "warning: cryptography_vectors is %s, the Swift test expects %s"
            % (vectors_version, EXPECTED_VECTORS_VERSION),
            file=sys.stderr,
        )

    files = {}
    for folder in FOLDERS:
        directory = os.path.join(base, folder) if folder else base
        for entry in sorted(os.listdir(directory)):
            path = os.path.join(directory, entry)
            if not os.path.isfile(path):
                continue
            rel = entry if not folder else folder + "/" + entry
            files[rel] = file_record(path, rel)

    out = {
        "format": FORMAT,
        "cryptography_version": cryptography.__version__,
        "cryptography_vectors_version": vectors_version,
        "files": files,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    text = json.dumps(out, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    with open(args.output, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)

    certs = [r for r in files.values() if r["kind"] == "certificate"]
    print(
        "%d files: %d certificate files (%d accepted, %d rejected by pyca), %d not-a-certificate; "
        "%d certificates recorded"
        % (
            len(files),
            len(certs),
            sum(1 for r in certs if r["accepted"]),
            sum(1 for r in certs if not r["accepted"]),
            len(files) - len(certs),
            sum(len(r.get("certificates", [])) for r in certs),
        )
    )


if __name__ == "__main__":
    main()
