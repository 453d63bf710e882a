// The floor's key loading through OpenSSL's decoder framework (d2i_PUBKEY), done once per key
// outside any timed loop.
#include "CBenchSupport.h"

#include <openssl/x509.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/objects.h>

void *cbs_load_public_key(const uint8_t *der, size_t length) {
    const unsigned char *cursor = der;
    return d2i_PUBKEY(NULL, &cursor, (long)length);
}

// A fresh EC key pair on the curve named `curve` (OpenSSL short name, e.g. "secp384r1"), its
// public key written as SubjectPublicKeyInfo DER to `out`; the DER's length, or 0 when libcrypto
// refuses or `capacity` is too small. The private key is discarded (decoy issuers in the
// `hostile/decoys-*` scenarios need valid public keys, not signatures).
size_t cbs_ec_spki(const char *curve, uint8_t *out, size_t capacity) {
    int nid = OBJ_sn2nid(curve);
    if (nid == NID_undef) return 0;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, NULL);
    if (context == NULL) return 0;
    EVP_PKEY *key = NULL;
    size_t written = 0;
    if (EVP_PKEY_keygen_init(context) == 1 && EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, nid) == 1
        && EVP_PKEY_keygen(context, &key) == 1) {
        int length = i2d_PUBKEY(key, NULL);
        if (length > 0 && (size_t)length <= capacity) {
            unsigned char *cursor = out;
            written = (size_t)i2d_PUBKEY(key, &cursor);
        }
    }
    EVP_PKEY_free(key);
    EVP_PKEY_CTX_free(context);
    return written;
}

// A fresh EC key pair on `curve` (as cbs_ec_spki) kept for signing: returns the `EVP_PKEY *` (free
// with cbs_key_free) and writes its SubjectPublicKeyInfo DER to `spki` (`*spki_length` bytes).
void *cbs_ec_keypair(const char *curve, uint8_t *spki, size_t capacity, size_t *spki_length) {
    *spki_length = 0;
    int nid = OBJ_sn2nid(curve);
    if (nid == NID_undef) return NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, NULL);
    if (context == NULL) return NULL;
    EVP_PKEY *key = NULL;
    if (EVP_PKEY_keygen_init(context) != 1 || EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, nid) != 1
        || EVP_PKEY_keygen(context, &key) != 1) {
        EVP_PKEY_CTX_free(context);
        return NULL;
    }
    EVP_PKEY_CTX_free(context);
    int length = i2d_PUBKEY(key, NULL);
    if (length <= 0 || (size_t)length > capacity) {
        EVP_PKEY_free(key);
        return NULL;
    }
    unsigned char *cursor = spki;
    *spki_length = (size_t)i2d_PUBKEY(key, &cursor);
    return key;
}

// An ECDSA-with-SHA256 signature (DER Ecdsa-Sig-Value) of `message` by `key`; its length, or 0.
size_t cbs_sign_sha256(void *key, const uint8_t *message, size_t length, uint8_t *signature, size_t capacity) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context == NULL) return 0;
    size_t written = capacity;
    if (EVP_DigestSignInit(context, NULL, EVP_sha256(), NULL, (EVP_PKEY *)key) != 1
        || EVP_DigestSign(context, signature, &written, message, length) != 1) {
        written = 0;
    }
    EVP_MD_CTX_free(context);
    return written;
}

void cbs_key_free(void *key) { EVP_PKEY_free((EVP_PKEY *)key); }

int cbs_verify_sha256(void *key, const uint8_t *signature, size_t signature_length,
                      const uint8_t *message, size_t message_length) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context == NULL) return 0;
    int verified = EVP_DigestVerifyInit(context, NULL, EVP_sha256(), NULL, (EVP_PKEY *)key) == 1
        && EVP_DigestVerify(context, signature, signature_length, message, message_length) == 1;
    EVP_MD_CTX_free(context);
    return verified;
}
