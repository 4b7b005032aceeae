// Validates deploy/kubernetes/*.yaml offline against the Kubernetes API schemas
// (kubernetes-models), then checks that the manifests agree with each other and with combatd's
// drain and thread settings. Prints "ok"/"FAIL" lines and "N passed, N failed".
// Usage: node validate.mjs DIR
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";
import { Deployment } from "kubernetes-models/apps/v1";
import { Service } from "kubernetes-models/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";

const models = {
  "apps/v1 Deployment": Deployment,
  "v1 Service": Service,
  "policy/v1 PodDisruptionBudget": PodDisruptionBudget,
  "autoscaling/v2 HorizontalPodAutoscaler": HorizontalPodAutoscaler,
};

let passed = 0;
let failed = 0;
function check(name, cond, detail = "") {
  if (cond) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}${detail ? `: ${detail}` : ""}`);
  }
}

// The compiled schemas check types and required fields but let unknown fields through, as
// the API's OpenAPI documents do; the API server (strict field validation) rejects them. So the
// field names are also checked, against the interfaces that kubernetes-models declares for
// every type (its .d.ts files: one interface per file, one "name"?: Type line per field).
const modules = join(dirname(fileURLToPath(import.meta.url)), "node_modules");
const ifaces = new Map();
function iface(file) {
  if (ifaces.has(file)) return ifaces.get(file);
  const text = readFileSync(file, "utf8");
  const imports = new Map();
  for (const m of text.matchAll(/import \{ (\w+) \} from "([^"]+)";/g)) {
    const base = m[2].startsWith(".") ? join(dirname(file), m[2]) : join(modules, m[2]);
    imports.set(m[1], `${base}.d.ts`);
  }
  const body = text.match(/export interface I\w+(?: extends \w+)? \{([\s\S]*?)\n\}/);
  const fields = new Map();
  for (const m of (body ? body[1] : "").matchAll(/^ {4}"([^"]+)"\??: (.+?);?$/gm)) {
    const type = m[2].match(/^(?:Array<)?(I\w+)>?$/);
    fields.set(m[1], type && imports.has(type[1]) ? imports.get(type[1]) : null);
  }
  const result = { fields, complete: Boolean(body) };
  ifaces.set(file, result);
  return result;
}
function unknownFields(value, file, path, out) {
  if (!file || !existsSync(file) || value === null || typeof value !== "object") return out;
  if (Array.isArray(value)) {
    value.forEach((v, i) => unknownFields(v, file, `${path}/${i}`, out));
    return out;
  }
  const { fields, complete } = iface(file);
  if (!complete) return out;
  for (const [k, v] of Object.entries(value)) {
    if (!fields.has(k)) out.push(`${path}/${k}`);
    else unknownFields(v, fields.get(k), `${path}/${k}`, out);
  }
  return out;
}
const declarations = {
  "apps/v1 Deployment": "kubernetes-models/apps/v1/Deployment.d.ts",
  "v1 Service": "kubernetes-models/v1/Service.d.ts",
  "policy/v1 PodDisruptionBudget": "kubernetes-models/policy/v1/PodDisruptionBudget.d.ts",
  "autoscaling/v2 HorizontalPodAutoscaler": "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler.d.ts",
};

// Returns null when the document is valid for its kind, else the validator's message.
function schemaError(doc) {
  const key = `${doc.apiVersion} ${doc.kind}`;
  const Model = models[key];
  if (!Model) return `no schema here for ${key}`;
  try {
    new Model(doc).validate();
  } catch (e) {
    return String(e.message || e).slice(0, 600);
  }
  const unknown = unknownFields(doc, join(modules, declarations[key]), "", []);
  return unknown.length ? `unknown fields: ${unknown.join(", ")}` : null;
}

const dir = process.argv[2];
const docs = [];
for (const file of readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort()) {
  for (const d of parseAllDocuments(readFileSync(join(dir, file), "utf8"))) {
    check(`${file} parses as YAML`, d.errors.length === 0, d.errors.join("; "));
    const doc = d.toJS();
    if (doc) docs.push({ file, doc });
  }
}

for (const { file, doc } of docs) {
  const err = schemaError(doc);
  check(`${file}: ${doc.apiVersion} ${doc.kind} "${doc.metadata?.name}" matches the schema`, !err, err);
}

// The validator itself must catch mistakes, or the checks above prove nothing: a misspelled
// field, a wrong type and a missing required field in copies of the real Deployment.
const kinds = (k) => docs.filter((d) => d.doc.kind === k).map((d) => d.doc);
const [dep] = kinds("Deployment");
const [svc] = kinds("Service");
const [pdb] = kinds("PodDisruptionBudget");
const [hpa] = kinds("HorizontalPodAutoscaler");
check("one each of Deployment, Service, PodDisruptionBudget, HorizontalPodAutoscaler",
  [dep, svc, pdb, hpa].every(Boolean) && docs.length === 4, `found ${docs.map((d) => d.doc.kind)}`);
if (!dep || !svc || !pdb || !hpa) {
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}
const copy = () => structuredClone(dep);
const broken = [
  ["a misspelled field (readinessProbe.httpGett)", (d) => {
    const p = d.spec.template.spec.containers[0].readinessProbe;
    p.httpGett = p.httpGet;
    delete p.httpGet;
  }],
  ["a wrong type (replicas: \"three\")", (d) => { d.spec.replicas = "three"; }],
  ["a missing required field (containers[0].name)", (d) => { delete d.spec.template.spec.containers[0].name; }],
  ["an unknown field deep down (securityContext.capabilities.dorp)", (d) => {
    d.spec.template.spec.containers[0].securityContext.capabilities.dorp = ["ALL"];
  }],
];
for (const [what, spoil] of broken) {
  const d = copy();
  spoil(d);
  check(`the validator rejects ${what}`, schemaError(d) !== null);
}

// --- Consistency: what the schemas cannot know. ---
const pod = dep.spec.template.spec;
const ctr = pod.containers.find((c) => c.name === "combatd") || pod.containers[0];
const env = Object.fromEntries((ctr.env || []).map((e) => [e.name, e.value]));
const num = (v) => Number.parseInt(v, 10);
const cpu = (q) => (String(q).endsWith("m") ? num(q) / 1000 : Number(q));

// The kubelet's clock for the grace period starts with preStop; then SIGTERM, the lame duck
// and the drain deadline must all fit, with slack for the exit itself.
const preStopSleep = ctr.lifecycle?.preStop?.sleep?.seconds ??
  num((ctr.lifecycle?.preStop?.exec?.command || []).find((a) => /^\d+$/.test(a)) ?? 0);
const delay = num(env.COMBATD_DRAIN_DELAY);
const deadline = num(env.COMBATD_DRAIN_DEADLINE);
const grace = pod.terminationGracePeriodSeconds;
check("COMBATD_DRAIN_DELAY and COMBATD_DRAIN_DEADLINE are set", Number.isInteger(delay) && Number.isInteger(deadline),
  `drain_delay ${env.COMBATD_DRAIN_DELAY}, drain_deadline ${env.COMBATD_DRAIN_DEADLINE}`);
check(`terminationGracePeriodSeconds (${grace}) >= preStop ${preStopSleep} + drain_delay ${delay} + drain_deadline ${deadline} + 5 s slack`,
  grace >= preStopSleep + delay + deadline + 5);

const limit = cpu(ctr.resources?.limits?.cpu);
check(`COMBATD_THREADS (${env.COMBATD_THREADS}) equals the CPU limit (${ctr.resources?.limits?.cpu})`,
  num(env.COMBATD_THREADS) === limit && Number.isInteger(limit));
check("CPU and memory requests equal the limits (Guaranteed QoS)",
  ctr.resources?.requests?.cpu === ctr.resources?.limits?.cpu &&
  ctr.resources?.requests?.memory === ctr.resources?.limits?.memory ? true :
    cpu(ctr.resources?.requests?.cpu) === limit,
  JSON.stringify(ctr.resources));

const http = (ctr.ports || []).find((p) => p.name === "http");
const probe = (p) => p?.httpGet && (p.httpGet.port === "http" || p.httpGet.port === http?.containerPort);
check("readinessProbe is GET /readyz on the http port", probe(ctr.readinessProbe) && ctr.readinessProbe.httpGet.path === "/readyz");
check("livenessProbe is GET /livez on the http port", probe(ctr.livenessProbe) && ctr.livenessProbe.httpGet.path === "/livez");

const sc = { ...pod.securityContext, ...ctr.securityContext };
check("securityContext: uid/gid 10001, non-root, read-only root, no privilege escalation, drop ALL",
  sc.runAsUser === 10001 && sc.runAsGroup === 10001 && sc.runAsNonRoot === true &&
  ctr.securityContext?.readOnlyRootFilesystem === true && ctr.securityContext?.allowPrivilegeEscalation === false &&
  (ctr.securityContext?.capabilities?.drop || []).includes("ALL") && !(ctr.securityContext?.capabilities?.add || []).length,
  JSON.stringify(sc));

const ann = dep.spec.template.metadata?.annotations || {};
check("Prometheus annotations scrape /metrics on the container port",
  ann["prometheus.io/scrape"] === "true" && ann["prometheus.io/path"] === "/metrics" &&
  num(ann["prometheus.io/port"]) === http?.containerPort, JSON.stringify(ann));

const labels = dep.spec.template.metadata?.labels || {};
const selects = (sel) => Object.entries(sel || {}).length > 0 && Object.entries(sel).every(([k, v]) => labels[k] === v);
check("the Deployment's selector matches its pod labels", selects(dep.spec.selector.matchLabels));
check("the Service selects the pods and targets the http port",
  selects(svc.spec.selector) && svc.spec.ports.some((p) => p.targetPort === "http" || p.targetPort === http?.containerPort));
check("the PodDisruptionBudget selects the pods", selects(pdb.spec.selector?.matchLabels));
check("the HorizontalPodAutoscaler scales this Deployment",
  hpa.spec.scaleTargetRef.kind === "Deployment" && hpa.spec.scaleTargetRef.name === dep.metadata.name &&
  hpa.spec.scaleTargetRef.apiVersion === "apps/v1");
// A PDB that allows no disruption at the HPA's minimum blocks every node drain.
const minPods = hpa.spec.minReplicas;
const allowed = pdb.spec.maxUnavailable !== undefined ? num(pdb.spec.maxUnavailable) : minPods - num(pdb.spec.minAvailable);
check(`at the HPA minimum (${minPods} pods) the PDB allows a disruption and leaves >= 2 serving`,
  allowed >= 1 && minPods - allowed >= 2);
check("a rolling update never goes below the replica count (maxUnavailable 0, maxSurge >= 1)",
  dep.spec.strategy?.rollingUpdate?.maxUnavailable === 0 && num(dep.spec.strategy?.rollingUpdate?.maxSurge) >= 1);

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
