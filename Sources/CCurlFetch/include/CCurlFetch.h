// One HTTP exchange through libcurl, opened with dlopen on first use: `certpath verify --fetch` is the
// only user, so libcurl and what it links (TLS, Kerberos, LDAP, IDN…) never load without it.
// No curl header is needed: the few prototypes and constants used are declared in CCurlFetch.c
// (libcurl's ABI, stable since 7.x: soname libcurl.so.4).
#ifndef CCURLFETCH_H
#define CCURLFETCH_H

#include <stddef.h>

/// How one exchange ended.
typedef enum {
    CERTPATH_HTTP_OK = 0,            ///< a complete response: `status`, `body`, `location`
    CERTPATH_HTTP_TOO_LARGE = 1,     ///< the body passed `limit` bytes (the transfer was stopped)
    CERTPATH_HTTP_TIMED_OUT = 2,     ///< `timeout_ms` passed
    CERTPATH_HTTP_CODED = 3,         ///< a Content-Encoding other than identity (in `detail`), refused at the headers
    CERTPATH_HTTP_TRANSPORT = 4,     ///< libcurl's error text in `detail`
    CERTPATH_HTTP_UNAVAILABLE = 5,   ///< libcurl.so.4 could not be loaded (dlerror's text in `detail`)
} certpath_http_outcome;

/// The result of ``certpath_http_exchange``; free `body` with ``certpath_http_free``.
typedef struct {
    certpath_http_outcome outcome;
    long status;             ///< the HTTP status code (0 when no response)
    unsigned char *body;     ///< malloc'ed body bytes (NULL when empty)
    size_t length;           ///< bytes in `body`
    char location[512];      ///< the Location header as sent (for 3xx), truncated, NUL-terminated
    char redirect_url[2048]; ///< the Location resolved against the request URL by libcurl, or ""
    char detail[256];        ///< the reason for TRANSPORT, CODED and UNAVAILABLE
} certpath_http_result;

/// One HTTP/1.x exchange (no redirect followed, no cookies, no cache, `Accept-Encoding: identity`,
/// http:// only): GET `url`, or POST `post_length` bytes of `post` with `Content-Type: content_type`
/// when `post` is not NULL. Thread-safe; returns `result->outcome`.
certpath_http_outcome certpath_http_exchange(const char *url, const unsigned char *post, size_t post_length,
                                             const char *content_type, long timeout_ms, size_t limit,
                                             certpath_http_result *result);

/// Frees what ``certpath_http_exchange`` allocated in `result`.
void certpath_http_free(certpath_http_result *result);

/// Whether libcurl has been loaded in this process (for the start-up test: it must not be, without --fetch).
int certpath_http_loaded(void);

#endif
