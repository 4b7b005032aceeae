/* Request bodies grow geometrically up to a hard cap. */
#include <string.h>

#include <criterion/criterion.h>

#include "http/guards/body.h"

Test(body, appends_in_pieces_and_doubles_capacity) {
    cbd_body b;
    cbd_body_init(&b, 1 << 20);
    char piece[700];
    memset(piece, 'x', sizeof piece);
    cr_assert(cbd_body_append(&b, piece, sizeof piece));
    cr_expect_eq(b.cap, 1000, "the first allocation is 1000 bytes (glibc's per-thread cache)");
    cr_assert(cbd_body_append(&b, piece, sizeof piece));
    cr_expect_eq(b.len, 1400);
    cr_expect_eq(b.cap, 2000, "1400 bytes need one doubling");
    cr_assert(cbd_body_append(&b, piece, sizeof piece));
    cr_expect_eq(b.cap, 4000);
    cr_expect_eq(memcmp(b.data + 1399, "xx", 2), 0);
    cbd_body_free(&b);
}

Test(body, stops_at_the_limit_and_keeps_counting) {
    cbd_body b;
    cbd_body_init(&b, 100);
    char piece[60] = {0};
    cr_assert(cbd_body_append(&b, piece, 60));
    cr_expect_eq(b.cap, 100, "capacity never exceeds the limit");
    cr_assert_not(cbd_body_append(&b, piece, 41));
    cr_expect(b.too_large);
    cr_expect_eq(b.len, 60, "nothing past the limit is stored");
    cr_assert_not(cbd_body_append(&b, piece, 1));
    cr_expect_eq(b.seen, 102, "every offered byte is counted for the logs");
    cbd_body_free(&b);
}

Test(body, exactly_the_limit_is_accepted) {
    cbd_body b;
    cbd_body_init(&b, 64);
    char piece[64] = {0};
    cr_assert(cbd_body_append(&b, piece, 64));
    cr_expect_not(b.too_large);
    cr_assert_not(cbd_body_append(&b, piece, 1));
    cbd_body_free(&b);
}
