#!/usr/bin/env python3
"""CertPath's differential test: generated chains through CertPath, pyca/cryptography and OpenSSL.

  differential.py campaign N SEED [--certpath PATH] [--workers W] [--report FILE] [--triage FILE]
  differential.py emit REPRO DIR          write a family's reproducer chain and print the commands
  differential.py render [--report FILE]  write Differential/TRIAGE.md from triage.json (+ a report)

A campaign generates chains 0..N-1 of SEED (difftest/gen.py), runs every validator, and for each
disagreement of a pair (CertPath webpki vs pyca, CertPath rfc5280 vs OpenSSL; one way only:
CertPath vs the oracle's clauses, CertPath webpki vs CertPath rfc5280) finds the smallest subset
of the chain's mutations that still gives the same two verdicts (greedy removal to a fixpoint,
chains rebuilt without the removed mutation). A family is that subset with the pair's verdicts;
each must have an entry in triage.json. The campaign fails (exit 1) on an untriaged family, on a
family triaged `certpath_wrong`, and on any CertPath false accept (CertPath accepts where the
triage, or an untriaged oracle clause, says reject). Everything is a pure function of N and SEED.
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from difftest import gen, run  # noqa: E402

TRIAGE = os.path.join(HERE, "triage.json")
VERDICTS = ("certpath_right", "certpath_wrong", "both_defensible", "unsure")
VALIDATORS = ("cp_webpki", "pyca", "cp_rfc5280", "openssl")


def mkey(m):
    return (m["kind"], m["arg"], m["pos"])


def config_key(spec):
    return (spec["depth"], tuple(sorted(mkey(m) for m in spec["mutations"])))


# The oracle: mutations after which RFC 5280 section 6 (or its 4.2 rule on critical extensions, RFC
# 6125 host name matching, the validity period, the signature) rejects the chain whatever the
# profile and the peers say. A chain that CertPath accepts with one of them is an oracle
# disagreement (pairs oracle-webpki and oracle-rfc5280), minimised and triaged like the others: it
# catches false accepts that both peers share. Anchor-position mutations are not here: what is
# checked of a trust anchor is the relying party's choice (RFC 5280 6.1.1 (d)).
ORACLE = {
    "validity=expired@leaf": "RFC 5280 6.1.3 (a)(2)", "validity=expired@int": "RFC 5280 6.1.3 (a)(2)",
    "validity=not_yet_valid@leaf": "RFC 5280 6.1.3 (a)(2)", "validity=not_yet_valid@int": "RFC 5280 6.1.3 (a)(2)",
    "validity=inverted@leaf": "RFC 5280 6.1.3 (a)(2)", "validity=inverted@int": "RFC 5280 6.1.3 (a)(2)",
    "sig=corrupt@leaf": "RFC 5280 6.1.3 (a)(1)", "sig=corrupt@int": "RFC 5280 6.1.3 (a)(1)",
    "sig=outer_mismatch@leaf": "RFC 5280 4.1.1.2", "sig=outer_mismatch@int": "RFC 5280 4.1.1.2",
    "ext=unknown_critical@leaf": "RFC 5280 4.2", "ext=unknown_critical@int": "RFC 5280 4.2",
    "ext=ct_poison@leaf": "RFC 5280 4.2, RFC 6962 3.1", "ext=ct_poison@int": "RFC 5280 4.2",
    "name=mismatch@leaf": "RFC 5280 6.1.3 (a)(4)", "name=mismatch@int": "RFC 5280 6.1.3 (a)(4)",
    "name=rdn_order@leaf": "RFC 5280 6.1.3 (a)(4), 7.1", "name=rdn_order@int": "RFC 5280 6.1.3 (a)(4), 7.1",
    "bc=ca_false@int": "RFC 5280 6.1.4 (k)", "bc=absent@int": "RFC 5280 6.1.4 (k)",
    "version=v1@int": "RFC 5280 6.1.4 (k)", "ku=no_certsign@int": "RFC 5280 6.1.4 (n)",
}
ORACLE_SERVER = {
    "san=wrong_host@leaf": "RFC 6125 6.4", "san=ip_wrong@leaf": "RFC 6125 6.2.1",
    "san=ip_in_dns@leaf": "RFC 6125 6.2.1, RFC 5280 4.2.1.6", "san=email_only@leaf": "RFC 6125 6.4",
    "san=uri_only@leaf": "RFC 6125 6.4", "san=wild_middle@leaf": "RFC 6125 6.4.3",
    "san=wild_nested@leaf": "RFC 6125 6.4.3", "san=wild_only@leaf": "RFC 6125 6.4.3",
    "san=wild_double@leaf": "RFC 6125 6.4.3", "eku=leaf_other_purpose@leaf": "RFC 5280 4.2.1.12",
}
EXTENSION_KINDS = {"ext", "eku", "bc", "ku", "san", "nc", "nccrit", "kid"}


def oracle_reasons(spec):
    """The oracle clauses that reject spec (empty: no opinion)."""
    labels = {gen.label(m): m for m in spec["mutations"]}
    v1 = {m["pos"] for m in spec["mutations"] if m["kind"] == "version" and m["arg"] == "v1"}
    client = any(m["kind"] == "purpose" for m in spec["mutations"])
    out = []
    for lab, m in labels.items():
        if m["kind"] in EXTENSION_KINDS and m["pos"] in v1:
            continue  # a v1 certificate carries no extensions: the mutation is not in it
        clause = ORACLE.get(lab) or (None if client else ORACLE_SERVER.get(lab))
        if clause:
            out.append("%s: %s" % (lab, clause))
    return out


# Pairs: the two peer comparisons, the oracle (one direction: CertPath accepts, the oracle's clause
# rejects) and CertPath's own consistency (one direction: the webpki profile, RFC 5280 section 4
# plus the BRs, accepts what the rfc5280 profile rejects; docs/RULES.md names the one reading that
# is looser under webpki, a non-critical nameConstraints honoured).
PAIR_SIDES = {
    "webpki": ("cp_webpki", "pyca"), "rfc5280": ("cp_rfc5280", "openssl"),
    "profiles": ("cp_webpki", "cp_rfc5280"),
    "oracle-webpki": ("cp_webpki", "oracle"), "oracle-rfc5280": ("cp_rfc5280", "oracle"),
}


def family_key(pair, cp_ok, peer_ok, mutations):
    peer = {"cp_rfc5280": "certpath-rfc5280"}.get(PAIR_SIDES[pair][1], PAIR_SIDES[pair][1])
    labels = sorted(set(gen.label(m) for m in mutations))
    return "%s | certpath %s, %s %s | %s" % (
        pair, "accepts" if cp_ok else "rejects", peer, "accepts" if peer_ok else "rejects",
        " + ".join(labels) if labels else "(base chain)")


def repro_text(spec):
    return "%s/%d/%s" % (spec["seed"], spec["depth"],
                         "+".join("%s=%s@%s" % mkey(m) for m in spec["mutations"]) or "-")


def parse_repro(text):
    seed, depth, muts = text.rsplit("/", 2)
    mutations = []
    if muts != "-":
        for part in muts.split("+"):
            ka, pos = part.split("@")
            kind, arg = ka.split("=", 1)
            mutations.append({"kind": kind, "arg": arg, "pos": pos})
    return {"seed": seed, "depth": int(depth), "mutations": mutations}


def pair_verdicts(result, pair, spec):
    cp, peer = PAIR_SIDES[pair]
    if peer == "oracle":
        return result[cp]["ok"], not oracle_reasons(spec)
    return result[cp]["ok"], result[peer]["ok"]


class Evaluator:
    """Evaluates specs through every validator, memoised by configuration (depth and mutations:
    the chain seed only picks key material and serial numbers)."""

    def __init__(self, certpath, workers, workdir):
        self.certpath, self.workers, self.workdir = certpath, workers, workdir
        self.memo = {}
        self.evaluated = 0

    def run(self, specs):
        todo = {}
        for k, s in specs.items():
            ck = config_key(s)
            if ck not in self.memo and ck not in {config_key(t) for t in todo.values()}:
                todo[k] = s
        if todo:
            results = run.evaluate(todo, self.certpath, self.workdir, self.workers)
            self.evaluated += len(todo)
            for k, s in todo.items():
                self.memo[config_key(s)] = results[k]
        return {k: self.memo[config_key(s)] for k, s in specs.items()}


def minimise(evaluator, tasks):
    """tasks: list of dicts {spec, pair, target}; sets task["min"] to the minimal spec."""
    for t in tasks:
        t["cur"] = list(t["spec"]["mutations"])
        t["i"] = 0
    rounds = 0
    while True:
        pending = [t for t in tasks if t["i"] < len(t["cur"])]
        if not pending:
            # a pass is over: go round again for the tasks that lost a mutation in it (a mutation
            # kept only because of one removed later may go now), until nothing changes
            again = [t for t in tasks if t.get("changed")]
            if not again:
                break
            for t in again:
                t["i"], t["changed"] = 0, False
            continue
        rounds += 1
        trials = {}
        for n, t in enumerate(pending):
            muts = t["cur"][: t["i"]] + t["cur"][t["i"] + 1 :]
            t["trial"] = dict(t["spec"], mutations=muts)
            trials[n] = t["trial"]
        results = evaluator.run(trials)
        for n, t in enumerate(pending):
            if pair_verdicts(results[n], t["pair"], t["trial"]) == t["target"]:
                t["cur"] = t["trial"]["mutations"]
                t["changed"] = True
            else:
                t["i"] += 1
    for t in tasks:
        t["min"] = dict(t["spec"], mutations=t["cur"])
    return rounds


def load_triage(path):
    with open(path) as f:
        data = json.load(f)
    entries = {}
    for e in data["families"]:
        if e["verdict"] not in VERDICTS:
            raise SystemExit("triage: %s: verdict must be one of %s" % (e["family"], ", ".join(VERDICTS)))
        if e["expected"] not in ("accept", "reject", "either"):
            raise SystemExit("triage: %s: expected must be accept, reject or either" % e["family"])
        cp_ok = " | certpath accepts," in e["family"]
        right = e["expected"] == "either" or (e["expected"] == "accept") == cp_ok
        if e["verdict"] == "certpath_right" and not right:
            raise SystemExit("triage: %s: certpath_right contradicts expected=%s" % (e["family"], e["expected"]))
        if e["verdict"] == "certpath_wrong" and right:
            raise SystemExit("triage: %s: certpath_wrong contradicts expected=%s" % (e["family"], e["expected"]))
        if e["verdict"] == "both_defensible" and e["expected"] != "either":
            raise SystemExit("triage: %s: both_defensible needs expected=either" % e["family"])
        if e["family"] in entries:
            raise SystemExit("triage: %s: listed twice" % e["family"])
        for field in ("clause", "notes"):
            if not e.get(field):
                raise SystemExit("triage: %s: %s is empty" % (e["family"], field))
        entries[e["family"]] = e
    return entries


def campaign(args):
    certpath = os.path.abspath(args.certpath)
    if not os.access(certpath, os.X_OK):
        raise SystemExit("differential: no certpath binary at %s (build it first)" % certpath)
    start = time.time()
    workdir = tempfile.mkdtemp(prefix="certpath-differential-")
    try:
        ev = Evaluator(certpath, args.workers, workdir)
        specs = {i: gen.make_spec(args.seed, i) for i in range(args.n)}
        results = run.evaluate(specs, certpath, workdir, args.workers)
        ev.evaluated += len(specs)
        for i, s in specs.items():
            ev.memo.setdefault(config_key(s), results[i])
        t_eval = time.time() - start
        tasks = []
        for i, r in results.items():
            for pair in PAIR_SIDES:
                cp_ok, peer_ok = pair_verdicts(r, pair, specs[i])
                one_way = pair == "profiles" or pair.startswith("oracle-")
                if cp_ok != peer_ok and (cp_ok or not one_way):
                    tasks.append({"index": i, "spec": specs[i], "pair": pair, "target": (cp_ok, peer_ok)})
        rounds = minimise(ev, tasks)
        mins = ev.run({n: t["min"] for n, t in enumerate(tasks)})
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    families = {}
    for n, t in enumerate(tasks):
        key = family_key(t["pair"], t["target"][0], t["target"][1], t["min"]["mutations"])
        f = families.get(key)
        if f is None:
            r = mins[n]
            f = families[key] = {
                "family": key, "pair": t["pair"], "chains": 0, "examples": [],
                "certpath_accepts": t["target"][0],
                "reproducer": repro_text(t["min"]),
                "verdicts": {v: r[v] for v in VALIDATORS},
                "oracle": oracle_reasons(t["min"]),
            }
        f["chains"] += 1
        if len(f["examples"]) < 3:
            f["examples"].append(repro_text(t["spec"]))

    triage = load_triage(args.triage)
    untriaged = [k for k in families if k not in triage]
    wrong = [k for k in families if k in triage and triage[k]["verdict"] == "certpath_wrong"]
    unsure = [k for k in families if k in triage and triage[k]["verdict"] == "unsure"]
    # a false accept: CertPath accepts where the triage says reject, or where the oracle's clause
    # says reject and no triage entry says otherwise
    false_accepts = [k for k in families if families[k]["certpath_accepts"] and (
        (k in triage and triage[k]["expected"] == "reject")
        or (k not in triage and families[k]["pair"].startswith("oracle-")))]
    false_rejects = [k for k in wrong if not families[k]["certpath_accepts"]]
    agree = sum(1 for i, r in results.items()
                if all(len(set(pair_verdicts(r, p, specs[i]))) == 1 for p in ("webpki", "rfc5280")))
    elapsed = time.time() - start

    if args.report:
        with open(args.report, "w") as f:
            json.dump({
                "format": "certpath-differential-report/1", "chains": args.n, "seed": args.seed,
                "agreeing_chains": agree, "disagreements": len(tasks),
                "validations": ev.evaluated, "minimisation_rounds": rounds,
                "seconds": round(elapsed), "families": sorted(families.values(), key=lambda x: x["family"]),
            }, f, indent=1, sort_keys=True)
            f.write("\n")

    for k in sorted(untriaged):
        fam = families[k]
        print("untriaged family: %s (%d chains)\n  reproducer: %s\n  %s" % (
            k, fam["chains"], fam["reproducer"],
            "\n  ".join("%s: %s %s" % (v, "accept" if fam["verdicts"][v]["ok"] else "reject",
                                       fam["verdicts"][v]["why"][:160]) for v in VALIDATORS)), file=sys.stderr)
    for k in sorted(set(wrong) | set(false_accepts)):
        clause = triage[k]["clause"] if k in triage else "; ".join(families[k]["oracle"])
        print("CertPath wrong: %s (%d chains; reproducer %s; %s)" % (
            k, families[k]["chains"], families[k]["reproducer"], clause), file=sys.stderr)
    for k in sorted(unsure):
        print("unsure (triaged, not failing): %s; %s" % (k, triage[k]["clause"]), file=sys.stderr)
    print("differential: %d chains (seed %s, %d agree; %d disagreements minimised in %d rounds, "
          "%d validations, %.0f s + %.0f s)" % (args.n, args.seed, agree, len(tasks), rounds,
                                                ev.evaluated, t_eval, elapsed - t_eval), file=sys.stderr)
    print("differential: %d chains, %d families (%d triaged, %d untriaged), CertPath false accepts: %d"
          % (args.n, len(families), len(families) - len(untriaged), len(untriaged), len(false_accepts)))
    if false_rejects:
        print("differential: CertPath false rejects (triaged certpath_wrong): %d" % len(false_rejects))
    return 1 if (untriaged or wrong or false_accepts) else 0


def emit(args):
    spec = parse_repro(args.repro)
    built = gen.build(spec)
    root, inter, leaf = run.chain_files(built, args.dir)
    host = built["host"]
    purpose = ("--server %s" % host) if built["purpose"] == "server" else "--client"
    inter_opt = (" --intermediates %s" % inter) if inter else ""
    for profile in ("webpki", "rfc5280"):
        print("certpath verify %s%s --anchors %s %s --at %s --profile %s --anchor-checks full --explain" % (
            leaf, inter_opt, root, purpose, gen.VALIDATION_TIME_TEXT, profile))
    ossl_purpose = "sslserver" if built["purpose"] == "server" else "sslclient"
    host_opt = ""
    if host:
        host_opt = (" -verify_ip %s" % host) if (":" in host or host.replace(".", "").isdigit()) else (" -verify_hostname %s" % host)
    print("openssl verify -x509_strict -auth_level 2 -purpose %s%s -attime %d -no-CApath -no-CAstore -CAfile %s%s %s" % (
        ossl_purpose, host_opt, int(gen.VALIDATION_TIME.timestamp()), root,
        (" -untrusted %s" % inter) if inter else "", leaf))
    print("pyca: %s" % json.dumps(run.pyca_verify(built)))
    return 0


def render(args):
    triage = json.load(open(args.triage))
    report = json.load(open(args.report)) if args.report and os.path.exists(args.report) else None
    seen = {f["family"]: f for f in report["families"]} if report else {}
    out = ["# Differential triage", "",
           "Generated by `python3 Differential/differential.py render` from `triage.json`"
           + (" and `%s`" % os.path.relpath(args.report, HERE) if report else "") + "; edit triage.json, not this page.",
           "", "Verdicts: `certpath_right` (the clause decides for CertPath's verdict), `certpath_wrong` (it",
           "decides against: the check fails until CertPath is fixed), `both_defensible` (the standards leave",
           "it to local policy or the profiles differ on purpose; both verdicts conform), `unsure`.", ""]
    if report:
        out += ["Campaign: %d chains (seed %s), %d families, %d disagreements." % (
            report["chains"], report["seed"], len(report["families"]), report["disagreements"]), ""]
    order = {"certpath_wrong": 0, "unsure": 1, "both_defensible": 2, "certpath_right": 3}
    out += ["| family | chains | verdict | expected | clause |", "|---|--:|---|---|---|"]
    for e in sorted(triage["families"], key=lambda x: (order[x["verdict"]], x["family"])):
        fam = seen.get(e["family"])
        out.append("| `%s` | %s | %s | %s | %s |" % (e["family"].replace("|", "\\|"), fam["chains"] if fam else "–", e["verdict"],
                                                  e["expected"], e["clause"].replace("|", "/")))
    out.append("")
    groups = {}
    for e in triage["families"]:
        groups.setdefault(e["verdict"], []).append(e)
    for verdict in ("certpath_wrong", "unsure", "both_defensible", "certpath_right"):
        entries = groups.get(verdict, [])
        if not entries:
            continue
        out += ["## %s (%d)" % (verdict, len(entries)), ""]
        for e in sorted(entries, key=lambda x: x["family"]):
            fam = seen.get(e["family"])
            out.append("### `%s`" % e["family"])
            out.append("")
            out.append("- expected: **%s**; clause: %s" % (e["expected"], e["clause"]))
            out.append("- %s" % e["notes"])
            if e.get("peer_note"):
                out.append("- peer: %s" % e["peer_note"])
            if fam:
                out.append("- seen in %d chains; reproducer `%s`" % (fam["chains"], fam["reproducer"]))
                for v in VALIDATORS:
                    out.append("  - %s: %s %s" % (v, "accept" if fam["verdicts"][v]["ok"] else "reject",
                                                  ("— " + fam["verdicts"][v]["why"][:200]) if fam["verdicts"][v]["why"] else ""))
            elif e.get("reproducer"):
                out.append("- reproducer `%s` (not seen in this report's campaign)" % e["reproducer"])
            out.append("")
    with open(os.path.join(HERE, "TRIAGE.md"), "w") as f:
        f.write("\n".join(out))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("campaign")
    c.add_argument("n", type=int)
    c.add_argument("seed")
    c.add_argument("--certpath", default=os.path.join(HERE, "..", ".build", "release", "certpath"))
    c.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    c.add_argument("--report")
    c.add_argument("--triage", default=TRIAGE)
    e = sub.add_parser("emit")
    e.add_argument("repro")
    e.add_argument("dir")
    r = sub.add_parser("render")
    r.add_argument("--triage", default=TRIAGE)
    r.add_argument("--report")
    args = ap.parse_args()
    return {"campaign": campaign, "emit": emit, "render": render}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
