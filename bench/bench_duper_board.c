/*
 * Duper board core benchmark. Prints:
 *   1. a board of 200 tiles and 500 adjacency pairs with one attack: µs to build the board
 *      from its spec and run the attack (support, resolve, apply), as a request would;
 *   2. the options (D17) of a player with 30 tiles (10 with planes) on a 500-tile board,
 *      long-distance range unlimited and 3 steps (goal of the endpoint: ≤ 1 ms; the whole
 *      /duper/board/options answer for 500 tiles: < 5 ms).
 *   3. the same two requests through the api layer (parse, read, build, run, write; no
 *      socket) and over HTTP on loopback, one keep-alive connection (goals: the battle
 *      ≤ 50 µs, the options of 30 tiles ≤ 1 ms, any 500-tile options answer < 5 ms).
 *   4. the work weights of budget.h against what each kind of step costs here (CPU time of
 *      the thread, the best of several runs): a tile and a pair of a board built, a step of a
 *      walk, a battle resolved, an option found and ranked. bench_budget checks the
 *      weights together, on whole requests.
 * Usage: taskset -c 1 build/bench/bench_duper_board [iterations] [http_requests]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api.h"
#include "combatd/budget.h"
#include "combatd/duper_board.h"
#include "http_latency.h"

#define MAX_TILES       2000
#define MAX_PAIRS       8000
#define MAX_WEIGH_TILES 2000

static const char *const colours[] = {"red", "blue", "green", "white", "black", "pink"};

typedef struct {
    char ids[MAX_TILES][8];
    cbd_duper_tile_spec tiles[MAX_TILES];
    cbd_duper_pair_spec pairs[MAX_PAIRS];
    cbd_duper_board_spec spec;
} board_def;

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static uint64_t rnd(uint64_t *s, uint64_t n) {
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return (*s >> 33) % n;
}

/*
 * A w × h grid (a map's shape: each tile has up to 4 neighbours, plus `diagonals` extra
 * pairs between diagonal neighbours). Owners come in bands of columns; one tile in eight is
 * the NPCs'. The first `red_tiles` tiles of column order are red, every third with planes.
 */
static void make_grid(board_def *d, int w, int h, size_t diagonals, int red_tiles) {
    uint64_t s = 5;
    size_t n = 0, np = 0;
    for (int x = 0; x < w; x++) {
        for (int y = 0; y < h; y++, n++) {
            snprintf(d->ids[n], sizeof d->ids[n], "t%d_%d", x, y);
            bool red = (int)n < red_tiles;
            const char *owner = red ? "red" : colours[1 + (size_t)x * 5 / (size_t)w];
            if (!red && rnd(&s, 8) == 0) {
                owner = NULL;
            }
            cbd_duper_tile_spec *t = &d->tiles[n];
            memset(t, 0, sizeof *t);
            t->id = d->ids[n];
            t->owner = owner;
            t->level = 1 + (uint32_t)rnd(&s, 3);
            t->units[owner ? (rnd(&s, 2) ? CBD_DUPER_TANK : CBD_DUPER_SOLDIER) : CBD_DUPER_LARVA] =
                1 + rnd(&s, 9);
            if (owner && (red ? n % 3 == 0 : rnd(&s, 4) == 0)) {
                t->units[CBD_DUPER_PLANE] = 2 + rnd(&s, 3);
            }
            if (owner && rnd(&s, 6) == 0) {
                t->units[CBD_DUPER_FORT] = 1;
            }
            if (x > 0) {
                d->pairs[np++] = (cbd_duper_pair_spec){{d->ids[n - (size_t)h], d->ids[n]}};
            }
            if (y > 0) {
                d->pairs[np++] = (cbd_duper_pair_spec){{d->ids[n - 1], d->ids[n]}};
            }
        }
    }
    for (size_t k = 0; k < diagonals; k++) {
        size_t x = rnd(&s, (uint64_t)w - 1), y = rnd(&s, (uint64_t)h - 1);
        size_t a = x * (size_t)h + y, b = (x + 1) * (size_t)h + y + 1;
        d->pairs[np++] = (cbd_duper_pair_spec){{d->ids[a], d->ids[b]}};
    }
    d->spec = (cbd_duper_board_spec){d->tiles, n, d->pairs, np, NULL, 0};
}

