/**
 * Reading credential and TLS references. Every lookup goes through the SecretStore confined to
 * the resource's own namespace; a missing object or key becomes a problem, never an exception.
 */
import type { SecretKeySelector, SecretOrConfigMap } from '@promop/crds';
import type { HttpClientContext } from './render-context.ts';

/** Where a value came from: needed to name TLS asset files. */
export interface ResolvedValue {
  source: 'secret' | 'configMap';
  name: string;
  key: string;
  value: string;
}

/**
 * Reads `ref` from a Secret in the context's namespace. Returns undefined when the reference is
 * missing (a problem at `path` is recorded).
 *
 * `optional: true` does not make a credential optional: prometheus-operator rejects the object whose
 * credential Secret or key is missing whatever the flag says (bench/compat-diff found promop writing an
 * empty username instead), and a client with an empty credential would only fail at every request.
 */
export function readSecretKey(ref: SecretKeySelector, path: string, ctx: HttpClientContext): string | undefined {
  const result = ctx.secrets.secretKey(ctx.namespace, required(ref), path);
  if (!result.ok) {
    ctx.findings.add(result.problem);
    return undefined;
  }
  return result.value;
}

/** True when a SecretOrConfigMap reference names something. */
export function isReferenceSet(ref: SecretOrConfigMap | undefined): ref is SecretOrConfigMap {
  return ref !== undefined && (ref.secret !== undefined || ref.configMap !== undefined);
}

/**
 * Reads a SecretOrConfigMap reference. Both halves set is a problem (the API says "one of"), as
 * is a missing object or key.
 */
export function readSecretOrConfigMap(ref: SecretOrConfigMap, path: string, ctx: HttpClientContext): ResolvedValue | undefined {
  if (ref.secret && ref.configMap) {
    ctx.findings.problem(path, 'only one of secret and configMap can be set');
    return undefined;
  }
  const source = ref.secret ? 'secret' : ref.configMap ? 'configMap' : undefined;
  const keyRef = source && ref[source];
  if (!source || !keyRef) return undefined;
  const result = source === 'secret' ? ctx.secrets.secretKey(ctx.namespace, required(keyRef), `${path}.secret`) : ctx.secrets.configMapKey(ctx.namespace, required(keyRef), `${path}.configMap`);
  if (!result.ok) {
    ctx.findings.add(result.problem);
    return undefined;
  }
  if (result.value === undefined) return undefined;
  return { source, name: keyRef.name ?? '', key: keyRef.key, value: result.value };
}

/** The reference without `optional` (see readSecretKey). */
function required<T extends { optional?: boolean | null }>(ref: T): T {
  return ref.optional ? { ...ref, optional: false } : ref;
}
