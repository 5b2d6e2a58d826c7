/**
 * A deterministic hash of a StatefulSet as promop builds it. The controller stores it in an annotation and
 * compares it with the hash of the StatefulSet it would build now: equal means nothing the pods depend on has
 * changed and no write is needed, which avoids diffing against fields the API server defaulted. The config and
 * rule contents are not part of the StatefulSet (they reach the pods through volumes and `/-/reload`), so a
 * config change never rolls the pods.
 */
import { createHash } from 'node:crypto';

/** Annotation on each StatefulSet holding the input hash. */
export const INPUT_HASH_ANNOTATION = 'promop.prometheus.io/input-hash';

/** JSON with object keys sorted at every level, so key order never changes the hash. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** sha256 (hex) of the canonical JSON of `value`. */
export function inputHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
