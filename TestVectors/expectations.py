"""Expected results of a vector set, written by its generator next to the certificates
(TestVectors/<set>/expectations.txt) and read by the tests (Tests/ConformanceTests/
VectorExpectationsTests.swift and the set's own tests); scripts/check-expectations fails CI when
running a generator again would change its committed file.

One case a line, tab-separated:
  id  leaf  intermediates  anchors  policy  time  verdict  failure-codes
Files are relative to the set's folder; lists are comma-separated, "-" for none. policy:
server:HOSTNAME, client, any (no purpose) or pathValidation (RFC 5280 6.1 alone), optionally
followed by ";profile=NAME" (a CertificateProfile raw value: rfc5280, interoperable, ...),
";commonNameFallback" (the subject CN read as a host name without a SAN) and ";crls=FILE,FILE"
(CRLs given as revocation evidence, in that order). time: RFC 3339.
verdict: trusted or untrusted. failure-codes: ValidationFailure.code values, the first being the
primary failure; "-" for a trusted case.

A generator calls write() before it makes any key, and exits after it when run with
--expectations-only (what the CI check runs: no keys, no openssl, a fraction of a second).
"""
import os, sys

COLUMNS = ["id", "leaf", "intermediates", "anchors", "policy", "time", "verdict", "failure-codes"]


def case(id, leaf, intermediates, anchors, policy, time, verdict, codes=()):
    assert verdict in ("trusted", "untrusted"), verdict
    assert (verdict == "trusted") == (len(codes) == 0), (id, verdict, codes)
    return [id, leaf, ",".join(intermediates) or "-", ",".join(anchors) or "-", policy, time, verdict,
            ",".join(codes) or "-"]


def write(directory, generator, cases, output=None):
    """Writes directory/expectations.txt (or `output`); with --expectations-only, exits afterwards."""
    ids = [c[0] for c in cases]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    set_name = os.path.basename(os.path.normpath(directory))
    lines = [f"# Expected results of TestVectors/{set_name}, written by {generator}: do not edit, run it again.",
             "# Format: TestVectors/expectations.py. " + "\t".join(COLUMNS)]
    lines += ["\t".join(c) for c in cases]
    text = "\n".join(lines) + "\n"
    if output is None:
        output = os.environ.get("EXPECTATIONS_OUTPUT") or os.path.join(directory, "expectations.txt")
    with open(output, "w") as f:
        f.write(text)
    if "--expectations-only" in sys.argv:
        sys.exit(0)
