// See include/CCurlFetch.h. The constants below are libcurl's (curl/curl.h, 7.x and 8.x ABI).
#include "CCurlFetch.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>

typedef void CURL;
typedef int CURLcode;
struct curl_slist;

enum {
    CURLE_OK = 0, CURLE_WRITE_ERROR = 23, CURLE_OPERATION_TIMEDOUT = 28,
    CURLE_FILESIZE_EXCEEDED = 63,
};
// CURLOPTTYPE_LONG 0, OBJECTPOINT 10000, FUNCTIONPOINT 20000, OFF_T 30000.
enum {
    CURLOPT_WRITEDATA = 10001, CURLOPT_URL = 10002, CURLOPT_ERRORBUFFER = 10010,
    CURLOPT_WRITEFUNCTION = 20011, CURLOPT_POSTFIELDS = 10015, CURLOPT_HTTPHEADER = 10023,
    CURLOPT_HEADERDATA = 10029, CURLOPT_HEADERFUNCTION = 20079, CURLOPT_NOSIGNAL = 99,
    CURLOPT_FOLLOWLOCATION = 52, CURLOPT_POSTFIELDSIZE_LARGE = 30120, CURLOPT_TIMEOUT_MS = 155,
    CURLOPT_PROTOCOLS = 181, CURLOPT_MAXFILESIZE_LARGE = 30117, CURLOPT_NOPROGRESS = 43,
    CURLOPT_POST = 47,
};
enum { CURLPROTO_HTTP = 1 };
// CURLINFO_LONG 0x200000, CURLINFO_STRING 0x100000.
enum { CURLINFO_RESPONSE_CODE = 0x200000 + 2, CURLINFO_REDIRECT_URL = 0x100000 + 31 };
enum { CURL_GLOBAL_ALL = 3 };

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, int, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, int, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[200];
static int loaded;

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "libcurl unavailable: %s", dlerror());
        return;
    }
#define SYMBOL(field, name) if (!(*(void **)&curl.field = dlsym(library, name))) { \
        snprintf(load_error, sizeof load_error, "libcurl unavailable: no %s", name); return; }
    SYMBOL(global_init, "curl_global_init")
    SYMBOL(easy_init, "curl_easy_init")
    SYMBOL(easy_setopt, "curl_easy_setopt")
    SYMBOL(easy_perform, "curl_easy_perform")
    SYMBOL(easy_getinfo, "curl_easy_getinfo")
    SYMBOL(easy_cleanup, "curl_easy_cleanup")
    SYMBOL(easy_strerror, "curl_easy_strerror")
    SYMBOL(slist_append, "curl_slist_append")
    SYMBOL(slist_free_all, "curl_slist_free_all")
#undef SYMBOL
    if (curl.global_init(CURL_GLOBAL_ALL) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "libcurl unavailable: curl_global_init failed");
        return;
    }
    loaded = 1;
}

int certpath_http_loaded(void) { return loaded; }

typedef struct {
    certpath_http_result *result;
    size_t limit;
    size_t capacity;
    int over;
    int coded;
} transfer;

static size_t on_body(char *data, size_t size, size_t count, void *context) {
    transfer *t = context;
    size_t n = size * count;
    if (t->coded) return 0;
    if (t->result->length + n > t->limit) { t->over = 1; return 0; }
    if (t->result->length + n > t->capacity) {
        size_t capacity = t->capacity ? t->capacity * 2 : 4096;
        while (capacity < t->result->length + n) capacity *= 2;
        if (capacity > t->limit) capacity = t->limit;
        unsigned char *grown = realloc(t->result->body, capacity);
        if (!grown) return 0;
        t->result->body = grown;
        t->capacity = capacity;
    }
    memcpy(t->result->body + t->result->length, data, n);
    t->result->length += n;
    return n;
}

/// Trims `text[0..<length]` of spaces, tabs, CR and LF at both ends.
static void trimmed(const char *text, size_t length, const char **start, size_t *count) {
    while (length && (*text == ' ' || *text == '\t')) { text++; length--; }
    while (length && (text[length - 1] == ' ' || text[length - 1] == '\t' || text[length - 1] == '\r' || text[length - 1] == '\n')) length--;
    *start = text; *count = length;
}

