/**
 * ajv validators compiled from the same schema literals as the CRDs. Bad input is a value, never an exception:
 * each validator returns either the object (with the CRD defaults filled in, as the API server would store it)
 * or a list of errors naming the field path in a sentence a user understands.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import * as compiled from './generated/validators.js';
import { PATTERN_DESCRIPTIONS } from './schemas/common.ts';
import { INT_OR_STRING } from './validator-keywords.ts';
import type { Kind } from './kinds.ts';
import type { Alertmanager, AlertmanagerConfig, ThanosRuler, PodMonitor, Probe, Prometheus, PrometheusAgent, PrometheusRule, ScrapeConfig, ServiceMonitor, ResourceOfKind } from './types.ts';

/** One problem found in an object. */
export interface ValidationError {
  /** Where, as in `spec.endpoints[0].interval`. */
  path: string;
  /** A whole sentence starting with the path, e.g. `spec.endpoints[0].interval: "5 minutes" is not a duration like 30s or 1m`. */
  message: string;
}

/** The outcome of validating an object: the defaulted object, or every problem found. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: ValidationError[] };

/** The unescaped segments of a JSON pointer (RFC 6901: `~1` is `/`, `~0` is `~`); none for the root `''`. */
function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Turns a JSON pointer (`/spec/endpoints/0/interval`) into the path users write (`spec.endpoints[0].interval`). */
export function pointerToPath(pointer: string): string {
  let path = '';
  for (const segment of pointerSegments(pointer)) {
    if (/^[0-9]+$/.test(segment)) path += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(segment)) path += path === '' ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`; // label keys such as app.kubernetes.io/name
  }
  return path;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return JSON.stringify(value);
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

/** Path of a child property, e.g. the missing or unknown field an ajv error names. */
function childPath(pointer: string, child: string): string {
  return pointerToPath(`${pointer}/${child.replace(/~/g, '~0').replace(/\//g, '~1')}`);
}

/** Phrases one ajv error; returns undefined for errors another error already explains. */
function phrase(error: ErrorObject, root: unknown): ValidationError | undefined {
  const path = pointerToPath(error.instancePath);
  const value = valueAt(root, error.instancePath);
  const params = error.params as Record<string, unknown>;
  const at = (p: string, sentence: string): ValidationError => ({ path: p, message: `${p === '' ? '(object)' : p}: ${sentence}` });
  switch (error.keyword) {
    case 'required':
      return at(childPath(error.instancePath, String(params.missingProperty)), 'is required');
    case 'additionalProperties':
      return at(childPath(error.instancePath, String(params.additionalProperty)), 'is not a known field');
    case 'pattern': {
      const known = PATTERN_DESCRIPTIONS[String(params.pattern)];
      return at(path, `${describeValue(value)} ${known ?? `does not match the pattern ${String(params.pattern)}`}`);
    }
    case 'enum':
      return at(path, `${describeValue(value)} is not one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}`);
    case 'type':
      return at(path, `must be ${TYPE_NAMES[String(params.type)] ?? String(params.type)}, not ${describeValue(value)}`);
    case 'minimum':
    case 'exclusiveMinimum':
      return at(path, `${describeValue(value)} is below the minimum of ${String(params.limit)}`);
    case 'maximum':
    case 'exclusiveMaximum':
      return at(path, `${describeValue(value)} is above the maximum of ${String(params.limit)}`);
    case 'minLength':
      return at(path, params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters long`);
    case 'minItems':
      return at(path, `must have at least ${String(params.limit)} items`);
    case 'format':
      return at(path, `${describeValue(value)} is not a valid ${String(params.format)}`);
    case INT_OR_STRING:
      return at(path, `must be an integer or a string, not ${describeValue(value)}`);
    case 'anyOf':
      // The only anyOf in these schemas is int-or-string, whose own keyword reports the problem.
      return undefined;
    default:
      return at(path, error.message ?? 'is invalid');
  }
}

/** The value `pointer` points at inside `root`, or undefined when the path leaves the object. */
function valueAt(root: unknown, pointer: string): unknown {
  let current = root;
  for (const key of pointerSegments(pointer)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Phrases ajv's errors, dropping branch errors of anyOf and exact duplicates. */
function toValidationErrors(errors: readonly ErrorObject[], root: unknown): ValidationError[] {
  const result: ValidationError[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.schemaPath.includes('/anyOf/')) continue;
    const phrased = phrase(error, root);
    if (!phrased || seen.has(phrased.message)) continue;
    seen.add(phrased.message);
    result.push(phrased);
  }
  return result;
}

/**
 * Wraps one compiled validator (ajv standalone code generated from the schema by scripts/generate-validators.ts,
 * so no process pays for compiling the schemas: that took most of a second).
 */
function validatorFor<T>(validate: ValidateFunction): (input: unknown) => ValidationResult<T> {
  return (input: unknown) => {
    // Defaults are written into a copy: the caller's object (often an informer cache entry) stays untouched.
    let copy: unknown;
    try {
      copy = structuredClone(input);
    } catch {
      return { ok: false, errors: [{ path: '', message: '(object): is not plain JSON data' }] };
    }
    if (validate(copy)) return { ok: true, value: copy as T };
    return { ok: false, errors: toValidationErrors(validate.errors ?? [], copy) };
  };
}

/** Checks a Prometheus object against the CRD schema; never throws. */
export const validatePrometheus: (input: unknown) => ValidationResult<Prometheus> = validatorFor(compiled.Prometheus);
/** Checks a PrometheusAgent object (v1alpha1) against the CRD schema; never throws. */
export const validatePrometheusAgent: (input: unknown) => ValidationResult<PrometheusAgent> = validatorFor(compiled.PrometheusAgent);
/** Checks an Alertmanager object against the CRD schema; never throws. */
export const validateAlertmanager: (input: unknown) => ValidationResult<Alertmanager> = validatorFor(compiled.Alertmanager);
/** Checks a ThanosRuler object against the CRD schema; never throws. */
export const validateThanosRuler: (input: unknown) => ValidationResult<ThanosRuler> = validatorFor(compiled.ThanosRuler);
/** Checks an AlertmanagerConfig object (v1alpha1) against the CRD schema; never throws. */
export const validateAlertmanagerConfig: (input: unknown) => ValidationResult<AlertmanagerConfig> = validatorFor(compiled.AlertmanagerConfig);
/** Checks a ServiceMonitor object against the CRD schema; never throws. */
export const validateServiceMonitor: (input: unknown) => ValidationResult<ServiceMonitor> = validatorFor(compiled.ServiceMonitor);
/** Checks a PodMonitor object against the CRD schema; never throws. */
export const validatePodMonitor: (input: unknown) => ValidationResult<PodMonitor> = validatorFor(compiled.PodMonitor);
/** Checks a Probe object against the CRD schema; never throws. */
export const validateProbe: (input: unknown) => ValidationResult<Probe> = validatorFor(compiled.Probe);
/** Checks a ScrapeConfig object (v1alpha1) against the CRD schema; never throws. */
export const validateScrapeConfig: (input: unknown) => ValidationResult<ScrapeConfig> = validatorFor(compiled.ScrapeConfig);
/** Checks a PrometheusRule object against the CRD schema; never throws. */
export const validatePrometheusRule: (input: unknown) => ValidationResult<PrometheusRule> = validatorFor(compiled.PrometheusRule);

/** The validator of each kind, for code that handles every kind alike (`promop render`, table-driven tests). */
export const VALIDATORS: { readonly [K in Kind]: (input: unknown) => ValidationResult<ResourceOfKind[K]> } = {
  Prometheus: validatePrometheus,
  PrometheusAgent: validatePrometheusAgent,
  Alertmanager: validateAlertmanager,
  ThanosRuler: validateThanosRuler,
  AlertmanagerConfig: validateAlertmanagerConfig,
  ServiceMonitor: validateServiceMonitor,
  PodMonitor: validatePodMonitor,
  Probe: validateProbe,
  ScrapeConfig: validateScrapeConfig,
  PrometheusRule: validatePrometheusRule,
};
