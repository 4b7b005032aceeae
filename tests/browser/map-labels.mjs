// Measures the labels of the playground's maps (svg.turnmap) as drawn on the screen: the
// smallest font size in CSS px (the SVG is scaled to its box, so a label's font size in the
// drawing is multiplied by the drawing's scale), the labels cut off by the drawing's edges and
// the pairs of labels whose boxes overlap. Runs in the page (page.$eval(selector, mapLabels)).
export function mapLabels(svg) {
    const scale = svg.getScreenCTM().a;
    const box = svg.getBoundingClientRect();
    const texts = Array.from(svg.querySelectorAll('text')).filter((t) => t.textContent.trim());
    const rects = texts.map((t) => t.getBoundingClientRect());
    const name = (t) => `${t.closest('[data-territory]') ? 'node ' + t.closest('[data-territory]').dataset.territory
        : 'arrow ' + (t.closest('[data-order]') || {}).dataset?.order}: "${t.textContent}"`;
    const fonts = texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
    const clipped = texts.filter((t, i) => rects[i].left < box.left - 0.5 || rects[i].right > box.right + 0.5 ||
        rects[i].top < box.top - 0.5 || rects[i].bottom > box.bottom + 0.5).map(name);
    const overlaps = [];
    // Glyph boxes carry some empty space above and below: 15 % of the height is not counted.
    const shrink = (r) => ({ l: r.left, r: r.right, t: r.top + r.height * 0.15, b: r.bottom - r.height * 0.15 });
    for (let i = 0; i < texts.length; i++) {
        for (let j = i + 1; j < texts.length; j++) {
            const a = shrink(rects[i]), b = shrink(rects[j]);
            if (a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b) overlaps.push(`${name(texts[i])} / ${name(texts[j])}`);
        }
    }
    return { labels: texts.length, minFont: Math.min(...fonts), clipped, overlaps, width: box.width };
}
