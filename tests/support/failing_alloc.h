#ifndef COMBATD_TEST_FAILING_ALLOC_H
#define COMBATD_TEST_FAILING_ALLOC_H

/*
 * A failing allocator for one test executable: include it in ONE file of the executable (it
 * defines malloc, calloc and realloc). Header-only, like api_test.h, so a test needs no build
 * edit to use it. Where FAILING_ALLOCATOR is 0 (ASan owns malloc) the cases that need it are
 * left out, as the sweep of tests/alloc is.
 */
#include <stdbool.h>
#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__)
#define FAILING_ALLOCATOR 0 /* ASan owns malloc: nothing can sit in front of it (tests/alloc) */
#else
#define FAILING_ALLOCATOR 1
/*
 * malloc, calloc and realloc of this process, as tests/alloc/failshim.c replaces them for the
 * server: while armed on this thread, the calls are counted and the fail_at-th returns NULL
 * (0: count only). Criterion's own threads and calls outside arm and disarm are untouched.
 */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

static _Thread_local bool fa_armed __attribute__((tls_model("initial-exec")));
static _Thread_local long fa_calls __attribute__((tls_model("initial-exec")));
static _Thread_local long fa_fail_at __attribute__((tls_model("initial-exec")));

static inline bool fa_should_fail(void) {
    return fa_armed && ++fa_calls == fa_fail_at;
}

void *malloc(size_t size) {
    return fa_should_fail() ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
    return fa_should_fail() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t size) {
    return fa_should_fail() ? NULL : __libc_realloc(p, size);
}

static inline void failing_alloc_arm(long at) {
    fa_calls = 0;
    fa_fail_at = at;
    fa_armed = true;
}

/* The allocations counted since arm. */
static inline long failing_alloc_disarm(void) {
    fa_armed = false;
    return fa_calls;
}
#endif

#endif
