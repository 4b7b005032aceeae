/*
 * What the request budget (include/combatd/budget.h) charges the turn endpoints against the CPU
 * they take: for the costliest requests of /analyze-turn and /simulate-turn (the attacker's
 * requests the budget was made for among them) and two ordinary ones, one row each:
 *   CPU ns        the request's CPU time (parse excluded), the fastest of `runs`;
 *   units         the work the budget was charged (deterministic);
 *   ns/unit       the two read together: about 1 when the weights are right;
 *   peak MiB      the most the request held through the budget at once;
 *   status        what it answered at the default config (work 2 s, memory 128 MiB, 8 MiB cap).
 * Run on a quiet core: taskset -c 1 build/bench/bench_turn_budget [runs]   (default 3)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "api_config.h"

/* A growing request body. */
typedef struct {
    char *s;
    size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            abort();
        }
        if (t->s && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        t->cap = (t->cap + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s) {
            abort();
        }
    }
}

/* 700,000,000 armies take 299,000,000, then 99 % of them attack on (multi_attack). */
static char *huge_battle(const char *luck) {
    text t = {0};
    add(&t,
        "{\"territories\": {\"A\": {\"owner\": \"attacker\", \"armies\": 700000000}, "
        "\"B\": {\"owner\": \"defender\", \"armies\": 299000000}, "
        "\"C\": {\"owner\": \"neutral\", \"armies\": 1000}}, \"orders\": [{\"player\": "
        "\"attacker\", \"from\": \"A\", \"to\": \"B\", \"armies\": 700000000}, {\"player\": "
        "\"attacker\", \"from\": \"B\", \"to\": \"C\", \"percent\": 0.99}], \"settings\": "
        "{\"luck_modifier\": %s, \"multi_attack\": true}}",
        luck);
    return t.s;
}

/* One battle of `armies` a side at full luck, then `zeros` orders sending nothing, to `to`:
 * under the random move order by 7 players (T2: in a group of their own; B: in the battle's,
 * whose 5,040 schedules then each run the battle), else by one player (each a step over every
 * state of the battle). */
static char *battle_then_zeros(int armies, int zeros, bool random, const char *to) {
    text t = {0};
    add(&t,
        "{\"territories\": {\"A\": {\"owner\": \"p0\", \"armies\": %d}, \"B\": {\"owner\": "
        "\"p1\", \"armies\": %d}, \"T1\": {\"owner\": \"p1\", \"armies\": 1}, \"T2\": "
        "{\"owner\": \"p2\", \"armies\": 1}}, \"orders\": [{\"player\": \"p0\", \"from\": "
        "\"A\", \"to\": \"B\", \"armies\": %d}",
        armies, armies, armies);
    for (int i = 0; i < zeros; i++) {
        add(&t, ", {\"player\": \"p%d\", \"from\": \"%s\", \"to\": \"%s\", \"armies\": 0}",
            random ? 1 + i % 7 : 2, random ? "T1" : "T2", to);
    }
    add(&t,
        "], \"settings\": {\"luck_modifier\": 1}, \"move_order\": \"%s\", "
        "\"max_distribution_points\": 100}",
        random ? "random" : "listed");
    return t.s;
}

/* `pairs` battles of `a` against `d` armies at full luck, one group each; extra members. */
static char *many_battles(int pairs, int a, int d, int per_pair, const char *extra) {
    text t = {0};
    add(&t, "{\"territories\":{");
    for (int i = 0; i < pairs; i++) {
        add(&t,
            "%s\"A%d\":{\"owner\":\"p0\",\"armies\":%d},\"B%d\":{\"owner\":\"p1\",\"armies\":%d}",
            i ? "," : "", i, a, i, d);
    }
    add(&t, "},\"orders\":[");
    for (int i = 0; i < pairs * per_pair; i++) {
        add(&t, "%s{\"player\":\"p0\",\"from\":\"A%d\",\"to\":\"B%d\",\"armies\":%d}", i ? "," : "",
            i / per_pair, i / per_pair, a / per_pair);
    }
    add(&t, "],\"settings\":{\"luck_modifier\":1}%s}", extra);
    return t.s;
}

/* A 256-territory board with one order, for `trials` trials. */
static char *wide_board(long trials) {
    text t = {0};
    add(&t, "{\"territories\":{");
    for (int i = 0; i < 256; i++) {
        add(&t, "%s\"t%d\":{\"owner\":\"p%d\",\"armies\":3}", i ? "," : "", i, i % 2);
    }
    add(&t,
        "},\"orders\":[{\"player\":\"p0\",\"from\":\"t0\",\"to\":\"t1\",\"armies\":2}],"
        "\"trials\":%ld,\"seed\":1}",
        trials);
    return t.s;
}

