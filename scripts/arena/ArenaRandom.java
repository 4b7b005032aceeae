/*
 * combatd's arena addition to the warlight2 engine (scripts/arena/fetch.sh copies it into the
 * engine's sources and calls it where the engine drew from Math.random and at the end of each
 * round). Written for combatd; not the engine's code.
 *
 * ARENA_SEED (a long) seeds every draw of the engine (the starting regions offered, the
 * wastelands, the picks' count, the luck of each battle and the order of the players' moves),
 * so that a game replays the same as long as both bots answer the same; unset, the draws are
 * unseeded as the engine's own. trace() prints each player's income for the next round, its
 * regions and its armies to stderr after every round: the arena reads them from game-N.err.
 */
package com.theaigames.game.warlight2;

import com.theaigames.game.warlight2.map.Map;
import com.theaigames.game.warlight2.map.Region;

public final class ArenaRandom {
	private static final java.util.Random DRAWS = System.getenv("ARENA_SEED") == null
			? new java.util.Random() : new java.util.Random(Long.parseLong(System.getenv("ARENA_SEED")));

	private ArenaRandom() {}

	public static double next() {
		return DRAWS.nextDouble();
	}

	public static void trace(int round, Map map, Player... players) {
		StringBuilder line = new StringBuilder("arena-round " + round);
		for (Player p : players) {
			int regions = 0, armies = 0;
			for (Region r : map.getRegions()) {
				if (r.getPlayerName().equals(p.getName())) {
					regions++;
					armies += r.getArmies();
				}
			}
			line.append(" " + p.getName() + " " + p.getArmiesLeft() + " " + regions + " " + armies);
		}
		System.err.println(line);
	}
}
