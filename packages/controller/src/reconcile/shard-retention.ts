/**
 * What happens to the StatefulSet of a shard that `spec.shards` no longer has, per `spec.shardRetentionPolicy`
 * (prometheus-operator's field): `whenScaled: Delete` (the default) deletes it at once; `whenScaled: Retain` keeps
 * it, with its pods, its data and its config Secrets, until a deadline promop writes on it
 * (`promop.prometheus.io/deletion-deadline`, now + `retain.retentionPeriod`, default `spec.retention` or 24h), so
 * its data stays queryable for as long as the Prometheus keeps data anyway. Scaling back up before the deadline
 * reuses it. A PrometheusAgent has no such field (nor upstream's): its removed shards are deleted. Pure: the
 * reconciler does the writes.
 */
import type { Prometheus } from '@promop/crds';
import type { PrometheusWorkload } from '../workload/index.ts';
import type { V1StatefulSet } from '@kubernetes/client-node';
import { isAgent, parseDuration } from '@promop/config-generator';

/** The annotation on a retained shard's StatefulSet: when promop deletes it (RFC 3339). */
export const DELETION_DEADLINE_ANNOTATION = 'promop.prometheus.io/deletion-deadline';

/** Retention when neither `retain.retentionPeriod` nor `spec.retention` says: Prometheus' own default. */
const DEFAULT_RETENTION = '24h';

/** What to do with a removed shard's StatefulSet now. */
export type RemovedShardAction =
  | { action: 'delete'; reason: 'policy Delete' | 'deadline passed' }
  /** Keep it; `deadline` set when the StatefulSet has none yet (the reconciler writes it). */
  | { action: 'retain'; until: string; deadline?: string };

interface RetentionPolicy {
  whenScaled?: unknown;
  retain?: { retentionPeriod?: unknown };
}

/** The server spec that holds the policy; an agent's is none. */
function serverSpec(prometheus: PrometheusWorkload): NonNullable<Prometheus['spec']> {
  return isAgent(prometheus) ? {} : prometheus.spec ?? {};
}

/**
 * The action for `statefulSet`, a shard of `prometheus` that is no longer wanted. An unreadable deadline
 * annotation (edited by hand) is written again from now.
 */
export function removedShardAction(prometheus: PrometheusWorkload, statefulSet: V1StatefulSet, now: Date): RemovedShardAction {
  const policy = (serverSpec(prometheus).shardRetentionPolicy ?? {}) as RetentionPolicy;
  if (policy.whenScaled !== 'Retain') return { action: 'delete', reason: 'policy Delete' };
  const written = statefulSet.metadata?.annotations?.[DELETION_DEADLINE_ANNOTATION];
  const writtenMs = written === undefined ? NaN : Date.parse(written);
  if (!Number.isNaN(writtenMs)) {
    return writtenMs <= now.getTime() ? { action: 'delete', reason: 'deadline passed' } : { action: 'retain', until: written! };
  }
  const deadline = new Date(now.getTime() + retentionPeriodMs(prometheus)).toISOString();
  return { action: 'retain', until: deadline, deadline };
}

/** `retain.retentionPeriod`, else `spec.retention`, else 24h (validated by shardRetentionProblems). */
function retentionPeriodMs(prometheus: PrometheusWorkload): number {
  const policy = (serverSpec(prometheus).shardRetentionPolicy ?? {}) as RetentionPolicy;
  const period = typeof policy.retain?.retentionPeriod === 'string' ? policy.retain.retentionPeriod : undefined;
  return parseDuration(period ?? serverSpec(prometheus).retention ?? DEFAULT_RETENTION) ?? parseDuration(DEFAULT_RETENTION)!;
}

/**
 * The user errors in `spec.shardRetentionPolicy`: `whenScaled` other than Delete or Retain, a `retentionPeriod` that
 * is not a Prometheus duration. The CRD refuses both; an object stored while the CRD kept the field opaque, or one
 * `promop render` reads from a file, still reaches here.
 */
export function shardRetentionProblems(prometheus: PrometheusWorkload): { path: string; message: string }[] {
  const raw = serverSpec(prometheus).shardRetentionPolicy;
  if (raw === undefined || raw === null) return [];
  if (typeof raw !== 'object' || Array.isArray(raw)) return [{ path: 'spec.shardRetentionPolicy', message: 'must be an object with whenScaled (Delete or Retain) and optionally retain.retentionPeriod' }];
  const policy = raw as RetentionPolicy;
  const problems: { path: string; message: string }[] = [];
  if (policy.whenScaled !== undefined && policy.whenScaled !== 'Delete' && policy.whenScaled !== 'Retain') {
    problems.push({ path: 'spec.shardRetentionPolicy.whenScaled', message: `must be Delete or Retain, not ${JSON.stringify(policy.whenScaled)}` });
  }
  const period = policy.retain?.retentionPeriod;
  if (period !== undefined && (typeof period !== 'string' || parseDuration(period) === undefined || parseDuration(period) === 0)) {
    problems.push({ path: 'spec.shardRetentionPolicy.retain.retentionPeriod', message: `must be a Prometheus duration such as 12h or 7d, not ${JSON.stringify(period)}` });
  }
  return problems;
}
