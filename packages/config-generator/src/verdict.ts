/**
 * Verdicts of selected resources, built in one place so that every kind words a rejection the
 * same way: the reason is the first problem, as `<path>: <sentence>` (see Verdict in model.ts).
 */
import type { ObjectMeta } from '@promop/crds';
import type { FieldProblem, ResourceKind, ResourceRef, Verdict } from './model.ts';

/** The verdict of a selected resource: accepted when `problems` is empty, else rejected by the first one. */
export function selectedVerdict(resource: ResourceRef, problems: FieldProblem[], warnings: string[]): Verdict {
  const first = problems[0];
  if (!first) return { resource, selected: true, accepted: true, warnings };
  return { resource, selected: true, accepted: false, reason: `${first.path}: ${first.message}`, problems, warnings };
}

/** The reference to `object` in verdicts; missing metadata reads as empty strings. */
export function resourceRef(kind: ResourceKind, object: { metadata: Pick<ObjectMeta, 'namespace' | 'name'> }): ResourceRef {
  return { kind, namespace: object.metadata?.namespace ?? '', name: object.metadata?.name ?? '' };
}
