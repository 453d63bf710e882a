// Signing for the path-building fuzz target: a few fixed ECDSA P-256 test keys and deterministic
// signatures (the nonce is derived from the key and the message, so one fuzz input always yields the
// same certificates). Test keys only; nothing here is meant for real use.
#ifndef CERTPATH_FUZZ_SIGNER_H
#define CERTPATH_FUZZ_SIGNER_H

#include <stddef.h>
#include <stdint.h>

/// The number of fixed keys (indices 0 ..< count).
int certpath_fuzz_key_count(void);

/// The DER SubjectPublicKeyInfo of key `index` (id-ecPublicKey, P-256, uncompressed point): stores a
/// pointer valid for the life of the process in `*der` and returns its length; 0 for a bad index.
size_t certpath_fuzz_key_spki(int index, const uint8_t **der);

/// Signs SHA-256(`message`) with key `index`: writes the DER Ecdsa-Sig-Value (RFC 3279 2.2.3) to
/// `out` (at least 80 bytes) and returns its length; 0 on failure or a bad index.
size_t certpath_fuzz_sign(int index, const uint8_t *message, size_t length, uint8_t *out, size_t capacity);

#endif
