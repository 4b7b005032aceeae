#!/usr/bin/env python3
"""A Warlight AI Challenge 2 bot that asks combatd for its turns (Python 3 standard library only).

It speaks the AI Games warlight2 engine's protocol on stdin/stdout (settings, setup_map,
pick_starting_region, update_map, opponent_moves, go place_armies, go attack/transfer), keeps
the board it sees, and at each `go place_armies` asks combatd's /plan-turn for the whole turn
(`objective: "position"`) with nothing but the board, the bonuses and the incomes: its own, and
the opponent's taken as at least the most `opponent_moves` showed it deploy in one of the last
three rounds. It asks combatd for the opponent's plan first, and values its own against that
reply and combatd's hold and strike (W49). While its wait allows, it also asks deploy probes
(the income already on one front region) and keeps the plan of best value. It answers the
engine's two phases from that plan: the deploys now, the attacks and transfers at
`go attack/transfer`.

If combatd is unreachable, slow or refuses the request, the turn is played by the rule of
thumb below (`rule_of_thumb`), so the bot never crashes and never answers late.

  python3 examples/warlight2_bot.py --combatd http://127.0.0.1:8080

`bash scripts/arena/arena.sh` starts a combatd and plays it against other bots on the engine
(docs/bot-guide.md, "The warlight2 arena").
"""
import argparse
import collections
import http.client
import json
import sys
import time
import urllib.request

# The engine's fixed rules (its Processor.java): 60 % and 70 % kill rates, 16 % luck, straight
# rounding, and a pair of attacks whose first mover is drawn each time (W13's `random` is the
# nearest of combatd's move orders; W50 says why a bot for this engine sends it).
SETTINGS = {"luck_modifier": 0.16, "offense_kill_rate": 0.6, "defense_kill_rate": 0.7,
            "rounding_mode": "straight_round"}
NEUTRAL = "neutral"
UNSEEN_ARMIES, WASTELAND_ARMIES = 2, 6  # what the engine puts on a region at the start
BASE_INCOME = 5  # the engine's armies a turn before bonuses
# combatd's default search (2000 plans) took up to ~1.4 s a call on the loaded arena machine,
# inside the 2 s a full time bank allows. As the bank drains the bot waits less (a fifth of
# the bank), so it asks fewer plans in proportion: the answer then comes in time rather than
# the rule of thumb playing the round (67 of 69 failed calls vs Wunderwaffe were timeouts).
FULL_PLANS, FULL_BANK_MS, MIN_PLANS = 2000, 10000, 100
OPPONENT_MEMORY = 3  # rounds of the opponent's seen deploys its income estimate looks back
# Deploy probes (probe_requests): at most 12 a turn, all within 0.8 s of the turn's start and
# only with 8 s or more in the time bank. The engine adds 0.5 s to the bank for each of a
# round's two answers, so a round of up to ~1 s keeps the bank full; probes for 2 s a round
# drained it to 6.3 s in 20 rounds, and then the first plan is asked with fewer plans.
MAX_PROBES, PROBE_SECONDS, PROBE_MIN_BANK_MS = 12, 0.8, 8000


