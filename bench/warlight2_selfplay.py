#!/usr/bin/env python3
"""Self-play on the warlight2 example map, every turn resolved by combatd's /simulate-turn.

  python3 bench/warlight2_selfplay.py --games 10 --rounds 60

Plays examples/warlight2_bot.py's combatd policy ("ours", /plan-turn each turn) against its
rule of thumb ("rule": deploy on the border facing the weakest region not ours, attack with
more than twice the defenders). This script is the engine: it speaks the warlight2 protocol to
both bots (setup_map, pick_starting_region, update_map with each player's view, go
place_armies, go attack/transfer), and resolves each turn, both players' orders, with
/simulate-turn at one trial, `move_order` random (W13) and 16 % luck, seeded per turn
(game seed * 1000 + round), reading the board from the trial's `turns[0]`. Everything is drawn
from --seed, so the same arguments print the same bytes on every run (the plans are
deterministic and the bots wait as long as a plan takes). Seats alternate between games.
Income: 5 plus every bonus owned whole; a player left without regions loses; --rounds ends a
game as a draw. Starts build/combatd (or $COMBATD_BINARY) unless --combatd is given.
"""
import argparse
import json
import os
import random
import sys
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples"))
sys.path.insert(0, os.path.join(ROOT, "scripts", "arena"))
import warlight2_bot  # noqa: E402
from arena import start_combatd  # noqa: E402

MAP = os.path.join(ROOT, "tests", "data", "warlight2-example-map.json")
BANK = 600000  # the time bank told to the bots: plans are never cut short by the clock
PLAYERS = ("player1", "player2")


def load_map():
    m = json.load(open(MAP))
    bonus = {r["id"]: r["superRegion"] for r in m["Regions"]}
    value = {s["id"]: s["bonus"] for s in m["SuperRegions"]}
    neighbors = {r: set() for r in bonus}
    for r in m["Regions"]:
        for n in r["neighbors"]:
            neighbors[r["id"]].add(n)
            neighbors[n].add(r["id"])
    return bonus, value, neighbors


