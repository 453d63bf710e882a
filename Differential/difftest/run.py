"""The runner: each chain through CertPath (`certpath batch`, once per profile and group of
chains), pyca/cryptography's verifier (in-process) and `openssl verify` (a process per chain,
spread over a process pool). A verdict is {"ok": bool, "why": "short reason"}."""

import base64
import datetime
import json
import multiprocessing
import os
import re
import subprocess
import warnings

from cryptography import x509
from cryptography.x509 import verification as pv

from . import gen

# pyca warns when it parses a zero or negative serial number (mutations make them on purpose)
warnings.filterwarnings("ignore", message="Parsed a serial number")

# Pairs compared, with the CertPath profile each peer is held against (Differential/README.md).
PAIRS = {
    "webpki": {"certpath": "cp_webpki", "peer": "pyca", "profile": "webpki"},
    "rfc5280": {"certpath": "cp_rfc5280", "peer": "openssl", "profile": "rfc5280"},
}
# Both peers check the trust anchor's own certificate (pyca's CA profile applies to the root in the
# store; OpenSSL -x509_strict checks every certificate of the chain), so CertPath runs with the
# like-for-like `--anchor-checks full` (README: why).
CERTPATH_OPTIONS = ["--anchor-checks", "full"]
GROUP = 1000  # chains per `certpath batch` process (their roots are that process's anchors)


def chain_files(built, directory):
    """Write root.pem, inter.pem (decoys first, then the intermediates from the leaf up) and
    leaf.pem; returns (root, inter or None, leaf) paths."""
    os.makedirs(directory, exist_ok=True)
    ders = built["ders"]
    inters = intermediates(built)
    paths = [os.path.join(directory, n) for n in ("root.pem", "inter.pem", "leaf.pem")]
    with open(paths[0], "w") as f:
        f.write(gen.pem(ders[0]))
    if inters:
        with open(paths[1], "w") as f:
            f.write("".join(gen.pem(d) for d in inters))
    elif os.path.exists(paths[1]):
        os.remove(paths[1])
    with open(paths[2], "w") as f:
        f.write(gen.pem(ders[-1]))
    return paths[0], (paths[1] if inters else None), paths[2]


def intermediates(built):
    ders = built["ders"]
    return list(built["decoys"]) + list(reversed(ders[1:-1]))


# ---------------------------------------------------------------------------------------------
# pyca/cryptography


def pyca_verify(built):
    try:
        certs = [x509.load_der_x509_certificate(d) for d in built["ders"]]
        inters = [x509.load_der_x509_certificate(d) for d in intermediates(built)]
    except Exception as e:  # noqa: BLE001 - any refusal to parse is a rejection
        return {"ok": False, "why": "parse: %s" % _short(e)}
    try:
        store = pv.Store([certs[0]])
        builder = pv.PolicyBuilder().store(store).time(gen.VALIDATION_TIME)
        if built["purpose"] == "server":
            host = built["host"]
            if re.fullmatch(r"[0-9.]+|[0-9a-fA-F:]+", host) and (":" in host or host.count(".") == 3):
                import ipaddress

                subject = pv.IPAddress(ipaddress.ip_address(host))
            else:
                subject = pv.DNSName(host)
            builder.build_server_verifier(subject).verify(certs[-1], inters)
        else:
            builder.build_client_verifier().verify(certs[-1], inters)
        return {"ok": True, "why": ""}
    except Exception as e:  # noqa: BLE001
        return {"ok": False, "why": "%s: %s" % (type(e).__name__, _short(e))}


def _short(e):
    text = str(e).replace("\n", " ")
    text = re.sub(r"<Certificate\(subject=.*?\)>", "<cert>", text)
    return text[:300]


# ---------------------------------------------------------------------------------------------
# OpenSSL

OPENSSL_ERROR = re.compile(r"error (\d+) at (\d+) depth lookup: ?(.*)")


def openssl_verify(built, files):
    root, inter, leaf = files
    epoch = int(gen.VALIDATION_TIME.timestamp())
    purpose = "sslserver" if built["purpose"] == "server" else "sslclient"
    cmd = ["openssl", "verify", "-x509_strict", "-auth_level", "2", "-purpose", purpose, "-attime", str(epoch),
           "-no-CApath", "-no-CAstore", "-CAfile", root]
    if built["purpose"] == "server":
        host = built["host"]
        if ":" in host or re.fullmatch(r"\d+\.\d+\.\d+\.\d+", host):
            cmd += ["-verify_ip", host]
        else:
            cmd += ["-verify_hostname", host]
    if inter:
        cmd += ["-untrusted", inter]
    cmd.append(leaf)
    p = subprocess.run(cmd, capture_output=True, text=True)
    out = p.stdout + p.stderr
    if p.returncode == 0 and out.strip().endswith(": OK"):
        return {"ok": True, "why": ""}
    m = OPENSSL_ERROR.search(out)
    if m:
        return {"ok": False, "why": "error %s at depth %s: %s" % (m.group(1), m.group(2), m.group(3).strip())}
    line = next((l for l in out.splitlines() if l.strip()), "")
    return {"ok": False, "why": "load: %s" % line.strip()[:200]}


