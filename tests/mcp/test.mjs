// combatd's /mcp driven by the official MCP TypeScript SDK's client (StreamableHTTPClientTransport)
// against a running combatd: connect, list the tools and check each against openapi.yaml and
// the endpoint table's facts, compile every inputSchema and outputSchema as JSON Schema (ajv,
// as the SDK does), call every tool with every worked example of its endpoint in openapi.yaml
// and compare the result with what the HTTP endpoint answers for the same body (the text item
// byte for byte, structuredContent as parsed), call with bad arguments and read isError, read
// the resources, and a few raw JSON-RPC exchanges (revision negotiation, notifications).
//
//   node tests/mcp/test.mjs            (COMBATD_BINARY, default build/combatd)
//
// Closes with "N passed, N failed"; exits non-zero when a check failed.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

const root = new URL('../../', import.meta.url).pathname;
const binary = process.env.COMBATD_BINARY || `${root}build/combatd`;
const spec = YAML.parse(readFileSync(`${root}openapi.yaml`, 'utf8'));

let passed = 0;
let failed = 0;
function check(ok, what, extra) {
  if (ok) {
    passed++;
  } else {
    failed++;
    console.log(`FAIL ${what}${extra ? `\n  ${String(extra).slice(0, 1500)}` : ''}`);
  }
}

async function startServer() {
  const child = spawn(binary, ['--port', '0', '--bind', '127.0.0.1', '--threads', '2'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH },
    cwd: root,
  });
  const port = await new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (chunk) => {
      seen += chunk;
      const m = seen.match(/"event":"listening".*?"port":(\d+)/);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`combatd exited with ${code}: ${seen}`)));
    setTimeout(() => reject(new Error('combatd did not start')), 10000);
  });
  return { child, port };
}

// The tool name of a path, worked out here from the naming rule (docs/api/mcp.md).
const toolName = (path) => path.slice(1).replaceAll('/', '_').replaceAll('-', '_');

// The POST endpoints of the contract other than /mcp: the tools there must be.
const endpoints = Object.entries(spec.paths)
  .filter(([path, item]) => item.post && path !== '/mcp')
  .map(([path, item]) => ({ path, op: item.post }));

// A request schema draws a seed when it has a `seed` member (the answer then echoes it).
function requestSchema(op) {
  const ref = op.requestBody.content['application/json'].schema.$ref;
  return spec.components.schemas[ref.split('/').pop()];
}

async function postHttp(port, path, body) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

async function rawMcp(port, message, headers = {}) {
  const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), text, json: text ? JSON.parse(text) : null };
}

// Every schema compiles under JSON Schema 2020-12 (what MCP 2025-11-25 names) with ajv's strict
// mode, which refuses unknown keywords, and under the SDK's own ajv (draft 7, as it validates
// structuredContent); the root is an object schema, as the SDK demands.
const strict2020 = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
addFormats(strict2020);
const sdkAjv = new Ajv({ strict: false, validateFormats: true, allErrors: true });
addFormats(sdkAjv);

function checkSchema(tool, which) {
  const schema = tool[which];
  check(schema && schema.type === 'object', `${tool.name}: ${which} has type object at the root`, JSON.stringify(schema)?.slice(0, 200));
  check(!JSON.stringify(schema).includes('"$ref"'), `${tool.name}: ${which} is self-contained (no $ref)`);
  let compiled = null;
  for (const [name, ajv] of [['2020-12 strict', strict2020], ['draft-07 (the SDK)', sdkAjv]]) {
    try {
      const v = ajv.compile(schema);
      if (ajv === strict2020) compiled = v;
      check(true, `${tool.name}: ${which} compiles (${name})`);
    } catch (e) {
      check(false, `${tool.name}: ${which} compiles (${name})`, e.message);
    }
  }
  return compiled;
}