class Game:
    """The true board, and the two bots as the engine sees them."""

    def __init__(self, seed, seats, url, rounds, max_plans=None):
        self.rng, self.seed, self.rounds = random.Random(seed), seed, rounds
        self.url = url
        self.bonus, self.value, self.neighbors = load_map()
        self.owner = {r: "neutral" for r in self.bonus}
        self.armies = {r: 2 for r in self.bonus}
        for r in self.rng.sample(sorted(self.bonus), len(self.value) // 2):
            self.armies[r] = 6  # the engine's wastelands
        self.bots = {}
        for name, kind in zip(PLAYERS, seats):
            bot = warlight2_bot.Bot(url if kind == "ours" else None)
            bot.timeout_cap, bot.max_plans = BANK / 1000.0, max_plans
            self.bots[name] = bot
        self.seats = dict(zip(PLAYERS, seats))

    def tell(self, name, line):
        return self.bots[name].handle(line)

    def setup(self):
        regions = sorted(self.bonus)
        lines = [f"settings timebank {BANK}", "settings time_per_move 500",
                 f"settings max_rounds {self.rounds}",
                 "setup_map super_regions " + " ".join(f"{b} {v}" for b, v in
                                                       sorted(self.value.items())),
                 "setup_map regions " + " ".join(f"{r} {self.bonus[r]}" for r in regions),
                 "setup_map neighbors " + " ".join(
                     f"{r} {','.join(str(n) for n in sorted(self.neighbors[r]))}"
                     for r in regions if self.neighbors[r]),
                 "setup_map wastelands " + " ".join(str(r) for r in regions
                                                    if self.armies[r] > 2)]
        for i, name in enumerate(PLAYERS):
            for line in lines + [f"settings your_bot {name}",
                                 f"settings opponent_bot {PLAYERS[1 - i]}"]:
                self.tell(name, line)
        pickable = []
        for b in sorted(self.value):
            free = [r for r in regions if self.bonus[r] == b and self.armies[r] == 2]
            if free:
                pickable.append(self.rng.choice(free))
        for i in range(6):  # three each, A B B A A B as the engine asks
            name = PLAYERS[0] if i % 2 == (0 if i % 4 <= 1 else 1) else PLAYERS[1]
            answer = self.tell(name, f"pick_starting_region {BANK} " +
                               " ".join(str(r) for r in pickable))
            pick = int(answer) if answer and answer.isdigit() else pickable[0]
            pick = pick if pick in pickable else pickable[0]
            self.owner[pick] = name
            pickable.remove(pick)

    def income(self, name):
        whole = [b for b in self.value
                 if all(self.owner[r] == name for r in self.bonus if self.bonus[r] == b)]
        return 5 + sum(self.value[b] for b in whole)

    def view(self, name):
        mine = {r for r in self.bonus if self.owner[r] == name}
        seen = mine | {n for r in mine for n in self.neighbors[r]}
        return "update_map " + " ".join(f"{r} {self.owner[r]} {self.armies[r]}"
                                        for r in sorted(seen))

    def orders(self, name, text):
        out = []
        for move in (text or "").split(","):
            w = move.split()
            if len(w) == 4 and w[1] == "place_armies":
                out.append({"type": "deploy", "player": name, "to": w[2], "armies": int(w[3])})
            elif len(w) == 5 and w[1] == "attack/transfer":
                out.append({"player": name, "from": w[2], "to": w[3], "armies": int(w[4])})
        return out

    def turn(self, number):
        deploys, attacks = [], []
        for name in PLAYERS:
            self.tell(name, f"settings starting_armies {self.income(name)}")
            self.tell(name, self.view(name))
            self.tell(name, "opponent_moves")
            deploys += self.orders(name, self.tell(name, f"go place_armies {BANK}"))
        for name in PLAYERS:
            attacks += self.orders(name, self.tell(name, f"go attack/transfer {BANK}"))
        body = {"territories": {str(r): {"owner": self.owner[r], "armies": self.armies[r],
                                         "neighbors": [str(n) for n in sorted(self.neighbors[r])]}
                                for r in sorted(self.bonus)},
                "orders": deploys + attacks, "settings": warlight2_bot.SETTINGS,
                "move_order": "random", "trials": 1, "seed": self.seed * 1000 + number}
        req = urllib.request.Request(self.url + "/simulate-turn", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as answer:
            board = json.load(answer)["turns"][0]["territories"]
        for r in self.bonus:
            self.owner[r], self.armies[r] = board[str(r)]["owner"], board[str(r)]["armies"]

    def play(self):
        self.setup()
        for number in range(1, self.rounds + 1):
            self.turn(number)
            alive = [n for n in PLAYERS if any(o == n for o in self.owner.values())]
            if len(alive) < 2:
                return (self.seats[alive[0]] if alive else "draw"), number
        return "draw", self.rounds

    def standing(self):
        return " ".join(f"{self.seats[n]} {sum(o == n for o in self.owner.values())} regions "
                        f"income {self.income(n)}" for n in PLAYERS)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=60, help="rounds before a draw")
    ap.add_argument("--seed", type=int, default=1, help="game g is seeded with seed + g")
    ap.add_argument("--max-plans", type=int, help="our plans' search bound (combatd's default)")
    ap.add_argument("--combatd", help="a running combatd's base URL (default: start one)")
    args = ap.parse_args()
    child, url = None, args.combatd
    if not url:
        binary = os.environ.get("COMBATD_BINARY", os.path.join(ROOT, "build", "combatd"))
        child, url = start_combatd(binary)
    tally = {"ours": 0, "rule": 0, "draw": 0}
    try:
        for g in range(args.games):
            seats = ("ours", "rule") if g % 2 == 0 else ("rule", "ours")
            game = Game(args.seed + g, seats, url.rstrip("/"), args.rounds, args.max_plans)
            winner, rounds = game.play()
            tally[winner] += 1
            print(f"game {g} (seed {args.seed + g}): player1 {seats[0]}, player2 {seats[1]}: "
                  f"{winner} after {rounds} rounds; {game.standing()}", flush=True)
    finally:
        if child:
            child.terminate()
            child.wait(timeout=30)
    print(f"ours vs rule: {tally['ours']} won, {tally['rule']} lost, {tally['draw']} drawn "
          f"of {args.games} ({100.0 * tally['ours'] / max(args.games, 1):.1f} % won)")


if __name__ == "__main__":
    main()
