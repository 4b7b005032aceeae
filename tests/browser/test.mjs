// Browser test of the playground page (GET /), against a running combatd: no fixtures.
// Usage: node test.mjs http://127.0.0.1:PORT/ path/to/screenshot.png
// Prints one line per check and closes with "N passed, N failed, N skipped". An endpoint that
// answers 501 fails the run (every endpoint exists); the checks that need it are then skipped,
// and the page is checked to show the service's 501 problem at the top of that panel.
import { existsSync, statSync } from 'node:fs';
import { openBrowser } from './browser.mjs';
import { battle, battleWithUnits, mixture, percent } from './warapp-model.mjs';
import { mapLabels } from './map-labels.mjs';

const base = process.argv[2];
const shotPath = process.argv[3];
if (!base || !shotPath) {
    console.error('usage: node test.mjs BASE_URL SCREENSHOT.png');
    process.exit(2);
}
const origin = new URL(base).origin;
const SKIP = Symbol('skip');
const counts = { passed: 0, failed: 0, skipped: 0 };

// cleanup runs after the check whether it passed or not, so one failure does not spill into
// the next check.
async function check(name, fn, cleanup) {
    try {
        const r = await fn();
        if (r === SKIP) {
            counts.skipped++;
            console.log(`skip - ${name} (the endpoint answers 501 Not Implemented)`);
        } else {
            counts.passed++;
            console.log(`ok - ${name}`);
        }
    } catch (err) {
        counts.failed++;
        console.log(`not ok - ${name}: ${String(err && err.message || err).split('\n')[0]}`);
    }
    if (cleanup) await cleanup();
}
function assert(cond, message) {
    if (!cond) throw new Error(message);
}
function equal(actual, expected, what) {
    assert(actual === expected, `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

// Which endpoints are live: a minimal valid request to each (501 means not implemented yet).
// A probe that fails altogether counts as live, so the checks run and say what is wrong.
async function live(path, body) {
    try {
        const r = await fetch(new URL(path, base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        await r.text();
        return r.status !== 501;
    } catch (err) {
        console.log(`# probe of ${path} failed: ${err.message}`);
        return true;
    }
}
const liveAnalyze = await live('analyze-attack', { attackers: 2, defenders: 1 });
const liveSimulate = await live('simulate', { attackers: 2, defenders: 1, trials: 1, seed: 1 });
const liveDuper = await live('duper/battle', {
    attack: { player: 'red', kind: 'normal', tile: { units: { soldier: 2 } } },
    defense: { player: 'blue', tile: { level: 1, units: { soldier: 1 } } },
});
// The example turn, as the turn panel is prefilled with it.
const TURN_EXAMPLE = {
    territories: { A: { owner: 'alice', armies: 12, neighbors: ['B', 'N'] }, B: { owner: 'bob', armies: 5 }, N: { owner: 'neutral', armies: 2 } },
    orders: [{ type: 'deploy', player: 'alice', to: 'A', armies: 3 },
        { player: 'alice', from: 'A', to: 'B', armies: 10 },
        { player: 'alice', from: 'A', to: 'N', percent: 1 },
        { player: 'bob', from: 'B', to: 'A', armies: 4 }],
    settings: { luck_modifier: 0, multi_attack: false },
    teams: { alice: 'red' }, move_order: 'listed', player_order: ['alice', 'bob'],
    goals: [{ territory: 'B', owner: 'alice' }],
};
const liveTurn = await live('analyze-turn', TURN_EXAMPLE) && await live('simulate-turn', { ...TURN_EXAMPLE, trials: 1, seed: 1 });
// docs/rules.md's W24 example: a map A–B, B–C; alice's attack on B and her bomb on it.
const CARD_TURN = {
    territories: { A: { owner: 'alice', armies: 10, neighbors: ['B'] }, B: { owner: 'bob', armies: 6, neighbors: ['C'] }, C: { owner: 'neutral', armies: 2 } },
    orders: [{ player: 'alice', from: 'A', to: 'B', armies: 9 }, { type: 'bomb', player: 'alice', target: 'B' }],
    settings: { luck_modifier: 0 },
};
// Cards run once the core's engines take them: until then a card turn is refused.
const liveCards = await (async () => {
    try {
        const r = await fetch(new URL('analyze-turn', base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(CARD_TURN) });
        await r.text();
        return r.status === 200;
    } catch (err) {
        return true;
    }
})();
// The worked example on a board, as the board panel is prefilled with it
// (player: the options player the panel starts with).
const BOARD_EXAMPLE = {
    board: {
        tiles: {
            a1: { owner: 'red', level: 1, units: { soldier: 8, plane: 2, fort: 1 }, loaded: { tank: 2 } },
            a2: { owner: 'red', units: { tank: 3 } },
            b1: { owner: 'blue', level: 3, units: { tank: 5, center: 1 } },
            b2: { owner: 'blue', units: { tank: 4 } },
            n1: { owner: 'npc', units: { larva: 3 } },
        },
        adjacent: [['a1', 'b1'], ['a1', 'a2'], ['b1', 'b2'], ['a1', 'n1']],
        keys: { blue: { red: 2 } },
    },
    attacks: [{ from: 'a1', to: 'b1', kind: 'normal' }],
    rules: { key_buff_per_key: 1 }, seed: 7, player: 'red',
};
const liveBoard = await live('duper/board/battle', { board: BOARD_EXAMPLE.board, attacks: [] }) &&
    await live('duper/board/options', { board: BOARD_EXAMPLE.board, player: 'red' });
// Every endpoint exists now: one answering 501 is a regression, not a reason to skip.
await check('every endpoint the page calls is implemented (no 501)', async () => {
    assert(liveAnalyze && liveSimulate && liveDuper && liveTurn && liveBoard,
        `501 from ${[!liveAnalyze && '/analyze-attack', !liveSimulate && '/simulate', !liveDuper && '/duper/battle', !liveTurn && '/analyze-turn or /simulate-turn',
            !liveBoard && '/duper/board/battle or /duper/board/options'].filter(Boolean).join(', ')}`);
});

const browser = await openBrowser({ width: 1400, height: 900 });
await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
const { page, requests, pageErrors } = browser;

// Submits a panel's form with `act` and waits until the answer has been drawn.
async function submit(section, act) {
    await act();
    await page.waitForSelector(`#${section}[data-state]:not([data-state=busy])`, { timeout: 30000 });
    return page.getAttribute(`#${section}`, 'data-state');
}
const text = async (sel) => (await page.textContent(sel) || '').trim();

