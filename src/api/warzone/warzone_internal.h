#ifndef COMBATD_API_WARZONE_INTERNAL_H
#define COMBATD_API_WARZONE_INTERNAL_H

/*
 * src/api/warzone/'s one shared header: the game's own JSON (the bot API and the query game API,
 * docs/api/warzone.md) read into a turn in combatd's shape, which the /warzone/ endpoints then
 * hand to the very handlers of /analyze-turn, /simulate-turn and /plan-turn, so that the numbers
 * are theirs by construction (W40). Implemented in warzone_values.c (the game's scalars: numbers
 * as strings, "null", "True", army strings), warzone_settings.c, warzone_board.c (map,
 * standing, players, fogged), warzone_orders.c, warzone_pointers.c (combatd's pointers back into
 * the game's), warzone_names.c (the game's names and combatd's, both ways) and warzone_inner.c
 * (running a handler and keeping its answer).
 */
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "api/api.h"
#include "api/endpoint_support.h"
#include "combatd/decimal.h"
#include "combatd/warapp_turn.h"
#include "json/json_reader.h"
#include "json/problem.h"

/* The longest id the game's JSON may give (a territory, player or bonus), in bytes. */
#define CBDP_WZ_ID_MAX 24

/* The longest Commander guid an army string may give, in bytes: the game writes a .NET Guid
 * (36 characters, "8f1c2b7e-..."), and the guid becomes the unit's id in /analyze-turn's
 * request, which takes up to 64 characters (CBD_TURN_ID_MAX). */
#define CBDP_WZ_GUID_MAX 64

/* The owner name of neutral territories in the game's JSON. */
#define CBDP_WZ_NEUTRAL CBD_TURN_GAME_NEUTRAL_NAME

/* Where a list of the turn was read (W40): the request's own member (`standing`, `players`,
 * `incomes`) or the one of the bot API's answer merged into it (gameInfo.latestStanding,
 * game.players, gameInfo.incomes), so that every error names the member the caller wrote. */
typedef struct {
    const json_t *list;  /* the member's value (NULL when neither gave it) */
    cbd_reader at;       /* a reader at the object that holds it: the request, game or gameInfo */
    const char *key;     /* its name there */
    const char *pointer; /* at's pointer and key: "/standing", "/gameInfo/latestStanding", ... */
} cbdp_wz_source;

/* A turn read from the game's JSON. Every json_t is owned here (cbdp_wz_turn_free). */
typedef struct {
    json_t *doc;          /* the turn in /analyze-turn's request shape */
    json_t *warnings;     /* strings: what the game's JSON holds and combatd does not model */
    json_t *order_at;     /* per game order: its index in doc.orders, or null when ignored */
    json_t *order_game;   /* per doc order: {"at": game index, "type": the game's type} */
    json_t *standing_at;  /* terrID -> its index in `standing` */
    json_t *map_at;       /* terrID -> its index in map.territories */
    json_t *fogged;       /* terrID -> true: given by the request's `fogged` (W23, W41) */
    json_t *bonuses;      /* [{id, value (OverriddenBonuses applied), territories: [terrID]}] */
    json_t *bonus_at;     /* bonusID -> its index in map.bonuses (and in `bonuses`) */
    json_t *players;      /* the in-game player ids, in the order first named */
    json_t *incomes;      /* playerID -> freeArmies, when gameInfo.incomes was given */
    json_t *owner_at;     /* playerID -> the standing index it first owns (W41's 422) */
    json_t *player_at;    /* playerID -> the first order it gives (W41's 422) */
    json_t *overrides;    /* bonusID -> {value, at: its index in settings.OverriddenBonuses} */
    uint64_t base_income; /* settings.MinimumArmyBonus (0 when absent) */
    /* Where `standing`, `players` and `incomes` were read (the request's, or the game's). */
    cbdp_wz_source standing_in, players_in, incomes_in;
    /* The settings that make orders legal (the game refuses the others when they are sent). */
    bool allow_attack_only, allow_transfer_only, allow_percent;
} cbdp_wz_turn;

/* The members of the turn every /warzone/ endpoint reads, for cbd_reader_open. */
#define CBDP_WZ_TURN_KEYS                                                                          \
    "settings", "map", "standing", "orders", "players", "fogged", "diplomacy", "incomes", "game",  \
        "gameInfo"

/* Reads the turn of the request `r` (opened with CBDP_WZ_TURN_KEYS and the endpoint's own):
 * CBD_READ_OK when it could be translated, else a refusal with every offending member
 * recorded in the game's pointers, or a 500. `orders_required`: /plan-turn's request may leave
 * them out. Free with cbdp_wz_turn_free either way. */
cbd_read_status cbdp_wz_read_turn(const cbd_reader *r, const cbd_config *cfg, bool orders_required,
                                  cbdp_wz_turn *t);
void cbdp_wz_turn_free(cbdp_wz_turn *t);

/* ---- the game's names and combatd's, one row each (warzone_names.c) ---- */

/* A row for every kind of order. */
#define CBDP_WZ_ANY_KIND (-1)

/* An order member: its name in combatd's order of `kind` (a cbd_turn_order_type, or
 * CBDP_WZ_ANY_KIND) and in the game's. */
typedef struct {
    int kind;
    const char *combatd, *game;
} cbdp_wz_member_name;

/* Every order member the translation reads, writes or names, ended by a row of NULLs. */
extern const cbdp_wz_member_name cbdp_wz_order_members[];

/* The game's member for combatd's member `combatd` of an order of `kind`, or NULL. */
const char *cbdp_wz_game_member(int kind, const char *combatd);

