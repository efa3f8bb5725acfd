#ifndef RIVULET_BENCH_ALLOC_COUNTER_H
#define RIVULET_BENCH_ALLOC_COUNTER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when this process's malloc family is interposed (Linux with glibc), else 0.
int alloc_counter_available(void);

/// Turns counting on or off (off at start, so timed runs pay nothing for it).
void alloc_counter_set_enabled(int enabled);

/// Heap allocations (malloc, calloc, realloc of NULL or to a new block,
/// posix_memalign, aligned_alloc, memalign) counted on every thread while enabled.
uint64_t alloc_counter_allocations(void);

/// Calls to free (of a non-NULL pointer) counted on every thread while enabled.
uint64_t alloc_counter_frees(void);

/// Returns its argument; compiled apart from the Swift code, so the optimizer cannot
/// see through it (used to hide the floor's closures).
void *bench_opaque_pointer(void *pointer);

/// Bytes of heap in use (glibc's mallinfo2: allocated and not freed, mapped blocks included); 0 where unknown.
uint64_t bench_heap_in_use(void);

/// Consumes a value so the optimizer must compute it.
void bench_black_hole(int64_t value);

/// Atomic operations on a 64-bit word, for the multi-threaded scenarios' counters and
/// flags (inline: a load or a store is one instruction on x86-64 and arm64).
static inline int64_t bench_atomic_load(const int64_t *word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

static inline void bench_atomic_store(int64_t *word, int64_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

/// Adds `delta`; returns the new value.
static inline int64_t bench_atomic_add(int64_t *word, int64_t delta) {
    return __atomic_add_fetch(word, delta, __ATOMIC_ACQ_REL);
}

#ifdef __cplusplus
}
#endif

#endif
