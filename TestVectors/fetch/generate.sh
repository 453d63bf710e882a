#!/usr/bin/env bash
# Generates the small PKI the network-fetching tests serve from 127.0.0.1 (Tests/CertPathTests/
# FetchingTests.swift with an in-memory fetcher; Tests/CLITests/FetchCLITests.swift with a live
# `openssl ocsp -port` responder and Python's http.server).
#
#   bash TestVectors/fetch/generate.sh      (from any directory)
#
# Everything in this folder but this script and README.md is deleted and made again with fresh keys.
# Needs the openssl 3.x CLI. The CA keys are made in a temporary folder and not kept; the OCSP
# responder's key (responder.key) is kept, because the live responder signs with it at test time.
#
# The certificates name placeholder locations, mapped to the servers' free ports at test time:
#   http://127.0.0.1:1/   the HTTP server (this folder's served/ files): issuer certificates and CRLs
#   http://127.0.0.1:2/   the OCSP responder for the intermediate's certificates
#
#   root.pem               CN=Fetch Test Root (self-signed, P-256): the trust anchor
#   intermediate.pem       CN=Fetch Test Intermediate, serial 1001, issued by the root;
#                          cRLDistributionPoints http://127.0.0.1:1/root.crl
#   responder.pem/.key     CN=Fetch Test OCSP Responder, issued by the intermediate, OCSPSigning, ocsp-nocheck
#   leaf-good.pem          CN=good.fetch.test, serial 2001, in the responder's index as valid
#   leaf-revoked.pem       CN=revoked.fetch.test, serial 2002, revoked 2025-06-01 keyCompromise
#   leaf-no-ocsp.pem       CN=crl.fetch.test, serial 2003, no OCSP URI: revoked on the intermediate's CRL
#                          (every leaf: SAN DNS:<its CN>, serverAuth, authorityInfoAccess
#                          caIssuers http://127.0.0.1:1/intermediate.der and, but for leaf-no-ocsp,
#                          OCSP http://127.0.0.1:2/; cRLDistributionPoints http://127.0.0.1:1/intermediate.crl)
#   index.txt              the responder's database (openssl ca format)
#   served/intermediate.der  the intermediate, DER (what caIssuers serves)
#   served/intermediate.p7c  the intermediate as a certs-only PKCS #7 (the other form RFC 5280 4.2.2.1 names)
#   served/intermediate.crl  the intermediate's CRL (DER), listing 2002 and 2003 (keyCompromise)
#   served/root.crl          the root's CRL (DER), empty
#   stapled-good.der         an OCSP response for leaf-good (good, 100 years), as a server staples it
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

find . -maxdepth 1 -type f ! -name generate.sh ! -name README.md -delete
rm -rf served && mkdir served

newkey() { openssl genpkey -quiet -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }

cat > "$WORK/ext.cnf" <<CNF
[ intermediate ]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = URI:http://127.0.0.1:1/root.crl
[ responder ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = OCSPSigning
authorityKeyIdentifier = keyid
noCheck = ignored
[ leaf ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
authorityKeyIdentifier = keyid
subjectAltName = DNS:\${ENV::LEAF_NAME}
authorityInfoAccess = caIssuers;URI:http://127.0.0.1:1/intermediate.der, OCSP;URI:http://127.0.0.1:2/
crlDistributionPoints = URI:http://127.0.0.1:1/intermediate.crl
[ leaf-no-ocsp ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
authorityKeyIdentifier = keyid
subjectAltName = DNS:\${ENV::LEAF_NAME}
authorityInfoAccess = caIssuers;URI:http://127.0.0.1:1/intermediate.der
crlDistributionPoints = URI:http://127.0.0.1:1/intermediate.crl
CNF

newkey "$WORK/root.key"
openssl req -x509 -new -key "$WORK/root.key" -subj "/O=CertPath Tests/CN=Fetch Test Root" -days 36500 -sha256 -set_serial 1 \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -addext "subjectKeyIdentifier=hash" -out root.pem

# issue NAME SERIAL SUBJECT_CN EXTENSIONS ISSUER
issue() {
  local key="$WORK/$1.key"
  [ "$1" = responder ] && key="responder.key"
  newkey "$key"
  openssl req -new -key "$key" -subj "/O=CertPath Tests/CN=$3" -out "$WORK/$1.csr"
  LEAF_NAME="$3" openssl x509 -req -in "$WORK/$1.csr" -CA "$5.pem" -CAkey "$WORK/$5.key" -set_serial "0x$2" -days 36000 -sha256 \
    -extfile "$WORK/ext.cnf" -extensions "$4" -out "$1.pem" 2>/dev/null
}
issue intermediate 1001 "Fetch Test Intermediate" intermediate root
issue responder 2000 "Fetch Test OCSP Responder" responder intermediate
issue leaf-good 2001 "good.fetch.test" leaf intermediate
issue leaf-revoked 2002 "revoked.fetch.test" leaf intermediate
issue leaf-no-ocsp 2003 "crl.fetch.test" leaf-no-ocsp intermediate

# The responder's database (and the intermediate's CRL database): 2001 valid, 2002 and 2003 revoked.
printf 'V\t21250101000000Z\t\t2001\tunknown\t/O=CertPath Tests/CN=good.fetch.test\n' > index.txt
printf 'R\t21250101000000Z\t250601000000Z,keyCompromise\t2002\tunknown\t/O=CertPath Tests/CN=revoked.fetch.test\n' >> index.txt
printf 'R\t21250101000000Z\t250601000000Z,keyCompromise\t2003\tunknown\t/O=CertPath Tests/CN=crl.fetch.test\n' >> index.txt

# crl CA INDEX OUT: a CRL signed by CA over INDEX, valid for 100 years.
crl() {
  cat > "$WORK/ca-$1.cnf" <<CNF
[ ca ]
default_ca = this
[ this ]
database = $2
crlnumber = $WORK/crlnumber-$1
default_md = sha256
default_crl_days = 36500
crl_extensions = crl_ext
[ crl_ext ]
authorityKeyIdentifier = keyid
CNF
  echo 01 > "$WORK/crlnumber-$1"
  openssl ca -gencrl -config "$WORK/ca-$1.cnf" -cert "$1.pem" -keyfile "$WORK/$1.key" -out "$WORK/$1.crl.pem" 2>/dev/null
  openssl crl -in "$WORK/$1.crl.pem" -outform DER -out "$3"
}
: > "$WORK/empty-index.txt"
crl root "$WORK/empty-index.txt" served/root.crl
cp index.txt "$WORK/intermediate-index.txt"
crl intermediate "$WORK/intermediate-index.txt" served/intermediate.crl

openssl x509 -in intermediate.pem -outform DER -out served/intermediate.der
openssl crl2pkcs7 -nocrl -certfile intermediate.pem -outform DER -out served/intermediate.p7c

# A response for leaf-good as a TLS server would staple it (RFC 6066 8), current for 100 years.
openssl ocsp -issuer intermediate.pem -cert leaf-good.pem -no_nonce -reqout "$WORK/stapled.req" >/dev/null
openssl ocsp -index index.txt -CA intermediate.pem -rsigner responder.pem -rkey responder.key -reqin "$WORK/stapled.req" \
  -respout stapled-good.der -ndays 36500 >/dev/null 2>&1
