// C support for the CertPath benchmark, linked only into the certpath-bench executable, never
// into the library:
// - heap allocation counting: this target defines malloc, calloc, realloc, free and the aligned
//   allocators, forwarding each to glibc's own implementation (__libc_malloc, ...) after counting
//   it in a per-thread counter;
// - the floor's key loading and its one signature check (EVP_DigestVerify): d2i_PUBKEY, declared in <openssl/x509.h>, which the library's
//   CLibCrypto shim does not include; fresh EC public keys for the decoy scenarios (i2d_PUBKEY);
// - CPU affinity for the thread-scaling scenarios.
#ifndef CERTPATH_CBENCHSUPPORT_H
#define CERTPATH_CBENCHSUPPORT_H

#include <stddef.h>
#include <stdint.h>

/// Heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign, valloc)
/// made by the calling thread since it started.
uint64_t cmc_thread_allocations(void);

/// Whether the interposed allocator is in use (its malloc has been called at least once).
int cmc_is_active(void);

/// Loads a public key from SubjectPublicKeyInfo DER with d2i_PUBKEY (an `EVP_PKEY *` to free with
/// EVP_PKEY_free), or NULL when libcrypto refuses it.
void *cbs_load_public_key(const uint8_t *der, size_t length);

/// A fresh EC public key on the curve with OpenSSL short name `curve` ("prime256v1", "secp384r1",
/// "secp521r1"), as SubjectPublicKeyInfo DER in `out`; its length, or 0 on failure.
size_t cbs_ec_spki(const char *curve, uint8_t *out, size_t capacity);

/// A fresh EC key pair on `curve`, kept for signing: the `EVP_PKEY *` (free with cbs_key_free), its
/// SubjectPublicKeyInfo DER in `spki` (`*spki_length` bytes); NULL on failure.
void *cbs_ec_keypair(const char *curve, uint8_t *spki, size_t capacity, size_t *spki_length);

/// An ECDSA-with-SHA256 signature (DER) of `message` by `key` into `signature`; its length, or 0.
size_t cbs_sign_sha256(void *key, const uint8_t *message, size_t length, uint8_t *signature, size_t capacity);

/// The floor's one signature check: a fresh EVP_MD_CTX, EVP_DigestVerifyInit with SHA-256 and
/// `key` (of cbs_load_public_key), EVP_DigestVerify of `signature` over `message`, free; 1 when it
/// verifies, 0 otherwise. (Here rather than in Swift so the benchmark package needs no libcrypto
/// module of its own: CertPath's CLibCrypto is not a product.)
int cbs_verify_sha256(void *key, const uint8_t *signature, size_t signature_length,
                      const uint8_t *message, size_t message_length);

/// Frees a key of cbs_ec_keypair or cbs_load_public_key.
void cbs_key_free(void *key);

/// Pins the calling thread to `cpu` (0-based); 0 on success, -1 when the system refuses.
int cbs_pin_to_cpu(int cpu);

/// The CPUs this process may run on.
int cbs_cpu_count(void);

#endif
