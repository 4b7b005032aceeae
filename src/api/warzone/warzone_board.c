/*
 * The game's map and standing as combatd's board (W11, W24, W40): `map.territories` with their
 * `connectedTo` (a border listed on one side counts both ways, as W24 reads `neighbors`),
 * `map.bonuses` with OverriddenBonuses applied, and the standing's {terrID, ownedBy, armies}
 * (the request's `standing` or gameInfo.latestStanding, read where it was given),
 * where `Neutral` is combatd's neutral, a Commander in an army string a unit of its owner
 * (W21), and `Fogged` what the request's `fogged` gives or a 422 (W41).
 */
#include <stdlib.h>
#include <string.h>

#include "combatd/warapp.h"
#include "warzone_internal.h"

/* Item i of map.territories: its id and a board entry with its neighbours (read later). */
static bool read_map_territory(const cbd_reader *m, size_t i, cbdp_wz_turn *t, json_t *terrs) {
    cbd_reader item;
    cbd_reader_at_item(&item, m, "territories", i);
    char id[CBDP_WZ_ID_MAX];
    if (!json_is_object(item.obj)) {
        cbd_reader_error(&item, NULL, "must be a territory {id, name, connectedTo}");
        return false;
    }
    if (!cbdp_wz_read_id(&item, "id", id)) {
        return false;
    }
    if (json_object_get(terrs, id)) {
        cbd_reader_error(&item, "id", "repeats territory %s", id);
        return false;
    }
    json_t *entry = json_pack("{s:[]}", "neighbors");
    return entry && json_object_set_new(terrs, id, entry) == 0 &&
           json_object_set_new(t->map_at, id, json_integer((json_int_t)i)) == 0;
}

/* Item i's connectedTo: ids of the map, as its neighbors. */
static bool read_borders(const cbd_reader *m, size_t i, json_t *terrs) {
    cbd_reader item;
    cbd_reader_at_item(&item, m, "territories", i);
    char id[CBDP_WZ_ID_MAX], other[CBDP_WZ_ID_MAX];
    const json_t *list = cbd_reader_member(&item, "connectedTo");
    if (!cbdp_wz_id_text(json_object_get(item.obj, "id"), id) || cbdp_wz_absent(list)) {
        return true;
    }
    if (!json_is_array(list)) {
        cbd_reader_error(&item, "connectedTo", "must be a list of territory ids");
        return false;
    }
    json_t *neighbors = json_object_get(json_object_get(terrs, id), "neighbors");
    bool ok = true;
    for (size_t k = 0; k < json_array_size(list); k++) {
        if (!cbdp_wz_id_text(json_array_get(list, k), other) || !json_object_get(terrs, other)) {
            cbd_reader_item_error(&item, "connectedTo", k, "is not a territory of the map");
            ok = false;
        } else {
            ok = ok && json_array_append_new(neighbors, json_string(other)) == 0;
        }
    }
    return ok;
}

