/**
 * The fuzz properties, shared by the CI test (fuzz.test.ts, fixed seed, few runs) and the long campaign
 * (campaign.ts, `pnpm fuzz`). Each `check…` function throws an Error saying which property broke; an exception
 * from the code under test is reported as such, with its stack.
 *
 * 1. validators: every schema-derived object is accepted; every schema-breaking mutation is rejected, with an
 *    error at the mutated path, and every error has a path and a sentence.
 * 2. generator: a Prometheus and candidate monitors and rules (schema-derived, hand-written by
 *    monitor-arbitraries.ts, and mutated in meaning) never make it throw; every rejection has a field path inside
 *    the object and a reason; no planted Secret value reaches verdicts, problems, warnings or rule files, and in
 *    the rendered config only under the keys that are meant to carry one; the same input (in any order) gives the
 *    same bytes.
 */
import fc from 'fast-check';
import { generate, type FieldProblem, type GeneratorInput, type GeneratorOutput, type NamespaceInfo } from '@promop/config-generator';
import { VALIDATORS, type ValidationResult } from '@promop/crds';
import { load } from 'js-yaml';
import * as resourceSchemas from '@promop/crds/resource-schemas';
import { podMonitorArbitrary as handWrittenPodMonitor, serviceMonitorArbitrary as handWrittenServiceMonitor } from '@promop/config-generator/test-support';
import { mutate, type Mutation } from './mutations.ts';
import { ALL_FUZZ_NAMESPACES, FUZZ_REFERENCES, leakedSecretIn, PLANTED_CONFIG_MAPS, PLANTED_SECRETS, SECRET_MARKER } from './planted-secrets.ts';
import { schemaArbitrary, type SchemaNode } from './schema-arbitrary.ts';

/**
 * The schema of every kind packages/crds/src/resource-schemas.ts defines (the one source), keyed by the kind its
 * `kind` enum pins: a kind added there is fuzzed without a change here.
 */
export const SCHEMAS: Readonly<Record<string, SchemaNode>> = Object.fromEntries(
  Object.values(resourceSchemas as Record<string, unknown>).flatMap((schema) => {
    const kind = (schema as SchemaNode).properties?.kind?.enum?.[0];
    return typeof kind === 'string' ? [[kind, schema as SchemaNode]] : [];
  }),
);

/** Every kind with a schema. */
export const KINDS: readonly string[] = Object.keys(SCHEMAS).sort();

/** The validator of `kind` (every kind with a schema has one). */
export function validatorOf(kind: string): (input: unknown) => ValidationResult<unknown> {
  const validator = (VALIDATORS as Readonly<Record<string, (input: unknown) => ValidationResult<unknown>>>)[kind];
  if (!validator) throw new Error(`no validator for ${kind}`);
  return validator;
}

function schemaOf(kind: string): SchemaNode {
  const schema = SCHEMAS[kind];
  if (!schema) throw new Error(`no schema for ${kind}`);
  return schema;
}

/** Valid objects of `kind`, derived from its schema. */
export function validObject(kind: string): fc.Arbitrary<Record<string, unknown>> {
  return schemaArbitrary(schemaOf(kind), { references: FUZZ_REFERENCES });
}

/** A valid object of `kind` with one schema-breaking mutation, and the mutation. */
export function schemaBreakingCase(kind: string): fc.Arbitrary<{ object: Record<string, unknown>; mutation: Mutation } | undefined> {
  return fc.tuple(validObject(kind), fc.nat(), fc.nat()).map(([object, site, pick]) => mutate(object, schemaOf(kind), true, site, pick));
}

/** Objects of `kind` as users write them: valid, or with one mutation that keeps the schema but not the sense. */
export function userObject(kind: string): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(validObject(kind), fc.nat(), fc.nat(), fc.nat({ max: 2 })).map(([object, site, pick, mutated]) => (mutated === 0 ? mutate(object, schemaOf(kind), false, site, pick)?.object ?? object : object));
}

