// The floor's key loading through OpenSSL's decoder framework (d2i_PUBKEY), done once per key
// outside any timed loop.
#include "CBenchSupport.h"

#include <openssl/x509.h>

void *cbs_load_public_key(const uint8_t *der, size_t length) {
    const unsigned char *cursor = der;
    return d2i_PUBKEY(NULL, &cursor, (long)length);
}