/* bench_turn's board (bench/wrk/bodies/simulate_turn_bench.json) with `extra` members. */
static char *ordinary(const char *extra) {
    text t = {0};
    add(&t,
        "{\"territories\": {\"t0\": {\"owner\": \"alice\", \"armies\": 30}, \"t1\": {\"owner\": "
        "\"bob\", \"armies\": 20}, \"t2\": {\"owner\": \"neutral\", \"armies\": 10}, \"t3\": "
        "{\"owner\": \"bob\", \"armies\": 25}, \"t4\": {\"owner\": \"carol\", \"armies\": 18}, "
        "\"t5\": {\"owner\": \"neutral\", \"armies\": 12}, \"t6\": {\"owner\": \"carol\", "
        "\"armies\": 22}, \"t7\": {\"owner\": \"alice\", \"armies\": 15}, \"t8\": {\"owner\": "
        "\"neutral\", \"armies\": 10}}, \"orders\": [{\"player\": \"alice\", \"from\": \"t0\", "
        "\"to\": \"t1\", \"armies\": 29}, {\"player\": \"bob\", \"from\": \"t1\", \"to\": "
        "\"t0\", \"armies\": 15}, {\"player\": \"alice\", \"from\": \"t1\", \"to\": \"t2\", "
        "\"percent\": 1}, {\"player\": \"bob\", \"from\": \"t3\", \"to\": \"t4\", \"armies\": "
        "24}, {\"player\": \"carol\", \"from\": \"t4\", \"to\": \"t3\", \"armies\": 12}, "
        "{\"player\": \"carol\", \"from\": \"t4\", \"to\": \"t5\", \"armies\": 10}, "
        "{\"player\": \"carol\", \"from\": \"t6\", \"to\": \"t7\", \"armies\": 21}, "
        "{\"player\": \"alice\", \"from\": \"t7\", \"to\": \"t8\", \"armies\": 14}], "
        "\"settings\": {\"luck_modifier\": 0.16, \"multi_attack\": true}, \"move_order\": "
        "\"random\"%s}",
        extra);
    return t.s;
}

static double cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One row: the fastest of `runs` answers of the body. */
static void row(const char *label, const char *path, char *body, int runs) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(path);
    double best = 0;
    cbd_budget spent = {0};
    int status = 0;
    size_t bytes = 0;
    for (int r = 0; r < runs; r++) {
        cbd_api_request req;
        cbd_api_reply reply;
        if (!cbd_api_parse(ep, body, strlen(body), &req, &reply)) {
            printf("%-48s parse failed: %d\n", label, reply.status);
            cbd_api_reply_free(&reply);
            free(body);
            return;
        }
        cbd_api_limits limits = cbd_api_full_limits(&cfg);
        limits.report = &spent;
        double t0 = cpu_ns();
        (void)cbd_api_answer_within(&req, &cfg, &limits, &reply);
        double dt = cpu_ns() - t0;
        best = r == 0 || dt < best ? dt : best;
        status = reply.status;
        bytes = reply.body_len;
        cbd_api_reply_free(&reply);
    }
    printf("%-48s %14.0f %14llu %8.2f %9.1f   %d (%zu bytes)\n", label, best,
           (unsigned long long)spent.work_spent, best / (double)spent.work_spent,
           (double)spent.mem_peak / 1048576.0, status, bytes);
    fflush(stdout);
    free(body);
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 3;
    runs = runs > 0 ? runs : 1;
    printf("%-48s %14s %14s %8s %9s   %s\n", "request", "CPU ns", "units", "ns/unit", "peak MiB",
           "status");
    row("analyze: 7e8 vs 2.99e8, 5 % luck, 99 % on", "/analyze-turn", huge_battle("0.05"), runs);
    row("analyze: 7e8 vs 2.99e8, 20 % luck, 99 % on", "/analyze-turn", huge_battle("0.2"), runs);
    row("analyze: random, 7 players beside 8000x8000", "/analyze-turn",
        battle_then_zeros(8000, 15, true, "T2"), runs);
    row("analyze: random, 7 players in 5000x5000's group", "/analyze-turn",
        battle_then_zeros(5000, 15, true, "B"), runs);
    row("analyze: random, 7 players in 2000x2000's group", "/analyze-turn",
        battle_then_zeros(2000, 15, true, "B"), runs);
    row("analyze: 11000x11000 (10^6 states), 10 steps", "/analyze-turn",
        battle_then_zeros(11000, 10, false, "B"), runs);
    row("analyze: 3000x3000, 40 steps", "/analyze-turn", battle_then_zeros(3000, 40, false, "B"),
        runs);
    row("analyze: 17 KB, 128 wide battles (68 MB)", "/analyze-turn",
        many_battles(128, 2210000, 1300000, 1, ""), runs);
    row("analyze: the same, 100 points", "/analyze-turn",
        many_battles(128, 2210000, 1300000, 1, ",\"max_distribution_points\":100"), runs);
    row("analyze: bench_turn's board", "/analyze-turn", ordinary(""), runs);
    row("simulate: 10^7 trials, 256 territories", "/simulate-turn", wide_board(10000000), runs);
    row("simulate: 128 wide battles, 30000 trials", "/simulate-turn",
        many_battles(128, 3800000, 3250000, 1, ",\"trials\":30000,\"seed\":1"), runs);
    row("simulate: 256 battles of 10^6, 195312 trials", "/simulate-turn",
        many_battles(128, 3800000, 3250000, 2, ",\"trials\":195312,\"seed\":1"), runs);
    row("simulate: bench_turn's board, 10^6 trials", "/simulate-turn",
        ordinary(", \"trials\": 1000000, \"seed\": 42"), runs);
    row("simulate: bench_turn's board, 1 trial", "/simulate-turn",
        ordinary(", \"trials\": 1, \"seed\": 42"), runs);
    return 0;
}
