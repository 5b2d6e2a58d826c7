/**
 * True when an optional CRD field holds a value. Fields read from the API server may be null as
 * well as absent, and `false`/`0` are real values that a truthiness test would drop.
 */
export function isPresent<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}