/** The GeneratorInput field holding candidates of `kind`: `serviceMonitors`, `probes`, `prometheusRules`... */
const inputField = (kind: string): string => `${kind.charAt(0).toLowerCase()}${kind.slice(1)}s`;

/** The kinds the generator takes as candidates (all but Prometheus). */
const CANDIDATE_KINDS = KINDS.filter((kind) => kind !== 'Prometheus');

/** Hand-written monitors (monitor-arbitraries.ts) mixed in with the schema-derived ones. */
const HAND_WRITTEN: Readonly<Record<string, fc.Arbitrary<unknown>>> = { ServiceMonitor: handWrittenServiceMonitor, PodMonitor: handWrittenPodMonitor };

/** The Prometheus spec's label selectors (`serviceMonitorSelector`, `ruleNamespaceSelector`...): `{}` selects all. */
const PROMETHEUS_SELECTORS = Object.entries(schemaOf('Prometheus').properties?.spec?.properties ?? {})
  .filter(([name, node]) => name.endsWith('Selector') && node.properties?.matchLabels !== undefined)
  .map(([name]) => name);

/** One generator case: its input, and a permutation seed for the determinism check. */
export interface GeneratorCase {
  input: GeneratorInput;
  /** Objects the validator refused (not given to the generator, as the API server would not store them). */
  refused: number;
  shuffle: number;
}

/** Generator inputs: one Prometheus and up to four candidates of each other kind, with the planted Secrets. */
export function generatorCase(): fc.Arbitrary<GeneratorCase> {
  const candidates = (kind: string): fc.Arbitrary<Array<Record<string, unknown>>> => {
    const handWritten = HAND_WRITTEN[kind] as fc.Arbitrary<Record<string, unknown>> | undefined;
    return fc.array(handWritten ? fc.oneof({ weight: 3, arbitrary: userObject(kind) }, { weight: 1, arbitrary: handWritten }) : userObject(kind), { maxLength: 4 });
  };
  return fc
    .record({
      prometheus: userObject('Prometheus'),
      // Most Prometheus objects select everything, so the candidates get rendered.
      openSelectors: fc.nat({ max: 4 }),
      candidates: fc.record(Object.fromEntries(CANDIDATE_KINDS.map((kind) => [kind, candidates(kind)]))),
      namespaceLabels: fc.array(fc.dictionary(fc.constantFrom('team', 'app'), fc.constantFrom('a', 'web')), { minLength: ALL_FUZZ_NAMESPACES.length, maxLength: ALL_FUZZ_NAMESPACES.length }),
      shuffle: fc.nat(),
    })
    .map((drawn) => {
      // map must not change what fast-check drew (it maps the same values again while shrinking).
      const { prometheus, openSelectors, candidates: byKind, namespaceLabels, shuffle } = structuredClone(drawn);
      const spec = (prometheus.spec ?? {}) as Record<string, unknown>;
      if (openSelectors > 0) for (const field of PROMETHEUS_SELECTORS) spec[field] = {};
      let refused = 0;
      // Two objects of one kind with the same namespace and name cannot exist in a cluster: rename repeats.
      const seen = new Set<string>();
      for (const object of Object.values(byKind).flat()) {
        const meta = object.metadata as { name: string; namespace: string };
        while (seen.has(`${String(object.kind)}/${meta.namespace}/${meta.name}`)) meta.name = `${meta.name}-2`;
        seen.add(`${String(object.kind)}/${meta.namespace}/${meta.name}`);
      }
      const accepted = (kind: string, objects: Array<Record<string, unknown>>): unknown[] =>
        objects.flatMap((object) => {
          const result = validatorOf(kind)(object);
          if (!result.ok) refused++;
          return result.ok ? [result.value] : [];
        });
      const validatedPrometheus = validatorOf('Prometheus')({ ...prometheus, spec });
      if (!validatedPrometheus.ok) refused++;
      const namespaces: NamespaceInfo[] = ALL_FUZZ_NAMESPACES.map((name, index) => ({ name, labels: { 'kubernetes.io/metadata.name': name, ...namespaceLabels[index] } }));
      const input = {
        prometheus: validatedPrometheus.ok ? validatedPrometheus.value : { ...prometheus, spec },
        ...Object.fromEntries(CANDIDATE_KINDS.map((kind) => [inputField(kind), accepted(kind, byKind[kind] ?? [])])),
        namespaces,
        secrets: PLANTED_SECRETS,
        configMaps: PLANTED_CONFIG_MAPS,
      } as unknown as GeneratorInput;
      return { input, refused, shuffle };
    });
}

