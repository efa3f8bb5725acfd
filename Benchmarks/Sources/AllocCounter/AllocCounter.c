// Counts heap allocations by interposing the malloc family: the executable defines
// malloc, calloc, realloc, free, posix_memalign, aligned_alloc and memalign, which
// take precedence over glibc's for the whole process (the Swift runtime included),
// and forward to glibc's own entry points (__libc_malloc and friends).

#include "AllocCounter.h"

#include <stdatomic.h>
#include <stddef.h>

#if defined(__linux__) && defined(__GLIBC__)

#include <errno.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static atomic_int counting_enabled;
static atomic_uint_fast64_t allocations;
static atomic_uint_fast64_t frees;

static inline void count_allocation(void) {
    if (atomic_load_explicit(&counting_enabled, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    }
}

static inline void count_free(void) {
    if (atomic_load_explicit(&counting_enabled, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
    }
}

void *malloc(size_t size) {
    count_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_allocation();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    void *result = __libc_realloc(pointer, size);
    // A new block (from NULL, or moved elsewhere) counts as an allocation; a block
    // that grows in place does not.
    if (result != NULL && result != pointer) {
        count_allocation();
        if (pointer != NULL) count_free();
    }
    return result;
}

void free(void *pointer) {
    if (pointer == NULL) return;
    count_free();
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) {
        return EINVAL;
    }
    count_allocation();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

int alloc_counter_available(void) { return 1; }

void alloc_counter_set_enabled(int enabled) {
    atomic_store_explicit(&counting_enabled, enabled ? 1 : 0, memory_order_relaxed);
}

uint64_t alloc_counter_allocations(void) {
    return atomic_load_explicit(&allocations, memory_order_relaxed);
}

uint64_t alloc_counter_frees(void) {
    return atomic_load_explicit(&frees, memory_order_relaxed);
}

#else

int alloc_counter_available(void) { return 0; }
void alloc_counter_set_enabled(int enabled) { (void)enabled; }
uint64_t alloc_counter_allocations(void) { return 0; }
uint64_t alloc_counter_frees(void) { return 0; }

#endif

void *bench_opaque_pointer(void *pointer) { return pointer; }

void bench_black_hole(int64_t value) {
    static volatile int64_t sink;
    sink = value;
}

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>

uint64_t bench_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (uint64_t)(info.uordblks + info.hblkhd);
}
#else
uint64_t bench_heap_in_use(void) {
    return 0;
}
#endif
