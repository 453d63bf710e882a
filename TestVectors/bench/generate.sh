#!/usr/bin/env bash
# Generates the benchmark inputs (see README.md next to this script).
#
#   bash TestVectors/bench/generate.sh      (from any directory)
#
# rsa/, ecdsa/, mesh/ and anchors-150.pem are deleted and made again with fresh keys, so the
# bytes change on every run but names, dates, extensions and structure do not. Private keys are
# thrown away. Needs the openssl 3.x CLI and GNU coreutils.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

FROM=20250101000000Z
TO=20450101000000Z
CHECK_TIME=2026-06-01T00:00:00Z

rm -rf rsa ecdsa mesh anchors-150.pem
mkdir -p rsa ecdsa mesh "$WORK/newcerts" "$WORK/keys"
: > "$WORK/index.txt"
cat > "$WORK/ca.cnf" <<CNF
[ ca ]
default_ca = CA_default
[ CA_default ]
database = $WORK/index.txt
new_certs_dir = $WORK/newcerts
rand_serial = yes
default_md = sha256
policy = policy_any
preserve = yes
unique_subject = no
email_in_dn = no
copy_extensions = none
[ policy_any ]
countryName = optional
organizationName = optional
organizationalUnitName = optional
commonName = supplied
CNF

newkey() {
  case "$1" in
    rsa) openssl genpkey -quiet -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$2" ;;
    ec)  openssl genpkey -quiet -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$2" ;;
  esac
}

# issue OUT_PEM KEY SUBJECT ISSUER_CERT|self ISSUER_KEY EXTENSIONS
issue() {
  local out=$1 key=$2 subject=$3 icert=$4 ikey=$5 ext=$6
  openssl req -new -key "$key" -subj "$subject" -out "$WORK/req.csr"
  printf '[ext]\n%s\n' "$ext" > "$WORK/ext.cnf"
  local signer=(-cert "$icert" -keyfile "$ikey")
  if [ "$icert" = self ]; then signer=(-selfsign -keyfile "$key"); fi
  openssl ca -batch -notext -config "$WORK/ca.cnf" "${signer[@]}" -in "$WORK/req.csr" \
    -startdate "$FROM" -enddate "$TO" -extfile "$WORK/ext.cnf" -extensions ext \
    -out "$out" 2>"$WORK/ca.log" || { cat "$WORK/ca.log" >&2; exit 1; }
}

der() { openssl x509 -in "$1" -outform DER -out "$2"; }

# der_len N: the DER length octets of N, in hex.
der_len() {
  if [ "$1" -lt 128 ]; then printf '%02x' "$1"
  elif [ "$1" -lt 256 ]; then printf '81%02x' "$1"
  else printf '82%04x' "$1"; fi
}

# sct_list_ext: the hex DER value (an OCTET STRING) of a synthetic embedded SCT list
# (RFC 6962 3.3, OID 1.3.6.1.4.1.11129.2.4.2) holding two well-formed SCTs with random log IDs
# and ECDSA signatures over random data. Real leaves carry two or three of these; they are
# non-critical and nobody verifies them here, they give the leaf a realistic size and shape.
sct_list_ext() {
  local list="" n sig body
  [ -f "$WORK/sct.key" ] || newkey ec "$WORK/sct.key"
  for n in 1 2; do
    sig=$(openssl rand 32 | openssl dgst -sha256 -sign "$WORK/sct.key" | xxd -p | tr -d '\n')
    # version v1, log ID, timestamp (ms, 2025-01-01T00:00:00Z + n s), no extensions,
    # hash sha256 (4), signature ecdsa (3), signature.
    body="00$(openssl rand -hex 32)$(printf '%016x' $(( 1735689600000 + n * 1000 )))0000"
    body+="0403$(printf '%04x' $(( ${#sig} / 2 )))$sig"
    list+="$(printf '%04x' $(( ${#body} / 2 )))$body"
  done
  list="$(printf '%04x' $(( ${#list} / 2 )))$list"
  printf '04%s%s' "$(der_len $(( ${#list} / 2 )))" "$list"
}

