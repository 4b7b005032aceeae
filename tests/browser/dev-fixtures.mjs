// Development aid, not a test: while the service's endpoints still answer 501, this stands in
// for them with fixtures made by warapp-model.mjs (and the Duper worked example of the rules).
//   node dev-fixtures.mjs shot COMBATD_URL out.png   opens the page with page.route() fixtures,
//                                                   clicks through the panels, saves a screenshot
//   node dev-fixtures.mjs serve COMBATD_URL PORT     a stand-in service on 127.0.0.1:PORT: GET is
//                                                   passed to combatd, POSTs get fixtures (lets
//                                                   test.mjs run every check before the endpoints land)
import { createServer } from 'node:http';
import { openBrowser } from './browser.mjs';
import { battle, percent } from './warapp-model.mjs';

const [mode, base, arg] = process.argv.slice(2);

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
    const range = body.graph || { from: 1, to: 0 };
    for (let a = range.from; a <= range.to; a++) {
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

function answer(path, bodyText) {
    if (path.endsWith('/analyze-attack')) {
        const r = analyze(JSON.parse(bodyText));
        return Array.isArray(r) ? [r[0], JSON.stringify(r[1])] : [200, JSON.stringify(r)];
    }
    if (path.endsWith('/simulate')) return [200, simulate(bodyText)];
    if (path.endsWith('/duper/battle')) return [200, JSON.stringify(duper)];
    return [404, '{"title":"Not Found","status":404}'];
}

if (mode === 'serve') {
    createServer((req, res) => {
        let body = '';
        req.on('data', (c) => { body += c; });
        req.on('end', async () => {
            if (req.method === 'POST') {
                const [status, text] = answer(req.url, body);
                res.writeHead(status, { 'Content-Type': status < 300 ? 'application/json' : 'application/problem+json' });
                res.end(text);
            } else {
                const r = await fetch(new URL(req.url, base));
                res.writeHead(r.status, { 'Content-Type': r.headers.get('content-type') });
                res.end(Buffer.from(await r.arrayBuffer()));
            }
        });
    }).listen(Number(arg), '127.0.0.1', () => console.log(`stand-in service on http://127.0.0.1:${arg}/`));
} else {
    const shot = arg || 'playground-dev.png';
    const { page, requests, pageErrors, close } = await openBrowser();
    const json = (route, status, body) => route.fulfill({ status, contentType: status < 300 ? 'application/json' : 'application/problem+json',
        body: typeof body === 'string' ? body : JSON.stringify(body) });
    for (const path of ['**/analyze-attack', '**/simulate', '**/duper/battle']) {
        await page.route(path, (route) => {
            const [status, text] = answer(new URL(route.request().url()).pathname, route.request().postData());
            return json(route, status, text);
        });
    }
    await page.goto(base);
    try {
        await page.waitForSelector('#analyze-graph svg .marker', { state: 'attached', timeout: 10000 });
    } catch (e) {
        await page.screenshot({ path: shot, fullPage: true });
        console.log('no graph; console errors:', pageErrors, await page.locator('#warapp .panel-error').allTextContents());
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
    console.log('requests:', requests.length, 'console errors:', pageErrors);
    await close();
}
