/**
 * Reads the Secrets and ConfigMaps that resources reference. Lookups are confined to the
 * referencing resource's namespace (there is no way to name another one), and results are
 * values: a missing object or key is a problem for that resource only, never an exception.
 * Problem messages name the object and key but never contain a value.
 */
import type { ConfigMapKeySelector, SecretKeySelector } from '@promop/crds';
import type { FieldProblem, KeyValueSource } from './model.ts';

/** A `{name, key, optional}` reference to a Secret or ConfigMap key. */
export type KeyReference = SecretKeySelector | ConfigMapKeySelector;

/** Result of one lookup. `value` is undefined for a missing optional reference. */
export type KeyLookup = { ok: true; value: string | undefined } | { ok: false; problem: FieldProblem };

/** Indexed, namespace-confined access to Secrets and ConfigMaps. */
export class SecretStore {
  private readonly secrets = new Map<string, Record<string, string>>();
  private readonly configMaps = new Map<string, Record<string, string>>();

  constructor(secrets: KeyValueSource[], configMaps: KeyValueSource[]) {
    for (const s of secrets) this.secrets.set(`${s.namespace}/${s.name}`, s.data);
    for (const c of configMaps) this.configMaps.set(`${c.namespace}/${c.name}`, c.data);
  }

  /** Reads `ref.key` of Secret `ref.name` in `namespace`; `path` locates the reference for the message. */
  secretKey(namespace: string, ref: KeyReference, path: string): KeyLookup {
    return lookup(this.secrets, 'Secret', namespace, ref, path);
  }

  /** Reads `ref.key` of ConfigMap `ref.name` in `namespace`. */
  configMapKey(namespace: string, ref: KeyReference, path: string): KeyLookup {
    return lookup(this.configMaps, 'ConfigMap', namespace, ref, path);
  }
}

function lookup(
  index: Map<string, Record<string, string>>,
  kind: 'Secret' | 'ConfigMap',
  namespace: string,
  ref: KeyReference,
  path: string,
): KeyLookup {
  const data = ref.name ? index.get(`${namespace}/${ref.name}`) : undefined;
  if (!data) {
    if (ref.optional) return { ok: true, value: undefined };
    return { ok: false, problem: { path, message: `${kind} "${ref.name ?? ''}" not found in namespace "${namespace}"` } };
  }
  const value = data[ref.key];
  if (value === undefined) {
    if (ref.optional) return { ok: true, value: undefined };
    return { ok: false, problem: { path, message: `key "${ref.key}" not found in ${kind} "${ref.name}" in namespace "${namespace}"` } };
  }
  return { ok: true, value };
}
