// The libssl (OpenSSL 3) surface CertPathTLS uses: SSL_CTX / SSL set-up, the certificate verify
// callback, the peer chain, stapled OCSP. Only CertPathTLS (and the handshake benchmark) import
// this module, so the CertPath product stays libcrypto-only.
//
// OpenSSL defines several of these operations as macros over SSL_ctrl / SSL_CTX_callback_ctrl or
// as type-generic stack macros, which Swift cannot import; the static inline functions below
// give them a typed C signature.
#ifndef CERTPATH_CLIBSSL_SHIM_H
#define CERTPATH_CLIBSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/tls1.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

/// SSL_set_tlsext_status_type(ssl, TLSEXT_STATUSTYPE_ocsp): ask the server to staple (RFC 6066 8).
static inline long certpath_ssl_request_ocsp_staple(SSL *ssl) {
    return SSL_set_tlsext_status_type(ssl, TLSEXT_STATUSTYPE_ocsp);
}

/// Whether a stapled OCSP response was asked for on ssl (SSL_get_tlsext_status_type).
static inline int certpath_ssl_ocsp_staple_requested(SSL *ssl) {
    return SSL_get_tlsext_status_type(ssl) == TLSEXT_STATUSTYPE_ocsp;
}

/// SSL_get_tlsext_status_ocsp_resp: the stapled response's length (-1 when none) and bytes (owned by ssl).
static inline long certpath_ssl_stapled_ocsp(SSL *ssl, const unsigned char **response) {
    unsigned char *bytes = NULL;
    long length = SSL_get_tlsext_status_ocsp_resp(ssl, &bytes);
    *response = bytes;
    return length;
}

/// SSL_set_tlsext_host_name: the SNI name (RFC 6066 3).
static inline int certpath_ssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// SSL_CTX_set_tlsext_status_cb and SSL_CTX_set_tlsext_status_arg.
static inline void certpath_ssl_ctx_set_status_callback(SSL_CTX *ctx, int (*callback)(SSL *, void *), void *arg) {
    SSL_CTX_set_tlsext_status_cb(ctx, callback);
    SSL_CTX_set_tlsext_status_arg(ctx, arg);
}

/// SSL_CTX_set_min_proto_version / SSL_CTX_set_max_proto_version (0: no bound).
static inline int certpath_ssl_ctx_set_versions(SSL_CTX *ctx, int minimum, int maximum) {
    return SSL_CTX_set_min_proto_version(ctx, minimum) == 1 && SSL_CTX_set_max_proto_version(ctx, maximum) == 1;
}

/// SSL_get_ex_new_index / SSL_CTX_get_ex_new_index with only a free function.
static inline int certpath_ssl_ex_index(CRYPTO_EX_free *free_function) {
    return CRYPTO_get_ex_new_index(CRYPTO_EX_INDEX_SSL, 0, NULL, NULL, NULL, free_function);
}
static inline int certpath_ssl_ctx_ex_index(CRYPTO_EX_free *free_function) {
    return CRYPTO_get_ex_new_index(CRYPTO_EX_INDEX_SSL_CTX, 0, NULL, NULL, NULL, free_function);
}

/// The SSL a verify callback's X509_STORE_CTX belongs to.
static inline SSL *certpath_store_ctx_ssl(X509_STORE_CTX *ctx) {
    return (SSL *)X509_STORE_CTX_get_ex_data(ctx, SSL_get_ex_data_X509_STORE_CTX_idx());
}

/// sk_X509_num / sk_X509_value on a possibly NULL stack.
static inline int certpath_x509_stack_count(const STACK_OF(X509) *stack) {
    return stack == NULL ? 0 : sk_X509_num(stack);
}
static inline X509 *certpath_x509_stack_value(const STACK_OF(X509) *stack, int index) {
    return sk_X509_value(stack, index);
}

/// BIO_get_mem_data: the bytes pending in a memory BIO.
static inline long certpath_bio_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

/// The CA names of a server's CertificateRequest, on the client side (SSL_get_client_CA_list):
/// how many (0 when none were named or no request came), and the DER of one (caller frees).
static inline int certpath_ssl_requested_ca_count(const SSL *ssl) {
    STACK_OF(X509_NAME) *names = SSL_get_client_CA_list(ssl);
    return names == NULL ? 0 : sk_X509_NAME_num(names);
}
static inline int certpath_ssl_requested_ca_der(const SSL *ssl, int index, unsigned char **der) {
    STACK_OF(X509_NAME) *names = SSL_get_client_CA_list(ssl);
    if (names == NULL || index < 0 || index >= sk_X509_NAME_num(names)) return -1;
    *der = NULL;
    return i2d_X509_NAME(sk_X509_NAME_value(names, index), der);
}

#endif
