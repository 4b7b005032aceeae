#!/usr/bin/env python3
"""examples/warlight2_bot.py fed an engine transcript on stdin, with a stub combatd.

The transcript is the warlight2 engine's protocol for a map of 8 regions: bonus 1 (worth 2) is
regions 1, 2, 3; bonus 2 (worth 5) is 4-8, 8 a wasteland; borders 1-2, 1-4, 2-3, 3-5, 4-5, 5-6,
6-7, 7-8. The bot picks, then plays two rounds:
- round 1: it holds 2 (2 armies), sees 1 and 3 (neutral 2), income 5;
- round 2: it holds 1 (5), 2 (4, interior), 3 (4), sees 4 (neutral 2) and 5 (player2's 3),
  income 7.
The bot asks for `objective: "position"` (W48) by default, with the opponent's income at
least what it was seen deploy the round before (W49's `incomes`); goals under --variant expected.
Every answer must be a legal engine command (checked against the engine's rules: deploys on own
regions summing to the income, attacks from own regions to neighbours, once per pair, at most
the armies beyond 1), and the numbers below are worked out by hand.

Pick (pick_value, check_picks below): 2's bonus 1 has 4 neutral armies to take, 200 * 2 / 4 + 15 *
2 - 0.5 * 3 - 0.4 = 128.1; 6's bonus 2 has 12 (8 a wasteland), 200 * 5 / 12 + 5 - 4.5 * 12 - 2.5
- 0.4 = 31.43...: 2.

The stub answers every /plan-turn with the same plan: deploy 7 on 1 and 2 on 5; attack 1->4
with 6, 3->5 with 9, 1->4 again with 1. Round 1: none of it is legal (1, 3 and 5 are not the
bot's), so the 5 go on its one front, 2, and it attacks nothing. Round 2: 5 is not its (that
deploy is dropped), 3->5 is cut to 3 (4 armies, 1 stays), the second 1->4 is a pair already
used; and 2, interior with 3 idle, moves them to 1 (its first step towards a region not its).

After each round's first answer the bot sends deploy probes (the request with income 0 and the
income already on one front region) and plays the best value; the stub's fixed plan is worth
the same in all of them, so the first answer is played above (PROBE_PLAN below wins one).

Without an answer (500, a closed port, too slow for the time bank) the rule of thumb plays:
round 1 deploys the 5 on 2 (7), which attacks its weaker neighbour 1 (2, the lower id of two)
with 2 * 2 + 1 = 5 and sends its last 1 along (6: 3 would need 5 more); round 2 deploys the 7 on 3 (it faces player2's 3; 1 faces only a neutral), then 3 (11) attacks
5 with 2 * 3 + 1 = 7 and the other 3 join (10); 1 (5) has 4 to move, short of the 5 that 4's 2
need; 2 moves its 3 to 1.

Run by ctest; prints Criterion's closing line, which scripts/test.sh counts.
"""
import http.server
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOT = os.path.join(ROOT, "examples", "warlight2_bot.py")
# A few checks call the bot's functions directly (no __pycache__ left in examples/).
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(BOT))
import warlight2_bot  # noqa: E402

SETUP = """settings timebank {bank}
settings time_per_move 500
settings max_rounds 60
settings your_bot player1
settings opponent_bot player2
setup_map super_regions 1 2 2 5
setup_map regions 1 1 2 1 3 1 4 2 5 2 6 2 7 2 8 2
setup_map neighbors 1 2,4 2 3 3 5 4 5 5 6 6 7 7 8
setup_map wastelands 8
settings starting_regions 2 6
settings starting_pick_amount 1
pick_starting_region {bank} 2 6
setup_map opponent_starting_regions 6
settings starting_armies 5
update_map 2 player1 2 1 neutral 2 3 neutral 2
opponent_moves
go place_armies {bank}
go attack/transfer {bank}
settings starting_armies 7
update_map 1 player1 5 2 player1 4 3 player1 4 4 neutral 2 5 player2 3
opponent_moves player2 place_armies 5 4 player2 place_armies 6 3 player2 attack/transfer 5 3 1
go place_armies {bank}
go attack/transfer {bank}
go place_armies notanumber
"""  # the last line is garbage: answered "No moves"
NEIGHBORS = {1: {2, 4}, 2: {1, 3}, 3: {2, 5}, 4: {1, 5}, 5: {3, 4, 6}, 6: {5, 7}, 7: {6, 8},
             8: {7}}
