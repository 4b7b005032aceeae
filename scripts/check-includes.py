#!/usr/bin/env python3
"""Fails on a circle between the .c files of src/: one file using a function or variable that
another defines, which uses one of the first's in turn (directly or through others).

The dependencies are read off the compiled objects (nm: each object's defined and undefined
global symbols), so a header shared by two .c files, or a declaration written in the wrong
header, cannot hide one. Prints each circle as "a.c -> b.c -> a.c", then "N passed, N failed"
(one case per .c file).

    scripts/check-includes.py BUILD_DIR     (a build of the project, e.g. build/)
"""
import pathlib
import subprocess
import sys

BUILD = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "build")
ROOT = pathlib.Path(__file__).resolve().parent.parent


def objects():
    """source path (src/...) -> object file, for the project's libraries and main."""
    out = {}
    for o in sorted(BUILD.glob("CMakeFiles/*.dir/src/**/*.c.o")) + \
            sorted(BUILD.glob("CMakeFiles/*.dir/src/*.c.o")):
        rel = "/".join(o.relative_to(BUILD / "CMakeFiles").parts[1:])[:-2]
        # A build directory keeps the objects of files that were moved or removed since: only
        # those of sources that exist now count.
        if (ROOT / rel).is_file():
            out[rel] = o
    return out


def symbols(obj):
    text = subprocess.run(["nm", "-g", str(obj)], check=True, capture_output=True,
                          text=True).stdout
    defined, used = set(), set()
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRC":
            defined.add(parts[2])
    return defined, used


def graph(objs):
    syms = {src: symbols(o) for src, o in objs.items()}
    where = {}
    for src, (defined, _) in syms.items():
        for s in defined:
            where[s] = src
    return {src: {where[s] for s in used if s in where and where[s] != src}
            for src, (_, used) in syms.items()}


def circles(g):
    found, state, stack = [], {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(g[n]):
            if state.get(m) == 1:
                found.append(stack[stack.index(m):] + [m])
            elif m not in state:
                visit(m)
        stack.pop()
        state[n] = 2

    for n in sorted(g):
        if n not in state:
            visit(n)
    return found


def main():
    objs = objects()
    if not objs:
        print(f"no objects under {BUILD}: build first")
        print("0 passed, 1 failed")
        return 1
    found = circles(graph(objs))
    in_circle = set()
    for cyc in found:
        print("FAIL circle: " + " -> ".join(cyc))
        in_circle.update(cyc)
    print(f"{len(objs) - len(in_circle)} passed, {len(in_circle)} failed")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
