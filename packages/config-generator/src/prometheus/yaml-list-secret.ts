/**
 * Reads a Secret key that must hold a YAML list of mappings, the format of
 * additionalScrapeConfigs, additionalAlertManagerConfigs and additionalAlertRelabelConfigs.
 */
import { load } from 'js-yaml';
import type { SecretKeySelector } from '@promop/crds';
import type { PrometheusRenderContext } from './render-context.ts';

/**
 * The parsed list, or undefined when the reference is unset, optional and missing, or invalid
 * (a problem at `path` is then recorded). Key order of every mapping is kept.
 */
export function readYamlListSecret(
  ref: SecretKeySelector | undefined,
  path: string,
  context: PrometheusRenderContext,
): Array<Record<string, unknown>> | undefined {
  if (!ref) return undefined;
  // Not readSecretKey: here `optional: true` is honoured (a missing optional Secret is no list), as upstream.
  const lookup = context.secrets.secretKey(context.namespace, ref, path);
  if (!lookup.ok) context.findings.add(lookup.problem);
  const text = lookup.ok ? lookup.value : undefined;
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = load(text);
  } catch (error) {
    context.findings.problem(path, `key "${ref.key}" of Secret "${ref.name ?? ''}" is not valid YAML: ${describeYamlError(error)}`);
    return undefined;
  }
  // An empty key is an empty list, as yaml.v2 unmarshals it.
  if (parsed === null || parsed === undefined) return [];
  if (!Array.isArray(parsed)) {
    context.findings.problem(path, `key "${ref.key}" of Secret "${ref.name ?? ''}" must hold a YAML list, not ${describeYamlValue(parsed)}`);
    return undefined;
  }
  const badItem = parsed.findIndex((item) => item === null || typeof item !== 'object' || Array.isArray(item));
  if (badItem >= 0) {
    context.findings.problem(path, `key "${ref.key}" of Secret "${ref.name ?? ''}": item ${badItem} of the list must be a mapping, not ${describeYamlValue(parsed[badItem])}`);
    return undefined;
  }
  return parsed as Array<Record<string, unknown>>;
}

/**
 * The parser's reason and position, without the parts that quote the Secret's text: js-yaml
 * names unknown tags and aliases verbatim (`unknown tag !<!s3cret>`) and appends a snippet of
 * the source, and the Secret may hold credentials.
 */
function describeYamlError(error: unknown): string {
  const { reason, mark } = (error ?? {}) as { reason?: unknown; mark?: { line?: unknown; column?: unknown } };
  const what = typeof reason === 'string' ? reason.split(/[!"'<`]/)[0]?.trim() || 'syntax error' : 'syntax error';
  if (typeof mark?.line !== 'number' || typeof mark.column !== 'number') return what;
  return `${what} at line ${mark.line + 1}, column ${mark.column + 1}`;
}

function describeYamlValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a mapping' : `a ${typeof value}`;
}