# Each round's regions of the bot with their armies, and its income.
ROUNDS = [({2: 2}, 5), ({1: 5, 2: 4, 3: 4}, 7)]
STUB_PLAN = {"orders": [
    {"type": "deploy", "player": "player1", "to": "1", "armies": 7},
    {"type": "deploy", "player": "player1", "to": "5", "armies": 2},
    {"type": "attack_transfer", "player": "player1", "from": "1", "to": "4", "armies": 6},
    {"type": "attack_transfer", "player": "player1", "from": "3", "to": "5", "armies": 9},
    {"type": "attack_transfer", "player": "player1", "from": "1", "to": "4", "armies": 1}],
    "value": 1.5}
PLANNED = ["2", "player1 place_armies 2 5", "No moves", "player1 place_armies 1 7",
           "player1 attack/transfer 1 4 6, player1 attack/transfer 3 5 3, "
           "player1 attack/transfer 2 1 3", "No moves"]
FALLBACK = ["2", "player1 place_armies 2 5", "player1 attack/transfer 2 1 6",
            "player1 place_armies 3 7",
            "player1 attack/transfer 3 5 10, player1 attack/transfer 2 1 3", "No moves"]

# The opponent's reply (add_reply): before each round's plan the bot asks player2's, and the
# stub answers this one (its card order is not a scenario's: the bot keeps deploys and attacks).
REPLY_PLAN = {"orders": [
    {"type": "deploy", "player": "player2", "to": "5", "armies": 4},
    {"type": "attack_transfer", "player": "player2", "from": "5", "to": "3", "armies": 6},
    {"type": "bomb", "player": "player2", "target": "3"}], "value": -2.0}
REPLY_ORDERS = REPLY_PLAN["orders"][:2]

# Round 2's deploy probes (the bot's regions bordering one not its: 1 (5 armies, borders 4) and 3
# (4, borders 5), one such neighbour each, so 1 first by its armies): the same request with
# income 0 and the 7 already on the region. The stub's `probe` mode answers the one on 3 with
# this plan, worth more than the first answer's 1.5: the bot then deploys its 7 on 3 and sends
# the probe's attack, 3->5 with 9 (3 has 4 + 7 - 1 = 10 to move), and 2 (interior, 3 idle)
# walks to 1 as before.
PROBE_PLAN = {"orders": [
    {"type": "attack_transfer", "player": "player1", "from": "3", "to": "5", "armies": 9}],
    "value": 2.5}
PROBED = ["2", "player1 place_armies 2 5", "No moves", "player1 place_armies 3 7",
          "player1 attack/transfer 3 5 9, player1 attack/transfer 2 1 3", "No moves"]

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(f"[{'PASS' if ok else 'FAIL'}] example_warlight2_bot::{name}" + ("" if ok else f": {detail}"))


