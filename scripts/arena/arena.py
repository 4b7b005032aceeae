#!/usr/bin/env python3
"""Plays N games of bot A against bot B on the AI Games warlight2 engine and counts them.

  python3 scripts/arena/arena.py --games 10 ours starter

Seats alternate (A is player1 in even games, player2 in odd ones); the engine's own map
(example-map.txt, 64 regions, 13 bonuses) and rules (16 % luck, 10 s time bank + 0.5 s a move,
at most 160 rounds). The engine and the bots come from scripts/arena/fetch.sh ($ARENA_DIR,
default build/arena), which seeds the engine's draws: with --seed S game g runs with
ARENA_SEED=S+g (the same starting regions offered, wastelands and luck as long as both bots
answer the same), without it unseeded. When a bot needs combatd, one is started (build/combatd, or
$COMBATD_BINARY) on a free port for the whole run. Prints one line per game, the totals, our
bot's plan calls (count, failures, p50/p95 ms) and the command that replays the last game (the
same game when seeded and both bots answer as before; else the same pairing).
Python 3 standard library only.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOT = os.path.join(ROOT, "examples", "warlight2_bot.py")

# One row per bot: the command the engine starts ({arena}, {combatd}, {log} filled in) and
# whether it needs combatd. The engine splits the command on spaces: no quoting.
BOTS = {
    "ours": (f"python3 {BOT} --combatd {{combatd}} --log {{log}}", True),
    "ours-position": (f"python3 {BOT} --combatd {{combatd}} --variant position --log {{log}}",
                      True),
    "ours-expected": (f"python3 {BOT} --combatd {{combatd}} --variant expected --log {{log}}",
                      True),
    "ours-blind": (f"python3 {BOT} --combatd {{combatd}} --variant blind --log {{log}}", True),
    "ours-focus": (f"python3 {BOT} --combatd {{combatd}} --variant focus --log {{log}}", True),
    "rule": (f"python3 {BOT} --combatd none", False),
    "starter": ("java -cp {arena}/starter/bin-arena bot.BotStarter", False),
    "wunderwaffe": ("java -cp {arena}/wunderwaffe/bin-arena bot.BotStarter", False),
    "aproapebine": ("{arena}/aproapebine/ab_bot", False),
}


# The round whose incomes each game's line shows: the early lead that mostly decides a game.
ROUND_SHOWN = 5


def start_combatd(binary):
    # combatd reads every COMBATD_* variable as its configuration and refuses unknown ones:
    # COMBATD_BINARY (which names it here) stays out of its environment.
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMBATD_")}
    child = subprocess.Popen([binary, "--port", "0", "--bind", "127.0.0.1", "--threads", "2"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        line = child.stderr.readline().decode(errors="replace")
        m = re.search(r'"event":"listening".*"port":(\d+)', line)
        if m:
            threading.Thread(target=child.stderr.read, daemon=True).start()
            return child, f"http://127.0.0.1:{m.group(1)}"
        if not line and child.poll() is not None:
            break
    child.kill()
    sys.exit(f"arena: combatd did not start ({binary})")


def engine_command(arena, first, second):
    engine = os.path.join(arena, "engine")
    classpath = f"{engine}/lib/java-json.jar:{engine}/bin-arena"
    return ["java", "-cp", classpath, "com.theaigames.game.warlight2.Warlight2",
            f"{engine}/example-map.txt", first, second]


def play(arena, out, index, seats, commands, timeout, seed=None):
    """One game (ARENA_SEED=seed when not None); returns the winner's name among `seats`
    ("draw" when none) and the command."""
    cmd = engine_command(arena, commands[seats[0]], commands[seats[1]])
    env = dict(os.environ)
    env.pop("ARENA_SEED", None)
    if seed is not None:
        env["ARENA_SEED"] = str(seed)
    with open(f"{out}/game-{index}.out", "w") as so, open(f"{out}/game-{index}.err", "w") as se:
        try:
            subprocess.run(cmd, stdout=so, stderr=se, timeout=timeout, check=False, env=env)
        except subprocess.TimeoutExpired:
            return "timeout", cmd
    text = open(f"{out}/game-{index}.out").read()
    m = re.search(r"^winner: (\S+)", text, re.M)
    if not m:
        return "error", cmd
    return {"player1": seats[0], "player2": seats[1]}.get(m.group(1), "draw"), cmd


def rounds_played(err, seats, at=ROUND_SHOWN):
    """The rounds a game lasted and each seat's income for the round after `at` (None when it
    ended sooner), from the engine's `arena-round R player1 INCOME REGIONS ARMIES player2 ...`
    lines (scripts/arena/ArenaRandom.java)."""
    rounds, income = 0, {}
    for line in open(err, errors="replace"):
        w = line.split()
        if len(w) == 10 and w[0] == "arena-round":
            rounds = int(w[1])
            if rounds == at:
                income = {seats[0]: int(w[3]), seats[1]: int(w[7])}
    return rounds, income


def plan_stats(log):
    if not os.path.exists(log):
        return None
    calls = [json.loads(line) for line in open(log) if line.strip()]
    ms = sorted(c["ms"] for c in calls)
    if not ms:
        return None
    fails = sum(1 for c in calls if not c["ok"])
    return (f"{len(ms)} plan calls, {fails} failed, p50 {ms[len(ms) // 2]:.0f} ms, "
            f"p95 {ms[min(len(ms) - 1, int(0.95 * len(ms)))]:.0f} ms, max {ms[-1]:.0f} ms")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", choices=sorted(BOTS))
    ap.add_argument("b", choices=sorted(BOTS))
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--arena", default=os.environ.get("ARENA_DIR",
                                                      os.path.join(ROOT, "build", "arena")))
    ap.add_argument("--out", help="where the engine's output goes (default $arena/runs/A-B)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds a game may take")
    ap.add_argument("--seed", type=int, help="game g's engine draws seeded with SEED + g")
    args = ap.parse_args()
    out = args.out or os.path.join(args.arena, "runs", f"{args.a}-{args.b}")
    os.makedirs(out, exist_ok=True)
    log = os.path.join(out, "plans.jsonl")
    if os.path.exists(log):
        os.remove(log)
    combatd, url = None, ""
    if BOTS[args.a][1] or BOTS[args.b][1]:
        binary = os.environ.get("COMBATD_BINARY", os.path.join(ROOT, "build", "combatd"))
        combatd, url = start_combatd(binary)
    names = [args.a, args.b]
    # Two copies of one bot play as "A" and "B" below; the counts are A's.
    labels = {0: args.a + ("#1" if args.a == args.b else ""),
              1: args.b + ("#2" if args.a == args.b else "")}
    commands = {labels[i]: BOTS[names[i]][0].format(arena=args.arena, combatd=url, log=log)
                for i in (0, 1)}
    tally = {"win": 0, "loss": 0, "draw": 0, "error": 0}
    last = None
    try:
        for g in range(args.games):
            seats = (labels[0], labels[1]) if g % 2 == 0 else (labels[1], labels[0])
            seed = None if args.seed is None else args.seed + g
            start = time.monotonic()
            winner, cmd = play(args.arena, out, g, seats, commands, args.timeout, seed)
            last = ([f"ARENA_SEED={seed}"] if seed is not None else []) + cmd
            result = ("win" if winner == labels[0] else "loss" if winner == labels[1]
                      else "draw" if winner == "draw" else "error")
            tally[result] += 1
            rounds, income = rounds_played(f"{out}/game-{g}.err", seats)
            early = ", ".join(f"{k} {v}" for k, v in income.items()) or "-"
            print(f"game {g}: player1 {seats[0]}, player2 {seats[1]}: {winner} "
                  f"({time.monotonic() - start:.0f} s, {rounds} rounds, income after round "
                  f"{ROUND_SHOWN}: {early}" + ("" if seed is None else f", seed {seed}") + ")",
                  flush=True)
    finally:
        if combatd:
            combatd.terminate()
            combatd.wait(timeout=30)
    print(f"{labels[0]} vs {labels[1]}: {tally['win']} won, {tally['loss']} lost, "
          f"{tally['draw']} drawn, {tally['error']} failed of {args.games}")
    stats = plan_stats(log)
    if stats:
        print(f"our bot: {stats}")
    if last:
        print("replay the last game: " + " ".join(f"'{w}'" if " " in w else w for w in last))
    return 0 if tally["error"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
