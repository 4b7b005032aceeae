#!/usr/bin/env python3
"""bench/warlight2_selfplay.py in a tiny version against the built combatd: one game of three
rounds, our plans bounded to 50 (`max_plans`) to keep it short, run twice. It must finish, print one well-formed game line and the tally, and print the
same bytes both times (every draw comes from its seed and /simulate-turn's seeds; the plans are
deterministic). No timing and no win rate is asserted: the bench reports those.

Regions after three rounds: each player starts with 3 of the 64 and takes at most one region a
turn per region it holds at the turn's start, so at most 3 * 2^3 = 24; a player with none has
lost (the game line says so before the third round).

Run by ctest (COMBATD_BINARY, the built binary); prints Criterion's closing line.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "arena"))
from arena import start_combatd  # noqa: E402

GAME = re.compile(r"game 0 \(seed 5\): player1 ours, player2 rule: (ours|rule|draw) after "
                  r"(\d+) rounds; ours (\d+) regions income (\d+) rule (\d+) regions income (\d+)")
TALLY = re.compile(r"ours vs rule: (\d+) won, (\d+) lost, (\d+) drawn of 1 \((0\.0|100\.0) % won\)")
results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(f"[{'PASS' if ok else 'FAIL'}] example_warlight2_selfplay::{name}"
          + ("" if ok else f": {detail}"))


def main():
    binary = os.environ.get("COMBATD_BINARY", os.path.join(ROOT, "build", "combatd"))
    combatd, url = start_combatd(binary)
    runs = []
    try:
        for _ in range(2):
            runs.append(subprocess.run(
                [sys.executable, os.path.join(ROOT, "bench", "warlight2_selfplay.py"),
                 "--games", "1", "--rounds", "3", "--seed", "5", "--max-plans", "50",
                 "--combatd", url],
                capture_output=True, text=True, timeout=300))
    finally:
        combatd.terminate()
        combatd.wait(timeout=30)
    first = runs[0]
    check("it exits 0", all(r.returncode == 0 for r in runs), first.stderr)
    lines = first.stdout.splitlines()
    check("two lines: the game and the tally", len(lines) == 2, first.stdout)
    game = GAME.fullmatch(lines[0]) if lines else None
    check("the game line is well formed", game is not None, first.stdout)
    if game:
        winner, rounds = game.group(1), int(game.group(2))
        ours, rule = int(game.group(3)), int(game.group(5))
        check("three rounds, or fewer when someone lost",
              rounds == 3 if winner == "draw" else 1 <= rounds <= 3, lines[0])
        check("regions within 0..24 each, and none only for the loser",
              0 <= ours <= 24 and 0 <= rule <= 24 and
              (ours == 0) == (winner == "rule") and (rule == 0) == (winner == "ours"), lines[0])
        check("incomes at least the base 5", int(game.group(4)) >= 5 and int(game.group(6)) >= 5,
              lines[0])
        tally = TALLY.fullmatch(lines[1]) if len(lines) > 1 else None
        expect = {"ours": (1, 0, 0), "rule": (0, 1, 0), "draw": (0, 0, 1)}[winner]
        check("the tally counts the game",
              tally is not None and tuple(int(g) for g in tally.groups()[:3]) == expect, lines)
    check("two runs print the same bytes", runs[0].stdout == runs[1].stdout,
          runs[0].stdout + "\n---\n" + runs[1].stdout)
    passed = sum(results)
    print(f"[====] Synthesis: Tested: {len(results)} | Passing: {passed} | "
          f"Failing: {len(results) - passed} | Crashing: 0")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
