/** Work queue keys: `namespace/name`, as in sample-controller (`cache.MetaNamespaceKeyFunc`). */

/** The key of a namespaced object. */
export function objectKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** Splits a key; throws on a malformed one (only promop builds keys, so that is a bug). */
export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  if (slash <= 0 || slash === key.length - 1) throw new Error(`bug: malformed work queue key "${key}"`);
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/**
 * The key of a Prometheus or PrometheusAgent where both kinds share a map (the reloader's memory, the per-object
 * metrics): a Prometheus keeps its plain `namespace/name`, an agent is `PrometheusAgent:namespace/name`, so a server
 * and an agent of the same name never share an entry. Work queues are per kind and use objectKey.
 */
export function workloadKey(kind: 'Prometheus' | 'PrometheusAgent', namespace: string, name: string): string {
  return kind === 'Prometheus' ? objectKey(namespace, name) : `${kind}:${objectKey(namespace, name)}`;
}
