// An independent brute-force model of a War.app battle (rulings W1-W5), written from the rules
// and not from the service's code, so the browser test can check the numbers the page shows.
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
            defLost += q * ka;
            attLeft.set(al, (attLeft.get(al) || 0) + q);
            defLeft.set(dl, (defLeft.get(dl) || 0) + q);
        }
    }
    return { capture, mutual, attLost, defLost, attLeft, defLeft };
}

export const percent = (x) => Math.round(x * 1e4); // 16 (%) -> 160000 millionths