/** The candidates of every kind in `input`, as [kind, objects]. */
function candidatesOf(input: GeneratorInput): Array<[string, Array<{ kind?: string; metadata: { namespace?: string; name?: string } }>]> {
  const fields = input as unknown as Record<string, unknown>;
  return CANDIDATE_KINDS.map((kind) => [kind, (fields[inputField(kind)] ?? []) as Array<{ metadata: { namespace?: string; name?: string } }>]);
}

/** `input` with every list of candidates (and the namespaces and Secrets) in another order. */
function reorderedInput(input: GeneratorInput, seed: number): GeneratorInput {
  const reordered: Record<string, unknown> = { ...input, namespaces: permuted(input.namespaces, seed), secrets: permuted(input.secrets, seed + 1) };
  candidatesOf(input).forEach(([kind, objects], index) => {
    reordered[inputField(kind)] = permuted(objects, seed + 2 + index);
  });
  return reordered as unknown as GeneratorInput;
}

/** Calls `run`; an exception is a bug of the code under test, reported as one. */
function noThrow<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    throw new Error(`${what} threw (it must return a value for any input): ${detail}`);
  }
}

const preview = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text.length > 1500 ? `${text.slice(0, 1500)}…` : text;
};

/** A path as the validators and generator write it: `spec.endpoints[0].interval`, `metadata.labels["a/b"]`. */
const FIELD_PATH = /^[A-Za-z_$][A-Za-z0-9_$-]*(\.[A-Za-z_$][A-Za-z0-9_$-]*|\[[0-9]+\]|\["(?:[^"\\]|\\.)*"\])*$/;

