/**
 * What the health reporter writes into a binding (pure): the `targets` of a monitor or the `rules` of a
 * PrometheusRule, and the `Healthy` condition, beside the binding's `Accepted` condition, which stays as the
 * verdict recorder wrote it (and which, in turn, keeps these fields: reconcile/bindings.ts).
 *
 * A summary is written only when it changes class: its condition reason, the kind of its error (errorKind), or a
 * count moving to another bucket (count-buckets.ts). Counts that wander inside their buckets (a pod replaced, an
 * evaluation a millisecond slower) therefore write nothing, and a stable cluster sees no status writes at all.
 */
import type { ConfigResourceStatus } from '@promop/crds';
import { withTransitionTime, type Condition } from '../reconcile/conditions.ts';
import { countBucket } from './count-buckets.ts';
import { errorKind } from './redact-error.ts';
import { rulesCondition, type RulesSummary } from './rule-health.ts';
import { noTargetsReasonClass } from './no-targets-reason.ts';
import { noTargetsReasonOf, targetsCondition, type TargetsSummary } from './target-health.ts';

/** One binding of a monitor or rule. */
export type Binding = NonNullable<ConfigResourceStatus['bindings']>[number];
type BindingCondition = NonNullable<Binding['conditions']>[number];

/** The condition type of the health of a binding. */
export const HEALTHY_CONDITION = 'Healthy';

/**
 * What one Prometheus reports of one object; a monitor without targets with the reason promop found
 * (no-targets-reason.ts), when it found one.
 */
export type BindingHealth = { kind: 'targets'; summary: TargetsSummary; noTargetsReason?: string } | { kind: 'rules'; summary: RulesSummary };

/**
 * Evaluation times jitter by milliseconds between evaluations: below this they are all one bucket, above it powers
 * of two, so only a real slowdown changes the class.
 */
const FAST_EVALUATION_MS = 100;

function evaluationBucket(ms: number): number {
  return ms < FAST_EVALUATION_MS ? 0 : 2 ** Math.floor(Math.log2(ms));
}

/** The reason of the Healthy condition `health` makes (`TargetsUp`, `TargetsDown`, `NoTargets`, `RulesFailing`...). */
export function healthReason(health: BindingHealth): string {
  return health.kind === 'targets' ? targetsCondition(health.summary).reason : rulesCondition(health.summary).reason;
}

/** The class of `health`: equal classes write nothing (see the file comment). */
export function healthClass(health: BindingHealth): string {
  if (health.kind === 'targets') {
    const s = health.summary;
    // A changed reason of a monitor without targets is a change of class: it changes only when the team (or the
    // cluster) changes what it depends on, so it cannot flap on its own, and the team needs the new one, not the
    // one it has just fixed (the reporter looks it up again only now and then: health-reporter.ts).
    const why = s.active === 0 && health.noTargetsReason !== undefined ? noTargetsReasonClass(health.noTargetsReason) : '';
    return ['targets', targetsCondition(s).reason, countBucket(s.active), countBucket(s.up), countBucket(s.down), countBucket(s.unknown),
      s.lastError === undefined ? '' : errorKind(s.lastError), countBucket(s.lastErrorCount ?? 0), why].join('\n');
  }
  const s = health.summary;
  return ['rules', rulesCondition(s).reason, countBucket(s.groups), countBucket(s.rules), countBucket(s.failing), countBucket(s.pending),
    s.lastError === undefined ? '' : errorKind(s.lastError), countBucket(s.firingAlerts), evaluationBucket(s.evaluationMilliseconds)].join('\n');
}

/** What a binding says of its health, as a person reads it: the Healthy condition with the counts beside it. */
export interface ReportedHealth {
  status: string;
  /** The condition's reason (`TargetsUp`, `NoTargets`, ...); empty when it has none. */
  reason: string;
  message: string;
  /** Its lastTransitionTime. */
  since?: string;
  targets?: Binding['targets'];
  rules?: Binding['rules'];
}

/**
 * The health `binding` carries, read the one way every reader shows it (`promop explain`, `promop targets`);
 * undefined before a first report (no Healthy condition).
 */
