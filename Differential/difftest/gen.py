"""The seeded chain generator: a grammar of mutations over a conforming base chain.

A chain is a *spec* (plain JSON: chain seed, depth, list of mutations) and `build(spec)` is a pure
function of it: keys, serial numbers and names come from random streams derived from the chain
seed and the certificate's position, never from the mutations, so a spec with a mutation removed
builds the same chain without that mutation (what minimisation relies on).

Positions: `root` (the trust anchor, index 0), `int1`..`int3` (intermediates, int1 issued by the
root), `leaf` (index depth). depth is the number of issued certificates: 1 is root -> leaf.
"""

import base64
import datetime
import hashlib
import os
import random

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa

from . import der

# The fixed validation time of every campaign (RFC 5280 6.1.1 (b)); nothing reads the clock.
VALIDATION_TIME = der.utc(2026, 6, 1)
VALIDATION_TIME_TEXT = "2026-06-01T00:00:00Z"

KEYS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "keys")

OID = {
    "cn": "2.5.4.3",
    "o": "2.5.4.10",
    "ou": "2.5.4.11",
    "c": "2.5.4.6",
    "bc": "2.5.29.19",
    "ku": "2.5.29.15",
    "eku": "2.5.29.37",
    "san": "2.5.29.17",
    "ski": "2.5.29.14",
    "aki": "2.5.29.35",
    "nc": "2.5.29.30",
    "unknown": "1.3.6.1.4.1.55738.666.1",
    "ct_poison": "1.3.6.1.4.1.11129.2.4.3",
}
EKU_OID = {
    "serverAuth": "1.3.6.1.5.5.7.3.1",
    "clientAuth": "1.3.6.1.5.5.7.3.2",
    "codeSigning": "1.3.6.1.5.5.7.3.3",
    "emailProtection": "1.3.6.1.5.5.7.3.4",
    "OCSPSigning": "1.3.6.1.5.5.7.3.9",
    "any": "2.5.29.37.0",
}
KU_BIT = {
    "digitalSignature": 0,
    "contentCommitment": 1,
    "keyEncipherment": 2,
    "dataEncipherment": 3,
    "keyAgreement": 4,
    "keyCertSign": 5,
    "cRLSign": 6,
    "encipherOnly": 7,
}

# ---------------------------------------------------------------------------------------------
# Keys

_RSA_POOL = {}


def rsa_pool(bits):
    """The committed throwaway RSA keys of that size (Differential/keys/rsaBITS-N.pem)."""
    if bits not in _RSA_POOL:
        keys = []
        for fn in sorted(os.listdir(KEYS_DIR)):
            if fn.startswith("rsa%d-" % bits) and fn.endswith(".pem"):
                with open(os.path.join(KEYS_DIR, fn), "rb") as f:
                    keys.append(serialization.load_pem_private_key(f.read(), None))
        if not keys:
            raise RuntimeError("no RSA-%d keys in %s" % (bits, KEYS_DIR))
        _RSA_POOL[bits] = keys
    return _RSA_POOL[bits]


CURVES = {"p256": ec.SECP256R1(), "p384": ec.SECP384R1(), "p521": ec.SECP521R1()}
# Private scalars are drawn below 2^(bits-1), which is below each curve's order.
CURVE_BITS = {"p256": 256, "p384": 384, "p521": 521}


def make_key(keytype, rng, used_rsa):
    """A private key of keytype, derived from rng (RSA: a committed key not yet used in the chain)."""
    if keytype in CURVES:
        return ec.derive_private_key(rng.randrange(1, 1 << (CURVE_BITS[keytype] - 1)), CURVES[keytype])
    if keytype == "ed25519":
        return ed25519.Ed25519PrivateKey.from_private_bytes(rng.randbytes(32))
    if keytype.startswith("rsa"):
        bits = int(keytype[3:])
        pool = rsa_pool(bits)
        choices = [i for i in range(len(pool)) if (bits, i) not in used_rsa]
        i = rng.choice(choices)
        used_rsa.add((bits, i))
        return pool[i]
    raise ValueError(keytype)


def spki_der(key):
    return key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def key_kind(key):
    if isinstance(key, rsa.RSAPrivateKey):
        return "rsa"
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return "ec"
    return "ed25519"


# ---------------------------------------------------------------------------------------------
# Signature algorithms: AlgorithmIdentifier DER and a signing function.

HASHES = {"sha1": hashes.SHA1, "sha256": hashes.SHA256, "sha384": hashes.SHA384, "sha512": hashes.SHA512}
RSA_PKCS1 = {"sha1": "1.2.840.113549.1.1.5", "sha256": "1.2.840.113549.1.1.11",
             "sha384": "1.2.840.113549.1.1.12", "sha512": "1.2.840.113549.1.1.13"}