def stub(mode, seen):
    """A stand-in of combatd's /plan-turn: the fixed plan (REPLY_PLAN to player2's requests), a
    500, an answer too late, (`probe`) the fixed plan except for the probe with the income on 3,
    which gets PROBE_PLAN, or the fixed plan with player2's refused (`no-reply`) or answered
    after 1 s (`slow-reply`)."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append((self.path, request))
            if mode == "slow":
                time.sleep(0.4)
            if mode == "slow-reply" and request["player"] == "player2":
                time.sleep(1.0)
            ok = mode in ("plan", "probe", "no-reply", "slow-reply")
            status, answer = (200, STUB_PLAN) if ok else (500, {"status": 500})
            if status == 200 and request["player"] == "player2":
                status, answer = (500, {"status": 500}) if mode == "no-reply" else (200, REPLY_PLAN)
            if mode == "probe" and request["income"] == 0 and \
                    request["territories"]["3"]["armies"] == 11:
                answer = PROBE_PLAN
            data = json.dumps(answer).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:  # the bot gave up waiting
                pass

        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    # A short poll so that shutdown() returns at once rather than after serve_forever's 0.5 s.
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02},
                     daemon=True).start()
    return server


def closed_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def run_bot(url, bank=10000, variant=None, log=None):
    args = (["--variant", variant] if variant else []) + (["--log", log] if log else [])
    run = subprocess.run([sys.executable, BOT, "--combatd", url] + args,
                         input=SETUP.format(bank=bank), capture_output=True, text=True,
                         timeout=60)
    return run.returncode, run.stdout.splitlines(), run.stderr


def legal(lines):
    """Each answer checked against the engine's rules for the round it answers."""
    move = r"player1 (place_armies \d+ \d+|attack/transfer \d+ \d+ \d+)"
    if len(lines) != 6 or lines[0] not in ("2", "6") or lines[5] != "No moves":
        return f"{len(lines)} lines: {lines}"
    for r, (own, income) in enumerate(ROUNDS):
        deploy, attack = lines[1 + 2 * r], lines[2 + 2 * r]
        for line in (deploy, attack):
            if line != "No moves" and not re.fullmatch(f"{move}(, {move})*", line):
                return f"not a command: {line!r}"
        placed = {}
        for m in re.finditer(r"place_armies (\d+) (\d+)", deploy):
            region, n = int(m.group(1)), int(m.group(2))
            if region not in own or n < 1:
                return f"round {r + 1}: deploy {region} {n}"
            placed[region] = placed.get(region, 0) + n
        if sum(placed.values()) != income:
            return f"round {r + 1}: deployed {placed}, income {income}"
        left, pairs = {k: v + placed.get(k, 0) - 1 for k, v in own.items()}, set()
        for m in re.finditer(r"attack/transfer (\d+) (\d+) (\d+)", attack):
            src, dst, n = (int(g) for g in m.groups())
            if src not in own or dst not in NEIGHBORS[src] or (src, dst) in pairs or n < 1:
                return f"round {r + 1}: attack {src} {dst} {n}"
            pairs.add((src, dst))
            left[src] -= n
            if left[src] < 0:
                return f"round {r + 1}: {src} sends more than it has"
    return None


def with_stub(mode, variant=None, bank=10000, log=None):
    """The bot run against a stub in `mode`; returns its exit code, answers, stderr and the
    requests the stub received."""
    seen = []
    server = stub(mode, seen)
    code, lines, err = run_bot(f"http://127.0.0.1:{server.server_address[1]}", bank, variant, log)
    server.shutdown()
    return code, lines, err, [body for _, body in seen], [path for path, _ in seen]


