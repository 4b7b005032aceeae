#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang (-fsanitize=fuzzer,address,undefined) into
# build-fuzz/ (or $1). Jansson is built from Debian's source package (jansson 2.14-2, with
# Debian's patches) with the same sanitizers and coverage, so that the fuzzer sees into the
# JSON parser too; if the source package cannot be fetched, the packaged (uninstrumented)
# libjansson is used instead and the script says so.
#
#   tests/fuzz/build.sh [OUT_DIR]
#
# Environment: CC (default clang-14 or clang), JANSSON_SRC (an unpacked jansson source tree to
# use instead of fetching one).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-$ROOT/build-fuzz}
CC=${CC:-$(command -v clang-14 || command -v clang)}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
CFLAGS="-g -O1 $SAN"
mkdir -p "$OUT"

# ---- jansson, instrumented ----
JANSSON_PREFIX=$OUT/jansson
JANSSON_CFLAGS= JANSSON_LIBS=
if [ ! -f "$JANSSON_PREFIX/lib/libjansson.a" ]; then
    SRC=${JANSSON_SRC:-}
    if [ -z "$SRC" ]; then
        # deb-src entries are not configured on the machine: use a private source list and
        # private lists directory, so nothing under /etc/apt changes.
        APT=$OUT/apt
        mkdir -p "$APT/lists/partial" "$APT/parts" "$OUT/jansson-src"
        cat >"$APT/parts/debian-src.sources" <<SOURCES
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
        APTOPT=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$APT/parts"
                -o "Dir::State::Lists=$APT/lists")
        if (cd "$OUT/jansson-src" && { ls jansson_*.dsc >/dev/null 2>&1 ||
                { apt-get "${APTOPT[@]}" update >/dev/null 2>&1 &&
                  apt-get "${APTOPT[@]}" source --download-only jansson >/dev/null 2>&1; }; } &&
                rm -rf tree && dpkg-source -x jansson_*.dsc tree >/dev/null 2>&1); then
            SRC=$OUT/jansson-src/tree
        fi
    fi
    if [ -n "$SRC" ]; then
        echo "fuzz: building jansson from $SRC with $SAN and fuzzer coverage"
        cmake -S "$SRC" -B "$OUT/jansson-build" -DCMAKE_C_COMPILER="$CC" \
            -DCMAKE_C_FLAGS="$CFLAGS -fsanitize=fuzzer-no-link" -DCMAKE_BUILD_TYPE=None \
            -DJANSSON_BUILD_DOCS=OFF -DJANSSON_WITHOUT_TESTS=ON -DJANSSON_EXAMPLES=OFF \
            -DJANSSON_BUILD_SHARED_LIBS=OFF -DCMAKE_INSTALL_PREFIX="$JANSSON_PREFIX" >/dev/null
        cmake --build "$OUT/jansson-build" -j2 >/dev/null
        cmake --install "$OUT/jansson-build" >/dev/null
    fi
fi
if [ -f "$JANSSON_PREFIX/lib/libjansson.a" ]; then
    JANSSON_CFLAGS="-I$JANSSON_PREFIX/include"
    JANSSON_LIBS="$JANSSON_PREFIX/lib/libjansson.a"
    echo "fuzz: jansson: instrumented static build in $JANSSON_PREFIX"
else
    JANSSON_CFLAGS=$(pkg-config --cflags jansson)
    JANSSON_LIBS=$(pkg-config --libs jansson)
    echo "fuzz: jansson: the packaged library (NOT instrumented: no coverage inside the parser)"
fi

# ---- combatd's core and api, instrumented ----
OBJ=$OUT/obj
mkdir -p "$OBJ"
objs=()
# The folders of the core and the api are read from CMakeLists.txt (CORE_DIRS, API_DIRS), so a
# folder added there is compiled here too; the JSON toolkit and the configuration are one folder
# each. Their sources are compiled with include/ and src/ as the include directories (as
# CMakeLists.txt gives them). Of the http layer only what the configuration fills is: the
# server's part and its address ranges.
cmake_dirs() { # CORE_DIRS | API_DIRS: the folders of that set(...) of CMakeLists.txt, on one
    # line or several (from "set(NAME " to the first ")")
    sed -n "/^set($1 /,/)/p" "$ROOT/CMakeLists.txt" | tr '\n' ' ' |
        sed -n "s/^set($1 \([^)]*\)).*\$/\1/p"
}
read -r -a CORE_DIRS <<<"$(cmake_dirs CORE_DIRS)"
read -r -a API_DIRS <<<"$(cmake_dirs API_DIRS)"
if [ ${#CORE_DIRS[@]} -eq 0 ] || [ ${#API_DIRS[@]} -eq 0 ]; then
    echo "fuzz: CMakeLists.txt no longer has set(CORE_DIRS ...) and set(API_DIRS ...) lines" >&2
    exit 1
fi
DIRS=("${CORE_DIRS[@]}" src/json "${API_DIRS[@]}" src/config)
HTTP_FILES=(src/http/server_config.c src/http/guards/net_ranges.c)
INCS=(-I"$ROOT/include" -I"$ROOT/src")
sources=()
for d in "${DIRS[@]}"; do sources+=("$ROOT/$d"/*.c); done
for f in "${HTTP_FILES[@]}"; do sources+=("$ROOT/$f"); done
for src in "${sources[@]}"; do
    d=$(dirname "${src#"$ROOT"/}")
    o=$OBJ/$(echo "${d#src/}" | tr / _)_$(basename "$src" .c).o
    if [ ! -f "$o" ] || [ "$src" -nt "$o" ] || [ -n "$(find "$ROOT/include" "$ROOT/src" \
            -name '*.h' -newer "$o" 2>/dev/null | head -1)" ]; then
        "$CC" $CFLAGS -fsanitize=fuzzer-no-link -std=c17 -D_GNU_SOURCE \
            -DCOMBATD_VERSION='"fuzz"' "${INCS[@]}" $JANSSON_CFLAGS -c "$src" -o "$o"
    fi
    objs+=("$o")
done

# The documents the api layer embeds (the contract, the MCP tool schemas, the rules), as the
# CMake build makes them.
cmake -DSRC="$ROOT" -DOUT="$OBJ/embedded.c" \
    -DFILES=openapi.yaml:cbd_asset_openapi_yaml,src/api/mcp/mcp_tool_schemas.json:cbd_asset_mcp_tool_schemas,docs/rules.md:cbd_asset_rules_md \
    -P "$ROOT/cmake/embed.cmake"
"$CC" $CFLAGS -c "$OBJ/embedded.c" -o "$OBJ/embedded.o"
objs+=("$OBJ/embedded.o")

build_harness() { # name source extra-flags...
    local name=$1 src=$2
    shift 2
    "$CC" $CFLAGS -fsanitize=fuzzer -std=c17 -D_GNU_SOURCE "${INCS[@]}" $JANSSON_CFLAGS "$@" \
        "$src" "${objs[@]}" $JANSSON_LIBS -lm \
        -o "$OUT/$name"
    echo "fuzz: built $OUT/$name"
}
# One harness per POST endpoint of the table, all from fuzz_endpoint.c.
while read -r path harness; do
    build_harness "$harness" "$ROOT/tests/fuzz/fuzz_endpoint.c" -DFUZZ_ENDPOINT="\"$path\""
done < <("$ROOT/scripts/endpoints.sh")
build_harness fuzz_config "$ROOT/tests/fuzz/fuzz_config.c"
