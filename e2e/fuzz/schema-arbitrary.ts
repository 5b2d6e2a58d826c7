/**
 * fast-check arbitraries derived from the CRD schemas (packages/crds/src/schemas, the one source of the types,
 * the validators and crds/*.yaml): valid objects of every kind, built by walking the JSON schema generically, so
 * a field added to a schema is fuzzed without touching this file.
 *
 * The walk knows the JSON schema keywords the CRDs use (type, properties, required, additionalProperties, items,
 * enum, pattern, format, minimum, maximum, minLength, anyOf, x-kubernetes-int-or-string,
 * x-kubernetes-preserve-unknown-fields). Plain strings would almost never be a valid regex, label name or PromQL
 * expression, and the generator would reject nearly everything at its first check; so a few *hints*, keyed by
 * property name (never by kind or path), draw realistic values for the names that carry a language of their own
 * (`regex`, `expr`, `sourceLabels`...). A field without a hint still gets schema-valid values.
 */
import fc from 'fast-check';
import type { SchemaNode } from '@promop/crds';
import { ruleCheckCaseArbitrary } from '@promop/prometheus-lang/test-support';

/** The parts of a JSON schema node the walk reads (one shape for every schema walk, in @promop/crds). */
export type { SchemaNode };

/** Namespaces every generated object lives in; the fuzz scenario plants its Secrets in each. */
export const FUZZ_NAMESPACES = ['team-a', 'team-b', 'monitoring'] as const;

/** Where Secret and ConfigMap references point: names and keys the scenario plants, plus some that do not exist. */
export interface ReferencePool {
  secretNames: readonly string[];
  secretKeys: readonly string[];
  configMapNames: readonly string[];
  configMapKeys: readonly string[];
}

/** Options of `schemaArbitrary`. */
export interface SchemaArbitraryOptions {
  references: ReferencePool;
}

const LABEL_KEYS = ['app', 'team', 'app.kubernetes.io/name', 'tier', 'k8s-app', 'example.com/owner', 'severity'];
const LABEL_VALUES = ['a', 'web', 'team-a', 'critical', 'x.y_z', ''];
const LABEL_NAMES = ['__address__', '__meta_kubernetes_pod_name', '__meta_kubernetes_service_label_app', 'job', 'instance', 'app', '__name__', 'team', '__tmp_x', 'le'];
const REGEXES = ['(.*)', '(.+)', 'foo|bar', '[[:alpha:]]+', '(?i)debug_.*', '\\d+', 'a{2,3}', 'go_.*', '(?P<x>a)b', '8080', '', '^up$'];
const METRIC_NAMES = ['up', 'job:up:sum', 'HighErrorRate', 'TargetDown', 'x', 'node_cpu_seconds_total'];
const PORT_NAMES = ['web', 'metrics', 'https-main', 'http'];
const PATHS = ['/metrics', '/federate', '/api/v1/metrics', 'metrics'];
const WORDS = ['a', 'x', 'web', 'promop', 'team-a', 'default', '$(SHARD)', '${1}', '{{ $labels.job }}', 'ü', ' ', 'a b', 'a\nb'];

/** Arbitrary JSON for opaque embedded Kubernetes objects (containers, affinity...), kept small. */
const opaqueObject = fc.dictionary(fc.constantFrom('name', 'image', 'key', 'value', 'limits', 'x'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });

/** Plain strings: words the generator meets in real manifests, and anything fast-check draws. */
const anyString = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });

/** A PromQL expression from the rule checker's grammar-driven generator (well-typed mostly, some not). */
const promqlExpression = ruleCheckCaseArbitrary()
  .filter((c) => c.kind === 'expr')
  .map((c) => (c.kind === 'expr' ? c.expr : ''));
/** An alert template (Go text/template with Prometheus' functions), or a plain string. */
const alertTemplate = ruleCheckCaseArbitrary().map((c) => (c.kind === 'template' ? c.template : c.expr));

/**
 * Realistic values for the property names whose strings are a language of their own. Keyed by name only, so
 * every kind and every nesting level that uses the name gets them; the schema node must still be a string (or a
 * list of strings for `sourceLabels`), else the hint is ignored.
 */
