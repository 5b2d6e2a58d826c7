/**
 * Equality of JSON values as the API server sees them (pure): key order does not matter and a key whose value is
 * undefined is absent. Used to tell "nothing to write" (status, children) and "nothing but status changed" (events)
 * without a request.
 */

/** Whether `a` and `b` are the same JSON value. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => sameJson(item, b[index]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keysOf = (value: Record<string, unknown>) => Object.keys(value).filter((key) => value[key] !== undefined);
  const keys = keysOf(a);
  if (keys.length !== keysOf(b).length) return false;
  return keys.every((key) => sameJson(a[key], b[key]));
}

/**
 * Whether every field `part` sets is in `whole` with the same value (arrays element by element, same length):
 * what the API server added (defaults, status, other managers' fields) does not matter. An empty array or object in
 * `part` also matches an absent field, since the API server omits empty lists and structs it defaulted to empty.
 */
export function containsJson(whole: unknown, part: unknown): boolean {
  if (part === undefined || whole === part) return true;
  if (Array.isArray(part)) {
    if (whole === undefined && part.length === 0) return true;
    if (!Array.isArray(whole) || whole.length !== part.length) return false;
    return part.every((item, index) => containsJson(whole[index], item));
  }
  if (isObject(part)) {
    if (whole === undefined && Object.keys(part).every((key) => part[key] === undefined)) return true;
    if (!isObject(whole)) return false;
    return Object.keys(part).every((key) => containsJson(whole[key], part[key]));
  }
  return false;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
