/**
 * Mutations of valid objects, chosen with the schema in hand: each one either breaks a schema rule at a known
 * path (the validators must reject the object and name that path) or keeps the object schema-valid but hostile
 * in meaning (a regex RE2 refuses, broken PromQL, a duration that overflows, a huge string or number, control
 * characters), which the API server accepts and the generator must judge without an exception.
 */
import { pointerToPath } from '@promop/crds';
import type { SchemaNode } from './schema-arbitrary.ts';

/** One place in an object and the schema node that describes it. */
interface Site {
  /** JSON pointer segments from the root. */
  segments: string[];
  node: SchemaNode;
  value: unknown;
  /** Defined when the site is a property of an object (not an item, not the root). */
  parentNode?: SchemaNode;
  /** The property name, or the map key, or undefined for an item. */
  name?: string;
}

/** What was done, where (as the validators write paths), and whether the schema still holds. */
export interface Mutation {
  kind: string;
  /** `spec.endpoints[0].interval`: the path a schema-breaking mutation must be reported at. */
  path: string;
  /** True when the result breaks the schema (the validators must reject it). */
  breaksSchema: boolean;
}

/** The mutated object (a deep copy) and what was done to it, or undefined when no mutation applies. */
export interface Mutated {
  object: Record<string, unknown>;
  mutation: Mutation;
}

const BAD_DURATIONS = ['5 minutes', '1.5s', '-1s', '', '30', 'abc', '1m 30s', '1M', '∞', '1s1m'];
const BAD_REGEXES = ['(', 'a(?=b)', '(?<=a)b', '\\1', '[z-a]', 'x{1001}', '\\p{Foo}', '(?i', '*', '(?P<1>a)', 'a**', '(a{3}){334}', '((a{10}){10}){11}', `${'('.repeat(999)}a${')'.repeat(999)}`];
const BAD_PROMQL = ['sum by (job', 'rate(up[5m]', '', '1 +', 'up{', '}}{{', 'rate(up)', 'up offset', 'sum(up) by (', '"a" + 1', 'histogram_quantile(0.9)', 'up[5m]'];
const HOSTILE_STRINGS = ['', ' ', '\u0000', '\ud800', 'a\nb: c', '{{', '}}', '$(SHARD)', '${1}', '\u202e', '🔥', '"', "'", '\\', '- x', ': ', '#'];
const HOSTILE_DURATIONS = ['0', '0s', '999999999999y', `${'9'.repeat(400)}s`, '1y1w1d1h1m1s1ms', '0ms'];
const UNKNOWN_FIELDS = ['fuzzUnknownField', 'Interval', 'intervall', 'selectors', 'spec'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(node: SchemaNode): string[] {
  if (node['x-kubernetes-int-or-string']) return ['integer', 'string'];
  if (node.anyOf) return node.anyOf.flatMap((branch) => typesOf(branch));
  if (node.type === undefined) return [];
  return Array.isArray(node.type) ? [...node.type] : [node.type as string];
}

/** Every site of `value` the schema describes (opaque embedded objects are not entered). */
function collectSites(value: unknown, node: SchemaNode, segments: string[], sites: Site[], parentNode?: SchemaNode, name?: string): void {
  sites.push({ segments, node, value, ...(parentNode ? { parentNode } : {}), ...(name !== undefined ? { name } : {}) });
  if (Array.isArray(value) && node.items) {
    value.forEach((item, index) => collectSites(item, node.items as SchemaNode, [...segments, String(index)], sites));
  } else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      const childNode = node.properties?.[key] ?? (typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined);
      if (childNode) collectSites(child, childNode, [...segments, key], sites, node.properties?.[key] ? node : undefined, key);
    }
  }
}

function setAt(root: Record<string, unknown>, segments: string[], replace: (current: unknown) => unknown): void {
  let parent: unknown = root;
  for (const segment of segments.slice(0, -1)) parent = (parent as Record<string, unknown>)[segment];
  const last = segments[segments.length - 1] as string;
  (parent as Record<string, unknown>)[last] = replace((parent as Record<string, unknown>)[last]);
}

function removeAt(root: Record<string, unknown>, segments: string[]): void {
  let parent: unknown = root;
  for (const segment of segments.slice(0, -1)) parent = (parent as Record<string, unknown>)[segment];
  delete (parent as Record<string, unknown>)[segments[segments.length - 1] as string];
}