ECDSA = {"sha1": "1.2.840.10045.4.1", "sha256": "1.2.840.10045.4.3.2",
         "sha384": "1.2.840.10045.4.3.3", "sha512": "1.2.840.10045.4.3.4"}
HASH_OID = {"sha256": "2.16.840.1.101.3.4.2.1", "sha384": "2.16.840.1.101.3.4.2.2",
            "sha512": "2.16.840.1.101.3.4.2.3"}


def default_hash(key):
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return {256: "sha256", 384: "sha384", 521: "sha512"}[key.curve.key_size]
    return "sha256"


def signature_algorithm(key, hash_name, pss, pss_null=True):
    """(AlgorithmIdentifier DER, sign(data) -> bytes) for the issuer's key."""
    kind = key_kind(key)
    if kind == "ed25519":
        return der.seq(der.oid("1.3.101.112")), key.sign
    if kind == "ec":
        return der.seq(der.oid(ECDSA[hash_name])), lambda d: key.sign(d, ec.ECDSA(HASHES[hash_name]()))
    if pss:
        h = "sha256" if hash_name == "sha1" else hash_name
        hlen = {"sha256": 32, "sha384": 48, "sha512": 64}[h]
        # CA/B BR 7.1.3.2.1 spells the hash AlgorithmIdentifiers with NULL parameters; RFC 4055
        # 2.1 makes absent and NULL equivalent (sig=pss_absent_hash_params).
        halg = der.seq(der.oid(HASH_OID[h]), der.null()) if pss_null else der.seq(der.oid(HASH_OID[h]))
        params = der.seq(
            der.explicit(0, halg),
            der.explicit(1, der.seq(der.oid("1.2.840.113549.1.1.8"), halg)),
            der.explicit(2, der.integer(hlen)),
        )
        pad = padding.PSS(mgf=padding.MGF1(HASHES[h]()), salt_length=hlen)
        return (der.seq(der.oid("1.2.840.113549.1.1.10"), params),
                lambda d: key.sign(d, pad, HASHES[h]()))
    return (der.seq(der.oid(RSA_PKCS1[hash_name]), der.null()),
            lambda d: key.sign(d, padding.PKCS1v15(), HASHES[hash_name]()))


# ---------------------------------------------------------------------------------------------
# The mutation grammar. Each kind: the positions it may apply to and its variants (args).
# A mutation is {"kind", "arg", "pos"}; its label, `kind=arg@class`, is what families are made of.

CA = ("root", "int")
ANY = ("root", "int", "leaf")
GRAMMAR = {
    # kind: (position classes, [args], weight)
    "bc": (ANY, ["absent", "noncritical", "ca_false", "pathlen0", "pathlen1", "leaf_ca_true",
                 "leaf_pathlen", "leaf_present_false", "leaf_explicit_false"], 6),
    "ku": (ANY, ["absent", "noncritical", "no_certsign", "leaf_certsign", "leaf_data_only",
                 "leaf_keyagreement_only", "empty", "leaf_keyenc_only"], 5),
    "eku": (ANY, ["leaf_absent", "leaf_other_purpose", "leaf_any", "leaf_critical",
                  "leaf_plus_codesigning", "leaf_server_and_client", "leaf_empty", "leaf_ocsp",
                  "ca_server_client", "ca_wrong", "ca_any"], 5),
    "san": (("leaf",), ["wild_ok", "wild_partial", "wild_middle", "wild_tld", "wild_double",
                        "wild_nested", "wild_suffix", "wild_only", "upper", "trailing_dot", "ip",
                        "ip_in_dns", "ipv6", "ip_wrong", "email_only", "uri_only", "empty",
                        "absent", "crit_empty_subject", "crit_with_subject",
                        "noncrit_empty_subject", "cn_not_in_san", "invalid_extra",
                        "empty_label", "wrong_host", "two_names", "idn_ulabel_cn", "cn_case"], 8),
    "nc": (CA, ["perm_dns_ok", "perm_dns_no", "excl_dns", "excl_dns_other", "perm_dns_dot",
                "perm_dns_parent_other", "perm_ip_ok", "perm_ip_no", "excl_ip", "ip_badmask",
                "perm_email", "perm_dirname_ok", "perm_dirname_no", "excl_dirname", "empty",
                "perm_and_excl", "perm_dns_upper", "perm_dns_cn_only"], 7),
    "nccrit": (CA, ["noncritical"], 0),  # chosen together with nc, see choose_mutations
    "validity": (ANY, ["expired", "not_yet_valid", "gentime", "inverted", "after2050",
                       "outlives_issuer", "boundary_notafter"], 4),
    "version": (ANY, ["v1", "v1_ext", "v2_ext"], 3),
    "serial": (ANY, ["zero", "negative", "octets20", "octets21"], 3),
    "kid": (ANY, ["ski_absent", "ski_critical", "aki_absent", "aki_mismatch", "aki_critical",
                  "aki_issuer_serial", "aki_keyid_and_issuer"], 4),
    "ext": (ANY, ["unknown_critical", "unknown_noncritical", "ct_poison", "dup_ski", "dup_bc",
                  "dup_ku", "dup_san", "dup_unknown", "empty_extensions"], 4),
    "name": (ANY, ["case", "space", "printable", "mismatch", "rdn_order", "empty_subject_ca",
                   "extra_attr"], 4),
    "key": (ANY, ["rsa1024", "rsa2048", "rsa3072", "p384", "p521", "ed25519"], 5),
    "sig": (ANY, ["sha1", "sha256", "sha384", "sha512", "pss", "pss_absent_hash_params",
                  "outer_mismatch", "corrupt"], 4),
    "decoy": (("int",), ["wrong_key", "expired", "ca_false"], 2),
    "purpose": (("leaf",), ["client"], 2),
}
LEAF_ONLY_ARGS = lambda a: a.startswith("leaf_")  # noqa: E731
CA_ONLY_ARGS = {"ca_false", "pathlen0", "pathlen1", "no_certsign", "ca_server_client", "ca_wrong",
                "ca_any", "empty_subject_ca"}


