/**
 * Status conditions with Kubernetes' convention (and prometheus-operator's `UpdateConditions`):
 * `lastTransitionTime` changes only when `status` does, so "since when is it failing" stays readable.
 */

/** A condition as promop writes it (Prometheus conditions and binding conditions share this shape). */
export interface Condition<Type extends string = string, Status extends string = string> {
  type: Type;
  status: Status;
  reason?: string;
  message?: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

/** `next` with the previous condition's lastTransitionTime when its status did not change, `now` otherwise. */
export function withTransitionTime<C extends Condition>(next: Omit<C, 'lastTransitionTime'>, previous: Condition | undefined, now: Date): C {
  const lastTransitionTime = previous && previous.status === next.status ? previous.lastTransitionTime : now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { ...next, lastTransitionTime } as C;
}

/** Whether two conditions say the same thing (everything but the time). */
export function sameCondition(a: Condition | undefined, b: Condition | undefined): boolean {
  if (!a || !b) return a === b;
  return a.type === b.type && a.status === b.status && (a.reason ?? '') === (b.reason ?? '') && (a.message ?? '') === (b.message ?? '') &&
    a.observedGeneration === b.observedGeneration;
}