async function checkTools(client, port) {
  const { tools } = await client.listTools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  check(tools.length === endpoints.length, `tools/list has one tool per POST endpoint (${endpoints.length})`, tools.map((t) => t.name).join(', '));
  const validators = new Map();
  for (const { path, op } of endpoints) {
    const tool = byName.get(toolName(path));
    check(tool !== undefined, `tool ${toolName(path)} for ${path} is listed`);
    if (!tool) continue;
    check(typeof tool.title === 'string' && tool.title.length > 0, `${tool.name}: has a title`);
    check(typeof tool.description === 'string' && tool.description.length > 80, `${tool.name}: has a description a model can act on`);
    const seeded = 'seed' in (requestSchema(op).properties || {});
    check(tool.annotations?.readOnlyHint === true, `${tool.name}: readOnlyHint`);
    check(tool.annotations?.idempotentHint === !seeded, `${tool.name}: idempotentHint is ${!seeded} (a seed is ${seeded ? '' : 'not '}drawn)`);
    const input = checkSchema(tool, 'inputSchema');
    const output = checkSchema(tool, 'outputSchema');
    validators.set(tool.name, { input, output });
    // The contract's own examples hold under the tool's schemas.
    const examples = op.requestBody.content['application/json'].examples || {};
    for (const [name, ex] of Object.entries(examples)) {
      if ((ex['x-expected-status'] ?? 200) !== 200 || !input) continue;
      check(input(ex.value), `${tool.name}: inputSchema accepts the example ${name}`, strict2020.errorsText(input.errors));
    }
    const answers = op.responses['200'].content['application/json'].examples || {};
    for (const [name, ex] of Object.entries(answers)) {
      if (!output) continue;
      check(output(ex.value), `${tool.name}: outputSchema accepts the answer example ${name}`, strict2020.errorsText(output.errors));
    }
  }
  await callEveryExample(client, port, validators);
}

// Each worked example of the contract through the tool and through HTTP, with a seed added
// where one would be drawn, so that both answers can be compared.
async function callEveryExample(client, port, validators) {
  for (const { path, op } of endpoints) {
    const name = toolName(path);
    const seeded = 'seed' in (requestSchema(op).properties || {});
    const examples = op.requestBody.content['application/json'].examples || {};
    for (const [exName, ex] of Object.entries(examples)) {
      const args = seeded && !('seed' in ex.value) ? { ...ex.value, seed: 20240521 } : ex.value;
      const want = ex['x-expected-status'] ?? 200;
      const http = await postHttp(port, path, args);
      check(http.status === want, `POST ${path} ${exName}: HTTP ${http.status}, expected ${want}`, http.text);
      let result;
      try {
        result = await client.callTool({ name, arguments: args });
      } catch (e) {
        check(false, `${name} ${exName}: the call succeeds`, e.message);
        continue;
      }
      const text = result.content?.[0]?.type === 'text' ? result.content[0].text : undefined;
      check(result.content?.length === 1, `${name} ${exName}: one content item`);
      check(text === http.text, `${name} ${exName}: the text is the HTTP answer byte for byte`, `${text?.slice(0, 300)}\n  vs ${http.text.slice(0, 300)}`);
      if (want === 200) {
        check(result.isError === false, `${name} ${exName}: isError false`);
        check(JSON.stringify(result.structuredContent) === JSON.stringify(JSON.parse(http.text)),
          `${name} ${exName}: structuredContent is the HTTP answer`);
        const output = validators.get(name)?.output;
        if (output) check(output(result.structuredContent), `${name} ${exName}: structuredContent matches outputSchema`, strict2020.errorsText(output.errors));
      } else {
        check(result.isError === true && result.structuredContent === undefined, `${name} ${exName}: a tool error without structuredContent`);
      }
    }
  }
}

async function checkErrors(client, port) {
  const bad = { attackers: -1, defenders: 5, settings: { luck_modifier: 2 } };
  const result = await client.callTool({ name: 'analyze_attack', arguments: bad });
  check(result.isError === true, 'bad arguments: isError true');
  check(result.structuredContent === undefined, 'bad arguments: no structuredContent');
  const problem = JSON.parse(result.content[0].text);
  const pointers = (problem.errors || []).map((e) => e.pointer).sort();
  check(JSON.stringify(pointers) === JSON.stringify(['/attackers', '/settings/luck_modifier']),
    'bad arguments: the problem names /attackers and /settings/luck_modifier', result.content[0].text);
  check(problem.status === 422, 'bad arguments: the problem is the 422 of the endpoint');
  const http = await postHttp(port, '/analyze-attack', bad);
  check(http.status === 422 && http.text === result.content[0].text, 'bad arguments: the text is the HTTP 422 body');

  try {
    await client.callTool({ name: 'no_such_tool', arguments: {} });
    check(false, 'an unknown tool is a JSON-RPC error');
  } catch (e) {
    check(e instanceof McpError && e.code === -32602, 'an unknown tool is -32602', `${e.code} ${e.message}`);
  }
  const pong = await client.ping();
  check(JSON.stringify(pong) === '{}', 'ping answers {}', JSON.stringify(pong));
}