def position_class(pos):
    return "int" if pos.startswith("int") else pos


def label(m):
    return "%s=%s@%s" % (m["kind"], m["arg"], position_class(m["pos"]))


def positions(depth):
    return ["root"] + ["int%d" % i for i in range(1, depth)] + ["leaf"]


def choose_mutations(rng, depth):
    """The mutations of one chain: 0 to 5, each a kind, a variant and a position."""
    count = rng.choices([0, 1, 2, 3, 4, 5], weights=[4, 24, 30, 22, 13, 7])[0]
    kinds = [k for k, v in GRAMMAR.items() if v[2] > 0]
    weights = [GRAMMAR[k][2] for k in kinds]
    out, seen = [], set()
    tries = 0
    while len(out) < count and tries < 50:
        tries += 1
        kind = rng.choices(kinds, weights=weights)[0]
        classes, args, _ = GRAMMAR[kind]
        arg = rng.choice(args)
        if LEAF_ONLY_ARGS(arg):
            cls = ["leaf"]
        elif arg in CA_ONLY_ARGS:
            cls = [c for c in classes if c != "leaf"]
        else:
            cls = list(classes)
        cands = [p for p in positions(depth) if position_class(p) in cls]
        if not cands:
            continue
        pos = rng.choice(cands)
        if (kind, pos) in seen:  # one variant of a kind per certificate
            continue
        seen.add((kind, pos))
        out.append({"kind": kind, "arg": arg, "pos": pos})
        if kind == "nc" and rng.random() < 0.35:
            out.append({"kind": "nccrit", "arg": "noncritical", "pos": pos})
    return out


def make_spec(campaign_seed, index):
    """The spec of chain `index` of campaign `campaign_seed` (a pure function of both)."""
    rng = random.Random("certpath-differential:%s:%d" % (campaign_seed, index))
    depth = rng.choices([1, 2, 3, 4], weights=[15, 40, 30, 15])[0]
    return {
        "seed": "%s:%d" % (campaign_seed, index),
        "depth": depth,
        "mutations": choose_mutations(rng, depth),
    }


# ---------------------------------------------------------------------------------------------
# Building

HOST = "www.example.com"
ORG = "CertPath Differential"


def _ext(oid_name, critical, value):
    return {"oid": OID.get(oid_name, oid_name), "critical": critical, "value": value}


def _encode_ext(e):
    parts = [der.oid(e["oid"])]
    if e["critical"]:
        parts.append(der.boolean(True))
    parts.append(der.octet_string(e["value"]))
    return der.seq(*parts)


def _names_der(names):
    return der.seq(*[der.general_name(k, v) for (k, v) in names])


class Cert:
    """The fields of one certificate before encoding (the template mutations act on)."""

    def __init__(self, pos, index, depth, rng, tag):
        self.pos, self.index = pos, index
        self.is_root, self.is_leaf = index == 0, index == depth
        self.is_ca = not self.is_leaf
        self.version = 3
        self.serial = int.from_bytes(rng.randbytes(16), "big") >> 1 | (1 << 120)
        self.serial_raw = None
        if self.is_root:
            cn = "Differential Root %s" % tag
        elif self.is_ca:
            cn = "Differential CA %d %s" % (index, tag)
        else:
            cn = HOST
        self.subject = [[(OID["c"], "printable", "US")], [(OID["o"], "utf8", ORG)],
                        [(OID["cn"], "utf8", cn)]]
        self.issuer = None  # set from the issuer's subject when built
        self.issuer_variant = None
        if self.is_leaf:
            self.not_before, self.not_after = der.utc(2026, 1, 1), der.utc(2026, 12, 31)
        else:
            self.not_before, self.not_after = der.utc(2025, 1, 1), der.utc(2035, 1, 1)
        self.gentime = False
        self.keytype = "p256"
        self.sig_hash, self.sig_pss, self.sig_outer_mismatch, self.sig_corrupt = None, False, False, False
        self.sig_pss_null = True
        self.bc = {"critical": True, "ca": True, "pathlen": None, "explicit_false": False} if self.is_ca else None
        if self.is_ca:
            self.ku = {"critical": True, "bits": ["keyCertSign", "cRLSign"]}
        else:
            self.ku = {"critical": True, "bits": ["digitalSignature"]}  # keyEncipherment added for RSA
        self.ku_auto = not self.is_ca
        self.eku = None if self.is_ca else {"critical": False, "oids": ["serverAuth"]}
        self.san = None if self.is_ca else {"critical": False, "names": [("dns", HOST)]}
        self.nc = None
        self.ski, self.aki = "auto", ("auto" if not self.is_root else None)
        self.extra, self.dups = [], []
        self.empty_extensions = False
        self.no_extensions = False