/* map.bonuses item i: {id, value (overridden), territories}. */
static bool read_bonus(const cbd_reader *m, size_t i, const json_t *terrs, cbdp_wz_turn *t) {
    cbd_reader item;
    cbd_reader_at_item(&item, m, "bonuses", i);
    char id[CBDP_WZ_ID_MAX], tid[CBDP_WZ_ID_MAX];
    const json_t *list = cbd_reader_member(&item, "territoryIDs");
    if (!cbdp_wz_read_id(&item, "id", id)) {
        return false;
    }
    /* combatd's `bonuses` is keyed by id: a second bonus of one id would silently replace the
     * first there, so it is named here as a repeated territory is. */
    if (json_object_get(t->bonus_at, id)) {
        cbd_reader_error(&item, "id", "repeats bonus %s", id);
        return false;
    }
    if (json_object_set_new(t->bonus_at, id, json_integer((json_int_t)i)) != 0) {
        return false;
    }
    int64_t value = 0;
    cbd_field f = cbdp_wz_int(&item, "value", -(int64_t)CBD_WARAPP_MAX_ARMIES,
                              (int64_t)CBD_WARAPP_MAX_ARMIES, &value);
    if (f != CBD_FIELD_OK) {
        if (f == CBD_FIELD_ABSENT) {
            cbd_reader_error(&item, "value", "is required: the bonus's armies, a whole number");
        }
        return false;
    }
    const json_t *over = json_object_get(json_object_get(t->overrides, id), "value");
    json_t *b = json_pack("{s:s,s:I,s:[]}", "id", id, "value",
                          over ? json_integer_value(over) : (json_int_t)value, "territories");
    if (!b || json_array_append_new(t->bonuses, b) != 0) {
        return false;
    }
    bool ok = json_is_array(list);
    if (!ok) {
        cbd_reader_error(&item, "territoryIDs", "must be a list of territory ids");
    }
    for (size_t k = 0; k < json_array_size(list); k++) { /* every bad id named */
        if (!cbdp_wz_id_text(json_array_get(list, k), tid) || !json_object_get(terrs, tid)) {
            cbd_reader_item_error(&item, "territoryIDs", k, "is not a territory of the map");
            ok = false;
        } else {
            ok = json_array_append_new(json_object_get(b, "territories"), json_string(tid)) == 0 &&
                 ok;
        }
    }
    return ok;
}

/*
 * The map's bonuses as the turn's `bonuses` member (W32): {"<bonusID>": {value, territories}},
 * so that /analyze-turn answers their owners and /plan-turn plans for them (W40); the chances
 * are computed there, once. A bonus without territories is left out: W32's bonus has one at
 * least, and nobody owns an empty one (/warzone/analyze-turn answers it with no owner).
 */
static bool core_bonuses(cbdp_wz_turn *t) {
    json_t *out = json_object();
    bool ok = out != NULL;
    for (size_t i = 0; ok && i < json_array_size(t->bonuses); i++) {
        const json_t *b = json_array_get(t->bonuses, i);
        const json_t *list = json_object_get(b, "territories");
        ok = json_array_size(list) == 0 ||
             json_object_set_new(out, json_string_value(json_object_get(b, "id")),
                                 json_pack("{s:O,s:O}", "value", json_object_get(b, "value"),
                                           "territories", list)) == 0;
    }
    if (!ok || json_object_size(out) == 0) {
        json_decref(out);
        return ok;
    }
    return json_object_set_new(t->doc, "bonuses", out) == 0;
}

/* Whether map.bonuses (a list or absent) has a bonus of id `id`, its id readable or not yet
 * read (so that a bad bonus elsewhere is not taken for a missing one). */
static bool bonus_on_map(const json_t *bonuses, const char *id) {
    char b[CBDP_WZ_ID_MAX];
    for (size_t i = 0; i < json_array_size(bonuses); i++) {
        if (cbdp_wz_id_text(json_object_get(json_array_get(bonuses, i), "id"), b) &&
            strcmp(b, id) == 0) {
            return true;
        }
    }
    return false;
}

/*
 * W51: every bonus OverriddenBonuses names is a bonus of the map, else a 422 at its bonusID:
 * settings and a map of two games (or a map whose bonuses were cut) would otherwise be answered
 * without the value the game gives that bonus, silently.
 */
static bool overrides_on_map(const cbd_reader *r, const cbdp_wz_turn *t, const json_t *bonuses) {
    cbd_reader s;
    cbd_reader_at(&s, r, "settings");
    const char *id;
    const json_t *over;
    bool ok = true;
    json_object_foreach((json_t *)t->overrides, id, over) {
        if (bonus_on_map(bonuses, id)) {
            continue;
        }
        cbd_reader item;
        cbd_reader_at_item(&item, &s, "OverriddenBonuses",
                           (size_t)json_integer_value(json_object_get(over, "at")));
        cbd_reader_error(&item, "bonusID",
                         "is bonus %s, which map.bonuses does not list: the settings and the map "
                         "must be the same game's (W51)",
                         id);
        ok = false;
    }
    return ok;
}