static void bench_battle(long iterations) {
    static board_def d;
    make_grid(&d, 20, 10, 130, 0); /* 370 grid pairs + 130 diagonals = 500 */
    /* t5_5 attacks its neighbour t6_5 (a blue tile attacking whoever holds the next column). */
    d.tiles[5 * 10 + 5].owner = "blue";
    d.tiles[5 * 10 + 5].units[CBD_DUPER_SOLDIER] = 0;
    d.tiles[5 * 10 + 5].units[CBD_DUPER_TANK] = 20;
    d.tiles[6 * 10 + 5].owner = "green";
    cbd_duper_attack_spec attack = {"t5_5", "t6_5", CBD_DUPER_NORMAL};
    cbd_duper_rules rules = cbd_duper_default_rules();
    double build = 0, run = 0;
    uint64_t sink = 0;
    for (long i = 0; i < iterations; i++) {
        double t0 = now_us();
        cbd_duper_board *b;
        cbd_duper_board_error err;
        if (cbd_duper_board_create(&d.spec, NULL, &b, &err) != CBD_OK) {
            fprintf(stderr, "board refused: %s (index %zu)\n", err.detail, err.index);
            exit(1);
        }
        double t1 = now_us();
        cbd_duper_board_battle out;
        if (cbd_duper_board_run(b, &rules, &attack, 1, (uint64_t)i, NULL, &out, &err) != CBD_OK) {
            fprintf(stderr, "run failed: %s\n", err.detail);
            exit(1);
        }
        double t2 = now_us();
        sink += out.result.damage + out.n_support[0] + out.n_support[1];
        cbd_duper_board_destroy(b);
        build += t1 - t0;
        run += t2 - t1;
    }
    printf("board 200 tiles, %zu pairs, 1 attack: build %6.2f us + run %5.2f us = %6.2f us "
           "(%ld iterations, checksum %llu)\n",
           d.spec.n_pairs, build / (double)iterations, run / (double)iterations,
           (build + run) / (double)iterations, iterations, (unsigned long long)sink);
}

static void bench_options(long iterations, uint32_t range) {
    static board_def d;
    make_grid(&d, 25, 20, 300, 30);
    cbd_duper_board *b;
    cbd_duper_board_error err;
    if (cbd_duper_board_create(&d.spec, NULL, &b, &err) != CBD_OK) {
        fprintf(stderr, "board refused: %s (index %zu)\n", err.detail, err.index);
        exit(1);
    }
    cbd_duper_rules rules = cbd_duper_default_rules();
    int32_t red = cbd_duper_board_player_find(b, "red");
    size_t n = 0;
    double t0 = now_us();
    for (long i = 0; i < iterations; i++) {
        cbd_duper_options o;
        if (cbd_duper_board_options(b, &rules, red, range, SIZE_MAX, NULL, &o) != CBD_OK) {
            fprintf(stderr, "options failed\n");
            exit(1);
        }
        n = o.n;
        cbd_duper_options_free(&o);
    }
    double t1 = now_us();
    printf("options: 30 red tiles (10 with planes) on 500 tiles, %zu pairs, range %u: %5zu "
           "options in %7.1f us (%ld iterations)\n",
           d.spec.n_pairs, range, n, (t1 - t0) / (double)iterations, iterations);
    cbd_duper_board_destroy(b);
}

/* A growing text buffer for the request bodies. */
typedef struct {
    char *p;
    size_t len, cap;
} text;

static void put(text *t, const char *s) {
    size_t n = strlen(s);
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->p = realloc(t->p, t->cap);
        if (!t->p) {
            exit(1);
        }
    }
    memcpy(t->p + t->len, s, n + 1);
    t->len += n;
}

/* The board as a request's "board" member, then `rest` (the other members and the brace). */
static char *board_body(const board_def *d, const char *rest) {
    text t = {NULL, 0, 0};
    char item[160];
    put(&t, "{\"board\":{\"tiles\":{");
    for (size_t i = 0; i < d->spec.n_tiles; i++) {
        const cbd_duper_tile_spec *tile = &d->tiles[i];
        snprintf(item, sizeof item, "%s\"%s\":{\"owner\":\"%s\",\"level\":%u,\"units\":{",
                 i ? "," : "", tile->id, tile->owner ? tile->owner : "npc", tile->level);
        put(&t, item);
        bool first = true;
        for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
            if (tile->units[c] > 0) {
                snprintf(item, sizeof item, "%s\"%s\":%llu", first ? "" : ",",
                         cbd_duper_class_name((cbd_duper_class)c),
                         (unsigned long long)tile->units[c]);
                put(&t, item);
                first = false;
            }
        }
        put(&t, "}}");
    }
    put(&t, "},\"adjacent\":[");
    for (size_t p = 0; p < d->spec.n_pairs; p++) {
        snprintf(item, sizeof item, "%s[\"%s\",\"%s\"]", p ? "," : "", d->pairs[p].tile[0],
                 d->pairs[p].tile[1]);
        put(&t, item);
    }
    put(&t, "]}");
    put(&t, rest);
    return t.p;
}