def _apply(c, m, certs, state):
    kind, arg = m["kind"], m["arg"]
    if kind == "bc":
        if arg == "absent":
            c.bc = None
        elif arg == "noncritical" and c.bc:
            c.bc["critical"] = False
        elif arg == "ca_false" and c.bc:
            c.bc["ca"] = False
        elif arg in ("pathlen0", "pathlen1") and c.bc:
            c.bc["pathlen"] = int(arg[-1])
        elif arg == "leaf_ca_true":
            c.bc = {"critical": True, "ca": True, "pathlen": None, "explicit_false": False}
        elif arg == "leaf_pathlen":
            c.bc = {"critical": True, "ca": False, "pathlen": 0, "explicit_false": False}
        elif arg == "leaf_present_false":
            c.bc = {"critical": True, "ca": False, "pathlen": None, "explicit_false": False}
        elif arg == "leaf_explicit_false":
            c.bc = {"critical": True, "ca": False, "pathlen": None, "explicit_false": True}
    elif kind == "ku":
        if arg == "absent":
            c.ku = None
        elif arg == "noncritical" and c.ku:
            c.ku["critical"] = False
        elif arg == "no_certsign" and c.ku:
            c.ku["bits"] = ["digitalSignature", "cRLSign"]
        elif arg == "leaf_certsign" and c.ku:
            c.ku["bits"] = c.ku["bits"] + ["keyCertSign"]
        elif arg == "leaf_data_only" and c.ku:
            c.ku["bits"], c.ku_auto = ["dataEncipherment"], False
        elif arg == "leaf_keyagreement_only" and c.ku:
            c.ku["bits"], c.ku_auto = ["keyAgreement"], False
        elif arg == "leaf_keyenc_only" and c.ku:
            c.ku["bits"], c.ku_auto = ["keyEncipherment"], False
        elif arg == "empty" and c.ku:
            c.ku["bits"], c.ku_auto = [], False
    elif kind == "eku":
        if arg == "leaf_absent":
            c.eku = None
        elif arg == "leaf_other_purpose" and c.eku:
            state["eku_other"] = True
        elif arg == "leaf_any" and c.eku:
            c.eku["oids"] = ["any"]
        elif arg == "leaf_critical" and c.eku:
            c.eku["critical"] = True
        elif arg == "leaf_plus_codesigning" and c.eku:
            c.eku["oids"] = c.eku["oids"] + ["codeSigning"]
        elif arg == "leaf_server_and_client" and c.eku:
            c.eku["oids"] = ["serverAuth", "clientAuth"]
        elif arg == "leaf_empty" and c.eku:
            c.eku["oids"] = []
        elif arg == "leaf_ocsp" and c.eku:
            c.eku["oids"] = ["OCSPSigning"]
        elif arg == "ca_server_client":
            c.eku = {"critical": False, "oids": ["serverAuth", "clientAuth"]}
        elif arg == "ca_wrong":
            c.eku = {"critical": False, "oids": ["codeSigning"]}
        elif arg == "ca_any":
            c.eku = {"critical": False, "oids": ["any"]}
    elif kind == "san":
        _apply_san(c, arg, state)
    elif kind == "nc":
        c.nc = {"critical": True, "form": arg}
    elif kind == "nccrit":
        if c.nc:
            c.nc["critical"] = False
    elif kind == "validity":
        if arg == "expired":
            c.not_before, c.not_after = der.utc(2025, 6, 1), der.utc(2026, 5, 1)
        elif arg == "not_yet_valid":
            c.not_before = der.utc(2026, 7, 1)
            c.not_after = max(c.not_after, der.utc(2026, 12, 31))
        elif arg == "gentime":
            c.gentime = True
        elif arg == "inverted":
            c.not_before, c.not_after = der.utc(2026, 12, 31), der.utc(2026, 1, 1)
        elif arg == "after2050":
            c.not_after = der.utc(2051, 1, 1)
        elif arg == "outlives_issuer":
            state["outlives"] = c.index  # the issuer's notAfter is moved before ours
        elif arg == "boundary_notafter":
            c.not_after = VALIDATION_TIME  # RFC 5280 4.1.2.5: the validity period includes notAfter
    elif kind == "version":
        if arg == "v1":
            c.version, c.no_extensions = 1, True
        elif arg == "v1_ext":
            c.version = 1
        elif arg == "v2_ext":
            c.version = 2
    elif kind == "serial":
        if arg == "zero":
            c.serial = 0
        elif arg == "negative":
            c.serial = -c.serial
        elif arg == "octets20":
            c.serial_raw = bytes([0x7F]) + c.serial.to_bytes(19, "big")  # 20 content octets
        elif arg == "octets21":
            c.serial_raw = bytes([0x00, 0xC1]) + c.serial.to_bytes(19, "big")  # 21 octets
    elif kind == "kid":
        if arg == "ski_absent":
            c.ski = None
        elif arg == "ski_critical" and c.ski:
            c.ski = "critical"
        elif arg == "aki_absent":
            c.aki = None
        elif arg == "aki_mismatch":
            c.aki = "mismatch"
        elif arg == "aki_critical":
            c.aki = "critical"
        elif arg == "aki_issuer_serial":
            c.aki = "issuer_serial"
        elif arg == "aki_keyid_and_issuer":
            c.aki = "keyid_and_issuer"
    elif kind == "ext":
        if arg == "unknown_critical":
            c.extra.append(_ext("unknown", True, der.null()))
        elif arg == "unknown_noncritical":
            c.extra.append(_ext("unknown", False, der.null()))
        elif arg == "ct_poison":
            c.extra.append(_ext("ct_poison", True, der.null()))
        elif arg.startswith("dup_"):
            c.dups.append(arg[4:])
        elif arg == "empty_extensions":
            c.empty_extensions = True
    elif kind == "name":
        if arg in ("case", "space", "printable", "mismatch", "rdn_order"):
            c.issuer_variant = arg
        elif arg == "empty_subject_ca" and not c.is_leaf:
            state.setdefault("empty_subject", set()).add(c.index)
        elif arg == "extra_attr":
            c.subject = c.subject[:2] + [[(OID["ou"], "utf8", "Differential Unit")]] + c.subject[2:]
    elif kind == "key":
        c.keytype = arg
    elif kind == "sig":
        if arg in HASHES:
            c.sig_hash = arg
        elif arg == "pss":
            c.sig_pss = True
        elif arg == "pss_absent_hash_params":
            c.sig_pss, c.sig_pss_null = True, False
        elif arg == "outer_mismatch":
            c.sig_outer_mismatch = True
        elif arg == "corrupt":
            c.sig_corrupt = True
    elif kind == "decoy":
        state.setdefault("decoys", []).append((c.index, arg))
    elif kind == "purpose":
        state["purpose"] = "client"