/** The segments of a field path (`a.b[0]["c.d"]` → a, b, 0, c.d). */
export function pathSegments(path: string): string[] {
  const segments: string[] = [];
  const pattern = /(?:^|\.)([A-Za-z_$][A-Za-z0-9_$-]*)|\[([0-9]+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const match of path.matchAll(pattern)) segments.push(match[1] ?? match[2] ?? (JSON.parse(match[3] as string) as string));
  return segments;
}

/**
 * True when `path` leads into `object`: it may end in fields the object does not have (a missing required field,
 * or the fields of a missing object, like `spec.prober.url` without `prober`), but never continues past a value
 * that has no fields (a string, a number).
 */
function pathLeadsInto(object: unknown, path: string): boolean {
  let current = object;
  for (const segment of pathSegments(path)) {
    if (current === undefined || current === null) return true;
    if (typeof current !== 'object') return false;
    current = (current as Record<string, unknown>)[segment];
  }
  return true;
}

/** A reason is a sentence: some words after the path, not just a code. */
function isSentence(text: string): boolean {
  return /[A-Za-z]{2,}/.test(text) && text.trim().split(/\s+/).length >= 2;
}

/** Property 1a: the validator of `kind` accepts an object derived from its schema. */
export function checkValidAccepted(kind: string, object: Record<string, unknown>): void {
  const result = noThrow(`validate${kind}`, () => validatorOf(kind)(object));
  if (!result.ok) throw new Error(`a schema-derived ${kind} was rejected: ${preview(result.errors)}\nobject: ${preview(object)}`);
}

/** Property 1b: a schema-breaking mutation is rejected, at its path, and every error has a path and a sentence. */
export function checkSchemaBreakRejected(kind: string, mutated: { object: Record<string, unknown>; mutation: Mutation }): void {
  const { object, mutation } = mutated;
  const result = noThrow(`validate${kind}`, () => validatorOf(kind)(object));
  if (result.ok) throw new Error(`${kind} with a ${mutation.kind} at ${mutation.path} was accepted\nobject: ${preview(object)}`);
  if (result.errors.length === 0) throw new Error(`${kind} rejected without any error (${mutation.kind} at ${mutation.path})`);
  for (const error of result.errors) {
    const prefix = `${error.path === '' ? '(object)' : error.path}: `;
    if (error.path !== '' && !FIELD_PATH.test(error.path)) throw new Error(`validation error with a malformed path ${JSON.stringify(error.path)}: ${error.message}`);
    if (!error.message.startsWith(prefix) || !isSentence(error.message.slice(prefix.length))) {
      throw new Error(`validation error without "<path>: <sentence>": ${JSON.stringify(error)}`);
    }
    const leak = leakedSecretIn(error.message);
    if (leak) throw new Error(`validation error quotes a Secret value (${leak}): ${error.message}`);
  }
  if (!result.errors.some((error) => error.path === mutation.path)) {
    throw new Error(`${kind} with a ${mutation.kind} at ${mutation.path}: no error names that path: ${preview(result.errors)}`);
  }
}

/**
 * Keys of prometheus.yaml whose value is meant to be a Secret's content (promop inlines them, as upstream does):
 * Prometheus' `<secret>` fields (and the non-secret halves of credential pairs promop reads from Secrets too).
 */
const SECRET_BEARING_KEYS = new Set(['password', 'credentials', 'bearer_token', 'client_secret', 'client_id', 'username', 'access_key', 'secret_key', 'proxy_connect_header', 'token']);
/** Jobs promop generates from monitors; every other job in scrape_configs comes from additionalScrapeConfigs. */
const GENERATED_JOB = /^(serviceMonitor|podMonitor|probe)\//;

/**
 * True when a Secret value at `place` (key path in a parsed config) sits where promop means to inline one: under a
 * credential key, or inside an item copied whole from the Secret an `additional*` field of the Prometheus names
 * (promop, like prometheus-operator, copies those lists as they are: that is why they live in Secrets).
 */
function mayHoldSecret(place: string[], config: Record<string, unknown>, spec: Record<string, unknown>): boolean {
  if (place.some((key) => SECRET_BEARING_KEYS.has(key))) return true;
  const [top, item] = place;
  if (top === 'scrape_configs' && spec.additionalScrapeConfigs) {
    const job = (config.scrape_configs as Array<{ job_name?: unknown }> | undefined)?.[Number(item?.slice(1, -1))];
    return !GENERATED_JOB.test(String(job?.job_name ?? ''));
  }
  if (top === 'alerting' && item === 'alert_relabel_configs' && spec.additionalAlertRelabelConfigs) return true;
  if (top === 'alerting' && item === 'alertmanagers' && spec.additionalAlertManagerConfigs) return true;
  return false;
}

/** Where in a parsed config a planted Secret value sits, as key paths (`scrape_configs[3].basic_auth.password`). */
function secretPlacesIn(value: unknown, path: string[], places: string[][]): void {
  if (typeof value === 'string') {
    if (leakedSecretIn(value)) places.push(path);
    return;
  }
  if (Array.isArray(value)) value.forEach((item, index) => secretPlacesIn(item, [...path, `[${index}]`], places));
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (leakedSecretIn(key)) places.push([...path, key]);
      secretPlacesIn(child, [...path, key], places);
    }
  }
}

