/**
 * Embedded Kubernetes fields of the Prometheus spec (tolerations, resources, volumes, containers...) are opaque
 * objects in promop's CRD (docs/compatibility.md). promop does not check them itself: it copies them into the
 * objects it writes, and the API server validates them there and answers 422 with the field path, which the
 * controller reports in the Prometheus' status. This is the one place that treats them as client-node types.
 */

/** An opaque embedded value, typed as the Kubernetes model the API server will validate it against. */
export function asEmbedded<T>(value: unknown): T {
  return value as T;
}
