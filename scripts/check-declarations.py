#!/usr/bin/env python3
"""Fails on a declaration in the wrong header: each function or variable a header of src/ or
include/combatd/ declares must be defined by the .c file of the header's name
(warapp_turn_orders.h -> warapp_turn_orders.c) or by a file the header names in the comment it
opens with (the core's public headers list the files that implement them), unless a header of
src/ says there that it is its folder's shared header (api.h, warapp_turn_internal.h); and by
some file at all, in every header (a declaration nothing defines is a promise nobody keeps).

Declarations are read with Universal Ctags (prototypes and extern variables); definitions off
the compiled objects (nm: each object's defined global symbols), as scripts/check-includes.py
reads them. Also fails on a name spelled against CONTRIBUTING.md's "Conventions": one that only the
files of one folder share is cbdp_, a cbdp_ name is used in its folder only (a folder split by
job into sub-folders is one folder: see folder_of), and a name that
its own file alone uses (tests and benchmarks included) is static. Prints each
finding, then "N passed, N failed" (one case per header, and one per misspelled name).

    scripts/check-declarations.py BUILD_DIR     (a build of the project, e.g. build/)
"""
import pathlib
import re
import shutil
import subprocess
import sys

BUILD = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "build")
ROOT = pathlib.Path(__file__).resolve().parent.parent


def definitions(users=None):
    """symbol -> the source (src/...) whose object defines it; users, when given, gets
    symbol -> the sources that use it (src/, and the tests' and benchmarks' own files)."""
    sources = {}
    for o in sorted(BUILD.glob("**/CMakeFiles/*.dir/**/*.c.o")):
        cmake_files = next(p for p in o.parents if p.name == "CMakeFiles")
        top = cmake_files.parent.relative_to(BUILD)  # tests/, bench/ or the top
        inside = o.relative_to(cmake_files).parts[1:]  # below <target>.dir/
        rel = "/".join((*top.parts, *inside))[:-2]
        if rel.startswith("embedded/"):
            rel = "build/" + rel  # the documents embedded at build time (CMakeLists.txt)
        elif not (ROOT / rel).is_file():
            continue  # the object of a file moved or removed since
        sources[str(o)] = rel
    where = {}
    # One nm for every object: "object:[address] type name" a line (object paths hold no ':').
    text = subprocess.run(["nm", "-g", "-A", *sources], check=True, capture_output=True,
                          text=True).stdout if sources else ""
    for line in text.splitlines():
        obj, _, rest = line.partition(":")
        parts = rest.split()
        rel = sources.get(obj)
        if rel is None or not parts:
            continue
        if len(parts) == 2 and parts[0] == "U":
            if users is not None:
                users.setdefault(parts[1], set()).add(rel)
        elif len(parts) == 3 and parts[1] in "TDBRC" and rel.startswith(("src/", "build/")):
            where[parts[2]] = rel  # tests and benchmarks define nothing of the service
    return where


def folder_of(src):
    """The folder whose files may share a cbdp_ name with src: its own, or the one above when
    that one is split by job into sub-folders (it holds no .c file of its own, only the shared
    header of its jobs, *_internal.h, as src/core/warapp/turn/ does): the jobs of one engine
    share its names as the files of one folder do."""
    folder = pathlib.PurePath(src).parent
    up = ROOT / folder.parent
    if not any(up.glob("*.c")) and any(up.glob("*_internal.h")):
        return folder.parent
    return folder


def prefixes(where, users):
    """The findings of the naming rule: a name of src/ that the files of one folder share, and
    no file outside it, is cbdp_ (CONTRIBUTING.md, "Conventions"); a cbdp_ name stays in its folder.
    Names of include/combatd/ are the core's public face: cbd_."""
    public = set()
    for h in (ROOT / "include").rglob("*.h"):
        public |= set(re.findall(r"\b(cbd_\w+)\b", h.read_text()))
    found = []
    # What only its own file uses, tests and benchmarks included, is static.
    for name, src in sorted(where.items()):
        if (src.startswith("src/") and src.endswith(".c") and name.startswith("cbd") and
                name not in public and not users.get(name, set()) - {src}):
            found.append(f"{src}: {name} is used by {src} alone: make it static")
    # The functions a header of src/ defines (static inline): their users are the files that
    # name them.
    texts = {f: (ROOT / f).read_text() for f in sources()}
    for h in headers():
        for name, _ in declarations(h, "f"):
            named = {f for f, t in texts.items() if f != h and re.search(rf"\b{name}\b", t)}
            where.setdefault(name, h)
            users.setdefault(name, set()).update(named)
    for name, src in sorted(where.items()):
        if not src.startswith("src/"):
            continue
        folder = folder_of(src)
        others = {u for u in users.get(name, ()) if u != src and u.startswith("src/")}
        outside = sorted(u for u in others if folder_of(u) != folder)
        if name.startswith("cbdp_") and outside:
            found.append(f"{src}: {name} is used outside {folder}/ ({outside[0]}): name it cbd_")
        elif name.startswith("cbd_") and name not in public and others and not outside:
            found.append(f"{src}: {name} is shared by the files of {folder}/ only: name it "
                         f"cbdp_{name[4:]}")
    return found


def declarations(header, kinds="px"):
    """The names a header declares (prototypes and extern variables, or the kinds asked: f for
    the functions it defines), with their lines."""
    # The list of order kinds (CBD_ORDER_KIND_LIST) expands into prototypes of the names its
    # rows give; ctags would read the expansion's line as a prototype of the list itself, and a
    # function a row names that nobody wrote fails the build already. C11's alignas (a keyword
    # and its operand) before a member would read as a prototype of `alignas` too.
    text = subprocess.run(["ctags", "-x", "--language-force=C", f"--c-kinds={kinds}",
                           "-I", "CBD_ORDER_KIND_LIST+", "-I", "alignas+", "--_xformat=%N %n",
                           str(ROOT / header)],
                          check=True, capture_output=True, text=True).stdout
    return [(n, int(line)) for n, line in (l.split() for l in text.splitlines())]


def opening_comment(header):
    m = re.search(r"/\*.*?\*/", (ROOT / header).read_text(), re.S)
    return m.group(0) if m else ""


def sources():
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "--", "src/*.[ch]"],
                            cwd=ROOT, check=True, capture_output=True, text=True).stdout.split()
    return sorted(f for f in set(listed) if (ROOT / f).is_file())


def headers():
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "--", "src/*.h",
                             "include/combatd/*.h"], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout.split()
    return sorted(h for h in set(listed) if (ROOT / h).is_file())


def main():
    users = {}
    where = definitions(users)
    if not where:
        print(f"no objects under {BUILD}: build first")
        print("0 passed, 1 failed")
        return 1
    if shutil.which("ctags") is None:
        print("check-declarations: ctags is not installed (apt-get install universal-ctags; "
              "scripts/install-deps.sh test installs it)")
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
    for finding in prefixes(where, users):
        print(finding)
        failed += 1
    passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
