#!/usr/bin/env bash
# Generates the sample PKI of "Example Corp" (a company's private PKI) and its manifest.
#
#   bash TestVectors/sample-pki/generate.sh      (from any directory)
#
# Everything in rsa/, ecdsa/ and manifest.json is deleted and made again, with fresh keys and
# serial numbers, so the bytes change on every run but the structure, names, dates and expected
# results do not. Needs the openssl 3.x CLI and GNU coreutils (date -d, base64 -w, xxd).
# At the end every manifest case is also run through `openssl verify`; the script fails if
# openssl disagrees with a case that is not listed as a known difference.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# Validity periods (openssl ca -startdate/-enddate format; encoded as UTCTime since < 2050).
GOOD_FROM=20250101000000Z;    GOOD_TO=20450101000000Z
EXPIRED_FROM=20200101000000Z; EXPIRED_TO=20210101000000Z
FUTURE_FROM=20400101000000Z;  FUTURE_TO=20450101000000Z
# Validation time of every manifest case.
CASE_TIME=2026-06-01T00:00:00Z

rm -rf rsa ecdsa manifest.json
mkdir -p rsa/keys ecdsa/keys

# --- openssl ca plumbing ----------------------------------------------------------------------
# A throw-away CA database; only used so that `openssl ca` can set exact validity dates.
mkdir -p "$WORK/newcerts"
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

# newkey rsa|ec FILE: a fresh PKCS#8 private key (RSA-2048 or ECDSA P-256).
newkey() {
  case "$1" in
    rsa) openssl genpkey -quiet -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$2" ;;
    ec)  openssl genpkey -quiet -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$2" ;;
  esac
}

# issue OUT KEY SUBJECT ISSUER_CERT|self ISSUER_KEY NOT_BEFORE NOT_AFTER EXTENSIONS
# Certifies KEY under SUBJECT. EXTENSIONS is the body of an openssl v3 extension section.
issue() {
  local out=$1 key=$2 subject=$3 icert=$4 ikey=$5 from=$6 to=$7 ext=$8
  openssl req -new -key "$key" -subj "$subject" -out "$WORK/req.csr"
  printf '[ext]\n%s\n' "$ext" > "$WORK/ext.cnf"
  local signer=(-cert "$icert" -keyfile "$ikey")
  if [ "$icert" = self ]; then signer=(-selfsign -keyfile "$key"); fi
  openssl ca -batch -notext -config "$WORK/ca.cnf" "${signer[@]}" -in "$WORK/req.csr" \
    -startdate "$from" -enddate "$to" -extfile "$WORK/ext.cnf" -extensions ext \
    -out "$out" 2>"$WORK/ca.log" || { cat "$WORK/ca.log" >&2; exit 1; }
}

# corrupt_signature IN OUT: copy of IN with the last byte of the DER (the last byte of the
# signature value) XORed with 0x01. The DER stays well formed; only the signature is wrong.
corrupt_signature() {
  local hex last
  hex=$(openssl x509 -in "$1" -outform DER | xxd -p | tr -d '\n')
  last=$(printf '%02x' $(( 0x${hex: -2} ^ 0x01 )))
  { echo "-----BEGIN CERTIFICATE-----"
    printf '%s%s' "${hex:0:${#hex}-2}" "$last" | xxd -r -p | base64 -w 64
    echo "-----END CERTIFICATE-----"; } > "$2"
}

# --- extension profiles -----------------------------------------------------------------------
EXT_ROOT='basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash'

EXT_INTERMEDIATE='basicConstraints = critical,CA:TRUE,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always'

EXT_SUBCA='basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always'

# ext_leaf KU EKU SAN [AKI yes|no]
ext_leaf() {
  printf 'basicConstraints = critical,CA:FALSE\n'
  [ -n "$1" ] && printf 'keyUsage = critical,%s\n' "$1"
  printf 'extendedKeyUsage = %s\nsubjectAltName = %s\nsubjectKeyIdentifier = hash\n' "$2" "$3"
  [ "${4:-yes}" = yes ] && printf 'authorityKeyIdentifier = keyid:always\n'
  return 0
}