def check_default():
    code, lines, err, seen, paths = with_stub("plan")
    check("the bot exits 0 after its input ends", code == 0, err)
    check("every answer is a legal engine command", legal(lines) is None, legal(lines))
    check("the stub's plan, made legal, as worked out by hand", lines == PLANNED, str(lines))
    check("only /plan-turn is called", set(paths) == {"/plan-turn"}, str(paths))
    ours = [r for r in seen if r["player"] == "player1"]
    firsts = [r for r in ours if r["income"] != 0]  # each round's first call; probes have 0
    check("one request with the income per round (the others are probes, income 0)",
          [r["income"] for r in firsts] == [5, 7], str([r["income"] for r in seen]))
    replies = [r for r in seen if r["player"] == "player2"]
    check("before each round's plan, player2's own: its income 5 then 7, the bot's 5 then 7 in "
          "incomes, 300 plans, no others, the same board",
          [(r["income"], r["incomes"], r["max_plans"], "others" in r) for r in replies] ==
          [(5, {"player1": 5}, 300, False), (7, {"player1": 7}, 300, False)] and
          [r["territories"] for r in replies] == [r["territories"] for r in firsts],
          json.dumps(replies)[:400])
    check("the reply asked first in each round: each round's plan right after player2's",
          [seen[i - 1]["player"] for i, r in enumerate(seen)
           if r["player"] == "player1" and r["income"] != 0 and i > 0] == ["player2"] * 2,
          str([r["player"] for r in seen]))
    if len(firsts) != 2:
        return
    first, second = firsts
    check("it sends the board, the bonuses, the incomes and the scenarios, nothing else (W48, "
          "W49)", sorted(second) == ["base_income", "bonuses", "income", "incomes", "move_order",
                                     "objective", "others", "player", "settings",
                                     "territories"], sorted(second))
    # Round 1: player2 holds 6 alone (its starting region, bordering none of the bot's), so
    # W49's hold is its 5 on 6 and its strike the same. Round 2: 5 (3) borders the bot's 3 (4),
    # 6 none: hold 7 on 5; strike 7 on 5 and 5 -> 3 with 3 + 7 = 10.
    hold1 = [{"type": "deploy", "player": "player2", "to": "6", "armies": 5}]
    hold2 = [{"type": "deploy", "player": "player2", "to": "5", "armies": 7}]
    strike2 = hold2 + [{"player": "player2", "from": "5", "to": "3", "armies": 10}]
    check("others: the reply's deploy and attack at 1/2, W49's hold and strike at 1/4 each, "
          "as worked out by hand",
          [r["others"] for r in firsts] == [
              [{"weight": 0.5, "orders": REPLY_ORDERS}, {"weight": 0.25, "orders": hold1},
               {"weight": 0.25, "orders": hold1}],
              [{"weight": 0.5, "orders": REPLY_ORDERS}, {"weight": 0.25, "orders": hold2},
               {"weight": 0.25, "orders": strike2}]], json.dumps([r["others"] for r in firsts]))
    check("player2's income 5 in round 1, then the 4 + 3 it was seen deploy (above 5, no "
          "bonus whole)", [r.get("incomes") for r in firsts] == [{"player2": 5}, {"player2": 7}],
          json.dumps([r.get("incomes") for r in firsts]))
    check("objective position, base income 5, the engine's move order and settings",
          (second["objective"], second["base_income"], second["move_order"],
           second["settings"]["luck_modifier"]) == ("position", 5, "random", 0.16),
          json.dumps(second))
    check("its own income 5 then 7, player1",
          (first["income"], second["income"], second["player"]) == (5, 7, "player1"))
    t = second["territories"]
    check("round 2's board as seen: 5 player2's with 3, 2 the bot's with 4, 8 unseen 6",
          (t["5"]["owner"], t["5"]["armies"], t["2"]["owner"], t["2"]["armies"],
           t["8"]["owner"], t["8"]["armies"]) == ("player2", 3, "player1", 4, "neutral", 6),
          json.dumps(t))
    check("borders both ways: 5 borders 3, 4 and 6",
          sorted(t["5"]["neighbors"]) == ["3", "4", "6"], json.dumps(t["5"]))
    check("bonuses as the map gives them",
          second["bonuses"] == {"1": {"value": 2, "territories": ["1", "2", "3"]},
                                "2": {"value": 5, "territories": ["4", "5", "6", "7", "8"]}},
          json.dumps(second["bonuses"]))


def check_variants():
    code, lines, err, seen, _ = with_stub("plan", "expected")
    check("--variant expected: the same legal answers", code == 0 and lines == PLANNED, str(lines))
    check("--variant expected round 2: no bonus begun, so the cheapest neutral 4, and "
          "player2's 5; hold 3, which player2's 5 (3) is predicted to hit with 2",
          len(seen) == 2 and (seen[1]["objective"], seen[1]["goal"], seen[1]["orders"]) ==
          ("expected", {"capture": ["4", "5"], "hold": ["3"]},
           [{"player": "player2", "from": "5", "to": "3", "armies": 2}]), json.dumps(seen))
    code, lines, err, seen, _ = with_stub("plan", "position")
    check("--variant position: the same legal answers", code == 0 and lines == PLANNED,
          str(lines))
    check("--variant position: no incomes, combatd estimates them (probes alike)",
          len(seen) >= 2 and [sorted(r) for r in seen] == [
              ["base_income", "bonuses", "income", "move_order", "objective", "player",
               "settings", "territories"]] * len(seen), json.dumps([sorted(r) for r in seen]))


