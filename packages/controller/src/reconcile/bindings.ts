/**
 * `status.bindings` of ServiceMonitors, PodMonitors and PrometheusRules (prometheus-operator §7): one entry per
 * Prometheus (`resource: prometheuses`) or PrometheusAgent (`resource: prometheusagents`) that selects the object, with an `Accepted` condition; plus promop's `acceptedBy`/`rejectedBy`
 * counts that `kubectl get` shows as columns. Pure: the reconciler writes what this computes.
 */
import type { Verdict } from '@promop/config-generator';
import { GROUP, PLURALS, type ConfigResourceStatus } from '@promop/crds';
import { sameCondition, withTransitionTime, type Condition } from './conditions.ts';

type Binding = NonNullable<ConfigResourceStatus['bindings']>[number];
type BindingCondition = NonNullable<Binding['conditions']>[number];

/** Reason of a rejected binding (prometheus-operator's). */
export const REJECTED_REASON = 'InvalidConfiguration';
/** Reason of an accepted binding. */
export const ACCEPTED_REASON = 'Accepted';

/** A monitor or rule as far as its status is concerned. */
export interface BoundResource {
  metadata: { generation?: number | undefined };
  status?: ConfigResourceStatus | undefined;
}

/** The Prometheus (or agent) a binding belongs to. */
export interface BindingOwner {
  namespace: string;
  name: string;
  /** The owner's resource: `prometheuses` (the default), `prometheusagents` or `alertmanagers`. */
  resource?: Binding['resource'];
}

const resourceOf = (owner: BindingOwner) => owner.resource ?? PLURALS.Prometheus;

/** The new status of one resource, and what changed. */
export interface BindingChange {
  status: ConfigResourceStatus;
  /** Whether `status` differs from the resource's current status (besides times). */
  changed: boolean;
  /** The rejection message when this Prometheus newly rejects the resource or rejects it for a new reason. */
  newRejection: string | undefined;
}

/** The verdict's decision as a binding condition, or undefined when the resource is not selected. */
function conditionFor(verdict: Verdict | undefined, generation: number | undefined): Omit<BindingCondition, 'lastTransitionTime'> | undefined {
  if (!verdict || !verdict.selected) return undefined;
  const observedGeneration = generation === undefined ? {} : { observedGeneration: generation };
  if (verdict.accepted) {
    const message = verdict.warnings.join('; ');
    return { type: 'Accepted', status: 'True', reason: ACCEPTED_REASON, ...(message ? { message } : {}), ...observedGeneration };
  }
  const message = verdict.problems.length > 0 ? verdict.problems.map((p) => `${p.path}: ${p.message}`).join('; ') : verdict.reason;
  return { type: 'Accepted', status: 'False', reason: REJECTED_REASON, message, ...observedGeneration };
}

/**
 * Everything of a verdict that its binding depends on, as one text (pure): equal texts for the same resource
 * object give the same binding, so the reconciler can tell "unchanged" without computing the status again.
 */
export function bindingDecision(verdict: Verdict | undefined): string {
  if (!verdict || !verdict.selected) return '';
  if (verdict.accepted) return `accepted\n${verdict.warnings.join('; ')}`;
  return `rejected\n${verdict.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}\n${verdict.reason}`;
}

function isOwnedBy(binding: Binding, owner: BindingOwner): boolean {
  return binding.group === GROUP && binding.resource === resourceOf(owner) && binding.namespace === owner.namespace && binding.name === owner.name;
}

/** Whether `resource`'s status holds a binding of `owner` (which only `owner`'s reconcile may change or remove). */
export function hasBindingOf(resource: BoundResource, owner: BindingOwner): boolean {
  return resource.status?.bindings?.some((binding) => isOwnedBy(binding, owner)) ?? false;
}

/**
 * The status of `resource` once `owner`'s verdict is recorded: its binding added, replaced or (not selected, or
 * no verdict) removed; other Prometheus objects' bindings untouched; counts recomputed from the result.
 */
export function bindResource(resource: BoundResource, owner: BindingOwner, verdict: Verdict | undefined, now: Date): BindingChange {
  const bindings = resource.status?.bindings ?? [];
  const current = bindings.find((binding) => isOwnedBy(binding, owner));
  const previous = current?.conditions?.find((c) => c.type === 'Accepted');
  const next = conditionFor(verdict, resource.metadata.generation);
  const others = bindings.filter((binding) => !isOwnedBy(binding, owner));
  let mine: Binding | undefined;
  if (next) {
    const condition = withTransitionTime<Condition>(next, previous, now) as BindingCondition;
    // What the health reporter wrote into the binding (health/binding-health.ts) stays: a verdict says nothing of it.
    const healthy = current?.conditions?.filter((c) => c.type !== 'Accepted') ?? [];
    mine = {
      group: GROUP, resource: resourceOf(owner), namespace: owner.namespace, name: owner.name, conditions: [condition, ...healthy],
      ...(current?.targets ? { targets: current.targets } : {}), ...(current?.rules ? { rules: current.rules } : {}),
    };
  }
  const all = mine ? [...others, mine] : others;
  // Sorted so the same bindings always give the same object (no needless write).
  const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  all.sort((a, b) => compare(`${a.namespace}/${a.name}`, `${b.namespace}/${b.name}`) || compare(a.resource, b.resource));
  const accepted = (b: Binding) => b.conditions?.some((c) => c.type === 'Accepted' && c.status === 'True') ?? false;
  const rejected = (b: Binding) => b.conditions?.some((c) => c.type === 'Accepted' && c.status === 'False') ?? false;
  const status: ConfigResourceStatus = { bindings: all, acceptedBy: all.filter(accepted).length, rejectedBy: all.filter(rejected).length };
  const nextCondition = mine?.conditions?.find((c) => c.type === 'Accepted');
  // A resource without status that nobody selects stays without one: no status is the same as no bindings and
  // zero counts, and writing `{acceptedBy: 0}` into every unselected monitor would cost a write per monitor for
  // each Prometheus that does not select it.
  const neverBound = resource.status === undefined && all.length === 0;
  const changed = !neverBound && (!sameCondition(previous as Condition | undefined, nextCondition as Condition | undefined) ||
    resource.status?.acceptedBy !== status.acceptedBy || resource.status?.rejectedBy !== status.rejectedBy);
  const rejectedAgain = previous?.status === 'False' && previous.message === nextCondition?.message;
  const newRejection = nextCondition?.status === 'False' && !rejectedAgain ? nextCondition.message : undefined;
  return { status, changed, newRejection };
}
