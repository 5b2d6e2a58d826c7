/**
 * Reading one entry of a discovery list the CRD keeps opaque (`x-kubernetes-preserve-unknown-fields`): the API
 * server stores such entries as written, so the checks prometheus-operator's schema would make at `kubectl apply`
 * (types, required fields, enums, ranges, unknown fields) are made here, each a problem at its field path. The
 * HTTP client fields are left to sd-client.ts, which checks them against the CRD's own client schema.
 */
import type { SecretKeySelector } from '@promop/crds';
import { DURATION_PATTERN } from '@promop/crds';
import type { Findings } from '../../findings.ts';
import { compareCodePoints } from '../../go-map-order.ts';

/** One field's check: a sentence saying what is wrong with `value`, or undefined when it is a `T`. */
export interface FieldRule<T> {
  fault(value: unknown): string | undefined;
  /** Never set: carries the field's type for `FieldsOf`. */
  readonly type?: T;
}

/** The rules of a kind's own fields, by field name. */
export type FieldRules = Record<string, FieldRule<unknown>>;

/** The values the rules accept, every field optional (required ones are checked by `readOpaqueEntry`). */
export type FieldsOf<R extends FieldRules> = { [K in keyof R]?: R[K] extends FieldRule<infer T> ? T : never };

const DURATION = new RegExp(DURATION_PATTERN);

/** A string; `nonEmpty` as the CRD's MinLength=1, `oneOf` as its enum, `pattern` with the sentence for a mismatch. */
export function text(options: { nonEmpty?: boolean; oneOf?: readonly string[]; pattern?: { regex: RegExp; says: string } } = {}): FieldRule<string> {
  return {
    fault(value) {
      if (typeof value !== 'string') return 'must be a string';
      if (options.nonEmpty && value === '') return 'must not be empty';
      if (options.oneOf && !options.oneOf.includes(value)) return `must be one of: ${options.oneOf.join(', ')}`;
      if (options.pattern && !options.pattern.regex.test(value)) return options.pattern.says;
      return undefined;
    },
  };
}

/** true or false. */
export const flag: FieldRule<boolean> = { fault: (value) => (typeof value === 'boolean' ? undefined : 'must be true or false') };

/** A port number, as the CRD's int32 with Minimum=0 and Maximum=65535. */
export const port: FieldRule<number> = {
  fault: (value) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535 ? undefined : 'must be an integer from 0 to 65535'),
};

/** prometheus-operator's Duration (`30s`, `5m`, `1h30m`). */
export const duration: FieldRule<string> = {
  fault: (value) => (typeof value === 'string' && DURATION.test(value) && value !== '' ? undefined : 'must be a duration such as 30s or 5m'),
};

/** A key of a Secret in the object's namespace (`{name, key}`); the value is read later, never echoed. */
export const secretKey: FieldRule<SecretKeySelector> = {
  fault(value) {
    const ref = value as Record<string, unknown> | null;
    const shape = 'must be a Secret key reference {name, key}';
    if (typeof ref !== 'object' || ref === null || Array.isArray(ref)) return shape;
    if (typeof ref.key !== 'string' || ref.key === '') return shape;
    if (ref.name !== undefined && typeof ref.name !== 'string') return shape;
    if (ref.optional !== undefined && typeof ref.optional !== 'boolean') return shape;
    const extra = Object.keys(ref).find((field) => !['name', 'key', 'optional'].includes(field));
    return extra === undefined ? undefined : `${shape}; "${extra}" is not a field of it`;
  },
};

/** A discovery filter (EC2, Docker): a name and at least one non-empty value. */
export interface DiscoveryFilter {
  name: string;
  values: string[];
}

/** A list of filters, one per name (the CRD's list map keyed by name), each with at least one non-empty value. */
export const filters: FieldRule<DiscoveryFilter[]> = {
  fault(value) {
    if (!Array.isArray(value)) return 'must be a list of {name, values}';
    const names = new Set<string>();
    for (const [i, item] of value.entries()) {
      const filter = item as Record<string, unknown> | null;
      if (typeof filter !== 'object' || filter === null || typeof filter.name !== 'string' || filter.name === '') return `[${i}] needs a non-empty name`;
      if (Object.keys(filter).some((field) => field !== 'name' && field !== 'values')) return `[${i}] may only have name and values`;
      if (!Array.isArray(filter.values) || filter.values.length === 0) return `[${i}] (${filter.name}) needs at least one value`;
      if (filter.values.some((v) => typeof v !== 'string' || v === '')) return `[${i}] (${filter.name}) values must be non-empty strings`;
      if (names.has(filter.name)) return `[${i}] repeats the filter name "${filter.name}"`;
      names.add(filter.name);
    }
    return undefined;
  },
};

/** `filters` as Prometheus reads them, sorted by name as prometheus-operator writes them (stable output). */
export function renderFilters(list: readonly DiscoveryFilter[]): Record<string, unknown>[] {
  return [...list].sort((a, b) => compareCodePoints(a.name, b.name)).map((filter) => ({ name: filter.name, values: [...filter.values] }));
}

/**
 * The fields of `entry` that `rules` know, checked; the HTTP client fields named in `clientFields` are returned
 * unchecked in `client`. Every other field, a missing required one and a wrong value is a problem at its path
 * (`kind` names the discovery in the sentence). Returns undefined when a problem was found.
 */
export function readOpaqueEntry<R extends FieldRules>(
  entry: unknown,
  shape: { kind: string; rules: R; required: readonly (keyof R & string)[]; clientFields: readonly string[] },
  path: string,
  findings: Findings,
): { fields: FieldsOf<R>; client: Record<string, unknown> } | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    findings.problem(path, `must be an object (a ${shape.kind} discovery configuration)`);
    return undefined;
  }
  const before = findings.problems.length;
  const fields: Record<string, unknown> = {};
  const client: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(entry)) {
    const rule = shape.rules[name];
    if (shape.clientFields.includes(name)) client[name] = value;
    else if (!rule) findings.problem(`${path}.${name}`, `is not a field of ${shape.kind} discovery`);
    else if (value !== undefined && value !== null) {
      const fault = rule.fault(value);
      if (fault) findings.problem(`${path}.${name}`, fault);
      else fields[name] = value;
    }
  }
  for (const name of shape.required) {
    const value = (entry as Record<string, unknown>)[name];
    if (value === undefined || value === null) findings.problem(`${path}.${name}`, `is required by ${shape.kind} discovery`);
  }
  return findings.problems.length === before ? { fields: fields as FieldsOf<R>, client } : undefined;
}
