// Browser test of the playground page (GET /), against a running combatd: no fixtures.
// Usage: node test.mjs http://127.0.0.1:PORT/ path/to/screenshot.png
// Prints one line per check and closes with "N passed, N failed, N skipped". An endpoint that
// answers 501 fails the run (every endpoint exists); the checks that need it are then skipped,
// and the page is checked to show the service's 501 problem at the top of that panel.
import { existsSync, statSync } from 'node:fs';
import { openBrowser } from './browser.mjs';
import { battle, percent } from './warapp-model.mjs';

const base = process.argv[2];
const shotPath = process.argv[3];
if (!base || !shotPath) {
    console.error('usage: node test.mjs BASE_URL SCREENSHOT.png');
    process.exit(2);
}
const origin = new URL(base).origin;
const SKIP = Symbol('skip');
const counts = { passed: 0, failed: 0, skipped: 0 };

async function check(name, fn) {
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
// Every endpoint exists now: one answering 501 is a regression, not a reason to skip.
await check('every endpoint the page calls is implemented (no 501)', async () => {
    assert(liveAnalyze && liveSimulate && liveDuper,
        `501 from ${[!liveAnalyze && '/analyze-attack', !liveSimulate && '/simulate', !liveDuper && '/duper/battle'].filter(Boolean).join(', ')}`);
});

const browser = await openBrowser({ width: 1280, height: 900 });
const { page, requests, pageErrors } = browser;

// Submits a panel's form with `act` and waits until the answer has been drawn.
async function submit(section, act) {
    await act();
    await page.waitForSelector(`#${section}[data-state]:not([data-state=busy])`, { timeout: 30000 });
    return page.getAttribute(`#${section}`, 'data-state');
}
const text = async (sel) => (await page.textContent(sel) || '').trim();

try {
    await check('GET / serves one self-contained HTML page', async () => {
        const r = await fetch(base);
        equal(r.status, 200, 'status');
        assert(/^text\/html/.test(r.headers.get('content-type') || ''), 'content-type is not text/html');
        const html = await r.text();
        assert(/<script>/.test(html) && /<style>/.test(html), 'the script and style are not inline');
        const external = html.match(/(?:src|href|action)\s*=\s*["']?(?:https?:)?\/\/[^"'\s>]*/gi) || [];
        equal(external.join(' '), '', 'references to other hosts');
        assert(!/@import|url\(\s*["']?(?:https?:)?\/\//i.test(html), 'the CSS loads something from outside');
    });

    await page.goto(base, { waitUntil: 'load' });

    // The worked example, 16 attackers against 10 defenders at 16 % luck, straight round
    // (60 % offense, 70 % defense), drawn on load. The expected chance comes from the brute-force
    // model in warapp-model.mjs (W1-W5): 71.61 %.
    const example = battle(16, 10, { offense: percent(60), defense: percent(70), luck: percent(16), rounding: 'straight_round' });
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
        equal(await text('#analyze-capture'), (example.capture * 100).toFixed(2) + ' %', 'capture probability');
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

    await check('an API error is shown next to the field its pointer names', async () => {
        if (!liveAnalyze) return SKIP;
        await page.fill('#wa-luck', '150'); // sent as 1.5; luck must be within [0, 1] (W1)
        const state = await submit('warapp', () => page.click('#warapp button[type=submit]'));
        equal(state, 'error', 'panel state');
        assert(await page.isVisible('#warapp .panel-error'), 'no problem box at the top');
        equal(await page.getAttribute('#wa-luck', 'aria-invalid'), 'true', 'aria-invalid on the luck field');
        const err = await page.$eval('#wa-luck', (n) => {
            const e = n.closest('.field').querySelector('.field-error');
            return e ? { text: e.textContent, described: (n.getAttribute('aria-describedby') || '').split(' ').includes(e.id) } : null;
        });
        assert(err && err.text.length > 0, 'no message beside the luck field');
        assert(err.described, 'the message is not tied to the field by aria-describedby');
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
        const sd = Math.sqrt(example.capture * (1 - example.capture) / 2000);
        assert(Math.abs(rate - example.capture) < 5 * sd, `capture rate ${rate} far from ${example.capture}`);
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

    await check('the page made no request to any other host', async () => {
        const foreign = requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin);
        equal(foreign.join(' '), '', 'requests elsewhere');
        assert(requests.length >= 2, 'no request was recorded at all');
    });

    await check('no script error on the page', async () => {
        equal(pageErrors.join(' | '), '', 'script errors');
    });

    await check('a screenshot of the page is saved', async () => {
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
