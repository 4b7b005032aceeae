#!/usr/bin/env python3
"""A local stand-in of the Warzone AI server, for trying a bot without the game (stdlib only).

It answers the three calls a bot's turn loop makes, as the game's AI server does: POST with a
JSON body, an answer that is JSON, {"error": ...} when the call is refused (the SDK's
Communication.Call throws on that member):

  GetBotGameSettings {gameID}            -> {settings, map}
  GetBotGameInfo     {gameID, playerID}  -> {game: {numberOfTurns, state, players},
                                             gameInfo: {latestStanding, incomes, ...}}
  SendOrdersBotGame  {gameID, playerID, orders, turnNumber}  -> {"success": "true"}

Numbers are written as the game writes them (mostly as strings: "60", "True"). The game is
small: six territories, two bonuses, the bot's player 100 against player 200, which sends no
orders. SendOrdersBotGame checks its body as the SDK writes it (ids integers, turnNumber the
next turn, the orders the bot may give) and, when it is good, plays the turn with 0 % luck
(each side kills round(60 % / 70 % of its armies), an attack that kills every defender and
keeps an army captures) so that the next GetBotGameInfo shows a new standing. Every body is
kept in `received`, with the reason it was refused, if it was.

Run it alone: python3 examples/ai_server_standin.py --port 9000 (game 4711, player 100).
"""
import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GAME_ID = 4711
PLAYERS = (100, 200)
BASE_INCOME = 5
SETTINGS = {
    "OffensiveKillRate": "60", "DefensiveKillRate": "70", "LuckModifier": "0",
    "RoundingMode": "StraightRound", "OneArmyStandsGuard": "True", "MultiAttack": "False",
    "MoveOrder": "Random", "MinimumArmyBonus": str(BASE_INCOME), "OverriddenBonuses": [],
    "AllowAttackOnly": "True", "AllowTransferOnly": "True", "AllowPercentageAttacks": "True",
    "Fog": "NoFog", "Commanders": "False", "LocalDeployments": "False", "NoSplit": "False",
}
TERRITORIES = {1: "Harbor", 2: "Mill", 3: "Ford", 4: "Keep", 5: "Marsh", 6: "Moor"}
BORDERS = [(1, 2), (2, 3), (3, 5), (1, 4), (4, 5), (5, 6)]
BONUSES = [(1, "North", 3, [1, 2, 3]), (2, "South", 2, [4, 5, 6])]
START = {1: (100, 5), 2: (100, 2), 3: ("Neutral", 2), 4: ("Neutral", 2), 5: (200, 4),
         6: ("Neutral", 2)}


def neighbours(t):
    return {b for a, b in BORDERS if a == t} | {a for a, b in BORDERS if b == t}