/* The request through the api layer, as the server's handler runs it (no socket). */
static void bench_api_request(const char *label, const char *path, const char *body, long n) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(path);
    size_t answer = 0;
    double t0 = now_us();
    for (long i = 0; i < n; i++) {
        cbd_api_reply reply;
        cbd_api_run(ep, &cfg, body, strlen(body), &reply);
        if (reply.status != 200) {
            fprintf(stderr, "%s: %d %.300s\n", path, reply.status, reply.body);
            exit(1);
        }
        answer = reply.body_len;
        cbd_api_reply_free(&reply);
    }
    double t1 = now_us();
    /* The floor under any reader: jansson's parse of the body alone. */
    for (long i = 0; i < n; i++) {
        json_t *doc = json_loadb(body, strlen(body), JSON_REJECT_DUPLICATES, NULL);
        if (!doc) {
            exit(1);
        }
        json_decref(doc);
    }
    double t2 = now_us();
    printf("%s: api layer %7.1f us, of which jansson's parse %7.1f us (body %zu bytes, answer "
           "%zu bytes)\n",
           label, (t1 - t0) / (double)n, (t2 - t1) / (double)n, strlen(body), answer);
}

static void bench_http(long api_n, long http_n) {
    static board_def d;
    make_grid(&d, 20, 10, 130, 0);
    d.tiles[5 * 10 + 5].owner = "blue";
    d.tiles[5 * 10 + 5].units[CBD_DUPER_SOLDIER] = 0;
    d.tiles[5 * 10 + 5].units[CBD_DUPER_TANK] = 20;
    d.tiles[6 * 10 + 5].owner = "green";
    char *battle = board_body(&d, ",\"attacks\":[{\"from\":\"t5_5\",\"to\":\"t6_5\"}],"
                                  "\"seed\":1}");
    bench_api_request("battle, 200 tiles, 500 pairs", "/duper/board/battle", battle, api_n);
    http_latency l = http_latency_measure("/duper/board/battle", battle, http_n);
    printf("battle, 200 tiles, 500 pairs: HTTP median %.1f us, p90 %.1f us, p99 %.1f us "
           "(goal <= 50 us)\n",
           l.median_us, l.p90_us, l.p99_us);
    free(battle);
    static board_def o;
    make_grid(&o, 25, 20, 300, 30);
    static const char *const ranges[] = {"3", "0"};
    for (size_t r = 0; r < 2; r++) {
        char rest[96], label[96];
        snprintf(rest, sizeof rest, ",\"player\":\"red\",\"long_distance_range\":%s}", ranges[r]);
        snprintf(label, sizeof label, "options, 30 of 500 tiles, range %s", ranges[r]);
        char *body = board_body(&o, rest);
        bench_api_request(label, "/duper/board/options", body, api_n / 10 > 0 ? api_n / 10 : 1);
        l = http_latency_measure("/duper/board/options", body, http_n / 10 > 0 ? http_n / 10 : 1);
        printf("%s: HTTP median %.1f us, p90 %.1f us, p99 %.1f us (goal <= 1000 us; any "
               "500-tile board < 5000 us)\n",
               label, l.median_us, l.p90_us, l.p99_us);
        free(body);
    }
}

static double cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Tiles x0..x(n-1), the first of every `players` one player's, each with soldiers and planes;
 * tile x0 adjacent to all others when `hub`, else each tile to its next `degree`. */
static void make_row(board_def *d, size_t n, size_t players, size_t degree, bool hub) {
    static char owners[MAX_WEIGH_TILES][8];
    size_t np = 0;
    for (size_t i = 0; i < n; i++) {
        snprintf(d->ids[i], sizeof d->ids[i], "x%zu", i);
        snprintf(owners[i], sizeof owners[i], "p%zu", i % players);
        cbd_duper_tile_spec *t = &d->tiles[i];
        memset(t, 0, sizeof *t);
        t->id = d->ids[i];
        t->owner = owners[i];
        t->level = 1;
        t->units[CBD_DUPER_SOLDIER] = 1 + i % 7;
        t->units[CBD_DUPER_PLANE] = 2;
        for (size_t k = 1; !hub && k <= degree && i + k < n; k++) {
            d->pairs[np++] = (cbd_duper_pair_spec){{d->ids[i], d->ids[i + k]}};
        }
        if (hub && i > 0) {
            d->pairs[np++] = (cbd_duper_pair_spec){{d->ids[0], d->ids[i]}};
        }
    }
    d->spec = (cbd_duper_board_spec){d->tiles, n, d->pairs, np, NULL, 0};
}

