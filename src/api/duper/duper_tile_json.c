/*
 * A Duper tile on the way in: its counts by class, and the refusals of D12's shape (and of
 * D5, D8, D9) that no reader getter can see alone. The classes come from the core's class
 * table, so a new class is read and checked without an edit here.
 */
#include <inttypes.h>
#include <stdio.h>

#include "duper_tile_json.h"

static const char *name(int c) {
    return cbd_duper_class_name((cbd_duper_class)c);
}

void cbdp_duper_read_counts(const cbd_reader *tile, const char *key, bool loaded,
                            uint64_t *counts) {
    const char *allowed[CBD_DUPER_CLASS_COUNT + 1];
    cbd_duper_class_names(loaded, allowed);
    cbd_reader r;
    if (cbd_read_object(tile, key, allowed, &r) != CBD_FIELD_OK) {
        return;
    }
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (!loaded || cbd_duper_is_loadable((cbd_duper_class)c)) {
            (void)cbd_read_u64(&r, name(c), 0, CBD_DUPER_MAX_COUNT, &counts[c]);
        }
    }
}

/* /…/units/<class>: built only for a class that is wrong, as every valid request passes here. */
static void unit_error(const cbd_reader *tile, int c, const char *detail) {
    cbd_reader units;
    cbd_reader_at(&units, tile, "units");
    cbd_reader_error(&units, name(c), "%s", detail);
}

static void loaded_error(const cbd_reader *tile, const char *detail) {
    cbd_reader_error(tile, "loaded", "%s", detail);
}

/* The classes seen so far on a tile, one per layer (D12). */
typedef struct {
    int ground, building;
} layers_seen;

/* D12 for class c: one ground troop class, one building and one of it; D9: larvae only on
 * NPC tiles, no capital there. Errors come class by class, in class order. */
static void check_unit(const cbd_reader *tile, const cbd_duper_side *s, bool npc, int c,
                       layers_seen *seen) {
    char detail[256];
    cbd_duper_layer layer = cbd_duper_class_layer((cbd_duper_class)c);
    if (layer == CBD_DUPER_GROUND) {
        if (seen->ground >= 0) {
            snprintf(detail, sizeof detail,
                     "cannot stand beside %s: a tile holds at most one ground troop class (D12); "
                     "troops loaded in planes go in \"loaded\"",
                     name(seen->ground));
            unit_error(tile, c, detail);
        } else {
            seen->ground = c;
        }
    } else if (layer == CBD_DUPER_BUILDING) {
        if (seen->building >= 0) {
            snprintf(detail, sizeof detail,
                     "cannot stand beside %s: a tile holds at most one building (D12)",
                     name(seen->building));
            unit_error(tile, c, detail);
        } else if (s->units[c] > 1) {
            unit_error(tile, c, "must be 0 or 1: a tile holds at most one building (D12)");
        }
        seen->building = c;
    }
    if (c == CBD_DUPER_LARVA && !npc) {
        unit_error(tile, c,
                   "larvae are NPC units: they stand only on an NPC tile (\"" CBD_DUPER_NPC_NAME
                   "\": true) and "
                   "never attack (D9)");
    }
    if (cbd_duper_is_capital((cbd_duper_class)c) && npc) {
        unit_error(tile, c, "an NPC tile holds no capital or supercapital (D9)");
    }
}

/* D5 (a stack of planes carries troops) and D9 for what the planes carry. */
static void check_loaded(const cbd_reader *tile, const cbd_duper_side *s, bool npc,
                         uint64_t min_planes) {
    uint64_t loaded = 0;
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        loaded += s->loaded[c];
        if (s->loaded[c] > 0 && c == CBD_DUPER_LARVA && !npc) {
            loaded_error(tile, "larvae are NPC units and ride only on an NPC tile (D9)");
        }
        if (s->loaded[c] > 0 && cbd_duper_is_capital((cbd_duper_class)c) && npc) {
            loaded_error(tile, "an NPC tile holds no supercapital (D9)");
        }
    }
    if (loaded > 0 && s->units[CBD_DUPER_PLANE] < min_planes) {
        char detail[160];
        snprintf(detail, sizeof detail,
                 "needs a stack of at least %" PRIu64 " plane%s on the tile to carry troops (D5); "
                 "the tile has %" PRIu64,
                 min_planes, min_planes == 1 ? "" : "s", s->units[CBD_DUPER_PLANE]);
        loaded_error(tile, detail);
    }
}

void cbdp_duper_check_tile(const cbd_reader *tile, const cbd_duper_side *s, bool npc,
                           uint64_t min_planes) {
    layers_seen seen = {-1, -1};
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (s->units[c] > 0) {
            check_unit(tile, s, npc, c, &seen);
        }
    }
    /* A player has one supercapital (D8); it may stand on the tile or ride in its planes. */
    if (s->units[CBD_DUPER_SUPERCAPITAL] + s->loaded[CBD_DUPER_SUPERCAPITAL] > 1) {
        unit_error(tile, CBD_DUPER_SUPERCAPITAL,
                   "a player has one supercapital (D8): at most 1 on a tile, standing or loaded");
    }
    check_loaded(tile, s, npc, min_planes);
}
