#!/usr/bin/env python3
"""Builds the fuzzers' seed corpora from the tests.

Every C string literal in tests/ (adjacent literals joined, escapes decoded) that looks like a
JSON document becomes a seed for each endpoint harness, so the corpora grow by themselves as
endpoint tests land; literals with config keys and config/*.json seed the config harness. The
hand-written seeds in tests/fuzz/seeds/<harness>/ are added too. Object keys found on the way
go into a libFuzzer dictionary beside the JSON tokens.

    tests/fuzz/make_corpus.py OUT_DIR     -> OUT_DIR/<harness>/*, OUT_DIR/json.dict
"""
import hashlib
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENDPOINTS = ["fuzz_analyze_attack", "fuzz_simulate", "fuzz_analyze_turn", "fuzz_simulate_turn",
             "fuzz_duper_battle", "fuzz_duper_board_battle", "fuzz_duper_board_options",
             "fuzz_mcp"]
CONFIG_KEYS = {"server", "warapp", "duper"}

LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
# Adjacent literals separated only by whitespace or comments are one string in C.
RUN = re.compile(r'(?:"(?:[^"\\\n]|\\.)*"(?:\s|//[^\n]*\n|/\*.*?\*/)*)+', re.S)
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", '"': '"', "\\": "\\", "'": "'"}


def unescape(body):
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = body[i + 1]
        if n == "x":
            m = re.match(r"[0-9a-fA-F]+", body[i + 2:])
            out.append(chr(int(m.group(0), 16) & 0xFF))
            i += 2 + len(m.group(0))
        elif n in "01234567":
            m = re.match(r"[0-7]{1,3}", body[i + 1:])
            out.append(chr(int(m.group(0), 8) & 0xFF))
            i += 1 + len(m.group(0))
        else:
            out.append(ESCAPES.get(n, n))
            i += 2
    return "".join(out).encode("latin-1", errors="replace")


def literals(text):
    text = re.sub(r"^\s*#.*$", "", text, flags=re.M)  # no #include "..." paths
    for run in RUN.finditer(text):
        yield b"".join(unescape(m.group(1)) for m in LITERAL.finditer(run.group(0)))


def keys_of(doc, found):
    if isinstance(doc, dict):
        for k, v in doc.items():
            found.add(k)
            keys_of(v, found)
    elif isinstance(doc, list):
        for v in doc:
            keys_of(v, found)


def main():
    out = pathlib.Path(sys.argv[1])
    seeds = {name: set() for name in ENDPOINTS + ["fuzz_config"]}
    keys = set()
    for path in sorted((ROOT / "tests").rglob("*.c")):
        if "fuzz" in path.parts:
            continue
        for lit in literals(path.read_text(errors="replace")):
            stripped = lit.lstrip()
            if not stripped[:1] in (b"{", b"["):
                continue
            try:
                doc = json.loads(lit)
                keys_of(doc, keys)
            except (ValueError, UnicodeDecodeError):
                doc = None  # bad input from the tests is a good seed too
            if doc is None and b"'" in lit:
                # Tests that write bodies with ' for " (test_duper_board_api.c's q()).
                try:
                    doc = json.loads(lit.replace(b"'", b'"'))
                    keys_of(doc, keys)
                    for name in ENDPOINTS:
                        seeds[name].add(lit.replace(b"'", b'"'))
                except (ValueError, UnicodeDecodeError):
                    doc = None
            for name in ENDPOINTS:
                seeds[name].add(lit)
            if isinstance(doc, dict) and CONFIG_KEYS & doc.keys():
                seeds["fuzz_config"].add(lit)
    for path in sorted((ROOT / "config").glob("*.json")) if (ROOT / "config").is_dir() else []:
        seeds["fuzz_config"].add(path.read_bytes())
    for name in seeds:
        hand = ROOT / "tests" / "fuzz" / "seeds" / name
        for path in sorted(hand.glob("*")) if hand.is_dir() else []:
            data = path.read_bytes()
            seeds[name].add(data)
            try:
                keys_of(json.loads(data), keys)
            except (ValueError, UnicodeDecodeError):
                pass
    for name, items in seeds.items():
        d = out / name
        d.mkdir(parents=True, exist_ok=True)
        for data in items:
            (d / hashlib.sha1(data).hexdigest()).write_bytes(data)
        print(f"corpus: {name}: {len(items)} seeds from the tests -> {d}")
    tokens = ["{", "}", "[", "]", ":", ",", '""', "true", "false", "null", "-0", "1e999",
              "1e-400", "0.000001", "9223372036854775807", "18446744073709551616",
              "1000000000", '"\\u0000"', '"\\ud800"', "NaN", "Infinity"]
    lines = [json.dumps(t) for t in tokens] + [json.dumps(json.dumps(k)) for k in sorted(keys)]
    (out / "json.dict").write_text("\n".join(lines) + "\n")
    print(f"corpus: dictionary: {len(lines)} tokens -> {out / 'json.dict'}")


if __name__ == "__main__":
    main()