def check_low_bank():
    """A drained time bank shrinks the search: max_plans is 2000 * bank / 10 s, at least 100
    (a full bank sends none: combatd's default 2000, checked in check_default's key list)."""
    for bank, plans in ((3000, 600), (7500, 1500)):
        code, lines, err, seen, _ = with_stub("plan", bank=bank)
        sizes = [r.get("max_plans") for r in seen if r["player"] == "player1"]
        check(f"bank {bank} ms: max_plans {plans} in both rounds, no probes (below 8 s), the "
              "same legal answers", code == 0 and lines == PLANNED and sizes == [plans] * 2,
              f"{lines} {sizes} {err}")
    # Below 1 s the bot waits 0.1 s, too short to time a stub on a loaded machine: the floor
    # is checked on the function the bot calls (2000 * 200 / 10000 = 40, raised to 100).
    sizes = [warlight2_bot.plans_for_bank(b) for b in (200, 0, 9999, 10000, 600000)]
    check("max_plans at banks 200, 0, 9999, 10000, 600000 ms: 100, 100, 1999, none, none",
          sizes == [100, 100, 1999, None, None], str(sizes))


def check_opponent_memory():
    """The opponent's income sent in `incomes` (W49) is the most it was seen deploy in one of
    the last 3 rounds, at least 5: the fog hides deploys out of sight, so one round's sum
    falls while its income does not. Seen deploys 7, 2, 6, 2, 2, 2 (the windows [7], [7, 2],
    [7, 2, 6], [2, 6, 2], [6, 2, 2], [2, 2, 2]) give 7, 7, 7, 6, 6 and then 5 (no bonus whole)."""
    bot = warlight2_bot.Bot(None)
    # The settings, the map, the pick and round 1's board.
    for line in SETUP.format(bank=10000).splitlines()[:16]:
        bot.handle(line)
    sent = []
    for seen in (7, 2, 6, 2, 2, 2):
        bot.handle(f"opponent_moves player2 place_armies 6 {seen} player2 attack/transfer 6 5 1")
        sent.append(warlight2_bot.plan_request(bot.board)["incomes"])
    check("the opponent's income is the most seen deployed in the last 3 rounds: 7 7 7 6 6 5",
          sent == [{"player2": n} for n in (7, 7, 7, 6, 6, 5)], str(sent))


def bot_in_process(url, clock):
    """The bot fed SETUP in this process (its clock injected); returns its answers."""
    bot = warlight2_bot.Bot(url, clock=clock)
    out = []
    for line in SETUP.format(bank=10000).splitlines()[:-1]:  # not the garbage line
        answer = bot.handle(line)
        if answer is not None:
            out.append(answer)
    return out