def plans_for_bank(timebank_ms):
    """`max_plans` for a time bank: none (combatd's default, 2000) with a full bank, else in
    proportion to the bank, at least MIN_PLANS (a plan of a few hundred still beats the rule
    of thumb)."""
    if timebank_ms >= FULL_BANK_MS:
        return None
    return max(MIN_PLANS, FULL_PLANS * max(timebank_ms, 0) // FULL_BANK_MS)


class Board:
    """What the bot knows of the game: the map, and each region's last seen owner and armies."""

    def __init__(self):
        self.me, self.opponent = "player1", "player2"
        self.bonus_value = {}  # super region -> armies it gives
        self.bonus_of = {}  # region -> super region
        self.neighbors = collections.defaultdict(set)  # both ways (the engine lists one)
        self.wastelands = set()
        self.owner, self.armies = {}, {}
        self.income = 5
        self.timebank_ms = 10000
        self.round = 0
        # The opponent's deploys seen in each of the last rounds (opponent_moves). The fog
        # shows only those next to the bot's regions, so one round's sum swings with what is in
        # sight while the income behind it seldom falls: the estimate is the recent maximum.
        self.opponent_deploys = collections.deque(maxlen=OPPONENT_MEMORY)
        self.visible = set()  # the regions the last update_map listed
        self.starting, self.picked = [], []  # the starting regions offered, and ours

    @property
    def opponent_deployed(self):
        return max(self.opponent_deploys, default=0)

    def regions(self):
        return sorted(self.bonus_of)

    def members(self, bonus):
        return [r for r in self.regions() if self.bonus_of[r] == bonus]

    def owner_of(self, region):
        return self.owner.get(region, NEUTRAL)

    def armies_of(self, region):
        default = WASTELAND_ARMIES if region in self.wastelands else UNSEEN_ARMIES
        return self.armies.get(region, default)

    def mine(self):
        return [r for r in self.regions() if self.owner_of(r) == self.me]

    def update(self, words):
        """`update_map id owner armies ...`: the regions seen this round. A region of ours that
        is not listed was taken out of sight: the opponent's."""
        seen = set()
        for i in range(0, len(words) - 2, 3):
            region = int(words[i])
            self.owner[region], self.armies[region] = words[i + 1], int(words[i + 2])
            seen.add(region)
        self.visible = seen
        for region in self.regions():
            if region not in seen and self.owner.get(region) == self.me:
                self.owner[region] = self.opponent


# The weights of a bonus as a starting pick (pick_order), after the bonus heuristic of the
# published Wunderwaffe bot for this engine: its worth per neutral army to take, a bonus of a
# turn or two (at most 4 or 6 neutral armies) raised, a slow one lowered, and the opponent's
# picks so far kept at a distance.
PICK_WORTH, PICK_QUICK, PICK_SLOW = 200, ((4, 15), (6, 7)), ((8, 4.5), (6, 3.5), (4, 2.5))
PICK_SIZE, PICK_CONTESTED, PICK_CONTESTED_REGION = 0.5, 7, 4
PICK_NEAR_OPPONENT, PICK_NEAR_OURS, PICK_NEAR_NONE = -1, 0.5, -0.4


def pick_value(board, region, ours, theirs):
    """A starting region's value: that of its bonus b for us, with n the neutral armies on b's
    other regions (2 each, 6 a wasteland) and v b's value:
      200 v / n, + 15 v when n <= 4 (7 v when n <= 6, else v), - 4.5 n when n > 8 (3.5 n past 6,
      2.5 n past 4), - 0.5 a region of b;
      - 7 - 4 per region of b bordering one the opponent picked, when any does;
      per bonus bordering b: -1 if the opponent picked in it, else +0.5 if we did, else -0.4.
    `ours` and `theirs` are the regions picked so far."""
    bonus = board.bonus_of[region]
    members = board.members(bonus)
    n = sum(WASTELAND_ARMIES if r in board.wastelands else UNSEEN_ARMIES
            for r in members if r != region)
    v = board.bonus_value[bonus]
    value = PICK_WORTH * v / max(n, 1) - PICK_SIZE * len(members)
    value += v * next((w for most, w in PICK_QUICK if n <= most), 1)
    value -= n * next((w for least, w in PICK_SLOW if n > least), 0)
    outside = {x for r in members for x in board.neighbors[r] if board.bonus_of[x] != bonus}
    if outside & theirs:
        touching = [r for r in members if board.neighbors[r] & theirs]
        value -= PICK_CONTESTED + PICK_CONTESTED_REGION * len(touching)
    for other in sorted({board.bonus_of[x] for x in outside}):
        near = set(board.members(other))
        value += (PICK_NEAR_OPPONENT if near & theirs else
                  PICK_NEAR_OURS if near & ours else PICK_NEAR_NONE)
    return value


def pick_order(board, pickable):
    """The starting picks, best first: by pick_value (the lower id on a tie). The opponent's
    picks so far are the starting regions offered that are neither still pickable nor ours.
    The engine offers one region a bonus, so a pick's bonus is ours alone to begin."""
    ours = set(board.picked)
    theirs = {r for r in board.starting if r not in pickable and r not in ours}
    return sorted(pickable, key=lambda r: (-pick_value(board, r, ours, theirs), r))


def border(board, region):
    return [n for n in sorted(board.neighbors[region]) if board.owner_of(n) != board.me]


def step_to_front(board, region):
    """The neighbour of an interior region on a shortest path to a region not ours."""
    first = {n: n for n in sorted(board.neighbors[region])}
    queue = collections.deque(first)
    seen = set(first) | {region}
    while queue:
        r = queue.popleft()
        if board.owner_of(r) != board.me:
            return first[r]
        for n in sorted(board.neighbors[r]):
            if n not in seen:
                seen.add(n)
                first[n] = first[r]
                queue.append(n)
    return None


def interior_moves(board, deployed, busy):
    """Armies idle inside our land walk one step towards the nearest region not ours."""
    moves = []
    for region in board.mine():
        left = board.armies_of(region) + deployed.get(region, 0) - 1
        if left > 0 and not border(board, region) and region not in busy:
            step = step_to_front(board, region)
            if step is not None:
                moves.append((region, step, left))
    return moves


def rule_of_thumb(board):
    """The fallback and the bench's opponent: everything on the border region facing the
    weakest region not ours (enemies before neutrals); then each region attacks its weakest
    neighbours while it has more than twice their armies, and interior armies move on."""
    def weakest(region):
        targets = border(board, region)
        enemy = [t for t in targets if board.owner_of(t) == board.opponent]
        pool = enemy or targets
        return min((board.armies_of(t), 0 if enemy else 1) for t in pool)
    fronts = [r for r in board.mine() if border(board, r)]
    deployed = {}
    if fronts and board.income > 0:
        best = min(fronts, key=lambda r: (weakest(r)[1], weakest(r)[0], -board.armies_of(r), r))
        deployed[best] = board.income
    attacks = []
    for region in fronts:
        left = board.armies_of(region) + deployed.get(region, 0) - 1
        targets = sorted(border(board, region), key=lambda t: (board.armies_of(t), t))
        for target in targets:
            need = 2 * board.armies_of(target) + 1
            if left >= need:
                attacks.append([region, target, need])
                left -= need
        if attacks and attacks[-1][0] == region:
            attacks[-1][2] += left  # the rest joins the last attack
    busy = {a[0] for a in attacks}
    attacks += [list(m) for m in interior_moves(board, deployed, busy)]
    return sorted(deployed.items()), [tuple(a) for a in attacks]


def plan_goal(board, variant="expected"):
    """What the plan aims at: the regions bordering ours of the cheapest bonus we have begun
    (armies lacking per army of bonus) or else the cheapest neutral region bordering ours, and
    the enemy regions bordering ours (under `focus` only those we outnumber twice, or the
    weakest when nothing else is left); held: our regions that border the enemy."""
    mine = set(board.mine())
    frontier = {n for r in mine for n in board.neighbors[r] if n not in mine}
    best = None
    for bonus in sorted(board.bonus_value):
        members = board.members(bonus)
        lacking = [r for r in members if r not in mine]
        if lacking and len(lacking) < len(members) and set(lacking) & frontier:
            cost = sum(board.armies_of(r) for r in lacking) / max(board.bonus_value[bonus], 1)
            if best is None or cost < best[0]:
                best = (cost, set(lacking) & frontier)
    capture = set(best[1]) if best else set()
    neutral = [r for r in frontier if board.owner_of(r) == NEUTRAL]
    if not capture and neutral:  # no bonus to finish: begin one at its cheapest region
        capture = {min(neutral, key=lambda r: (board.armies_of(r), r))}
    enemy = sorted(r for r in frontier if board.owner_of(r) == board.opponent)
    if variant == "focus":
        strong = [r for r in enemy if board.income + max(
            board.armies_of(n) for n in board.neighbors[r] if n in mine) > 2 * board.armies_of(r)]
        if not strong and enemy and not capture:
            strong = [min(enemy, key=lambda r: (board.armies_of(r), r))]
        enemy = strong
    capture |= set(enemy)
    hold = [r for r in mine if any(board.owner_of(n) == board.opponent
                                   for n in board.neighbors[r])]
    return sorted(capture), sorted(hold)


def predicted_attacks(board):
    """The opponent's attacks we expect: each enemy region with 3 or more armies sends all but
    one at our weakest neighbour of it (a rule of thumb; its deploys are not seen in time)."""
    orders = []
    for region in board.regions():
        if board.owner_of(region) != board.opponent or board.armies_of(region) < 3:
            continue
        ours = [n for n in board.neighbors[region] if board.owner_of(n) == board.me]
        if ours:
            target = min(ours, key=lambda n: (board.armies_of(n), n))
            orders.append({"player": board.opponent, "from": str(region), "to": str(target),
                           "armies": board.armies_of(region) - 1})
    return orders


def likely_bonuses(board):
    """The bonuses the opponent likely owns whole: at least half of their regions last seen
    its, and none of the others in sight now (so the fog may hide it taking them). The fog
    hid a bonus of 4 it held three of: the bot sent 5 as its income where it had 9, and the
    plan left the region it broke with 2 armies against its 7."""
    out = []
    for bonus in sorted(board.bonus_value):
        members = board.members(bonus)
        theirs = [r for r in members if board.owner_of(r) == board.opponent]
        if members and 2 * len(theirs) >= len(members) and all(
                r in theirs or r not in board.visible for r in members):
            out.append(bonus)
    return out


def plan_request(board, variant="position-seen"):
    """The /plan-turn request for this turn (the one place that says what the bot asks
    combatd for): the board, the bonuses and the income, valued by `objective: "position"`
    (the others' reply modelled by combatd, their incomes estimated from what they hold); the
    other variants set goals by plan_goal and predict the opponent's attacks themselves."""
    territories = {str(r): {"owner": board.owner_of(r), "armies": board.armies_of(r),
                            "neighbors": [str(n) for n in sorted(board.neighbors[r])]}
                   for r in board.regions()}
    bonuses = {str(b): {"value": v, "territories": [str(r) for r in board.members(b)]}
               for b, v in sorted(board.bonus_value.items()) if board.members(b)}
    request = {"territories": territories, "bonuses": bonuses, "player": board.me,
               "income": board.income, "settings": SETTINGS, "move_order": "random"}
    if variant.startswith("position"):  # no goal: combatd values the standing it leaves (W48)
        request.update(objective="position", base_income=BASE_INCOME)
        if variant == "position-seen":  # the opponent's income: at least its recent seen deploys
            estimate = BASE_INCOME + sum(board.bonus_value[b] for b in likely_bonuses(board))
            request["incomes"] = {board.opponent: max(estimate, board.opponent_deployed)}
        return request
    capture, hold = plan_goal(board, variant)
    request["objective"] = "expected"
    request["goal"] = {"capture": [str(r) for r in capture], "hold": [str(r) for r in hold]}
    if not request["goal"]["hold"]:
        del request["goal"]["hold"]
    if variant != "blind":
        others = predicted_attacks(board)
        if others:
            request["orders"] = others
    return request


def probe_requests(board, request, limit=MAX_PROBES):
    """Deploy probes: for each of up to `limit` of our regions bordering one not ours (most
    such neighbours first, then the most armies, then the lower id), the same request with
    the whole income already standing on that region (`income` 0). combatd's search of
    deploys can stay near its first splits and miss the region that pays (round 1 of a game
    it kept all 5 on a region whose bonus holds a wasteland, value 1.49, where the same 5 on
    another start region take two of its bonus's three missing regions, 2.49). A probe's
    value is the same standing (W48: the deployed armies are on the board either way), so
    the best of the first answer and the probes is the turn's plan."""
    fronts = [r for r in board.mine() if border(board, r)]
    fronts.sort(key=lambda r: (-len(border(board, r)), -board.armies_of(r), r))
    for region in fronts[:limit]:
        probe = json.loads(json.dumps(request))
        probe["income"] = 0
        probe["territories"][str(region)]["armies"] += board.income
        yield region, probe


# The opponent's reply. combatd models an opponent whose orders it is not given by W49's two
# scenarios, hold and strike; the bot adds the opponent's own plan. Before its own, it asks
# combatd for the opponent's (reply_request: the board it sees with the opponent as the
# player), then values its plans against that reply (REPLY_WEIGHT) and W49's hold and strike
# (the rest, evenly) given as `others`. In round 2 of seed 125 the reply struck 39, the region
# the plan emptied to attack from, as Wunderwaffe then did; W49's strike aimed at 38.
REPLY_PLANS, REPLY_WEIGHT = 300, 0.5


def reply_request(board, request, income):
    """The opponent's /plan-turn on `request`'s board: it plans with `income` (the estimate
    sent in `incomes`), the bot's own income in `incomes`, REPLY_PLANS plans, no `others`."""
    reply = json.loads(json.dumps(request))
    reply.pop("others", None)
    reply.update(player=board.opponent, income=income, incomes={board.me: board.income},
                 max_plans=REPLY_PLANS)
    return reply


def w49_scenarios(board, income):
    """W49's hold and strike of the opponent with `income`, as combatd builds them: hold its
    income evenly on its regions bordering the bot's (the first ones one more; on its first
    region when none does), strike it on its strongest region beside the bot's weakest region
    that borders it (the lower ids on ties), then an attack from there with all it has (when
    none borders the bot, strike is hold)."""
    theirs = [r for r in board.regions() if board.owner_of(r) == board.opponent]
    fronts = [r for r in theirs if any(board.owner_of(n) == board.me for n in board.neighbors[r])]
    held, hold = fronts or theirs[:1], []
    for i, region in enumerate(held):
        n = income // len(held) + (i < income % len(held))
        if n:
            hold.append({"type": "deploy", "player": board.opponent, "to": str(region),
                         "armies": n})
    targets = [r for r in board.mine() if board.neighbors[r] & set(fronts)]
    if not targets:
        return hold, hold
    target = min(targets, key=lambda r: (board.armies_of(r), r))
    source = max((r for r in fronts if target in board.neighbors[r]),
                 key=lambda r: (board.armies_of(r), -r))
    deploy = [{"type": "deploy", "player": board.opponent, "to": str(source), "armies": income}]
    attack = {"player": board.opponent, "from": str(source), "to": str(target),
              "armies": board.armies_of(source) + income}
    return hold, (deploy if income else []) + [attack]


def reply_scenarios(board, income, answer):
    """`others` for the bot's plan: the opponent's plan in `answer` (its deploys and attacks)
    at REPLY_WEIGHT, W49's hold and strike sharing the rest."""
    reply = [o for o in answer["orders"] if o.get("type") in ("deploy", "attack_transfer")]
    hold, strike = w49_scenarios(board, income)
    rest = (1 - REPLY_WEIGHT) / 2
    return [{"weight": REPLY_WEIGHT, "orders": reply}, {"weight": rest, "orders": hold},
            {"weight": rest, "orders": strike}]


def ask_combatd(url, request, timeout):
    body = json.dumps(request).encode()
    req = urllib.request.Request(url + "/plan-turn", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as answer:
        return json.load(answer)


def plan_from_answer(board, answer):
    deploys, attacks = {}, []
    for order in answer["orders"]:
        if order.get("type") == "deploy":
            deploys[int(order["to"])] = deploys.get(int(order["to"]), 0) + int(order["armies"])
        elif order.get("type") == "attack_transfer":
            attacks.append((int(order["from"]), int(order["to"]), int(order["armies"])))
    return deploys, attacks


def legal(board, deploys, attacks):
    """The orders as the engine accepts them: deploys on our regions, at least 1 each, no
    more than the income (what is left goes to the first front); attacks from our regions to
    neighbours, once per pair, no more than each region has beyond the 1 that stays."""
    mine = set(board.mine())
    out, total = {}, 0
    for region, n in sorted(deploys.items()):
        n = min(int(n), board.income - total)
        if region in mine and n >= 1:
            out[region] = out.get(region, 0) + n
            total += n
    if total < board.income and mine:
        fronts = [r for r in sorted(mine) if border(board, r)] or sorted(mine)
        first = max(fronts, key=lambda r: (out.get(r, 0), -r))
        out[first] = out.get(first, 0) + board.income - total
    left = {r: board.armies_of(r) + out.get(r, 0) - 1 for r in mine}
    moves, pairs = [], set()
    for src, dst, n in attacks:
        n = min(int(n), left.get(src, 0))
        if src in mine and dst in board.neighbors[src] and (src, dst) not in pairs and n >= 1:
            moves.append((src, dst, n))
            pairs.add((src, dst))
            left[src] -= n
    return sorted(out.items()), moves


class Bot:
    """The protocol: one line in, at most one line out."""

    def __init__(self, combatd=None, variant="position-seen", log=None, clock=time.monotonic):
        self.board, self.combatd, self.variant = Board(), combatd, variant
        self.log, self.clock = log, clock
        self.timeout_cap = 2.0  # seconds a plan may take; the bench raises it to replay exactly
        self.max_plans = None  # a fixed search size; None: plans_for_bank's by the bank
        self.pending = []  # the plan's attacks, answered at `go attack/transfer`

    def note(self, **fields):
        if self.log:
            self.log.write(json.dumps(fields, sort_keys=True) + "\n")
            self.log.flush()

    def plan(self):
        """This turn's orders from combatd, or from the rule of thumb when it cannot answer
        within a fifth of the time bank (at most 2 s); the search shrinks with the bank. The
        opponent's reply is asked first, within a third of that wait (add_reply). With
        8 s or more in the bank, what is left of the turn's first 0.8 s after that answer goes
        to deploy probes (probe_requests); the best value of all answered wins."""
        b = self.board
        if self.combatd and b.mine():
            budget = max(0.1, min(b.timebank_ms / 5000.0, self.timeout_cap))
            start = self.clock()
            try:
                request = plan_request(b, self.variant)
                reply_ms = self.add_reply(request, budget / 3)
                plans = self.max_plans or plans_for_bank(b.timebank_ms)
                if plans:
                    request["max_plans"] = plans
                left = max(0.1, budget - (self.clock() - start))
                answer = ask_combatd(self.combatd, request, left)
                first_ms = (self.clock() - start) * 1000
                deploys, attacks = plan_from_answer(b, answer)
                best, chosen, probes = answer.get("value"), None, 0
                if self.variant.startswith("position") and isinstance(best, (int, float)) \
                        and b.timebank_ms >= PROBE_MIN_BANK_MS:
                    window = min(budget, PROBE_SECONDS)
                    best, chosen, probes, found = self.probe(request, best, start, window)
                    if found:
                        deploys, attacks = found
                extra = interior_moves(b, deploys, {a[0] for a in attacks} | set(deploys))
                self.note(round=b.round, ms=round((self.clock() - start) * 1000, 1), ok=True,
                          income=b.income, regions=len(b.mine()), value=best,
                          first_value=answer.get("value"), first_ms=round(first_ms, 1),
                          probes=probes, probe=chosen, bank=b.timebank_ms, plans=plans,
                          opponent=request.get("incomes", {}).get(b.opponent), reply_ms=reply_ms)
                return legal(b, deploys, attacks + extra)
            except (OSError, http.client.HTTPException, ValueError, KeyError, TypeError) as e:
                # A refusal's status says which request to look at (its body names the member).
                self.note(round=b.round, ms=round((self.clock() - start) * 1000, 1), ok=False,
                          error=type(e).__name__, status=getattr(e, "code", None))
        deploys, attacks = rule_of_thumb(b)
        return legal(b, dict(deploys), attacks)

    def add_reply(self, request, timeout):
        """Under position-seen, with the opponent on the board: asks its plan (reply_request)
        within `timeout` seconds and gives `request` the `others` of reply_scenarios. Returns
        the milliseconds that took, or None when not asked or not answered (the request then
        keeps combatd's own W49 scenarios)."""
        b = self.board
        income = request.get("incomes", {}).get(b.opponent)
        if income is None or not any(b.owner_of(r) == b.opponent for r in b.regions()):
            return None
        began = self.clock()
        try:
            answer = ask_combatd(self.combatd, reply_request(b, request, income), timeout)
            request["others"] = reply_scenarios(b, income, answer)
        except (OSError, http.client.HTTPException, ValueError, KeyError, TypeError):
            return None
        return round((self.clock() - began) * 1000, 1)

    def probe(self, request, best, start, budget):
        """Asks the probes of probe_requests while the slowest answer so far still fits in
        what is left of `budget` (seconds from `start`); returns the best value, the region
        whose probe gave it (None: the first answer's), the probes answered and that probe's
        (deploys, attacks) or None. A probe not answered in time ends the probing: the turn
        keeps the best answered."""
        b = self.board
        chosen, found, answered, slowest = None, None, 0, self.clock() - start
        for region, probe in probe_requests(b, request):
            left = budget - (self.clock() - start)
            if left < 1.5 * slowest:
                break
            began = self.clock()
            try:
                answer = ask_combatd(self.combatd, probe, left)
            except (OSError, http.client.HTTPException, ValueError):
                break  # the turn's note counts the probes answered, not this one
            slowest = max(slowest, self.clock() - began)
            answered += 1
            value = answer.get("value")
            if isinstance(value, (int, float)) and value > best:
                deploys, attacks = plan_from_answer(b, answer)
                deploys[region] = deploys.get(region, 0) + b.income
                best, chosen, found = value, region, (deploys, attacks)
        return best, chosen, answered, found

    def handle(self, line):
        words = line.split()
        if not words:
            return None
        b, head, rest = self.board, words[0], words[1:]
        if head == "settings" and len(rest) >= 2:
            key, value = rest[0], rest[1:]
            if key == "your_bot":
                b.me = value[0]
            elif key == "opponent_bot":
                b.opponent = value[0]
            elif key == "starting_regions":
                b.starting = [int(w) for w in value]
            elif key == "starting_armies":
                b.income = int(value[0])
            elif key == "timebank":
                b.timebank_ms = int(value[0])
        elif head == "setup_map" and rest:
            self.setup(rest[0], rest[1:])
        elif head == "opponent_moves":
            b.opponent_deploys.append(sum(
                int(rest[i + 3]) for i in range(len(rest) - 3)
                if rest[i] == b.opponent and rest[i + 1] == "place_armies"))
        elif head == "update_map":
            b.update(rest)
            b.round += 1
        elif head == "pick_starting_region" and len(rest) >= 2:
            b.timebank_ms = int(rest[0])
            choice = pick_order(b, [int(w) for w in rest[1:]])[0]
            b.picked.append(choice)
            return str(choice)
        elif head == "go" and len(rest) == 2:
            b.timebank_ms = int(rest[1])
            return self.go(rest[0])
        return None

    def setup(self, what, words):
        b = self.board
        if what == "super_regions":
            for i in range(0, len(words) - 1, 2):
                b.bonus_value[int(words[i])] = int(words[i + 1])
        elif what == "regions":
            for i in range(0, len(words) - 1, 2):
                b.bonus_of[int(words[i])] = int(words[i + 1])
        elif what == "neighbors":
            for i in range(0, len(words) - 1, 2):
                region = int(words[i])
                for n in words[i + 1].split(","):
                    b.neighbors[region].add(int(n))
                    b.neighbors[int(n)].add(region)
        elif what == "wastelands":
            b.wastelands = {int(w) for w in words}
        elif what == "opponent_starting_regions":
            for w in words:
                b.owner[int(w)] = b.opponent

    def go(self, phase):
        b = self.board
        if phase == "place_armies":
            deploys, self.pending = self.plan()
            text = [f"{b.me} place_armies {r} {n}" for r, n in deploys]
        elif phase == "attack/transfer":
            text = [f"{b.me} attack/transfer {s} {d} {n}" for s, d, n in self.pending]
            self.pending = []
        else:
            return "No moves"
        return ", ".join(text) if text else "No moves"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--combatd", default="http://127.0.0.1:8080",
                    help="combatd's base URL; 'none' plays the rule of thumb alone")
    ap.add_argument("--variant", default="position-seen",
                    choices=["position", "position-seen", "expected", "blind", "focus"],
                    help="position-seen: objective position, the opponent's income at least "
                         "its deploys seen in one of the last 3 rounds; position: the same, its income left to "
                         "combatd's estimate; expected: goals (plan_goal) and the "
                         "opponent's predicted attacks; blind: goals, no prediction; focus: "
                         "goals, attacking only enemy regions outnumbered twice")
    ap.add_argument("--log", help="append one JSON line per plan call (latency, ok) here")
    args = ap.parse_args()
    log = open(args.log, "a") if args.log else None
    combatd = None if args.combatd == "none" else args.combatd.rstrip("/")
    bot = Bot(combatd, args.variant, log)
    for line in sys.stdin:
        try:
            out = bot.handle(line)
        except (ValueError, IndexError, KeyError) as e:  # a line we cannot read: no moves
            print(f"warlight2_bot: {e!r} on {line.strip()!r}", file=sys.stderr)
            words = line.split()
            out = "No moves" if words[:1] == ["go"] else None
            if words[:1] == ["pick_starting_region"] and len(words) > 2:
                out = words[2]  # a pick is always answered: the first region offered
        if out is not None:
            sys.stdout.write(out + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
