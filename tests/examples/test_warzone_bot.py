#!/usr/bin/env python3
"""examples/warzone_bot.py against the AI server's stand-in (examples/ai_server_standin.py) and
the built combatd: the bot plays two turns, and the stand-in must have received two
SendOrdersBotGame bodies it accepts, as the game's SDK writes them.

The stand-in checks each body on its own terms (ids integers, turnNumber the next turn, each
order one the player may give, no more armies deployed than the income); this test adds the
numbers worked out by hand for the stand-in's game (its docstring): turn 1, player 100 holds
Harbor (5) and Mill (2) of North, Ford is neutral with 2, income 5 (MinimumArmyBonus, no bonus
whole). The only bonus 100 can complete this turn is North, by taking Ford from Mill: 0 % luck,
so a attackers kill round(0.6 a) and Ford's 2 kill round(1.4) = 1; Ford falls surely with
a >= 3 (round(1.8) = 2), so the plan deploys on Mill and sends at least 3 at Ford, and North
(3) is 100's: turn 2's income is 5 + 3 = 8, all of it deployed.

Run by ctest (COMBATD_BINARY, the built binary); prints Criterion's closing line, which
scripts/test.sh counts.
"""
import json
import os
import re
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples"))
import ai_server_standin  # noqa: E402

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(f"[{'PASS' if ok else 'FAIL'}] example_warzone_bot::{name}" + ("" if ok else f": {detail}"))


def start_combatd():
    binary = os.environ.get("COMBATD_BINARY", os.path.join(ROOT, "build", "combatd"))
    env = {"PATH": os.environ.get("PATH", "")}
    for key in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if key in os.environ:
            env[key] = os.environ[key]
    child = subprocess.Popen([binary, "--port", "0", "--bind", "127.0.0.1", "--threads", "2"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        line = child.stderr.readline().decode(errors="replace")
        m = re.search(r'"event":"listening".*"port":(\d+)', line)
        if m:
            # keep reading its log so that it never blocks on a full pipe
            threading.Thread(target=child.stderr.read, daemon=True).start()
            return child, int(m.group(1))
        if not line and child.poll() is not None:
            break
    child.kill()
    sys.exit(f"combatd did not start ({binary})")


def main():
    game = ai_server_standin.Game()
    standin = ai_server_standin.make_server(0, game)
    threading.Thread(target=standin.serve_forever, daemon=True).start()
    combatd, port = start_combatd()
    try:
        run = subprocess.run(
            [sys.executable, os.path.join(ROOT, "examples", "warzone_bot.py"),
             "--ai", f"http://127.0.0.1:{standin.server_address[1]}/api/",
             "--combatd", f"http://127.0.0.1:{port}", "--game", "4711", "--player", "100",
             "--turns", "2"], capture_output=True, text=True, timeout=120)
    finally:
        combatd.terminate()
        combatd.wait(timeout=30)
        standin.shutdown()
    check("the bot exits 0", run.returncode == 0, run.stdout + run.stderr)
    check("it says what it sent", "2 turn(s) sent" in run.stdout, run.stdout)
    got = game.received
    check("two SendOrdersBotGame bodies", len(got) == 2, json.dumps(got))
    check("the stand-in accepted both", all(r["error"] is None for r in got), json.dumps(got))
    bodies = [r["body"] for r in got]
    check("exactly {gameID, playerID, orders, turnNumber}",
          all(sorted(b) == ["gameID", "orders", "playerID", "turnNumber"] for b in bodies))
    check("ids as integers: game 4711, player 100, turns 1 and 2",
          [(b["gameID"], b["playerID"], b["turnNumber"]) for b in bodies]
          == [(4711, 100, 1), (4711, 100, 2)] and
          all(type(b[k]) is int for b in bodies for k in ("gameID", "playerID", "turnNumber")),
          json.dumps(bodies))
    check("every order is 100's, playerID an integer",
          all(type(o["playerID"]) is int and o["playerID"] == 100
              for b in bodies for o in b["orders"]), json.dumps(bodies))
    deployed = [sum(o["armies"] for o in b["orders"] if o["type"] == "GameOrderDeploy")
                for b in bodies]
    check("the incomes deployed: 5, then 8 with North", deployed == [5, 8], str(deployed))
    takes = [o for o in bodies[0]["orders"] if o["type"] == "GameOrderAttackTransfer"
             and (o["from"], o["to"]) == (2, 3) and int(o["numArmies"]) >= 3]
    check("turn 1 takes Ford from Mill with 3 or more", len(takes) == 1, json.dumps(bodies[0]))
    check("Ford is 100's after turn 1", game.standing[3][0] == 100, str(game.standing))
    passed = sum(results)
    print(f"[====] Synthesis: Tested: {len(results)} | Passing: {passed} | "
          f"Failing: {len(results) - passed} | Crashing: 0")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
