#!/usr/bin/env python3
"""Instructions per request by stage, from a callgrind profile of a server (bench/profile.sh).

    callgrind_stages.py CALLGRIND_OUT REQUESTS

Every function's own instructions (callgrind's exclusive Ir) go to the stage of the file or
library it is in: libmicrohttpd, combatd's guards, its request path, parse (jansson's load and
the request's arena), the api layer (validation and the answer's assembly), the core, the
answer writer (render), the access log and the metrics. What the C library and jansson do is
given to the stages that call them, in proportion to the instructions of those calls (so the
memset inside libmicrohttpd is libmicrohttpd's, a calloc of the request path is the request
path's); "of which memset in libmicrohttpd" is the part of libmicrohttpd that clears its
memory pool. Prints one line per stage: instructions per request and the share of the total.
"""
import re
import sys
from collections import defaultdict

STAGES = ["libmicrohttpd", "  of which memset", "guards", "request path", "parse", "api",
          "core", "render", "log", "metrics", "other"]


def area(ob, fl, fn):
    """The stage of a function's own instructions, or 'libc'/'jansson' (given to callers)."""
    if "libmicrohttpd" in ob:
        return "libmicrohttpd"
    if "libjansson" in ob:
        return "jansson"
    if "/src/" not in fl and "/include/" not in fl:
        return "libc"  # the C library, the loader, valgrind's own
    if fn == "cbd_api_parse" or fn == "cbd_api_request_release" or "/src/json/json_alloc" in fl:
        return "parse"
    if "/src/http/guards/" in fl:
        return "guards"
    if "/src/http/ops/access_log" in fl or "/src/http/ops/request_log" in fl:
        return "log"
    if "/src/http/ops/metrics" in fl:
        return "metrics"
    if "/src/http/" in fl:
        return "request path"
    if "/src/json/json_write" in fl or "/src/json/json_real" in fl:
        return "render"
    if "/src/api/" in fl or "/src/json/" in fl:
        return "api"
    if "/src/core/" in fl or "/include/" in fl:
        return "core"
    return "other"


def parse(path):
    names = {"fl": {}, "fn": {}, "ob": {}}
    kind_of = {"fl": "fl", "fi": "fl", "fe": "fl", "cfi": "fl", "cfl": "fl", "fn": "fn",
               "cfn": "fn", "ob": "ob", "cob": "ob"}
    self_cost = defaultdict(int)  # (ob, fl, fn) -> Ir
    edges = []  # (caller key, callee key, inclusive Ir)
    cur = {"ob": "", "fl": "", "fn": ""}
    callee = None
    pending_call = False
    total = 0
    spec = re.compile(r"^(\w+)=\((\d+)\)(?: (.*))?$")
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line[0] == "#":
                continue
            if line.startswith("summary:") or line.startswith("totals:"):
                total = int(line.split()[1])
                continue
            m = spec.match(line)
            if m:
                key, num, name = m.group(1), m.group(2), m.group(3)
                table = names[kind_of.get(key, "fl")]
                if name is not None:
                    table[num] = name
                value = table.get(num, "?")
                if key in ("ob", "fl", "fn"):
                    cur[key] = value
                    if key == "fn":
                        callee = None
                elif key == "cob":
                    callee = callee or {}
                    callee["ob"] = value
                elif key in ("cfi", "cfl"):
                    callee = callee or {}
                    callee["fl"] = value
                elif key == "cfn":
                    callee = callee or {}
                    callee["fn"] = value
                continue
            if line.startswith("calls="):
                pending_call = True
                continue
            if "=" in line.split()[0]:
                continue  # other key=value lines (fi=, fe= without ids are not used here)
            if line[0].isdigit() or line[0] in "+-*":
                ir = int(line.split()[-1]) if len(line.split()) > 1 else 0
                me = (cur["ob"], cur["fl"], cur["fn"])
                if pending_call:
                    c = callee or {}
                    target = (c.get("ob", cur["ob"]), c.get("fl", cur["fl"]), c.get("fn", "?"))
                    edges.append((me, target, ir))
                    pending_call = False
                    callee = None
                else:
                    self_cost[me] += ir
    return total, self_cost, edges


def main():
    out, requests = sys.argv[1], int(sys.argv[2])
    total, self_cost, edges = parse(out)
    stage = defaultdict(float)
    lib_self = defaultdict(float)  # 'libc'/'jansson' -> their own instructions in all
    for key, ir in self_cost.items():
        a = area(*key)
        if a in ("libc", "jansson"):
            lib_self[a] += ir
        else:
            stage[a] += ir
    # What the libraries did, given to their callers by the instructions of the calls into them
    # (jansson's load is the parse; its lookups are the api's validation).
    calls_into = {"libc": defaultdict(float), "jansson": defaultdict(float)}
    memset_by_mhd = 0
    for caller, target, ir in edges:
        ca, ta = area(*caller), area(*target)
        if ta in calls_into and ca not in ("libc", "jansson"):
            calls_into[ta][ca] += ir
        elif ta == "libc" and ca == "jansson":
            pass  # inside jansson's calls: already in them
        if ta == "jansson" and ca != "jansson" and target[2] == "json_loadb":
            pass
        if ca == "libmicrohttpd" and "memset" in target[2]:
            memset_by_mhd += ir
    for lib, by in calls_into.items():
        weight = sum(by.values())
        for a, w in by.items():
            stage[a] += lib_self[lib] * w / weight if weight else 0
    stage["  of which memset"] = memset_by_mhd
    counted = sum(v for k, v in stage.items() if not k.startswith(" "))
    print(f"{'stage':<20} {'Ir/request':>12} {'share':>7}")
    for s in STAGES:
        v = stage.get(s, 0)
        if v == 0 and s == "other":
            continue
        print(f"{s:<20} {v / requests:>12,.0f} {100 * v / counted:>6.1f}%")
    print(f"{'total':<20} {counted / requests:>12,.0f} {'':>7}  (callgrind's total "
          f"{total / requests:,.0f})")


if __name__ == "__main__":
    main()
