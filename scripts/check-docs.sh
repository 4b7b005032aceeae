#!/usr/bin/env bash
# Keeps the documentation true to the tree:
#  1. every repository path that README.md, CONTRIBUTING.md, CHANGELOG.md, SECURITY.md,
#     docs/**/*.md, deploy/README.md, openapi.yaml or any CMakeLists.txt names, in backquotes
#     or in plain text (a YAML description, a comment), exists, and every relative link of
#     the Markdown files leads to a file and, with a #fragment, to one of its headings;
#  2. the rules: docs/rules.md has one heading per rule ("### W14 — title"), the ids of each game
#     run 1..n without a gap, every rule id cited in src/, include/, tests/, web/, docs/,
#     bench/'s C files, openapi.yaml and README.md has a heading there, and docs/architecture.md's
#     rule map has one row per rule, with the heading's title, naming the one file where the
#     rule lives and its tests (or "not yet implemented", as docs/rules.md then says), each of
#     which exists and cites the rule, and the span of the rules README.md and openapi.yaml
#     state ("by id (W1–W42, D1–D17)") ends at each game's last heading;
#  3. no file includes a header of a layer above its own.
# Reads nothing outside the repository. Untracked files count too, so a new file is checked
# before it is added.
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
# repository's top-level folders (or is a top-level file with an extension) and has no spaces,
# or a word of plain text that starts with a top-level folder and a slash (a sentence's full
# stop is not part of it; one written with a placeholder, `fuzz_<path>`, is no file).
tops=$(git ls-files | cut -d/ -f1 | sort -u | sed 's/\./\\./g' | tr '\n' '|')
tops=${tops%|}
bare="(?<![A-Za-z0-9_./\`:-])($tops)/[A-Za-z0-9_.@+/-]*[A-Za-z0-9_]"
bare="$bare(?![<*\$…{A-Za-z0-9_@+/-]|\.[A-Za-z0-9_])"
mapfile -t cmake_lists < <(git ls-files -co --exclude-standard -- '*CMakeLists.txt')
mapfile -t markdown < <(git ls-files -co --exclude-standard -- 'docs/*.md' | sort -u)
docs=(README.md CONTRIBUTING.md CHANGELOG.md SECURITY.md "${markdown[@]}" deploy/README.md openapi.yaml
    "${cmake_lists[@]}")
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
    done < <({
        grep -oE "\`($tops)(/[A-Za-z0-9_.@+/-]*)?\`" "$doc" | tr -d '`'
        grep -oP "$bare" "$doc"
    } | sort -u)
done

# 1b. Links between the Markdown files: [text](path#fragment), the path relative to the file,
# the fragment a heading's anchor as GitHub makes it (lower case, punctuation dropped, spaces
# as hyphens, "-1" for a second heading of the same text).
while IFS= read -r finding; do fail "$finding"; done < <(python3 - "${docs[@]}" <<'PY'
import os, re, sys
def slug(h):
    return re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
def anchors(path):
    out, seen, fence = set(), {}, False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"^#{1,6} (.*)", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    return out
for doc in sys.argv[1:]:
    if not doc.endswith(".md") or not os.path.isfile(doc):
        continue
    for target in re.findall(r"\]\(([^)\s]+)\)", open(doc, encoding="utf-8").read()):
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, frag = target.partition("#")
        full = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
        if not os.path.exists(full):
            print(f"{doc} links to {target}, which does not exist")
        elif frag and full.endswith(".md") and frag not in anchors(full):
            print(f"{doc} links to {target}: {full} has no such heading")
PY
)
passed=$((passed + 1))

# 2. The rules. docs/rules.md states each rule under a heading "### W14 — title"; every id cited
# anywhere must have one, and docs/architecture.md's rule map names, per rule, the one file where
# it lives and its tests, each of which must cite it.
rules=docs/rules.md
arch=docs/architecture.md
map_heading='## Rulings: where each is implemented and tested'
# Prints "file:line:ID" for each rule id the files cite: the id as a word (W14, W14.1, W1–W16
# gives W1 and W16) or the start of a Criterion test name (Test(suite, d2_d14_...) cites D2
# and D14).
citations() {
    grep -HInowE '[WD][0-9]+' -- "$@"
    grep -HInoE 'Test\([A-Za-z0-9_]+, *([wd][0-9]+_)+' -- "$@" |
        sed -E 's/^([^:]*:[0-9]+:)Test\([A-Za-z0-9_]+, */\1/' |
        awk -F: '{ n = split($3, id, "_")
                   for (i = 1; i < n; i++) print $1 ":" $2 ":" toupper(id[i]) }'
}
# Whether file $1 cites rule $2.
cites() {
    grep -qx "$2" <<<"$(citations "$1" | cut -d: -f3)"
}
# The text of rule $1's section of docs/rules.md, heading included.
rule_section() {
    awk -v id="$1" '/^##+ / { inside = ($2 == id && $3 == "—") } inside' "$rules"
}
if [ ! -f "$rules" ]; then
    fail "$rules is missing"
