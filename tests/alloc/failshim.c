/*
 * An LD_PRELOAD shim that fails one chosen allocation.
 *
 * It replaces malloc, calloc and realloc (glibc routes its own strdup, asprintf, fopen and
 * friends through them) and counts the calls made while armed, on every thread but the ones
 * that excluded themselves (the test driver's client). The Nth counted call returns NULL with
 * ENOMEM; every other call goes to glibc's allocator.
 *
 * Two ways to drive it:
 * - In one process, per request (tests/alloc/driver.c): the driver finds the functions below
 *   with dlsym, arms the shim just before it sends a request, and disarms it after the answer,
 *   so the count covers exactly one request's allocations on the server's threads, in the same
 *   order every time.
 * - From the environment, for a whole process: COMBATD_FAIL_AT=N arms it at load and fails
 *   the Nth allocation of the process (COMBATD_FAIL_AT=0 only counts).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

static atomic_bool armed;
static atomic_long calls;   /* counted calls since armed */
static atomic_long fail_at; /* 1-based; 0: count only */
static atomic_long failures;
static _Thread_local bool excluded __attribute__((tls_model("initial-exec")));

static bool should_fail(void) {
    if (!atomic_load_explicit(&armed, memory_order_acquire) || excluded) {
        return false;
    }
    long n = atomic_fetch_add(&calls, 1) + 1;
    if (n == atomic_load(&fail_at)) {
        atomic_fetch_add(&failures, 1);
        errno = ENOMEM;
        return true;
    }
    return false;
}

void *malloc(size_t size) {
    return should_fail() ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
    return should_fail() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t size) {
    return should_fail() ? NULL : __libc_realloc(p, size);
}

/* Starts counting from zero; the fail_at-th counted allocation fails (0: none). */
void failshim_arm(long at) {
    atomic_store(&calls, 0);
    atomic_store(&failures, 0);
    atomic_store(&fail_at, at);
    atomic_store_explicit(&armed, true, memory_order_release);
}

/* Stops counting; returns how many allocations were counted since failshim_arm. */
long failshim_disarm(void) {
    atomic_store_explicit(&armed, false, memory_order_release);
    return atomic_load(&calls);
}

/* How many allocations were failed since failshim_arm (0 or 1). */
long failshim_failures(void) {
    return atomic_load(&failures);
}

/* The calling thread's allocations are never counted nor failed. */
void failshim_exclude_this_thread(void) {
    excluded = true;
}

__attribute__((constructor)) static void from_environment(void) {
    const char *at = getenv("COMBATD_FAIL_AT");
    if (at) {
        failshim_arm(strtol(at, NULL, 10));
    }
}
