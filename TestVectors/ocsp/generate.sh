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
#   resp-good-by-ca.der            good, signed by the CA itself (no delegated responder), no certs
#   resp-good-no-next-update.der   good, without nextUpdate (openssl ocsp without -ndays)
#   resp-good-no-ocsp-signing.der  good, signed by responder-no-ocsp-signing.pem (issued by the CA,
#                                  extKeyUsage serverAuth only: not authorized, RFC 6960 4.2.2.2)
#   resp-good-nocheck.der          good, signed by responder-nocheck.pem (OCSPSigning and
#                                  id-pkix-ocsp-nocheck)
#   resp-good-other-ca.der         good, signed by other-responder.pem (OCSPSigning, but issued by
#                                  other-ca.pem, not by the certificate's issuer)
#   resp-good-bad-signature.der    resp-good.der with one octet of its nonce changed: the
#                                  signature no longer verifies
#   resp-revoked-by-ca.der         revoked (keyCompromise), signed by the CA itself
#   responder-revoked.pem          serial 0103, OCSPSigning, revoked in the CA's index (for a
#                                  responder whose own status the evidence says is revoked)
#   resp-good-revoked-responder.der good, signed by responder-revoked.pem
#   resp-responder-revoked.der     revoked (keyCompromise) for responder-revoked.pem, by the CA
#   crl-lists-good.pem             a CRL of the CA listing serial 1001 (leaf-good) as keyCompromise
#   crl-empty.pem                  a CRL of the CA listing nothing (both valid 30 days)
#   sample-pki/                    responses for TestVectors/sample-pki/rsa, signed by the issuer
#                                  itself: server-good.der, server-revoked.der (a separate
#                                  responder run whose index lists the server as revoked,
#                                  superseded), intermediate-good.der (the root on the intermediate)
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
[ responder_no_ocsp_signing ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
authorityKeyIdentifier = keyid
[ responder_nocheck ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = OCSPSigning
noCheck = ignored
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
# (ISSUER: the CA's base name, default ca)
issue() {
  local ca="${5:-ca}"
  newkey "$WORK/$1.key"
  openssl req -new -key "$WORK/$1.key" -subj "/O=CertPath Tests/CN=$3" -out "$WORK/$1.csr"
  openssl x509 -req -in "$WORK/$1.csr" -CA "$ca.pem" -CAkey "$WORK/$ca.key" -set_serial "0x$2" -days 3650 -sha256 \
    -extfile "$WORK/ext.cnf" -extensions "$4" -out "$1.pem" 2>/dev/null
}
issue responder 0100 "OCSP Test Responder" responder
issue responder-no-ocsp-signing 0101 "OCSP Test Responder without OCSPSigning" responder_no_ocsp_signing
issue responder-nocheck 0102 "OCSP Test Responder with ocsp-nocheck" responder_nocheck
issue responder-revoked 0103 "OCSP Test Responder revoked" responder
newkey "$WORK/other-ca.key"
openssl req -x509 -new -key "$WORK/other-ca.key" -subj "/O=CertPath Tests/CN=OCSP Other CA" -days 7300 -sha256 -set_serial 2 \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out other-ca.pem
issue other-responder 0200 "OCSP Other Responder" responder other-ca
issue leaf-good 1001 "good.ocsp.test" leaf
issue leaf-revoked 1002 "revoked.ocsp.test" leaf
issue leaf-unknown 1003 "unknown.ocsp.test" leaf

# The responder's database (openssl ca's index.txt format): 1001 valid, 1002 revoked for keyCompromise.
printf 'V\t350101000000Z\t\t1001\tunknown\t/O=CertPath Tests/CN=good.ocsp.test\n' > "$WORK/index.txt"
printf 'R\t350101000000Z\t250601000000Z,keyCompromise\t1002\tunknown\t/O=CertPath Tests/CN=revoked.ocsp.test\n' >> "$WORK/index.txt"
printf 'R\t350101000000Z\t250601000000Z,keyCompromise\t0103\tunknown\t/O=CertPath Tests/CN=OCSP Test Responder revoked\n' >> "$WORK/index.txt"

# respond NAME LEAF DIGEST [responder options...]: a request for LEAF with a CertID hashed with
# DIGEST, answered once by `openssl ocsp` as a responder.
# RSIGNER (default responder) names the signing certificate and key; NDAYS (default 7) the
# nextUpdate, none when empty. ISSUER (default ca.pem) is the CA the request names.
respond() {
  local name="$1" leaf="$2" digest="$3"
  shift 3
  local signer="${RSIGNER:-responder}" issuer="${ISSUER:-ca.pem}" index="${INDEX:-$WORK/index.txt}"
  local nonce=-nonce validity=(-ndays "${NDAYS-7}")
  [ -z "${NDAYS-7}" ] && validity=()
  for option in "$@"; do [ "$option" = -resp_no_certs ] && nonce=-no_nonce; done
  openssl ocsp -issuer "$issuer" "-$digest" -cert "$leaf" "$nonce" -reqout "req-$name.der" >/dev/null
  openssl ocsp -index "$index" -CA "$issuer" -rsigner "$signer.pem" -rkey "${RKEY:-$WORK/$signer.key}" \
    -reqin "req-$name.der" -respout "resp-$name.der" "${validity[@]}" "$@" >/dev/null 2>&1
}
respond good leaf-good.pem sha1
respond revoked-keycompromise leaf-revoked.pem sha1
respond unknown leaf-unknown.pem sha1
respond good-sha256 leaf-good.pem sha256 -resp_key_id -resp_no_certs
RSIGNER=ca respond good-by-ca leaf-good.pem sha1 -resp_no_certs
RSIGNER=ca respond revoked-by-ca leaf-revoked.pem sha1 -resp_no_certs
NDAYS= respond good-no-next-update leaf-good.pem sha1
RSIGNER=responder-no-ocsp-signing respond good-no-ocsp-signing leaf-good.pem sha1
RSIGNER=responder-nocheck respond good-nocheck leaf-good.pem sha1
RSIGNER=other-responder RKEY="$WORK/other-responder.key" respond good-other-ca leaf-good.pem sha1
RSIGNER=responder-revoked respond good-revoked-responder leaf-good.pem sha1
RSIGNER=ca respond responder-revoked responder-revoked.pem sha1 -resp_no_certs

# CRLs of the CA, for combining OCSP and CRL evidence.
gencrl() {
  printf '%b' "$2" > "$WORK/crl-index.txt"
  echo 01 > "$WORK/crlnumber"
  cat > "$WORK/crl.cnf" <<CNF
[ ca ]
default_ca = test
[ test ]
database = $WORK/crl-index.txt
crlnumber = $WORK/crlnumber
default_md = sha256
default_crl_days = 30
CNF
  openssl ca -gencrl -config "$WORK/crl.cnf" -keyfile "$WORK/ca.key" -cert ca.pem -out "$1" 2>/dev/null
}
gencrl crl-lists-good.pem 'R\t350101000000Z\t250601000000Z,keyCompromise\t1001\tunknown\t/O=CertPath Tests/CN=good.ocsp.test\n'
gencrl crl-empty.pem ''

# One octet of the nonce (inside tbsResponseData) changed: DER still valid, signature broken.
python3 - resp-good.der resp-good-bad-signature.der <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
nonce_oid = bytes.fromhex("06092b0601050507300102")
at = data.index(nonce_oid) + len(nonce_oid)
# extnValue OCTET STRING (04 len) wrapping the nonce OCTET STRING (04 len ...): change its last octet.
outer_len = data[at + 1]
data[at + 2 + outer_len - 1] ^= 0x01
open(sys.argv[2], "wb").write(bytes(data))
PY

# The sample PKI (RSA variant): responses signed by each certificate's issuer, with its test key.
SAMPLE="$HERE/../sample-pki/rsa"
mkdir -p sample-pki
rm -f sample-pki/*
serial() { openssl x509 -in "$1" -noout -serial | cut -d= -f2; }
subject() { openssl x509 -in "$1" -noout -subject -nameopt compat | sed 's/^subject=//'; }
printf 'V\t350101000000Z\t\t%s\tunknown\t%s\n' "$(serial "$SAMPLE/server.pem")" "$(subject "$SAMPLE/server.pem")" > "$WORK/sample-good.txt"
printf 'R\t350101000000Z\t260101000000Z,superseded\t%s\tunknown\t%s\n' "$(serial "$SAMPLE/server.pem")" "$(subject "$SAMPLE/server.pem")" > "$WORK/sample-revoked.txt"
printf 'V\t350101000000Z\t\t%s\tunknown\t%s\n' "$(serial "$SAMPLE/intermediate.pem")" "$(subject "$SAMPLE/intermediate.pem")" > "$WORK/sample-root.txt"
cp "$SAMPLE/intermediate.pem" "$WORK/sample-intermediate.pem"
cp "$SAMPLE/root.pem" "$WORK/sample-root.pem"
(
  cd sample-pki
  RSIGNER="$WORK/sample-intermediate" RKEY="$SAMPLE/keys/intermediate.key" ISSUER="$SAMPLE/intermediate.pem" INDEX="$WORK/sample-good.txt" \
    respond server-good "$SAMPLE/server.pem" sha1 -resp_no_certs
  RSIGNER="$WORK/sample-intermediate" RKEY="$SAMPLE/keys/intermediate.key" ISSUER="$SAMPLE/intermediate.pem" INDEX="$WORK/sample-revoked.txt" \
    respond server-revoked "$SAMPLE/server.pem" sha1 -resp_no_certs
  RSIGNER="$WORK/sample-root" RKEY="$SAMPLE/keys/root.key" ISSUER="$SAMPLE/root.pem" INDEX="$WORK/sample-root.txt" \
    respond intermediate-good "$SAMPLE/intermediate.pem" sha1 -resp_no_certs
  for file in resp-*.der; do mv "$file" "${file#resp-}"; done
  rm -f req-*.der
)

for file in resp-*.der sample-pki/*.der; do
  openssl ocsp -respin "$file" -resp_text -noverify | grep -qE "Cert Status: (good|revoked|unknown)" \
    || { echo "generate.sh: $file has no certificate status" >&2; exit 1; }
done
# The fuzz target's seeds are this PKI's responses (FuzzOCSP evaluates them against these certificates).
rm -f ../fuzz/ocsp/resp-*.der
cp resp-*.der ../fuzz/ocsp/
echo "generated $(ls resp-*.der | wc -l) responses in $HERE (and copied them to TestVectors/fuzz/ocsp)"
