// `import CertPathTLS` brings libssl's API too (SSL_CTX_new, SSL_new, SSL_connect, SSL_accept…,
// through the package's CLibSSL module, which wraps the system's OpenSSL 3 headers): the supported
// way for a package that depends on the CertPathTLS product to make the `SSL_CTX *` and `SSL *`
// that TLSVerifier works on, without naming an internal target (issue 33).
@_exported import CLibSSL
