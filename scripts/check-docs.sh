#!/usr/bin/env bash
# Keeps the documentation true to the tree:
#  1. every repository path that README.md, docs/*.md, deploy/README.md, openapi.yaml or a
#     CMakeLists.txt names in backquotes (or in a comment) exists;
#  2. docs/architecture.md's ruling table has one row per ruling of RULINGS.md, and every file
#     a row names exists and cites that ruling id;
#  3. no file includes a header of a layer above its own.
# RULINGS.md is read from $COMBATD_RULINGS, else ../shared/rules/RULINGS.md beside the checkout;
# without it, the table's ids must run W1..Wn and D1..Dm without a gap.
# Prints one line per finding and "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
passed=0
failed=0
fail() {
    echo "FAIL $*"
    failed=$((failed + 1))
}

# 1. Paths named by the docs. A candidate is a backquoted word that starts with one of the
# repository's top-level folders (or is a top-level file with an extension) and has no spaces.
tops=$(git ls-files | cut -d/ -f1 | sort -u | tr '\n' '|')
tops=${tops%|}
docs=(README.md docs/*.md deploy/README.md openapi.yaml CMakeLists.txt tests/CMakeLists.txt)
for doc in "${docs[@]}"; do
    [ -f "$doc" ] || continue
    while IFS= read -r path; do
        path=${path%%:*} # `file.c:123` names a line of file.c
        path=${path%%#*}
        [ -n "$path" ] || continue
        # Build outputs and globs are not files of the tree.
        case "$path" in build* | *'*'* | *'<'* | *'$'* | *'…'*) continue ;; esac
        if [ -e "$path" ]; then
            passed=$((passed + 1))
        else
            fail "$doc names $path, which does not exist"
        fi
    done < <(grep -oE "\`($tops)(/[A-Za-z0-9_.@+/-]*)?\`" "$doc" | tr -d '`' | sort -u)
done

# 2. The ruling table.
arch=docs/architecture.md
if [ ! -f "$arch" ]; then
    fail "$arch is missing"
else
    rulings=${COMBATD_RULINGS:-$root/../shared/rules/RULINGS.md}
    if [ -f "$rulings" ]; then
        want=$(grep -oE '^- \*\*[WD][0-9]+ ' "$rulings" | grep -oE '[WD][0-9]+' | sort -u)
    else
        echo "note: $rulings not found; checking the table's ids for gaps only"
        have=$(grep -oE '^\| (W|D)[0-9]+ ' "$arch" | grep -oE '[WD][0-9]+')
        nw=$(echo "$have" | grep -c '^W')
        nd=$(echo "$have" | grep -c '^D')
        want=$( (seq -f 'W%g' 1 "$nw"; seq -f 'D%g' 1 "$nd") | sort -u)
    fi
    for id in $want; do
        row=$(grep -E "^\| $id \|" "$arch" | head -n 1)
        if [ -z "$row" ]; then
            fail "$arch has no row for $id"
            continue
        fi
        # shellcheck disable=SC2016 # the backquotes are literal
        files=$(echo "$row" | grep -oE '`[^`]+`' | tr -d '`' | grep '/')
        [ -n "$files" ] || fail "$arch: the row for $id names no file"
        for f in $files; do
            if [ ! -f "$f" ]; then
                fail "$arch: $id names $f, which does not exist"
            elif ! grep -qw "$id" "$f"; then
                fail "$arch: $id names $f, which does not cite $id"
            else
                passed=$((passed + 1))
            fi
        done
    done
fi

# 3. The layers (docs/architecture.md): core includes neither jansson nor libmicrohttpd nor an
# upper layer; api includes no libmicrohttpd and nothing of src/http.
while IFS= read -r hit; do fail "core reaches up: $hit"; done < <(
    grep -nE '#include [<"](jansson|microhttpd|api|config|server|router|json_[a-z_]+)\.h[>"]' \
        src/core/*.c src/core/*.h include/combatd/*.h)
while IFS= read -r hit; do fail "api reaches up: $hit"; done < <(
    grep -nE '#include [<"](microhttpd|server|server_internal|router|response|worker|framing|watchdog|access_log|metrics)\.h[>"]' \
        src/api/*.c src/api/*.h)
passed=$((passed + 1))

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