EXT_ROOT='basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash'

# --- realistic chains: root -> intermediate (pathlen:0) -> leaf ---------------------------------
# make_chain DIR KEYTYPE TAG LEAF_KU
make_chain() {
  local d=$1 kt=$2 tag=$3 leaf_ku=$4 t
  t=$(tr 'A-Z' 'a-z' <<<"$tag")
  newkey "$kt" "$WORK/keys/$d-root.key"
  issue "$WORK/$d-root.pem" "$WORK/keys/$d-root.key" \
    "/C=US/O=CertPath Bench Trust Services/CN=CertPath Bench Root $tag" self - "$EXT_ROOT"
  newkey "$kt" "$WORK/keys/$d-intermediate.key"
  issue "$WORK/$d-intermediate.pem" "$WORK/keys/$d-intermediate.key" \
    "/C=US/O=CertPath Bench Trust Services/CN=CertPath Bench Issuing CA $tag" \
    "$WORK/$d-root.pem" "$WORK/keys/$d-root.key" \
"basicConstraints = critical,CA:TRUE,pathlen:0
keyUsage = critical,digitalSignature,keyCertSign,cRLSign
extendedKeyUsage = serverAuth,clientAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
authorityInfoAccess = caIssuers;URI:http://pki.bench.example.test/root-$t.der
crlDistributionPoints = URI:http://pki.bench.example.test/root-$t.crl
certificatePolicies = 2.23.140.1.2.1"
  newkey "$kt" "$WORK/keys/$d-leaf.key"
  issue "$WORK/$d-leaf.pem" "$WORK/keys/$d-leaf.key" "/CN=bench.example.test" \
    "$WORK/$d-intermediate.pem" "$WORK/keys/$d-intermediate.key" \
"basicConstraints = critical,CA:FALSE
keyUsage = critical,$leaf_ku
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
authorityInfoAccess = OCSP;URI:http://ocsp.bench.example.test,caIssuers;URI:http://pki.bench.example.test/issuing-$t.der
crlDistributionPoints = URI:http://pki.bench.example.test/issuing-$t/17.crl
certificatePolicies = 2.23.140.1.2.1
subjectAltName = DNS:bench.example.test
1.3.6.1.4.1.11129.2.4.2 = DER:$(sct_list_ext)"
  local c
  for c in root intermediate leaf; do der "$WORK/$d-$c.pem" "$d/$c.der"; done
  # openssl's own check of the chain, as a sanity test of the generator.
  openssl verify -x509_strict -attime "$(date -u -d "$CHECK_TIME" +%s)" -purpose sslserver \
    -verify_hostname bench.example.test -CAfile "$WORK/$d-root.pem" \
    -untrusted "$WORK/$d-intermediate.pem" "$WORK/$d-leaf.pem" >/dev/null
}

make_chain rsa rsa R1 digitalSignature,keyEncipherment
make_chain ecdsa ec E1 digitalSignature