def check_probes():
    """Deploy probes: after each round's first answer the bot asks the same request with the
    whole income standing on one front region (income 0), and plays the best value."""
    seen = []
    server = stub("probe", seen)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    lines = bot_in_process(url, lambda: 0.0)  # a clock that stands still: every probe fits
    server.shutdown()
    bodies = [body for _, body in seen if body["player"] == "player1"]
    shape = [(r["income"], {t: r["territories"][t]["armies"] for t in ("1", "2", "3")})
             for r in bodies[2:]]
    check("round 2 asks the plan, then probes 1 (5 + 7 = 12) and 3 (4 + 7 = 11), income 0",
          shape == [(7, {"1": 5, "2": 4, "3": 4}), (0, {"1": 12, "2": 4, "3": 4}),
                    (0, {"1": 5, "2": 4, "3": 11})], json.dumps(shape))
    check("round 1 probes its one front region, 2 (2 + 5 = 7)",
          [(r["income"], r["territories"]["2"]["armies"]) for r in bodies[:2]] ==
          [(5, 2), (0, 7)], json.dumps(bodies[:2])[:300])
    check("the probe worth more wins: 7 deployed on 3, its attack 3->5 with 9, legal",
          lines + ["No moves"] == PROBED and legal(lines + ["No moves"]) is None, str(lines))
    # A clock that advances 0.05 s a reading: the reply and the first answer read as 0.25 s, so
    # a probe is asked only while 1.5 * 0.25 = 0.375 s of the 0.8 s probe window are left: one
    # a round. Reads: start 0, the reply asked 0.05 and answered 0.1, the plan's wait 0.15,
    # first answer 0.2, probing starts 0.25 (slowest 0.25), left 0.8 - 0.3 = 0.5, asked at
    # 0.35, answered 0.4; left 0.8 - 0.45 = 0.35 < 0.375: stop.
    ticks = iter(i * 0.05 for i in range(1000))
    seen.clear()
    server = stub("probe", seen)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    lines = bot_in_process(url, lambda: next(ticks))
    server.shutdown()
    incomes = [body["income"] for _, body in seen if body["player"] == "player1"]
    check("probes stop when 1.5 x the slowest answer no longer fits: 1 per round",
          incomes == [5, 0, 7, 0], str(incomes))
    check("so round 2 keeps the first answer (the probe on 3 was not asked)",
          lines + ["No moves"] == PLANNED, str(lines))


def check_likely_bonuses():
    """The opponent's income sent (W49's `incomes`) counts a bonus the fog may hide it holding
    whole: at least half its regions last seen the opponent's and none of the others in
    sight. Bonus 2 (worth 5) is 4-8: seen player2's 4, 5, 6 (3 of 5) with 7 and 8 out of
    sight gives 5 + 5 = 10; 7 seen neutral in the next round, 5 again (its deploys unseen)."""
    bot = warlight2_bot.Bot(None)
    for line in SETUP.format(bank=10000).splitlines()[:14]:  # the map and the pick
        bot.handle(line)
    sent = []
    for update in ("update_map 2 player1 2 1 neutral 2 3 neutral 2 4 player2 3 5 player2 3 "
                   "6 player2 2",
                   "update_map 2 player1 2 1 neutral 2 3 neutral 2 4 player2 3 5 player2 3 "
                   "6 player2 2 7 neutral 2"):
        bot.handle("opponent_moves")
        bot.handle(update)
        sent.append(warlight2_bot.plan_request(bot.board)["incomes"]["player2"])
    check("the opponent's income with a bonus likely its behind the fog: 10, then 5",
          sent == [10, 5], str(sent))


def check_fallbacks():
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "plans.jsonl")
        for mode in ("error", "slow"):
            bank = 500 if mode == "slow" else 10000  # a 0.1 s wait for the slow one
            code, lines, err, _, _ = with_stub(mode, bank=bank, log=log)
            check(f"combatd {mode}: the rule of thumb plays, legally, as worked out by hand",
                  code == 0 and lines == FALLBACK and legal(lines) is None, f"{lines} {err}")
        notes = [json.loads(line) for line in open(log)] if os.path.exists(log) else []
    check("--log: one line per round, refused with 500 then timed out, rounds 1 and 2 each",
          [(n["round"], n["ok"], n["error"], n["status"]) for n in notes] ==
          [(1, False, "HTTPError", 500), (2, False, "HTTPError", 500),
           (1, False, "TimeoutError", None), (2, False, "TimeoutError", None)], str(notes))
    code, lines, err, seen, _ = with_stub("no-reply")
    ours = [("others" in r) for r in seen if r["player"] == "player1"]
    check("the reply refused: the plan is played, asked without others (combatd's own W49 "
          "scenarios), its probes too", code == 0 and lines == PLANNED and len(ours) >= 2 and
          not any(ours), f"{lines} {[sorted(r) for r in seen]}")
    # A bank of 9 s: the turn waits 1.8 s for combatd, the reply a third of it, 0.6 s. The stub
    # answers player2's after 1 s: the reply is given up and the plan, asked with the 1.2 s
    # left, is played without others, its probes too (a reply waited for the whole 1.8 s would
    # come with them).
    code, lines, err, seen, _ = with_stub("slow-reply", bank=9000)
    ours = [("others" in r) for r in seen if r["player"] == "player1"]
    check("a reply slower than a third of the wait is given up: the plan is played, without "
          "others", code == 0 and lines == PLANNED and len(ours) >= 2 and not any(ours),
          f"{lines} {[sorted(r) for r in seen]} {err}")
    code, lines, err = run_bot(f"http://127.0.0.1:{closed_port()}")
    check("combatd unreachable: the rule of thumb plays", code == 0 and lines == FALLBACK,
          f"{lines} {err}")


