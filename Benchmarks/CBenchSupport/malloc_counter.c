// Counts heap allocations per thread by interposing the C allocator (see CBenchSupport.h).
// The executable defines these symbols, so the dynamic linker binds every shared library's
// malloc (the Swift runtime's, libcrypto's) to them; each forwards to glibc's allocator.
#include "CBenchSupport.h"

#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

// Initial-exec TLS lives in the static TLS block: reading it never calls malloc.
static __thread uint64_t allocations __attribute__((tls_model("initial-exec")));
static volatile int active;

static inline void count(void) {
    allocations++;
}

void *malloc(size_t size) {
    count();
    active = 1;
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count();
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    count();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    __libc_free(pointer);
}

static int valid_alignment(size_t alignment) {
    return alignment != 0 && (alignment & (alignment - 1)) == 0 && alignment % sizeof(void *) == 0;
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (!valid_alignment(alignment)) return EINVAL;
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *valloc(size_t size) {
    count();
    return __libc_memalign(4096, size);
}

uint64_t cmc_thread_allocations(void) {
    return allocations;
}

int cmc_is_active(void) {
    return active;
}