const toPath = (segments: string[]): string => pointerToPath(segments.length === 0 ? '' : `/${segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`);

/** A value of a JSON type the schema does not allow at this node, or undefined when the node names no type. */
function wrongTypeValue(node: SchemaNode, pick: number): unknown {
  const allowed = new Set(typesOf(node));
  if (allowed.size === 0) return undefined;
  // 1.5 breaks `integer` only; 42 is an integer, which `number` also allows.
  const candidates: Array<[string, unknown]> = [
    ['string', '30s'],
    ['integer', 42],
    ['number', 1.5],
    ['boolean', true],
    ['null', null],
    ['array', ['x']],
    ['object', { a: 'b' }],
  ];
  const wrong = candidates.filter(([type]) => !allowed.has(type) && !(type === 'integer' && allowed.has('number')));
  return wrong[pick % wrong.length]?.[1];
}

type MutationMaker = (site: Site, pick: number) => { kind: string; apply: (root: Record<string, unknown>) => void; breaksSchema: boolean; segments?: string[] } | undefined;

/** Mutations that break the schema; each must be reported by the validators at its path. */
const SCHEMA_BREAKERS: MutationMaker[] = [
  (site, pick) => {
    if (site.segments.length < 2) return undefined; // apiVersion/kind/metadata/spec themselves: covered at their children
    const wrong = wrongTypeValue(site.node, pick);
    if (wrong === undefined) return undefined;
    return { kind: 'wrong type', breaksSchema: true, apply: (root) => setAt(root, site.segments, () => structuredClone(wrong)) };
  },
  (site, pick) => {
    if (typeof site.value !== 'number' || site.node.minimum === undefined) return undefined;
    const below = site.node.minimum - 1 - (pick % 1000);
    return { kind: 'below minimum', breaksSchema: true, apply: (root) => setAt(root, site.segments, () => below) };
  },
  (site, pick) => {
    if (typeof site.value !== 'number' || site.node.maximum === undefined) return undefined;
    const above = site.node.maximum + 1 + (pick % 1000);
    return { kind: 'above maximum', breaksSchema: true, apply: (root) => setAt(root, site.segments, () => above) };
  },
  (site, pick) => {
    if (typeof site.value !== 'string' || !site.node.pattern) return undefined;
    const pattern = new RegExp(site.node.pattern);
    const bad = BAD_DURATIONS.concat(['ftp://x', '12 GB', '1.5.5MB', 'http:/x']).filter((value) => !pattern.test(value));
    const value = bad[pick % bad.length];
    if (value === undefined) return undefined;
    return { kind: 'pattern mismatch', breaksSchema: true, apply: (root) => setAt(root, site.segments, () => value) };
  },
  (site, pick) => {
    if (!site.node.enum) return undefined;
    const value = ['', 'unknown', 'KEEP ', 'Bogus'].filter((v) => !site.node.enum?.includes(v))[pick % 3];
    return { kind: 'not in enum', breaksSchema: true, apply: (root) => setAt(root, site.segments, () => value) };
  },
  (site, pick) => {
    if (!isObject(site.value) || site.node.additionalProperties !== false || !site.node.properties) return undefined;
    const name = UNKNOWN_FIELDS.filter((field) => !site.node.properties?.[field])[pick % 4] ?? 'fuzzUnknownField';
    return { kind: 'unknown field', breaksSchema: true, segments: [...site.segments, name], apply: (root) => setAt(root, [...site.segments, name], () => 'x') };
  },
  (site, pick) => {
    if (!isObject(site.value) || !site.node.required || site.node.required.length === 0) return undefined;
    if (site.segments.length === 0) return undefined;
    const required = site.node.required[pick % site.node.required.length] as string;
    if (site.segments.length === 1 && site.segments[0] === 'metadata' && required !== 'name') return undefined;
    return { kind: 'missing required field', breaksSchema: true, segments: [...site.segments, required], apply: (root) => removeAt(root, [...site.segments, required]) };
  },
  (site) => {
    if (typeof site.value !== 'string' || !site.node.minLength) return undefined;
    return { kind: 'too short', breaksSchema: true, apply: (root) => setAt(root, site.segments, () => '') };
  },
  (site) => {
    if (typeof site.value !== 'string' || site.node.format !== 'date-time') return undefined;
    return { kind: 'not a date-time', breaksSchema: true, apply: (root) => setAt(root, site.segments, () => 'yesterday') };
  },
];

