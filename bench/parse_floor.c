/*
 * jansson's parse of one body, as combatd parses it: json_loadb with the service's flags into a
 * fresh arena of the service's allocator (src/json/json_alloc.h; its one block included), then
 * the arena freed. Prints the CPU microseconds of one parse. bench/load.sh subtracts it from
 * combatd's CPU per request to give "combatd's share above jansson's parse": jansson stays on
 * the request path, so its parse is the floor of every request.
 *
 *   build/bench/parse_floor FILE [parses]     (default 200000)
 *
 * CPU time of the process (not wall time): a shared machine's other work does not count.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "json/json_alloc.h"

static double cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One parse as cbd_api_parse makes it; false when the body is not a JSON document. */
static int parse_once(const char *body, size_t len) {
    cbd_json_arena *arena = cbd_json_arena_new();
    if (!arena) {
        return 0;
    }
    cbd_json_arena *before = cbd_json_arena_use(arena);
    json_error_t err;
    json_t *doc = json_loadb(body, len, JSON_REJECT_DUPLICATES, &err);
    (void)cbd_json_arena_use(before);
    cbd_json_arena_free(arena); /* the whole document goes with its arena, as in the service */
    return doc != NULL;
}

int main(int argc, char **argv) {
    long n = argc > 2 ? atol(argv[2]) : 200000;
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f || n <= 0) {
        fprintf(stderr, "usage: %s FILE [parses]\n", argv[0]);
        return 2;
    }
    static char body[1 << 20];
    size_t len = fread(body, 1, sizeof body, f);
    fclose(f);
    cbd_json_alloc_install();
    if (!parse_once(body, len)) {
        fprintf(stderr, "%s: not a JSON document\n", argv[1]);
        return 1;
    }
    double t0 = cpu_ns();
    for (long i = 0; i < n; i++) {
        (void)parse_once(body, len);
    }
    printf("%.3f\n", (cpu_ns() - t0) / (double)n / 1000.0);
    return 0;
}
