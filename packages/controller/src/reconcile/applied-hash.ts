/**
 * Zero writes when nothing changed (pure). Every child promop applies carries the annotation
 * `promop.prometheus.io/applied-hash`: the hash of exactly the body promop applies (the annotation itself left
 * out). Before an apply the reconciler compares the body it would send with the cached object:
 * - the cached annotation equals the new body's hash: promop's last apply sent this very body, so the apply would
 *   neither add nor remove a field promop manages (a field promop stopped sending changes the hash);
 * - and every field of the body is in the cached object with the same value: nobody changed them since (a
 *   `kubectl edit` of a field promop manages is put back).
 * Both hold: the apply is skipped. Server-side apply would have stored nothing new either, but it is still a
 * request, and a 1 MiB config Secret on every resync. The annotation lives in the object, so a restarted promop
 * skips the same applies.
 *
 * Where the API server stores a value in another form than promop writes it, the fields never match and the child
 * is applied every reconcile; that costs a request, never a wrong object. Quantities are the common case, so the
 * StatefulSet builder writes them canonically (workload/quantity.ts).
 */
import { inputHash } from '../workload/index.ts';
import { containsJson } from './json-equality.ts';

/** The annotation holding the hash of what promop applied. */
export const APPLIED_HASH_ANNOTATION = 'promop.prometheus.io/applied-hash';

interface Annotated {
  metadata?: { annotations?: Record<string, string> | undefined } | undefined;
}

/** `body` with its applied-hash annotation. */
export function withAppliedHash<T extends Annotated>(body: T): T {
  const { [APPLIED_HASH_ANNOTATION]: _previous, ...annotations } = body.metadata?.annotations ?? {};
  const hash = inputHash({ ...body, metadata: { ...body.metadata, annotations } }).slice(0, 32);
  return { ...body, metadata: { ...body.metadata, annotations: { ...annotations, [APPLIED_HASH_ANNOTATION]: hash } } };
}

/** The applied-hash annotation of an object (undefined when promop never applied it with one). */
export function appliedHashOf(object: Annotated | undefined): string | undefined {
  return object?.metadata?.annotations?.[APPLIED_HASH_ANNOTATION];
}

/** Whether applying `desired` (from withAppliedHash) over `cached` would change nothing (see the module comment). */
export function isUpToDate<T extends Annotated>(desired: T, cached: T | undefined): boolean {
  if (!cached) return false;
  const hash = appliedHashOf(desired);
  return hash !== undefined && appliedHashOf(cached) === hash && containsJson(cached, desired);
}