def _apply_san(c, arg, state):
    """subjectAltName variants of the leaf, with the host name they are checked against."""
    if c.san is None and arg not in ("absent",):
        c.san = {"critical": False, "names": [("dns", HOST)]}
    s = c.san
    host = None
    if arg == "wild_ok":
        s["names"] = [("dns", "*.example.com")]
    elif arg == "wild_partial":
        s["names"] = [("dns", "w*.example.com")]
    elif arg == "wild_middle":
        s["names"] = [("dns", "www.*.com")]
    elif arg == "wild_tld":
        s["names"], host = [("dns", "*.com")], "example.com"
    elif arg == "wild_double":
        s["names"], host = [("dns", "*.*.example.com")], "a.b.example.com"
    elif arg == "wild_nested":
        s["names"], host = [("dns", "*.www.example.com")], "www.example.com"
    elif arg == "wild_suffix":
        s["names"] = [("dns", "*w.example.com")]
    elif arg == "wild_only":
        s["names"] = [("dns", "*")]
    elif arg == "upper":
        s["names"] = [("dns", "WWW.EXAMPLE.COM")]
    elif arg == "trailing_dot":
        s["names"] = [("dns", "www.example.com.")]
    elif arg == "ip":
        s["names"], host = [("ip", "192.0.2.1")], "192.0.2.1"
    elif arg == "ip_in_dns":
        s["names"], host = [("dns", "192.0.2.1")], "192.0.2.1"
    elif arg == "ipv6":
        s["names"], host = [("ip", "2001:db8::1")], "2001:db8::1"
    elif arg == "ip_wrong":
        s["names"], host = [("ip", "192.0.2.2")], "192.0.2.1"
    elif arg == "email_only":
        s["names"] = [("email", "admin@example.com")]
    elif arg == "uri_only":
        s["names"] = [("uri", "https://www.example.com/")]
    elif arg == "empty":
        s["names"] = []
    elif arg == "absent":
        c.san = None
    elif arg == "crit_empty_subject":
        s["critical"] = True
        c.subject = []
    elif arg == "crit_with_subject":
        s["critical"] = True
    elif arg == "noncrit_empty_subject":
        c.subject = []
    elif arg == "cn_not_in_san":
        _set_cn(c, "other.example.com")
        s["names"] = [("dns", HOST), ("dns", "extra.example.com")]
    elif arg == "invalid_extra":
        s["names"] = [("dns", HOST), ("dns", "under_score.example.com")]
    elif arg == "empty_label":
        s["names"] = [("dns", HOST), ("dns", "a..example.com")]
    elif arg == "wrong_host":
        s["names"] = [("dns", "www.example.net")]
    elif arg == "two_names":
        s["names"] = [("dns", "mail.example.com"), ("dns", HOST)]
    elif arg == "idn_ulabel_cn":
        _set_cn(c, "www.exämple.com")
    elif arg == "cn_case":
        _set_cn(c, HOST.upper())
    if arg not in CN_KEPT and c.san is not None:
        # the commonName follows the subjectAltName, as issued certificates do (CA/B BR 7.1.4.3:
        # a copy of one SAN value); cn_not_in_san and cn_case test that rule on their own
        first = c.san["names"][0] if c.san["names"] else None
        _set_cn(c, first[1] if first and first[0] in ("dns", "ip") else None)
    if host:
        state["host"] = host


