// The simplest request of every endpoint, as a newcomer writes it from the docs, typed with what
// openapi-typescript (default options) makes of openapi.yaml. `tsc --strict` must accept every
// one: a member the service defaults must be optional, a turn order may leave out its `type`,
// a territory of /plan-turn takes `neighbors`.
import type { paths } from './build/openapi';

type Body<P extends keyof paths> =
  paths[P] extends { post: { requestBody: { content: { 'application/json': infer J } } } } ? J : never;

export const analyzeAttack: Body<'/analyze-attack'> = { attackers: 10, defenders: 5 };
export const analyzeAttackFog: Body<'/analyze-attack'> = {
  attackers: 10,
  defenders: [{ armies: 5, probability: 0.5 }, { armies: 10, probability: 0.5 }],
};
export const analyzeAttackUnits: Body<'/analyze-attack'> = {
  attackers: 10, defenders: 3, defending_units: [{ type: 'commander', id: 'bob' }],
};
export const analyzeTransfer: Body<'/analyze-attack'> = { source_armies: 8, transfer: true };
export const simulate: Body<'/simulate'> = { attackers: 10, defenders: 5 };
export const simulateSeeded: Body<'/simulate'> = {
  source_armies: 11, defenders: 5, seed: 42, settings: { luck_modifier: 0.16, rounding_mode: 'weighted_random' },
};
export const analyzeTurn: Body<'/analyze-turn'> = {
  territories: { A: { owner: 'alice', armies: 10 }, B: { owner: 'bob', armies: 6 } },
  orders: [{ player: 'alice', from: 'A', to: 'B', armies: 9 }],
};
export const analyzeTurnCards: Body<'/analyze-turn'> = {
  territories: { A: { owner: 'alice', armies: 10, neighbors: ['B'] }, B: { owner: 'bob', armies: 6 } },
  orders: [{ type: 'deploy', player: 'alice', to: 'A', armies: 3 },
           { player: 'alice', from: 'A', to: 'B', percent: 1 },
           { type: 'bomb', player: 'alice', target: 'B' }],
  goals: [{ territory: 'B', owner: 'alice' }],
};
export const simulateTurn: Body<'/simulate-turn'> = {
  territories: { A: { owner: 'alice', armies: 10 }, B: { owner: 'bob', armies: 10 } },
  orders: [{ player: 'alice', from: 'A', to: 'B', armies: 9 }],
  trials: 1, seed: 7,
};
export const planTurn: Body<'/plan-turn'> = {
  territories: { A: { owner: 'alice', armies: 4, neighbors: ['B'] }, B: { owner: 'bob', armies: 3, neighbors: [] } },
  player: 'alice', income: 5, goal: { capture: ['B'] },
};
export const duperBattle: Body<'/duper/battle'> = {
  attack: { player: 'red', tile: { units: { soldier: 8 } } },
  defense: { player: 'blue', tile: { units: { soldier: 3 } } },
};
export const duperBoardBattle: Body<'/duper/board/battle'> = {
  board: { tiles: { a1: { owner: 'red', units: { soldier: 8 } }, b1: { owner: 'blue', units: { soldier: 3 } } },
           adjacent: [['a1', 'b1']] },
  attacks: [{ from: 'a1', to: 'b1' }],
};
export const duperBoardOptions: Body<'/duper/board/options'> = {
  board: { tiles: { a1: { owner: 'red', units: { soldier: 8 } }, b1: { owner: 'blue', units: { soldier: 3 } } },
           adjacent: [['a1', 'b1']] },
  player: 'red',
};
export const mcpPing: Body<'/mcp'> = { jsonrpc: '2.0', id: 1, method: 'ping' };
export const mcpCall: Body<'/mcp'> = {
  jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'analyze_attack', arguments: { attackers: 10, defenders: 5 } },
};

// The types are not `any`: what the contract refuses does not compile either.
// @ts-expect-error attackers is a number
export const badAttackers: Body<'/analyze-attack'> = { attackers: 'ten', defenders: 5 };
// @ts-expect-error no such rounding mode
export const badRounding: Body<'/simulate'> = { attackers: 10, defenders: 5, settings: { rounding_mode: 'up' } };
// @ts-expect-error a bomb takes a target, not from/to
export const badBomb: Body<'/analyze-turn'> = { territories: {}, orders: [{ type: 'bomb', player: 'a', from: 'A', to: 'B' }] };
// @ts-expect-error a plan's territory lists its neighbors
export const badPlan: Body<'/plan-turn'> = { territories: { A: { owner: 'alice', armies: 4 } }, player: 'alice', income: 5, goal: { capture: ['A'] } };

// A bot's /warzone/plan-turn: GetBotGameSettings and GetBotGameInfo merged as they came, with a
// Fogged territory given in `fogged`, the player's income in `incomes`, and `gameID`; the answer's
// send_orders is typed as SendOrdersBotGame's body.
export const warzonePlanTurn: Body<'/warzone/plan-turn'> = {
  settings: { OffensiveKillRate: '60', DefensiveKillRate: 70, LuckModifier: '0.16', MinimumArmyBonus: '4' },
  map: { territories: [{ id: 1, connectedTo: [2, 3] }, { id: 2 }, { id: 3 }],
         bonuses: [{ id: 7, value: 3, territoryIDs: [1, 3] }] },
  game: { id: '1234567', numberOfTurns: '3', state: 'Playing', players: [{ id: '100', isAI: 'False' }, { id: 200 }] },
  gameInfo: {
    latestStanding: [{ terrID: 1, ownedBy: '100', armies: '3' }, { terrID: 2, ownedBy: '200', armies: 'Fogged' },
                     { terrID: 3, ownedBy: 'Neutral', armies: '1' }],
  },
  fogged: { '2': { armies: [{ armies: 5, probability: 0.5 }, { armies: 9, probability: 0.5 }] } },
  incomes: [{ playerID: '100', freeArmies: '5', bonusRestrictions: {} }],
  diplomacy: [{ playerOne: 100, playerTwo: 200 }],
  playerID: '100', gameID: 1234567, goal: { bonuses: [7] }, objective: 'expected',
};
type PlanAnswer = paths['/warzone/plan-turn']['post']['responses'][200]['content']['application/json'];
export const sendOrders = (plan: PlanAnswer): { gameID: number; playerID: number; turnNumber: number } | undefined =>
  plan.send_orders && { gameID: plan.send_orders.gameID, playerID: plan.send_orders.playerID,
                        turnNumber: plan.send_orders.turnNumber };