/* The map: true when its territories and borders were read, so that the standing can be read
 * against them and its errors named beside a bad bonus's; *bonuses_ok says whether the bonuses
 * were too (every bad one is named). */
static bool read_map(const cbd_reader *r, cbdp_wz_turn *t, json_t *terrs, bool *bonuses_ok) {
    const json_t *map = cbd_reader_member(r, "map");
    cbd_reader m;
    cbd_reader_at(&m, r, "map");
    const json_t *list = json_object_get(map, "territories");
    *bonuses_ok = false;
    if (!json_is_array(list) || json_array_size(list) == 0) {
        cbd_reader_error(json_is_object(map) ? &m : r, json_is_object(map) ? "territories" : "map",
                         "is required: the game's map {territories: [{id, connectedTo}], bonuses}");
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < json_array_size(list); i++) {
        ok &= read_map_territory(&m, i, t, terrs);
    }
    for (size_t i = 0; ok && i < json_array_size(list); i++) {
        ok &= read_borders(&m, i, terrs);
    }
    if (!ok) {
        return false; /* a bonus's or the standing's territories would be misnamed as unknown */
    }
    const json_t *bonuses = json_object_get(map, "bonuses");
    if (!cbdp_wz_absent(bonuses) && !json_is_array(bonuses)) {
        cbd_reader_error(&m, "bonuses", "must be a list of {id, value, territoryIDs}");
        return true;
    }
    bool b_ok = overrides_on_map(r, t, bonuses);
    for (size_t i = 0; i < json_array_size(bonuses); i++) {
        b_ok &= read_bonus(&m, i, terrs, t);
    }
    *bonuses_ok = b_ok && core_bonuses(t);
    return true;
}

/* An owner: "Neutral" as combatd's neutral, else a player id (noted, with where it was first
 * named for W41's check: the standing's index `at`, or the terrID under `fogged`). */
static bool owner_of(const cbd_reader *r, const char *key, cbdp_wz_turn *t, json_t *entry,
                     size_t at, const char *fog_id) {
    char id[CBDP_WZ_ID_MAX];
    if (!cbdp_wz_read_id(r, key, id)) {
        return false;
    }
    if (strcmp(id, "Fogged") == 0) {
        cbd_reader_error(r, key, "must be known: the owner the fog hides (W41)");
        return false;
    }
    if (strcmp(id, CBDP_WZ_NEUTRAL) == 0) {
        return json_object_set_new(entry, "owner", json_string(CBD_TURN_NEUTRAL_NAME)) == 0;
    }
    json_t *where = fog_id ? json_string(fog_id) : json_integer((json_int_t)at);
    if (!json_object_get(t->owner_at, id) && json_object_set_new(t->owner_at, id, where) != 0) {
        return false;
    }
    if (json_object_get(t->owner_at, id) != where) {
        json_decref(where);
    }
    return cbdp_wz_note_player(t, id) && json_object_set_new(entry, "owner", json_string(id)) == 0;
}

/* W21: Commanders of the army string as units of the territory, each its owner's. */
static bool commanders_of(const cbd_reader *s, const json_t *cmdrs, json_t *entry) {
    const char *owner = json_string_value(json_object_get(entry, "owner"));
    /* W41: a Commander is a player's. combatd's own name of neutral ("neutral") would
     * otherwise match an army string's owner and make one neutral's, which no turn leaves. */
    if (owner && strcmp(owner, CBD_TURN_NEUTRAL_NAME) == 0) {
        cbd_reader_error(s, "armies",
                         "holds a Commander on a Neutral territory: a Commander is a player's, "
                         "on a territory of that player (W21, W41)");
        return false;
    }
    json_t *units = json_array();
    if (!units || json_object_set_new(entry, "units", units) != 0) {
        return false;
    }
    for (size_t k = 0; k < json_array_size(cmdrs); k++) {
        const json_t *c = json_array_get(cmdrs, k);
        if (!owner || strcmp(json_string_value(json_object_get(c, "owner")), owner) != 0) {
            cbd_reader_error(s, "armies",
                             "holds a Commander of %s on a territory of %s: a unit "
                             "belongs to its territory's owner (W21)",
                             json_string_value(json_object_get(c, "owner")), owner ? owner : "?");
            return false;
        }
        json_t *u = json_pack("{s:O,s:s}", "id", json_object_get(c, "id"), "type", "commander");
        if (!u || json_array_append_new(units, u) != 0) {
            return false;
        }
    }
    return true;
}