else
    headings=$(grep -E '^##+ [WD][0-9]+ — ' "$rules")
    ids=$(echo "$headings" | awk '{ print $2 }')
    for dup in $(echo "$ids" | sort | uniq -d); do fail "$rules has two headings for $dup"; done
    # The ids of a game run 1..n without a gap, so that no rule was dropped unnoticed, but for
    # the ids the page's "Reserved ids:" line lists (taken by rulings written on other branches,
    # so that two branches never give one id two meanings); a reserved id cited anywhere still
    # fails below until its heading comes.
    # A range is written W34–W39 or W34–39: the second id's letter is dropped (the regex took
    # only W34 and W39 of the first form, leaving W35–W38 unreserved).
    reserved=$(grep -m1 '^Reserved ids:' "$rules" | grep -oE '[WD][0-9]+(–[WD]?[0-9]+)?' |
        awk -F'–' '{ g = substr($1, 1, 1); a = substr($1, 2); sub(/^[WD]/, "", $2)
                     b = $2 == "" ? a : $2
                     for (n = a; n <= b; n++) print g n }')
    for game in W D; do
        top=$(echo "$ids" | grep "^$game" | tr -d WD | sort -n | tail -n 1)
        for n in $(seq 1 "${top:-0}"); do
            grep -qx "$game$n" <<<"$ids" || grep -qx "$game$n" <<<"$reserved" ||
                fail "$rules has no heading for $game$n"
        done
    done
    # The rules' whole span as README.md and openapi.yaml state it ("by id (W1–W42, D1–D17)")
    # ends at each game's last heading, so that a new rule cannot leave it stale.
    spans=$(grep -HnE 'id \(W1–W[0-9]+' README.md openapi.yaml)
    [ -n "$spans" ] || fail "README.md and openapi.yaml state no span of the rules (id (W1–Wn, D1–Dn))"
    span_bad=0
    for game in W D; do
        top=$(echo "$ids" | grep "^$game" | tr -d WD | sort -n | tail -n 1)
        while IFS= read -r hit; do
            [ -n "$hit" ] || continue
            end=$(grep -oE "${game}1–${game}[0-9]+" <<<"${hit#*id (}" | head -n 1)
            if [ "$end" != "${game}1–${game}${top}" ]; then
                fail "$(cut -d: -f1,2 <<<"$hit") states ${end:-no $game span} where $rules runs to $game$top"
                span_bad=1
            fi
        done <<<"$spans"
    done
    [ "$span_bad" = 1 ] || passed=$((passed + 1))
    # Every id cited in the code, the tests, the contract, the page and the docs has a heading.
    scope=(src include tests web docs openapi.yaml README.md CONTRIBUTING.md 'bench/*.c' 'bench/*.h')
    mapfile -t files < <(git ls-files --cached --others --exclude-standard -- "${scope[@]}" |
        sort -u | while IFS= read -r f; do [ -f "$f" ] && echo "$f"; done)
    unknown=
    if [ "${#files[@]}" -gt 0 ]; then
        reserved_at=$(grep -n -m1 '^Reserved ids:' "$rules" | cut -d: -f1)
        unknown=$(citations "${files[@]}" | awk -F: -v known="$(echo "$ids" | tr '\n' ' ')" \
            -v rules="$rules" -v at="${reserved_at:-0}" '
            BEGIN { n = split(known, k, " "); for (i = 1; i <= n; i++) ok[k[i]] = 1 }
            !ok[$3] && !($1 == rules && $2 == at)')
    fi
    while IFS=: read -r f line id; do
        [ -n "$id" ] && fail "$f:$line cites $id, which has no heading in $rules"
    done <<<"$unknown"
    [ -n "$unknown" ] || passed=$((passed + 1))

    # The rule map: one row per rule, in the section $map_heading of docs/architecture.md.
    rows=$(awk -v h="$map_heading" '$0 == h { inside = 1; next } /^## / { inside = 0 }
        inside && /^\| [WD][0-9]+ \|/' "$arch" 2>/dev/null)
    [ -n "$rows" ] || fail "$arch has no rule map under \"$map_heading\""
    for dup in $(echo "$rows" | awk -F' *\\| *' '{ print $2 }' | sort | uniq -d); do
        fail "$arch: the rule map has two rows for $dup"
    done
    for id in $ids; do
        row=$(echo "$rows" | awk -F' *\\| *' -v id="$id" '$2 == id' | head -n 1)
        if [ -z "$row" ]; then
            fail "$arch: the rule map has no row for $id"
            continue
        fi
        IFS='|' read -r _ _ what lives tested _ <<<"$row"
        what=$(echo "$what" | sed 's/^ *//; s/ *$//')
        lives=$(echo "$lives" | sed 's/^ *//; s/ *$//')
        title=$(echo "$headings" | awk -v id="$id" '$2 == id { sub(/^#+ [^ ]+ — /, ""); print }')
        [ "$what" = "$title" ] ||
            fail "$arch: $id is \"$what\" in the rule map, \"$title\" in $rules"
        # shellcheck disable=SC2016 # the backquotes are literal
        lives_files=$(echo "$lives" | grep -oE '`[^`]+`' | tr -d '`')
        # shellcheck disable=SC2016
        test_files=$(echo "$tested" | grep -oE '`[^`]+`' | tr -d '`')
        if grep -q 'not yet implemented' <<<"$lives"; then
            grep -qi 'not yet implemented' <<<"$(rule_section "$id")" ||
                fail "$arch: $id is not yet implemented in the rule map, but $rules does not say so"
            [ -z "$lives_files$test_files" ] ||
                fail "$arch: $id is not yet implemented, yet its row names files"
            passed=$((passed + 1))
            continue
        fi
        ! grep -qi 'not yet implemented' <<<"$(rule_section "$id")" ||
            fail "$arch: $id names where it lives, but $rules says it is not yet implemented"
        [ "$(echo "$lives_files" | grep -c .)" = 1 ] ||
            fail "$arch: $id must name the one file where it lives, not \"$lives\""
        case "$lives_files" in src/* | include/*) ;; *)
            fail "$arch: $id must live in src/ or include/, not in \"$lives\"" ;;
        esac
        [ -n "$test_files" ] || fail "$arch: $id names no test"
        for f in $lives_files $test_files; do
            if [ ! -f "$f" ]; then
                fail "$arch: $id names $f, which does not exist"
            elif ! cites "$f" "$id"; then
                fail "$arch: $id names $f, which does not cite $id"
            else
                passed=$((passed + 1))
            fi
        done
        for f in $test_files; do
            case "$f" in tests/*) ;; *) fail "$arch: $id lists $f as a test, outside tests/" ;; esac
        done
    done
    for id in $(echo "$rows" | awk -F' *\\| *' '{ print $2 }'); do
        grep -qx "$id" <<<"$ids" ||
            fail "$arch: the rule map has a row for $id, which has no heading in $rules"
    done
fi

# 3. The layers (docs/architecture.md): core includes neither jansson nor libmicrohttpd nor an
# upper layer; json and api include no libmicrohttpd and nothing of src/http; nothing below the
# loader includes its headers (src/config/ sits above http and api). A header of another folder
# of src/ is included by its path under src/ ("http/guards/conns.h"), so the line names the
# layer it reaches; a name without a folder is a header of the including file's own folder (or
# a test's support header). The unit tests of a layer (tests/unit/<layer>/) include nothing of
# the layers above it either.
# Every file of a layer, in its folders at any depth (untracked ones too).
layer_files() {
    git ls-files -co --exclude-standard -- "$@" | while IFS= read -r f; do [ -f "$f" ] && echo "$f"; done
}
mapfile -t core_files < <(layer_files 'src/core/*.[ch]' 'include/combatd/*.h' 'tests/unit/core/*.c')
mapfile -t json_files < <(layer_files 'src/json/*.[ch]' 'tests/unit/json/*.c')
mapfile -t api_files < <(layer_files 'src/api/*.[ch]' 'tests/unit/api/*.c')
mapfile -t http_files < <(layer_files 'src/http/*.[ch]' 'tests/unit/http/*.c')
while IFS= read -r hit; do fail "core reaches up: $hit"; done < <(
    grep -nE '#include [<"]((jansson|microhttpd)\.h|(json|api|http|config)/)' "${core_files[@]}")
while IFS= read -r hit; do fail "json reaches up: $hit"; done < <(
    grep -nE '#include [<"](microhttpd\.h|(api|http|config)/)' "${json_files[@]}")
while IFS= read -r hit; do fail "api reaches up: $hit"; done < <(
    grep -nE '#include [<"](microhttpd\.h|http/)' "${api_files[@]}")
while IFS= read -r hit; do fail "reaches up to the loader: $hit"; done < <(
    grep -nE '#include "config/' "${api_files[@]}" "${http_files[@]}")
# A bare name must be a header beside the file (or, in tests and benchmarks, a support header).
mapfile -t c_files < <(layer_files 'src/*.[ch]' 'tests/*.[ch]' 'bench/*.[ch]')
while IFS=: read -r f line name; do
    [ -e "$(dirname "$f")/$name" ] || [ -e "tests/support/$name" ] ||
        [ -z "$(git ls-files -co --exclude-standard -- "src/*/$name" | head -n 1)" ] ||
        fail "$f:$line includes \"$name\" of another folder: name its folder (\"$(
            git ls-files -co --exclude-standard -- "src/*/$name" | head -n 1 | sed 's|^src/||')\")"
done < <(grep -noE '^#include "[^"/]+"' "${c_files[@]}" | sed -E 's/:#include "(.*)"$/:\1/')
passed=$((passed + 1))

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
