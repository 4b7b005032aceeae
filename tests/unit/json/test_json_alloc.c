/*
 * The request arena (json_alloc.h): a document made in it reads back whole after the arena
 * leaves use, however many blocks it took; heap values stay safe to free while an arena is in
 * use; arenas nest and hand back the one they replaced. Freeing is checked by the ASan stage
 * (LeakSanitizer and invalid-free reports), which runs this file too.
 */
#include <criterion/criterion.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_alloc.h"

#include <jansson.h>

#if defined(__SANITIZE_ADDRESS__)
/* libasan exports it; gcc ships no header that declares it. */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

/* `[{"i": 0, "s": "x0"}, {"i": 1, "s": "x1"}, ...]`, n items: about 25 bytes each. */
static char *array_text(size_t n, size_t *len) {
    size_t cap = n * 40 + 16, used = 0;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    text[used++] = '[';
    for (size_t i = 0; i < n; i++) {
        used += (size_t)snprintf(text + used, cap - used, "%s{\"i\": %zu, \"s\": \"x%zu\"}",
                                 i ? ", " : "", i, i);
    }
    text[used++] = ']';
    text[used] = '\0';
    *len = used;
    return text;
}

static json_t *parse_in(cbd_json_arena *a, const char *text, size_t len) {
    cbd_json_alloc_reset();
    cbd_json_arena *before = cbd_json_arena_use(a);
    json_error_t err;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    cr_assert_eq(cbd_json_arena_use(before), a, "use hands back the arena it replaced");
    cr_assert_not_null(doc, "%s", err.text);
    cr_assert_not(cbd_json_alloc_failed());
    return doc;
}

Test(json_arena, small_document_reads_back_after_use) {
    cbd_json_arena *a = cbd_json_arena_new();
    cr_assert_not_null(a);
    const char *text = "{\"attackers\": 10, \"settings\": {\"luck_modifier\": 0.16}}";
    json_t *doc = parse_in(a, text, strlen(text));
    cr_expect_eq(json_integer_value(json_object_get(doc, "attackers")), 10);
    cr_expect_eq(
        json_real_value(json_object_get(json_object_get(doc, "settings"), "luck_modifier")), 0.16);
    cbd_json_arena_free(a);
}

/* 20,000 items take about 3 MB of jansson's pieces: many blocks, up to the largest size, and
 * the array's own storage (160 KB of pointers at the end) in blocks of its own. */
Test(json_arena, large_document_spans_many_blocks) {
    size_t len = 0, n = 20000;
    char *text = array_text(n, &len);
    cbd_json_arena *a = cbd_json_arena_new();
    cr_assert_not_null(a);
    json_t *doc = parse_in(a, text, len);
    cr_assert_eq(json_array_size(doc), n);
    for (size_t i = 0; i < n; i += 997) {
        json_t *item = json_array_get(doc, i);
        char want[32];
        snprintf(want, sizeof want, "x%zu", i);
        cr_expect_eq(json_integer_value(json_object_get(item, "i")), (json_int_t)i);
        cr_expect_str_eq(json_string_value(json_object_get(item, "s")), want);
    }
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(doc, n - 1), "s")), "x19999");
    cbd_json_arena_free(a);
    free(text);
}

/* A string longer than a quarter of any block: it gets a block of its own, and the small
 * pieces after it still fit the block in front. */
Test(json_arena, long_string_gets_its_own_block) {
    size_t n = 300 * 1024;
    char *text = malloc(n + 32);
    cr_assert_not_null(text);
    strcpy(text, "{\"s\": \"");
    memset(text + 7, 'y', n);
    strcpy(text + 7 + n, "\", \"t\": 7}");
    cbd_json_arena *a = cbd_json_arena_new();
    cr_assert_not_null(a);
    json_t *doc = parse_in(a, text, strlen(text));
    cr_expect_eq(json_string_length(json_object_get(doc, "s")), n);
    cr_expect_eq(json_string_value(json_object_get(doc, "s"))[n - 1], 'y');
    cr_expect_eq(json_integer_value(json_object_get(doc, "t")), 7);
    cbd_json_arena_free(a);
    free(text);
}

/* What the heap holds now: glibc's count, or ASan's, which keeps a heap of its own. */
static size_t heap_in_use(void) {
#if defined(__SANITIZE_ADDRESS__)
    return __sanitizer_get_current_allocated_bytes();
#else
    /* Chunks past the mmap threshold are counted apart (hblkhd): the string may be one. */
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
#endif
}

/* A value from the heap, freed while an arena is in use, goes back to the heap: an arena that
 * swallowed it would leak it. Its 200 KB string shows in glibc's count. */
Test(json_arena, heap_values_free_to_the_heap_inside_an_arena) {
    cbd_json_alloc_reset();
    char *big = malloc(200 * 1024 + 1);
    cr_assert_not_null(big);
    memset(big, 'z', 200 * 1024);
    big[200 * 1024] = '\0';
    json_t *heap = json_pack("{s:s, s:[i, i]}", "name", big, "list", 1, 2);
    free(big);
    cr_assert_not_null(heap);
    cbd_json_arena *a = cbd_json_arena_new();
    cr_assert_not_null(a);
    cbd_json_arena *before = cbd_json_arena_use(a);
    json_t *inside = json_pack("{s:i}", "n", 3);
    size_t held = heap_in_use();
    json_decref(heap);
    size_t after = heap_in_use();
    json_decref(inside); /* a piece of the arena: nothing happens until the arena goes */
    cbd_json_arena_use(before);
    cbd_json_arena_free(a);
    cr_expect_geq(held - after, 200 * 1024, "the heap value's string went back: %zu -> %zu", held,
                  after);
}

Test(json_arena, use_nests_and_restores) {
    cbd_json_arena *a = cbd_json_arena_new(), *b = cbd_json_arena_new();
    cr_assert(a && b);
    cr_expect_null(cbd_json_arena_use(a), "no arena is in use on a fresh thread");
    cr_expect_eq(cbd_json_arena_use(b), a);
    cr_expect_eq(cbd_json_arena_use(a), b);
    cr_expect_eq(cbd_json_arena_use(NULL), a);
    cbd_json_arena_free(a);
    cbd_json_arena_free(b);
    cbd_json_arena_free(NULL);
}
