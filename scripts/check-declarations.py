#!/usr/bin/env python3
"""Fails on a declaration in the wrong header: each function or variable a header of src/ or
include/combatd/ declares must be defined by the .c file of the header's name
(warapp_turn_orders.h -> warapp_turn_orders.c) or by a file the header names in the comment it
opens with (the core's public headers list the files that implement them), unless a header of
src/ says there that it is its folder's shared header (api.h, warapp_turn_internal.h); and by
some file at all, in every header (a declaration nothing defines is a promise nobody keeps).

Declarations are read with Universal Ctags (prototypes and extern variables); definitions off
the compiled objects (nm: each object's defined global symbols), as scripts/check-includes.py
reads them. Prints each finding as "header: name is defined in file.c", then
"N passed, N failed" (one case per header).

    scripts/check-declarations.py BUILD_DIR     (a build of the project, e.g. build/)
"""
import pathlib
import re
import subprocess
import sys

BUILD = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "build")
ROOT = pathlib.Path(__file__).resolve().parent.parent


def definitions():
    """symbol -> the source (src/...) whose object defines it."""
    where = {}
    for o in sorted(BUILD.glob("CMakeFiles/*.dir/**/*.c.o")):
        rel = "/".join(o.relative_to(BUILD / "CMakeFiles").parts[1:])[:-2]
        if rel.startswith("embedded/"):
            rel = "build/" + rel  # the documents embedded at build time (CMakeLists.txt)
        elif not rel.startswith("src/") or not (ROOT / rel).is_file():
            continue  # a test's, or the object of a file moved or removed since
        text = subprocess.run(["nm", "-g", "--defined-only", str(o)], check=True,
                              capture_output=True, text=True).stdout
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBRC":
                where[parts[2]] = rel
    return where


def declarations(header):
    """The names a header declares (prototypes and extern variables), with their lines."""
    text = subprocess.run(["ctags", "-x", "--language-force=C", "--c-kinds=px",
                           "--_xformat=%N %n", str(ROOT / header)],
                          check=True, capture_output=True, text=True).stdout
    return [(n, int(line)) for n, line in (l.split() for l in text.splitlines())]


def opening_comment(header):
    m = re.search(r"/\*.*?\*/", (ROOT / header).read_text(), re.S)
    return m.group(0) if m else ""


def headers():
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "--", "src/*.h",
                             "include/combatd/*.h"], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout.split()
    return sorted(h for h in set(listed) if (ROOT / h).is_file())


def main():
    where = definitions()
    if not where:
        print(f"no objects under {BUILD}: build first")
        print("0 passed, 1 failed")
        return 1
    passed = failed = 0
    for h in headers():
        stem = pathlib.PurePath(h).stem
        named = opening_comment(h)
        shared = "shared header" in " ".join(named.split())
        bad = []
        for name, line in declarations(h):
            src = where.get(name)
            if src is None:
                bad.append(f"{h}:{line}: {name} is declared here and defined nowhere")
            elif (pathlib.PurePath(src).stem != stem and pathlib.PurePath(src).name not in named
                  and not (shared and h.startswith("src/")) and not src.startswith("build/")):
                bad.append(f"{h}:{line}: {name} is defined in {src}, which this header's "
                           f"opening comment does not name")
        for b in bad:
            print(b)
        passed, failed = (passed, failed + 1) if bad else (passed + 1, failed)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