function checkProblem(where: string, problem: FieldProblem, object: unknown): void {
  if (typeof problem.path !== 'string' || typeof problem.message !== 'string') throw new Error(`${where}: a problem without path or message: ${preview(problem)}`);
  if (!FIELD_PATH.test(problem.path)) throw new Error(`${where}: a problem whose path is not a field path: ${preview(problem)}`);
  if (!pathLeadsInto(object, problem.path)) throw new Error(`${where}: a problem whose path leads nowhere in the object: ${preview(problem)}`);
  if (!isSentence(problem.message)) throw new Error(`${where}: a problem whose message is not a sentence: ${preview(problem)}`);
}

/** A deterministic permutation of `items` (Fisher-Yates with a small LCG seeded by `seed`). */
function permuted<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items];
  let state = seed >>> 0 || 1;
  for (let i = copy.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/** Property 2: the generator on one case. Returns the output (for statistics). */
export function checkGenerator(fuzzCase: GeneratorCase): GeneratorOutput {
  const { input, shuffle } = fuzzCase;
  const output = noThrow('generate', () => generate(input));
  const objectOf = new Map<string, unknown>();
  objectOf.set(`Prometheus/${input.prometheus.metadata.namespace}/${input.prometheus.metadata.name}`, input.prometheus);
  for (const [kind, list] of candidatesOf(input)) {
    for (const object of list) objectOf.set(`${kind}/${object.metadata.namespace}/${object.metadata.name}`, object);
  }

  if (!output.ok && output.prometheusProblems.length === 0) throw new Error('ok: false without any Prometheus problem');
  for (const problem of output.prometheusProblems) checkProblem('prometheusProblems', problem, input.prometheus);
  for (const verdict of output.verdicts) {
    const key = `${verdict.resource.kind}/${verdict.resource.namespace}/${verdict.resource.name}`;
    if (!verdict.selected) {
      if (!isSentence(verdict.reason)) throw new Error(`${key}: not selected without a reason sentence: ${preview(verdict)}`);
      continue;
    }
    if (verdict.accepted) continue;
    if (verdict.problems.length === 0) throw new Error(`${key}: rejected without problems: ${preview(verdict)}`);
    const first = verdict.problems[0] as FieldProblem;
    if (verdict.reason !== `${first.path}: ${first.message}`) throw new Error(`${key}: reason is not "<path>: <sentence>" of the first problem: ${preview(verdict)}`);
    for (const problem of verdict.problems) checkProblem(key, problem, objectOf.get(key));
  }

  const mustNotHoldSecrets = JSON.stringify({ verdicts: output.verdicts, problems: output.prometheusProblems, warnings: output.prometheusWarnings, rules: output.ruleConfigMaps });
  const leak = leakedSecretIn(mustNotHoldSecrets);
  if (leak) throw new Error(`a Secret value reached verdicts, problems, warnings or rule files: …${leak}…`);
  const configTexts = [...output.configs, ...output.scrapeFiles.flat().map((file) => file.text)];
  for (const text of configTexts) {
    if (!leakedSecretIn(text)) continue;
    const places: string[][] = [];
    const config = load(text) as Record<string, unknown>;
    secretPlacesIn(config, [], places);
    for (const place of places) {
      if (!mayHoldSecret(place, config, (input.prometheus.spec ?? {}) as Record<string, unknown>)) throw new Error(`a Secret value is in the config at ${place.join('.')}, a key not meant to carry one`);
    }
  }

  // Same input, same bytes: rendered again from the same objects listed in another order (the shell lists them in
  // whatever order its caches hold them).
  const shuffled = reorderedInput(input, shuffle);
  const reordered = noThrow('generate (shuffled input)', () => generate(shuffled));
  if (JSON.stringify(reordered) !== JSON.stringify(output)) throw new Error('the same objects (listed in another order) gave different output');
  return output;
}

/** The marker, for tests that want to show it is really planted and reaches the config. */
export { SECRET_MARKER };
