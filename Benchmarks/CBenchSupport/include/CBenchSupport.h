// C support for the CertPath benchmark, linked only into the certpath-bench executable, never
// into the library:
// - heap allocation counting: this target defines malloc, calloc, realloc, free and the aligned
//   allocators, forwarding each to glibc's own implementation (__libc_malloc, ...) after counting
//   it in a per-thread counter;
// - the floor's key loading: d2i_PUBKEY, declared in <openssl/x509.h>, which the library's
//   CLibCrypto shim does not include;
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

/// Pins the calling thread to `cpu` (0-based); 0 on success, -1 when the system refuses.
int cbs_pin_to_cpu(int cpu);

/// The CPUs this process may run on.
int cbs_cpu_count(void);

#endif
