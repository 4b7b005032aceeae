// The MCP tools' schemas from openapi.yaml: for every POST path, its request schema (the
// tool's inputSchema) and its 200 answer's schema (the outputSchema), each with every $ref
// resolved in place so that it stands alone, written to src/api/mcp/mcp_tool_schemas.json, which
// the C build embeds (so that building needs no node). An answer that is a oneOf (an analysis
// or a transfer) is wrapped in `type: object`, as MCP wants an object schema at the root.
// OpenAPI's own members (example, discriminator, x-*) are dropped: the rest is JSON Schema that
// reads the
// same under drafts 7 and 2020-12.
//
//   node tests/contract/mcp-schemas.mjs           rewrites the file
//   node tests/contract/mcp-schemas.mjs --check   exits 1 when the committed file is stale
//
// The file holds one member per line, `"<path> <inputSchema|outputSchema>": <compact JSON>`,
// so that src/api/mcp/mcp_tools.c finds a schema by its line without parsing the file.
import { readFileSync, writeFileSync } from 'node:fs';
import YAML from 'yaml';

const root = new URL('../../', import.meta.url).pathname;
const target = `${root}src/api/mcp/mcp_tool_schemas.json`;
const spec = YAML.parse(readFileSync(`${root}openapi.yaml`, 'utf8'));

// Members that only annotate: beside a $ref they may override the target's own.
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated']);

function target_of(ref) {
  const prefix = '#/components/schemas/';
  if (!ref.startsWith(prefix)) throw new Error(`unsupported $ref ${ref}`);
  const schema = spec.components.schemas[ref.slice(prefix.length)];
  if (!schema) throw new Error(`no schema at ${ref}`);
  return schema;
}

function resolve(node, seen = []) {
  if (Array.isArray(node)) return node.map((n) => resolve(n, seen));
  if (!node || typeof node !== 'object') return node;
  if (node.$ref) {
    if (seen.includes(node.$ref)) throw new Error(`recursive $ref ${node.$ref}: cannot inline`);
    const resolved = resolve(target_of(node.$ref), [...seen, node.$ref]);
    const siblings = Object.fromEntries(
      Object.entries(node).filter(([k]) => k !== '$ref').map(([k, v]) => [k, resolve(v, seen)]));
    const annotations_only = Object.keys(siblings).every((k) => ANNOTATIONS.has(k));
    // 2020-12 reads siblings of $ref as a conjunction: annotations can be merged over the
    // target's, anything else keeps the target whole inside allOf.
    return annotations_only ? { ...resolved, ...siblings } : { allOf: [resolved], ...siblings };
  }
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'example' || k === 'discriminator' || k.startsWith('x-')) continue;
    out[k] = resolve(v, seen);
  }
  return out;
}

function as_object_root(schema) {
  return schema.type === 'object' ? schema : { type: 'object', ...schema };
}

const lines = [];
for (const [path, item] of Object.entries(spec.paths)) {
  const post = item.post;
  const request = post?.requestBody?.content?.['application/json']?.schema;
  const answer = post?.responses?.['200']?.content?.['application/json']?.schema;
  if (!request || !answer || path === '/mcp') continue;
  lines.push(`${JSON.stringify(`${path} inputSchema`)}: ${JSON.stringify(as_object_root(resolve(request)))}`);
  lines.push(`${JSON.stringify(`${path} outputSchema`)}: ${JSON.stringify(as_object_root(resolve(answer)))}`);
}
const header = '"$comment": "Generated from openapi.yaml by tests/contract/mcp-schemas.mjs; do not edit."';
const text = `{\n${[header, ...lines].join(',\n')}\n}\n`;

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // missing: stale
  }
  if (committed !== text) {
    console.log('src/api/mcp/mcp_tool_schemas.json is stale: run node tests/contract/mcp-schemas.mjs');
    process.exit(1);
  }
  console.log(`src/api/mcp/mcp_tool_schemas.json matches openapi.yaml (${lines.length / 2} tools)`);
} else {
  writeFileSync(target, text);
  console.log(`wrote src/api/mcp/mcp_tool_schemas.json (${lines.length / 2} tools)`);
}
