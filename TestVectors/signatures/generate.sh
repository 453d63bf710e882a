#!/bin/sh
# Generates the signature test vectors of Tests/CertPathTests/CryptoVerificationTests.swift.
# Run ONCE with the openssl CLI (OpenSSL 3); the outputs are committed and the tests never run
# openssl. Re-running makes new keys and new signatures (ECDSA and PSS are randomized), so the
# committed files change as a whole.
#
# Outputs, all in this directory:
#   message.bin               the signed message (bytes of a short text)
#   <key>.key.pem             the private key (test-only)
#   <key>.spki.der            its SubjectPublicKeyInfo, DER
#   <name>.sig                a signature over message.bin, raw bytes (ECDSA: DER ECDSA-Sig-Value)
# where <key> is rsa2048, p256, p384, p521, ed25519, ed448 and <name> is listed below; and
#   expectations.txt          one line per signature: file, key, algorithm, expected result (the
#                             cases of CryptoVerificationTests), written first; `generate.sh
#                             --expectations-only` writes only it (scripts/check-expectations).
# Algorithms: pkcs1-<hash> (RFC 8017 8.2), pss-<hash>-<salt octets> (RFC 8017 8.1, MGF1 of the same
# hash), ecdsa-<hash> (RFC 5758 3.2), ed25519, ed448 (RFC 8032); every signature here verifies.
set -eu
cd "$(dirname "$0")"

{
    echo "# Expected results of TestVectors/signatures, written by TestVectors/signatures/generate.sh: do not edit, run it again."
    printf '# signature\tkey\talgorithm\tresult\n'
    for hash in sha1 sha256 sha384 sha512; do printf 'rsa2048-pkcs1-%s.sig\trsa2048.spki.der\tpkcs1-%s\tverified\n' "$hash" "$hash"; done
    for pair in sha256:32 sha384:48 sha512:64; do
        hash=${pair%%:*}; salt=${pair##*:}
        printf 'rsa2048-pss-%s.sig\trsa2048.spki.der\tpss-%s-%s\tverified\n' "$hash" "$hash" "$salt"
    done
    printf 'p256-sha256.sig\tp256.spki.der\tecdsa-sha256\tverified\n'
    printf 'p384-sha384.sig\tp384.spki.der\tecdsa-sha384\tverified\n'
    printf 'p521-sha512.sig\tp521.spki.der\tecdsa-sha512\tverified\n'
    printf 'ed25519.sig\ted25519.spki.der\ted25519\tverified\n'
    printf 'ed448.sig\ted448.spki.der\ted448\tverified\n'
} > "${EXPECTATIONS_OUTPUT:-expectations.txt}"
[ "${1:-}" = --expectations-only ] && exit 0

printf 'CertPath signature test vector: the quick brown fox jumps over the lazy dog.\n' > message.bin

openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -pkeyopt rsa_keygen_pubexp:65537 -out rsa2048.key.pem
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -pkeyopt ec_param_enc:named_curve -out p256.key.pem
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -pkeyopt ec_param_enc:named_curve -out p384.key.pem
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-521 -pkeyopt ec_param_enc:named_curve -out p521.key.pem
openssl genpkey -algorithm ED25519 -out ed25519.key.pem
openssl genpkey -algorithm ED448 -out ed448.key.pem

for key in rsa2048 p256 p384 p521 ed25519 ed448; do
    openssl pkey -in "$key.key.pem" -pubout -outform DER -out "$key.spki.der"
done

# RSASSA-PKCS1-v1_5 (RFC 8017 8.2)
for hash in sha1 sha256 sha384 sha512; do
    openssl dgst "-$hash" -sign rsa2048.key.pem -out "rsa2048-pkcs1-$hash.sig" message.bin
done

# RSASSA-PSS (RFC 8017 8.1), MGF1 with the same hash, salt length = hash length (RFC 4055 3.1)
for hash in sha256 sha384 sha512; do
    openssl dgst "-$hash" -sign rsa2048.key.pem \
        -sigopt rsa_padding_mode:pss -sigopt "rsa_mgf1_md:$hash" -sigopt rsa_pss_saltlen:digest \
        -out "rsa2048-pss-$hash.sig" message.bin
done

# ECDSA (RFC 5758 3.2), DER ECDSA-Sig-Value
openssl dgst -sha256 -sign p256.key.pem -out p256-sha256.sig message.bin
openssl dgst -sha384 -sign p384.key.pem -out p384-sha384.sig message.bin
openssl dgst -sha512 -sign p521.key.pem -out p521-sha512.sig message.bin

# PureEdDSA (RFC 8032, RFC 8410)
openssl pkeyutl -sign -rawin -inkey ed25519.key.pem -in message.bin -out ed25519.sig
openssl pkeyutl -sign -rawin -inkey ed448.key.pem -in message.bin -out ed448.sig

# Self-check with the same CLI, so a broken vector is caught here and not in the tests.
for hash in sha1 sha256 sha384 sha512; do
    openssl dgst "-$hash" -verify rsa2048.spki.der -keyform DER -signature "rsa2048-pkcs1-$hash.sig" message.bin
done
for hash in sha256 sha384 sha512; do
    openssl dgst "-$hash" -verify rsa2048.spki.der -keyform DER -signature "rsa2048-pss-$hash.sig" \
        -sigopt rsa_padding_mode:pss -sigopt "rsa_mgf1_md:$hash" -sigopt rsa_pss_saltlen:digest message.bin
done
openssl dgst -sha256 -verify p256.spki.der -keyform DER -signature p256-sha256.sig message.bin
openssl dgst -sha384 -verify p384.spki.der -keyform DER -signature p384-sha384.sig message.bin
openssl dgst -sha512 -verify p521.spki.der -keyform DER -signature p521-sha512.sig message.bin
openssl pkeyutl -verify -rawin -pubin -keyform DER -inkey ed25519.spki.der -in message.bin -sigfile ed25519.sig
openssl pkeyutl -verify -rawin -pubin -keyform DER -inkey ed448.spki.der -in message.bin -sigfile ed448.sig
