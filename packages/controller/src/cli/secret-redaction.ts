/**
 * Keeps Secret values out of what `promop render` prints. Like prometheus-operator, the generator inlines
 * credentials (basic auth, bearer tokens, OAuth2 client secrets) into prometheus.yaml, which the operator stores
 * in a Secret; printed to a terminal or a CI log the same text would disclose them. Written files (`-o`) keep the
 * values, because they are what Prometheus reads.
 */
import type { KeyValueSource } from '@promop/config-generator';

/** What a redacted value is printed as. */
export const REDACTED = '<redacted>';

/** The distinct single-line values of the given Secrets, longest first so a value containing another goes first. */
export function secretValues(secrets: readonly KeyValueSource[]): string[] {
  const values = new Set<string>();
  for (const secret of secrets) {
    for (const value of Object.values(secret.data)) if (value !== '' && !value.includes('\n')) values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

/**
 * Replaces every YAML scalar of `text` that is one of `values` (plain, single- or double-quoted, as a mapping
 * value or a list item) with REDACTED. Whole scalars only: a value that merely occurs inside a longer string
 * (a password `web` inside `job_name: web-frontend`) is left alone, so the rest of the config stays readable.
 */
export function redactSecretValues(text: string, values: readonly string[]): string {
  let redacted = text;
  for (const value of values) {
    const spellings = new Set([value, JSON.stringify(value), `'${value.replace(/'/g, "''")}'`]);
    for (const spelling of spellings) {
      const scalar = new RegExp(`(^[ \\t]*|: |- )${escapeRegExp(spelling)}[ \\t]*$`, 'gm');
      redacted = redacted.replace(scalar, (_match, prefix: string) => `${prefix}${REDACTED}`);
    }
  }
  return redacted;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
