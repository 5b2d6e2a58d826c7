/**
 * Labels on the objects promop creates. The keys are prometheus-operator's, so existing dashboards, alerts
 * (`kube_statefulset_*{statefulset=~"prometheus-.*"}`), PodMonitors of Prometheus itself and `kubectl -l`
 * habits keep working; only the managed-by value says promop.
 */
import { WORKLOADS, type WorkloadKind } from './workload-kind.ts';

/** Value of the managed-by labels. */
export const MANAGED_BY = 'promop';

/** The recommended-label key for the managing tool. */
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';

/** Label carrying the shard number on StatefulSets, pods and per-shard Secrets. */
export const SHARD_LABEL = 'operator.prometheus.io/shard';

/** Label carrying the Prometheus name on StatefulSets, pods and per-shard Secrets. */
export const PROMETHEUS_NAME_LABEL = 'operator.prometheus.io/name';

/** Label carrying the Prometheus name on rule ConfigMaps (prometheus-operator's key, used to list them). */
export const RULE_CONFIGMAP_PROMETHEUS_LABEL = 'prometheus-name';

/** Labels every object promop creates carries: both of prometheus-operator's managed-by keys. */
export function managedByLabels(): Record<string, string> {
  return { 'managed-by': MANAGED_BY, [MANAGED_BY_LABEL]: MANAGED_BY };
}

/**
 * The pod selector of shard `shard`'s StatefulSet. A StatefulSet's selector is immutable, so this depends on
 * nothing but the Prometheus name and the shard number: no spec change may ever change it.
 * `app.kubernetes.io/name` (`prometheus`, or `prometheus-agent` for an agent) is also what the governing Service
 * selects, and keeps a server's and an agent's pods of the same name apart.
 */
export function shardSelectorLabels(prometheusName: string, shard: number, kind: WorkloadKind = 'Prometheus'): Record<string, string> {
  return {
    'app.kubernetes.io/instance': prometheusName,
    [MANAGED_BY_LABEL]: MANAGED_BY,
    'app.kubernetes.io/name': WORKLOADS[kind].appName,
    [PROMETHEUS_NAME_LABEL]: prometheusName,
    [SHARD_LABEL]: String(shard),
    prometheus: prometheusName,
  };
}
