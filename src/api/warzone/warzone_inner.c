/*
 * A combatd handler run on a translated turn, its answer kept as a JSON value to be told in the
 * game's words (W40): the /warzone/ endpoints answer what /analyze-turn, /simulate-turn and
 * /plan-turn answer, by construction, with their cap, budget and problems.
 */
#include <stdlib.h>
#include <string.h>

#include "api/endpoint_support.h"
#include "json/json_real.h"
#include "warzone_internal.h"

bool cbdp_wz_run(const cbd_config *cfg, cbd_budget *budget, cbd_endpoint_fn fn, const json_t *doc,
                 json_t **answer, cbd_problem *problem) {
    cbd_jw w;
    cbd_jw_init(&w);
    cbd_jw_set_limit(&w, (size_t)cfg->limits.max_answer_bytes);
    *answer = NULL;
    bool ok = fn(cfg, budget, doc, &w, problem);
    size_t len = 0;
    char *text = ok ? cbd_jw_finish(&w, &len) : NULL;
    if (!ok || !text) {
        if (!ok) {
            cbd_jw_discard(&w);
        }
        if (!cbd_api_settle_problem(ok, &w, cfg, budget, problem)) {
            return cbd_api_oom_problem(problem);
        }
        return false;
    }
    json_error_t err;
    *answer = json_loadb(text, len, 0, &err);
    free(text);
    return *answer ? true : cbd_api_oom_problem(problem);
}

bool cbdp_wz_rename_neutral(json_t *owners) {
    json_t *n = json_object_get(owners, CBD_TURN_NEUTRAL_NAME);
    if (!n) {
        return true;
    }
    return json_object_set(owners, CBDP_WZ_NEUTRAL, n) == 0 &&
           json_object_del(owners, CBD_TURN_NEUTRAL_NAME) == 0;
}

const char *cbdp_wz_game_type(const json_t *request, size_t at) {
    const json_t *o = json_array_get(json_object_get(request, "orders"), at);
    const char *type = json_string_value(json_object_get(o, "type"));
    return type ? type : "";
}

void cbdp_wz_write_answer(cbd_jw *out, const json_t *answer) {
    const char *key;
    const json_t *v;
    cbd_jw_object_open(out);
    json_object_foreach((json_t *)answer, key, v) {
        cbd_jw_key_any(out, key);
        if (strcmp(key, "value") == 0 && json_is_real(v)) {
            char text[CBD_JSON_REAL_MAX];
            cbd_jw_raw(out, text, cbd_json_real_exact(json_real_value(v), text));
        } else {
            cbd_jw_value(out, v);
        }
    }
    cbd_jw_object_close(out);
}