/* The settings translated: combatd's member of `settings` and the game's; `inner`, when not
 * NULL, is the member of the game's one that holds the value (BlockadeCard's MultiplyAmount). */
typedef enum {
    CBDP_WZ_OFFENSE,
    CBDP_WZ_DEFENSE,
    CBDP_WZ_LUCK,
    CBDP_WZ_ROUNDING,
    CBDP_WZ_GUARD,
    CBDP_WZ_MULTI,
    CBDP_WZ_BLOCKADE,
    CBDP_WZ_ABANDON,
    CBDP_WZ_SETTINGS /* how many */
} cbdp_wz_setting;

typedef struct {
    const char *combatd, *game, *inner;
} cbdp_wz_setting_name;

extern const cbdp_wz_setting_name cbdp_wz_settings[CBDP_WZ_SETTINGS];

/* The row of combatd's setting `combatd`, or NULL. */
const cbdp_wz_setting_name *cbdp_wz_setting_of(const char *combatd);

/* W33's attackTransfer values, indexed by cbd_turn_move_only, NULL-terminated. */
extern const char *const cbdp_wz_only_names[];

/* ---- the game's scalars (warzone_values.c) ---- */

/* A member the game wrote as absent: missing, JSON null, or the string "null". */
bool cbdp_wz_absent(const json_t *v);

/* A whole number in [0, max] given as a JSON integer or a string of digits. */
cbd_field cbdp_wz_uint(const cbd_reader *r, const char *key, uint64_t max, uint64_t *out);

/* A whole number in [min, max] given as a JSON integer or its digits as a string with an
 * optional sign ("-3", "+4"): a bonus's value. Anything else ("4.9", "0x10", "12abc", "") is
 * refused, never read in part. */
cbd_field cbdp_wz_int(const cbd_reader *r, const char *key, int64_t min, int64_t max, int64_t *out);

/* true/false, or the strings "True"/"False" (any case) the game's .NET side writes. */
cbd_field cbdp_wz_bool(const cbd_reader *r, const char *key, bool *out);

/* A decimal given as a number or its text ("0.16"), times 10^shift, as millionths in [0, max],
 * read as every endpoint reads one (W3, W46): shift -2 reads a percent (60 -> 0.6), 0 a
 * fraction. */
cbd_field cbdp_wz_decimal(const cbd_reader *r, const char *key, int shift, cbd_micro max,
                          cbd_micro *out);

/* An id (a territory, a player, a bonus): a whole number or a non-empty string of at most
 * CBDP_WZ_ID_MAX - 1 bytes, as text in `out`. False (no error recorded) when it is neither. */
bool cbdp_wz_id_text(const json_t *v, char out[CBDP_WZ_ID_MAX]);

/* An id member: its text, or false with an error recorded (absent counts as bad). */
bool cbdp_wz_read_id(const cbd_reader *r, const char *key, char out[CBDP_WZ_ID_MAX]);

/* The game's army string ("7", 7, "Fogged", "5|cmdr,<guid>,<owner>"), W21, W41. */
typedef struct {
    bool fogged;
    uint64_t armies;
    json_t *commanders; /* [{"id": guid, "owner": id}] (new reference; NULL when none) */
} cbdp_wz_armies;

/* False with an error at `key` when it is none of those forms. */
bool cbdp_wz_read_armies(const cbd_reader *r, const char *key, uint64_t cap, cbdp_wz_armies *out);

/* Appends a warning (printf-style) to t->warnings; false when memory ran out. */
bool cbdp_wz_warn(cbdp_wz_turn *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- the parts (warzone_settings.c, warzone_board.c, warzone_orders.c) ---- */

bool cbdp_wz_read_settings(const cbd_reader *r, const cbd_config *cfg, cbdp_wz_turn *t);
bool cbdp_wz_read_board(const cbd_reader *r, const cbd_config *cfg, cbdp_wz_turn *t);
bool cbdp_wz_read_orders(const cbd_reader *r, const cbd_config *cfg, bool required,
                         cbdp_wz_turn *t);
/* W41: every owner and order player is one of `players` (when given), read last. */
bool cbdp_wz_check_players(const cbd_reader *r, cbdp_wz_turn *t);

/* Notes a player id in the order first named (t->players); false when memory ran out. */
bool cbdp_wz_note_player(cbdp_wz_turn *t, const char *id);

/* ---- running combatd's handlers (warzone_inner.c, warzone_pointers.c) ---- */

/* Runs `fn` on `doc` and parses its answer into *answer (a new reference); false with its
 * problem, whose pointers are combatd's (cbdp_wz_problem_to_game turns them into the game's). */
bool cbdp_wz_run(const cbd_config *cfg, cbd_budget *budget, cbd_endpoint_fn fn, const json_t *doc,
                 json_t **answer, cbd_problem *problem);

/* Writes the answer object `answer` as cbd_jw_value would, but its member `value` (a plan's,
 * which the inner handler wrote in up to 17 digits and json_loadb read back exactly) in the
 * digits the inner handler wrote, not the writer's 15: /plan-turn's `value` to the byte. */
void cbdp_wz_write_answer(cbd_jw *out, const json_t *answer);

/* Rewrites every pointer of `problem` from the translated request's to the game's. */
void cbdp_wz_problem_to_game(const cbdp_wz_turn *t, cbd_problem *problem);

/* The answer object's `owner`-like map with "neutral" renamed "Neutral", in place. */
bool cbdp_wz_rename_neutral(json_t *owners);

/* The game's order type as the request gave it, for game order `at`. */
const char *cbdp_wz_game_type(const json_t *request, size_t at);

#endif
