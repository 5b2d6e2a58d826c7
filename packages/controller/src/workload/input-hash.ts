/**
 * A deterministic hash of a StatefulSet as promop builds it. The controller stores it in an annotation and
 * compares it with the hash of the StatefulSet it would build now: equal means nothing the pods depend on has
 * changed and no write is needed, which avoids diffing against fields the API server defaulted. The config and
 * rule contents are not part of the StatefulSet (they reach the pods through volumes and `/-/reload`), so a
 * config change never rolls the pods.
 */
import { createHash } from 'node:crypto';
import { isBase64Data } from './secret-size.ts';

/** Annotation on each StatefulSet holding the input hash. */
export const INPUT_HASH_ANNOTATION = 'promop.prometheus.io/input-hash';

/** Strings JSON writes as they are between two quotes (base64 Secret data, most YAML): nothing to escape. */
const NEEDS_NO_ESCAPING = /^[A-Za-z0-9+/=_.:, -]*$/;

/**
 * Feeds the JSON of `value` with object keys sorted at every level (so key order never changes the hash) to
 * `write`, piece by piece: the bodies hashed include Secrets of up to 1 MiB, and building one string of them first,
 * then escaping their data with JSON.stringify, costs several times what hashing them alone does.
 */
function writeCanonicalJson(value: unknown, write: (piece: string) => void): void {
  if (Array.isArray(value)) {
    write('[');
    value.forEach((item, index) => {
      if (index > 0) write(',');
      writeCanonicalJson(item, write);
    });
    write(']');
    return;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    // Secret data promop encoded (secret-size.ts): base64 values, nothing to escape, no need to scan them for it.
    const base64 = isBase64Data(value);
    write('{');
    entries.forEach(([key, item], index) => {
      write(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`);
      if (base64 && typeof item === 'string') {
        write('"');
        write(item);
        write('"');
      } else {
        writeCanonicalJson(item, write);
      }
    });
    write('}');
    return;
  }
  if (typeof value === 'string' && value.length > 256 && NEEDS_NO_ESCAPING.test(value)) {
    write('"');
    write(value);
    write('"');
    return;
  }
  write(JSON.stringify(value) ?? 'null');
}

/** sha256 (hex) of the canonical JSON of `value`. */
export function inputHash(value: unknown): string {
  const hash = createHash('sha256');
  writeCanonicalJson(value, (piece) => hash.update(piece));
  return hash.digest('hex');
}

/** The canonical JSON inputHash hashes (for its test: the same text as before it was written piece by piece). */
export function canonicalJsonOf(value: unknown): string {
  const pieces: string[] = [];
  writeCanonicalJson(value, (piece) => pieces.push(piece));
  return pieces.join('');
}
