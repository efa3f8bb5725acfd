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

#ifdef __cplusplus
}
#endif

#endif
