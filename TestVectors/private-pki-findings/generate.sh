#!/usr/bin/env bash
# A private PKI "made with whatever tool it had" (issue 30, class 11): every certificate breaks only
# rules RFC 5280 section 4 addresses to the issuing CA, none a relying party must enforce. Deployed
# validators (OpenSSL, Chromium, Go, SecTrust) accept the chain; CertPath's default for the caller's
# own anchors (profile interoperable) trusts it and reports each rule as a finding; --profile
# rfc5280 refuses it. Tests/CLITests/FindingsCLITests.swift reads these files.
#
#   bash TestVectors/private-pki-findings/generate.sh      (from any directory; needs openssl 3.x)
#
#   root.pem          CN=Findings Root: basicConstraints cA TRUE non-critical (4.2.1.9), no
#                     subjectKeyIdentifier (4.2.1.2), keyUsage keyCertSign, cRLSign
#   intermediate.pem  CN=Findings Customer CA, pathlen:0: basicConstraints non-critical, no keyUsage
#                     (4.2.1.3), no subjectKeyIdentifier, no authorityKeyIdentifier (4.2.1.1)
#   server.pem        CN=api.findings.test, SAN DNS:api.findings.test, serverAuth, no
#                     authorityKeyIdentifier (4.2.1.1); valid from the day it was made (2026-12-07) to the end of 2044
# Keys are P-256, made in a temporary folder and not kept. Validation time in tests: 2027-06-01.
# expectations.txt (TestVectors/expectations.py): the chain trusted under the default profile
# (interoperable for the caller's anchors), refused under rfc5280 for the first CA-side rule
# (profileViolation); `generate.sh --expectations-only` writes only that file.
set -euo pipefail
cd "$(dirname "$0")"
python3 - "$@" <<'PY'
import os, sys
sys.path.insert(0, "..")
import expectations as e
e.write(os.getcwd(), "TestVectors/private-pki-findings/generate.sh", [
    e.case("interoperable", "server.pem", ["intermediate.pem"], ["root.pem"], "server:api.findings.test",
           "2027-06-01T00:00:00Z", "trusted"),
    e.case("rfc5280", "server.pem", ["intermediate.pem"], ["root.pem"], "server:api.findings.test;profile=rfc5280",
           "2027-06-01T00:00:00Z", "untrusted", ["profileViolation"]),
])
PY
[ "${1:-}" = --expectations-only ] && exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for name in root intermediate server; do openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$tmp/$name.key"; done

cat > "$tmp/ext.cnf" <<'CNF'
[root]
basicConstraints = CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = none
authorityKeyIdentifier = none
[intermediate]
basicConstraints = CA:TRUE, pathlen:0
subjectKeyIdentifier = none
authorityKeyIdentifier = none
[server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:api.findings.test
subjectKeyIdentifier = hash
authorityKeyIdentifier = none
CNF
days() { echo $(( ( $(date -u -d 2045-01-01 +%s) - $(date -u +%s) ) / 86400 )); }
# Dates: the openssl 3.0 CLI has no -not_before, so each certificate starts today and ends near 2045.
openssl req -new -x509 -key "$tmp/root.key" -subj "/CN=Findings Root" -days "$(days)" -set_serial 1 \
    -config /dev/null -extensions root -extfile "$tmp/ext.cnf" -out root.pem 2>/dev/null \
  || openssl req -new -x509 -key "$tmp/root.key" -subj "/CN=Findings Root" -days "$(days)" -set_serial 1 \
    -addext "basicConstraints=CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -addext "subjectKeyIdentifier=none" -addext "authorityKeyIdentifier=none" -out root.pem
openssl req -new -key "$tmp/intermediate.key" -subj "/CN=Findings Customer CA" -out "$tmp/intermediate.csr"
openssl x509 -req -in "$tmp/intermediate.csr" -CA root.pem -CAkey "$tmp/root.key" -set_serial 2 -days "$(days)" \
    -extfile "$tmp/ext.cnf" -extensions intermediate -out intermediate.pem
openssl req -new -key "$tmp/server.key" -subj "/CN=api.findings.test" -out "$tmp/server.csr"
openssl x509 -req -in "$tmp/server.csr" -CA intermediate.pem -CAkey "$tmp/intermediate.key" -set_serial 3 -days "$(days)" \
    -extfile "$tmp/ext.cnf" -extensions server -out server.pem
