// Every curl example of the docs works and says what it shows. Reads README.md, CONTRIBUTING.md
// and every docs/**/*.md, takes each `curl ... localhost:8080/...` command of their ```sh blocks
// (continued over `\` line ends and over a quoted -d body), sends it to a combatd started here
// on a free port, and checks:
//  - the example says what it shows: a comment line right above it, or a `# ->` comment (or an
//    inline `# ...`) after it;
//  - the status: a 422 (or 4xx) where its comment says so, else 200;
//  - every `"member":value` pair its comment writes with a plain value (a number, true, false,
//    null or a string) appears so in the answer, and every JSON pointer a 422's comment names
//    (`/orders/0/to`) is one of the answer's `errors`.
// `node check-examples.mjs --list` prints the examples found, without a server.
// Prints one line per failure and "N passed, N failed" (one case per example).
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const binary = process.env.COMBATD_BINARY || `${root}build/combatd`;

function markdownFiles() {
  const out = ['README.md', 'CONTRIBUTING.md'].map((f) => join(root, f));
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.md')) out.push(p);
    }
  };
  walk(join(root, 'docs'));
  return out;
}

// The examples of one file: {file, line, command, path, method, body, comments}.
export function examples(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const found = [];
  let inSh = false;
  let above = [];
  let current = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^```/.test(line)) {
      inSh = !inSh && /^```(sh|bash|console)\s*$/.test(line);
      above = [];
      current = null;
      continue;
    }
    if (!inSh) continue;
    const start = line.search(/\bcurl\b.*localhost:8080\//);
    if (start >= 0 && !line.trimStart().startsWith('#')) {
      // The command runs on while a line ends in `\` or a single quote is still open.
      let text = line;
      const first = i + 1;
      while ((text.trimEnd().endsWith('\\') || (text.split("'").length - 1) % 2 === 1) && i + 1 < lines.length) {
        text = `${text.trimEnd().replace(/\\$/, '')}\n${lines[++i]}`;
      }
      const hash = text.search(/\s#\s/);
      const inline = hash >= 0 && (text.slice(0, hash).split("'").length - 1) % 2 === 0 ? text.slice(hash).replace(/^\s*#\s*/, '') : '';
      const command = inline ? text.slice(0, hash) : text;
      const m = command.match(/localhost:8080(\/[^\s'"|]*)/);
      const body = command.match(/-d\s+'([^']*)'/s);
      current = {
        file: relative(root, file), line: first, command: command.trim(), path: m[1],
        method: body ? 'POST' : (command.includes('-XPOST') || command.includes('-X POST') ? 'POST' : 'GET'),
        body: body ? body[1] : undefined, above: above.join(' '), comments: inline,
      };
      found.push(current);
      above = [];
      continue;
    }
    if (line.trimStart().startsWith('#')) {
      const text = line.trimStart().replace(/^#\s?/, '');
      if (current && (text.startsWith('->') || (current.comments && /^\s/.test(text)))) {
        current.comments += ` ${text.replace(/^->\s*/, '')}`;
        current.comments = current.comments.trim();
      } else {
        current = null;
        above.push(text);
      }
      continue;
    }
    if (line.trim() === '') { above = []; current = null; continue; }
    above = [];
    current = null;
  }
  return found;
}

// The `"member":value` pairs a comment writes with a plain value, as text to find in the
// answer. A value cut short with "..." (`0.28...`, `"must be a player, ..."`) is looked for by
// what comes before the dots.
function pairs(comment) {
  const number = '-?[0-9]+(?:\\.[0-9]+)?(?:e[+-]?[0-9]+)?';
  const re = new RegExp(`"([A-Za-z_][A-Za-z0-9_]*)":(${number}(?:\\.\\.\\.)?|true|false|null|"[^"]*")(?=[,}\\] ]|$)`, 'g');
  return [...comment.matchAll(re)].map((m) => {
    let value = m[2];
    if (value.endsWith('...')) value = value.slice(0, -3);
    else if (value.endsWith('..."')) value = value.slice(0, -4);
    return `"${m[1]}":${value}`;
  });
}

// The JSON pointers a 422's comment names: `/a/0/b`, not a path like /analyze-attack.
function pointers(comment) {
  return [...comment.matchAll(/(?<![\w.:/])(\/[a-z_][A-Za-z0-9_]*(?:\/[A-Za-z0-9_]+)*)(?![\w/-])/g)].map((m) => m[1]);
}

const all = markdownFiles().flatMap((f) => examples(f));
if (process.argv.includes('--list')) {
  for (const e of all) console.log(`${e.file}:${e.line} ${e.method} ${e.path} | ${e.above || '-'} | ${e.comments || '-'}`);
  console.log(`${all.length} examples`);
  process.exit(0);
}

let passed = 0;
let failed = 0;
async function startServer() {
  const child = spawn(binary, ['--port', '0', '--bind', '127.0.0.1', '--threads', '2'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH },
  });
  const port = await new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (chunk) => {
      seen += chunk;
      const m = seen.match(/"port":(\d+)/);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`combatd exited with ${code}: ${seen}`)));
    setTimeout(() => reject(new Error('combatd did not start')), 10000);
  });
  return { child, port };
}

const { child, port } = await startServer();
try {
  for (const e of all) {
    const where = `${e.file}:${e.line} ${e.method} ${e.path}`;
    const problems = [];
    if (!e.above && !e.comments) problems.push('says nothing of what it shows (no comment above it, no "# ->" after it)');
    const res = await fetch(`http://127.0.0.1:${port}${e.path}`, e.method === 'POST'
      ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: e.body ?? '' }
      : {});
    const text = await res.text();
    // A comment that starts with the status says it: "422, errors: ...", "422 {...}".
    const wants = /^422\b/.test(e.comments) ? 422 : 200;
    if (res.status !== wants) problems.push(`status ${res.status}, the example says ${wants}: ${text.slice(0, 300)}`);
    // Pairs are matched against the answer as the service writes it, and as compact JSON.
    let compact = text;
    try { compact = JSON.stringify(JSON.parse(text)); } catch { /* not JSON: /metrics */ }
    for (const p of pairs(e.comments)) {
      if (!text.includes(p) && !compact.includes(p)) problems.push(`the answer has no ${p}`);
    }
    if (wants === 422) {
      let errors = [];
      try { errors = JSON.parse(text).errors.map((x) => x.pointer); } catch { /* checked by the status */ }
      for (const p of pointers(e.comments)) {
        if (!errors.includes(p)) problems.push(`the 422 does not name ${p} (it names ${errors.join(', ')})`);
      }
    } else if (/\b422\b/.test(e.comments)) {
      // A 422 carried inside a 200 (an MCP tool error): its pointers are in the answer's text.
      for (const p of pointers(e.comments)) {
        if (!text.includes(`\\"pointer\\":\\"${p}\\"`) && !text.includes(`"pointer":"${p}"`)) {
          problems.push(`the answer's problem does not name ${p}`);
        }
      }
    }
    if (problems.length === 0) {
      passed++;
    } else {
      failed++;
      console.log(`FAIL ${where}\n  ${problems.join('\n  ')}`);
    }
  }
} finally {
  child.kill('SIGTERM');
}
console.log(`${all.length} examples in ${new Set(all.map((e) => e.file)).size} files`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
