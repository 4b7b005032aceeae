/*
 * What the Duper endpoints' costliest requests spend of their budget (include/combatd/budget.h):
 * per row, the CPU time of answering the parsed request (the thread's CPU clock around
 * cbd_api_answer_within: the best of the runs, which other load on the machine disturbs
 * least, and their median), the units the meter charged, the ratio of the best time to them
 * (the weights are meant to make it about 1 ns a unit), the most memory the request held
 * through the budget, and the answer. The requests are tests/support/duper_costly.h's, which
 * tests/unit/api/test_duper_budget_api.c shows to end within the default budget, and a few smaller
 * ones that weigh one kind of step each, to check the weights one by one.
 * Usage: taskset -c 1 build/bench/bench_duper_budget [runs]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "duper_costly.h"

static double thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One row: `runs` answers of `body` at `path` with the default config. */
static void row(const char *label, const char *path, const char *body, int runs) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(path);
    double *ns = malloc((size_t)runs * sizeof *ns);
    if (!ep || !ns) {
        exit(1);
    }
    cbd_budget spent;
    cbd_api_reply reply = {0};
    uint64_t cost = 0;
    for (int i = 0; i < runs; i++) {
        cbd_api_request req;
        if (!cbd_api_parse(ep, body, strlen(body), &req, &reply)) {
            fprintf(stderr, "%s: %d %.300s\n", label, reply.status, reply.body);
            exit(1);
        }
        cost = cbd_api_cost(&req, &cfg);
        cbd_api_limits limits = cbd_api_full_limits(&cfg);
        limits.report = &spent;
        double t0 = thread_cpu_ns();
        (void)cbd_api_answer_within(&req, &cfg, &limits, &reply);
        ns[i] = thread_cpu_ns() - t0;
        if (i + 1 < runs) {
            cbd_api_reply_free(&reply);
        }
    }
    qsort(ns, (size_t)runs, sizeof *ns, by_value);
    double best = ns[0], median = ns[runs / 2];
    printf("%-42s %10.0f ns (median %10.0f) %10llu units %5.2f ns/unit, peak %8zu B held, "
           "estimate %10llu ns, %d, %zu B body, %zu B answer\n",
           label, best, median, (unsigned long long)spent.work_spent,
           spent.work_spent ? best / (double)spent.work_spent : 0.0, spent.mem_peak,
           (unsigned long long)cost, reply.status, strlen(body), reply.body_len);
    if (reply.status != 200) {
        printf("    %.300s\n", reply.body);
    }
    cbd_api_reply_free(&reply);
    free(ns);
}

/* A board of `tiles` tiles in a row, each joined to the next `degree` ones, red and blue in
 * turn, every red tile with planes: for weighing walks and options apart. */
static char *row_board(int tiles, int degree, const char *rest) {
    costly_text t = {NULL, 0, 0};
    costly_put(&t, "{\"board\": {\"tiles\": {");
    for (int i = 0; i < tiles; i++) {
        costly_put(&t, "\"x%d\": {\"owner\": \"%s\", \"units\": {\"soldier\": %d, \"plane\": 2}}%s",
                   i, i % 2 ? "blue" : "red", 1 + i % 7, i + 1 < tiles ? ", " : "");
    }
    costly_put(&t, "}, \"adjacent\": [");
    const char *sep = "";
    for (int i = 0; i < tiles; i++) {
        for (int d = 1; d <= degree && i + d < tiles; d++) {
            costly_put(&t, "%s[\"x%d\", \"x%d\"]", sep, i, i + d);
            sep = ", ";
        }
    }
    costly_put(&t, "]}%s", rest);
    return t.p;
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    runs = runs > 0 ? runs : 1;
    char *battle = costly_duper_battle();
    row("/duper/battle, costliest", "/duper/battle", battle, runs * 200);
    free(battle);
    char *board = costly_board_battle();
    row("/duper/board/battle, costliest", "/duper/board/battle", board, runs);
    free(board);
    static const int ranges[] = {0, 1};
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        char label[64];
        snprintf(label, sizeof label, "/duper/board/options, costliest, range %d", ranges[r]);
        char *options = costly_board_options(ranges[r]);
        row(label, "/duper/board/options", options, runs);
        free(options);
    }
    /* Smaller rows, one kind of step ahead of the others in each. */
    char *b =
        row_board(2000, 1, ", \"attacks\": [{\"from\": \"x0\", \"to\": \"x1\"}], \"seed\": 1}");
    row("board/battle: 2000 plain tiles, 1999 pairs", "/duper/board/battle", b, runs * 4);
    free(b);
    b = row_board(2000, 4, ", \"player\": \"red\", \"long_distance_range\": 0}");
    row("options: 1000 x 1000 plain tiles, range 0", "/duper/board/options", b, runs);
    free(b);
    b = row_board(2000, 4, ", \"player\": \"red\", \"long_distance_range\": 20}");
    row("options: 2000 plain tiles, range 20", "/duper/board/options", b, runs);
    free(b);
    b = row_board(2000, 4, ", \"player\": \"red\", \"long_distance_range\": 1}");
    row("options: 2000 plain tiles, range 1", "/duper/board/options", b, runs * 4);
    free(b);
    return 0;
}