/* W41: a Fogged owner or armies from the request's `fogged` member, or a 422 naming it. */
static bool unfog(const cbd_reader *r, const cbd_reader *s, const char *id, bool owner_fogged,
                  bool armies_fogged, cbdp_wz_turn *t, json_t *entry, size_t at) {
    cbd_reader fog;
    cbd_reader_at(&fog, r, "fogged");
    const json_t *given = json_object_get(cbd_reader_member(r, "fogged"), id);
    if (given && !json_is_object(given)) {
        cbd_reader_error(&fog, id, "must be what the fog hides: {ownedBy, armies} (W41)");
        return false;
    }
    const json_t *all = cbd_reader_member(r, "fogged");
    if (!cbdp_wz_absent(all) && !json_is_object(all)) {
        return false; /* `fogged` is not an object: named there (fogged_is_object) */
    }
    if (!given) {
        cbd_reader_error(s, owner_fogged ? "ownedBy" : "armies",
                         "is Fogged: combatd does not guess what the fog hides; give territory %s "
                         "in `fogged` ({ownedBy, armies: a number or a distribution}, W23, W41)",
                         id);
        return false;
    }
    cbd_reader g;
    cbd_reader_at(&g, &fog, id);
    bool ok = json_object_set_new(t->fogged, id, json_true()) == 0;
    if (owner_fogged) {
        ok = ok && owner_of(&g, "ownedBy", t, entry, at, id);
    }
    if (armies_fogged) {
        const json_t *a = cbd_reader_member(&g, "armies");
        cbdp_wz_armies known;
        if (json_is_array(a)) { /* W23's distribution, read by /analyze-turn */
            return ok && json_object_set_new(entry, "armies", json_deep_copy(a)) == 0;
        }
        if (!cbdp_wz_read_armies(&g, "armies", 1000000000, &known) || known.fogged) {
            if (known.fogged) {
                cbd_reader_error(&g, "armies", "must be known: a number or a distribution");
            }
            return false;
        }
        ok =
            ok && json_object_set_new(entry, "armies", json_integer((json_int_t)known.armies)) == 0;
        /* A Commander the fog hid but the caller knows of is the same unit as one in sight. */
        ok = ok && (!known.commanders || commanders_of(&g, known.commanders, entry));
        json_decref(known.commanders);
    }
    return ok;
}