# --- 150 unrelated anchors, then the two bench roots ------------------------------------------
ORGS=(Aurora Boreal Cobalt Delta Ember Fjord Granite Harbor Indigo Juniper)
for i in $(seq -w 1 150); do
  org=${ORGS[$(( 10#$i % 10 ))]}
  newkey ec "$WORK/keys/anchor.key"
  issue "$WORK/anchor.pem" "$WORK/keys/anchor.key" \
    "/C=US/O=$org Trust Network/CN=$org Global Root CA $i" self - "$EXT_ROOT"
  cat "$WORK/anchor.pem" >> "$WORK/anchors.pem"
done
cat "$WORK/anchors.pem" "$WORK/rsa-root.pem" "$WORK/ecdsa-root.pem" > anchors-150.pem

# --- cross-signed mesh ------------------------------------------------------------------------
LAYERS=${MESH_LAYERS:-6}   # override to make a bigger mesh (README lists the committed sizes)
WIDTH=${MESH_WIDTH:-5}
EXT_MESH_CA='basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always'
mesh_dn() { echo "/O=CertPath Bench Mesh/OU=Layer $1/CN=Mesh CA L$1-$2"; }

# The withheld root: issuer of the top layer, never given to the validator in the budget test.
newkey ec "$WORK/keys/withheld.key"
issue mesh/withheld-root.pem "$WORK/keys/withheld.key" "/O=CertPath Bench Mesh/CN=Mesh Withheld Root" \
  self - "$EXT_ROOT"
for k in $(seq 1 $LAYERS); do for i in $(seq 1 $WIDTH); do newkey ec "$WORK/keys/L$k-$i.key"; done; done
# A self-signed helper certificate per CA, only so `openssl ca -cert` has the issuer's name and SKI.
for k in $(seq 1 $LAYERS); do for i in $(seq 1 $WIDTH); do
  issue "$WORK/L$k-$i-self.pem" "$WORK/keys/L$k-$i.key" "$(mesh_dn $k $i)" self - "$EXT_ROOT"
done; done
: > mesh/intermediates.pem
for k in $(seq 1 $LAYERS); do for i in $(seq 1 $WIDTH); do
  if [ "$k" -eq "$LAYERS" ]; then
    issue "$WORK/c.pem" "$WORK/keys/L$k-$i.key" "$(mesh_dn $k $i)" \
      mesh/withheld-root.pem "$WORK/keys/withheld.key" "$EXT_MESH_CA"
    cat "$WORK/c.pem" >> mesh/intermediates.pem
  else
    for j in $(seq 1 $WIDTH); do
      issue "$WORK/c.pem" "$WORK/keys/L$k-$i.key" "$(mesh_dn $k $i)" \
        "$WORK/L$(( k + 1 ))-$j-self.pem" "$WORK/keys/L$(( k + 1 ))-$j.key" "$EXT_MESH_CA"
      cat "$WORK/c.pem" >> mesh/intermediates.pem
    done
  fi
done; done
newkey ec "$WORK/keys/mesh-leaf.key"
issue mesh/leaf.pem "$WORK/keys/mesh-leaf.key" "/CN=mesh.bench.example.test" \
  "$WORK/L1-1-self.pem" "$WORK/keys/L1-1.key" \
"basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
subjectAltName = DNS:mesh.bench.example.test"
newkey ec "$WORK/keys/unrelated.key"
issue mesh/anchor.pem "$WORK/keys/unrelated.key" "/O=CertPath Bench Mesh/CN=Mesh Unrelated Root" \
  self - "$EXT_ROOT"
# An impostor root: the withheld root's name with another key. As an anchor, the mesh's names
# reach it (so no candidate can be skipped by names) but no signature does: the budget test.
newkey ec "$WORK/keys/impostor.key"
issue mesh/impostor-root.pem "$WORK/keys/impostor.key" "/O=CertPath Bench Mesh/CN=Mesh Withheld Root" \
  self - "$EXT_ROOT"

# Sanity: with the unrelated anchor there is no path; with the withheld root there is one.
T=$(date -u -d "$CHECK_TIME" +%s)
if openssl verify -attime "$T" -CAfile mesh/anchor.pem -untrusted mesh/intermediates.pem \
     mesh/leaf.pem >/dev/null 2>&1; then
  echo "mesh unexpectedly verifies against mesh/anchor.pem" >&2; exit 1
fi
if openssl verify -attime "$T" -CAfile mesh/impostor-root.pem -untrusted mesh/intermediates.pem \
     mesh/leaf.pem >/dev/null 2>&1; then
  echo "mesh unexpectedly verifies against mesh/impostor-root.pem" >&2; exit 1
fi
openssl verify -x509_strict -attime "$T" -purpose sslserver -CAfile mesh/withheld-root.pem \
  -untrusted mesh/intermediates.pem mesh/leaf.pem >/dev/null

echo "bench inputs written to $HERE:"
( cd "$HERE" && ls -l rsa ecdsa mesh anchors-150.pem && du -sh . )