CN_KEPT = {"absent", "cn_not_in_san", "idn_ulabel_cn", "crit_empty_subject", "noncrit_empty_subject",
           "crit_with_subject", "invalid_extra", "empty_label", "two_names", "cn_case"}


def _set_cn(c, value):
    """Replace the commonName of c's subject by value (None: remove it); no-op on an empty subject."""
    if not c.subject:
        return
    rest = [rdn for rdn in c.subject if rdn[0][0] != OID["cn"]]
    c.subject = rest + ([[(OID["cn"], "utf8", value)]] if value is not None else [])


NC_FORMS = {
    # form: (permitted, excluded) as GeneralName lists ("ipnet" is address/prefix; "ipraw" bytes)
    "perm_dns_ok": ([("dns", "example.com")], None),
    "perm_dns_no": ([("dns", "example.org")], None),
    "excl_dns": (None, [("dns", "www.example.com")]),
    "excl_dns_other": (None, [("dns", "example.org")]),
    "perm_dns_dot": ([("dns", ".example.com")], None),
    "perm_dns_parent_other": ([("dns", "ample.com")], None),
    "perm_ip_ok": ([("ipnet", "192.0.2.0/24")], None),
    "perm_ip_no": ([("ipnet", "198.51.100.0/24")], None),
    "excl_ip": (None, [("ipnet", "192.0.2.0/24")]),
    "ip_badmask": ([("ipraw", bytes([192, 0, 2, 0, 255, 0, 255, 0]))], None),
    "perm_email": ([("email", "example.com")], None),
    "perm_dirname_ok": ([("dirname", [[(OID["c"], "printable", "US")], [(OID["o"], "utf8", ORG)]])], None),
    "perm_dirname_no": ([("dirname", [[(OID["c"], "printable", "US")], [(OID["o"], "utf8", "Elsewhere")]])], None),
    "excl_dirname": (None, [("dirname", [[(OID["c"], "printable", "US")], [(OID["o"], "utf8", ORG)]])]),
    "empty": (None, None),
    "perm_and_excl": ([("dns", "example.com")], [("dns", "www.example.com")]),
    "perm_dns_upper": ([("dns", "EXAMPLE.COM")], None),
    "perm_dns_cn_only": ([("dns", "example.org"), ("ipnet", "192.0.2.0/24"),
                          ("dirname", [[(OID["c"], "printable", "US")], [(OID["o"], "utf8", ORG)]])], None),
}


def _subtrees(names):
    """The contents of a GeneralSubtrees (the GeneralSubtree encodings, concatenated)."""
    out = b""
    for kind, value in names:
        gn = der.implicit_prim(7, value) if kind == "ipraw" else der.general_name(kind, value)
        out += der.seq(gn)
    return out


def _nc_value(form):
    permitted, excluded = NC_FORMS[form]
    parts = b""
    if permitted is not None:
        parts += der.implicit_cons(0, _subtrees(permitted))
    if excluded is not None:
        parts += der.implicit_cons(1, _subtrees(excluded))
    return der.seq(parts)


