#!/usr/bin/env bash
# Fetches and builds the warlight2 engine and the bots the arena plays against, outside the
# repository (none of their code is shipped here): $ARENA_DIR (default build/arena) gets one
# folder per project, each cloned from the URL below at the commit below and built in place.
#
# Each source can be redirected to a local clone or mirror, e.g.
#   ARENA_GIT_ENGINE=/srv/mirrors/warlight2-engine bash scripts/arena/fetch.sh
# Needs git, javac/java (17), g++ and make.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ARENA_DIR=${ARENA_DIR:-$ROOT/build/arena}
mkdir -p "$ARENA_DIR"

# name | git URL (overridable as ARENA_GIT_<NAME>) | commit | licence
# engine:      the AI Games engine (Apache-2.0) with its example map
# starter:     the engine's Java starter bot (MIT), the first commit of a fork that kept it
# wunderwaffe: Norman1's Warlight AI Challenge 2 bot (Java, no licence file: fetched, never shipped)
# aproapebine: the "Aproape Bine" team's bot (C++14, MIT)
SOURCES="
engine      https://github.com/theaigames/warlight2-engine          845d9f7
starter     https://github.com/curious-attempt-bunny/warlight2-bot  260616a
wunderwaffe https://github.com/Norman1/Wunderwaffe                  5a7be39
aproapebine https://github.com/calincru/Warlight-AI-Challenge-2-Bot 4d42742
"

clone() {  # name url commit
    local dir="$ARENA_DIR/$1" var="ARENA_GIT_$(tr '[:lower:]' '[:upper:]' <<<"$1")"
    local url=${!var:-$2}
    if [ ! -d "$dir/.git" ]; then
        git clone -q "$url" "$dir"
    fi
    git -C "$dir" checkout -q -f "$3"
}

# The engine draws from Math.random, unseeded: ArenaRandom.java (ours) takes its draws, seeded by
# ARENA_SEED when set, and prints each round's incomes, regions and armies (arena.py reads them).
patch_engine() {  # dir
    local src="$1/src/com/theaigames/game/warlight2"
    cp "$ROOT/scripts/arena/ArenaRandom.java" "$src/"
    sed -i 's/Math\.random()/com.theaigames.game.warlight2.ArenaRandom.next()/' \
        "$src/MapCreator.java" "$src/Processor.java" "$src/move/MoveQueue.java"
    # playRound: after the next round's incomes are set, before they are sent
    sed -i 's/^\t\trecalculateStartingArmies();$/&\n\t\tArenaRandom.trace(roundNumber, map, player1, player2);/' \
        "$src/Processor.java"
    grep -q 'ArenaRandom.trace' "$src/Processor.java"
}

build_java() {  # dir [classpath]: every source under src/ into bin-arena/
    (cd "$1" && rm -rf bin-arena && mkdir bin-arena &&
        find src -name '*.java' >sources-arena.txt &&
        javac -nowarn -encoding UTF-8 -d bin-arena ${2:+-cp "$2"} @sources-arena.txt >build.log 2>&1)
}

while read -r name url commit; do
    [ -n "$name" ] || continue
    clone "$name" "$url" "$commit"
    case $name in
        engine) patch_engine "$ARENA_DIR/engine" && build_java "$ARENA_DIR/engine" lib/java-json.jar ;;
        # Written for 2015's g++, which included these headers implicitly.
        aproapebine) make -s -C "$ARENA_DIR/aproapebine" build FLAGS="-std=c++14 -O2 -w \
            -include stdexcept -include algorithm -include limits -include cmath \
            -include functional" >"$ARENA_DIR/aproapebine/build.log" 2>&1 ;;
        *) build_java "$ARENA_DIR/$name" ;;
    esac
    echo "fetch: $name at $commit built in $ARENA_DIR/$name"
done <<<"$SOURCES"