function hintFor(name: string, node: SchemaNode, insideRules: boolean): fc.Arbitrary<unknown> | undefined {
  const isString = node.type === 'string' && !node.enum && !node.pattern;
  if (name === 'expr' && node['x-kubernetes-int-or-string']) return fc.oneof({ weight: 9, arbitrary: promqlExpression }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 3 }) });
  if (name === 'sourceLabels' && node.type === 'array') return fc.array(fc.constantFrom(...LABEL_NAMES), { minLength: 1, maxLength: 3 });
  if (name === 'annotations' && insideRules && node.type === 'object') return fc.dictionary(fc.constantFrom('summary', 'description', 'runbook_url'), alertTemplate, { maxKeys: 2 });
  if (!isString) return undefined;
  switch (name) {
    case 'regex':
      return fc.constantFrom(...REGEXES);
    case 'targetLabel':
    case 'jobLabel':
    case 'labelName':
    case 'replicaExternalLabelName':
    case 'prometheusExternalLabelName':
    case 'enforcedNamespaceLabel':
      return fc.constantFrom(...LABEL_NAMES, ...LABEL_KEYS);
    case 'alert':
    case 'record':
      return fc.constantFrom(...METRIC_NAMES);
    case 'port':
      return fc.constantFrom(...PORT_NAMES);
    case 'path':
      return fc.constantFrom(...PATHS);
    case 'version':
      return fc.constantFrom('v3.16.0', 'v3.15.1', 'v2.55.0', '3.0.0', 'v2.45.0', 'v2.20.0', '', 'latest');
    case 'separator':
      return fc.constantFrom(';', '-', '');
    case 'replacement':
      return fc.constantFrom('$1', '${1}', 'x', '');
    default:
      return undefined;
  }
}

/** A value of the schema's JSON type(s), for nodes without a more specific keyword. */
function typedArbitrary(node: SchemaNode, name: string, context: WalkContext): fc.Arbitrary<unknown> {
  const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
  if (types.length > 1) return fc.oneof(...types.map((type) => typedArbitrary({ ...node, type }, name, context)));
  switch (types[0]) {
    case 'string':
      return stringArbitrary(node, name);
    case 'integer':
      return integerArbitrary(node);
    case 'number':
      return fc.oneof(integerArbitrary(node), fc.double({ min: node.minimum ?? -1e6, max: node.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(walk(node.items ?? {}, `${name}[]`, context), { minLength: node.minItems ?? 0, maxLength: context.depth > 4 ? 1 : 3 });
    case 'object':
      return objectArbitrary(node, name, context);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function stringArbitrary(node: SchemaNode, name: string): fc.Arbitrary<string> {
  if (node.pattern) return fc.stringMatching(new RegExp(node.pattern), { size: 'xsmall' });
  if (node.format === 'date-time') return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
  const base = name === 'name' || name.endsWith('Name') ? fc.oneof(fc.constantFrom('a', 'web', 'main', 'g1'), anyString) : anyString;
  const minLength = node.minLength ?? 0;
  return minLength > 0 ? base.map((s) => (s.length >= minLength ? s : s.padEnd(minLength, 'x'))) : base;
}

function integerArbitrary(node: SchemaNode): fc.Arbitrary<number> {
  const min = node.minimum ?? -5;
  const max = node.maximum ?? 2 ** 31 - 1;
  // Mostly small numbers, as users write them; sometimes the whole int32 range the API server allows.
  return fc.oneof({ weight: 6, arbitrary: fc.integer({ min, max: Math.min(max, min + 10) }) }, { weight: 1, arbitrary: fc.integer({ min, max }) });
}

interface WalkContext {
  depth: number;
  insideRules: boolean;
  options: SchemaArbitraryOptions;
}

const ABSENT = Symbol('absent');

/** `{key, name, optional}`: a SecretKeySelector or ConfigMapKeySelector (matched by shape: spreads copy them). */
function isKeySelector(node: SchemaNode): boolean {
  const keys = Object.keys(node.properties ?? {}).sort().join(',');
  return keys === 'key,name,optional' && node.required?.length === 1 && node.required[0] === 'key';
}

function keySelectorArbitrary(kind: 'Secret' | 'ConfigMap', references: ReferencePool): fc.Arbitrary<unknown> {
  const names = kind === 'Secret' ? references.secretNames : references.configMapNames;
  const keys = kind === 'Secret' ? references.secretKeys : references.configMapKeys;
  return fc.record(
    { name: fc.constantFrom(...names), key: fc.constantFrom(...keys), optional: fc.boolean() },
    { requiredKeys: ['key', 'name'] },
  );
}

function objectArbitrary(node: SchemaNode, name: string, context: WalkContext): fc.Arbitrary<unknown> {
  if (isKeySelector(node)) return keySelectorArbitrary(name === 'configMap' ? 'ConfigMap' : 'Secret', context.options.references);
  const properties = Object.entries(node.properties ?? {});
  if (properties.length === 0) {
    if (node.additionalProperties && typeof node.additionalProperties === 'object') {
      const keys = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...LABEL_KEYS) }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 8 }) });
      const values = node.additionalProperties.type === 'string' ? fc.constantFrom(...LABEL_VALUES, 'a b', '{{ $value }}') : walk(node.additionalProperties, `${name}{}`, context);
      return fc.dictionary(keys, values, { maxKeys: 3 });
    }
    if (node['x-kubernetes-preserve-unknown-fields']) return opaqueObject;
    return fc.constant({});
  }
  const required = new Set(node.required ?? []);
  // Few optional fields per object (about four whatever the schema's size), so objects stay readable.
  const optional = properties.filter(([key]) => !required.has(key)).length;
  const presentWeight = Math.max(1, Math.round(100 * Math.min(0.5, 4 / Math.max(1, optional))));
  const inner: WalkContext = { ...context, depth: context.depth + 1 };
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, child] of properties) {
    const value = walk(child, key, { ...inner, insideRules: context.insideRules || key === 'rules' });
    fields[key] = required.has(key) ? value : fc.oneof({ weight: 100 - presentWeight, arbitrary: fc.constant(ABSENT) }, { weight: presentWeight, arbitrary: value });
  }
  return fc.record(fields).map((record) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== ABSENT)));
}