def _name_variant(rdns, variant):
    """The issuer field as it is written in the child: equal to rdns under RFC 5280 7.1 or not."""
    out = [list(rdn) for rdn in rdns]
    cn_index = next((i for i, rdn in enumerate(out) if rdn[0][0] == OID["cn"]), len(out) - 1)
    if not out:
        return out
    a, t, v = out[cn_index][0]
    if variant == "case":
        out[cn_index] = [(a, t, v.upper())]
    elif variant == "space":
        out[cn_index] = [(a, t, "  " + v.replace(" ", "   ") + " ")]
    elif variant == "printable":
        out[cn_index] = [(a, "printable" if t == "utf8" else "utf8", v)]
    elif variant == "mismatch":
        out[cn_index] = [(a, t, v + " X")]
    elif variant == "rdn_order":
        out = list(reversed(out))
    return out


def build(spec):
    """Build the chain of spec. Returns a dict: ders (root first), decoys (DER list, to be given
    first among the intermediates), host (None for a client check), purpose, keys (per position)."""
    depth = spec["depth"]
    pos_list = positions(depth)
    seed = spec["seed"]
    tag = hashlib.sha256(seed.encode()).hexdigest()[:10]
    certs = []
    for i, pos in enumerate(pos_list):
        rng = random.Random("cert:%s:%s" % (seed, pos))
        certs.append(Cert(pos, i, depth, rng, tag))
    by_pos = {c.pos: c for c in certs}
    state = {}
    for m in spec["mutations"]:
        if m["pos"] in by_pos:
            _apply(by_pos[m["pos"]], m, certs, state)
    purpose = state.get("purpose", "server")
    host = state.get("host", HOST) if purpose == "server" else None
    leaf = certs[-1]
    if purpose == "client" and leaf.eku is not None:
        leaf.eku["oids"] = ["clientAuth" if o == "serverAuth" else o for o in leaf.eku["oids"]]
    if state.get("eku_other") and leaf.eku is not None:
        leaf.eku["oids"] = ["clientAuth" if purpose == "server" else "serverAuth"]
    for idx in state.get("empty_subject", ()):
        certs[idx].subject = []
    if "outlives" in state and state["outlives"] > 0:
        parent = certs[state["outlives"] - 1]
        parent.not_after = min(parent.not_after, der.utc(2026, 9, 1))
        certs[state["outlives"]].not_after = max(certs[state["outlives"]].not_after, der.utc(2026, 12, 31))

    # keys: one stream per position, independent of the mutations
    used_rsa = set()
    keys = []
    for c in certs:
        krng = random.Random("key:%s:%s:%s" % (seed, c.pos, c.keytype))
        keys.append(make_key(c.keytype, krng, used_rsa))
    for c, k in zip(certs, keys):
        if c.ku is not None and c.ku_auto and key_kind(k) == "rsa" and "keyEncipherment" not in c.ku["bits"]:
            c.ku["bits"] = c.ku["bits"] + ["keyEncipherment"]
        if c.ku is not None and c.ku_auto and key_kind(k) == "ec" and not c.is_ca:
            pass  # digitalSignature alone: ECDHE-ECDSA (and TLS 1.3) sign with the key

    ders, skis = [], []
    for i, c in enumerate(certs):
        issuer_index = i - 1 if i > 0 else 0
        issuer_cert = certs[issuer_index]
        issuer_key = keys[issuer_index]
        issuer_name = issuer_cert.subject
        if c.issuer_variant:
            issuer_name = _name_variant(issuer_name, c.issuer_variant)
        ski = hashlib.sha1(spki_der(keys[i])).digest()
        skis.append(ski)
        issuer_ski = skis[issuer_index]
        ders.append(_encode(c, keys[i], issuer_key, issuer_name, issuer_cert, ski, issuer_ski))

    decoys = []
    for idx, kind in state.get("decoys", ()):
        decoys.append(_decoy(certs, keys, skis, idx, kind, seed))
    return {"ders": ders, "decoys": decoys, "host": host, "purpose": purpose,
            "keys": [c.keytype for c in certs]}


def _decoy(certs, keys, skis, idx, kind, seed):
    """A certificate with the subject of certs[idx], issued by its issuer, that must not be used:
    another key (so the child's signature fails), expired, or not a CA."""
    import copy

    c = copy.deepcopy(certs[idx])
    c.serial += 1
    key = keys[idx]
    if kind == "wrong_key":
        krng = random.Random("decoy:%s:%d" % (seed, idx))
        key = make_key("p256", krng, set())
    elif kind == "expired":
        c.not_before, c.not_after = der.utc(2024, 1, 1), der.utc(2025, 1, 1)
    elif kind == "ca_false":
        c.bc = {"critical": True, "ca": False, "pathlen": None, "explicit_false": False}
        c.ku = {"critical": True, "bits": ["digitalSignature"]}
    issuer_index = idx - 1
    # every decoy carries the genuine certificate's subjectKeyIdentifier (for wrong_key a lie), so
    # names and key identifiers alike lead to it: only its signature check or its validity tells
    ski = skis[idx]
    return _encode(c, key, keys[issuer_index], certs[issuer_index].subject, certs[issuer_index],
                   ski, skis[issuer_index])