# ---------------------------------------------------------------------------------------------
# One chain (in a worker process): build, write files, pyca, OpenSSL.

_WORKDIR = None


def _init(workdir):
    global _WORKDIR
    _WORKDIR = workdir


def evaluate_peers(job):
    key, spec = job
    built = gen.build(spec)
    files = chain_files(built, os.path.join(_WORKDIR, "c%s" % key))
    result = {
        "key": key,
        "host": built["host"],
        "purpose": built["purpose"],
        "root": base64.b64encode(built["ders"][0]).decode(),
        "chain": [base64.b64encode(d).decode() for d in [built["ders"][-1]] + intermediates(built)],
        "pyca": pyca_verify(built),
        "openssl": openssl_verify(built, files),
    }
    for f in files:
        if f:
            os.remove(f)
    os.rmdir(os.path.join(_WORKDIR, "c%s" % key))
    return result


# ---------------------------------------------------------------------------------------------
# CertPath


def certpath_group(certpath, results, profile, workdir, tag):
    """Run `certpath batch --profile PROFILE` over results whose roots are the anchors. When the
    anchors file cannot be read (status 2: a root CertPath cannot parse) the group is split until
    the root at fault is alone; its chain is then rejected with that reason."""
    if not results:
        return []
    anchors = os.path.join(workdir, "anchors-%s-%s.pem" % (profile, tag))
    with open(anchors, "w") as f:
        for r in results:
            f.write(gen.pem(base64.b64decode(r["root"])))
    lines = []
    for r in results:
        line = {"chain": r["chain"], "time": gen.VALIDATION_TIME_TEXT, "purpose": r["purpose"]}
        if r["purpose"] == "server":
            line["name"] = r["host"]
        lines.append(json.dumps(line))
    p = subprocess.run([certpath, "batch", "--anchors", anchors, "--profile", profile] + CERTPATH_OPTIONS,
                       input="\n".join(lines) + "\n", capture_output=True, text=True)
    os.remove(anchors)
    if p.returncode == 2:
        if len(results) == 1:
            return [{"ok": False, "why": "anchor: %s" % p.stderr.strip()[:300]}]
        half = len(results) // 2
        return (certpath_group(certpath, results[:half], profile, workdir, tag + "a")
                + certpath_group(certpath, results[half:], profile, workdir, tag + "b"))
    out = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    if len(out) != len(results):
        raise RuntimeError("certpath batch gave %d results for %d lines: %s" % (len(out), len(results), p.stderr[:500]))
    verdicts = []
    for o in out:
        if o["status"] == "trusted":
            verdicts.append({"ok": True, "why": ""})
        elif o["status"] == "error":
            verdicts.append({"ok": False, "why": "error: %s" % o.get("error", "")[:300]})
        else:
            pf = o.get("primaryFailure") or {}
            verdicts.append({"ok": False, "why": "%s: %s" % (pf.get("code"), (pf.get("message") or "")[:300])})
    return verdicts


def evaluate(specs, certpath, workdir, workers):
    """Evaluate specs (a dict key -> spec) through all validators; returns key -> verdicts."""
    os.makedirs(workdir, exist_ok=True)
    jobs = list(specs.items())
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers, initializer=_init, initargs=(workdir,)) as pool:
        results = list(pool.imap(evaluate_peers, jobs, chunksize=8))
    # Chains built from one seed (minimisation trials of one chain) share their root's name and key:
    # in one batch, the anchors of one would be anchors of the other. So no group holds two of them.
    groups = []
    for r, spec in zip(results, (s for _, s in jobs)):
        for g in groups:
            if len(g["items"]) < GROUP and spec["seed"] not in g["seeds"]:
                break
        else:
            g = {"items": [], "seeds": set()}
            groups.append(g)
        g["items"].append(r)
        g["seeds"].add(spec["seed"])
    for profile in ("webpki", "rfc5280"):
        for n, g in enumerate(groups):
            for r, v in zip(g["items"], certpath_group(certpath, g["items"], profile, workdir, "g%d" % n)):
                r["cp_" + profile] = v
    return {r["key"]: r for r in results}
