#!/usr/bin/env python3
"""scripts/arena/arena.py without the engine: a stand-in engine (this file, run with --engine)
writes what the real one would, so the seed's plumbing and the per-round lines are checked.

- `--seed 40 --games 3` runs game g with ARENA_SEED = 40 + g in the engine's environment (the
  stand-in writes it back), and without --seed no ARENA_SEED reaches it, even one set in the
  arena's own environment (a stale one would replay one game three times).
- rounds_played reads scripts/arena/ArenaRandom.java's `arena-round R p1 INCOME REGIONS ARMIES
  p2 ...` lines: the stand-in's game lasts 7 rounds, income 9 and 5 after round 5.
- The replay line names the last game's seed.

Run by ctest; prints Criterion's closing line, which scripts/test.sh counts.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARENA = os.path.join(ROOT, "scripts", "arena", "arena.py")
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(ARENA))
import arena  # noqa: E402

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(f"[{'PASS' if ok else 'FAIL'}] example_arena::{name}" + ("" if ok else f": {detail}"))


def stand_in_engine():
    """What the engine prints: its seed (ours, to check), 7 rounds, player1 the winner."""
    print(f"seed {os.environ.get('ARENA_SEED', 'none')}")
    for r in range(1, 8):
        print(f"arena-round {r} player1 {4 + r} {6 + r} {12 + r} player2 5 6 12", file=sys.stderr)
    print("winner: player1")


def run(args, env_seed=None):
    """arena.py's main with the stand-in as the engine; returns (stdout lines, out dir)."""
    out = tempfile.mkdtemp(prefix="arena-test-")
    arena.engine_command = lambda _arena, a, b: [sys.executable, __file__, "--engine"]
    if env_seed is None:
        os.environ.pop("ARENA_SEED", None)
    else:
        os.environ["ARENA_SEED"] = env_seed
    argv = sys.argv
    sys.argv = ["arena.py", "rule", "starter", "--out", out, "--arena", out] + args
    try:
        from io import StringIO
        saved, sys.stdout = sys.stdout, StringIO()
        try:
            code = arena.main()
        finally:
            text, sys.stdout = sys.stdout.getvalue(), saved
    finally:
        sys.argv = argv
        os.environ.pop("ARENA_SEED", None)
    seeds = [open(f"{out}/game-{g}.out").readline().split()[1] for g in range(3)]
    shutil.rmtree(out)
    return code, text.splitlines(), seeds


def main():
    code, lines, seeds = run(["--games", "3", "--seed", "40"])
    check("--seed 40: games 0, 1, 2 seeded 40, 41, 42", seeds == ["40", "41", "42"], str(seeds))
    check("a game's line: 7 rounds, player1's 9 and player2's 5 after round 5, its seed",
          lines[0].endswith(" 7 rounds, income after round 5: rule 9, starter 5, seed 40)")
          and lines[1].endswith(" 7 rounds, income after round 5: starter 9, rule 5, seed 41)"),
          "\n".join(lines[:2]))
    check("the replay line sets the last game's seed",
          any(line.startswith("replay the last game: ARENA_SEED=42 ") for line in lines),
          "\n".join(lines))
    check("exit 0, the three games won by the seat of player1 (2 of 3 for rule)",
          code == 0 and "rule vs starter: 2 won, 1 lost, 0 drawn, 0 failed of 3" in lines,
          "\n".join(lines))
    code, lines, seeds = run(["--games", "3"], env_seed="99")
    check("no --seed: no ARENA_SEED reaches the engine, not even the arena's own",
          seeds == ["none"] * 3 and "seed" not in lines[0], f"{seeds} {lines[0]}")
    passed = sum(results)
    print(f"[====] Synthesis: Tested: {len(results)} | Passing: {passed} | "
          f"Failing: {len(results) - passed} | Crashing: 0")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    if sys.argv[1:] == ["--engine"]:
        stand_in_engine()
        sys.exit(0)
    sys.exit(main())