def _hdr(tlv):
    """Length of a TLV's tag and length octets."""
    return 2 if tlv[1] < 0x80 else 2 + (tlv[1] & 0x7F)


def _serial_content(c):
    """The content octets of c's serialNumber, as encoded (authorityCertSerialNumber copies them)."""
    if c.serial_raw:
        return c.serial_raw
    tlv = der.integer(c.serial)
    return tlv[_hdr(tlv):]


def _encode(c, key, issuer_key, issuer_name, issuer_cert, ski, issuer_ski):
    exts = []
    if c.bc is not None:
        body = b""
        if c.bc["ca"]:
            body += der.boolean(True)
        elif c.bc["explicit_false"]:
            body += der.boolean(False)
        if c.bc["pathlen"] is not None:
            body += der.integer(c.bc["pathlen"])
        exts.append(_ext("bc", c.bc["critical"], der.tlv(0x30, body)))
    if c.ku is not None:
        exts.append(_ext("ku", c.ku["critical"], der.named_bits([KU_BIT[b] for b in c.ku["bits"]])))
    if c.eku is not None:
        exts.append(_ext("eku", c.eku["critical"], der.seq(*[der.oid(EKU_OID[o]) for o in c.eku["oids"]])))
    if c.ski is not None:
        exts.append(_ext("ski", c.ski == "critical", der.octet_string(ski)))
    if c.aki is not None:
        if c.aki == "mismatch":
            kid = hashlib.sha1(b"not the issuer" + issuer_ski).digest()
            value = der.seq(der.implicit_prim(0, kid))
        elif c.aki == "issuer_serial":
            value = der.seq(der.implicit_cons(1, der.explicit(4, der.name(issuer_cert.issuer or issuer_cert.subject))),
                            der.implicit_prim(2, _serial_content(issuer_cert)))
        elif c.aki == "keyid_and_issuer":
            value = der.seq(der.implicit_prim(0, issuer_ski),
                            der.implicit_cons(1, der.explicit(4, der.name(issuer_cert.issuer or issuer_cert.subject))),
                            der.implicit_prim(2, _serial_content(issuer_cert)))
        else:
            value = der.seq(der.implicit_prim(0, issuer_ski))
        exts.append(_ext("aki", c.aki == "critical", value))
    if c.san is not None:
        exts.append(_ext("san", c.san["critical"], _names_der(c.san["names"])))
    if c.nc is not None:
        exts.append(_ext("nc", c.nc["critical"], _nc_value(c.nc["form"])))
    exts.extend(c.extra)
    for d in c.dups:
        if d == "unknown":
            exts.append(_ext("unknown", False, der.null()))
            exts.append(_ext("unknown", False, der.null()))
            continue
        same = [e for e in exts if e["oid"] == OID[d]]
        if same:
            exts.append(dict(same[0]))
    c.issuer = issuer_name

    # version, serial, signature, issuer, validity, subject, spki, extensions
    if c.sig_hash:
        h = c.sig_hash
    else:
        h = default_hash(issuer_key)
    alg, sign = signature_algorithm(issuer_key, h, c.sig_pss, c.sig_pss_null)
    tbs_parts = []
    if c.version != 1:
        tbs_parts.append(der.explicit(0, der.integer(c.version - 1)))
    tbs_parts.append(der.integer_raw(c.serial_raw) if c.serial_raw else der.integer(c.serial))
    tbs_parts.append(alg)
    tbs_parts.append(der.name(issuer_name))
    tbs_parts.append(der.seq(der.time(c.not_before, c.gentime), der.time(c.not_after, c.gentime)))
    tbs_parts.append(der.name(c.subject))
    tbs_parts.append(spki_der(key))
    if not c.no_extensions:
        if c.empty_extensions:
            tbs_parts.append(der.explicit(3, der.seq()))
        elif exts:
            tbs_parts.append(der.explicit(3, der.seq(*[_encode_ext(e) for e in exts])))
    tbs = der.seq(*tbs_parts)
    signature = sign(tbs)
    if c.sig_corrupt:
        signature = signature[:-1] + bytes([signature[-1] ^ 0x01])
    outer = alg
    if c.sig_outer_mismatch:
        kind = key_kind(issuer_key)
        if kind == "ec":
            outer = der.seq(der.oid(ECDSA["sha512" if h != "sha512" else "sha384"]))
        elif kind == "rsa":
            outer = der.seq(der.oid(RSA_PKCS1["sha512" if h != "sha512" else "sha384"]), der.null())
        else:
            outer = der.seq(der.oid("1.3.101.112"), der.null())
    return der.seq(tbs, outer, der.bit_string(signature))


def pem(der_bytes):
    b64 = base64.b64encode(der_bytes).decode()
    lines = [b64[i : i + 64] for i in range(0, len(b64), 64)]
    return "-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----\n"
