/**
 * The status of a Prometheus, computed from the outcome of a reconcile and its StatefulSets (prometheus-operator
 * §7): replica counts summed over shards and per shard, `Available` from ready pods, `Reconciled` from the
 * reconcile, `shards` and `selector` for the scale subresource; and promop's `configStatus`, which replicas run the
 * written files (from the ConfigReloader).
 */
import type { V1StatefulSet } from '@kubernetes/client-node';
import { shardCount as generatorShardCount } from '@promop/config-generator';
import type { PrometheusStatus } from '@promop/crds';
import type { PrometheusWorkload } from '../workload/index.ts';
import { PROMETHEUS_NAME_LABEL, MANAGED_BY_LABEL, MANAGED_BY, statefulSetName, namingOf, workloadKind } from '../workload/index.ts';
import { withTransitionTime, type Condition } from './conditions.ts';

/** The Reconciled condition without its time. */
export interface ReconciledVerdict {
  /** Unknown: the files are written and promop is reloading the replicas (reason Reloading). */
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

type PrometheusCondition = NonNullable<PrometheusStatus['conditions']>[number];

/** Everything the status depends on besides the Prometheus itself. */
export interface PrometheusStatusInput {
  /** The StatefulSets of shards 0..n−1 as last seen (undefined: not found). */
  statefulSets: (V1StatefulSet | undefined)[];
  /** undefined keeps the Reconciled condition already in status (a paused Prometheus). */
  reconciled: ReconciledVerdict | undefined;
  /**
   * Which replicas of each shard run the written files, from this reconcile's reload. Absent (paused, or nothing
   * written because the spec is broken): the entries already in status are kept, for the shards that still exist.
   */
  configStatus?: NonNullable<PrometheusStatus['configStatus']>;
  now: Date;
}

/** The number of shards of a Prometheus: the generator's answer (it renders one config per shard). */
export function shardCount(prometheus: PrometheusWorkload): number {
  return generatorShardCount(prometheus.spec?.shards);
}

/** The status to apply. */
export function prometheusStatus(prometheus: PrometheusWorkload, input: PrometheusStatusInput): PrometheusStatus {
  const previous = prometheus.status?.conditions ?? [];
  const generation = prometheus.metadata.generation;
  const condition = (type: string, status: string, reason: string, message: string): PrometheusCondition =>
    withTransitionTime<Condition>(
      { type, status, ...(reason ? { reason } : {}), ...(message ? { message } : {}), ...(generation === undefined ? {} : { observedGeneration: generation }) },
      previous.find((c) => c.type === type),
      input.now,
    ) as PrometheusCondition;

  const shardStatuses = input.statefulSets.map((statefulSet, shard) => {
    const replicas = statefulSet?.status?.replicas ?? 0;
    const available = statefulSet?.status?.availableReplicas ?? statefulSet?.status?.readyReplicas ?? 0;
    return {
      shardID: String(shard),
      replicas,
      updatedReplicas: statefulSet?.status?.updatedReplicas ?? 0,
      availableReplicas: available,
      unavailableReplicas: Math.max(0, replicas - available),
    };
  });
  const sum = (field: 'replicas' | 'updatedReplicas' | 'availableReplicas' | 'unavailableReplicas') =>
    shardStatuses.reduce((total, shard) => total + shard[field], 0);

  const conditions: PrometheusCondition[] = [availableCondition(prometheus, input.statefulSets, condition)];
  const reconciled = input.reconciled
    ? condition('Reconciled', input.reconciled.status, input.reconciled.reason, input.reconciled.message)
    : previous.find((c) => c.type === 'Reconciled');
  if (reconciled) conditions.push(reconciled);

  const name = prometheus.metadata.name;
  const shards = shardCount(prometheus);
  const configStatus = input.configStatus ?? (prometheus.status?.configStatus ?? []).filter((entry) => Number(entry.shardID) < shards);
  return {
    paused: prometheus.spec?.paused === true,
    replicas: sum('replicas'),
    updatedReplicas: sum('updatedReplicas'),
    availableReplicas: sum('availableReplicas'),
    unavailableReplicas: sum('unavailableReplicas'),
    conditions,
    shardStatuses,
    ...(configStatus.length > 0 ? { configStatus } : {}),
    shards,
    // The pods of every shard: what `kubectl scale` / an HPA counts through the scale subresource.
    // An agent's adds its app name: a Prometheus of the same name has pods with the same name label.
    selector: `${MANAGED_BY_LABEL}=${MANAGED_BY},${PROMETHEUS_NAME_LABEL}=${name}${workloadKind(prometheus) === 'PrometheusAgent' ? `,app.kubernetes.io/name=${namingOf(prometheus).appName}` : ''}`,
  };
}

/**
 * Available: True when every shard has all its desired pods available, Degraded (SomePodsNotReady) when some,
 * False (NoPodReady, StatefulSetNotFound) when none; reasons of several shards are joined with "And" like
 * prometheus-operator does.
 */
function availableCondition(
  prometheus: PrometheusWorkload,
  statefulSets: (V1StatefulSet | undefined)[],
  condition: (type: string, status: string, reason: string, message: string) => PrometheusCondition,
): PrometheusCondition {
  const reasons = new Set<string>();
  const messages: string[] = [];
  let available = 0;
  let desired = 0;
  statefulSets.forEach((statefulSet, shard) => {
    const name = statefulSetName(prometheus.metadata.name, shard, workloadKind(prometheus));
    if (!statefulSet) {
      reasons.add('StatefulSetNotFound');
      messages.push(`shard ${shard}: StatefulSet ${name} not found`);
      return;
    }
    const want = statefulSet.spec?.replicas ?? 1;
    const ready = statefulSet.status?.availableReplicas ?? statefulSet.status?.readyReplicas ?? 0;
    desired += want;
    available += Math.min(ready, want);
    if (ready < want) {
      reasons.add(ready === 0 ? 'NoPodReady' : 'SomePodsNotReady');
      messages.push(`shard ${shard}: ${ready} of ${want} pods of StatefulSet ${name} available`);
    }
  });
  if (reasons.size === 0) return condition('Available', 'True', '', '');
  const someReady = available > 0 && desired > 0;
  const reason = [...reasons].sort().join('And');
  return condition('Available', someReady ? 'Degraded' : 'False', reason, messages.join('; '));
}
