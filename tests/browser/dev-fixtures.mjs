// Development aid, not a test: opens the playground from a running combatd whose endpoints may
// still answer 501, answers the three POST endpoints with fixtures made by warapp-model.mjs
// (and the Duper worked example of the rules), clicks through the panels and saves a
// screenshot. Usage: node dev-fixtures.mjs http://127.0.0.1:PORT/ out.png
import { openBrowser } from './browser.mjs';
import { battle, percent } from './warapp-model.mjs';

const base = process.argv[2];
const shot = process.argv[3] || 'playground-dev.png';

function settingsOf(body) {
    const st = body.settings || {};
    return {
        offense: percent((st.offense_kill_rate ?? 0.6) * 100),
        defense: percent((st.defense_kill_rate ?? 0.7) * 100),
        luck: percent((st.luck_modifier ?? 0) * 100),
        rounding: st.rounding_mode || 'straight_round',
        guard: st.one_army_must_stand_guard ?? true,
        raw: {
            offense_kill_rate: st.offense_kill_rate ?? 0.6, defense_kill_rate: st.defense_kill_rate ?? 0.7,
            luck_modifier: st.luck_modifier ?? 0, rounding_mode: st.rounding_mode || 'straight_round',
            one_army_must_stand_guard: st.one_army_must_stand_guard ?? true,
        },
    };
}
const distOf = (m) => {
    const items = [...m.entries()].sort((a, b) => a[0] - b[0]).map(([armies, probability]) => ({ armies, probability }));
    const mean = items.reduce((t, i) => t + i.armies * i.probability, 0);
    const pct = (q) => { let c = 0; for (const i of items) { c += i.probability; if (c >= q) return i.armies; } return items.at(-1).armies; };
    return { mean, percentiles: Object.fromEntries([1, 5, 10, 25, 50, 75, 90, 95, 99].map((q) => ['p' + q, pct(q / 100)])), distribution: items };
};

function analyze(body) {
    if (body.transfer) return { transfer: true, outcome: { armies_arriving: body.attackers } };
    const s = settingsOf(body);
    const A = body.attackers, D = body.defenders;
    if (s.luck > 1000000) {
        return [422, { type: 'about:blank', title: 'Unprocessable Content', status: 422, detail: 'The request has invalid fields.',
            errors: [{ pointer: '/settings/luck_modifier', detail: 'must be between 0 and 1' }] }];
    }
    const b = battle(A, D, s);
    const graph = [];
    for (let a = body.graph.from; a <= body.graph.to; a++) {
        const g = battle(a, D, s);
        graph.push({ attackers: a, capture_probability: g.capture, expected_attackers_lost: g.attLost, expected_defenders_lost: g.defLost });
    }
    const deterministic = s.luck === 0 && s.rounding === 'straight_round';
    const out = {
        attackers: A, defenders: D, settings: s.raw, deterministic, capture_probability: b.capture,
        mutual_destruction_probability: b.mutual, attackers_left: distOf(b.attLeft), defenders_left: distOf(b.defLeft), graph,
        armies_needed: (body.targets || []).map((q) => ({ probability: q, attackers: (graph.find((g) => g.capture_probability >= q) || { attackers: null }).attackers })),
    };
    if (deterministic) {
        const al = [...b.attLeft.keys()][0], dl = [...b.defLeft.keys()][0];
        out.outcome = { captured: b.capture > 0.5, attackers_lost: A - al, defenders_lost: D - dl, attackers_left: al, defenders_left: dl };
    }
    return out;
}

function simulate(bodyText) {
    const seedText = (/"seed":(\d+)/.exec(bodyText) || [])[1] || '18446744073709551557';
    const body = JSON.parse(bodyText);
    const s = settingsOf(body);
    const b = battle(body.attackers, body.defenders, s);
    const trials = body.trials || 10000;
    let x = Number(BigInt(seedText) % 2147483647n) || 1; // a toy generator: fixtures only
    const rnd = () => (x = (x * 48271) % 2147483647) / 2147483647;
    const draw = (m) => { const r = rnd(); let c = 0; for (const [k, p] of m) { c += p; if (r < c) return k; } return [...m.keys()].at(-1); };
    const ha = new Map(), hd = new Map();
    let captures = 0;
    for (let i = 0; i < trials; i++) {
        const a = draw(b.attLeft), d = draw(b.defLeft);
        ha.set(a, (ha.get(a) || 0) + 1); hd.set(d, (hd.get(d) || 0) + 1);
        if (d === 0) captures++;
    }
    const hist = (m) => ({ mean: [...m].reduce((t, [k, c]) => t + k * c, 0) / trials,
        histogram: [...m].sort((p, q) => p[0] - q[0]).map(([armies, count]) => ({ armies, count })) });
    return `{"seed":${seedText},"trials":${trials},"captures":${captures},"capture_rate":${captures / trials},"mutual_destructions":0,` +
        `"attackers_left":${JSON.stringify(hist(ha))},"defenders_left":${JSON.stringify(hist(hd))}}`;
}

const duper = {
    attack_power: 32, defense_power: 33,
    power: { attack: { tile_troops: 16, fort: 7, support: 9, total: 32 }, defense: { tile_troops: 15, buildings: 0, support: 12, tile_buff: 4, key_buff: 2, total: 33 } },
    captured: false, tie: false, damage: { to_attacker: 0, to_defender: 26 },
    losses: { attack: { tile: { soldier: 8, plane: 2, fort: 1 }, loaded: { tank: 2 }, support: [{ tanks: 3, fort: false }] },
              defense: { tile: { tank: 5 }, loaded: {}, support: [{ tanks: 3 }] } },
    survivors: { attack: { tile: {}, loaded: {}, support: [{ tanks: 0, fort: false }] },
                 defense: { tile: { center: 1 }, loaded: {}, support: [{ tanks: 1 }] } },
    moved_in: {}, tile_owner: 'blue', eliminated: [], card_steal: { eligible: false, probability: 0, stolen: false }, seed: 7,
};

const { page, requests, consoleErrors, close } = await openBrowser();
const json = (route, status, body) => route.fulfill({ status, contentType: status < 300 ? 'application/json' : 'application/problem+json',
    body: typeof body === 'string' ? body : JSON.stringify(body) });
await page.route('**/analyze-attack', (route) => {
    const r = analyze(JSON.parse(route.request().postData()));
    return Array.isArray(r) ? json(route, r[0], r[1]) : json(route, 200, r);
});
await page.route('**/simulate', (route) => json(route, 200, simulate(route.request().postData())));
await page.route('**/duper/battle', (route) => json(route, 200, duper));
await page.goto(base);
try {
    await page.waitForSelector('#analyze-graph svg .marker', { state: 'attached', timeout: 10000 });
} catch (e) {
    await page.screenshot({ path: shot, fullPage: true });
    console.log('no graph; console errors:', consoleErrors, await page.locator('#warapp .panel-error').allTextContents());
    await close();
    process.exit(1);
}
await page.fill('#sim-trials', '2000');
await page.fill('#sim-seed', '42');
await page.click('#simulate button[type=submit]');
await page.waitForSelector('#sim-histograms svg');
await page.click('#duper button[type=submit]');
await page.waitForSelector('#duper-verdict');
await page.screenshot({ path: shot, fullPage: true });
console.log('requests:', requests.length, 'console errors:', consoleErrors);
await close();