export function reportedHealth(binding: Binding | undefined): ReportedHealth | undefined {
  const healthy = binding?.conditions?.find((condition) => condition.type === HEALTHY_CONDITION);
  if (!binding || !healthy) return undefined;
  return {
    status: healthy.status, reason: healthy.reason ?? '', message: healthy.message ?? '',
    ...(healthy.lastTransitionTime ? { since: healthy.lastTransitionTime } : {}),
    ...(binding.targets ? { targets: binding.targets } : {}),
    ...(binding.rules ? { rules: binding.rules } : {}),
  };
}

/** The health a binding carries now, as last written; undefined when none was written. */
export function writtenHealth(binding: Binding): BindingHealth | undefined {
  if (binding.targets) {
    const { active = 0, up = 0, down = 0, unknown = 0, lastError, lastErrorCount } = binding.targets;
    const healthy = binding.conditions?.find((condition) => condition.type === HEALTHY_CONDITION);
    const noTargetsReason = healthy?.reason === 'NoTargets' ? noTargetsReasonOf(healthy.message) : undefined;
    return {
      kind: 'targets',
      summary: { active, up, down, unknown, ...(lastError === undefined ? {} : { lastError }), ...(lastErrorCount === undefined ? {} : { lastErrorCount }) },
      ...(noTargetsReason === undefined ? {} : { noTargetsReason }),
    };
  }
  if (binding.rules) {
    const { groups = 0, rules = 0, failing = 0, pending = 0, lastError, firingAlerts = 0, evaluationMilliseconds = 0 } = binding.rules;
    return { kind: 'rules', summary: { groups, rules, failing, pending, firingAlerts, evaluationMilliseconds, ...(lastError === undefined ? {} : { lastError }) } };
  }
  return undefined;
}

/** Whether writing `health` into `binding` would change its class (a binding without health always changes). */
export function healthChangesClass(binding: Binding, health: BindingHealth): boolean {
  const written = writtenHealth(binding);
  return written === undefined || healthClass(written) !== healthClass(health) ||
    !binding.conditions?.some((condition) => condition.type === HEALTHY_CONDITION);
}

/**
 * The Warning worth one Event when `binding` goes from `before` to its new health: a monitor that finds no target,
 * or whose targets are all down, and a rule that fails to evaluate, each when it starts (not on every period, nor
 * when only the counts of a failing state move). Undefined when nothing newly went wrong.
 */
export function healthAlarm(before: Binding, after: Binding): { reason: string; message: string } | undefined {
  const alarm = (binding: Binding) => {
    const healthy = binding.conditions?.find((condition) => condition.type === HEALTHY_CONDITION);
    if (!healthy || healthy.status !== 'False' || !healthy.reason) return undefined;
    if (healthy.reason === 'TargetsDown' && (binding.targets?.up ?? 0) > 0) return undefined;
    return { reason: healthy.reason === 'TargetsDown' ? 'AllTargetsDown' : healthy.reason, message: healthy.message ?? '' };
  };
  const now = alarm(after);
  return now && alarm(before)?.reason !== now.reason ? now : undefined;
}

/** `binding` with `health` written in: its counts, and the Healthy condition (its time moves only with its status). */
export function bindingWithHealth(binding: Binding, health: BindingHealth, now: Date): Binding {
  const { status, reason, message } = health.kind === 'targets' ? targetsCondition(health.summary, health.noTargetsReason) : rulesCondition(health.summary);
  const previous = binding.conditions?.find((condition) => condition.type === HEALTHY_CONDITION);
  const healthy = withTransitionTime<Condition>({ type: HEALTHY_CONDITION, status, reason, message }, previous as Condition | undefined, now) as BindingCondition;
  const conditions = [...(binding.conditions ?? []).filter((condition) => condition.type !== HEALTHY_CONDITION), healthy];
  const { targets: _targets, rules: _rules, ...rest } = binding;
  return health.kind === 'targets' ? { ...rest, conditions, targets: { ...health.summary } } : { ...rest, conditions, rules: { ...health.summary } };
}
