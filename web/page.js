// GET /page.js: the playground's script (web/index.html). A file of its own, not an inline
// script, so that the page's Content-Security-Policy allows scripts from this service only
// ('self'), never inline ones.
'use strict';
(function () {
  const SVGNS = 'http://www.w3.org/2000/svg';
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
  const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

  /* ---------- DOM helpers ---------- */

  function setAttrs(node, attrs) {
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : String(v));
    }
  }
  function add(node, children) {
    for (const c of (Array.isArray(children) ? children.flat(Infinity) : [children])) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }
  function h(tag, attrs, ...children) {
    const n = document.createElement(tag);
    setAttrs(n, attrs);
    return add(n, children);
  }
  function s(tag, attrs, ...children) {
    const n = document.createElementNS(SVGNS, tag);
    setAttrs(n, attrs);
    return add(n, children);
  }

  /* ---------- number formatting ---------- */

  function fmtNum(v, digits) {
    if (!isNum(v)) return '—';
    if (Number.isInteger(v)) return v.toLocaleString('en-US');
    return v.toLocaleString('en-US', { maximumFractionDigits: digits === undefined ? 2 : digits });
  }
  function fmtPct(p) {
    if (!isNum(p)) return '—';
    if (p === 0) return '0 %';
    if (p === 1) return '100 %';
    const x = p * 100;
    if (x > 0 && x < 0.01) return '< 0.01 %';
    if (x < 100 && x > 99.99) return '> 99.99 %';
    return x.toFixed(2) + ' %';
  }
  /* A setting held as a fraction, shown as a percentage without float noise. */
  function fracToPct(v) {
    return isNum(v) ? String(+(v * 100).toFixed(4)) : '';
  }
  /* "16" -> 0.16 by moving the decimal point in the text, so 1.1 % becomes 0.011 and not
   * 0.011000000000000001 (the service rejects more than 6 decimal places, ruling W3). */
  function pctToFrac(text) {
    const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(String(text).trim());
    if (!m || (m[2] === '' && (m[3] === undefined || m[3] === ''))) return NaN;
    const int = m[2] || '0';
    const frac = m[3] || '';
    const digits = int + frac;
    const point = int.length - 2;
    const shifted = point <= 0 ? '0.' + '0'.repeat(-point) + digits
                               : digits.slice(0, point) + '.' + digits.slice(point);
    return parseFloat(m[1] + shifted);
  }
  function humanize(key) {
    const k = String(key).replace(/_/g, ' ');
    return k.charAt(0).toUpperCase() + k.slice(1);
  }

  /* ---------- JSON pointers ---------- */

  function pointerParts(pointer) {
    return String(pointer).split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  /* objects: pointers whose members are names, not indexes (data-members="object"), so a
   * tile or territory called "1" makes {"1": ...} and not [null, ...]. */
  function setAt(obj, pointer, value, objects) {
    const raw = String(pointer).split('/').slice(1);
    const parts = pointerParts(pointer);
    let cur = obj, prefix = '';
    for (let i = 0; i < parts.length - 1; i++) {
      const key = parts[i];
      prefix += '/' + raw[i];
      if (cur[key] === undefined || cur[key] === null) cur[key] = /^\d+$/.test(parts[i + 1]) && !(objects && objects.has(prefix)) ? [] : {};
      cur = cur[key];
    }
    cur[parts[parts.length - 1]] = value;
  }

  /* Seeds are 64-bit: kept as text end to end, because a JavaScript number loses digits past 2^53. */
  class RawNumber { constructor(digits) { this.digits = digits; } }
  function stringify(body) {
    const text = JSON.stringify(body, (k, v) => (v instanceof RawNumber ? '@@raw:' + v.digits + '@@' : v));
    return text.replace(/"@@raw:(\d+)@@"/g, '$1');
  }
  function rawTopLevel(text, key) {
    const m = new RegExp('^\\s*\\{[\\s\\S]*?"' + key + '"\\s*:\\s*(\\d+)').exec(text || '');
    return m ? m[1] : null;
  }

  /* ---------- reading a form into a request body ---------- */

  /* "soldier:8 plane:2" -> {soldier: 8, plane: 2}, in the order written; null when a token is
   * not class:count with a whole count or a class comes twice. Unknown classes are sent as
   * written, so the service names them. */
  function parseCounts(text) {
    const out = {};
    for (const tok of String(text).split(/[\s,;]+/).filter(Boolean)) {
      const m = /^([A-Za-z_][\w-]*)[:=](\d{1,10})$/.exec(tok);
      if (!m || Object.prototype.hasOwnProperty.call(out, m[1])) return null;
      out[m[1]] = Number(m[2]);
    }
    return out;
  }
  function formatCounts(counts) {
    return isObj(counts) ? Object.entries(counts).filter(([, n]) => n !== 0).map(([c, n]) => c + ':' + n).join(' ') : '';
  }

  /* W32: "AB=3: A B; C=-1: C" as {"AB": {"value": 3, "territories": ["A", "B"]}, ...}; null
   * when a part is not id=whole number: territories. */
  function parseBonuses(raw) {
    const out = {};
    for (const part of raw.split(';').map((x) => x.trim()).filter(Boolean)) {
      const m = part.match(/^([^=]+)=\s*(-?\d+)\s*:\s*(.+)$/);
      if (!m) return null;
      out[m[1].trim()] = { value: Number(m[2]), territories: m[3].split(/[\s,]+/).filter(Boolean) };
    }
    return out;
  }

  function gather(form) {
    const body = {};
    const bad = [];
    const objects = new Set($$('[data-members=object]', form).map((n) => n.dataset.pointer));
    for (const input of $$('input[data-pointer], select[data-pointer]', form)) {
      const kind = input.dataset.kind || 'text';
      const pointer = input.dataset.pointer;
      // A disabled field is not part of the request (a deploy has no "from"); a key field names
      // an object member (a territory id) and a derived one feeds a value its panel builds
      // (the defenders' range): both only carry the pointer for their errors.
      if (input.disabled || kind === 'key' || kind === 'derived') continue;
      if (input.type === 'checkbox') {
        if (kind === 'flag') { if (input.checked) setAt(body, pointer, true, objects); }
        else setAt(body, pointer, input.checked, objects);
        continue;
      }
      if (input.validity && input.validity.badInput) { bad.push([input, 'Enter a number.']); continue; }
      const raw = input.value.trim();
      if (raw === '') continue;
      let value = raw;
      if (kind === 'int') {
        value = Number(raw);
        if (!Number.isFinite(value)) { bad.push([input, 'Enter a whole number.']); continue; }
      } else if (kind === 'percent') {
        value = pctToFrac(raw);
        if (!Number.isFinite(value)) { bad.push([input, 'Enter a percentage such as 16 or 12.5.']); continue; }
        if (value < 0 || value > 1) { bad.push([input, `Enter a percentage from 0 to 100 (not ${raw} %).`]); continue; }
      } else if (kind === 'percent-list') {
        value = raw.split(/[\s,;]+/).filter(Boolean).map(pctToFrac);
        if (value.some((v) => !Number.isFinite(v))) { bad.push([input, 'Enter percentages separated by commas.']); continue; }
      } else if (kind === 'seed') {
        if (!/^\d{1,20}$/.test(raw)) { bad.push([input, 'A seed is a whole number from 0 to 18446744073709551615.']); continue; }
        value = new RawNumber(raw.replace(/^0+(?=\d)/, ''));
      } else if (kind === 'list') {
        value = raw.split(/[\s,;]+/).filter(Boolean);
      } else if (kind === 'map') {
        const pairs = raw.split(/[,;]+/).map((x) => x.trim()).filter(Boolean).map((x) => x.split('=').map((y) => y.trim()));
        if (pairs.some((x) => x.length !== 2 || !x[0])) { bad.push([input, 'Enter key=value pairs separated by commas, e.g. alice=red.']); continue; }
        value = Object.fromEntries(pairs);
      } else if (kind === 'number') {
        value = Number(raw);
        if (!/^\d+(\.\d+)?$/.test(raw) || !Number.isFinite(value)) { bad.push([input, 'Enter a number such as 3 or 2.5.']); continue; }
      } else if (kind === 'pairs') {
        value = raw.split(/[,;]+/).map((x) => x.trim()).filter(Boolean).map((x) => x.split('=').map((y) => y.trim()));
        if (value.some((x) => x.length !== 2 || !x[0] || !x[1])) { bad.push([input, 'Enter player=player pairs separated by commas, e.g. alice=bob.']); continue; }
      } else if (kind === 'bonuses') {
        value = parseBonuses(raw);
        if (!value) { bad.push([input, 'Enter id=value: territories, separated by semicolons, e.g. AB=3: A B; C=-1: C.']); continue; }
      } else if (kind === 'counts') {
        value = parseCounts(raw);
        if (!value) { bad.push([input, 'Write class:count pairs separated by spaces, e.g. soldier:8 plane:2 fort:1.']); continue; }
      }
      setAt(body, pointer, value, objects);
    }
    return { body, bad };
  }

  /* ---------- errors next to their fields ---------- */

  function fieldFor(form, pointer) {
    if (typeof pointer !== 'string' || pointer === '') return null;
    let p = pointer;
    while (p) {
      // A disabled field was not sent: another field carrying the same pointer (the defenders'
      // range instead of their count) is the one the service speaks of.
      const named = $$('[data-pointer]', form).filter((n) => n.dataset.pointer === p);
      const found = named.find((n) => !n.disabled) || named[0];
      if (found) return found;
      p = p.slice(0, p.lastIndexOf('/'));
    }
    // A form whose input is one document (the Warzone panel's pasted JSON): every member the
    // form has no field for is a member of that document.
    return $('[data-catch-all]', form);
  }
  let errorSeq = 0;
  /* pointer: what the service named, when it names a member below the field that shows it
   * (/board/tiles/a1/units/tank on the units text): the message starts with that member. */
  function showFieldError(target, message, pointer) {
    const own = target.dataset.pointer || '';
    const named = typeof pointer === 'string' && pointer ? pointer : own;
    if (own && named.startsWith(own + '/')) message = pointerParts(named.slice(own.length)).join('/') + ': ' + message;
    // The service speaks of fractions (0 to 1, 6 decimal places); the field is typed in percent.
    if (target.dataset.kind === 'percent' && /\b0 to 1\b|\bfrom 0\b.*\b1\b/.test(message)) {
      message = 'Enter a percentage from 0 to 100 with at most 4 decimal places' +
        (/not (-?[\d.e+-]+)/.test(message) ? ` (the page sent ${fracToPct(Number(/not (-?[\d.e+-]+)/.exec(message)[1]))} %).` : '.');
    }
    const td = target.matches('tr, fieldset') ? null : target.closest('td');
    if (td) {
      // A field in a table cell: the message in a row of its own below, as wide as the table,
      // named by the column (a cell is too narrow for a sentence).
      const row = td.parentElement, id = 'err-' + (++errorSeq);
      let after = row;
      while (after.nextElementSibling && after.nextElementSibling.matches('tr.row-error')) after = after.nextElementSibling;
      const label = target.dataset.label ? target.dataset.label.replace(/^./, (c) => c.toUpperCase()) + ': ' : '';
      after.after(h('tr', { class: 'row-error' }, h('td', { colspan: row.cells.length },
        h('p', { class: 'field-error', id, 'data-for': named }, label + message))));
      target.setAttribute('aria-invalid', 'true');
      const prev = target.getAttribute('aria-describedby');
      target.setAttribute('aria-describedby', prev ? prev + ' ' + id : id);
      return target;
    }
    if (target.matches('tr')) {
      // A pointer to a whole table row (/orders/1): the message goes in a row of its own below it.
      const id = 'err-' + (++errorSeq);
      target.after(h('tr', { class: 'row-error' }, h('td', { colspan: target.cells.length },
        h('p', { class: 'field-error', id, 'data-for': named }, message))));
      return target;
    }
    const holder = target.matches('fieldset') ? target : (target.closest('.field') || target.parentElement);
    const id = 'err-' + (++errorSeq);
    const p = h('p', { class: 'field-error', id, 'data-for': named }, message);
    if (holder.matches('fieldset')) {
      const legend = $('legend', holder);
      if (legend && legend.parentElement === holder) legend.after(p); else holder.prepend(p);
    } else holder.append(p);
    if (!target.matches('fieldset')) {
      target.setAttribute('aria-invalid', 'true');
      const prev = target.getAttribute('aria-describedby');
      target.setAttribute('aria-describedby', prev ? prev + ' ' + id : id);
    }
    return target;
  }
  function clearErrors(section) {
    for (const p of $$('.field-error', section)) {
      const t = $$('[aria-describedby]', section).filter((n) => n.getAttribute('aria-describedby').split(' ').includes(p.id));
      for (const n of t) {
        const rest = n.getAttribute('aria-describedby').split(' ').filter((x) => x !== p.id);
        if (rest.length) n.setAttribute('aria-describedby', rest.join(' ')); else n.removeAttribute('aria-describedby');
      }
      p.remove();
    }
    for (const n of $$('tr.row-error', section)) n.remove();
    for (const n of $$('[aria-invalid]', section)) n.removeAttribute('aria-invalid');
    const box = $('.panel-error', section);
    box.hidden = true;
    box.replaceChildren();
  }
  function showPanelError(section, form, status, problem) {
    const box = $('.panel-error', section);
    const title = (problem && (problem.title || '')) || (status ? 'HTTP ' + status : 'Error');
    const detail = problem && problem.detail;
    const unplaced = [];
    let first = null;
    const errors = problem && Array.isArray(problem.errors) ? problem.errors : [];
    for (const e of errors) {
      if (!isObj(e)) continue;
      const message = e.detail || e.message || 'invalid';
      const target = fieldFor(form, e.pointer);
      if (target) {
        const t = showFieldError(target, message, e.pointer);
        if (!first && !t.matches('fieldset, tr')) first = t;
      } else unplaced.push(h('li', null, e.pointer ? h('code', null, e.pointer) : null, e.pointer ? ': ' : '', message));
    }
    add(box, [
      h('strong', null, title + (status ? ' (' + status + ')' : '')),
      detail ? h('div', { class: 'problem-detail' }, detail) : null,
      unplaced.length ? h('ul', null, unplaced) : null,
    ]);
    box.hidden = false;
    if (first) first.focus({ preventScroll: true });
  }

  /* ---------- calling the service ---------- */

  async function callApi(path, bodyText) {
    const t0 = performance.now();
    let res, text;
    try {
      res = await fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, application/problem+json' },
        body: bodyText,
      });
      text = await res.text();
    } catch (err) {
      return { ok: false, status: 0, ms: performance.now() - t0,
               problem: { title: 'No answer', detail: 'The service did not answer: ' + err.message } };
    }
    const ms = performance.now() - t0;
    let json = null;
    try { json = JSON.parse(text); } catch (e) { json = null; }
    if (!res.ok) {
      const problem = isObj(json) ? json : { title: res.statusText, detail: (text || '').slice(0, 400) };
      return { ok: false, status: res.status, ms, problem, text };
    }
    if (!isObj(json)) {
      return { ok: false, status: res.status, ms, text,
               problem: { title: 'Unreadable answer', detail: 'The service answered with something that is not a JSON object.' } };
    }
    return { ok: true, status: res.status, ms, json, text };
  }

  /* JSON text indented two spaces a level, every token as the service wrote it (JSON.parse
   * would turn 1.0 into 1 and round 64-bit integers); text that is not JSON comes back as is. */
  function prettyJson(text) {
    if (typeof text !== 'string' || !/^\s*[[{]/.test(text)) return text || '';
    let out = '', depth = 0, inString = false;
    const nl = () => '\n' + '  '.repeat(depth);
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        out += c;
        if (c === '\\') out += text[++i];
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') { inString = true; out += c; }
      else if (c === '{' || c === '[') {
        const close = c === '{' ? '}' : ']';
        let j = i + 1;
        while (/\s/.test(text[j] || '')) j++;
        if (text[j] === close) { out += c + close; i = j; continue; }
        depth++; out += c + nl();
      } else if (c === '}' || c === ']') { depth--; out += nl() + c; }
      else if (c === ',') out += ',' + nl();
      else if (c === ':') out += ': ';
      else if (!/\s/.test(c)) out += c;
    }
    return out;
  }
  function copyButton(label, getText) {
    const done = h('span', { class: 'copied', role: 'status' });
    const b = h('button', { type: 'button', class: 'small copy', onclick: async () => {
      const text = getText();
      try { await navigator.clipboard.writeText(text); } catch (e) {
        // Without the clipboard API (plain http to another host): a selection and the old command.
        const area = h('textarea', { style: 'position:fixed;left:-9999px' }, text);
        document.body.append(area); area.select(); document.execCommand('copy'); area.remove();
      }
      done.textContent = 'Copied';
      setTimeout(() => { done.textContent = ''; }, 2000);
    } }, label);
    return h('span', null, b, done);
  }
  function exchange(path, requestText, r) {
    const url = new URL(path, location.href).href;
    const curl = "curl -s -X POST '" + url + "' -H 'Content-Type: application/json' -d '" + requestText.replace(/'/g, "'\\''") + "'";
    const answer = prettyJson(r.text);
    return h('details', { class: 'exchange' },
      h('summary', null, 'Request and answer (HTTP ' + (r.status || '—') + ')'),
      h('pre', { 'aria-label': 'Request as curl' }, curl),
      copyButton('Copy the curl command', () => curl),
      h('pre', { 'aria-label': 'Answer', class: 'answer-json' }, answer),
      copyButton('Copy the answer', () => answer));
  }

  const panels = {};
  function panel(id, opts) {
    const section = document.getElementById(id);
    const form = $('form', section);
    const results = $('.results', section);
    const p = Object.assign({ section, form, results }, opts);
    panels[id] = p;
    form.addEventListener('submit', (ev) => { ev.preventDefault(); run(p); });
    return p;
  }
  /* Brings an answer (or the problem above the form) into view when it is not: after a click
   * the eye is on the button, and the answer may be a screen further down. */
  function reveal(el) {
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.top > window.innerHeight - 120) el.scrollIntoView({ block: 'start' });
  }
  async function run(p, quiet) {
    const { section, form, results } = p;
    clearErrors(section);
    const status = $('.status', form);
    const g = gather(form);
    if (p.validate) g.bad.push(...p.validate(form));
    if (g.bad.length) {
      for (const [input, message] of g.bad) showFieldError(input, message);
      showPanelError(section, form, 0, { title: 'Check the marked fields', detail: 'They could not be read; nothing was sent.' });
      g.bad[0][0].focus();
      section.dataset.state = 'invalid';
      return;
    }
    const body = p.prepare ? p.prepare(g.body) : g.body;
    const text = stringify(body);
    const buttons = $$('.actions button', form);
    section.dataset.state = 'busy';
    for (const b of buttons) b.disabled = true;
    results.setAttribute('aria-busy', 'true');
    status.textContent = 'Working…';
    const r = await callApi(p.path, text);
    for (const b of buttons) b.disabled = false;
    results.removeAttribute('aria-busy');
    status.textContent = (r.status ? 'HTTP ' + r.status : 'No answer') + ' in ' + Math.round(r.ms) + ' ms';
    results.replaceChildren();
    if (!r.ok) {
      // The request may differ from the form (the plan sends some of its rows): its pointers are
      // mapped back onto the form's fields first.
      if (p.mapPointer && isObj(r.problem) && Array.isArray(r.problem.errors)) {
        r.problem.errors = r.problem.errors.map((e) => isObj(e) && typeof e.pointer === 'string' ? Object.assign({}, e, { pointer: p.mapPointer(e.pointer) }) : e);
      }
      // Errors about a document the person pasted are put in plain words (which territory,
      // which order) before they are placed.
      if (p.explain && isObj(r.problem) && Array.isArray(r.problem.errors)) {
        r.problem.errors = r.problem.errors.map((e) => isObj(e) ? Object.assign({}, e, { detail: p.explain(e) }) : e);
      }
      showPanelError(section, form, r.status, r.problem);
      results.append(exchange(p.path, text, r));
      section.dataset.state = 'error';
      if (!quiet) reveal($('.panel-error', section));
      return;
    }
    try {
      // A render may ask the service again (the Warzone plan's turn analysed): it is awaited.
      await p.render(r.json, body, r.text, results);
    } catch (err) {
      showPanelError(section, form, 0, { title: 'Could not draw the answer', detail: String(err && err.message || err) });
    }
    results.append(exchange(p.path, text, r));
    section.dataset.state = 'done';
    if (!quiet) reveal(results);
  }

  /* ---------- charts ---------- */

  function niceStep(span, count) {
    const raw = span / Math.max(1, count);
    if (!(raw > 0)) return 1;
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag;
  }
  function ticks(min, max, count, integer) {
    let step = niceStep(max - min, count);
    if (integer) step = step === 2.5 ? 2 : Math.max(1, Math.round(step));
    const out = [];
    for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) out.push(+v.toFixed(10));
    return out;
  }
  function tickText(v) {
    return Math.abs(v) >= 10000 ? v.toLocaleString('en-US') : String(+v.toFixed(6));
  }

  /* Values under the pointer: a mark with a tip (a graph's column, a bar) shows it in a label
   * beside it while hovered or tapped, so the numbers need no tooltip delay. */
  function hoverReadout(g, width) {
    const label = s('g', { class: 'readout', 'pointer-events': 'none', visibility: 'hidden' });
    const bg = s('rect', { rx: 4 }), text = s('text', null);
    add(label, [bg, text]);
    add(g, label);
    const show = (ev) => {
      const mark = ev.target.closest && ev.target.closest('[data-tip]');
      if (!mark) { label.setAttribute('visibility', 'hidden'); return; }
      text.textContent = mark.dataset.tip;
      const box = mark.getBBox();
      const w = text.getComputedTextLength() + 12, hgt = 20;
      let x = box.x + box.width / 2 + 8;
      if (x + w > width - 2) x = Math.max(2, box.x + box.width / 2 - 8 - w);
      const y = Math.max(2, box.y + Math.min(box.height, 40) / 2 - hgt / 2);
      setAttrs(bg, { x, y, width: w, height: hgt });
      setAttrs(text, { x: x + 6, y: y + 14 });
      label.setAttribute('visibility', 'visible');
      g.append(label);
    };
    g.addEventListener('pointerover', show);
    g.addEventListener('pointerleave', () => label.setAttribute('visibility', 'hidden'));
    return g;
  }

  /* The analyze graph: chance of capture (top) and expected armies lost by each side (bottom)
   * against the number of attacking armies, with a marker at the chosen attacker count. */
  function analyzeGraph(points, chosen) {
    const pts = points.filter((p) => isObj(p) && isNum(p.attackers)).sort((a, b) => a.attackers - b.attackers);
    if (!pts.length) return null;
    const W = 640, H = 450, m = { l: 58, r: 16, t: 30, b: 50 }, gap = 44;
    const plotH = (H - m.t - m.b - gap) / 2;
    const top1 = m.t, top2 = m.t + plotH + gap;
    const xmin = pts[0].attackers;
    let xmax = pts[pts.length - 1].attackers;
    if (xmax === xmin) xmax = xmin + 1;
    const sx = (a) => m.l + (a - xmin) / (xmax - xmin) * (W - m.l - m.r);
    const sy1 = (p) => top1 + plotH - p * plotH;
    const losses = [];
    for (const p of pts) {
      if (isNum(p.expected_attackers_lost)) losses.push(p.expected_attackers_lost);
      if (isNum(p.expected_defenders_lost)) losses.push(p.expected_defenders_lost);
    }
    const lossTicks = ticks(0, Math.max(1, ...losses), 4, false);
    const lossMax = Math.max(lossTicks[lossTicks.length - 1], Math.max(1, ...losses));
    const sy2 = (v) => top2 + plotH - v / lossMax * plotH;
    const xt = ticks(xmin, xmax, 10, true);

    const g = s('svg', { class: 'chart analyze-graph', viewBox: `0 0 ${W} ${H}`, role: 'img',
                         'aria-labelledby': 'ag-title ag-desc' });
    const chosenPoint = pts.find((p) => p.attackers === chosen);
    add(g, [
      s('title', { id: 'ag-title' }, 'Analyze graph'),
      s('desc', { id: 'ag-desc' }, `Chance of capture and expected armies lost for ${xmin} to ${pts[pts.length - 1].attackers} attacking armies.` +
        (chosenPoint && isNum(chosenPoint.capture_probability) ? ` With ${chosen} attackers the chance of capture is ${fmtPct(chosenPoint.capture_probability)}.` : '')),
    ]);
    // Grids, axes and labels of both plots.
    const drawPlot = (top, yticks, sy, fmt, title) => {
      for (const t of yticks) {
        const y = sy(t);
        add(g, [s('line', { class: 'gridline', x1: m.l, x2: W - m.r, y1: y, y2: y }),
                s('text', { class: 'tick-label', x: m.l - 6, y: y + 4, 'text-anchor': 'end' }, fmt(t))]);
      }
      for (const t of xt) {
        const x = sx(t);
        add(g, [s('line', { class: 'gridline', x1: x, x2: x, y1: top, y2: top + plotH }),
                s('line', { class: 'axis', x1: x, x2: x, y1: top + plotH, y2: top + plotH + 4 }),
                s('text', { class: 'tick-label', x, y: top + plotH + 16, 'text-anchor': 'middle' }, tickText(t))]);
      }
      add(g, [s('line', { class: 'axis', x1: m.l, x2: W - m.r, y1: top + plotH, y2: top + plotH }),
              s('line', { class: 'axis', x1: m.l, x2: m.l, y1: top, y2: top + plotH }),
              s('text', { class: 'axis-title', x: m.l, y: top - 9 }, title)]);
    };
    drawPlot(top1, [0, 0.25, 0.5, 0.75, 1], sy1, (t) => t * 100 + ' %', 'Chance of capture');
    drawPlot(top2, lossTicks, sy2, tickText, 'Expected armies lost');
    add(g, s('text', { class: 'axis-title', x: (m.l + W - m.r) / 2, y: H - 8, 'text-anchor': 'middle' }, 'Attacking armies'));

    const line = (key, sy, cls) => {
      const d = pts.filter((p) => isNum(p[key])).map((p, i) => (i ? 'L' : 'M') + sx(p.attackers).toFixed(2) + ' ' + sy(p[key]).toFixed(2)).join(' ');
      return d ? s('path', { class: cls, d }) : null;
    };
    const cap = pts.filter((p) => isNum(p.capture_probability));
    if (cap.length) {
      const area = 'M' + sx(cap[0].attackers) + ' ' + sy1(0) + ' ' +
        cap.map((p) => 'L' + sx(p.attackers).toFixed(2) + ' ' + sy1(p.capture_probability).toFixed(2)).join(' ') +
        ' L' + sx(cap[cap.length - 1].attackers) + ' ' + sy1(0) + ' Z';
      add(g, s('path', { class: 'c-capture-area', d: area }));
    }
    add(g, [line('capture_probability', sy1, 'c-capture capture-line'),
            line('expected_attackers_lost', sy2, 'c-att attackers-lost-line'),
            line('expected_defenders_lost', sy2, 'c-def defenders-lost-line')]);

    // Hover targets: one invisible column per attacker count with its numbers as a tooltip.
    if (pts.length <= 400) {
      const colW = (W - m.l - m.r) / Math.max(1, xmax - xmin);
      for (const p of pts) {
        const tip = `${p.attackers} attackers: capture ${fmtPct(p.capture_probability)}, ` +
          `attackers lose ${fmtNum(p.expected_attackers_lost)}, defenders lose ${fmtNum(p.expected_defenders_lost)}`;
        add(g, s('rect', { class: 'hit', x: sx(p.attackers) - colW / 2, y: top1, width: colW, height: top2 + plotH - top1, 'data-tip': tip },
                 s('title', null, tip)));
      }
    }

    // The marker at the chosen attacker count.
    if (isNum(chosen) && chosen >= xmin && chosen <= pts[pts.length - 1].attackers) {
      const x = sx(chosen);
      const mark = s('g', { class: 'marker', 'data-attackers': chosen });
      add(mark, [s('line', { class: 'marker-line', x1: x, x2: x, y1: top1, y2: top1 + plotH }),
                 s('line', { class: 'marker-line', x1: x, x2: x, y1: top2, y2: top2 + plotH })]);
      if (chosenPoint) {
        if (isNum(chosenPoint.capture_probability)) add(mark, s('circle', { class: 'dot-capture', cx: x, cy: sy1(chosenPoint.capture_probability), r: 5 }));
        if (isNum(chosenPoint.expected_attackers_lost)) add(mark, s('circle', { class: 'dot-att', cx: x, cy: sy2(chosenPoint.expected_attackers_lost), r: 5 }));
        if (isNum(chosenPoint.expected_defenders_lost)) add(mark, s('circle', { class: 'dot-def', cx: x, cy: sy2(chosenPoint.expected_defenders_lost), r: 5 }));
      }
      const right = x > W - 200;
      const label = chosen + ' attackers' + (chosenPoint && isNum(chosenPoint.capture_probability) ? ': ' + fmtPct(chosenPoint.capture_probability) : '');
      add(mark, s('text', { class: 'marker-label', x: right ? x - 6 : x + 6, y: top1 + 14, 'text-anchor': right ? 'end' : 'start' }, label));
      add(g, mark);
    }
    return hoverReadout(g, W);
  }

  /* Bars of a distribution or a histogram: items are {x, y}. opts.xName names the bars' data-
   * attribute for x (data-armies by default) and opts.xTip writes x in their tooltip. */
  function barChart(items, opts) {
    let data = items.filter((d) => isNum(d.x) && isNum(d.y)).sort((a, b) => a.x - b.x);
    if (!data.length) return null;
    const peak = Math.max(...data.map((d) => d.y));
    if (data.length > 40 && peak > 0) {
      // Leave out the far tails that would not show as a pixel anyway.
      let lo = 0, hi = data.length - 1;
      while (lo < hi && data[lo].y < peak * 1e-4) lo++;
      while (hi > lo && data[hi].y < peak * 1e-4) hi--;
      data = data.slice(lo, hi + 1);
    }
    const W = 300, H = 180, m = { l: 46, r: 8, t: 10, b: 40 };
    const xmin = data[0].x, xmax = data[data.length - 1].x;
    const n = xmax - xmin + 1;
    const pw = W - m.l - m.r, ph = H - m.t - m.b;
    const bw = pw / n;
    const yt = ticks(0, peak > 0 ? peak : 1, 4, !!opts.integer);
    const ymax = Math.max(yt[yt.length - 1], peak);
    const sy = (v) => m.t + ph - (ymax > 0 ? v / ymax : 0) * ph;
    const g = s('svg', { class: 'chart bars ' + (opts.cls || ''), viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': opts.label });
    for (const t of yt) {
      add(g, [s('line', { class: 'gridline', x1: m.l, x2: W - m.r, y1: sy(t), y2: sy(t) }),
              s('text', { class: 'tick-label', x: m.l - 5, y: sy(t) + 4, 'text-anchor': 'end' }, opts.yFmt ? opts.yFmt(t) : tickText(t))]);
    }
    for (const d of data) {
      const x = m.l + (d.x - xmin) * bw;
      const y = sy(d.y);
      const tip = `${opts.xTip ? opts.xTip(d.x) : d.x + ' armies'}: ${opts.tipFmt ? opts.tipFmt(d.y) : d.y}`;
      add(g, s('rect', { class: 'bar ' + (opts.barCls || ''), x: x + (bw > 3 ? bw * 0.1 : 0), y, width: Math.max(0.5, bw > 3 ? bw * 0.8 : bw),
                         height: Math.max(0, m.t + ph - y), ['data-' + (opts.xName || 'armies')]: d.x, 'data-value': d.y, 'data-tip': tip },
                 s('title', null, tip)));
    }
    for (const t of ticks(xmin, xmax, Math.min(5, n), true)) {
      const x = m.l + (t - xmin + 0.5) * bw;
      add(g, s('text', { class: 'tick-label', x, y: H - m.b + 14, 'text-anchor': 'middle' }, tickText(t)));
    }
    add(g, [s('line', { class: 'axis', x1: m.l, x2: W - m.r, y1: m.t + ph, y2: m.t + ph }),
            s('text', { class: 'axis-title', x: m.l + pw / 2, y: H - 6, 'text-anchor': 'middle' }, opts.xLabel || 'Armies left')]);
    return hoverReadout(g, W);
  }

  /* ---------- generic rendering ---------- */

  function renderValue(v) {
    if (v === null || v === undefined) return '—';
    if (typeof v === 'boolean') return v ? 'yes' : 'no';
    if (typeof v === 'number') return fmtNum(v, 6);
    if (typeof v === 'string') return v;
    if (Array.isArray(v)) {
      if (!v.length) return 'none';
      if (v.every((x) => !isObj(x) && !Array.isArray(x))) return v.map((x) => renderValue(x)).join(', ');
      return h('ol', null, v.map((x) => h('li', null, renderValue(x))));
    }
    if (isObj(v)) {
      const keys = Object.keys(v);
      if (!keys.length) return 'none';
      return h('dl', { class: 'kv' }, keys.map((k) => [h('dt', null, humanize(k)), h('dd', { 'data-key': k }, renderValue(v[k]))]));
    }
    return String(v);
  }
  function kv(pairs) {
    const rows = pairs.filter((p) => p[1] !== undefined);
    if (!rows.length) return null;
    return h('dl', { class: 'kv' }, rows.map(([k, v, attrs]) => [h('dt', null, k), h('dd', attrs || null, v instanceof Node ? v : renderValue(v))]));
  }
  function box(title, ...children) {
    return h('div', { class: 'box' }, h('h3', null, title), children);
  }

  /* ---------- War.app: /analyze-attack ---------- */

  function fillBattleSlots() {
    const tpl = document.getElementById('tpl-battle');
    for (const slot of $$('.battle-slot')) {
      const prefix = slot.dataset.prefix;
      const frag = tpl.content.cloneNode(true);
      for (const n of $$('[id]', frag)) n.id = prefix + n.id;
      for (const n of $$('label[for]', frag)) n.htmlFor = prefix + n.htmlFor;
      slot.replaceWith(frag);
    }
  }
  function setBattle(prefix, v) {
    const set = (id, val) => { const n = document.getElementById(prefix + id); if (!n) return; if (n.type === 'checkbox') n.checked = !!val; else n.value = val; };
    for (const [k, val] of Object.entries(v)) set(k, val);
  }

  /* ---------- special units and fog on the attack panel (W17–W20, W23) ---------- */

  const SIDE_NAME = { attacking: 'Attacking', defending: 'Defending' };
  // The contract's example of a custom unit, so a new one is complete and shows every field.
  const CUSTOM_EXAMPLE = { name: 'Shield', attack_power: 0, defense_power: 4, combat_order: -5, damage_to_kill: 10 };
  let unitSeq = 0;
  const unitList = (side) => $(`.unit-list[data-side="${side}"]`);
  const unitCount = (side) => $$(':scope > fieldset.unit', unitList(side)).length;

  /* Gives every unit of a side its pointer (/attacking_units/2) and each of its controls that
   * pointer plus its member, so the service's errors land beside the right input. */
  function renumberUnits(side) {
    $$(':scope > fieldset.unit', unitList(side)).forEach((unit, i) => {
      const base = `/${side}_units/${i}`;
      unit.dataset.pointer = base;
      for (const c of $$('[data-member]', unit)) c.dataset.pointer = base + '/' + c.dataset.member;
      const title = `${SIDE_NAME[side]} unit ${i + 1}`;
      $('legend', unit).textContent = title + (unit.dataset.type === 'commander' ? ': Commander' : ': custom');
      $('button.remove', unit).setAttribute('aria-label', 'Remove ' + title.toLowerCase());
    });
  }

  /* One unit as a group of fields; a Commander is only its type and optional id (W17). */
  function addUnit(side, type, values) {
    const v = values || (type === 'custom' ? CUSTOM_EXAMPLE : {});
    const uid = `wa-${side}-unit-${++unitSeq}`;
    const field = (key, label, control) => {
      control.id = uid + '-' + key;
      return h('div', { class: 'field' }, h('label', { for: control.id }, label), control);
    };
    const num = (member, value, min) => h('input', { type: 'number', step: 1, min, inputmode: 'numeric', 'data-member': member, 'data-kind': 'int', value });
    const unit = h('fieldset', { class: 'unit', 'data-type': type }, h('legend'),
      h('input', { type: 'hidden', 'data-member': 'type', value: type }));
    const idField = field('id', 'Id (optional)', h('input', { type: 'text', 'data-member': 'id', value: v.id, maxlength: 64 }));
    if (type === 'commander') {
      add(unit, [idField, h('span', { class: 'hint' }, 'Attack and defense power 7; dies from 7 damage at once; takes damage after the armies (combat order 10000).')]);
    } else {
      const kill = v.health === undefined ? 'damage_to_kill' : 'health';
      const amount = num(kill, v[kill], 1);
      const dies = h('select', null, h('option', { value: 'damage_to_kill' }, 'damage at once'), h('option', { value: 'health' }, 'losing health'));
      dies.value = kill;
      const amountField = field('toughness', '', amount);
      // The amount is sent as damage_to_kill or as health, whichever the unit dies by (W19).
      const sync = () => {
        amount.dataset.member = dies.value;
        $('label', amountField).textContent = dies.value === 'health' ? 'Health' : 'Damage to kill';
        renumberUnits(side);
      };
      dies.addEventListener('change', sync);
      add(unit, [
        h('div', { class: 'row' }, field('name', 'Name', h('input', { type: 'text', 'data-member': 'name', value: v.name, maxlength: 64 })),
          field('order', 'Combat order', num('combat_order', v.combat_order))),
        h('div', { class: 'row' }, field('attack', 'Attack power', num('attack_power', v.attack_power, 0)),
          field('defense', 'Defense power', num('defense_power', v.defense_power, 0))),
        field('dies', 'Dies from', dies),
        h('div', { class: 'row' }, amountField, idField)]);
      sync();
    }
    add(unit, h('div', { class: 'unit-foot' }, h('span'), h('button', { type: 'button', class: 'small remove', onclick: () => {
      unit.remove();
      renumberUnits(side);
      $(`.add-unit[data-side="${side}"]`).focus();
    } }, 'Remove')));
    unitList(side).append(unit);
    renumberUnits(side);
    return unit;
  }

  // The service's warapp.max_fog_points by default: a longer range would only come back as a 422.
  const MAX_FOG_COUNTS = 1000;
  const fogOn = () => document.getElementById('wa-def-range').checked;
  /* The range replaces the count of defenders: only one of them is enabled, so only one is sent
   * and the service's /defenders errors find the one in use. */
  function syncFog() {
    const on = fogOn();
    const exact = document.getElementById('wa-defenders');
    const lo = document.getElementById('wa-def-min'), hi = document.getElementById('wa-def-max');
    exact.disabled = on;
    lo.disabled = hi.disabled = !on;
    document.getElementById('wa-def-range-fields').hidden = !on;
    if (on && lo.value === '' && hi.value === '') {
      const d = Number(exact.value) || 0;
      lo.value = d;
      hi.value = d + 5;
    }
  }
  function readRange() {
    const bad = [];
    const read = (id) => {
      const n = document.getElementById(id);
      const v = Number(n.value);
      if (n.validity.badInput || n.value.trim() === '' || !Number.isInteger(v) || v < 0) { bad.push([n, 'Enter a whole number of defenders.']); return NaN; }
      return v;
    };
    const lo = read('wa-def-min'), hi = read('wa-def-max');
    const count = hi - lo + 1;
    const most = document.getElementById('wa-def-max');
    if (!bad.length && lo > hi) bad.push([most, 'The most must be at least the fewest.']);
    else if (!bad.length && count > MAX_FOG_COUNTS) {
      bad.push([most, `A range may hold at most ${fmtNum(MAX_FOG_COUNTS)} counts (the service's limit); ${fmtNum(lo)}–${fmtNum(hi)} holds ${fmtNum(count)}.`]);
    }
    return { lo, hi, bad };
  }
  /* Every count gets the same double 1/n: n equal doubles sum to within n·2^-53 of 1, far inside
   * the service's 1e-9, and the service divides by that sum, so the counts stay equally likely. */
  function uniformDefenders(lo, hi) {
    const n = hi - lo + 1;
    return Array.from({ length: n }, (_, i) => ({ armies: lo + i, probability: 1 / n }));
  }
  function validateAnalyze() {
    return fogOn() ? readRange().bad : [];
  }
  function prepareAnalyze(body) {
    if (fogOn()) {
      const r = readRange();
      body.defenders = uniformDefenders(r.lo, r.hi);
    }
    autoGraph(body);
    return body;
  }

  /* The defenders as the answer echoes them: a count, or the distribution used (W23). */
  function fogPoints(list) {
    return Array.isArray(list) ? list.filter((o) => isObj(o) && isNum(o.armies) && isNum(o.probability)).sort((a, b) => a.armies - b.armies) : [];
  }
  function defendersText(defenders) {
    if (isNum(defenders)) return fmtNum(defenders) + ' defenders';
    const pts = fogPoints(defenders);
    if (!pts.length) return '? defenders';
    const lo = pts[0].armies, hi = pts[pts.length - 1].armies;
    if (pts.length === 1) return fmtNum(lo) + ' defenders';
    const even = pts.every((p) => Math.abs(p.probability - pts[0].probability) <= 1e-12);
    if (even && hi - lo + 1 === pts.length) return `${fmtNum(lo)}–${fmtNum(hi)} defenders, uniform`;
    if (pts.length === 2) return `${fmtNum(lo)} or ${fmtNum(hi)} defenders`;
    return `${fmtNum(pts.length)} defender counts from ${fmtNum(lo)} to ${fmtNum(hi)}`;
  }
  function fogBox(defenders) {
    const pts = fogPoints(defenders);
    if (!pts.length) return null;
    const chart = barChart(pts.map((p) => ({ x: p.armies, y: p.probability })), { label: 'Probability of each number of defenders',
      barCls: 'def', yFmt: (t) => +(t * 100).toFixed(2) + '%', tipFmt: fmtPct, xLabel: 'Defending armies', xTip: (x) => x + ' defenders' });
    return h('div', { class: 'box', id: 'analyze-fog' }, h('h3', null, 'Defenders unknown (fog)'),
      h('p', { id: 'analyze-fog-summary' }, defendersText(defenders)),
      h('p', { class: 'hint' }, 'Every chance, distribution, graph point and armies needed on this answer is the exact mixture over these counts (W23).'),
      chart);
  }

  function warUnitName(u) {
    const base = u.type === 'commander' ? 'Commander' : (typeof u.name === 'string' && u.name ? u.name : 'Custom unit');
    return typeof u.id === 'string' && u.id ? `${base} (${u.id})` : base;
  }
  function healthLeftBox(u, i, barCls) {
    const hl = u.health_left;
    const items = Array.isArray(hl.distribution) ? hl.distribution.filter(isObj).map((d) => ({ x: d.health, y: d.probability })) : [];
    const name = warUnitName(u);
    return h('div', { class: 'health-left', 'data-index': i }, h('h4', null, name + ': health left'),
      kv([['Mean', hl.mean]]),
      items.length ? barChart(items, { label: name + ': probability of each health left', barCls, yFmt: (t) => +(t * 100).toFixed(2) + '%',
        tipFmt: fmtPct, xLabel: 'Health left (0: dead)', xName: 'health', xTip: (x) => 'health ' + x }) : null);
  }
  /* A side's units as the answer gives them, in request order, each with its chance to survive. */
  function unitsBox(side, list) {
    const units = Array.isArray(list) ? list : [];
    if (!units.length) return null;
    const cls = side === 'attacking' ? 'att' : 'def';
    const head = h('tr', null, h('th', { scope: 'col' }, 'Unit'), h('th', { scope: 'col', class: 'num' }, 'Attack / defense'),
      h('th', { scope: 'col', class: 'num' }, 'Order'), h('th', { scope: 'col' }, 'Dies from'), h('th', { scope: 'col', class: 'num' }, 'Survives'));
    const rows = units.map((u, i) => isObj(u) ? h('tr', { 'data-index': i },
      h('th', { scope: 'row' }, warUnitName(u)),
      h('td', { class: 'num' }, fmtNum(u.attack_power) + ' / ' + fmtNum(u.defense_power)),
      h('td', { class: 'num' }, fmtNum(u.combat_order)),
      h('td', null, isNum(u.health) ? 'health ' + fmtNum(u.health) : isNum(u.damage_to_kill) ? fmtNum(u.damage_to_kill) + ' at once' : '—'),
      h('td', { class: 'num', 'data-key': 'survival_probability', 'data-value': isNum(u.survival_probability) ? u.survival_probability : '' },
        fmtPct(u.survival_probability))) : null);
    return h('div', { class: 'box', id: `analyze-${side}-units` }, h('h3', null, `${SIDE_NAME[side]} units`),
      h('div', { class: 'scroll' }, h('table', null, h('thead', null, head), h('tbody', null, rows))),
      units.map((u, i) => isObj(u) && isObj(u.health_left) ? healthLeftBox(u, i, cls) : null));
  }

  function autoGraph(body) {
    if (body.transfer) return;
    body.graph = body.graph || {};
    const a = isNum(body.attackers) ? body.attackers
      : isNum(body.source_armies) ? Math.max(1, body.source_armies - (body.settings && body.settings.one_army_must_stand_guard === false ? 0 : 1)) : 1;
    // With fog the range is chosen for the most defenders the distribution holds.
    const d = isNum(body.defenders) ? body.defenders
      : Array.isArray(body.defenders) ? fogPoints(body.defenders).reduce((m, p) => Math.max(m, p.armies), 0) : 0;
    // Beside attacking units the graph starts at 0 armies: the units alone (W20).
    const lowest = Array.isArray(body.attacking_units) && body.attacking_units.length ? 0 : 1;
    if (!isNum(body.graph.from) && !isNum(body.graph.to)) {
      let from = lowest, to = Math.max(2 * d + 10, a + 5, 10);
      // At most 1500 points around the chosen attack, so a huge battle stays quick to draw.
      if (to - from > 1500) { from = Math.max(lowest, Math.round(a - 750)); to = from + 1500; }
      body.graph.from = from; body.graph.to = to;
    } else if (!isNum(body.graph.from)) body.graph.from = Math.max(lowest, body.graph.to - 1500);
    else if (!isNum(body.graph.to)) body.graph.to = body.graph.from + Math.max(10, 2 * d + 10);
  }

  function distBox(title, dist, barCls) {
    if (!isObj(dist)) return null;
    const items = Array.isArray(dist.distribution)
      ? dist.distribution.filter(isObj).map((d) => ({ x: d.armies, y: d.probability })) : [];
    const pct = isObj(dist.percentiles) ? Object.keys(dist.percentiles)
      .sort((a, b) => parseFloat(a.replace(/\D+/g, '')) - parseFloat(b.replace(/\D+/g, ''))) : [];
    const chart = items.length ? barChart(items, { label: title + ': probability of each number of survivors', barCls,
      yFmt: (t) => +(t * 100).toFixed(2) + '%', tipFmt: fmtPct, xLabel: 'Armies left' }) : null;
    const omitted = isNum(dist.omitted_probability) && dist.omitted_probability >= 0.0001
      ? h('p', { class: 'hint' }, fmtPct(dist.omitted_probability) + ' of the probability lies in points not listed.') : null;
    return box(title,
      kv([['Mean', dist.mean]]),
      omitted,
      chart,
      pct.length ? h('dl', { class: 'pcts', 'aria-label': 'Percentiles' },
        pct.map((k) => h('div', null, h('dt', null, k), h('dd', null, fmtNum(dist.percentiles[k]))))) : null);
  }

  function settingChips(st) {
    if (!isObj(st)) return null;
    const chips = [];
    if (isNum(st.offense_kill_rate)) chips.push('offense ' + fracToPct(st.offense_kill_rate) + ' %');
    if (isNum(st.defense_kill_rate)) chips.push('defense ' + fracToPct(st.defense_kill_rate) + ' %');
    if (isNum(st.luck_modifier)) chips.push('luck ' + fracToPct(st.luck_modifier) + ' %');
    if (st.rounding_mode) chips.push(st.rounding_mode === 'straight_round' ? 'straight round' : st.rounding_mode === 'weighted_random' ? 'weighted random' : String(st.rounding_mode));
    if (typeof st.one_army_must_stand_guard === 'boolean') chips.push(st.one_army_must_stand_guard ? 'one army stands guard' : 'all armies may leave');
    return h('div', { class: 'chips', 'aria-label': 'Settings used' }, chips.map((c) => h('span', { class: 'chip' }, c)));
  }

  function renderAnalyze(res, req, text, out) {
    if (res.transfer) {
      const arriving = isObj(res.outcome) ? res.outcome.armies_arriving : undefined;
      out.append(h('div', { class: 'headline' }, h('div', { class: 'big', id: 'analyze-arriving' }, fmtNum(arriving)),
        h('div', { class: 'big-label' }, 'armies arrive: a transfer into your own territory has no combat (W8).')));
      const moving = Array.isArray(res.attacking_units) ? res.attacking_units.filter(isObj) : [];
      if (moving.length) out.append(h('p', { id: 'analyze-arriving-units' }, 'With them: ' + moving.map(warUnitName).join(', ') + '.'));
      return;
    }
    const attackers = isNum(res.attackers) ? res.attackers : req.attackers;
    const fog = Array.isArray(res.defenders);
    const unitsOf = (side) => {
      const n = Array.isArray(res[side + '_units']) ? res[side + '_units'].length : 0;
      return n ? n + (n === 1 ? ' unit' : ' units') : '';
    };
    const defUnits = unitsOf('defending');
    out.append(h('div', { class: 'headline' },
      h('div', null, h('div', { class: 'big', id: 'analyze-capture', 'data-value': isNum(res.capture_probability) ? res.capture_probability : '' },
        fmtPct(res.capture_probability)), h('div', { class: 'big-label' }, 'chance of capture')),
      isNum(res.mutual_destruction_probability) ? h('div', null, h('div', { class: 'big', id: 'analyze-mutual' }, fmtPct(res.mutual_destruction_probability)),
        h('div', { class: 'big-label' }, 'both sides wiped out (defender keeps 1, W5)')) : null,
      h('div', { class: 'big-label', id: 'analyze-battle' }, (isNum(attackers) ? fmtNum(attackers) : '?') + ' attackers' +
        (unitsOf('attacking') ? ' and ' + unitsOf('attacking') : '') + ' against ' + (defUnits ? defUnits + ' and ' : '') +
        defendersText(res.defenders !== undefined ? res.defenders : req.defenders))));
    const chips = settingChips(res.settings);
    if (chips) {
      if (res.deterministic === true) chips.append(h('span', { class: 'chip strong' }, 'no randomness: one outcome'));
      if (fog) chips.append(h('span', { class: 'chip strong', id: 'analyze-mixture' }, 'exact mixture over ' + fmtNum(fogPoints(res.defenders).length) + ' defender counts'));
      out.append(chips);
    }
    if (Array.isArray(res.graph) && res.graph.length) {
      const graph = analyzeGraph(res.graph, attackers);
      if (graph) {
        const rows = res.graph.filter(isObj);
        const head = h('tr', null, ['Attackers', 'Chance of capture', 'Attackers lost', 'Defenders lost']
          .map((t) => h('th', { scope: 'col', class: 'num' }, t)));
        const body = rows.map((p) => h('tr', { 'data-attackers': p.attackers, 'data-capture': p.capture_probability,
          'data-attackers-lost': p.expected_attackers_lost, 'data-defenders-lost': p.expected_defenders_lost },
          h('td', { class: 'num' }, fmtNum(p.attackers)),
          h('td', { class: 'num' }, fmtPct(p.capture_probability)),
          h('td', { class: 'num' }, fmtNum(p.expected_attackers_lost)),
          h('td', { class: 'num' }, fmtNum(p.expected_defenders_lost))));
        const table = h('details', null, h('summary', null, 'The graph as a table'),
          h('div', { class: 'scroll' }, h('table', null, h('thead', null, head), h('tbody', null, body))));
        const legend = h('div', { class: 'legend', 'aria-hidden': 'true' },
          h('span', { class: 'l-capture' }, 'chance of capture'),
          h('span', { class: 'l-att' }, 'attacking armies lost'),
          h('span', { class: 'l-def' }, 'defending armies lost'),
          h('span', { class: 'l-mark' }, 'chosen attack'));
        const title = 'Analyze graph' + (fog ? ': the mixture over ' + defendersText(res.defenders) : '');
        out.append(h('div', { class: 'box', id: 'analyze-graph' }, h('h3', null, title), legend, graph, table));
      }
    }
    const parts = [fog ? fogBox(res.defenders) : null];
    if (isObj(res.outcome)) {
      const o = res.outcome;
      parts.push(box('Outcome',
        typeof o.captured === 'boolean' ? h('p', { class: o.captured ? 'outcome-good' : 'outcome-bad', id: 'analyze-outcome' },
          o.captured ? 'Captured' : 'Not captured') : null,
        kv([['Attackers lost', o.attackers_lost], ['Defenders lost', o.defenders_lost],
            ['Attackers left', o.attackers_left], ['Defenders left', o.defenders_left]])));
    }
    // Beside units the distributions count armies only (W20).
    const armiesOnly = Array.isArray(res.attacking_units) || Array.isArray(res.defending_units);
    parts.push(distBox(armiesOnly ? 'Attacking armies left' : 'Attackers left', res.attackers_left, 'att'));
    parts.push(distBox(armiesOnly ? 'Defending armies left' : 'Defenders left', res.defenders_left, 'def'));
    if (Array.isArray(res.armies_needed) && res.armies_needed.length) {
      parts.push(box('Armies needed', h('table', { id: 'analyze-needed' },
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Chance of capture'), h('th', { scope: 'col', class: 'num' }, 'Attackers needed'))),
        h('tbody', null, res.armies_needed.filter(isObj).map((n) => h('tr', null, h('td', null, isNum(n.probability) ? 'at least ' + +(n.probability * 100).toFixed(4) + ' %' : '—'),
          h('td', { class: 'num' }, n.attackers === null ? 'not reachable' : fmtNum(n.attackers))))))));
    }
    // The units get a row of their own: their tables need the width.
    const units = [unitsBox('attacking', res.attacking_units), unitsBox('defending', res.defending_units)].filter(Boolean);
    if (units.length) out.append(h('div', { class: 'grid2', id: 'analyze-units' }, units));
    const present = parts.filter(Boolean);
    if (present.length) out.append(h('div', { class: 'grid2' }, present));
  }

  /* ---------- /simulate ---------- */

  function histBox(title, hist, barCls, trials) {
    if (!isObj(hist)) return null;
    const items = Array.isArray(hist.histogram) ? hist.histogram.filter(isObj).map((d) => ({ x: d.armies, y: d.count })) : [];
    return box(title, kv([['Mean', hist.mean]]),
      items.length ? barChart(items, { label: title + ': how many trials ended with each number of survivors', barCls, integer: true,
        tipFmt: (c) => fmtNum(c) + ' trials' + (isNum(trials) && trials > 0 ? ' (' + fmtPct(c / trials) + ')' : ''), xLabel: 'Armies left' }) : null);
  }

  function renderSimulate(res, req, text, out) {
    const seed = rawTopLevel(text, 'seed') || (res.seed !== undefined ? String(res.seed) : null);
    out.append(h('div', { class: 'headline' },
      h('div', null, h('div', { class: 'big', id: 'sim-rate' }, fmtPct(res.capture_rate)), h('div', { class: 'big-label' }, 'of the trials captured')),
      h('div', { class: 'big-label' }, fmtNum(res.captures) + ' captures in ' + fmtNum(res.trials) + ' trials' +
        (isNum(res.mutual_destructions) ? ', ' + fmtNum(res.mutual_destructions) + ' with both sides wiped out' : ''))));
    if (seed !== null) {
      out.append(h('div', { class: 'actions' }, h('span', null, 'Seed ', h('code', { id: 'sim-seed-used' }, seed)),
        h('button', { type: 'button', class: 'small', id: 'sim-replay', onclick: () => {
          const f = document.getElementById('sim-seed'); f.value = seed; panels.simulate.form.requestSubmit(); } }, 'Replay this run')));
    }
    const parts = [histBox('Attackers left', res.attackers_left, 'att', res.trials), histBox('Defenders left', res.defenders_left, 'def', res.trials)].filter(Boolean);
    if (parts.length) out.append(h('div', { class: 'grid2', id: 'sim-histograms' }, parts));
    if (Array.isArray(res.battles) && res.battles.length) {
      const shown = res.battles.slice(0, 200).filter(isObj);
      const cols = [];
      for (const b of shown) for (const k of Object.keys(b)) if (!cols.includes(k)) cols.push(k);
      out.append(box('Battles' + (res.battles.length > shown.length ? ' (first ' + shown.length + ' of ' + res.battles.length + ')' : ''),
        h('div', { class: 'scroll' }, h('table', { id: 'sim-battles-table' },
          h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'num' }, '#'), cols.map((c) => h('th', { scope: 'col' }, humanize(c))))),
          h('tbody', null, shown.map((b, i) => h('tr', null, h('td', { class: 'num' }, i + 1), cols.map((c) => h('td', null, renderValue(b[c])))))))))); 
    }
  }

  /* ---------- War.app turns: /analyze-turn, /simulate-turn ---------- */

  // One member name as a JSON pointer token (RFC 6901): territory ids may hold "/" or "~".
  const ptrEsc = (k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1');

  /* Editable table rows. Every control has data-key; renumber() gives each row its base pointer
   * and each control base + "/" + its member (data-member, default the key; "" is the row
   * itself), so the service's errors land beside the right cell. Meant to be reused by other
   * panels with editable lists. */
  function editRows(tbody, cfg) {
    const rows = () => $$('tr:not(.row-error)', tbody);
    const renumber = () => {
      rows().forEach((row, i) => {
        const base = cfg.base(row, i);
        row.dataset.pointer = base;
        const name = cfg.name(row, i);
        for (const c of $$('[data-key]', row)) {
          if (c.dataset.nopointer === undefined) {
            const member = c.dataset.member === undefined ? c.dataset.key : c.dataset.member;
            c.dataset.pointer = member ? base + '/' + member : base;
          }
          c.setAttribute('aria-label', name + ': ' + c.dataset.label);
        }
        const idx = $('.idx', row);
        if (idx) idx.textContent = String(i + 1);
        $('button.remove', row).setAttribute('aria-label', 'Remove ' + name.toLowerCase());
      });
      if (cfg.after) cfg.after();
    };
    const addRow = (values) => {
      const row = h('tr', null, cfg.cells(values || {}, renumber),
        h('td', null, h('button', { type: 'button', class: 'small remove', onclick: () => {
          const next = row.nextElementSibling;
          if (next && next.matches('.row-error')) next.remove();
          row.remove();
          renumber();
        } }, 'Remove')));
      tbody.append(row);
      renumber();
      return row;
    };
    return { addRow, renumber, rows };
  }
  const cell = (control, cls) => h('td', cls ? { class: cls } : null, h('div', { class: 'field' }, control));
  const textIn = (key, label, value, more) => h('input', Object.assign({ type: 'text', 'data-key': key, 'data-label': label, value }, more || {}));

  const turnBoard = editRows($('#turn-board tbody'), {
    base: (row) => '/territories/' + ptrEsc($('[data-key=id]', row).value.trim()),
    name: (row, i) => 'Territory ' + ($('[data-key=id]', row).value.trim() || i + 1),
    cells: (v, renumber) => [
      cell(textIn('id', 'id', v.id, { 'data-member': '', 'data-kind': 'key', oninput: renumber })),
      cell(textIn('owner', 'owner', v.owner, { list: 'turn-player-ids', oninput: updateTurnLists })),
      cell(h('input', { type: 'number', min: 0, step: 1, inputmode: 'numeric', 'data-key': 'armies', 'data-label': 'armies', 'data-kind': 'int', value: v.armies })),
      cell(textIn('neighbors', 'neighbors', (v.neighbors || []).join(', '), { 'data-kind': 'list' })),
    ],
    after: () => updateTurnLists(),
  });
  /* The kinds of order (W12, W14, W25–W30): its label, and which cells it takes: `from` (a
   * member name, or null: disabled), `to` (likewise: a card's target is `to`'s cell), an amount. */
  const ORDER_KINDS = {
    attack_transfer: { label: 'attack/transfer', from: 'from', to: 'to', amount: true },
    deploy: { label: 'deploy', from: null, to: 'to', amount: 'armies' },
    bomb: { label: 'bomb (card)', from: null, to: 'target', amount: false },
    emergency_blockade: { label: 'emergency blockade (card)', from: null, to: 'target', amount: false },
    airlift: { label: 'airlift (card)', from: 'from', to: 'to', amount: true },
    gift: { label: 'gift (card)', from: 'to_player', to: 'target', amount: false },
    blockade: { label: 'blockade (card)', from: null, to: 'target', amount: false },
    order_priority: { label: 'order priority (card)', from: null, to: null, amount: false },
    order_delay: { label: 'order delay (card)', from: null, to: null, amount: false },
  };
  const turnOrders = editRows($('#turn-orders tbody'), {
    base: (row, i) => '/orders/' + i,
    name: (row, i) => 'Order ' + (i + 1),
    cells: (v) => {
      const type = h('select', { 'data-key': 'type', 'data-label': 'type' },
        Object.entries(ORDER_KINDS).map(([k, d]) => h('option', { value: k }, d.label)));
      const from = textIn('from', 'from', v.to_player !== undefined ? v.to_player : v.from, { list: 'turn-territory-ids' });
      const to = textIn('to', 'to', v.target !== undefined ? v.target : v.to, { list: 'turn-territory-ids' });
      const pct = v.percent !== undefined;
      const amount = textIn('amount', 'armies or percent', pct ? fracToPct(v.percent) : v.armies, { inputmode: 'decimal' });
      const unit = h('select', { 'data-key': 'unit', 'data-label': 'unit', 'data-nopointer': '' },
        h('option', { value: 'armies' }, 'armies'), h('option', { value: 'percent' }, '% of movable'));
      type.value = ORDER_KINDS[v.type] ? v.type : 'attack_transfer';
      unit.value = pct ? 'percent' : 'armies';
      // Each kind takes its own members (a deploy no source and armies only, W12; a card its
      // target in the To cell, a gift its receiver in the From cell); the amount's member
      // follows the unit.
      const sync = () => {
        const d = ORDER_KINDS[type.value];
        from.disabled = !d.from;
        from.dataset.member = d.from || 'from';
        from.placeholder = d.from === 'to_player' ? 'receiver' : d.from ? '' : '—';
        from.setAttribute('list', d.from === 'to_player' ? 'turn-player-ids' : 'turn-territory-ids');
        from.dataset.label = d.from === 'to_player' ? 'receiver' : 'from';
        to.disabled = !d.to;
        to.dataset.member = d.to || 'to';
        to.dataset.label = d.to === 'target' ? 'target' : 'to';
        to.placeholder = d.to ? '' : '—';
        if (d.amount === 'armies') unit.value = 'armies';
        unit.disabled = d.amount !== true;
        amount.disabled = !d.amount;
        amount.dataset.member = unit.value;
        amount.dataset.kind = unit.value === 'percent' ? 'percent' : 'int';
      };
      sync();
      type.addEventListener('change', () => { sync(); turnOrders.renumber(); });
      unit.addEventListener('change', () => { sync(); turnOrders.renumber(); });
      return [h('td', { class: 'idx' }), cell(type), cell(textIn('player', 'player', v.player, { list: 'turn-player-ids', oninput: updateTurnLists })),
        cell(from), cell(to), cell(amount), cell(unit)];
    },
  });
  const turnGoals = editRows($('#turn-goals tbody'), {
    base: (row, i) => '/goals/' + i,
    name: (row, i) => 'Goal ' + (i + 1),
    cells: (v) => [cell(textIn('territory', 'territory', v.territory, { list: 'turn-territory-ids' })),
      cell(textIn('owner', 'owner', v.owner, { list: 'turn-player-ids' }))],
  });

  // Suggestions for the id fields: the board's territories and every player named so far.
  function updateTurnLists() {
    const ids = [], players = [];
    for (const row of turnBoard.rows()) {
      const id = $('[data-key=id]', row).value.trim(), owner = $('[data-key=owner]', row).value.trim();
      if (id && !ids.includes(id)) ids.push(id);
      if (owner && !players.includes(owner)) players.push(owner);
    }
    for (const row of turnOrders ? turnOrders.rows() : []) {
      const pl = $('[data-key=player]', row).value.trim();
      if (pl && !players.includes(pl)) players.push(pl);
    }
    if (!players.includes('neutral')) players.push('neutral');
    document.getElementById('turn-territory-ids').replaceChildren(...ids.map((v) => h('option', { value: v })));
    document.getElementById('turn-player-ids').replaceChildren(...players.map((v) => h('option', { value: v })));
  }

  // What the page checks itself: a territory id is an object member, so an empty or repeated one
  // cannot be sent as typed.
  function validateTurn() {
    const bad = [], seen = new Set();
    for (const row of turnBoard.rows()) {
      const input = $('[data-key=id]', row), id = input.value.trim();
      if (!id) bad.push([input, 'Enter a territory id.']);
      else if (seen.has(id)) bad.push([input, 'This id is already on the board; each territory once.']);
      seen.add(id);
    }
    return bad;
  }
  function turnBody(body, simulate) {
    if (!body.orders) body.orders = [];
    if (!simulate) { delete body.trials; delete body.seed; }
    delete body.player; delete body.income; delete body.objective;
    return body;
  }

  /* /plan-turn's body from the turn form (W31): every territory with its neighbors (the map),
   * the other players' orders, and the goals owned by the player as captures (or holds of the
   * player's own territories). */
  let planRows = { orders: [], capture: [], hold: [] };
  function planBody(body) {
    delete body.trials; delete body.seed;
    const me = body.player;
    // On a map a territory without listed neighbors borders those that list it (W24).
    for (const t of Object.values(body.territories || {})) if (!t.neighbors) t.neighbors = [];
    planRows = { orders: [], capture: [], hold: [] };
    body.orders = (body.orders || []).filter((o, i) => o.player !== me && planRows.orders.push(i));
    const capture = [], hold = [];
    (body.goals || []).forEach((g, i) => {
      if (g.owner !== me) return;
      const t = (body.territories || {})[g.territory];
      const own = !!t && t.owner === me;
      (own ? hold : capture).push(g.territory);
      planRows[own ? 'hold' : 'capture'].push(i);
    });
    delete body.goals;
    // W32: income counts bonuses, not territories; the goal then stays out (every bonus).
    if (body.objective !== 'income') body.goal = { capture, hold };
    return body;
  }
  /* A pointer into the plan's request as a pointer to the form's row it came from: the plan
   * sends the other players' orders only, and its goal from rows of the goals table. */
  function planPointer(pointer) {
    return pointer
      .replace(/^\/orders\/(\d+)/, (m, i) => '/orders/' + (planRows.orders[+i] ?? i))
      .replace(/^\/goal\/(capture|hold)\/(\d+)/, (m, kind, i) => planRows[kind][+i] !== undefined ? `/goals/${planRows[kind][+i]}/territory` : '/goals');
  }
  /* Planning needs the map (W31 searches across borders): a board where no territory lists
   * its neighbors is caught on the page, beside the first Neighbors cell. */
  function validatePlan(form) {
    const bad = validateTurn(form);
    const cells = $$('#turn-board [data-key=neighbors]', form);
    if (cells.length && cells.every((c) => c.value.trim() === '')) {
      bad.push([cells[0], 'Planning needs the map: list the territories each one borders, separated by commas.']);
    }
    return bad;
  }


  /* The plan: its value, whether it is proven the best, its orders (also put into the orders
   * table, before the other players'), and its turn's analysis as Analyze turn draws it. */
  function renderPlan(res, req, text, out) {
    out.dataset.answer = 'plan';
    const all = res.objective === 'all';
    out.append(h('div', { class: 'headline' },
      h('div', null, h('div', { class: 'big', id: 'turn-plan-value', 'data-value': res.value }, all ? fmtPct(res.value) : fmtNum(res.value, 6)),
        h('div', { class: 'big-label' }, all ? 'chance that every goal holds with this plan' : 'goal territories owned, expected')),
      h('div', { class: 'big-label', id: 'turn-plan-optimal', 'data-value': String(!!res.optimal) },
        (res.optimal ? 'Proven the best plan' : 'The best plan found (not proven)') + ': ' + fmtNum(res.plans_evaluated) + ' plans analysed, ' +
        fmtNum(res.plans_bounded) + ' ruled out by bounds')));
    const orders = Array.isArray(res.orders) ? res.orders.filter(isObj) : [];
    out.append(box('The plan', h('div', { class: 'scroll' }, h('table', { id: 'turn-plan-orders' },
      h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'num' }, '#'), h('th', { scope: 'col' }, 'Order'), h('th', { scope: 'col', class: 'num' }, 'Armies'))),
      h('tbody', null, orders.map((o, i) => h('tr', null, h('td', { class: 'num' }, i + 1),
        h('td', null, o.type === 'deploy' ? 'deploy on ' + o.to : o.from + ' → ' + o.to), h('td', { class: 'num' }, fmtNum(o.armies)))))))));
    $('#turn-orders tbody').replaceChildren();
    for (const o of orders.concat(req.orders || [])) turnOrders.addRow(o);
    updateTurnLists();
    if (isObj(res.analysis)) {
      const goals = all ? req.goal.capture.concat(req.goal.hold).map((t) => ({ territory: t, owner: req.player })) : [];
      const sub = h('div', { id: 'turn-plan-analysis' });
      renderTurn(res.analysis, { territories: req.territories, orders: orders.concat(req.orders || []), goals }, text, sub);
      out.append(sub);
    }
  }

  function setTurn(ex) {
    for (const tb of ['#turn-board', '#turn-orders', '#turn-goals']) $(tb + ' tbody').replaceChildren();
    for (const [id, t] of Object.entries(ex.territories)) turnBoard.addRow({ id, owner: t.owner, armies: t.armies, neighbors: t.neighbors });
    for (const o of ex.orders) turnOrders.addRow(o);
    for (const g of ex.goals || []) turnGoals.addRow(g);
    const st = ex.settings || {};
    document.getElementById('turn-luck').value = fracToPct(st.luck_modifier || 0);
    document.getElementById('turn-multi').checked = !!st.multi_attack;
    document.getElementById('turn-move-order').value = ex.move_order || 'listed';
    document.getElementById('turn-player-order').value = (ex.player_order || []).join(', ');
    document.getElementById('turn-teams').value = Object.entries(ex.teams || {}).map(([k, v]) => k + '=' + v).join(', ');
    document.getElementById('turn-diplomacy').value = (ex.diplomacy || []).map(([a, b]) => a + '=' + b).join(', ');
    document.getElementById('turn-blockade-multiplier').value = st.blockade_multiplier !== undefined ? String(st.blockade_multiplier) : '';
    document.getElementById('turn-emergency-multiplier').value = st.emergency_blockade_multiplier !== undefined ? String(st.emergency_blockade_multiplier) : '';
    updateTurnLists();
  }

  /* Players in the order the answer names them get the palette's colours; neutral is grey. */
  function playerColours(territories) {
    const colours = new Map();
    let n = 0;
    for (const t of Object.values(territories)) {
      for (const o of Object.keys(isObj(t) && isObj(t.owner) ? t.owner : {})) {
        if (!colours.has(o)) colours.set(o, o === 'neutral' || o === 'Neutral' ? 'var(--pn)' : `var(--p${n++ % 6})`);
      }
    }
    return colours;
  }
  /* Horizontal bars of each owner's share; the percentage is text beside the bar, the bar itself
   * is decoration. entries: [owner, fraction, label, extra attributes]. */
  function ownerBars(tid, entries, colours) {
    return h('div', { class: 'ownerbars', role: 'list', 'aria-label': 'Owner of ' + tid + ' after the turn' },
      entries.map(([o, frac, label, attrs]) => h('div', Object.assign({ class: 'ownerbar', role: 'listitem', 'data-owner': o,
        style: `--pc:${colours.get(o) || 'var(--bar)'}` }, attrs || {}),
      h('span', { class: 'name', title: o }, h('span', { class: 'swatch', 'aria-hidden': 'true' }), o),
      h('div', { class: 'track', 'aria-hidden': 'true' }, h('div', { class: 'fill', style: `width:${isNum(frac) ? (Math.min(1, Math.max(0, frac)) * 100).toFixed(2) : 0}%` })),
      h('span', { class: 'pct' }, label))));
  }
  // Territories in the order of the board table (a JavaScript object puts numeric keys first).
  function turnIds(res) {
    const ids = turnBoard.rows().map((r) => $('[data-key=id]', r).value.trim()).filter((id) => isObj(res.territories[id]));
    for (const id of Object.keys(res.territories)) if (!ids.includes(id)) ids.push(id);
    return ids;
  }
  function describeOrder(o) {
    if (!isObj(o)) return '—';
    const amount = o.percent !== undefined ? fracToPct(o.percent) + ' % of the movable armies' : fmtNum(o.armies) + ' armies';
    if (o.type === 'deploy') return `${o.player} deploys ${fmtNum(o.armies)} on ${o.to}`;
    if (o.type === 'bomb') return `${o.player} bombs ${o.target}`;
    if (o.type === 'blockade' || o.type === 'emergency_blockade') return `${o.player}: ${o.type === 'blockade' ? 'blockade' : 'emergency blockade'} on ${o.target}`;
    if (o.type === 'gift') return `${o.player} gifts ${o.target} to ${o.to_player}`;
    if (o.type === 'order_priority' || o.type === 'order_delay') return `${o.player}: ${o.type === 'order_priority' ? 'order priority' : 'order delay'}`;
    return `${o.player}: ${o.type === 'airlift' ? 'airlift ' : ''}${o.from} → ${o.to}, ${amount}`;
  }
  function turnChips(res) {
    const chips = settingChips(res.settings) || h('div', { class: 'chips' });
    if (isObj(res.settings) && typeof res.settings.multi_attack === 'boolean') {
      chips.append(h('span', { class: 'chip' }, res.settings.multi_attack ? 'multi-attack' : 'an army moves once (W15)'));
    }
    if (res.move_order) chips.append(h('span', { class: 'chip' }, 'move order: ' + res.move_order));
    return chips;
  }
  function goalsText(req) {
    return Array.isArray(req.goals) && req.goals.length
      ? req.goals.filter(isObj).map((g) => g.territory + ' owned by ' + g.owner).join(', ') : '';
  }
  function armiesTable(title, items, head) {
    return h('details', null, h('summary', null, title),
      h('table', null, h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'num' }, 'Armies'), h('th', { scope: 'col', class: 'num' }, head))),
        h('tbody', null, items.map(([a, v]) => h('tr', null, h('td', { class: 'num' }, fmtNum(a)), h('td', { class: 'num' }, v))))));
  }

  /* The board of a turn as a map: each territory a circle in the colour of its likeliest owner
   * after the turn (with that chance and the mean armies beside it, and its name when the map
   * gives one), each border a line (W24), and each attack/transfer or airlift an arrow from its
   * source to its target labelled with its chance of capture (or "transfer"). Territories sit
   * on a circle, in the request's order. */
  let mapSeq = 0;
  // Labels' boxes are estimated at the phone's font (CSS: 20 units in the drawing, about 0.62 em
  // a bold character), the largest they are drawn at, so that a move's label is placed clear of
  // the territories, their labels and the other moves' labels before anything is on the screen.
  const MAP_FS = 20;
  const overlapsAny = (b, boxes) => boxes.some((o) => b.l < o.r && o.l < b.r && b.t < o.b && o.t < b.b);
  function nodeLabels(res, id, names) {
    const t = res.territories[id];
    const owners = Object.entries(isObj(t) && isObj(t.owner) ? t.owner : {}).sort((x, y) => y[1] - x[1]);
    const [owner, chance] = owners[0] || ['?', 0];
    const mean = isObj(t) && isObj(t.armies) ? t.armies.mean : undefined;
    const name = names.get(id) ? String(names.get(id)) : '';
    // The name nearest the circle, then the owner, then the armies.
    const lines = [name ? [name, 'sub name'] : null, [chance >= 1 ? owner : `${owner} ${fmtPct(chance)}`, 'sub'],
      [isNum(mean) ? fmtNum(mean, 3) + (mean === 1 ? ' army' : ' armies') : '', 'sub']].filter(Boolean);
    return { owners, owner, mean, name, lines };
  }
  // The boxes a territory takes: its circle, and its lines of labels above it (on the top half
  // of the map) or below it, 1.25 em apart.
  function nodeBoxes(p, r, below, lines) {
    const w = Math.max(...lines.map(([t]) => t.length)) * 0.62 * MAP_FS, h = lines.length * 1.25 * MAP_FS + 6;
    return [{ l: p.x - r, r: p.x + r, t: p.y - r, b: p.y + r },
      { l: p.x - w / 2, r: p.x + w / 2, t: below ? p.y + r : p.y - r - h, b: below ? p.y + r + h : p.y - r }];
  }
  function drawNode(g, res, id, p, r, below, colours, names) {
    const { owners, owner, mean, name, lines } = nodeLabels(res, id, names);
    const node = s('g', { class: 'node', 'data-territory': id, 'data-owner': owner });
    // In em, so that the lines stay apart at the phone's larger font (CSS).
    const label = (line, k) => s('text', { class: line[1], x: p.x, y: p.y, dy: below ? `${(k + 1) * 1.25}em` : `${-(lines.length - 1 - k) * 1.25 - 0.4}em`,
      transform: `translate(0 ${below ? r + 2 : -r - 2})`, 'text-anchor': 'middle' }, line[0]);
    add(node, [s('circle', { cx: p.x, cy: p.y, r, style: `fill: ${colours.get(owner) || 'var(--pn)'}` }),
      s('text', { class: 'id', x: p.x, y: p.y, dy: '0.35em', 'text-anchor': 'middle' }, id.length > 6 ? id.slice(0, 5) + '…' : id),
      lines.map(label),
      s('title', null, `${id}${name ? ' ' + name : ''}: ` + owners.map(([o, pr]) => `${o} ${fmtPct(pr)}`).join(', ') + (isNum(mean) ? `; ${fmtNum(mean, 6)} armies on average` : ''))]);
    add(g, node);
  }
  /* A move's curve and its label's place for a bend (signed, across the move's direction): the
   * label beside the curve's middle on its bulging side; beside a steep arrow it starts there,
   * else it is centred there, half a line further away. */
  function moveShape(a, b, r, bend, text) {
    const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1, ux = dx / len, uy = dy / len;
    const sx0 = a.x + ux * (r + 3), sy0 = a.y + uy * (r + 3), ex = b.x - ux * (r + 5), ey = b.y - uy * (r + 5);
    const mx = (sx0 + ex) / 2 - uy * bend, my = (sy0 + ey) / 2 + ux * bend;
    const out = Math.sign(bend), px = -uy * out, py = ux * out, off = Math.abs(bend) / 2 + 8;
    const lx = (sx0 + ex) / 2 + px * off, ly = (sy0 + ey) / 2 + py * off, side = Math.abs(px) > 0.8;
    const w = text.length * 0.62 * MAP_FS, h = 1.2 * MAP_FS, ty = ly + (side ? 0 : py * 0.6 * MAP_FS);
    const l = !side ? lx - w / 2 : px > 0 ? lx : lx - w;
    return { d: `M${sx0.toFixed(1)} ${sy0.toFixed(1)} Q${mx.toFixed(1)} ${my.toFixed(1)} ${ex.toFixed(1)} ${ey.toFixed(1)}`,
      text: { x: lx, y: ly, dy: `${(0.35 + (side ? 0 : py * 0.6)).toFixed(2)}em`, 'text-anchor': !side ? 'middle' : px > 0 ? 'start' : 'end' },
      box: { l, r: l + w, t: ty - h / 2, b: ty + h / 2 } };
  }
  /* Where a move goes: toward the map's centre (where no territory's labels are) or outward,
   * the side of its two territories with fewer moves first (A -> B and B -> A apart), a wider
   * bend for each move already there; the first place whose label box is inside the drawing
   * and clear of every box placed so far. */
  function placeMove(a, b, r, text, used, boxes, W, H) {
    const cx = W / 2, cy = H / 2, len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const inward = Math.sign(-(b.y - a.y) / len * (cx - (a.x + b.x) / 2) + (b.x - a.x) / len * (cy - (a.y + b.y) / 2)) || 1;
    const sides = used[1] <= used[-1] ? [1, -1] : [-1, 1];
    const shape = (side, extra) => Object.assign(moveShape(a, b, r, side * inward * (24 + 26 * (used[side] + extra)), text), { side });
    for (let extra = 0; text && extra < 3; extra++) {
      for (const side of sides) {
        const m = shape(side, extra), x = m.box;
        if (x.l >= 0 && x.r <= W && x.t >= 0 && x.b <= H && !overlapsAny(x, boxes)) return m;
      }
    }
    return shape(sides[0], 0);
  }
  function turnMap(res, req, colours, order) {
    const ids = order || turnIds(res);
    if (ids.length < 2 || ids.length > 60) return null;
    // A small board gets a smaller drawing, so that on a phone its labels stay readable; the
    // territories' names (the game's map) are a third line of labels, given room above and below.
    const names = req.names instanceof Map ? req.names : new Map();
    const named = ids.some((id) => names.get(id));
    const small = ids.length <= 8;
    const W = small ? 500 : 640, H = (ids.length > 12 ? 560 : small ? 410 : 440) + (named ? 60 : 0), cx = W / 2, cy = H / 2;
    const R = Math.min(W, H) / 2 - (named ? 105 : 85), r = ids.length > 24 ? 14 : 24;
    const pos = new Map(ids.map((id, i) => {
      const a = -Math.PI / 2 + 2 * Math.PI * i / ids.length;
      return [id, { x: cx + R * Math.cos(a), y: cy + R * Math.sin(a) }];
    }));
    const marker = 'arrow-' + (++mapSeq);
    const g = s('svg', { class: 'turnmap', viewBox: `0 0 ${W} ${H}`, style: `max-width: ${Math.round(W * 1.1)}px`, role: 'img', 'aria-label':
      'The board as a map: territories coloured by their likeliest owner after the turn, borders as lines, moves as arrows with their chance of capture.' });
    add(g, s('defs', null, s('marker', { id: marker, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
      s('path', { class: 'arrowhead', d: 'M0 0 L10 5 L0 10 Z' }))));
    const reqT = isObj(req.territories) ? req.territories : {};
    const seen = new Set();
    for (const id of ids) {
      for (const n of Array.isArray(reqT[id] && reqT[id].neighbors) ? reqT[id].neighbors : []) {
        const key = [id, n].sort().join('\u0000');
        if (!pos.has(n) || seen.has(key)) continue;
        seen.add(key);
        const a = pos.get(id), b = pos.get(n);
        add(g, s('line', { class: 'border', x1: a.x, y1: a.y, x2: b.x, y2: b.y, 'data-border': [id, n].sort().join('-') }));
      }
    }
    const below = (id) => pos.get(id).y > cy + 1;
    const boxes = ids.flatMap((id) => nodeBoxes(pos.get(id), r, below(id), nodeLabels(res, id, names).lines));
    const orders = Array.isArray(req.orders) ? req.orders : [];
    const resOrders = Array.isArray(res.orders) ? res.orders : [];
    const pairs = new Map();
    orders.forEach((o, i) => {
      if (!isObj(o) || !pos.has(o.from) || !pos.has(o.to) || o.from === o.to) return;
      if (o.type && o.type !== 'attack_transfer' && o.type !== 'airlift') return;
      const ro = isObj(resOrders[i]) ? resOrders[i] : {};
      const label = isNum(ro.capture_probability) && (ro.attack_probability || 0) > 0 ? 'capture ' + fmtPct(ro.capture_probability)
        : (ro.transfer_probability || 0) > 0 ? 'transfer' : isNum(ro.skipped_probability) && ro.skipped_probability >= 1 ? 'skipped' : '';
      // Moves between the same two territories bend apart, so that every label shows.
      const k = [o.from, o.to].sort().join('\u0000'), used = pairs.get(k) || { 1: 0, '-1': 0 };
      const m = placeMove(pos.get(o.from), pos.get(o.to), r, label, used, boxes, W, H);
      used[m.side]++;
      pairs.set(k, used);
      const arrow = s('g', { class: 'move-arrow', 'data-order': i, 'data-from': o.from, 'data-to': o.to,
                             'data-capture': isNum(ro.capture_probability) ? ro.capture_probability : '' });
      add(arrow, [s('path', { class: 'move', d: m.d, 'marker-end': `url(#${marker})` }), s('title', null, describeOrder(o) + (label ? ': ' + label : ''))]);
      if (label) {
        boxes.push(m.box);
        add(arrow, s('text', Object.assign({ class: 'move-label' }, m.text), label));
      }
      add(g, arrow);
    });
    for (const id of ids) drawNode(g, res, id, pos.get(id), r, below(id), colours, names);
    return g;
  }

  function renderTurn(res, req, text, out) {
    out.dataset.answer = 'analysis';
    const head = [];
    if (isNum(res.goals_probability)) {
      head.push(h('div', null, h('div', { class: 'big', id: 'turn-goals-probability', 'data-value': res.goals_probability }, fmtPct(res.goals_probability)),
        h('div', { class: 'big-label' }, 'chance that all goals hold: ' + goalsText(req))));
    }
    head.push(h('div', { class: 'big-label', id: 'turn-deterministic', 'data-value': String(res.deterministic) },
      res.deterministic === true ? 'Deterministic: the turn has one outcome.' : res.deterministic === false ? 'Not deterministic: the turn has several outcomes.' : ''));
    out.append(h('div', { class: 'headline' }, head));
    const chips = turnChips(res);
    if (res.deterministic === true) chips.append(h('span', { class: 'chip strong' }, 'no randomness: one outcome'));
    out.append(chips);
    if (isObj(res.territories)) {
      const colours = playerColours(res.territories);
      const map = turnMap(res, req, colours, req.ids);
      if (map) out.append(box('The board after the turn', map, h('p', { class: 'hint' },
        'Each territory in the colour of its likeliest owner after the turn, with that chance and its mean armies; lines are borders, arrows the attacks and transfers with their chance of capture.')));
      out.append(h('div', { class: 'territories', id: 'turn-territories' }, (req.ids || turnIds(res)).map((id) => {
        const t = res.territories[id], owners = isObj(t.owner) ? t.owner : {}, a = isObj(t.armies) ? t.armies : {};
        const dist = Array.isArray(a.distribution) ? a.distribution.filter(isObj) : [];
        const pc = isObj(a.percentiles) ? a.percentiles : {};
        return h('div', { class: 'box territory', 'data-territory': id }, h('h3', null, id),
          ownerBars(id, Object.entries(owners).map(([o, pr]) => [o, pr, fmtPct(pr), { 'data-probability': pr }]), colours),
          kv([['Armies, mean', a.mean, { class: 'armies-mean', 'data-value': a.mean }],
              ['Median (5–95 %)', isNum(pc.p50) ? fmtNum(pc.p50) + ' (' + fmtNum(pc.p5) + '–' + fmtNum(pc.p95) + ')' : undefined]]),
          dist.length > 1 ? armiesTable('Armies after the turn', dist.map((d) => [d.armies, fmtPct(d.probability)]), 'Probability') : null);
      })));
    }
    if (Array.isArray(res.orders)) {
      const reqOrders = Array.isArray(req.orders) ? req.orders : [];
      const cols = [['skipped_probability', 'Skipped'], ['attack_probability', 'Attack'], ['transfer_probability', 'Transfer'], ['capture_probability', 'Capture']];
      out.append(box('Orders', h('div', { class: 'scroll' }, h('table', { id: 'turn-order-results' },
        h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'num' }, '#'), h('th', { scope: 'col' }, 'Order'), cols.map(([, t]) => h('th', { scope: 'col', class: 'num' }, t)))),
        h('tbody', null, res.orders.map((o, i) => h('tr', { 'data-order': i },
          h('td', { class: 'num' }, i + 1), h('td', null, describeOrder(reqOrders[i])),
          isObj(o) && o.type === 'deploy' ? h('td', { colspan: cols.length, class: 'hint' }, 'deploy: runs first, no chances (W12)')
            : isObj(o) && (o.type === 'order_priority' || o.type === 'order_delay') ? h('td', { colspan: cols.length, class: 'hint' }, 'reorders the attacks/transfers (W30)')
            : cols.map(([k]) => h('td', { class: 'num', 'data-key': k, 'data-value': isObj(o) && isNum(o[k]) ? o[k] : '' }, fmtPct(isObj(o) ? o[k] : undefined))))))))));
    }
  }

  function turnSummary(t) {
    if (!isObj(t)) return '—';
    const parts = [];
    if (isObj(t.territories)) parts.push(Object.entries(t.territories).map(([id, x]) => `${id}: ${x.owner} ${x.armies}`).join(' · '));
    if (Array.isArray(t.orders)) {
      parts.push(t.orders.map((o, i) => {
        if (!isObj(o)) return '';
        const r = o.result === 'attack' ? `attack ${o.sent} vs ${o.defenders}, ${o.captured ? 'captured' : 'held'}`
          : o.result === 'transfer' ? `transfer ${o.sent}` : o.result === 'deploy' ? `deploy ${o.armies}` : String(o.result);
        return (i + 1) + ' ' + r;
      }).join('; '));
    }
    return parts;
  }

  function renderTurnSim(res, req, text, out) {
    out.dataset.answer = 'simulation';
    const trials = res.trials;
    const seed = rawTopLevel(text, 'seed') || (res.seed !== undefined ? String(res.seed) : null);
    const head = [h('div', { class: 'big-label' }, fmtNum(trials) + ' turns resolved' + (trials === 1 ? ' (one real turn)' : ''))];
    if (isNum(res.goals_met)) {
      head.unshift(h('div', null, h('div', { class: 'big', id: 'turn-sim-goals' }, fmtPct(isNum(trials) && trials > 0 ? res.goals_met / trials : undefined)),
        h('div', { class: 'big-label' }, fmtNum(res.goals_met) + ' turns met all goals: ' + goalsText(req))));
    }
    out.append(h('div', { class: 'headline' }, head));
    if (seed !== null) {
      out.append(h('div', { class: 'actions' }, h('span', null, 'Seed ', h('code', { id: 'turn-seed-used' }, seed)),
        h('button', { type: 'button', class: 'small', id: 'turn-replay', onclick: () => {
          document.getElementById('turn-seed').value = seed; simulateTurn(); } }, 'Replay this run')));
    }
    out.append(turnChips(res));
    if (isObj(res.territories)) {
      const colours = playerColours(res.territories);
      out.append(h('div', { class: 'territories', id: 'turn-territories' }, turnIds(res).map((id) => {
        const t = res.territories[id], owners = isObj(t.owner) ? t.owner : {}, a = isObj(t.armies) ? t.armies : {};
        const hist = Array.isArray(a.histogram) ? a.histogram.filter(isObj) : [];
        return h('div', { class: 'box territory', 'data-territory': id }, h('h3', null, id),
          ownerBars(id, Object.entries(owners).map(([o, c]) => [o, isNum(trials) && trials > 0 ? c / trials : undefined,
            fmtPct(isNum(trials) && trials > 0 ? c / trials : undefined), { 'data-count': c, title: fmtNum(c) + ' of ' + fmtNum(trials) + ' turns' }]), colours),
          kv([['Armies, mean', a.mean, { class: 'armies-mean', 'data-value': a.mean }]]),
          hist.length > 1 ? armiesTable('Armies after the turn', hist.map((d) => [d.armies, fmtNum(d.count)]), 'Turns') : null);
      })));
    }
    if (Array.isArray(res.orders)) {
      const reqOrders = Array.isArray(req.orders) ? req.orders : [];
      const cols = [['skipped', 'Skipped'], ['attacks', 'Attacks'], ['transfers', 'Transfers'], ['captures', 'Captures']];
      out.append(box('Orders (turns)', h('div', { class: 'scroll' }, h('table', { id: 'turn-order-results' },
        h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'num' }, '#'), h('th', { scope: 'col' }, 'Order'), cols.map(([, t]) => h('th', { scope: 'col', class: 'num' }, t)))),
        h('tbody', null, res.orders.map((o, i) => h('tr', { 'data-order': i },
          h('td', { class: 'num' }, i + 1), h('td', null, describeOrder(reqOrders[i])),
          isObj(o) && o.type === 'deploy' ? h('td', { colspan: cols.length, class: 'hint' }, 'deploy')
            : isObj(o) && (o.type === 'order_priority' || o.type === 'order_delay') ? h('td', { colspan: cols.length, class: 'hint' }, 'reorders (W30)')
            : cols.map(([k]) => h('td', { class: 'num', 'data-key': k, 'data-value': isObj(o) && isNum(o[k]) ? o[k] : '' }, fmtNum(isObj(o) ? o[k] : undefined))))))))));
    }
    if (Array.isArray(res.turns) && res.turns.length) {
      out.append(h('details', { id: 'turn-list', open: res.turns.length <= 3 }, h('summary', null, 'Each turn: the final board and what each order did'),
        h('div', { class: 'scroll' }, h('table', null,
          h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'num' }, 'Turn'), h('th', { scope: 'col' }, 'Board after the turn'), h('th', { scope: 'col' }, 'Orders'))),
          h('tbody', null, res.turns.map((t, i) => { const [b, o] = turnSummary(t); return h('tr', null, h('td', { class: 'num' }, i + 1), h('td', null, b || ''), h('td', null, o || '')); }))))));
    }
  }

  function simulateTurn() {
    const p = panels.turn;
    run(Object.assign({}, p, { path: 'simulate-turn', prepare: (b) => turnBody(b, true), render: renderTurnSim }));
  }

  function planTurn() {
    run(Object.assign({}, panels.turn, { path: 'plan-turn', validate: validatePlan, prepare: planBody, render: renderPlan, mapPointer: planPointer }));
  }

  /* ---------- A game's turn in the game's own JSON: /warzone/analyze-turn, /warzone/plan-turn ---------- */

  // A small game, as the bot API writes it (numbers partly as strings, as the game sends them):
  // five territories in a ring, two bonuses; 100 goes for the neutral Ford (3) to complete
  // North, 200 deploys and strikes at it from Marsh (5), and probes Harbor (1).
  const WZ_EXAMPLE = `{
  "settings": {"OffensiveKillRate": 60, "DefensiveKillRate": 70, "LuckModifier": 0.16,
               "RoundingMode": "StraightRound", "OneArmyStandsGuard": true,
               "MoveOrder": "Random", "MinimumArmyBonus": 5},
  "map": {
    "territories": [
      {"id": 1, "name": "Harbor", "connectedTo": [2, 4]},
      {"id": 2, "name": "Mill", "connectedTo": [3]},
      {"id": 3, "name": "Ford", "connectedTo": [5]},
      {"id": 4, "name": "Keep", "connectedTo": [5]},
      {"id": 5, "name": "Marsh", "connectedTo": []}],
    "bonuses": [
      {"id": 1, "name": "North", "value": 3, "territoryIDs": [1, 2, 3]},
      {"id": 2, "name": "South", "value": 2, "territoryIDs": [4, 5]}]},
  "standing": [
    {"terrID": 1, "ownedBy": "100", "armies": "9"},
    {"terrID": 2, "ownedBy": "100", "armies": "4"},
    {"terrID": 3, "ownedBy": "Neutral", "armies": "2"},
    {"terrID": 4, "ownedBy": "200", "armies": "6"},
    {"terrID": 5, "ownedBy": "200", "armies": "3"}],
  "players": [{"id": "100", "state": "Playing", "isAI": "False"},
              {"id": "200", "state": "Playing", "isAI": "True"}],
  "game": {"id": "1234567", "numberOfTurns": "3", "state": "Playing"},
  "orders": [
    {"type": "GameOrderDeploy", "playerID": "100", "deployOn": 2, "armies": "5"},
    {"type": "GameOrderAttackTransfer", "playerID": "100", "from": 2, "to": 3,
     "numArmies": "8", "attackTransfer": "AttackTransfer", "byPercent": "False"},
    {"type": "GameOrderDeploy", "playerID": "200", "deployOn": 5, "armies": "7"},
    {"type": "GameOrderAttackTransfer", "playerID": "200", "from": 5, "to": 3,
     "numArmies": "9", "attackTransfer": "AttackTransfer", "byPercent": "False"},
    {"type": "GameOrderAttackTransfer", "playerID": "200", "from": 4, "to": 1,
     "numArmies": "5", "attackTransfer": "Attack", "byPercent": "False"}]
}`;
  const wzText = () => document.getElementById('wz-json');
  let wzDoc = null;      // the pasted document, as last read
  let wzPlanRows = [];   // the plan's request's orders: their index in the paste

  /* The paste is read on the page: text that is not a JSON object is marked beside it, with
   * the line and column where reading stopped, and nothing is sent. */
  function validateWarzone() {
    const area = wzText(), raw = area.value;
    wzDoc = null;
    const fog = readFogged();
    if (fog) return [fog];
    if (!raw.trim()) return [[area, 'Paste the game\'s JSON: {settings, map, game, gameInfo, orders} or {settings, map, standing, players, orders}.']];
    try {
      const doc = JSON.parse(raw);
      if (!isObj(doc)) return [[area, 'The game\'s JSON must be one object {settings, map, game, gameInfo, orders}, not ' + (Array.isArray(doc) ? 'a list.' : 'a single value.')]];
      wzDoc = doc;
      return [];
    } catch (err) {
      const m = /position (\d+)/.exec(err.message);
      let where = '';
      if (m) {
        const before = raw.slice(0, +m[1]).split('\n');
        where = ` at line ${before.length}, column ${before[before.length - 1].length + 1}`;
      }
      const why = err.message.replace(/^JSON\.parse: /, '').replace(/,? (in JSON )?at position \d+.*$/, '').replace(/ in JSON$/, '');
      return [[area, `This is not valid JSON${where}: ${why}.`]];
    }
  }
  /* The fogged field: terrID -> {ownedBy, armies}, what each Fogged territory holds (W41), sent
   * as `fogged` over the paste's own; a [field, message] pair when it is not a JSON object. */
  let wzFogged = null;
  function readFogged() {
    const area = document.getElementById('wz-fogged'), raw = area.value.trim();
    wzFogged = null;
    if (!raw) return null;
    let fog;
    try { fog = JSON.parse(raw); } catch (err) { return [area, 'Fogged territories are a JSON object, terrID → {ownedBy, armies}: ' + err.message.replace(/^JSON\.parse: /, '')]; }
    if (!isObj(fog)) return [area, 'Fogged territories are a JSON object, terrID → {ownedBy, armies}, e.g. {"3": {"ownedBy": "Neutral", "armies": 2}}.'];
    wzFogged = fog;
    return null;
  }
  const WZ_PLAN_MEMBERS = ['playerID', 'goal', 'objective', 'income', 'max_plans', 'gameID'];
  function warzoneAnalyzeBody() {
    const doc = Object.assign({}, wzDoc);
    for (const k of WZ_PLAN_MEMBERS) delete doc[k];
    if (wzFogged) doc.fogged = Object.assign({}, isObj(doc.fogged) ? doc.fogged : {}, wzFogged);
    return doc;
  }
  /* The plan's request: the paste without the player's own orders (the plan replaces them), and
   * the plan's fields; its pointers /orders/i are mapped back to the paste's orders. */
  function warzonePlanBody(body) {
    const doc = warzoneAnalyzeBody();
    const me = body.playerID;
    wzPlanRows = [];
    if (Array.isArray(doc.orders)) {
      doc.orders = doc.orders.filter((o, i) => !(isObj(o) && me !== undefined && String(o.playerID) === String(me)) && wzPlanRows.push(i));
    }
    const num = (x) => (/^\d{1,15}$/.test(x) ? Number(x) : x);
    if (me !== undefined) doc.playerID = me;
    const goal = {};
    for (const k of ['territories', 'bonuses']) if (isObj(body.goal) && Array.isArray(body.goal[k]) && body.goal[k].length) goal[k] = body.goal[k].map(num);
    if (Object.keys(goal).length) doc.goal = goal;
    if (body.objective) doc.objective = body.objective;
    if (body.income !== undefined) doc.income = body.income;
    // send_orders' game id, when the paste gives it beside GetBotGameInfo's answer
    if (isObj(wzDoc) && wzDoc.gameID !== undefined) doc.gameID = wzDoc.gameID;
    return doc;
  }
  function warzonePlanPointer(pointer) {
    return pointer.replace(/^\/orders\/(\d+)/, (m, i) => '/orders/' + (wzPlanRows[+i] ?? i));
  }
  const nth = (i) => { const n = i + 1, t = n % 100; return n + (t >= 11 && t <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] || 'th'); };
  /* A pointer into the pasted document in a person's words: which territory, order, bonus or
   * setting it is. */
  function warzoneWords(doc, pointer) {
    let parts = pointerParts(pointer);
    // The merged answers' gameInfo.latestStanding and game.players read as standing and players.
    const moved = { gameInfo: 'latestStanding', game: 'players' }[parts[0]];
    const inside = moved !== undefined && parts[1] === moved && parts.length > 2;
    const home = inside && isObj(doc) ? doc[parts[0]] : doc;
    if (inside) parts = [moved === 'latestStanding' ? 'standing' : 'players'].concat(parts.slice(2));
    const [top, idx] = parts, i = Number(idx);
    const key = (list) => (inside && list === 'standing' ? 'latestStanding' : list);
    const item = (list) => (isObj(home) && Array.isArray(home[key(list)]) && Number.isInteger(i) ? home[key(list)][i] : undefined);
    let what, rest = parts.slice(2);
    if (top === 'standing') {
      const e = item('standing');
      what = `the ${nth(i)} entry of ${inside ? 'gameInfo.latestStanding' : 'standing'}` + (isObj(e) && e.terrID !== undefined ? ` (territory ${e.terrID})` : '');
    } else if (top === 'orders') {
      const e = item('orders');
      what = `the ${nth(i)} order` + (isObj(e) && e.type ? ` (${e.type}${e.playerID !== undefined ? ' of player ' + e.playerID : ''})` : '');
    } else if (top === 'players') {
      const e = item('players');
      what = `the ${nth(i)} player` + (isObj(e) && e.id !== undefined ? ` (id ${e.id})` : '');
    } else if (top === 'map' && (parts[1] === 'territories' || parts[1] === 'bonuses') && parts.length > 2) {
      const list = isObj(doc) && isObj(doc.map) && Array.isArray(doc.map[parts[1]]) ? doc.map[parts[1]] : [];
      const j = Number(parts[2]), e = list[j];
      what = `the map's ${nth(j)} ${parts[1] === 'territories' ? 'territory' : 'bonus'}` + (isObj(e) && e.id !== undefined ? ` (id ${e.id}${e.name ? ', ' + e.name : ''})` : '');
      rest = parts.slice(3);
    } else if (top === 'settings' && parts.length > 1) {
      what = `the setting ${parts[1]}`;
      rest = parts.slice(2);
    } else if (top) {
      what = `the member ${parts.join('.')}`;
      rest = [];
    } else what = 'the document';
    if (Number.isNaN(i) && top !== 'map' && top !== 'settings') rest = parts.slice(1);
    return what + (rest.length ? ', its ' + rest.join('.') : '');
  }
  function warzoneExplain(e) {
    const detail = e.detail || e.message || 'invalid';
    const top = typeof e.pointer === 'string' ? pointerParts(e.pointer)[0] : '';
    // The plan's fields and the fogged field show their own errors, named from the field down.
    if (typeof e.pointer !== 'string' || WZ_PLAN_MEMBERS.includes(top) || top === 'fogged') return detail;
    return `${e.pointer || '(the whole document)'}: ${warzoneWords(wzDoc, e.pointer)} ${detail}`;
  }

  /* The game's orders in the turn panel's shape, for the map's arrows and the orders table. */
  function fromGameOrder(o) {
    if (!isObj(o)) return {};
    const id = (x) => (x === undefined || x === null ? undefined : String(x));
    const player = id(o.playerID), t = String(o.type || '');
    if (t === 'GameOrderDeploy') return { type: 'deploy', player, to: id(o.deployOn), armies: Number(o.armies) };
    if (t === 'GameOrderAttackTransfer') {
      const pct = o.byPercent === true || o.byPercent === 'True' || o.byPercent === 'true';
      return Object.assign({ type: 'attack_transfer', player, from: id(o.from), to: id(o.to) },
        pct ? { percent: Number(o.numArmies) / 100 } : { armies: Number(o.numArmies) });
    }
    if (t === 'GameOrderPlayCardAirlift') return { type: 'airlift', player, from: id(o.from), to: id(o.to), armies: Number(o.armiesToAirlift) };
    if (t === 'GameOrderPlayCardBomb') return { type: 'bomb', player, target: id(o.targetTerritoryID) };
    if (t === 'GameOrderPlayCardBlockade') return { type: 'blockade', player, target: id(o.targetTerritoryID) };
    if (t === 'GameOrderPlayCardGift') return { type: 'gift', player, target: id(o.territoryID), to_player: id(o.giftTo) };
    return { type: t.replace(/^GameOrder(PlayCard)?/, '').toLowerCase() || 'order', player, game: t };
  }
  function describeGameOrder(o) {
    const c = fromGameOrder(o);
    if (!c.type || !c.game) return describeOrder(c);
    return `${c.player}: ${c.game}`;
  }

  /* The map's territory names by id (the game's map.territories[].name), and an id with its
   * name beside it, for the map's labels and the tables. */
  function wzNames(doc) {
    const terrs = isObj(doc) && isObj(doc.map) && Array.isArray(doc.map.territories) ? doc.map.territories.filter(isObj) : [];
    return new Map(terrs.filter((t) => typeof t.name === 'string' && t.name).map((t) => [String(t.id), t.name]));
  }
  // On a phone GameOrderAttackTransfer may break after GameOrder, and an order between two
  // territories after its arrow; an id and its name stay together.
  const typeWrap = (t) => String(t).split(/(?<=^GameOrder)/).flatMap((x, i) => (i ? [h('wbr'), x] : [x]));
  function wzTerr(names, id) {
    const name = names.get(String(id));
    return h('span', { class: 'nowrap' }, String(id), name ? h('span', { class: 'terr-name' }, ' ' + name) : null);
  }

  /* The analysis as the turn panel draws it (map, owner bars, orders), with the map's order of
   * territories and their names, then the bonuses, the incomes and the warnings. */
  function renderWarzone(res, doc, text, out, prefix) {
    prefix = prefix || 'wz';
    out.dataset.answer = 'analysis';
    const terrs = isObj(doc.map) && Array.isArray(doc.map.territories) ? doc.map.territories.filter(isObj) : [];
    const names = wzNames(doc);
    const listed = terrs.map((t) => String(t.id)).filter((id) => isObj(res.territories) && isObj(res.territories[id]));
    for (const id of Object.keys(isObj(res.territories) ? res.territories : {})) if (!listed.includes(id)) listed.push(id);
    const territories = Object.fromEntries(terrs.map((t) => [String(t.id), { neighbors: (Array.isArray(t.connectedTo) ? t.connectedTo : []).map(String) }]));
    // The map draws territories on a circle: walking from border to border (a border listed on
    // one side counts both ways) puts neighbours side by side, so fewer borders cross.
    const nb = new Map(listed.map((id) => [id, new Set()]));
    for (const [id, t] of Object.entries(territories)) for (const n of t.neighbors) if (nb.has(id) && nb.has(n)) { nb.get(id).add(n); nb.get(n).add(id); }
    const ids = [];
    for (let cur = listed[0]; cur !== undefined;) {
      ids.push(cur);
      cur = listed.find((n) => nb.get(cur).has(n) && !ids.includes(n)) ?? listed.find((n) => !ids.includes(n));
    }
    const orders = (Array.isArray(doc.orders) ? doc.orders : []).map(fromGameOrder);
    const warnings = Array.isArray(res.warnings) ? res.warnings : [];
    if (warnings.length) {
      out.append(box('Warnings: settings combatd does not model', h('ul', { class: 'warnings', id: prefix + '-warnings' },
        warnings.map((w) => h('li', null, isObj(w) ? [w.member || w.pointer || '', (w.member || w.pointer) ? ': ' : '', w.detail || w.message || JSON.stringify(w)] : String(w))))));
    }
    const sub = h('div', { class: 'results' });
    renderTurn(res, { territories, orders, ids, names }, text, sub);
    // The turn panel's ids, made this panel's own.
    for (const n of $$('[id^="turn-"]', sub)) n.id = prefix + n.id.slice(4);
    for (const n of $$('.territory[data-territory] > h3', sub)) {
      const name = names.get(n.parentElement.dataset.territory);
      if (name) n.append(h('span', { class: 'hint' }, ' ' + name));
    }
    for (const n of $$('td:nth-child(2)', $('#' + prefix + '-order-results', sub) || sub)) {
      const o = Array.isArray(doc.orders) ? doc.orders[Number(n.parentElement.dataset.order)] : undefined;
      if (!isObj(o)) continue;
      // Each territory with its name beside its id, as on the map.
      const c = fromGameOrder(o), named = (id) => (id !== undefined && names.get(id) ? `${id} ${names.get(id)}` : id);
      n.textContent = c.game ? describeGameOrder(o) : describeOrder(Object.assign({}, c, { from: named(c.from), to: named(c.to), target: named(c.target) }));
    }
    const colours = playerColours(isObj(res.territories) ? res.territories : {});
    const bonuses = isObj(res.bonuses) ? res.bonuses : {};
    const bonusNames = new Map((isObj(doc.map) && Array.isArray(doc.map.bonuses) ? doc.map.bonuses.filter(isObj) : []).map((b) => [String(b.id), b.name]));
    const bonusBox = Object.keys(bonuses).length ? box('Bonuses: who owns each whole after the turn', h('div', { class: 'territories', id: prefix + '-bonuses' },
      Object.entries(bonuses).map(([bid, b]) => {
        const owners = Object.entries(isObj(b) && isObj(b.owner) ? b.owner : {}).sort((x, y) => y[1] - x[1]);
        const none = 1 - owners.reduce((a, [, p]) => a + (isNum(p) ? p : 0), 0);
        if (none > 1e-12) owners.push(['no one', none]);
        colours.set('no one', 'var(--muted)');
        return h('div', { class: 'box bonus', 'data-bonus': bid }, h('h3', null, 'Bonus ' + bid, bonusNames.get(bid) ? h('span', { class: 'hint' }, ' ' + bonusNames.get(bid)) : null,
          h('span', { class: 'hint' }, ', worth ' + fmtNum(isObj(b) ? b.value : undefined))),
        ownerBars('bonus ' + bid, owners.map(([o, p]) => [o, p, fmtPct(p), { 'data-probability': p }]), colours));
      }))) : null;
    const income = isObj(res.income) ? res.income : {};
    const incomeBox = Object.keys(income).length ? box('Income next turn, expected', h('table', { id: prefix + '-income' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col', class: 'num' }, 'Armies'))),
      h('tbody', null, Object.entries(income).map(([pid, v]) => h('tr', { 'data-player': pid },
        h('td', null, h('span', { class: 'swatch', style: `--pc:${colours.get(pid) || 'var(--bar)'}`, 'aria-hidden': 'true' }), pid),
        h('td', { class: 'num', 'data-value': v }, fmtNum(v, 4)))))),
      h('p', { class: 'hint' }, 'MinimumArmyBonus plus the value of each bonus, times the chance of owning it whole.')) : null;
    // The map and the bonuses first: they are what a person looks at.
    const kids = Array.from(sub.children);
    const mapBox = kids.find((k) => $('svg.turnmap', k));
    out.append(...kids.slice(0, mapBox ? kids.indexOf(mapBox) + 1 : 2));
    if (bonusBox || incomeBox) out.append(h('div', { class: 'grid2' }, bonusBox, incomeBox));
    out.append(...kids.slice(mapBox ? kids.indexOf(mapBox) + 1 : 2));
  }
  function renderWarzoneAnalysis(res, req, text, out) {
    renderWarzone(res, req, text, out, 'wz');
  }

  /* The plan as SendOrdersBotGame takes it (its whole body, send_orders, with a copy button;
   * the orders alone when the paste lacks an id the body needs), its value, and the turn with
   * the plan's orders and the others' analysed and drawn as a map. */
  async function renderWarzonePlan(res, req, text, out) {
    out.dataset.answer = 'plan';
    const all = req.objective === 'all';
    out.append(h('div', { class: 'headline' },
      h('div', null, h('div', { class: 'big', id: 'wz-plan-value', 'data-value': res.value }, all ? fmtPct(res.value) : fmtNum(res.value, 6)),
        h('div', { class: 'big-label' }, all ? 'chance that every goal holds with this plan' : req.objective === 'income' ? 'income, expected' : 'goal territories owned, expected')),
      h('div', { class: 'big-label', id: 'wz-plan-optimal', 'data-value': String(!!res.optimal) },
        (res.optimal ? 'Proven the best plan' : 'The best plan found (not proven)') + (isNum(res.income) ? `; ${fmtNum(res.income)} armies deployed` : ''))));
    const orders = Array.isArray(res.orders) ? res.orders.filter(isObj) : [];
    const names = wzNames(req);
    const ordersText = '[\n' + orders.map((o) => '  ' + JSON.stringify(o)).join(',\n') + '\n]';
    const send = isObj(res.send_orders) ? res.send_orders : null;
    const sendOrders = send && Array.isArray(send.orders) ? send.orders : [];
    const sendText = send && '{"gameID": ' + JSON.stringify(send.gameID) + ', "playerID": ' + JSON.stringify(send.playerID) +
      ', "turnNumber": ' + JSON.stringify(send.turnNumber) + ', "orders": [\n' + sendOrders.map((o) => '  ' + JSON.stringify(o)).join(',\n') + '\n]}';
    out.append(box('The plan\'s orders, for SendOrdersBotGame',
      h('div', { class: 'scroll' }, h('table', { id: 'wz-plan-orders' },
        h('thead', null, h('tr', null, h('th', { scope: 'col', class: 'num' }, '#'), h('th', { scope: 'col' }, 'type'), h('th', { scope: 'col' }, 'Order'), h('th', { scope: 'col', class: 'num' }, 'Armies'))),
        h('tbody', null, orders.map((o, i) => h('tr', { 'data-type': o.type }, h('td', { class: 'num' }, i + 1), h('td', null, h('code', null, typeWrap(o.type))),
          h('td', null, o.type === 'GameOrderDeploy' ? ['deploy on ', wzTerr(names, o.deployOn)] : [wzTerr(names, o.from), ' → ', wzTerr(names, o.to)]),
          h('td', { class: 'num' }, String(o.type === 'GameOrderDeploy' ? o.armies : o.numArmies))))))),
      send ? h('p', { class: 'hint' }, 'The body to POST to SendOrdersBotGame as it is (send_orders):') : null,
      h('pre', { id: 'wz-plan-json', 'aria-label': send ? 'SendOrdersBotGame\'s body as JSON' : 'The orders as JSON', 'data-kind': send ? 'send_orders' : 'orders' }, send ? sendText : ordersText),
      send ? copyButton('Copy the SendOrdersBotGame body', () => sendText) : copyButton('Copy the orders', () => ordersText)));
    const warnings = Array.isArray(res.warnings) ? res.warnings : [];
    if (warnings.length) out.append(box('Warnings', h('ul', { class: 'warnings' }, warnings.map((w) => h('li', null, isObj(w) ? (w.member || '') + ' ' + (w.detail || '') : String(w))))));
    // The turn with the plan: the plan's orders, then the others' as pasted.
    const others = Array.isArray(req.orders) ? req.orders : [];
    const turn = Object.assign(warzoneAnalyzeBody(), { orders: orders.concat(others) });
    const sub = h('div', { id: 'wz-plan-analysis', class: 'results' });
    out.append(h('h3', null, 'The turn with the plan\'s orders (POST /warzone/analyze-turn)'), sub);
    const turnText = stringify(turn);
    const r = await callApi('warzone/analyze-turn', turnText);
    if (r.ok) renderWarzone(r.json, turn, r.text, sub, 'wz-plan');
    else sub.append(h('p', { class: 'field-error' }, 'The plan\'s turn could not be analysed: ' + ((r.problem && (r.problem.detail || r.problem.title)) || 'HTTP ' + r.status)));
    sub.append(exchange('warzone/analyze-turn', turnText, r));
    sub.dataset.state = r.ok ? 'done' : 'error';
  }
  function planWarzone() {
    run(Object.assign({}, panels.warzone, { path: 'warzone/plan-turn', prepare: warzonePlanBody, render: renderWarzonePlan, mapPointer: warzonePlanPointer }));
  }

  /* ---------- Duper: /duper/battle ---------- */

  const UNIT_CLASSES = ['soldier', 'larva', 'tank', 'plane', 'fort', 'center', 'capital_lv1', 'capital_lv2', 'capital_lv3', 'supercapital'];
  function unitLabel(c) { return c === 'supercapital' ? 'supercapital' : c.replace('capital_lv', 'capital lv'); }

  function buildUnitGrids() {
    for (const grid of $$('.units[data-units]')) {
      const base = grid.dataset.units;
      const classes = grid.dataset.classes ? grid.dataset.classes.split(',') : UNIT_CLASSES;
      const values = Object.fromEntries((grid.dataset.values || '').split(',').filter(Boolean).map((kv2) => kv2.split('=')));
      const idBase = 'du' + base.replace(/\//g, '-');
      for (const c of classes) {
        const id = idBase + '-' + c;
        grid.append(h('div', { class: 'field' }, h('label', { for: id }, unitLabel(c)),
          h('input', { id, type: 'number', min: 0, step: 1, inputmode: 'numeric', 'data-pointer': base + '/' + c, 'data-kind': 'int', value: values[c] || null, placeholder: '0' })));
      }
    }
  }
  function renumberSupports(container) {
    const side = container.dataset.side;
    $$('.support-row', container).forEach((row, i) => {
      row.dataset.pointer = `/${side}/support/${i}`;
      for (const input of $$('input', row)) {
        const key = input.dataset.key;
        input.dataset.pointer = `/${side}/support/${i}/${key}`;
        input.id = `du-${side}-support-${i}-${key}`;
      }
      for (const label of $$('label', row)) label.htmlFor = `du-${side}-support-${i}-${label.dataset.key}`;
      $('.tile-no', row).textContent = `Tile ${i + 1}: tanks`;
      $('button', row).setAttribute('aria-label', `Remove supporting tile ${i + 1}`);
    });
  }
  function addSupport(side, tanks, fort) {
    const container = $(`.supports[data-side="${side}"]`);
    const row = h('div', { class: 'support-row' },
      h('div', { class: 'field' }, h('label', { 'data-key': 'tanks', class: 'tile-no' }, 'tanks'),
        h('input', { type: 'number', min: 0, step: 1, inputmode: 'numeric', 'data-key': 'tanks', 'data-kind': 'int', value: tanks === undefined ? null : tanks })),
      h('div', { class: 'field check' }, h('input', { type: 'checkbox', 'data-key': 'fort', 'data-kind': 'flag', checked: !!fort }),
        h('label', { 'data-key': 'fort' }, 'fort')),
      h('button', { type: 'button', class: 'small', onclick: () => { row.remove(); renumberSupports(container); } }, 'Remove'));
    container.append(row);
    renumberSupports(container);
    return row;
  }

  /* names: the supporting tiles' ids, when the board gave them (D14). */
  function sideUnitsTable(side, losses, survivors, names) {
    const l = isObj(losses) ? losses : {}, sv = isObj(survivors) ? survivors : {};
    const rows = [];
    for (const part of ['tile', 'loaded']) {
      const a = isObj(l[part]) ? l[part] : {}, b = isObj(sv[part]) ? sv[part] : {};
      const classes = Array.from(new Set([...Object.keys(a), ...Object.keys(b)]));
      for (const c of classes) rows.push([(part === 'loaded' ? 'loaded ' : '') + unitLabel(c), a[c], b[c]]);
    }
    const la = Array.isArray(l.support) ? l.support : [], sa = Array.isArray(sv.support) ? sv.support : [];
    for (let i = 0; i < Math.max(la.length, sa.length); i++) {
      const x = isObj(la[i]) ? la[i] : {}, y = isObj(sa[i]) ? sa[i] : {};
      const keys = Array.from(new Set([...Object.keys(x), ...Object.keys(y)]));
      const tile = Array.isArray(names) && typeof names[i] === 'string' ? names[i] : 'tile ' + (i + 1);
      for (const k of keys) rows.push([`support ${tile}: ${k}`, x[k], y[k]]);
    }
    for (const k of Object.keys(l)) if (!['tile', 'loaded', 'support'].includes(k)) rows.push([humanize(k), l[k], sv[k]]);
    if (!rows.length) return h('p', null, 'No units.');
    return h('table', { class: 'units-table' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Units'), h('th', { scope: 'col', class: 'num' }, 'Lost'), h('th', { scope: 'col', class: 'num' }, 'Left'))),
      h('tbody', null, rows.map(([name, a, b]) => h('tr', null, h('td', null, name), h('td', { class: 'num' }, renderValue(a === undefined ? null : a)),
        h('td', { class: 'num' }, renderValue(b === undefined ? null : b))))));
  }

  /* One Duper battle, as /duper/battle answers it (and every battle of /duper/board/battle).
   * o.prefix makes the ids unique per panel and battle; o.support names the supporting tiles;
   * o.known lists members drawn elsewhere. */
  function renderBattle(res, out, o) {
    const px = o.prefix;
    let verdict = null;
    if (typeof res.captured === 'boolean') {
      verdict = h('p', { class: res.captured ? 'outcome-good big' : 'outcome-bad big', id: px + '-verdict' },
        res.captured ? 'Attack succeeds' : 'Attack fails');
    }
    const ap = res.attack_power, dp = res.defense_power;
    const maxP = Math.max(1, isNum(ap) ? ap : 0, isNum(dp) ? dp : 0);
    const bar = (name, v, cls, id) => h('div', { class: 'powerbar' }, h('span', null, name),
      h('div', { class: 'track', role: 'img', 'aria-label': name + ' ' + fmtNum(v) }, h('div', { class: 'fill ' + cls, style: `width:${isNum(v) ? (v / maxP * 100).toFixed(1) : 0}%` })),
      h('strong', { class: 'num', id }, fmtNum(v)));
    out.append(h('div', { class: 'headline' }, verdict,
      h('div', { class: 'big-label' }, res.tie ? 'Equal powers (D8): ' + (res.captured ? 'the defender tile has a capital, so the attack succeeds.' : 'the attack fails.') : null)));
    out.append(h('div', { class: 'powerbars' }, bar('Attack power', ap, 'att', px + '-attack-power'), bar('Defense power', dp, 'def', px + '-defense-power')));
    const parts = [];
    if (res.power !== undefined) parts.push(h('div', { class: 'box', id: px + '-power' }, h('h3', null, 'Itemised power'), renderValue(res.power)));
    if (isObj(res.damage)) {
      parts.push(box('Damage', kv([['To the attacker', res.damage.to_attacker, { id: px + '-damage-attacker' }],
        ['To the defender', res.damage.to_defender, { id: px + '-damage-defender' }]])));
    }
    const L = isObj(res.losses) ? res.losses : {}, S = isObj(res.survivors) ? res.survivors : {};
    const sup = isObj(o.support) ? o.support : {};
    if (isObj(res.losses) || isObj(res.survivors)) {
      parts.push(h('div', { class: 'box', id: px + '-attack-units' }, h('h3', null, 'Attack' + (o.attacker ? ' (' + o.attacker + ')' : '')), sideUnitsTable('attack', L.attack, S.attack, sup.attack)));
      parts.push(h('div', { class: 'box', id: px + '-defense-units' }, h('h3', null, 'Defense' + (o.defender ? ' (' + o.defender + ')' : '')), sideUnitsTable('defense', L.defense, S.defense, sup.defense)));
    }
    const after = kv([
      ['Moved in', res.moved_in, { id: px + '-moved-in' }],
      ['Tile owner', res.tile_owner, { id: px + '-tile-owner' }],
      ['Eliminated', res.eliminated, { id: px + '-eliminated' }],
      ['Card steal', res.card_steal, { id: px + '-card-steal' }],
      ['Seed', o.seed],
    ]);
    if (after) parts.push(box('After the battle', after));
    const known = ['attack_power', 'defense_power', 'power', 'captured', 'tie', 'damage', 'losses', 'survivors', 'moved_in', 'tile_owner', 'eliminated', 'card_steal', 'seed'].concat(o.known || []);
    const extra = Object.keys(res).filter((k) => !known.includes(k));
    if (extra.length) parts.push(box('More', renderValue(Object.fromEntries(extra.map((k) => [k, res[k]])))));
    out.append(h('div', { class: 'grid2' }, parts));
  }
  function renderDuper(res, req, text, out) {
    renderBattle(res, out, { prefix: 'duper', attacker: req.attack && req.attack.player, defender: req.defense && req.defense.player,
      seed: rawTopLevel(text, 'seed') || res.seed });
  }

  /* ---------- Duper boards: /duper/board/battle, /duper/board/options ---------- */

  // The worked example of the rules on a board (D13–D16): 32 against 33 with one key buff per key.
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
  const intIn = (key, label, value, more) => h('input', Object.assign({ type: 'number', min: 0, step: 1, inputmode: 'numeric',
    'data-key': key, 'data-label': label, 'data-kind': 'int', value }, more || {}));
  const countsIn = (key, label, value) => textIn(key, label, formatCounts(value), { 'data-kind': 'counts', class: 'wide', placeholder: 'none', spellcheck: 'false', autocomplete: 'off' });

  const boardTiles = editRows($('#board-tiles tbody'), {
    base: (row) => '/board/tiles/' + ptrEsc($('[data-key=id]', row).value.trim()),
    name: (row, i) => 'Tile ' + ($('[data-key=id]', row).value.trim() || i + 1),
    cells: (v, renumber) => [
      cell(textIn('id', 'id', v.id, { 'data-member': '', 'data-kind': 'key', oninput: renumber })),
      cell(textIn('owner', 'owner', v.owner, { list: 'board-owner-ids', oninput: updateBoardLists })),
      cell(intIn('level', 'level', v.level, { min: 1, max: 3, placeholder: '1', class: 'narrow' })),
      cell(countsIn('units', 'units', v.units)),
      cell(countsIn('loaded', 'loaded in planes', v.loaded)),
      h('td', { class: 'roles' }),
    ],
    after: () => updateBoardLists(),
  });
  const boardPairs = editRows($('#board-pairs tbody'), {
    base: (row, i) => '/board/adjacent/' + i,
    name: (row, i) => 'Pair ' + (i + 1),
    cells: (v) => [h('td', { class: 'idx' }),
      cell(textIn('a', 'first tile', v[0], { 'data-member': '0', list: 'board-tile-ids' })),
      cell(textIn('b', 'second tile', v[1], { 'data-member': '1', list: 'board-tile-ids' }))],
  });
  // A key row is /board/keys/holder/colour: the holder field carries /board/keys/holder, so an
  // unknown holder's error lands on it; the count carries the whole pointer.
  const keyHolder = (row) => '/board/keys/' + ptrEsc($('[data-key=holder]', row).value.trim());
  const boardKeys = editRows($('#board-keys tbody'), {
    base: (row) => keyHolder(row) + '/' + ptrEsc($('[data-key=colour]', row).value.trim()),
    name: (row, i) => 'Keys ' + (i + 1),
    cells: (v, renumber) => [
      cell(textIn('holder', 'holder', v.holder, { 'data-kind': 'key', 'data-nopointer': '', 'data-members': 'object', list: 'board-owner-ids', oninput: renumber })),
      cell(textIn('colour', 'colour', v.colour, { 'data-kind': 'key', 'data-member': '', list: 'board-owner-ids', oninput: renumber })),
      cell(intIn('count', 'keys', v.count, { 'data-member': '' })),
    ],
    after: () => { for (const row of boardKeys.rows()) $('[data-key=holder]', row).dataset.pointer = keyHolder(row); },
  });

  // Suggestions for the id fields and the player selector: the board's tiles and owners.
  function updateBoardLists() {
    const ids = [], players = [];
    for (const row of boardTiles.rows()) {
      const id = $('[data-key=id]', row).value.trim(), owner = $('[data-key=owner]', row).value.trim();
      if (id && !ids.includes(id)) ids.push(id);
      if (owner && owner !== 'npc' && !players.includes(owner)) players.push(owner);
    }
    document.getElementById('board-tile-ids').replaceChildren(...ids.map((v) => h('option', { value: v })));
    document.getElementById('board-owner-ids').replaceChildren(...players.concat(['npc']).map((v) => h('option', { value: v })));
    const sel = document.getElementById('board-player'), keep = sel.value;
    sel.replaceChildren(...players.map((p) => h('option', { value: p }, p)));
    if (players.includes(keep)) sel.value = keep;
  }

  // What the page checks itself: ids are object members and pairs are arrays, so an empty or
  // repeated id, or a half pair, cannot be sent as typed.
  function validateBoard() {
    const bad = [], seen = new Set();
    const need = (row, key, message) => { const n = $(`[data-key=${key}]`, row); if (!n.value.trim()) bad.push([n, message]); };
    for (const row of boardTiles.rows()) {
      const input = $('[data-key=id]', row), id = input.value.trim();
      if (!id) bad.push([input, 'Enter a tile id.']);
      else if (seen.has(id)) bad.push([input, 'This id is already on the board; each tile once.']);
      seen.add(id);
      need(row, 'owner', 'Enter the owner: a colour or npc.');
    }
    for (const row of boardPairs.rows()) for (const k of ['a', 'b']) need(row, k, 'Enter a tile id.');
    for (const row of boardKeys.rows()) {
      need(row, 'holder', 'Enter the player holding the keys.');
      need(row, 'colour', "Enter the keys' colour.");
      need(row, 'count', 'Enter how many keys.');
    }
    return bad;
  }
  function boardBattleBody(b) {
    delete b.player;
    delete b.long_distance_range;
    if (!b.attacks) b.attacks = [];
    clearRoles();
    return b;
  }
  function boardOptionsBody(b) {
    delete b.attacks;
    delete b.seed;
    return b;
  }

  /* A tile's part in the battles: a class on its row and a text badge, so the support shows
   * without relying on colour. */
  const ROLE_TEXT = { from: 'attacks from here', to: 'attacked', 'sup-att': 'supports attack', 'sup-def': 'supports defense' };
  function boardRoles(res, req) {
    const roles = new Map();
    const put = (id, role, n) => {
      if (typeof id !== 'string') return;
      if (!roles.has(id)) roles.set(id, []);
      roles.get(id).push([role, n]);
    };
    const battles = Array.isArray(res.battles) ? res.battles : [], attacks = Array.isArray(req.attacks) ? req.attacks : [];
    battles.forEach((b, i) => {
      if (!isObj(b) || b.skipped) return;
      const a = isObj(attacks[i]) ? attacks[i] : {}, n = battles.length > 1 ? i + 1 : null;
      const sup = isObj(b.support) ? b.support : {};
      put(a.from, 'from', n);
      put(a.to, 'to', n);
      for (const id of Array.isArray(sup.attack) ? sup.attack : []) put(id, 'sup-att', n);
      for (const id of Array.isArray(sup.defense) ? sup.defense : []) put(id, 'sup-def', n);
    });
    return roles;
  }
  const roleBadges = (list) => (list || []).map(([r, n]) => h('span', { class: 'badge role-' + r, 'data-role': r }, ROLE_TEXT[r] + (n ? ' (battle ' + n + ')' : '')));
  const roleClasses = (list) => Array.from(new Set((list || []).map(([r]) => 'role-' + r))).join(' ');
  function showRoles(roles) {
    for (const row of boardTiles.rows()) {
      const list = roles.get($('[data-key=id]', row).value.trim()) || [];
      for (const r of Object.keys(ROLE_TEXT)) row.classList.toggle('role-' + r, list.some(([x]) => x === r));
      $('td.roles', row).replaceChildren(...roleBadges(list));
    }
  }
  function clearRoles() { showRoles(new Map()); }

  const kindText = (k) => (k === 'long_distance' ? 'long distance' : 'normal');
  const SKIP_TEXT = {
    source_lost: "its source tile is no longer the attacker's", nothing_to_attack: 'its source tile has nothing left to attack with',
    target_gone: 'its target has left the board', target_own: "its target is now the attacker's own",
  };

  // The board after the battles, beside the board as sent: what changed says what it was.
  function boardAfter(before, after, roles) {
    const tiles = isObj(after.tiles) ? after.tiles : {};
    const ids = boardTiles.rows().map((r) => $('[data-key=id]', r).value.trim()).filter((id) => isObj(before[id]));
    for (const id of Object.keys(tiles)) if (!ids.includes(id)) ids.push(id);
    const td = (key, shown, value, was) => {
      const changed = was !== undefined && was !== value;
      return h('td', { 'data-key': key, 'data-value': value, class: changed ? 'changed' : null }, shown,
        changed ? h('span', { class: 'was' }, ' (was ' + (was || 'empty') + ')') : null);
    };
    const rows = ids.map((id) => {
      const b = isObj(before[id]) ? before[id] : null, t = isObj(tiles[id]) ? tiles[id] : null, list = roles.get(id) || [];
      const attrs = { 'data-tile': id, class: roleClasses(list) || null };
      if (!t) {
        return h('tr', Object.assign(attrs, { 'data-gone': 'true' }), h('th', { scope: 'row' }, id),
          h('td', { colspan: 4, class: 'changed' }, 'left the board: its player was eliminated (D15)'), h('td', null, roleBadges(list)));
      }
      const lvl = (x) => String(isNum(x.level) ? x.level : 1);
      return h('tr', attrs, h('th', { scope: 'row' }, id),
        td('owner', String(t.owner), String(t.owner), b ? String(b.owner) : undefined),
        td('level', lvl(t), lvl(t), b ? lvl(b) : undefined),
        td('units', formatCounts(t.units) || 'empty', formatCounts(t.units), b ? formatCounts(b.units) : undefined),
        td('loaded', formatCounts(t.loaded) || '—', formatCounts(t.loaded), b ? formatCounts(b.loaded) : undefined),
        h('td', null, roleBadges(list)));
    });
    const pairs = Array.isArray(after.adjacent) ? after.adjacent.filter(Array.isArray).map((p) => p.join('–')).join(', ') : '';
    const keys = isObj(after.keys) ? Object.entries(after.keys).flatMap(([holder, m]) => (isObj(m)
      ? Object.entries(m).map(([c, n]) => `${holder} holds ${n} of ${c}`) : [])).join(', ') : '';
    return h('div', { class: 'box', id: 'board-after-box' }, h('h3', null, 'The board after'),
      h('div', { class: 'scroll' }, h('table', { id: 'board-after' },
        h('thead', null, h('tr', null, ['Tile', 'Owner', 'Level', 'Units', 'Loaded in planes', 'In the battle'].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', null, rows))),
      kv([['Adjacent pairs', pairs || 'none', { id: 'board-after-pairs' }], ['Keys', keys || 'none', { id: 'board-after-keys' }]]));
  }

  function renderBoardBattle(res, req, text, out) {
    const before = isObj(req.board) && isObj(req.board.tiles) ? req.board.tiles : {};
    const attacks = Array.isArray(req.attacks) ? req.attacks : [];
    const ownerOf = (id) => (isObj(before[id]) ? before[id].owner : undefined);
    (Array.isArray(res.battles) ? res.battles : []).forEach((b, i) => {
      const a = isObj(attacks[i]) ? attacks[i] : {}, px = 'board-b' + i;
      const who = ownerOf(a.from) ? `, ${ownerOf(a.from)} against ${ownerOf(a.to) || '?'}` : '';
      const wrap = h('div', { class: 'board-battle', id: px, 'data-skipped': isObj(b) ? String(b.skipped) : '' },
        h('h3', null, `Battle ${i + 1}: ${a.from} → ${a.to}, ${kindText(a.kind)}${who}`));
      if (isObj(b) && b.skipped) {
        wrap.append(h('p', { class: 'outcome-bad', id: px + '-skipped' }, 'Skipped: ' + (SKIP_TEXT[b.skipped] || String(b.skipped)) + ' (D16).'));
      } else if (isObj(b)) {
        const sup = isObj(b.support) ? b.support : {};
        const list = (ids, id, cls) => h('span', { id, class: 'badge ' + cls }, Array.isArray(ids) && ids.length ? ids.join(', ') : 'none');
        wrap.append(h('p', { class: 'support-found' }, 'Support found (D14): attack ', list(sup.attack, px + '-support-attack', 'role-sup-att'),
          ' defense ', list(sup.defense, px + '-support-defense', 'role-sup-def')));
        renderBattle(b, wrap, { prefix: px, attacker: ownerOf(a.from), defender: ownerOf(a.to), support: sup, seed: b.seed, known: ['skipped', 'support'] });
      }
      out.append(wrap);
    });
    const roles = boardRoles(res, req);
    showRoles(roles);
    if (isObj(res.board)) out.append(boardAfter(before, res.board, roles));
  }

  function useOption(o, tr) {
    document.getElementById('board-from').value = o.from;
    document.getElementById('board-to').value = o.to;
    document.getElementById('board-kind').value = o.kind === 'long_distance' ? 'long_distance' : 'normal';
    for (const r of $$('#board-options tbody tr')) r.classList.toggle('chosen', r === tr);
    clearRoles();
    $('#board-form .status').textContent = `Attack set: ${o.from} → ${o.to}, ${kindText(o.kind)}. Resolve it to see the battle.`;
    $('#board-form button[type=submit]').focus();
  }
  function renderBoardOptions(res, req, text, out) {
    const list = Array.isArray(res.options) ? res.options.filter(isObj) : [];
    const notes = [];
    if (res.truncated) notes.push(`only the best ${fmtNum(list.length)} are listed (duper.max_board_options)`);
    if (isNum(res.unlisted) && res.unlisted > 0) notes.push(`${fmtNum(res.unlisted)} more not listed: a side would have more than 8 supporting tiles`);
    out.append(h('div', { class: 'headline' }, h('div', null, h('div', { class: 'big', id: 'board-options-count' }, fmtNum(res.count)),
      h('div', { class: 'big-label' }, `legal attacks of ${res.player}, best margin first, without the card draw (D17)`)),
    notes.length ? h('div', { class: 'big-label' }, notes.join('; ')) : null));
    if (!list.length) {
      out.append(h('p', null, 'No legal attack: no tile of this player with troops borders a tile of another player or the NPCs.'));
      return;
    }
    const margin = (m) => (!isNum(m) ? '—' : m > 0 ? '+' + fmtNum(m) : m < 0 ? '−' + fmtNum(-m) : '0');
    const rows = list.map((o) => {
      const elim = Array.isArray(o.eliminated) ? o.eliminated : [];
      const tr = h('tr', { 'data-from': o.from, 'data-to': o.to, 'data-kind': o.kind, 'data-defender': o.defender,
        'data-attack-power': o.attack_power, 'data-defense-power': o.defense_power, 'data-margin': o.margin,
        'data-captured': String(o.captured), 'data-eliminated': elim.join(','), 'data-card-steal': String(o.card_steal_possible) });
      add(tr, [h('td', null, h('button', { type: 'button', class: 'small option-use', onclick: () => useOption(o, tr),
        'aria-label': `${o.from} to ${o.to}, ${kindText(o.kind)}: use this attack` }, `${o.from} → ${o.to}`)),
      h('td', null, kindText(o.kind)), h('td', null, String(o.defender)),
      h('td', { class: 'num' }, fmtNum(o.attack_power) + ' vs ' + fmtNum(o.defense_power)),
      h('td', { class: 'num' }, margin(o.margin)),
      h('td', { class: o.captured ? 'outcome-good' : 'outcome-bad' }, o.captured ? 'captured' : 'held'),
      h('td', null, elim.length ? elim.join(', ') : 'none'), h('td', null, o.card_steal_possible ? 'possible' : 'no')]);
      return tr;
    });
    out.append(h('div', { class: 'box' }, h('h3', null, 'Options of ' + res.player),
      h('p', { class: 'hint' }, 'Pick one to fill in the attack.'),
      h('div', { class: 'scroll' }, h('table', { id: 'board-options' },
        h('thead', null, h('tr', null, ['Attack', 'Kind', 'Defender', 'Attack vs defense', 'Margin', 'Result', 'Eliminated', 'Card steal (D10)']
          .map((c, i) => h('th', { scope: 'col', class: i === 3 || i === 4 ? 'num' : null }, c)))),
        h('tbody', null, rows)))));
  }

  function setBoard(ex) {
    for (const tb of ['#board-tiles', '#board-pairs', '#board-keys']) $(tb + ' tbody').replaceChildren();
    for (const [id, t] of Object.entries(ex.board.tiles)) boardTiles.addRow(Object.assign({ id }, t));
    for (const p of ex.board.adjacent || []) boardPairs.addRow(p);
    for (const [holder, m] of Object.entries(ex.board.keys || {})) for (const [colour, count] of Object.entries(m)) boardKeys.addRow({ holder, colour, count });
    const a = (ex.attacks || [])[0] || {};
    document.getElementById('board-from').value = a.from || '';
    document.getElementById('board-to').value = a.to || '';
    document.getElementById('board-kind').value = a.kind || 'normal';
    document.getElementById('board-keybuff').value = ex.rules && isNum(ex.rules.key_buff_per_key) ? ex.rules.key_buff_per_key : '';
    document.getElementById('board-seed').value = ex.seed === undefined ? '' : String(ex.seed);
    updateBoardLists();
    if (ex.player) document.getElementById('board-player').value = ex.player;
  }

  /* ---------- wiring ---------- */

  fillBattleSlots();
  // The attack panel's own battle fields: the defenders' range beside their count, and 0
  // attacking armies allowed, since a unit may attack alone (W20).
  document.getElementById('wa-defenders').closest('.row').after(document.getElementById('wa-fog'));
  document.getElementById('wa-attackers').min = '0';
  document.getElementById('wa-def-range').addEventListener('change', syncFog);
  syncFog();
  for (const b of $$('.add-unit')) {
    b.addEventListener('click', () => { const unit = addUnit(b.dataset.side, b.dataset.type); $('input:not([type=hidden])', unit).focus(); });
  }
  buildUnitGrids();
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
  // The service's defaults (W9: 60 % and 70 %, no luck, straight round), so that the page and a
  // curl of the same armies give the same answer.
  const example = { attackers: 16, defenders: 10, source_armies: '', offense: '60', defense: '70', luck: '0', rounding: 'straight_round', guard: true };
  setBattle('wa-', example);
  setBattle('sim-', example);
  document.getElementById('wa-targets').value = '50, 90, 99';
  document.getElementById('sim-trials').value = '10000';
  addSupport('attack', 3, false);
  addSupport('defense', 4, false);
  for (const b of $$('.add-support')) b.addEventListener('click', () => { const row = addSupport(b.dataset.side); $('input', row).focus(); });
  // The issue's example turn, ready for the first click.
  setTurn(TURN_EXAMPLE);
  for (const [id, rows] of [['turn-add-territory', turnBoard], ['turn-add-order', turnOrders], ['turn-add-goal', turnGoals]]) {
    document.getElementById(id).addEventListener('click', () => { const row = rows.addRow(); $('input, select', row).focus(); });
  }
  document.getElementById('turn-simulate').addEventListener('click', simulateTurn);
  document.getElementById('turn-plan').addEventListener('click', planTurn);
  // The board example, ready for Resolve and List options.
  setBoard(BOARD_EXAMPLE);
  for (const [id, rows] of [['board-add-tile', boardTiles], ['board-add-pair', boardPairs], ['board-add-key', boardKeys]]) {
    document.getElementById(id).addEventListener('click', () => { const row = rows.addRow(); $('input, select', row).focus(); });
  }
  // An edited board no longer matches the marks of the last answer.
  $('#board-tiles tbody').addEventListener('input', clearRoles);

  panel('warapp', { path: 'analyze-attack', validate: validateAnalyze, prepare: prepareAnalyze, render: renderAnalyze });
  panel('simulate', { path: 'simulate', render: renderSimulate });
  panel('turn', { path: 'analyze-turn', validate: validateTurn, prepare: (b) => turnBody(b, false), render: renderTurn });
  panel('warzone', { path: 'warzone/analyze-turn', validate: validateWarzone, prepare: warzoneAnalyzeBody, render: renderWarzoneAnalysis, explain: warzoneExplain });
  // The plan's fields are read by gather() but only the plan sends them; the paste is the body.
  wzText().value = WZ_EXAMPLE;
  // The example has no Fogged territory: what the fog hid in another paste goes with it.
  document.getElementById('wz-reset').addEventListener('click', () => { wzText().value = WZ_EXAMPLE; document.getElementById('wz-fogged').value = ''; wzText().focus(); });
  document.getElementById('wz-plan').addEventListener('click', planWarzone);
  panel('duper', { path: 'duper/battle', render: renderDuper });
  // The board panel: Resolve is the form's submit; List options shares the form and its errors
  // but draws into its own results, so the options stay beside the battle.
  const boardPanel = panel('duper-board', { path: 'duper/board/battle', validate: validateBoard, prepare: boardBattleBody, render: renderBoardBattle });
  boardPanel.results = document.getElementById('board-results');
  document.getElementById('board-list-options').addEventListener('click', () => run(Object.assign({}, boardPanel,
    { path: 'duper/board/options', prepare: boardOptionsBody, render: renderBoardOptions, results: document.getElementById('board-options-results') })));

  document.getElementById('wa-to-sim').addEventListener('click', () => {
    // /simulate takes armies only: a battle with units or a range would not be the same battle.
    if (fogOn() || unitCount('attacking') || unitCount('defending')) {
      $('#analyze-form .status').textContent = 'The simulate panel takes armies only: remove the units and the range to simulate this battle.';
      return;
    }
    for (const id of ['attackers', 'defenders', 'source_armies', 'offense', 'defense', 'luck', 'rounding', 'guard']) {
      const from = document.getElementById('wa-' + id), to = document.getElementById('sim-' + id);
      if (from.type === 'checkbox') to.checked = from.checked; else to.value = from.value;
    }
    document.getElementById('simulate').scrollIntoView();
    panels.simulate.form.requestSubmit();
  });

  // The worked example, drawn at once: 16 attackers on 10 defenders at the service's defaults.
  run(panels.warapp, true);
})();