SERVER_SAN='DNS:server.customer1.example,IP:192.0.2.10'
CLIENT_SAN='email:alice@customer1.example,DNS:client.customer1.example'
DN_CUSTOMER='/O=Customer 1'

# --- one full variant: root -> intermediate (pathlen:0) -> server, client -------------------------
# make_variant DIR KEYTYPE TAG SERVER_KU
make_variant() {
  local d=$1 kt=$2 tag=$3 server_ku=$4
  newkey "$kt" "$d/keys/root.key"
  issue "$d/root.pem" "$d/keys/root.key" "/C=US/O=Example Corp/CN=Example Corp Root CA $tag" \
    self - "$GOOD_FROM" "$GOOD_TO" "$EXT_ROOT"
  newkey "$kt" "$d/keys/intermediate.key"
  issue "$d/intermediate.pem" "$d/keys/intermediate.key" \
    "/C=US/O=Example Corp/OU=Customer 1/CN=Example Corp Customer 1 CA $tag" \
    "$d/root.pem" "$d/keys/root.key" "$GOOD_FROM" "$GOOD_TO" "$EXT_INTERMEDIATE"
  newkey "$kt" "$d/keys/server.key"
  issue "$d/server.pem" "$d/keys/server.key" "$DN_CUSTOMER/CN=server.customer1.example" \
    "$d/intermediate.pem" "$d/keys/intermediate.key" "$GOOD_FROM" "$GOOD_TO" \
    "$(ext_leaf "$server_ku" serverAuth "$SERVER_SAN")"
  newkey "$kt" "$d/keys/client.key"
  issue "$d/client.pem" "$d/keys/client.key" "$DN_CUSTOMER/CN=Alice" \
    "$d/intermediate.pem" "$d/keys/intermediate.key" "$GOOD_FROM" "$GOOD_TO" \
    "$(ext_leaf digitalSignature clientAuth "$CLIENT_SAN")"
  cat "$d/server.pem" "$d/intermediate.pem" > "$d/server-chain.pem"
  corrupt_signature "$d/server.pem" "$d/server-bad-signature.pem"
}

make_variant rsa rsa R1 digitalSignature,keyEncipherment
make_variant ecdsa ec E1 digitalSignature

# --- RSA failure cases ------------------------------------------------------------------------
R=rsa
RSA_SERVER_KU=digitalSignature,keyEncipherment
EXT_SERVER="$(ext_leaf "$RSA_SERVER_KU" serverAuth "$SERVER_SAN")"

# Expired and not-yet-valid server certificates.
newkey rsa $R/keys/server-expired.key
issue $R/server-expired.pem $R/keys/server-expired.key "$DN_CUSTOMER/CN=server.customer1.example" \
  $R/intermediate.pem $R/keys/intermediate.key "$EXPIRED_FROM" "$EXPIRED_TO" "$EXT_SERVER"
newkey rsa $R/keys/server-not-yet-valid.key
issue $R/server-not-yet-valid.pem $R/keys/server-not-yet-valid.key \
  "$DN_CUSTOMER/CN=server.customer1.example" \
  $R/intermediate.pem $R/keys/intermediate.key "$FUTURE_FROM" "$FUTURE_TO" "$EXT_SERVER"

# Self-signed server certificate (an end entity, cA FALSE, no AKI).
newkey rsa $R/keys/selfsigned-server.key
issue $R/selfsigned-server.pem $R/keys/selfsigned-server.key \
  "$DN_CUSTOMER/CN=selfsigned.customer1.example" self - "$GOOD_FROM" "$GOOD_TO" \
  "$(ext_leaf "$RSA_SERVER_KU" serverAuth DNS:selfsigned.customer1.example no)"

# Server name and key usage, but EKU clientAuth only.
newkey rsa $R/keys/server-wrong-eku.key
issue $R/server-wrong-eku.pem $R/keys/server-wrong-eku.key "$DN_CUSTOMER/CN=server.customer1.example" \
  $R/intermediate.pem $R/keys/intermediate.key "$GOOD_FROM" "$GOOD_TO" \
  "$(ext_leaf "$RSA_SERVER_KU" clientAuth "$SERVER_SAN")"

