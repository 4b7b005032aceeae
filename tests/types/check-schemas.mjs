// openapi.yaml's schemas say what they are, and its oneOfs say how to tell their members apart:
//  - every schema of components.schemas has a description;
//  - a oneOf whose members are all $refs to objects that each require one same property, with
//    a const or enum that no other member shares, has a discriminator on that property whose
//    mapping names every value.
// Prints one line per finding and "N passed, N failed".
import { readFileSync } from 'node:fs';
import YAML from 'yaml';

const root = new URL('../../', import.meta.url).pathname;
const spec = YAML.parse(readFileSync(`${root}openapi.yaml`, 'utf8'));
let passed = 0;
let failed = 0;
const fail = (what) => { failed++; console.log(`FAIL ${what}`); };

for (const [name, schema] of Object.entries(spec.components.schemas)) {
  if (typeof schema.description === 'string' && schema.description.trim()) passed++;
  else fail(`components.schemas.${name} has no description`);
}

const target = (ref) => spec.components.schemas[ref.replace('#/components/schemas/', '')];
// The values a member's property may take, when it pins them (const or enum).
const pinned = (schema, prop) => {
  const p = schema?.properties?.[prop];
  if (!p || !(schema.required || []).includes(prop)) return null;
  if (p.const !== undefined) return [p.const];
  return Array.isArray(p.enum) ? p.enum : null;
};
function visit(node, where) {
  if (Array.isArray(node)) { node.forEach((n, i) => visit(n, `${where}/${i}`)); return; }
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node.oneOf) && node.oneOf.every((m) => m.$ref)) {
    const members = node.oneOf.map((m) => target(m.$ref));
    const props = Object.keys(members[0]?.properties || {});
    for (const prop of props) {
      const values = members.map((m) => pinned(m, prop));
      if (values.some((v) => !v)) continue;
      const all = values.flat();
      if (new Set(all).size !== all.length) continue;
      // This property tells the members apart: a discriminator must say so.
      const d = node.discriminator;
      if (!d || d.propertyName !== prop) {
        fail(`${where}: the members are told apart by "${prop}", but the oneOf has no discriminator on it`);
      } else {
        const missing = all.filter((v) => !d.mapping || !d.mapping[v]);
        if (missing.length) fail(`${where}: the discriminator's mapping lacks ${missing.join(', ')}`);
        else passed++;
      }
    }
  }
  for (const [k, v] of Object.entries(node)) visit(v, `${where}/${k}`);
}
visit(spec.paths, '#/paths');
visit(spec.components, '#/components');
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