try {
    await check('GET / serves one self-contained HTML page, its script the service\'s own', async () => {
        const r = await fetch(base);
        equal(r.status, 200, 'status');
        assert(/^text\/html/.test(r.headers.get('content-type') || ''), 'content-type is not text/html');
        const csp = r.headers.get('content-security-policy') || '';
        assert(/script-src 'self'(;|$)/.test(csp), `the page's CSP allows more scripts: ${csp}`);
        const html = await r.text();
        assert(/<style>/.test(html), 'the style is not inline');
        assert(!/<script>/.test(html), 'an inline script, which the CSP refuses');
        assert(/<script src="page.js"><\/script>/.test(html), 'the page does not load page.js');
        const external = html.match(/(?:src|href|action)\s*=\s*["']?(?:https?:)?\/\/[^"'\s>]*/gi) || [];
        equal(external.join(' '), '', 'references to other hosts');
        assert(!/@import|url\(\s*["']?(?:https?:)?\/\//i.test(html), 'the CSS loads something from outside');
    });

    await page.goto(base, { waitUntil: 'load' });

    // The worked example, 16 attackers against 10 defenders at the service's defaults (60 %
    // offense, 70 % defense, no luck, straight round), drawn on load. The expected chance comes
    // from the brute-force model in warapp-model.mjs (W1-W5).
    const example = battle(16, 10, { offense: percent(60), defense: percent(70), luck: 0, rounding: 'straight_round' });
    await check('the example analyze graph is drawn on load', async () => {
        await page.waitForSelector('#warapp[data-state]:not([data-state=busy])', { timeout: 30000 });
        if (!liveAnalyze) return SKIP;
        equal(await page.getAttribute('#warapp', 'data-state'), 'done', 'panel state');
        await page.waitForSelector('#analyze-graph svg path.capture-line');
        assert(await page.$('#analyze-graph svg path.attackers-lost-line'), 'no line of attackers lost');
        assert(await page.$('#analyze-graph svg path.defenders-lost-line'), 'no line of defenders lost');
        equal(await page.getAttribute('#analyze-graph svg .marker', 'data-attackers'), '16', 'marker');
        const labels = await page.$$eval('#analyze-graph svg text.axis-title', (ns) => ns.map((n) => n.textContent));
        for (const l of ['Chance of capture', 'Expected armies lost', 'Attacking armies']) assert(labels.includes(l), `no axis title "${l}"`);
        // The automatic range for 10 defenders is 1..30 (2 * 10 + 10): one row per attacker count.
        equal(await page.$$eval('#analyze-graph tbody tr', (rs) => rs.length), 30, 'graph points');
        equal(await text('#analyze-capture'), Math.abs(example.capture - 1) < 1e-12 ? '100 %' : (example.capture * 100).toFixed(2) + ' %', 'capture probability');
        const d = await page.getAttribute('#analyze-graph svg path.capture-line', 'd');
        equal((d.match(/[ML]/g) || []).length, 30, 'points on the capture line');
    });
    if (!liveAnalyze) {
        await check('without the endpoint the War.app panel shows the 501 problem at its top', async () => {
            assert(await page.isVisible('#warapp .panel-error'), 'no problem box');
            assert(/not implemented/i.test(await text('#warapp .panel-error')), 'the detail is not shown');
        });
    }

    // 0 % luck, straight round: 8 attackers kill round(8 * 0.6 = 4.8) = 5 >= 5 defenders, the
    // defenders kill round(5 * 0.7 = 3.5) = 4 (.5 rounds up, W2) < 8: captured with 4 left (W5).
    await check('a filled form submitted with the keyboard shows the deterministic outcome', async () => {
        if (!liveAnalyze) return SKIP;
        await page.fill('#wa-attackers', '8');
        await page.fill('#wa-defenders', '5');
        await page.fill('#wa-luck', '0');
        await page.fill('#wa-graph-from', '');
        await page.fill('#wa-graph-to', '');
        const state = await submit('warapp', async () => { await page.focus('#wa-attackers'); await page.keyboard.press('Enter'); });
        equal(state, 'done', 'panel state');
        equal(await text('#analyze-capture'), '100 %', 'capture probability');
        equal(await text('#analyze-outcome'), 'Captured', 'outcome');
        const outcome = await page.$$eval('#warapp .box dl.kv', (dls) => dls.map((d) => d.textContent).join(' '));
        assert(/Attackers left\s*4/.test(outcome), `attackers left is not 4 in "${outcome}"`);
        // 7 attackers kill round(4.2) = 4 < 5: the attack fails; the defenders kill 4 < 7.
        await page.fill('#wa-attackers', '7');
        await submit('warapp', () => page.click('#warapp button[type=submit]'));
        equal(await text('#analyze-outcome'), 'Not captured', 'outcome with 7 attackers');
        equal(await text('#analyze-capture'), '0 %', 'capture probability with 7 attackers');
    });

    await check('150 % luck is refused beside the field in percent, nothing sent', async () => {
        const before = requests.length;
        await page.fill('#wa-luck', '150'); // luck is from 0 to 100 % (W1)
        const state = await submit('warapp', () => page.click('#warapp button[type=submit]'));
        equal(state, 'invalid', 'panel state');
        equal(requests.length, before, 'requests made');
        assert(await page.isVisible('#warapp .panel-error'), 'no problem box at the top');
        equal(await page.getAttribute('#wa-luck', 'aria-invalid'), 'true', 'aria-invalid on the luck field');
        const err = await page.$eval('#wa-luck', (n) => {
            const e = n.closest('.field').querySelector('.field-error');
            return e ? { text: e.textContent, described: (n.getAttribute('aria-describedby') || '').split(' ').includes(e.id) } : null;
        });
        assert(err && /percentage from 0 to 100/.test(err.text) && /150 %/.test(err.text), `the message is not in percent: ${err && err.text}`);
        assert(!/\b0 to 1\b/.test(err.text), 'the message speaks of fractions');
        assert(err.described, 'the message is not tied to the field by aria-describedby');
    }, () => page.fill('#wa-luck', '0'));

    await check('an API error on a percent field is shown beside it in percent', async () => {
        if (!liveAnalyze) return SKIP;
        // 12.34567 % is sent as 0.1234567: more than the 6 decimal places the service reads (W3).
        await page.fill('#wa-luck', '12.34567');
        const state = await submit('warapp', () => page.click('#warapp button[type=submit]'));
        equal(state, 'error', 'panel state');
        equal(await page.getAttribute('#wa-luck', 'aria-invalid'), 'true', 'aria-invalid on the luck field');
        const msg = await page.$eval('#wa-luck', (n) => n.closest('.field').querySelector('.field-error').textContent);
        assert(/percentage from 0 to 100 with at most 4 decimal places/.test(msg), `the message: ${msg}`);
    }, () => page.fill('#wa-luck', '0'));

    // ---------- Special units (W17-W20) and fog (W23) on the attack panel ----------
    const waField = (pointer) => `#analyze-form [data-pointer="${pointer}"]`;
    const unitBox = (pointer) => `#analyze-form fieldset.unit[data-pointer="${pointer}"]`;
    const analyzeSent = () => page.waitForRequest((r) => r.url().endsWith('/analyze-attack'));
    const analyze = () => submit('warapp', () => page.click('#warapp button[type=submit]'));
    const survival = (side, i) => page.$eval(`#analyze-${side}-units tr[data-index="${i}"] td[data-key=survival_probability]`,
        (td) => ({ p: Number(td.dataset.value), text: td.textContent.trim() }));
    const removeUnits = async () => {
        for (const side of ['attacking', 'defending']) {
            while (await page.$(`#analyze-form .unit-list[data-side=${side}] fieldset.unit`)) {
                await page.click(`#analyze-form .unit-list[data-side=${side}] fieldset.unit button.remove`);
            }
        }
    };
    const s0 = { offense: percent(60), defense: percent(70), luck: 0, rounding: 'straight_round' };
    const COMMANDER = { attack: 7, defense: 7, order: 10000, kill: 7 };
    const close = (a, b, eps, what) => assert(Math.abs(a - b) <= eps, `${what}: expected ${b}, got ${a}`);

    // 10 armies into 3 and a Commander at 0 % luck (the service's default settings): the
    // attackers deal 10 * 0.6 = 6, the 3 armies die first (W19) and the 3 left are less than the
    // Commander's damage to kill 7: it lives, nothing is captured (W20). The defense has power
    // 3 + 7 = 10 and deals 7: 3 attackers are left.
    await check('a Commander added to the defense with one click survives 10 armies into 3 (capture 0 %, survival 100 %)', async () => {
        if (!liveAnalyze) return SKIP;
        await page.fill('#wa-attackers', '10');
        await page.fill('#wa-defenders', '3');
        await page.fill('#wa-luck', '0');
        await page.click('.add-unit[data-side=defending][data-type=commander]');
        equal(await text(`${unitBox('/defending_units/0')} > legend`), 'Defending unit 1: Commander', 'legend of the unit');
        await page.fill(waField('/defending_units/0/id'), 'bob');
        const sent = analyzeSent();
        equal(await analyze(), 'done', 'panel state');
        const body = JSON.parse((await sent).postData());
        equal(JSON.stringify(body.defending_units), '[{"type":"commander","id":"bob"}]', 'defending units sent');
        equal(body.attacking_units, undefined, 'attacking units sent');
        const model = battleWithUnits(10, 3, [], [COMMANDER], s0);
        close(model.capture, 0, 1e-12, 'the model\'s capture');
        close(model.defUnits[0].survival, 1, 1e-12, 'the model\'s survival');
        equal(await text('#analyze-capture'), '0 %', 'capture probability');
        equal(await text('#analyze-outcome'), 'Not captured', 'outcome');
        const outcome = await page.$$eval('#warapp .box dl.kv', (dls) => dls.map((d) => d.textContent).join(' '));
        assert(/Attackers left\s*3/.test(outcome), `attackers left is not 3 in "${outcome}"`);
        equal(JSON.stringify(await survival('defending', 0)), '{"p":1,"text":"100 %"}', 'the Commander\'s survival');
        equal(await text('#analyze-defending-units tr[data-index="0"] th'), 'Commander (bob)', 'the unit named');
        assert((await text('#analyze-battle')).includes('against 1 unit and 3 defenders'), 'the headline does not name the unit');
        // /simulate takes armies only: the page says so rather than simulate another battle.
        const before = requests.length;
        await page.click('#wa-to-sim');
        assert(/takes armies only/.test(await text('#analyze-form .status')), 'no word on why the battle is not simulated');
        equal(requests.length, before, 'requests made by "Simulate this battle"');
    }, removeUnits);

    // A Commander attacking alone (0 armies, W20) into 3: power 7 deals round(4.2) = 4 >= 3, the
    // defense deals round(2.1) = 2 < 7: captured, and the graph starts at 0 armies.
    await check('a Commander attacks alone with 0 armies and captures 3, surviving', async () => {
        if (!liveAnalyze) return SKIP;
        await page.fill('#wa-attackers', '0');
        await page.click('.add-unit[data-side=attacking][data-type=commander]');
        const sent = analyzeSent();
        equal(await analyze(), 'done', 'panel state');
        const body = JSON.parse((await sent).postData());
        equal(body.attackers, 0, 'attackers sent');
        equal(JSON.stringify(body.attacking_units), '[{"type":"commander"}]', 'attacking units sent');
        equal(body.graph.from, 0, 'graph from');
        const model = battleWithUnits(0, 3, [COMMANDER], [], s0);
        close(model.capture, 1, 1e-12, 'the model\'s capture');
        equal(await text('#analyze-capture'), '100 %', 'capture probability');
        equal(JSON.stringify(await survival('attacking', 0)), '{"p":1,"text":"100 %"}', 'the Commander\'s survival');
        equal(await page.getAttribute('#analyze-graph svg .marker', 'data-attackers'), '0', 'graph marker');
    }, removeUnits);

    // A custom health unit behind 3 armies at 16 % luck (W19): 10 attackers deal
    // round(0.16 X + 5.04), X ~ Bin(10, 0.6): 5 for X <= 2, 7 for X = 10, else 6. The 3 armies
    // take 3 and the Tank (combat order 5) the rest of its health 6: it keeps 4, 3 or 2, and 2
    // with P(X = 10) = 0.6^10 = 0.0060466176.
    await check('a custom health unit shows its health left, worked by hand and by the model', async () => {
        if (!liveAnalyze) return SKIP;
        await page.fill('#wa-attackers', '10');
        await page.fill('#wa-luck', '16');
        await page.click('.add-unit[data-side=defending][data-type=custom]');
        await page.fill(waField('/defending_units/0/name'), 'Tank');
        await page.fill(waField('/defending_units/0/attack_power'), '2');
        await page.fill(waField('/defending_units/0/defense_power'), '3');
        await page.fill(waField('/defending_units/0/combat_order'), '5');
        await page.selectOption(`${unitBox('/defending_units/0')} select`, 'health');
        await page.fill(waField('/defending_units/0/health'), '6');
        const sent = analyzeSent();
        equal(await analyze(), 'done', 'panel state');
        const body = JSON.parse((await sent).postData());
        equal(JSON.stringify(body.defending_units), '[{"type":"custom","name":"Tank","combat_order":5,"attack_power":2,"defense_power":3,"health":6}]', 'unit sent');
        const model = battleWithUnits(10, 3, [], [{ attack: 2, defense: 3, order: 5, health: 6 }], { ...s0, luck: percent(16) });
        equal(JSON.stringify(await survival('defending', 0)), '{"p":1,"text":"100 %"}', 'the Tank\'s survival');
        const bars = await page.$$eval('#analyze-defending-units .health-left[data-index="0"] svg rect.bar',
            (rs) => rs.map((r) => [Number(r.dataset.health), Number(r.dataset.value)]));
        equal(bars.map(([hl]) => hl).join(','), '2,3,4', 'health left shown');
        for (const [hl, p] of bars) close(p, model.defUnits[0].health.get(hl), 1e-9, `P(health ${hl})`);
        close(bars[0][1], 0.6 ** 10, 1e-12, 'P(health 2) by hand');
        assert(/Mean\s*3\.006248/.test(await text('#analyze-defending-units .health-left')), 'no mean health shown');
        // The panel with a unit, to look at beside the page's screenshot.
        await (await page.$('#warapp')).screenshot({ path: shotPath.replace(/(\.png)?$/, '-units.png') });
    }, removeUnits);

    await check('a bad unit field (/attacking_units/1/damage_to_kill) shows the API error on its input', async () => {
        if (!liveAnalyze) return SKIP;
        await page.click('.add-unit[data-side=attacking][data-type=commander]');
        await page.click('.add-unit[data-side=attacking][data-type=custom]');
        const input = waField('/attacking_units/1/damage_to_kill');
        await page.fill(input, '0');
        const problem = await (await fetch(new URL('analyze-attack', base), { method: 'POST', headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ attackers: 10, defenders: 3, attacking_units: [{ type: 'commander' },
                { type: 'custom', name: 'Shield', attack_power: 0, defense_power: 4, combat_order: -5, damage_to_kill: 0 }] }) })).json();
        equal(problem.errors.map((e) => e.pointer).join(' '), '/attacking_units/1/damage_to_kill', 'the API names');
        equal(await analyze(), 'error', 'panel state');
        assert(await page.isVisible('#warapp .panel-error'), 'no problem box at the top');
        equal(await page.getAttribute(input, 'aria-invalid'), 'true', 'aria-invalid on the damage to kill of unit 2');
        const err = await page.$eval(input, (n) => {
            const e = n.closest('.field').querySelector('.field-error');
            return e ? { text: e.textContent, for: e.dataset.for, described: (n.getAttribute('aria-describedby') || '').split(' ').includes(e.id),
                focused: document.activeElement === n } : null;
        });
        assert(err, 'no message beside the damage to kill');
        equal(err.for, '/attacking_units/1/damage_to_kill', 'the message names');
        equal(err.text, problem.errors[0].detail, 'the message');
        assert(err.described, 'the message is not tied to the field by aria-describedby');
        assert(err.focused, 'the field in error has no focus');
        equal(await page.$$eval('#analyze-form [aria-invalid=true]', (ns) => ns.length), 1, 'fields marked');
    }, removeUnits);

    // 10 attackers at 0 % luck deal 6: against a uniform 5..10 they kill 5 or 6 (and lose
    // round(3.5) = 4 or round(4.2) = 4 < 10): captured in 2 of the 6 counts, 33.33 %.
    const FOG = [5, 6, 7, 8, 9, 10].map((d) => [d, 1 / 6]);
    await check('defenders as a range 5..10 are sent as a uniform distribution and capture 2/6 = 33.33 %', async () => {
        if (!liveAnalyze) return SKIP;
        await page.fill('#wa-luck', '0');
        assert(!await page.isVisible('#wa-def-min'), 'the range is shown before it is asked for');
        await page.check('#wa-def-range');
        assert(await page.isVisible('#wa-def-min') && await page.isVisible('#wa-def-max'), 'the range is not shown');
        assert(await page.isDisabled('#wa-defenders'), 'the count of defenders is still enabled');
        await page.fill('#wa-def-min', '5');
        await page.fill('#wa-def-max', '10');
        const sent = analyzeSent();
        equal(await analyze(), 'done', 'panel state');
        const body = JSON.parse((await sent).postData());
        equal(body.defenders.map((d) => d.armies).join(','), '5,6,7,8,9,10', 'counts sent');
        assert(body.defenders.every((d) => d.probability === body.defenders[0].probability), 'the counts are not equally likely');
        close(body.defenders.reduce((s, d) => s + d.probability, 0), 1, 1e-9, 'sum of the probabilities sent');
        close(mixture(10, FOG, s0).capture, 1 / 3, 1e-12, 'the model\'s capture');
        equal(await text('#analyze-capture'), '33.33 %', 'capture shown');
        close(Number(await page.getAttribute('#analyze-capture', 'data-value')), 1 / 3, 1e-12, 'capture probability');
        equal(await text('#analyze-fog-summary'), '5–10 defenders, uniform', 'the distribution echoed');
        assert((await text('#analyze-battle')).includes('against 5–10 defenders, uniform'), 'the headline does not say it is a range');
        assert((await text('#analyze-mixture')).includes('mixture over 6 defender counts'), 'no mixture chip');
        const echoed = await page.$$eval('#analyze-fog svg rect.bar', (rs) => rs.map((r) => [Number(r.dataset.armies), Number(r.dataset.value)]));
        equal(echoed.map(([d]) => d).join(','), '5,6,7,8,9,10', 'counts shown');
        for (const [d, p] of echoed) close(p, 1 / 6, 1e-12, `P(${d} defenders)`);
    });

    // The graph and the armies needed are the mixture's, checked against the model's mixture of
    // single battles at every point. By hand: 11 attackers deal round(6.6) = 7, killing 5, 6 or
    // 7 defenders: 50 %; 90 % and 99 % need all six, 10 kills: 16 attackers (round(9.6)).
    await check('the graph and the armies needed are drawn from the mixture', async () => {
        if (!liveAnalyze) return SKIP;
        assert((await text('#analyze-graph h3')).includes('mixture over 5–10 defenders'), 'the graph does not say it is a mixture');
        assert(await page.$('#analyze-graph svg path.capture-line'), 'no capture line');
        const rows = await page.$$eval('#analyze-graph tbody tr', (rs) => rs.map((r) => ({ ...r.dataset })));
        equal(rows.map((r) => r.attackers).join(','), Array.from({ length: 30 }, (_, i) => i + 1).join(','), 'graph points (1..2 * 10 + 10)');
        for (const r of rows) {
            const m = mixture(Number(r.attackers), FOG, s0);
            close(Number(r.capture), m.capture, 1e-9, `capture at ${r.attackers}`);
            close(Number(r.attackersLost), m.attLost, 1e-9, `attackers lost at ${r.attackers}`);
            close(Number(r.defendersLost), m.defLost, 1e-9, `defenders lost at ${r.attackers}`);
        }
        const fewest = (target) => { for (let a = 1; a <= 200; a++) if (mixture(a, FOG, s0).capture >= target - 1e-12) return a; return null; };
        const needed = await page.$$eval('#analyze-needed tbody tr', (rs) => rs.map((r) => r.cells[1].textContent.trim()).join(' '));
        equal([0.5, 0.9, 0.99].map(fewest).join(' '), '11 16 16', 'the model\'s fewest');
        equal(needed, '11 16 16', 'armies needed shown');
    });

    // The top of the range past the army cap (W10): the service names /defenders/2/armies, the
    // third count, and the page puts it on "Most defenders", not on the disabled count field.
    await check('an API error on a count of the range (/defenders/2/armies) lands on "Most defenders"', async () => {
        if (!liveAnalyze) return SKIP;
        await page.fill('#wa-def-min', '999999999');
        await page.fill('#wa-def-max', '1000000001');
        equal(await analyze(), 'error', 'panel state');
        equal(await page.getAttribute('#wa-def-max', 'aria-invalid'), 'true', 'aria-invalid on the most defenders');
        equal(await page.getAttribute('#wa-defenders', 'aria-invalid'), null, 'aria-invalid on the disabled count');
        const err = await page.$eval('#wa-def-max', (n) => {
            const e = n.closest('.field').querySelector('.field-error');
            return e ? { text: e.textContent, for: e.dataset.for } : null;
        });
        assert(err, 'no message beside the most defenders');
        equal(err.for, '/defenders/2/armies', 'the message names');
        assert(/^2\/armies: .*1000000001/.test(err.text), `the message "${err.text}"`);
    });

    await check('a range of more than 1,000 counts is refused on the page, nothing sent', async () => {
        if (!liveAnalyze) return SKIP;
        const before = requests.length;
        await page.fill('#wa-def-min', '0');
        await page.fill('#wa-def-max', '1000');
        equal(await analyze(), 'invalid', 'panel state');
        equal(requests.length, before, 'requests made');
        equal(await page.getAttribute('#wa-def-max', 'aria-invalid'), 'true', 'aria-invalid on the most defenders');
        const message = await page.$eval('#wa-def-max', (n) => n.closest('.field').querySelector('.field-error').textContent);
        assert(/at most 1,000 counts/.test(message) && /1,001/.test(message), `unclear message "${message}"`);
    }, async () => {
        await page.fill('#wa-def-min', '');
        await page.fill('#wa-def-max', '');
        await page.uncheck('#wa-def-range');
    });

    // Put the worked example back for the screenshot.
    if (liveAnalyze) {
        await page.fill('#wa-attackers', '16');
        await page.fill('#wa-defenders', '10');
        await page.fill('#wa-luck', '16');
        await submit('warapp', () => page.click('#warapp button[type=submit]'));
    }

    await check('simulate draws the survivor histograms and a fixed seed replays the run', async () => {
        if (!liveSimulate) {
            const state = await submit('simulate', () => page.click('#simulate button[type=submit]'));
            equal(state, 'error', 'panel state');
            assert(/not implemented/i.test(await text('#simulate .panel-error')), 'the 501 detail is not shown');
            return SKIP;
        }
        await page.fill('#sim-trials', '2000');
        await page.fill('#sim-seed', '');
        equal(await submit('simulate', () => page.click('#simulate button[type=submit]')), 'done', 'panel state');
        const seed = await text('#sim-seed-used');
        assert(/^\d+$/.test(seed), `no seed shown (${seed})`);
        const bars = () => page.$$eval('#sim-histograms svg rect.bar', (rs) => rs.map((r) => r.dataset.armies + ':' + r.dataset.value).join(' '));
        const first = await bars();
        const attackerCounts = await page.$$eval('#sim-histograms .box:first-child svg rect.bar', (rs) => rs.map((r) => Number(r.dataset.value)));
        equal(attackerCounts.reduce((a, b) => a + b, 0), 2000, 'trials in the attackers histogram');
        // The capture rate of 2000 trials lies within 5 standard deviations of the exact chance.
        const rate = parseFloat(await text('#sim-rate')) / 100;
        const c = Math.min(1, example.capture), sd = Math.sqrt(c * (1 - c) / 2000);
        assert(Math.abs(rate - c) <= 5 * sd + 1e-9, `capture rate ${rate} far from ${c}`);
        await submit('simulate', () => page.click('#sim-replay'));
        equal(await page.inputValue('#sim-seed'), seed, 'seed put back in the form');
        equal(await text('#sim-seed-used'), seed, 'seed of the replay');
        equal(await bars(), first, 'replayed histograms');
    });

    // The worked example of duper-battle-and-power.txt with key_buff_per_key 1 (D2): attack
    // 8 + 2*4 + 7 + 3*3 = 32; defense 5*3 + 0 + 4*3 + 4 (level 3) + 2*1 (keys) = 33. The attack
    // fails; the defenders take 32 - 4 - 2 = 26: 5 tile tanks (15) die first, then 3 of the 4
    // supporting tanks (9), leaving 2 < 3: one supporting tank survives.
    await check('the Duper worked example shows powers, damage and survivors', async () => {
        if (!liveDuper) {
            const state = await submit('duper', () => page.click('#duper button[type=submit]'));
            equal(state, 'error', 'panel state');
            assert(/not implemented/i.test(await text('#duper .panel-error')), 'the 501 detail is not shown');
            return SKIP;
        }
        equal(await submit('duper', () => page.click('#duper button[type=submit]')), 'done', 'panel state');
        equal(await text('#duper-attack-power'), '32', 'attack power');
        equal(await text('#duper-defense-power'), '33', 'defense power');
        equal(await text('#duper-verdict'), 'Attack fails', 'verdict');
        equal(await text('#duper-damage-defender'), '26', 'damage to the defender');
        assert(await page.$('#duper-power dl'), 'no itemised power');
        const support = await page.$$eval('#duper-defense-units tbody tr', (rs) => rs.map((r) => Array.from(r.cells, (c) => c.textContent.trim())));
        const row = support.find((r) => r[0] === 'support tile 1: tanks');
        assert(row, 'no row for the supporting tanks');
        equal(row[1] + '/' + row[2], '3/1', 'supporting tanks lost/left');
    });

    // ---------- The War.app turn panel: /analyze-turn and /simulate-turn ----------
    // How the page writes a probability (fmtPct): two decimals, 0 and 1 exactly.
    const pct = (p) => p === 0 ? '0 %' : p === 1 ? '100 %' : p * 100 < 0.01 ? '< 0.01 %' : p * 100 > 99.99 ? '> 99.99 %' : (p * 100).toFixed(2) + ' %';
    const turnBars = () => page.$$eval('#turn-territories .territory', (ts) => Object.fromEntries(ts.map((t) => [t.dataset.territory,
        Object.fromEntries(Array.from(t.querySelectorAll('.ownerbar'), (b) => [b.dataset.owner,
            { p: b.dataset.probability, count: b.dataset.count, text: b.querySelector('.pct').textContent.trim() }]))])));
    const orderCell = (i, key) => page.getAttribute(`#turn-order-results tr[data-order="${i}"] td[data-key=${key}]`, 'data-value');
    const meanOf = async (id) => Number(await page.getAttribute(`#turn-territories .territory[data-territory="${id}"] .armies-mean`, 'data-value'));
    const field = (pointer) => `#turn-form [data-pointer="${pointer}"]`;
    // The message of a field in a table cell: in a row of its own right below the field's row,
    // tied to the field by aria-describedby.
    const rowError = (sel) => page.$eval(sel, (n) => {
        const e = (n.getAttribute('aria-describedby') || '').split(' ').map((id) => document.getElementById(id)).find((x) => x && x.matches('.field-error'));
        if (!e) return null;
        let row = e.closest('tr');
        while (row && row.matches('tr.row-error')) row = row.previousElementSibling;
        return { text: e.textContent, for: e.dataset.for, below: row === n.closest('tr'),
                 wide: e.closest('td').colSpan === n.closest('tr').cells.length };
    });

    await check('the prefilled turn example: owner bars equal the API answer and the values worked by hand', async () => {
        if (!liveTurn) {
            equal(await submit('turn', () => page.click('#turn button[type=submit]')), 'error', 'panel state');
            return SKIP;
        }
        // The page's example at 16 % luck (it starts at the service's 0 %).
        equal(await page.inputValue('#turn-luck'), '0', 'the luck the page starts with');
        await page.fill('#turn-luck', '16');
        const sent = page.waitForRequest((r) => r.url().endsWith('/analyze-turn'));
        equal(await submit('turn', () => page.click('#turn button[type=submit]')), 'done', 'panel state');
        // The page sent docs/api/turns.md's first example: the same board, orders, goals and options (it
        // spells out the defaults: type attack_transfer, the W9 settings).
        const body = JSON.parse((await sent).postData());
        equal(JSON.stringify(body.territories), JSON.stringify(TURN_EXAMPLE.territories), 'territories sent');
        equal(JSON.stringify(body.orders), JSON.stringify(TURN_EXAMPLE.orders.map((o) => ({ type: o.type || 'attack_transfer', ...o }))), 'orders sent');
        for (const k of ['goals', 'teams', 'move_order', 'player_order']) equal(JSON.stringify(body[k]), JSON.stringify(TURN_EXAMPLE[k]), k + ' sent');
        equal(body.settings.luck_modifier, 0.16, 'luck sent');
        equal(body.settings.multi_attack, false, 'multi_attack sent');
        // The test's own request of the literal example at 16 % luck.
        const at16 = { ...TURN_EXAMPLE, settings: { ...TURN_EXAMPLE.settings, luck_modifier: 0.16 } };
        const api = await (await fetch(new URL('analyze-turn', base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(at16) })).json();
        const bars = await turnBars();
        equal(Object.keys(bars).join(','), 'A,B,N', 'territories shown');
        for (const [id, t] of Object.entries(api.territories)) {
            equal(Object.keys(bars[id]).join(','), Object.keys(t.owner).join(','), `owners of ${id}`);
            for (const [o, p] of Object.entries(t.owner)) {
                equal(Number(bars[id][o].p), p, `${id} ${o} probability`);
                equal(bars[id][o].text, pct(p), `${id} ${o} label`);
            }
            equal(await meanOf(id), t.armies.mean, `${id} armies mean`);
        }
        // By hand: 10 attackers on B's 5 at 16 % luck kill round(0.84 * 6 + 0.16 * X) >= round(5.04)
        // = 5 whatever X ~ Bin(10, 0.6) is: B is alice's surely (W1, W2). B's 5 kill
        // round(2.94 + 0.16 * Y), Y ~ Bin(5, 0.7): 4 when Y >= 4, else 3, so B keeps 6 with
        // P(Y >= 4) = 5 * 0.7^4 * 0.3 + 0.7^5 = 0.52822, else 7. Bob's order finds B no longer his:
        // skipped (W14).
        equal(bars.B.alice.text, '100 %', 'B to alice');
        const p4 = 5 * 0.7 ** 4 * 0.3 + 0.7 ** 5;
        assert(Math.abs(await meanOf('B') - (6 * p4 + 7 * (1 - p4))) < 1e-9, `B mean is not ${6 * p4 + 7 * (1 - p4)}`);
        equal(await orderCell(3, 'skipped_probability'), '1', "bob's order skipped");
        equal(await orderCell(1, 'capture_probability'), '1', 'A to B captures');
        equal(await text('#turn-goals-probability'), '100 %', 'goals probability');
        equal(await page.getAttribute('#turn-deterministic', 'data-value'), 'false', 'deterministic');
    });

    // 0 % luck, straight round (W9 rates): A has 12 + 3 = 15 (W12). 10 kill 6 >= 5 on B, B's 5
    // kill round(3.5) = 4: B is alice's with 6; A keeps 5, of which 4 may move (guard), 100 %
    // of 4 = 4 go to N: they kill round(2.4) = 2 >= 2, N's 2 kill round(1.4) = 1: N alice's with 3,
    // A keeps 1. One outcome.
    await check('the example at 0 % luck is deterministic, worked by hand', async () => {
        if (!liveTurn) return SKIP;
        await page.fill('#turn-luck', '0');
        equal(await submit('turn', () => page.click('#turn button[type=submit]')), 'done', 'panel state');
        equal(await page.getAttribute('#turn-deterministic', 'data-value'), 'true', 'deterministic');
        assert(/one outcome/.test(await text('#turn-results .chips')), 'no "one outcome" chip');
        const bars = await turnBars();
        for (const id of ['A', 'B', 'N']) equal(JSON.stringify(Object.keys(bars[id])), '["alice"]', `owners of ${id}`);
        equal(bars.B.alice.text, '100 %', 'B to alice');
        equal(`${await meanOf('A')} ${await meanOf('B')} ${await meanOf('N')}`, '1 6 3', 'armies of A, B, N');
        equal(await orderCell(2, 'capture_probability'), '1', 'A to N captures');
        equal(await orderCell(3, 'skipped_probability'), '1', "bob's order skipped");
    });

    await check('an invalid order (from equal to to) shows the API error beside the field its pointer names', async () => {
        if (!liveTurn) return SKIP;
        await page.fill(field('/orders/1/to'), 'A');
        const bad = structuredClone(TURN_EXAMPLE);
        bad.orders[1].to = 'A';
        const problem = await (await fetch(new URL('analyze-turn', base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(bad) })).json();
        equal(problem.errors.map((e) => e.pointer).join(' '), '/orders/1/to', 'the API names');
        equal(await submit('turn', () => page.click('#turn button[type=submit]')), 'error', 'panel state');
        assert(await page.isVisible('#turn .panel-error'), 'no problem box at the top');
        equal(await page.getAttribute(field('/orders/1/to'), 'aria-invalid'), 'true', 'aria-invalid on order 2 to');
        const err = await rowError(field('/orders/1/to'));
        assert(err, 'no message in the row below the field');
        equal(err.for, '/orders/1/to', 'the message names');
        equal(err.text, 'To: ' + problem.errors[0].detail, 'the message');
        assert(err.below, 'the message is not in the row below the field');
        assert(err.wide, 'the message is not as wide as the table');
        await page.fill(field('/orders/1/to'), 'B');
    });

    await check('a territory id used twice is caught on the page, nothing sent', async () => {
        if (!liveTurn) return SKIP;
        const before = requests.length;
        await page.fill('#turn-board tbody tr:nth-child(3) [data-key=id]', 'A');
        equal(await submit('turn', () => page.click('#turn button[type=submit]')), 'invalid', 'panel state');
        equal(requests.length, before, 'requests made');
        equal(await page.$$eval('#turn-board [aria-invalid=true]', (ns) => ns.length), 1, 'fields marked');
        await page.fill('#turn-board tbody tr:nth-child(3) [data-key=id]', 'N');
    });

    // Built with the Add and Remove buttons: A alice 5, B bob 3, one order A -> B with 4, 0 % luck,
    // weighted random. The 4 kill 2.4: 3 with chance 0.4 (W2), which takes B's 3; else 2. B's 3
    // kill 2.1: 2 with chance 0.9, else 3. B is alice's with 0.4 (armies 4 - 2 = 2 or 4 - 3 = 1)
    // and bob's with 0.6 (3 - 2 = 1): mean 0.4 * (0.9 * 2 + 0.1 * 1) + 0.6 * 1 = 1.36.
    await check('a board edited with Add/Remove gives the two-owner split worked by hand (40 % / 60 %)', async () => {
        if (!liveTurn) return SKIP;
        await page.click('#turn-board tbody tr:nth-child(3) button.remove');
        await page.fill('#turn-board tbody tr:nth-child(1) [data-key=neighbors]', ''); // no map
        while (await page.$('#turn-orders tbody tr button.remove')) await page.click('#turn-orders tbody tr button.remove');
        await page.click('#turn-add-order');
        await page.fill(field('/orders/0/player'), 'alice');
        await page.fill(field('/orders/0/from'), 'A');
        await page.fill(field('/orders/0/to'), 'B');
        await page.fill(field('/orders/0/armies'), '4');
        await page.fill(field('/territories/A/armies'), '5');
        await page.fill(field('/territories/B/armies'), '3');
        await page.selectOption('#turn-rounding', 'weighted_random');
        const sent = page.waitForRequest((r) => r.url().endsWith('/analyze-turn'));
        equal(await submit('turn', () => page.click('#turn button[type=submit]')), 'done', 'panel state');
        const body = JSON.parse((await sent).postData());
        equal(JSON.stringify(body.territories), '{"A":{"owner":"alice","armies":5},"B":{"owner":"bob","armies":3}}', 'board sent');
        equal(JSON.stringify(body.orders), '[{"type":"attack_transfer","player":"alice","from":"A","to":"B","armies":4}]', 'orders sent');
        const bars = await turnBars();
        equal(`${bars.B.alice.text} ${bars.B.bob.text}`, '40.00 % 60.00 %', 'owners of B');
        assert(Math.abs(await meanOf('B') - 1.36) < 1e-9, 'B mean is not 1.36');
        equal(await text('#turn-goals-probability'), '40.00 %', 'goals probability');
        equal(await orderCell(0, 'capture_probability'), '0.4', 'capture probability');
        equal(await page.getAttribute('#turn-deterministic', 'data-value'), 'false', 'deterministic');
    });

    await check('Simulate this turn counts owners near the exact 40 % and a fixed seed replays the run', async () => {
        if (!liveTurn) return SKIP;
        await page.fill('#turn-trials', '2000');
        await page.fill('#turn-seed', '');
        equal(await submit('turn', () => page.click('#turn-simulate')), 'done', 'panel state');
        equal(await page.getAttribute('#turn-results', 'data-answer'), 'simulation', 'answer drawn');
        const seed = await text('#turn-seed-used');
        assert(/^\d+$/.test(seed), `no seed shown (${seed})`);
        const first = await turnBars();
        const alice = Number(first.B.alice.count), bob = Number(first.B.bob.count);
        equal(alice + bob, 2000, 'turns counted for B');
        const sd = Math.sqrt(0.4 * 0.6 / 2000);
        assert(Math.abs(alice / 2000 - 0.4) < 5 * sd, `alice took B in ${alice} of 2000 turns, far from 40 %`);
        equal(first.B.alice.text, pct(alice / 2000), 'label of the count');
        await submit('turn', () => page.click('#turn-replay'));
        equal(await page.inputValue('#turn-seed'), seed, 'seed put back in the form');
        equal(await text('#turn-seed-used'), seed, 'seed of the replay');
        equal(JSON.stringify(await turnBars()), JSON.stringify(first), 'replayed counts');
        // Back to the exact answer for the screenshot.
        equal(await submit('turn', () => page.click('#turn button[type=submit]')), 'done', 'panel state');
    });

    // W31: "Plan for this player" on the edited board (A 5 of alice borders bob's B 3; bob has
    // no order, alice's goal is B): the page sends the board as a map, without alice's orders,
    // and the goal owned by alice as a capture; it shows the value /plan-turn answers for that
    // body, puts the plan into the orders table (deploys first) and draws the plan's analysis.
    await check('Plan for this player sends the map and the goal, shows the plan\'s value and fills its orders in', async () => {
        if (!liveTurn) return SKIP;
        await page.fill('#turn-board tbody tr:nth-child(1) [data-key=neighbors]', 'B');
        await page.fill('#turn-plan-player', 'alice');
        await page.fill('#turn-plan-income', '3');
        const sent = page.waitForRequest((r) => r.url().endsWith('/plan-turn'));
        equal(await submit('turn', () => page.click('#turn-plan')), 'done', 'panel state');
        const body = JSON.parse((await sent).postData());
        equal(JSON.stringify(body.territories), '{"A":{"owner":"alice","armies":5,"neighbors":["B"]},"B":{"owner":"bob","armies":3,"neighbors":[]}}', 'map sent');
        equal(JSON.stringify(body.orders), '[]', 'the other players\' orders sent');
        equal(JSON.stringify(body.goal), '{"capture":["B"],"hold":[]}', 'goal sent');
        equal(`${body.player} ${body.income} ${body.objective}`, 'alice 3 all', 'player, income, objective');
        equal(await page.getAttribute('#turn-results', 'data-answer'), 'plan', 'answer drawn');
        const api = await (await fetch(new URL('plan-turn', base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();
        equal(Number(await page.getAttribute('#turn-plan-value', 'data-value')), api.value, 'value shown');
        equal(await page.getAttribute('#turn-plan-optimal', 'data-value'), String(api.optimal), 'optimal shown');
        const rows = await page.$$eval('#turn-orders tbody tr:not(.row-error)', (rs) => rs.map((r) => ({
            type: r.querySelector('[data-key=type]').value, player: r.querySelector('[data-key=player]').value,
            from: r.querySelector('[data-key=from]').value, to: r.querySelector('[data-key=to]').value,
            amount: r.querySelector('[data-key=amount]').value })));
        equal(rows.length, api.orders.length, 'orders filled in');
        api.orders.forEach((o, i) => {
            equal(`${rows[i].type} ${rows[i].player} ${o.type === 'deploy' ? '' : rows[i].from} ${rows[i].to} ${rows[i].amount}`,
                `${o.type} ${o.player} ${o.from || ''} ${o.to} ${o.armies}`, `order ${i + 1}`);
        });
        assert(await page.isVisible('#turn-plan-analysis .ownerbars'), 'no analysis drawn');
        // Back to the board without a map and the exact answer for the screenshot.
        await page.fill('#turn-board tbody tr:nth-child(1) [data-key=neighbors]', '');
        equal(await submit('turn', () => page.click('#turn button[type=submit]')), 'done', 'panel state');
    });

    // docs/rules.md's W24 example, built in the panel (the page sends no map: W25's border is
    // then met): 0 % luck, alice's 9 attack bob's B of 6: they kill round(5.4) = 5 < 6 and fail;
    // B keeps 1, and the 9 − round(4.2) = 5 left go home (A = 1 + 5 = 6). Add her Bomb card on B,
    // listed after the attack: it runs first (W24), B keeps floor(6 / 2) = 3, and the 9 kill
    // 5 >= 3 and lose round(2.1) = 2: B is alice's with 7, A keeps 1.
    await check('a Bomb card added to the orders runs before the attack and turns B, worked by hand', async () => {
        if (!liveTurn || !liveCards) return SKIP;
        while (await page.$('#turn-orders tbody tr button.remove')) await page.click('#turn-orders tbody tr button.remove');
        while (await page.$('#turn-goals tbody tr button.remove')) await page.click('#turn-goals tbody tr button.remove');
        await page.fill(field('/territories/A/armies'), '10');
        await page.fill(field('/territories/B/armies'), '6');
        await page.fill('#turn-luck', '0');
        await page.selectOption('#turn-rounding', 'straight_round');
        await page.click('#turn-add-order');
        await page.fill(field('/orders/0/player'), 'alice');
        await page.fill(field('/orders/0/from'), 'A');
        await page.fill(field('/orders/0/to'), 'B');
        await page.fill(field('/orders/0/armies'), '9');
        equal(await submit('turn', () => page.click('#turn button[type=submit]')), 'done', 'panel state');
        let bars = await turnBars();
        equal(`${bars.B.bob.text} ${await meanOf('A')} ${await meanOf('B')}`, '100 % 6 1', 'without the card: B bob\'s, A 6, B 1');
        await page.click('#turn-add-order');
        await page.selectOption('#turn-orders tbody tr:nth-child(2) [data-key=type]', 'bomb');
        equal(await page.isDisabled('#turn-orders tbody tr:nth-child(2) [data-key=from]'), true, 'a bomb has no from');
        await page.fill(field('/orders/1/player'), 'alice');
        await page.fill(field('/orders/1/target'), 'B');
        const sent = page.waitForRequest((r) => r.url().endsWith('/analyze-turn'));
        equal(await submit('turn', () => page.click('#turn button[type=submit]')), 'done', 'panel state');
        const body = JSON.parse((await sent).postData());
        equal(JSON.stringify(body.orders[1]), '{"type":"bomb","player":"alice","target":"B"}', 'the card sent');
        bars = await turnBars();
        equal(`${bars.B.alice.text} ${await meanOf('A')} ${await meanOf('B')}`, '100 % 1 7', 'with the card: B alice\'s, A 1, B 7');
        equal(await orderCell(1, 'skipped_probability'), '0', 'the bomb ran');
        equal(await orderCell(0, 'capture_probability'), '1', 'the attack captured');
        assert(/alice bombs B/.test(await text('#turn-order-results tr[data-order="1"]')), 'the card is described');
    });

    // ---------- The Duper board panel: /duper/board/battle and /duper/board/options ----------
    const boardField = (pointer) => `#board-form [data-pointer="${pointer}"]`;
    const post = async (path, body) => (await fetch(new URL(path, base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();
    const tileRow = (id) => `#board-tiles tbody tr[data-pointer="/board/tiles/${id}"]`;
    const rowMarks = (sel) => page.$eval(sel, (r) => ({
        cls: ['role-from', 'role-to', 'role-sup-att', 'role-sup-def'].filter((c) => r.classList.contains(c)).join(' '),
        badges: Array.from(r.querySelectorAll('.badge'), (b) => b.textContent.trim()).join(', '),
    }));
    const afterCell = (id, key) => page.getAttribute(`#board-after tr[data-tile="${id}"] td[data-key=${key}]`, 'data-value');

    // The worked example on a board (docs/rules.md D2 with key_buff_per_key 1, D14, D15).
    // Support (D14): a2 is red, adjacent to a1 and holds tanks: it supports the attack; b2 is
    // blue, adjacent to b1 with tanks: it supports the defense; n1 is an NPC, not b1's owner.
    // Attack 8 soldiers + 2 planes * 4 + the fort 7 + a2's 3 tanks * 3 = 32 (the loaded tanks add
    // nothing); defense b1's 5 tanks * 3 + b2's 4 tanks * 3 + level 3's 4 + 2 keys * 1 = 33.
    // 32 < 33: the attack fails and every attacking troop dies: a1 loses its soldiers, planes,
    // loaded tanks and fort, a2 its 3 tanks (both empty). The defense takes 32 - 4 - 2 = 26: b1's
    // 5 tanks (15) first, then 3 of b2's 4 (9), 2 left over < 3: b2 keeps 1 tank, b1 its center.
    await check('the board example resolves to 32 vs 33 with a2 and b2 marked as support and the board after worked by hand', async () => {
        const sent = page.waitForRequest((r) => r.url().endsWith('/duper/board/battle'));
        equal(await submit('duper-board', () => page.click('#duper-board button[type=submit]')), 'done', 'panel state');
        const body = JSON.parse((await sent).postData());
        for (const k of ['board', 'attacks', 'rules', 'seed']) equal(JSON.stringify(body[k]), JSON.stringify(BOARD_EXAMPLE[k]), k + ' sent');
        equal(Object.keys(body).sort().join(','), 'attacks,board,rules,seed', 'members sent');
        equal(await text('#board-b0-attack-power'), '32', 'attack power');
        equal(await text('#board-b0-defense-power'), '33', 'defense power');
        equal(await text('#board-b0-verdict'), 'Attack fails', 'verdict');
        equal(await text('#board-b0-damage-defender'), '26', 'damage to the defense');
        equal(await text('#board-b0-support-attack'), 'a2', 'attack support');
        equal(await text('#board-b0-support-defense'), 'b2', 'defense support');
        const marks = {};
        for (const id of ['a1', 'a2', 'b1', 'b2', 'n1']) marks[id] = await rowMarks(tileRow(id));
        equal(JSON.stringify(marks.a2), '{"cls":"role-sup-att","badges":"supports attack"}', 'a2 in the tiles table');
        equal(JSON.stringify(marks.b2), '{"cls":"role-sup-def","badges":"supports defense"}', 'b2 in the tiles table');
        equal(marks.a1.cls + ' / ' + marks.b1.cls + ' / ' + marks.n1.cls, 'role-from / role-to / ', 'a1, b1, n1 in the tiles table');
        // Two styles, not one: the rows differ in what is drawn, not only in their class.
        const look = (id) => page.$eval(tileRow(id), (r) => getComputedStyle(r).backgroundImage + '|' + getComputedStyle(r).backgroundColor);
        assert(await look('a2') !== await look('b2'), 'the attack and defense support look the same');
        assert(await look('a2') !== await look('n1'), 'the support looks like an uninvolved tile');
        equal(JSON.stringify(await rowMarks('#board-after tr[data-tile="b2"]')), JSON.stringify(marks.b2), 'b2 in the board after');
        const units = {};
        for (const id of ['a1', 'a2', 'b1', 'b2', 'n1']) units[id] = await afterCell(id, 'units');
        equal(JSON.stringify(units), '{"a1":"","a2":"","b1":"center:1","b2":"tank:1","n1":"larva:3"}', 'units after');
        equal(await afterCell('a1', 'loaded'), '', 'a1 loaded after');
        equal(await afterCell('b1', 'owner'), 'blue', 'b1 owner after');
        equal(await text('#board-after tr[data-tile="a1"] td[data-key=units]'), 'empty (was soldier:8 plane:2 fort:1)', 'a1 units shown');
        equal(await text('#board-after-pairs'), 'a1–b1, a1–a2, b1–b2, a1–n1', 'pairs after');
    });

    // Red's options by hand (D17). a2's tanks border only red's a1 and it has no planes: every
    // option is from a1. Normal: to b1 and n1 (adjacent). Long distance (range 0 = anywhere): to
    // b1, b2 and n1. A normal attack is the 32 above; a long-distance one carries only a1's
    // planes, 2 * 4 (loaded troops have no power, D5), with a2's support 9: 17 (D11, D14).
    // n1: 3 larvae * 1, no tile, key or support buff for an NPC (D9): 3. b1: 33 as above. b2:
    // its 4 tanks * 3 + b1's 5 tanks * 3 (b1 borders b2) + level 1's 1 + keys 2 = 30. By margin:
    // +29, +14, -1, -13, -16; nobody eliminated, no capital so no card steal (D8, D10).
    const OPTIONS_BY_HAND = [['n1', 'normal', 'npc', 32, 3], ['n1', 'long_distance', 'npc', 17, 3], ['b1', 'normal', 'blue', 32, 33],
        ['b2', 'long_distance', 'blue', 17, 30], ['b1', 'long_distance', 'blue', 17, 33]]
        .map(([to, kind, defender, a, d]) => ({ from: 'a1', to, kind, defender, attackPower: String(a), defensePower: String(d),
            margin: String(a - d), captured: String(a > d), eliminated: '', cardSteal: 'false' }));
    await check('List options shows red\'s options as the API lists them, and picking one fills the attack', async () => {
        const sent = page.waitForRequest((r) => r.url().endsWith('/duper/board/options'));
        equal(await submit('duper-board', () => page.click('#board-list-options')), 'done', 'panel state');
        const body = JSON.parse((await sent).postData());
        const request = { board: BOARD_EXAMPLE.board, player: 'red', rules: BOARD_EXAMPLE.rules };
        equal(JSON.stringify(body), JSON.stringify(request), 'request sent');
        const api = await post('duper/board/options', request);
        const shown = await page.$$eval('#board-options tbody tr', (rs) => rs.map((r) => ({ ...r.dataset })));
        const want = api.options.map((o) => ({ from: o.from, to: o.to, kind: o.kind, defender: o.defender,
            attackPower: String(o.attack_power), defensePower: String(o.defense_power), margin: String(o.margin),
            captured: String(o.captured), eliminated: o.eliminated.join(','), cardSteal: String(o.card_steal_possible) }));
        equal(JSON.stringify(shown), JSON.stringify(want), 'options shown');
        equal(await text('#board-options-count'), String(api.count), 'count');
        equal(JSON.stringify(shown), JSON.stringify(OPTIONS_BY_HAND), 'options worked by hand');
        // Picking the long-distance attack on b2, then the best one.
        const ld = shown.findIndex((o) => o.to === 'b2');
        await page.click(`#board-options tbody tr:nth-child(${ld + 1}) button.option-use`);
        equal(`${await page.inputValue('#board-from')} ${await page.inputValue('#board-to')} ${await page.inputValue('#board-kind')}`, 'a1 b2 long_distance', 'attack filled in');
        await page.click('#board-options tbody tr:nth-child(1) button.option-use');
        equal(`${await page.inputValue('#board-from')} ${await page.inputValue('#board-to')} ${await page.inputValue('#board-kind')}`, 'a1 n1 normal', 'attack filled in');
        // 32 against 3: captured, and n1 is red's after (D15).
        equal(await submit('duper-board', () => page.click('#duper-board button[type=submit]')), 'done', 'panel state after Resolve');
        equal(await text('#board-b0-verdict'), 'Attack succeeds', 'verdict');
        equal(await text('#board-b0-defense-power'), '3', 'defense power of n1');
        equal(await afterCell('n1', 'owner'), 'red', 'n1 owner after');
        assert(await page.$('#board-options tbody tr'), 'the options list went away on Resolve');
    });

    await check('an invalid board (two ground troop classes on a1) shows the API error at the field its pointer names', async () => {
        const units = boardField('/board/tiles/a1/units');
        await page.fill(units, 'soldier:8 tank:2 plane:2 fort:1');
        const bad = structuredClone(BOARD_EXAMPLE);
        delete bad.player;
        bad.board.tiles.a1.units = { soldier: 8, tank: 2, plane: 2, fort: 1 };
        const problem = await post('duper/board/battle', bad);
        equal(problem.errors.map((e) => e.pointer).join(' '), '/board/tiles/a1/units/tank', 'the API names');
        equal(await submit('duper-board', () => page.click('#duper-board button[type=submit]')), 'error', 'panel state');
        assert(await page.isVisible('#duper-board .panel-error'), 'no problem box at the top');
        equal(await page.getAttribute(units, 'aria-invalid'), 'true', 'aria-invalid on the units of a1');
        const err = await rowError(units);
        assert(err, 'no message below the units of a1');
        equal(err.for, '/board/tiles/a1/units/tank', 'the message names');
        equal(err.text, 'Units: tank: ' + problem.errors[0].detail, 'the message');
        assert(err.below && err.wide, 'the message is not in a row of its own below the tile');
    }, () => page.fill(boardField('/board/tiles/a1/units'), 'soldier:8 plane:2 fort:1'));

    await check('an attack on an unknown tile shows the error beside "to" (/attacks/0/to)', async () => {
        await page.fill('#board-to', 'zz');
        const bad = structuredClone(BOARD_EXAMPLE);
        delete bad.player;
        bad.attacks[0] = { from: 'a1', to: 'zz', kind: 'normal' };
        const problem = await post('duper/board/battle', bad);
        equal(problem.errors.map((e) => e.pointer).join(' '), '/attacks/0/to', 'the API names');
        equal(await submit('duper-board', () => page.click('#duper-board button[type=submit]')), 'error', 'panel state');
        equal(await page.getAttribute('#board-to', 'aria-invalid'), 'true', 'aria-invalid on to');
        equal(await page.$eval('#board-to', (n) => n.closest('.field').querySelector('.field-error').textContent), problem.errors[0].detail, 'the message');
    }, () => page.fill('#board-to', 'b1'));

    await check('units text the page cannot read is caught on the page, nothing sent', async () => {
        const before = requests.length;
        await page.fill(boardField('/board/tiles/b2/units'), 'tank:four');
        equal(await submit('duper-board', () => page.click('#duper-board button[type=submit]')), 'invalid', 'panel state');
        equal(requests.length, before, 'requests made');
        equal(await page.$$eval('#board-tiles [aria-invalid=true]', (ns) => ns.map((n) => n.dataset.pointer).join(' ')), '/board/tiles/b2/units', 'fields marked');
    }, () => page.fill(boardField('/board/tiles/b2/units'), 'tank:4'));

    await check('the board example again, for the screenshot', async () => {
        await page.fill('#board-from', 'a1');
        await page.fill('#board-to', 'b1');
        await page.selectOption('#board-kind', 'normal');
        equal(await submit('duper-board', () => page.click('#duper-board button[type=submit]')), 'done', 'panel state');
        equal(await text('#board-b0-attack-power') + ' vs ' + await text('#board-b0-defense-power'), '32 vs 33', 'powers');
    });

    // ---------- What a newcomer meets: defaults, the plan, the map, the answer, hover, phones ----------
    await check('the attack panel starts at the service\'s defaults: the same answer as a curl of the same armies', async () => {
        if (!liveAnalyze) return SKIP;
        await page.goto(base, { waitUntil: 'load' });
        await page.waitForSelector('#warapp[data-state]:not([data-state=busy])', { timeout: 30000 });
        for (const [id, v] of [['#wa-offense', '60'], ['#wa-defense', '70'], ['#wa-luck', '0'], ['#turn-luck', '0']]) equal(await page.inputValue(id), v, id);
        const api = await (await fetch(new URL('analyze-attack', base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"attackers": 16, "defenders": 10}' })).json();
        equal(await text('#analyze-capture'), (api.capture_probability * 100).toFixed(2).replace(/\.00$/, '') + ' %', 'capture as curl gets it');
        equal(await page.evaluate(() => scrollY), 0, 'the first answer does not scroll the page');
    });

    await check('the answer JSON is formatted as the service wrote it, with copy buttons that copy it', async () => {
        if (!liveAnalyze) return SKIP;
        const answer = await page.textContent('#warapp pre.answer-json');
        assert(answer.includes('\n  "capture_probability": '), 'not indented');
        // Every token as the service wrote it (1.0 stays 1.0), and the same JSON.
        assert(answer.includes('"capture_probability": 1.0,'), 'a number was rewritten');
        const api = await (await fetch(new URL('analyze-attack', base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"attackers": 16, "defenders": 10}' })).json();
        const shown = JSON.parse(answer);
        for (const k of ['capture_probability', 'outcome', 'attackers_left', 'defenders_left']) equal(JSON.stringify(shown[k]), JSON.stringify(api[k]), k);
        await page.click('#warapp details.exchange summary');
        await page.click('#warapp details.exchange button.copy:has-text("Copy the answer")');
        equal(await page.evaluate(() => navigator.clipboard.readText()), answer, 'the clipboard');
        await page.waitForSelector('#warapp details.exchange .copied:has-text("Copied")');
        await page.click('#warapp details.exchange button.copy:has-text("Copy the curl command")');
        assert((await page.evaluate(() => navigator.clipboard.readText())).startsWith("curl -s -X POST '"), 'the curl command is not copied');
        await page.click('#warapp details.exchange summary');
    });

    await check('graphs show the value under the pointer', async () => {
        if (!liveAnalyze) return SKIP;
        const hit = '#analyze-graph svg rect.hit >> nth=11'; // 12 attackers
        await page.hover(hit);
        const tip = await page.getAttribute(hit, 'data-tip');
        assert(/^12 attackers: capture \d/.test(tip), `the tip: ${tip}`);
        equal(await page.getAttribute('#analyze-graph svg .readout', 'visibility'), 'visible', 'the readout');
        equal(await text('#analyze-graph svg .readout text'), tip, 'the readout text');
        await page.mouse.move(0, 0);
        equal(await page.getAttribute('#analyze-graph svg .readout', 'visibility'), 'hidden', 'the readout after the pointer left');
    });

    // The page's own example at 0 % luck: alice (income 3) takes B, bob's order from B is kept.
    await check('"Plan for this player" works on the page\'s own example, and the plan is drawn as a map', async () => {
        if (!liveTurn) return SKIP;
        await page.goto(base, { waitUntil: 'load' });
        await page.waitForSelector('#warapp[data-state]:not([data-state=busy])', { timeout: 30000 });
        const sent = page.waitForRequest((r) => r.url().endsWith('/plan-turn'));
        equal(await submit('turn', () => page.click('#turn-plan')), 'done', 'panel state');
        const body = JSON.parse((await sent).postData());
        equal(JSON.stringify(body.territories.A.neighbors), '["B","N"]', "A's borders sent");
        equal(JSON.stringify(body.orders.map((o) => o.player)), '["bob"]', 'the other players\' orders only');
        equal(JSON.stringify(body.goal), '{"capture":["B"],"hold":[]}', 'the goal');
        equal(await page.getAttribute('#turn-plan-value', 'data-value'), '1', 'the plan takes B surely');
        equal(await page.getAttribute('#turn-plan-optimal', 'data-value'), 'true', 'proven');
        // The plan's turn as a map: 3 territories, the borders A-B and A-N, the plan's attack on
        // B with its chance of capture, bob's order skipped.
        const map = '#turn-plan-analysis svg.turnmap';
        equal(await page.$$eval(`${map} .node`, (ns) => ns.map((n) => n.dataset.territory + ':' + n.dataset.owner).join(' ')), 'A:alice B:alice N:neutral', 'nodes and owners');
        equal(await page.$$eval(`${map} .border`, (ns) => ns.map((n) => n.dataset.border).join(' ')), 'A-B A-N', 'borders');
        const toB = await page.$eval(`${map} .move-arrow[data-from=A][data-to=B]`, (n) => ({ capture: n.dataset.capture, label: n.querySelector('.move-label').textContent }));
        equal(toB.capture, '1', 'capture chance of A -> B');
        equal(toB.label, 'capture 100 %', 'its label');
        equal(await page.$eval(`${map} .move-arrow[data-from=B][data-to=A] .move-label`, (n) => n.textContent), 'skipped', "bob's order");
        const colours = await page.$$eval(`${map} .node circle`, (ns) => ns.map((n) => getComputedStyle(n).fill));
        assert(colours[0] === colours[1] && colours[0] !== colours[2], `A and B share alice's colour, N another: ${colours}`);
    });

    await check('the plan\'s errors land beside the form\'s row they name (the plan sends some rows only)', async () => {
        if (!liveTurn) return SKIP;
        // Bob's order (row 4, the plan's only order) from B to N: B and N do not border (W24).
        await page.goto(base, { waitUntil: 'load' });
        await page.waitForSelector('#warapp[data-state]:not([data-state=busy])', { timeout: 30000 });
        await page.fill(field('/orders/3/to'), 'N');
        equal(await submit('turn', () => page.click('#turn-plan')), 'error', 'panel state');
        equal(await page.getAttribute(field('/orders/3/to'), 'aria-invalid'), 'true', 'the field of row 4');
        const err = await rowError(field('/orders/3/to'));
        assert(err && err.below && err.for === '/orders/3/to', `the message: ${JSON.stringify(err)}`);
        equal(await page.$$eval('#turn-form [aria-invalid=true]', (ns) => ns.length), 1, 'fields marked');
    }, () => page.fill(field('/orders/3/to'), 'A'));

    await check('planning without a map is caught on the page, beside the neighbors, nothing sent', async () => {
        if (!liveTurn) return SKIP;
        const before = requests.length;
        await page.fill('#turn-board tbody tr:nth-child(1) [data-key=neighbors]', '');
        equal(await submit('turn', () => page.click('#turn-plan')), 'invalid', 'panel state');
        equal(requests.length, before, 'requests made');
        const err = await rowError('#turn-board tbody tr:nth-child(1) [data-key=neighbors]');
        assert(err && /Planning needs the map/.test(err.text), `the message: ${err && err.text}`);
    }, () => page.fill('#turn-board tbody tr:nth-child(1) [data-key=neighbors]', 'B, N'));

    await check('the turn\'s answer is drawn as a map: every territory, its border and each move with its chance of capture', async () => {
        if (!liveTurn) return SKIP;
        await page.fill('#turn-luck', '16');
        equal(await submit('turn', () => page.click('#turn button[type=submit]')), 'done', 'panel state');
        const map = '#turn .results > .box svg.turnmap';
        equal(await page.$$eval(`${map} .node`, (ns) => ns.length), 3, 'nodes');
        equal(await page.$$eval(`${map} .move-arrow`, (ns) => ns.map((n) => `${n.dataset.from}>${n.dataset.to}:${n.dataset.capture}`).join(' ')), 'A>B:1 A>N:1 B>A:0', 'moves');
        const bMean = await page.$eval(`${map} .node[data-territory=B] title`, (n) => n.textContent);
        assert(/^B: alice 100 %; 6\.47\d* armies on average$/.test(bMean), `B's hover: ${bMean}`);
    }, () => page.fill('#turn-luck', '0'));

    await check('a button\'s answer is scrolled into view', async () => {
        if (!liveTurn) return SKIP;
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.$eval('#turn button[type=submit]', (b) => b.scrollIntoView({ block: 'end' }));
        equal(await submit('turn', () => page.click('#turn button[type=submit]')), 'done', 'panel state');
        const top = await page.$eval('#turn .results', (n) => n.getBoundingClientRect().top);
        const vh = await page.evaluate(() => innerHeight);
        assert(top >= 0 && top < vh - 100, `the answer starts at ${top} of ${vh} px`);
    });

    // The Warzone panel: the game's JSON pasted (prefilled with a 5-territory game, two bonuses).
    const wzExample = async () => page.$eval('#wz-json', (n) => n.value);
    await check('the Warzone panel analyses its own example: the map has 5 nodes, owner chances, bonuses and incomes as the API answers', async () => {
        await page.goto(base, { waitUntil: 'load' });
        await page.waitForSelector('#warapp[data-state]:not([data-state=busy])', { timeout: 30000 });
        const doc = JSON.parse(await wzExample());
        equal(doc.map.territories.length, 5, 'territories in the example');
        const api = await (await fetch(new URL('warzone/analyze-turn', base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(doc) })).json();
        const sent = page.waitForRequest((r) => r.url().endsWith('/warzone/analyze-turn'));
        equal(await submit('warzone', () => page.click('#warzone button[type=submit]')), 'done', 'panel state');
        equal((await sent).postData().length > 100, true, 'the paste was sent');
        const map = '#warzone .results svg.turnmap';
        // 5 nodes, placed walking from border to border (the ring 1-2-3-5-4), so no border crosses.
        equal(await page.$$eval(`${map} .node`, (ns) => ns.map((n) => n.dataset.territory).join(' ')), '1 2 3 5 4', 'nodes, border to border');
        // One border per pair, one-sided ones included (W40): 1-2 1-4 2-3 3-5 4-5.
        equal(await page.$$eval(`${map} .border`, (ns) => ns.map((n) => n.dataset.border).sort().join(' ')), '1-2 1-4 2-3 3-5 4-5', 'borders');
        equal(await page.$$eval(`${map} .move-arrow`, (ns) => ns.map((n) => `${n.dataset.from}>${n.dataset.to}:${n.dataset.capture}`).join(' ')),
            ['2>3', '5>3', '4>1'].map((m, i) => `${m}:${api.orders[[1, 3, 4][i]].capture_probability}`).join(' '), 'moves with their chance of capture');
        // Ford (3): the owner chance as the API gives it, written beside its bar.
        const ford = await page.$$eval('#warzone #wz-territories [data-territory="3"] .ownerbar', (ns) => ns.map((n) => `${n.dataset.owner}=${n.dataset.probability}`).join(' '));
        equal(ford, Object.entries(api.territories['3'].owner).map(([o, p]) => `${o}=${p}`).join(' '), "Ford's owners");
        assert(/%/.test(await text('#warzone #wz-territories [data-territory="3"] .ownerbar .pct')), 'no percentage written');
        const bonus = await page.$$eval('#wz-bonuses [data-bonus="1"] .ownerbar', (ns) => ns.map((n) => `${n.dataset.owner}=${n.dataset.probability}`).join(' '));
        assert(bonus.startsWith(`100=${api.bonuses['1'].owner['100']}`), `bonus 1's owners: ${bonus}`);
        equal(await page.$$eval('#wz-income [data-player] td.num', (ns) => ns.map((n) => n.dataset.value).join(' ')),
            Object.values(api.income).join(' '), 'incomes');
    });

    // A chance as the page writes it, worked out here: two decimals and " %", 0 and 1 whole.
    const pctText = (p) => (p === 0 ? '0 %' : p === 1 ? '100 %' : (p * 100).toFixed(2) + ' %');
    // Each attack's arrow carries its own chance of capture, as the answer gives it.
    const arrowLabels = async (map) => page.$$eval(`${map} .move-arrow`, (ns) => ns.map((n) => `${n.dataset.from}>${n.dataset.to}: ${n.querySelector('.move-label').textContent}`).join(' | '));
    await check('the Warzone map names each territory (the map\'s name beside its id) and writes each attack\'s chance of capture on its own arrow', async () => {
        const doc = JSON.parse(await wzExample());
        const map = '#warzone .results svg.turnmap';
        // The example's names, as pasted: 1 Harbor, 2 Mill, 3 Ford, 4 Keep, 5 Marsh.
        equal(await page.$$eval(`${map} .node`, (ns) => ns.map((n) => n.querySelector('.id').textContent + ' ' + n.querySelector('.name').textContent).join(', ')),
            '1 Harbor, 2 Mill, 3 Ford, 5 Marsh, 4 Keep', 'the nodes\' ids and names');
        // The orders table names them too: the paste's deploy of 5 on Mill and 8 from Mill to Ford.
        equal(await page.$$eval('#wz-order-results tbody tr td:nth-child(2)', (ns) => ns.slice(0, 2).map((n) => n.textContent).join(' | ')),
            '100 deploys 5 on 2 Mill | 100: 2 Mill → 3 Ford, 8 armies', 'the orders with names');
        const api = await (await fetch(new URL('warzone/analyze-turn', base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(doc) })).json();
        // The attacks are orders 1 (2 -> 3), 3 (5 -> 3) and 4 (4 -> 1) of the paste. Marsh's 9
        // on Ford's 2 and Mill's 8 on it, in a random order: whoever moves first takes it, so
        // each captures with chance 1/2 (W13: two players, either first); Keep's 5 on Harbor's 9 cannot take it (0).
        equal(await arrowLabels(map), '2>3: capture 50.00 % | 5>3: capture 50.00 % | 4>1: capture 0 %', 'the arrows\' labels');
        equal(await arrowLabels(map), [[2, 3, 1], [5, 3, 3], [4, 1, 4]].map(([f, t, i]) => `${f}>${t}: capture ${pctText(api.orders[i].capture_probability)}`).join(' | '), 'the labels as the API answers');
    });

    await check('the Warzone plan button returns SendOrdersBotGame\'s body, copied by its button, and draws the plan\'s turn', async () => {
        const sent = page.waitForRequest((r) => r.url().endsWith('/warzone/plan-turn'));
        equal(await submit('warzone', () => page.click('#wz-plan')), 'done', 'panel state');
        const body = JSON.parse((await sent).postData());
        equal(body.playerID, '100', 'playerID');
        equal(JSON.stringify(body.goal), '{"bonuses":[1]}', 'the goal');
        equal(JSON.stringify(body.orders.map((o) => o.playerID)), '["200","200","200"]', 'the other player\'s orders only');
        const types = await page.$$eval('#wz-plan-orders tbody tr', (ns) => ns.map((n) => n.dataset.type));
        assert(types.length >= 1 && types.every((t) => t === 'GameOrderDeploy' || t === 'GameOrderAttackTransfer'), `order types: ${types}`);
        // The example's game {id: "1234567", numberOfTurns: "3"}: the body of turn 4, ids as integers.
        const sendBody = JSON.parse(await text('#wz-plan-json'));
        equal(JSON.stringify([sendBody.gameID, sendBody.playerID, sendBody.turnNumber]), '[1234567,100,4]', 'the body\'s ids');
        equal(sendBody.orders.length, types.length, 'orders in the body');
        assert(sendBody.orders.every((o) => o.playerID === 100), 'every order is 100\'s, an integer');
        assert(Number(await page.getAttribute('#wz-plan-value', 'data-value')) > 0, 'a value');
        await page.click('#warzone .box button.copy');
        equal(JSON.stringify(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))), JSON.stringify(sendBody), 'the copied body');
        await page.waitForSelector('#wz-plan-analysis[data-state]', { timeout: 30000 });
        equal(await page.getAttribute('#wz-plan-analysis', 'data-state'), 'done', 'the plan\'s turn analysed');
        equal(await page.$$eval('#wz-plan-analysis svg.turnmap .node', (ns) => ns.length), 5, 'its map\'s nodes');
        await (await page.$('#warzone')).screenshot({ path: shotPath.replace(/\.png$/, '-warzone.png') });
        console.log(`# screenshot: ${shotPath.replace(/\.png$/, '-warzone.png')}`);
    });

    await check('the Warzone plan\'s orders name their territories, and its turn\'s map writes each attack\'s chance on its arrow', async () => {
        const names = new Map(JSON.parse(await wzExample()).map.territories.map((t) => [String(t.id), t.name]));
        const turnSent = page.waitForRequest((r) => r.url().endsWith('/warzone/analyze-turn'));
        equal(await submit('warzone', () => page.click('#wz-plan')), 'done', 'panel state');
        await page.waitForSelector('#wz-plan-analysis[data-state]', { timeout: 30000 });
        const sendBody = JSON.parse(await text('#wz-plan-json'));
        const named = (id) => `${id} ${names.get(String(id))}`;
        equal(JSON.stringify(await page.$$eval('#wz-plan-orders tbody td:nth-child(3)', (ns) => ns.map((n) => n.textContent))),
            JSON.stringify(sendBody.orders.map((o) => (o.type === 'GameOrderDeploy' ? 'deploy on ' + named(o.deployOn) : named(o.from) + ' → ' + named(o.to)))), 'the plan\'s orders with names');
        assert(sendBody.orders.some((o) => o.type === 'GameOrderAttackTransfer'), 'the plan attacks');
        const map = '#wz-plan-analysis svg.turnmap';
        equal(await page.$eval(`${map} .node[data-territory="3"] .name`, (n) => n.textContent), 'Ford', 'Ford named on the plan\'s map');
        const turn = JSON.parse((await turnSent).postData());
        const api = await (await fetch(new URL('warzone/analyze-turn', base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(turn) })).json();
        const attacks = turn.orders.map((o, i) => [o, i]).filter(([o]) => o.type === 'GameOrderAttackTransfer');
        equal(await arrowLabels(map), attacks.map(([o, i]) => `${o.from}>${o.to}: capture ${pctText(api.orders[i].capture_probability)}`).join(' | '), 'the plan\'s turn\'s arrows');
    });

    await check('the Warzone plan for "Most income" values the map\'s bonuses as /warzone/plan-turn does', async () => {
        await page.selectOption('#wz-objective', 'income');
        const sent = page.waitForRequest((r) => r.url().endsWith('/warzone/plan-turn'));
        equal(await submit('warzone', () => page.click('#wz-plan')), 'done', 'panel state');
        const body = JSON.parse((await sent).postData());
        equal(body.objective, 'income', 'the objective sent');
        const api = await (await fetch(new URL('warzone/plan-turn', base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();
        assert(typeof api.value === 'number' && api.value > 0, `the service's value: ${JSON.stringify(api).slice(0, 200)}`);
        equal(Number(await page.getAttribute('#wz-plan-value', 'data-value')), api.value, 'the value shown');
        assert(/income, expected/.test(await text('#warzone .results')), 'the value is named an income');
    }, async () => {
        await page.selectOption('#wz-objective', { index: 0 });
    });

    await check('a broken paste: the service\'s error names the member beside the textarea (/standing/1/armies, territory 2; /gameInfo/latestStanding/1/armies when merged)', async () => {
        const good = await wzExample();
        await page.fill('#wz-json', good.replace('{"terrID": 2, "ownedBy": "100", "armies": "4"}', '{"terrID": 2, "ownedBy": "100", "armies": "Fogged"}'));
        equal(await submit('warzone', () => page.click('#warzone button[type=submit]')), 'error', 'panel state');
        equal(await page.getAttribute('#wz-json', 'aria-invalid'), 'true', 'the textarea is marked');
        const msg = await page.$eval('#wz-json', (n) => document.getElementById(n.getAttribute('aria-describedby').split(' ').pop()).textContent);
        assert(/^\/standing\/1\/armies: the 2nd entry of standing \(territory 2\), its armies is Fogged/.test(msg), `the message: ${msg}`);
        equal(await page.evaluate(() => document.activeElement.id), 'wz-json', 'focus');
        // The same paste as the bot API's two answers merged: the standing in
        // gameInfo.latestStanding, the players in game.players, named there.
        const merged = JSON.parse(good);
        merged.gameInfo = { latestStanding: merged.standing.map((e) => (String(e.terrID) === '2' ? { ...e, armies: 'Fogged' } : e)) };
        merged.game = { players: merged.players };
        delete merged.standing;
        delete merged.players;
        await page.fill('#wz-json', JSON.stringify(merged, null, 1));
        equal(await submit('warzone', () => page.click('#warzone button[type=submit]')), 'error', 'panel state (merged)');
        const msg2 = await page.$eval('#wz-json', (n) => document.getElementById(n.getAttribute('aria-describedby').split(' ').pop()).textContent);
        assert(/^\/gameInfo\/latestStanding\/1\/armies: the 2nd entry of gameInfo\.latestStanding \(territory 2\), its armies is Fogged/.test(msg2), `the message: ${msg2}`);
        // Text that is not JSON is caught on the page, with its line, and nothing is sent.
        const before = requests.length;
        await page.fill('#wz-json', good.replace('"MoveOrder": "Random",', '"MoveOrder": "Random"'));
        equal(await submit('warzone', () => page.click('#warzone button[type=submit]')), 'invalid', 'panel state');
        equal(requests.length, before, 'requests made');
        const bad = await text('#warzone .field-error');
        assert(/not valid JSON at line 4/.test(bad), `the message: ${bad}`);
    }, async () => {
        // The example back, analysed, for the page's screenshot.
        await page.click('#wz-reset');
        await submit('warzone', () => page.click('#warzone button[type=submit]'));
    });

    await check('a Fogged territory is given in the "Fogged territories" field: sent as fogged, it answers as the same board unfogged', async () => {
        const good = await wzExample();
        const api = await (await fetch(new URL('warzone/analyze-turn', base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: good })).json();
        // Ford (3) fogged in the standing, as the game writes it: not guessed (W41), a 422.
        await page.fill('#wz-json', good.replace('{"terrID": 3, "ownedBy": "Neutral", "armies": "2"}', '{"terrID": 3, "ownedBy": "Fogged", "armies": "Fogged"}'));
        equal(await submit('warzone', () => page.click('#warzone button[type=submit]')), 'error', 'panel state without fogged');
        // What the fog hides, given in the field: Ford neutral with 2, as in the example.
        await page.fill('#wz-fogged', '{"3": {"ownedBy": "Neutral", "armies": 2}}');
        const sent = page.waitForRequest((r) => r.url().endsWith('/warzone/analyze-turn'));
        equal(await submit('warzone', () => page.click('#warzone button[type=submit]')), 'done', 'panel state with fogged');
        equal(JSON.stringify(JSON.parse((await sent).postData()).fogged), '{"3":{"ownedBy":"Neutral","armies":2}}', 'fogged in the request');
        const ford = await page.$$eval('#warzone #wz-territories [data-territory="3"] .ownerbar', (ns) => ns.map((n) => `${n.dataset.owner}=${n.dataset.probability}`).join(' '));
        equal(ford, Object.entries(api.territories['3'].owner).map(([o, pr]) => `${o}=${pr}`).join(' '), 'Ford\'s owners as unfogged');
        // Not a JSON object: caught on the page beside the field, nothing sent.
        const before = requests.length;
        await page.fill('#wz-fogged', '[3]');
        equal(await submit('warzone', () => page.click('#warzone button[type=submit]')), 'invalid', 'panel state with a list');
        equal(requests.length, before, 'requests made');
        equal(await page.getAttribute('#wz-fogged', 'aria-invalid'), 'true', 'the field is marked');
        // "Put the example back" empties it: the example has no Fogged territory.
        await page.click('#wz-reset');
        equal(await page.$eval('#wz-fogged', (n) => n.value), '', 'the field after the example is put back');
    }, async () => {
        await page.fill('#wz-fogged', '');
        await page.click('#wz-reset');
        await submit('warzone', () => page.click('#warzone button[type=submit]'));
    });

    await check('at 390 px wide (a phone) nothing scrolls sideways, and the answers stay in view', async () => {
        const phone = await openBrowser({ width: 390, height: 844 });
        try {
            const p = phone.page;
            await p.goto(base, { waitUntil: 'load' });
            await p.waitForSelector('#warapp[data-state]:not([data-state=busy])', { timeout: 30000 });
            const wide = () => p.evaluate(() => document.documentElement.scrollWidth);
            equal(await wide(), 390, 'page width on load');
            await p.click('#turn button[type=submit]');
            await p.waitForSelector('#turn[data-state]:not([data-state=busy])', { timeout: 30000 });
            const top = await p.$eval('#turn .results', (n) => n.getBoundingClientRect().top);
            assert(top >= 0 && top < 844 - 100, `the turn's answer starts at ${top} px`);
            await p.click('#turn-plan');
            await p.waitForSelector('#turn[data-state]:not([data-state=busy])', { timeout: 30000 });
            equal(await p.getAttribute('#turn', 'data-state'), 'done', 'the plan on a phone');
            // The map's labels on the screen: none under 11 px, none cut off, none over another.
            const readable = async (sel, what, labels) => {
                const m = await p.$eval(sel, mapLabels);
                equal(m.labels, labels, `${what}: labels`);
                assert(m.minFont >= 11, `${what}: a label of ${m.minFont.toFixed(2)} px on the screen`);
                equal(m.clipped.join(' | '), '', `${what}: labels cut off`);
                equal(m.overlaps.join(' | '), '', `${what}: labels over each other`);
            };
            // 3 territories (id, owner, armies) and the plan's two moves (bob's skipped one).
            await readable('#turn-plan-analysis svg.turnmap', 'the turn plan\'s map', 3 * 3 + 2);
            equal(await wide(), 390, 'page width with the answers');
            // The Warzone panel's analysis and plan on a phone: the paste and the map fit.
            await p.click('#warzone button[type=submit]');
            await p.waitForSelector('#warzone[data-state]:not([data-state=busy])', { timeout: 30000 });
            equal(await p.getAttribute('#warzone', 'data-state'), 'done', 'the Warzone analysis on a phone');
            equal(await wide(), 390, 'page width with the Warzone analysis');
            // 5 territories (id, name, owner, armies) and 3 attacks.
            await readable('#warzone .results svg.turnmap', 'the analysis\'s map', 5 * 4 + 3);
            await p.click('#wz-plan');
            await p.waitForSelector('#wz-plan-analysis[data-state]', { timeout: 30000 });
            equal(await wide(), 390, 'page width with the Warzone plan');
            await readable('#wz-plan-analysis svg.turnmap', 'the plan\'s map', 5 * 4 + 3);
            // The plan's orders, names included, fit the screen without scrolling their box.
            const [tableWidth, boxWidth] = await p.$eval('#wz-plan-orders', (t) => [t.scrollWidth, t.parentElement.clientWidth]);
            assert(tableWidth <= boxWidth, `the plan's orders are ${tableWidth} px wide in a box of ${boxWidth} px`);
            // No control of the panel reaches past the screen's edge.
            const cut = await p.$$eval('#warzone :is(input, select, textarea, button)', (ns) => ns.filter((n) => {
                const r = n.getBoundingClientRect();
                return r.width > 0 && (r.left < 0 || r.right > innerWidth);
            }).map((n) => n.id || n.textContent.trim()));
            equal(cut.join(', '), '', 'controls cut off at 390 px');
            await (await p.$('#warzone')).screenshot({ path: shotPath.replace(/\.png$/, '-warzone-390.png') });
            await p.screenshot({ path: shotPath.replace(/\.png$/, '-390.png'), fullPage: true });
            console.log(`# screenshot: ${shotPath.replace(/\.png$/, '-390.png')}`);
        } finally {
            await phone.close();
        }
    });

    await check('GET /docs renders openapi.yaml with Redoc from the service itself, linked from the playground', async () => {
        equal(await page.getAttribute('header.top nav a[href="docs"]', 'href'), 'docs', 'the playground links the reference');
        const r = await fetch(new URL('docs', base));
        equal(r.status, 200, 'status');
        assert(/^text\/html/.test(r.headers.get('content-type') || ''), 'content-type is not text/html');
        const html = await r.text();
        const external = html.match(/(?:src|href)\s*=\s*["']?(?:https?:)?\/\/[^"'\s>]*/gi) || [];
        equal(external.join(' '), '', 'references to other hosts');
        const reader = await openBrowser({ width: 1400, height: 900 });
        try {
            const p = reader.page;
            const answered = [];
            p.on('response', (res) => answered.push(res.url()));
            await p.goto(new URL('docs', base).href, { waitUntil: 'load' });
            await p.waitForSelector('body[data-state]', { timeout: 30000 });
            equal(await p.getAttribute('body', 'data-state'), 'done', 'Redoc drew the reference');
            assert(/^combatd/.test(await p.textContent('#redoc h1')), 'no title');
            // Every operation of the contract has its section.
            const spec = await (await fetch(new URL('openapi.yaml', base))).text();
            const operations = (spec.match(/^ {6}operationId: /gm) || []).length;
            const sections = await p.$$eval('#redoc [data-section-id^="operation/"]', (ns) => new Set(ns.map((n) => n.dataset.sectionId)).size);
            equal(sections, operations, 'operations drawn');
            assert(await p.isVisible('#redoc >> text=/analyze-attack'), 'no /analyze-attack');
            equal(answered.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== origin).join(' '), '', 'answers from other hosts');
            equal(reader.pageErrors.join(' | '), '', 'script errors');
            await p.screenshot({ path: shotPath.replace(/\.png$/, '-docs.png') });
        } finally {
            await reader.close();
        }
    });

    await check('the page made no request to any other host', async () => {
        const foreign = requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin);
        equal(foreign.join(' '), '', 'requests elsewhere');
        assert(requests.length >= 2, 'no request was recorded at all');
    });

    await check('no script error on the page', async () => {
        equal(pageErrors.join(' | '), '', 'script errors');
    });

    await check('a screenshot of the page is saved', async () => {
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: shotPath, fullPage: true });
        assert(existsSync(shotPath) && statSync(shotPath).size > 10000, 'no screenshot');
        console.log(`# screenshot: ${shotPath}`);
    });
} catch (err) {
    counts.failed++;
    console.log(`not ok - the test stopped: ${err && err.message || err}`);
} finally {
    await browser.close();
}
console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(counts.failed ? 1 : 0);
