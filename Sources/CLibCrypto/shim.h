// The libcrypto (OpenSSL 3) surface CertPath uses: digests, public keys built from their
// components, and signature verification. Nothing else of OpenSSL is reached from Swift.
#ifndef CERTPATH_CLIBCRYPTO_SHIM_H
#define CERTPATH_CLIBCRYPTO_SHIM_H

#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/dsa.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <string.h>

#endif