function walk(node: SchemaNode, name: string, context: WalkContext): fc.Arbitrary<unknown> {
  const hinted = hintFor(name, node, context.insideRules);
  if (hinted) return hinted;
  if (node.enum) return fc.constantFrom(...node.enum);
  if (node['x-kubernetes-int-or-string'] || node.anyOf) {
    const branches = node.anyOf ?? [{ type: 'integer' }, { type: 'string' }];
    return fc.oneof(...branches.map((branch) => typedArbitrary({ ...branch, ...(branch.type === 'integer' ? { minimum: 0 } : {}) }, name, context)));
  }
  return typedArbitrary(node, name, context);
}

/**
 * Valid objects of one kind: every field the schema defines may appear (about four optional ones per object),
 * required fields always do; references point into `options.references`. `metadata` names the object in one of
 * FUZZ_NAMESPACES; `status` is left out (users do not write it, the generator does not read it).
 */
export function schemaArbitrary(schema: SchemaNode, options: SchemaArbitraryOptions): fc.Arbitrary<Record<string, unknown>> {
  const context: WalkContext = { depth: 0, insideRules: false, options };
  const properties = schema.properties ?? {};
  const spec = properties.spec ? walk(properties.spec, 'spec', context) : fc.constant({});
  const metadata = fc.record(
    {
      name: fc.constantFrom('a', 'b', 'main', 'web-1', 'x'),
      namespace: fc.constantFrom(...FUZZ_NAMESPACES),
      uid: fc.uuid(),
      labels: fc.dictionary(fc.constantFrom(...LABEL_KEYS), fc.constantFrom(...LABEL_VALUES), { maxKeys: 2 }),
    },
    { requiredKeys: ['name', 'namespace', 'uid'] },
  );
  return fc.record({ metadata, spec }).map(({ metadata: meta, spec: body }) => ({
    apiVersion: (properties.apiVersion?.enum?.[0] as string | undefined) ?? 'monitoring.coreos.com/v1',
    kind: (properties.kind?.enum?.[0] as string | undefined) ?? '',
    metadata: meta,
    spec: body,
  }));
}