async function checkResources(client, port) {
  const { resources } = await client.listResources();
  const uris = resources.map((r) => r.uri);
  check(uris.includes('combatd://openapi.yaml'), 'resources/list has the contract', uris.join(', '));
  const contract = await client.readResource({ uri: 'combatd://openapi.yaml' });
  const served = await (await fetch(`http://127.0.0.1:${port}/openapi.yaml`)).text();
  check(contract.contents[0].text === served, 'the contract resource is GET /openapi.yaml');
  const rules = `${root}docs/rules.md`;
  if (existsSync(rules)) {
    check(uris.includes('combatd://docs/rules.md'), 'the rules document is listed (docs/rules.md exists)', uris.join(', '));
    const doc = await client.readResource({ uri: 'combatd://docs/rules.md' });
    check(doc.contents[0].text === readFileSync(rules, 'utf8'), 'the rules resource is docs/rules.md');
    check(client.getInstructions().includes('combatd://docs/rules.md'), 'the instructions point to the rules');
  } else {
    check(!uris.includes('combatd://docs/rules.md'), 'no rules resource in a tree without docs/rules.md');
  }
}

// What the SDK client does not send on its own: other revisions, a notification, batches.
async function checkRaw(port) {
  const init = (v) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: v, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  for (const v of ['2025-11-25', '2025-06-18', '2025-03-26']) {
    const r = await rawMcp(port, init(v));
    check(r.json?.result?.protocolVersion === v, `initialize in ${v} is answered in ${v}`, r.text);
  }
  const old = await rawMcp(port, init('2024-11-05'));
  check(old.json?.result?.protocolVersion === '2025-11-25', 'initialize in 2024-11-05 is answered in the newest', old.text);
  const note = await rawMcp(port, { jsonrpc: '2.0', method: 'notifications/initialized' });
  check(note.status === 202 && note.text === '', 'a notification is 202 without a body', `${note.status} ${note.text}`);
  // Batches: 2025-03-26 (and no header, read as 2025-03-26) takes them; later revisions do not.
  const pings = '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b","method":"ping"}]';
  for (const headers of [{}, { 'MCP-Protocol-Version': '2025-03-26' }]) {
    const batch = await rawMcp(port, pings, headers);
    check(batch.status === 200 && JSON.stringify(batch.json) === '[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":"b","result":{}}]',
      `a batch is answered as an array (${headers['MCP-Protocol-Version'] ?? 'no header'})`, batch.text);
  }
  const refused = await rawMcp(port, pings, { 'MCP-Protocol-Version': '2025-06-18' });
  check(refused.status === 400 && refused.json?.error?.code === -32600 && refused.json.id === null, 'a batch in 2025-06-18 is -32600', refused.text);
  const version = await rawMcp(port, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'MCP-Protocol-Version': '2099-01-01' });
  check(version.status === 400, 'an unsupported MCP-Protocol-Version is 400', version.text);
  const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  check(/combatd_mcp_tool_calls_total\{tool="analyze_attack",status="422"\} [1-9]/.test(metrics), 'the metrics count tool calls by tool and status');
}

const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).split(' ')[1];
const { child, port } = await startServer();
try {
  const client = new Client({ name: 'combatd-mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
  await client.connect(transport);
  const info = client.getServerVersion();
  check(info?.name === 'combatd' && info.version === version, `serverInfo is combatd ${version}`, JSON.stringify(info));
  const caps = client.getServerCapabilities();
  check(caps?.tools !== undefined && caps?.resources !== undefined, 'capabilities: tools and resources', JSON.stringify(caps));
  check((client.getInstructions() || '').length > 100, 'initialize gives instructions');
  check(transport.protocolVersion === '2025-11-25', 'the SDK negotiated 2025-11-25', transport.protocolVersion);
  await checkTools(client, port);
  await checkErrors(client, port);
  await checkResources(client, port);
  await checkRaw(port);
  await client.close();
} catch (e) {
  check(false, 'the SDK session ran to its end', e.stack);
} finally {
  child.kill('SIGTERM');
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
