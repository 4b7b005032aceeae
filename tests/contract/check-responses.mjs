// Starts combatd on a free port and checks live answers against openapi.yaml: every request
// example of every operation is sent, and the answer's status, Content-Type and body must be
// what the contract declares (JSON Schema 2020-12, as OpenAPI 3.1 uses). Each example may name
// the status it expects with `x-expected-status` (default 200). A deliberately bad request to
// each POST endpoint must produce a 422 that matches the Problem schema.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

const root = new URL('../../', import.meta.url).pathname;
const binary = process.env.COMBATD_BINARY || `${root}build/combatd`;
const spec = YAML.parse(readFileSync(`${root}openapi.yaml`, 'utf8'));

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(spec, 'openapi');

let passed = 0;
let failed = 0;
function check(ok, what, extra) {
  if (ok) {
    passed++;
  } else {
    failed++;
    console.log(`FAIL ${what}${extra ? `\n  ${extra}` : ''}`);
  }
}

const pointer = (...parts) => parts.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

function validate(path, method, status, contentType, body, what) {
  const responses = spec.paths[path][method].responses;
  let response = responses[String(status)];
  let base = ['paths', path, method, 'responses', String(status)];
  if (response && response.$ref) {
    const name = response.$ref.split('/').pop();
    response = spec.components.responses[name];
    base = ['components', 'responses', name];
  }
  check(response !== undefined, `${what}: status ${status} is declared`);
  if (!response) return;
  if (body === undefined) { // an answer without a body (a 202 of /mcp)
    check(!response.content, `${what}: ${status} declares no content, as none came`);
    return;
  }
  const media = contentType.split(';')[0].trim();
  const content = response.content || {};
  check(media in content, `${what}: content type ${media} is declared for ${status}`, Object.keys(content).join(', '));
  if (!(media in content) || !media.includes('json')) return;
  const ref = `openapi#/${pointer(...base, 'content', media, 'schema')}`;
  const valid = ajv.validate({ $ref: ref }, body);
  check(valid, `${what}: body matches the ${status} schema`, valid ? '' : ajv.errorsText(ajv.errors, { separator: '\n  ' }));
}

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
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (method === 'get') {
        const res = await fetch(`http://127.0.0.1:${port}${path}`);
        const text = await res.text();
        const ct = res.headers.get('content-type') || '';
        validate(path, method, res.status, ct, ct.includes('json') ? JSON.parse(text) : text, `GET ${path}`);
        continue;
      }
      if (method !== 'post') continue;
      const examples = op.requestBody?.content?.['application/json']?.examples || {};
      check(Object.keys(examples).length > 0, `POST ${path}: has request examples`);
      for (const [name, example] of Object.entries(examples)) {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(example.value),
        });
        const text = await res.text();
        const body = text === '' ? undefined : JSON.parse(text);
        const want = example['x-expected-status'] ?? 200;
        check(res.status === want, `POST ${path} example ${name}: status ${res.status}, expected ${want}`, text.slice(0, 400));
        validate(path, method, res.status, res.headers.get('content-type') || '', body, `POST ${path} example ${name}`);
      }
      const bad = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"no_such_field": 1}',
      });
      const problem = await bad.json();
      if (op.responses['422']) {
        check(bad.status === 422, `POST ${path} with an unknown field: 422`, JSON.stringify(problem));
        check(problem.errors?.some((e) => e.pointer === '/no_such_field'), `POST ${path}: the unknown field is named`);
      } else {
        // /mcp: not a JSON-RPC message, a -32600 without id whose problem names what is missing.
        check(bad.status === 400 && problem.error?.code === -32600 && problem.id === null,
          `POST ${path} with an unknown field: 400, -32600`, JSON.stringify(problem));
        check(problem.error?.data?.errors?.some((e) => e.pointer === '/jsonrpc'), `POST ${path}: /jsonrpc is named`);
      }
      validate(path, method, bad.status, bad.headers.get('content-type') || '', problem, `POST ${path} bad request`);
    }
  }
} finally {
  child.kill('SIGTERM');
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
