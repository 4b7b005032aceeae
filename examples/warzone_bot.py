#!/usr/bin/env python3
"""A Warzone bot's turn loop with combatd (Python 3 standard library only).

Each turn, as docs/bot-guide.md describes it:
  1. POST GetBotGameSettings {gameID} and GetBotGameInfo {gameID, playerID} to the AI server
     (POST with a JSON body, as the game's SDK calls it);
  2. merge the two answers as they came, {settings, map} + {game, gameInfo}, add `playerID`,
     `gameID` and the strategy (here: the most expected income from the map's bonuses), and
     POST it to combatd's /warzone/plan-turn;
  3. optionally check the plan's turn with /warzone/analyze-turn (each attack's chance);
  4. POST the answer's `send_orders`, SendOrdersBotGame's whole body, to the AI server.

Try it against the local stand-in of the AI server and a local combatd:
  python3 examples/ai_server_standin.py --port 9000 &
  bash scripts/run.sh --port 8080 &
  python3 examples/warzone_bot.py --ai http://127.0.0.1:9000/api/ --game 4711 --player 100
Against the game's AI server, --ai is its base URL (http://aiserver.warzone.com/api/, with the
credentials your bot uses) and --game, --player your bot game's ids.
"""
import argparse
import json
import sys
import time
import urllib.error
import urllib.request


def post(url, body, timeout=120):
    """POSTs `body` as JSON and returns the JSON answer; an HTTP error ends the bot, with the
    problem's text (combatd's 422 names the member it refused)."""
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as e:
        sys.exit(f"{url}: HTTP {e.code}: {e.read().decode(errors='replace')}")


def ai_call(ai, api, body):
    """One call of the AI server, which answers {"error": ...} when it refuses one."""
    answer = post(ai.rstrip("/") + "/" + api, body)
    if "error" in answer:
        sys.exit(f"{api} refused {json.dumps(body)}: {answer['error']}")
    return answer


def plan_turn(combatd, game_json, game_id, player_id):
    """combatd's plan for the turn: the game's JSON as it came, and what to plan for."""
    request = dict(game_json, playerID=player_id, gameID=game_id, objective="income")
    plan = post(combatd + "/warzone/plan-turn", request)
    for warning in plan["warnings"]:
        print(f"  combatd: {warning}", file=sys.stderr)
    if "send_orders" not in plan:  # an id combatd needs is missing: the warning says which
        sys.exit("no send_orders in the plan")
    return plan


def check_turn(combatd, game_json, plan):
    """The plan's turn analysed exactly: each attack's chance to capture, printed."""
    analysis = post(combatd + "/warzone/analyze-turn", dict(game_json, orders=plan["orders"]))
    for order, result in zip(plan["orders"], analysis["orders"]):
        if order["type"] == "GameOrderAttackTransfer" and "capture_probability" in result:
            print(f"  {order['from']} -> {order['to']} with {order['numArmies']}: "
                  f"captures with {result['capture_probability']:.4f}")


def play(ai, combatd, game_id, player_id, turns, check=True, poll=0.2, patience=50):
    """Plays up to `turns` turns; returns how many were sent."""
    settings = ai_call(ai, "GetBotGameSettings", {"gameID": game_id})  # {settings, map}
    sent, last, idle = 0, None, 0
    while sent < turns and idle < patience:
        info = ai_call(ai, "GetBotGameInfo", {"gameID": game_id, "playerID": player_id})
        turn = int(info["game"]["numberOfTurns"]) + 1
        if info["game"]["state"] == "Finished":
            break
        if turn == last:  # this turn's orders are in: wait for the next
            idle += 1
            time.sleep(poll)
            continue
        game_json = dict(settings, **info)  # {settings, map, game, gameInfo}, as they came
        plan = plan_turn(combatd, game_json, game_id, player_id)
        print(f"turn {turn}: {len(plan['orders'])} orders, income {plan['income']}, "
              f"expected bonus income {plan['value']}")
        if check:
            check_turn(combatd, game_json, plan)
        ai_call(ai, "SendOrdersBotGame", plan["send_orders"])
        sent, last, idle = sent + 1, turn, 0
    return sent


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ai", required=True, help="the AI server's base URL, .../api/")
    ap.add_argument("--combatd", default="http://127.0.0.1:8080", help="combatd's base URL")
    ap.add_argument("--game", type=int, required=True, help="the bot game's id")
    ap.add_argument("--player", type=int, required=True, help="the bot's player id")
    ap.add_argument("--turns", type=int, default=1, help="turns to play before stopping")
    ap.add_argument("--no-check", action="store_true", help="skip /warzone/analyze-turn")
    args = ap.parse_args()
    sent = play(args.ai, args.combatd.rstrip("/"), args.game, args.player, args.turns,
                check=not args.no_check)
    print(f"{sent} turn(s) sent")


if __name__ == "__main__":
    main()
