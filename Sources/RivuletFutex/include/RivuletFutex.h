// The two futex calls and the spin-wait hint behind RxSwift's inline lock on Linux
// (`LockCell` in Sources/RxSwift/Internal/Locking/Platform.swift). Swift cannot call
// the variadic `syscall` itself, and its standard library's `Mutex` offers only the
// priority-inheriting futex, whose unlock hands the lock to a sleeping thread (see
// ARCHITECTURE.md, "The inline lock on Linux").

#ifndef RIVULET_FUTEX_H
#define RIVULET_FUTEX_H

#include <stdint.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Sleeps while `*word` holds `expected` (until a wake, a signal or a spurious return).
static inline void rivulet_futex_wait(uint32_t *word, uint32_t expected) {
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

/// Wakes one thread sleeping on `word`, if any.
static inline void rivulet_futex_wake_one(uint32_t *word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#endif

/// Tells the processor that the thread is spinning on a value another thread will change.
static inline void rivulet_spin_hint(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

#endif