/** Mutations that keep the schema but stress meaning and size; the generator must judge them calmly. */
const MEANING_BREAKERS: MutationMaker[] = [
  (site, pick) => {
    if (site.name !== 'regex' || typeof site.value !== 'string') return undefined;
    const value = BAD_REGEXES[pick % BAD_REGEXES.length];
    return { kind: 'bad regex', breaksSchema: false, apply: (root) => setAt(root, site.segments, () => value) };
  },
  (site, pick) => {
    if (site.name !== 'expr') return undefined;
    const value = BAD_PROMQL[pick % BAD_PROMQL.length];
    return { kind: 'bad PromQL', breaksSchema: false, apply: (root) => setAt(root, site.segments, () => value) };
  },
  (site, pick) => {
    if (typeof site.value !== 'string' || !site.node.pattern || !site.node.pattern.includes('ms)?)$')) return undefined;
    const value = HOSTILE_DURATIONS[pick % HOSTILE_DURATIONS.length];
    return { kind: 'extreme duration', breaksSchema: false, apply: (root) => setAt(root, site.segments, () => value) };
  },
  (site, pick) => {
    if (typeof site.value !== 'string' || site.node.pattern || site.node.enum || site.node.format) return undefined;
    const size = [1_000, 100_000, 1_000_000][pick % 3] as number;
    return { kind: `huge string (${size} characters)`, breaksSchema: false, apply: (root) => setAt(root, site.segments, (current) => `${String(current)}${'x'.repeat(size)}`) };
  },
  (site, pick) => {
    if (typeof site.value !== 'string' || site.node.pattern || site.node.enum || site.node.format || site.node.minLength) return undefined;
    const value = HOSTILE_STRINGS[pick % HOSTILE_STRINGS.length];
    return { kind: 'hostile string', breaksSchema: false, apply: (root) => setAt(root, site.segments, () => value) };
  },
  (site, pick) => {
    if (typeof site.value !== 'number' || !typesOf(site.node).includes('integer')) return undefined;
    const value = [2 ** 31 - 1, 2 ** 53 - 1, 2 ** 63, 1e300][pick % 4] as number;
    if (site.node.maximum !== undefined && value > site.node.maximum) return undefined;
    return { kind: 'huge number', breaksSchema: false, apply: (root) => setAt(root, site.segments, () => value) };
  },
  (site, pick) => {
    if (!Array.isArray(site.value) || site.value.length === 0) return undefined;
    const copies = [50, 500][pick % 2] as number;
    return { kind: `long list (${copies} items)`, breaksSchema: false, apply: (root) => setAt(root, site.segments, (current) => Array.from({ length: copies }, () => structuredClone((current as unknown[])[0]))) };
  },
];

/**
 * Applies one mutation to a copy of `object`: a schema breaker when `breakSchema` is true, else a meaning
 * breaker. `pickSite` and `pickMutation` choose among the applicable ones (any integers; fast-check draws them).
 */
export function mutate(object: Record<string, unknown>, schema: SchemaNode, breakSchema: boolean, pickSite: number, pickMutation: number): Mutated | undefined {
  const sites: Site[] = [];
  collectSites(object, schema, [], sites);
  const makers = breakSchema ? SCHEMA_BREAKERS : MEANING_BREAKERS;
  const options: Array<{ site: Site; made: NonNullable<ReturnType<MutationMaker>> }> = [];
  for (const site of sites) {
    // The API server checks metadata itself (names of at most 253 characters...): only its schema is fuzzed here.
    if (!breakSchema && site.segments[0] !== 'spec') continue;
    for (const maker of makers) {
      const made = maker(site, pickMutation);
      if (made) options.push({ site, made });
    }
  }
  const chosen = options[pickSite % Math.max(1, options.length)];
  if (!chosen) return undefined;
  const copy = structuredClone(object);
  chosen.made.apply(copy);
  return { object: copy, mutation: { kind: chosen.made.kind, path: toPath(chosen.made.segments ?? chosen.site.segments), breaksSchema: chosen.made.breaksSchema } };
}