/* The best CPU time of building d's board `runs` times. */
static double build_ns(const board_def *d, int runs) {
    double best = 1e300;
    for (int r = 0; r < runs; r++) {
        cbd_duper_board *b;
        cbd_duper_board_error err;
        double t0 = cpu_ns();
        if (cbd_duper_board_create(&d->spec, NULL, &b, &err) != CBD_OK) {
            exit(1);
        }
        double t = cpu_ns() - t0;
        cbd_duper_board_destroy(b);
        best = t < best ? t : best;
    }
    return best;
}

static cbd_duper_board *build(const board_def *d) {
    cbd_duper_board *b;
    cbd_duper_board_error err;
    if (cbd_duper_board_create(&d->spec, NULL, &b, &err) != CBD_OK) {
        exit(1);
    }
    return b;
}

/* The best CPU time of listing player 0's options `runs` times, and the units charged. */
static double options_ns(const cbd_duper_board *b, uint32_t range, size_t keep, int runs,
                         size_t *found, uint64_t *units) {
    cbd_duper_rules rules = cbd_duper_default_rules();
    double best = 1e300;
    for (int r = 0; r < runs; r++) {
        cbd_budget budget;
        cbd_budget_init(&budget, UINT64_MAX, SIZE_MAX);
        cbd_duper_options o;
        double t0 = cpu_ns();
        if (cbd_duper_board_options(b, &rules, 0, range, keep, &budget, &o) != CBD_OK) {
            exit(1);
        }
        double t = cpu_ns() - t0;
        *found = o.n_found;
        *units = budget.work_spent;
        cbd_duper_options_free(&o);
        best = t < best ? t : best;
    }
    return best;
}

static void bench_weights(int runs) {
    static board_def d;
    make_row(&d, MAX_WEIGH_TILES, MAX_WEIGH_TILES, 0, false);
    double tiles = build_ns(&d, runs);
    printf("weights: a tile built (2000 tiles, each its own player's): %6.1f ns (weight %d)\n",
           tiles / MAX_WEIGH_TILES, CBD_WORK_BOARD_TILE);
    make_row(&d, MAX_WEIGH_TILES, MAX_WEIGH_TILES, 4, false);
    double pairs = build_ns(&d, runs) - tiles;
    printf("weights: a pair built (%zu pairs):                         %6.1f ns (weight %d)\n",
           d.spec.n_pairs, pairs / (double)d.spec.n_pairs, CBD_WORK_BOARD_PAIR);
    /* A hub adjacent to every tile: the support walks of one battle step over 2 · 1999. */
    make_row(&d, MAX_WEIGH_TILES, 2, 0, true);
    cbd_duper_board *b = build(&d);
    double best = 1e300;
    size_t steps = 0;
    for (int r = 0; r < runs; r++) {
        cbd_duper_board_battle out;
        double t0 = cpu_ns();
        for (size_t i = 1; i < MAX_WEIGH_TILES; i += 2) {
            (void)cbd_duper_board_prepare(b, 0, i, CBD_DUPER_NORMAL, NULL, &out);
        }
        double t = cpu_ns() - t0;
        best = t < best ? t : best;
        steps = (MAX_WEIGH_TILES / 2) * MAX_WEIGH_TILES; /* 1999 around the hub, 1 around i */
    }
    printf("weights: a step of a walk (support around a hub):         %6.1f ns (weight %d)\n",
           best / (double)steps, CBD_WORK_BOARD_STEP);
    cbd_duper_board_destroy(b);
    /* Two players in turn on a row: p0's 1000 tiles each attack p1's 1000 (range 0), or the
     * tiles within 20 steps (a walk per plane tile). */
    make_row(&d, MAX_WEIGH_TILES, 2, 4, false);
    b = build(&d);
    static const size_t keeps[] = {1, 1000};
    static const uint32_t ranges[] = {0, 20};
    for (size_t r = 0; r < 2; r++) {
        for (size_t k = 0; k < 2; k++) {
            size_t found;
            uint64_t units;
            double ns = options_ns(b, ranges[r], keeps[k], runs, &found, &units);
            printf("weights: an option, range %2u, keeping %4zu:                %6.1f ns (charged "
                   "%5.1f units: %.2f ns a unit)\n",
                   ranges[r], keeps[k], ns / (double)found, (double)units / (double)found,
                   ns / (double)units);
        }
    }
    cbd_duper_board_destroy(b);
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 2000;
    long http_n = argc > 2 ? atol(argv[2]) : 2000;
    bench_battle(n);
    bench_options(n / 10 > 0 ? n / 10 : 1, 0);
    bench_options(n / 10 > 0 ? n / 10 : 1, 3);
    bench_http(n, http_n);
    bench_weights(5);
    return 0;
}
