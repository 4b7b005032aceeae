/* Placeholder until its issue lands: answers 501 so the route exists from the start. */
#include "api.h"

int cbd_api_simulate(const cbd_config *cfg, const json_t *request, json_t **response,
                     cbd_problem *problem) {
    (void)cfg;
    (void)request;
    (void)response;
    cbd_problem_set(problem, 501, "This endpoint is not implemented yet.");
    return -1;
}
