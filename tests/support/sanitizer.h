#ifndef COMBATD_TEST_SANITIZER_H
#define COMBATD_TEST_SANITIZER_H

/* UNDER_ASAN: 1 when this test is built with AddressSanitizer (gcc or clang), else 0. Tests
 * that measure CPU, memory or latency read it, since the sanitizer changes all three. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#endif
