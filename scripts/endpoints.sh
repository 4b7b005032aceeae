#!/usr/bin/env bash
# The POST endpoints of CBD_ENDPOINT_TABLE (src/api/endpoints.h), one per line as
# "PATH HARNESS": the fuzz harness's name is fuzz_ and the path with '/' and '-' as '_'
# (/duper/board/battle -> fuzz_duper_board_battle). The fuzz build and runner, the corpus maker
# and the golden check read the list from here, so a new row reaches all of them.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CPP=${CPP:-cpp}
# A row whose POST handler is NULL is a GET resource; the preprocessor leaves NULL as it is.
printf '#include "endpoints.h"\n#define ROW(path, allow, post, ...) post path\nCBD_ENDPOINT_TABLE(ROW)\n' |
    "$CPP" -P -I"$ROOT/src/api" - |
    tr ' ' '\n' | grep -v '^$' | paste -d' ' - - |
    awk '$1 != "NULL" { p = $2; gsub(/"/, "", p); h = p; gsub(/[\/-]/, "_", h);
                        print p " fuzz" h }'
