#ifndef COMBATD_API_ENDPOINTS_H
#define COMBATD_API_ENDPOINTS_H

/*
 * Every endpoint of the service, one row each: the one place that says which paths exist,
 * which methods each takes, who answers it, how metrics label it and how an AI agent sees it
 * as an MCP tool.
 *
 *   ROW(path, allow, post, cost, envelope, get, guard, label, tool, kind)
 *     path     the URL path, matched exactly (query strings are not part of it in MHD)
 *     allow    the Allow header: CBD_ALLOW_POST or CBD_ALLOW_GET (405 and OPTIONS answer it)
 *     post     the api handler of a POST endpoint (cbd_endpoint_fn, api.h), or NULL
 *     cost     the estimate of a parsed request's cost in nanoseconds of one core (cbd_cost_fn,
 *              api.h), or NULL for an endpoint that is always cheap; above
 *              server.inline_cost_ns a request runs on the worker pool (src/http/offload.c)
 *     envelope how a POST endpoint that wraps others answers a problem (cbd_api_envelope,
 *              api.h: /mcp answers in JSON-RPC), or NULL for RFC 9457 problem+json
 *     get      the http layer's handler of a GET resource (cbd_get_fn, router.h), or NULL
 *     guard    the http layer's checks of a request's headers before its body is read
 *              (cbd_guard, router.h: /mcp's Origin and protocol version), or NULL
 *     label    the `route` label of combatd_requests_total
 *     tool     CBD_TOOL(title, seeded, description): the endpoint as an MCP tool, named after
 *              the path (`/duper/board/options` is `duper_board_options`); its input and output
 *              schemas are the path's request and 200 schemas in openapi.yaml, generated into
 *              src/api/mcp/mcp_tool_schemas.json (tests/contract/mcp-schemas.mjs). `seeded` says
 *              that the endpoint draws a seed when none is sent, so the same arguments may
 *              answer differently (the tool is not idempotent). CBD_NO_TOOL for the rest.
 *     kind     what the endpoint serves, which sets its body limit and CORS (only the http
 *              layer reads it): CBD_KIND_BATTLE, one battle (server.body_limit: a few hundred
 *              bytes to a few KiB); CBD_KIND_MAP, a whole map, up to the game's largest, and
 *              /mcp, whose tools take maps (server.board_body_limit); CBD_KIND_PAGE, a page or
 *              document; CBD_KIND_OPS, health and metrics, for operators and probes only: never
 *              CORS, whatever server.cors_origins says, so no web page can read them.
 *
 * Each layer expands the rows with the columns it serves: endpoints.c builds the path ->
 * handler table that callers without a server use (fuzzers, benchmarks, tests:
 * cbd_api_find_endpoint), mcp_tools.c the rows /mcp lists as tools, and router.c the route
 * table that routing, the api dispatch and the metrics read. The `get` and `guard` names are
 * only tokens here: the api's expansions drop those columns, so the api layer never refers to
 * anything of the http layer (nor includes microhttpd), while the facts stay in one row. Adding an
 * endpoint is one row here, its handler (declared in api.h), tests and the contract (openapi.yaml,
 * then the tool schemas).
 */
#define CBD_ALLOW_POST "POST, OPTIONS"
#define CBD_ALLOW_GET  "GET, HEAD, OPTIONS"

#define CBD_TOOL(title, seeded, description)                                                       \
    { title, description, seeded }
#define CBD_NO_TOOL                                                                                \
    { NULL, NULL, false }
#define CBD_SEEDED     true
#define CBD_IDEMPOTENT false

#define CBD_KIND_BATTLE 0
#define CBD_KIND_MAP    1
#define CBD_KIND_PAGE   2
#define CBD_KIND_OPS    3

