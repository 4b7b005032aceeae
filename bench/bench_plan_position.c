/*
 * /plan-turn under `objective: "position"` (W48, W49) on the warlight2 example map: the eleven
 * boards of tests/support/warlight2_boards.h with their goal left out and every bonus of the
 * map, each sent to the endpoint with the defaults (max_plans 2000, a quarter of a 2 s work
 * budget for the search, the default scenarios "hold" and "strike" from estimated incomes),
 * under `listed` and under `random` (W50: the warlight2 engine's order is a draw). Prints each
 * request's wall time and CPU, its plans and value, then the p50 and p95 of the wall times. The
 * issue's aim: p95 <= 500 ms, and never past the budget.
 * Run: taskset -c 1 ./build/bench/bench_plan_position
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api.h"
#include "api/api_config.h"
#include "warlight2_boards.h"

static double clock_s(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The p-th percentile (nearest rank) of n sorted values. */
static double percentile(const double *v, size_t n, double p) {
    size_t k = (size_t)(p / 100.0 * (double)n + 0.999999);
    return v[k == 0 ? 0 : k - 1];
}

int main(void) {
    wl2_map map;
    if (!wl2_map_load(&map)) {
        return 1;
    }
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    static const char *const orders[] = {"listed", "random"};
    double wall[2 * WL2_BOARDS];
    size_t n = 0;
    for (int mo = 0; mo < 2; mo++) {
        for (int b = 0; b < WL2_BOARDS; b++) {
            json_t *req = wl2_board(&map, b);
            json_object_del(req, "goal");
            json_object_set_new(req, "bonuses", wl2_bonuses(&map));
            json_object_set_new(req, "objective", json_string("position"));
            json_object_set_new(req, "move_order", json_string(orders[mo]));
            char *body = json_dumps(req, JSON_COMPACT);
            cbd_api_reply reply;
            double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
            cbd_api_run(cbd_api_find_endpoint("/plan-turn"), &cfg, body, strlen(body), &reply);
            double dw = clock_s(CLOCK_MONOTONIC) - w0, dc = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
            json_t *doc = json_loadb(reply.body, reply.body_len, 0, NULL);
            printf("warlight2 board %2d %-6s: status %d  wall %6.3f s  CPU %6.3f s  plans %5lld  "
                   "value %10.4f  orders %zu\n",
                   b, orders[mo], reply.status, dw, dc,
                   (long long)json_integer_value(json_object_get(doc, "plans_evaluated")),
                   json_number_value(json_object_get(doc, "value")),
                   json_array_size(json_object_get(doc, "orders")));
            wall[n++] = dw;
            json_decref(doc);
            cbd_api_reply_free(&reply);
            free(body);
            json_decref(req);
        }
    }
    qsort(wall, n, sizeof *wall, by_value);
    printf("position plans: %zu requests  p50 %.3f s  p95 %.3f s  max %.3f s\n", n,
           percentile(wall, n, 50), percentile(wall, n, 95), wall[n - 1]);
    return 0;
}
