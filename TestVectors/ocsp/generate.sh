#!/usr/bin/env bash
# Generates OCSP responses from the real `openssl ocsp` responder for a small test PKI, for
# Tests/CertPathTests/OCSPParsingTests.swift.
#
#   bash TestVectors/ocsp/generate.sh      (from any directory)
#
# Everything in this folder but this script and README.md is deleted and made again, with fresh
# keys, so the bytes (and producedAt/thisUpdate, which openssl sets to the current time) change on
# every run, but names, serial numbers, statuses, reasons, CertID hash algorithms and responder ID
# forms do not. Needs the openssl 3.x CLI. Keys are made in a temporary folder and not kept.
#
#   ca.pem                         CN=OCSP Test CA (self-signed, P-256)
#   responder.pem                  CN=OCSP Test Responder, issued by the CA, extKeyUsage OCSPSigning
#   leaf-good.pem                  serial 1001, in the index as valid
#   leaf-revoked.pem               serial 1002, in the index as revoked 2025-06-01, keyCompromise
#   leaf-unknown.pem               serial 1003, not in the index
#   resp-good.der                  good,    SHA-1 CertID,   responderID byName, nonce, certs: responder
#   resp-revoked-keycompromise.der revoked, SHA-1 CertID,   responderID byName, nonce, certs: responder
#   resp-unknown.der               unknown, SHA-1 CertID,   responderID byName, nonce, certs: responder
#   resp-good-sha256.der           good,    SHA-256 CertID, responderID byKey,  no nonce, no certs
#   (each with the request that produced it: req-*.der)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

find . -maxdepth 1 -type f ! -name generate.sh ! -name README.md -delete

newkey() { openssl genpkey -quiet -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }

cat > "$WORK/ext.cnf" <<CNF
[ responder ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = OCSPSigning
authorityKeyIdentifier = keyid
[ leaf ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
authorityKeyIdentifier = keyid
CNF

newkey "$WORK/ca.key"
openssl req -x509 -new -key "$WORK/ca.key" -subj "/O=CertPath Tests/CN=OCSP Test CA" -days 7300 -sha256 -set_serial 1 \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out ca.pem

# issue NAME SERIAL SUBJECT_CN EXTENSIONS
issue() {
  newkey "$WORK/$1.key"
  openssl req -new -key "$WORK/$1.key" -subj "/O=CertPath Tests/CN=$3" -out "$WORK/$1.csr"
  openssl x509 -req -in "$WORK/$1.csr" -CA ca.pem -CAkey "$WORK/ca.key" -set_serial "0x$2" -days 3650 -sha256 \
    -extfile "$WORK/ext.cnf" -extensions "$4" -out "$1.pem" 2>/dev/null
}
issue responder 0100 "OCSP Test Responder" responder
issue leaf-good 1001 "good.ocsp.test" leaf
issue leaf-revoked 1002 "revoked.ocsp.test" leaf
issue leaf-unknown 1003 "unknown.ocsp.test" leaf

# The responder's database (openssl ca's index.txt format): 1001 valid, 1002 revoked for keyCompromise.
printf 'V\t350101000000Z\t\t1001\tunknown\t/O=CertPath Tests/CN=good.ocsp.test\n' > "$WORK/index.txt"
printf 'R\t350101000000Z\t250601000000Z,keyCompromise\t1002\tunknown\t/O=CertPath Tests/CN=revoked.ocsp.test\n' >> "$WORK/index.txt"

# respond NAME LEAF DIGEST [responder options...]: a request for LEAF with a CertID hashed with
# DIGEST, answered once by `openssl ocsp` as a responder.
respond() {
  local name="$1" leaf="$2" digest="$3"
  shift 3
  local nonce=-nonce
  for option in "$@"; do [ "$option" = -resp_no_certs ] && nonce=-no_nonce; done
  openssl ocsp -issuer ca.pem "-$digest" -cert "$leaf" "$nonce" -reqout "req-$name.der" >/dev/null
  openssl ocsp -index "$WORK/index.txt" -CA ca.pem -rsigner responder.pem -rkey "$WORK/responder.key" \
    -reqin "req-$name.der" -respout "resp-$name.der" -ndays 7 "$@" >/dev/null 2>&1
}
respond good leaf-good.pem sha1
respond revoked-keycompromise leaf-revoked.pem sha1
respond unknown leaf-unknown.pem sha1
respond good-sha256 leaf-good.pem sha256 -resp_key_id -resp_no_certs

for file in resp-*.der; do
  openssl ocsp -respin "$file" -resp_text -noverify | grep -qE "Cert Status: (good|revoked|unknown)" \
    || { echo "generate.sh: $file has no certificate status" >&2; exit 1; }
done
echo "generated $(ls resp-*.der | wc -l) responses in $HERE"