/* clang-format off */
#define CBD_ENDPOINT_TABLE(ROW)                                                                    \
    ROW("/analyze-attack", CBD_ALLOW_POST, cbd_api_analyze_attack, cbd_api_analyze_attack_cost,    \
        NULL, NULL, NULL, "/analyze-attack",                                                       \
        CBD_TOOL("Analyze a War.app attack exactly", CBD_IDEMPOTENT,                               \
            "The exact outcome of one War.app (Warzone-style) attack of `attackers` armies on a "  \
            "territory of `defenders` armies: the capture probability, the distributions of "      \
            "survivors on both sides, and optionally a capture curve (`graph`) and the fewest "    \
            "attackers for target probabilities (`targets`). Computed exactly from the rules "     \
            "(W1-W8), not simulated. Either side may hold special units (`attacking_units`, "      \
            "`defending_units`: Commanders or custom units, W17-W20), and `defenders` may be a "   \
            "distribution when they are not known (fog, W23): the answer is then the exact "       \
            "mixture. Use it to decide whether and with how many armies to attack. Settings left " \
            "out take the service's defaults; the answer echoes the settings it used."),           \
        CBD_KIND_BATTLE)                                                                           \
    ROW("/simulate", CBD_ALLOW_POST, cbd_api_simulate, cbd_api_simulate_cost, NULL, NULL, NULL,    \
        "/simulate",                                                                               \
        CBD_TOOL("Simulate War.app battles", CBD_SEEDED,                                           \
            "Plays `trials` seeded random War.app battles of one attack under the rules "          \
            "(W1-W8) and counts captures and survivors; one trial resolves a real attack. The "    \
            "same arguments with the same `seed` answer the same; without `seed` one is drawn "    \
            "and returned. For exact probabilities use analyze_attack instead."), CBD_KIND_BATTLE) \
    ROW("/analyze-turn", CBD_ALLOW_POST, cbd_api_analyze_turn, cbd_api_analyze_turn_cost, NULL,    \
        NULL, NULL, "/analyze-turn",                                                               \
        CBD_TOOL("Analyze a War.app turn exactly", CBD_IDEMPOTENT,                                 \
            "The exact distribution of a War.app board after a whole turn: `territories` (owner "  \
            "and armies) and every player's `orders` (deploys, then attacks and transfers in "     \
            "move order, W11-W16). Answers each territory's owner and armies with their "          \
            "probabilities, what each order did, and the probability of optional `goals`. A turn " \
            "with too many outcomes is refused naming /orders: use simulate_turn for it."),        \
        CBD_KIND_MAP)                                                                              \
    ROW("/simulate-turn", CBD_ALLOW_POST, cbd_api_simulate_turn, cbd_api_simulate_turn_cost, NULL, \
        NULL, NULL, "/simulate-turn",                                                              \
        CBD_TOOL("Simulate War.app turns", CBD_SEEDED,                                             \
            "The arguments of analyze_turn plus `trials` and `seed`: resolves the turn `trials` "  \
            "times at random (W11-W16) and counts each territory's owners, its armies and what "   \
            "each order did; one trial resolves a real turn. Reproducible from `seed`; without "   \
            "it one is drawn and returned."), CBD_KIND_MAP)                                        \
    ROW("/plan-turn", CBD_ALLOW_POST, cbd_api_plan_turn, cbd_api_plan_turn_cost, NULL, NULL,       \
        NULL, "/plan-turn",                                                                        \
        CBD_TOOL("Plan a War.app turn for a goal", CBD_IDEMPOTENT,                                 \
            "The best deploys and attack/transfer orders of `player` on a War.app map (every "     \
            "territory lists `neighbors`) for a `goal` (territories to `capture` and to `hold`), " \
            "with `income` armies to deploy and the other players' known `orders`: each plan is "  \
            "valued exactly as analyze_turn would (W31), by the chance that the whole goal holds " \
            "(`objective` all) or the expected number of goal territories owned (expected). "      \
            "Answers the plan's orders ready for analyze_turn, its value, whether it is proven "   \
            "optimal, up to 3 next-best plans and the plan's full analysis."), CBD_KIND_MAP)       \
    ROW("/warzone/analyze-turn", CBD_ALLOW_POST, cbd_api_warzone_analyze_turn,                     \
        cbd_api_warzone_analyze_turn_cost, NULL, NULL, NULL, "/warzone/analyze-turn",              \
        CBD_TOOL("Analyze a Warzone turn in the game's own JSON", CBD_IDEMPOTENT,                  \
            "analyze_turn for a turn as the Warzone game writes it: `settings` and `map` as "      \
            "GetBotGameSettings gives them, `standing` (gameInfo.latestStanding or a standingN), " \
            "`orders` (GameOrderDeploy, GameOrderAttackTransfer, card orders) and `players`, or "  \
            "GetBotGameInfo's answer as it came (`game`, `gameInfo`) for standing and players. "   \
            "Answers the exact board after the turn keyed by terrID and playerID (`Neutral`), "    \
            "each order's chances, each bonus's chance of being owned whole by each player, each " \
            "player's expected income, and `warnings` for settings not modelled (W40-W42)."),      \
        CBD_KIND_MAP)                                                                              \
    ROW("/warzone/simulate-turn", CBD_ALLOW_POST, cbd_api_warzone_simulate_turn,                   \
        cbd_api_warzone_simulate_turn_cost, NULL, NULL, NULL, "/warzone/simulate-turn",            \
        CBD_TOOL("Resolve a Warzone turn in the game's own JSON", CBD_SEEDED,                      \
            "The request of warzone_analyze_turn plus `seed`: resolves the turn once at random "   \
            "(W11-W16, W40) and answers the `standing` after it ({terrID, ownedBy, armies}) and "  \
            "the `orders` as given, each attack/transfer with the game's `result` (isAttack, "     \
            "isSuccessful, armies, attackingArmiesKilled, defendingArmiesKilled). Reproducible "   \
            "from `seed`; without it one is drawn and returned."), CBD_KIND_MAP)                   \
    ROW("/warzone/plan-turn", CBD_ALLOW_POST, cbd_api_warzone_plan_turn,                           \
        cbd_api_warzone_plan_turn_cost, NULL, NULL, NULL, "/warzone/plan-turn",                    \
        CBD_TOOL("Plan a Warzone turn in the game's own JSON", CBD_IDEMPOTENT,                     \
            "plan_turn for `playerID` on a turn in the game's JSON (W31, W40): `goal` lists "      \
            "terrIDs and bonus ids (their territories: the player's held, the others "             \
            "captured), `income` defaults to gameInfo.incomes or MinimumArmyBonus plus owned "     \
            "bonuses. Answers the orders as SendOrdersBotGame takes them (GameOrderDeploy, "       \
            "GameOrderAttackTransfer) with plan_turn's value and optimal."), CBD_KIND_MAP)         \
    ROW("/duper/battle", CBD_ALLOW_POST, cbd_api_duper_battle, NULL, NULL, NULL, NULL,             \
        "/duper/battle",                                                                           \
        CBD_TOOL("Resolve a Duper battle", CBD_SEEDED,                                             \
            "Resolves one Duper attack of a tile on another, with the supporting tiles given: "    \
            "both sides' itemised powers, whether the tile is captured, which units die in "       \
            "which order, who moves in, who is eliminated and whether a card is stolen (D1-D12). " \
            "Only the card steal is random: send `seed` to replay it."), CBD_KIND_BATTLE)          \
    ROW("/duper/board/battle", CBD_ALLOW_POST, cbd_api_duper_board_battle,                         \
        cbd_api_duper_board_battle_cost, NULL, NULL, NULL,                                         \
        "/duper/board/battle",                                                                     \
        CBD_TOOL("Resolve attacks on a Duper board", CBD_SEEDED,                                   \
            "Takes a Duper board (tiles by id, adjacency pairs, keys) and attacks, finds each "    \
            "attack's support from the board (D14) and resolves the attacks in order, each on the "\
            "board the one before left (D13-D16). Answers every battle and the board after them. " \
            "Only card steals are random: send `seed` to replay them."), CBD_KIND_MAP)             \
    ROW("/duper/board/options", CBD_ALLOW_POST, cbd_api_duper_board_options,                       \
        cbd_api_duper_board_options_cost, NULL, NULL, NULL, "/duper/board/options",                \
        CBD_TOOL("List a Duper player's attacks", CBD_IDEMPOTENT,                                  \
            "Every legal attack of `player` on a Duper board (normal and long-distance, D17), "    \
            "each resolved with the support the board gives it, best margin (attack minus "        \
            "defense power) first. Use it to choose a move; then resolve the chosen attacks with " \
            "duper_board_battle."), CBD_KIND_MAP)                                                  \
    ROW("/mcp", CBD_ALLOW_POST, cbd_api_mcp, cbd_api_mcp_cost, &cbd_api_mcp_envelope, NULL,        \
        &cbd_http_mcp_guard, "/mcp", CBD_NO_TOOL, CBD_KIND_MAP)                                    \
    ROW("/livez", CBD_ALLOW_GET, NULL, NULL, NULL, cbd_http_get_livez, NULL, "/livez",             \
        CBD_NO_TOOL, CBD_KIND_OPS)                                                                 \
    ROW("/readyz", CBD_ALLOW_GET, NULL, NULL, NULL, cbd_http_get_readyz, NULL, "/readyz",          \
        CBD_NO_TOOL, CBD_KIND_OPS)                                                                 \
    ROW("/metrics", CBD_ALLOW_GET, NULL, NULL, NULL, cbd_http_get_metrics, NULL, "/metrics",       \
        CBD_NO_TOOL, CBD_KIND_OPS)                                                                 \
    ROW("/openapi.yaml", CBD_ALLOW_GET, NULL, NULL, NULL, cbd_http_get_openapi, NULL,              \
        "/openapi.yaml", CBD_NO_TOOL, CBD_KIND_PAGE)                                               \
    ROW("/docs", CBD_ALLOW_GET, NULL, NULL, NULL, cbd_http_get_docs, NULL, "/docs", CBD_NO_TOOL,   \
        CBD_KIND_PAGE)                                                                             \
    ROW("/docs/docs.js", CBD_ALLOW_GET, NULL, NULL, NULL, cbd_http_get_docs_js, NULL,                \
        "/docs/docs.js", CBD_NO_TOOL, CBD_KIND_PAGE)                                               \
    ROW("/docs/redoc.standalone.js", CBD_ALLOW_GET, NULL, NULL, NULL, cbd_http_get_redoc, NULL,    \
        "/docs/redoc.standalone.js", CBD_NO_TOOL, CBD_KIND_PAGE)                                   \
    ROW("/page.js", CBD_ALLOW_GET, NULL, NULL, NULL, cbd_http_get_page_js, NULL, "/page.js",        \
        CBD_NO_TOOL, CBD_KIND_PAGE)                                                                \
    ROW("/", CBD_ALLOW_GET, NULL, NULL, NULL, cbd_http_get_page, NULL, "/", CBD_NO_TOOL,           \
        CBD_KIND_PAGE)
/* clang-format on */

#endif
