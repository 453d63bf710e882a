// Deterministic ECDSA P-256 with fixed keys, for generating fuzz certificates quickly and
// reproducibly. The nonce is k = SHA-256(private key || digest || counter) mod n: deterministic,
// good enough for test keys (not RFC 6979; never use these keys or this signer for anything real).
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include "CFuzzSigner.h"

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <pthread.h>
#include <string.h>

#define KEY_COUNT 4

// Generated once with `openssl ecparam -name prime256v1 -genkey`.
static const char *const private_keys[KEY_COUNT] = {
    "b89cdeeba06236b8dc1b2ae10914114dd900472cc0f8687351b00f5db11868ee",
    "9eed3266b9cd979af318504f91a4cee7f07315f4f255db82f911f49669615a55",
    "a1bb228ba53b396f6732394d8ae935395a9f5a5247e6720e91f7c2a8c50c102b",
    "ac31bbab8ee7bb79a7b3b305396c33081a90fe274fd725ff421bff0be08ba216",
};

static EC_KEY *keys[KEY_COUNT];
static uint8_t private_bytes[KEY_COUNT][32];
static uint8_t *spki[KEY_COUNT];
static size_t spki_length[KEY_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load_keys(void) {
    BN_CTX *ctx = BN_CTX_new();
    for (int i = 0; i < KEY_COUNT; i++) {
        BIGNUM *d = NULL;
        BN_hex2bn(&d, private_keys[i]);
        EC_KEY *key = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
        const EC_GROUP *group = EC_KEY_get0_group(key);
        EC_POINT *q = EC_POINT_new(group);
        EC_POINT_mul(group, q, d, NULL, NULL, ctx);
        EC_KEY_set_private_key(key, d);
        EC_KEY_set_public_key(key, q);
        BN_bn2binpad(d, private_bytes[i], 32);
        EC_POINT_free(q);
        BN_free(d);
        keys[i] = key;

        EVP_PKEY *pkey = EVP_PKEY_new();
        EVP_PKEY_set1_EC_KEY(pkey, key);
        uint8_t *der = NULL;
        int length = i2d_PUBKEY(pkey, &der);
        EVP_PKEY_free(pkey);
        spki[i] = length > 0 ? der : NULL;
        spki_length[i] = length > 0 ? (size_t)length : 0;
    }
    BN_CTX_free(ctx);
}

int certpath_fuzz_key_count(void) { return KEY_COUNT; }

size_t certpath_fuzz_key_spki(int index, const uint8_t **der) {
    pthread_once(&once, load_keys);
    if (index < 0 || index >= KEY_COUNT || spki[index] == NULL) return 0;
    *der = spki[index];
    return spki_length[index];
}

size_t certpath_fuzz_sign(int index, const uint8_t *message, size_t length, uint8_t *out, size_t capacity) {
    pthread_once(&once, load_keys);
    if (index < 0 || index >= KEY_COUNT || keys[index] == NULL || capacity < 80) return 0;
    EC_KEY *key = keys[index];
    const EC_GROUP *group = EC_KEY_get0_group(key);
    const BIGNUM *order = EC_GROUP_get0_order(group);

    uint8_t digest[32];
    SHA256(message, length, digest);

    size_t result = 0;
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *k = BN_new(), *kinv = NULL, *x = BN_new(), *r = BN_new();
    EC_POINT *point = EC_POINT_new(group);
    for (uint8_t counter = 0; counter < 8 && result == 0; counter++) {
        uint8_t seed[32 + 32 + 1], nonce[32];
        memcpy(seed, private_bytes[index], 32);
        memcpy(seed + 32, digest, 32);
        seed[64] = counter;
        SHA256(seed, sizeof seed, nonce);
        BN_bin2bn(nonce, 32, k);
        if (!BN_nnmod(k, k, order, ctx) || BN_is_zero(k)) continue;
        if (!EC_POINT_mul(group, point, k, NULL, NULL, ctx)) continue;
        if (!EC_POINT_get_affine_coordinates(group, point, x, NULL, ctx)) continue;
        if (!BN_nnmod(r, x, order, ctx) || BN_is_zero(r)) continue;
        BN_free(kinv);
        kinv = BN_mod_inverse(NULL, k, order, ctx);
        if (kinv == NULL) continue;
        ECDSA_SIG *signature = ECDSA_do_sign_ex(digest, 32, kinv, r, key);
        if (signature == NULL) continue;
        int needed = i2d_ECDSA_SIG(signature, NULL);
        if (needed > 0 && (size_t)needed <= capacity) {
            uint8_t *cursor = out;
            result = (size_t)i2d_ECDSA_SIG(signature, &cursor);
        }
        ECDSA_SIG_free(signature);
    }
    EC_POINT_free(point);
    BN_free(k);
    BN_free(kinv);
    BN_free(x);
    BN_free(r);
    BN_CTX_free(ctx);
    return result;
}