static size_t on_header(char *data, size_t size, size_t count, void *context) {
    transfer *t = context;
    size_t n = size * count;
    // A new status line (an interim 1xx, then the final one) starts a fresh header block.
    if (n >= 5 && strncmp(data, "HTTP/", 5) == 0) { t->result->location[0] = 0; t->coded = 0; return n; }
    const char *colon = memchr(data, ':', n);
    if (!colon) return n;
    size_t name_length = (size_t)(colon - data);
    const char *value; size_t value_length;
    trimmed(colon + 1, n - name_length - 1, &value, &value_length);
    if (name_length == 8 && strncasecmp(data, "Location", 8) == 0) {
        size_t copy = value_length < sizeof t->result->location - 1 ? value_length : sizeof t->result->location - 1;
        memcpy(t->result->location, value, copy);
        t->result->location[copy] = 0;
    } else if (name_length == 16 && strncasecmp(data, "Content-Encoding", 16) == 0) {
        if (value_length && !(value_length == 8 && strncasecmp(value, "identity", 8) == 0)) {
            size_t copy = value_length < 64 ? value_length : 64;
            for (size_t i = 0; i < copy; i++) {
                char c = value[i];
                t->result->detail[i] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
            }
            t->result->detail[copy] = 0;
            t->coded = 1;
        }
    }
    return n;
}

certpath_http_outcome certpath_http_exchange(const char *url, const unsigned char *post, size_t post_length,
                                             const char *content_type, long timeout_ms, size_t limit,
                                             certpath_http_result *result) {
    memset(result, 0, sizeof *result);
    pthread_once(&once, load);
    if (!loaded) {
        snprintf(result->detail, sizeof result->detail, "%s", load_error);
        return result->outcome = CERTPATH_HTTP_UNAVAILABLE;
    }
    CURL *handle = curl.easy_init();
    if (!handle) {
        snprintf(result->detail, sizeof result->detail, "curl_easy_init failed");
        return result->outcome = CERTPATH_HTTP_TRANSPORT;
    }
    transfer t = { .result = result, .limit = limit };
    char errors[256] = "";
    struct curl_slist *headers = curl.slist_append(NULL, "Accept-Encoding: identity");
    char type_header[200];
    if (post) {
        snprintf(type_header, sizeof type_header, "Content-Type: %s", content_type ? content_type : "application/octet-stream");
        headers = curl.slist_append(headers, type_header);
    }
    curl.easy_setopt(handle, CURLOPT_URL, url);
    curl.easy_setopt(handle, CURLOPT_PROTOCOLS, (long)CURLPROTO_HTTP);
    curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 1L);
    curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, timeout_ms > 0 ? timeout_ms : 1L);
    curl.easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE, (long long)limit);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, errors);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, on_body);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, &t);
    curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, on_header);
    curl.easy_setopt(handle, CURLOPT_HEADERDATA, &t);
    if (post) {
        curl.easy_setopt(handle, CURLOPT_POST, 1L);
        curl.easy_setopt(handle, CURLOPT_POSTFIELDS, (const char *)post);
        curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (long long)post_length);
    }
    CURLcode code = curl.easy_perform(handle);
    curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &result->status);
    char *redirect = NULL;
    if (curl.easy_getinfo(handle, CURLINFO_REDIRECT_URL, &redirect) == CURLE_OK && redirect) {
        snprintf(result->redirect_url, sizeof result->redirect_url, "%s", redirect);
    }
    if (t.coded) {
        result->outcome = CERTPATH_HTTP_CODED;
    } else if (t.over || code == CURLE_FILESIZE_EXCEEDED) {
        result->outcome = CERTPATH_HTTP_TOO_LARGE;
    } else if (code == CURLE_OPERATION_TIMEDOUT) {
        result->outcome = CERTPATH_HTTP_TIMED_OUT;
    } else if (code != CURLE_OK) {
        snprintf(result->detail, sizeof result->detail, "%s", errors[0] ? errors : curl.easy_strerror(code));
        result->outcome = CERTPATH_HTTP_TRANSPORT;
    } else {
        result->outcome = CERTPATH_HTTP_OK;
    }
    curl.slist_free_all(headers);
    curl.easy_cleanup(handle);
    if (result->outcome != CERTPATH_HTTP_OK) { free(result->body); result->body = NULL; result->length = 0; }
    return result->outcome;
}

void certpath_http_free(certpath_http_result *result) {
    free(result->body);
    result->body = NULL;
    result->length = 0;
}