class Game:
    """The game's state and the bodies received; one lock, the server is threaded."""

    def __init__(self):
        self.lock = threading.Lock()
        self.standing = dict(START)
        self.turns = 0
        self.received = []  # [{"body": ..., "error": None or the reason it was refused}]

    def income(self, player):
        whole = [v for _, _, v, ts in BONUSES if all(self.standing[t][0] == player for t in ts)]
        return BASE_INCOME + sum(whole)

    def settings_answer(self):
        terrs = [{"id": str(t), "name": n, "connectedTo": sorted(neighbours(t))}
                 for t, n in TERRITORIES.items()]
        bonuses = [{"id": str(i), "name": n, "value": str(v), "territoryIDs": ts}
                   for i, n, v, ts in BONUSES]
        return {"settings": SETTINGS, "map": {"id": "1", "name": "Stand-in", "territories": terrs,
                                              "bonuses": bonuses, "distributionModes": []}}

    def info_answer(self, player):
        alive = {o for o, _ in self.standing.values()}
        players = [{"id": str(p), "state": "Playing" if p in alive else "Eliminated",
                    "isAI": "False", "humanTurnedIntoAI": "False", "hasCommittedOrders": "False"}
                   for p in PLAYERS]
        state = "Playing" if all(p in alive for p in PLAYERS) else "Finished"
        standing = [{"terrID": t, "ownedBy": str(o), "armies": str(a)}
                    for t, (o, a) in sorted(self.standing.items())]
        incomes = [{"playerID": str(player), "freeArmies": str(self.income(player)),
                    "bonusRestrictions": []}]
        return {"game": {"numberOfTurns": str(self.turns), "state": state, "players": players},
                "gameInfo": {"latestStanding": standing, "previousTurnStanding": "null",
                             "distributionStanding": "null", "latestTurn": "null",
                             "incomes": incomes, "cardsMustUse": "0", "cards": []}}

    def check_body(self, body):
        """The reason SendOrdersBotGame's body would be refused, or None."""
        if not isinstance(body, dict) or set(body) != {"gameID", "playerID", "orders",
                                                       "turnNumber"}:
            return "the body must be {gameID, playerID, orders, turnNumber}"
        for key in ("gameID", "playerID", "turnNumber"):
            if type(body[key]) is not int:
                return f"{key} must be an integer, as the SDK writes it"
        if body["gameID"] != GAME_ID:
            return f"no game {body['gameID']}"
        if body["playerID"] not in PLAYERS:
            return f"no player {body['playerID']} in this game"
        if body["turnNumber"] != self.turns + 1:
            return f"turnNumber {body['turnNumber']}: the turn being played is {self.turns + 1}"
        if not isinstance(body["orders"], list):
            return "orders must be a list"
        deployed = 0
        for i, o in enumerate(body["orders"]):
            why = self.check_order(body["playerID"], o)
            if why:
                return f"orders[{i}]: {why}"
            deployed += o["armies"] if o["type"] == "GameOrderDeploy" else 0
        if deployed > self.income(body["playerID"]):
            return f"{deployed} armies deployed, the income is {self.income(body['playerID'])}"
        return None

    def check_order(self, player, o):
        if not isinstance(o, dict) or o.get("playerID") != player or type(o["playerID"]) is not int:
            return "playerID must be the body's, an integer"
        if o.get("type") == "GameOrderDeploy":
            if type(o.get("armies")) is not int or o["armies"] < 0:
                return "armies must be a whole number"
            if self.standing.get(o.get("deployOn"), (None,))[0] != player:
                return "deployOn must be a territory of the player's"
            return None
        if o.get("type") != "GameOrderAttackTransfer":
            return f"type {o.get('type')!r} is not an order this stand-in takes"
        if o.get("from") not in TERRITORIES or o.get("to") not in neighbours(o["from"]):
            return "from and to must be bordering territories"
        if not isinstance(o.get("numArmies"), str) or not o["numArmies"].isdigit():
            return "numArmies must be the armies' digits as a string"
        if o.get("attackTransfer") not in ("Attack", "Transfer", "AttackTransfer"):
            return "attackTransfer must be Attack, Transfer or AttackTransfer"
        if not all(isinstance(o.get(k), bool) for k in ("byPercent", "attackTeammates")):
            return "byPercent and attackTeammates must be booleans"
        return None

    def play(self, orders):
        """The turn with 0 % luck: deploys, then each attack/transfer in the order given."""
        for o in orders:
            if o["type"] == "GameOrderDeploy":
                owner, armies = self.standing[o["deployOn"]]
                self.standing[o["deployOn"]] = (owner, armies + o["armies"])
        for o in orders:
            if o["type"] == "GameOrderAttackTransfer":
                self.move(o["playerID"], o["from"], o["to"], int(o["numArmies"]))
        self.turns += 1

    def move(self, player, src, dst, n):
        owner, have = self.standing[src]
        n = min(n, have - 1)  # one army stands guard
        if owner != player or n <= 0:
            return
        d_owner, d = self.standing[dst]
        self.standing[src] = (owner, have - n)
        if d_owner == player:
            self.standing[dst] = (player, d + n)
            return
        killed, lost = round(0.6 * n), round(0.7 * d)
        if killed >= d and n - lost > 0:
            self.standing[dst] = (player, n - lost)
        else:
            self.standing[dst] = (d_owner, max(d - killed, 0))
            self.standing[src] = (owner, have - n + max(n - lost, 0))

    def call(self, name, body):
        with self.lock:
            if name == "GetBotGameSettings":
                return self.settings_answer()
            if name == "GetBotGameInfo":
                if not isinstance(body, dict) or body.get("playerID") not in PLAYERS:
                    return {"error": "GetBotGameInfo takes {gameID, playerID}"}
                return self.info_answer(body["playerID"])
            if name == "SendOrdersBotGame":
                why = self.check_body(body)
                self.received.append({"body": body, "error": why})
                if why:
                    return {"error": why}
                self.play(body["orders"])
                return {"success": "true"}
            return {"error": f"no call {name}"}


def make_server(port, game):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            try:
                body = json.loads(self.rfile.read(length) or b"null")
            except ValueError:
                body = None
            answer = game.call(self.path.rstrip("/").rsplit("/", 1)[-1], body)
            data = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, fmt, *args):  # quiet: the test reads `received`
            pass

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=9000)
    server = make_server(ap.parse_args().port, Game())
    print(f"AI server stand-in on http://127.0.0.1:{server.server_address[1]}/api/ "
          f"(game {GAME_ID}, players {PLAYERS[0]} and {PLAYERS[1]})", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