# pathLen violation: a sub-CA under the pathlen:0 intermediate, and a server leaf under it.
newkey rsa $R/keys/subca.key
issue $R/subca.pem $R/keys/subca.key "/C=US/O=Example Corp/OU=Customer 1/CN=Customer 1 Sub CA R1" \
  $R/intermediate.pem $R/keys/intermediate.key "$GOOD_FROM" "$GOOD_TO" "$EXT_SUBCA"
newkey rsa $R/keys/server-under-subca.key
issue $R/server-under-subca.pem $R/keys/server-under-subca.key \
  "$DN_CUSTOMER/CN=server.customer1.example" \
  $R/subca.pem $R/keys/subca.key "$GOOD_FROM" "$GOOD_TO" "$EXT_SERVER"

# An end entity (cA FALSE, no keyUsage) issued by the root, used as the issuer of a server leaf.
newkey rsa $R/keys/not-a-ca.key
issue $R/not-a-ca.pem $R/keys/not-a-ca.key "$DN_CUSTOMER/CN=not-a-ca.customer1.example" \
  $R/root.pem $R/keys/root.key "$GOOD_FROM" "$GOOD_TO" \
  "$(ext_leaf '' serverAuth DNS:not-a-ca.customer1.example)"
newkey rsa $R/keys/server-under-not-a-ca.key
issue $R/server-under-not-a-ca.pem $R/keys/server-under-not-a-ca.key \
  "$DN_CUSTOMER/CN=server.customer1.example" \
  $R/not-a-ca.pem $R/keys/not-a-ca.key "$GOOD_FROM" "$GOOD_TO" "$EXT_SERVER"

# Cross-signing: "Old Root" (valid) certified the intermediate's subject and key too, but that
# cross-certificate expired in 2021. Same subject, same SPKI (hence same SKI) as intermediate.pem.
newkey rsa $R/keys/old-root.key
issue $R/old-root.pem $R/keys/old-root.key "/C=US/O=Example Corp/CN=Example Corp Old Root CA R0" \
  self - "$GOOD_FROM" "$GOOD_TO" "$EXT_ROOT"
issue $R/intermediate-cross-expired.pem $R/keys/intermediate.key \
  "/C=US/O=Example Corp/OU=Customer 1/CN=Example Corp Customer 1 CA R1" \
  $R/old-root.pem $R/keys/old-root.key "$EXPIRED_FROM" "$EXPIRED_TO" "$EXT_INTERMEDIATE"

# --- manifest ---------------------------------------------------------------------------------
# Each case is written to the manifest and checked with `openssl verify` (always -partial_chain,
# because manifest anchors are name + key, and -x509_strict).
CASES=()
OPENSSL_REPORT=()
DISAGREE=0

# openssl verify error numbers that mean the same thing as a manifest failure code.
openssl_codes() {
  case "$1" in
    expired) echo 10 ;;
    notYetValid) echo 9 ;;
    issuerNotFound) echo "2 20" ;;
    selfSignedNotTrusted) echo 18 ;;
    noTrustedAnchor) echo 19 ;;
    extendedKeyUsageForbids) echo 26 ;;
    hostnameMismatch) echo "62 64" ;;
    pathLengthExceeded) echo 25 ;;
    notACertificateAuthority) echo 79 ;;
    badSignature) echo 7 ;;
    *) echo "unknown failure code $1" >&2; exit 1 ;;
  esac
}

json_list() { # space-separated words -> JSON array of strings
  local out="" w
  for w in $1; do out+="${out:+, }\"$w\""; done
  printf '[%s]' "$out"
}