PICK_MAP = """setup_map super_regions 1 4 2 5 3 4
setup_map regions 1 1 2 1 3 1 4 1 5 2 6 2 7 2 8 2 9 2 12 3 13 3 14 3 15 3
setup_map neighbors 1 2 2 3 3 4 4 5 5 6 6 7 7 8 8 9 9 12 12 13 13 14 14 15
settings starting_regions 1 5 12"""


def check_picks():
    """The starting pick (pick_value), on a map of three chains: bonus 1 (worth 4) is 1-4,
    bonus 2 (worth 5) 5-9, bonus 3 (worth 4) 12-15; 4 borders 5 and 9 borders 12; offered 1, 5
    and 12. By hand, n the neutral armies on the bonus's other regions:
    - 1: n = 6, 200 * 4 / 6 + 7 * 4 (n <= 6) - 2.5 * 6 (n > 4) - 0.5 * 4 - 0.4 (bonus 2 beside,
      nobody's) = 143.9333...; 12 the same; 5: n = 8, 125 + 5 - 3.5 * 8 - 2.5 - 0.8 = 98.7. So
      1 first (the lower id of the tie), then 12, then 5.
    - Once the opponent has picked 5 (it borders 4): 1 loses 7 + 4 (one region of bonus 1
      borders it) and its neighbour counts -1, 132.333...; 12 only the -1, 143.333...: 12.
    - With 2 a wasteland, 1's bonus has n = 10: 80 + 4 - 4.5 * 10 - 2 - 0.4 = 36.6."""
    bot = warlight2_bot.Bot(None)
    for line in PICK_MAP.splitlines():
        bot.handle(line)
    b = bot.board
    values = [warlight2_bot.pick_value(b, r, set(), set()) for r in (1, 12, 5)]
    check("pick values 143.933, 143.933, 98.7 with nothing picked",
          all(abs(v - w) < 1e-9 for v, w in zip(values, (143.9 + 1 / 30, 143.9 + 1 / 30, 98.7))),
          str(values))
    check("nothing picked: 1, 12, 5", warlight2_bot.pick_order(b, [1, 5, 12]) == [1, 12, 5],
          str(warlight2_bot.pick_order(b, [1, 5, 12])))
    contested = [warlight2_bot.pick_value(b, r, set(), {5}) for r in (1, 12)]
    check("the opponent on 5: 1 is worth 132.333, 12 143.333",
          all(abs(v - w) < 1e-9 for v, w in zip(contested, (132 + 1 / 3, 143 + 1 / 3))),
          str(contested))
    answers = [bot.handle("pick_starting_region 10000 1 12"), bot.handle("pick_starting_region 9000 1")]
    check("the engine's picks after the opponent took 5: 12, then 1 (the last offered)",
          answers == ["12", "1"] and b.picked == [12, 1], f"{answers} {b.picked}")
    b.wastelands = {2}
    value = warlight2_bot.pick_value(b, 1, set(), set())
    check("a wasteland of 6 on 2: 1 is worth 36.6", abs(value - 36.6) < 1e-9, str(value))


def main():
    check_default()
    check_picks()
    check_variants()
    check_low_bank()
    check_opponent_memory()
    check_probes()
    check_likely_bonuses()
    check_fallbacks()
    passed = sum(results)
    print(f"[====] Synthesis: Tested: {len(results)} | Passing: {passed} | "
          f"Failing: {len(results) - passed} | Crashing: 0")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
