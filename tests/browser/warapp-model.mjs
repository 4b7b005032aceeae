// An independent brute-force model of a War.app battle (rulings W1-W5; special units W17-W20
// and fog W23), written from the rules and not from the service's code, so the browser test can
// check the numbers the page shows.
// Settings are exact decimals in millionths (W3): the blend L*X + (1-L)*n*p is kept as an
// integer count of 10^-12 and rounded once.

const MICRO = 1000000n;
const UNIT = MICRO * MICRO; // 10^-12 per step of the blended value

function binomialPmf(n, p) {
    // Direct products in log space: n stays small in these tests (at most a few hundred).
    const out = new Array(n + 1).fill(0);
    if (p === 0) { out[0] = 1; return out; }
    if (p === 1) { out[n] = 1; return out; }
    let lc = 0; // log C(n, k)
    for (let k = 0; k <= n; k++) {
        if (k > 0) lc += Math.log(n - k + 1) - Math.log(k);
        out[k] = Math.exp(lc + k * Math.log(p) + (n - k) * Math.log1p(-p));
    }
    return out;
}

// The distribution of one side's kills: a Map kills -> probability (W1, W2, W4).
export function killDistribution(n, rateMicro, luckMicro, rounding, cap) {
    const pmf = binomialPmf(n, Number(rateMicro) / 1e6);
    const dist = new Map();
    const addTo = (k, q) => {
        const kk = Math.min(k, cap); // W4
        dist.set(kk, (dist.get(kk) || 0) + q);
    };
    const L = BigInt(luckMicro);
    const base = (MICRO - L) * BigInt(n) * BigInt(rateMicro); // (1-L)*n*p in 10^-12
    for (let x = 0; x <= n; x++) {
        if (pmf[x] === 0) continue;
        const v = L * BigInt(x) * MICRO + base; // L*X + (1-L)*n*p in 10^-12
        const floor = v / UNIT;
        const frac = v - floor * UNIT;
        if (rounding === 'straight_round') {
            addTo(Number(frac * 2n >= UNIT ? floor + 1n : floor), pmf[x]); // W2: .5 rounds up
        } else {
            const up = Number(frac) / 1e12;
            addTo(Number(floor), pmf[x] * (1 - up));
            if (up > 0) addTo(Number(floor) + 1, pmf[x] * up);
        }
    }
    return dist;
}

// Everything the page shows about one battle: capture and mutual-destruction chances,
// survivor distributions and expected losses.
export function battle(attackers, defenders, s) {
    const a = killDistribution(attackers, s.offense, s.luck, s.rounding, defenders);
    const d = killDistribution(defenders, s.defense, s.luck, s.rounding, attackers);
    let capture = 0, mutual = 0, attLost = 0, defLost = 0;
    const attLeft = new Map(), defLeft = new Map();
    for (const [ka, pa] of a) {
        for (const [kd, pd] of d) {
            const q = pa * pd;
            const captured = defenders === 0 || (ka >= defenders && kd < attackers); // W5
            const bothOut = defenders > 0 && ka >= defenders && kd >= attackers;
            if (captured) capture += q;
            if (bothOut) mutual += q;
            const al = attackers - kd;
            const dl = bothOut ? 1 : defenders - ka; // W5: one defender is resurrected
            attLost += q * kd;
            defLost += q * (defenders - dl); // the resurrected defender is not lost
            attLeft.set(al, (attLeft.get(al) || 0) + q);
            defLeft.set(dl, (defLeft.get(dl) || 0) + q);
        }
    }
    return { capture, mutual, attLost, defLost, attLeft, defLeft };
}

export const percent = (x) => Math.round(x * 1e4); // 16 (%) -> 160000 millionths

// Special units (W17-W20), from the rules' text. A unit is {attack, defense, order} with either
// kill (damage to kill) or health. The damage a side takes goes first to its units of negative
// combat order, then to its armies, then to the other units, lowest order first and equal
// orders in listed order (W19); damage past what the side holds is lost (W18).
function takeDamage(damage, armies, units) {
    const byOrder = (keep) => units.map((u, i) => i).filter((i) => keep(units[i].order))
        .sort((i, j) => units[i].order - units[j].order || i - j);
    const alive = units.map(() => true);
    const health = units.map((u) => (u.health === undefined ? null : u.health));
    let left = damage;
    const hit = (i) => {
        const u = units[i];
        if (u.kill !== undefined) {
            // Killed only by that much at once; otherwise it takes the rest and shields what follows.
            if (left >= u.kill) { alive[i] = false; left -= u.kill; } else left = 0;
        } else {
            const taken = Math.min(left, health[i]);
            health[i] -= taken;
            left -= taken;
            if (health[i] === 0) alive[i] = false;
        }
    };
    byOrder((o) => o < 0).forEach(hit);
    const armiesLost = Math.min(left, armies);
    left -= armiesLost;
    byOrder((o) => o >= 0).forEach(hit);
    return { armies: armies - armiesLost, alive, health };
}

// A battle with units: the capture chance (W20) and, per unit in listed order, the chance it
// survives and (for a health unit) the distribution of the health it keeps, 0 when dead.
export function battleWithUnits(attackers, defenders, attUnits, defUnits, s) {
    const power = (armies, units, key) => armies + units.reduce((sum, u) => sum + u[key], 0);
    const a = killDistribution(power(attackers, attUnits, 'attack'), s.offense, s.luck, s.rounding, Infinity);
    const d = killDistribution(power(defenders, defUnits, 'defense'), s.defense, s.luck, s.rounding, Infinity);
    const fate = (units) => units.map(() => ({ survival: 0, health: new Map() }));
    const att = fate(attUnits), def = fate(defUnits);
    let capture = 0;
    const record = (out, res, q) => out.forEach((f, i) => {
        if (res.alive[i]) f.survival += q;
        if (res.health[i] !== null) f.health.set(res.health[i], (f.health.get(res.health[i]) || 0) + q);
    });
    for (const [dealt, pa] of a) {
        for (const [taken, pd] of d) {
            const q = pa * pd;
            const ra = takeDamage(taken, attackers, attUnits), rd = takeDamage(dealt, defenders, defUnits);
            const defenseGone = rd.armies === 0 && !rd.alive.some(Boolean);
            const attackLeft = ra.armies > 0 || ra.alive.some(Boolean);
            if (defenseGone && attackLeft) capture += q;
            record(att, ra, q);
            record(def, rd, q);
        }
    }
    return { capture, attUnits: att, defUnits: def };
}

// Fog (W23): the exact mixture over a distribution of defenders, [[armies, probability], ...].
export function mixture(attackers, dist, s) {
    let capture = 0, attLost = 0, defLost = 0;
    for (const [defenders, p] of dist) {
        const b = battle(attackers, defenders, s);
        capture += p * b.capture;
        attLost += p * b.attLost;
        defLost += p * b.defLost;
    }
    return { capture, attLost, defLost };
}