# add_case ID PURPOSE REF EXPECTED FAILURE LEAF "INTERMEDIATES" "ANCHORS" DESCRIPTION
#   REF is "" or hostname=NAME or ip=ADDRESS; FAILURE is "" for trusted cases.
add_case() {
  local id=$1 purpose=$2 ref=$3 expected=$4 failure=$5 leaf=$6 inter=$7 anchors=$8 desc=$9
  local f json
  for f in $leaf $inter $anchors; do [ -f "$f" ] || { echo "$id: missing $f" >&2; exit 1; }; done
  json="    {\"id\": \"$id\",\n      \"description\": \"$desc\",\n"
  json+="      \"leaf\": \"$leaf\", \"intermediates\": $(json_list "$inter"), \"anchors\": $(json_list "$anchors"),\n"
  json+="      \"purpose\": \"$purpose\""
  case "$ref" in
    hostname=*) json+=", \"hostname\": \"${ref#hostname=}\"" ;;
    ip=*) json+=", \"ip\": \"${ref#ip=}\"" ;;
  esac
  json+=", \"time\": \"$CASE_TIME\",\n      \"expected\": \"$expected\""
  [ -n "$failure" ] && json+=", \"failure\": \"$failure\""
  json+="}"
  CASES+=("$json")

  # openssl verify
  cat $anchors > "$WORK/anchors.pem"
  local args=(-x509_strict -partial_chain -attime "$(date -u -d "$CASE_TIME" +%s)"
              -CAfile "$WORK/anchors.pem")
  if [ -n "$inter" ]; then cat $inter > "$WORK/untrusted.pem"; args+=(-untrusted "$WORK/untrusted.pem"); fi
  case "$purpose" in server) args+=(-purpose sslserver) ;; client) args+=(-purpose sslclient) ;; esac
  case "$ref" in
    hostname=*) args+=(-verify_hostname "${ref#hostname=}") ;;
    ip=*) args+=(-verify_ip "${ref#ip=}") ;;
  esac
  local out code agree
  out=$(openssl verify "${args[@]}" "$leaf" 2>&1) && code=0 || code=$(
    sed -n 's/^error \([0-9]*\) at .*/\1/p' <<<"$out" | head -n 1)
  if [ "$expected" = trusted ]; then
    [ "$code" = 0 ] && agree=yes || agree=no
  else
    agree=no
    for c in $(openssl_codes "$failure"); do [ "$code" = "$c" ] && agree=yes; done
  fi
  local msg
  msg=$(grep -m1 '^error ' <<<"$out" | sed 's/^error [0-9]* at [0-9]* depth lookup: //') || msg=OK
  OPENSSL_REPORT+=("$(printf '%-34s %-10s %-25s openssl: %-4s %-40s agrees: %s' \
    "$id" "$expected" "${failure:--}" "${code:-?}" "$msg" "$agree")")
  if [ "$agree" != yes ]; then
    DISAGREE=1
    echo "$id: openssl verify ${args[*]} $leaf" >&2
    echo "$out" >&2
  fi
}

H=hostname=server.customer1.example
RI="rsa/intermediate.pem"; RR="rsa/root.pem"
EI="ecdsa/intermediate.pem"; ER="ecdsa/root.pem"

add_case rsa-server-hostname server $H trusted "" rsa/server.pem "$RI" "$RR" \
  "RSA server certificate, matched by its SAN dNSName"
add_case rsa-server-ip server ip=192.0.2.10 trusted "" rsa/server.pem "$RI" "$RR" \
  "RSA server certificate, matched by its SAN iPAddress"
add_case rsa-client client "" trusted "" rsa/client.pem "$RI" "$RR" \
  "RSA client certificate (clientAuth, SAN rfc822Name and dNSName)"
add_case ecdsa-server-hostname server $H trusted "" ecdsa/server.pem "$EI" "$ER" \
  "ECDSA P-256 server certificate, matched by its SAN dNSName"
add_case ecdsa-server-ip server ip=192.0.2.10 trusted "" ecdsa/server.pem "$EI" "$ER" \
  "ECDSA P-256 server certificate, matched by its SAN iPAddress"
add_case ecdsa-client client "" trusted "" ecdsa/client.pem "$EI" "$ER" \
  "ECDSA P-256 client certificate"
add_case rsa-server-hostname-mismatch server hostname=www.customer2.example untrusted hostnameMismatch \
  rsa/server.pem "$RI" "$RR" "Valid server certificate, but for another host name"
add_case rsa-server-ip-mismatch server ip=192.0.2.11 untrusted hostnameMismatch \
  rsa/server.pem "$RI" "$RR" "Valid server certificate, but for another IP address"
add_case rsa-client-as-server server hostname=client.customer1.example untrusted extendedKeyUsageForbids \
  rsa/client.pem "$RI" "$RR" "Client certificate (EKU clientAuth only) presented as a server; its SAN dNSName matches"