/* standing item i, at where the standing was given (`standing` or gameInfo.latestStanding). */
static bool read_standing_item(const cbd_reader *r, size_t i, const cbd_config *cfg,
                               cbdp_wz_turn *t, json_t *terrs) {
    cbd_reader s;
    cbd_reader_at_item(&s, &t->standing_in.at, t->standing_in.key, i);
    char id[CBDP_WZ_ID_MAX];
    if (!json_is_object(s.obj)) {
        cbd_reader_error(&s, NULL, "must be a territory's standing {terrID, ownedBy, armies}");
        return false;
    }
    if (!cbdp_wz_read_id(&s, "terrID", id)) {
        return false;
    }
    json_t *entry = json_object_get(terrs, id);
    if (!entry || json_object_get(t->standing_at, id)) {
        cbd_reader_error(&s, "terrID",
                         entry ? "repeats territory %s" : "%s is not a territory of the map", id);
        return false;
    }
    if (json_object_set_new(t->standing_at, id, json_integer((json_int_t)i)) != 0) {
        return false;
    }
    const char *owner = json_string_value(cbd_reader_member(&s, "ownedBy"));
    bool owner_fogged = owner && strcmp(owner, "Fogged") == 0;
    cbdp_wz_armies a;
    if (!cbdp_wz_read_armies(&s, "armies", cfg->warapp.army_cap, &a)) {
        return false;
    }
    bool ok = owner_fogged || owner_of(&s, "ownedBy", t, entry, i, NULL);
    if (owner_fogged || a.fogged) {
        ok = ok && unfog(r, &s, id, owner_fogged, a.fogged, t, entry, i);
    }
    if (!a.fogged) {
        ok = ok && json_object_set_new(entry, "armies", json_integer((json_int_t)a.armies)) == 0;
    }
    ok = ok && (!a.commanders || commanders_of(&s, a.commanders, entry));
    json_decref(a.commanders);
    return ok;
}

/* `fogged`, when given, is an object of territories (W41). */
static bool fogged_is_object(const cbd_reader *r) {
    const json_t *fogged = cbd_reader_member(r, "fogged");
    if (cbdp_wz_absent(fogged) || json_is_object(fogged)) {
        return true;
    }
    cbd_reader_error(r, "fogged",
                     "must be an object {terrID: {ownedBy, armies}} of the Fogged territories "
                     "(W41), not %s",
                     cbd_json_type_name(fogged));
    return false;
}

/* W41: each of its entries gives a territory of the map that the
 * standing shows Fogged (an entry for a territory in sight or not on the map would otherwise be
 * dropped silently). Read after the standing, whose Fogged territories unfog() has noted. */
static bool check_fogged(const cbd_reader *r, const cbdp_wz_turn *t) {
    const json_t *fogged = cbd_reader_member(r, "fogged");
    if (!json_is_object(fogged)) {
        return true; /* absent, or named by fogged_is_object */
    }
    cbd_reader fog;
    cbd_reader_at(&fog, r, "fogged");
    const char *id;
    const json_t *entry;
    bool ok = true;
    json_object_foreach((json_t *)fogged, id, entry) {
        if (json_object_get(t->fogged, id)) {
            continue;
        }
        if (!json_object_get(t->map_at, id)) {
            cbd_reader_error(&fog, id, "is not a territory of the map");
        } else {
            cbd_reader_error(&fog, id,
                             "is not Fogged in the standing: its owner and armies are in sight "
                             "there (W41)");
        }
        ok = false;
    }
    return ok;
}

bool cbdp_wz_read_board(const cbd_reader *r, const cbd_config *cfg, cbdp_wz_turn *t) {
    json_t *terrs = json_object();
    if (!terrs || json_object_set_new(t->doc, "territories", terrs) != 0) {
        return false;
    }
    bool bonuses_ok = false;
    if (!read_map(r, t, terrs, &bonuses_ok)) {
        return false;
    }
    const cbdp_wz_source *in = &t->standing_in;
    const json_t *standing = in->list;
    if (!json_is_array(standing)) {
        cbd_reader_error(&in->at, in->key,
                         "is required: the board as gameInfo.latestStanding or a "
                         "standingN gives it ([{terrID, ownedBy, armies}])");
        return false;
    }
    bool ok = fogged_is_object(r) && bonuses_ok;
    for (size_t i = 0; i < json_array_size(standing); i++) {
        ok &= read_standing_item(r, i, cfg, t, terrs);
    }
    const char *id;
    json_t *entry;
    json_object_foreach(terrs, id, entry) {
        if (ok && !json_object_get(t->standing_at, id)) {
            cbd_reader_error(&in->at, in->key, "lacks territory %s of the map", id);
            ok = false;
        }
    }
    return ok && check_fogged(r, t);
}