add_case rsa-server-as-client client "" untrusted extendedKeyUsageForbids \
  rsa/server.pem "$RI" "$RR" "Server certificate (EKU serverAuth only) presented as a client"
add_case rsa-server-wrong-eku server $H untrusted extendedKeyUsageForbids \
  rsa/server-wrong-eku.pem "$RI" "$RR" "Server name and key usage, but EKU clientAuth only"
add_case rsa-server-expired server $H untrusted expired \
  rsa/server-expired.pem "$RI" "$RR" "Server certificate valid 2020-01-01..2021-01-01"
add_case rsa-server-not-yet-valid server $H untrusted notYetValid \
  rsa/server-not-yet-valid.pem "$RI" "$RR" "Server certificate valid 2040-01-01..2045-01-01"
add_case rsa-missing-intermediate server $H untrusted issuerNotFound \
  rsa/server.pem "" "$RR" "The intermediate is not presented; the root did not issue the leaf"
add_case rsa-selfsigned-untrusted server hostname=selfsigned.customer1.example untrusted selfSignedNotTrusted \
  rsa/selfsigned-server.pem "" "$RR" "Self-signed server certificate that is not an anchor"
add_case rsa-selfsigned-anchor server hostname=selfsigned.customer1.example trusted "" \
  rsa/selfsigned-server.pem "" rsa/selfsigned-server.pem "Self-signed server certificate given as the anchor"
add_case rsa-untrusted-root server $H untrusted noTrustedAnchor \
  rsa/server.pem "$RI $RR" rsa/old-root.pem \
  "Complete chain up to its self-signed root, but only the unrelated Old Root is an anchor"
add_case rsa-pathlen-exceeded server $H untrusted pathLengthExceeded \
  rsa/server-under-subca.pem "rsa/subca.pem $RI" "$RR" \
  "A sub-CA below the pathlen:0 intermediate issued the leaf"
add_case rsa-cross-signed-expired-first server $H trusted "" \
  rsa/server.pem "rsa/intermediate-cross-expired.pem $RI" "rsa/old-root.pem $RR" \
  "Intermediate offered twice: expired cross-certificate from Old Root first, valid one from the root second; both roots are anchors, so the builder must backtrack to the valid path"
add_case rsa-cross-signed-expired-only server $H untrusted expired \
  rsa/server.pem "rsa/intermediate-cross-expired.pem" "rsa/old-root.pem" \
  "Only the expired cross-certificate and Old Root are available"
add_case rsa-intermediate-anchor server $H trusted "" rsa/server.pem "" "$RI" \
  "The intermediate itself is the only anchor (anchors are a name and a key)"
add_case rsa-not-a-ca server $H untrusted notACertificateAuthority \
  rsa/server-under-not-a-ca.pem "rsa/not-a-ca.pem" "$RR" \
  "Leaf issued by an end-entity certificate (basicConstraints cA FALSE, no keyUsage) that the root issued"
add_case rsa-bad-signature server $H untrusted badSignature \
  rsa/server-bad-signature.pem "$RI" "$RR" "rsa/server.pem with the last byte of its signature changed"
add_case ecdsa-bad-signature server $H untrusted badSignature \
  ecdsa/server-bad-signature.pem "$EI" "$ER" "ecdsa/server.pem with the last byte of its signature changed"

{
  printf '{\n  "format": "certpath-sample-pki/1",\n  "cases": [\n'
  for i in "${!CASES[@]}"; do
    printf '%b' "${CASES[$i]}"
    [ "$i" -lt $(( ${#CASES[@]} - 1 )) ] && printf ','
    printf '\n'
  done
  printf '  ]\n}\n'
} > manifest.json
if command -v jq >/dev/null; then jq -e . manifest.json >/dev/null; fi

printf '%s\n' "${OPENSSL_REPORT[@]}"
if [ "$DISAGREE" != 0 ]; then echo "openssl verify disagrees with the manifest (see above)" >&2; exit 1; fi
echo "sample PKI written to $HERE (${#CASES[@]} cases, openssl verify agrees with all)"
